"""Data-dependent sizes: what the table does on axes whose chunk sizes are
unknown (``nan`` in dask, ``None`` in ``shape``) until the graph runs.

dask needs chunk sizes to plan most of its algorithms (slicing, ``roll``,
``repeat``, reshaping, arg-reductions, ...).  Where a size is data-dependent
the table never computes it while the graph is built (that would be a hidden
compute); the sizes are computed *inside the graph* instead, by tasks:

- :func:`offsets`: a small task per chunk gives its length along an axis,
  and one more adds them up (where each chunk starts, and the total);
- :func:`slice_axis`: each chunk takes its own part of a slice from those
  offsets (no chunk is moved; a negative step reverses the chunks' order);
- :func:`take_int`: an integer index is a slice of one element, brought
  together (0 or 1 element per chunk) and checked;
- :func:`whole`: an axis gathered into one chunk, for what needs the whole
  axis at once (``fft``, ``linalg``, ``roll``, ``diff`` of unknown length):
  the memory of that axis in one task, as for a known length.

Under ``ocean_ext.known_sizes()`` (the context variable :data:`KNOWN`) a
result with data-dependent sizes has them computed when it is made
(:func:`settle`): one scheduler run that keeps only the sizes.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import dask.array as da
import numpy as np
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph

from ._native import KNOWN

__all__ = [
    "KNOWN",
    "drop_empty",
    "gather",
    "offsets",
    "settle",
    "slice_axis",
    "take_int",
    "unknown",
    "unknown_axis",
    "whole",
]


def unknown(x: Any) -> bool:
    """Whether some chunk of dask array ``x`` has an unknown size."""
    return any(c != c for dim in x.chunks for c in dim)


def unknown_axis(x: Any, axis: int) -> bool:
    """Whether the length of ``x`` along ``axis`` is data-dependent."""
    return any(c != c for c in x.chunks[axis])


def _meta(x: Any, ndim: int | None = None, dtype: Any = None) -> Any:
    """An empty chunk of ``x``'s kind (NumPy or CuPy) of ``ndim`` dimensions
    and ``dtype`` (dask's ``meta``), made anew: never a cast of ``x``'s own
    (which warns from complex to real)."""
    nd = x.ndim if ndim is None else ndim
    dt = x.dtype if dtype is None else dtype
    return _module(x._meta).empty((0,) * nd, dtype=dt)


def _module(chunk: Any) -> Any:
    from ._chunks import module_of

    return module_of(chunk)


# --- gathering an axis ------------------------------------------------------
def _concat_nested(nested: Any, axes: Sequence[int]) -> Any:
    """The blocks of a nested list (one level per axis in ``axes``) joined."""
    if not axes:
        return nested
    parts = [_concat_nested(n, axes[1:]) for n in nested]
    if len(parts) == 1:
        return parts[0]
    return _module(parts[0]).concatenate(parts, axis=axes[0])


def whole(x: Any, axes: Sequence[int]) -> Any:
    """``x`` with each axis of ``axes`` in one chunk (its other axes keep
    their chunks), whether the sizes are known or not.

    Known sizes are dask's ``rechunk``; along an axis of data-dependent
    length the chunks are joined by one task per block of the other axes.
    """
    axes = sorted({a % x.ndim for a in axes} if x.ndim else set())
    axes = [a for a in axes if x.numblocks[a] > 1]
    if not axes:
        return x
    if not any(unknown_axis(x, a) for a in axes):
        return x.rechunk(dict.fromkeys(axes, -1))
    name = f"ocean-whole-{tokenize(x.name, axes)}"
    ranges = [range(1) if a in axes else range(n) for a, n in enumerate(x.numblocks)]
    dsk: dict[Any, Any] = {}
    for idx in itertools.product(*ranges):

        def nest(level: int, key: list[int], idx: tuple[int, ...] = idx) -> Any:
            if level == len(axes):
                return (x.name, *key)
            out = []
            for i in range(x.numblocks[axes[level]]):
                k = list(key)
                k[axes[level]] = i
                out.append(nest(level + 1, k))
            return out

        dsk[(name, *idx)] = (_concat_nested, nest(0, list(idx)), tuple(axes))
    chunks = tuple(
        (sum(c),) if a in axes else c for a, c in enumerate(x.chunks)
    )  # a sum with a nan is nan: unknown stays unknown
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, chunks, meta=_meta(x))


def gather(x: Any, axis: int) -> Any:
    """``x`` in one chunk along ``axis`` (see :func:`whole`)."""
    return whole(x, [axis])


# --- offsets along an axis ----------------------------------------------------
def _length(block: Any, axis: int) -> int:
    return int(block.shape[axis])


def _starts(lengths: list[int]) -> np.ndarray:
    """Where each chunk starts, then the total length."""
    return np.cumsum([0, *lengths], dtype=np.int64)


def offsets(x: Any, axis: int) -> tuple[dict[Any, Any], Any]:
    """Tasks computing where each chunk of ``x`` starts along ``axis`` (and
    the total length, last): the graph and the key of the task whose result
    is that array.  One small task per chunk (its length; chunks of one row
    of blocks along ``axis``) and one that adds them up."""
    name = f"ocean-offsets-{tokenize(x.name, axis)}"
    dsk: dict[Any, Any] = {}
    keys = []
    for i in range(x.numblocks[axis]):
        idx = [0] * x.ndim
        idx[axis] = i
        key = (f"{name}-len", i)
        dsk[key] = (_length, (x.name, *idx), axis)
        keys.append(key)
    dsk[(name,)] = (_starts, keys)
    return dsk, (name,)


def _differ(*starts: np.ndarray) -> np.ndarray:
    return np.asarray(len({int(s[-1]) for s in starts}) > 1)


def lengths_differ(pairs: Sequence[tuple[Any, int]]) -> Any:
    """A 0-d boolean dask array: whether the arrays of ``pairs`` ((array,
    axis)) have different lengths along their axes, computed in the graph
    (a check for arrays of data-dependent size that must meet exactly)."""
    name = f"ocean-differ-{tokenize([(a.name, ax) for a, ax in pairs])}"
    dsk: dict[Any, Any] = {}
    keys = []
    for a, ax in pairs:
        d, k = offsets(a, ax)
        dsk.update(d)
        keys.append(k)
    dsk[(name,)] = (_differ, *keys)
    graph = HighLevelGraph.from_collections(
        name, dsk, dependencies=[a for a, _ in pairs]
    )
    return da.Array(graph, name, (), dtype=bool, meta=np.empty((), dtype=bool))


# --- slices ------------------------------------------------------------------
def _local(s: slice, start: int, length: int, total: int) -> slice | None:
    """The part of slice ``s`` (of an axis of length ``total``) that falls in
    the chunk of ``length`` elements starting at ``start``, as a slice of the
    chunk, in the slice's order; None when nothing falls there."""
    lo, hi, step = s.indices(total)
    if step > 0:
        first = lo if lo >= start else lo + -(-(start - lo) // step) * step
        end = min(hi, start + length)
        if first >= end:
            return None
        return slice(first - start, end - start, step)
    last = start + length - 1
    first = lo if lo <= last else lo - -(-(lo - last) // -step) * -step
    end = max(hi, start - 1)  # exclusive, going down
    if first <= end:
        return None
    stop = end - start
    return slice(first - start, stop if stop >= 0 else None, step)


def _slice_block(block: Any, starts: np.ndarray, i: int, s: slice, axis: int) -> Any:
    part = _local(s, int(starts[i]), int(block.shape[axis]), int(starts[-1]))
    key: list[Any] = [slice(None)] * block.ndim
    key[axis] = part if part is not None else slice(0, 0)
    return block[tuple(key)]


def slice_axis(x: Any, axis: int, s: slice) -> Any:
    """``x`` sliced by ``s`` along ``axis``, an axis of data-dependent length
    (the result's length there is data-dependent too).  Each chunk takes its
    part from the offsets computed in the graph; a negative step reverses the
    order of the chunks."""
    if s == slice(None):
        return x
    dsk, starts = offsets(x, axis)
    name = f"ocean-slice-{tokenize(x.name, axis, s.start, s.stop, s.step)}"
    nb = x.numblocks[axis]
    reverse = s.step is not None and s.step < 0
    for idx in itertools.product(*map(range, x.numblocks)):
        src = list(idx)
        if reverse:
            src[axis] = nb - 1 - idx[axis]
        dsk[(name, *idx)] = (
            _slice_block,
            (x.name, *src),
            starts,
            src[axis],
            s,
            axis,
        )
    chunks = list(x.chunks)
    chunks[axis] = (math.nan,) * nb
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, tuple(chunks), meta=_meta(x))


def _pick(block: Any, axis: int, index: int) -> Any:
    if block.shape[axis] != 1:
        msg = (
            f"index {index} is out of bounds for axis {axis}, whose length "
            f"depends on the data"
        )
        raise IndexError(msg)
    key: list[Any] = [slice(None)] * block.ndim
    key[axis] = 0
    return block[tuple(key)]


def take_int(x: Any, axis: int, index: int) -> Any:
    """``x[..., index, ...]`` along an axis of data-dependent length: the
    one-element slice there, brought together (an element or none from each
    chunk), then checked (IndexError when the graph runs if out of bounds)."""
    stop = index + 1 if index != -1 else None
    one = gather(slice_axis(x, axis, slice(index, stop)), axis)
    return one.map_blocks(
        _pick, axis, index, drop_axis=axis, dtype=x.dtype, meta=_meta(x, x.ndim - 1)
    )


# --- known_sizes ---------------------------------------------------------------
def _chunk_shape(block: Any) -> np.ndarray:
    return np.asarray(block.shape, dtype=np.int64)


def _shapes(blocks: list[Any]) -> np.ndarray:
    return np.stack(blocks)


def chunk_sizes(*arrays: Any) -> list[tuple[tuple[int, ...], ...]]:
    """The chunk sizes of dask ``arrays``, computed in one scheduler run that
    keeps the sizes only: a small task per chunk gives its shape (the chunk
    itself is dropped at once), and one task per array stacks them."""
    from ._backend import run_delayed

    wanted = []
    for x in arrays:
        name = f"ocean-chunk-shapes-{tokenize(x.name)}"
        dsk: dict[Any, Any] = {}
        keys = []
        for idx in itertools.product(*map(range, x.numblocks)):
            key = (f"{name}-block", *idx)
            dsk[key] = (_chunk_shape, (x.name, *idx))
            keys.append(key)
        dsk[(name, 0, 0)] = (_shapes, keys)
        graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
        n = math.prod(x.numblocks)
        wanted.append(
            da.Array(graph, name, ((n,), (x.ndim,)), dtype=np.int64,
                     meta=np.empty((0, 0), dtype=np.int64))
        )  # fmt: skip
    results = run_delayed(wanted)
    out = []
    for x, host in zip(arrays, results, strict=True):
        host = np.asarray(host).reshape(*x.numblocks, x.ndim)
        sizes = []
        for axis in range(x.ndim):
            line = [0] * x.ndim
            along = []
            for i in range(x.numblocks[axis]):
                line[axis] = i
                along.append(int(host[(*line, axis)]))
            sizes.append(tuple(along))
        out.append(tuple(sizes))
    return out


def with_sizes(*arrays: Any) -> list[Any]:
    """``arrays`` (dask arrays) with their unknown chunk sizes computed (one
    run for all): the same graphs, under the same names, with known chunks."""
    todo = [i for i, x in enumerate(arrays) if unknown(x)]
    out = list(arrays)
    if todo:
        sizes = chunk_sizes(*[arrays[i] for i in todo])
        for i, chunks in zip(todo, sizes, strict=True):
            x = arrays[i]
            out[i] = da.Array(x.dask, x.name, chunks, meta=x._meta)
    return out


def _is_data(v: Any) -> bool:
    """Whether a graph value is a chunk in memory (NumPy or CuPy array, or a
    cluster's future of one), not a task."""
    return (hasattr(v, "shape") and hasattr(v, "dtype")) or (
        type(v).__name__ == "Future"
    )


def drop_empty(x: Any) -> Any:
    """``x`` (a dask array) without its empty (0-length) chunks.

    Note: dask mishandles arrays with empty chunks next to others: a
    negative step slice of chunks ``(2, 0, 1)`` is empty, and a length-1 axis
    in chunks ``(0, 0, 1)`` is broadcast chunk by chunk (a wrong shape) and
    counted once per chunk by ``matmul``.  Every handle is made without them
    (``LazyArray``): the remaining chunks keep their keys' values (one alias
    per chunk, or the chunk itself where it is in memory, so persisted arrays
    stay persisted); an axis of length 0 keeps one empty chunk.  Sizes that
    are data-dependent (``nan``) are kept as they are."""
    keep = []
    for c in x.chunks:
        k = [i for i, n in enumerate(c) if n != 0]
        keep.append(k if k else [0])
    name = f"ocean-nonempty-{tokenize(x.name, keep)}"
    layer = x.dask.layers.get(x.name)
    mapping = getattr(layer, "mapping", None)
    dsk: dict[Any, Any] = {}
    alias = False
    for new, old in zip(
        itertools.product(*(range(len(k)) for k in keep)),
        itertools.product(*keep),
        strict=True,
    ):
        key = (x.name, *old)
        value = mapping.get(key) if isinstance(mapping, dict) else None
        if value is not None and _is_data(value):
            dsk[(name, *new)] = value
        else:
            dsk[(name, *new)] = key
            alias = True
    graph = HighLevelGraph.from_collections(
        name, dsk, dependencies=[x] if alias else []
    )
    chunks = tuple(tuple(c[i] for i in k) for c, k in zip(x.chunks, keep, strict=True))
    res = da.Array(graph, name, chunks, meta=x._meta)
    parts = getattr(x, "_ocean_parts", None)
    if parts is not None:
        res._ocean_parts = parts
    return res


def settle(res: Any) -> Any:
    """Under ``known_sizes()``: ``res`` (a dask array, or a tuple of them) with
    data-dependent sizes computed, all in one scheduler run; else ``res``."""
    if not KNOWN.get():
        return res
    if isinstance(res, da.Array):
        return with_sizes(res)[0]
    if isinstance(res, (tuple, list)):
        arrays = [r for r in res if isinstance(r, da.Array)]
        done = iter(with_sizes(*arrays))
        return res.__class__(next(done) if isinstance(r, da.Array) else r for r in res)
    return res


# --- pairing chunks of data-dependent size ------------------------------------------
def _forget(x: Any, axes: set[int]) -> Any:
    """``x`` with its sizes along ``axes`` declared unknown, so that dask
    pairs its chunks with chunks of unknown size.

    The chunks are ``x``'s under another name (one alias per chunk): dask
    keys what it knows of an operand's chunks by its name, so ``x @ x``
    would see one array with two chunkings."""
    chunks = tuple(
        tuple(math.nan for _ in c) if a in axes else c for a, c in enumerate(x.chunks)
    )
    if all(n != n for a in axes for n in x.chunks[a]):
        return x  # unknown already
    name = f"ocean-forget-{tokenize(x.name, sorted(axes))}"
    dsk = {
        (name, *idx): (x.name, *idx)
        for idx in itertools.product(*(range(n) for n in x.numblocks))
    }
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x])
    return da.Array(graph, name, chunks, meta=x._meta)


def partition(x: Any, axis: int) -> Any:
    """What cut ``x``'s chunks of data-dependent size along ``axis``: arrays
    with the same partition token have chunks of the same sizes there.

    The table tags what it knows (:func:`tag`): a boolean mask gives its
    result the mask's token, and elementwise functions pass on their
    operands' common token.  Anything else is its own partition."""
    parts = getattr(x, "_ocean_parts", None)
    if parts is not None and axis in parts:
        return parts[axis]
    return (x.name, axis)


def tag(x: Any, parts: dict[int, Any]) -> Any:
    """``x`` with partition tokens for some of its axes (see partition)."""
    if parts:
        x._ocean_parts = parts
    return x


def keep(res: Any, src: Any) -> Any:
    """``res``, cut as ``src`` (of the same shape; astype, copy): its
    partition tokens (see partition)."""
    if unknown(src) and res.ndim == src.ndim:
        tag(
            res, {a: partition(src, a) for a in range(src.ndim) if unknown_axis(src, a)}
        )
    return res


def align(args: Sequence[Any]) -> tuple[list[Any], list[list[tuple[int, int]]]]:
    """Operands of an elementwise function (dask arrays and scalars) ready
    for dask to pair their chunks, where some have data-dependent sizes.

    dask pairs chunks by position.  Along an output axis where two operands
    or more have a length (not a broadcast 1) and one of them is unknown:

    - all unknown, with as many chunks: paired chunk by chunk (arrays masked
      alike are cut alike); the returned checks say which (operand, axis)
      pairs each task verifies (:func:`checked`): chunks that differ raise
      ValueError when the graph runs, never a broadcast of a chunk of one;
    - else: that axis is made whole in each of them (one chunk each), so
      that the pairing is exact.

    Returns the operands and the checks (one list of (operand index, axis)
    per checked axis).  Arrays cut alike are those of one partition token
    (:func:`partition`); arrays cut by different masks are aligned by
    making the axis whole, however many chunks they have.
    """
    out = list(args)
    arrays = [(i, a) for i, a in enumerate(args) if isinstance(a, da.Array)]
    if not any(unknown(a) for _, a in arrays):
        return out, []
    nd = max(a.ndim for _, a in arrays)
    gather_axes: dict[int, set[int]] = {}
    forget_axes: dict[int, set[int]] = {}
    checks: list[list[tuple[int, int]]] = []
    for ax in range(nd):
        parts = []
        for i, a in arrays:
            la = ax - (nd - a.ndim)
            if la < 0 or (not unknown_axis(a, la) and a.shape[la] == 1):
                continue
            parts.append((i, la))
        if len(parts) < 2 or not any(unknown_axis(args[i], la) for i, la in parts):
            continue
        counts = {args[i].numblocks[la] for i, la in parts}
        tokens = {partition(args[i], la) for i, la in parts}
        if (
            len(counts) == 1
            and len(tokens) == 1
            and all(unknown_axis(args[i], la) for i, la in parts)
        ):
            if counts != {1}:
                checks.append(parts)
            for i, la in parts:  # one nan per chunk in each (dask compares)
                forget_axes.setdefault(i, set()).add(la)
            continue
        for i, la in parts:
            gather_axes.setdefault(i, set()).add(la)
            if not unknown_axis(args[i], la):
                forget_axes.setdefault(i, set()).add(la)
    for i, axes in gather_axes.items():
        out[i] = whole(out[i], sorted(axes))
    for i, axes in forget_axes.items():
        if any(not all(c != c for c in out[i].chunks[a]) for a in axes):
            out[i] = _forget(out[i], axes)
    return out, checks


def common_parts(args: Sequence[Any], nd: int) -> dict[int, Any]:
    """The partition tokens an elementwise result of ``nd`` dimensions takes
    from its operands: along each axis of data-dependent length, the token
    all its unknown operands share (axes where they differ get none)."""
    out: dict[int, Any] = {}
    for ax in range(nd):
        tokens = set()
        for a in args:
            if not isinstance(a, da.Array):
                continue
            la = ax - (nd - a.ndim)
            if la >= 0 and unknown_axis(a, la):
                tokens.add(partition(a, la))
        if len(tokens) == 1:
            out[ax] = tokens.pop()
    return out


def checked(func: Any, checks: list[list[tuple[int, int]]]) -> Any:
    """``func`` on chunks, after checking that the chunks paired along each
    axis of ``checks`` have the same length there (ValueError else)."""
    if not checks:
        return func

    def run(*blocks: Any) -> Any:
        for parts in checks:
            lengths = {blocks[i].shape[la] for i, la in parts}
            if len(lengths) > 1:
                msg = (
                    f"operands could not be broadcast together: arrays of "
                    f"data-dependent size (None) met in chunks of "
                    f"{sorted(lengths)} elements (they were cut by different "
                    f"masks); compute or persist them first "
                    f"(ocean_ext.compute, ocean_ext.persist)"
                )
                raise ValueError(msg)
        return func(*blocks)

    run.__name__ = getattr(func, "__name__", "chunk")
    return run


# --- selections along an axis of data-dependent length --------------------------------
def _select_block(block: Any, starts: np.ndarray, i: int, item: Any, axis: int) -> Any:
    """Which elements of a chunk (along ``axis``) slice or integer ``item``
    selects, as a 1-d boolean array (the chunk's kind); IndexError for an
    integer out of bounds."""
    xpm = _module(block)
    n = int(starts[-1])
    pos = xpm.arange(int(starts[i]), int(starts[i]) + block.shape[axis])
    if isinstance(item, slice):
        lo, hi, step = item.indices(n)
        if step > 0:
            return (pos >= lo) & (pos < hi) & ((pos - lo) % step == 0)
        return (pos <= lo) & (pos > hi) & ((lo - pos) % -step == 0)
    if hasattr(item, "ndim"):  # an index array (whole): its places
        idx = item.reshape(-1)
        bad = (idx >= n) | (idx < -n) if idx.dtype.kind != "u" else idx >= n
        if bad.any():
            v = int(idx[bad][0])
            msg = f"index {v} is out of bounds for axis {axis} with size {n}"
            raise IndexError(msg)
        idx = xpm.where(idx < 0, idx + n, idx)
        return xpm.isin(pos, idx)
    if not -n <= item < n:
        msg = (
            f"index {item} is out of bounds for axis {axis} with size {n} "
            f"(data-dependent)"
        )
        raise IndexError(msg)
    return pos == (item if item >= 0 else n + item)


def selected(x: Any, axis: int, item: Any) -> Any:
    """The elements of ``x`` along ``axis`` (of data-dependent length) that a
    slice or an integer selects: a 1-d boolean dask array chunked as ``x``
    along ``axis``, computed from the offsets in the graph."""
    dsk, starts = offsets(x, axis)
    deps = [x]
    arg = item
    if isinstance(item, da.Array):  # an index array: whole, in each task
        item = gather(item, 0) if item.ndim else item
        deps.append(item)
        arg = (item.name, *(0,) * item.ndim)
    token = tokenize(x.name, axis, item if isinstance(item, da.Array) else repr(item))
    name = f"ocean-select-{token}"
    for i in range(x.numblocks[axis]):
        idx = [0] * x.ndim
        idx[axis] = i
        dsk[(name, i)] = (_select_block, (x.name, *idx), starts, i, arg, axis)
    chunks = (tuple(math.nan for _ in x.chunks[axis]),)
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=deps)
    return da.Array(graph, name, chunks, meta=_meta(x, 1, bool))


def align_labels(
    a: Any,
    a_ind: Sequence[Any],
    b: Any,
    b_ind: Sequence[Any],
    out_ind: Sequence[Any] = (),
) -> tuple[Any, Any]:
    """Two operands of a product (``blockwise`` labels), ready for dask to
    unify their chunks along the labels they share where sizes are
    data-dependent: cut alike (one partition token, as many chunks) they
    pair chunk by chunk; else the shared axis is made whole in both (see
    :func:`align`)."""
    if not (unknown(a) or unknown(b)):
        return a, b
    fa: set[int] = set()
    fb: set[int] = set()
    ga: list[int] = []
    gb: list[int] = []
    for da_, label in enumerate(a_ind):
        if label not in b_ind:
            continue
        db = list(b_ind).index(label)
        ua, ub = unknown_axis(a, da_), unknown_axis(b, db)
        if not (ua or ub):
            continue
        if label in out_ind and (
            (not ua and a.shape[da_] == 1) or (not ub and b.shape[db] == 1)
        ):
            continue  # a broadcast axis: dask pairs its one block with all
        if (
            ua
            and ub
            and a.numblocks[da_] == b.numblocks[db]
            and partition(a, da_) == partition(b, db)
        ):
            fa.add(da_)
            fb.add(db)
            continue
        ga.append(da_)
        gb.append(db)
        fa.add(da_)
        fb.add(db)
    if ga:
        a, b = whole(a, ga), whole(b, gb)
    if fa:
        a = _forget(a, fa)
    if fb:
        b = _forget(b, fb)
    return a, b
