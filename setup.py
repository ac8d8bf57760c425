"""Build of the compiled CPU kernels (everything else is in pyproject.toml).

``ocean_cpu._gather_c`` gathers through precomputed flat offsets (bound
``ocean_ext.index`` objects; ``backends/ocean_cpu/src/gather.c``).
``ocean_cpu._parallel_c`` sends large calls of the CPU table's entries to
their parallel strategies (``backends/ocean_cpu/src/parallel.c``).
``ocean_cpu._halfprec_c`` holds the NumPy ufuncs of the ``ocean_ext.float16``
and ``ocean_ext.complex32`` dtypes (``backends/ocean_cpu/src/halfprec.c``).
``pip install .`` builds it with the C compiler Python was built with (gcc or
clang) against the NumPy headers of the build environment; from a source
checkout, ``python setup.py build_ext --inplace`` puts it next to
``backends/ocean_cpu/_backend.py``.  Without it the package still works:
float16 falls back to NumPy's (slower) float16 loops and complex32 operations
raise a TypeError that says how to build it.
"""

from __future__ import annotations

import sys

import numpy as np
from setuptools import Extension, setup

# -ffp-contract=off: the AVX2 and portable loops must round identically (no
# implicit fused multiply-adds).  The AVX2/FMA/F16C code is enabled per
# function (target attributes) and chosen at run time, so no -march flag.
_unix_flags = ["-O3", "-ffp-contract=off", "-fno-math-errno", "-std=gnu11"]

setup(
    ext_modules=[
        Extension(
            "ocean_cpu._halfprec_c",
            sources=["backends/ocean_cpu/src/halfprec.c"],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_TARGET_VERSION", "NPY_2_0_API_VERSION")],
            extra_compile_args=[] if sys.platform == "win32" else _unix_flags,
            libraries=[] if sys.platform == "win32" else ["m"],
        ),
        # Gathers through precomputed flat offsets (ocean_ext index objects).
        Extension(
            "ocean_cpu._gather_c",
            sources=["backends/ocean_cpu/src/gather.c"],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_TARGET_VERSION", "NPY_2_0_API_VERSION")],
            extra_compile_args=[] if sys.platform == "win32" else ["-O3"],
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
        # attributes; ocean_array_api/src/fastpath.c).  Optional: without it
        # the Python front end runs alone.
        Extension(
            "ocean_array_api._fastpath",
            sources=["ocean_array_api/src/fastpath.c"],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_TARGET_VERSION", "NPY_2_0_API_VERSION")],
            extra_compile_args=[] if sys.platform == "win32" else ["-O2"],
            optional=True,
        ),
    ]
)
