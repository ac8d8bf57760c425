"""Which compiled parts were built, and the one warning when some were not.

``pip install .`` builds four C extensions when a C compiler works, and
installs without them when none does (``setup.py``: they are optional).
Everything then runs on its pure Python (and NumPy) twin, slower; this module
says so once, at ``import ocean_array_api``, with a
:class:`NotCompiledWarning` (a ``RuntimeWarning``) naming what is slower and
how to build the missing parts.  It looks for the extension files only (no
import), so it costs a few file-system look-ups.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import warnings
from pathlib import Path

# module -> (package, file stem, what runs slower without it)
PARTS: dict[str, tuple[str, str, str]] = {
    "ocean_array_api._fastpath": (
        "ocean_array_api",
        "_fastpath",
        "the compiled fast path of operators, indexing and common functions "
        "(on small arrays they take two to four times as long)",
    ),
    "ocean_cpu._halfprec_c": (
        "ocean_cpu",
        "_halfprec_c",
        "the float16 and complex32 kernels of ocean_ext (float16 runs on "
        "NumPy's slower float16 loops; complex32 operations raise TypeError)",
    ),
    "ocean_cpu._gather_c": (
        "ocean_cpu",
        "_gather_c",
        "bound ocean_ext index objects (NumPy's take instead)",
    ),
    "ocean_cpu._parallel_c": (
        "ocean_cpu",
        "_parallel_c",
        "the dispatch of large CPU operations to the thread pool (its Python "
        "twin adds a Python-level call to every CPU operation)",
    ),
}


class NotCompiledWarning(RuntimeWarning):
    """Some compiled parts of ocean-array-api were not built (no C compiler
    at install time): they run on their slower pure Python twins."""


def _built(package: str, stem: str) -> bool:
    spec = importlib.util.find_spec(package)  # finds, does not import
    if spec is None or not spec.submodule_search_locations:
        return False
    for folder in spec.submodule_search_locations:
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if (Path(folder) / f"{stem}{suffix}").is_file():
                return True
    return False


def missing() -> list[str]:
    """The compiled modules that are not built, by module name."""
    return [name for name, (pkg, stem, _) in PARTS.items() if not _built(pkg, stem)]


def warn_if_missing() -> None:
    """One :class:`NotCompiledWarning` when compiled parts are missing.

    ``OCEAN_ARRAY_API_COMPILED_WARNING=0`` silences it (for a deliberate
    pure Python install), as does any warnings filter for the class.
    """
    if os.environ.get("OCEAN_ARRAY_API_COMPILED_WARNING", "1").strip() == "0":
        return
    absent = missing()
    if not absent:
        return
    slower = "; ".join(PARTS[name][2] for name in absent)
    msg = (
        f"ocean-array-api was installed without its compiled parts "
        f"({', '.join(absent)}): no C compiler worked when it was built.  "
        f"Everything runs, on pure Python twins, but slower: {slower}.  "
        f"To build them, install a C compiler (gcc or clang) and reinstall "
        f"(pip install --force-reinstall --no-deps ., or in a checkout "
        f"'python setup.py build_ext --inplace'); set "
        f"OCEAN_ARRAY_API_COMPILED_WARNING=0 to silence this warning."
    )
    warnings.warn(msg, NotCompiledWarning, stacklevel=2)
