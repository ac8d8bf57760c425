"""CPU kernels of the ``ocean_ext`` dtypes float16 and complex32.

The entries of :func:`ext_ops` join the backend's function table under names
``"<operation>.<dtype>"`` (``"add.complex32"``, ``"sum.float16"``, ...), plus
the conversions ``"astype.to.<dtype>"`` / ``"astype.from.<dtype>"`` and the
views ``"view_as_complex"`` / ``"view_as_real"``.  The front end
(``ocean_array_api._ext_dtypes``) calls them on its slow path only; the
standard dtypes never see them.

Storage: float16 is NumPy's float16.  complex32 is one NumPy ``uint32`` per
element holding the two float16 parts in memory order (real, imaginary); these
arrays must never reach NumPy's integer ufuncs, so every complex32 entry here
is one of the compiled ufuncs of ``ocean_cpu._halfprec_c`` (built from
``src/halfprec.c``), or a bit operation that is exact on that layout (negation
and conjugation flip sign bits).

Conventions of the entries (arguments are native arrays, already validated):

- elementwise ``name.dtype(x[, y], out=None)``: operands in the dtype's
  storage (the front end converted Python scalars to 0-d arrays); the result
  is in the storage of the result dtype (float16 for ``abs``, ``real`` and
  ``imag`` of complex32, bool for comparisons and predicates);
- ``sum``/``prod``/``mean.dtype(x, axis, keepdims)``: the accumulator's
  value, float64 (float16) or complex128 (complex32); the front end rounds it
  to the result dtype;
- ``matmul``/``vecdot.dtype``: results in the dtype's storage;
- ``astype.to.dtype(x)``: ``x`` a native array of a NumPy-readable dtype (any
  standard dtype, or float16); ``astype.from.dtype(x, numpy_dtype)``.

Without the compiled extension (a source checkout that was never built, or a
platform without a C compiler) float16 runs on NumPy's own float16 loops and
the complex32 entries are absent; :data:`UNAVAILABLE` says why.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ._common import check_complex_view, nextafter_half, reduced

ndarray = np.ndarray

try:
    from . import _halfprec_c as _k  # type: ignore[attr-defined]

    UNAVAILABLE = ""
except ImportError as _exc:  # pragma: no cover - depends on the build
    _k = None
    UNAVAILABLE = (
        f"the compiled kernels ocean_cpu._halfprec_c are not built ({_exc}); "
        f"install the package (pip install .) or, in a source checkout, run "
        f"'python setup.py build_ext --inplace'"
    )

AVAILABLE = _k is not None

_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_C128 = np.dtype(np.complex128)
_C64 = np.dtype(np.complex64)
_U32 = np.dtype(np.uint32)
_BOOL = np.dtype(np.bool_)
_NEG = np.uint32(0x80008000)  # the sign bits of both parts
_CONJ = np.uint32(0x80000000)  # the sign bit of the imaginary part


def _native(x: ndarray) -> ndarray:
    return x if x.dtype.isnative else x.astype(x.dtype.newbyteorder("="))


# --- conversions -------------------------------------------------------------
def _to_complex32(x: Any) -> ndarray:
    """complex32 storage for a NumPy array (or scalar) of a readable dtype."""
    x = _native(np.asarray(x))
    dt = x.dtype
    if dt == _C64:
        return _k.c64_to_c32(x)  # type: ignore[union-attr,no-any-return]
    if dt == _F32:
        return _k.f32_to_c32(x)  # type: ignore[union-attr,no-any-return]
    if dt == _F16:
        return _k.f16_to_c32(x)  # type: ignore[union-attr,no-any-return]
    # float64 and complex128 round straight to half (no double rounding
    # through float32)
    if dt == _C128:
        return _k.c128_to_c32(x)  # type: ignore[union-attr,no-any-return]
    if dt == _F64:
        return _k.f64_to_c32(x)  # type: ignore[union-attr,no-any-return]
    # Other dtypes (integers, bool): NumPy rounds each part to float16.
    out = np.empty(x.shape, dtype=_U32)
    parts = out[..., None].view(_F16)
    if dt.kind == "c":
        parts[..., 0] = x.real
        parts[..., 1] = x.imag
    else:
        parts[..., 0] = x
        parts[..., 1] = 0
    return out


def _from_complex32(x: ndarray, dtype: Any) -> ndarray:
    """A NumPy array of ``dtype`` from complex32 storage (real dtypes take the
    real part, bool the truth of either part)."""
    dtype = np.dtype(dtype)
    if dtype == _F16:
        return _k.c32_real(x)  # type: ignore[union-attr,no-any-return]
    z = _k.c32_to_c64(x)  # type: ignore[union-attr]
    if dtype == _C64:
        return z  # type: ignore[no-any-return]
    if dtype.kind == "c":
        return z.astype(dtype)  # type: ignore[no-any-return]
    if dtype == _BOOL:
        return z != 0  # type: ignore[no-any-return]
    return z.real.astype(dtype)  # type: ignore[no-any-return]


def _to_float16(x: Any) -> ndarray:
    x = np.asarray(x)
    if _k is not None:
        if x.dtype == _F32:
            return _k.f32_to_f16(_native(x))  # type: ignore[no-any-return]
        if x.dtype == _F64:
            return _k.f64_to_f16(_native(x))  # type: ignore[no-any-return]
    return x.astype(_F16)


def _from_float16(x: ndarray, dtype: Any) -> ndarray:
    dtype = np.dtype(dtype)
    if _k is not None and dtype == _F32:
        return _k.f16_to_f32(x)  # type: ignore[no-any-return]
    return x.astype(dtype)


# --- reductions --------------------------------------------------------------
def _reduce(gufunc: Any, x: ndarray, axis: Any, keepdims: bool) -> ndarray:
    """Apply a ``(n)->()`` gufunc over ``axis`` (None, an int or a tuple)."""
    if axis is None:
        if not keepdims and x.flags.c_contiguous:
            return gufunc(x.reshape(-1))  # type: ignore[no-any-return]  # the common case
        axes: tuple[int, ...] = tuple(range(x.ndim))
    elif axis.__class__ is int:
        axes = (axis,)
    else:
        axes = tuple(axis)
    if len(axes) == 1:
        return gufunc(x, axis=axes[0], keepdims=keepdims)  # type: ignore[no-any-return]
    keep = [i for i in range(x.ndim) if i not in axes]
    n = math.prod([x.shape[i] for i in axes])
    y = x.transpose(keep + list(axes)).reshape([x.shape[i] for i in keep] + [n])
    res = gufunc(y, axis=-1)
    if keepdims:
        res = res.reshape([1 if i in axes else x.shape[i] for i in range(x.ndim)])
    return res  # type: ignore[no-any-return]


def _reduction(gufunc: Any) -> Callable[..., ndarray]:
    def reduction(x: ndarray, axis: Any, keepdims: bool) -> ndarray:
        return np.asarray(_reduce(gufunc, x, axis, keepdims))

    return reduction


def _mean(gufunc: Any) -> Callable[..., ndarray]:
    def mean(x: ndarray, axis: Any, keepdims: bool) -> ndarray:
        res = np.asarray(_reduce(gufunc, x, axis, keepdims))
        count = reduced(x.shape, axis, False)[1]
        with np.errstate(invalid="ignore", divide="ignore"):
            return res / count  # type: ignore[no-any-return]  # 0 / 0: NaN (+ NaN j)

    return mean


# --- views -------------------------------------------------------------------
def _view_as_complex(x: ndarray, dtype: Any) -> ndarray:
    """``x`` of shape (..., 2) viewed as ``dtype`` (twice its itemsize), shape (...)."""
    if x.size == 0:
        return np.empty(x.shape[:-1], dtype=dtype)  # nothing to share
    check_complex_view(x)
    if x.ctypes.data % (2 * x.itemsize) and np.dtype(dtype) == _U32:
        msg = "the data must be aligned to 4 bytes"
        raise ValueError(msg)
    return x.view(dtype)[..., 0]  # type: ignore[no-any-return]


def _view_as_real(z: ndarray, dtype: Any) -> ndarray:
    """``z`` viewed as ``dtype`` (half its itemsize), with a last axis of 2."""
    # a new last axis of length 1 is contiguous whatever z's strides
    return z[..., None].view(dtype)  # type: ignore[no-any-return]


# --- complex32 functions computed in complex64 ---------------------------------
def _via_complex64(func: Callable[..., Any], nargs: int) -> Callable[..., ndarray]:
    """A complex32 entry that widens to complex64, calls ``func`` (the CPU
    backend's complex64 entry, special cases included) and rounds the result
    once to complex32.  For the functions without a fused kernel yet (pow,
    expm1, log1p, round): each operand is copied once at twice its size, as
    the issue allows for fft; the fused kernels are the faster path."""

    def entry(*args: Any, out: ndarray | None = None) -> ndarray:
        wide = [_k.c32_to_c64(a) for a in args[:nargs]]  # type: ignore[union-attr]
        with np.errstate(all="ignore"):
            res = func(*wide)
        if out is not None:
            return _k.c64_to_c32(res, out=out)  # type: ignore[union-attr,no-any-return]
        return _k.c64_to_c32(res)  # type: ignore[union-attr,no-any-return]

    return entry


# --- the table -------------------------------------------------------------------
def _xor(mask: np.uint32) -> Callable[..., ndarray]:
    def flip(x: ndarray, out: ndarray | None = None) -> ndarray:
        return np.bitwise_xor(x, mask, out=out)  # exact on the (re, im) layout

    return flip


def _positive(x: ndarray, out: ndarray | None = None) -> ndarray:
    if out is None:
        return x.copy()
    out[...] = x
    return out


def _matmul_via(up: Any, down: Any) -> Callable[..., ndarray]:
    # Note: BLAS (complex64/float32 GEMM, accumulating in float32) on widened
    # copies of the operands, rounded once: the O(n**3) products dominate the
    # O(n**2) conversions.
    def matmul(a: ndarray, b: ndarray) -> ndarray:
        return down(np.matmul(up(a), up(b)))  # type: ignore[no-any-return]

    return matmul


def _vecdot(gufunc: Any) -> Callable[..., ndarray]:
    def vecdot(a: ndarray, b: ndarray, axis: int) -> ndarray:
        return np.asarray(gufunc(a, b, axis=axis))

    return vecdot


def ext_ops(standard: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """The float16 and complex32 entries, given the standard elementwise table.

    float16 starts from NumPy's own float16 loops (``standard``'s entries,
    which are right for float16 storage) and replaces the slow ones with
    compiled kernels when they are built.
    """
    ops: dict[str, Callable[..., Any]] = {
        f"{name}.float16": func for name, func in standard.items() if name != "matmul"
    }
    ops.update(
        {
            "astype.to.float16": _to_float16,
            "astype.from.float16": _from_float16,
            "view_as_complex": _view_as_complex,
            "view_as_real": _view_as_real,
            "matmul.float16": _matmul_via(
                lambda a: a.astype(_F32), lambda r: r.astype(_F16)
            ),
            "sum.float16": _reduction(
                lambda x, **kw: np.add.reduce(x, dtype=np.float64, **kw)
            ),
            "prod.float16": _reduction(
                lambda x, **kw: np.multiply.reduce(x, dtype=np.float64, **kw)
            ),
            "mean.float16": _mean(
                lambda x, **kw: np.add.reduce(x, dtype=np.float64, **kw)
            ),
            "nextafter.float16": nextafter_half(np, np.nextafter),
            "vecdot.float16": lambda a, b, axis: np.vecdot(  # type: ignore[call-overload]
                a.astype(_F32), b.astype(_F32), axis=axis
            ).astype(_F16),
        }
    )
    if _k is None:
        return ops
    k = _k
    for name in ("add", "subtract", "multiply", "divide", "sqrt", "equal",
                 "not_equal", "less", "less_equal", "greater", "greater_equal"):  # fmt: skip
        ops[f"{name}.float16"] = getattr(k, f"f16_{name}")
    ops.update(
        {
            "sum.float16": _reduction(k.f16_sum),
            "prod.float16": _reduction(k.f16_prod),
            "mean.float16": _mean(k.f16_sum),
            "vecdot.float16": _vecdot(k.f16_vecdot),
            "matmul.float16": _matmul_via(k.f16_to_f32, k.f32_to_f16),
            # complex32
            "astype.to.complex32": _to_complex32,
            "astype.from.complex32": _from_complex32,
            "negative.complex32": _xor(_NEG),
            "conj.complex32": _xor(_CONJ),
            "positive.complex32": _positive,
            "sum.complex32": _reduction(k.c32_sum),
            "prod.complex32": _reduction(k.c32_prod),
            "mean.complex32": _mean(k.c32_sum),
            "vecdot.complex32": _vecdot(k.c32_vecdot),
            "matmul.complex32": _matmul_via(k.c32_to_c64, k.c64_to_c32),
        }
    )
    for name in ("add", "subtract", "multiply", "divide", "equal", "not_equal",
                 "exp", "log", "log2", "log10", "sqrt", "sin", "cos", "tan",
                 "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh",
                 "acosh", "atanh", "square", "reciprocal", "sign", "abs",
                 "real", "imag", "isnan", "isinf", "isfinite"):  # fmt: skip
        ops[f"{name}.complex32"] = getattr(k, f"c32_{name}")
    for name, nargs in (("pow", 2), ("expm1", 1), ("log1p", 1), ("round", 1)):
        ops[f"{name}.complex32"] = _via_complex64(standard[name], nargs)
    return ops


def set_simd(level: int) -> int:
    """Choose the compiled loops: 2 (AVX-512 for the hottest loops, AVX2/F16C
    for the rest), 1 (AVX2/FMA/F16C) or 0 (portable); capped at what the CPU
    has (the default).  Returns the previous level.  For tests and benchmarks."""
    if _k is None:
        return 0
    return int(_k.set_level(int(level)))


def max_simd_level() -> int:
    """The best level of :func:`set_simd` this CPU runs (0 without kernels)."""
    return 0 if _k is None else int(_k.max_level())
