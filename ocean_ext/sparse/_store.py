"""Canonical entries and the shared, growable store behind a COO and its views.

Canonical form
--------------
The entries of a sparse array are held as *linear keys* (the row-major flat
index of each stored element, ``int64``) sorted ascending and unique, and one
value per key.  No stored value equals the fill value: operations and writes
that produce the fill value drop the entry.  Coordinates, shape ``(ndim,
nnz)``, are derived from the keys on demand and cached (and vice versa when
an operation produces coordinates first).

An :class:`Entries` object is an immutable snapshot; caches derived from it
(coordinates, row pointers) live on it.  A :class:`Store` is the mutable part:
it holds the current snapshot, and a write replaces the snapshot and bumps the
store's version, so views recompute lazily, and arrays handed out earlier
(``s.coords``, ``s.data``) keep the values they had.
"""

from __future__ import annotations

from typing import Any

from ._common import (
    INT64_MAX,
    Array,
    Device,
    DType,
    is_fill,
    prod,
    row_major_strides,
    wrap,
)
from ._kernels import Kernels, kernels_for

__all__ = ["Entries", "Store", "check_size", "from_keys", "prune"]


def check_size(shape: tuple[int, ...], where: str) -> None:
    """Linear keys are int64: refuse shapes with more elements than that holds."""
    if prod(shape) > INT64_MAX:
        msg = (
            f"{where}: shape {shape} has more than 2**63 - 1 elements; sparse arrays "
            f"index their entries with int64 linear keys"
        )
        raise ValueError(msg)


class Entries:
    """An immutable snapshot of canonical entries (see the module docstring).

    ``keys`` and ``coords`` are computed from one another on first use.
    """

    __slots__ = (
        "_coords",
        "_coords_src",
        "_keys",
        "_rowptr",
        "data",
        "device",
        "dtype",
        "k",
        "shape",
        "strides",
    )

    def __init__(
        self,
        shape: tuple[int, ...],
        dtype: DType,
        device: Device,
        data: Any,
        *,
        keys: Any = None,
        coords: Any = None,
        k: Kernels | None = None,
    ) -> None:
        self.shape = shape
        self.strides = row_major_strides(shape)
        self.dtype = dtype
        self.device = device
        self.k = k if k is not None else kernels_for(device)
        self.data = data
        self._keys = keys
        self._coords = coords
        # an alternative way to the coordinates (a view's: from its base's)
        self._coords_src: Any = None
        self._rowptr: Any = None

    @property
    def nnz(self) -> int:
        return int(self.data.shape[0])

    @property
    def keys(self) -> Any:
        if self._keys is None:
            self._keys = keys_from_coords(self.k, self.coords, self.strides)
        return self._keys

    @property
    def coords(self) -> Any:
        if self._coords is None:
            src = self._coords_src
            if src is not None:
                self._coords = src()
                self._coords_src = None
            else:
                self._coords = coords_from_keys(self.k, self._keys, self.shape)
        return self._coords

    def rowptr(self) -> Any:
        """CSR-like pointer over axis 0: entries of row ``i`` are
        ``rowptr[i]:rowptr[i + 1]`` (cached)."""
        if self._rowptr is None:
            nx = self.k.nx
            n0 = self.shape[0]
            counts = self.k.counts(self.coords[0], n0)
            ptr = nx.zeros(n0 + 1, dtype=nx.int64)
            nx.cumsum(counts, out=ptr[1:])
            self._rowptr = ptr
        return self._rowptr

    def values(self) -> Array:
        """The data as an Array."""
        return wrap(self.data, self.dtype, self.device)

    def take(self, idx: Any) -> Entries:
        """The entries at positions ``idx`` (ascending), same shape."""
        c = self._coords
        return Entries(
            self.shape,
            self.dtype,
            self.device,
            self.data[idx],
            keys=self._keys[idx] if self._keys is not None else None,
            coords=c[:, idx] if c is not None else None,
            k=self.k,
        )


def keys_from_coords(k: Kernels, coords: Any, strides: tuple[int, ...]) -> Any:
    nx = k.nx
    nd = coords.shape[0]
    if nd == 0:
        return nx.zeros(coords.shape[1], dtype=nx.int64)
    keys = coords[nd - 1].astype(nx.int64, copy=True)
    for d in range(nd - 1):
        if strides[d]:
            keys += coords[d] * strides[d]
    return keys


def coords_from_keys(k: Kernels, keys: Any, shape: tuple[int, ...]) -> Any:
    nx = k.nx
    nd = len(shape)
    n = keys.shape[0]
    out = nx.empty((nd, n), dtype=nx.int64)
    if nd == 0:
        return out
    rest = keys
    for d in range(nd - 1, 0, -1):
        size = shape[d]
        if size == 1:
            out[d] = 0
            continue
        q, r = nx.divmod(rest, size)
        out[d] = r
        rest = q
    out[0] = rest
    return out


def prune(ent: Entries, fill: Any) -> Entries:
    """``ent`` without the entries whose value equals ``fill``."""
    if ent.nnz == 0:
        return ent
    mask = is_fill(ent.values(), fill)._data
    if not bool(mask.any()):
        return ent
    keep = ent.k.nx.flatnonzero(~mask)
    return ent.take(keep)


def from_keys(
    shape: tuple[int, ...],
    dtype: DType,
    device: Device,
    keys: Any,
    data: Any,
    fill: Any,
    *,
    coords: Any = None,
    sorted_unique: bool = False,
    k: Kernels | None = None,
) -> Entries:
    """Canonical entries from (possibly unsorted, repeated) keys and data.

    Repeated keys are summed (in the data's dtype; ``or`` for booleans), then
    entries equal to ``fill`` are dropped.  ``coords``, when given, are the
    coordinates matching ``keys``.
    """
    k = k if k is not None else kernels_for(device)
    if not sorted_unique and not k.is_sorted(keys, strict=True):
        if k.is_sorted(keys, strict=False):
            sk, sdata = keys, data
        else:
            sk, perm = k.sort_perm(keys, max(prod(shape) - 1, 0))
            sdata = data[perm]
            coords = None
        starts = k.group_starts(sk)
        if starts.shape[0] != sk.shape[0]:
            sdata = k.reduce_sorted("add", starts, sdata)
            sk = sk[starts]
            coords = None
        keys, data = sk, sdata
    ent = Entries(shape, dtype, device, data, keys=keys, coords=coords, k=k)
    return prune(ent, fill)


class Store:
    """The mutable storage shared by a COO and all its views.

    ``ent`` is the current snapshot; ``version`` counts writes.  ``shape``,
    ``dtype``, ``device`` and ``fill`` never change.
    """

    __slots__ = (
        "__weakref__",
        "device",
        "dtype",
        "ent",
        "fill",
        "identity",
        "readonly",
        "shape",
        "version",
    )

    def __init__(self, ent: Entries, fill: Any) -> None:
        self.ent = ent
        self.shape = ent.shape
        self.dtype = ent.dtype
        self.device = ent.device
        self.fill = fill
        self.version = 0
        self.identity: Any = None  # the identity view map (indexing), made once
        # read-only regions: (region, weak reference to the array made read-only)
        self.readonly: list[tuple[Any, Any]] = []

    def replace(self, ent: Entries) -> None:
        """Install new entries (a write): views see them on their next use."""
        self.ent = ent
        self.version += 1
