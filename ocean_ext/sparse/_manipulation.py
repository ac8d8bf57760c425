"""Shape manipulation of COO arrays.

Views (sharing storage, writes go through): ``permute_dims``,
``matrix_transpose``, ``expand_dims``, ``squeeze``, ``flip``.  New arrays:
``reshape`` (the linear keys do not change, so it costs no sort),
``broadcast_to``, ``concat``, ``stack``, ``astype``.  Dense operands go to
``ocean_array_api``'s function of the same name.
"""

from __future__ import annotations

from typing import Any

import ocean_array_api as xp
from ocean_array_api._dtypes import check_dtype_arg
from ocean_array_api._helpers import normalize_axes, normalize_axis

from . import _indexing as _ix
from ._common import (
    as_index,
    check_data_dtype,
    fill_array,
    fill_scalar,
    prod,
    row_major_strides,
)
from ._elementwise import to_scalar
from ._setitem import broadcast_entries
from ._store import Entries, check_size, from_keys, keys_from_coords, prune

__all__ = [
    "astype",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "matrix_transpose",
    "moveaxis",
    "permute_dims",
    "reshape",
    "squeeze",
    "stack",
    "unstack",
]


def _is_coo(x: Any) -> bool:
    from ._coo import COO

    return isinstance(x, COO)


def permute_dims(x: Any, /, axes: tuple[int, ...]) -> Any:
    """Permute the axes of ``x``: a view for a COO.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.reshape(xp.arange(6.0), (1, 2, 3)))
    >>> sparse.permute_dims(s, (2, 0, 1)).shape
    (3, 1, 2)
    """
    if not _is_coo(x):
        return xp.permute_dims(x, axes)
    where = "permute_dims()"
    nd = x.ndim
    if not isinstance(axes, (tuple, list)):
        msg = f"{where}: `axes` must be a tuple of ints, got {type(axes).__name__}"
        raise TypeError(msg)
    norm = tuple(
        normalize_axis(as_index(a, where, "axes"), nd, where, "axes") for a in axes
    )
    if len(norm) != nd or len(set(norm)) != nd:
        msg = f"{where}: `axes` must be a permutation of the {nd} axes of x, got {tuple(axes)}"
        raise ValueError(msg)
    return x._view(_ix.permute(x._map_or_identity(), norm))


def moveaxis(x: Any, source: Any, destination: Any, /) -> Any:
    """Move axes to new positions: a view for a COO.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.zeros((2, 3, 4)))
    >>> sparse.moveaxis(s, 0, -1).shape
    (3, 4, 2)
    """
    if not _is_coo(x):
        return xp.moveaxis(x, source, destination)
    where = "moveaxis()"
    nd = x.ndim
    src = source if isinstance(source, tuple) else (source,)
    dst = destination if isinstance(destination, tuple) else (destination,)
    if len(src) != len(dst):
        msg = f"{where}: `source` and `destination` must have the same number of axes"
        raise ValueError(msg)
    s = [normalize_axis(as_index(a, where, "source"), nd, where, "source") for a in src]
    d = [
        normalize_axis(as_index(a, where, "destination"), nd, where, "destination")
        for a in dst
    ]
    if len(set(s)) != len(s) or len(set(d)) != len(d):
        msg = f"{where}: repeated axes in `source` or `destination`"
        raise ValueError(msg)
    order = [a for a in range(nd) if a not in s]
    for dest, a in sorted(zip(d, s, strict=True)):
        order.insert(dest, a)
    return permute_dims(x, tuple(order))


def unstack(x: Any, /, *, axis: int = 0) -> tuple[Any, ...]:
    """The slices of ``x`` along ``axis``: views for a COO."""
    if not _is_coo(x):
        return xp.unstack(x, axis=axis)
    ax = normalize_axis(axis, x.ndim, "unstack()")
    keys = [(slice(None),) * ax + (i,) for i in range(x.shape[ax])]
    return tuple(x[key] for key in keys)


def matrix_transpose(x: Any, /) -> Any:
    """Transpose of the last two axes (a view for a COO; ``x.mT``)."""
    if not _is_coo(x):
        return xp.matrix_transpose(x)
    return x.mT


def expand_dims(x: Any, /, axis: int | tuple[int, ...] = 0) -> Any:
    """Insert size-1 axes at ``axis`` (positions in the result): a view for a COO."""
    if not _is_coo(x):
        return xp.expand_dims(x, axis=axis)
    where = "expand_dims()"
    items = axis if isinstance(axis, tuple) else (axis,)
    m = x.ndim + len(items)
    norm = normalize_axes(tuple(as_index(a, where, "axis") for a in items), m, where)
    assert norm is not None
    key: list[Any] = []
    src = 0
    for d in range(m):
        if d in norm:
            key.append(None)
        else:
            key.append(slice(None))
            src += 1
    return x[tuple(key)]


def squeeze(x: Any, /, axis: int | tuple[int, ...]) -> Any:
    """Remove the size-1 axes ``axis``: a view for a COO."""
    if not _is_coo(x):
        return xp.squeeze(x, axis=axis)
    where = "squeeze()"
    shape = x.shape
    norm = normalize_axes(axis, len(shape), where)
    if norm is None:
        msg = f"{where}: `axis` must be an int or a tuple of ints, got None"
        raise TypeError(msg)
    for a in norm:
        if shape[a] != 1:
            msg = f"{where}: cannot squeeze axis {a} of size {shape[a]} (x has shape {shape})"
            raise ValueError(msg)
    return x[tuple(0 if d in norm else slice(None) for d in range(len(shape)))]


def flip(x: Any, /, *, axis: int | tuple[int, ...] | None = None) -> Any:
    """Reverse the order of the elements along ``axis``: a view for a COO."""
    if not _is_coo(x):
        return xp.flip(x, axis=axis)
    nd = x.ndim
    norm = normalize_axes(axis, nd, "flip()")
    axes = range(nd) if norm is None else norm
    return x[
        tuple(slice(None, None, -1) if d in axes else slice(None) for d in range(nd))
    ]


def reshape(x: Any, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Any:
    """``x`` with a new shape (one size may be -1): a new COO for a COO.

    A COO cannot be reshaped as a view: ``copy=False`` raises ValueError
    unless the shape does not change.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([[0, 1], [2, 0]]))
    >>> sparse.reshape(s, (4,)).todense()
    Array([0, 1, 2, 0], dtype=int64)
    """
    if not _is_coo(x):
        return xp.reshape(x, shape, copy=copy)
    where = "reshape()"
    if copy is not None and copy is not True and copy is not False:
        msg = f"{where}: `copy` must be True, False or None, got {copy!r}"
        raise TypeError(msg)
    items = (shape,) if not isinstance(shape, (tuple, list)) else tuple(shape)
    new = tuple(as_index(n, where, "shape") for n in items)
    size = x.size
    if new.count(-1) > 1 or any(n < -1 for n in new):
        msg = f"{where}: invalid shape {new}"
        raise ValueError(msg)
    if -1 in new:
        known = prod(tuple(n for n in new if n != -1))
        if known == 0 or size % known:
            msg = (
                f"{where}: cannot reshape an array of shape {x.shape} into shape {new}"
            )
            raise ValueError(msg)
        new = tuple(size // known if n == -1 else n for n in new)
    if prod(new) != size:
        msg = f"{where}: cannot reshape an array of shape {x.shape} (size {size}) into shape {new}"
        raise ValueError(msg)
    if new == x.shape and copy is not True:
        return x
    if copy is False:
        msg = f"{where}: a sparse array cannot be reshaped without a copy (copy=False)"
        raise ValueError(msg)
    from ._coo import COO

    ent = x._mat()
    # row-major linear keys are the same in any shape of the same size; the
    # values are copied (a new array owns its memory: set_readonly of one
    # must not reach the other)
    out = Entries(new, ent.dtype, ent.device, ent.data.copy(), keys=ent.keys, k=ent.k)
    return COO._from_entries(out, x.fill_value)


def broadcast_to(x: Any, /, shape: tuple[int, ...]) -> Any:
    """``x`` broadcast to ``shape``: a new COO (entries repeat) for a COO."""
    if not _is_coo(x):
        return xp.broadcast_to(x, shape)
    from ._coo import COO

    where = "broadcast_to()"
    shape = tuple(as_index(n, where, "shape") for n in _shape_items(shape, where))
    if shape == x.shape:
        return x.copy()
    ent = broadcast_entries(x._mat(), shape, x.fill_value, where)
    return COO._from_entries(ent, x.fill_value)


def astype(x: Any, dtype: Any, /, *, copy: bool = True, device: Any = None) -> Any:
    """``x`` with its values (and fill value) converted to ``dtype``.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([0.0, 1.5]))
    >>> sparse.astype(s, xp.int32).todense()
    Array([0, 1], dtype=int32)
    """
    if not _is_coo(x):
        return xp.astype(x, dtype, copy=copy, device=device)
    from ._coo import COO

    where = "astype()"
    dt = check_dtype_arg(dtype, where)
    check_data_dtype(dt, where, "dtype")
    if device is not None:
        x = x.to_device(device)
    if dt is x.dtype and not copy:
        return x
    ent = x._mat()
    data = xp.astype(ent.values(), dt)
    fill = fill_scalar(
        to_scalar(xp.astype(fill_array(x.fill_value, x.dtype, x.device), dt)), dt, where
    )
    out = Entries(
        ent.shape,
        dt,
        ent.device,
        data._data,
        keys=ent._keys,
        coords=ent._coords,
        k=ent.k,
    )
    return COO._from_entries(prune(out, fill), fill)


def _shape_items(shape: Any, where: str) -> tuple[Any, ...]:
    if isinstance(shape, (tuple, list)):
        return tuple(shape)
    if hasattr(type(shape), "__index__") and not isinstance(shape, bool):
        return (shape,)
    msg = f"{where}: `shape` must be a tuple of ints, got {type(shape).__name__}"
    raise TypeError(msg)


def _array_list(arrays: Any, where: str) -> list[Any]:
    """``arrays`` as a list, each a COO or an ocean_array_api array."""
    from ._common import Array

    if not isinstance(arrays, (tuple, list)):
        msg = (
            f"{where}: `arrays` must be a tuple or list of arrays, got "
            f"{type(arrays).__name__}"
        )
        raise TypeError(msg)
    for i, a in enumerate(arrays):
        if not (_is_coo(a) or a.__class__ is Array):
            msg = (
                f"{where}: `arrays[{i}]` must be a COO or an ocean_array_api array, "
                f"got {type(a).__name__}"
            )
            raise TypeError(msg)
    return list(arrays)


def _check_same(arrays: list[Any], where: str) -> None:
    dev = arrays[0].device
    for a in arrays[1:]:
        if a.device is not dev:
            msg = (
                f"{where}: the arrays are on different devices ({dev!r}, {a.device!r})"
            )
            raise ValueError(msg)


def concat(arrays: tuple[Any, ...] | list[Any], /, *, axis: int | None = 0) -> Any:
    """Join arrays along an existing axis: a COO when every input is a COO
    with the same fill value, else dense.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> a = sparse.COO.from_dense(xp.asarray([0.0, 1.0]))
    >>> sparse.concat([a, a]).todense()
    Array([0., 1., 0., 1.], dtype=float64)
    """
    where = "concat()"
    arrays = _array_list(arrays, where)
    if not arrays:
        msg = f"{where}: needs at least one array"
        raise ValueError(msg)
    if not any(_is_coo(a) for a in arrays):
        return xp.concat(arrays, axis=axis)
    fills = {a.fill_value for a in arrays if _is_coo(a)}
    if not all(_is_coo(a) for a in arrays) or len(fills) != 1:
        return xp.concat([a.todense() if _is_coo(a) else a for a in arrays], axis=axis)
    from ._coo import COO

    _check_same(arrays, where)
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        msg = f"{where}: 0-dimensional arrays cannot be concatenated"
        raise ValueError(msg)
    ax = normalize_axis(axis, nd, where)
    shape0 = arrays[0].shape
    for a in arrays[1:]:
        s = a.shape
        if len(s) != nd or any(s[d] != shape0[d] for d in range(nd) if d != ax):
            msg = f"{where}: shapes {shape0} and {s} differ outside axis {ax}"
            raise ValueError(msg)
    dt = arrays[0].dtype
    for a in arrays[1:]:
        dt = xp.result_type(dt, a.dtype)
    out_shape = (*shape0[:ax], sum(a.shape[ax] for a in arrays), *shape0[ax + 1 :])
    check_size(out_shape, where)
    ents = [a._mat() for a in arrays]
    k = ents[0].k
    nx = k.nx
    parts_k = []
    parts_d = []
    off = 0
    strides = row_major_strides(out_shape)
    for a, e in zip(arrays, ents, strict=True):
        c = e.coords
        if off:
            c = c.copy()
            c[ax] += off
        parts_k.append(keys_from_coords(k, c, strides))
        parts_d.append(xp.astype(e.values(), dt)._data)
        off += a.shape[ax]
    keys = nx.concatenate(parts_k)
    data = nx.concatenate(parts_d)
    fill = fill_scalar(fills.pop(), dt, where)
    ent = from_keys(out_shape, dt, arrays[0].device, keys, data, fill, k=k)
    return COO._from_entries(ent, fill)


def stack(arrays: tuple[Any, ...] | list[Any], /, *, axis: int = 0) -> Any:
    """Join arrays along a new axis (see :func:`concat` for the result type)."""
    arrays = _array_list(arrays, "stack()")
    if not any(_is_coo(a) for a in arrays):
        return xp.stack(arrays, axis=axis)
    if not arrays:
        msg = "stack(): needs at least one array"
        raise ValueError(msg)
    nd = arrays[0].ndim + 1
    ax = normalize_axis(axis, nd, "stack()")
    for a in arrays[1:]:
        if a.shape != arrays[0].shape:
            msg = f"stack(): all arrays must have the same shape, got {arrays[0].shape} and {a.shape}"
            raise ValueError(msg)
    return concat([expand_dims(a, axis=ax) for a in arrays], axis=ax)
