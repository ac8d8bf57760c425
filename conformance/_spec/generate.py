"""Regenerate the standard's name tables from the specification's stubs.

The tables ``names_<version>.json`` list every name of each revision of the
standard with its kind and signature.  They are derived mechanically from the
stubs in data-apis/array-api (``src/array_api_stubs/_YYYY_MM``), read with
:mod:`ast` (the stubs are never imported), so the registry can be compared with
the standard without the spec being installed::

    python -m conformance._spec.generate /path/to/array-api/src/array_api_stubs

Each function record also says, as ``"invalid_axis": "must"`` (or
``"should"``), where its text requires an exception for an invalid axis; the
``invalid-axis`` features run only there (:func:`conformance.registry.build_registry`).
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
VERSIONS = ("2023.12", "2024.12", "2025.12")

# The standard's dtypes (data_types.md): the stubs have no module-level names.
DTYPES = (
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
)
# Operators with reflected (__rop__) and in-place (__iop__) forms
# (array_object.md, "Reflected operators" and "In-place operators").
REFLECTED = (
    "__add__",
    "__sub__",
    "__mul__",
    "__truediv__",
    "__floordiv__",
    "__mod__",
    "__pow__",
    "__matmul__",
    "__and__",
    "__or__",
    "__xor__",
    "__lshift__",
    "__rshift__",
)
SECTIONS = (
    "constants",
    "creation_functions",
    "data_type_functions",
    "elementwise_functions",
    "indexing_functions",
    "linear_algebra_functions",
    "manipulation_functions",
    "searching_functions",
    "set_functions",
    "sorting_functions",
    "statistical_functions",
    "utility_functions",
)


def _params(fn: ast.FunctionDef, *, method: bool = False) -> list[list]:
    """Return ``[[name, kind, default], ...]`` for a stub's parameters."""
    a = fn.args
    out: list[list] = []
    pos = [*a.posonlyargs, *a.args]
    defaults = [None] * (len(pos) - len(a.defaults)) + list(a.defaults)
    for i, (p, d) in enumerate(zip(pos, defaults, strict=True)):
        if method and i == 0:
            continue  # self
        kind = "positional-only" if i < len(a.posonlyargs) else "positional-or-keyword"
        out.append([p.arg, kind, None if d is None else ast.unparse(d)])
    if a.vararg is not None:
        out.append([a.vararg.arg, "var-positional", None])
    for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        out.append([p.arg, "keyword-only", None if d is None else ast.unparse(d)])
    if a.kwarg is not None:
        out.append([a.kwarg.arg, "var-keyword", None])
    return out


# "If provided an invalid axis, the function **must** raise an exception" (and
# "if provided an invalid axis position, ...", "If provided an invalid ``axis``,
# an ``IndexError`` **should** be raised", "If provided an ``axis`` outside of
# the required interval, the function must raise an exception"): one sentence
# naming an invalid axis and saying the function must (or should) raise.
_INVALID_AXIS = re.compile(
    r"\binvalid\s+`*axis`*|`*axis`*\s+outside\s+of\s+the\s+required\s+interval"
)
_RAISE = re.compile(r"\*{0,2}(must|should)\*{0,2}\s+(?:raise|be\s+raised)")
_ALIAS = re.compile(r"Alias for :func:`~array_api\.(\w+)`")


def _invalid_axis(fn: ast.FunctionDef) -> str | None:
    """Return ``"must"`` or ``"should"`` where the stub says an invalid axis raises.

    The strongest level any sentence of the docstring gives, or None where the
    text says nothing (the standard then leaves the behaviour open:
    design_topics/exceptions.md, "libraries may emit warnings, raise
    exceptions, or misbehave in unexpected ways").
    """
    doc = " ".join((ast.get_docstring(fn) or "").split())
    levels = set()
    for sentence in re.split(r"(?<=\.)\s+(?=[A-Z`-])|\n|;", doc):
        if _INVALID_AXIS.search(sentence):
            levels.update(m.group(1) for m in _RAISE.finditer(sentence))
    if "must" in levels:
        return "must"
    return "should" if levels else None


def _function(fn: ast.FunctionDef, kind: str = "function", **kw) -> dict:
    """A table record: kind, parameters and, where stated, ``invalid_axis``."""
    rec: dict = {"kind": kind, "params": _params(fn, **kw)}
    level = _invalid_axis(fn)
    if level is not None:
        rec["invalid_axis"] = level
    return rec


def _module_all(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return list(ast.literal_eval(node.value))
    return []


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def build(stubs: Path, version: str) -> dict[str, dict]:
    """Return ``{standard name: {"kind": ..., "params": ...}}`` for one revision."""
    d = stubs / ("_" + version.replace(".", "_"))
    names: dict[str, dict] = {"__array_api_version__": {"kind": "constant"}}
    for dt in DTYPES:
        names[dt] = {"kind": "dtype"}
    for section in SECTIONS:
        tree = ast.parse((d / f"{section}.py").read_text())
        fns = _functions(tree)
        for name in _module_all(tree):
            if name in fns:
                names[name] = _function(fns[name])
            else:
                names[name] = {"kind": "constant"}
    for ext in ("linalg", "fft"):
        tree = ast.parse((d / f"{ext}.py").read_text())
        fns = _functions(tree)
        for name in _module_all(tree):
            fn = fns.get(name)
            if fn is None:  # re-exported from the main namespace (matmul, ...)
                continue
            rec = _function(fn)
            alias = _ALIAS.match(ast.get_docstring(fn) or "")
            if alias and "invalid_axis" in names.get(alias.group(1), {}):
                # "Alias for :func:`~array_api.tensordot`.": the same text applies
                rec["invalid_axis"] = names[alias.group(1)]["invalid_axis"]
            names[f"{ext}.{name}"] = rec
        for name in _module_all(tree):
            if f"{ext}.{name}" not in names:
                # linalg.matmul, linalg.tensordot, ...: same signature as the
                # main-namespace function.
                names[f"{ext}.{name}"] = dict(names[name])
    info = ast.parse((d / "info.py").read_text())
    fns = _functions(info)
    for name in _module_all(info):
        if name == "__array_namespace_info__":
            names[name] = {"kind": "function", "params": _params(fns[name])}
        else:
            names[f"info.{name}"] = {"kind": "info", "params": _params(fns[name])}
    tree = ast.parse((d / "array_object.py").read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    for node in cls.body:
        if not isinstance(node, ast.FunctionDef) or node.name == "__init__":
            continue
        props = any(
            isinstance(dec, ast.Name) and dec.id == "property"
            for dec in node.decorator_list
        )
        if props:
            names[f"Array.{node.name}"] = {"kind": "attribute"}
            continue
        kind = "operator" if node.name.startswith("__") else "method"
        rec = _function(node, kind, method=True)
        names[f"Array.{node.name}"] = rec
        if node.name in REFLECTED:
            stem = node.name[2:-2]
            names[f"Array.__r{stem}__"] = {**rec, "kind": "operator"}
            names[f"Array.__i{stem}__"] = {**rec, "kind": "operator"}
    names["dtype.__eq__"] = {
        "kind": "method",
        "params": [["other", "positional-only", None]],
    }
    return dict(sorted(names.items()))


def main(argv: list[str] | None = None) -> int:
    """Write ``names_<version>.json`` for every supported revision.

    Each argument is a ``src/array_api_stubs`` folder; a revision is read from
    the first that holds its ``_YYYY_MM`` package (a checkout of the spec has
    them all, a checkout per revision one each).
    """
    argv = sys.argv[1:] if argv is None else argv
    roots = [Path(a) for a in argv]
    for v in VERSIONS:
        sub = "_" + v.replace(".", "_")
        stubs = next((r for r in roots if (r / sub).is_dir()), None)
        if stubs is None:
            print(f"no {sub} under {', '.join(argv)}", file=sys.stderr)
            return 1
        out = HERE / f"names_{v}.json"
        out.write_text(json.dumps(build(stubs, v), indent=1) + "\n")
        print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
