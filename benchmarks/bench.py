#!/usr/bin/env python3
"""Time ocean_array_api against NumPy and array-api-strict, in one run.

A benchmark, not a test: it prints per-operation median times and ratios to
the baseline library (NumPy on the CPU, CuPy with ``--device cuda:N``), then
summary lines (geometric means of the ratios for small and large arrays, and
the absolute times of the view operations).  Nothing here asserts on speed.

Method
------
- Every timed statement is compiled into its own loop (as :mod:`timeit`
  does), with the operands bound to local variables, so the loop adds no call
  or attribute look-up of ours to what is measured.
- The inner loop count is calibrated per operation and library so that one
  sample lasts at least ``--min-sample-us`` (200 us by default).
- Libraries are interleaved within each repetition, in a rotating order, so
  that a noisy neighbour on a shared machine slows all of them alike; the
  reported figure is the median over repetitions (``--stat min``: the fastest
  sample, steadier on a crowded machine).  A cell whose median is more than
  25% above its fastest sample is flagged ``~`` (noisy).  The garbage
  collector is off while a sample runs.
- An operation that raises (not written yet, or refused by a strict library)
  is reported as ``missing`` with the exception, and the run goes on.

Adding a case
-------------
Register a function with :func:`case`.  It receives the :class:`Library`, the
size ``n`` and the shared :class:`Inputs` (NumPy data, made once per size), and
returns a :class:`Timed` (a statement and the names it uses), or raises
:class:`NotApplicable` when the case makes no sense for that library (the cell
then reads ``n/a``).  Names in the statement are plain local variables::

    @case("negative", doc="-x")
    def _(lib, n, inp):
        return Timed("-x", x=lib.from_numpy(inp.x))

A case for another set of libraries (sparse formats, extension dtypes) passes
``libraries=`` to :func:`case`, naming entries of :data:`LIBRARIES`.

Usage
-----
::

    python3 benchmarks/bench.py                      # everything (a few minutes)
    python3 benchmarks/bench.py --quick              # smoke run (CI)
    python3 benchmarks/bench.py --ops add,sum,'set*' --sizes 8,1e6
    python3 benchmarks/bench.py --json results.json  # machine-readable copy
    python3 benchmarks/bench.py --device cuda:0      # against CuPy, synchronised
"""

from __future__ import annotations

import argparse
import fnmatch
import gc
import json
import math
import os
import platform
import re
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

# Run from a source checkout without installing: the package sits beside us.
_ROOT = Path(__file__).resolve().parent.parent
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))

DEFAULT_SIZES = (8, 1_000, 1_000_000, 10_000_000)
QUICK_SIZES = (8, 1_000, 1_000_000)
SMALL_LIMIT = 100_000  # sizes below this count as "small" in the summary
NOISY = 1.25  # a median this far above the fastest sample is flagged as noisy
MATMUL_MAX_SIDE = 1_000  # larger square matmuls are skipped (runtime)


# --- libraries -----------------------------------------------------------------
@dataclass
class Library:
    """A namespace under test, and how to feed it NumPy data.

    ``from_numpy`` turns a NumPy array into one of the library's arrays on the
    device under test; ``sync`` waits for queued device work (a no-op on the
    CPU) and runs once at the end of every sample.
    """

    key: str
    label: str
    xp: Any
    from_numpy: Callable[[np.ndarray], Any]
    sync: Callable[[], None] = lambda: None
    version: str = ""
    device: str = "cpu"
    # a context manager factory every sample runs in (ocean_ext.threads(n))
    context: Callable[[], Any] | None = None


class Unavailable(Exception):
    """A library (or device) cannot be used on this machine."""


def _numpy_library(device: str) -> Library:
    if device != "cpu":
        raise Unavailable("NumPy runs on the CPU only")
    return Library("numpy", "NumPy", np, np.asarray, version=np.__version__)


def _strict_library(device: str) -> Library:
    if device != "cpu":
        raise Unavailable("array-api-strict runs on the CPU only")
    try:
        import array_api_strict as xp
    except ImportError as exc:
        raise Unavailable(f"array-api-strict is not installed ({exc})") from None
    return Library("strict", "array-api-strict", xp, xp.asarray, version=xp.__version__)


def _compat_library(device: str) -> Library:
    if device != "cpu":
        raise Unavailable("array_api_compat.numpy runs on the CPU only")
    try:
        import array_api_compat
        import array_api_compat.numpy as xp
    except ImportError as exc:
        raise Unavailable(f"array-api-compat is not installed ({exc})") from None
    # Its arrays are NumPy's own ndarrays: only the functions are wrapped.
    return Library(
        "compat", "array_api_compat.numpy", xp, np.asarray,
        version=array_api_compat.__version__,
    )  # fmt: skip


def _ocean_library(device: str) -> Library:
    import ocean_array_api as xp

    devices = {str(d): d for d in xp.__array_namespace_info__().devices()}
    dev = devices.get(device if ":" in device else f"{device}:0")
    if dev is None:
        raise Unavailable(
            f"ocean_array_api has no device {device} here (devices: {', '.join(devices)})"
        )
    # The standard has no synchronisation; the benchmark looks behind the curtain.
    backend, index = dev._backend, dev.index

    def from_numpy(a: np.ndarray) -> Any:
        return xp.asarray(a, device=dev)

    def sync() -> None:
        backend.synchronize(index)

    try:
        from importlib.metadata import version

        ver = version("ocean-array-api")
    except Exception:
        ver = "(source)"
    return Library("ocean", "ocean_array_api", xp, from_numpy, sync, ver, device)


def _cores() -> int:
    """The cores this process may use (its CPU affinity)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _numexpr_library(device: str) -> Library:
    if device != "cpu":
        raise Unavailable("numexpr runs on the CPU only")
    try:
        import numexpr as ne
    except ImportError as exc:
        raise Unavailable(f"numexpr is not installed ({exc})") from None
    ne.set_num_threads(_cores())  # all threads, as ocean's default
    return Library(
        "numexpr", f"numexpr ({_cores()} threads)", ne, np.asarray,
        version=ne.__version__,
    )  # fmt: skip


def _ocean_threads_library(count: int) -> Callable[[str], Library]:
    """ocean_array_api with ``ocean_ext.threads(count)`` around every sample."""

    def make(device: str) -> Library:
        import ocean_ext

        lib = _ocean_library(device)
        lib.key = f"ocean_{count}"
        lib.label = f"ocean_array_api, {count} thread{'s' if count > 1 else ''}"
        lib.context = lambda: ocean_ext.threads(count)
        return lib

    return make


# With --simulate-cuda: the test suite's simulated CuPy (tests/simcupy.py).
_SIMULATED_CUPY: Any = None


def _simulate_cuda() -> None:
    """Register the simulated GPUs of the test suite (a smoke run of the CUDA
    mode on a machine without one: the figures mean nothing)."""
    global _SIMULATED_CUPY
    root = str(Path(__file__).resolve().parent.parent)
    if root not in sys.path:
        sys.path.insert(0, root)
    from tests import sim_cuda, simcupy

    sim_cuda.install()
    _SIMULATED_CUPY = simcupy.xp


def _cupy_library(device: str) -> Library:
    kind, _, idx = device.partition(":")
    if kind != "cuda":
        raise Unavailable("CuPy runs on CUDA devices only")
    if _SIMULATED_CUPY is not None:
        cp = _SIMULATED_CUPY
    else:
        try:
            import cupy as cp
        except ImportError as exc:
            raise Unavailable(f"CuPy is not installed ({exc})") from None
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as exc:
        raise Unavailable(f"no CUDA device ({exc})") from None
    index = int(idx or 0)
    if index >= count:
        raise Unavailable(f"no CUDA device {index} ({count} present)")
    cp.cuda.Device(index).use()
    stream = cp.cuda.get_current_stream()

    def from_numpy(a: np.ndarray) -> Any:
        with cp.cuda.Device(index):
            return cp.asarray(a)

    version = getattr(cp, "__version__", "(simulated)")
    return Library("cupy", "CuPy", cp, from_numpy, stream.synchronize, version, device)


# key -> factory(device) -> Library.  The first library of a run is the baseline.
LIBRARIES: dict[str, Callable[[str], Library]] = {
    "numpy": _numpy_library,
    "strict": _strict_library,
    "compat": _compat_library,
    "ocean": _ocean_library,
    "cupy": _cupy_library,
    "numexpr": _numexpr_library,
    "ocean_1": _ocean_threads_library(1),
    "ocean_2": _ocean_threads_library(2),
}


def libraries_for(device: str) -> tuple[str, ...]:
    """Library keys compared on ``device``, baseline first."""
    if device == "cpu":
        return ("numpy", "strict", "compat", "ocean")
    return ("cupy", "ocean")


# --- inputs ----------------------------------------------------------------------
class Inputs:
    """NumPy data of one size, made on first use and shared by all cases.

    Fixed seed: every library gets the same values.  Cases that write into
    their operands must copy them (``inp.x.copy()``).
    """

    def __init__(self, n: int, seed: int = 12345) -> None:
        self.n = n
        self._rng = np.random.default_rng(seed)
        self._cache: dict[str, np.ndarray] = {}

    def _get(self, key: str, make: Callable[[], np.ndarray]) -> np.ndarray:
        a = self._cache.get(key)
        if a is None:
            a = self._cache[key] = make()
        return a

    @property
    def x(self) -> np.ndarray:
        """float64 in [0, 1), shape (n,)."""
        return self._get("x", lambda: self._rng.random(self.n))

    @property
    def y(self) -> np.ndarray:
        """Another float64 in [0, 1), shape (n,)."""
        return self._get("y", lambda: self._rng.random(self.n))

    @property
    def a(self) -> np.ndarray:
        """x as a 2-d array of shape (r, n // r), r the largest divisor of n
        that is at most isqrt(n) (8: 2 x 4, 1000: 25 x 40, 1e7: 2500 x 4000)."""
        r = next(d for d in range(math.isqrt(self.n), 0, -1) if self.n % d == 0)
        return self._get("a", lambda: self.x.reshape(r, self.n // r))

    @property
    def i(self) -> np.ndarray:
        """int64, uniform over (-2**62, 2**62), shape (n,)."""
        return self._get("i", lambda: self._rng.integers(-(2**62), 2**62, self.n))

    @property
    def idx(self) -> np.ndarray:
        """n random int64 indices into an axis of length n."""
        return self._get("idx", lambda: self._rng.integers(0, self.n, self.n))

    @property
    def mask(self) -> np.ndarray:
        """bool, about half True."""
        return self._get("mask", lambda: self.x < 0.5)

    def square(self, side: int) -> np.ndarray:
        """float64 matrix of shape (side, side)."""
        return self._get(f"sq{side}", lambda: self._rng.random((side, side)))


# --- cases -----------------------------------------------------------------------
class Timed:
    """A statement to time and the names it uses (bound as local variables)."""

    def __init__(self, stmt: str, /, **names: Any) -> None:
        self.stmt = stmt
        self.names = names


class NotApplicable(Exception):
    """The case does not apply to this library or size (shown as ``n/a``)."""


Setup = Callable[[Library, int, Inputs], Timed]


@dataclass
class Case:
    name: str
    setup: Setup
    doc: str = ""
    libraries: tuple[str, ...] | None = None  # None: every library of the run
    # O(1) in n (views, no-copy conversions): kept out of the large geomean.
    # A bool, or a function (n, device) -> bool.
    constant_time: bool | Callable[[int, str], bool] = False
    # an ocean_ext feature (byte-swapped data, index objects, complex32): its
    # ratios are summarised apart from the standard operations' targets
    ext: bool = False
    # the operation group of the target list (TARGET_GROUPS), or "other" /
    # "ext": only the groups of the list count in the targets
    group: str = "other"
    # an O(1) view (slicing, reshape, .mT): absolute-time targets, and out of
    # the "no small operation above 2x" check
    view: bool = False
    # the same operation as a numexpr expression over x, y, a, m (--threads
    # runs); None: numexpr has no such operation
    numexpr: str | None = None

    def is_constant_time(self, n: int, device: str) -> bool:
        ct = self.constant_time
        return ct(n, device) if callable(ct) else ct


CASES: dict[str, Case] = {}


def case(
    name: str,
    *,
    doc: str = "",
    libraries: Iterable[str] | None = None,
    constant_time: bool | Callable[[int, str], bool] = False,
    ext: bool = False,
    group: str | None = None,
    view: bool = False,
    numexpr: str | None = None,
) -> Callable[[Setup], Setup]:
    """Register a benchmark case (see the module docstring)."""

    def register(setup: Setup) -> Setup:
        if name in CASES:
            raise ValueError(f"benchmark case {name!r} registered twice")
        libs = tuple(libraries) if libraries is not None else None
        grp = group if group is not None else ("ext" if ext else "other")
        CASES[name] = Case(
            name, setup, doc, libs, constant_time, ext, grp, view, numexpr
        )
        return setup

    return register


# The cases of the target list, by group (``Case.group``): every group but
# "other" counts in the targets' geometric means.  Operands: ``x``, ``y``
# float64 of n elements, ``a`` the same data as a 2-d array, ``i`` int64.
TARGET_GROUPS = (
    "arithmetic",
    "scalar",
    "comparison",
    "reduction",
    "slicing",
    "view",
    "indexing",
    "setitem",
    "concat",
    "where",
    "astype",
    "asarray",
    "sort",
)


def _on_cpu(n: int, device: str) -> bool:
    return device == "cpu"


def _stmt_case(
    name: str,
    stmt: str,
    group: str,
    *,
    doc: str = "",
    func: str | None = None,
    view: bool = False,
    **kwargs: Any,
) -> None:
    """A case whose statement uses some of the operands x, y, a, i, m (mask),
    idx (int64 indices) and f (``xp.<func>``); ``z`` is a fresh copy of x that
    the statement may write into, ``v`` the first 8 elements of y."""

    def setup(lib: Library, n: int, inp: Inputs) -> Timed:
        names: dict[str, Any] = {}
        operands = {
            "x": lambda: inp.x,
            "y": lambda: inp.y,
            "a": lambda: inp.a,
            "i": lambda: inp.i,
            "m": lambda: inp.mask,
            "idx": lambda: inp.idx,
            "z": lambda: inp.x.copy(),
            "v": lambda: inp.y[:8].copy(),
        }
        words = set(re.findall(r"[A-Za-z_]\w*", stmt))
        for key, make in operands.items():
            if key in words:
                names[key] = lib.from_numpy(make())
        if func is not None:
            names["f"] = getattr(lib.xp, func)
        if "xp" in words:
            names["xp"] = lib.xp
        return Timed(stmt, **names)

    if view:
        kwargs.setdefault("constant_time", True)
    case(
        name,
        doc=doc or stmt.replace("f(", f"xp.{func}("),
        group=group,
        view=view,
        **kwargs,
    )(setup)


# arithmetic, on two arrays
_stmt_case("add", "x + y", "arithmetic", numexpr="x + y")
_stmt_case("subtract", "x - y", "arithmetic")
_stmt_case("multiply", "x * y", "arithmetic")
_stmt_case("divide", "x / y", "arithmetic", numexpr="x / y")
_stmt_case("square", "x ** 2", "arithmetic", doc="x ** 2 (a Python int exponent)")
_stmt_case("add_func", "f(x, y)", "arithmetic", func="add")
# a Python scalar operand
_stmt_case("sub_scalar", "x - 1.0", "scalar")
_stmt_case("mul_scalar", "x * 2.5", "scalar", numexpr="x * 2.5")
_stmt_case("rtruediv_scalar", "1.0 / x", "scalar")
_stmt_case("int_add_scalar", "i + 1", "scalar", doc="i + 1, i int64")
# comparisons
_stmt_case("less", "x < y", "comparison")
_stmt_case("equal_scalar", "x == 1.0", "comparison")
_stmt_case("greater_equal_scalar", "x >= 0.5", "comparison")
# reductions, over everything and along an axis of the 2-d a
_stmt_case("sum", "f(x)", "reduction", func="sum", numexpr="sum(x)")
_stmt_case("mean", "f(x)", "reduction", func="mean")
_stmt_case("max", "f(x)", "reduction", func="max", numexpr="max(x)")
_stmt_case("std", "f(x)", "reduction", func="std")
_stmt_case("sum_axis0", "f(a, axis=0)", "reduction", func="sum")
_stmt_case(
    "sum_axis1", "f(a, axis=1)", "reduction", func="sum", numexpr="sum(a, axis=1)"
)
_stmt_case("mean_axis1", "f(a, axis=1)", "reduction", func="mean")
_stmt_case("max_axis0", "f(a, axis=0)", "reduction", func="max")
_stmt_case("std_axis1", "f(a, axis=1)", "reduction", func="std")
# slicing: basic indexing, O(1) views
_stmt_case("slice", "x[2:-2]", "slicing", view=True)
_stmt_case("slice_step", "x[::2]", "slicing", view=True)
_stmt_case("index_0", "x[0]", "slicing", view=True, doc="x[0] (NumPy: a scalar)")
_stmt_case("slice_2d", "a[1:, :-1]", "slicing", view=True)
# other views
_stmt_case("mT", "a.mT", "view", view=True)
_stmt_case("permute_dims", "f(a, (1, 0))", "view", func="permute_dims", view=True)


@case(
    "reshape",
    doc="xp.reshape(x, (2, n // 2))",
    group="view",
    view=True,
    constant_time=True,
)
def _(lib: Library, n: int, inp: Inputs) -> Timed:
    if n % 2:
        raise NotApplicable("needs an even size")
    return Timed("f(x, s)", f=lib.xp.reshape, x=lib.from_numpy(inp.x), s=(2, n // 2))


# integer-array and mask indexing
_stmt_case("index_int", "x[idx]", "indexing", doc="x[idx], idx n int64 indices")
_stmt_case("index_bool", "x[m]", "indexing", doc="x[m], m a bool mask (half True)")
# assignment
_stmt_case(
    "setitem_ellipsis", "z[...] = y", "setitem", doc="z[...] = y, y of n elements"
)
# O(1) in n (it writes 8 elements): out of the large-array geometric mean
_stmt_case(
    "setitem_slice8",
    "z[0:8] = v",
    "setitem",
    doc="z[0:8] = v, v of 8 elements",
    constant_time=True,
)
_stmt_case("setitem_mask", "z[m] = 1.0", "setitem", doc="z[m] = 1.0, m half True")
_stmt_case(
    "setitem_int", "z[idx] = y", "setitem", doc="z[idx] = y, idx n int64 indices"
)
# concat, where, astype
_stmt_case("concat", "f([x, y])", "concat", func="concat")
_stmt_case("concat_axis1", "f([a, a], axis=1)", "concat", func="concat")
_stmt_case("where", "f(m, x, y)", "where", func="where", numexpr="where(m, x, y)")
_stmt_case("where_scalar", "f(m, x, 0.0)", "where", func="where")
_stmt_case("astype_f32", "f(x, xp.float32)", "astype", func="astype")
_stmt_case("astype_i64_f64", "f(i, xp.float64)", "astype", func="astype")


@case(
    "asarray_ndarray",
    doc="xp.asarray(b), b a NumPy float64 array (no copy on the CPU)",
    group="asarray",
    constant_time=_on_cpu,
)
def _(lib: Library, n: int, inp: Inputs) -> Timed:
    if lib.device != "cpu" and lib.key == "ocean":
        return Timed("f(b)", f=lib.from_numpy, b=inp.x)
    return Timed("f(b)", f=lib.xp.asarray, b=inp.x)


# sort: each library's default, which for NumPy is kind="quicksort"
# (introsort, not stable) and for the standard stable=True: the yardstick.
_stmt_case("sort_f64", "f(x)", "sort", func="sort", doc="xp.sort(x), float64, default")
_stmt_case("sort_i64", "f(i)", "sort", func="sort", doc="xp.sort(i), int64, default")

# everyday operations outside the list (not in the targets)
_stmt_case("exp", "f(x)", "other", func="exp", numexpr="exp(x)")
_stmt_case("sin", "f(x)", "other", func="sin", numexpr="sin(x)")
_stmt_case("sqrt", "f(x)", "other", func="sqrt", numexpr="sqrt(x)")
_stmt_case("log", "f(x)", "other", func="log", numexpr="log(x)")
_stmt_case("argmax", "f(x)", "other", func="argmax")
_stmt_case(
    "sort_2d", "f(a)", "other", func="sort", doc="xp.sort(a), a float64 2-D (rows)"
)
_stmt_case("take", "f(x, idx, axis=0)", "other", func="take")


@case("matmul", doc="xp.matmul(s, s.T), s of shape (isqrt(n), isqrt(n))", group="other")
def _(lib: Library, n: int, inp: Inputs) -> Timed:
    side = max(1, math.isqrt(n))
    if side > MATMUL_MAX_SIDE:
        raise NotApplicable(f"skipped: {side}x{side} exceeds the {MATMUL_MAX_SIDE} cap")
    s = inp.square(side)
    return Timed("f(s, t)", f=lib.xp.matmul, s=lib.from_numpy(s), t=lib.from_numpy(s.T))


@case(
    "asarray_list",
    doc="xp.asarray(obj), obj a Python list of n floats (n < 100,000)",
    group="other",
)
def _(lib: Library, n: int, inp: Inputs) -> Timed:
    if n >= SMALL_LIMIT:
        raise NotApplicable("small sizes only")
    obj = inp._get("list", inp.x.tolist)
    if lib.device != "cpu" and lib.key == "ocean":
        return Timed("f(obj)", f=lib.from_numpy, obj=obj)
    return Timed("f(obj)", f=lib.xp.asarray, obj=obj)


# --- cases: byte-swapped inputs (ocean_ext) -------------------------------
# The same data in the non-native byte order (e.g. '>f8' on a little-endian
# machine): NumPy's swapped ndarray against ocean_ext.asarray() of it (no copy).
# Both produce native results; ocean must not be slower than NumPy here.
def _swapped(lib: Library, inp: Inputs, name: str) -> Any:
    a = getattr(inp, name)
    s = inp._get(f"{name}_swapped", lambda: a.astype(a.dtype.newbyteorder("S")))
    if lib.key == "numpy":
        return s
    if lib.key != "ocean":
        raise NotApplicable("byte-swapped arrays: NumPy and ocean_ext only")
    import ocean_ext

    device = lib.from_numpy(a[:1]).device
    if device.kind != "cpu":
        raise NotApplicable("byte-swapped arrays live on the CPU only")
    return ocean_ext.asarray(s, device=device)


def _swapped_case(name: str, doc: str, stmt: str, func: str | None = None) -> None:
    def setup(lib: Library, n: int, inp: Inputs) -> Timed:
        names: dict[str, Any] = {"x": _swapped(lib, inp, "x")}
        if "y" in stmt:
            names["y"] = _swapped(lib, inp, "y")
        if "i" in stmt:
            names["i"] = lib.from_numpy(inp.idx)
        if func is not None:
            names["f"] = getattr(lib.xp, func)
        return Timed(stmt, **names)

    case(name, doc=doc, libraries=("numpy", "strict", "ocean"), ext=True)(setup)


_swapped_case("bswap_add", "x + y, both byte-swapped float64", "x + y")
_swapped_case("bswap_exp", "xp.exp(x), x byte-swapped float64", "f(x)", "exp")
_swapped_case("bswap_sum", "xp.sum(x), x byte-swapped float64", "f(x)", "sum")
_swapped_case(
    "bswap_sort",
    "xp.sort(x, stable=True), x byte-swapped float64 (a native result)",
    "f(x, stable=True)",
    "sort",
)
_swapped_case(
    "bswap_index_int",
    "x[i], x byte-swapped float64, i n int64 indices (a native result)",
    "x[i]",
)


# --- cases: index objects (ocean_ext) ---------------------------------------
# Each scenario has two rows: "re-index" times 50 uses of x[key]; "bound" times
# ocean_ext.index[key].bind(x) plus 50 uses of x[idx] for ocean (NumPy has no
# index objects: its cell re-indexes, the reference of both rows).  The gain of
# a bound index is the ratio of the two ocean/NumPy columns.
INDEX_USES = 50


def _reindex(x: Any, key: Any) -> None:
    for _ in range(INDEX_USES):
        x[key]


def _bound_uses(x: Any, key: Any) -> None:
    import ocean_ext

    idx = ocean_ext.index[key].bind(x)
    for _ in range(INDEX_USES):
        x[idx]


def _index_case(
    name: str, doc: str, key: Callable[[Library, int, Inputs], Any]
) -> None:
    def setup(bound: bool) -> Setup:
        def make(lib: Library, n: int, inp: Inputs) -> Timed:
            if bound and lib.key == "strict":
                raise NotApplicable("array-api-strict has no index objects")
            x, k = key(lib, n, inp)
            f = _bound_uses if bound and lib.key == "ocean" else _reindex
            return Timed("f(x, k)", f=f, x=x, k=k)

        return make

    libs = ("numpy", "strict", "cupy", "ocean")
    case(
        f"{name}_reindex",
        doc=f"re-index with key ({INDEX_USES} uses): {doc}",
        libraries=libs,
        ext=True,
    )(setup(False))
    case(
        f"{name}_bound",
        doc=f"bound index ({INDEX_USES} uses incl. bind): {doc}",
        libraries=libs,
        ext=True,
    )(setup(True))


def _mask_key(lib: Library, n: int, inp: Inputs) -> tuple[Any, Any]:
    mask = inp._get("mask10", lambda: inp.y < 0.1)
    return lib.from_numpy(inp.x), lib.from_numpy(mask)


def _rows_cols_key(lib: Library, n: int, inp: Inputs) -> tuple[Any, Any]:
    side = max(2, math.isqrt(n))
    sub = max(1, side // 10)
    rows = inp._get("rows", lambda: inp._rng.integers(0, side, sub))
    cols = inp._get("cols", lambda: inp._rng.integers(0, side, sub))
    r, c = lib.from_numpy(rows), lib.from_numpy(cols)
    return lib.from_numpy(inp.square(side)), (r[:, None], c[None, :])


def _int32_key(lib: Library, n: int, inp: Inputs) -> tuple[Any, Any]:
    m = min(n, 1_000_000)
    idx = inp._get("idx32", lambda: inp._rng.integers(-n, n, m).astype(np.int32))
    return lib.from_numpy(inp.x), lib.from_numpy(idx)


_index_case("idxobj_mask", "x[mask], x of n float64, mask 10% True", _mask_key)
_index_case(
    "idxobj_rows_cols",
    "a[rows[:, None], cols[None, :]], a of isqrt(n)^2 float64, isqrt(n)//10 rows and cols",
    _rows_cols_key,
)
_index_case(
    "idxobj_int32",
    "x[idx], min(n, 1e6) int32 indices into n float64, half of them negative",
    _int32_key,
)


# --- cases: complex32 (ocean_ext) -------------------------------------------
# The same values (float16-representable real and imaginary parts) as
# ocean_ext.complex32 for ocean and as complex64 for NumPy or CuPy, the
# baseline: the targets are at most 0.7x its time for multiply, add and abs,
# 1.0x for sum and exp.  array-api-strict has no complex32 (n/a).
def _c32_operand(lib: Library, inp: Inputs, name: str) -> Any:
    other = "y" if name == "x" else "x"
    z = inp._get(
        f"c64_{name}",
        lambda: (
            (getattr(inp, name) + 1j * getattr(inp, other))
            .astype(np.complex64)
            .view(np.float32)
            .astype(np.float16)
            .astype(np.float32)
            .view(np.complex64)
        ),
    )
    if lib.key in ("numpy", "cupy"):  # the baselines: complex64
        return lib.from_numpy(z)
    if lib.key != "ocean":
        raise NotApplicable("complex32 is an ocean_ext dtype")
    import ocean_ext

    device = lib.from_numpy(z[:1]).device
    return lib.xp.asarray(z, dtype=ocean_ext.complex32, device=device)


def _c32_case(name: str, doc: str, stmt: str, func: str | None = None) -> None:
    def setup(lib: Library, n: int, inp: Inputs) -> Timed:
        names: dict[str, Any] = {"x": _c32_operand(lib, inp, "x")}
        if "y" in stmt:
            names["y"] = _c32_operand(lib, inp, "y")
        if func is not None:
            names["f"] = getattr(lib.xp, func)
        return Timed(stmt, **names)

    case(name, doc=doc, libraries=("numpy", "strict", "cupy", "ocean"), ext=True)(setup)


_c32_case("c32_multiply", "x * y: complex32 (ocean) vs complex64 (NumPy)", "x * y")
_c32_case("c32_add", "x + y: complex32 (ocean) vs complex64 (NumPy)", "x + y")
_c32_case("c32_abs", "xp.abs(x): complex32 -> float16 vs complex64", "f(x)", "abs")
_c32_case("c32_sum", "xp.sum(x): complex32 vs complex64", "f(x)", "sum")
_c32_case("c32_exp", "xp.exp(x): complex32 vs complex64", "f(x)", "exp")


# --- cases: float16 (ocean_ext) -----------------------------------------
# ocean_ext.float16 against NumPy's (or CuPy's) own float16 on the same values,
# the baseline; array-api-strict has no float16 (n/a).
def _f16_operand(lib: Library, inp: Inputs, name: str) -> Any:
    h = inp._get(f"f16_{name}", lambda: getattr(inp, name).astype(np.float16))
    if lib.key in ("numpy", "cupy"):
        return lib.from_numpy(h)
    if lib.key != "ocean":
        raise NotApplicable("float16 is an ocean_ext dtype")
    import ocean_ext

    device = lib.from_numpy(inp.x[:1]).device
    return lib.xp.asarray(h, dtype=ocean_ext.float16, device=device)


def _f16_case(name: str, doc: str, stmt: str, func: str | None = None) -> None:
    def setup(lib: Library, n: int, inp: Inputs) -> Timed:
        names: dict[str, Any] = {"x": _f16_operand(lib, inp, "x")}
        if "y" in stmt:
            names["y"] = _f16_operand(lib, inp, "y")
        if func is not None:
            names["f"] = getattr(lib.xp, func)
        return Timed(stmt, **names)

    case(name, doc=doc, libraries=("numpy", "strict", "cupy", "ocean"), ext=True)(setup)


_f16_case("f16_add", "x + y: float16 (ocean_ext) vs NumPy's float16", "x + y")
_f16_case("f16_multiply", "x * y: float16 (ocean_ext) vs NumPy's float16", "x * y")
_f16_case("f16_exp", "xp.exp(x): float16 vs NumPy's float16", "f(x)", "exp")
_f16_case("f16_sum", "xp.sum(x): float16 vs NumPy's float16", "f(x)", "sum")

# --- cases: sparse COO (ocean_ext.sparse) -----------------------------------
# Their baselines are SciPy's sparse formats and pydata/sparse, not NumPy, and
# their inputs are fixed (1e5 x 1e5 and 1e3^3 arrays with 1e6 entries), so they
# run from benchmarks/bench_sparse.py, which reuses this file's timing
# (run_case, interleaved calibrated samples) and prints its own table with the
# the sparse targets:  python3 benchmarks/bench_sparse.py [--quick]


# --- timing ----------------------------------------------------------------------
def _compile(
    t: Timed, sync: Callable[[], None], context: Callable[[], Any] | None = None
) -> Callable[[int], int]:
    """A function ``run(number) -> ns`` timing ``number`` runs of ``t.stmt``
    (inside ``with context():`` when given, entered before the clock starts)."""
    for name in t.names:
        if not name.isidentifier() or name.startswith("_"):
            raise ValueError(f"bad name {name!r} in a benchmark statement")
    binds = "".join(f"    {k} = _names[{k!r}]\n" for k in t.names)
    loop = (
        "    _t0 = _timer()\n"
        "    for _ in _range:\n"
        f"        {t.stmt}\n"
        "    _sync()\n"
        "    return _timer() - _t0\n"
    )
    if context is not None:
        loop = "    with _context():\n" + "".join(
            "    " + line + "\n" for line in loop.splitlines()
        )
    src = f"def _run(_number):\n{binds}    _range = range(_number)\n{loop}"
    scope: dict[str, Any] = {
        "_names": t.names,
        "_timer": time.perf_counter_ns,
        "_sync": sync,
        "_context": context,
    }
    exec(compile(src, f"<bench {t.stmt}>", "exec"), scope)
    return scope["_run"]  # type: ignore[no-any-return]


def _sample(run: Callable[[int], int], number: int) -> int:
    enabled = gc.isenabled()
    gc.disable()
    try:
        return run(number)
    finally:
        if enabled:
            gc.enable()


def _calibrate(run: Callable[[int], int], min_sample_ns: int) -> tuple[int, int]:
    """(number, ns of one call): the smallest power-of-two-ish loop count whose
    sample lasts ``min_sample_ns``."""
    number = 1
    while True:
        ns = _sample(run, number)
        if ns >= min_sample_ns or number >= 1 << 24:
            return number, max(1, ns // number)
        # Aim a little past the target, at most x10 per step.
        factor = min(10.0, 1.2 * min_sample_ns / max(ns, 1))
        number = max(number + 1, int(number * factor))


@dataclass
class Cell:
    """The result of one case, size and library."""

    status: str = "ok"  # ok | missing | n/a
    detail: str = ""
    number: int = 0
    samples_ns: list[float] = field(default_factory=list)
    stat: str = "median"  # what value_ns reports: "median" or "min"

    @property
    def median_ns(self) -> float | None:
        return statistics.median(self.samples_ns) if self.samples_ns else None

    @property
    def min_ns(self) -> float | None:
        return min(self.samples_ns) if self.samples_ns else None

    @property
    def value_ns(self) -> float | None:
        """The figure reported and compared (``--stat``)."""
        return self.min_ns if self.stat == "min" else self.median_ns

    @property
    def noisy(self) -> bool:
        """Whether the median is well above the fastest sample (a busy machine)."""
        med, low = self.median_ns, self.min_ns
        return med is not None and low is not None and med > NOISY * low


def _short_error(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text}"[:160]


def _numexpr_timed(c: Case, inp: Inputs) -> Timed:
    """The case as numexpr evaluates it (its ``numexpr`` expression)."""
    if c.numexpr is None:
        raise NotApplicable("numexpr has no such operation")
    import numexpr as ne

    words = set(re.findall(r"[A-Za-z_]\w*", c.numexpr))
    operands = {"x": lambda: inp.x, "y": lambda: inp.y, "a": lambda: inp.a,
                "m": lambda: inp.mask}  # fmt: skip
    names = {k: make() for k, make in operands.items() if k in words}
    return Timed("f(e, d)", f=ne.evaluate, e=c.numexpr, d=names)


def run_case(
    c: Case,
    n: int,
    inp: Inputs,
    libs: list[Library],
    *,
    reps: int,
    min_reps: int,
    min_sample_ns: int,
    budget_ns: int,
    stat: str = "median",
) -> dict[str, Cell]:
    cells: dict[str, Cell] = {}
    runs: dict[str, tuple[Callable[[int], int], int]] = {}
    per_call: list[int] = []
    for lib in libs:
        cell = cells[lib.key] = Cell(stat=stat)
        if c.libraries is not None and lib.key not in c.libraries:
            cell.status, cell.detail = "n/a", "not a library of this case"
            continue
        try:
            timed = (
                _numexpr_timed(c, inp) if lib.key == "numexpr" else c.setup(lib, n, inp)
            )
            run = _compile(timed, lib.sync, lib.context)
            run(1)  # warm-up; an op that does not exist yet raises here
            number, one = _calibrate(run, min_sample_ns)
        except NotApplicable as exc:
            cell.status, cell.detail = "n/a", str(exc)
            continue
        except Exception as exc:
            cell.status, cell.detail = "missing", _short_error(exc)
            continue
        cell.number = number
        runs[lib.key] = (run, number)
        per_call.append(one * number)
    if not runs:
        return cells
    # Repetitions: as many as fit the time budget, within [min_reps, reps].
    sweep = sum(per_call)
    count = max(min_reps, min(reps, budget_ns // max(sweep, 1)))
    keys = list(runs)
    for r in range(count):
        k = r % len(keys)  # rotate who goes first
        for key in keys[k:] + keys[:k]:
            run, number = runs[key]
            cells[key].samples_ns.append(_sample(run, number) / number)
    return cells


# --- reporting -------------------------------------------------------------------
def _fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "-"
    if ns < 1e4:
        return f"{ns:,.0f} ns"
    if ns < 1e7:
        return f"{ns / 1e3:,.1f} us"
    return f"{ns / 1e6:,.1f} ms"


def _fmt_size(n: int) -> str:
    if n >= 1_000_000 and n % 1_000_000 == 0:
        e = int(math.log10(n))
        return f"1e{e}" if n == 10**e else f"{n // 1_000_000}e6"
    return f"{n:,}"


def _geomean(values: list[float]) -> float | None:
    vals = [v for v in values if v > 0]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))


def _ratio(cells: dict[str, Cell], key: str, base: str) -> float | None:
    a, b = cells[key].value_ns, cells[base].value_ns
    if a is None or b is None:
        return None
    return a / b


def print_table(
    results: list[tuple[Case, int, dict[str, Cell]]], libs: list[Library]
) -> None:
    base = libs[0]
    others = libs[1:]
    head = ["op", "size"] + [lib.label for lib in libs]
    head += [f"{lib.key}/{base.key}" for lib in others]
    rows: list[list[str]] = []
    notes: dict[str, int] = {}  # "op: detail" -> footnote number
    who: dict[str, list[str]] = {}  # "op: detail" -> libraries it applies to
    for c, n, cells in results:
        row = [c.name, _fmt_size(n)]
        for lib in libs:
            cell = cells[lib.key]
            if cell.status == "ok":
                row.append(_fmt_ns(cell.value_ns) + ("~" if cell.noisy else " "))
            else:
                detail = f"{c.name}: {cell.detail}"
                ref = notes.setdefault(detail, len(notes) + 1)
                if lib.label not in who.setdefault(detail, []):
                    who[detail].append(lib.label)
                row.append(f"{cell.status} [{ref}]")
        for lib in others:
            r = _ratio(cells, lib.key, base.key)
            row.append("-" if r is None else f"{r:.2f}x")
        rows.append(row)
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
        for i, h in enumerate(head)
    ]
    align = ["<", "<"] + [">"] * (len(head) - 2)

    def line(cols: list[str]) -> str:
        return "  ".join(
            f"{col:{a}{w}}" for col, a, w in zip(cols, align, widths, strict=True)
        )

    print(line(head))
    print("  ".join("-" * w for w in widths))
    prev = None
    for (c, _, _), row in zip(results, rows, strict=True):
        if prev is not None and c.name != prev:
            print()
        prev = c.name
        print(line(row))
    if any(cell.noisy for _, _, cells in results for cell in cells.values()):
        print()
        print(
            f"~ noisy: the median is more than {NOISY:g}x the fastest sample "
            "(a busy machine); compare with --stat min"
        )
    if notes:
        print()
        for detail, ref in notes.items():
            print(f"[{ref}] {detail} ({', '.join(who[detail])})")


# The targets for ocean_array_api against the baseline (NumPy on the
# CPU, CuPy on a GPU).  The limits are the issue's; nothing asserts on them.
SMALL_GEOMEAN_MAX = 1.25  # geometric mean over the list, small arrays
SMALL_RATIO_MAX = 2.0  # any operation of the list but the O(1) ones, small arrays
SETITEM_MAX = 1.5  # z[...] = y, small arrays
VIEW_NS_MAX = 150.0  # x[2:-2], reshape, .mT
ASARRAY_NS_MAX = 300.0  # asarray of a NumPy array
LARGE_GEOMEAN_MAX = 1.01
SORT_MAX = 1.1  # sort of 1e6 and 1e7 int64 and float64, vs np.sort's default
IMPORT_S_MAX = 0.1
TARGET_VIEWS = {"slice": "x[2:-2]", "reshape": "reshape", "mT": ".mT"}
SORT_SIZES = (1_000_000, 10_000_000)


def _target(
    key: str,
    label: str,
    value: float | None,
    limit: float,
    unit: str,
    detail: str = "",
) -> dict[str, Any]:
    return {
        "key": key,
        "label": label,
        "value": value,
        "limit": limit,
        "unit": unit,
        "pass": None if value is None else bool(value <= limit),
        "detail": detail,
    }


def _counts_in_targets(c: Case) -> bool:
    return not c.ext and c.group in TARGET_GROUPS


# On a GPU, against CuPy: the launch of a kernel (several microseconds) bounds
# what a front end can save, so the small-array limit is looser; large arrays
# should cost what CuPy's kernels cost; complex32 moves half complex64's bytes.
CUDA_SMALL_GEOMEAN_MAX = 1.6
CUDA_LARGE_GEOMEAN_MAX = 1.03
CUDA_C32_MAX = {"c32_multiply": 0.7, "c32_add": 0.7, "c32_abs": 0.7,
                "c32_sum": 1.0, "c32_exp": 1.0}  # fmt: skip


def compute_cuda_targets(
    results: list[tuple[Case, int, dict[str, Cell]]],
    base: str,
    device: str,
    lib: str = "ocean",
) -> list[dict[str, Any]]:
    """The targets against CuPy on a GPU (value None: not measured): the
    geometric means of the list at small and large sizes, and the complex32
    cases (large sizes, against CuPy's complex64)."""
    small: list[float] = []
    large: list[float] = []
    c32: dict[str, list[tuple[int, float]]] = {}
    for c, n, cells in results:
        r = _ratio(cells, lib, base) if lib in cells else None
        if r is None:
            continue
        if c.name in CUDA_C32_MAX and n >= SMALL_LIMIT:
            c32.setdefault(c.name, []).append((n, r))
        if not _counts_in_targets(c):
            continue
        if n < SMALL_LIMIT:
            small.append(r)
        elif not c.is_constant_time(n, device):
            large.append(r)
    targets = [
        _target("small_geomean",
                "small arrays: geometric mean of the ratios over the list",
                _geomean(small), CUDA_SMALL_GEOMEAN_MAX, "x", f"{len(small)} cells"),
        _target("large_geomean",
                "large arrays: geometric mean of the ratios over the list "
                "(O(1) ops excluded)",
                _geomean(large), CUDA_LARGE_GEOMEAN_MAX, "x", f"{len(large)} cells"),
    ]  # fmt: skip
    for name, limit in CUDA_C32_MAX.items():
        vals = sorted(c32.get(name, []))
        detail = ", ".join(f"{_fmt_size(n)}: {v:.2f}x" for n, v in vals)
        value = max((v for _, v in vals), default=None)
        targets.append(
            _target(name, f"{name} (complex32) vs complex64, large arrays", value,
                    limit, "x", detail)
        )  # fmt: skip
    return targets


def compute_targets(
    results: list[tuple[Case, int, dict[str, Cell]]],
    base: str,
    device: str,
    import_time: dict[str, Any] | None,
    lib: str = "ocean",
) -> list[dict[str, Any]]:
    """The targets for ``lib`` against ``base`` (value None: not measured)."""
    if device != "cpu":
        return compute_cuda_targets(results, base, device, lib)
    small: list[tuple[float, Case, int]] = []
    large: list[float] = []
    by_name: dict[str, dict[int, dict[str, Cell]]] = {}
    for c, n, cells in results:
        by_name.setdefault(c.name, {})[n] = cells
        if lib not in cells or not _counts_in_targets(c):
            continue
        r = _ratio(cells, lib, base)
        if r is None:
            continue
        if n < SMALL_LIMIT:
            small.append((r, c, n))
        elif not c.is_constant_time(n, device):
            large.append(r)

    def small_values(name: str, ratio: bool) -> list[tuple[int, float]]:
        out = []
        for n, cells in sorted(by_name.get(name, {}).items()):
            if n >= SMALL_LIMIT or lib not in cells:
                continue
            v = _ratio(cells, lib, base) if ratio else cells[lib].value_ns
            if v is not None:
                out.append((n, v))
        return out

    def worst(
        key: str, label: str, name: str, limit: float, ratio: bool
    ) -> dict[str, Any]:
        vals = small_values(name, ratio)
        unit = "x" if ratio else "ns"
        fmt = "{:.2f}x" if ratio else "{:,.0f} ns"
        detail = ", ".join(f"{_fmt_size(n)}: {fmt.format(v)}" for n, v in vals)
        value = max((v for _, v in vals), default=None)
        return _target(key, label, value, limit, unit, detail)

    targets = [
        _target(
            "small_geomean",
            "small arrays: geometric mean of the ratios over the list",
            _geomean([r for r, _, _ in small]),
            SMALL_GEOMEAN_MAX,
            "x",
            f"{len(small)} cells",
        )
    ]
    # the O(1) cases with absolute targets are judged by those instead
    movable = [(r, c, n) for r, c, n in small if not (c.view or c.group == "asarray")]
    top = max(movable, key=lambda t: t[0], default=None)
    targets.append(
        _target(
            "small_max",
            "small arrays: largest ratio (O(1) views and `asarray` excluded)",
            None if top is None else top[0],
            SMALL_RATIO_MAX,
            "x",
            "" if top is None else f"{top[1].name} at {_fmt_size(top[2])}",
        )
    )
    targets.append(
        worst("setitem_ellipsis", "small arrays: `z[...] = y`", "setitem_ellipsis",
              SETITEM_MAX, ratio=True)
    )  # fmt: skip
    for name, label in TARGET_VIEWS.items():
        targets.append(
            worst(f"view_{name}_ns", f"view `{label}`: time", name, VIEW_NS_MAX,
                  ratio=False)
        )  # fmt: skip
    targets.append(
        worst("asarray_ndarray_ns", "`asarray` of a NumPy array: time",
              "asarray_ndarray", ASARRAY_NS_MAX, ratio=False)
    )  # fmt: skip
    targets.append(
        _target(
            "large_geomean",
            "large arrays: geometric mean of the ratios over the list (O(1) ops excluded)",
            _geomean(large),
            LARGE_GEOMEAN_MAX,
            "x",
            f"{len(large)} cells",
        )
    )
    for name, dt in (("sort_i64", "int64"), ("sort_f64", "float64")):
        for n in SORT_SIZES:
            cells = by_name.get(name, {}).get(n)
            r = None if cells is None or lib not in cells else _ratio(cells, lib, base)
            targets.append(
                _target(f"{name}_{_fmt_size(n)}", f"`sort`, {_fmt_size(n)} {dt}", r,
                        SORT_MAX, "x")
            )  # fmt: skip
    imp = None if import_time is None else import_time.get("median_s")
    detail = ""
    if import_time and import_time.get("numpy_median_s") is not None:
        detail = (
            f"median of {len(import_time['runs_s'])} fresh interpreters; "
            f"NumPy's share {import_time['numpy_median_s']:.3f} s"
        )
    targets.append(
        _target("import_s", "`import ocean_array_api` (NumPy's import included)", imp,
                IMPORT_S_MAX, "s", detail)
    )  # fmt: skip
    return targets


# --threads: large operations on every core.  ocean_array_api on all its
# threads (the default), on one and on two, against NumPy (one thread: every
# ufunc runs on one) and numexpr on all threads, at the sizes where threads
# pay; the targets are at 1e7 elements over THREAD_TARGET_OPS.
THREAD_LIBRARIES = ("numpy", "numexpr", "ocean_1", "ocean_2", "ocean")
THREAD_SIZES = (100_000, 1_000_000, 10_000_000)
THREAD_TARGET_OPS = (
    "exp", "sin", "sqrt", "log", "add", "mul_scalar", "divide", "sum", "max",
)  # fmt: skip
THREAD_OPS = (
    *THREAD_TARGET_OPS, "where", "astype_f32", "setitem_ellipsis", "concat",
    "sum_axis1", "std",
)  # fmt: skip
THREAD_SIZE = 10_000_000
THREAD_GEOMEAN_MAX = 0.7
THREAD_RATIO_MAX = 1.0
NUMEXPR_RATIO_MAX = 1.0


def compute_thread_targets(
    results: list[tuple[Case, int, dict[str, Cell]]],
) -> list[dict[str, Any]]:
    """The --threads targets: at 1e7 elements over THREAD_TARGET_OPS, the
    geometric mean of ocean/NumPy, the largest ocean/NumPy, and ocean against
    numexpr on every operation numexpr has."""
    at = {c.name: cells for c, n, cells in results if n == THREAD_SIZE}
    ratios: list[tuple[str, float]] = []
    vs_ne: list[tuple[str, float]] = []
    missing: list[str] = []
    for op in THREAD_TARGET_OPS:
        cells = at.get(op)
        r = _ratio(cells, "ocean", "numpy") if cells else None
        if r is None:
            missing.append(op)
            continue
        ratios.append((op, r))
        q = _ratio(cells, "ocean", "numexpr") if cells else None
        if q is not None:
            vs_ne.append((op, q))
    size = _fmt_size(THREAD_SIZE)
    complete = not missing
    geo = _geomean([r for _, r in ratios]) if complete else None
    worst = max(ratios, key=lambda t: t[1]) if ratios and complete else None
    worst_ne = max(vs_ne, key=lambda t: t[1]) if vs_ne and complete else None
    ops = ", ".join(THREAD_TARGET_OPS)

    def detail(pairs: list[tuple[str, float]]) -> str:
        return ", ".join(f"{op} {r:.2f}x" for op, r in pairs)

    return [
        _target("threads_geomean", f"{size}: geometric mean over {ops}", geo,
                THREAD_GEOMEAN_MAX, "x", detail(ratios)),
        _target("threads_max", f"{size}: largest ratio over the same",
                worst[1] if worst else None, THREAD_RATIO_MAX, "x",
                f"{worst[0]}" if worst else ""),
        _target("threads_numexpr", f"{size}: ocean / numexpr, every operation numexpr has",
                worst_ne[1] if worst_ne else None, NUMEXPR_RATIO_MAX, "x",
                detail(vs_ne)),
    ]  # fmt: skip


def summarize_threads(
    results: list[tuple[Case, int, dict[str, Cell]]], libs: list[Library]
) -> dict[str, Any]:
    """Geometric means per library and size over THREAD_TARGET_OPS, and the
    targets."""
    base = libs[0]
    stat = results[0][2][base.key].stat if results else "median"
    geo: dict[str, dict[str, Any]] = {}
    for lib in libs[1:]:
        per_size: dict[str, Any] = {}
        for n in sorted({n for _, n, _ in results}):
            rs = [
                r
                for c, m, cells in results
                if m == n and c.name in THREAD_TARGET_OPS
                and (r := _ratio(cells, lib.key, base.key)) is not None
            ]  # fmt: skip
            per_size[str(n)] = {"ratio": _geomean(rs), "count": len(rs)}
        geo[lib.key] = per_size
    return {
        "suite": "threads",
        "baseline": base.key,
        "stat": stat,
        "geomean": geo,
        "targets": compute_thread_targets(results),
    }


def print_thread_summary(summary: dict[str, Any], libs: list[Library]) -> None:
    base = libs[0]
    print()
    print(
        f"Geometric means of the time ratios to {base.label} over "
        f"{', '.join(THREAD_TARGET_OPS)}:"
    )
    for lib in libs[1:]:
        per = summary["geomean"][lib.key]
        cols = [
            f"{_fmt_size(int(n))}: " + ("-" if g["ratio"] is None else f"{g['ratio']:.2f}x")
            for n, g in per.items()
        ]  # fmt: skip
        print(f"  {lib.label:<36} " + "  ".join(cols))
    print()
    print(
        f"The targets, ocean_array_api (all threads) against {base.label} and numexpr:"
    )
    targets = summary["targets"]
    width = max(len(t["label"]) for t in targets)
    for t in targets:
        line = (
            f"  {_verdict(t):<4}  {t['label']:<{width}}  "
            f"{_fmt_target_value(t):>9}  (target {_fmt_target_limit(t)})"
        )
        if t["detail"]:
            line += f"  [{t['detail']}]"
        print(line)


def summarize(
    results: list[tuple[Case, int, dict[str, Cell]]],
    libs: list[Library],
    device: str,
    import_time: dict[str, Any] | None = None,
) -> dict[str, Any]:
    base = libs[0]
    stat = results[0][2][base.key].stat if results else "median"
    summary: dict[str, Any] = {
        "baseline": base.key,
        "stat": stat,
        "geomean": {},
        "views_ns": {},
        "import_time": import_time,
    }
    for lib in libs[1:]:
        groups: dict[str, list[float]] = {
            "small": [], "large": [], "large_all": [], "other": [], "ext": []
        }  # fmt: skip
        for c, n, cells in results:
            r = _ratio(cells, lib.key, base.key)
            if r is None:
                continue
            if c.ext:
                groups["ext"].append(r)
            elif not _counts_in_targets(c):
                groups["other"].append(r)
            elif n < SMALL_LIMIT:
                groups["small"].append(r)
            else:
                groups["large_all"].append(r)
                if not c.is_constant_time(n, device):
                    groups["large"].append(r)
        summary["geomean"][lib.key] = {
            g: {"ratio": _geomean(v), "count": len(v)} for g, v in groups.items()
        }
    for c, n, cells in results:
        if c.view:
            summary["views_ns"].setdefault(c.name, {})[str(n)] = {
                lib.key: cells[lib.key].value_ns for lib in libs
            }
    if any(lib.key == "ocean" for lib in libs[1:]):
        summary["targets"] = compute_targets(
            results, base.key, device, import_time, "ocean"
        )
    return summary


def _fmt_target_value(t: dict[str, Any]) -> str:
    v = t["value"]
    if v is None:
        return "-"
    if t["unit"] == "x":  # 1.10x must not read as meeting "at most 1.1x"
        return f"{v:.3f}x"
    if t["unit"] == "ns":
        return f"{v:,.0f} ns"
    return f"{v:.3f} s"


def _fmt_target_limit(t: dict[str, Any]) -> str:
    lim = t["limit"]
    if t["unit"] == "x":
        return f"<= {lim:g}x"
    if t["unit"] == "ns":
        return f"< {lim:g} ns"
    return f"< {lim:g} s"


def _verdict(t: dict[str, Any]) -> str:
    return {True: "PASS", False: "FAIL", None: "n/a"}[t["pass"]]


def print_summary(summary: dict[str, Any], libs: list[Library]) -> None:
    base = libs[0]
    print()
    print(f"Summary: geometric mean of time ratios to {base.label} (lower is better)")
    for lib in libs[1:]:
        g = summary["geomean"][lib.key]

        def show(group: str, g: dict[str, Any] = g) -> str:
            r = g[group]["ratio"]
            return "-" if r is None else f"{r:.2f}x over {g[group]['count']} cells"

        print(
            f"  {lib.label + ' / ' + base.label:<36} the target list, small "
            f"(n < {SMALL_LIMIT:,}): {show('small')}"
        )
        print(
            f"  {'':<36} the target list, large, O(n) ops: {show('large')}; "
            f"incl. O(1) views: {show('large_all')}"
        )
        if g["other"]["count"]:
            print(f"  {'':<36} other operations (all sizes): {show('other')}")
        if g["ext"]["count"]:
            print(
                f"  {'':<36} ocean_ext cases (byte order, index objects, "
                f"complex32, float16; not in the above): {show('ext')}"
            )
    if summary["views_ns"]:
        print(f"Views (absolute {summary['stat']} times):")
        for name, by_size in summary["views_ns"].items():
            parts = []
            for size, per_lib in by_size.items():
                vals = ", ".join(
                    f"{lib.key} {_fmt_ns(per_lib[lib.key])}" for lib in libs
                )
                parts.append(f"{_fmt_size(int(size))}: {vals}")
            print(f"  {name:<12} " + " | ".join(parts))
    targets = summary.get("targets")
    if targets:
        print()
        print(
            f"The targets, ocean_array_api against {base.label} "
            f"({summary['stat']}s; n/a: not measured in this run):"
        )
        width = max(len(t["label"]) for t in targets)
        for t in targets:
            line = (
                f"  {_verdict(t):<4}  {t['label']:<{width}}  "
                f"{_fmt_target_value(t):>9}  (target {_fmt_target_limit(t)})"
            )
            if t["detail"]:
                line += f"  [{t['detail']}]"
            print(line)


# --- import time and machine ---------------------------------------------------------


def _dump_results(payload: dict[str, Any]) -> str:
    """``payload`` as JSON with each entry of ``results`` on one line."""
    rest = {k: v for k, v in payload.items() if k != "results"}
    head = json.dumps(rest, indent=1)
    rows = ",\n  ".join(json.dumps(r) for r in payload.get("results", []))
    return head[:-2] + ',\n "results": [\n  ' + rows + "\n ]\n}"


def measure_import_time(runs: int) -> dict[str, Any] | None:
    """Median time of ``import ocean_array_api`` over ``runs`` fresh
    interpreters, as ``python -X importtime`` reports it (cumulative, so
    NumPy's import is included when ocean_array_api is what imports it)."""
    if runs <= 0:
        return None
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    # Python's default: the bytecode caches are written (by the first run), as
    # an installed package has them; with PYTHONDONTWRITEBYTECODE set every run
    # would recompile each module edited since its cache was last written.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    totals: list[float] = []
    numpy_totals: list[float] = []
    for k in range(runs + 1):  # the first run warms the caches: not counted
        proc = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import ocean_array_api"],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        if proc.returncode != 0:
            print(f"bench.py: import ocean_array_api failed: {proc.stderr[-300:]}")
            return None
        found: dict[str, float] = {}
        for line in proc.stderr.splitlines():
            if not line.startswith("import time:"):
                continue
            parts = line[len("import time:") :].split("|")
            if len(parts) != 3 or not parts[1].strip().isdigit():
                continue
            name = parts[2].strip()
            if name in ("ocean_array_api", "numpy"):
                found[name] = int(parts[1]) / 1e6
        if "ocean_array_api" not in found:
            return None
        if k == 0:
            continue
        totals.append(found["ocean_array_api"])
        if "numpy" in found:
            numpy_totals.append(found["numpy"])
    return {
        "median_s": statistics.median(totals),
        "runs_s": totals,
        "numpy_median_s": statistics.median(numpy_totals) if numpy_totals else None,
        "method": "python -X importtime -c 'import ocean_array_api', cumulative",
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=_ROOT, capture_output=True, text=True, check=False, timeout=10,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _gpu_info(device: str) -> str | None:
    """The GPU of a ``cuda:N`` run: name, memory, CUDA runtime and driver."""
    if not device.startswith("cuda"):
        return None
    if _SIMULATED_CUPY is not None:
        return "simulated (tests/simcupy.py)"
    try:
        import cupy

        rt = cupy.cuda.runtime
        props = rt.getDeviceProperties(int(device.partition(":")[2] or 0))
        name = props["name"]
        name = name.decode() if isinstance(name, bytes) else str(name)
        return (
            f"{name}, {props['totalGlobalMem'] / 2**30:.1f} GiB; CUDA runtime "
            f"{rt.runtimeGetVersion()}, driver {rt.driverGetVersion()}"
        )
    except Exception as exc:  # the figures stand without it
        return f"unknown ({type(exc).__name__})"


def _thread_info() -> dict[str, Any]:
    """The thread counts of a --threads run: ocean's default (the cores the
    process may use) and the cores, for the results file."""
    info: dict[str, Any] = {"cores": _cores()}
    try:
        import ocean_array_api._backend as _b

        cpu = _b.get_backend("cpu")
        info["ocean_default"] = cpu.num_threads() if cpu is not None else None
    except Exception:  # the figures stand without it
        info["ocean_default"] = None
    try:
        import numexpr as ne

        info["numexpr"] = ne.get_num_threads()
    except ImportError:
        info["numexpr"] = None
    return info


def machine_info(libs: list[Library], device: str) -> dict[str, Any]:
    """Where and with what the figures were taken (the JSON's ``meta``)."""
    import datetime
    import importlib

    try:
        obj = importlib.import_module("ocean_array_api._array_object")
        fastpath = getattr(obj, "_FASTPATH", None)
    except ImportError:
        fastpath = None
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%d %H:%M UTC"
        ),
        "cpu": _cpu_model(),
        "cpus": os.cpu_count(),
        "os": platform.platform(),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "device": device,
        "gpu": _gpu_info(device),
        "numpy": np.__version__,
        "libraries": {lib.key: lib.version for lib in libs},
        "labels": {lib.key: lib.label for lib in libs},
        "git_commit": _git_commit(),
        # the compiled fast path of Array's operators and indexing (None: this
        # version has no such switch)
        "fastpath": None if fastpath is None else bool(fastpath),
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


# --- command line ------------------------------------------------------------------
def _parse_sizes(text: str) -> tuple[int, ...]:
    sizes = []
    for part in text.split(","):
        part = part.strip().replace("_", "")
        if not part:
            continue
        value = float(part)
        if value != int(value) or value < 2:
            raise argparse.ArgumentTypeError(
                f"bad size {part!r}: sizes are integers >= 2"
            )
        sizes.append(int(value))
    if not sizes:
        raise argparse.ArgumentTypeError("no sizes given")
    return tuple(sizes)


def merge_results(paths: list[str]) -> dict[str, Any]:
    """One results payload from several ``--json`` files of one device and
    library set (e.g. small and large sizes timed in separate runs), with the
    summary and targets recomputed over all of them."""
    payloads = [json.loads(Path(p).read_text()) for p in paths]
    meta = dict(payloads[0]["meta"])
    devices = {pl["meta"]["device"] for pl in payloads}
    if len(devices) != 1:
        raise SystemExit(f"bench.py --merge: results of several devices {devices}")
    cells: dict[tuple[str, int], dict[str, Cell]] = {}
    cases: dict[str, Any] = {}
    for pl in payloads:
        cases.update(pl["cases"])
        for r in pl["results"]:
            cells.setdefault((r["op"], r["size"]), {})[r["library"]] = Cell(
                status=r["status"],
                detail=r["detail"],
                number=r["number"],
                samples_ns=list(r["samples_ns"]),
                stat=pl["meta"]["stat"],
            )
    unknown = sorted({op for op, _ in cells} - set(CASES))
    if unknown:
        raise SystemExit(f"bench.py --merge: unknown cases {unknown}")
    results = sorted(
        ((CASES[op], n, c) for (op, n), c in cells.items()),
        key=lambda r: (list(CASES).index(r[0].name), r[1]),
    )
    labels = meta["labels"]
    libs = [Library(k, labels[k], None, lambda a: a) for k in labels]
    device = meta["device"]
    sizes = sorted({n for _, n, _ in results})
    meta["sizes"] = sizes
    meta["command"] = " ; ".join(pl["meta"]["command"] for pl in payloads)
    meta["seconds"] = sum(pl["meta"]["seconds"] for pl in payloads)
    # a cell timed again (a later file) replaces the earlier one
    rows = {
        (r["op"], r["size"], r["library"]): r for pl in payloads for r in pl["results"]
    }
    import_time = next(
        (t for pl in payloads if (t := pl.get("summary", {}).get("import_time"))), None
    )
    return {
        "meta": meta,
        "cases": cases,
        "results": list(rows.values()),
        "summary": summarize(results, libs, device, import_time),
        "_tables": (results, libs),
    }


def _select_cases(patterns: str | None) -> list[Case]:
    if not patterns:
        return list(CASES.values())
    wanted = [p.strip() for p in patterns.split(",") if p.strip()]
    chosen = [
        c for c in CASES.values() if any(fnmatch.fnmatchcase(c.name, p) for p in wanted)
    ]
    unknown = [p for p in wanted if not any(fnmatch.fnmatchcase(c, p) for c in CASES)]
    if unknown:
        raise SystemExit(f"bench.py: no case matches {', '.join(unknown)}; see --list")
    return chosen


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description="Median times and ratios of ocean_array_api, NumPy, "
        "array-api-strict and array_api_compat.numpy.",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="few repetitions, sizes up to 1e6 (CI smoke run)",
    )
    p.add_argument(
        "--sizes",
        type=_parse_sizes,
        help="comma-separated element counts, e.g. 8,1000,1e6",
    )
    p.add_argument(
        "--ops", help="comma-separated case names or glob patterns (see --list)"
    )
    p.add_argument(
        "--device",
        default="cpu",
        help="'cpu' (default) or 'cuda:N' (compares with CuPy)",
    )
    p.add_argument(
        "--reps",
        type=int,
        help="maximum repetitions per cell (default 25; 3 with --quick)",
    )
    p.add_argument(
        "--min-sample-us",
        type=float,
        help="minimum duration of one sample (default 200)",
    )
    p.add_argument(
        "--budget-s",
        type=float,
        help="time budget per case and size, all libraries (default 3)",
    )
    p.add_argument(
        "--json", metavar="PATH", help="also write the results as JSON to PATH"
    )
    p.add_argument(
        "--stat",
        choices=("median", "min"),
        default="median",
        help="figure reported per cell: the median (default) or the fastest sample",
    )
    p.add_argument(
        "--plots",
        metavar="DIR",
        help="also write DIR/results.json, the plots (SVG, needs matplotlib) and "
        "the docs' summary tables (DIR/summary.md): what docs/benchmarks.md shows",
    )
    p.add_argument(
        "--import-runs",
        type=int,
        help="fresh interpreters timing `import ocean_array_api` (default 11; "
        "3 with --quick; 0: skip)",
    )
    p.add_argument(
        "--threads",
        action="store_true",
        help="large operations on every core: NumPy, numexpr (all threads) and "
        "ocean_array_api on 1, 2 and all threads, at 1e5, 1e6 and 1e7 elements, "
        "with their own targets (--plots DIR: DIR/threads/)",
    )
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    p.add_argument(
        "--merge",
        nargs="+",
        metavar="JSON",
        help="time nothing: merge --json files of one device (e.g. small and "
        "large sizes run apart), print the table and targets, and with --plots "
        "write the docs' files",
    )
    p.add_argument(
        "--simulate-cuda",
        action="store_true",
        help="with --device cuda:N and no GPU: run on the test suite's simulated "
        "CuPy (a smoke run of the CUDA mode; the figures mean nothing)",
    )
    args = p.parse_args(argv)
    if args.simulate_cuda:
        _simulate_cuda()

    if args.merge:
        payload = merge_results(args.merge)
        results, libs = payload.pop("_tables")
        print_table(results, libs)
        print_summary(payload["summary"], libs)
        if args.plots:
            out = Path(args.plots)
            out.mkdir(parents=True, exist_ok=True)
            (out / "results.json").write_text(_dump_results(payload) + "\n")
            here = str(Path(__file__).resolve().parent)
            if here not in sys.path:
                sys.path.insert(0, here)
            import plot

            for path in [out / "results.json", *plot.write_all(payload, out)]:
                print(f"wrote {path}")
        return 0

    if args.list:
        for c in CASES.values():
            libs = f" [{', '.join(c.libraries)}]" if c.libraries else ""
            print(f"{c.name:<16} {c.doc}{libs}")
        return 0

    device = args.device.strip().lower()
    if device in ("cpu", "cpu:0"):
        device = "cpu"
    libs: list[Library] = []
    keys = THREAD_LIBRARIES if args.threads else libraries_for(device)
    if args.threads and device != "cpu":
        print("bench.py: --threads times the CPU only")
        return 0
    for key in keys:
        try:
            libs.append(LIBRARIES[key](device))
        except Unavailable as exc:
            if key == keys[0] or key == "ocean":
                print(f"bench.py: skipping the {device} benchmark: {exc}")
                return 0
            print(f"bench.py: leaving out {key}: {exc}")

    quick = args.quick
    if args.threads:
        sizes = args.sizes or (THREAD_SIZES[:2] if quick else THREAD_SIZES)
    else:
        sizes = args.sizes or (QUICK_SIZES if quick else DEFAULT_SIZES)
    reps = args.reps or (3 if quick else 25)
    min_reps = min(reps, 3 if quick else 5)
    min_sample_ns = int((args.min_sample_us or (50 if quick else 200)) * 1000)
    budget_ns = int((args.budget_s or (0.5 if quick else 3.0)) * 1e9)
    if args.threads and not args.ops:
        cases = [CASES[name] for name in THREAD_OPS]
    else:
        cases = _select_cases(args.ops)
    import_runs = (
        args.import_runs if args.import_runs is not None else (3 if quick else 11)
    )
    if args.threads:
        import_runs = 0
    if args.plots:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print(
                "bench.py: --plots needs matplotlib (pip install '.[bench]'); "
                "nothing was run"
            )
            return 2

    print(
        f"Python {platform.python_version()} on {platform.machine()} "
        f"({os.cpu_count()} CPUs); device {device}; "
        + ", ".join(f"{lib.label} {lib.version}".strip() for lib in libs)
    )
    print(
        f"{args.stat} of up to {reps} interleaved samples of >= "
        f"{min_sample_ns / 1000:g} us; times are per call"
    )
    print()

    t_start = time.perf_counter()
    results: list[tuple[Case, int, dict[str, Cell]]] = []
    for n in sizes:
        inp = Inputs(n)
        for c in cases:
            cells = run_case(
                c, n, inp, libs,
                reps=reps, min_reps=min_reps, min_sample_ns=min_sample_ns,
                budget_ns=budget_ns, stat=args.stat,
            )  # fmt: skip
            results.append((c, n, cells))
        del inp
    results.sort(key=lambda r: (list(CASES).index(r[0].name), r[1]))
    elapsed = time.perf_counter() - t_start

    import_time = measure_import_time(import_runs)

    print_table(results, libs)
    if args.threads:
        summary = summarize_threads(results, libs)
        print_thread_summary(summary, libs)
    else:
        summary = summarize(results, libs, device, import_time)
        print_summary(summary, libs)
    print(f"\n({elapsed:.0f} s)")

    if args.json or args.plots:
        meta = machine_info(libs, device)
        meta.update(
            {
                "command": shlex.join(
                    [
                        "python",
                        "benchmarks/bench.py",
                        *(argv if argv is not None else sys.argv[1:]),
                    ]
                ),
                "sizes": list(sizes),
                "reps": reps,
                "stat": args.stat,
                "min_sample_ns": min_sample_ns,
                "seconds": elapsed,
                "small_limit": SMALL_LIMIT,
                "suite": "threads" if args.threads else "standard",
                "threads": _thread_info() if args.threads else None,
            }
        )
        payload = {
            "meta": meta,
            "cases": {
                c.name: {
                    "doc": c.doc,
                    "group": c.group,
                    "ext": c.ext,
                    "view": c.view,
                    "constant_time": {
                        str(n): c.is_constant_time(n, device) for n in sizes
                    },
                }
                for c in cases
            },
            "results": [
                {
                    "op": c.name,
                    "size": n,
                    "library": key,
                    "status": cell.status,
                    "detail": cell.detail,
                    "value_ns": cell.value_ns,
                    "median_ns": cell.median_ns,
                    "min_ns": cell.min_ns,
                    "number": cell.number,
                    "samples_ns": [round(v, 2) for v in cell.samples_ns],
                }
                for c, n, cells in results
                for key, cell in cells.items()
            ],
            "summary": summary,
        }
        paths = [Path(args.json)] if args.json else []
        plots_dir = None
        if args.plots:
            plots_dir = Path(args.plots) / ("threads" if args.threads else "")
            paths.append(plots_dir / "results.json")
        for path in paths:
            if path.parent != Path():
                path.parent.mkdir(parents=True, exist_ok=True)
            # One line per result (samples rounded to 0.01 ns): the committed
            # copy under docs/ stays small and diffs line by line.
            path.write_text(_dump_results(payload) + "\n")
            print(f"wrote {path}")
        if args.plots:
            here = str(Path(__file__).resolve().parent)
            if here not in sys.path:
                sys.path.insert(0, here)
            import plot

            for path in plot.write_all(payload, plots_dir or Path(args.plots)):
                print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
