"""Views as affine maps onto a base store, and indexing keys.

A view of a base array of shape ``B`` is a :class:`Map`:

- ``fixed``: base dimensions indexed by an integer, as ``(base_dim, index)``;
- ``dims``: one entry per dimension of the view, ``(base_dim, start, step,
  length)``: view coordinate ``t`` is base coordinate ``start + t * step`` of
  ``base_dim``; ``base_dim == -1`` is a new axis (length 0 or 1).

Every base dimension is either fixed or appears once in ``dims``, in any order
(a transpose is a permutation of ``dims``).  Indexing a view composes maps, so
a view of a view is again one map onto the base.

Selecting the entries of a view from the base's sorted keys costs one
``searchsorted`` for the leading fixed/ranged dimensions, then a vectorised
mask over the candidate range for the others; the result is a slice of the
base entries (no copy) or an index array.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from ocean_array_api import _dtypes as _dt

from ._common import Array, prod, row_major_strides
from ._kernels import kernels_for
from ._store import Entries, check_size

__all__ = [
    "Map",
    "compose",
    "identity_map",
    "parse_key",
    "permute",
    "region",
    "region_keys_grid",
    "region_keys_sorted",
    "extent_within",
    "region_within",
    "regions_meet",
    "select",
    "view_entries",
    "view_unsorted",
]

Dim = tuple[int, int, int, int]


class Map:
    """An affine view map (see the module docstring).  Immutable."""

    __slots__ = (
        "_lead",
        "base_shape",
        "covers_all",
        "dims",
        "fixed",
        "order_preserving",
        "shape",
    )

    def __init__(
        self,
        base_shape: tuple[int, ...],
        fixed: tuple[tuple[int, int], ...],
        dims: tuple[Dim, ...],
    ) -> None:
        self.base_shape = base_shape
        self.fixed = fixed
        self.dims = dims
        self.shape = tuple(d[3] for d in dims)
        last = -1
        preserving = True
        covers = not fixed
        for bd, _start, step, length in dims:
            if length == 0:
                covers = False
            if bd < 0:
                continue
            if bd < last or (step < 0 and length > 1):
                preserving = False
            last = bd
            n = base_shape[bd]
            if length != n or (length > 1 and abs(step) != 1):
                covers = False
        self.order_preserving = preserving
        self.covers_all = covers
        self._lead: tuple[int, int, int, int] | None = None

    def __repr__(self) -> str:
        return f"Map(fixed={self.fixed}, dims={self.dims})"


def identity_map(shape: tuple[int, ...]) -> Map:
    return Map(shape, (), tuple((d, 0, 1, n) for d, n in enumerate(shape)))


# --- keys ----------------------------------------------------------------------
class Advanced:
    """The advanced part of a key, applied after its basic part.

    ``arrays``: ``(view_dim, native int64 index array)`` for each advanced
    dimension of the intermediate view (masks already turned into integer
    arrays, negative indices normalised, bounds checked), all broadcast to
    ``bshape``.
    """

    __slots__ = ("arrays", "bshape")

    def __init__(self, arrays: list[tuple[int, Any]], bshape: tuple[int, ...]) -> None:
        self.arrays = arrays
        self.bshape = bshape


def _slice_bound(v: Any, where: str) -> int | None:
    if v is None or v.__class__ is int:
        return v if v is None else int(v)
    if isinstance(v, bool) or not hasattr(type(v), "__index__"):
        msg = f"{where}: slice bounds must be ints or None, got {v!r}"
        raise IndexError(msg)
    return operator.index(v)


def _int_index(item: Any) -> int | None:
    if item.__class__ is int:
        return int(item)
    if (
        item.__class__ is not bool
        and hasattr(type(item), "__index__")
        and not hasattr(item, "shape")
    ):
        return operator.index(item)
    return None


def parse_key(
    key: Any, shape: tuple[int, ...], device: Any, where: str
) -> tuple[list[Any], Advanced | None]:
    """Validate ``key`` for an array of ``shape``.

    Returns the basic items, one per dimension consumed or created, each
    ``int``, ``slice`` (normalised bounds) or ``None`` (new axis), with ``...``
    expanded; and the advanced part (or None).  With an advanced part, the
    basic items hold ``slice(None)`` at the advanced dimensions.
    """
    from ._coo import COO

    nx = kernels_for(device).nx
    items = list(key) if key.__class__ is tuple else [key]
    ndim = len(shape)
    parsed: list[Any] = []  # ints, slices, None, Ellipsis, ("arr", native, dims)
    consumed = 0
    ellipsis = False
    has_array = False
    for item in items:
        if item is None:
            parsed.append(None)
            continue
        if item is Ellipsis:
            if ellipsis:
                msg = f"{where}: an index can only have a single ellipsis ('...')"
                raise IndexError(msg)
            ellipsis = True
            parsed.append(Ellipsis)
            continue
        if item.__class__ is slice:
            s = slice(
                _slice_bound(item.start, where),
                _slice_bound(item.stop, where),
                _slice_bound(item.step, where),
            )
            if s.step == 0:
                msg = f"{where}: slice step cannot be zero"
                raise ValueError(msg)
            parsed.append(s)
            consumed += 1
            continue
        i = _int_index(item)
        if i is not None:
            parsed.append(i)
            consumed += 1
            continue
        if isinstance(item, COO):
            if item.dtype is not _dt.bool:
                msg = f"{where}: a sparse index must be a boolean mask, got dtype {item.dtype}"
                raise IndexError(msg)
            item = item.todense()
        if item.__class__ is Array:
            if item.device is not device:
                msg = (
                    f"{where}: the index is on {item.device!r} and the array on "
                    f"{device!r}; move one with to_device()"
                )
                raise ValueError(msg)
            if item.dtype is _dt.bool:
                nd = item.ndim
                if nd == 0:
                    msg = f"{where}: 0-d boolean indices are not supported by sparse arrays"
                    raise IndexError(msg)
                parsed.append(("mask", item._data, nd))
                consumed += nd
            elif item.dtype in _dt._integer:
                parsed.append(("int", item._data, 1))
                consumed += 1
            else:
                msg = f"{where}: array indices must have an integer or boolean dtype, got {item.dtype}"
                raise IndexError(msg)
            has_array = True
            continue
        msg = (
            f"{where}: {type(item).__name__} is not a valid index; use ints, slices, "
            f"..., None, integer arrays or a boolean array of ocean_array_api"
        )
        raise IndexError(msg)
    if consumed > ndim:
        msg = f"{where}: too many indices ({consumed}) for an array of {ndim} dimension(s)"
        raise IndexError(msg)
    # expand the ellipsis (or append it at the end)
    if Ellipsis not in parsed:
        parsed.append(Ellipsis)
    pos = parsed.index(Ellipsis)
    parsed[pos : pos + 1] = [slice(None)] * (ndim - consumed)

    basic: list[Any] = []
    adv_items: list[tuple[int, Any]] = []  # (view dim, native array or int)
    axis = 0  # dimension of the array consumed next
    vdim = 0  # dimension of the intermediate (basic-indexed) view
    for item in parsed:
        if item is None:
            basic.append(None)
            vdim += 1
        elif item.__class__ is slice:
            basic.append(slice(*item.indices(shape[axis])))
            axis += 1
            vdim += 1
        elif item.__class__ is int:
            size = shape[axis]
            if not -size <= item < size:
                msg = f"{where}: index {item} is out of bounds for axis {axis} with size {size}"
                raise IndexError(msg)
            item = item + size if item < 0 else item
            if has_array:
                # NumPy: next to an array index, an int is an advanced index
                basic.append(slice(0, size, 1))
                adv_items.append((vdim, item))
                vdim += 1
            else:
                basic.append(item)
            axis += 1
        else:
            kind, native, nd = item
            if kind == "mask":
                mshape = native.shape
                for j in range(nd):
                    if mshape[j] != shape[axis + j]:
                        msg = (
                            f"{where}: boolean index has size {mshape[j]} in dimension "
                            f"{j}, the array has {shape[axis + j]}"
                        )
                        raise IndexError(msg)
                for j, ind in enumerate(native.nonzero()):
                    basic.append(slice(0, shape[axis + j], 1))
                    adv_items.append((vdim, ind))
                    vdim += 1
                axis += nd
            else:
                size = shape[axis]
                basic.append(slice(0, size, 1))
                adv_items.append((vdim, _check_indices(nx, native, size, axis, where)))
                vdim += 1
                axis += 1
    if not has_array:
        return basic, None
    return basic, _broadcast_advanced(adv_items, nx, where)


def _check_indices(mod: Any, native: Any, size: int, axis: int, where: str) -> Any:
    """Integer indices as int64, negative ones wrapped, bounds checked."""
    ind = native.astype(mod.int64) if native.dtype != mod.int64 else native
    if ind.size:
        lo = int(ind.min())
        hi = int(ind.max())
        if lo < -size or hi >= size:
            bad = lo if lo < -size else hi
            msg = f"{where}: index {bad} is out of bounds for axis {axis} with size {size}"
            raise IndexError(msg)
        if lo < 0:
            ind = mod.where(ind < 0, ind + size, ind)
    return ind


def _broadcast_advanced(items: list[tuple[int, Any]], nx: Any, where: str) -> Advanced:
    natives = [nx.asarray(v, dtype=nx.int64) for _, v in items]
    try:
        bshape = tuple(np.broadcast_shapes(*(a.shape for a in natives)))
    except ValueError:
        shapes = ", ".join(str(a.shape) for a in natives)
        msg = f"{where}: index arrays of shapes {shapes} cannot be broadcast together"
        raise IndexError(msg) from None
    arrays = [
        (d, nx.broadcast_to(a, bshape).reshape(-1))
        for (d, _), a in zip(items, natives, strict=True)
    ]
    return Advanced(arrays, bshape)


# --- composing maps ---------------------------------------------------------------
def compose(m: Map, basic: list[Any]) -> Map:
    """The map of ``view[basic]`` for a view with map ``m`` (items from parse_key)."""
    fixed = list(m.fixed)
    dims: list[Dim] = []
    j = 0
    for item in basic:
        if item is None:
            dims.append((-1, 0, 1, 1))
            continue
        bd, start, step, _ = m.dims[j]
        j += 1
        if item.__class__ is int:
            if bd >= 0:
                fixed.append((bd, start + item * step))
            continue
        a, b, c = item.start, item.stop, item.step
        n = len(range(a, b, c))
        if bd < 0:
            dims.append((-1, 0, 1, n))
        elif n <= 1:
            dims.append((bd, start + a * step if n else start, 1, n))
        else:
            dims.append((bd, start + a * step, step * c, n))
    dims.extend(m.dims[j:])
    fixed.sort()
    return Map(m.base_shape, tuple(fixed), tuple(dims))


def permute(m: Map, axes: tuple[int, ...]) -> Map:
    return Map(m.base_shape, m.fixed, tuple(m.dims[a] for a in axes))


# --- selecting entries -----------------------------------------------------------
def _lead(m: Map) -> tuple[int, int, int, int]:
    """``(lo_key, hi_key, lead_dim, n_checks)``: the key range holding the view's
    entries, the first non-fixed base dimension (-1 if none) and whether other
    dimensions still need checking (cached on the map)."""
    lead = m._lead
    if lead is None:
        lead = m._lead = _compute_lead(m)
    return lead


def _compute_lead(m: Map) -> tuple[int, int, int, int]:
    base_shape = m.base_shape
    strides = row_major_strides(base_shape)
    fixed = dict(m.fixed)
    ranges = {d[0]: d for d in m.dims if d[0] >= 0}
    prefix = 0
    for d in range(len(base_shape)):
        if d in fixed:
            prefix += fixed[d] * strides[d]
            continue
        _, start, step, length = ranges[d]
        lo_c = start if step > 0 else start + step * (length - 1)
        hi_c = lo_c + abs(step) * (length - 1) + 1
        checks = 1 if (length > 1 and abs(step) != 1) else 0
        for e in range(d + 1, len(base_shape)):
            if e in fixed:
                checks += 1
            else:
                _, _, st2, l2 = ranges[e]
                if l2 != base_shape[e] or (l2 > 1 and abs(st2) != 1):
                    checks += 1
        return prefix + lo_c * strides[d], prefix + hi_c * strides[d], d, checks
    return prefix, prefix + 1, -1, 0


def select(ent: Entries, m: Map) -> Any:
    """Positions of the base entries inside view ``m``: a slice or an index array."""
    n = ent.nnz
    if m.covers_all:
        return slice(0, n)
    if 0 in m.shape or n == 0:
        return slice(0, 0)
    lo_key, hi_key, lead, checks = _lead(m)
    k = ent.k
    nx = k.nx
    if lo_key == 0 and hi_key >= prod(m.base_shape):
        lo, hi = 0, n
    else:
        lo, hi = (
            int(v) for v in nx.searchsorted(ent.keys, nx.asarray([lo_key, hi_key]))
        )
    if not checks or lo == hi:
        return slice(lo, hi)
    coords = ent.coords
    fixed = dict(m.fixed)
    ranges = {d[0]: d for d in m.dims if d[0] >= 0}
    mask = None
    for d in range(lead, len(m.base_shape)):
        c = coords[d, lo:hi]
        if d in fixed:
            ok = c == fixed[d]
        else:
            _, start, step, length = ranges[d]
            if length == m.base_shape[d] and (length <= 1 or abs(step) == 1):
                continue
            if length <= 1 or abs(step) == 1:
                if d == lead:
                    continue  # the key range already bounds it
                lo_c = start if step > 0 else start + step * (length - 1)
                ok = (c >= lo_c) & (c < lo_c + length)
            else:
                off = c - start if step > 0 else start - c
                st = abs(step)
                ok = (off >= 0) & (off < st * length) & (off % st == 0)
        mask = ok if mask is None else mask & ok
    if mask is None:
        return slice(lo, hi)
    return nx.flatnonzero(mask) + lo


def _view_coords(ent: Entries, m: Map, sel: Any) -> Any:
    """View coordinates of the selected base entries (in base order)."""
    nx = ent.k.nx
    bc = ent.coords
    count = (
        len(range(*sel.indices(ent.nnz))) if sel.__class__ is slice else sel.shape[0]
    )
    out = nx.empty((len(m.dims), count), dtype=nx.int64)
    for j, (bd, start, step, _) in enumerate(m.dims):
        if bd < 0:
            out[j] = 0
            continue
        c = bc[bd, sel]
        if step == 1:
            if start:
                nx.subtract(c, start, out=out[j])
            else:
                out[j] = c
        elif step == -1:
            nx.subtract(start, c, out=out[j])
        elif step > 0:
            nx.floor_divide(c - start, step, out=out[j])
        else:
            nx.floor_divide(start - c, -step, out=out[j])
    return out


def view_unsorted(ent: Entries, m: Map) -> tuple[Any, Any]:
    """``(coords, data)`` of the view's entries in base order (not necessarily
    the view's canonical order): enough for reductions and products."""
    sel = select(ent, m)
    return _view_coords(ent, m, sel), ent.data[sel]


def view_entries(ent: Entries, m: Map) -> Entries:
    """The canonical entries of view ``m`` of base entries ``ent``."""
    sel = select(ent, m)
    shape = m.shape
    k = ent.k
    data = ent.data[sel]
    if m.order_preserving:
        if sel.__class__ is slice and ent._keys is not None:
            lo_key, _, lead, checks = _lead(m)
            lead_step = next((d[2] for d in m.dims if d[0] == lead), 1)
            if not checks and lead_step == 1:
                # a block of rows: the view's keys are the base keys, shifted;
                # its coordinates, if asked for, come from the base's (cached
                # there, so that the next view of this base finds them)
                keys = ent._keys[sel] - lo_key
                view = Entries(shape, ent.dtype, ent.device, data, keys=keys, k=k)
                view._coords_src = lambda: _view_coords(ent, m, sel)
                return view
        coords = _view_coords(ent, m, sel)
        return Entries(shape, ent.dtype, ent.device, data, coords=coords, k=k)
    coords = _view_coords(ent, m, sel)
    view = Entries(shape, ent.dtype, ent.device, data, coords=coords, k=k)
    keys = view.keys
    sk, perm = k.sort_perm(keys, max(prod(shape) - 1, 0))
    return Entries(shape, ent.dtype, ent.device, data[perm], keys=sk, k=k)


# --- regions for writes ----------------------------------------------------------
def _axis_values(k: Any, bd_start_step_len: Dim, stride: int) -> Any:
    _, start, step, length = bd_start_step_len
    return (start + k.arange(length) * step) * stride


def region_keys_sorted(k: Any, m: Map) -> Any:
    """Base keys of every position of view ``m``, ascending."""
    nx = k.nx
    strides = row_major_strides(m.base_shape)
    check_size(m.base_shape, "__setitem__()")
    const = sum(i * strides[d] for d, i in m.fixed)
    by_dim = sorted((d for d in m.dims if d[0] >= 0), key=lambda d: d[0])
    if any(d[3] == 0 for d in m.dims):
        return k.empty_index()
    acc = nx.asarray([const], dtype=nx.int64)
    for d in by_dim:
        vals = _axis_values(k, d, strides[d[0]])
        if d[2] < 0:
            vals = vals[::-1]
        acc = (acc[:, None] + vals[None, :]).reshape(-1)
    return acc


def region_keys_grid(k: Any, m: Map) -> Any:
    """Base keys of every position of view ``m``, as an array of the view's shape."""
    nx = k.nx
    strides = row_major_strides(m.base_shape)
    const = sum(i * strides[d] for d, i in m.fixed)
    nd = len(m.dims)
    grid = nx.full(m.shape, const, dtype=nx.int64) if nd else nx.asarray(const)
    for j, d in enumerate(m.dims):
        if d[0] < 0:
            continue
        vals = _axis_values(k, d, strides[d[0]])
        grid = grid + vals.reshape((1,) * j + (-1,) + (1,) * (nd - j - 1))
    return nx.ascontiguousarray(grid) if nd else grid


def region_size(m: Map) -> int:
    return prod(m.shape)


# --- regions (read-only) ---------------------------------------------------------
# The region of a map is the set of base positions its view reaches: per base
# dimension an arithmetic progression (first, step > 0, count >= 1), the
# Cartesian product over the dimensions.  Read-only regions (set_readonly of a
# view) are compared with them exactly, per dimension (Python ints: a loop over
# the dimensions, never over entries).
Progression = tuple[int, int, int]


def region(m: Map) -> tuple[Progression, ...] | None:
    """The per-base-dimension progressions of ``m``'s region, None if empty."""
    out: list[Progression] = [(0, 1, 0)] * len(m.base_shape)
    for bd, i in m.fixed:
        out[bd] = (i, 1, 1)
    for bd, start, step, length in m.dims:
        if length == 0:
            return None
        if bd < 0:
            continue
        if length == 1:
            out[bd] = (start, 1, 1)
        elif step > 0:
            out[bd] = (start, step, length)
        else:
            out[bd] = (start + (length - 1) * step, -step, length)
    return tuple(out)


def _member(v: int, p: Progression) -> bool:
    first, step, count = p
    return first <= v <= first + (count - 1) * step and (v - first) % step == 0


def _meet(a: Progression, b: Progression) -> bool:
    """Whether two progressions share an element (Chinese remainder theorem)."""
    a0, p, n = a
    b0, q, m = b
    lo = max(a0, b0)
    hi = min(a0 + (n - 1) * p, b0 + (m - 1) * q)
    if lo > hi:
        return False
    g = math.gcd(p, q)
    if (b0 - a0) % g:
        return False
    # x = a0 + p * t with p * t = b0 - a0 (mod q)
    qg = q // g
    t = ((b0 - a0) // g) * pow(p // g, -1, qg) % qg if qg > 1 else 0
    x = a0 + p * t
    lcm = p // g * q
    x += -((x - lo) // lcm) * lcm  # the smallest solution >= lo
    return x <= hi


def _within(a: Progression, b: Progression) -> bool:
    """Whether every element of ``a`` is in ``b``."""
    a0, p, n = a
    if n == 1:
        return _member(a0, b)
    return p % b[1] == 0 and _member(a0, b) and _member(a0 + (n - 1) * p, b)


def regions_meet(
    r1: tuple[Progression, ...] | None, r2: tuple[Progression, ...] | None
) -> bool:
    if r1 is None or r2 is None:
        return False
    return all(_meet(a, b) for a, b in zip(r1, r2, strict=True))


def extent_within(
    inner: tuple[Progression, ...] | None,
    outer: tuple[Progression, ...] | None,
    base_shape: tuple[int, ...],
) -> bool:
    """Whether the span of ``inner`` lies in that of ``outer``, each span
    running from its first to its last base position in C order: the rule
    dense arrays follow for memory (``set_readonly(x, False)`` releases the
    read-only regions whose byte span lies within the span of ``x``), with
    the base positions standing for the bytes."""
    if inner is None:
        return True
    if outer is None:
        return False

    def span(r: tuple[Progression, ...]) -> tuple[int, int]:
        lo = hi = 0
        for (first, step, count), n in zip(r, base_shape, strict=True):
            lo = lo * n + first
            hi = hi * n + first + (count - 1) * step
        return lo, hi

    (ilo, ihi), (olo, ohi) = span(inner), span(outer)
    return olo <= ilo and ihi <= ohi


def region_within(
    inner: tuple[Progression, ...] | None, outer: tuple[Progression, ...] | None
) -> bool:
    if inner is None:
        return True
    if outer is None:
        return False
    return all(_within(a, b) for a, b in zip(inner, outer, strict=True))
