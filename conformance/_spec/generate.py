"""Regenerate the standard's name tables from the specification's stubs.

The tables ``names_<version>.json`` list every name of each revision of the
standard with its kind and signature.  They are derived mechanically from the
stubs in data-apis/array-api (``src/array_api_stubs/_YYYY_MM``), read with
:mod:`ast` (the stubs are never imported), so the registry can be compared with
the standard without the spec being installed::

    python -m conformance._spec.generate /path/to/array-api/src/array_api_stubs
"""

from __future__ import annotations

import ast
import json
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
                names[name] = {"kind": "function", "params": _params(fns[name])}
            else:
                names[name] = {"kind": "constant"}
    for ext in ("linalg", "fft"):
        tree = ast.parse((d / f"{ext}.py").read_text())
        fns = _functions(tree)
        for name in _module_all(tree):
            fn = fns.get(name)
            if fn is None:  # re-exported from the main namespace (matmul, ...)
                continue
            names[f"{ext}.{name}"] = {"kind": "function", "params": _params(fn)}
        for name in _module_all(tree):
            if f"{ext}.{name}" not in names:
                # linalg.matmul, linalg.tensordot, ...: same signature as the
                # main-namespace function.
                names[f"{ext}.{name}"] = {
                    "kind": "function",
                    "params": names[name]["params"],
                }
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
        params = _params(node, method=True)
        kind = "operator" if node.name.startswith("__") else "method"
        names[f"Array.{node.name}"] = {"kind": kind, "params": params}
        if node.name in REFLECTED:
            stem = node.name[2:-2]
            names[f"Array.__r{stem}__"] = {"kind": "operator", "params": params}
            names[f"Array.__i{stem}__"] = {"kind": "operator", "params": params}
    names["dtype.__eq__"] = {
        "kind": "method",
        "params": [["other", "positional-only", None]],
    }
    return dict(sorted(names.items()))


def main(argv: list[str] | None = None) -> int:
    """Write ``names_<version>.json`` for every supported revision."""
    argv = sys.argv[1:] if argv is None else argv
    stubs = Path(argv[0])
    for v in VERSIONS:
        out = HERE / f"names_{v}.json"
        out.write_text(json.dumps(build(stubs, v), indent=1) + "\n")
        print(out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
