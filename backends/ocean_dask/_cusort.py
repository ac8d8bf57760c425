"""``sort``, ``argsort``, ``unique_*`` and scatter order on CuPy chunks.

The NumPy chunks' algorithms (``_sort``) compare records of a structured
dtype, which CuPy does not have.  Here the elements travel as a tuple of
arrays per chunk (keys, original positions[, payload]) and are ordered by
(key, position) with two stable sorts of the CUDA table (``argsort``, which
puts NaNs last as the standard says): by position, then by key.  Along the
sorted axis the P chunks are made equal (the last filled up with elements
that sort after all others) and sorted as a block sorting network: each chunk
sorted, then Batcher's odd-even merge network with each comparator a
merge-split of two chunks (the sorted union, cut back into a lower and an
upper chunk).  A task holds two chunks at most and chunk sizes never change,
so the result's shape is known.

``unique_*`` sort the flattened values with their positions and mark where a
value differs from its predecessor (NaNs differ from everything).  Counts are
the distance from each group start to the next one; the next start after the
last group start of a chunk is the first start of a later chunk (a small
array, one element per chunk), so no task sees more than one chunk of the
data.  CuPy's ufuncs have no ``minimum.accumulate``: nothing here uses one.

Every chunk function captures its kernels while the graph is built (the
current GPU of ``_chunks``); none of it reads the current chunk kind when the
graph runs.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np

from . import _chunks

__all__ = [
    "argsort",
    "network",
    "sort",
    "sort_pairs",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]

_INDEX = np.dtype(np.int64)


def network(p: int) -> list[tuple[int, int]]:
    """Batcher's odd-even merge sorting network for ``p`` inputs, as a list
    of comparators (i, j), i < j, in an order that sorts.

    Built for the next power of two; comparators reaching an input >= p are
    left out, which is exact: the missing inputs stand for values larger
    than every other, which no comparator moves.
    """
    size = 1
    while size < p:
        size *= 2
    out: list[tuple[int, int]] = []

    def merge(first: int, length: int, stride: int) -> None:
        # merge the two sorted halves of the elements first, first + stride, ...
        # (``length`` elements of the current block, counted with stride 1)
        double = 2 * stride
        if double < length:
            merge(first, length, double)
            merge(first + stride, length, double)
            out.extend(
                (i, i + stride)
                for i in range(first + stride, first + length - stride, double)
            )
        else:
            out.append((first, first + stride))

    def sort_block(first: int, length: int) -> None:
        if length > 1:
            half = length // 2
            sort_block(first, half)
            sort_block(first + half, half)
            merge(first, length, 1)

    sort_block(0, size)
    return [(i, j) for i, j in out if j < p]


# --- chunk functions (built once per graph, with the GPU's kernels) ---------------
class _Kernels:
    """The CUDA kernels and array module the chunk functions use."""

    def __init__(self) -> None:
        g = _chunks.current()
        if g is None:  # pragma: no cover - the NumPy chunks use _sort
            msg = "ocean_dask._cusort: only for CuPy chunks"
            raise RuntimeError(msg)
        self.g = g
        self.xp = g.xp
        self.argsort = g.kernel("argsort")

    def order(self, keys: Any, pos: Any) -> Any:
        """The order that sorts the last axis by (key, position)."""
        xp = self.xp
        by_pos = self.argsort(pos, pos.ndim - 1, False, True)
        k = xp.take_along_axis(keys, by_pos, axis=-1)
        by_key = self.argsort(k, k.ndim - 1, False, True)
        return xp.take_along_axis(by_pos, by_key, axis=-1)

    def pack_sorted(self, *fields: Any) -> tuple[Any, ...]:
        if fields[0].shape[-1] < 2:
            return fields
        o = self.order(fields[0], fields[1])
        return tuple(self.xp.take_along_axis(f, o, axis=-1) for f in fields)

    def merge_split(
        self, a: tuple[Any, ...], b: tuple[Any, ...]
    ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        xp = self.xp
        both = [xp.concatenate([x, y], axis=-1) for x, y in zip(a, b, strict=True)]
        o = self.order(both[0], both[1])
        c = a[0].shape[-1]
        lo, hi = o[..., :c], o[..., c:]
        return (
            tuple(xp.take_along_axis(f, lo, axis=-1) for f in both),
            tuple(xp.take_along_axis(f, hi, axis=-1) for f in both),
        )


def _zeros(shape: tuple[int, ...], dtype: Any) -> Any:
    """Zeros of a small shape, in one chunk of the current GPU's."""
    kw = _chunks.creation_kw("zeros", shape, dtype, shape)
    return da.zeros(shape, dtype=dtype, chunks=shape, **kw)


def _largest(dtype: np.dtype) -> Any:
    """A key no other sorts after (ties then go by position)."""
    if dtype.kind == "f":
        return np.nan
    if dtype.kind == "c":
        return complex(np.nan, np.nan)
    if dtype.kind == "b":
        return True
    return np.iinfo(dtype).max


def _positions(x: Any) -> Any:
    """Positions along the last axis, broadcast to ``x`` (same chunks)."""
    n = x.shape[-1]
    pos = _chunks.arange(0, n, chunks=(x.chunks[-1],), dtype=_INDEX)
    return da.broadcast_to(pos, x.shape, chunks=x.chunks)


def _network_sort(fields: list[Any]) -> list[Any]:
    """``fields`` (keys, positions[, payload]: dask arrays of equal shape and
    chunks) sorted along the last axis by (key, position)."""
    k = _Kernels()
    n = fields[0].shape[-1]
    sizes = fields[0].chunks[-1]
    c = max(sizes) if sizes else 0
    if len(sizes) > 1 and any(s != c for s in sizes[:-1]):
        fields = [f.rechunk({-1: c}) for f in fields]
        sizes = fields[0].chunks[-1]
    p = len(sizes)
    if p > 1 and sizes[-1] != c:
        # fill the last chunk up with elements that sort after all others
        shape = (*fields[0].shape[:-1], c - sizes[-1])
        chunks = (*fields[0].chunks[:-1], (shape[-1],))
        key = fields[0].dtype
        pad = [
            da.full(
                shape,
                _largest(key),
                dtype=key,
                chunks=chunks,
                **_chunks.creation_kw("sort-fill", shape, key, chunks),
            ),
            da.broadcast_to(
                _chunks.arange(n, n + shape[-1], chunks=(shape[-1],), dtype=_INDEX),
                shape,
                chunks=chunks,
            ),
        ]
        pad += [
            da.zeros(
                shape,
                dtype=f.dtype,
                chunks=chunks,
                **_chunks.creation_kw("zeros", shape, f.dtype, chunks),
            )
            for f in fields[2:]
        ]
        fields = [
            da.concatenate([f, q], axis=-1) for f, q in zip(fields, pad, strict=True)
        ]
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    token = tokenize(*[f.name for f in fields], p, c)
    pack, merge = f"cupy-sort-pack-{token}", f"cupy-merge-split-{token}"
    outs = [f"cupy-network-sort-{j}-{token}" for j in range(len(fields))]
    dsk: dict[Any, Any] = {}
    comparators = network(p)
    for outer in np.ndindex(*fields[0].numblocks[:-1]):
        row: list[Any] = []
        for j in range(p):
            key = (pack, *outer, j)
            dsk[key] = (k.pack_sorted, *[(f.name, *outer, j) for f in fields])
            row.append(key)
        for step, (i, j) in enumerate(comparators):
            mkey = (merge, *outer, step)
            dsk[mkey] = (k.merge_split, row[i], row[j])
            lo, hi = (f"{merge}-lo", *outer, step), (f"{merge}-hi", *outer, step)
            dsk[lo] = (operator.getitem, mkey, 0)
            dsk[hi] = (operator.getitem, mkey, 1)
            row[i], row[j] = lo, hi
        for j in range(p):
            for field, out in enumerate(outs):
                dsk[(out, *outer, j)] = (operator.getitem, row[j], field)
    result = []
    for f, out in zip(fields, outs, strict=True):
        graph = HighLevelGraph.from_collections(out, dsk, dependencies=fields)
        arr = da.Array(
            graph, out, chunks=fields[0].chunks, meta=k.g.meta(f.ndim, f.dtype)
        )
        result.append(arr[..., :n])
    return result


def sort_pairs(keys: Any, payload: Any | None = None) -> list[Any]:
    """1-D ``keys`` sorted (stable), with their original positions and the
    ``payload`` carried along: ``[keys, positions(, payload)]``."""
    fields = [keys, _positions(keys)]
    if payload is not None:
        fields.append(payload.rechunk(keys.chunks))
    return _network_sort(fields)


def _check_known(x: Any, axis: int, where: str) -> None:
    if x.ndim and x.numblocks[axis] > 1 and any(s != s for s in x.shape):
        msg = (
            f"{where}: the dask backend cannot sort an array whose size is "
            f"data-dependent (None) over several chunks; compute it first "
            f"(ocean_ext.compute) or sort before masking"
        )
        raise NotImplementedError(msg)


def _reverse(x: Any, axis: int) -> Any:
    key = [slice(None)] * x.ndim
    key[axis] = slice(None, None, -1)
    return x[tuple(key)]


def _ascending(x: Any, axis: int, want_indices: bool) -> Any:
    _check_known(x, axis, "argsort()" if want_indices else "sort()")
    moved = da.moveaxis(x, axis, -1)
    keys, pos = _network_sort([moved, _positions(moved)])
    return da.moveaxis(pos if want_indices else keys, -1, axis)


def sort(x: Any, axis: int, descending: bool, stable: bool) -> Any:
    if x.ndim == 0:
        return x.copy()
    if x.numblocks[axis] == 1:
        # One chunk along the axis: each chunk gathered in the order of the
        # CUDA table's (stable) argsort, so that the values keep their bits
        # as over several chunks: NaN payloads (the CUDA sort makes its NaNs
        # canonical) and signed zeros in input order, as NumPy's stable sort.
        g = _chunks.current()
        func = g.kernel("argsort")  # type: ignore[union-attr]
        xp = g.xp  # type: ignore[union-attr]
        return x.map_blocks(
            lambda b: xp.take_along_axis(b, func(b, axis, descending, True), axis),
            dtype=x.dtype,
            meta=g.meta(x.ndim, x.dtype),  # type: ignore[union-attr]
        )
    if not descending:
        return _ascending(x, axis, False)
    # as the CPU table: sort the reversed input, reverse back (stable)
    return _reverse(_ascending(_reverse(x, axis), axis, False), axis)


def argsort(x: Any, axis: int, descending: bool, stable: bool) -> Any:
    g = _chunks.current()
    if x.ndim == 0:
        return _zeros((), _INDEX)
    if x.numblocks[axis] == 1:
        func = g.kernel("argsort")  # type: ignore[union-attr]
        return x.map_blocks(
            lambda b: func(b, axis, descending, True).astype(_INDEX, copy=False),
            dtype=_INDEX,
            meta=g.meta(x.ndim, _INDEX),  # type: ignore[union-attr]
        )
    if not descending:
        return _ascending(x, axis, True)
    n = x.shape[axis]
    rev = _ascending(_reverse(x, axis), axis, True)
    return _reverse(n - 1 - rev, axis)


# --- unique ----------------------------------------------------------------------
def _one_chunk_unknown(x: Any, name: str) -> Any:
    """``unique_*`` of one chunk of unknown length: the CUDA entry on it."""
    g = _chunks.current()
    func = g.kernel(name)  # type: ignore[union-attr]
    with g.device():  # type: ignore[union-attr]
        probe = func(g.xp.zeros(1, dtype=x.dtype))  # type: ignore[union-attr]
    outs = probe if isinstance(probe, tuple) else (probe,)
    res = tuple(
        x.map_blocks(
            lambda b, j=j: _nth(func(b), j),
            dtype=o.dtype,
            chunks=((np.nan,),),
            meta=g.meta(1, o.dtype),  # type: ignore[union-attr]
        )
        for j, o in enumerate(outs)
    )
    return res if isinstance(probe, tuple) else res[0]


def _nth(res: Any, j: int) -> Any:
    return res[j] if isinstance(res, tuple) else res


def _next_starts(first: Any, n: int) -> Any:
    """For each chunk, the first group start in a later chunk (``n`` if
    none): ``first`` holds each chunk's first start (``n`` if none), and the
    chunks that have one hold increasing starts."""
    xp = _module_of(first)
    p = first.shape[0]
    has = xp.nonzero(first < n)[0]
    values = xp.concatenate([first[has], xp.full(1, n, dtype=first.dtype)])
    after = xp.searchsorted(has, xp.arange(p, dtype=has.dtype), side="right")
    return values[after]


def _chunk_counts(starts: Any, after: Any, n: int) -> Any:
    """The size of each group that starts in this chunk: the distance to the
    next start (in this chunk, else ``after``, the first one after it)."""
    xp = _module_of(starts)
    sp = starts[starts < n]
    nxt = xp.concatenate([sp[1:], after.reshape(1)])
    return nxt - sp


def _first_start(starts: Any, n: int) -> Any:
    xp = _module_of(starts)
    if starts.size == 0:
        return xp.full(1, n, dtype=starts.dtype)
    return starts.min(keepdims=True)


def _module_of(a: Any) -> Any:
    return _chunks.module_of(a)


class _Groups:
    """The sorted flat values of ``x`` and where each group of equal values starts."""

    def __init__(self, x: Any, where: str) -> None:
        flat = x.reshape(-1) if x.ndim != 1 else x
        if flat.numblocks[0] > 1 and any(s != s for s in flat.shape):
            msg = (
                f"{where}: the dask backend cannot find unique values of an array "
                f"whose size is data-dependent (None) over several chunks; compute "
                f"it first (ocean_ext.compute)"
            )
            raise NotImplementedError(msg)
        self.g = _chunks.current()
        self.shape = x.shape
        self.n = n = flat.shape[0]
        self.values, self.perm = sort_pairs(flat)
        self.pos = _chunks.arange(0, n, chunks=self.values.chunks, dtype=_INDEX)
        if n:
            prev = da.concatenate([self.values[:1], self.values[:-1]]).rechunk(
                self.values.chunks
            )
            # NaN != NaN: each NaN starts a group of its own
            self.starts = (self.values != prev) | (self.pos == 0)
        else:
            self.starts = _zeros((0,), bool)

    def unique(self) -> Any:
        return self.values[self.starts]

    def first_index(self) -> Any:
        return self.perm[self.starts]

    def counts(self) -> Any:
        n = self.n
        meta = self.g.meta(1, _INDEX)  # type: ignore[union-attr]
        if n == 0:
            return _zeros((0,), _INDEX)
        starts = da.where(self.starts, self.pos, n)
        p = starts.numblocks[0]
        first = starts.map_blocks(
            _first_start, n, dtype=_INDEX, chunks=((1,) * p,), meta=meta
        )
        after = (
            first.rechunk(p)
            .map_blocks(_next_starts, n, dtype=_INDEX, meta=meta)
            .rechunk(1)
        )
        return da.map_blocks(
            _chunk_counts,
            starts,
            after,
            n,
            dtype=_INDEX,
            chunks=((np.nan,) * p,),
            meta=meta,
        )

    def inverse(self) -> Any:
        if self.n == 0:
            return _zeros(self.shape, _INDEX)
        gid = da.cumsum(self.starts.astype(_INDEX)) - 1
        # scatter gid[k] to position perm[k]: sort the pairs by position
        _, _, back = sort_pairs(self.perm, gid)
        return back.reshape(self.shape)


def _single(func: Callable[[Any], Any], name: str) -> Callable[[Any], Any]:
    def entry(x: Any) -> Any:
        if x.ndim == 1 and x.numblocks[0] == 1 and any(s != s for s in x.shape):
            return _one_chunk_unknown(x, name)
        return func(_Groups(x, f"{name}()"))

    entry.__name__ = name
    return entry


unique_values = _single(lambda g: g.unique(), "unique_values")
unique_counts = _single(lambda g: (g.unique(), g.counts()), "unique_counts")
unique_inverse = _single(lambda g: (g.unique(), g.inverse()), "unique_inverse")
unique_all = _single(
    lambda g: (g.unique(), g.first_index(), g.inverse(), g.counts()), "unique_all"
)
