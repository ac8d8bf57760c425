"""The CUDA backend's function table, built from an array module ``xp``.

:func:`build_ops` takes the array module as a parameter: ``cupy`` in
production, a NumPy stand-in in the CPU tests (``tests/backends``).  It uses
only the part of the NumPy API that CuPy also has, and it ports the CPU
backend's corrections of NumPy (``ocean_cpu._backend``, each marked ``Note``)
where CuPy follows NumPy: descending stable sort, sorted ``unique`` with
distinct NaNs, the floor_divide / expm1 / tanh / pow special cases, clip's
result dtype, quiet NaN for empty means and variances, zero-size max/min, and
the linalg/fft conventions.  Corrections avoid device-to-host synchronisation
(no ``if mask.any():``): they are applied with ``where``/``copyto``.

Entry names and calling conventions are exactly the CPU table's (see
``docs/dev/backends.md``); creation entries take the device index first.

Devices: CuPy runs a kernel on its *current* device.  With more than one GPU
(``multi_device=True``) every entry is wrapped so that the device of its first
array operand (or, for creation entries, the device index) is current during
the call.  With one GPU the wrapper is left out: the current device can only
be device 0.

Byte order: CUDA arrays are always native (``supports_byteswap = False``; the
front end swaps on the way in), so none of the CPU backend's byte-order
handling is needed here.
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ocean_cpu._common import (
    check_complex_view,
    complex_reciprocal,
    complex_sign,
    elementwise,
    expand_dims,
    fill_empty_axes,
    flip,
    mean_entry,
    moveaxis,
    nextafter_half,
    reduced,
    reversed_view,
    spread_entry,
    store,
    unstack,
)
from ocean_cpu._common import diff as _diff
from ocean_cpu._common import flat_layout as _flat_layout
from ocean_cpu._common import stack as _stack
from ocean_cpu._common import tensordot as _tensordot

from ._halfprec_portable import portable_ops

__all__ = ["ABSENT", "build_ops"]

# Entries of the CPU table that this table leaves out on purpose, with the
# reason (the front end then raises NotImplementedError naming the operation).
ABSENT: dict[str, str] = {
    "linalg.eig": "CuPy has no general (non-symmetric) eigensolver before v14",
    "linalg.eigvals": "CuPy has no general (non-symmetric) eigensolver before v14",
    "index_array": "getitem and setitem check every integer index array themselves "
    "(check_key), uint64 values beyond intp included",
}

_inf = float("inf")
_nan = float("nan")


def _negative_zero(value: Any) -> bool:
    """Whether ``value`` is a float or complex zero with a sign bit set."""
    return (
        isinstance(value, (float, complex, np.floating, np.complexfloating))
        and value == 0
        and (math.copysign(1.0, value.real) < 0 or math.copysign(1.0, value.imag) < 0)
    )


def from_host(xp: Any, host: Any) -> Any:
    """A device copy of the NumPy array ``host`` on the current device, bit
    for bit.

    Note: CuPy 14 fills a 0-d array made from host data (``cupy.array(h)``)
    with ``fill``, which writes a zero by memset: ``cupy.array(-0.0)`` is +0
    (seen on a GPU).  A 0-d array is made from one element instead, which is
    copied byte for byte.
    """
    if host.ndim == 0:
        return xp.array(host.reshape(1), copy=True).reshape(())
    return xp.array(host, copy=True)


def device_scalar(xp: Any, value: Any, dtype: Any) -> Any:
    """A 0-d device array holding Python or NumPy scalar ``value`` (its sign
    of zero kept; see :func:`from_host`)."""
    return from_host(xp, np.asarray(value, dtype=dtype))


def _on_device(
    func: Callable[..., Any], ndarray: type, device_of: Callable[[Any], Any] | None
) -> Callable[..., Any]:
    """``func`` run with the device of its first array operand current."""
    if device_of is not None:
        return _on_device_of(func, ndarray, device_of)

    @functools.wraps(func)
    def entry(*args: Any, **kwargs: Any) -> Any:
        first: Any = None
        for a in args:
            if isinstance(a, ndarray):
                first = a
                break
            if (
                (a.__class__ is list or a.__class__ is tuple)
                and a
                and isinstance(a[0], ndarray)
            ):
                first = a[0]
                break
        if first is None:
            return func(*args, **kwargs)
        with first.device:  # a cupy.cuda.Device is a context manager
            return func(*args, **kwargs)

    return entry


def _on_device_of(
    func: Callable[..., Any], ndarray: type, device_of: Callable[[Any], Any]
) -> Callable[..., Any]:
    @functools.wraps(func)
    def entry(*args: Any, **kwargs: Any) -> Any:
        for a in args:
            if isinstance(a, ndarray):
                break
            if (a.__class__ is list or a.__class__ is tuple) and a:
                a = a[0]
                if isinstance(a, ndarray):
                    break
        else:
            return func(*args, **kwargs)
        with device_of(a):
            return func(*args, **kwargs)

    return entry


def _at_index(
    func: Callable[..., Any], device: Callable[[int], Any]
) -> Callable[..., Any]:
    """A creation entry ``func(index, ...)`` run with device ``index`` current."""

    @functools.wraps(func)
    def entry(index: int, *args: Any, **kwargs: Any) -> Any:
        with device(index):
            return func(index, *args, **kwargs)

    return entry


# Entries whose first argument is the device index.
CREATION = frozenset(
    {"arange", "empty", "zeros", "ones", "full", "eye", "linspace",
     "fft.fftfreq", "fft.rfftfreq"}
)  # fmt: skip


def build_ops(
    xp: Any,
    *,
    multi_device: bool = True,
    sort_kind: str | None = None,
    device_of: Callable[[Any], Any] | None = None,
    extra: dict[str, Callable[..., Any]] | None = None,
    linalg_errstate: Callable[[], Any] | None = None,
) -> dict[str, Callable[..., Any]]:
    """The backend table over array module ``xp`` (``cupy``).

    ``multi_device``: wrap entries so the operands' device is current.
    ``sort_kind``: the ``kind`` passed to sorts for stable sorting (CuPy's
    sorts are always stable and take None; NumPy needs ``"stable"``).
    ``extra``: entries that override the built ones (the fused complex32
    kernels), wrapped like them.  The complex32 entries of
    ``_halfprec_portable`` are the base every table gets.
    ``linalg_errstate``: a context factory in which ``xp.linalg`` raises
    ``LinAlgError`` for singular input (``cupyx.errstate(linalg="raise")``;
    by default CuPy returns NaN or garbage without a word).
    """
    ops = _raw_ops(xp, sort_kind, linalg_errstate)
    ops.update(portable_ops(xp, ops))
    if extra:
        ops.update(extra)
    if multi_device:
        nd = xp.ndarray
        dev = xp.cuda.Device
        for name, func in ops.items():
            ops[name] = (
                _at_index(func, dev)
                if name in CREATION
                else _on_device(func, nd, device_of)
            )
    return ops


def _raw_ops(
    xp: Any, sort_kind: str | None, linalg_errstate: Callable[[], Any] | None
) -> dict[str, Callable[..., Any]]:
    ndarray = xp.ndarray
    errstate = getattr(xp, "errstate", None)
    f16, f32 = xp.dtype(xp.float16), xp.dtype(xp.float32)

    def quiet() -> Any:
        # CuPy never warns for floating-point errors; NumPy (the test stand-in) does.
        return (
            errstate(all="ignore") if errstate is not None else contextlib.nullcontext()
        )

    def put(out: Any, res: Any) -> Any:
        return res if out is None else store(out, res)

    # --- corrections (ported from ocean_cpu._backend) ---------------------------
    def clip(x: Any, lo: Any, hi: Any) -> Any:
        # Note: the result keeps x's dtype; NaN propagates from any operand.
        out = x
        if lo is not None:
            out = xp.maximum(out, lo)
        if hi is not None:
            out = xp.minimum(out, hi)
        if out is x:
            return x.copy()
        return out.astype(x.dtype, copy=False)

    def result_dtype(x1: Any, x2: Any) -> Any:
        # the front end passes at least one array; a Python scalar takes its dtype
        if isinstance(x1, ndarray):
            return xp.result_type(x1, x2) if isinstance(x2, ndarray) else x1.dtype
        return x2.dtype

    def isinf(v: Any) -> Any:
        return xp.isinf(v) if isinstance(v, ndarray) else math.isinf(v)

    def floor_divide(x1: Any, x2: Any, out: Any = None) -> Any:
        dtype = result_dtype(x1, x2)
        if dtype.kind != "f":
            return (
                xp.floor_divide(x1, x2)
                if out is None
                else xp.floor_divide(x1, x2, out=out)
            )
        # Note: CuPy's float floor_divide is floor(x1 / x2), so 1.0 // 0.1 is
        # 10 where NumPy (and the CPU) give 9, and x1 // x2 * x2 + x1 % x2 is
        # not x1 beside the fmod-based remainder below.  NumPy's quotient
        # instead: (x1 - fmod(x1, x2)) / x2, exact, moved down where the
        # remainder's sign differs from x2's and rounded to the nearest whole
        # number; a zero divisor gives x1 / x2.  Then the standard's
        # inf // finite and finite // inf: floor(x1 / x2).  float16 computes
        # in float32 and rounds once, as NumPy's float16 loop does.
        if dtype == f16:
            x1, x2 = (a.astype(f32) if isinstance(a, ndarray) else a for a in (x1, x2))
        with quiet():
            q = xp.asarray(xp.true_divide(x1, x2))
            m = xp.fmod(x1, x2)
            div = (x1 - m) / x2
            div = xp.where((m != 0) & ((x2 < 0) != (m < 0)), div - 1, div)
            whole = xp.floor(div)
            whole = xp.where(div - whole > 0.5, whole + 1, whole)
            whole = xp.where(div == 0, xp.copysign(xp.zeros_like(q), q), whole)
            special = (x2 == 0) | (isinf(x1) ^ isinf(x2))
            res = xp.where(special, xp.floor(q), whole).astype(dtype, copy=False)
        return put(out, res)

    def expm1(x: Any, out: Any = None) -> Any:
        if x.dtype.kind != "c":
            return xp.expm1(x, out=out) if out is not None else xp.expm1(x)
        # Note: complex expm1 written out for accuracy near 0 and the standard's
        # special cases (see ocean_cpu).
        a, b = x.real, x.imag
        with quiet():
            em1 = xp.expm1(a)
            re = em1 * xp.cos(b) - 2.0 * xp.sin(b / 2) ** 2
            im = xp.exp(a) * xp.sin(b)
        b_zero = b == 0
        re = xp.where(b_zero, em1 + 0.0, re)
        re = xp.where(xp.isneginf(a), -1.0, re)  # +0 * cis(b) - 1, exactly
        im = xp.where(b_zero, b, im)
        b_nonfinite = ~xp.isfinite(b)
        neg_inf = xp.isneginf(a) & b_nonfinite
        pos_inf = xp.isposinf(a) & b_nonfinite
        re = xp.where(neg_inf, -1.0, xp.where(pos_inf, _inf, re))
        im = xp.where(neg_inf, 0.0, xp.where(pos_inf, float("nan"), im))
        res = xp.empty(x.shape, dtype=x.dtype) if out is None else out
        res.real[...] = re
        res.imag[...] = im
        return res

    def tanh(x: Any, out: Any = None) -> Any:
        with quiet():
            res = xp.tanh(x, out=out) if out is not None else xp.asarray(xp.tanh(x))
        if res.dtype.kind == "c":
            # Note: sign(a) + copysign(0, b)j for infinite a and finite b.
            a, b = x.real, x.imag
            fix = xp.isinf(a) & xp.isfinite(b)
            exact = xp.empty(res.shape, dtype=res.dtype)
            exact.real[...] = xp.sign(a)
            exact.imag[...] = xp.copysign(0.0, b)
            xp.copyto(res, exact, where=fix)
        return res

    def tan(x: Any, out: Any = None) -> Any:
        with quiet():
            res = xp.tan(x, out=out) if out is not None else xp.asarray(xp.tan(x))
        if res.dtype.kind == "c":
            # Note: copysign(0, a) + sign(b) j for finite a and infinite b
            # (-1j * tanh(x * 1j) with tanh's rule; see ocean_cpu).
            a, b = x.real, x.imag
            fix = xp.isfinite(a) & xp.isinf(b)
            exact = xp.empty(res.shape, dtype=res.dtype)
            exact.real[...] = xp.copysign(0.0, a)
            exact.imag[...] = xp.sign(b)
            xp.copyto(res, exact, where=fix)
        return res

    def sign(x: Any, out: Any = None) -> Any:
        if x.dtype.kind != "c":
            return xp.sign(x) if out is None else xp.sign(x, out=out)
        # Note: the standard's rules where |x| is not finite (see
        # ocean_cpu._common.complex_sign), chosen by a mask: no host sync.
        with quiet():
            res = xp.where(xp.isfinite(xp.abs(x)), xp.sign(x), complex_sign(xp, x))
        return put(out, res)

    def reciprocal(x: Any, out: Any = None) -> Any:
        if x.dtype.kind != "c":
            return xp.reciprocal(x) if out is None else xp.reciprocal(x, out=out)
        # Note: NumPy's complex reciprocal (the CPU's), special values included;
        # CuPy divides its own way.
        with quiet():
            return put(out, complex_reciprocal(xp, x))

    def pow_(x1: Any, x2: Any, out: Any = None) -> Any:
        # Note: x ** 0.5 must be +inf for x = -inf and +0 for x = -0 (NumPy's
        # sqrt shortcut gives NaN and -0).  For an array exponent the fix is a
        # mask (no host synchronisation to test whether it equals 0.5).
        if not isinstance(x2, ndarray) and x2 != 0.5:  # a Python int or float
            if x2 == 2 and isinstance(x1, ndarray) and x1.dtype.kind in "fc":
                # Note: x * x, one rounding, as NumPy's x ** 2 (CuPy's power
                # kernel with a scalar 2 takes 1.7 times as long on a GPU, and
                # its complex power is exp(2 log x))
                return xp.square(x1) if out is None else xp.square(x1, out=out)
            return xp.power(x1, x2) if out is None else xp.power(x1, x2, out=out)
        with quiet():
            res = xp.asarray(xp.power(x1, x2))
        if res.dtype.kind != "f":
            return put(out, res)
        base = xp.asarray(x1)
        half = True if x2.__class__ is float else xp.asarray(x2) == 0.5
        xp.copyto(res, _inf, where=xp.isneginf(base) & half)
        xp.copyto(res, 0.0, where=(base == 0) & half)
        return put(out, res)

    def remainder(x1: Any, x2: Any, out: Any = None) -> Any:
        res = xp.asarray(xp.remainder(x1, x2))
        if res.dtype.kind != "f":
            return put(out, res)
        # Note: CuPy computes x1 - floor(x1 / x2) * x2, which is NaN for a
        # finite x1 and an infinite x2 (the standard: x1 or x2) and inexact
        # for large quotients.  NumPy's way instead: fmod (exact), moved into
        # x2's sign, zero results signed like x2.
        with quiet():
            m = xp.asarray(xp.fmod(x1, x2))
            below = (m != 0) & ((m < 0) != (x2 < 0))
            m = xp.where(below, m + x2, m).astype(res.dtype, copy=False)
            zero = xp.copysign(xp.zeros_like(m), x2)
        return put(out, xp.where(m == 0, zero, m).astype(res.dtype, copy=False))

    def shift(func: Callable[..., Any], right: bool) -> Callable[..., Any]:
        # Note: CuPy shifts with C's << and >>, undefined for a count of the
        # width or more; NumPy gives 0 (or -1: the sign bits of a negative x1).
        def op(x1: Any, x2: Any, out: Any = None) -> Any:
            res = xp.asarray(func(x1, x2))
            bits = res.dtype.itemsize * 8
            over = xp.asarray(x2) >= bits
            fill = xp.where(xp.asarray(x1) < 0, -1, 0) if right else 0
            res = xp.where(over, fill, res).astype(res.dtype, copy=False)
            return put(out, res)

        return op

    skw = {} if sort_kind is None else {"kind": sort_kind}

    def canonical_nan(a: Any) -> Any:
        # Note: CuPy sorts a 1-D float array by CUB's radix sort, which orders
        # the bits: a NaN with its sign bit set (NumPy's 0/0 on x86) goes
        # first, before -inf, and isin's binary search over such a sort misses
        # present values.  Every NaN made positive first: all go last.  (N-d
        # sorts use a comparison sort that, by CuPy's source, puts every NaN
        # last; that is unverified on hardware, so their NaNs are made
        # canonical too: one elementwise pass beside a sort.)
        if a.dtype.kind != "f":
            return a
        return xp.where(xp.isnan(a), _nan, a)

    def sort(x: Any, axis: int, descending: bool, stable: bool) -> Any:
        x = canonical_nan(x)
        if not descending:
            return xp.sort(x, axis=axis, **skw)
        # Note: a stable descending sort: sort the reversed input, reverse back.
        return reversed_view(xp.sort(reversed_view(x, axis), axis=axis, **skw), axis)

    def argsort(x: Any, axis: int, descending: bool, stable: bool) -> Any:
        x = canonical_nan(x)
        if not descending:
            return xp.argsort(x, axis=axis, **skw)
        n = x.shape[axis]
        rev = xp.argsort(reversed_view(x, axis), axis=axis, **skw)
        return reversed_view(n - 1 - rev, axis)

    def unique(x: Any, index: bool, inverse: bool, counts: bool) -> Any:
        # Note: sorted, NaNs distinct (equal_nan=False; CuPy's default is True).
        return xp.unique(
            canonical_nan(x.reshape(-1)),
            return_index=index,
            return_inverse=inverse,
            return_counts=counts,
            equal_nan=False,
        )

    def unique_all(x: Any) -> Any:
        values, idx, inv, cnt = unique(x, True, True, True)
        return values, idx, inv.reshape(x.shape), cnt

    def unique_inverse(x: Any) -> Any:
        values, inv = unique(x, False, True, False)
        return values, inv.reshape(x.shape)

    def extremum(func: Callable[..., Any]) -> Callable[..., Any]:
        def entry(x: Any, axis: Any, keepdims: bool) -> Any:
            if x.size == 0:
                # Note: a zero-size reduction whose result is empty (the front
                # end has ruled out the others); NumPy and CuPy raise.
                return xp.empty(reduced(x.shape, axis, keepdims)[0], dtype=x.dtype)
            return func(x, axis=axis, keepdims=keepdims)

        return entry

    def cumulative(func: Callable[..., Any], identity: int) -> Callable[..., Any]:
        def entry(x: Any, axis: int, dtype: Any, include_initial: bool) -> Any:
            res = func(x, axis=axis, dtype=dtype)
            if not include_initial:
                return res
            shape = list(res.shape)
            shape[axis] = 1
            first = xp.full(tuple(shape), identity, dtype=res.dtype)
            return xp.concatenate([first, res], axis=axis)

        return entry

    def linspace(
        index: int, start: Any, stop: Any, num: int, dtype: Any, endpoint: bool
    ) -> Any:
        if dtype.kind != "c":
            return xp.linspace(start, stop, num, dtype=dtype, endpoint=endpoint)
        # Note: CuPy converts the bounds with float(), so complex ones raise
        # TypeError (CuPy issue 9370).  The parts are real linspaces, as in
        # NumPy's complex arithmetic (a real step times an index is exact).
        start, stop = complex(start), complex(stop)
        out = xp.empty(num, dtype=dtype)
        out.real[...] = xp.linspace(start.real, stop.real, num, endpoint=endpoint)
        out.imag[...] = xp.linspace(start.imag, stop.imag, num, endpoint=endpoint)
        return out

    def arg_extremum(func: Callable[..., Any]) -> Callable[..., Any]:
        def entry(x: Any, axis: Any, keepdims: bool) -> Any:
            res = func(x, axis=axis, keepdims=keepdims)
            if x.dtype.kind != "f":
                return res
            # Note: with several NaNs CuPy returns whichever NaN its reduction
            # tree keeps (the first one a thread saw), not the first; NumPy
            # and the standard: the first.  Without a host synchronisation:
            nan = xp.isnan(x)
            first_nan = xp.argmax(nan, axis=axis, keepdims=keepdims)
            return xp.where(xp.any(nan, axis=axis, keepdims=keepdims), first_nan, res)

        return entry

    def count_nonzero(x: Any, axis: Any, keepdims: bool) -> Any:
        return xp.sum(x != 0, axis=axis, keepdims=keepdims, dtype=xp.intp)

    def concat(arrays: Sequence[Any], axis: int | None, dtype: Any) -> Any:
        if dtype is None:
            return xp.concatenate(arrays, axis)
        return xp.concatenate(arrays, axis, dtype=dtype)

    def reshape(x: Any, shape: tuple[int, ...], copy: bool | None) -> Any:
        if copy:
            return x.reshape(shape).copy()
        res = x.reshape(shape)
        if copy is False and res.size and not xp.may_share_memory(res, x):
            msg = "Unable to avoid creating a copy while reshaping."
            raise ValueError(msg)
        return res

    def repeat(x: Any, repeats: Any, axis: int | None) -> Any:
        if repeats.__class__ is not int:
            # Note: cupy.repeat takes an int or a list, not an array (a host sync).
            repeats = [int(r) for r in xp.asnumpy(repeats).reshape(-1)]
            if len(repeats) == 1:
                repeats = repeats[0]
        return xp.repeat(x, repeats, axis)

    # Bounds: CuPy *wraps* out-of-range integer-array indices (x[[5]] of a
    # 3-element x reads x[2]) where NumPy raises IndexError.  The front end
    # relies on the backend's IndexError, so integer index arrays are checked
    # here: one fused comparison and reduction, and one device-to-host sync.
    def check_bounds(idx: Any, n: int, axis: int) -> None:
        if not idx.size:
            return
        if out_of_bounds is not None:  # pragma: no cover - needs a GPU
            # one fused pass, then CuPy's (CUB's) any and one synchronisation
            bad = out_of_bounds(idx, n)
        else:
            bad = idx >= n if idx.dtype.kind == "u" else (idx < -n) | (idx >= n)
        if bool(bad.any()):
            value = int(idx[bad].ravel()[0])
            msg = f"index {value} is out of bounds for axis {axis} with size {n}"
            raise IndexError(msg)

    out_of_bounds = None
    if getattr(xp, "__name__", "") == "cupy":  # pragma: no cover - needs a GPU
        # Note: an elementwise mask and CuPy's any, not a ReductionKernel:
        # CuPy reduces a whole array in one block (7.7 ms for 1e7 indices on
        # an H200, where any() takes microseconds).
        out_of_bounds = xp.ElementwiseKernel(
            "T k, int64 n",
            "bool y",
            "y = k < 0 ? (long long)k < -n"
            " : (unsigned long long)k >= (unsigned long long)n",
            "ocean_out_of_bounds",
        )

    def check_key(x: Any, key: Any) -> None:
        if isinstance(key, ndarray):
            if key.dtype.kind in "iu":
                check_bounds(key, x.shape[0] if x.ndim else 0, 0)
            return
        if key.__class__ is not tuple:
            return
        if not any(isinstance(k, ndarray) and k.dtype.kind in "iu" for k in key):
            return
        used = sum(
            0
            if k is None or k is Ellipsis
            else (k.ndim if isinstance(k, ndarray) and k.dtype.kind == "b" else 1)
            for k in key
        )
        axis = 0
        for k in key:
            if k is None:
                continue
            if k is Ellipsis:
                axis += x.ndim - used
            elif isinstance(k, ndarray):
                if k.dtype.kind == "b":
                    axis += k.ndim
                else:
                    check_bounds(k, x.shape[axis], axis)
                    axis += 1
            else:
                axis += 1

    def getitem(x: Any, key: Any) -> Any:
        check_key(x, key)
        return x[key]

    def full(index: int, shape: Any, fill: Any, dtype: Any) -> Any:
        if _negative_zero(fill):
            # Note: CuPy's full() fills with a Python zero by memset (+0)
            out = xp.empty(shape, dtype=dtype)
            out[...] = device_scalar(xp, fill, dtype)
            return out
        return xp.full(shape, fill, dtype=dtype)

    def setitem(x: Any, key: Any, value: Any) -> None:
        check_key(x, key)
        if _negative_zero(value):
            # Note: CuPy fills with a Python zero by memset, which drops the
            # sign of -0.0; a device scalar goes through the copy kernel.
            value = device_scalar(xp, value, x.dtype)
        # Overlap-safe: CuPy does not order the reads and writes of x[key] = v,
        # so a value that may share memory with x (x[1:] = x[:-1]) is copied
        # first.  (Fancy-indexed values, x[[2, 1]], are already copies.)
        if isinstance(value, ndarray) and (value is x or xp.may_share_memory(value, x)):
            value = value.copy()
        x[key] = value

    def take_along_axis(x: Any, indices: Any, axis: int) -> Any:
        check_bounds(indices, x.shape[axis], axis)
        return xp.take_along_axis(x, indices, axis)

    def take_flat(flat: Any, offsets: Any) -> Any:
        return flat.take(offsets)  # offsets are in bounds (the front end made them)

    def compact_offsets(offsets: Any, span: int) -> Any:
        # int32 offsets halve the index traffic of the gather.
        return offsets.astype(xp.int32) if span <= 2**31 - 1 else offsets

    def take(x: Any, indices: Any, axis: int) -> Any:
        check_bounds(indices, x.shape[axis], axis)
        return x.take(indices, axis)

    def same_dtype(a: Any, b: Any) -> tuple[Any, Any]:
        # CuPy's searchsorted and isin kernels compare their operands in C++
        # without promoting them first (int32 -1 against uint32 is huge)
        if a.dtype != b.dtype:
            t = xp.result_type(a, b)
            a, b = a.astype(t, copy=False), b.astype(t, copy=False)
        return a, b

    def searchsorted(x1: Any, x2: Any, side: str, sorter: Any) -> Any:
        if isinstance(x2, ndarray):
            x1, x2 = same_dtype(x1, x2)
        else:  # a Python scalar (checked by the front end): x1's dtype
            x2 = xp.asarray(x2, dtype=x1.dtype)
        return xp.searchsorted(x1, x2, side=side, sorter=sorter)

    def isin(x1: Any, x2: Any, invert: bool) -> Any:
        # Note: CuPy's isin takes arrays only; the front end passes a Python
        # int for either operand.
        if isinstance(x1, ndarray) and isinstance(x2, ndarray):
            x1, x2 = same_dtype(x1, x2)
            return xp.isin(x1, canonical_nan(x2), invert=invert)
        array, value = (x1, x2) if isinstance(x1, ndarray) else (x2, x1)
        if array.dtype.kind in "iu":
            info = xp.iinfo(array.dtype)
            if not info.min <= value <= info.max:  # equals no element
                hit = xp.zeros(array.shape, dtype=bool)
            else:
                hit = array == xp.asarray(value, dtype=array.dtype)
        else:
            hit = array == value
        if array is x2:  # a scalar x1: is it among x2's elements?
            hit = xp.asarray(xp.any(hit))
        return xp.logical_not(hit) if invert else hit

    def vecdot(x1: Any, x2: Any, axis: int) -> Any:
        native = getattr(xp, "vecdot", None)
        if native is not None:
            return native(x1, x2, axis=axis)
        # Note: CuPy 14 has no vecdot; its sum() would widen small integers
        # (int8 -> int64), so the dtype is the operands' promoted one.
        return xp.sum(xp.conj(x1) * x2, axis=axis, dtype=xp.result_type(x1, x2))

    def astype(x: Any, dtype: Any, copy: bool) -> Any:
        return x.astype(dtype, copy=copy)

    def abs_(x: Any, out: Any = None) -> Any:
        if x.dtype.kind != "c":
            return xp.abs(x) if out is None else xp.abs(x, out=out)
        # Note: CuPy's complex abs is sqrt(re**2 + im**2), which overflows to
        # inf for parts above about 1e154 (complex128; 1e19 for complex64)
        # and underflows for tiny ones (seen on a GPU); hypot scales.
        return (
            xp.hypot(x.real, x.imag)
            if out is None
            else xp.hypot(x.real, x.imag, out=out)
        )

    ufuncs = elementwise(
        xp,
        {
            "abs": abs_,
            "expm1": expm1,
            "tanh": tanh,
            "tan": tan,
            "sign": sign,
            "reciprocal": reciprocal,
            "bitwise_left_shift": shift(xp.left_shift, False),
            "bitwise_right_shift": shift(xp.right_shift, True),
            "floor_divide": floor_divide,
            "pow": pow_,
            "remainder": remainder,
        },
    )

    ufuncs.update(_complex_special_values(xp, ufuncs))
    ops: dict[str, Callable[..., Any]] = dict(ufuncs)
    ops.update(
        {
            "clip": clip,
            "where": xp.where,
            "astype": astype,
            "copy": lambda x: x.copy(),
            "getitem": getitem,
            "native_result": lambda a: a,  # CUDA results are always native
            "setitem": setitem,
            "take": take,
            "take_along_axis": take_along_axis,
            "flat_layout": functools.partial(
                _flat_layout, xp.lib.stride_tricks.as_strided
            ),
            "take_flat": take_flat,
            "compact_offsets": compact_offsets,
            "getitem_native": getitem,  # never byte-swapped here
            # creation (first argument: the device index)
            "arange": lambda index, start, stop, step, dtype: xp.arange(
                start, stop, step, dtype=dtype
            ),
            "empty": lambda index, shape, dtype: xp.empty(shape, dtype=dtype),
            "zeros": lambda index, shape, dtype: xp.zeros(shape, dtype=dtype),
            "ones": lambda index, shape, dtype: xp.ones(shape, dtype=dtype),
            "full": full,
            "eye": lambda index, n, m, k, dtype: xp.eye(n, m, k=k, dtype=dtype),
            "linspace": linspace,
            "tril": lambda x, k: xp.tril(x, k=k),
            "triu": lambda x, k: xp.triu(x, k=k),
            "meshgrid": lambda arrays, indexing: tuple(
                xp.meshgrid(*arrays, indexing=indexing)
            ),
            # manipulation
            "broadcast_to": xp.broadcast_to,
            "concat": concat,
            "stack": functools.partial(_stack, xp.concatenate),
            "expand_dims": expand_dims,
            "flip": flip,
            "moveaxis": moveaxis,
            "permute_dims": lambda x, axes: x.transpose(axes),
            "repeat": repeat,
            "reshape": reshape,
            "roll": lambda x, shift, axis: xp.roll(x, shift, axis=axis),
            "squeeze": lambda x, axis: x.squeeze(axis),
            "tile": lambda x, reps: xp.tile(x, reps),
            "unstack": unstack,
            # searching
            "argmax": arg_extremum(xp.argmax),
            "argmin": arg_extremum(xp.argmin),
            "count_nonzero": count_nonzero,
            "nonzero": lambda x: x.nonzero(),
            "searchsorted": searchsorted,
            # set
            "isin": isin,
            "unique_all": unique_all,
            "unique_counts": lambda x: unique(x, False, False, True),
            "unique_inverse": unique_inverse,
            "unique_values": lambda x: unique(x, False, False, False),
            # sorting
            "sort": sort,
            "argsort": argsort,
            # statistical and utility
            "sum": lambda x, axis, dtype, keepdims: xp.sum(
                x, axis=axis, dtype=dtype, keepdims=keepdims
            ),
            "prod": lambda x, axis, dtype, keepdims: xp.prod(
                x, axis=axis, dtype=dtype, keepdims=keepdims
            ),
            "max": extremum(xp.max),
            "min": extremum(xp.min),
            "mean": mean_entry(xp, xp.mean),
            "std": spread_entry(xp, xp.std),
            "var": spread_entry(xp, xp.var),
            "all": lambda x, axis, keepdims: xp.all(x, axis=axis, keepdims=keepdims),
            "any": lambda x, axis, keepdims: xp.any(x, axis=axis, keepdims=keepdims),
            "cumulative_sum": cumulative(xp.cumsum, 0),
            "cumulative_prod": cumulative(xp.cumprod, 1),
            "diff": functools.partial(_diff, xp.concatenate),
            # linear algebra
            "tensordot": functools.partial(_tensordot, xp),
            "vecdot": vecdot,
            "matrix_transpose": lambda x: x.swapaxes(-1, -2),
        }
    )
    ops.update(_linalg_ops(xp, reduced, linalg_errstate))
    ops.update(_fft_ops(xp))
    ops.update(_float16_ops(xp, ufuncs))
    return ops


# --- complex special values ---------------------------------------------------------
# Complex functions whose results for the standard's special inputs CuPy gets
# wrong.  Seen on a GPU (CuPy 14, its complex functions from thrust): NaN + NaN j
# for log, log1p, log2, log10 of (±inf + NaN j) and (NaN ± inf j), acosh(±0 +
# NaN j), tanh(±0 ± inf j) and (±0 + NaN j), tan(±inf - 0j), and log2/log10
# wrong at zero and infinity (a complex division by log(2)).  Every case there
# has both parts in {+0, -0, +inf, -inf, NaN}: 25 inputs per function, whose
# results the CPU table (the standard's rules) gives once, as a lookup table.
COMPLEX_SPECIAL = (
    "acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp",
    "expm1", "log", "log1p", "log2", "log10", "sin", "sinh", "sqrt", "tan",
    "tanh",
)  # fmt: skip
_SPECIAL_PARTS = (0.0, -0.0, _inf, -_inf, _nan)  # the table's order, per part

_PATCH_SOURCE = (
    "T x, T r, raw T table",
    "T y",
    """
    int a = ocean_special_code(x.real()), b = ocean_special_code(x.imag());
    y = (a >= 0 && b >= 0) ? table[a * 5 + b] : r;
    """,
    "ocean_complex_special",
)
_PATCH_PREAMBLE = """
template <typename F>
__device__ int ocean_special_code(F v) {
    if (isnan(v)) return 4;
    if (isinf(v)) return v > 0 ? 2 : 3;
    if (v == 0) return signbit(v) ? 1 : 0;
    return -1;
}
"""


def special_inputs(dtype: Any) -> np.ndarray:
    """The 25 complex inputs whose parts are special, in the table's order
    (index ``5 * code(real) + code(imag)``)."""
    grid = np.empty((5, 5), dtype=dtype)
    grid.real = np.array(_SPECIAL_PARTS)[:, None]
    grid.imag = np.array(_SPECIAL_PARTS)[None, :]
    return grid.reshape(-1)


def _complex_special_values(
    xp: Any, ufuncs: dict[str, Callable[..., Any]]
) -> dict[str, Callable[..., Any]]:
    """The complex entries of :data:`COMPLEX_SPECIAL`, with the results at
    inputs whose two parts are special taken from the CPU table (one more
    elementwise pass, complex dtypes only; real dtypes are untouched)."""
    import threading

    from ocean_array_api._backend import get_backend

    tables: dict[tuple[str, str, int], Any] = {}
    lock = threading.Lock()
    kernel = None
    if getattr(xp, "__name__", "") == "cupy":  # pragma: no cover - needs a GPU
        kernel = xp.ElementwiseKernel(*_PATCH_SOURCE, preamble=_PATCH_PREAMBLE)
    ln2, ln10 = math.log(2.0), math.log(10.0)

    def table(name: str, dtype: Any, x: Any) -> Any:
        # one table per device: x's, the current one (the entry runs there)
        key = (name, dtype.char, getattr(getattr(x, "device", None), "id", 0))
        t = tables.get(key)
        if t is None:
            cpu = get_backend("cpu")
            with np.errstate(all="ignore"):
                want = np.asarray(cpu.ops[name](special_inputs(dtype)), dtype=dtype)
            t = from_host(xp, want)
            with lock:
                tables[key] = t
        return t

    def code(v: Any) -> Any:
        # 0 +0, 1 -0, 2 +inf, 3 -inf, 4 NaN, -1 finite and nonzero
        zero = xp.where(v == 0, xp.signbit(v).astype(xp.int8), -1)
        return xp.where(xp.isnan(v), 4, xp.where(xp.isinf(v), 2 + (v < 0), zero))

    def patch(name: str, x: Any, res: Any) -> Any:
        t = table(name, res.dtype, x)
        if kernel is not None:  # pragma: no cover - needs a GPU
            return kernel(x, res, t, res)
        a, b = code(x.real), code(x.imag)
        both = (a >= 0) & (b >= 0)
        fixed = t[xp.where(both, a.astype(xp.int64) * 5 + b, 0)]
        xp.copyto(res, fixed, where=both)
        return res

    def scaled_log(
        log: Callable[..., Any], real: Callable[..., Any], k: float
    ) -> Callable[..., Any]:
        # Note: log(x) * (1 / log(b)) as two real products: CuPy divides by
        # complex(log(b)), which turns infinite parts into NaN

        def op(x: Any, out: Any = None) -> Any:
            if x.dtype.kind != "c":
                return real(x) if out is None else real(x, out=out)
            res = xp.asarray(log(x) if out is None else log(x, out=out))
            xp.multiply(res.real, k, out=res.real)
            xp.multiply(res.imag, k, out=res.imag)
            return res

        return op

    def corrected(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        def op(x: Any, out: Any = None) -> Any:
            res = func(x) if out is None else func(x, out=out)
            if x.dtype.kind != "c" or x.size == 0:
                return res
            return patch(name, x, xp.asarray(res))

        op.__name__ = name
        return op

    def negative_is_nan(name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        # Note: CUDA's double log, log2 and log10 give -inf for a negative
        # subnormal x (log(-5e-324); seen on a GPU); the standard: NaN for
        # x < 0.  (float32 subnormals are zeros under CuPy's -ftz=true, and
        # log(-0) is -inf, as the standard says.)
        def op(x: Any, out: Any = None) -> Any:
            res = func(x) if out is None else func(x, out=out)
            if x.dtype != f64:
                return res
            res = xp.asarray(res)
            xp.copyto(res, _nan, where=x < 0)
            return res

        op.__name__ = name
        return op

    raw_log1p, raw_log = ufuncs["log1p"], ufuncs["log"]  # (ufuncs is updated)

    def log1p(x: Any, out: Any = None) -> Any:
        res = xp.asarray(raw_log1p(x) if out is None else raw_log1p(x, out=out))
        if x.dtype.kind != "c" or x.size == 0:
            return res
        a, b = x.real, x.imag
        # Note: CuPy's complex log1p squares |1 + x|, which overflows to inf
        # for parts above about 1e154 (complex128; 1e19 for complex64), where
        # log(1 + x) is exact enough; and at -1 +- 0j it gives (-inf + 0j)
        # where the standard keeps the zero's sign (-inf - 0j for -1 - 0j).
        big = float(np.sqrt(np.finfo(a.dtype).max)) / 4
        huge = xp.isfinite(a) & xp.isfinite(b) & ((xp.abs(a) > big) | (xp.abs(b) > big))
        shifted = x.copy()  # 1 + x with the imaginary part's zero sign kept
        xp.add(shifted.real, 1, out=shifted.real)
        xp.copyto(res, raw_log(shifted), where=huge)
        pole = (a == -1) & (b == 0)
        xp.copyto(res.imag, b, where=pole)
        return res

    f64 = xp.dtype(xp.float64)
    fixed = {n: negative_is_nan(n, ufuncs[n]) for n in ("log", "log2", "log10")}
    funcs = {
        **ufuncs,
        "log": fixed["log"],
        "log1p": log1p,
        "log2": scaled_log(fixed["log"], fixed["log2"], 1 / ln2),
        "log10": scaled_log(fixed["log"], fixed["log10"], 1 / ln10),
    }
    return {name: corrected(name, funcs[name]) for name in COMPLEX_SPECIAL}


# --- linalg ------------------------------------------------------------------------
def _linalg_ops(
    xp: Any, reduced: Callable[..., Any], errstate: Callable[[], Any] | None
) -> dict[str, Callable[..., Any]]:
    la = xp.linalg
    raising = errstate if errstate is not None else contextlib.nullcontext

    def checked(func: Callable[..., Any]) -> Callable[..., Any]:
        # Note: singular input raises LinAlgError (a ValueError), as on the
        # CPU; CuPy checks cuSOLVER's status only under errstate(linalg=...)
        # (one device synchronisation per call).
        @functools.wraps(func)
        def op(*args: Any, **kwargs: Any) -> Any:
            with raising():
                return func(*args, **kwargs)

        return op

    def solve(a: Any, b: Any) -> Any:
        # Note: cupy.linalg.solve takes a 1-D b, or a stack of matrices with
        # exactly a's batch shape; the standard broadcasts the batch shapes.
        if b.ndim > 1 and a.shape[:-2] != b.shape[:-2]:
            batch = xp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            a = xp.broadcast_to(a, batch + a.shape[-2:])
            b = xp.broadcast_to(b, batch + b.shape[-2:])
        if a.size == 0 or b.size == 0:
            # Note: CuPy 14's batched solve divides by the size of a right-hand
            # side (ZeroDivisionError for b of shape (..., n, 0); seen on a
            # GPU): an empty result needs no solve.
            shape = a.shape[:-1] if b.ndim == 1 else b.shape
            return xp.empty(shape, dtype=xp.result_type(a.dtype, b.dtype))
        return la.solve(a, b)

    complex_of = {"f": xp.dtype(xp.complex64), "d": xp.dtype(xp.complex128),
                  "F": xp.dtype(xp.complex64), "D": xp.dtype(xp.complex128)}  # fmt: skip

    def amax(a: Any, axis: Any, keepdims: bool, identity: float) -> Any:
        # max/min with the identity of an empty reduction (CuPy has no `initial`)
        if a.size == 0:
            return xp.full(reduced(a.shape, axis, keepdims)[0], identity, dtype=a.dtype)
        f = xp.max if identity == 0 else xp.min
        return f(a, axis=axis, keepdims=keepdims)

    # Note: like inv, the SVD reports a failed factorisation (NaN input: "did
    # not converge") only under the error state; NumPy raises LinAlgError.
    # (NumPy's eigh does not raise for NaN input, so neither does this one.)
    checked_svd = checked(la.svd)

    def svd(x: Any, **kwargs: Any) -> Any:
        # Note: cuSOLVER's SVD reports nothing for NaN or infinite input, even
        # under the error state (seen on a GPU: NaN results); NumPy's LAPACK
        # does not converge and raises.  One check, one synchronisation.
        if x.size and not bool(xp.isfinite(x).all()):
            msg = "SVD did not converge"
            raise np.linalg.LinAlgError(msg)
        return checked_svd(x, **kwargs)

    def svdvals(x: Any) -> Any:
        return svd(x, compute_uv=False)

    @checked
    def cholesky(x: Any, upper: bool) -> Any:
        low = la.cholesky(x)
        return xp.conj(low.swapaxes(-1, -2)) if upper else low

    def matrix_rank(x: Any, rtol: Any) -> Any:
        s = svdvals(x)
        if rtol is None:
            rtol = max(x.shape[-2:]) * xp.finfo(s.dtype).eps
        elif isinstance(rtol, xp.ndarray):
            rtol = rtol[..., None]
        tol = amax(s, -1, True, 0) * rtol
        return xp.asarray(xp.sum(s > tol, axis=-1)).astype(xp.int64, copy=False)

    def pinv(x: Any, rtol: Any) -> Any:
        # Note: written out over the SVD: the standard's default tolerance
        # (max(M, N) * eps) and an array rtol, which cupy.linalg.pinv lacks.
        m, n = x.shape[-2:]
        if x.size == 0:
            return xp.zeros((*x.shape[:-2], n, m), dtype=x.dtype)
        u, s, vh = svd(x, full_matrices=False)
        if rtol is None:
            rtol = max(m, n) * xp.finfo(s.dtype).eps
        elif isinstance(rtol, xp.ndarray):
            rtol = rtol[..., None]
        cutoff = amax(s, -1, True, 0) * rtol
        big = s > cutoff
        s_inv = xp.where(big, 1 / xp.where(big, s, 1), 0).astype(s.dtype, copy=False)
        vt = xp.conj(vh.swapaxes(-1, -2))
        ut = xp.conj(u.swapaxes(-1, -2))
        return xp.matmul(vt * s_inv[..., None, :], ut)

    def matrix_power(x: Any, n: int) -> Any:
        if n == 0:
            return xp.broadcast_to(xp.eye(x.shape[-1], dtype=x.dtype), x.shape).copy()
        if n == 1:
            return x.copy()
        if n < 0:  # Note: CuPy inverts without the error state
            x = checked(la.inv)(x)
            n = -n
            if n == 1:
                return x
        return la.matrix_power(x, n)

    def vector_norm(x: Any, axis: Any, keepdims: bool, ord: float) -> Any:
        complex_input = x.dtype.kind == "c"
        if ord == 2:
            sq = (
                xp.square(x.real) + xp.square(x.imag) if complex_input else xp.square(x)
            )
            return xp.sqrt(xp.sum(sq, axis=axis, keepdims=keepdims))
        a = xp.abs(x)
        if ord == 1:
            return xp.sum(a, axis=axis, keepdims=keepdims)
        if ord == _inf:
            return amax(a, axis, keepdims, 0)
        if ord == -_inf:
            return amax(a, axis, keepdims, _inf)
        if ord == 0:
            return xp.sum(a != 0, axis=axis, keepdims=keepdims, dtype=a.dtype)
        if ord > 0:
            m = amax(a, axis, True, 0)
            scale = xp.where((m == 0) | ~xp.isfinite(m), 1, m).astype(
                a.dtype, copy=False
            )
            s = xp.sum((a / scale) ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)
            if not keepdims:
                scale = (
                    xp.squeeze(scale, axis=axis)
                    if axis is not None
                    else scale.reshape(())
                )
            return scale * s
        errstate = getattr(xp, "errstate", None)
        ctx = errstate(divide="ignore") if errstate else contextlib.nullcontext()
        with ctx:
            return xp.sum(a**ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)

    def matrix_norm(x: Any, keepdims: bool, ord: Any) -> Any:
        if ord == "fro":
            sq = (
                xp.square(x.real) + xp.square(x.imag)
                if x.dtype.kind == "c"
                else xp.square(x)
            )
            res = xp.sqrt(xp.sum(sq, axis=(-2, -1)))
        elif ord == "nuc":
            res = xp.sum(svdvals(x), axis=-1)
        elif ord == 2:
            res = amax(svdvals(x), -1, False, 0)
        elif ord == -2:
            res = amax(svdvals(x), -1, False, _inf)
        else:
            sums = xp.sum(xp.abs(x), axis=-2 if ord in (1, -1) else -1)
            res = amax(sums, -1, False, 0 if ord > 0 else _inf)
        if keepdims:
            res = xp.expand_dims(xp.expand_dims(res, -1), -1)
        return res

    ops: dict[str, Callable[..., Any]] = {
        "linalg.cholesky": cholesky,
        "linalg.cross": lambda x1, x2, axis: xp.cross(x1, x2, axis=axis),
        "linalg.det": la.det,
        "linalg.diagonal": lambda x, offset: xp.diagonal(x, offset, -2, -1).copy(),
        "linalg.eigh": lambda x: tuple(la.eigh(x)),
        "linalg.eigvalsh": la.eigvalsh,
        "linalg.inv": checked(la.inv),
        "linalg.matrix_norm": matrix_norm,
        "linalg.matrix_power": matrix_power,
        "linalg.matrix_rank": matrix_rank,
        "linalg.outer": xp.outer,
        "linalg.pinv": pinv,
        "linalg.qr": lambda x, mode: tuple(la.qr(x, mode=mode)),
        "linalg.slogdet": lambda x: tuple(la.slogdet(x)),
        "linalg.solve": checked(solve),
        "linalg.svd": lambda x, full_matrices: tuple(
            svd(x, full_matrices=full_matrices)
        ),
        "linalg.svdvals": svdvals,
        "linalg.trace": lambda x, offset, dtype: xp.trace(
            x, offset, -2, -1, dtype=dtype
        ),
        "linalg.vector_norm": vector_norm,
    }
    if hasattr(la, "eig"):  # CuPy >= 14
        ops["linalg.eig"] = lambda x: tuple(
            r.astype(complex_of[x.dtype.char], copy=False) for r in la.eig(x)
        )
        ops["linalg.eigvals"] = lambda x: la.eigvals(x).astype(
            complex_of[x.dtype.char], copy=False
        )
    return ops


# --- fft ---------------------------------------------------------------------------
def _fft_ops(xp: Any) -> dict[str, Callable[..., Any]]:
    fft = xp.fft
    c64, c128 = xp.dtype(xp.complex64), xp.dtype(xp.complex128)
    f32, f64 = xp.dtype(xp.float32), xp.dtype(xp.float64)
    complex_of = {"f": c64, "d": c128, "F": c64, "D": c128}
    real_of = {"f": f32, "d": f64, "F": f32, "D": f64}

    def keep(res: Any, want: Any) -> Any:
        return res if res.dtype == want else res.astype(want)

    def one_dim(func: Callable[..., Any], table: dict[str, Any]) -> Callable[..., Any]:
        def op(x: Any, n: int, axis: int, norm: str) -> Any:
            x = fill_empty_axes(xp.zeros, x, (axis,))
            return keep(func(x, n=n, axis=axis, norm=norm), table[x.dtype.char])

        return op

    def n_dim(
        func: Callable[..., Any], table: dict[str, Any], real_last: bool = False
    ) -> Callable[..., Any]:
        def op(x: Any, s: tuple[int, ...], axes: tuple[int, ...], norm: str) -> Any:
            want = table[x.dtype.char]
            if not axes:
                return x.astype(want, copy=True)
            # Note: CuPy 14 sorts the axes of an n-d transform but not the
            # sizes that go with them (fftn(x, s=(2, 1, 1), axes=(1, 0, 2))
            # padded axis 0; seen on a GPU).  The complex transforms are
            # separable, so the pairs are sorted here; a real transform keeps
            # its last axis (the half spectrum's) last.
            pairs = list(zip(axes, s, strict=True))
            if real_last:
                pairs = [*sorted(pairs[:-1]), pairs[-1]]
            else:
                pairs.sort()
            axes = tuple(a for a, _ in pairs)
            s = tuple(n for _, n in pairs)
            x = fill_empty_axes(xp.zeros, x, axes)
            return keep(func(x, s=s, axes=axes, norm=norm), want)

        return op

    return {
        "fft.fft": one_dim(fft.fft, complex_of),
        "fft.ifft": one_dim(fft.ifft, complex_of),
        "fft.rfft": one_dim(fft.rfft, complex_of),
        "fft.irfft": one_dim(fft.irfft, real_of),
        "fft.hfft": one_dim(fft.hfft, real_of),
        "fft.ihfft": one_dim(fft.ihfft, complex_of),
        "fft.fftn": n_dim(fft.fftn, complex_of),
        "fft.ifftn": n_dim(fft.ifftn, complex_of),
        "fft.rfftn": n_dim(fft.rfftn, complex_of, real_last=True),
        "fft.irfftn": n_dim(fft.irfftn, real_of, real_last=True),
        "fft.fftfreq": lambda index, n, d, dtype: fft.fftfreq(n, d).astype(
            dtype, copy=False
        ),
        "fft.rfftfreq": lambda index, n, d, dtype: fft.rfftfreq(n, d).astype(
            dtype, copy=False
        ),
        "fft.fftshift": lambda x, axes: fft.fftshift(x, axes=axes),
        "fft.ifftshift": lambda x, axes: fft.ifftshift(x, axes=axes),
    }


# --- float16 (ocean_ext) -------------------------------------------------------------
def _float16_ops(
    xp: Any, ufuncs: dict[str, Callable[..., Any]]
) -> dict[str, Callable[..., Any]]:
    """The ``"<operation>.float16"`` entries: CuPy's float16 ufuncs already
    compute in float registers, so the standard entries serve; matmul and the
    reductions accumulate in float32 (sum/prod/mean in float64, as on the CPU).
    complex32 entries come from ``_halfprec_kernels.cuda_ops`` (CuPy only)."""
    f16, f32 = xp.dtype(xp.float16), xp.dtype(xp.float32)
    ops = {f"{name}.float16": f for name, f in ufuncs.items() if name != "matmul"}

    def wide_reduce(func: Callable[..., Any]) -> Callable[..., Any]:
        def entry(x: Any, axis: Any, keepdims: bool) -> Any:
            return xp.asarray(func(x, axis=axis, keepdims=keepdims, dtype=xp.float64))

        return entry

    def mean16(x: Any, axis: Any, keepdims: bool) -> Any:
        res = xp.sum(x, axis=axis, keepdims=keepdims, dtype=xp.float64)
        count = reduced(x.shape, axis, False)[1]
        errstate = getattr(xp, "errstate", None)
        with errstate(all="ignore") if errstate else contextlib.nullcontext():
            return res / count

    def view_as_complex(x: Any, dtype: Any) -> Any:
        if x.size == 0:
            return xp.empty(x.shape[:-1], dtype=dtype)
        check_complex_view(x)
        return x.view(dtype)[..., 0]

    ops.update(
        {
            "astype.to.float16": lambda x: xp.asarray(x).astype(f16),
            "astype.from.float16": lambda x, dtype: x.astype(dtype),
            "view_as_complex": view_as_complex,
            "view_as_real": lambda z, dtype: z[..., None].view(dtype),
            "matmul.float16": lambda a, b: xp.matmul(
                a.astype(f32), b.astype(f32)
            ).astype(f16),
            "sum.float16": wide_reduce(xp.sum),
            "prod.float16": wide_reduce(xp.prod),
            "mean.float16": mean16,
            "nextafter.float16": nextafter_half(xp, xp.nextafter),
            "vecdot.float16": lambda a, b, axis: xp.sum(
                a.astype(f32) * b.astype(f32), axis=axis
            ).astype(f16),
        }
    )
    return ops
