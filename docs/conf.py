"""Sphinx configuration for the ocean_array_api documentation.

Build (warnings are errors, as in CI)::

    python3 -m sphinx -W --keep-going -b html docs docs/_build/html
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# Document the source checkout (and its built-in backends), not an installed copy.
sys.path[:0] = [str(ROOT), str(ROOT / "backends"), str(DOCS / "_ext")]

import ocean_array_api  # noqa: E402

project = "ocean_array_api"
author = "the ocean_array_api developers"
copyright = "the ocean_array_api developers"
try:
    from importlib.metadata import version as _version

    release = _version("ocean-array-api")
except Exception:
    release = "0.1.0"
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "myst_parser",
    "numpydoc",
    "ocean_docs",  # docs/_ext/ocean_docs.py: section pages from each module's __all__
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
# _static holds generated files (the benchmark's plots, results and summary.md,
# which docs/benchmarks.md includes), not pages of their own.
exclude_patterns = ["_build", "_static", "Thumbs.db", ".DS_Store"]
templates_path: list[str] = []

html_theme = "furo"
html_title = f"ocean_array_api {release}"
html_static_path: list[str] = []

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# --- API pages ---------------------------------------------------------------
autosummary_generate = False  # tables only; the entries live on the section pages
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True
add_module_names = False
numpydoc_show_class_members = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# The standard's revision documented (the module's own unless overridden).
ocean_api_version = ocean_array_api.__array_api_version__

# --- cross-references ----------------------------------------------------------
# nitpicky: every reference must resolve.  What remains unresolvable is outside
# this project (Python, NumPy, CuPy: no intersphinx, so the build needs no
# network), and is listed here.
nitpicky = True
nitpick_ignore_regex = [
    # builtins and the standard library in signatures
    (
        r"py:(class|obj|data)",
        r"(None|NoneType|Ellipsis|ellipsis|bool|int|float|complex|str|bytes|tuple|list|"
        r"dict|set|frozenset|object|type|slice|memoryview|PyCapsule|capsule|"
        r"builtins\.\w+)",
    ),
    (
        r"py:(class|obj|data)",
        r"(typing|types|collections\.abc|enum|contextvars|contextlib)\.\w+",
    ),
    (
        r"py:(class|obj|data)",
        r"(Any|Callable|Mapping|Sequence|Iterable|Iterator|NoReturn)",
    ),
    (r"py:(class|obj|data)", r"(Literal|Protocol|TypeAlias|ModuleType|SupportsIndex)"),
    # NumPy and CuPy types named in signatures and docstrings
    (r"py:(class|obj|data)", r"(numpy|np|cupy|cp)(\.\w+)+"),
    (r"py:(class|obj|data)", r"(ndarray|dtype|generic)"),
    # typing.Protocol's own members that autodoc may mention
    (r"py:(class|obj)", r"typing_extensions\.\w+"),
]
