"""The CPU backend: NumPy, corrected where NumPy departs from the standard.

The table ``ops`` follows the conventions documented in ``docs/dev/backends.md``:
arguments are native (NumPy) arrays, Python scalars, NumPy dtypes and already
normalised axes; results are native arrays (or tuples of them).  Nothing here
validates standard input: the front end has done that.
"""

from __future__ import annotations

import contextlib
import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any, Literal

import numpy as np
from numpy.lib.array_utils import normalize_axis_index

from . import _common, _parallel
from ._common import expand_dims as _expand_dims
from ._common import flip as _flip
from ._common import moveaxis as _moveaxis
from ._common import reversed_view as _reversed
from ._common import unstack as _unstack

ndarray = np.ndarray

try:  # compiled by setup.py; absent in a source checkout that was not built
    from . import _gather_c  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _gather_c = None


# --- corrections and compositions ------------------------------------------
def _clip(x: ndarray, lo: Any, hi: Any) -> ndarray:
    # Note: np.clip promotes min/max with x and rejects min > max orders in some
    # versions; the standard wants x's dtype and NaN propagation from any operand.
    out = x
    if lo is not None:
        out = np.maximum(out, lo)
    if hi is not None:
        out = np.minimum(out, hi)
    if out is x:
        return _copy(x)
    return out.astype(x.dtype.newbyteorder("="), copy=False)


def _native_order(a: ndarray) -> ndarray:
    """``a`` if its byte order is native, else a native copy.

    Operations that copy (sort, take, repeat, ...) return native results for
    byte-swapped input, as the design asks; NumPy would keep the byte order.
    """
    return a if a.dtype.isnative else a.astype(a.dtype.newbyteorder("="))


def _native_result(a: ndarray) -> ndarray:
    """A *new* array ``a`` (one no one else holds) in native byte order.

    Byte-swapped results are converted in place (and viewed with the native
    dtype): no second allocation, which costs more than the swap itself.
    Only for arrays the caller has just made; use :func:`_native_order` for
    anything that may be shared.
    """
    if a.dtype.isnative:
        return a
    return a.byteswap(inplace=True).view(a.dtype.newbyteorder("="))


def _floor_divide(x1: Any, x2: Any, out: ndarray | None = None) -> ndarray:
    # Note: NumPy's float floor_divide gives NaN for inf // finite and -1 for
    # a negative finite // inf; the standard wants floor(x1 / x2) there
    # (+-inf and +-0).  Only float inputs with an infinity take the fix-up.
    res = np.asarray(np.floor_divide(x1, x2))
    if res.dtype.kind == "f":
        # (a Python int beyond int64 is no NumPy scalar: np.isinf refused it)
        one_inf = np.isinf(np.asarray(x1, dtype=res.dtype)) ^ np.isinf(
            np.asarray(x2, dtype=res.dtype)
        )
        if one_inf.any():
            with np.errstate(all="ignore"):
                exact = np.floor(np.true_divide(x1, x2))
            np.copyto(res, exact, where=one_inf)
    return res if out is None else _common.store(out, res)


def _expm1(x: ndarray, out: ndarray | None = None) -> ndarray:
    if x.dtype.kind != "c":
        return np.expm1(x, out=out) if out is not None else np.expm1(x)
    # Note: NumPy's complex expm1 misses the standard's special cases (and
    # loses accuracy near 0).  expm1(a + ib) = expm1(a) cos b - 2 sin^2(b/2)
    #                                           + i exp(a) sin b.
    a, b = x.real, x.imag
    with np.errstate(all="ignore"):
        em1 = np.expm1(a)
        re = em1 * np.cos(b) - 2.0 * np.sin(b / 2) ** 2
        im = np.exp(a) * np.sin(b)
    b_zero = b == 0
    re = np.where(b_zero, em1 + 0.0, re)  # + 0.0: expm1(-0 + 0j) is +0
    re = np.where(np.isneginf(a), -1.0, re)  # +0 * cis(b) - 1, exactly
    im = np.where(b_zero, b, im)  # keeps the signed zero, also for a = inf/NaN
    b_nonfinite = ~np.isfinite(b)
    neg_inf = np.isneginf(a) & b_nonfinite
    pos_inf = np.isposinf(a) & b_nonfinite
    re = np.where(neg_inf, -1.0, np.where(pos_inf, np.inf, re))
    im = np.where(neg_inf, 0.0, np.where(pos_inf, np.nan, im))
    res = np.empty(x.shape, dtype=x.dtype.newbyteorder("=")) if out is None else out
    res.real = re
    res.imag = im
    return res


def _tanh(x: ndarray, out: ndarray | None = None) -> ndarray:
    res = np.tanh(x, out=out) if out is not None else np.asarray(np.tanh(x))
    if res.dtype.kind == "c":
        # Note: NumPy gives 1 - 0j for tanh(inf + i*pi) (the sign of sin(2b));
        # the standard wants sign(a) + copysign(0, b)j for infinite a, finite b.
        a, b = x.real, x.imag
        fix = np.isinf(a) & np.isfinite(b)
        if fix.any():
            exact = np.empty(np.shape(res), dtype=res.dtype)
            exact.real = np.sign(a)
            exact.imag = np.copysign(0.0, b)
            np.copyto(res, exact, where=fix)
    return res


def _tan(x: ndarray, out: ndarray | None = None) -> ndarray:
    res = np.tan(x, out=out) if out is not None else np.asarray(np.tan(x))
    if res.dtype.kind == "c":
        # Note: tan(x) is -1j * tanh(x * 1j) for the standard, so with tanh's
        # rule above a finite a and an infinite b give copysign(0, a) + sign(b) j;
        # NumPy gives the sign of sin(2a) to the zero.
        a, b = x.real, x.imag
        fix = np.isfinite(a) & np.isinf(b)
        if fix.any():
            exact = np.empty(np.shape(res), dtype=res.dtype)
            exact.real = np.copysign(0.0, a)
            exact.imag = np.sign(b)
            np.copyto(res, exact, where=fix)
    return res


def _sign(x: ndarray, out: ndarray | None = None) -> ndarray:
    res = np.sign(x, out=out) if out is not None else np.asarray(np.sign(x))
    if res.dtype.kind == "c":
        # Note: NumPy's complex sign departs from the standard where |x| is
        # not finite (a NaN or infinite part, or an overflowing |x|); see
        # _common.complex_sign.  Only those elements take the fix-up.
        with np.errstate(all="ignore"):
            fix = ~np.isfinite(np.abs(x))
            if fix.any():
                res[fix] = _common.complex_sign(np, x[fix])
    return res


def _round(x: ndarray, out: ndarray | None = None) -> ndarray:
    if out is not None:
        return np.round(x, out=out)  # type: ignore[no-any-return]
    # np.round copies integer input as it is (keeping a byte-swapped byte order)
    res = np.round(x)
    return res if res.dtype.isnative else _native_order(res)


def _matrix_transpose(x: ndarray) -> ndarray:
    return x.swapaxes(-1, -2)  # a view; np.matrix_transpose costs ~4x more


def _pow(x1: Any, x2: Any, out: ndarray | None = None) -> Any:
    # Note: for a one-element (scalar or broadcast) exponent of 0.5 NumPy computes
    # sqrt(x1), which gives NaN (and a warning) for -inf and -0.0 for -0.0,
    # where the standard wants +inf and +0.  Patch those two inputs after the
    # call; NumPy's other shortcuts (-1, 0, 1, 2) agree with the standard.
    if (
        out is not None
        and out.dtype.kind in "iu"
        and not (out.dtype.isnative and out.flags.aligned)
    ):
        # Note: NumPy's integer power raises partway (a negative exponent);
        # into an `out` it must buffer (byte-swapped or unaligned) it then
        # copies back its whole buffer, the elements it never computed
        # included (uninitialised memory).  Compute apart, copy on success:
        # nothing is written when it raises.
        return _common.store(out, np.asarray(np.power(x1, x2)))
    t2 = x2.__class__
    if t2 is int:  # the common x ** 2: no exponent of 0.5 possible
        if x2 == 2 and x1.dtype.kind in "iuf":
            # Note: what NumPy's own ``x ** 2`` does; square is exactly the
            # rounded x * x, as power's loop gives it, at half power's cost.
            return np.square(x1) if out is None else np.square(x1, out=out)
        return np.power(x1, x2) if out is None else np.power(x1, x2, out=out)
    if (
        x2 == 0.5 if t2 is float else np.size(x2) == 1 and np.all(x2 == 0.5)
    ) and np.result_type(x1, x2).kind == "f":
        with np.errstate(invalid="ignore"):
            res = np.asarray(np.power(x1, x2))
        base = np.asarray(x1)
        np.copyto(res, np.inf, where=np.isneginf(base))
        np.copyto(res, 0.0, where=base == 0)
        return res if out is None else _common.store(out, res)
    return np.power(x1, x2) if out is None else np.power(x1, x2, out=out)


# NumPy's fastest sort per dtype: "stable" is a radix sort (linear time) for
# bool and 1- and 2-byte integers, several times faster than the default there;
# for wider integers and for floats the default (a SIMD sort where the CPU has
# one) is the fastest.
def _fast_kind(dtype: np.dtype) -> Literal["stable"] | None:
    return "stable" if dtype.kind in "biu" and dtype.itemsize <= 2 else None


def _first_true(rows: ndarray, pred: Callable[[ndarray], ndarray]) -> ndarray:
    """Per row (last axis) of ``rows``, the first position where ``pred``
    holds, ``pred`` being false then true along each row (the row length where
    it never holds): one binary search of all rows at once."""
    n = rows.shape[-1]
    lo = np.zeros(rows.shape[:-1], dtype=np.intp)
    hi = np.full(rows.shape[:-1], n, dtype=np.intp)
    while (todo := lo < hi).any():
        mid = (lo + hi) >> 1
        at = np.take_along_axis(rows, np.minimum(mid, n - 1)[..., None], -1)[..., 0]
        ok = pred(at) & todo
        hi = np.where(ok, mid, hi)
        lo = np.where(todo & ~ok, mid + 1, lo)
    return lo


def _put_back(
    res: ndarray,
    src: ndarray,
    which: ndarray,
    take: Callable[[ndarray], ndarray],
    start: ndarray | None,
) -> None:
    """In the rows ``which`` of ``res`` (last axis), write the elements of the
    same rows of ``src`` for which ``take`` holds, in their order in ``src``,
    at the positions from ``start`` on (``None``: at the end of each row)."""
    if res.ndim == 2 and res.shape[0] == 1:  # one row (and in ``which``): slices
        row = src[0]
        vals = row[take(row)]
        first = res.shape[1] - vals.size if start is None else int(start[0])
        res[0, first : first + vals.size] = vals
        return
    out, rows = res[which], src[which]
    keep = take(rows)
    count = keep.sum(-1, keepdims=True)
    first = res.shape[-1] - count if start is None else start[which][..., None]
    cols = np.arange(res.shape[-1])
    out[(cols >= first) & (cols < first + count)] = rows[keep]
    res[which] = out


def _stable_float_ties(x: ndarray, asc: ndarray, axis: int, descending: bool) -> None:
    """Give the floats ``asc``, ``x`` sorted ascending along ``axis`` by an
    unstable sort, the order that a stable sort gives equal elements, in place
    (``descending``: the order of the descending result, ``asc`` reversed).

    Equal floats that can be told apart are -0.0 and +0.0, and NaNs (sorted
    last) with different payloads or signs.  NumPy's SIMD sort moreover does
    not keep them: it writes one canonical NaN for every NaN, and its min/max
    networks may turn a -0.0 into +0.0 or the reverse where both meet.  So,
    per row: the run of zeros is found by binary search and, when it holds two
    zeros or more, written again from the input, in input order; a row that
    ends in NaN gets its NaNs back from the input likewise.  A row with
    neither costs O(log n) more than the sort.
    """
    if asc.size == 0:
        return
    if asc.ndim == 1:
        # the common case, by the array's own methods (NumPy's function
        # wrappers cost more than the searches): a row without a NaN at its
        # end and with at most one zero has no tie to restore
        last = asc[-1]
        if (
            last == last
            and asc.searchsorted(0.0, "right") - asc.searchsorted(0.0, "left") <= 1
        ):
            return
    n = asc.shape[axis]
    last = (asc.ndim - 1,)
    rows = _moveaxis(asc, (axis,), last)
    src = _moveaxis(x, (axis,), last)
    if rows.ndim == 1:  # the common case, by NumPy's own binary search
        lo = np.searchsorted(rows, 0.0, "left").reshape(1)
        hi = np.searchsorted(rows, 0.0, "right").reshape(1)
        rows, src = rows[None], src[None]
    elif _count_is_faster(n, rows.size):
        # in a sorted row the zeros start after the negatives
        zeros_in = np.count_nonzero(rows == 0, axis=-1)
        if (zeros_in > 1).any():
            lo = np.count_nonzero(rows < 0, axis=-1)
        else:
            lo = np.zeros_like(zeros_in)
        hi = lo + zeros_in
    else:
        lo = _first_true(rows, lambda v: ~(v < 0))
        hi = _first_true(rows, lambda v: ~(v <= 0))
    res = rows[..., ::-1] if descending else rows
    nans = np.isnan(rows[..., -1])
    if nans.any():
        _put_back(res, src, nans, np.isnan, np.zeros_like(lo) if descending else None)
    zeros = hi - lo > 1
    if zeros.any():
        _put_back(res, src, zeros, _is_zero, n - hi if descending else lo)


def _count_is_faster(n: int, size: int) -> bool:
    """Whether counting the zeros of every row of ``n`` (``size`` in all; a
    pass over the data, ~1.5 ns an element) costs less than the 2 * log2(n)
    rounds of a binary search of every row at once (~10 us of NumPy calls
    plus ~10 ns a row each)."""
    return size * 3 < 4 * (n.bit_length() + 1) * (10_000 + 10 * (size // n))


def _is_zero(a: ndarray) -> ndarray:
    return a == 0


def _sort(x: ndarray, axis: int, descending: bool, stable: bool) -> ndarray:
    # Note: NumPy's stable sort (timsort for wide dtypes) is up to several times
    # slower than its default.  Equal integers and booleans are identical, so
    # for them any sort is stable; floats take the fastest sort and then have
    # their equal-but-distinct elements (signed zeros, NaNs) put back in stable
    # order, which also keeps NaN payloads that the SIMD sort loses.  Both
    # directions keep equal elements in their original order (descending: the
    # ascending sort reversed, with those ties restored in the reversed view).
    if x.dtype.kind == "f" and x.ndim and _stable_is_faster(x.shape[axis], x.size):
        # Short rows, few elements: NumPy's stable sort is about as fast as its
        # default there, and the fix-up's NumPy calls would cost more.
        # Descending: the reversed input sorted stably, reversed back, keeps
        # equal elements in input order (and NaNs first).
        src = _reversed(x, axis) if descending else x
        out = src.copy() if x.dtype.isnative else _native_order(src)
        out.sort(axis, "stable")
        return _reversed(out, axis) if descending else out
    out = x.copy() if x.dtype.isnative else _native_order(x)
    out.sort(axis, _fast_kind(out.dtype))
    if out.dtype.kind == "f":
        _stable_float_ties(x, out, axis, descending)
    return _reversed(out, axis) if descending else out


# 1-D rows up to this length take NumPy's stable sort directly.  Measured on
# x86-64 (AVX2, no AVX-512) with NumPy 2.4, quiet machine: the stable sort of
# float64 takes 4.7 us at 256 elements, 11 us at 512, 24 us at 1,024 and
# 172 us at 4,096; the default sort plus the fix-up of a 1-D row (about
# 3 us) wins from about 400.
_STABLE_UP_TO_1D = 384


def _stable_is_faster(n: int, size: int) -> bool:
    """Whether NumPy's stable sort of floats in rows of ``n`` (``size`` in
    all) beats its default sort plus the fix-up of ties.

    An n-d fix-up costs some 25-40 us of NumPy calls, whatever the rows; the
    stable sort costs more an element the longer the rows.  Measured as above
    (float64, min of 9 runs, a busy machine), stable / default + fix-up in us:
    rows of 16 to 1,024 at 1,000 elements 9-69 / 31-71, at 16,000 elements
    223-763 / 147-241; rows of 8 at 16,000 elements 997 / 739, rows of 12 at
    64,000 3,483 / 1,843; rows of 4 are faster stable at every size.
    """
    if size == n:
        return n <= _STABLE_UP_TO_1D
    if n <= 4:
        return True
    return size <= (32_000 if n < 16 else 8_000)


def _argsort(x: ndarray, axis: int, descending: bool, stable: bool) -> ndarray:
    kind = "stable" if stable else _fast_kind(x.dtype)
    if not descending:
        return x.argsort(axis, kind)
    n = x.shape[axis]
    rev = _reversed(x, axis).argsort(axis, kind)
    return _reversed(n - 1 - rev, axis)


def _reshape(x: ndarray, shape: tuple[int, ...], copy: bool | None) -> ndarray:
    if copy is None:
        res = x.reshape(shape)  # the method: np.reshape costs ~1 us more
        if res.dtype.isnative or np.may_share_memory(res, x):
            return res
        return _native_result(res)  # NumPy copied (the layout needed it)
    if copy and not x.dtype.isnative:
        return x.astype(x.dtype.newbyteorder("="), order="C").reshape(shape)
    return x.reshape(shape, copy=copy)


def _repeat(x: ndarray, repeats: Any, axis: int | None) -> ndarray:
    if repeats.__class__ is not int:
        repeats = _as_intp(repeats)  # Note: NumPy refuses uint64 repeats
    return _native_result(x.repeat(repeats, axis))


def _count_nonzero(x: ndarray, axis: Any, keepdims: bool) -> ndarray:
    if axis is None and not keepdims:
        return np.asarray(np.count_nonzero(x), dtype=np.intp)
    return np.count_nonzero(x, axis=axis, keepdims=keepdims)


def _permute_dims(x: ndarray, axes: tuple[int, ...]) -> ndarray:
    return x.transpose(axes)


def _astype(x: ndarray, dtype: np.dtype, copy: bool) -> ndarray:
    return x.astype(dtype, copy=copy)


def _unique(x: ndarray, index: bool, inverse: bool, counts: bool) -> Any:
    # Note: NumPy >= 2.3 returns unique_values() unsorted (hashing); sorted
    # output is what NumPy's np.unique, array-api-strict and downstream code
    # (scikit-learn's label handling) expect, so always sort.  NaNs stay
    # distinct as the standard requires (equal_nan=False).  NumPy's stubs only
    # type literal `return_*` flags, hence the ignore.
    if x.dtype.kind in "biuf" and x.size:
        res = _unique_real(x.reshape(-1), index, inverse, counts)
    else:
        res = np.unique(  # type: ignore[call-overload]
            x.reshape(-1),
            return_index=index,
            return_inverse=inverse,
            return_counts=counts,
            equal_nan=False,
        )
    if not x.dtype.isnative:  # the unique values keep x's byte order
        if res.__class__ is tuple:
            return (_native_result(res[0]), *res[1:])
        return _native_result(res)
    return res


def _few_distinct(flat: ndarray) -> bool:
    """Whether the wide integers ``flat`` seem to hold few distinct values.

    NumPy's hashing ``unique`` (then a sort of the values found) is about
    twice as fast as a sort with up to some thousands of distinct values among
    10**6, and over ten times slower with all distinct.  The crossover (about
    20,000 distinct in 10**6 uniform ones) leaves under 980 distinct values in
    an evenly spaced sample of 1024.
    """
    if flat.dtype.kind not in "iu" or flat.dtype.itemsize <= 2 or flat.size < 8192:
        return False
    sample = flat[:: flat.size // 1024][:1024].copy()
    sample.sort()
    return int(np.count_nonzero(sample[1:] != sample[:-1])) < 979


def _unique_real(flat: ndarray, index: bool, inverse: bool, counts: bool) -> Any:
    """``np.unique`` of the non-empty 1-D real ``flat`` (NaNs distinct), by
    NumPy's fastest sort, with the results of a stable one: each value is its
    first occurrence (-0.0 or +0.0, whichever comes first), NaNs (last) in
    input order with their payloads, ``indices`` the first occurrences.

    Note: np.unique sorts unstably (its result for signed zeros and NaN
    payloads depends on the sort), hashes random wide integers slowly, and
    takes the stable (merge) sort for ``return_index``.
    """
    n = flat.size
    if not (index or inverse or counts) and _few_distinct(flat):
        # Note: NumPy's hash table (then a sort of the few values found) wins
        # by far there; integers only, where it cannot pick representatives.
        return np.unique(flat, equal_nan=False)
    if not (index or inverse):
        aux = _sort(flat, 0, False, True)
        perm = None
    else:
        perm = flat.argsort(kind=_fast_kind(flat.dtype))
        aux = flat[perm]
        if flat.dtype.kind == "f" and aux[-1] != aux[-1]:  # NaNs in input order
            first_nan = np.searchsorted(aux, np.nan, "left")
            perm[first_nan:].sort()
            aux[first_nan:] = flat[perm[first_nan:]]
    mask = np.empty(n, dtype=np.bool_)
    mask[0] = True
    np.not_equal(aux[1:], aux[:-1], out=mask[1:])
    starts = np.flatnonzero(mask)
    if perm is None:
        values = aux[starts]
    elif index:  # every run of equal values: where it first occurs
        first = np.minimum.reduceat(perm, starts)
        values = flat[first]
    else:
        values = aux[starts]
        if flat.dtype.kind == "f":  # only a run of zeros can differ (the sign)
            lo = np.searchsorted(aux, 0.0, "left")
            hi = np.searchsorted(aux, 0.0, "right")
            if hi - lo > 1:
                values[np.searchsorted(starts, lo)] = flat[perm[lo:hi].min()]
    res = [values]
    if index:
        res.append(first)
    if inverse:
        inv = np.empty(n, dtype=np.intp)
        inv[perm] = np.cumsum(mask, dtype=np.intp) - 1
        res.append(inv)
    if counts:
        res.append(np.diff(starts, append=n))
    return res[0] if len(res) == 1 else tuple(res)


def _unique_all(x: ndarray) -> tuple[ndarray, ndarray, ndarray, ndarray]:
    values, idx, inv, counts = _unique(x, True, True, True)
    return values, idx, inv.reshape(x.shape), counts


def _unique_counts(x: ndarray) -> tuple[ndarray, ndarray]:
    return _unique(x, False, False, True)  # type: ignore[no-any-return]


def _unique_inverse(x: ndarray) -> tuple[ndarray, ndarray]:
    values, inv = _unique(x, False, True, False)
    return values, inv.reshape(x.shape)


def _unique_values(x: ndarray) -> ndarray:
    return _unique(x, False, False, False)  # type: ignore[no-any-return]


def _full(index: int, shape: tuple[int, ...], fill: Any, dtype: np.dtype) -> ndarray:
    return np.full(shape, fill, dtype=dtype)


def _zeros(index: int, shape: tuple[int, ...], dtype: np.dtype) -> ndarray:
    return np.zeros(shape, dtype=dtype)


def _ones(index: int, shape: tuple[int, ...], dtype: np.dtype) -> ndarray:
    return np.ones(shape, dtype=dtype)


def _empty(index: int, shape: tuple[int, ...], dtype: np.dtype) -> ndarray:
    return np.empty(shape, dtype=dtype)


def _arange(index: int, start: Any, stop: Any, step: Any, dtype: np.dtype) -> ndarray:
    return np.arange(start, stop, step, dtype=dtype)


def _eye(index: int, n: int, m: int, k: int, dtype: np.dtype) -> ndarray:
    return np.eye(n, m, k=k, dtype=dtype)


def _linspace(
    index: int, start: Any, stop: Any, num: int, dtype: np.dtype, endpoint: bool
) -> ndarray:
    return np.linspace(start, stop, num, dtype=dtype, endpoint=endpoint)


def _sum(x: ndarray, axis: Any, dtype: Any, keepdims: bool) -> ndarray:
    # The ufunc's reduce is np.sum without its Python-level dispatch.  (NumPy's
    # stubs only type a literal `keepdims`, hence the ignores here and below.)
    return np.add.reduce(x, axis=axis, dtype=dtype, keepdims=keepdims)  # type: ignore[call-overload]


def _prod(x: ndarray, axis: Any, dtype: Any, keepdims: bool) -> ndarray:
    return np.multiply.reduce(x, axis=axis, dtype=dtype, keepdims=keepdims)  # type: ignore[call-overload]


_np_mean = _common.mean_entry(np, np.mean)
_index = operator.index
_normalize_axis = normalize_axis_index
_add_reduce = np.add.reduce
_true_divide = np.true_divide
_intp = np.intp
_COMPLEX_PARTS = {
    np.dtype(np.complex64): np.dtype(np.float32),
    np.dtype(np.complex128): np.dtype(np.float64),
}


def _numpy_own(x: ndarray) -> bool:
    """Whether ``mean``/``var``/``std`` of ``x`` are left to NumPy's own
    functions: anything but a non-empty float32/float64/complex64/complex128
    ndarray, either byte order (NumPy sums integers and float16 in a wider
    type, and squares long double complex parts its own way)."""
    return x.__class__ is not ndarray or x.dtype.char not in "fdFD" or x.size == 0


def _count(x: ndarray, axis: Any) -> int:
    """The number of elements each result element reduces (``axis``: None,
    an integer or a tuple of them; NumPy's AxisError out of range)."""
    if axis is None:
        return x.size  # type: ignore[no-any-return]
    shape, ndim = x.shape, x.ndim
    if axis.__class__ is not tuple:
        return shape[_normalize_axis(_index(axis), ndim)]  # type: ignore[no-any-return]
    count = 1
    for a in axis:
        count *= shape[_normalize_axis(_index(a), ndim)]
    return count


def _divided(s: Any, n: Any) -> Any:
    """``s / n`` as NumPy's mean and var divide a sum: in place (any cast)
    for an array, through the division's dtype for a NumPy scalar."""
    if s.__class__ is ndarray:
        return _true_divide(s, n, out=s, casting="unsafe")
    return s.dtype.type(s / n)


def _spread(root: bool) -> Callable[..., ndarray]:
    """``var`` (``std``: ``root``): NumPy's (numpy._core._methods._var and
    _std) step for step, for the same bits without np.var's dispatch, as
    :func:`_mean`; a count at or below ``correction`` gives NaN (NumPy warns
    and may give inf)."""
    numpy_entry = _common.spread_entry(np, np.std if root else np.var)
    subtract, square, add, multiply = np.subtract, np.square, np.add, np.multiply
    conjugate, maximum, sqrt = np.conjugate, np.maximum, np.sqrt

    def spread(x: ndarray, axis: Any, correction: float, keepdims: bool) -> ndarray:
        if _numpy_own(x):
            return numpy_entry(x, axis, correction, keepdims)  # type: ignore[no-any-return]
        count = _count(x, axis)
        if count - correction <= 0:
            return numpy_entry(x, axis, correction, keepdims)  # type: ignore[no-any-return]
        rcount = _intp(count)
        m = _divided(_add_reduce(x, axis, None, None, True), rcount)
        d = subtract(x, m, out=...)
        if x.dtype.kind == "f":
            d = square(d, out=d)
        else:
            parts = _COMPLEX_PARTS.get(d.dtype)
            if parts is not None:
                dv = d.view(dtype=(parts, (2,)))
                square(dv, out=dv)
                d = add(dv[..., 0], dv[..., 1], out=d.real)
            else:
                d = multiply(d, conjugate(d), out=d).real
        ret = _divided(
            _add_reduce(d, axis, None, None, keepdims), maximum(rcount - correction, 0)
        )
        if not root:
            return ret  # type: ignore[no-any-return]
        if ret.__class__ is ndarray:
            return sqrt(ret, out=ret)  # type: ignore[no-any-return]
        return ret.dtype.type(sqrt(ret))  # type: ignore[no-any-return]

    return spread


_std = _spread(True)
_var = _spread(False)


def _mean(x: ndarray, axis: Any, keepdims: bool) -> ndarray:
    # NumPy's mean of floating-point input, step for step (numpy._core.
    # _methods._mean: the sum in x's dtype, divided by the count as an intp,
    # in place for an array, through the division's dtype for a scalar), so
    # the same bits, without np.mean's Python-level dispatch and argument
    # handling: a small mean costs half as much.  Other dtypes (NumPy sums
    # integers and float16 in a wider type) and empty input take np.mean.
    if _numpy_own(x):
        return _np_mean(x, axis, keepdims)  # type: ignore[no-any-return]
    return _divided(_add_reduce(x, axis, None, None, keepdims), _intp(_count(x, axis)))  # type: ignore[no-any-return]


def _extremum(ufunc: Any) -> Callable[..., ndarray]:
    reduce = ufunc.reduce

    def extremum(x: ndarray, axis: Any, keepdims: bool) -> ndarray:
        if x.size == 0:
            # Note: NumPy raises for any zero-size reduction, even one whose
            # result is empty; the front end has ruled out the others.
            return reduce(x, axis=axis, keepdims=keepdims, initial=x.dtype.type(0))
        return reduce(x, axis=axis, keepdims=keepdims)

    return extremum


def _cumulative(func: Callable[..., ndarray], ufunc: Any) -> Callable[..., ndarray]:
    accumulate = ufunc.accumulate

    def cumulative(x: ndarray, axis: int, dtype: Any, include_initial: bool) -> ndarray:
        if include_initial:
            return func(x, axis=axis, dtype=dtype, include_initial=True)
        # the ufunc's accumulate: np.cumulative_* without its wrapper
        return accumulate(x, axis=axis, dtype=dtype)

    return cumulative


def _reduce_kw(func: Callable[..., ndarray]) -> Callable[..., ndarray]:
    def reduce(x: ndarray, axis: Any, keepdims: bool) -> ndarray:
        return func(x, axis=axis, keepdims=keepdims)

    return reduce


def _searchsorted(
    x1: ndarray, x2: Any, side: Literal["left", "right"], sorter: Any
) -> ndarray:
    return np.searchsorted(x1, x2, side=side, sorter=sorter)


def _sorted_isin(x1: ndarray, x2: Any, invert: bool) -> ndarray:
    return np.isin(x1, x2, invert=invert)


def _concat(
    arrays: Sequence[ndarray], axis: int | None, dtype: np.dtype | None
) -> ndarray:
    # dtype is None when every input already has the result's dtype (the
    # keyword call alone costs NumPy ~30 ns, so leave it out then).
    if dtype is None:
        return np.concatenate(arrays, axis)
    return np.concatenate(arrays, axis, dtype=dtype)


_diff = functools.partial(_common.diff, np.concatenate)
_stack = functools.partial(_common.stack, np.concatenate)
_flat_layout = functools.partial(_common.flat_layout, np.lib.stride_tricks.as_strided)


def _as_intp(indices: ndarray) -> ndarray:
    # Note: NumPy refuses uint64 indices (no safe cast to intp); values beyond
    # intp are out of bounds whatever the axis length.
    if (
        indices.dtype.kind == "u"
        and indices.dtype.itemsize >= np.dtype(np.intp).itemsize
    ):
        if indices.size and indices.max() > np.iinfo(np.intp).max:
            msg = f"index {indices.max()} is out of bounds"
            raise IndexError(msg)
        return indices.astype(np.intp)
    return indices


def _take(x: ndarray, indices: ndarray, axis: int) -> ndarray:
    res = x.take(_as_intp(indices), axis)
    if res.size == 0 and indices.size:
        # Note: NumPy checks no index when the result is empty (another axis
        # of length 0); the CUDA and dask devices do, so this one does too.
        n = x.shape[axis]
        bad = indices[(indices >= n) | (indices < -n)]
        if bad.size:
            msg = f"index {bad[0]} is out of bounds for axis {axis} with size {n}"
            raise IndexError(msg)
    return _native_result(res)


def _take_flat(flat: ndarray, offsets: ndarray) -> ndarray:
    # offsets: C-contiguous int32/int64, in bounds (the front end made them).
    # The compiled gather reads int32 offsets and swaps a byte-swapped source
    # in the same pass (about 1.3-1.5x faster than NumPy's take); NumPy's take
    # with mode="wrap" (exact for in-bounds offsets, no raising check) is the
    # fallback.
    if _gather_c is not None:
        res = _gather_c.take(flat, offsets, not flat.dtype.isnative)
        if res is not NotImplemented:
            return res  # type: ignore[no-any-return]
    return _native_result(flat.take(offsets, mode="wrap"))


def _getitem_native(x: ndarray, key: ndarray) -> Any:
    # x[key] for a byte-swapped x and a lone index array, in native byte
    # order.  A 1-D x with an int32/int64 key takes the compiled gather, which
    # checks bounds, wraps negative indices and swaps in one pass (no slower
    # than NumPy's own swapped gather); anything else gathers and then swaps
    # in place.
    if _gather_c is not None and key.dtype.kind == "i" and x.ndim == 1:
        res = _gather_c.take_checked(x, key, True)
        if res is not NotImplemented:
            return res
    res = x[key]
    return _native_result(res) if res.__class__ is ndarray else res


def _compact_offsets(offsets: ndarray, span: int) -> ndarray:
    # int32 offsets halve the index traffic of the compiled gather; every
    # offset is below `span` (the length of the flat view it indexes).
    if _gather_c is not None and span <= np.iinfo(np.int32).max:
        return offsets.astype(np.int32)
    return offsets


def _take_along_axis(x: ndarray, indices: ndarray, axis: int) -> ndarray:
    return _native_result(np.take_along_axis(x, _as_intp(indices), axis=axis))


def _tensordot(x1: ndarray, x2: ndarray, axes: Any) -> ndarray:
    with np.errstate(all="ignore"):  # (as multiply: no warnings)
        return _common.tensordot(np, x1, x2, axes)


def _vecdot(x1: ndarray, x2: ndarray, axis: int) -> ndarray:
    # `axis` is a generalized-ufunc keyword that NumPy's stubs do not list.
    return np.vecdot(x1, x2, axis=axis)  # type: ignore[call-overload]


def _where(cond: ndarray, x1: Any, x2: Any) -> ndarray:
    return np.where(cond, x1, x2)


def _copy(x: ndarray) -> ndarray:
    # a copy is native (x.copy() would keep a byte-swapped x's byte order)
    return x.copy() if x.dtype.isnative else x.astype(x.dtype.newbyteorder("="))


def _square(x: ndarray, **kwargs: Any) -> ndarray:
    # Note: NumPy squares byte-swapped complex input through a buffered loop
    # that rounds differently (1 ulp) from its native loop; a byte-swapped x
    # must give the same result as its native copy.
    return np.square(x if x.dtype.isnative else _native_order(x), **kwargs)


_UFUNCS = _common.elementwise(
    np,
    {
        "square": _square,
        "expm1": _expm1,
        "round": _round,
        "tanh": _tanh,
        "tan": _tan,
        "sign": _sign,
        "floor_divide": _floor_divide,
        "pow": _pow,
    },
)


def _build_ops() -> dict[str, Callable[..., Any]]:
    ops: dict[str, Callable[..., Any]] = dict(_UFUNCS)
    ops.update(
        {
            "clip": _clip,
            "where": _where,
            "astype": _astype,
            "copy": _copy,
            "getitem": operator.getitem,
            "native_result": _native_result,
            "setitem": operator.setitem,
            "take": _take,
            "take_along_axis": _take_along_axis,
            "index_array": _as_intp,
            "flat_layout": _flat_layout,
            "take_flat": _take_flat,
            "compact_offsets": _compact_offsets,
            "getitem_native": _getitem_native,
            # creation (first argument: the device index)
            "arange": _arange,
            "empty": _empty,
            "zeros": _zeros,
            "ones": _ones,
            "full": _full,
            "eye": _eye,
            "linspace": _linspace,
            "tril": lambda x, k: np.tril(x, k=k),
            "triu": lambda x, k: np.triu(x, k=k),
            "meshgrid": lambda arrays, indexing: tuple(
                np.meshgrid(*map(_native_order, arrays), indexing=indexing)
            ),
            # manipulation
            "broadcast_to": np.broadcast_to,
            "concat": _concat,
            "stack": _stack,
            "expand_dims": _expand_dims,
            "flip": _flip,
            "moveaxis": _moveaxis,
            "permute_dims": _permute_dims,
            "repeat": _repeat,
            "reshape": _reshape,
            "roll": lambda x, shift, axis: _native_result(np.roll(x, shift, axis=axis)),
            "squeeze": lambda x, axis: x.squeeze(axis),
            "tile": lambda x, reps: _native_result(np.tile(x, reps)),
            "unstack": _unstack,
            # searching
            "argmax": lambda x, axis, keepdims: x.argmax(axis, keepdims=keepdims),
            "argmin": lambda x, axis, keepdims: x.argmin(axis, keepdims=keepdims),
            "count_nonzero": _count_nonzero,
            "nonzero": lambda x: x.nonzero(),
            "searchsorted": _searchsorted,
            # set
            "isin": _sorted_isin,
            "unique_all": _unique_all,
            "unique_counts": _unique_counts,
            "unique_inverse": _unique_inverse,
            "unique_values": _unique_values,
            # sorting
            "sort": _sort,
            "argsort": _argsort,
            # statistical and utility
            "sum": _sum,
            "prod": _prod,
            "max": _extremum(np.maximum),
            "min": _extremum(np.minimum),
            "mean": _mean,
            "std": _std,
            "var": _var,
            "all": _reduce_kw(np.logical_and.reduce),  # np.all without its dispatch
            "any": _reduce_kw(np.logical_or.reduce),
            "cumulative_sum": _cumulative(np.cumulative_sum, np.add),
            "cumulative_prod": _cumulative(np.cumulative_prod, np.multiply),
            "diff": _diff,
            # linear algebra (linalg.* and fft.* entries are added by _linalg/_fft)
            "tensordot": _tensordot,
            "vecdot": _vecdot,
            "matrix_transpose": _matrix_transpose,
        }
    )
    from . import _fft, _halfprec, _linalg

    ops.update(_linalg.OPS)
    ops.update(_fft.OPS)
    # "<operation>.float16" / ".complex32" entries of the ocean_ext dtypes
    ops.update(_halfprec.ext_ops(_UFUNCS))
    # large calls on several threads (small ones go straight to the kernel)
    _parallel.wrap(ops, tuple(_common.ELEMENTWISE), _common.ELEMENTWISE, _QUICK)
    return ops


# The one NumPy C function that some entries above call, and how they pass
# their arguments on (positional: the entry's argument index, -1 None;
# keywords: (name, index)), so that a small call goes there directly from the
# compiled size test in front of the entry (``_parallel_c.Parallel``) and
# pays for no Python frame; an empty call or a NumPy-subclass operand takes the
# entry itself.  tests/backends/test_parallel.py checks that each gives its
# entry's results.
_REDUCE_LAYOUT = (0, 1, -1, -1, 2)  # ufunc.reduce(x, axis, None, None, keepdims)
_QUICK: dict[str, tuple[Any, tuple[int, ...], tuple[tuple[str, int], ...]]] = {
    "sum": (np.add.reduce, (0, 1, 2, -1, 3), ()),  # (x, axis, dtype, None, keepdims)
    "prod": (np.multiply.reduce, (0, 1, 2, -1, 3), ()),
    "max": (np.maximum.reduce, _REDUCE_LAYOUT, ()),
    "min": (np.minimum.reduce, _REDUCE_LAYOUT, ()),
    "all": (np.logical_and.reduce, _REDUCE_LAYOUT, ()),
    "any": (np.logical_or.reduce, _REDUCE_LAYOUT, ()),
    "argmax": (ndarray.argmax, (0, 1, -1), (("keepdims", 2),)),
    "argmin": (ndarray.argmin, (0, 1, -1), (("keepdims", 2),)),
    "where": (np.where, (0, 1, 2), ()),
    "astype": (ndarray.astype, (0, 1), (("copy", 2),)),
}


def _halfprec_status() -> tuple[bool, str]:
    from . import _halfprec

    return _halfprec.AVAILABLE, _halfprec.UNAVAILABLE


class CPUBackend:
    """NumPy-backed implementation of the backend protocol for ``cpu`` devices."""

    kind = "cpu"
    native_type = np.ndarray
    supports_byteswap = True
    # complex32 kernels (ocean_cpu._halfprec_c) are built and loaded; if not,
    # why not (for the front end's error messages)
    supports_complex32, ext_kernels_unavailable = _halfprec_status()
    max_dimensions = 64

    def __init__(self) -> None:
        self.ops = _build_ops()

    def __repr__(self) -> str:
        return "<ocean_cpu backend>"

    def device_indices(self) -> tuple[int, ...]:
        return (0,)

    def threads(self, n: int | None) -> contextlib.AbstractContextManager[int]:
        """Large operations in the block may use ``n`` threads (None: the
        default); see ``ocean_cpu._parallel``."""
        return _parallel.threads(n)

    def num_threads(self) -> int:
        """The threads a large operation started here may use now."""
        return _parallel.current_threads()

    def array_module(self) -> Any:
        return np

    def activate(self, index: int) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def to_native(self, obj: Any) -> ndarray:
        return np.asarray(obj)

    def asarray(self, obj: Any, dtype: Any, index: int, copy: bool | None) -> ndarray:
        if dtype is None and copy is None:
            return np.asarray(obj)  # ~50 ns less than np.array's keywords
        return np.array(obj, dtype=dtype, copy=copy)

    def to_host(self, native: ndarray, *, stream: Any = None) -> ndarray:
        return native

    def from_host(self, host: ndarray, index: int, *, stream: Any = None) -> ndarray:
        return np.array(host, copy=True)

    def transfer(self, native: ndarray, index: int, *, stream: Any = None) -> ndarray:
        return _copy(native)

    def synchronize(self, index: int) -> None:
        return None

    def dlpack_device(self, native: ndarray, index: int) -> tuple[int, int]:
        return (1, 0)  # kDLCPU

    def from_dlpack(self, obj: Any, index: int, copy: bool | None) -> ndarray:
        return np.from_dlpack(obj, device="cpu", copy=copy)

    def is_lazy(self, native: Any) -> bool:
        return False

    def materialize(self, native: Any) -> Any:
        return native

    def capabilities(self) -> dict[str, Any]:
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": self.max_dimensions,
        }


backend = CPUBackend()
