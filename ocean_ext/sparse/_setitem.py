"""Writes through views (``s[key] = value``) and advanced-index reads.

A write computes the new entries of the written region in base coordinates,
removes the base entries inside the region, and merges the two sorted key
lists; the store then holds a new snapshot (its old arrays are never modified,
so the value may be a view of the very array written: ``s[1:] = s[:-1]``
reads before it writes).
"""

from __future__ import annotations

from typing import Any

import ocean_array_api as xp

from . import _indexing as _ix
from ._common import Array, fill_array, is_fill, prod, row_major_strides, wrap
from ._store import (
    Entries,
    Store,
    check_size,
    coords_from_keys,
    from_keys,
    keys_from_coords,
)

__all__ = ["advanced_getitem", "broadcast_entries", "write"]


# --- broadcasting ---------------------------------------------------------------
def broadcast_shapes(
    s1: tuple[int, ...], s2: tuple[int, ...], where: str
) -> tuple[int, ...]:
    n = max(len(s1), len(s2))
    a = (1,) * (n - len(s1)) + s1
    b = (1,) * (n - len(s2)) + s2
    out = []
    for x, y in zip(a, b, strict=True):
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            msg = f"{where}: shapes {s1} and {s2} cannot be broadcast together"
            raise ValueError(msg)
    return tuple(out)


def broadcast_entries(
    ent: Entries, shape: tuple[int, ...], fill: Any, where: str
) -> Entries:
    """The canonical entries of ``ent`` broadcast to ``shape`` (entries repeat)."""
    src = ent.shape
    if src == shape:
        return ent
    if broadcast_shapes(src, shape, where) != shape:
        msg = f"{where}: cannot broadcast shape {src} to {shape}"
        raise ValueError(msg)
    check_size(shape, where)
    k = ent.k
    nx = k.nx
    nd = len(shape)
    pad = nd - len(src)
    full_src = (1,) * pad + src
    grow = [d for d in range(nd) if full_src[d] == 1 and shape[d] != 1]
    reps = prod(tuple(shape[d] for d in grow))
    n = ent.nnz
    if reps == 0 or n == 0:
        return Entries(
            shape, ent.dtype, ent.device, ent.data[:0], keys=k.empty_index(), k=k
        )
    c = ent.coords
    coords = nx.zeros((nd, n * reps), dtype=nx.int64)
    eid = k.arange(n * reps) // reps
    r = k.arange(n * reps) % reps
    for d in range(len(src)):
        coords[pad + d] = c[d][eid]
    gshape = tuple(shape[d] for d in grow)
    gc = coords_from_keys(k, r, gshape)
    for i, d in enumerate(grow):
        coords[d] = gc[i]
    keys = keys_from_coords(k, coords, row_major_strides(shape))
    return from_keys(shape, ent.dtype, ent.device, keys, ent.data[eid], fill, k=k)


# --- value checks ---------------------------------------------------------------
def _check_value_dtype(vdt: Any, dt: Any, where: str) -> None:
    if vdt is not dt and _promotes_to(vdt, dt) is not dt:
        msg = (
            f"{where}: a value of dtype {vdt} cannot be written into an array of "
            f"dtype {dt}; convert it with astype() first"
        )
        raise TypeError(msg)


def _scalar_value(value: Any, store: Store, where: str) -> Any:
    """A Python scalar ``value`` checked against the store's dtype."""
    from ocean_array_api._elementwise_functions import check_scalar

    return check_scalar(value, store.dtype, where, "value", allow_complex_upcast=False)


def _promotes_to(vdt: Any, dt: Any) -> Any:
    """The promoted dtype of ``vdt`` and ``dt`` (ocean_ext's dtypes included),
    None where they do not promote."""
    try:
        return xp.result_type(vdt, dt)
    except TypeError:
        return None


# --- merging ----------------------------------------------------------------------
def _merge(nx: Any, k_a: Any, d_a: Any, k_b: Any, d_b: Any) -> tuple[Any, Any]:
    """Merge two sorted, disjoint key lists with their data."""
    n = k_a.shape[0]
    m = k_b.shape[0]
    if m == 0:
        return k_a, d_a
    if n == 0:
        return k_b, d_b
    pos = nx.searchsorted(k_a, k_b) + nx.arange(m, dtype=nx.int64)
    is_b = nx.zeros(n + m, dtype=bool)
    is_b[pos] = True
    keys = nx.empty(n + m, dtype=nx.int64)
    data = nx.empty(n + m, dtype=d_a.dtype)
    keys[pos] = k_b
    data[pos] = d_b
    rest = ~is_b
    keys[rest] = k_a
    data[rest] = d_a
    return keys, data


def _replace(
    store: Store, sel: Any, lo: int, hi: int, new_keys: Any, new_data: Any
) -> None:
    """Remove the entries ``sel`` (positions inside ``[lo, hi)``), insert the new
    ones (sorted keys, all inside the key range of positions ``lo:hi``)."""
    ent = store.ent
    k = ent.k
    nx = k.nx
    keys = ent.keys
    data = ent.data
    if sel.__class__ is slice:
        mid_k, mid_d = new_keys, new_data
    else:
        keep = nx.ones(hi - lo, dtype=bool)
        keep[sel - lo] = False
        mid_k, mid_d = _merge(
            nx, keys[lo:hi][keep], data[lo:hi][keep], new_keys, new_data
        )
    out_k = nx.concatenate((keys[:lo], mid_k, keys[hi:]))
    out_d = nx.concatenate((data[:lo], mid_d.astype(data.dtype, copy=False), data[hi:]))
    store.replace(Entries(ent.shape, ent.dtype, ent.device, out_d, keys=out_k, k=k))


def _base_keys_of_view_coords(k: Any, m: _ix.Map, vcoords: Any) -> Any:
    """Base keys of positions given in view coordinates (rows of ``vcoords``)."""
    nx = k.nx
    strides = row_major_strides(m.base_shape)
    const = sum(i * strides[d] for d, i in m.fixed)
    n = vcoords.shape[1]
    keys = nx.full(n, const, dtype=nx.int64)
    for j, (bd, start, step, _) in enumerate(m.dims):
        if bd < 0:
            continue
        keys += (start + vcoords[j] * step) * strides[bd]
    return keys


# --- writes -------------------------------------------------------------------------
def write(store: Store, m: _ix.Map, adv: Any, value: Any, where: str) -> None:
    """``view[key] = value`` where ``m`` is the map of the basic part of the key."""
    from ._coo import COO

    dt = store.dtype
    dev = store.device
    fill = store.fill
    k = store.ent.k
    nx = k.nx
    if isinstance(value, COO):
        if value.device is not dev:
            msg = f"{where}: the value is on {value.device!r} and the array on {dev!r}; move one with to_device()"
            raise ValueError(msg)
        _check_value_dtype(value.dtype, dt, where)
        same_fill = value.fill_value == fill or (
            value.fill_value != value.fill_value and fill != fill
        )
        if adv is not None or not same_fill:
            value = value.todense()
    elif value.__class__ is not Array:
        value = _scalar_value(value, store, where)
    else:
        if value.device is not dev:
            msg = f"{where}: the value is on {dev!r} and the array on {value.device!r}; move one with to_device()"
            raise ValueError(msg)
        _check_value_dtype(value.dtype, dt, where)

    if adv is not None:
        _write_advanced(store, m, adv, value, where)
        return

    vshape = m.shape
    ent = store.ent
    sel = _ix.select(ent, m)
    if isinstance(value, COO):
        vent = broadcast_entries(value._mat(), vshape, fill, where)
        new_keys = _base_keys_of_view_coords(k, m, vent.coords)
        new_data = xp.astype(vent.values(), dt)._data
        if not m.order_preserving:
            new_keys, perm = k.sort_perm(new_keys, max(prod(m.base_shape) - 1, 0))
            new_data = new_data[perm]
    elif value.__class__ is Array:
        try:
            vb = xp.broadcast_to(value, vshape)
        except ValueError:
            msg = f"{where}: a value of shape {value.shape} cannot be broadcast to {vshape}"
            raise ValueError(msg) from None
        vb = xp.astype(vb, dt)
        keep = xp.logical_not(is_fill(vb, fill))._data
        grid = _ix.region_keys_grid(k, m)
        new_keys = grid[keep]
        new_data = vb._data[keep]
        if not m.order_preserving:
            new_keys, perm = k.sort_perm(new_keys, max(prod(m.base_shape) - 1, 0))
            new_data = new_data[perm]
    else:
        if value == fill or (value != value and fill != fill):
            new_keys = k.empty_index()
            new_data = nx.empty(0, dtype=dt._native)
        else:
            new_keys = _ix.region_keys_sorted(k, m)
            new_data = fill_array(value, dt, dev)._data
            new_data = nx.broadcast_to(new_data, (new_keys.shape[0],))
    if sel.__class__ is slice:
        lo, hi = int(sel.start), int(sel.stop)
    else:
        # the region's key range: entries in it but outside the region stay
        lo_key, hi_key, _, _ = _ix._lead(m)
        lo, hi = (
            int(v) for v in nx.searchsorted(ent.keys, nx.asarray([lo_key, hi_key]))
        )
    _replace(store, sel, lo, hi, new_keys, new_data)


def _advanced_grid(k: Any, m: _ix.Map, adv: Any) -> tuple[Any, tuple[int, ...]]:
    """Base keys of every position of ``view[adv]`` (view of map ``m``), as an
    array of the result's shape, and that shape."""
    nx = k.nx
    strides = row_major_strides(m.base_shape)
    const = sum(i * strides[d] for d, i in m.fixed)
    advd = [d for d, _ in adv.arrays]
    bshape = adv.bshape
    contiguous = advd == list(range(advd[0], advd[0] + len(advd)))
    rest = [j for j in range(len(m.dims)) if j not in advd]
    # advanced part: flat over bshape
    bkeys = nx.full(prod(bshape), const, dtype=nx.int64)
    for d, arr in adv.arrays:
        bd, start, step, _ = m.dims[d]
        if bd >= 0:
            bkeys = bkeys + (start + arr * step) * strides[bd]
    bkeys = bkeys.reshape(bshape)
    if contiguous:
        before = [j for j in rest if j < advd[0]]
        after = [j for j in rest if j > advd[0]]
    else:
        before, after = [], rest
    layout: list[Any] = (
        [("r", j) for j in before] + [("b",)] + [("r", j) for j in after]
    )
    shape: list[int] = []
    for item in layout:
        shape.extend(bshape if item[0] == "b" else (m.dims[item[1]][3],))
    nd = len(shape)
    grid = nx.zeros(tuple(shape), dtype=nx.int64)
    axis = 0
    for item in layout:
        if item[0] == "b":
            nb = len(bshape)
            grid = grid + bkeys.reshape((1,) * axis + bshape + (1,) * (nd - axis - nb))
            axis += nb
        else:
            bd, start, step, length = m.dims[item[1]]
            if bd >= 0:
                vals = (start + k.arange(length) * step) * strides[bd]
                grid = grid + vals.reshape((1,) * axis + (-1,) + (1,) * (nd - axis - 1))
            axis += 1
    return grid, tuple(shape)


def _write_advanced(store: Store, m: _ix.Map, adv: Any, value: Any, where: str) -> None:
    ent = store.ent
    k = ent.k
    nx = k.nx
    dt = store.dtype
    fill = store.fill
    grid, rshape = _advanced_grid(k, m, adv)
    tk = grid.reshape(-1)
    if value.__class__ is Array:
        try:
            vb = xp.broadcast_to(value, rshape)
        except ValueError:
            msg = f"{where}: a value of shape {value.shape} cannot be broadcast to {rshape}"
            raise ValueError(msg) from None
        vals = xp.reshape(xp.astype(vb, dt), (-1,))
    else:
        vals = xp.full((tk.shape[0],), value, dtype=dt, device=store.device)
    vd = vals._data
    # repeated positions: the last assignment wins (as NumPy does)
    sk, perm = k.sort_perm(tk, max(prod(m.base_shape) - 1, 0))
    n = sk.shape[0]
    if n:
        last = nx.ones(n, dtype=bool)
        last[:-1] = sk[1:] != sk[:-1]
        sk = sk[last]
        vd = vd[perm[last]]
    # remove existing entries at the written positions
    keys = ent.keys
    if ent.nnz and sk.shape[0]:
        pos = nx.searchsorted(keys, sk)
        inb = pos < ent.nnz
        hit = nx.zeros(sk.shape[0], dtype=bool)
        hit[inb] = keys[pos[inb]] == sk[inb]
        drop = nx.ones(ent.nnz, dtype=bool)
        drop[pos[hit]] = False
        kept_k, kept_d = keys[drop], ent.data[drop]
    else:
        kept_k, kept_d = keys, ent.data
    keep = xp.logical_not(is_fill(wrap(vd, dt, store.device), fill))._data
    new_k, new_d = _merge(nx, kept_k, kept_d, sk[keep], vd[keep])
    store.replace(Entries(ent.shape, dt, store.device, new_d, keys=new_k, k=k))


# --- advanced reads ------------------------------------------------------------
def advanced_getitem(view: Any, adv: Any) -> Any:
    """``view[adv]`` for the advanced part of a key: an independent COO."""
    from ._coo import COO

    ent = view._mat()
    k = ent.k
    nx = k.nx
    vshape = view.shape
    advd = [d for d, _ in adv.arrays]
    bshape = adv.bshape
    contiguous = advd == list(range(advd[0], advd[0] + len(advd)))
    rest = [j for j in range(len(vshape)) if j not in advd]
    sizes = tuple(vshape[d] for d in advd)
    sstr = row_major_strides(sizes)
    coords = ent.coords
    n = ent.nnz
    ek = nx.zeros(n, dtype=nx.int64)
    ik = nx.zeros(prod(bshape), dtype=nx.int64)
    for i, (d, arr) in enumerate(adv.arrays):
        ek = ek + coords[d] * sstr[i]
        ik = ik + arr * sstr[i]
    sek, order = k.sort_perm(ek, max(prod(sizes) - 1, 0))
    lo = nx.searchsorted(sek, ik, side="left")
    hi = nx.searchsorted(sek, ik, side="right")
    cnt = hi - lo
    p_rep = k.repeat(k.arange(ik.shape[0]), cnt)
    pos = order[k.expand_ranges(lo, cnt)]
    if contiguous:
        before = [j for j in rest if j < advd[0]]
        after = [j for j in rest if j > advd[0]]
    else:
        before, after = [], rest
    out_shape = (
        tuple(vshape[j] for j in before) + bshape + tuple(vshape[j] for j in after)
    )
    check_size(out_shape, "COO.__getitem__()")
    bc = coords_from_keys(k, p_rep, bshape)
    rows = [coords[j][pos] for j in before] + list(bc) + [coords[j][pos] for j in after]
    total = p_rep.shape[0]
    out = nx.empty((len(out_shape), total), dtype=nx.int64)
    for i, r in enumerate(rows):
        out[i] = r
    keys = keys_from_coords(k, out, row_major_strides(out_shape))
    res = from_keys(
        out_shape, ent.dtype, ent.device, keys, ent.data[pos], view.fill_value, k=k
    )
    return COO._from_entries(res, view.fill_value)
