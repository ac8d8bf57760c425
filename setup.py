"""Build of the compiled parts (everything else is in pyproject.toml).

Four C extensions, each with a pure Python twin, so that all four are
optional: ``pip install .`` builds them with the C compiler Python was built
with (gcc or clang) against the NumPy headers of the build environment, and
installs without them, after one warning, when no compiler works (``CC``
pointing nowhere included).  ``import ocean_array_api`` then warns once too
(``ocean_array_api/_compiled.py``: what runs slower, how to build it).

``ocean_array_api._fastpath`` is the compiled fast path of the Array front end
(operators, indexing, attributes; ``ocean_array_api/src/fastpath.c``);
without it the Python front end runs alone.
``ocean_cpu._halfprec_c`` holds the NumPy ufuncs of the ``ocean_ext.float16``
and ``ocean_ext.complex32`` dtypes (``backends/ocean_cpu/src/halfprec.c``);
without it float16 falls back to NumPy's (slower) float16 loops and complex32
operations raise a TypeError that says how to build it.
``ocean_cpu._gather_c`` gathers through precomputed flat offsets (bound
``ocean_ext.index`` objects; ``backends/ocean_cpu/src/gather.c``); without it
NumPy's ``take`` does.
``ocean_cpu._parallel_c`` sends large calls of the CPU table's entries to
their parallel strategies (``backends/ocean_cpu/src/parallel.c``); without it
its Python twin (``ocean_cpu/_parallel.py``) does, a little slower per call.

From a source checkout, ``python setup.py build_ext --inplace`` puts them
next to their packages.
"""

from __future__ import annotations

import sys

import numpy as np
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext


class build_ext(_build_ext):
    """``build_ext`` whose optional extensions that fail to build are named
    once, at the end, with what that costs (rather than one line each in the
    compiler's output)."""

    def run(self) -> None:
        super().run()
        import os

        missing = [
            ext.name
            for ext in self.extensions
            if not os.path.exists(self.get_ext_fullpath(ext.name))
        ]
        if missing:
            msg = (
                f"WARNING: ocean-array-api: no C compiler worked, so "
                f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                f"not built.  The package works without them, on slower pure "
                f"Python twins (complex32 operations need _halfprec_c); "
                f"'import ocean_array_api' says which.  Install gcc or clang "
                f"and reinstall to build them."
            )
            print(msg, file=sys.stderr)


# -ffp-contract=off: the AVX2 and portable loops must round identically (no
# implicit fused multiply-adds).  The AVX2/FMA/F16C code is enabled per
# function (target attributes) and chosen at run time, so no -march flag.
_unix_flags = ["-O3", "-ffp-contract=off", "-fno-math-errno", "-std=gnu11"]

setup(
    cmdclass={"build_ext": build_ext},
    ext_modules=[
        Extension(
            "ocean_cpu._halfprec_c",
            sources=["backends/ocean_cpu/src/halfprec.c"],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_TARGET_VERSION", "NPY_2_0_API_VERSION")],
            extra_compile_args=[] if sys.platform == "win32" else _unix_flags,
            libraries=[] if sys.platform == "win32" else ["m"],
            optional=True,
        ),
        # Gathers through precomputed flat offsets (ocean_ext index objects).
        Extension(
            "ocean_cpu._gather_c",
            sources=["backends/ocean_cpu/src/gather.c"],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_TARGET_VERSION", "NPY_2_0_API_VERSION")],
            extra_compile_args=[] if sys.platform == "win32" else ["-O3"],
            optional=True,
        ),
        # The size test in front of the CPU table's parallel entries.
        Extension(
            "ocean_cpu._parallel_c",
            sources=["backends/ocean_cpu/src/parallel.c"],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_TARGET_VERSION", "NPY_2_0_API_VERSION")],
            extra_compile_args=[] if sys.platform == "win32" else ["-O2"],
            optional=True,
        ),
        # The compiled fast path of the Array front end (operators, indexing,
        # attributes; ocean_array_api/src/fastpath.c).
        Extension(
            "ocean_array_api._fastpath",
            sources=["ocean_array_api/src/fastpath.c"],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_TARGET_VERSION", "NPY_2_0_API_VERSION")],
            extra_compile_args=[] if sys.platform == "win32" else ["-O2"],
            optional=True,
        ),
    ],
)
