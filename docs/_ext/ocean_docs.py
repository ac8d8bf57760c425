"""Sphinx helpers for the ocean_array_api docs.

Directives
----------
``.. ocean-api-section:: MODULE``
    The API of one section of the standard, from ``MODULE.__all__``: a summary
    table, then an ``autofunction`` (or ``autoclass``) entry per name,
    documented under its public name in ``:namespace:`` (default
    ``ocean_array_api``).  With ``:data:``, the names are values (dtypes,
    constants) and get a table and ``py:data`` entries instead.  Names that a
    revision of the standard added are marked.  The function lists therefore
    follow the code; nothing is listed twice.

``.. ocean-op-table:: BACKEND_MODULE``
    The function table (``backend.ops``) of a backend, with each entry's call
    signature.

``.. ocean-added-names::``
    The names each revision of the standard added, from
    ``ocean_array_api._namespace``.

Cross-references
----------------
Signatures name classes by their defining (private) module, e.g.
``ocean_array_api._array_object.Array``; a reference that does not resolve is
retried under the public name ``ocean_array_api.<name>``.
"""

from __future__ import annotations

import importlib
import inspect
import re
import typing
from typing import Any

import numpy as np
from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

_CONSTANTS = {
    "e": "Euler's number, the base of natural logarithms.",
    "inf": "Positive infinity (IEEE 754).",
    "nan": "Not a Number (IEEE 754).",
    "newaxis": "``None``: an alias for adding an axis in indexing (``x[:, newaxis]``).",
    "pi": "The ratio of a circle's circumference to its diameter.",
}


def _added_in() -> dict[str, str]:
    """Public name (``add``, ``linalg.eig``) -> revision of the standard that added it."""
    from ocean_array_api import _namespace

    out = {n: v for v, names in _namespace.ADDED.items() for n in names}
    out.update(
        {
            f"linalg.{n}": v
            for v, names in _namespace.LINALG_ADDED.items()
            for n in names
        }
    )
    return out


def _first_line(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.strip().split("\n\n")[0].replace("\n", " ")


class OceanAPISection(SphinxDirective):
    required_arguments = 1
    option_spec = {  # noqa: RUF012 - docutils' API
        "namespace": directives.unchanged,
        "exclude": directives.unchanged,
        "data": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        modname = self.arguments[0]
        module = importlib.import_module(modname)
        namespace = self.options.get("namespace", "ocean_array_api")
        ns_module = importlib.import_module(namespace)
        exclude = set((self.options.get("exclude") or "").replace(",", " ").split())
        names = [n for n in getattr(module, "__all__", []) if n not in exclude]
        self.env.note_dependency(inspect.getsourcefile(module) or "")
        prefix = namespace.removeprefix("ocean_array_api").lstrip(".")
        added = _added_in()

        lines = [f".. currentmodule:: {namespace}", ""]
        if not names:
            lines += [
                ".. note::",
                "",
                "   This section of the standard is not implemented yet.",
                "",
            ]
        elif "data" in self.options:
            lines += self._data(names, ns_module)
        else:
            lines += [".. autosummary::", "   :nosignatures:", ""]
            lines += [f"   {n}" for n in names]
            lines.append("")
            results: dict[str, type] = {}
            for n in names:
                obj = getattr(ns_module, n, None)
                if obj is None:  # gated off by the revision the docs are built for
                    obj = getattr(module, n)
                directive = "autoclass" if inspect.isclass(obj) else "autofunction"
                lines.append(f".. {directive}:: {n}")
                version = added.get(f"{prefix}.{n}" if prefix else n)
                if version:
                    lines += ["", f"   *Added to the standard in {version}.*"]
                lines.append("")
                for cls in _result_classes(obj):
                    if cls.__module__ == modname:  # documented with its own section
                        results.setdefault(f"{cls.__module__}.{cls.__qualname__}", cls)
            if results:
                lines += [".. rubric:: Result types", ""]
                for path, cls in results.items():
                    lines += [f".. autoclass:: {path}", ""]
                    fields = getattr(cls, "_fields", None)
                    if isinstance(fields, tuple) and fields:  # a named tuple
                        listed = ", ".join(f"``{f}``" for f in fields)
                        lines += [f"   A named tuple of {listed}.", ""]
        content = StringList(lines, source=self.get_source_info()[0])
        container = nodes.section()
        self.state.nested_parse(content, self.content_offset, container)
        return container.children

    def _data(self, names: list[str], ns_module: Any) -> list[str]:
        from ocean_array_api._dtypes import DType

        rows = []
        entries = []
        for n in names:
            obj = getattr(ns_module, n)
            if isinstance(obj, DType):
                bits = "" if obj.kind == "bool" else f", {obj.itemsize * 8} bits"
                text = f"The ``{n}`` data type (kind {obj.kind!r}{bits})."
                value = f"ocean_array_api.{n}"
            else:
                text = _CONSTANTS.get(n, "")
                value = repr(obj)
            rows.append((n, text))
            entries += [
                f".. py:data:: {n}",
                f"   :value: {value}",
                "",
                f"   {text}",
                "",
            ]
        table = [
            ".. list-table::",
            "   :header-rows: 1",
            "",
            "   * - name",
            "     - meaning",
        ]
        for n, text in rows:
            table += [f"   * - :py:data:`{n}`", f"     - {text}"]
        return [*table, "", *entries]


_KNOWN = ("Array", "DType", "Device", "Info")


def _result_classes(func: Any) -> list[type]:
    """Classes of this package named in the return annotation of ``func``."""
    try:
        hint = typing.get_type_hints(func).get("return")
    except Exception:
        return []
    found: list[type] = []
    stack = [hint]
    while stack:
        h = stack.pop()
        ours = inspect.isclass(h) and h.__module__.startswith("ocean_array_api")
        if ours and h.__name__ not in _KNOWN:
            found.append(h)
        stack.extend(typing.get_args(h))
    return found


def _op_signature(func: Any) -> str:
    if getattr(func, "_size_limit", None) is not None:  # ocean_cpu._parallel
        return _op_signature(func.__wrapped__) + "; large calls on several threads"
    if isinstance(func, np.ufunc):
        return f"NumPy ufunc, {func.nin} input(s), accepts ``out=``"
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return "(built-in)"
    parts = []
    for p in sig.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            parts.append(f"*{p.name}")
        elif p.kind is p.VAR_KEYWORD:
            parts.append(f"**{p.name}")
        elif p.default is not p.empty:
            parts.append(f"{p.name}={p.default!r}")
        else:
            parts.append(p.name)
    return "``(" + ", ".join(parts) + ")``"


class OceanOpTable(SphinxDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        module = importlib.import_module(self.arguments[0])
        self.env.note_dependency(inspect.getsourcefile(module) or "")
        ops = module.backend.ops
        lines = [
            ".. list-table::",
            "   :header-rows: 1",
            "   :widths: 25 75",
            "",
            "   * - operation",
            "     - call",
        ]
        for name in sorted(ops):
            lines += [f"   * - ``{name}``", f"     - {_op_signature(ops[name])}"]
        content = StringList(lines, source=self.get_source_info()[0])
        container = nodes.section()
        self.state.nested_parse(content, self.content_offset, container)
        return container.children


class OceanAddedNames(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        by_version: dict[str, list[str]] = {}
        for name, version in _added_in().items():
            by_version.setdefault(version, []).append(name)
        lines = []
        for version in sorted(by_version):
            names = ", ".join(f"``{n}``" for n in sorted(by_version[version]))
            lines.append(f"- {version}: {names}")
        content = StringList(lines, source=self.get_source_info()[0])
        container = nodes.section()
        self.state.nested_parse(content, self.content_offset, container)
        return container.children


def _missing_reference(
    app: Sphinx, env: Any, node: Any, contnode: nodes.Element
) -> nodes.Element | None:
    """Retry ``ocean_array_api._module.Name`` (or a bare ``Name`` written in a
    private module's docstring) as ``ocean_array_api.Name``."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    private = target.startswith("ocean_array_api._") and target.count(".") >= 2
    bare = "." not in target and (node.get("py:module") or "").startswith(
        "ocean_array_api._"
    )
    if not (private or bare):
        return None
    public = "ocean_array_api." + target.rsplit(".", 1)[-1]
    domain = env.get_domain("py")
    return domain.resolve_xref(  # type: ignore[no-any-return]
        env, node["refdoc"], app.builder, node["reftype"], public, node, contnode
    )


_BARS = re.compile(r"(?<![`\\\w])\|(\w+)\|(?![`_\w])")


def _plain_bars(
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """Show ``|x|`` (absolute value) in one-line docstrings as code.

    Plain-text docstrings such as "x / |x| for complex" would otherwise read as
    reStructuredText substitutions, which are undefined.
    """
    if name.startswith("ocean_array_api"):
        lines[:] = [_BARS.sub(r"``|\1|``", line) for line in lines]


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("autodoc-process-docstring", _plain_bars)
    app.add_directive("ocean-api-section", OceanAPISection)
    app.add_directive("ocean-op-table", OceanOpTable)
    app.add_directive("ocean-added-names", OceanAddedNames)
    app.connect("missing-reference", _missing_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
