"""``sort``, ``argsort`` and ``unique_*`` on arrays of many chunks, lazily.

No chunk is ever gathered with all the others.  Along the sorted axis the
array is cut into P chunks of one size (the last is filled up with records
that sort last) and sorted as a *block sorting network*: each chunk is sorted, then
Batcher's merge-exchange network (Knuth 5.2.2, Algorithm M) runs with each
comparator replaced by a merge-split of two chunks (the sorted union, split
back into a lower and an upper chunk); a network that sorts P elements sorts
P equal blocks this way.  A task holds at most two chunks and the chunk sizes
never change, so the result's shape is known.  Elements are records (value,
original position[, payload]) compared by value, then position: every sort is
stable and ``argsort`` is the position field.  Cost: about
log2(P)(log2(P)+1)/2 passes over the data in about P log2(P)^2 / 4 tasks.

``unique_*`` flatten, sort with positions, and mark where a value differs from
its predecessor (NaNs never equal anything, so each NaN is its own value, as
the standard says); counts come from a reverse cumulative minimum of the
group starts, and ``inverse`` scatters group ids back to their positions with
one more sort keyed by position.  Sizes that depend on the data are unknown
(``None``) until computed.
"""

from __future__ import annotations

import operator
from typing import Any

import dask.array as da
import numpy as np
from dask.array.reductions import cumreduction

__all__ = [
    "argsort",
    "sort",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]

_INDEX = np.dtype(np.int64)


def _unknown_sizes(x: Any) -> bool:
    return any(s != s for s in x.shape)


def _record_dtype(key: np.dtype, payload: np.dtype | None) -> np.dtype:
    fields = [("k", key), ("i", _INDEX)]
    if payload is not None:
        fields.append(("v", payload))
    return np.dtype(fields)


def _row_order(block: np.ndarray) -> np.ndarray:
    """The order that sorts each row (last axis) of a record block by
    (value, position).

    A stable sort by value alone is right unless equal values stand in the
    wrong order of position (after merges across blocks); only then the two
    keys are sorted together (``lexsort``, several times slower).
    """
    k, i = block["k"], block["i"]
    order = np.argsort(k, axis=-1, kind="stable")
    ks = np.take_along_axis(k, order, axis=-1)
    ps = np.take_along_axis(i, order, axis=-1)
    tie = ks[..., 1:] == ks[..., :-1]
    if ks.dtype.kind in "fc":  # NaNs are equal for the order (they sort last)
        nan = np.isnan(ks)
        tie |= nan[..., 1:] & nan[..., :-1]
    if (tie & (ps[..., 1:] < ps[..., :-1])).any():
        order = np.lexsort((i, k), axis=-1)
    return order


def _sort_rows(block: np.ndarray) -> np.ndarray:
    """Each row (last axis) of a record block sorted by (value, position)."""
    if block.shape[-1] < 2:
        return block
    return np.take_along_axis(block, _row_order(block), axis=-1)


def _merge_split(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lower and upper halves of the sorted union of two sorted blocks of
    equal length (row by row), as two arrays of their own: neither keeps the
    union alive (views of it would, doubling the memory the network holds)."""
    both = np.concatenate([a, b], axis=-1)
    order = _row_order(both)
    c = a.shape[-1]
    lo = np.take_along_axis(both, order[..., :c], axis=-1)
    hi = np.take_along_axis(both, order[..., c:], axis=-1)
    return lo, hi


def _largest(dtype: np.dtype) -> Any:
    """A value no other sorts after (NaN for floats; ties go by position)."""
    if dtype.kind == "f":
        return np.nan
    if dtype.kind == "c":
        return complex(np.nan, np.nan)
    if dtype.kind == "b":
        return True
    return np.iinfo(dtype).max


def _pack(keys: Any, positions: Any, payload: Any | None) -> Any:
    rec = _record_dtype(keys.dtype, None if payload is None else payload.dtype)

    def pack(k: np.ndarray, i: np.ndarray, *v: np.ndarray) -> np.ndarray:
        out = np.empty(k.shape, dtype=rec)
        out["k"] = k
        out["i"] = i
        if v:
            out["v"] = v[0]
        return out

    args = [keys, positions] + ([payload] if payload is not None else [])
    return da.map_blocks(pack, *args, dtype=rec)


def _field(records: Any, name: str, dtype: np.dtype) -> Any:
    return records.map_blocks(lambda b: np.ascontiguousarray(b[name]), dtype=dtype)


def comparators(p: int) -> list[tuple[int, int]]:
    """Batcher's merge-exchange network for ``p`` inputs (Knuth 5.2.2, M), in
    order: about p log2(p)^2 / 4 comparators in log2(p)(log2(p)+1)/2 rounds.
    Comparators that would touch positions >= p are left out, which is the
    network for the next power of two with +inf in the missing inputs."""
    out: list[tuple[int, int]] = []
    half = 1
    while half < p:
        k = half
        while k >= 1:
            for j in range(k % half, p - k, 2 * k):
                for i in range(min(k, p - j - k)):
                    if (i + j) // (2 * half) == (i + j + k) // (2 * half):
                        out.append((i + j, i + j + k))
            k //= 2
        half *= 2
    return out


def _merge_network(records: Any) -> Any:
    """Sort records along the last axis: each chunk sorted, then the chunks
    merge-split along Batcher's network (two chunks per task)."""
    n = records.shape[-1]
    sizes = records.chunks[-1]
    c = max(sizes) if sizes else 0
    if len(sizes) > 1 and any(s != c for s in sizes[:-1]):
        records = records.rechunk({-1: c})
        sizes = records.chunks[-1]
    records = records.map_blocks(_sort_rows, dtype=records.dtype)
    p = len(sizes)
    if p <= 1:
        return records
    if sizes[-1] != c:
        # Fill the last chunk up with records that sort after every other:
        # the largest value and positions from n on (cut off at the end).
        shape = (*records.shape[:-1], c - sizes[-1])
        filler = da.zeros(shape, dtype=records.dtype, chunks=(*records.chunks[:-1], -1))
        filler = filler.map_blocks(_filler, n, dtype=records.dtype)
        records = da.concatenate([records, filler], axis=-1)
    # The graph is written out directly (dask.delayed would merge a graph per
    # comparator, quadratic in their number): one task per merge-split and
    # one per half it hands on.
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    token = tokenize(records.name, p, c)
    merge_name, out_name = f"merge-split-{token}", f"network-sort-{token}"
    dsk: dict[Any, Any] = {}
    network = comparators(p)
    for outer in np.ndindex(*records.numblocks[:-1]):
        row: list[Any] = [(records.name, *outer, k) for k in range(p)]
        for step, (i, j) in enumerate(network):
            mkey = (merge_name, *outer, step)
            dsk[mkey] = (_merge_split, row[i], row[j])
            lo, hi = (
                (f"{merge_name}-lo", *outer, step),
                (f"{merge_name}-hi", *outer, step),
            )
            dsk[lo] = (operator.getitem, mkey, 0)
            dsk[hi] = (operator.getitem, mkey, 1)
            row[i], row[j] = lo, hi
        for k in range(p):
            dsk[(out_name, *outer, k)] = (_identity, row[k])
    graph = HighLevelGraph.from_collections(out_name, dsk, dependencies=[records])
    result = da.Array(graph, out_name, chunks=records.chunks, dtype=records.dtype)
    return result[..., :n]


def _identity(block: np.ndarray) -> np.ndarray:
    return block


def _filler(block: np.ndarray, n: int) -> np.ndarray:
    out = block.copy()
    out["k"] = _largest(block.dtype["k"])
    out["i"] = n + np.arange(block.shape[-1])
    return out


def _sorted_records(
    x: Any, axis: int, payload: Any | None = None, where: str = "sort()"
) -> Any:
    """Records of ``x`` (moved so that ``axis`` is last) sorted along it."""
    if x.ndim and x.numblocks[axis] > 1 and _unknown_sizes(x):
        msg = (
            f"{where}: the dask backend cannot sort an array whose size is "
            f"data-dependent (None) over several chunks; compute it first "
            f"(ocean_ext.compute) or sort before masking"
        )
        raise NotImplementedError(msg)
    x = da.moveaxis(x, axis, -1)
    n = x.shape[-1]
    positions = da.broadcast_to(
        da.arange(n, chunks=(x.chunks[-1],), dtype=_INDEX), x.shape, chunks=x.chunks
    )
    if payload is not None:
        payload = da.moveaxis(payload, axis, -1).rechunk(x.chunks)
    return _merge_network(_pack(x, positions, payload))


def _ascending(x: Any, axis: int, want_indices: bool) -> Any:
    if x.numblocks[axis] == 1:
        # one chunk along the axis: the CPU sort of each chunk is the answer
        if want_indices:
            return x.map_blocks(
                lambda b: np.argsort(b, axis=axis, kind="stable").astype(_INDEX),
                dtype=_INDEX,
            )
        return _one_chunk_sort(x, axis, False)
    rec = _sorted_records(x, axis, where="argsort()" if want_indices else "sort()")
    out = _field(rec, "i", _INDEX) if want_indices else _field(rec, "k", x.dtype)
    return da.moveaxis(out, -1, axis)


def _one_chunk_sort(x: Any, axis: int, descending: bool) -> Any:
    """Each chunk sorted along ``axis`` (whole in every chunk) by the CPU
    table's sort: NumPy's fastest sort, with the stable order of equal floats
    (signed zeros, NaN payloads) restored, and native byte order."""
    from ocean_cpu import backend as cpu

    func = cpu.ops["sort"]
    return x.map_blocks(
        lambda b: func(b, axis, descending, True),
        dtype=x.dtype.newbyteorder("="),
    )


def _reverse(x: Any, axis: int) -> Any:
    key = [slice(None)] * x.ndim
    key[axis] = slice(None, None, -1)
    return x[tuple(key)]


def sort(x: Any, axis: int, descending: bool, stable: bool) -> Any:
    if x.ndim == 0:
        return x.copy()
    if x.numblocks[axis] == 1:
        return _one_chunk_sort(x, axis, descending)
    if not descending:
        return _ascending(x, axis, False)
    # Note: as the CPU table, a descending stable sort sorts the reversed
    # input ascending and reverses back (equal elements keep their order).
    return _reverse(_ascending(_reverse(x, axis), axis, False), axis)


def argsort(x: Any, axis: int, descending: bool, stable: bool) -> Any:
    if x.ndim == 0:
        return da.zeros((), dtype=_INDEX)
    if not descending:
        return _ascending(x, axis, True)
    n = x.shape[axis]
    rev = _ascending(_reverse(x, axis), axis, True)
    return _reverse(n - 1 - rev, axis)


# --- unique -------------------------------------------------------------------
def _one_chunk_unknown(x: Any, name: str) -> Any:
    """``unique_*`` of a 1-D array of one chunk of unknown length: the CPU
    entry on that chunk, output by output (all of unknown length)."""
    from ocean_cpu import backend as cpu

    func = cpu.ops[name]
    probe = func(np.zeros(1, dtype=x.dtype))
    if not isinstance(probe, tuple):
        return x.map_blocks(func, dtype=probe.dtype, chunks=((np.nan,),))
    return tuple(
        x.map_blocks(lambda b, j=j: func(b)[j], dtype=o.dtype, chunks=((np.nan,),))
        for j, o in enumerate(probe)
    )


class _Groups:
    """The sorted flat values of ``x`` and where each group of equal values starts."""

    def __init__(self, x: Any, where: str) -> None:
        flat = x.reshape(-1) if x.ndim != 1 else x
        if flat.numblocks[0] > 1 and _unknown_sizes(flat):
            msg = (
                f"{where}: the dask backend cannot find unique values of an array "
                f"whose size is data-dependent (None) over several chunks; compute "
                f"it first (ocean_ext.compute)"
            )
            raise NotImplementedError(msg)
        self.shape = x.shape
        self.n = n = flat.shape[0]
        if flat.numblocks[0] == 1:
            flat = flat.rechunk(-1)
        self.rec = _sorted_records(flat, 0, where=where)
        self.values = _field(self.rec, "k", flat.dtype)
        self.pos = da.arange(n, chunks=self.values.chunks, dtype=_INDEX)
        if n:
            prev = da.concatenate([self.values[:1], self.values[:-1]]).rechunk(
                self.values.chunks
            )
            # NaN != NaN: each NaN starts a group of its own
            self.starts = (self.values != prev) | (self.pos == 0)
        else:
            self.starts = da.zeros((0,), dtype=bool)

    def unique(self) -> Any:
        return self.values[self.starts]

    def first_index(self) -> Any:
        return _field(self.rec, "i", _INDEX)[self.starts]

    def counts(self) -> Any:
        n = self.n
        if n == 0:
            return da.zeros((0,), dtype=_INDEX)
        g = da.where(self.starts, self.pos, n)
        # next_start[k]: the first group start after k (n past the last)
        suffix_min = _reverse(
            cumreduction(
                np.minimum.accumulate,
                np.minimum,
                n,
                _reverse(g, 0),
                axis=0,
                dtype=_INDEX,
            ),
            0,
        )
        nxt = da.concatenate([suffix_min[1:], da.full((1,), n, dtype=_INDEX)])
        nxt = nxt.rechunk(self.values.chunks)
        return (nxt - self.pos)[self.starts]

    def inverse(self) -> Any:
        if self.n == 0:
            return da.zeros(self.shape, dtype=_INDEX)
        gid = da.cumsum(self.starts.astype(_INDEX)) - 1
        perm = _field(self.rec, "i", _INDEX)
        # scatter gid[k] to position perm[k]: sort the pairs by position
        back = _merge_network(_pack(perm, self.pos, gid))
        return _field(back, "v", _INDEX).reshape(self.shape)


def unique_values(x: Any) -> Any:
    if x.ndim == 1 and x.numblocks[0] == 1 and _unknown_sizes(x):
        return _one_chunk_unknown(x, "unique_values")
    return _Groups(x, "unique_values()").unique()


def unique_counts(x: Any) -> Any:
    if x.ndim == 1 and x.numblocks[0] == 1 and _unknown_sizes(x):
        return _one_chunk_unknown(x, "unique_counts")
    g = _Groups(x, "unique_counts()")
    return g.unique(), g.counts()


def unique_inverse(x: Any) -> Any:
    if x.ndim == 1 and x.numblocks[0] == 1 and _unknown_sizes(x):
        return _one_chunk_unknown(x, "unique_inverse")
    g = _Groups(x, "unique_inverse()")
    return g.unique(), g.inverse()


def unique_all(x: Any) -> Any:
    if x.ndim == 1 and x.numblocks[0] == 1 and _unknown_sizes(x):
        return _one_chunk_unknown(x, "unique_all")
    g = _Groups(x, "unique_all()")
    return g.unique(), g.first_index(), g.inverse(), g.counts()
