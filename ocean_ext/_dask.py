"""Arrays on the ``dask`` device: to and from ``dask.array``, chunks, compute.

Arrays on the ``dask`` device (``ocean_dask``) are lazy: operations build a
task graph and nothing runs until a value is needed.  These functions are the
bridge to the rest of the dask world, and the one explicit way to run graphs:

- :func:`from_dask` / :func:`to_dask`: wrap a ``dask.array.Array`` (from zarr,
  HDF5, ``.npy`` stacks, ``dask.array.from_array``, ...) as an array of this
  namespace, and back, sharing the graph: no copy and no compute (NumPy
  chunks are on the device ``dask``, CuPy chunks on ``dask:cuda:<i>``);
- :func:`rechunk`: choose the chunks (lazy);
- :func:`compute`: run the graphs of several arrays in one scheduler run;
- :func:`persist`: run them and keep the chunks in memory (here, or on the
  workers of a cluster), as lazy arrays whose sizes are known;
- :func:`known_sizes`: a block in which data-dependent sizes are computed
  when they are made, for code that compares sizes in Python.

Arrays on the ``dask`` device are dask collections too: ``dask.compute``,
``dask.persist`` and a ``distributed.Client``'s ``compute``/``persist`` take
them (and give arrays on the same device).

None of them imports dask unless given a dask array or an array on the
``dask`` device.
"""

from __future__ import annotations

import contextlib
from contextlib import AbstractContextManager
from contextvars import ContextVar, Token
from typing import Any

from ocean_array_api import _dtypes as _dt
from ocean_array_api._array_object import Array, _wrap
from ocean_array_api._devices import Device

__all__ = ["compute", "from_dask", "known_sizes", "persist", "rechunk", "to_dask"]

_KIND = "dask"


def _dask_device(where: str, index: int = 0) -> Device:
    try:
        return Device(_KIND, index)
    except ValueError:
        if index:
            msg = (
                f"{where}: the chunks are CuPy arrays on a GPU for which there is "
                f"no device dask:cuda:{index - 1} here (the CUDA backend does not "
                f"see it)"
            )
            raise ValueError(msg) from None
        msg = (
            f"{where}: the 'dask' device is not available; install dask "
            f"(pip install 'ocean-array-api[dask]')"
        )
        raise ModuleNotFoundError(msg) from None


def _check_array(x: Any, where: str, argname: str = "x") -> Array:
    if x.__class__ is not Array:
        msg = (
            f"{where}: `{argname}` must be an array of ocean_array_api, got "
            f"{type(x).__name__}"
        )
        raise TypeError(msg)
    return x


def _check_on_dask(x: Any, where: str) -> Array:
    x = _check_array(x, where)
    if x._device._kind != _KIND:
        msg = (
            f"{where}: `x` is on {x._device!r}, not on the 'dask' device; move it "
            f"with x.to_device('dask') (a copy of its values into one in-memory "
            f"dask array)"
        )
        raise ValueError(msg)
    return x


def _is_dask_array(obj: Any) -> bool:
    cls = type(obj)
    return cls.__name__ == "Array" and cls.__module__.startswith("dask.array")


def from_dask(darr: Any, /) -> Array:
    """An array on the ``dask`` device that *is* the dask array ``darr``.

    No copy and no compute: the result shares ``darr``'s graph and chunks, so
    data dask reads lazily (``dask.array.from_zarr``, ``from_array`` of an
    HDF5 dataset, ``from_npy_stack``, ...) is read only when a result needs
    it.  Unknown (``nan``) chunk sizes become ``None`` in ``shape``.

    Parameters
    ----------
    darr : dask.array.Array
        A dask array with NumPy chunks of a standard dtype or ``float16``
        (``ocean_ext.float16``), or with CuPy chunks (``meta`` a CuPy array)
        on a GPU the CUDA backend sees.  A byte-swapped dtype (big-endian data
        on a little-endian machine) is converted chunk by chunk to native
        order, lazily.

    Returns
    -------
    Array
        On the ``dask`` device (NumPy chunks), or on ``dask:cuda:<i>`` (CuPy
        chunks on CUDA device ``i``).

    Raises
    ------
    TypeError
        If ``darr`` is not a dask array, or its dtype has no dtype here
        (object, strings, structured).
    NotImplementedError
        If its chunks are neither NumPy nor CuPy arrays (sparse chunks, or
        CuPy chunks without the CUDA backend).
    ValueError
        If its CuPy chunks are on a GPU the CUDA backend does not see.
    ModuleNotFoundError
        If the ``dask`` device is unavailable.

    Examples
    --------
    >>> import dask.array as da
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> d = da.ones((4, 6), chunks=(2, 3))
    >>> x = ocean_ext.from_dask(d)
    >>> x.device, x.shape
    (Device('dask', 0), (4, 6))
    >>> float(xp.sum(x))
    24.0
    """
    where = "from_dask()"
    if not _is_dask_array(darr):
        msg = (
            f"{where}: `darr` must be a dask.array.Array, got {type(darr).__name__}; "
            f"for NumPy data use ocean_array_api.asarray(obj, device='dask')"
        )
        raise TypeError(msg)
    import numpy as np
    from ocean_dask import backend as dask_backend

    index = dask_backend.chunk_device(darr)
    if index is None:
        meta = darr._meta
        msg = (
            f"{where}: the chunks of `darr` are {type(meta).__module__}."
            f"{type(meta).__name__} objects; only NumPy chunks, and CuPy chunks "
            f"where the CUDA backend has a GPU, are supported"
        )
        raise NotImplementedError(msg)
    native = np.dtype(darr.dtype)
    if not native.isnative and native.kind in "biufc":
        darr = darr.astype(native.newbyteorder("="))  # lazy, chunk by chunk
        native = np.dtype(darr.dtype)
    dt = _dt.from_native(native)
    # float16 registers itself with ocean_ext; complex32 has no NumPy dtype
    # (its uint32 storage must not be read as integers), so uint32 stays uint32.
    if dt is None or (not dt._standard and dt._name != "float16"):
        msg = (
            f"{where}: `darr` has dtype {native}, which has no dtype in "
            f"ocean_array_api (bool, integers, float16/32/64, complex64/128)"
        )
        raise TypeError(msg)
    dev = _dask_device(where, index)
    from ocean_dask import LazyArray

    return _wrap(LazyArray(darr, index - 1 if index else None), dt, dev)


def to_dask(x: Array, /) -> Any:
    """The ``dask.array.Array`` of an array on the ``dask`` device.

    No copy and no compute: the graph is shared, so anything dask offers
    (``to_zarr``, ``store``, ``map_overlap``, ``persist``, ...) applies.
    On a device ``dask:cuda:<i>`` its chunks are CuPy arrays.

    Parameters
    ----------
    x : Array
        An array on the ``dask`` device (or ``dask:cuda:<i>``) of a standard
        dtype or float16.

    Returns
    -------
    dask.array.Array

    Raises
    ------
    TypeError
        If ``x`` is not an array of ocean_array_api, or is complex32 (dask
        would see its storage, one ``uint32`` per element; convert with
        ``astype(x, complex64)`` first).
    ValueError
        If ``x`` is not on the ``dask`` device.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.arange(6, device="dask")
    >>> d = ocean_ext.to_dask(2 * x)
    >>> type(d).__name__, d.compute().tolist()
    ('Array', [0, 2, 4, 6, 8, 10])
    """
    where = "to_dask()"
    x = _check_on_dask(x, where)
    if not x._dtype._standard and x._dtype._name != "float16":
        msg = (
            f"{where}: `x` has dtype {x._dtype}, which NumPy and dask do not have; "
            f"convert it with astype(x, complex64) first"
        )
        raise TypeError(msg)
    return x._data.arr


def rechunk(x: Array, /, chunks: Any) -> Array:
    """``x`` with other chunks (lazy; dask's ``Array.rechunk``).

    Chunks decide memory use and parallelism: each task holds a few chunks.
    ``sort``, ``argsort`` and ``unique_*`` make one pass per chunk along the
    sorted axis, so they prefer few, large chunks there.

    Parameters
    ----------
    x : Array
        An array on the ``dask`` device.
    chunks : int, tuple, dict or str
        As dask takes them: a size for every axis (``1000``), one per axis
        (``(1000, -1)``, ``-1`` for the whole axis), explicit sizes
        (``((2, 2, 1),)``), a dict ``{axis: size}``, or ``"auto"``.

    Returns
    -------
    Array
        On the ``dask`` device, same dtype, shape and values.

    Raises
    ------
    TypeError
        If ``x`` is not an array or ``chunks`` is of another type.
    ValueError
        If ``x`` is not on the ``dask`` device, or dask refuses ``chunks``
        (sizes that do not add up to the shape, for instance).

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = ocean_ext.rechunk(xp.zeros((100, 10), device="dask"), (25, -1))
    >>> ocean_ext.to_dask(x).chunks
    ((25, 25, 25, 25), (10,))
    """
    where = "rechunk()"
    x = _check_on_dask(x, where)
    if not isinstance(chunks, (int, tuple, dict, str)) or isinstance(chunks, bool):
        msg = (
            f"{where}: `chunks` must be an int, a tuple, a dict or a str such as "
            f"'auto', got {chunks!r} of type {type(chunks).__name__}"
        )
        raise TypeError(msg)
    from ocean_dask import LazyArray

    try:
        arr = x._data.arr.rechunk(chunks)
    except (ValueError, TypeError, KeyError) as exc:
        msg = f"{where}: `chunks` {chunks!r} does not fit shape {x.shape}: {exc}"
        raise ValueError(msg) from None
    return _wrap(LazyArray(arr, x._data.gpu), x._dtype, x._device)


def compute(*arrays: Array) -> tuple[Array, ...]:
    """Run the graphs of ``arrays`` (one scheduler run for all of them).

    Returns arrays on the same devices holding the values, so that further
    work starts from the results instead of running the graphs again, and
    data-dependent sizes (``None``) become known.  The values come back to
    this process (dask's ``compute``): reduce large arrays first, or keep them
    lazy and write them out with ``to_dask(x).to_zarr(...)``; on a device
    ``dask:cuda:<i>`` they stay on that GPU.  Arrays on eager devices are
    returned as they are.  (Arrays of several chunk kinds take one run per
    kind: NumPy chunks, and each GPU's CuPy chunks.)

    Parameters
    ----------
    *arrays : Array
        Arrays of ocean_array_api, on any device.

    Returns
    -------
    tuple of Array
        One per argument, in order (a tuple even for one array:
        ``(y,) = ocean_ext.compute(y)``).

    Raises
    ------
    TypeError
        If an argument is not an array of ocean_array_api.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.arange(10, device="dask")
    >>> y = x[x % 3 == 0]
    >>> y.shape
    (None,)
    >>> (y,) = ocean_ext.compute(y)
    >>> y.shape
    (4,)
    """

    def run(*handles: Any) -> Any:
        from ocean_dask._backend import compute as _compute
        from ocean_dask._backend import rewrap

        return [rewrap(v, h) for v, h in zip(_compute(*handles), handles, strict=True)]

    return _on_lazy(arrays, "compute()", run)


def _on_lazy(arrays: tuple[Array, ...], where: str, run: Any) -> tuple[Array, ...]:
    """``arrays`` with the lazy ones replaced by ``run(*their handles)``'s
    handles (same dtypes and devices); the others as they are."""
    for i, a in enumerate(arrays):
        _check_array(a, where, f"arrays[{i}]")
    lazy = [i for i, a in enumerate(arrays) if a._device._backend.is_lazy(a._data)]
    out = list(arrays)
    if not lazy:
        return tuple(out)
    results = run(*[arrays[i]._data for i in lazy])
    for i, h in zip(lazy, results, strict=True):
        a = arrays[i]
        out[i] = _wrap(h, a._dtype, a._device)
    return tuple(out)


def persist(*arrays: Array) -> tuple[Array, ...]:
    """Run the graphs of ``arrays`` and keep their chunks in memory.

    The result is still lazy (an array on the same device, chunked as
    before), but its graph is the computed chunks: later work starts from
    them instead of running the graph again.  Data-dependent sizes become
    known (``shape`` has no ``None`` afterwards).  With a
    ``distributed.Client`` active, the chunks stay on the workers (dask's
    ``persist``); the call returns once their sizes are known, that is once
    they are computed.  Arrays on eager devices are returned as they are.

    Parameters
    ----------
    *arrays : Array
        Arrays of ocean_array_api, on any device.

    Returns
    -------
    tuple of Array
        One per argument, in order (``(y,) = ocean_ext.persist(y)``).

    Raises
    ------
    TypeError
        If an argument is not an array of ocean_array_api.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.arange(10, device="dask")
    >>> (y,) = ocean_ext.persist(x[x % 3 == 0])
    >>> y.shape
    (4,)
    >>> int(xp.sum(y))
    18
    """

    def run(*handles: Any) -> Any:
        from ocean_dask._backend import persist as _persist

        out = _persist(*handles)
        for h, old in zip(out, handles, strict=True):
            if not old.flags.writeable:
                h.flags.writeable = False
        return out

    return _on_lazy(arrays, "persist()", run)


def known_sizes() -> AbstractContextManager[None]:
    """A block in which data-dependent sizes are computed when they are made.

    On the ``dask`` device, a boolean mask, ``nonzero``, ``unique_*`` or
    ``repeat`` with an array of counts give arrays whose sizes depend on the
    data: ``None`` in ``shape``.  Code that compares such sizes in Python
    (scikit-learn's ``unique_values(y).shape[0] > 2``) cannot run on them.
    Inside this block each such result has its sizes computed at once, so
    ``shape`` holds ints.  Outside it nothing changes (thread- and
    async-safe: a context variable).

    Cost: one run of the scheduler for each such result, which computes
    the result's graph and keeps only the chunk sizes (the values are
    computed again where the result is used), so a graph up to a mask runs
    twice.  Persist large inputs first (:func:`persist`) to make that
    second run cheap.  Nothing else is computed, and arrays on other devices
    are not affected.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.arange(10, device="dask")
    >>> x[x > 6].shape
    (None,)
    >>> with ocean_ext.known_sizes():
    ...     y = x[x > 6]
    >>> y.shape
    (3,)
    """
    return _KnownSizes()


# What known_sizes() sets where the dask backend is not installed (nothing
# is lazy then): a variable nobody reads.
_NO_DASK: ContextVar[bool] = ContextVar("ocean_ext.known_sizes", default=False)


def _known_var() -> ContextVar[bool]:
    try:
        from ocean_dask._native import KNOWN  # (imports no dask)
    except ImportError:  # pragma: no cover - no dask backend: nothing is lazy
        return _NO_DASK
    return KNOWN


class _KnownSizes(contextlib.ContextDecorator):
    """The context manager :func:`known_sizes` returns: reusable and reentrant.

    Safe against an interrupt (Ctrl-C) anywhere inside: ``__enter__`` undoes
    its change when it raises (``with`` then calls no ``__exit__``), and
    ``__exit__`` is one line of C calls."""

    __slots__ = ("_undo",)

    def __init__(self) -> None:
        # (variable, token) of each entry, innermost last
        self._undo: list[tuple[ContextVar[bool], Token[bool]]] = []

    def __enter__(self) -> None:
        undo = self._undo
        depth = len(undo)
        try:
            var = _known_var()
            undo.append((var, var.set(True)))
        except BaseException:
            if len(undo) > depth:
                ContextVar.reset(*undo.pop())
            raise

    def __exit__(self, *exc: object) -> None:
        ContextVar.reset(*self._undo.pop())
