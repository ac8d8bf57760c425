"""``sort``, ``argsort`` and ``unique_*`` on arrays of many chunks, lazily.

No chunk is ever gathered with all the others.  Along the sorted axis the P
chunks (small neighbours grouped first: :func:`_least_group`) are sorted by a
*sample sort* with exact splits, in one graph:

1. each chunk is sorted (by value; stably, so equal values keep their order);
2. every g-th element of each sorted chunk is a sample; one small task sorts
   the samples and, for each boundary between output chunks (the global rank
   where output chunk k starts: the input's chunk sizes), picks two samples
   that bracket the element of that rank (their ranks are known to within
   P * g from the sample ranks alone);
3. each chunk counts its elements below each bracket and hands on those
   inside it (a small fraction of the data); one small task finds, among
   those, the element of each boundary's rank exactly, and so where every
   sorted chunk is cut for every output chunk;
4. each sorted chunk is cut into P pieces (copies, so that it is freed), and
   output chunk k is the merge of the k-th pieces of all chunks (NumPy's
   stable sort, a timsort, which merges sorted runs).

The result has the input's shape and chunks; a task holds at most about one
chunk of data (sorting, cutting, merging) or a small fraction of the whole
(samples, candidates), and skewed data (equal values, sorted, reversed, NaNs)
changes nothing: elements are ordered as records (value, position), all
distinct.  An element's position is never stored for ``sort``: in a sorted
chunk, equal values stand in the order of their positions, so (value, chunk,
index in the sorted chunk) orders as (value, position) does.  ``argsort`` and
``unique_*`` carry positions (and ``unique_inverse`` a payload) along.  Cost:
one sort of each chunk, one merge of P runs per output chunk, and a few cheap
passes (binary searches, one copy).

``unique_*`` flatten, sort with positions, and mark where a value differs from
its predecessor (NaNs never equal anything, so each NaN is its own value, as
the standard says); counts come from a reverse cumulative minimum of the
group starts, and ``inverse`` scatters group ids back to their positions with
one more sort keyed by position.  Sizes that depend on the data are unknown
(``None``) until computed.
"""

from __future__ import annotations

import itertools
import math
import operator
from typing import Any

import dask.array as da
import numpy as np
from dask.array.reductions import cumreduction

from ._chunks import CPU_KERNELS

__all__ = [
    "argsort",
    "sort",
    "sorted_along",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]

_INDEX = np.dtype(np.int64)


def _unknown_sizes(x: Any) -> bool:
    return any(s != s for s in x.shape)


# --- the tasks -------------------------------------------------------------------
# Inside the tasks a chunk is 2-D: (rows, length along the sorted axis).  A
# sorted chunk is a tuple (values, *payloads) of such arrays, ordered by
# (value, position) row by row.


def _ragged(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Flat indices of the ranges [starts[j], starts[j] + lengths[j]), one
    after the other."""
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=_INDEX)
    skip = np.cumsum(lengths) - lengths
    return np.repeat(starts - skip, lengths) + np.arange(total, dtype=_INDEX)


def _cpu_sort_rows(v: np.ndarray) -> np.ndarray:
    """Each row of ``v`` sorted stably (equal floats that differ in their bits,
    signed zeros and NaNs, keep their order) by the CPU table's fast sort."""
    return CPU_KERNELS["sort"](v, 1, False, True)  # type: ignore[no-any-return]


def _sort_chunk(
    blocks: list[np.ndarray],
    payloads: list[np.ndarray] | None,
    start: int,
    positions: bool,
) -> tuple[np.ndarray, ...]:
    """Chunks side by side (along the last axis), their rows sorted by (value,
    position): the values, then the positions (``start`` is the first) and the
    payload, if asked."""
    block = blocks[0] if len(blocks) == 1 else np.concatenate(blocks, axis=-1)
    r, m = math.prod(block.shape[:-1]), block.shape[-1]
    v = block.reshape(r, m)
    if not v.dtype.isnative:
        v = v.astype(v.dtype.newbyteorder("="))
    if not positions and payloads is None:
        return (_cpu_sort_rows(v),)
    order = np.argsort(v, axis=-1, kind="stable")
    out = [np.take_along_axis(v, order, axis=-1)]
    if positions:
        out.append(order.astype(_INDEX, copy=False) + start)
    if payloads is not None:
        pay = payloads[0] if len(payloads) == 1 else np.concatenate(payloads, axis=-1)
        out.append(np.take_along_axis(pay.reshape(r, m), order, axis=-1))
    return tuple(out)


def _sort_whole(
    blocks: list[np.ndarray], payloads: list[np.ndarray] | None, positions: bool
) -> tuple[np.ndarray, ...]:
    """Chunks side by side that hold their rows whole, sorted (the fields in
    the rows' shape)."""
    lead = blocks[0].shape[:-1]
    fields = _sort_chunk(blocks, payloads, 0, positions)
    return tuple(f.reshape(*lead, f.shape[-1]) for f in fields)


def _part(fields: tuple[np.ndarray, ...], a: int, b: int) -> tuple[np.ndarray, ...]:
    """Elements [a, b) along the last axis of each field."""
    return tuple(f[..., a:b] for f in fields)


def _samples(chunk: tuple[np.ndarray, ...], g: int) -> np.ndarray:
    """Every g-th value of each sorted row (local indices g-1, 2g-1, ...)."""
    return np.ascontiguousarray(chunk[0][:, g - 1 :: g])


def _plan(
    samples: list[np.ndarray], starts: np.ndarray, g: int
) -> tuple[np.ndarray, ...]:
    """For each boundary (``starts[1:-1]``, the ranks where output chunks 1..P-1
    begin), two samples ``lo`` < ``hi`` with rank(lo) <= boundary < rank(hi),
    rank being the number of elements before a record.

    A sample with t samples before it has between t * g and t * g + P (g - 1)
    elements before it (each chunk's count is within g - 1 of g times its
    samples before it); so the samples of sample-rank
    floor((b - P (g - 1)) / g) and ceil((b + 1) / g) bracket rank b (or there
    is none, and the bracket is open: minus or plus infinity).  Records are
    (value, slot), the slot of local index j in chunk i being starts[i] + j.
    """
    p = len(samples)
    vals = np.concatenate(samples, axis=1)
    rows, s = vals.shape
    slots = np.concatenate(
        [
            starts[i] + g - 1 + g * np.arange(smp.shape[1], dtype=_INDEX)
            for i, smp in enumerate(samples)
        ]
    )
    bounds = starts[1:-1]
    t_lo = (bounds - p * (g - 1)) // g
    t_hi = -(-(bounds + 1) // g)
    lo_open, hi_open = t_lo < 0, t_hi >= s
    if s == 0:
        zero = np.zeros((rows, len(bounds)), dtype=vals.dtype)
        zslot = np.zeros((rows, len(bounds)), dtype=_INDEX)
        return zero, zslot, lo_open, zero, zslot, hi_open
    # samples come in slot order (chunk by chunk, each sorted): a stable sort
    # by value gives the (value, slot) order
    order = np.argsort(vals, axis=-1, kind="stable")
    svals = np.take_along_axis(vals, order, axis=-1)
    sslots = slots[order]
    lo, hi = np.clip(t_lo, 0, s - 1), np.clip(t_hi, 0, s - 1)
    return svals[:, lo], sslots[:, lo], lo_open, svals[:, hi], sslots[:, hi], hi_open


def _ranks(
    v: np.ndarray,
    val: np.ndarray,
    slot: np.ndarray,
    is_open: np.ndarray,
    start: int,
    fill: int,
) -> np.ndarray:
    """For each row of the sorted chunk ``v`` (slots start, start + 1, ...),
    how many of its records come before each record (val, slot); ``fill``
    where the record is an open end."""
    if v.shape[0] > 1 and v.dtype.kind in "biuf":
        left, right = _search_rows(v, val, "left"), _search_rows(v, val, "right")
    else:
        left = np.empty(val.shape, dtype=_INDEX)
        right = np.empty(val.shape, dtype=_INDEX)
        for t in range(v.shape[0]):
            left[t] = np.searchsorted(v[t], val[t], "left")
            right[t] = np.searchsorted(v[t], val[t], "right")
    # equal values stand in slot order: those with a smaller slot come first
    out = np.clip(slot - start, left, right)
    out[:, is_open] = fill
    return out


def _before(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a`` sorts before ``b`` (NumPy's order of real values: NaNs last)."""
    if a.dtype.kind == "f":
        return (a < b) | (np.isnan(b) & ~np.isnan(a))
    return a < b  # type: ignore[no-any-return]


def _search_rows(v: np.ndarray, val: np.ndarray, side: str) -> np.ndarray:
    """``np.searchsorted(v[t], val[t], side)`` for every row t at once (a
    binary search on all rows together: one NumPy call per halving rather
    than two per row, for chunks of many short rows)."""
    rows, m = v.shape
    lo = np.zeros(val.shape, dtype=_INDEX)
    hi = np.full(val.shape, m, dtype=_INDEX)
    row = np.arange(rows)[:, None]
    while True:
        todo = lo < hi
        if not todo.any():
            return lo
        mid = (lo + hi) // 2
        a = v[row, np.minimum(mid, m - 1)]
        # go right past a: left, a < val; right, a <= val (not val < a)
        right = _before(a, val) if side == "left" else ~_before(val, a)
        lo = np.where(todo & right, mid + 1, lo)
        hi = np.where(todo & ~right, mid, hi)


def _count(
    chunk: tuple[np.ndarray, ...], plan: tuple[np.ndarray, ...], start: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row and boundary: how many records of this sorted chunk come before
    the bracket, how many fall inside it, and those values (in row, boundary,
    sorted order)."""
    v = chunk[0]
    rows, m = v.shape
    lo_val, lo_slot, lo_open, hi_val, hi_slot, hi_open = plan
    below = _ranks(v, lo_val, lo_slot, lo_open, start, 0)
    inside = _ranks(v, hi_val, hi_slot, hi_open, start, m) - below
    first = np.arange(rows, dtype=_INDEX)[:, None] * m + below
    return below, inside, v.reshape(-1)[_ragged(first.ravel(), inside.ravel())]


def _cuts(
    counts: list[tuple[np.ndarray, np.ndarray, np.ndarray]], starts: np.ndarray
) -> np.ndarray:
    """Where each sorted chunk is cut at each boundary: (chunk, row, boundary).

    The element of a boundary's rank b is, among the records inside its
    bracket (from every chunk), the one with b - (records below the bracket)
    records before it; a chunk is cut after its records below the bracket and
    its records inside it that come before that element.
    """
    p = len(counts)
    below = np.stack([c[0] for c in counts])
    inside = np.stack([c[1] for c in counts])
    _, rows, nb = below.shape
    groups = rows * nb
    want = (starts[1:-1] - below.sum(axis=0)).ravel()
    sizes = inside.sum(axis=0).ravel()
    if np.any(want < 0) or np.any(want >= sizes):  # pragma: no cover - a bug
        msg = "sort(): the dask backend's sample sort lost a boundary (a bug)"
        raise RuntimeError(msg)
    vals = np.concatenate([c[2] for c in counts])
    group = np.concatenate([np.repeat(np.arange(groups), i.ravel()) for i in inside])
    chunk = np.repeat(np.arange(p), inside.reshape(p, -1).sum(axis=1))
    # by group, then value; equal values keep the order chunk by chunk, then
    # index in the chunk: the (value, slot) order
    order = np.lexsort((vals, group))
    gs, cs = group[order], chunk[order]
    rank = np.arange(len(order)) - (np.cumsum(sizes) - sizes)[gs]
    before = rank < want[gs]
    taken = np.bincount(cs[before] * groups + gs[before], minlength=p * groups)
    return below + taken.reshape(p, rows, nb)


def _cut(
    chunk: tuple[np.ndarray, ...], cuts: np.ndarray, i: int
) -> list[tuple[np.ndarray, tuple[np.ndarray, ...]]]:
    """Sorted chunk ``i`` cut into one piece per output chunk: (length of each
    row's part, the fields' parts one row after the other), each a copy."""
    rows, m = chunk[0].shape
    edges = np.empty((rows, cuts.shape[2] + 2), dtype=_INDEX)
    edges[:, 0], edges[:, 1:-1], edges[:, -1] = 0, cuts[i], m
    lengths = np.diff(edges, axis=1)
    pieces = []
    for k in range(edges.shape[1] - 1):
        if rows == 1:
            a, b = edges[0, k], edges[0, k + 1]
            parts = tuple(f[0, a:b].copy() for f in chunk)
        else:
            idx = _ragged(
                np.arange(rows, dtype=_INDEX) * m + edges[:, k], lengths[:, k]
            )
            parts = tuple(f.reshape(-1)[idx] for f in chunk)
        pieces.append((lengths[:, k], parts))
    return pieces


def _merge(
    pieces: list[tuple[np.ndarray, tuple[np.ndarray, ...]]],
    lead: tuple[int, ...],
    n: int,
) -> tuple[np.ndarray, ...]:
    """One output chunk (shape ``lead + (n,)``) from its piece of every sorted
    chunk: the pieces side by side in chunk order, row by row, then sorted
    stably (equal values keep the chunk order, which is the position order);
    NumPy's stable sort finds the sorted runs and merges them."""
    rows = math.prod(lead)
    lengths = np.stack([p[0] for p in pieces])
    if np.any(lengths.sum(axis=0) != n):  # pragma: no cover - a bug
        msg = "sort(): the dask backend's sample sort cut a chunk wrongly (a bug)"
        raise RuntimeError(msg)
    nf = len(pieces[0][1])
    if rows == 1:
        fields = [np.concatenate([p[1][f] for p in pieces]) for f in range(nf)]
    else:
        fields = [np.empty(rows * n, dtype=pieces[0][1][f].dtype) for f in range(nf)]
        offsets = np.cumsum(lengths, axis=0) - lengths
        base = np.arange(rows, dtype=_INDEX) * n
        for i, (length, parts) in enumerate(pieces):
            idx = _ragged(base + offsets[i], length)
            for f in range(nf):
                fields[f][idx] = parts[f]
    fields = [f.reshape(rows, n) for f in fields]
    if nf == 1:
        fields[0].sort(axis=-1, kind="stable")
    else:
        order = np.argsort(fields[0], axis=-1, kind="stable")
        fields = [np.take_along_axis(f, order, axis=-1) for f in fields]
    return tuple(f.reshape(*lead, n) for f in fields)


# --- the graph -------------------------------------------------------------------
def _sample_step(n: int, p: int) -> int:
    """The sampling step g: about n / g = p sqrt(2 n) samples per row, and
    about p sqrt(2 n) records inside the brackets in all (each bracket holds
    fewer than (2 p + 1) g), so that neither small task holds much."""
    return max(1, round(math.sqrt(n / (2 * p * p))))


def _least_group(n: int) -> int:
    """The fewest elements a group of chunks along the sorted axis (of length
    ``n``) has.  The sample sort cuts each group into one piece per group, so
    many tiny chunks would make P^2 tiny tasks: adjacent chunks are grouped
    up to 1/32 of the axis (but never for that alone beyond 2^20 elements),
    and up to 4 sqrt(n), so that the samples and the values near the cuts
    (about P sqrt(2 n) each) stay well below n."""
    return max(min(-(-n // 32), 1 << 20), 4 * math.isqrt(n), 1)


def _groups(sizes: tuple[int, ...], n: int) -> list[list[int]]:
    """The chunks (indices) of each group, in order."""
    least = _least_group(n)
    groups: list[list[int]] = []
    current: list[int] = []
    total = 0
    for i, size in enumerate(sizes):
        current.append(i)
        total += size
        if total >= least:
            groups.append(current)
            current, total = [], 0
    if current:  # a short last group joins the one before
        if groups:
            groups[-1].extend(current)
        else:
            groups.append(current)
    return groups


def _sorted_last(x: Any, positions: bool, payload: Any | None) -> list[Any]:
    """``x`` sorted along its last axis by (value, position): the values, then
    the positions (if ``positions``) and ``payload`` in the same order (if
    given); all with ``x``'s chunks."""
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph, MaterializedLayer

    dtypes = [x.dtype.newbyteorder("=")]
    if positions:
        dtypes.append(_INDEX)
    colls = [x]
    if payload is not None:
        payload = payload.rechunk(x.chunks)
        dtypes.append(payload.dtype)
        colls.append(payload)
    sizes = x.chunks[-1]
    if x.size == 0:  # nothing to sort: chunk by chunk
        groups = [[i] for i in range(len(sizes))]
    elif len(sizes) == 1:
        groups = [[0]]
    else:
        groups = _groups(sizes, x.shape[-1])
    p = len(groups)
    whole = p == 1 or x.size == 0  # rows whole in each group, or nothing to sort
    chunk_starts = np.cumsum((0, *sizes))
    if not whole:  # where each group starts along the axis, and the end
        starts = np.asarray(
            [chunk_starts[grp[0]] for grp in groups] + [x.shape[-1]], dtype=_INDEX
        )
    token = tokenize(x.name, None if payload is None else payload.name, positions)
    name = f"sample-sort-{token}"
    dsk: dict[Any, Any] = {}

    for outer in np.ndindex(*x.numblocks[:-1]):
        outer = tuple(int(o) for o in outer)

        def blocks(coll: Any | None, grp: list[int], outer: Any = outer) -> Any:
            return None if coll is None else [(coll.name, *outer, i) for i in grp]

        merged = [(f"{name}-merge", *outer, k) for k in range(p)]
        if whole:
            for k, grp in enumerate(groups):
                dsk[merged[k]] = (
                    _sort_whole,
                    blocks(x, grp),
                    blocks(payload, grp),
                    positions,
                )
        else:
            _sample_sort_graph(dsk, name, outer, x, payload, groups, starts, positions)
        for k, grp in enumerate(groups):
            edge = 0
            for i in grp:
                a, b = edge, edge + sizes[i]
                full = len(grp) == 1
                out_key = (name, *outer, i)
                dsk[out_key] = merged[k] if full else (_part, merged[k], a, b)
                edge = b
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=colls)
    layers, deps = dict(graph.layers), dict(graph.dependencies)
    out = []
    for f, dtype in enumerate(dtypes):
        fname = f"{name}-field{f}"
        layer = MaterializedLayer(
            {
                (fname, *idx): (operator.getitem, (name, *idx), f)
                for idx in itertools.product(*map(range, x.numblocks))
            }
        )
        hlg = HighLevelGraph({**layers, fname: layer}, {**deps, fname: {name}})
        out.append(da.Array(hlg, fname, chunks=x.chunks, dtype=dtype))
    return out


def _sample_sort_graph(
    dsk: dict[Any, Any],
    name: str,
    outer: tuple[int, ...],
    x: Any,
    payload: Any | None,
    groups: list[list[int]],
    starts: np.ndarray,
    positions: bool,
) -> None:
    """The tasks that sort the rows of one block of rows (``outer``) along
    the groups of chunks; group k's result is ``(name-merge, *outer, k)``."""
    p = len(groups)
    lead = tuple(x.chunks[d][o] for d, o in enumerate(outer))
    g = _sample_step(int(starts[-1]), p)
    srt = [(f"{name}-chunk", *outer, k) for k in range(p)]
    smp = [(f"{name}-samples", *outer, k) for k in range(p)]
    cnt = [(f"{name}-count", *outer, k) for k in range(p)]
    cut = [(f"{name}-cut", *outer, k) for k in range(p)]
    plan, cuts = (f"{name}-plan", *outer), (f"{name}-cuts", *outer)
    for k, grp in enumerate(groups):
        dsk[srt[k]] = (
            _sort_chunk,
            [(x.name, *outer, i) for i in grp],
            None if payload is None else [(payload.name, *outer, i) for i in grp],
            int(starts[k]),
            positions,
        )
        dsk[smp[k]] = (_samples, srt[k], g)
        dsk[cnt[k]] = (_count, srt[k], plan, int(starts[k]))
        dsk[cut[k]] = (_cut, srt[k], cuts, k)
    dsk[plan] = (_plan, smp, starts, g)
    dsk[cuts] = (_cuts, cnt, starts)
    for k in range(p):
        piece = [(f"{name}-piece", *outer, i, k) for i in range(p)]
        for i in range(p):
            dsk[piece[i]] = (operator.getitem, cut[i], k)
        merge_key = (f"{name}-merge", *outer, k)
        dsk[merge_key] = (
            _merge,
            piece,
            lead,
            int(starts[k + 1] - starts[k]),
        )


def sorted_along(
    x: Any,
    axis: int,
    *,
    positions: bool = False,
    payload: Any | None = None,
    where: str = "sort()",
) -> list[Any]:
    """``x`` sorted along ``axis`` by (value, position), lazily: the values,
    then the positions (if ``positions``) and ``payload`` in the same order
    (if given); all with ``x``'s shape and chunks."""
    if x.ndim and x.numblocks[axis] > 1 and _unknown_sizes(x):
        msg = (
            f"{where}: the dask backend cannot sort an array whose size is "
            f"data-dependent (None) over several chunks; compute it first "
            f"(ocean_ext.compute) or sort before masking"
        )
        raise NotImplementedError(msg)
    last = axis in (-1, x.ndim - 1)
    if not last:
        x = da.moveaxis(x, axis, -1)
        if payload is not None:
            payload = da.moveaxis(payload, axis, -1)
    fields = _sorted_last(x, positions, payload)
    return fields if last else [da.moveaxis(f, -1, axis) for f in fields]


def _ascending(x: Any, axis: int, want_indices: bool) -> Any:
    if x.numblocks[axis] == 1:
        # one chunk along the axis: the CPU sort of each chunk is the answer
        if want_indices:
            return x.map_blocks(
                lambda b: np.argsort(b, axis=axis, kind="stable").astype(_INDEX),
                dtype=_INDEX,
            )
        return _one_chunk_sort(x, axis, False)
    where = "argsort()" if want_indices else "sort()"
    fields = sorted_along(x, axis, positions=want_indices, where=where)
    return fields[-1]


def _one_chunk_sort(x: Any, axis: int, descending: bool) -> Any:
    """Each chunk sorted along ``axis`` (whole in every chunk) by the CPU
    table's sort: NumPy's fastest sort, with the stable order of equal floats
    (signed zeros, NaN payloads) restored, and native byte order."""
    func = CPU_KERNELS["sort"]
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
    func = CPU_KERNELS[name]
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
        if x.size == 0:  # (dask's reshape fails on some empty arrays)
            flat = da.zeros((0,), dtype=x.dtype)
        else:
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
        self.values, self.perm = sorted_along(flat, 0, positions=True, where=where)
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
        return self.perm[self.starts]

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
            # Note: dask's auto chunks divide by zero for some empty shapes
            return da.zeros(self.shape, dtype=_INDEX, chunks=self.shape)
        gid = da.cumsum(self.starts.astype(_INDEX)) - 1
        # scatter gid[k] to position perm[k]: sort the pairs by position
        _, back = sorted_along(self.perm, 0, payload=gid)
        return back.reshape(self.shape)


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
