"""The dask backend's function table.

Entries follow the CPU table's names and calling conventions
(``docs/dev/backends.md``) on ``LazyArray`` handles.  Each entry is written on
dask arrays and lifted by :func:`_lift`, which unwraps the handles and wraps
the results.  Nothing here computes: every entry only builds a graph.

How entries are built:

- Elementwise functions (and the ``ocean_ext`` float16/complex32 ones) run the
  CPU backend's own entry on each chunk (``dask.array.core.elemwise``), so
  every correction of NumPy the CPU table makes holds here too, and float16 and
  complex32 go through our compiled CPU kernels, chunk by chunk.
- Reductions, manipulation, indexing and searching are dask's distributed
  algorithms, corrected where dask departs from the standard (``# Note:``
  comments).
- ``matmul`` and ``tensordot`` are in :mod:`._contract` (each output block is
  one chain of tasks adding up its partial products, with cheap operand
  blocks recomputed where they are used: a few blocks in memory at a time).
- Functions of whole matrices (``linalg``) and of whole axes (``fft``) run the
  CPU entry on chunks that hold each matrix / each transformed axis entire
  (``dask.array.apply_gufunc``); batch dimensions stay chunked.
- ``sort``, ``argsort`` and ``unique_*`` are in :mod:`._sort` (a sample sort
  with exact splits: no task holds much more than one chunk).

The same functions build the graphs of CuPy chunks (the devices
``dask:cuda:<i>``): :func:`build_ops` with ``gpu=True`` takes its per-chunk
kernels from the CUDA table, and the few places that make chunks of their own
ask :mod:`._chunks` for the current kind (``_chunks.current()``, set while a
GPU table entry runs); ``sort``, ``argsort`` and ``unique_*`` of CuPy chunks
are in :mod:`._cusort` (CuPy has no structured dtypes).
"""

from __future__ import annotations

import functools
import itertools
import math
import warnings
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import dask.array as da
import numpy as np
from dask.array.core import elemwise
from ocean_cpu._common import ELEMENTWISE, reduced

from . import _chunks, _contract, _cusort, _sizes, _sort
from ._native import LazyArray, unwrap

__all__ = ["build_ops", "from_numpy"]

_Array = da.Array
_inf = math.inf


def _chunks_for(shape: tuple[int, ...], chunks: Any = "auto") -> Any:
    # Note: dask's automatic chunking divides by zero for shapes with a zero
    # length next to others; an empty array is one (empty) chunk.
    return tuple(shape) if 0 in shape else chunks


def from_numpy(host: Any, chunks: Any = "auto") -> LazyArray:
    """A handle over NumPy data (referenced, not copied; the caller copies)."""
    host = np.asarray(host)
    if host.dtype == object:
        # Note: dask cannot size object chunks; one chunk, so that the front
        # end sees the dtype and reports the input it cannot take
        chunks = host.shape
    chunks = _chunks_for(host.shape, chunks) if chunks == "auto" else chunks
    return LazyArray(_chunks.embed(host, chunks))


def _out(res: Any) -> Any:
    if isinstance(res, _Array):
        return LazyArray(res)
    c = res.__class__
    if c is tuple or c is list:
        return tuple([_out(r) for r in res])
    g = _chunks.current()
    if g is not None and isinstance(res, g.ndarray):
        return LazyArray(_chunks.from_device(res))
    if isinstance(res, (np.ndarray, np.generic)):
        return from_numpy(res)
    return res


def _lift(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    """An entry on handles from ``func`` on dask arrays.

    ``out=`` (the in-place operators) names a handle: it is rebound to the
    result, cast to its dtype, and returned.
    """

    def entry(*args: Any, out: LazyArray | None = None, **kwargs: Any) -> Any:
        if out is not None:
            out.check_writeable()
        native = [unwrap(a) for a in args]
        try:
            with warnings.catch_warnings():
                # dask's notes on its own plans (how many chunks an algorithm
                # makes): the table chooses them, the caller cannot act on it
                warnings.simplefilter("ignore", da.PerformanceWarning)
                res = func(*native, **kwargs)
        except (ValueError, TypeError, IndexError) as exc:
            if _internal_unknown(exc, native):
                raise _refused(name) from None
            raise
        if _sizes.KNOWN.get():  # ocean_ext.known_sizes(): sizes now
            res = _sizes.settle(res)
        if out is not None:
            res = _fit_out(res, out)
            rebind(out, _sizes.keep(res.astype(out.arr.dtype, copy=False), res))
            return out
        return _out(res)

    entry.__name__ = entry.__qualname__ = f"dask_{name}"
    entry.__wrapped__ = func  # type: ignore[attr-defined]
    return entry


def _fit_out(res: Any, out: LazyArray) -> Any:
    """``res``, the result of an in-place operator into ``out``, checked to
    have ``out``'s shape.

    Note: as NumPy's ``out=``: an in-place operator cannot broadcast its
    target to a new shape.  Where a size is data-dependent (None) on either
    side the check runs with the graph (ValueError when the result is
    computed): a target of data-dependent length 1 must not grow to the
    other operand's length, and an operand of data-dependent length may meet
    a target of known length (which keeps its known shape)."""
    rs, os_ = _shape_of(res), out.shape
    msg = (
        f"non-broadcastable output operand with shape {out.shape} doesn't "
        f"match the broadcast shape {rs}"
    )
    if len(rs) != len(os_) or any(
        r is not None and o is not None and r != o for r, o in zip(rs, os_, strict=True)
    ):
        raise ValueError(msg)
    known = [
        a
        for a, (r, o) in enumerate(zip(rs, os_, strict=True))
        if r is None and o is not None
    ]
    if known:  # one chunk along each (as ``_sizes.align`` makes them), sized
        if any(res.numblocks[a] != 1 for a in known):
            res = _sizes.whole(res, known)
        sizes = {a: os_[a] for a in known}

        def fits(block: Any) -> Any:
            if any(block.shape[a] != n for a, n in sizes.items()):
                raise ValueError(msg)
            return block

        chunks = tuple((os_[a],) if a in sizes else c for a, c in enumerate(res.chunks))
        res = res.map_blocks(fits, chunks=chunks, dtype=res.dtype, meta=res._meta)
    target = out.arr
    for a, o in enumerate(os_):
        if o is None:
            flag = _sizes.lengths_differ([(res, a), (target, a)])
            res = _raise_if(res, flag, ValueError(msg))
    return res


# What dask (or arithmetic on its nan sizes) raises when an algorithm needs
# chunk sizes that are data-dependent
_UNKNOWN_ERRORS = (
    "chunk sizes are unknown",
    "unknown chunk",
    "chunksizes",
    "cannot convert float nan to integer",
    "chunks must be unchanging",
    "nonetype",
)


def _internal_unknown(exc: BaseException, args: Sequence[Any]) -> bool:
    """Whether ``exc`` is dask's (or Python's) failure on data-dependent
    sizes among ``args``: never an error about the caller's input."""

    def unknown_in(a: Any) -> bool:
        if isinstance(a, _Array):
            return _sizes.unknown(a)
        if isinstance(a, (tuple, list)):
            return any(unknown_in(b) for b in a)
        return False

    text = str(exc).lower()
    return any(unknown_in(a) for a in args) and any(p in text for p in _UNKNOWN_ERRORS)


def _refused(name: str) -> NotImplementedError:
    """The error of a table entry that cannot run lazily on data-dependent
    sizes (a safety net: the entries handle them, and the tests look for the
    cases that reach here)."""
    return NotImplementedError(
        f"{name}(): not available on the dask device for arrays of "
        f"data-dependent size (None in shape); compute or persist them first "
        f"(ocean_ext.compute, ocean_ext.persist), or make the sizes known "
        f"where they are made (with ocean_ext.known_sizes():)"
    )


def _shape_of(arr: Any) -> tuple[int | None, ...]:
    return LazyArray(arr).shape


def _unknown(n: float) -> bool:
    return n != n  # nan: a data-dependent size


# --- elementwise ------------------------------------------------------------
def _chunkwise(
    func: Callable[..., Any], probe: Callable[..., Any] | None = None
) -> Callable[..., Any]:
    """An elementwise entry running ``func`` (a CPU entry) on each chunk.

    The result dtype comes from ``probe`` (for a CUDA kernel on CuPy chunks:
    the CPU entry of the same name; else ``func``) called on one-element
    NumPy samples of the arrays and on the scalars themselves, so that an
    error the scalars cause (an integer to a negative power) is raised at
    the call, as on the CPU.

    Note: dask's ``elemwise`` infers the dtype the same way but answers
    ``NotImplemented`` (which became a 0-d array holding it) when the
    function raises on its samples.
    """
    probe = func if probe is None else probe

    def entry(*args: Any) -> Any:
        if not any(isinstance(a, _Array) for a in args):
            return func(*args)
        return _elemwise(func, *args, dtype=_probe_dtype(probe, args))

    return entry


def _elemwise(func: Callable[..., Any], *args: Any, dtype: Any) -> Any:
    """dask's ``elemwise``, with operands of data-dependent size paired
    exactly (``_sizes.align``: checked chunk by chunk, or made whole)."""
    args2, checks = _sizes.align(args)
    res = elemwise(_sizes.checked(func, checks), *args2, dtype=dtype)
    if _sizes.unknown(res):  # cut as its operands: their partition
        _sizes.tag(res, _sizes.common_parts(args2, res.ndim))
    return res


def _probe_dtype(probe: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """The dtype ``probe`` gives for NumPy samples of ``args``' dtypes (ones:
    no value outside a function's domain) and for the scalars among them."""
    vals = [
        np.ones((1,) * max(1, a.ndim), dtype=a.dtype) if isinstance(a, _Array) else a
        for a in args
    ]
    with np.errstate(all="ignore"):
        return np.asarray(probe(*vals)).dtype


def _clip(x: Any, lo: Any, hi: Any) -> Any:
    cpu_clip = _chunks.kernels()["clip"]
    if lo is None and hi is None:
        return x.copy()
    if lo is None:
        return _elemwise(lambda a, h: cpu_clip(a, None, h), x, hi, dtype=x.dtype)
    if hi is None:
        return _elemwise(lambda a, lo_: cpu_clip(a, lo_, None), x, lo, dtype=x.dtype)
    return _elemwise(cpu_clip, x, lo, hi, dtype=x.dtype)


def _raise_if(value: Any, flag: Any, exc: BaseException) -> Any:
    """``value``, whose chunks raise ``exc`` when they are computed if the
    0-d boolean ``flag`` is true: a check of values that runs with the graph
    (the front end's ``raise_if``), so that building the result computes
    nothing."""

    def check(v: Any, f: Any) -> Any:
        if bool(f):
            raise exc
        return v

    ind = tuple(range(value.ndim))
    return da.blockwise(
        check, ind, value, ind, flag, (), dtype=value.dtype, meta=value._meta
    )


def _after(value: Any, checks: Sequence[Any]) -> Any:
    """``value``, whose chunks wait for every chunk of the dask arrays
    ``checks`` (index arrays checked when the graph runs): an empty result
    still raises their IndexError, as NumPy checks indices it selects none
    with.

    Note: dask builds an empty selection without the index's chunks."""
    if not checks:
        return value

    def touched(b: Any) -> Any:
        return _chunks.module_of(b).zeros((1,) * b.ndim, dtype=bool)

    flags = []
    for c in checks:
        one = tuple((1,) * n for n in c.numblocks)
        flags.append(c.map_blocks(touched, chunks=one, dtype=bool).any())
    flag = flags[0]
    for f in flags[1:]:
        flag = flag | f
    return _raise_if(value, flag, AssertionError("unreachable"))


def _full_like(x: Any, value: Any) -> Any:
    """``value`` (0-d) in the shape of ``x``, chunk by chunk: no size needed
    (``*_like`` of arrays of data-dependent size)."""

    def block(b: Any, v: Any) -> Any:
        return _chunks.module_of(v).full(b.shape, v, dtype=v.dtype)

    ind = tuple(range(x.ndim))
    return da.blockwise(
        block,
        ind,
        x,
        ind,
        value,
        (),
        dtype=value.dtype,
        meta=_sizes._meta(x, dtype=value.dtype),
    )


def _where(cond: Any, x1: Any, x2: Any) -> Any:
    dtype = _probe_dtype(np.where, (cond, x1, x2))
    return _elemwise(_chunk_where, cond, x1, x2, dtype=dtype)


def _chunk_where(c: Any, a: Any, b: Any) -> Any:
    return _chunks.module_of(c).where(c, a, b)


# --- creation ---------------------------------------------------------------
# (``_chunks.creation_kw``: {} for NumPy chunks, CuPy ``meta`` and a name
# saying the GPU for CuPy chunks)
def _zeros(index: int, shape: tuple[int, ...], dtype: Any) -> Any:
    chunks = _chunks_for(shape)
    kw = _chunks.creation_kw("zeros", shape, dtype, chunks)
    return da.zeros(shape, dtype=dtype, chunks=chunks, **kw)


def _ones(index: int, shape: tuple[int, ...], dtype: Any) -> Any:
    chunks = _chunks_for(shape)
    kw = _chunks.creation_kw("ones", shape, dtype, chunks)
    return da.ones(shape, dtype=dtype, chunks=chunks, **kw)


def _empty(index: int, shape: tuple[int, ...], dtype: Any) -> Any:
    # Note: dask's empty chunks are uninitialised memory, as the standard allows.
    chunks = _chunks_for(shape)
    kw = _chunks.creation_kw("empty", shape, dtype, chunks)
    return da.empty(shape, dtype=dtype, chunks=chunks, **kw)


def _full(index: int, shape: tuple[int, ...], fill: Any, dtype: Any) -> Any:
    value = np.asarray(fill, dtype=dtype)[()]
    chunks = _chunks_for(shape)
    kw = _chunks.creation_kw("full", shape, dtype, chunks, value.tobytes())
    return da.full(shape, value, dtype=dtype, chunks=chunks, **kw)


def _arange(index: int, start: Any, stop: Any, step: Any, dtype: Any) -> Any:
    # Note: the length is NumPy's ceil((stop - start) / step) (dask's own
    # arange can differ by one for float steps).  Floating values are NumPy's
    # (as on cpu:0): its fill stores start and start + step in the dtype,
    # then element i is start + i * delta with delta their difference, in
    # the dtype's arithmetic (float32 for float16); integers: start + i * step.
    with np.errstate(all="ignore"):
        n = int(max(math.ceil((stop - start) / step), 0))
    dtype = np.dtype(dtype)
    if n == 0:
        return _zeros(index, (0,), dtype)

    def block(i: Any) -> Any:
        if dtype.kind == "f":
            work = np.dtype(np.float32) if dtype.itemsize < 4 else dtype
            first = dtype.type(start)
            second = dtype.type(start + step)
            s0, s1 = work.type(first), work.type(second)
            with np.errstate(all="ignore"):
                v = (s0 + i.astype(work) * (s1 - s0)).astype(dtype)
            v[i == 0] = first
            v[i == 1] = second
            return v
        return (start + i * step).astype(dtype)

    return elemwise(block, _chunks.arange(0, n, dtype=np.int64), dtype=dtype)


def _eye(index: int, n: int, m: int, k: int, dtype: Any) -> Any:
    # Note: dask's eye fails for some non-square shapes; the diagonal is
    # where column - row == k, over chunks chosen for the 2-D shape.
    if 0 in (n, m):  # nothing to compute (and no auto chunks, see _chunks_for)
        return _zeros(index, (n, m), dtype)
    rc, cc = da.core.normalize_chunks("auto", (n, m), dtype=np.dtype(dtype))
    rows = _chunks.arange(0, n, chunks=(rc,), dtype=np.int64)[:, None]
    cols = _chunks.arange(0, m, chunks=(cc,), dtype=np.int64)[None, :]
    return (cols - rows == k).astype(dtype)


def _linspace(
    index: int, start: Any, stop: Any, num: int, dtype: Any, endpoint: bool
) -> Any:
    # NumPy's values, computed chunk by chunk from the element index.
    cpu = functools.partial(
        np.linspace, start, stop, num, endpoint=endpoint, dtype=dtype
    )
    if num <= 1:
        if _chunks.current() is not None:  # [start] or []: filled on the GPU
            return _full(index, (num,), start if num else 0, dtype)
        return from_numpy(cpu()).arr
    idx = _chunks.arange(0, num, dtype=np.int64)
    div = (num - 1) if endpoint else num
    step = (stop - start) / div
    xpm = _chunks.module()

    def block(i: Any) -> Any:
        res = xpm.asarray(start + i * step)
        if endpoint:
            res = np.where(i == num - 1, stop, res)
        return res.astype(dtype)

    return elemwise(block, idx, dtype=dtype)


def _clamped(offset: int, shape: tuple[int, ...]) -> int:
    """A diagonal's ``offset`` moved into ``[-rows, cols]`` of a chunk's
    matrices, as the front end does where the lengths are known (past
    either end the diagonal is empty; NumPy takes a C int)."""
    return max(-shape[-2], min(shape[-1], offset))


def _tri(lower: bool) -> Callable[..., Any]:
    def tri(x: Any, k: int) -> Any:
        if _sizes.unknown_axis(x, -2) or _sizes.unknown_axis(x, -1):
            # the matrices whole in each chunk, the chunk kernel on each
            kernel = _chunks.kernels()["tril" if lower else "triu"]
            xw = _sizes.whole(x, [x.ndim - 2, x.ndim - 1])
            return xw.map_blocks(lambda b: kernel(b, k), dtype=x.dtype, meta=x._meta)
        m, n = x.shape[-2], x.shape[-1]
        rows = _chunks.arange(0, m, chunks=x.chunks[-2], dtype=np.int64)[:, None]
        cols = _chunks.arange(0, n, chunks=x.chunks[-1], dtype=np.int64)[None, :]
        keep = (cols - rows <= k) if lower else (cols - rows >= k)
        return da.where(keep, x, x.dtype.type(0))

    return tri


def _meshgrid(arrays: Sequence[Any], indexing: str) -> Any:
    """Each output is its input broadcast over the grid, chunk by chunk (one
    output chunk per combination of the inputs' chunks): no size is needed,
    so inputs of data-dependent length work too.

    Note: not dask's ``meshgrid``, which broadcasts to the full shape and so
    needs every length.
    """
    n = len(arrays)
    if n == 0:
        return ()
    order = list(range(n))
    if indexing == "xy" and n > 1:
        order[0], order[1] = 1, 0
    # grid axis of each input: input i varies along output axis pos[i]
    pos = {inp: ax for ax, inp in enumerate(order)}
    outs = []
    for i, a in enumerate(arrays):

        def block(*blocks: Any, i: int = i) -> Any:
            shape = tuple(blocks[order[ax]].shape[0] for ax in range(n))
            view = [1] * n
            view[pos[i]] = -1
            xpm = _chunks.module_of(blocks[i])
            b = blocks[i].reshape(tuple(view))
            return xpm.broadcast_to(b, shape).copy()

        args: list[Any] = []
        for j, b in enumerate(arrays):
            args.extend([b, (pos[j],)])
        outs.append(
            da.blockwise(
                block,
                tuple(range(n)),
                *args,
                dtype=a.dtype,
                meta=_sizes._meta(a, n),
                concatenate=False,
                align_arrays=False,
            )
        )
    return tuple(outs)


def _concat(arrays: Sequence[Any], axis: int | None, dtype: Any) -> Any:
    if axis is None:
        arrays = [_rs(a, (-1,)) for a in arrays]
        axis = 0
    if dtype is not None:
        arrays = [a.astype(dtype) for a in arrays]
    arrays, unknown = _join_aligned(arrays, axis)
    return da.concatenate(arrays, axis=axis, allow_unknown_chunksizes=unknown)


def _stack(arrays: Sequence[Any], axis: int, dtype: Any) -> Any:
    if dtype is not None:
        arrays = [a.astype(dtype) for a in arrays]
    arrays, unknown = _join_aligned(arrays, None)
    if unknown:
        new = (slice(None),) * axis + (None,)
        return da.concatenate(
            [a[new] for a in arrays], axis=axis, allow_unknown_chunksizes=True
        )
    return da.stack(arrays, axis=axis)


def _join_aligned(arrays: Sequence[Any], axis: int | None) -> tuple[list[Any], bool]:
    """``arrays`` ready to be joined along ``axis`` (None: a new axis), chunk
    by chunk along the others, where some sizes there are data-dependent;
    and whether they are.

    Note: dask refuses to join arrays of unknown sizes.  Arrays cut alike
    (one partition token: masked by the same mask, see ``_sizes.partition``)
    join chunk by chunk; an axis cut otherwise (other masks, other chunk
    counts, or a known length next to an unknown one) is made whole in each
    array first, and lengths that differ raise NumPy's ValueError when the
    graph runs.
    """
    out = list(arrays)
    nd = out[0].ndim
    unknown = False
    checks: list[Any] = []
    for ax in range(nd):
        if ax == axis:
            continue
        if not any(_sizes.unknown_axis(a, ax) for a in out):
            continue
        unknown = True
        counts = {a.numblocks[ax] for a in out}
        tokens = {_sizes.partition(a, ax) for a in out}
        if (
            len(counts) == 1
            and len(tokens) == 1
            and all(_sizes.unknown_axis(a, ax) for a in out)
        ):
            continue
        checks.append(_sizes.lengths_differ([(a, ax) for a in out]))
        out = [_sizes.whole(a, [ax]) for a in out]
        out = [
            a if _sizes.unknown_axis(a, ax) else _sizes._forget(a, {ax}) for a in out
        ]
    if checks:
        # Note: dask puts the joined chunks in place by assignment, which
        # would broadcast a chunk of one row into a longer one: lengths that
        # differ must raise first, as NumPy's concatenate does
        flag = checks[0]
        for c in checks[1:]:
            flag = flag | c
        exc = ValueError(
            "all the input array dimensions except for the concatenation axis "
            "must match exactly: arrays of data-dependent size (None) have "
            "different lengths"
        )
        out = [_raise_if(a, flag, exc) for a in out]
    return out, unknown


def _broadcast_to(x: Any, shape: tuple[int, ...]) -> Any:
    """dask's ``broadcast_to``; an axis of data-dependent length is made
    whole and given its target length (NumPy's ValueError when the graph runs
    if the chunk does not broadcast to it)."""
    if any(s is None or _unknown(s) for s in shape):
        return _broadcast_to_unknown(x, shape)
    if _sizes.unknown(x):
        # each axis of data-dependent length whole, and its chunk broadcast
        # to the target length there: NumPy's ValueError when the graph runs
        # if that length is neither the target's nor 1 (a length is only
        # declared, never assumed)
        lead = len(shape) - x.ndim
        axes = [a for a in range(x.ndim) if _sizes.unknown_axis(x, a)]
        xw = _sizes.whole(x, axes)
        chunks = tuple(
            (shape[lead + a],) if a in axes else c for a, c in enumerate(xw.chunks)
        )
        target = {a: int(shape[lead + a]) for a in axes}

        def block(b: Any) -> Any:
            want = tuple(target.get(a, n) for a, n in enumerate(b.shape))
            return _chunks.module_of(b).broadcast_to(b, want)

        x = xw.map_blocks(block, chunks=chunks, dtype=xw.dtype, meta=xw._meta)
    return da.broadcast_to(x, shape)


def _broadcast_like(x: Any, *others: Any) -> Any:
    """``x`` broadcast against ``others`` (its values, its dtype), chunk by
    chunk as an elementwise function pairs them: for ``broadcast_arrays``
    with data-dependent sizes, where a length of 1 meets one of them."""

    def block(b: Any, *bs: Any) -> Any:
        xpm = _chunks.module_of(b)
        want = np.broadcast_shapes(b.shape, *[o.shape for o in bs])
        return xpm.broadcast_to(b, want)

    return _elemwise(block, x, *others, dtype=x.dtype)


def _broadcast_to_unknown(x: Any, shape: tuple[Any, ...]) -> Any:
    """``broadcast_to`` a shape with data-dependent sizes (None: from
    ``broadcast_arrays`` with an array of such sizes): those axes keep the
    chunks of ``x``, which has them too; each chunk is broadcast along the
    others."""
    lead = len(shape) - x.ndim
    x = x[(None,) * lead] if lead else x
    target: list[Any] = []
    chunks: list[Any] = []
    for d, t in enumerate(shape):
        n = x.shape[d]
        if t is None or _unknown(t):
            if not _unknown(n) and n == 1 and x.numblocks[d] == 1:
                msg = (
                    "broadcast_to(): a length of 1 cannot be broadcast lazily "
                    "to a data-dependent length (None) on the dask device; "
                    "compute the arrays first (ocean_ext.compute)"
                )
                raise NotImplementedError(msg)
            target.append(None)  # the chunk's own length
            chunks.append(tuple(math.nan for _ in x.chunks[d]))
        elif not _unknown(n) and n == 1 and t != 1:
            target.append(int(t))
            chunks.append((int(t),))
        else:
            target.append(None)
            chunks.append(x.chunks[d])

    def block(b: Any) -> Any:
        want = tuple(b.shape[i] if t is None else t for i, t in enumerate(target))
        return _chunks.module_of(b).broadcast_to(b, want)

    return x.map_blocks(block, chunks=tuple(chunks), dtype=x.dtype, meta=x._meta)


def _expand_dims(x: Any, axes: tuple[int, ...]) -> Any:
    key: list[Any] = [slice(None)] * x.ndim
    for a in sorted(axes):
        key.insert(a, None)
    return x[tuple(key)]


def _flip(x: Any, axis: tuple[int, ...] | None) -> Any:
    rev = slice(None, None, -1)
    axes = range(x.ndim) if axis is None else axis
    key: list[Any] = [slice(None)] * x.ndim
    for a in axes:
        key[a] = rev
    return _getitem(x, tuple(key))  # (axes of data-dependent length too)


def _moveaxis(x: Any, source: tuple[int, ...], destination: tuple[int, ...]) -> Any:
    return da.moveaxis(x, source, destination)


def _repeat(x: Any, repeats: Any, axis: int | None) -> Any:
    if axis is None:
        x = _rs(x, (-1,))
        axis = 0
    if not _unknown(x.shape[axis]) and x.shape[axis] == 0:
        return x  # dask's repeat fails on empty input
    if not isinstance(repeats, _Array):
        reps = int(repeats)
        if reps == 0:
            if _sizes.unknown(x):
                return _sizes.slice_axis(x, axis, slice(0, 0))
            shape = list(x.shape)
            shape[axis] = 0
            return _zeros(0, tuple(shape), x.dtype)
        if _sizes.unknown(x):
            # Note: dask's repeat needs the chunk sizes; each chunk repeats
            # its own elements.
            chunks = list(x.chunks)
            chunks[axis] = tuple(c * reps for c in chunks[axis])
            return x.map_blocks(
                lambda b: _chunks.module_of(b).repeat(b, reps, axis=axis),
                chunks=tuple(chunks),
                dtype=x.dtype,
                meta=x._meta,
            )
        return da.repeat(x, reps, axis=axis)
    # One count per element: each chunk repeats its own elements; the chunk
    # lengths along ``axis`` are then data-dependent (None), and the total is
    # sum(repeats), unknown before the graph runs.
    if repeats.ndim == 0 or (not _unknown(repeats.shape[0]) and repeats.shape[0] == 1):
        repeats = _rs(repeats, (1,))
        if _sizes.unknown_axis(x, axis):
            x = _sizes.gather(x, axis)
            reps = da.broadcast_to(repeats, (1,))  # one chunk, broadcast in it
        else:
            reps = da.broadcast_to(repeats, (x.shape[axis],))
    else:
        reps = repeats
    reps = reps.astype(np.int64)
    if _sizes.unknown_axis(x, axis) or _sizes.unknown(reps):
        # chunks that may not line up: the axis whole on both sides
        x = _sizes.gather(x, axis)
        reps = _sizes.gather(reps, 0)
    else:
        reps = reps.rechunk((x.chunks[axis],))

    g = _chunks.current()
    if g is None:

        def block(xb: Any, rb: Any) -> Any:
            r = rb.reshape(-1)
            if r.shape[0] == 1 and xb.shape[axis] != 1:
                r = np.broadcast_to(r, (xb.shape[axis],))
            return np.repeat(xb, r, axis=axis)

    else:  # CuPy's repeat takes no array of counts: the CUDA table's entry
        rep = g.kernel("repeat")

        def block(xb: Any, rb: Any) -> Any:
            return rep(xb, rb.reshape(-1), axis)

    chunks = list(x.chunks)
    chunks[axis] = (np.nan,) * len(x.chunks[axis])
    return da.map_blocks(
        block,
        x,
        _broadcastable(reps, x.ndim, axis),
        dtype=x.dtype,
        chunks=tuple(chunks),
        meta=x._meta,
    )


def _broadcastable(r: Any, ndim: int, axis: int) -> Any:
    """1-D ``r`` reshaped to broadcast along ``axis`` of an ``ndim``-d array."""
    shape = [1] * ndim
    shape[axis] = -1
    return _rs(r, tuple(shape))


def _reshape(x: Any, shape: tuple[int, ...], copy: bool | None) -> Any:
    for s in shape:
        if not isinstance(s, (int, np.integer)):
            # Note: as NumPy (dask accepts floats); the front end reports it
            msg = f"'{type(s).__name__}' object cannot be interpreted as an integer"
            raise TypeError(msg)
    if tuple(x.shape) == tuple(shape):
        return x.copy() if copy else x
    if _sizes.unknown(x):
        return _reshape_unknown(x, tuple(int(s) for s in shape))
    shape = _infer(tuple(int(s) for s in shape), math.prod(x.shape))
    if math.prod(shape) != math.prod(x.shape):
        msg = f"cannot reshape array of size {math.prod(x.shape)} into shape {shape}"
        raise ValueError(msg)
    if 0 in shape:
        return _zeros(0, shape, x.dtype)  # no values: dask fails on some
    try:
        return x.reshape(shape, merge_chunks=True)
    except NotImplementedError:
        # Note: dask reshapes only what merges or splits axes along their
        # chunks (not (6, 4) -> (4, 6) in some chunkings): through the flat
        # array, in chunks of whole rows of the result.
        flat = x.rechunk(dict.fromkeys(range(1, x.ndim), -1)).reshape(-1)
        row = math.prod(shape[1:])
        per = max(1, flat.chunksize[0] // row) * row
        return flat.rechunk(per).reshape(shape, merge_chunks=True)


def _rs(x: Any, shape: tuple[int, ...]) -> Any:
    """``x`` reshaped as the table's ``reshape`` does it (any chunks, empty
    arrays and data-dependent sizes)."""
    return _reshape(x, shape, None)


def _infer(shape: tuple[int, ...], size: int) -> tuple[int, ...]:
    if -1 not in shape:
        return shape
    known = math.prod(s for s in shape if s != -1)
    if known == 0 or size % known:
        msg = f"cannot reshape array of size {size} into shape {shape}"
        raise ValueError(msg)
    return tuple(size // known if s == -1 else s for s in shape)


def _reshape_unknown(x: Any, shape: tuple[int, ...]) -> Any:
    """``reshape`` of an array of data-dependent size.  To one dimension: each
    chunk of whole rows (the other axes made whole) flattened; to several:
    the array in one chunk, reshaped when the graph runs (NumPy's ValueError
    then if the sizes do not fit)."""
    if len(shape) == 1:
        rows = _sizes.whole(x, range(1, x.ndim)) if x.ndim > 1 else x
        flat = rows.map_blocks(
            lambda b: b.reshape(-1),
            chunks=((math.nan,) * rows.numblocks[0],) if rows.ndim else ((1,),),
            drop_axis=list(range(1, rows.ndim)),
            new_axis=None if rows.ndim else [0],
            dtype=x.dtype,
            meta=_sizes._meta(x, 1),
        )
        if shape[0] != -1:
            flat = _check_size(flat, shape)
        return flat
    one = _sizes.whole(x, range(x.ndim))
    chunks = tuple((math.nan,) if s == -1 else (s,) for s in shape)
    nd = x.ndim
    return da.map_blocks(
        lambda b: b.reshape(shape),
        one,
        chunks=chunks,
        drop_axis=list(range(nd)),
        new_axis=list(range(len(shape))),
        dtype=x.dtype,
        meta=_sizes._meta(x, len(shape)),
    )


def _check_size(flat: Any, shape: tuple[int, ...]) -> Any:
    """``flat`` (1-d, of data-dependent length), whose chunks raise NumPy's
    ValueError when computed unless its length is ``shape[0]``."""
    n = _count(flat, None, False)

    def check(v: Any, t: Any) -> Any:
        if int(t) != shape[0]:
            msg = f"cannot reshape array of size {int(t)} into shape {shape}"
            raise ValueError(msg)
        return v

    return da.blockwise(
        check, (0,), flat, (0,), n, (), dtype=flat.dtype, meta=flat._meta
    )


def _roll(x: Any, shift: Any, axis: Any) -> Any:
    if not _sizes.unknown(x):
        if 0 in x.shape:
            return x  # dask's roll fails on empty input (its reshape)
        if isinstance(axis, tuple) and not isinstance(shift, tuple):
            # Note: NumPy shifts every axis of a tuple by an int shift; dask
            # wants one shift per axis
            shift = (shift,) * len(axis)
        return da.roll(x, shift, axis=axis)
    # Note: dask's roll needs the lengths; along axes of data-dependent
    # length the chunk kernel rolls them whole (every axis for axis=None).
    axes = (
        range(x.ndim)
        if axis is None
        else (axis if isinstance(axis, tuple) else (axis,))
    )
    xw = _sizes.whole(x, axes)
    kernel = _chunks.kernels()["roll"]
    return xw.map_blocks(lambda b: kernel(b, shift, axis), dtype=x.dtype, meta=x._meta)


def _squeeze(x: Any, axis: Any) -> Any:
    axes = _axes(x.ndim, axis)
    unknown = [a for a in axes if _sizes.unknown_axis(x, a)]
    if unknown:
        # Note: dask squeezes by the sizes; an axis of data-dependent length
        # is made whole, and squeezed in its chunk (NumPy's ValueError when
        # the graph runs if it is not of length 1)
        xw = _sizes.whole(x, unknown)
        chunks = tuple((1,) if a in unknown else c for a, c in enumerate(xw.chunks))
        x = da.Array(xw.dask, xw.name, chunks, meta=xw._meta)
        x = x.map_blocks(_squeeze_check, tuple(unknown), dtype=x.dtype, meta=x._meta)
    return da.squeeze(x, axis=axes)


def _squeeze_check(b: Any, axes: tuple[int, ...]) -> Any:
    for a in axes:
        if b.shape[a] != 1:
            msg = f"cannot select an axis to squeeze out which has size not equal to one (axis {a}, size {b.shape[a]})"
            raise ValueError(msg)
    return b


def _tile(x: Any, reps: tuple[int, ...]) -> Any:
    reps = tuple(reps)
    if len(reps) < x.ndim:
        reps = (1,) * (x.ndim - len(reps)) + reps
    if len(reps) > x.ndim:
        x = x[(None,) * (len(reps) - x.ndim)]
    out = x
    for ax, r in enumerate(reps):
        if r == 1:
            continue
        if r == 0:
            if _sizes.unknown(out):
                out = _sizes.slice_axis(out, ax, slice(0, 0))
                continue
            shape = list(out.shape)
            shape[ax] = 0
            out = _zeros(0, tuple(shape), x.dtype)
            continue
        out = da.concatenate(
            [out] * r, axis=ax, allow_unknown_chunksizes=_sizes.unknown(out)
        )
    return out


def _unstack(x: Any, axis: int) -> Any:
    if _sizes.unknown_axis(x, axis):
        msg = (
            f"unstack(): axis {axis} has a data-dependent length (None) on the "
            f"dask device, so the number of arrays to return is unknown until "
            f"the graph runs; compute the array first (ocean_ext.compute or "
            f"ocean_ext.persist)"
        )
        raise NotImplementedError(msg)
    key: list[Any] = [slice(None)] * x.ndim
    out = []
    for i in range(x.shape[axis]):
        key[axis] = i
        out.append(x[tuple(key)])
    return tuple(out)


# --- views ------------------------------------------------------------------
def _is_basic(key: Any) -> bool:
    """Whether ``key`` (unwrapped) is a basic index: NumPy gives a view."""
    for k in key if key.__class__ is tuple else (key,):
        if k is None or k is Ellipsis or k.__class__ is slice:
            continue
        if isinstance(k, (int, np.integer)) and not isinstance(k, (bool, np.bool_)):
            continue
        return False
    return True


def _on_device_of(h: LazyArray, build: Callable[[], Any]) -> Any:
    """``build()``, with ``h``'s GPU current when its chunks are CuPy's."""
    if h.gpu is None:
        return build()
    return _chunks.on_gpu(h.gpu, build)


def index(x: LazyArray, key: Any) -> LazyArray:
    """``x[key]`` on handles: the table's getitem; for a basic key, the
    result is a view of ``x`` (``_native``: writes go through both ways)."""
    key = unwrap(key)
    res = _on_device_of(x, lambda: _lifted_getitem(x, key))
    if _is_basic(key) and (
        # as NumPy: integers on every axis give a scalar (a copy), unless
        # the key holds an ellipsis
        res.ndim
        or any(k is Ellipsis for k in (key if key.__class__ is tuple else (key,)))
    ):
        _link(res, x, key)
    return res  # type: ignore[no-any-return]


def _link(view: LazyArray, parent: LazyArray, key: Any) -> None:
    view.parent = parent
    view.key = key
    view._src = parent.arr
    if parent.views is None:
        parent.views = weakref.WeakSet()
    parent.views.add(view)  # (read-only reaches it: LazyArray.blocker)


def derive(parent: LazyArray, key: Any, src: Any) -> Any:
    """The dask array of ``parent[key]`` (a view's graph, derived again)
    where ``src`` is the dask array of ``parent``, already up to date (so
    that deriving a chain of views reads each handle's graph once)."""
    return _on_device_of(parent, lambda: _lifted_getitem(src, key)).arr


def _through(
    x: LazyArray, key: Any, value: Any
) -> tuple[LazyArray, tuple[Any, ...]] | None:
    """For a write ``x[key] = value`` into a view ``x``: the root handle and
    the key selecting the same elements in it, in the same order (so that
    ``value`` broadcasts alike), or None where that needs sizes that are
    data-dependent, a key that is not basic, or an array value along an axis
    a view's ``None`` made: the write then goes through the view's own graph
    (``rebind``).  IndexError for a key the view itself refuses."""
    keys = key if key.__class__ is tuple else (key,)
    if not _is_basic(keys) or any(k is None for k in keys):
        return None
    array_value = getattr(value, "ndim", 0) > 0
    h = x
    while h.parent is not None:
        p = h.parent
        outer = h.key if h.key.__class__ is tuple else (h.key,)
        vshape = h.shape
        pshape = p.shape
        if None in vshape or None in pshape:
            return None
        composed = _compose(outer, keys, pshape, vshape, array_value)
        if composed is None:
            return None
        keys = composed
        h = p
    return h, keys


def _compose(
    outer: tuple[Any, ...],
    inner: tuple[Any, ...],
    pshape: tuple[int, ...],
    vshape: tuple[int, ...],
    array_value: bool,
) -> tuple[Any, ...] | None:
    """The key on the parent (shape ``pshape``) of ``parent[outer][inner]``
    (``outer`` and ``inner`` basic, ``inner`` without ``None``; ``vshape``
    is the shape of ``parent[outer]``): without ``None``, whose axes (length
    1) an integer of ``inner`` removes and a slice keeps, which only a
    scalar value may lose (else None).  IndexError as NumPy's for too many
    indices or one out of bounds."""
    used = sum(1 for k in inner if k is not Ellipsis)
    if used > len(vshape):
        msg = (
            f"too many indices for array: array is {len(vshape)}-dimensional, "
            f"but {used} were indexed"
        )
        raise IndexError(msg)
    outer = _expand_ellipsis(outer, len(pshape))
    inner = _expand_ellipsis(inner, len(vshape))
    out: list[Any] = []
    va = 0  # the axis of the view
    pa = 0  # the axis of the parent
    for k in outer:
        if k is None:  # a new axis of the view, of length 1
            j = inner[va]
            if j.__class__ is slice:
                if array_value or not range(1)[j]:
                    return None
            elif not -1 <= j < 1:
                msg = f"index {j} is out of bounds for axis {va} with size 1"
                raise IndexError(msg)
            va += 1
            continue
        n = pshape[pa]
        pa += 1
        if k.__class__ is not slice:
            out.append(int(k) + n if k < 0 else int(k))
            continue
        r = range(*k.indices(n))
        j = inner[va]
        if j.__class__ is slice:
            rr = r[j]
            if not rr:
                out.append(slice(0, 0))
            else:
                stop = rr[-1] + (1 if rr.step > 0 else -1)
                out.append(slice(rr[0], stop if stop >= 0 else None, rr.step))
        else:
            m = len(r)
            if not -m <= j < m:
                msg = f"index {j} is out of bounds for axis {va} with size {m}"
                raise IndexError(msg)
            out.append(r[int(j)])
        va += 1
    return tuple(out)


def rebind(x: LazyArray, arr: Any) -> None:
    """Make ``arr`` (a dask array) the graph of ``x``, as a write into ``x``:
    for a view, the new values are written into its parent (and so on up to
    the root); the views of the handles written derive their graphs again
    when next read (``LazyArray.arr``).  On an error ``x`` is left as it
    was."""
    parent = x.parent
    old = x._arr
    x.arr = arr
    if parent is None:
        return
    try:
        _on_device_of(
            parent, lambda: _setitem(parent, x.key, x, back=True, checked=True)
        )
    except NotImplementedError:
        x._arr = old
        msg = (
            "__setitem__(): on the dask device, a write into a view (basic "
            "indexing) of an array of data-dependent size (None) along a sliced "
            "axis cannot reach that array without the sizes; compute it first "
            "(ocean_ext.compute or ocean_ext.persist), or write into it with "
            "one key"
        )
        raise NotImplementedError(msg) from None
    except BaseException:
        x._arr = old
        raise


# --- indexing ---------------------------------------------------------------
def _getitem(x: Any, key: Any) -> Any:
    keys = key if key.__class__ is tuple else (key,)
    _check_slices(keys)
    if len(keys) == 1 and isinstance(keys[0], _Array) and keys[0].dtype == bool:
        mask = keys[0]
        _check_mask(x, mask)
        if _selects_nothing(mask):
            return _nothing_selected(x, mask)
        if mask.ndim == 0:
            # Note: dask takes no 0-d mask; x[m] is x[None][m[None]] (0 or 1 rows)
            return x[None][mask[None]]
        if mask.ndim == 1:
            if _unknown_mask_axes(x, mask):
                return _mask_unknown(x, mask)
            # arrays masked by one mask (chunked alike) are cut alike
            token = ("mask", mask.name, x.chunks[0])
            return _sizes.tag(x[mask], {0: token})
        if mask.ndim > 1:
            # Note: dask takes a mask of one or of all dimensions (which it
            # flattens with its reshape, failing on some empty arrays); a mask
            # over the leading k is a 1-d mask of their (row-major) merge.
            if _sizes.unknown(x) or _sizes.unknown(mask):
                return _mask_unknown(x, mask)
            rest = x.shape[mask.ndim :]
            count = math.prod(mask.shape)
            if count == 0:
                return _zeros(0, (0, *rest), x.dtype)
            merged = _rs(x, (count, *rest))
            return merged[_rs(mask, (-1,))]
        return x[mask]
    keys = _expand_ellipsis(keys, x.ndim)
    keys = _normalized(keys, x.shape)
    if _sizes.unknown(x):
        x, keys = _index_unknown(x, keys, "__getitem__()")
    arrays = [k for k in keys if isinstance(k, _Array)]
    if arrays and (
        len(arrays) > 1
        or arrays[0].ndim > 1
        or any(k is None or not isinstance(k, (slice, _Array)) for k in keys)
    ):
        # several arrays, an n-d one, or an array with integers (which NumPy
        # then treats as 0-d index arrays) or None
        return _advanced(x, keys)
    if arrays and arrays[0].dtype.kind in "iu":
        # Note: dask gathers with a dask index array lazily; negative indices
        # count from the end, as in NumPy.
        with warnings.catch_warnings():
            # dask casts a complex meta array to the index's dtype on the way
            # (a ComplexWarning about its own empty meta, not about data)
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            keys = tuple(_wrap_negative(k, x, keys) for k in keys)
            res = x[keys]
        if 0 in res.shape:
            res = _after(res, [k for k in keys if isinstance(k, _Array)])
        return res
    if all(isinstance(k, slice) and k == slice(None) for k in keys):
        return x
    return x[tuple(keys)]


_lifted_getitem = _lift(_getitem, "getitem")  # handles in, a handle out


def _canonical(s: slice, n: int) -> slice:
    """Slice ``s`` of an axis of length ``n`` with the bounds of the elements
    it selects: non-negative, in range (``None`` for the stop of a negative
    step that runs to the start), ``0:0`` when it selects none.

    Note: dask normalises some slices wrongly, e.g. a negative step from a
    start below ``-n`` (``x[-4::-1]`` of 3 elements gave all of them, where
    NumPy gives none); these slices are ones it reads as NumPy does.
    """
    r = range(*s.indices(n))
    if not r:
        return slice(0, 0, 1)
    if r.step > 0:
        return slice(r[0], r[-1] + 1, r.step)
    end = r[-1] - 1
    return slice(r[0], end if end >= 0 else None, r.step)


def _normalized(keys: tuple[Any, ...], shape: tuple[Any, ...]) -> tuple[Any, ...]:
    """``keys`` (no ``...``: see _expand_ellipsis) with every slice of an
    axis of known length in canonical form (_canonical)."""
    out: list[Any] = []
    axis = 0
    for k in keys:
        if k is None:
            out.append(k)
            continue
        if isinstance(k, slice):
            n = shape[axis]
            if not _unknown(n) and k != slice(None):
                k = _canonical(k, int(n))
        out.append(k)
        axis += k.ndim if isinstance(k, _Array) and k.dtype == bool else 1
    return tuple(out)


def _index_unknown(
    x: Any, keys: tuple[Any, ...], where: str
) -> tuple[Any, tuple[Any, ...]]:
    """Apply the items of ``keys`` (spelled out, no ``...``) that index an
    axis of data-dependent length, with offsets computed in the graph
    (``_sizes``): slices (each chunk takes its part), integers (a slice of one
    element, checked when the graph runs) and a lone 1-d index array (the
    axis gathered).  Returns ``x`` so indexed and the rest of the key, for
    dask; several or n-d index arrays (and integers with them) are left to
    ``_advanced``, which makes the indexed axes whole.
    """
    axes: list[int] = []  # the axis of x each key item indexes (-1: None)
    axis = 0
    for k in keys:
        axes.append(-1 if k is None else axis)
        if k is not None:
            axis += 1
    todo = [
        i
        for i, k in enumerate(keys)
        if axes[i] >= 0
        and _sizes.unknown_axis(x, axes[i])
        and not (isinstance(k, slice) and k == slice(None))
    ]
    if not todo:
        return x, keys
    arrays = [i for i, k in enumerate(keys) if isinstance(k, _Array)]
    if any(i in arrays for i in todo) and (len(arrays) > 1 or keys[arrays[0]].ndim > 1):
        # several (or n-d) index arrays: _advanced, with the indexed axes
        # whole; slices and integers of other unknown axes first
        todo = [i for i in todo if i not in arrays]
        arrays_key = True
    else:
        arrays_key = False
    out = list(keys)
    for i in todo:  # slices and index arrays keep the axis
        k = keys[i]
        if isinstance(k, slice):
            x = _sizes.slice_axis(x, axes[i], k)
            out[i] = slice(None)
        elif isinstance(k, _Array):
            # a 0-d index array as a 1-d one of one element, its axis
            # dropped below (as an integer's)
            x = _take_unknown(x, k[None] if k.ndim == 0 else k, axes[i])
            out[i] = slice(None)
    if arrays_key:  # integers index with the arrays (NumPy's 0-d arrays)
        return x, tuple(out)
    for i in sorted(todo, reverse=True):  # integers drop it: the last first
        k = keys[i]
        if not isinstance(k, (slice, _Array)):
            x = _sizes.take_int(x, axes[i], int(k))
            del out[i]
        elif isinstance(k, _Array) and k.ndim == 0:
            x = x[(slice(None),) * axes[i] + (0,)]  # a known length, 1
            del out[i]
    return x, tuple(out)


def _take_unknown(x: Any, idx: Any, axis: int) -> Any:
    """``x`` indexed by the 1-d integer array ``idx`` along ``axis``, an axis
    of data-dependent length: the axis in one chunk, each chunk of ``idx``
    taking from it (bounds checked when the graph runs)."""
    xw = _sizes.gather(x, axis)
    letters = [chr(ord("a") + i) for i in range(x.ndim)]
    x_ind = "".join([*letters[:axis], "z", *letters[axis + 1 :]])
    out_ind = "".join([*letters[:axis], "y", *letters[axis + 1 :]])

    def block(b: Any, i: Any) -> Any:
        n = b.shape[axis]
        bad = (i >= n) if i.dtype.kind == "u" else (i < -n) | (i >= n)
        if bad.any():
            v = int(i[bad].reshape(-1)[0])
            msg = f"index {v} is out of bounds for axis {axis} with size {n}"
            raise IndexError(msg)
        i = i.astype(np.int64, copy=False)
        xpm = _chunks.module_of(b)
        return xpm.take(b, xpm.where(i < 0, i + n, i), axis=axis)

    return da.blockwise(
        block,
        out_ind,
        xw,
        x_ind,
        idx,
        "y",
        dtype=x.dtype,
        concatenate=True,
        meta=x._meta,
    )


def _unknown_mask_axes(x: Any, mask: Any) -> bool:
    """Whether ``x[mask]`` meets a data-dependent length along the masked
    axes (in ``x`` or in ``mask``)."""
    return any(
        _sizes.unknown_axis(x, i) or _sizes.unknown_axis(mask, i)
        for i in range(mask.ndim)
    )


def _mask_unknown(x: Any, mask: Any) -> Any:
    """``x[mask]`` where the masked axes have data-dependent lengths (in
    ``x``, in ``mask`` or both), lazily: the masked axes but the first made
    whole (chunks then hold whole rows of them, in row-major order), and the
    first paired chunk by chunk where ``x`` and ``mask`` are cut alike (one
    partition token, as many chunks: ``y[y > 0]``), else made whole in both
    (a mask from another array).  Each task masks its part, checking the
    lengths when the graph runs: NumPy's IndexError where they differ (a
    mask length of 0 fits any, selecting nothing, as on the CPU)."""
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    k = mask.ndim
    x = _sizes.whole(x, range(1, k))
    mask = _sizes.whole(mask, range(1, k))
    ux, um = _sizes.unknown_axis(x, 0), _sizes.unknown_axis(mask, 0)
    alike = (
        ux
        and um
        and x.numblocks[0] == mask.numblocks[0]
        and _sizes.partition(x, 0) == _sizes.partition(mask, 0)
    )
    if not (ux or um):
        if x.numblocks[0] != mask.numblocks[0] or x.chunks[0] != mask.chunks[0]:
            mask = mask.rechunk({0: x.chunks[0]})
    elif not alike:
        x, mask = _sizes.gather(x, 0), _sizes.gather(mask, 0)
    name = f"ocean-mask-{tokenize(x.name, mask.name)}"
    dsk: dict[Any, Any] = {}
    rest = x.numblocks[k:]
    for i in range(x.numblocks[0]):
        for r in itertools.product(*map(range, rest)):
            dsk[(name, i, *r)] = (
                _masked_block,
                (x.name, i, *(0,) * (k - 1), *r),
                (mask.name, i, *(0,) * (k - 1)),
            )
    chunks = ((math.nan,) * x.numblocks[0], *x.chunks[k:])
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=[x, mask])
    res = da.Array(graph, name, chunks, meta=_sizes._meta(x, x.ndim - k + 1))
    if alike and x.numblocks[0] > 1:
        # arrays masked by one mask, cut alike, are cut alike
        _sizes.tag(res, {0: ("mask", mask.name, _sizes.partition(x, 0))})
    return res


def _masked_block(b: Any, m: Any) -> Any:
    k = m.ndim
    if 0 in m.shape:  # (a length of 0 fits any: nothing selected)
        return _chunks.module_of(b).empty((0, *b.shape[k:]), dtype=b.dtype)
    for i in range(k):
        if m.shape[i] != b.shape[i]:
            msg = (
                f"__getitem__(): boolean index did not match indexed array along "
                f"axis {i}; size of axis is {b.shape[i]} but size of "
                f"corresponding boolean axis is {m.shape[i]}"
            )
            raise IndexError(msg)
    return b[m]


def _check_slices(keys: tuple[Any, ...]) -> None:
    for k in keys:
        if isinstance(k, slice) and any(
            p is not None and not isinstance(p, (int, np.integer))
            for p in (k.start, k.stop, k.step)
        ):
            # Note: as NumPy (dask accepts float bounds), so that the front
            # end's full checks report the IndexError
            msg = "slice indices must be integers or None"
            raise TypeError(msg)


def _check_mask(x: Any, mask: Any) -> None:
    """NumPy's IndexError for a mask that does not fit (dask does not check)."""
    if mask.ndim > x.ndim:
        msg = f"boolean index of {mask.ndim} dimensions for an array of {x.ndim}"
        raise IndexError(msg)
    for i, (m, n) in enumerate(zip(mask.shape, x.shape, strict=False)):
        # Note: a size of 0 fits any length (the standard; NumPy: nothing selected)
        if m != n and m != 0 and not (_unknown(m) or _unknown(n)):
            msg = f"boolean index has size {m} in dimension {i}, the array has {n}"
            raise IndexError(msg)


def _selects_nothing(mask: Any) -> bool:
    """A mask with a dimension of size 0 (known): ``x[mask]`` selects no
    element, whatever the lengths of ``x``."""
    return any(not _unknown(m) and m == 0 for m in mask.shape)


def _check_broadcast(value: Any, shape: tuple[Any, ...]) -> None:
    """NumPy's ValueError for a value that does not broadcast to ``shape``
    (where both are known)."""
    vshape = tuple(getattr(value, "shape", ()))
    if any(_unknown(s) for s in (*vshape, *shape)):
        return
    try:
        np.broadcast_shapes(vshape, shape)
    except ValueError:
        msg = (
            f"shape mismatch: value array of shape {vshape} could not be "
            f"broadcast to indexing result of shape {shape}"
        )
        raise ValueError(msg) from None


def _nothing_selected(x: Any, mask: Any) -> Any:
    """``x[mask]`` for a mask that selects nothing: shape ``(0, *rest)``."""
    rest = x.shape[mask.ndim :]
    if any(_unknown(s) for s in rest):
        msg = (
            "__getitem__(): a boolean index with a dimension of size 0, on an "
            "array whose other axes have data-dependent lengths (None), cannot "
            "be taken lazily on the dask device; compute the array first "
            "(ocean_ext.compute or ocean_ext.persist)"
        )
        raise NotImplementedError(msg)
    return _zeros(0, (0, *rest), x.dtype)


def _expand_ellipsis(keys: tuple[Any, ...], ndim: int) -> tuple[Any, ...]:
    """``keys`` with ``...`` spelled out as full slices (and the missing
    trailing axes too)."""
    consumed = sum(1 for k in keys if k is not None and k is not Ellipsis)
    out: list[Any] = []
    for k in keys:
        if k is Ellipsis:
            out.extend([slice(None)] * (ndim - consumed))
            consumed = ndim
        else:
            out.append(k)
    used = sum(1 for k in out if k is not None)
    out.extend([slice(None)] * (ndim - used))
    return tuple(out)


def _check_known(x: Any, keys: tuple[Any, ...], where: str) -> None:
    """Integers and slices cannot index an axis of data-dependent length:
    dask needs the chunk sizes, which only a compute gives."""
    if not any(_unknown(s) for s in x.shape):
        return
    consumed = sum(1 for k in keys if k is not None and k is not Ellipsis)
    axis = 0
    for k in keys:
        if k is Ellipsis:
            axis += x.ndim - consumed
            continue
        if k is None:
            continue
        if (
            axis < x.ndim
            and _unknown(x.shape[axis])
            and not (isinstance(k, slice) and k == slice(None))
        ):
            msg = (
                f"{where}: axis {axis} has a data-dependent length (None) on the "
                f"dask device, which an assignment with index arrays and an "
                f"array value cannot reach lazily; compute the array first "
                f"(ocean_ext.compute or ocean_ext.persist)"
            )
            raise NotImplementedError(msg)
        axis += 1 if not (isinstance(k, _Array) and k.dtype == bool) else k.ndim


def _wrap_negative(k: Any, x: Any, keys: tuple[Any, ...]) -> Any:
    if not isinstance(k, _Array) or k.dtype == bool:
        return k
    pos = _axis_of(keys, k, x.ndim)
    n = x.shape[pos]
    return _in_bounds(k, n, pos)


def _in_bounds(k: Any, n: int, axis: int) -> Any:
    """Index array ``k`` for an axis of length ``n`` as int64 with negative
    indices counted from the end, checked chunk by chunk when the graph runs:
    NumPy's IndexError for an index outside [-n, n) (dask would wrap some of
    them a second time, or fail with a message about another size)."""

    def check(b: Any) -> Any:
        bad = (b >= n) if b.dtype.kind == "u" else (b < -n) | (b >= n)
        if bad.any():
            v = int(b[bad].reshape(-1)[0])
            msg = f"index {v} is out of bounds for axis {axis} with size {n}"
            raise IndexError(msg)
        b = b.astype(np.int64, copy=False)
        return np.where(b < 0, b + n, b)

    return k.map_blocks(check, dtype=np.int64)


def _axis_of(keys: tuple[Any, ...], target: Any, ndim: int) -> int:
    """The axis of ``x`` that key item ``target`` indexes."""
    n_used = sum(1 for k in keys if k is not None and k is not Ellipsis)
    axis = 0
    for k in keys:
        if k is target:
            return axis
        if k is Ellipsis:
            axis += ndim - n_used
        elif k is not None:
            axis += 1
    return axis


def _advanced(x: Any, keys: tuple[Any, ...]) -> Any:
    """Integer-array indexing with several index arrays (or n-d ones), mixed
    with slices, ``None`` and ``...`` as NumPy does it.

    New axes (``None``) are made first and slices applied; the indexed axes
    are moved to the front and merged into one, which a flat index (the
    broadcast index arrays, integers counting as 0-d ones) gathers lazily.
    The broadcast index shape then goes where NumPy puts it: in place of the
    indexed axes when they are adjacent in the key, else first.
    """
    keys = _expand_ellipsis(keys, x.ndim)
    if any(k is None for k in keys):
        x = x[tuple(None if k is None else slice(None) for k in keys)]
        keys = tuple(slice(None) if k is None else k for k in keys)
    basic = tuple(k if isinstance(k, slice) else slice(None) for k in keys)
    x = x[basic]
    adv = [i for i, k in enumerate(keys) if not isinstance(k, slice)]
    if _sizes.unknown(x) or any(
        isinstance(keys[i], _Array) and _sizes.unknown(keys[i]) for i in adv
    ):
        return _advanced_whole(x, keys, adv)
    idx = []
    for i in adv:
        n = x.shape[i]
        k = keys[i]
        k = k if isinstance(k, _Array) else _chunks.asarray(np.int64(k))
        idx.append(_in_bounds(k, n, i))
    try:
        idx = da.broadcast_arrays(*idx)
    except ValueError:
        # Note: NumPy's IndexError (dask's broadcast raises ValueError)
        shapes = " ".join(str(tuple(k.shape)) for k in idx)
        msg = (
            f"shape mismatch: indexing arrays could not be broadcast together "
            f"with shapes {shapes}"
        )
        raise IndexError(msg) from None
    bshape = tuple(idx[0].shape)
    dims = [x.shape[i] for i in adv]
    flat = idx[0]
    for d, k in zip(dims[1:], idx[1:], strict=True):
        flat = flat * d + k
    front = da.moveaxis(x, adv, list(range(len(adv))))
    rest = front.shape[len(adv) :]
    merged = _rs(front, (math.prod(dims), *rest))
    with warnings.catch_warnings():  # as in _getitem: dask's meta cast
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        res = _rs(merged[_rs(flat, (-1,))], bshape + tuple(rest))
    if 0 in res.shape and 0 not in bshape:
        # Note: as NumPy: indices are checked where the subspace they select
        # is empty, not where they broadcast to no index at all
        res = _after(res, idx)
    adjacent = adv == list(range(adv[0], adv[0] + len(adv)))
    if adjacent and adv[0] > 0:
        nb = len(bshape)
        res = da.moveaxis(res, list(range(nb)), list(range(adv[0], adv[0] + nb)))
    return res


def _advanced_whole(x: Any, keys: tuple[Any, ...], adv: list[int]) -> Any:
    """``_advanced`` where an indexed axis, or an index array, has a
    data-dependent size: the indexed axes whole in each chunk and the index
    arrays whole in each task, NumPy's own indexing on each chunk (bounds
    checked when the graph runs).  The other axes keep their chunks."""
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    xw = _sizes.whole(x, adv)
    ks = []
    deps = [xw]
    for i in adv:
        k = keys[i]
        if isinstance(k, _Array):
            k = _sizes.whole(k, range(k.ndim))
            deps.append(k)
            ks.append((k.name, *(0,) * k.ndim))
        else:
            ks.append(int(k))
    shapes = [keys[i].shape if isinstance(keys[i], _Array) else () for i in adv]
    nb = max(len(sh) for sh in shapes)
    bshape = []
    for d in range(nb):
        dims = [sh[len(sh) - nb + d] for sh in shapes if len(sh) - nb + d >= 0]
        if any(_unknown(v) for v in dims):
            bshape.append(math.nan)
        else:
            big = [int(v) for v in dims if v != 1]
            if len(set(big)) > 1:
                msg = (
                    f"shape mismatch: indexing arrays could not be broadcast "
                    f"together with shapes {' '.join(str(tuple(sh)) for sh in shapes)}"
                )
                raise IndexError(msg)
            bshape.append(big[0] if big else 1)
    rest = [d for d in range(x.ndim) if d not in adv]
    adjacent = adv == list(range(adv[0], adv[0] + len(adv)))
    lead = [d for d in rest if d < adv[0]] if adjacent else []
    tail = [d for d in rest if d not in lead]
    name = f"ocean-take-{tokenize(xw.name, *[str(k) for k in ks])}"
    dsk: dict[Any, Any] = {}
    ranges = [range(xw.numblocks[d]) for d in rest]
    for combo in itertools.product(*ranges):
        where = dict(zip(rest, combo, strict=True))
        src = tuple(where.get(d, 0) for d in range(x.ndim))
        out = (*[where[d] for d in lead], *(0,) * nb, *[where[d] for d in tail])
        dsk[(name, *out)] = (_take_block, (xw.name, *src), tuple(adv), ks)
    chunks = (
        *[xw.chunks[d] for d in lead],
        *[(b,) for b in bshape],
        *[xw.chunks[d] for d in tail],
    )
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=deps)
    return da.Array(graph, name, chunks, meta=_sizes._meta(x, len(chunks)))


def _take_block(b: Any, adv: tuple[int, ...], ks: list[Any]) -> Any:
    """NumPy's indexing of a chunk that holds the indexed axes whole."""
    key: list[Any] = [slice(None)] * b.ndim
    xpm = _chunks.module_of(b)
    # broadcast first: NumPy checks bounds only of the indices it uses
    arrays = xpm.broadcast_arrays(*[xpm.asarray(k) for k in ks])
    for i, k in zip(adv, arrays, strict=True):
        n = b.shape[i]
        bad = (k >= n) if k.dtype.kind == "u" else (k < -n) | (k >= n)
        if bad.any():
            v = int(k[bad].reshape(-1)[0])
            msg = f"index {v} is out of bounds for axis {i} with size {n}"
            raise IndexError(msg)
        key[i] = k
    return b[tuple(key)]


def _setitem(
    x: LazyArray, key: Any, value: Any, *, back: bool = False, checked: bool = False
) -> None:
    """``x[key] = value`` on handles (``back``: ``value`` is a view of ``x``
    at ``key`` whose own graph was just written, see ``rebind``; ``checked``:
    the view written through was checked for read-only elements, which
    ``x``, holding more, could overlap where the view does not)."""
    if not checked:
        x.check_writeable()
    key = unwrap(key)
    keys = key if key.__class__ is tuple else (key,)
    if (
        getattr(value, "ndim", 0)
        and len(keys) == x.ndim
        and all(_names_one(k) for k in keys)
    ):
        value = _one_element(x.arr, keys, unwrap(value))
    if value.__class__ is LazyArray and value.parent is x and not back:
        # x[k] = x[k] (Python's ``x[k] += v`` ends so, after the view's own
        # in-place write went through): the view holds x[k]'s values already
        keys = key if key.__class__ is tuple else (key,)
        vkeys = value.key if value.key.__class__ is tuple else (value.key,)
        if len(keys) == len(vkeys) and all(
            a is b or (a.__class__ is b.__class__ and a == b)
            for a, b in zip(keys, vkeys, strict=True)
        ):
            return
    if x.parent is not None:
        # a write into a view: into the root, with the key composed, when
        # the key allows (the view derives its graph again when read)
        through = _through(x, key, value)
        if through is not None:
            _setitem(through[0], through[1], value, checked=True)
            return
    arr = x.arr
    value = unwrap(value)
    if value.__class__ in (int, float, complex, bool):
        # as NumPy: OverflowError for a Python int out of the dtype's range
        value = np.asarray(value, dtype=arr.dtype)[()]
    keys = key if key.__class__ is tuple else (key,)
    _check_slices(keys)
    if isinstance(value, _Array):
        value = value.astype(arr.dtype)
    elif value.__class__ is LazyArray:
        value = value.arr.astype(arr.dtype)
    if len(keys) == 1 and isinstance(keys[0], _Array) and keys[0].dtype == bool:
        _check_mask(arr, keys[0])
        if _selects_nothing(keys[0]):
            _check_broadcast(value, (0, *arr.shape[keys[0].ndim :]))
            return  # nothing to write
        rebind(x, _mask_assign(arr, keys[0], value))
        return
    keys = _normalized(_expand_ellipsis(keys, arr.ndim), arr.shape)
    arrays = [k for k in keys if isinstance(k, _Array)]
    if _sizes.unknown(arr) and (
        # 0-d integer arrays index as integers do (their axis dropped), an
        # integer array of one dimension with a scalar value as a selection
        all(a.ndim == 0 and a.dtype.kind in "iu" for a in arrays)
        or (len(arrays) == 1 and arrays[0].ndim == 1 and not isinstance(value, _Array))
    ):
        rebind(x, _assign_unknown(arr, keys, value))
        return
    _check_known(arr, keys, "__setitem__()")
    if any(isinstance(k, _Array) for k in keys):
        rebind(x, _scatter_assign(arr, keys, value))
        return
    sel_shape = arr[keys].shape
    value = _fit_value(value, sel_shape)
    if 0 in sel_shape:
        return  # nothing selected (dask's setitem fails on empty selections)
    keys, value = _positive_steps(keys, arr.shape, sel_shape, value)
    new = arr.copy()
    new[keys] = value  # dask rewrites `new` (a fresh object) in place
    rebind(x, new)


def _one_element(arr: Any, keys: tuple[Any, ...], value: Any) -> Any:
    """The value for ``arr[keys] = value``, where ``keys`` names one element
    and ``value`` has dimensions: NumPy's (so the CPU's) error, or a 0-d
    value.

    Note: NumPy converts an array into one element as a scalar: a bool
    element takes an array of one element, a real one raises ValueError
    ("setting an array element with a sequence"), a complex one TypeError.
    Where the key's bounds are checked only when the graph runs (index
    arrays, axes of data-dependent length), the error is raised there too,
    after them, as the CPU checks the bounds first.
    """
    one = not any(_unknown(s) for s in value.shape) and math.prod(value.shape) == 1
    kind = np.dtype(arr.dtype).kind
    if kind == "b" and one:
        return value.reshape(())
    if kind == "c":
        err: Exception = TypeError(
            "only 0-dimensional arrays can be converted to a complex element"
        )
    else:
        err = ValueError("setting an array element with a sequence.")
    lazy = [
        (ax, k)
        for ax, k in enumerate(keys)
        if isinstance(k, _Array) or _unknown(arr.shape[ax])
    ]
    if not lazy or any(_unknown(s) for s in value.shape):
        raise err
    sels = [_sizes.selected(arr, ax, k).any() for ax, k in lazy]
    checked = functools.reduce(da.logical_or, sels)  # their IndexError first
    first = value.reshape(()) if one else value.reshape(-1)[0]
    return _raise_if(first, da.logical_or(checked, True), err)


def _names_one(k: Any) -> bool:
    """Whether key item ``k`` is an integer (or a 0-d integer index array)."""
    if isinstance(k, _Array):
        return k.ndim == 0 and k.dtype.kind in "iu"
    return isinstance(k, (int, np.integer)) and not isinstance(k, bool)


def _assign_unknown(arr: Any, keys: tuple[Any, ...], value: Any) -> Any:
    """``arr[keys] = value`` for a basic key on an array of data-dependent
    size, as a selection mask: each axis the key indexes (a slice or an
    integer) gives a 1-d mask of what it selects (from offsets computed in
    the graph where the length is data-dependent), and the result takes
    ``value`` where all of them hold.  ``value`` broadcasts over the selected
    elements: along an axis that the key slices or indexes its length must
    be 1 (a value placed element by element there needs the sizes:
    NotImplementedError); along full slices it is aligned with ``arr``."""
    items: list[Any] = []  # the key item of each axis of arr
    value_axes: list[Any] = []  # for each selection axis: the arr axis, or None
    for k in keys:
        if k is None:
            value_axes.append(None)
            continue
        axis = len(items)
        items.append(k)
        if isinstance(k, slice) or (isinstance(k, _Array) and k.ndim):
            value_axes.append(axis)
    items.extend([slice(None)] * (arr.ndim - len(items)))
    value_axes.extend(range(len(keys) - value_axes.count(None), arr.ndim))
    if isinstance(value, _Array):
        nd = len(value_axes)
        shape = tuple(value.shape)
        lead = 0
        while len(shape) - lead > nd and shape[lead] == 1:
            lead += 1
        if len(shape) - lead > nd:
            msg = (
                f"could not broadcast input array of {len(shape)} dimensions "
                f"into a selection of {nd}"
            )
            raise ValueError(msg)
        v = value.reshape(shape[lead:]) if lead else value
        v = v[(None,) * (nd - v.ndim)]
        # to arr's frame: drop the new axes (length 1), add the indexed ones
        frame: list[Any] = [None] * arr.ndim
        for j, ax in enumerate(value_axes):
            if ax is None:
                if not _unknown(v.shape[j]) and v.shape[j] != 1:
                    msg = f"could not broadcast input array from shape {_show(tuple(value.shape))}"
                    raise ValueError(msg)
                continue
            frame[ax] = j
        key = tuple(0 if value_axes[j] is None else slice(None) for j in range(nd))
        v = v[key] if any(a is None for a in value_axes) else v
        kept = [ax for ax in value_axes if ax is not None]
        order = {ax: j for j, ax in enumerate(kept)}
        v = v[tuple(slice(None) if ax in order else None for ax in range(arr.ndim))]
        for ax, k in enumerate(items):
            if not (isinstance(k, slice) and k == slice(None)) and v.shape[ax] != 1:
                msg = (
                    "__setitem__(): on the dask device, an array of data-dependent "
                    "size (None) takes an array value only along whole axes "
                    "(x[..., k] = scalar, x[:, 1:3] = a value of length 1 there); "
                    "compute it first (ocean_ext.compute or ocean_ext.persist)"
                )
                raise NotImplementedError(msg)
        value = v.astype(arr.dtype)
    mask = None
    for ax, k in enumerate(items):
        if isinstance(k, slice) and k == slice(None):
            continue
        n = arr.shape[ax]
        if _unknown(n) or isinstance(k, _Array):
            m = _sizes.selected(arr, ax, k)
        else:
            host = np.zeros(int(n), dtype=bool)
            host[k] = True
            m = _chunks.asarray(host).rechunk((arr.chunks[ax],))
        m = m[tuple(slice(None) if d == ax else None for d in range(arr.ndim))]
        mask = m if mask is None else _elemwise(np.logical_and, mask, m, dtype=bool)
    if mask is None:  # whole axes: the value everywhere
        mask = True
    return _elemwise(_chunk_where, mask, value, arr, dtype=arr.dtype)


def _fit_value(value: Any, sel_shape: tuple[Any, ...]) -> Any:
    """``value`` without the leading length-1 axes beyond the selection's
    (NumPy's assignment drops them); NumPy's ValueError when it does not
    broadcast to the selection's shape (known sizes), even where the
    selection is empty."""
    shape = tuple(getattr(value, "shape", ()))
    lead = 0
    while len(shape) - lead > len(sel_shape) and shape[lead] == 1:
        lead += 1
    fits = len(shape) - lead <= len(sel_shape) and all(
        v == 1 or v == t or _unknown(v) or _unknown(t)
        for v, t in zip(
            reversed(shape[lead:]), reversed(tuple(sel_shape)), strict=False
        )
    )
    if not fits:
        msg = (
            f"could not broadcast input array from shape {_show(shape)} into "
            f"shape {_show(sel_shape)}"
        )
        raise ValueError(msg)
    if lead:
        value = value.reshape(shape[lead:])
    return value


def _show(shape: tuple[Any, ...]) -> str:
    """A shape as the front end writes it (None for a data-dependent size)."""
    dims = ["None" if _unknown(s) else str(int(s)) for s in shape]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def _scatter_assign(arr: Any, keys: tuple[Any, ...], value: Any) -> Any:
    """``arr`` with ``arr[keys] = value`` for keys with index arrays, lazily.

    The flat positions the key selects come from indexing a grid of
    positions with the same key; the (position, value) pairs are sorted by
    position (the chunked sort: stable, so the last of repeated positions
    wins, as in NumPy), and every element of ``arr`` looks its position up
    with ``searchsorted``.
    """
    n = math.prod(arr.shape)
    grid = _chunks.arange(0, n, dtype=np.int64)
    grid = _rs(grid, arr.shape).rechunk(arr.chunks)
    pos = _getitem(grid, keys)
    if 0 in pos.shape or n == 0:
        return _after(arr, [pos])  # nothing to write; indices still checked
    if not isinstance(value, _Array):
        value = _chunks.asarray(value) if _chunks.current() else da.asarray(value)
    value = _fit_value(value, pos.shape)
    vals = da.broadcast_to(value.astype(arr.dtype), pos.shape)
    if _chunks.current() is None:
        where_pos, where_val = _sort.sorted_along(
            _rs(pos, (-1,)), 0, payload=_rs(vals, (-1,)), where="__setitem__()"
        )
    else:  # CuPy chunks: no records
        where_pos, _, where_val = _cusort.sort_pairs(_rs(pos, (-1,)), _rs(vals, (-1,)))
    flat = _rs(grid, (-1,))
    j = da.searchsorted(where_pos, flat, side="right") - 1
    jc = da.maximum(j, 0)
    hit = (j >= 0) & (where_pos[jc] == flat)
    with warnings.catch_warnings():
        # dask casts a complex meta array to the index's dtype on the way
        # (a ComplexWarning about its own empty meta, not about data)
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        picked = where_val[jc]
    new = da.where(hit, picked, _rs(arr, (-1,)))
    return _rs(new, arr.shape).rechunk(arr.chunks)


def _mask_assign(arr: Any, mask: Any, value: Any) -> Any:
    """``arr`` with ``arr[mask] = value``, lazily.

    A value of one element (or a scalar) fills the selected places; a value
    with one row per selected element goes to them in order: the i-th True
    of the (row-major) mask takes row i, found with a cumulative sum.  The
    number of rows must be the number of selected elements (NumPy's
    ValueError when the graph runs, which counts them).
    """
    trailing = arr.ndim - mask.ndim
    if _unknown_mask_axes(arr, mask) and not _cut_alike(arr, mask):
        # lengths known only when the graph runs, in chunks that do not pair
        if isinstance(value, _Array):
            value = _fit_value(value, (math.nan, *arr.shape[mask.ndim :]))
        return _mask_assign_whole(arr, mask, value)
    full_mask = mask[(...,) + (None,) * trailing] if trailing else mask
    if isinstance(value, _Array):
        value = _fit_value(value, (math.nan, *arr.shape[mask.ndim :]))
    if isinstance(value, _Array) and any(_unknown(s) for s in value.shape):
        return _mask_assign_unknown(arr, mask, value)
    if not isinstance(value, _Array) or value.ndim <= trailing:
        # broadcasts over the selected elements
        return _elemwise(_chunk_where, full_mask, value, arr, dtype=arr.dtype)
    if value.shape[0] == 1:
        return _elemwise(_chunk_where, full_mask, value[0], arr, dtype=arr.dtype)
    if _sizes.unknown(arr) or _sizes.unknown(mask):
        return _mask_assign_unknown(arr, mask, value)
    rows = value
    n_rows = int(rows.shape[0])
    flat = _rs(mask, (-1,)) if mask.ndim != 1 else mask
    counts = flat.astype(np.int64)
    total = counts.sum()
    if n_rows == 0:  # nothing to write: the mask must select nothing
        return _check_count(arr, total, 0)
    order = _rs(da.cumsum(counts) - 1, mask.shape)
    # (clipped: a gather out of range never runs; the count check raises)
    order = da.where(mask, da.minimum(order, n_rows - 1), 0)
    gathered = _rs(rows[_rs(order, (-1,))], mask.shape + rows.shape[1:])
    gathered = _check_count(gathered, total, n_rows)
    return _elemwise(_chunk_where, full_mask, gathered, arr, dtype=arr.dtype)


def _check_count(value: Any, total: Any, n_rows: int) -> Any:
    """``value``, whose chunks raise NumPy's ValueError when computed if the
    mask selected ``total`` (0-d) elements and not ``n_rows``."""

    def check(v: Any, t: Any) -> Any:
        if int(t) != n_rows:
            msg = (
                f"NumPy boolean array indexing assignment cannot assign {n_rows} "
                f"input values to the {int(t)} output values where the mask is true"
            )
            raise ValueError(msg)
        return v

    ind = tuple(range(value.ndim))
    return da.blockwise(
        check, ind, value, ind, total, (), dtype=value.dtype, meta=value._meta
    )


def _mask_assign_unknown(arr: Any, mask: Any, value: Any) -> Any:
    """``arr[mask] = value`` for a value of data-dependent length (as in
    ``x[m] = f(x[m])``), lazily.

    The masked axes are merged into one (row-major, as the selection orders
    them); each chunk of ``arr`` along it takes the rows of ``value`` from
    its offset (the number of True values in the chunks before it) on.  The
    rows of ``value`` are brought together for that (dask's ``blockwise``
    concatenates them): only the selected elements, never ``arr``.  A value
    whose length differs from the number of selected elements raises NumPy's
    ValueError when the graph runs.
    """
    rest = arr.shape[mask.ndim :]
    trailing = len(rest)
    if value.ndim > trailing + 1:
        msg = (
            f"shape mismatch: value array of {value.ndim} dimensions cannot be "
            f"assigned to a selection of {trailing + 1}"
        )
        raise ValueError(msg)
    if value.ndim <= trailing:  # broadcasts over the selected elements
        full = mask[(...,) + (None,) * trailing]
        return _elemwise(_chunk_where, full, value, arr, dtype=arr.dtype)
    if _sizes.unknown(arr) or _sizes.unknown(mask):
        return _mask_assign_whole(arr, mask, value)
    arr = arr.rechunk({mask.ndim + i: -1 for i in range(trailing)})
    mask = mask.rechunk(arr.chunks[: mask.ndim])
    flat = _rs(mask, (-1,)).astype(np.int64)
    # each selected element's row in the selection (row-major order)
    order = _rs(da.cumsum(flat) - 1, mask.shape).rechunk(mask.chunks)
    total = da.sum(flat)
    value = value.astype(arr.dtype)
    if value.ndim < trailing + 1:
        value = value[None]
    value = value.rechunk({i + 1: -1 for i in range(trailing)})

    def block(a: Any, m: Any, pos: Any, rows: Any, n_sel: Any) -> Any:
        n_sel = int(n_sel)
        if rows.shape[0] not in (1, n_sel):
            msg = (
                f"shape mismatch: value array of shape {rows.shape} could not be "
                f"broadcast to indexing result of shape {(n_sel, *a.shape[m.ndim :])}"
            )
            raise ValueError(msg)
        # Note: a 0-d chunk of an elementwise result is a NumPy scalar, which
        # takes no assignment: an array of its own
        out = np.array(a) if isinstance(a, np.generic) else a.copy()
        m = np.asarray(m) if isinstance(m, np.generic) else m
        out[m] = rows[0] if rows.shape[0] == 1 else rows[pos[m]]
        return out

    lead = "".join(chr(ord("a") + i) for i in range(mask.ndim))
    tail = "".join(chr(ord("n") + i) for i in range(trailing))
    with warnings.catch_warnings():
        # dask counts the value's chunks (which "z" concatenates into one
        # per task) as if they multiplied the output's: a false warning
        warnings.simplefilter("ignore", da.PerformanceWarning)
        return _blockwise_assign(block, lead, tail, arr, mask, order, value, total)


def _cut_alike(x: Any, mask: Any) -> bool:
    """Whether ``x`` and ``mask`` pair chunk by chunk along the masked axes:
    known lengths there, or data-dependent ones cut alike (one partition
    token, as many chunks: ``y[y > 0]``)."""
    for i in range(mask.ndim):
        ux, um = _sizes.unknown_axis(x, i), _sizes.unknown_axis(mask, i)
        if (ux or um) and not (
            ux
            and um
            and x.numblocks[i] == mask.numblocks[i]
            and _sizes.partition(x, i) == _sizes.partition(mask, i)
        ):
            return False
    return True


def _mask_assign_whole(arr: Any, mask: Any, value: Any) -> Any:
    """``arr[mask] = value`` where sizes are data-dependent and the chunks
    do not pair: ``arr``, ``mask`` and an array ``value`` each brought into
    one chunk, and one task writes (NumPy's own assignment, with its errors:
    a mask that does not fit, a number of rows that is not the number of
    selected elements), as the CPU does.  The array is then held by one
    task, as an axis of data-dependent length is for ``sort``."""
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    arrays = [a for a in (arr, mask, value) if isinstance(a, _Array)]
    parts = [_sizes.whole(a, range(a.ndim)) for a in arrays]
    args: list[Any] = [(a.name, *(0,) * a.ndim) for a in parts]
    if not isinstance(value, _Array):
        args.append(value)  # a scalar
    name = f"ocean-mask-assign-{tokenize(*(a.name for a in parts), value)}"
    key = (name, *(0,) * arr.ndim)
    dsk: dict[Any, Any] = {key: (_assign_rows, *args)}
    graph = HighLevelGraph.from_collections(name, dsk, dependencies=parts)
    return da.Array(graph, name, parts[0].chunks, meta=parts[0]._meta)


def _assign_rows(a: Any, m: Any, rows: Any) -> Any:
    k = m.ndim
    for i in range(k):
        if m.shape[i] != a.shape[i] and 0 not in m.shape:
            msg = (
                f"__setitem__(): boolean index has size {m.shape[i]} in "
                f"dimension {i}, the array has {a.shape[i]}"
            )
            raise IndexError(msg)
    out = a.copy()
    if 0 in m.shape:
        m = _chunks.module_of(a).zeros(a.shape[:k], dtype=bool)
    out[m] = rows
    return out


def _blockwise_assign(
    block: Any,
    lead: str,
    tail: str,
    arr: Any,
    mask: Any,
    order: Any,
    value: Any,
    total: Any,
) -> Any:
    return da.blockwise(
        block,
        lead + tail,
        arr,
        lead + tail,
        mask,
        lead,
        order,
        lead,
        value,
        "z" + tail,
        total,
        "",
        dtype=arr.dtype,
        concatenate=True,
    )


def _positive_steps(
    keys: tuple[Any, ...], shape: tuple[int, ...], sel_shape: Any, value: Any
) -> tuple[tuple[Any, ...], Any]:
    """A basic key with slices of negative step made positive, and ``value``
    reversed along those axes of the selection.

    Note: dask's setitem fails on some slices of negative step; the same
    elements in increasing order, with the value reversed, are the same write.
    """
    consumed = sum(1 for k in keys if k is not None and k is not Ellipsis)
    out: list[Any] = []
    flip: list[int] = []
    new_axes: list[int] = []  # None items: dropped from the key (dask's
    axis = res_axis = 0  # setitem takes none), squeezed out of the value
    for k in keys:
        if k is None:
            new_axes.append(res_axis)
            res_axis += 1
        elif k is Ellipsis:
            span = len(shape) - consumed
            out.append(k)
            axis += span
            res_axis += span
        elif isinstance(k, slice):
            step = k.step if k.step is not None else 1
            if step < 0:
                idx = range(*k.indices(shape[axis]))
                k = slice(idx[-1], idx[0] + 1, -step)
                flip.append(res_axis)
            out.append(k)
            axis += 1
            res_axis += 1
        else:  # an integer
            out.append(k)
            axis += 1
    if (flip or new_axes) and isinstance(value, (_Array, np.ndarray)):
        value = da.broadcast_to(value, sel_shape)
        rev: list[Any] = [slice(None)] * len(sel_shape)
        for a in flip:
            rev[a] = slice(None, None, -1)
        for a in new_axes:
            rev[a] = 0
        value = value[tuple(rev)]
    return tuple(out), value


def _take(x: Any, indices: Any, axis: int) -> Any:
    key: list[Any] = [slice(None)] * x.ndim
    key[axis] = indices
    return _getitem(x, tuple(key))


def _take_along_axis(x: Any, indices: Any, axis: int) -> Any:
    # Each output chunk needs the whole of ``x`` along ``axis``: chunks are
    # made whole along that axis only (the others stay as they are).
    nd = x.ndim
    if _sizes.unknown(x) or _sizes.unknown(indices):
        return _take_along_unknown(x, indices, axis)
    shape_x = list(x.shape)
    shape_i = list(indices.shape)
    common = [max(a, b) for a, b in zip(shape_x, shape_i, strict=True)]
    bx = list(common)
    bx[axis] = shape_x[axis]
    bi = list(common)
    bi[axis] = shape_i[axis]
    x = da.broadcast_to(x, tuple(bx))
    indices = da.broadcast_to(indices, tuple(bi))
    x = x.rechunk({axis: -1})
    n = x.shape[axis]
    letters = [chr(ord("a") + i) for i in range(nd)]
    ind_x = "".join([*letters[:axis], "z", *letters[axis + 1 :]])
    ind_i = "".join(letters)
    # align the other axes' chunks of x and indices
    other = {i: indices.chunks[i] for i in range(nd) if i != axis}
    x = x.rechunk(other)

    def block(xb: Any, ib: Any) -> Any:
        ib = np.where(ib < 0, ib + n, ib)
        return np.take_along_axis(xb, ib.astype(np.intp), axis=axis)

    return da.blockwise(
        block, ind_i, x, ind_x, indices, ind_i, dtype=x.dtype, concatenate=True
    )


def _take_along_unknown(x: Any, indices: Any, axis: int) -> Any:
    """``take_along_axis`` where sizes are data-dependent: the axis whole on
    both sides, the other axes paired chunk by chunk where ``x`` and
    ``indices`` are cut alike (same known chunks, or masked alike) and made
    whole in both otherwise, the chunk kernel on each pair of chunks.

    Note: dask's blockwise pairs chunks by position; chunks cut otherwise
    would pair the wrong elements (and claim the wrong shape).  Lengths that
    do not broadcast raise the front end's ValueError when the graph runs.
    """
    xw = _sizes.gather(x, axis)
    iw = _sizes.gather(indices, axis)
    out_chunks = list(iw.chunks)
    for d in range(x.ndim):
        if d == axis:
            continue
        xu, iu = _sizes.unknown_axis(xw, d), _sizes.unknown_axis(iw, d)
        if not xu and not iu:
            if xw.chunks[d] == iw.chunks[d]:
                continue
            if xw.shape[d] == iw.shape[d]:
                iw = iw.rechunk({d: xw.chunks[d]})
                out_chunks[d] = xw.chunks[d]
                continue
        elif (
            xu
            and iu
            and xw.numblocks[d] == iw.numblocks[d]
            and _sizes.partition(xw, d) == _sizes.partition(iw, d)
        ):
            continue
        xw = _sizes.whole(xw, [d])
        iw = _sizes.whole(iw, [d])
        (nx,), (ni,) = xw.chunks[d], iw.chunks[d]
        if nx != nx or ni != ni:  # an unknown length, unless a known one > 1
            known = [n for n in (nx, ni) if n == n and n != 1]
            out_chunks[d] = (known[0] if known else math.nan,)
        else:
            out_chunks[d] = (max(nx, ni),)
    kernel = _chunks.kernels()["take_along_axis"]

    def block(b: Any, i: Any) -> Any:
        for d, (p, q) in enumerate(zip(b.shape, i.shape, strict=True)):
            if p != q and p != 1 and q != 1 and d != axis:
                msg = (
                    f"take_along_axis(): shapes {b.shape} of x and {i.shape} of "
                    f"indices do not broadcast outside axis {axis}"
                )
                raise ValueError(msg)
        return kernel(b, i, axis)

    ind = tuple(range(x.ndim))
    x_ind = tuple(x.ndim if d == axis else d for d in ind)
    res = da.blockwise(
        block,
        ind,
        xw,
        x_ind,
        iw,
        ind,
        dtype=x.dtype,
        concatenate=True,
        meta=x._meta,
        align_arrays=False,
    )
    if res.chunks != tuple(out_chunks):
        res = da.Array(res.dask, res.name, tuple(out_chunks), meta=res._meta)
    return res


# --- searching --------------------------------------------------------------
def _argext(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    def entry(x: Any, axis: Any, keepdims: bool) -> Any:
        if axis is None:
            flat = _rs(x, (-1,))
            res = entry(flat, 0, False)
            return _rs(res, (1,) * x.ndim) if keepdims else res
        if _sizes.unknown_axis(x, axis) or 0 in x.chunks[axis]:
            return _arg_unknown(x, axis, keepdims, name)
        return func(x, axis=axis, keepdims=keepdims)

    return entry


def _arg_unknown(x: Any, axis: int, keepdims: bool, name: str) -> Any:
    """``argmax``/``argmin`` along an axis of data-dependent length (or with
    empty chunks): each chunk's first extreme and its index (shifted by where
    the chunk starts, computed in the graph), then a chain over the chunks
    keeping the first extreme (NaN first, as NumPy).  No chunk at all raises
    NumPy's ValueError when the graph runs.

    Note: dask's arg-reductions need the chunk sizes.
    """
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    kernel = _chunks.kernels()[name]
    out = f"ocean-{name}-{tokenize(x.name, axis, keepdims)}"
    if _sizes.unknown_axis(x, axis):
        dsk, starts = _sizes.offsets(x, axis)
    else:
        dsk = {}
        starts = np.cumsum((0, *x.chunks[axis]), dtype=np.int64)
    nb = x.numblocks[axis]
    others = [range(n) if d != axis else range(1) for d, n in enumerate(x.numblocks)]
    for idx in itertools.product(*others):
        acc = None
        for i in range(nb):
            src = list(idx)
            src[axis] = i
            local = (f"{out}-local", *src)
            dsk[local] = (_arg_local, kernel, (x.name, *src), axis, starts, i)
            key = (f"{out}-acc", *src)
            dsk[key] = (_arg_pick, acc, local, name)
            acc = key
        res_idx = list(idx) if keepdims else [d for j, d in enumerate(idx) if j != axis]
        dsk[(out, *res_idx)] = (_arg_final, acc, axis, keepdims, name)
    chunks = list(x.chunks)
    if keepdims:
        chunks[axis] = (1,)
    else:
        del chunks[axis]
    graph = HighLevelGraph.from_collections(out, dsk, dependencies=[x])
    meta = _sizes._meta(x, len(chunks), np.int64)
    return da.Array(graph, out, tuple(chunks), meta=meta)


def _arg_local(kernel: Any, b: Any, axis: int, starts: Any, i: int) -> Any:
    if b.shape[axis] == 0:
        shape = tuple(1 if d == axis else n for d, n in enumerate(b.shape))
        return _NoPart(shape, _chunks.module_of(b))
    xpm = _chunks.module_of(b)
    li = kernel(b, axis, True)
    return (xpm.take_along_axis(b, li, axis=axis), li + int(starts[i]))


def _arg_pick(a: Any, b: Any, name: str) -> Any:
    """The first extreme of two partials (values, indices), ``a`` before ``b``."""
    if a is None or (isinstance(a, _NoPart) and not isinstance(b, _NoPart)):
        return b
    if isinstance(b, _NoPart):
        return a
    (va, ia), (vb, ib) = a, b
    xpm = _chunks.module_of(va)
    better = (vb > va) if name == "argmax" else (vb < va)
    if va.dtype.kind in "fc":
        better = better | (xpm.isnan(vb) & ~xpm.isnan(va))
    return (xpm.where(better, vb, va), xpm.where(better, ib, ia))


def _arg_final(acc: Any, axis: int, keepdims: bool, name: str) -> Any:
    if isinstance(acc, _NoPart):
        if math.prod(acc.shape):  # results to give, and nothing to reduce
            msg = f"attempt to get {name} of an empty sequence"
            raise ValueError(msg)
        empty = acc.xp.zeros(acc.shape, dtype=np.int64)
        return empty if keepdims else empty.squeeze(axis=axis)
    idx = acc[1].astype(np.int64, copy=False)
    return idx if keepdims else idx.squeeze(axis=axis)


def _count_nonzero(x: Any, axis: Any, keepdims: bool) -> Any:
    return (x != 0).sum(axis=axis, keepdims=keepdims, dtype=np.intp)


def _nonzero(x: Any) -> Any:
    """The indices of the non-zero elements, in row-major order: the axes but
    the first made whole (each chunk then holds whole rows), each chunk's
    indices found by the chunk kernel, its first-axis indices shifted by
    where the chunk starts (computed in the graph where that is
    data-dependent).

    Note: not dask's ``nonzero``, which needs the chunk sizes, and fails on
    empty arrays in chunks of one.
    """
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    if x.ndim == 0:
        msg = "nonzero(): 0-d input"
        raise ValueError(msg)
    rows = _sizes.whole(x, range(1, x.ndim))
    kernel = _chunks.kernels()["nonzero"]
    name = f"ocean-nonzero-{tokenize(rows.name)}"
    if _sizes.unknown_axis(rows, 0):
        dsk, starts = _sizes.offsets(rows, 0)
    else:
        dsk = {}
        starts = np.cumsum((0, *rows.chunks[0]), dtype=np.int64)
    nb = rows.numblocks[0]
    for i in range(nb):
        dsk[(name, i)] = (
            _nonzero_block,
            kernel,
            (rows.name, i, *(0,) * (x.ndim - 1)),
            starts,
            i,
        )
    outs = []
    meta = _sizes._meta(x, 1, np.int64)
    for axis in range(x.ndim):
        fname = f"{name}-{axis}"
        layer = {(fname, i): (_field, (name, i), axis) for i in range(nb)}
        graph = HighLevelGraph.from_collections(
            fname, {**dsk, **layer}, dependencies=[rows]
        )
        outs.append(da.Array(graph, fname, ((math.nan,) * nb,), meta=meta))
    return tuple(outs)


def _nonzero_block(kernel: Any, b: Any, starts: Any, i: int) -> tuple[Any, ...]:
    idx = tuple(kernel(b))
    first = idx[0].astype(np.int64, copy=False) + int(starts[i])
    return (first, *(k.astype(np.int64, copy=False) for k in idx[1:]))


def _field(t: tuple[Any, ...], j: int) -> Any:
    return t[j]


def _searchsorted(x1: Any, x2: Any, side: str, sorter: Any) -> Any:
    """The insertion places of ``x2`` in sorted ``x1``: for each chunk of
    ``x1``, how many of its elements come before each value (the chunk
    kernel), added up over the chunks.

    Note: dask's ``searchsorted`` adds each chunk's offset instead, which is
    NaN (and the result float64 under an integer dtype) when the chunk sizes
    are data-dependent, and fails on empty chunks; a count needs no offsets.
    """
    if sorter is not None:
        x1 = _take(x1, sorter, 0)
    if not isinstance(x2, _Array):
        x2 = _chunks.asarray(x2, dtype=x1.dtype)
    elif x1.dtype != x2.dtype and _chunks.current() is not None:
        # Note: CuPy compares without promoting; both in the common dtype
        rt = np.result_type(x1.dtype, x2.dtype)
        x1, x2 = x1.astype(rt), x2.astype(rt)
    kernel = _chunks.kernels()["searchsorted"]

    def count(a: Any, v: Any) -> Any:
        return kernel(a, v, side, None).astype(np.int64, copy=False)[None]

    ind2 = tuple(range(1, x2.ndim + 1))
    counts = da.blockwise(
        count,
        (0, *ind2),
        x1,
        (0,),
        x2,
        ind2,
        adjust_chunks={0: lambda c: 1},
        dtype=np.int64,
        meta=_sizes._meta(x2, x2.ndim + 1, np.int64),
    )
    return counts.sum(axis=0, dtype=np.int64)


def _isin(x1: Any, x2: Any, invert: bool) -> Any:
    g = _chunks.current()
    if not isinstance(x1, _Array):
        x1 = _chunks.asarray(x1)
    if not isinstance(x2, _Array):
        x2 = _chunks.asarray(x2)
    if g is not None:
        return _isin_blocks(g.kernel("isin"), x1, x2, invert)
    with warnings.catch_warnings():
        # dask's note on its own plan (the blocks it pairs), not on the data
        warnings.simplefilter("ignore", da.PerformanceWarning)
        return da.isin(x1, x2, invert=invert)


def _isin_blocks(kernel: Callable[..., Any], x1: Any, x2: Any, invert: bool) -> Any:
    """``isin`` of CuPy chunks: the CUDA table's entry (which promotes and
    orders NaNs as CuPy's own isin does not) for each pair of an ``x1`` chunk
    and an ``x2`` chunk, then any() over the ``x2`` chunks."""
    test = _rs(x2, (-1,))
    lead = tuple(range(x1.ndim))

    def block(e: Any, t: Any) -> Any:
        return kernel(e, t, False)[..., None]

    hits = da.blockwise(
        block,
        (*lead, x1.ndim),
        x1,
        lead,
        test,
        (x1.ndim,),
        adjust_chunks={x1.ndim: lambda _: 1},
        dtype=bool,
        meta=_chunks.current().meta(x1.ndim + 1, bool),  # type: ignore[union-attr]
    )
    res = hits.any(axis=-1)
    return ~res if invert else res


# --- statistics -------------------------------------------------------------
def _per_chunk(name: str, x: Any, *args: Any) -> Any:
    """The chunk kernel ``name`` (CPU or CUDA table) on each chunk of ``x``,
    with ``args`` after it: a reduction over ``axis=()``, which reduces
    nothing, is exactly that (and the CPU's values, NaN and dtype alike)."""
    kernel = _chunks.kernels()[name]
    sample = np.ones((1,) * x.ndim, dtype=x.dtype)
    with np.errstate(all="ignore"):
        dtype = np.asarray(_chunks.CPU_KERNELS[name](sample, *args)).dtype
    return x.map_blocks(
        lambda b: kernel(b, *args), dtype=dtype, meta=_sizes._meta(x, dtype=dtype)
    )


def _reduction(
    func: Callable[..., Any], with_dtype: bool, name: str
) -> Callable[..., Any]:
    if with_dtype:

        def entry(x: Any, axis: Any, dtype: Any, keepdims: bool) -> Any:
            if axis == ():
                return _per_chunk(name, x, (), dtype, keepdims)
            return func(x, axis=axis, dtype=dtype, keepdims=keepdims)

    else:

        def entry(x: Any, axis: Any, keepdims: bool) -> Any:  # type: ignore[misc]
            if axis == ():
                return _per_chunk(name, x, (), keepdims)
            return func(x, axis=axis, keepdims=keepdims)

    return entry


def _prod(x: Any, axis: Any, dtype: Any, keepdims: bool) -> Any:
    """dask's ``prod``; for complex results, partial products multiplied
    together with no identity factor.

    Note: dask's aggregation is a second ``prod`` over the partials, which
    starts from 1: (1 + 0j) * (-inf + nanj) is nan + nanj, so the product of
    one element [-inf + 28j] was nan + nanj where NumPy (and cpu:0) gives
    -inf + nanj."""
    from dask.array.reductions import reduction

    if dtype is None:
        dtype = np.ones((1,), dtype=x.dtype).prod().dtype
    if np.dtype(dtype).kind != "c":
        return da.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)

    def chunk(b: Any, axis: Any, keepdims: bool) -> Any:
        return b.prod(axis=axis, dtype=dtype, keepdims=keepdims)

    return reduction(
        x,
        chunk,
        _multiply_partials,
        axis=axis,
        keepdims=keepdims,
        dtype=dtype,
        concatenate=True,
    )


def _multiply_partials(b: Any, axis: Any, keepdims: bool) -> Any:
    """The product of ``b`` along ``axis`` (an int or a tuple), one factor
    after the other from the first: no identity factor (see ``_prod``)."""
    axes = _axes(b.ndim, axis)
    mod = _chunks.module_of(b)
    lead = tuple(n for d, n in enumerate(b.shape) if d not in axes)
    count = math.prod(b.shape[d] for d in axes)
    moved = mod.moveaxis(b, axes, tuple(range(b.ndim - len(axes), b.ndim)))
    flat = moved.reshape((*lead, count))
    if count == 0:
        res = mod.ones(lead, dtype=b.dtype)
    else:
        res = flat[..., 0].copy()
        for i in range(1, count):
            res = res * flat[..., i]
    if keepdims:
        res = res.reshape(tuple(1 if d in axes else n for d, n in enumerate(b.shape)))
    return mod.asarray(res)


def _extremum(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    def entry(x: Any, axis: Any, keepdims: bool) -> Any:
        if axis == ():
            return _per_chunk(name, x, (), keepdims)
        if not any(_unknown(s) for s in x.shape) and math.prod(x.shape) == 0:
            # Note: only reductions with an empty result get here (the front
            # end refused the others); dask, as NumPy, raises for them.
            shape, _ = reduced(x.shape, axis, keepdims)
            return _zeros(0, shape, x.dtype)
        if _sizes.unknown(x):
            return _empty_safe(func, x, axis, keepdims, name)
        return func(x, axis=axis, keepdims=keepdims)

    return entry


def _empty_safe(
    func: Callable[..., Any],
    x: Any,
    axis: Any,
    keepdims: bool,
    name: str,
    identity: Any = None,
) -> Any:
    """``max``/``min`` of an array of data-dependent size: each chunk reduced
    by the chunk kernel, chunks that masking left empty skipped, then a chain
    over the chunks of the reduced axes.  Every chunk empty raises NumPy's
    ValueError when the graph runs, as the CPU does at once.

    Note: dask's ``max``/``min`` reduce an empty chunk to an empty partial of
    another shape, which breaks reductions along one axis of n-d arrays.
    """
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    axes = _axes(x.ndim, axis)
    kernel = _chunks.kernels()[name]
    out = f"ocean-{name}-{tokenize(x.name, axes, keepdims)}"
    dsk: dict[Any, Any] = {}
    others = [range(1) if d in axes else range(n) for d, n in enumerate(x.numblocks)]
    along = [range(n) if d in axes else range(1) for d, n in enumerate(x.numblocks)]
    for idx in itertools.product(*others):
        acc = None
        for step in itertools.product(*along):
            src = tuple(i + j for i, j in zip(idx, step, strict=True))
            key = (f"{out}-acc", *src)
            dsk[key] = (_extreme_step, kernel, acc, (x.name, *src), axes)
            acc = key
        res_idx = (
            idx if keepdims else tuple(i for d, i in enumerate(idx) if d not in axes)
        )
        dsk[(out, *res_idx)] = (
            _extreme_final,
            acc,
            axes,
            keepdims,
            name,
            identity,
            x.dtype,
        )
    chunks = [(1,) if d in axes else c for d, c in enumerate(x.chunks)]
    if not keepdims:
        chunks = [c for d, c in enumerate(chunks) if d not in axes]
    graph = HighLevelGraph.from_collections(out, dsk, dependencies=[x])
    return da.Array(graph, out, tuple(chunks), meta=_sizes._meta(x, len(chunks)))


class _NoPart:
    """The running max/min while every chunk was empty: the shape (keepdims)
    its result has."""

    __slots__ = ("shape", "xp")

    def __init__(self, shape: tuple[int, ...], xp: Any = np) -> None:
        self.shape = shape
        self.xp = xp  # the chunks' module (NumPy or CuPy)


def _extreme_step(kernel: Any, acc: Any, b: Any, axes: tuple[int, ...]) -> Any:
    """The running max/min (keepdims), or _NoPart while every chunk was empty."""
    if any(b.shape[a] == 0 for a in axes):
        if acc is None:
            shape = tuple(1 if d in axes else n for d, n in enumerate(b.shape))
            return _NoPart(shape, _chunks.module_of(b))
        return acc
    part = kernel(b, axes, True)
    if acc is None or isinstance(acc, _NoPart):
        return part
    both = _chunks.module_of(part).concatenate([acc, part], axis=axes[0])
    return kernel(both, axes, True)


def _extreme_final(
    acc: Any,
    axes: tuple[int, ...],
    keepdims: bool,
    name: str,
    identity: Any,
    dtype: Any,
) -> Any:
    if isinstance(acc, _NoPart):
        if identity is None and math.prod(acc.shape):
            msg = f"zero-size array to reduction operation {name} which has no identity"
            raise ValueError(msg)
        acc = acc.xp.full(acc.shape, 0 if identity is None else identity, dtype=dtype)
    return acc if keepdims else acc.squeeze(axis=axes)


def _axes(ndim: int, axis: Any) -> tuple[int, ...]:
    """The reduced axes of an ``axis`` argument (None, an int or a tuple), as
    non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple):
        return tuple(a % ndim for a in axis)
    return (axis % ndim,)


def _nan_fill(shape: tuple[int, ...], dtype: Any) -> Any:
    value = complex(math.nan, math.nan) if np.dtype(dtype).kind == "c" else math.nan
    return _full(0, shape, value, dtype)


def _mean(x: Any, axis: Any, keepdims: bool) -> Any:
    if axis == ():
        return _per_chunk("mean", x, (), keepdims)
    if not any(_unknown(s) for s in x.shape):
        shape, count = reduced(x.shape, axis, keepdims)
        if count == 0:
            return _nan_fill(shape, x.dtype)
    return da.mean(x, axis=axis, keepdims=keepdims)


def _whole_chunk_reduction(name: str, x: Any, axis: Any, *args: Any) -> Any:
    """The chunk kernel ``name`` (``x, axis, *args``, ``keepdims`` last in
    ``args``) on each chunk of ``x``, whose reduced axes are one chunk each:
    every result is the CPU's reduction of that chunk, values and dtype alike
    (the length of a reduced axis need not be known)."""
    axes = _axes(x.ndim, axis)
    keepdims = args[-1]
    kernel = _chunks.kernels()[name]
    sample = np.ones((1,) * x.ndim, dtype=x.dtype)
    with np.errstate(all="ignore"):
        dtype = np.asarray(_chunks.CPU_KERNELS[name](sample, axis, *args)).dtype
    chunks = tuple(
        (1,) if i in axes else c
        for i, c in enumerate(x.chunks)
        if keepdims or i not in axes
    )
    ndim = len(chunks)
    return x.map_blocks(
        lambda b: kernel(b, axis, *args),
        dtype=dtype,
        chunks=chunks,
        drop_axis=() if keepdims else axes,
        meta=_sizes._meta(x, ndim, dtype),
        token=name,
    )


def _spread(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``var``/``std``.

    Note: where each reduced axis is one chunk (small arrays), the chunk
    kernel reduces it, so the values are the CPU's.  dask's ``var`` divides a
    float32 chunk's sum by an integer count, which makes the mean and the
    deviations float64: 1 ulp from the CPU's float32 result, often.
    """

    def entry(x: Any, axis: Any, correction: float, keepdims: bool) -> Any:
        if axis == ():
            return _per_chunk(name, x, (), correction, keepdims)
        if not any(_unknown(s) for s in x.shape):
            shape, count = reduced(x.shape, axis, keepdims)
            if count - correction <= 0:
                return _nan_fill(shape, x.dtype)
        if all(len(x.chunks[a]) == 1 for a in _axes(x.ndim, axis)):
            return _whole_chunk_reduction(name, x, axis, correction, keepdims)
        if _sizes.unknown(x):
            res = _two_pass_var(x, axis, correction, keepdims)
            res = da.sqrt(res) if name == "std" else res
        else:
            res = func(x, axis=axis, ddof=correction, keepdims=keepdims)
        return res.astype(x.dtype) if x.dtype.kind != "c" else res

    return entry


def _count(x: Any, axis: Any, keepdims: bool) -> Any:
    """How many elements each result of a reduction over ``axis`` reduces
    (float64), chunk sizes unknown or not (each chunk counts itself)."""
    axes = _axes(x.ndim, axis)

    def chunk(b: Any, axis: Any = None, keepdims: bool = True, **kw: Any) -> Any:
        shape = tuple(1 if i in axes else n for i, n in enumerate(b.shape))
        n = math.prod(b.shape[a] for a in axes)
        return _chunks.module_of(b).full(shape, float(n))

    def agg(b: Any, axis: Any = None, keepdims: bool = False, **kw: Any) -> Any:
        return b.sum(axis=axis, keepdims=keepdims)

    return da.reduction(
        x,
        chunk,
        agg,
        combine=agg,
        axis=axes,
        keepdims=keepdims,
        dtype=np.float64,
        meta=_sizes._meta(x, x.ndim if keepdims else x.ndim - len(axes), np.float64),
    )


def _two_pass_var(x: Any, axis: Any, correction: float, keepdims: bool) -> Any:
    """``var`` of an array of data-dependent size: the mean, then the sum of
    squared deviations from it over the count minus ``correction``.

    Note: dask's ``var`` combines per-chunk moments, and a chunk that a mask
    left empty has a mean of 0/0 = NaN, which spread to the result.  NaN
    where the count is at most ``correction``, as on the CPU.
    """
    n = _count(x, axis, True)
    total = da.sum(x, axis=axis, keepdims=True)
    with np.errstate(all="ignore"):
        mean = total / da.maximum(n, 1)
        d = x - mean
        sq = (d.real**2 + d.imag**2) if x.dtype.kind == "c" else d * d
        ss = da.sum(sq, axis=axis, keepdims=True)
        dof = n - correction
        res = da.where(dof > 0, ss / da.where(dof > 0, dof, 1), np.nan)
    if not keepdims:
        res = da.squeeze(res, axis=_axes(x.ndim, axis))
    real = np.dtype(x.dtype.char.lower()) if x.dtype.kind == "c" else x.dtype
    return res.astype(real)


def _cumulative(name: str, initial: int) -> Callable[..., Any]:
    """``cumulative_sum`` / ``cumulative_prod``: each chunk accumulated by the
    chunk kernel, then combined with the total of the chunks before it (a
    chain of small tasks, one per chunk along the axis).

    Note: not dask's ``cumsum``/``cumprod``, which read each chunk's last
    element by slicing and so fail, or lose elements, on chunks that a mask
    left empty; here an empty chunk adds the identity.  Chunk sizes are never
    needed: arrays of data-dependent length accumulate as the others.
    """

    def entry(x: Any, axis: int, dtype: Any, include_initial: bool) -> Any:
        from dask.base import tokenize
        from dask.highlevelgraph import HighLevelGraph

        kernel = _chunks.kernels()[name]
        sample = np.ones((1,) * x.ndim, dtype=x.dtype)
        dt = _chunks.CPU_KERNELS[name](sample, axis, dtype, False).dtype
        nb = x.numblocks[axis]
        if nb == 1:
            chunks = list(x.chunks)
            if include_initial:
                chunks[axis] = (chunks[axis][0] + 1,)
            return x.map_blocks(
                lambda b: kernel(b, axis, dtype, include_initial),
                dtype=dt,
                chunks=tuple(chunks),
                meta=_sizes._meta(x, dtype=dt),
            )
        token = tokenize(x.name, name, axis, str(dt), include_initial)
        out = f"ocean-{name}-{token}"
        dsk: dict[Any, Any] = {}
        for idx in itertools.product(*map(range, x.numblocks)):
            i = idx[axis]
            local = (f"{out}-local", *idx)
            dsk[local] = (_accumulate, kernel, (x.name, *idx), axis, dtype)
            # carry: the total of the chunks before this one (None: identity)
            carry = (f"{out}-carry", *idx)
            if i == 0:
                dsk[carry] = None
            else:
                before = list(idx)
                before[axis] = i - 1
                dsk[carry] = (
                    _carry_on,
                    (f"{out}-carry", *before),
                    (f"{out}-local", *before),
                    axis,
                    name,
                )
            out_idx = list(idx)
            if include_initial:
                out_idx[axis] = i + 1
            dsk[(out, *out_idx)] = (_with_carry, local, carry, name)
            if include_initial and i == 0:
                dsk[(out, *idx)] = (_identity_slab, local, axis, initial)
        chunks = list(x.chunks)
        if include_initial:
            chunks[axis] = (1, *chunks[axis])
        graph = HighLevelGraph.from_collections(out, dsk, dependencies=[x])
        return da.Array(graph, out, tuple(chunks), meta=_sizes._meta(x, dtype=dt))

    return entry


def _accumulate(kernel: Any, b: Any, axis: int, dtype: Any) -> Any:
    return kernel(b, axis, dtype, False)


def _last(local: Any, axis: int) -> Any:
    key: list[Any] = [slice(None)] * local.ndim
    key[axis] = slice(-1, None)
    return local[tuple(key)]


def _carry_on(carry: Any, local: Any, axis: int, name: str) -> Any:
    """The total through a chunk: the carry before it combined with its last
    accumulated element (the carry itself for an empty chunk)."""
    if local.shape[axis] == 0:
        return carry
    last = _last(local, axis)
    if carry is None:
        return last
    xpm = _chunks.module_of(last)
    op = xpm.add if name == "cumulative_sum" else xpm.multiply
    return op(carry, last).astype(last.dtype, copy=False)


def _with_carry(local: Any, carry: Any, name: str) -> Any:
    if carry is None or local.size == 0:
        return local
    xpm = _chunks.module_of(local)
    op = xpm.add if name == "cumulative_sum" else xpm.multiply
    return op(local, carry).astype(local.dtype, copy=False)


def _identity_slab(local: Any, axis: int, initial: int) -> Any:
    shape = list(local.shape)
    shape[axis] = 1
    return _chunks.module_of(local).full(tuple(shape), initial, dtype=local.dtype)


def _diff(x: Any, axis: int, n: int, prepend: Any, append: Any) -> Any:
    parts = [p for p in (prepend, x, append) if p is not None]
    if len(parts) > 1:
        # the other axes aligned as concat aligns them (dask would pair
        # chunks of data-dependent size by position)
        parts, _ = _join_aligned(parts, axis)
        unknown = any(_sizes.unknown(p) for p in parts)
        x = da.concatenate(parts, axis=axis, allow_unknown_chunksizes=unknown)
    if _sizes.unknown_axis(x, axis):
        # Note: dask slices need the length: the axis whole, the chunk kernel
        kernel = _chunks.kernels()["diff"]
        xw = _sizes.gather(x, axis)
        chunks = list(xw.chunks)
        chunks[axis] = (math.nan,)
        return xw.map_blocks(
            lambda b: kernel(b, axis, n, None, None),
            chunks=tuple(chunks),
            dtype=x.dtype,
            meta=x._meta,
        )
    lo = [slice(None)] * x.ndim
    hi = lo[:]
    lo[axis] = slice(None, -1)
    hi[axis] = slice(1, None)
    for _ in range(min(n, x.shape[axis])):
        x = x[tuple(hi)] - x[tuple(lo)]
    return x


# --- linear algebra ---------------------------------------------------------
def _matmul(x1: Any, x2: Any) -> Any:
    # Note: not dask's matmul, whose partial products wait for their sum
    # (several GiB at 16384 x 16384); see _contract.
    # (the blocks' kernel is the current chunk kind's: CPU or CUDA table)
    func = _chunks.kernels()["matmul"]
    return _promoted(_contract.matmul(x1, x2, func), x1, x2)


def _tensordot(x1: Any, x2: Any, axes: Any) -> Any:
    func = _chunks.kernels()["tensordot"]
    return _promoted(_contract.tensordot(x1, x2, axes, func), x1, x2)


def _promoted(res: Any, x1: Any, x2: Any) -> Any:
    # Note: dask's own products (used with a dask older than its task
    # specification) sum integer blocks in the platform integer; the
    # standard's result dtype is the promoted one.
    rt = np.result_type(x1.dtype, x2.dtype)
    return res if res.dtype == rt else res.astype(rt)


def _vecdot(x1: Any, x2: Any, axis: int) -> Any:
    rt = np.result_type(x1.dtype, x2.dtype)
    if _sizes.unknown(x1) or _sizes.unknown(x2):
        # paired exactly, as elementwise functions pair them (dask's own
        # product pairs chunks of unknown size by position: a wrong shape)
        def block(a: Any, b: Any) -> Any:
            return (_chunks.module_of(a).conj(a) if a.dtype.kind == "c" else a) * b

        prod = _elemwise(block, x1, x2, dtype=rt)
        a1, a2 = x1.ndim + axis, x2.ndim + axis  # (axis < 0, from the front end)
        if _sizes.unknown_axis(x1, a1) or _sizes.unknown_axis(x2, a2):
            # the contracted lengths must be equal (a length of 1 does not
            # broadcast there, as the CPU refuses): checked with the graph
            flag = _sizes.lengths_differ([(x1, a1), (x2, a2)])
            exc = ValueError(
                "vecdot(): the arrays' lengths along `axis` (data-dependent, "
                "None) differ"
            )
            return _raise_if(prod.sum(axis=axis, dtype=rt), flag, exc)
    else:
        prod = (da.conj(x1) if x1.dtype.kind == "c" else x1) * x2
    return prod.sum(axis=axis, dtype=rt)


def _eye_like(a: Any) -> np.ndarray:
    xpm = _chunks.module()  # NumPy, or CuPy on the current GPU
    out = xpm.zeros(a.shape, a.dtype)
    if a.ndim >= 2 and 0 not in a.shape:
        out += xpm.eye(a.shape[-2], a.shape[-1], dtype=a.dtype)
    return out


def _sample(dim_sizes: dict[str, int], core: tuple[str, ...], dtype: Any) -> Any:
    shape = tuple(dim_sizes[c] for c in core)
    if len(shape) == 2 and shape[0] == shape[1]:
        return np.eye(shape[0], dtype=dtype) * 2 + 0  # SPD: every factorisation works
    return np.ones(shape, dtype=dtype)


def _parse(signature: str) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    ins, outs = signature.split("->")

    def dims(part: str) -> list[tuple[str, ...]]:
        out = []
        for group in part.replace(" ", "").split("),"):
            group = group.strip("()")
            out.append(tuple(d for d in group.split(",") if d))
        return out

    return dims(ins), dims(outs)


def _gufunc(
    func: Callable[..., Any],
    signature: str,
    *args: Any,
    sizes: dict[str, int] | None = None,
) -> Any:
    """``func`` (a CPU entry on stacks of core blocks) over dask arrays whose
    core dimensions are made whole (one chunk); the batch dimensions keep
    their chunks, so a stack of matrices is computed in parallel.  Output
    dtypes come from one call on a 2x2 sample."""
    arrays = [a for a in args if isinstance(a, _Array)]
    if any(0 in a.shape for a in arrays) and not any(_sizes.unknown(a) for a in arrays):
        # Nothing to compute, and dask's gufuncs refuse empty core blocks:
        # the CPU entry on empty NumPy input gives the result (and shapes).
        # (identity matrices, so that a factorisation of the non-empty
        # operands, such as a 1 x 1 matrix solved against (1, 0), succeeds)
        empty = [_eye_like(a) if isinstance(a, _Array) else a for a in args]
        res = func(*empty)
        if isinstance(res, tuple):
            return tuple(_chunks.result(r) for r in res)
        return _chunks.result(res)
    in_dims, out_dims = _parse(signature)
    sample_sizes = {d: 2 for dims in in_dims + out_dims for d in dims}
    samples = [
        _chunks.to_current(_sample(sample_sizes, dims, a.dtype))
        if isinstance(a, _Array)
        else a
        for a, dims in zip(args, in_dims, strict=True)
    ]
    with np.errstate(all="ignore"):
        res = func(*samples)
    outs = res if isinstance(res, tuple) else (res,)
    dtypes = [getattr(r, "dtype", None) or np.asarray(r).dtype for r in outs]
    if any(_sizes.unknown(a) for a in arrays):
        return _gufunc_whole(func, in_dims, out_dims, args, dtypes, sizes or {})
    known = {}
    for a, dims in zip(args, in_dims, strict=True):
        if isinstance(a, _Array):
            for d, s in zip(dims, a.shape[a.ndim - len(dims) :], strict=True):
                known[d] = s
    out_sizes = {d: s for d, s in (sizes or {}).items() if d not in known}
    with warnings.catch_warnings():  # dask's meta cast (see _getitem)
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        result = _apply_gufunc(func, signature, args, dtypes, out_sizes)
    return tuple(result) if isinstance(result, (tuple, list)) else result


def _gufunc_whole(
    func: Callable[..., Any],
    in_dims: list[tuple[str, ...]],
    out_dims: list[tuple[str, ...]],
    args: tuple[Any, ...],
    dtypes: list[Any],
    sizes: dict[str, int],
) -> Any:
    """``func`` on operands of data-dependent size: each operand in one chunk
    (dask's gufuncs need the core sizes), one task; the result's sizes are
    data-dependent where they follow from unknown ones."""
    from dask.base import tokenize
    from dask.highlevelgraph import HighLevelGraph

    wholes = [
        _sizes.whole(a, range(a.ndim)) if isinstance(a, _Array) else a for a in args
    ]
    known: dict[str, float] = {}
    batches = []
    any_unknown = False
    for a, dims in zip(args, in_dims, strict=True):
        if not isinstance(a, _Array):
            continue
        core = a.shape[a.ndim - len(dims) :]
        for d, n in zip(dims, core, strict=True):
            known[d] = n
            any_unknown = any_unknown or _unknown(n)
        batches.append(a.shape[: a.ndim - len(dims)])
    nb = max((len(b) for b in batches), default=0)
    batch = []
    for i in range(nb):
        vals = [b[len(b) - nb + i] for b in batches if len(b) - nb + i >= 0]
        batch.append(
            math.nan if any(_unknown(v) for v in vals) else max(int(v) for v in vals)
        )
    name = f"ocean-gufunc-{tokenize(*[w.name if isinstance(w, _Array) else w for w in wholes])}"
    task = (
        func,
        *[(w.name, *(0,) * w.ndim) if isinstance(w, _Array) else w for w in wholes],
    )
    dsk: dict[Any, Any] = {(name,): task}
    res = []
    many = len(out_dims) > 1
    for j, (dims, dtype) in enumerate(zip(out_dims, dtypes, strict=True)):
        core = []
        for d in dims:
            if d in known:
                core.append(known[d])
            elif d in sizes and not any_unknown:
                core.append(sizes[d])
            else:
                core.append(math.nan)
        shape = (*batch, *core)
        fname = f"{name}-{j}"
        layer = {(fname, *(0,) * len(shape)): (_pick_field, (name,), j, many)}
        arrays = [w for w in wholes if isinstance(w, _Array)]
        graph = HighLevelGraph.from_collections(
            fname, {**dsk, **layer}, dependencies=arrays
        )
        chunks = tuple((n,) for n in shape)
        res.append(
            da.Array(
                graph, fname, chunks, meta=_sizes._meta(arrays[0], len(shape), dtype)
            )
        )
    return tuple(res) if many else res[0]


def _apply_gufunc(
    func: Callable[..., Any],
    signature: str,
    args: tuple[Any, ...],
    dtypes: list[Any],
    out_sizes: dict[str, int],
) -> Any:
    return da.apply_gufunc(
        func,
        signature,
        *args,
        output_dtypes=dtypes if len(dtypes) > 1 else dtypes[0],
        output_sizes=out_sizes or None,
        allow_rechunk=True,
        vectorize=False,
    )


def _linalg_ops(c: Any = None) -> dict[str, Callable[..., Any]]:
    c = _chunks.CPU_KERNELS if c is None else c  # per-chunk kernels (CPU or CUDA table)

    def unary(name: str, sig: str) -> Callable[..., Any]:
        return lambda x: _gufunc(c[name], sig, x)

    def eig_like(name: str) -> Callable[..., Any]:
        return lambda x: _gufunc(c[name], "(m,n)->(m),(m,n)", x)

    def qr(x: Any, mode: str) -> Any:
        m, n = x.shape[-2:]
        k = min(m, n)
        f = functools.partial(c["linalg.qr"], mode=mode)
        if mode == "complete":
            return _gufunc(f, "(m,n)->(m,p),(m,n)", x, sizes={"p": m})
        return _gufunc(f, "(m,n)->(m,k),(k,n)", x, sizes={"k": k})

    def svd(x: Any, full_matrices: bool) -> Any:
        m, n = x.shape[-2:]
        k = min(m, n)
        f = functools.partial(c["linalg.svd"], full_matrices=full_matrices)
        if full_matrices:
            return _gufunc(
                f, "(m,n)->(m,p),(k),(q,n)", x, sizes={"p": m, "k": k, "q": n}
            )
        return _gufunc(f, "(m,n)->(m,k),(k),(k,n)", x, sizes={"k": k})

    def svdvals(x: Any) -> Any:
        k = min(x.shape[-2:])
        return _gufunc(c["linalg.svdvals"], "(m,n)->(k)", x, sizes={"k": k})

    def cholesky(x: Any, upper: bool) -> Any:
        return _gufunc(
            functools.partial(c["linalg.cholesky"], upper=upper), "(m,n)->(m,n)", x
        )

    def solve(x1: Any, x2: Any) -> Any:
        if x2.ndim == 1:
            return _gufunc(c["linalg.solve"], "(m,n),(n)->(m)", x1, x2)
        return _gufunc(c["linalg.solve"], "(m,n),(n,k)->(m,k)", x1, x2)

    def with_rtol(name: str, sig_core_out: str) -> Callable[..., Any]:
        def entry(x: Any, rtol: Any) -> Any:
            m, n = x.shape[-2:]
            if isinstance(rtol, _Array):
                f = c[name]
                return _gufunc(f, f"(m,n),()->{sig_core_out}", x, rtol)
            f = functools.partial(c[name], rtol=rtol)
            return _gufunc(f, f"(m,n)->{sig_core_out}", x, sizes={"p": n, "q": m})

        return entry

    def matrix_norm(x: Any, keepdims: bool, ord: Any) -> Any:
        f = functools.partial(c["linalg.matrix_norm"], keepdims=False, ord=ord)
        res = _gufunc(f, "(m,n)->()", x)
        return res[..., None, None] if keepdims else res

    def matrix_power(x: Any, n: int) -> Any:
        return _gufunc(
            functools.partial(c["linalg.matrix_power"], n=n), "(m,n)->(m,n)", x
        )

    def trace(x: Any, offset: int, dtype: Any) -> Any:
        if _sizes.unknown(x):
            # Note: dask's diagonal needs every length; the matrices whole
            # in each chunk, the chunk kernel on each
            xw = _sizes.whole(x, [x.ndim - 2, x.ndim - 1])
            sample = np.zeros((1, 1), dtype=x.dtype)
            rt = np.asarray(_chunks.CPU_KERNELS["linalg.trace"](sample, 0, dtype)).dtype
            return xw.map_blocks(
                lambda b: c["linalg.trace"](b, _clamped(offset, b.shape), dtype),
                drop_axis=[x.ndim - 2, x.ndim - 1],
                dtype=rt,
                meta=_sizes._meta(x, x.ndim - 2, rt),
            )
        diag = da.diagonal(x, offset=offset, axis1=-2, axis2=-1)
        return diag.sum(axis=-1, dtype=dtype)

    def diagonal(x: Any, offset: int) -> Any:
        if _sizes.unknown(x):
            # as in trace: the matrices whole, the chunk kernel on each
            xw = _sizes.whole(x, [x.ndim - 2, x.ndim - 1])
            m, n = xw.chunks[-2][0], xw.chunks[-1][0]
            if m != m or n != n:  # a data-dependent length: nan
                size = math.nan
            else:
                size = max(0, min(m + min(offset, 0), n - max(offset, 0)))
            chunks = (*xw.chunks[:-2], (size,))
            return xw.map_blocks(
                lambda b: c["linalg.diagonal"](b, _clamped(offset, b.shape)),
                drop_axis=[x.ndim - 1],
                chunks=chunks,
                dtype=x.dtype,
                meta=_sizes._meta(x, x.ndim - 1),
            )
        return da.diagonal(x, offset=offset, axis1=-2, axis2=-1)

    def cross(x1: Any, x2: Any, axis: int) -> Any:
        # (axis < 0, from the front end) the vectors whole in each chunk, the
        # other axes paired as an elementwise function pairs them (sizes
        # that are data-dependent included)
        dtype = np.result_type(x1.dtype, x2.dtype)
        x1 = _sizes.whole(x1, [x1.ndim + axis])
        x2 = _sizes.whole(x2, [x2.ndim + axis])
        return _elemwise(
            lambda a, b: c["linalg.cross"](a, b, axis), x1, x2, dtype=dtype
        )

    def outer(x1: Any, x2: Any) -> Any:
        return da.outer(x1, x2)

    return {
        "linalg.cholesky": cholesky,
        "linalg.cross": cross,
        "linalg.det": unary("linalg.det", "(m,n)->()"),
        "linalg.diagonal": diagonal,
        "linalg.eig": eig_like("linalg.eig"),
        "linalg.eigh": eig_like("linalg.eigh"),
        "linalg.eigvals": unary("linalg.eigvals", "(m,n)->(m)"),
        "linalg.eigvalsh": unary("linalg.eigvalsh", "(m,n)->(m)"),
        "linalg.inv": unary("linalg.inv", "(m,n)->(m,n)"),
        "linalg.matrix_norm": matrix_norm,
        "linalg.matrix_power": matrix_power,
        "linalg.matrix_rank": with_rtol("linalg.matrix_rank", "()"),
        "linalg.outer": outer,
        "linalg.pinv": with_rtol("linalg.pinv", "(n,m)"),
        "linalg.qr": qr,
        "linalg.slogdet": lambda x: _gufunc(c["linalg.slogdet"], "(m,n)->(),()", x),
        "linalg.solve": solve,
        "linalg.svd": svd,
        "linalg.svdvals": svdvals,
        "linalg.trace": trace,
        "linalg.vector_norm": _vector_norm,
    }


def _vector_norm(x: Any, axis: Any, keepdims: bool, ord: float) -> Any:
    # The CPU entry's algorithm (ocean_cpu._linalg._vector_norm) over dask's
    # reductions; axis=() reduces nothing.
    if axis == ():
        a = abs(x)
        if ord == 0:
            return (a != 0).astype(a.dtype)
        return a
    real = np.dtype(x.dtype.char.lower()) if x.dtype.kind == "c" else x.dtype
    if ord == 2:
        sq = (x.real**2 + x.imag**2) if x.dtype.kind == "c" else x * x
        return da.sqrt(sq.sum(axis=axis, keepdims=keepdims)).astype(real)
    a = abs(x)
    size0 = not any(_unknown(s) for s in x.shape) and math.prod(x.shape) == 0
    if ord == 1:
        return a.sum(axis=axis, keepdims=keepdims)
    if ord == _inf:
        if size0:
            return _zeros(0, reduced(x.shape, axis, keepdims)[0], real)
        if _sizes.unknown(a):  # (empty, perhaps: 0, as for a known size)
            return _empty_safe(None, a.astype(real), axis, keepdims, "max", 0)
        return a.max(axis=axis, keepdims=keepdims)
    if ord == -_inf:
        if size0:
            return _full(0, reduced(x.shape, axis, keepdims)[0], _inf, real)
        if _sizes.unknown(a):
            return _empty_safe(None, a.astype(real), axis, keepdims, "min", _inf)
        return a.min(axis=axis, keepdims=keepdims)
    if ord == 0:
        return (a != 0).sum(axis=axis, keepdims=keepdims, dtype=real)
    if ord > 0:
        if size0:
            return _zeros(0, reduced(x.shape, axis, keepdims)[0], real)
        if _sizes.unknown(a):
            m = _empty_safe(None, a.astype(real), axis, True, "max", 0)
        else:
            m = a.max(axis=axis, keepdims=True)
        scale = da.where((m == 0) | ~da.isfinite(m), 1, m).astype(real)
        s = ((a / scale) ** ord).sum(axis=axis, keepdims=keepdims) ** (1.0 / ord)
        sc = scale if keepdims else da.squeeze(scale, axis=axis)
        return (sc * s).astype(real)
    with np.errstate(divide="ignore"):
        return ((a**ord).sum(axis=axis, keepdims=keepdims) ** (1.0 / ord)).astype(real)


# --- fft --------------------------------------------------------------------
def _fft_ops(c: Any = None) -> dict[str, Callable[..., Any]]:
    c = _chunks.CPU_KERNELS if c is None else c  # per-chunk kernels (CPU or CUDA table)

    def one_dim(name: str) -> Callable[..., Any]:
        cpu = c[name]
        half = name in ("fft.irfft", "fft.hfft")
        halved = name in ("fft.rfft", "fft.ihfft")

        def entry(x: Any, n: int | None, axis: int, norm: str) -> Any:
            # n None: the axis has a data-dependent length, which the
            # transform takes from each chunk (whole along the axis)
            x = _sizes.gather(x, axis)
            size = 2 if n is None else n
            sample = cpu(
                _chunks.to_current(
                    np.ones((max(size, 1),) if not half else (2,), dtype=x.dtype)
                ),
                size,
                0,
                norm,
            )
            chunks = list(x.chunks)
            out = math.nan if n is None else n // 2 + 1 if halved else n
            chunks[axis] = (out,)

            def block(b: Any) -> Any:
                m = b.shape[axis]
                length = n if n is not None else 2 * (m - 1) if half else m
                return cpu(b, length, axis, norm)

            return x.map_blocks(
                block,
                dtype=sample.dtype,
                chunks=tuple(chunks),
                meta=_sizes._meta(x, dtype=sample.dtype),
            )

        return entry

    def n_dim(name: str) -> Callable[..., Any]:
        cpu = c[name]
        half = name == "fft.irfftn"

        def entry(x: Any, s: tuple[Any, ...], axes: tuple[int, ...], norm: str) -> Any:
            x = _sizes.whole(x, axes)
            ones = _chunks.to_current(np.ones((2,) * len(axes), dtype=x.dtype))
            sample = cpu(ones, (2,) * len(axes), tuple(range(len(axes))), norm)
            chunks = list(x.chunks)
            for size, ax in zip(s, axes, strict=True):
                chunks[ax] = (math.nan if size is None else size,)
            if name == "fft.rfftn":
                last = s[-1]
                chunks[axes[-1]] = (math.nan if last is None else last // 2 + 1,)

            def block(b: Any) -> Any:
                sizes = list(s)
                for i, ax in enumerate(axes):
                    if sizes[i] is None:
                        m = b.shape[ax]
                        sizes[i] = 2 * (m - 1) if half and i == len(axes) - 1 else m
                return cpu(b, tuple(sizes), axes, norm)

            return x.map_blocks(
                block,
                dtype=sample.dtype,
                chunks=tuple(chunks),
                meta=_sizes._meta(x, dtype=sample.dtype),
            )

        return entry

    def freq(name: str) -> Callable[..., Any]:
        cpu = c[name]
        return lambda index, n, d, dtype: _chunks.result(
            cpu(_chunks.kernel_index(), n, d, dtype)
        )

    def shift(name: str) -> Callable[..., Any]:
        cpu = c[name]

        def entry(x: Any, axes: tuple[int, ...]) -> Any:
            x = _sizes.whole(x, axes)
            return x.map_blocks(lambda b: cpu(b, axes), dtype=x.dtype, meta=x._meta)

        return entry

    ops: dict[str, Callable[..., Any]] = {}
    for name in (
        "fft.fft",
        "fft.ifft",
        "fft.rfft",
        "fft.irfft",
        "fft.hfft",
        "fft.ihfft",
    ):
        ops[name] = one_dim(name)
    for name in ("fft.fftn", "fft.ifftn", "fft.rfftn", "fft.irfftn"):
        ops[name] = n_dim(name)
    ops["fft.fftfreq"] = freq("fft.fftfreq")
    ops["fft.rfftfreq"] = freq("fft.rfftfreq")
    ops["fft.fftshift"] = shift("fft.fftshift")
    ops["fft.ifftshift"] = shift("fft.ifftshift")
    return ops


# --- ocean_ext dtypes -------------------------------------------------------
_ACCUMULATOR = {"float16": np.dtype(np.float64), "complex32": np.dtype(np.complex128)}


def _ext_ops(c: Any = None) -> dict[str, Callable[..., Any]]:
    """float16 and complex32 entries: the CPU kernels chunk by chunk; the
    reductions widen each chunk once (CPU kernels) and reduce in the
    accumulator dtype, which is what the front end expects back.  (``c``:
    the CUDA table's kernels for CuPy chunks.)"""
    c = _chunks.CPU_KERNELS if c is None else c
    ops: dict[str, Callable[..., Any]] = {}
    for name, func in c.items():
        base, _, ext = name.partition(".")
        if ext in ("float16", "complex32") and base in ELEMENTWISE:
            ops[name] = _chunkwise(func, _probe_of(c, name))
    for ext, acc in _ACCUMULATOR.items():
        to_name, from_name = f"astype.to.{ext}", f"astype.from.{ext}"
        if to_name not in c:
            continue
        to_ext, from_ext = c[to_name], c[from_name]
        ops[to_name] = _chunkwise(to_ext, _probe_of(c, to_name))
        ops[from_name] = lambda x, dtype, f=from_ext: elemwise(
            lambda b: f(b, dtype), x, dtype=np.dtype(dtype)
        )

        def widen(x: Any, f: Any = from_ext, acc: Any = acc) -> Any:
            return elemwise(lambda b: f(b, acc), x, dtype=acc)

        ops[f"sum.{ext}"] = lambda x, axis, keepdims, w=widen: w(x).sum(
            axis=axis, keepdims=keepdims
        )
        ops[f"prod.{ext}"] = lambda x, axis, keepdims, w=widen: w(x).prod(
            axis=axis, keepdims=keepdims
        )
        ops[f"mean.{ext}"] = lambda x, axis, keepdims, w=widen: _mean(
            w(x), axis, keepdims
        )
        if f"matmul.{ext}" in c:
            ops[f"matmul.{ext}"] = _blockwise_ext(c[f"matmul.{ext}"], "matmul")
        if f"vecdot.{ext}" in c:
            ops[f"vecdot.{ext}"] = _blockwise_ext(c[f"vecdot.{ext}"], "vecdot")
    for name in ("view_as_complex", "view_as_real"):
        ops[name] = _view(c[name], name == "view_as_complex")
    return ops


def _probe_of(c: Any, name: str) -> Callable[..., Any] | None:
    """The CPU entry ``name`` when ``c`` is the CUDA kernels (see _chunkwise)."""
    return None if c is _chunks.CPU_KERNELS else _chunks.CPU_KERNELS[name]


def _blockwise_ext(func: Callable[..., Any], kind: str) -> Callable[..., Any]:
    if kind == "matmul":

        def matmul(a: Any, b: Any) -> Any:
            sig = "(m,n),(n,p)->(m,p)"
            if a.ndim == 1:
                a = a[None, :]
                res = _gufunc(func, sig, a, b if b.ndim > 1 else b[:, None])
                return res[..., 0, :] if b.ndim > 1 else res[..., 0, 0]
            if b.ndim == 1:
                return _gufunc(func, sig, a, b[:, None])[..., 0]
            return _gufunc(func, sig, a, b)

        return matmul

    def vecdot(a: Any, b: Any, axis: int) -> Any:
        a, b = da.broadcast_arrays(a, b)
        a = da.moveaxis(a, axis, -1)
        b = da.moveaxis(b, axis, -1)
        return _gufunc(lambda x, y: func(x, y, -1), "(n),(n)->()", a, b)

    return vecdot


def _view(func: Callable[..., Any], to_complex: bool) -> Callable[..., Any]:
    def entry(x: Any, dtype: Any) -> Any:
        dtype = np.dtype(dtype)
        if to_complex:
            x = x.rechunk({-1: -1})
            return x.map_blocks(
                lambda b: np.ascontiguousarray(b).view(dtype)[..., 0],
                dtype=dtype,
                drop_axis=x.ndim - 1,
            )
        return x.map_blocks(
            lambda b: np.ascontiguousarray(b)[..., None].view(dtype),
            dtype=dtype,
            new_axis=x.ndim,
            chunks=(*x.chunks, (2,)),
        )

    return entry


# --- sorting and unique of data-dependent sizes -------------------------------
def _sort_entry(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``sort``/``argsort``: an array of data-dependent size is sorted with
    the axis in one chunk (the sample sort plans its output chunks from the
    input's sizes), by the chunk kernel."""

    def entry(x: Any, axis: int, descending: bool, stable: bool) -> Any:
        if x.ndim and _sizes.unknown(x):
            xw = _sizes.gather(x, axis)
            kernel = _chunks.kernels()[name]
            dtype = np.dtype(np.int64) if name == "argsort" else x.dtype
            return xw.map_blocks(
                lambda b: kernel(b, axis, descending, True),
                dtype=dtype,
                meta=_sizes._meta(x, dtype=dtype),
            )
        return func(x, axis, descending, stable)

    return entry


def _unique_entry(func: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``unique_*``: an array of data-dependent size over several chunks is
    brought into one chunk and the chunk kernel finds its unique values
    (1-d of one chunk: as before, the kernel on it)."""

    def entry(x: Any) -> Any:
        if not _sizes.unknown(x):
            return func(x)
        from dask.base import tokenize
        from dask.highlevelgraph import HighLevelGraph

        xw = _sizes.whole(x, range(x.ndim))
        kernel = _chunks.kernels()[name]
        probe = _chunks.CPU_KERNELS[name](np.zeros((1,) * x.ndim, dtype=x.dtype))
        outs = probe if isinstance(probe, tuple) else (probe,)
        key = f"ocean-{name}-{tokenize(xw.name)}"
        dsk: dict[Any, Any] = {(key,): (kernel, (xw.name, *(0,) * x.ndim))}
        res = []
        for j, o in enumerate(outs):
            fname = f"{key}-{j}"
            inverse = name in ("unique_inverse", "unique_all") and j == (
                1 if name == "unique_inverse" else 2
            )
            if inverse:  # x's shape (and chunks: one per axis)
                chunks = xw.chunks
                layer = {
                    (fname, *(0,) * x.ndim): (
                        _pick_field,
                        (key,),
                        j,
                        isinstance(probe, tuple),
                    )
                }
            else:
                chunks = ((math.nan,),)
                layer = {(fname, 0): (_pick_field, (key,), j, isinstance(probe, tuple))}
            graph = HighLevelGraph.from_collections(
                fname, {**dsk, **layer}, dependencies=[xw]
            )
            res.append(
                da.Array(
                    graph, fname, chunks, meta=_sizes._meta(x, len(chunks), o.dtype)
                )
            )
        return tuple(res) if isinstance(probe, tuple) else res[0]

    return entry


def _pick_field(t: Any, j: int, many: bool) -> Any:
    return t[j] if many else t


# --- the table --------------------------------------------------------------
def build_ops(gpu: bool = False) -> dict[str, Callable[..., Any]]:
    """The table over NumPy chunks, or (``gpu``) over CuPy chunks: the same
    entries with the CUDA table's per-chunk kernels, run by the backend with
    a GPU current (``_chunks.on_gpu``)."""
    c = _chunks.CPU_KERNELS if not gpu else _chunks.CudaKernels(_chunks.cuda_backend())
    raw: dict[str, Callable[..., Any]] = {
        name: _chunkwise(c[name], _probe_of(c, name))
        for name in ELEMENTWISE
        if name != "matmul"
    }
    raw.update(
        {
            "clip": _clip,
            "raise_if": _raise_if,
            "full_like": _full_like,
            "broadcast_like": _broadcast_like,
            "where": _where,
            "astype": lambda x, dtype, copy: _sizes.keep(x.astype(dtype), x),
            "copy": lambda x: _sizes.keep(x.copy(), x),
            "getitem": _getitem,  # on handles: index(), set below
            "getitem_native": _getitem,
            "native_result": lambda x: x,
            "take": _take,
            "take_along_axis": _take_along_axis,
            # creation
            "arange": _arange,
            "empty": _empty,
            "zeros": _zeros,
            "ones": _ones,
            "full": _full,
            "eye": _eye,
            "linspace": _linspace,
            "tril": _tri(True),
            "triu": _tri(False),
            "meshgrid": _meshgrid,
            # manipulation
            "broadcast_to": _broadcast_to,
            "concat": _concat,
            "stack": _stack,
            "expand_dims": _expand_dims,
            "flip": _flip,
            "moveaxis": _moveaxis,
            "permute_dims": lambda x, axes: x.transpose(axes),
            "repeat": _repeat,
            "reshape": _reshape,
            "roll": _roll,
            "squeeze": _squeeze,
            "tile": _tile,
            "unstack": _unstack,
            # searching
            "argmax": _argext(da.argmax, "argmax"),
            "argmin": _argext(da.argmin, "argmin"),
            "count_nonzero": _count_nonzero,
            "nonzero": _nonzero,
            "searchsorted": _searchsorted,
            # set and sorting: a sample sort over the chunks
            "isin": _isin,
            "unique_all": _sort.unique_all,
            "unique_counts": _sort.unique_counts,
            "unique_inverse": _sort.unique_inverse,
            "unique_values": _sort.unique_values,
            "sort": _sort.sort,
            "argsort": _sort.argsort,
            # statistics
            "sum": _reduction(da.sum, True, "sum"),
            "prod": _reduction(_prod, True, "prod"),
            "max": _extremum(da.max, "max"),
            "min": _extremum(da.min, "min"),
            "mean": _mean,
            "std": _spread(da.std, "std"),
            "var": _spread(da.var, "var"),
            "all": _reduction(da.all, False, "all"),
            "any": _reduction(da.any, False, "any"),
            "cumulative_sum": _cumulative("cumulative_sum", 0),
            "cumulative_prod": _cumulative("cumulative_prod", 1),
            "diff": _diff,
            # linear algebra
            "matmul": _matmul,
            "tensordot": _tensordot,
            "vecdot": _vecdot,
            "matrix_transpose": lambda x: da.swapaxes(x, -1, -2),
        }
    )
    raw.update(_linalg_ops(c))
    raw.update(_fft_ops(c))
    raw.update(_ext_ops(c))
    if gpu:  # CuPy has no structured dtypes, which _sort's records are
        for name in ("sort", "argsort", "unique_all", "unique_counts",
                     "unique_inverse", "unique_values"):  # fmt: skip
            raw[name] = getattr(_cusort, name)
    for name in ("sort", "argsort"):
        raw[name] = _sort_entry(raw[name], name)
    for name in ("unique_all", "unique_counts", "unique_inverse", "unique_values"):
        raw[name] = _unique_entry(raw[name], name)
    ops = {name: _lift(func, name) for name, func in raw.items()}
    ops["setitem"] = _setitem  # works on the handle itself (rebinds it)
    # basic indexing gives views (_native), as on the CPU
    ops["getitem"] = ops["getitem_native"] = index
    return ops
