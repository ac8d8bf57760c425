"""Reductions of COO arrays: sum, prod, max, min, mean, all, any.

A reduction over some axes gives a COO over the remaining ones; its fill value
is the reduction of the fill value over the reduced size (``fill * n`` for a
sum), and each cell combines its stored entries with the fill value for the
positions that have none.  A reduction over every axis gives a dense 0-d
array (of shape ``(1,) * ndim`` with ``keepdims=True``).

Cells are found by segment reductions on the coordinates: a dense accumulator
(``ufunc.at``-style scatter) when the output is not much larger than the
number of entries, else a sort of the segment ids and a reduction of the runs.
Dtypes and errors follow ``ocean_array_api``'s function of the same name.

This module defines ``sum``, ``max``, ``min``, ``all`` and ``any``: below
their definitions those names are the sparse functions, so the code calls the
builtins as ``builtins.max`` and the sparse functions by private aliases
(``_sum``), never by the shadowing names (``tests/ext/sparse`` checks it).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import Any

import ocean_array_api as xp
from ocean_array_api import _dtypes as _dt
from ocean_array_api._helpers import normalize_axes

from ._common import (
    Array,
    check_result_dtype,
    fill_array,
    proxy_of,
    row_major_strides,
    wrap,
    wrap_index,
)
from ._common import prod as _size
from ._elementwise import to_scalar
from ._store import Entries, prune

__all__ = [
    "all",
    "any",
    "count_nonzero",
    "max",
    "mean",
    "min",
    "nonzero",
    "prod",
    "sum",
]

# dense accumulation when the output has at most this many cells per entry
_DENSE_FACTOR = 4
_DENSE_MIN = 1 << 16


def _is_coo(x: Any) -> bool:
    from ._coo import COO

    return isinstance(x, COO)


class _Segments:
    """The entries of ``x`` grouped by their position in the reduced array."""

    __slots__ = (
        "_nx", "axes", "cnt", "data", "kshape", "n", "nseg", "oshape", "seg",
        "sorted", "useg", "x",
    )  # fmt: skip

    def __init__(self, x: Any, axes: tuple[int, ...], keepdims: bool) -> None:
        shape = x.shape
        nd = len(shape)
        kept = [d for d in range(nd) if d not in axes]
        self.x = x
        self.axes = axes
        self.kshape = tuple(shape[d] for d in kept)
        self.oshape = (
            tuple(1 if d in axes else shape[d] for d in range(nd))
            if keepdims
            else self.kshape
        )
        self.nseg = _size(self.kshape)
        self.seg: Any = None
        self.useg: Any = None
        self.cnt: Any = None
        self.n = 0
        self._build(kept)

    def _build(self, kept: list[int]) -> None:
        x = self.x
        coords, data = x._unsorted()  # coordinates are cached on the entries
        self.data = data
        nx = x._store.ent.k.nx
        if len(kept) == 1:
            seg = coords[kept[0]]
        else:
            strides = row_major_strides(self.kshape)
            seg = coords[kept[0]] * strides[0]
            for s, d in zip(strides[1:], kept[1:], strict=True):
                if s == 1:
                    seg += coords[d]
                else:
                    seg += coords[d] * s
        self.seg = seg
        canonical = x._map is None or x._ent_version == x._store.version
        self.sorted = canonical and kept == list(range(len(kept)))
        self.n = int(data.shape[0])
        self._nx = nx

    def dense(self) -> bool:
        return self.nseg <= _DENSE_FACTOR * self.n + _DENSE_MIN

    def reduce(self, op: str, vals: Any, init: Any, need_counts: bool) -> Any:
        """Reduce ``vals`` (native, one per entry) per cell: sets ``useg`` (the
        cells with entries, ascending), ``cnt`` (their entry counts, if
        ``need_counts``) and returns the reduced values."""
        k = self.x._store.ent.k
        nx = k.nx
        seg = self.seg
        if self.sorted and self.nseg * 32 <= self.n:
            # few long runs: their bounds by binary search, then one reduction
            # per run (a scatter would serialise on each run's accumulator)
            bounds = nx.searchsorted(seg, k.arange(self.nseg + 1))
            sizes = bounds[1:] - bounds[:-1]
            self.useg = nx.flatnonzero(sizes)
            self.cnt = sizes[self.useg]
            return k.reduce_sorted(op, bounds[self.useg], vals)
        if self.dense():
            acc = nx.full(self.nseg, init, dtype=vals.dtype)
            k.scatter(op, acc, seg, vals)
            if need_counts:
                cnt = k.counts(seg, self.nseg)
                self.useg = nx.flatnonzero(cnt)
                self.cnt = cnt[self.useg]
            else:
                # with the fill value as identity, cells equal to it are dropped
                self.useg = nx.flatnonzero(acc != init)
            return acc[self.useg]
        if self.sorted:
            sk, sv = seg, vals
        else:
            sk, perm = k.sort_perm(seg, builtins.max(self.nseg - 1, 0))
            sv = vals[perm]
        starts = k.group_starts(sk)
        self.useg = sk[starts]
        ends = nx.concatenate((starts[1:], nx.asarray([sk.shape[0]], dtype=nx.int64)))
        self.cnt = ends - starts
        return k.reduce_sorted(op, starts, sv)

    def counts(self, mask: Any = None) -> Any:
        """Entry counts (where ``mask``) for the cells ``useg`` (after reduce)."""
        k = self.x._store.ent.k
        seg = self.seg if mask is None else self.seg[mask]
        if self.dense():
            return k.counts(seg, self.nseg)[self.useg]
        nx = k.nx
        sk = nx.sort(seg)
        lo = nx.searchsorted(sk, self.useg, side="left")
        hi = nx.searchsorted(sk, self.useg, side="right")
        return hi - lo


def _axes(x: Any, axis: Any, where: str) -> tuple[int, ...]:
    nd = x.ndim
    axes = normalize_axes(axis, nd, where)
    return tuple(range(nd)) if axes is None else tuple(sorted(axes))


def _check_keepdims(keepdims: Any, where: str) -> None:
    if keepdims is not True and keepdims is not False:
        msg = f"{where}: `keepdims` must be a bool, got {type(keepdims).__name__}"
        raise TypeError(msg)


def _result(x: Any, segs: _Segments, rdt: Any, vals: Array, fill: Any) -> Any:
    from ._coo import COO

    ent = Entries(
        segs.oshape, rdt, x.device, vals._data, keys=segs.useg, k=x._store.ent.k
    )
    return COO._from_entries(prune(ent, fill), fill)


def _missing(segs: _Segments, n_total: int, rdt: Any, dev: Any) -> Array:
    return xp.astype(wrap_index(n_total - segs.cnt, dev), rdt)


def _full_shape(x: Any, res: Array, keepdims: bool) -> Array:
    return xp.reshape(res, (1,) * x.ndim) if keepdims else res


def _accumulating(name: str) -> Callable[..., Any]:
    f = getattr(xp, name)
    op = "add" if name == "sum" else "multiply"
    where = f"{name}()"

    def func(
        x: Any, /, *, axis: Any = None, dtype: Any = None, keepdims: bool = False
    ) -> Any:
        if not _is_coo(x):
            return f(x, axis=axis, dtype=dtype, keepdims=keepdims)
        _check_keepdims(keepdims, where)
        axes = _axes(x, axis, where)
        dev = x.device
        rdt = f(xp.zeros((1,), dtype=x.dtype, device=dev), dtype=dtype).dtype
        if len(axes) != x.ndim:
            check_result_dtype(rdt, where)  # a COO result
        if name == "prod" and rdt._kind in ("real floating", "complex floating"):
            return _float_prod(x, axes, keepdims, rdt)
        if proxy_of(rdt) is not rdt:
            # ocean_ext's dtypes: summed in their proxy, rounded once (as dense)
            from ._manipulation import astype

            res = func(x, axis=axis, dtype=proxy_of(rdt), keepdims=keepdims)
            return astype(res, rdt)
        # sums, and products of integers (exact: modular arithmetic is
        # associative, so the order of the factors does not matter)
        fill0 = xp.astype(fill_array(x.fill_value, x.dtype, dev), rdt)
        n_red = _size(tuple(x.shape[a] for a in axes))
        if len(axes) == x.ndim:
            _, data = x._unsorted()
            vals = xp.astype(wrap(data, x.dtype, dev), rdt, copy=False)
            total = f(vals)
            missing = n_red - int(data.shape[0])
            if name == "sum":
                if x.fill_value != 0:
                    total = xp.add(total, xp.multiply(fill0, missing))
            else:
                total = xp.multiply(total, xp.pow(fill0, missing))
            return _full_shape(x, total, keepdims)
        segs = _Segments(x, axes, keepdims)
        vals = xp.astype(wrap(segs.data, x.dtype, dev), rdt, copy=False)
        fill_is_identity = x.fill_value == (0 if name == "sum" else 1)
        red = segs.reduce(
            op, vals._data, 0 if name == "sum" else 1, not fill_is_identity
        )
        out = wrap(red, rdt, dev)
        if name == "sum":
            rfill = xp.multiply(fill0, n_red)
            if not fill_is_identity:
                out = xp.add(out, xp.multiply(fill0, _missing(segs, n_red, rdt, dev)))
        else:
            rfill = xp.pow(fill0, n_red)
            if not fill_is_identity:
                out = xp.multiply(out, xp.pow(fill0, _missing(segs, n_red, rdt, dev)))
        return _result(x, segs, rdt, out, to_scalar(rfill))

    func.__name__ = func.__qualname__ = name
    return func


# --- floating-point products --------------------------------------------------
# A product is computed as (mantissa, binary exponent) pairs: every factor is
# split with frexp (|mantissa| in [0.5, 1), or 0, inf, NaN), the exponents are
# summed as numbers, and the mantissas are multiplied in chunks of at most
# _CHUNK, each chunk's product split again.  Nothing overflows or underflows
# before the single ldexp at the end, so the result is the product of all the
# factors, stored and fill alike, rounded once to the result: 0 when a factor
# is 0 (NaN if another is inf or NaN, as IEEE 754 says), inf or 0 only where
# the product itself overflows or underflows.  (Multiplying the stored product
# by ``fill ** missing`` instead gave 0 * inf = NaN for a zero fill beside
# large values.)
_CHUNK = 512  # |mantissa| >= 0.5: a chunk's product is >= 2**-512, normal


def _split(nx: Any, v: Any) -> tuple[Any, Any]:
    """``(m, e)`` with ``v == m * 2**e`` elementwise: ``|m|`` in [0.5, 1) (or
    0, inf, NaN, where ``e`` is 0); ``e`` as float64 (exact integers)."""
    if v.dtype.kind == "c":
        _, e = nx.frexp(nx.abs(v))
        m = nx.empty_like(v)
        m.real = nx.ldexp(v.real, -e)
        m.imag = nx.ldexp(v.imag, -e)
    else:
        m, e = nx.frexp(v)
    return m, e.astype(nx.float64)


def _ldexp(nx: Any, m: Any, e: Any) -> Any:
    """``m * 2**e`` rounded once (``e`` float64; beyond +-20000 every result
    is 0 or inf already)."""
    ei = nx.clip(e, -20000, 20000).astype(nx.int32)
    if m.dtype.kind == "c":
        out = nx.empty_like(m)
        out.real = nx.ldexp(m.real, ei)
        out.imag = nx.ldexp(m.imag, ei)
        return out
    return nx.ldexp(m, ei)


def _run_products(k: Any, seg: Any, m: Any, e: Any) -> tuple[Any, Any, Any, Any]:
    """Products of the split factors ``(m, e)`` over the runs of equal values
    of the sorted, non-empty ``seg``: ``(segment ids, counts, m, e)``."""
    nx = k.nx
    starts = k.group_starts(seg)
    n = seg.shape[0]
    ends = nx.concatenate((starts[1:], nx.asarray([n], dtype=nx.int64)))
    useg = seg[starts]
    cnt = ends - starts
    while True:
        n = seg.shape[0]
        starts = k.group_starts(seg)
        ends = nx.concatenate((starts[1:], nx.asarray([n], dtype=nx.int64)))
        pos = k.arange(n) - k.repeat(starts, ends - starts)
        cstarts = nx.flatnonzero(pos % _CHUNK == 0)
        pm = k.reduce_sorted("multiply", cstarts, m)
        pe = k.reduce_sorted("add", cstarts, e)
        m, e2 = _split(nx, pm)
        e = pe + e2
        if cstarts.shape[0] == starts.shape[0]:
            return useg, cnt, m, e
        seg = seg[cstarts]  # several chunks in some run: multiply those


def _pow_split(nx: Any, fill: Any, counts: Any, adt: Any) -> tuple[Any, Any]:
    """``fill ** counts`` (``counts`` a native int64 array) split as ``(m, e)``,
    by binary powering of the split fill (no overflow on the way)."""
    fm, fe = _split(nx, nx.asarray([fill], dtype=adt))
    base_m = fm[0]
    base_e = 0.0
    res_m = nx.ones(counts.shape, dtype=adt)
    res_e = fe[0] * counts.astype(nx.float64)
    c = counts.copy()
    while bool((c > 0).any()):
        odd = (c & 1) == 1
        res_m = nx.where(odd, res_m * base_m, res_m)
        res_m, e2 = _split(nx, res_m)
        res_e = res_e + e2 + nx.where(odd, base_e, 0.0)
        sq_m, sq_e = _split(nx, nx.asarray([base_m * base_m], dtype=adt))
        base_m = sq_m[0]
        base_e = 2 * base_e + float(sq_e[0])
        c >>= 1
    return res_m, res_e


def _float_prod(x: Any, axes: tuple[int, ...], keepdims: bool, rdt: Any) -> Any:
    """``prod`` of a COO with a floating-point result (see the notes above)."""
    dev = x.device
    k = x._store.ent.k
    nx = k.nx
    complex_result = rdt._kind == "complex floating"
    adt = nx.complex128 if complex_result else nx.float64
    fill = x.fill_value
    n_red = _size(tuple(x.shape[a] for a in axes))
    with _quiet(nx):
        if len(axes) == x.ndim:
            _, data = x._unsorted()
            n = int(data.shape[0])
            count = nx.asarray([n_red - n], dtype=nx.int64)
            fm, fe = _pow_split(nx, fill, count, adt)
            if n:
                m, e = _split(nx, data.astype(adt))
                _, _, m, e = _run_products(k, k.nx.zeros(n, dtype=nx.int64), m, e)
                fm, fe = fm * m, fe + e
            res = _cast(_ldexp(nx, fm, fe).reshape(()), rdt, dev)
            return _full_shape(x, res, keepdims)
        segs = _Segments(x, axes, keepdims)
        rfm, rfe = _pow_split(nx, fill, nx.asarray([n_red], dtype=nx.int64), adt)
        rfill = _cast(_ldexp(nx, rfm, rfe), rdt, dev)
        rfill_scalar = to_scalar(xp.reshape(rfill, ()))
        if segs.n == 0:
            segs.useg = k.empty_index()
            return _result(x, segs, rdt, rfill[:0], rfill_scalar)
        m, e = _split(nx, segs.data.astype(adt))
        seg = segs.seg
        if not segs.sorted:
            seg, perm = k.sort_perm(seg, builtins.max(segs.nseg - 1, 0))
            m, e = m[perm], e[perm]
        segs.useg, cnt, m, e = _run_products(k, seg, m, e)
        fm, fe = _pow_split(nx, fill, n_red - cnt, adt)
        res = _cast(_ldexp(nx, m * fm, e + fe), rdt, dev)
        return _result(x, segs, rdt, res, rfill_scalar)


def _cast(native: Any, rdt: Any, dev: Any) -> Array:
    """A float64/complex128 native array as an Array of ``rdt`` (ocean_array_api's
    conversion: float16 included)."""
    src = _dt.complex128 if native.dtype.kind == "c" else _dt.float64
    return xp.astype(wrap(native, src, dev), rdt)


def _quiet(nx: Any) -> Any:
    """NumPy's floating-point warnings off (overflow and 0 * inf are results
    here, not accidents); nothing on other modules."""
    import contextlib

    import numpy as np

    return np.errstate(all="ignore") if nx is np else contextlib.nullcontext()


_sum = _accumulating("sum")
sum = _sum  # noqa: A001
prod = _accumulating("prod")
_sum.__doc__ = """Sum of the elements of ``x`` over ``axis`` (COO or dense ``x``).

For a COO, a reduction over some axes is a COO; over every axis, a dense 0-d
array.  Result dtypes as ``ocean_array_api.sum``.

Examples
--------
>>> import ocean_array_api as xp
>>> from ocean_ext import sparse
>>> s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [2.0, 3.0]]))
>>> sparse.sum(s, axis=0).todense()
Array([3., 3.], dtype=float64)
>>> sparse.sum(s)
Array(6., dtype=float64)
"""
prod.__doc__ = """Product of the elements of ``x`` over ``axis`` (COO or dense ``x``).

Result dtypes as ``ocean_array_api.prod``.

Notes
-----
A floating-point product is computed from the binary mantissas and exponents
of its factors (stored values and fill values alike) and rounded once, so no
partial product overflows or underflows: a zero factor gives 0 (NaN with an
infinite or NaN factor, as IEEE 754 says), and the result is inf or 0 only
where the exact product is out of range.  Dense ``prod`` multiplies in its own
order, so where one of *its* partial products overflows or underflows (a zero
after 2**1100, huge and tiny factors) it can give inf, 0 or NaN for a product
that is finite; this function then gives the exact product instead.  Complex
products with infinite factors depend on the order in dense and sparse alike.

Examples
--------
>>> import ocean_array_api as xp
>>> from ocean_ext import sparse
>>> s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [2.0, 3.0]]))
>>> sparse.prod(s, axis=1).todense()
Array([0., 6.], dtype=float64)
"""


def _extremum(name: str) -> Callable[..., Any]:
    f = getattr(xp, name)
    op = "maximum" if name == "max" else "minimum"
    combine = xp.maximum if name == "max" else xp.minimum
    where = f"{name}()"

    def func(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        if not _is_coo(x):
            return f(x, axis=axis, keepdims=keepdims)
        _check_keepdims(keepdims, where)
        axes = _axes(x, axis, where)
        dev = x.device
        dt = x.dtype
        f(xp.zeros((1,), dtype=dt, device=dev))  # the dtype checks of the standard's
        n_red = _size(tuple(x.shape[a] for a in axes))
        n_out = _size(tuple(x.shape[d] for d in range(x.ndim) if d not in axes))
        if n_red == 0 and n_out != 0:
            msg = (
                f"{where}: the {'maximum' if name == 'max' else 'minimum'} of zero "
                f"elements is undefined (x has shape {x.shape}, axis={axis})"
            )
            raise ValueError(msg)
        fill0 = fill_array(x.fill_value, dt, dev)
        if len(axes) == x.ndim:
            _, data = x._unsorted()
            n = int(data.shape[0])
            if n == 0:
                res = fill0
            else:
                res = f(wrap(data, dt, dev))
                if n < n_red:
                    res = combine(res, fill0)
            return _full_shape(x, res, keepdims)
        segs = _Segments(x, axes, keepdims)
        native = dt._native
        if dt._kind == "real floating":  # float16 too
            init = float("-inf") if name == "max" else float("inf")
        elif dt is _dt.bool:
            init = name != "max"
        else:
            import numpy as np

            info = np.iinfo(native)
            init = int(info.min if name == "max" else info.max)
        red = wrap(segs.reduce(op, segs.data, init, True), dt, dev)
        missing = xp.greater(wrap_index(n_red - segs.cnt, dev), 0)
        out = xp.where(missing, combine(red, fill0), red)
        return _result(x, segs, dt, out, x.fill_value)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"""{"Maximum" if name == "max" else "Minimum"} of the elements of ``x`` over ``axis`` (COO or dense ``x``).

Examples
--------
>>> import ocean_array_api as xp
>>> from ocean_ext import sparse
>>> s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [-2.0, 3.0]]))
>>> sparse.{name}(s, axis=1).todense()
Array([{"1., 3." if name == "max" else " 0., -2."}], dtype=float64)
"""
    return func


max = _extremum("max")  # noqa: A001
min = _extremum("min")  # noqa: A001


def mean(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    """Arithmetic mean of the elements of ``x`` over ``axis`` (COO or dense ``x``).

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [2.0, 4.0]]))
    >>> sparse.mean(s, axis=1).todense()
    Array([0.5, 3. ], dtype=float64)
    """
    where = "mean()"
    if not _is_coo(x):
        return xp.mean(x, axis=axis, keepdims=keepdims)
    if x.dtype._kind not in ("real floating", "complex floating"):
        msg = f"{where}: `x` must have a floating-point dtype, got {x.dtype}; use astype(x, float64) first"
        raise TypeError(msg)
    if proxy_of(x.dtype) is not x.dtype:
        # float16: in float32, rounded once (as dense mean)
        from ._manipulation import astype

        res = mean(astype(x, proxy_of(x.dtype)), axis=axis, keepdims=keepdims)
        return astype(res, x.dtype)
    _check_keepdims(keepdims, where)
    axes = _axes(x, axis, where)
    n_red = _size(tuple(x.shape[a] for a in axes))
    total = _sum(x, axis=axis, keepdims=keepdims)
    if n_red == 0:
        nan = xp.asarray(float("nan"), dtype=x.dtype, device=x.device)
        if _is_coo(total):
            return _map_fill(total, nan)
        return xp.full(total.shape, float("nan"), dtype=x.dtype, device=x.device)
    if _is_coo(total):
        from ._elementwise import divide

        return divide(total, n_red)
    return total / n_red


def _map_fill(s: Any, value: Array) -> Any:
    from ._coo import COO

    ent = s._mat()
    empty = Entries(
        ent.shape, ent.dtype, ent.device, ent.data[:0], keys=ent.keys[:0], k=ent.k
    )
    return COO._from_entries(empty, to_scalar(value))


def _logical(name: str) -> Callable[..., Any]:
    f = getattr(xp, name)
    where = f"{name}()"

    def func(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
        if not _is_coo(x):
            return f(x, axis=axis, keepdims=keepdims)
        _check_keepdims(keepdims, where)
        axes = _axes(x, axis, where)
        dev = x.device
        n_red = _size(tuple(x.shape[a] for a in axes))
        fill_true = bool(x.fill_value)
        if len(axes) == x.ndim:
            _, data = x._unsorted()
            n = int(data.shape[0])
            truthy = xp.astype(wrap(data, x.dtype, dev), _dt.bool)
            n_true = int(xp.sum(xp.astype(truthy, _dt.int64)))
            if name == "any":
                res = n_true > 0 or (fill_true and n_red > n)
            else:
                res = n_true == n and (fill_true or n_red == n)
            return _full_shape(x, xp.asarray(res, device=dev), keepdims)
        segs = _Segments(x, axes, keepdims)
        k = x._store.ent.k
        nx = k.nx
        truthy = xp.astype(wrap(segs.data, x.dtype, dev), _dt.bool)._data
        segs.reduce("add", nx.ones(segs.n, dtype=nx.int64), 0, True)
        n_true = segs.counts(truthy)
        cnt = segs.cnt
        if name == "any":
            cell = (n_true > 0) | (fill_true & (cnt < n_red))
            rfill = fill_true and n_red > 0
        else:
            cell = (n_true == cnt) & (fill_true | (cnt == n_red))
            rfill = fill_true or n_red == 0
        return _result(x, segs, _dt.bool, wrap(cell, _dt.bool, dev), rfill)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"""Whether {"any" if name == "any" else "every"} element of ``x`` over ``axis`` is true (COO or dense ``x``).

Examples
--------
>>> import ocean_array_api as xp
>>> from ocean_ext import sparse
>>> s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [2.0, 3.0]]))
>>> sparse.{name}(s, axis=1).todense()
Array([{" True,  True" if name == "any" else "False,  True"}], dtype=bool)
"""
    return func


all = _logical("all")  # noqa: A001
any = _logical("any")  # noqa: A001


def count_nonzero(x: Any, /, *, axis: Any = None, keepdims: bool = False) -> Any:
    """Number of nonzero elements of ``x`` over ``axis`` (COO or dense ``x``).

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [2.0, 3.0]]))
    >>> sparse.count_nonzero(s)
    Array(3, dtype=int64)
    """
    if not _is_coo(x):
        return xp.count_nonzero(x, axis=axis, keepdims=keepdims)
    from ._elementwise import not_equal

    _check_keepdims(keepdims, "count_nonzero()")
    _axes(x, axis, "count_nonzero()")

    # the zero of x's kind: a Python int does not combine with a bool array
    zero = False if x.dtype == _dt.bool else 0
    return _sum(
        _map_dtype(not_equal(x, zero), _dt.int64),
        axis=axis,
        dtype=_dt.int64,
        keepdims=keepdims,
    )


def _map_dtype(s: Any, dt: Any) -> Any:
    from ._manipulation import astype

    return astype(s, dt)


def nonzero(x: Any, /) -> tuple[Array, ...]:
    """The indices of the nonzero elements of ``x``, one array per axis, in
    row-major order (COO or dense ``x``).

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([[0.0, 5.0], [7.0, 0.0]]))
    >>> sparse.nonzero(s)
    (Array([0, 1], dtype=int64), Array([1, 0], dtype=int64))
    """
    if not _is_coo(x):
        return xp.nonzero(x)
    from ._elementwise import not_equal

    if x.ndim == 0:
        msg = "nonzero(): `x` must have at least one dimension"
        raise ValueError(msg)
    mask = not_equal(x, 0)
    if mask.fill_value:
        # most elements are nonzero: as dense
        return xp.nonzero(mask.todense())
    coords = mask._mat().coords
    dev = x.device
    return tuple(wrap_index(coords[d].copy(), dev) for d in range(x.ndim))
