"""Products with COO operands: matmul, tensordot, vecdot.

- COO @ dense and dense @ COO give dense arrays: each entry ``(.., i, j)``
  contributes ``value * b[.., j, :]`` to row ``i`` of the result, summed with
  a scatter-add over the entries (no sort, so transposed views cost nothing);
- COO @ COO gives a COO: each entry of the left operand is joined with the
  row of the right one it meets (a range search in its sorted keys), the
  products are expanded, and repeated output keys are summed.

Batched (n-d) operands broadcast as the standard says.  An operand whose fill
value is not zero is made dense first.  ``tensordot`` reduces to ``matmul``
by permuting and reshaping.
"""

from __future__ import annotations

from typing import Any

import ocean_array_api as xp
from ocean_array_api._linear_algebra_functions import _negative_axis

from ._common import (
    Array,
    as_index,
    check_result_dtype,
    is_numeric,
    prod,
    proxy_of,
    row_major_strides,
    wrap,
)
from ._setitem import broadcast_entries, broadcast_shapes
from ._store import check_size, from_keys

__all__ = ["matmul", "tensordot", "vecdot"]


def _is_coo(x: Any) -> bool:
    from ._coo import COO

    return isinstance(x, COO)


def _operand(x: Any, where: str, argname: str) -> None:
    if not (_is_coo(x) or x.__class__ is Array):
        msg = f"{where}: `{argname}` must be a COO or an ocean_array_api array, got {type(x).__name__}"
        raise TypeError(msg)
    if not is_numeric(x.dtype):
        msg = f"{where}: `{argname}` must have a numeric dtype, got {x.dtype}"
        raise TypeError(msg)


def matmul(x1: Any, x2: Any, /) -> Any:
    """Matrix product with COO or dense operands (``@``).

    COO @ COO gives a COO; a product with a dense operand gives a dense array.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [0.0, 2.0]]))
    >>> s @ xp.asarray([3.0, 4.0])
    Array([3., 8.], dtype=float64)
    >>> (s @ s).todense()
    Array([[1., 0.],
           [0., 4.]], dtype=float64)
    """
    where = "matmul()"
    c1 = _is_coo(x1)
    c2 = _is_coo(x2)
    if not c1 and not c2:
        return xp.matmul(x1, x2)
    _operand(x1, where, "x1")
    _operand(x2, where, "x2")
    if x1.device is not x2.device:
        msg = f"{where}: `x1` is on {x1.device!r} and `x2` on {x2.device!r}; move one with to_device()"
        raise ValueError(msg)
    rdt = xp.result_type(x1.dtype, x2.dtype)
    if x1.ndim == 0 or x2.ndim == 0:
        msg = f"{where}: operands must have at least one dimension"
        raise ValueError(msg)
    if proxy_of(rdt) is not rdt:
        # ocean_ext's dtypes compute in their proxy and round once, as the
        # dense matmul does (float16 sums would round at every step)
        from ._manipulation import astype

        res = matmul(astype(x1, proxy_of(rdt)), astype(x2, proxy_of(rdt)))
        if _is_coo(res):
            check_result_dtype(rdt, where)
        return astype(res, rdt)
    if c1 and x1.fill_value != 0:
        x1, c1 = x1.todense(), False
    if c2 and x2.fill_value != 0:
        x2, c2 = x2.todense(), False
    if not c1 and not c2:
        return xp.matmul(x1, x2)
    k1 = x1.shape[-1]
    k2 = x2.shape[0] if x2.ndim == 1 else x2.shape[-2]
    if k1 != k2:
        msg = f"{where}: shapes {x1.shape} and {x2.shape} do not align ({k1} != {k2})"
        raise ValueError(msg)
    if c1 and c2:
        return _spgemm(x1, x2, rdt, where)
    if c1:
        return _sparse_dense(x1, x2, rdt, where)
    # dense @ sparse = (sparse^T @ dense^T)^T
    if x1.ndim == 1:
        return _sparse_dense(_t(x2), x1, rdt, where)
    res = _sparse_dense(_t(x2), xp.matrix_transpose(x1), rdt, where)
    return res if x2.ndim == 1 else xp.matrix_transpose(res)


def _t(s: Any) -> Any:
    return s if s.ndim == 1 else s.mT


def _sparse_dense(a: Any, b: Array, rdt: Any, where: str) -> Array:
    """COO ``a`` @ dense ``b`` (matmul's shape rules)."""
    dev = a.device
    k = a._store.ent.k
    nx = k.nx
    a1 = a.ndim == 1
    b1 = b.ndim == 1
    if a1:
        a = a[None, :]
    bb = b._data
    if b1:
        bb = bb[:, None]
    n, kk = a.shape[-2:]
    m = bb.shape[-1]
    batch = broadcast_shapes(a.shape[:-2], tuple(bb.shape[:-2]), where)
    out_shape = (*batch, n, m)
    if a.shape[:-2] != batch:
        from ._coo import COO

        a = COO._from_entries(
            broadcast_entries(a._mat(), (*batch, n, kk), 0, where), a.fill_value
        )
    coords, data = a._unsorted()
    vals = xp.astype(wrap(data, a.dtype, dev), rdt, copy=False)._data
    bb = xp.astype(wrap(bb, b.dtype, dev), rdt, copy=False)._data
    nb = len(batch)
    rows = coords[nb]
    cols = coords[nb + 1]
    if nb:
        bb = nx.broadcast_to(bb, (*batch, kk, m))
        index = (*(coords[d] for d in range(nb)), cols)
        gathered = bb[index]
        bstr = row_major_strides(batch)
        blin = nx.zeros(rows.shape[0], dtype=nx.int64)
        for d in range(nb):
            blin = blin + coords[d] * bstr[d]
        rows = blin * n + rows
        if m == 1:
            gathered = gathered[:, 0]
    elif m == 1:
        gathered = bb[:, 0].take(cols)  # a matrix-vector product
    else:
        gathered = bb[cols]
    # one temporary: the gathered operand, multiplied in place
    if m == 1:
        gathered *= vals
    else:
        gathered *= vals[:, None]
    out = nx.zeros(
        (prod(batch) * n, m) if m != 1 else (prod(batch) * n,), dtype=rdt._native
    )
    k.scatter("add", out, rows, gathered)
    res = out.reshape(out_shape)
    if a1:
        res = res[..., 0, :]
    if b1:
        res = res[..., 0]
    if res.ndim and not res.flags.c_contiguous:
        res = nx.ascontiguousarray(res)
    return wrap(res, rdt, dev)


def _spgemm(a: Any, b: Any, rdt: Any, where: str) -> Any:
    """COO ``a`` @ COO ``b``: a COO."""
    from ._coo import COO

    dev = a.device
    k = a._store.ent.k
    nx = k.nx
    a1 = a.ndim == 1
    b1 = b.ndim == 1
    if a1:
        a = a[None, :]
    if b1:
        b = b[:, None]
    n, kk = a.shape[-2:]
    m = b.shape[-1]
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2], where)
    out_shape = (*batch, n, m)
    check_size(out_shape, where)
    ea = a._mat()
    eb = b._mat()
    if ea.shape[:-2] != batch:
        ea = broadcast_entries(ea, (*batch, n, kk), 0, where)
    if eb.shape[:-2] != batch:
        eb = broadcast_entries(eb, (*batch, kk, m), 0, where)
    nb = len(batch)
    ca = ea.coords
    # rows of b (batch, j) in b's canonical order: its keys // m, ascending
    brow = eb.keys // m if m else eb.keys
    blin = nx.zeros(ea.nnz, dtype=nx.int64)
    bstr = row_major_strides(batch)
    for d in range(nb):
        blin = blin + ca[d] * bstr[d]
    join = blin * kk + ca[nb + 1]
    lo = nx.searchsorted(brow, join, side="left")
    hi = nx.searchsorted(brow, join, side="right")
    cnt = hi - lo
    arep = k.repeat(k.arange(ea.nnz), cnt)
    bpos = k.expand_ranges(lo, cnt)
    va = xp.astype(wrap(ea.data[arep], a.dtype, dev), rdt)
    vb = xp.astype(wrap(eb.data[bpos], b.dtype, dev), rdt)
    vals = xp.multiply(va, vb)._data
    cols = eb.keys[bpos] % m if m else eb.keys[bpos]
    keys = ((blin[arep] * n) + ca[nb][arep]) * m + cols
    ent = from_keys(out_shape, rdt, dev, keys, vals, 0, k=k)
    res = COO._from_entries(ent, 0)
    if a1 and b1:
        return res[..., 0, 0]
    if a1:
        return res[..., 0, :]
    if b1:
        return res[..., 0]
    return res


def _axes_arg(axes: Any, nd1: int, nd2: int, where: str) -> tuple[list[int], list[int]]:
    if (
        isinstance(axes, (tuple, list))
        and len(axes) == 2
        and all(isinstance(a, (tuple, list)) for a in axes)
    ):
        a1 = [as_index(v, where, "axes") for v in axes[0]]
        a2 = [as_index(v, where, "axes") for v in axes[1]]
        if len(a1) != len(a2):
            msg = f"{where}: `axes` must name as many axes of x1 as of x2, got {axes}"
            raise ValueError(msg)
        for i, v in enumerate(a1):
            if not -nd1 <= v < nd1:
                msg = f"{where}: axis {v} is out of bounds for x1 of {nd1} dimension(s)"
                raise IndexError(msg)
            a1[i] = v % nd1 if nd1 else v
        for i, v in enumerate(a2):
            if not -nd2 <= v < nd2:
                msg = f"{where}: axis {v} is out of bounds for x2 of {nd2} dimension(s)"
                raise IndexError(msg)
            a2[i] = v % nd2 if nd2 else v
        return a1, a2
    n = as_index(axes, where, "axes")
    if n < 0 or n > nd1 or n > nd2:
        msg = f"{where}: `axes` {n} must be between 0 and the smaller number of dimensions"
        raise ValueError(msg)
    return list(range(nd1 - n, nd1)), list(range(n))


def _perm(x: Any, axes: list[int]) -> Any:
    from ._manipulation import permute_dims

    return permute_dims(x, tuple(axes)) if axes != list(range(len(axes))) else x


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Any:
    """Tensor contraction over ``axes`` with COO or dense operands.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [0.0, 2.0]]))
    >>> sparse.tensordot(s, xp.asarray([1.0, 1.0]), axes=([1], [0]))
    Array([1., 2.], dtype=float64)
    """
    from ._manipulation import reshape

    where = "tensordot()"
    if not _is_coo(x1) and not _is_coo(x2):
        return xp.tensordot(x1, x2, axes=axes)
    _operand(x1, where, "x1")
    _operand(x2, where, "x2")
    nd1, nd2 = x1.ndim, x2.ndim
    ax1, ax2 = _axes_arg(axes, nd1, nd2, where)
    for i, j in zip(ax1, ax2, strict=True):
        if x1.shape[i] != x2.shape[j]:
            msg = f"{where}: contracted axes {i} of x1 and {j} of x2 differ in size ({x1.shape[i]} != {x2.shape[j]})"
            raise ValueError(msg)
    free1 = [d for d in range(nd1) if d not in ax1]
    free2 = [d for d in range(nd2) if d not in ax2]
    s1 = tuple(x1.shape[d] for d in free1)
    s2 = tuple(x2.shape[d] for d in free2)
    kk = prod(tuple(x1.shape[d] for d in ax1))
    a = reshape(_perm(x1, free1 + ax1), (prod(s1), kk))
    b = reshape(_perm(x2, ax2 + free2), (kk, prod(s2)))
    return reshape(matmul(a, b), s1 + s2)


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Any:
    """Dot product of vectors along ``axis`` (``sum(conj(x1) * x2, axis=axis)``)."""
    from ._elementwise import conj, multiply
    from ._reductions import sum as _sum

    where = "vecdot()"
    if not _is_coo(x1) and not _is_coo(x2):
        return xp.vecdot(x1, x2, axis=axis)
    _operand(x1, where, "x1")
    _operand(x2, where, "x2")
    if x1.device is not x2.device:
        msg = f"{where}: `x1` is on {x1.device!r} and `x2` on {x2.device!r}; move one with to_device()"
        raise ValueError(msg)
    xp.result_type(x1.dtype, x2.dtype)  # TypeError for dtypes that do not promote
    s1, s2 = x1.shape, x2.shape
    n = min(len(s1), len(s2))
    if n == 0:
        msg = f"{where}: operands must have at least one dimension, got shapes {s1} and {s2}"
        raise ValueError(msg)
    # the standard's rule, as ocean_array_api.vecdot: a negative axis, counted
    # from the last axis, within the smaller number of dimensions
    axis = _negative_axis(axis, n, where)
    if s1[axis] != s2[axis]:
        msg = (
            f"{where}: the contracted axis {axis} must have the same size in both "
            f"arrays (it is not broadcast), got shapes {s1} and {s2}"
        )
        raise ValueError(msg)
    rest1 = s1[:axis] + s1[axis:][1:]
    rest2 = s2[:axis] + s2[axis:][1:]
    broadcast_shapes(rest1, rest2, where)
    rdt = xp.result_type(x1.dtype, x2.dtype)
    if proxy_of(rdt) is not rdt:  # in the proxy, rounded once (as dense)
        from ._manipulation import astype

        res = vecdot(astype(x1, proxy_of(rdt)), astype(x2, proxy_of(rdt)), axis=axis)
        if _is_coo(res):
            check_result_dtype(rdt, where)
        return astype(res, rdt)
    a = conj(x1) if x1.dtype._kind == "complex floating" else x1
    return _sum(multiply(a, x2), axis=axis)
