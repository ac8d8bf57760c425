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
import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import dask.array as da
import numpy as np
from dask.array.core import elemwise
from ocean_cpu._common import ELEMENTWISE, reduced

from . import _chunks, _contract, _cusort, _sort
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
        res = func(*[unwrap(a) for a in args], **kwargs)
        if out is not None:
            if _shape_of(res) != out.shape:
                # Note: as NumPy's out=: an in-place operator cannot broadcast
                # its target to a new shape.  (None, a data-dependent size,
                # compares equal to None: the chunks then meet when the graph
                # runs, where sizes that differ raise NumPy's ValueError.)
                msg = (
                    f"non-broadcastable output operand with shape "
                    f"{out.shape} doesn't match the broadcast shape {_shape_of(res)}"
                )
                raise ValueError(msg)
            out.arr = res.astype(out.arr.dtype, copy=False)
            return out
        return _out(res)

    entry.__name__ = entry.__qualname__ = f"dask_{name}"
    entry.__wrapped__ = func  # type: ignore[attr-defined]
    return entry


def _shape_of(arr: Any) -> tuple[int | None, ...]:
    return LazyArray(arr).shape


def _unknown(n: float) -> bool:
    return n != n  # nan: a data-dependent size


# --- elementwise ------------------------------------------------------------
def _chunkwise(
    func: Callable[..., Any], probe: Callable[..., Any] | None = None
) -> Callable[..., Any]:
    """An elementwise entry running ``func`` (a CPU entry) on each chunk.

    ``probe``: for a CUDA kernel (CuPy chunks), the CPU entry of the same
    name, which gives the result dtype (dask infers it by calling the
    function on NumPy samples, which a CUDA kernel refuses).
    """
    if probe is not None:

        def entry(*args: Any) -> Any:
            if not any(isinstance(a, _Array) for a in args):
                return func(*args)
            return elemwise(func, *args, dtype=_probe_dtype(probe, args))

        return entry

    def entry(*args: Any) -> Any:
        if not any(isinstance(a, _Array) for a in args):
            return func(*args)
        return elemwise(func, *args)

    return entry


def _probe_dtype(probe: Callable[..., Any], args: tuple[Any, ...]) -> Any:
    """The dtype ``probe`` gives for NumPy samples of ``args``' dtypes (ones:
    no value outside a function's domain, such as a negative int exponent)."""
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
        return elemwise(lambda a, h: cpu_clip(a, None, h), x, hi, dtype=x.dtype)
    if hi is None:
        return elemwise(lambda a, lo_: cpu_clip(a, lo_, None), x, lo, dtype=x.dtype)
    return elemwise(cpu_clip, x, lo, hi, dtype=x.dtype)


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


def _where(cond: Any, x1: Any, x2: Any) -> Any:
    return elemwise(np.where, cond, x1, x2)


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
    # arange can differ by one for float steps); element i is start + i * step.
    with np.errstate(all="ignore"):
        n = int(max(math.ceil((stop - start) / step), 0))
    dtype = np.dtype(dtype)
    if n == 0:
        return _zeros(index, (0,), dtype)

    def block(i: Any) -> Any:
        if dtype.kind == "f":
            return (start + i.astype(np.float64) * step).astype(dtype)
        return (start + i * step).astype(dtype)

    return elemwise(block, _chunks.arange(0, n, dtype=np.int64), dtype=dtype)


def _eye(index: int, n: int, m: int, k: int, dtype: Any) -> Any:
    # Note: dask's eye fails for some non-square shapes; the diagonal is
    # where column - row == k, over chunks chosen for the 2-D shape.
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


def _tri(lower: bool) -> Callable[..., Any]:
    def tri(x: Any, k: int) -> Any:
        m, n = x.shape[-2], x.shape[-1]
        rows = _chunks.arange(0, m, chunks=x.chunks[-2], dtype=np.int64)[:, None]
        cols = _chunks.arange(0, n, chunks=x.chunks[-1], dtype=np.int64)[None, :]
        keep = (cols - rows <= k) if lower else (cols - rows >= k)
        return da.where(keep, x, x.dtype.type(0))

    return tri


def _meshgrid(arrays: Sequence[Any], indexing: str) -> Any:
    return tuple(da.meshgrid(*arrays, indexing=indexing))


# --- manipulation -----------------------------------------------------------
def _concat(arrays: Sequence[Any], axis: int | None, dtype: Any) -> Any:
    if axis is None:
        arrays = [a.reshape(-1) for a in arrays]
        axis = 0
    if dtype is not None:
        arrays = [a.astype(dtype) for a in arrays]
    if _unknown_elsewhere(arrays, axis, "concat()"):
        return da.concatenate(arrays, axis=axis, allow_unknown_chunksizes=True)
    return da.concatenate(arrays, axis=axis)


def _stack(arrays: Sequence[Any], axis: int, dtype: Any) -> Any:
    if dtype is not None:
        arrays = [a.astype(dtype) for a in arrays]
    if _unknown_elsewhere(arrays, None, "stack()"):
        new = (slice(None),) * axis + (None,)
        return da.concatenate(
            [a[new] for a in arrays], axis=axis, allow_unknown_chunksizes=True
        )
    return da.stack(arrays, axis=axis)


def _unknown_elsewhere(arrays: Sequence[Any], axis: int | None, where: str) -> bool:
    """Whether some of ``arrays`` have data-dependent sizes (after a mask) on
    an axis other than ``axis``, where they are joined chunk by chunk.

    Note: dask refuses to join them, as it cannot check those sizes.  Arrays
    cut alike there (e.g. masked by the same mask) join chunk by chunk, and a
    pair of chunks whose sizes differ raises NumPy's ValueError when the graph
    runs; arrays cut differently cannot be aligned without computing.
    """
    others = [
        a.chunks if axis is None else a.chunks[:axis] + a.chunks[axis + 1 :]
        for a in arrays
    ]
    if not any(_unknown(c) for dims in others for dim in dims for c in dim):
        return False
    if len({tuple(len(d) for d in o) for o in others}) != 1:
        msg = (
            f"{where}: the arrays have sizes that depend on the data (None) in "
            "differently chunked arrays, which the dask device cannot align "
            "lazily; compute them first (ocean_ext.compute)"
        )
        raise NotImplementedError(msg)
    return True


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
    return x[tuple(key)]


def _moveaxis(x: Any, source: tuple[int, ...], destination: tuple[int, ...]) -> Any:
    return da.moveaxis(x, source, destination)


def _repeat(x: Any, repeats: Any, axis: int | None) -> Any:
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    if x.shape[axis] == 0:
        return x  # dask's repeat fails on empty input
    if not isinstance(repeats, _Array):
        reps = int(repeats)
        if reps == 0:
            shape = list(x.shape)
            shape[axis] = 0
            return _zeros(0, tuple(shape), x.dtype)
        return da.repeat(x, reps, axis=axis)
    # One count per element: each chunk repeats its own elements; the chunk
    # lengths along ``axis`` are then data-dependent (None), and the total is
    # sum(repeats), unknown before the graph runs.
    if repeats.ndim == 0 or repeats.shape[0] == 1:
        repeats = da.broadcast_to(repeats.reshape(1), (x.shape[axis],))
    repeats = repeats.astype(np.int64).rechunk((x.chunks[axis],))

    g = _chunks.current()
    if g is None:

        def block(xb: Any, rb: Any) -> Any:
            return np.repeat(xb, rb.reshape(-1), axis=axis)

    else:  # CuPy's repeat takes no array of counts: the CUDA table's entry
        rep = g.kernel("repeat")

        def block(xb: Any, rb: Any) -> Any:
            return rep(xb, rb.reshape(-1), axis)

    chunks = list(x.chunks)
    chunks[axis] = (np.nan,) * len(x.chunks[axis])
    return da.map_blocks(
        block,
        x,
        _broadcastable(repeats, x.ndim, axis),
        dtype=x.dtype,
        chunks=tuple(chunks),
    )


def _broadcastable(r: Any, ndim: int, axis: int) -> Any:
    """1-D ``r`` reshaped to broadcast along ``axis`` of an ``ndim``-d array."""
    shape = [1] * ndim
    shape[axis] = -1
    return r.reshape(tuple(shape))


def _reshape(x: Any, shape: tuple[int, ...], copy: bool | None) -> Any:
    for s in shape:
        if not isinstance(s, (int, np.integer)):
            # Note: as NumPy (dask accepts floats); the front end reports it
            msg = f"'{type(s).__name__}' object cannot be interpreted as an integer"
            raise TypeError(msg)
    if tuple(x.shape) == tuple(shape):
        return x.copy() if copy else x
    if any(_unknown(s) for s in x.shape):
        if len(shape) == 1:
            return x.ravel() if x.ndim > 1 else x
        msg = "reshape(): the input has a data-dependent size (None); compute it first"
        raise NotImplementedError(msg)
    return x.reshape(shape, merge_chunks=True)


def _roll(x: Any, shift: Any, axis: Any) -> Any:
    if 0 in x.shape:
        return x  # dask's roll fails on empty input (its reshape)
    return da.roll(x, shift, axis=axis)


def _squeeze(x: Any, axis: Any) -> Any:
    return da.squeeze(x, axis=axis)


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
            shape = list(out.shape)
            shape[ax] = 0
            out = _zeros(0, tuple(shape), x.dtype)
            continue
        out = da.concatenate([out] * r, axis=ax)
    return out


def _unstack(x: Any, axis: int) -> Any:
    key: list[Any] = [slice(None)] * x.ndim
    out = []
    for i in range(x.shape[axis]):
        key[axis] = i
        out.append(x[tuple(key)])
    return tuple(out)


# --- indexing ---------------------------------------------------------------
def _getitem(x: Any, key: Any) -> Any:
    keys = key if key.__class__ is tuple else (key,)
    _check_slices(keys)
    _check_known(x, keys, "__getitem__()")
    if len(keys) == 1 and isinstance(keys[0], _Array) and keys[0].dtype == bool:
        mask = keys[0]
        _check_mask(x, mask)
        if mask.ndim == 0:
            # Note: dask takes no 0-d mask; x[m] is x[None][m[None]] (0 or 1 rows)
            return x[None][mask[None]]
        if 1 < mask.ndim < x.ndim:
            # Note: dask takes a mask of one or of all dimensions; a mask over
            # the leading k is a 1-d mask of their (row-major) merge.
            rest = x.shape[mask.ndim :]
            count = math.prod(mask.shape)
            if count == 0:
                return _zeros(0, (0, *rest), x.dtype)
            merged = x.reshape((count, *rest), merge_chunks=True)
            return merged[mask.reshape(-1)]
        return x[mask]
    arrays = [k for k in keys if isinstance(k, _Array)]
    if arrays and (
        len(arrays) > 1
        or arrays[0].ndim > 1
        or any(
            k is None or not isinstance(k, (slice, _Array))
            for k in keys
            if k is not Ellipsis
        )
    ):
        # several arrays, an n-d one, or an array with integers (which NumPy
        # then treats as 0-d index arrays) or None
        return _advanced(x, keys)
    if arrays and arrays[0].dtype.kind in "iu":
        # Note: dask gathers with a dask index array lazily; negative indices
        # count from the end, as in NumPy.
        keys = _expand_ellipsis(keys, x.ndim)
        with warnings.catch_warnings():
            # dask casts a complex meta array to the index's dtype on the way
            # (a ComplexWarning about its own empty meta, not about data)
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            return x[tuple(_wrap_negative(k, x, keys) for k in keys)]
    return x[key]


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
        if m != n and not (_unknown(m) or _unknown(n)):
            msg = f"boolean index has size {m} in dimension {i}, the array has {n}"
            raise IndexError(msg)


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
                f"dask device, which integers, slices and index arrays cannot "
                f"index lazily; compute the array first (ocean_ext.compute)"
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
    idx = []
    for i in adv:
        n = x.shape[i]
        k = keys[i]
        k = k if isinstance(k, _Array) else _chunks.asarray(np.int64(k))
        idx.append(_in_bounds(k, n, i))
    idx = da.broadcast_arrays(*idx)
    bshape = tuple(idx[0].shape)
    dims = [x.shape[i] for i in adv]
    flat = idx[0]
    for d, k in zip(dims[1:], idx[1:], strict=True):
        flat = flat * d + k
    front = da.moveaxis(x, adv, list(range(len(adv))))
    rest = front.shape[len(adv) :]
    merged = front.reshape((math.prod(dims), *rest), merge_chunks=True)
    with warnings.catch_warnings():  # as in _getitem: dask's meta cast
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        res = merged[flat.reshape(-1)].reshape(bshape + tuple(rest))
    adjacent = adv == list(range(adv[0], adv[0] + len(adv)))
    if adjacent and adv[0] > 0:
        nb = len(bshape)
        res = da.moveaxis(res, list(range(nb)), list(range(adv[0], adv[0] + nb)))
    return res


def _setitem(x: LazyArray, key: Any, value: Any) -> None:
    x.check_writeable()
    arr = x.arr
    key = unwrap(key)
    value = unwrap(value)
    if value.__class__ in (int, float, complex, bool):
        # as NumPy: OverflowError for a Python int out of the dtype's range
        value = np.asarray(value, dtype=arr.dtype)[()]
    _check_slices(key if key.__class__ is tuple else (key,))
    _check_known(arr, key if key.__class__ is tuple else (key,), "__setitem__()")
    if isinstance(value, _Array):
        value = value.astype(arr.dtype)
    elif value.__class__ is LazyArray:
        value = value.arr.astype(arr.dtype)
    keys = key if key.__class__ is tuple else (key,)
    if len(keys) == 1 and isinstance(keys[0], _Array) and keys[0].dtype == bool:
        _check_mask(arr, keys[0])
        x.arr = _mask_assign(arr, keys[0], value)
        return
    if any(isinstance(k, _Array) for k in keys):
        x.arr = _scatter_assign(arr, keys, value)
        return
    if not any(isinstance(k, _Array) for k in keys):
        sel_shape = arr[key].shape
        if 0 in sel_shape:
            return  # nothing selected (dask's setitem fails on empty selections)
        key, value = _positive_steps(keys, arr.shape, sel_shape, value)
    new = arr.copy()
    new[key] = value  # dask rewrites `new` (a fresh object) in place
    x.arr = new


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
    grid = grid.reshape(arr.shape, merge_chunks=True).rechunk(arr.chunks)
    pos = _getitem(grid, keys)
    if 0 in pos.shape:
        return arr
    if not isinstance(value, _Array):
        value = _chunks.asarray(value) if _chunks.current() else da.asarray(value)
    vals = da.broadcast_to(value.astype(arr.dtype), pos.shape)
    if _chunks.current() is None:
        where_pos, where_val = _sort.sorted_along(
            pos.reshape(-1), 0, payload=vals.reshape(-1), where="__setitem__()"
        )
    else:  # CuPy chunks: no records
        where_pos, _, where_val = _cusort.sort_pairs(pos.reshape(-1), vals.reshape(-1))
    flat = grid.reshape(-1)
    j = da.searchsorted(where_pos, flat, side="right") - 1
    jc = da.maximum(j, 0)
    hit = (j >= 0) & (where_pos[jc] == flat)
    new = da.where(hit, where_val[jc], arr.reshape(-1))
    return new.reshape(arr.shape).rechunk(arr.chunks)


def _mask_assign(arr: Any, mask: Any, value: Any) -> Any:
    """``arr`` with ``arr[mask] = value``, lazily.

    A value of one element (or a scalar) fills the selected places; a value
    with one row per selected element goes to them in order: the i-th True
    of the (row-major) mask takes row i, found with a cumulative sum.
    """
    trailing = arr.ndim - mask.ndim
    full_mask = mask[(...,) + (None,) * trailing] if trailing else mask
    if isinstance(value, _Array) and any(_unknown(s) for s in value.shape):
        return _mask_assign_unknown(arr, mask, value)
    if not isinstance(value, _Array) or math.prod(value.shape) == 1:
        fill = value.reshape(()) if isinstance(value, _Array) else value
        return da.where(full_mask, fill, arr).astype(arr.dtype)
    flat = mask.reshape(-1) if mask.ndim != 1 else mask
    order = (da.cumsum(flat.astype(np.int64)) - 1).reshape(mask.shape)
    order = da.where(mask, order, 0)
    if value.ndim <= trailing:  # broadcasts over the selected elements
        return da.where(full_mask, value, arr).astype(arr.dtype)
    rows = value.reshape((-1, *value.shape[value.ndim - trailing :]))
    gathered = rows[order.reshape(-1)].reshape(mask.shape + rows.shape[1:])
    return da.where(full_mask, gathered, arr).astype(arr.dtype)


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
    if any(_unknown(s) for s in arr.shape):
        msg = (
            "__setitem__(): the array has a data-dependent size (None) on the "
            "dask device; compute it first (ocean_ext.compute)"
        )
        raise NotImplementedError(msg)
    trailing = len(rest)
    if value.ndim > trailing + 1:
        msg = (
            f"shape mismatch: value array of {value.ndim} dimensions cannot be "
            f"assigned to a selection of {trailing + 1}"
        )
        raise ValueError(msg)
    if value.ndim <= trailing:  # broadcasts over the selected elements
        return da.where(mask[(...,) + (None,) * trailing], value, arr).astype(arr.dtype)
    arr = arr.rechunk({mask.ndim + i: -1 for i in range(trailing)})
    mask = mask.rechunk(arr.chunks[: mask.ndim])
    flat = mask.reshape(-1).astype(np.int64)
    # each selected element's row in the selection (row-major order)
    order = (da.cumsum(flat) - 1).reshape(mask.shape).rechunk(mask.chunks)
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
        out = a.copy()
        out[m] = rows[0] if rows.shape[0] == 1 else rows[pos[m]]
        return out

    lead = "".join(chr(ord("a") + i) for i in range(mask.ndim))
    tail = "".join(chr(ord("n") + i) for i in range(trailing))
    with warnings.catch_warnings():
        # dask counts the value's chunks (which "z" concatenates into one
        # per task) as if they multiplied the output's: a false warning
        warnings.simplefilter("ignore", da.PerformanceWarning)
        return _blockwise_assign(block, lead, tail, arr, mask, order, value, total)


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


# --- searching --------------------------------------------------------------
def _argext(func: Callable[..., Any]) -> Callable[..., Any]:
    def entry(x: Any, axis: Any, keepdims: bool) -> Any:
        if axis is None:
            res = func(x.reshape(-1), axis=0)
            return res.reshape((1,) * x.ndim) if keepdims else res
        return func(x, axis=axis, keepdims=keepdims)

    return entry


def _count_nonzero(x: Any, axis: Any, keepdims: bool) -> Any:
    return (x != 0).sum(axis=axis, keepdims=keepdims, dtype=np.intp)


def _nonzero(x: Any) -> Any:
    if x.ndim == 0:
        msg = "nonzero(): 0-d input"
        raise ValueError(msg)
    if _chunks.current() is not None:
        # Note: dask's nonzero indexes NumPy index grids with the chunks'
        # mask, which CuPy chunks cannot be; the grids are on the GPU here.
        nz = (x != 0).reshape(-1)
        out = []
        for axis, n in enumerate(x.shape):
            shape = [1] * x.ndim
            shape[axis] = n
            grid = _chunks.arange(0, n, chunks=(x.chunks[axis],), dtype=np.int64)
            grid = da.broadcast_to(grid.reshape(shape), x.shape, chunks=x.chunks)
            out.append(grid.reshape(-1)[nz])
        return tuple(out)
    return tuple(da.nonzero(x))


def _searchsorted(x1: Any, x2: Any, side: str, sorter: Any) -> Any:
    if sorter is not None:
        x1 = x1[sorter]
    if not isinstance(x2, _Array):
        x2 = _chunks.asarray(x2, dtype=x1.dtype)
    elif x1.dtype != x2.dtype and _chunks.current() is not None:
        # Note: CuPy compares without promoting; both in the common dtype
        rt = np.result_type(x1.dtype, x2.dtype)
        x1, x2 = x1.astype(rt), x2.astype(rt)
    if x2.ndim == 0:
        return da.searchsorted(x1, x2.reshape(1), side=side).reshape(())
    flat = x2.reshape(-1)
    return da.searchsorted(x1, flat, side=side).reshape(x2.shape)


def _isin(x1: Any, x2: Any, invert: bool) -> Any:
    g = _chunks.current()
    if not isinstance(x1, _Array):
        x1 = _chunks.asarray(x1)
    if not isinstance(x2, _Array):
        x2 = _chunks.asarray(x2)
    if g is not None:
        return _isin_blocks(g.kernel("isin"), x1, x2, invert)
    return da.isin(x1, x2, invert=invert)


def _isin_blocks(kernel: Callable[..., Any], x1: Any, x2: Any, invert: bool) -> Any:
    """``isin`` of CuPy chunks: the CUDA table's entry (which promotes and
    orders NaNs as CuPy's own isin does not) for each pair of an ``x1`` chunk
    and an ``x2`` chunk, then any() over the ``x2`` chunks."""
    test = x2.reshape(-1)
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
def _reduction(func: Callable[..., Any], with_dtype: bool) -> Callable[..., Any]:
    if with_dtype:

        def entry(x: Any, axis: Any, dtype: Any, keepdims: bool) -> Any:
            if axis == ():
                return x.astype(dtype or x.dtype)
            return func(x, axis=axis, dtype=dtype, keepdims=keepdims)

    else:

        def entry(x: Any, axis: Any, keepdims: bool) -> Any:  # type: ignore[misc]
            if axis == ():
                return x.copy()
            return func(x, axis=axis, keepdims=keepdims)

    return entry


def _extremum(func: Callable[..., Any]) -> Callable[..., Any]:
    def entry(x: Any, axis: Any, keepdims: bool) -> Any:
        if axis == ():
            return x.copy()
        if not any(_unknown(s) for s in x.shape) and math.prod(x.shape) == 0:
            # Note: only reductions with an empty result get here (the front
            # end refused the others); dask, as NumPy, raises for them.
            shape, _ = reduced(x.shape, axis, keepdims)
            return _zeros(0, shape, x.dtype)
        return func(x, axis=axis, keepdims=keepdims)

    return entry


def _nan_fill(shape: tuple[int, ...], dtype: Any) -> Any:
    value = complex(math.nan, math.nan) if np.dtype(dtype).kind == "c" else math.nan
    return _full(0, shape, value, dtype)


def _mean(x: Any, axis: Any, keepdims: bool) -> Any:
    if axis == ():
        return x.copy()
    if not any(_unknown(s) for s in x.shape):
        shape, count = reduced(x.shape, axis, keepdims)
        if count == 0:
            return _nan_fill(shape, x.dtype)
    return da.mean(x, axis=axis, keepdims=keepdims)


def _spread(func: Callable[..., Any]) -> Callable[..., Any]:
    def entry(x: Any, axis: Any, correction: float, keepdims: bool) -> Any:
        if not any(_unknown(s) for s in x.shape):
            shape, count = reduced(x.shape, axis, keepdims)
            if count - correction <= 0:
                return _nan_fill(shape, x.dtype)
        if axis == ():
            # one element per result: 0 (count - correction > 0 was checked)
            return da.zeros_like(x.real if x.dtype.kind == "c" else x)
        res = func(x, axis=axis, ddof=correction, keepdims=keepdims)
        return res.astype(x.dtype) if x.dtype.kind != "c" else res

    return entry


def _cumulative(func: Callable[..., Any], initial: int) -> Callable[..., Any]:
    def entry(x: Any, axis: int, dtype: Any, include_initial: bool) -> Any:
        res = (
            func(x, axis=axis, dtype=dtype)
            if x.shape[axis]
            else x.astype(dtype or x.dtype)
        )
        if include_initial:
            shape = list(x.shape)
            shape[axis] = 1
            first = _full(0, tuple(shape), initial, res.dtype)
            res = da.concatenate([first, res], axis=axis)
        return res

    return entry


def _diff(x: Any, axis: int, n: int, prepend: Any, append: Any) -> Any:
    if prepend is not None or append is not None:
        x = da.concatenate(
            [p for p in (prepend, x, append) if p is not None], axis=axis
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
    if any(0 in a.shape for a in arrays):
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
        diag = da.diagonal(x, offset=offset, axis1=-2, axis2=-1)
        return diag.sum(axis=-1, dtype=dtype)

    def diagonal(x: Any, offset: int) -> Any:
        return da.diagonal(x, offset=offset, axis1=-2, axis2=-1)

    def cross(x1: Any, x2: Any, axis: int) -> Any:
        x1, x2 = da.broadcast_arrays(x1, x2)
        x1 = x1.rechunk({axis: -1})
        x2 = x2.rechunk(x1.chunks)
        dtype = np.result_type(x1.dtype, x2.dtype)
        return da.map_blocks(
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
        return a.max(axis=axis, keepdims=keepdims)
    if ord == -_inf:
        if size0:
            return _full(0, reduced(x.shape, axis, keepdims)[0], _inf, real)
        return a.min(axis=axis, keepdims=keepdims)
    if ord == 0:
        return (a != 0).sum(axis=axis, keepdims=keepdims, dtype=real)
    if ord > 0:
        if size0:
            return _zeros(0, reduced(x.shape, axis, keepdims)[0], real)
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

        def entry(x: Any, n: int, axis: int, norm: str) -> Any:
            x = x.rechunk({axis: -1})
            sample = cpu(
                _chunks.to_current(
                    np.ones(
                        (max(n, 1),) if name != "fft.irfft" else (2,), dtype=x.dtype
                    )
                ),
                n,
                0,
                norm,
            )
            chunks = list(x.chunks)
            chunks[axis] = (n if name not in ("fft.rfft", "fft.ihfft") else n // 2 + 1,)
            return x.map_blocks(
                lambda b: cpu(b, n, axis, norm),
                dtype=sample.dtype,
                chunks=tuple(chunks),
            )

        return entry

    def n_dim(name: str) -> Callable[..., Any]:
        cpu = c[name]

        def entry(x: Any, s: tuple[int, ...], axes: tuple[int, ...], norm: str) -> Any:
            x = x.rechunk(dict.fromkeys(axes, -1))
            ones = _chunks.to_current(np.ones((2,) * len(axes), dtype=x.dtype))
            sample = cpu(ones, (2,) * len(axes), tuple(range(len(axes))), norm)
            chunks = list(x.chunks)
            for size, ax in zip(s, axes, strict=True):
                chunks[ax] = (size,)
            if name == "fft.rfftn":
                chunks[axes[-1]] = (s[-1] // 2 + 1,)
            return x.map_blocks(
                lambda b: cpu(b, s, axes, norm),
                dtype=sample.dtype,
                chunks=tuple(chunks),
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
            x = x.rechunk(dict.fromkeys(axes, -1))
            return x.map_blocks(lambda b: cpu(b, axes), dtype=x.dtype)

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
            "where": _where,
            "astype": lambda x, dtype, copy: x.astype(dtype),
            "copy": lambda x: x.copy(),
            "getitem": _getitem,
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
            "broadcast_to": lambda x, shape: da.broadcast_to(x, shape),
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
            "argmax": _argext(da.argmax),
            "argmin": _argext(da.argmin),
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
            "sum": _reduction(da.sum, True),
            "prod": _reduction(da.prod, True),
            "max": _extremum(da.max),
            "min": _extremum(da.min),
            "mean": _mean,
            "std": _spread(da.std),
            "var": _spread(da.var),
            "all": _reduction(da.all, False),
            "any": _reduction(da.any, False),
            "cumulative_sum": _cumulative(da.cumsum, 0),
            "cumulative_prod": _cumulative(da.cumprod, 1),
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
    ops = {name: _lift(func, name) for name, func in raw.items()}
    ops["setitem"] = _setitem  # works on the handle itself (rebinds it)
    return ops
