"""The dask backend object (device kind ``"dask"``).

dask is imported lazily, by the first call that needs it (``ops``, transfers,
``compute``), never by ``import ocean_array_api`` or ``import ocean_dask``.
Without dask installed the backend reports no devices, quietly, as the CUDA
backend does without CuPy.

Devices: ``Device("dask", 0)`` (``"dask"``) holds NumPy chunks;
``Device("dask", 1 + i)`` (``"dask:cuda:<i>"``) holds CuPy chunks on CUDA
device ``i``, one per GPU the CUDA backend sees (``_chunks``).  Enumerating
them asks the CUDA backend (which imports CuPy); making ``Device("dask")``
does not.

Every graph this backend runs goes through :func:`compute` (the one place
that calls ``dask.compute``), so the tests can count scheduler runs.
"""

from __future__ import annotations

import importlib.util
import math
import os
import threading
from typing import Any

from ._native import LazyArray

__all__ = ["DaskBackend", "backend", "compute"]

_KDLCPU = 1
_KDLCUDA = 2

# Entries whose first argument is the device index (the CPU table's creation
# entries): their chunk kind comes from it, not from an operand.
CREATION = frozenset(
    {"arange", "empty", "zeros", "ones", "full", "eye", "linspace",
     "fft.fftfreq", "fft.rfftfreq"}
)  # fmt: skip


# Entries of the CPU table that the dask table leaves out: the flat-offset
# gathers of bound index objects (lazy arrays have no memory layout).
ABSENT = frozenset({"compact_offsets", "flat_layout", "index_array", "take_flat"})

# Entries the dask table has beyond the CPU table's names, optional entries of
# lazy tables (eager tables leave them out): ``raise_if(value, flag, exc)``,
# with which the front end makes a check of values part of the graph instead
# of computing it (eager tables: the front end tests the flag itself); and
# ``full_like(x, value)``, a 0-d value in the shape of ``x`` chunk by chunk,
# for ``*_like`` of arrays of data-dependent size; ``broadcast_like(x,
# *others)``, ``x`` broadcast against others chunk by chunk, for
# ``broadcast_arrays`` of such arrays.
EXTRA = ("raise_if", "full_like", "broadcast_like")


def _dask_installed() -> bool:
    """Whether dask.array can be imported, without importing anything
    (``find_spec("dask.array")`` would import the ``dask`` package)."""
    try:
        spec = importlib.util.find_spec("dask")
    except (ImportError, ValueError):  # pragma: no cover - a broken install
        return False
    if spec is None:
        return False
    return any(
        os.path.isdir(os.path.join(loc, "array"))
        for loc in (spec.submodule_search_locations or ())
    )


def compute(*natives: Any) -> tuple[Any, ...]:
    """Arrays holding the values of ``natives`` (LazyArray handles): NumPy
    arrays for NumPy chunks, CuPy arrays on their GPU for CuPy chunks.

    One run of the scheduler (dask's default: threads, or the active
    ``distributed.Client``) per chunk kind among them: NumPy chunks, and each
    GPU.  (Graphs of different kinds never share a run: dask names some tasks
    without their chunk type, ``arange`` for one, so equal names could stand
    for chunks of different kinds.)  A GPU's run has its device current in
    the calling thread, and dask's default threaded scheduler then gets a
    pool whose threads have it current too.
    """
    import numpy as np

    groups: dict[int | None, list[int]] = {}
    for i, n in enumerate(natives):
        groups.setdefault(n.gpu, []).append(i)
    out: list[Any] = [None] * len(natives)
    for index, chosen in groups.items():
        results = run([natives[i].arr for i in chosen], index)
        for i, r in zip(chosen, results, strict=True):
            # a 0-d dask array computes to a NumPy scalar: native results are
            # arrays (NumPy, or CuPy on the GPU)
            out[i] = (
                np.asarray(r) if index is None else _chunks_gpu(index).xp.asarray(r)
            )
    return tuple(out)


def _exported(native: LazyArray) -> Any:
    """The values of handle ``native`` in memory of their own (NumPy, or CuPy
    on its GPU), for export (``numpy.asarray``, DLPack, ``to_device``).

    Note: graphs are values: a chunk in memory (computed values, persisted
    or handed-over data) is read by every graph made from it, lazy "copies"
    included, so the export must never be that memory, or a write into the
    export would reach them all.  Computed values already known are copied;
    a graph of one chunk computes to that chunk's task result, which may be
    a chunk held in the graph (or a view of one): copied too.  Several
    chunks are put together into a new array by dask: no copy."""
    known = native.known()  # computed already: no run
    if known is not None:
        return known.copy()
    value = compute(native)[0]
    if math.prod(native.arr.numblocks) > 1:
        return value
    return value.copy()


def persist(*natives: Any) -> tuple[LazyArray, ...]:
    """Handles over the persisted graphs of ``natives``: their chunks
    computed and kept in memory (by the threads here, or by the workers of
    the active ``distributed.Client``, where they stay), one run per chunk
    kind; data-dependent sizes are then computed from the chunks (a second,
    small run: with a cluster, it waits for the persisted chunks)."""
    import dask

    from ._sizes import with_sizes

    groups: dict[int | None, list[int]] = {}
    for i, n in enumerate(natives):
        groups.setdefault(n.gpu, []).append(i)
    out: list[Any] = [None] * len(natives)
    for index, chosen in groups.items():
        arrays = [natives[i].arr for i in chosen]
        if index is None:
            done = dask.persist(*arrays)
            done = with_sizes(*done)
        else:
            g = _chunks_gpu(index)
            kwargs: dict[str, Any] = {}
            if dask.base.get_scheduler(collections=arrays) is dask.threaded.get:
                kwargs["scheduler"] = _gpu_scheduler(index)
            with g.device():
                done = dask.persist(*arrays, **kwargs)
            from ._chunks import activate

            with activate(g):
                done = with_sizes(*done)
        for i, arr in zip(chosen, done, strict=True):
            out[i] = LazyArray(arr, index)
    return tuple(out)


def _chunks_gpu(index: int) -> Any:
    from . import _chunks

    return _chunks.gpu(index)


def run(collections: list[Any], gpu: int | None) -> tuple[Any, ...]:
    """``dask.compute(*collections)`` for graphs of one chunk kind: NumPy
    (``gpu`` None) or CuPy chunks on GPU ``gpu``, run with that device
    current (and, on dask's threaded scheduler, by threads that have it
    current).  Every graph of this backend runs here."""
    import dask

    if gpu is None:
        return dask.compute(*collections)  # type: ignore[no-any-return]
    g = _chunks_gpu(gpu)
    kwargs: dict[str, Any] = {}
    if dask.base.get_scheduler(collections=collections) is dask.threaded.get:
        kwargs["scheduler"] = g.executor()
    with g.device():
        return dask.compute(*collections, **kwargs)  # type: ignore[no-any-return]


def run_delayed(collections: list[Any], arrays: Any = ()) -> tuple[Any, ...]:
    """``run`` for graphs built now, under the current chunk kind (a GPU
    while a GPU table entry builds)."""
    from . import _chunks

    g = _chunks.current()
    return run(list(collections), None if g is None else g.index)


def _gpu_of(args: tuple[Any, ...]) -> int | None:
    """The GPU of the first handle among an entry's operands (the front end
    has checked that they share one device), None for NumPy chunks."""
    for a in args:
        c = a.__class__
        if c is LazyArray:
            return a.gpu  # type: ignore[no-any-return]
        if (c is tuple or c is list) and a and a[0].__class__ is LazyArray:
            return a[0].gpu  # type: ignore[no-any-return]
    return None


class _Indices:
    """The dask device indices: 0 (NumPy chunks), then ``1 + i`` for each GPU
    the CUDA backend sees.  Whether 0 is among them is answered without
    asking the CUDA backend, so making ``Device("dask")`` imports no CuPy."""

    __slots__ = ()

    def _all(self) -> tuple[int, ...]:
        return (0, *(1 + i for i in range(_gpu_count())))

    def __contains__(self, index: object) -> bool:
        return index == 0 or index in self._all()

    def __iter__(self) -> Any:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


def _gpu_count() -> int:
    """How many GPUs the CUDA backend sees (0 without CuPy or a GPU)."""
    from ocean_array_api._backend import get_backend

    cuda = get_backend("cuda")
    if cuda is None:
        return 0
    try:
        return len(cuda.device_indices())
    except Exception:  # pragma: no cover - a broken CUDA install: no GPUs
        return 0


def _cuda() -> Any:
    from ._chunks import cuda_backend

    return cuda_backend()


class DaskBackend:
    """The backend protocol for the ``dask`` device kind, over ``dask.array``.

    Arrays are lazy: a ``LazyArray`` handle around a ``dask.array.Array``.
    The device ``dask`` (``Device("dask", 0)``) has NumPy chunks; the devices
    ``dask:cuda:<i>`` (``Device("dask", 1 + i)``) CuPy chunks on CUDA device
    ``i``, when CuPy and a GPU are present.
    """

    kind = "dask"
    native_type = LazyArray
    supports_byteswap = False  # chunks are native; the front end swaps on the way in
    supports_complex32 = True  # per chunk, through the CPU backend's kernels
    ext_kernels_unavailable = ""
    max_dimensions = 64

    def __init__(self) -> None:
        self._ops: dict[str, Any] | None = None
        self._real: dict[str, Any] | None = None
        self._gpu_real: dict[str, Any] | None = None
        self._lock = threading.RLock()
        self._installed: bool | None = None

    def __repr__(self) -> str:
        return "<ocean_dask backend>"

    # --- lazy dask --------------------------------------------------------
    def device_indices(self) -> Any:
        if self._installed is None:
            self._installed = _dask_installed()
        return _Indices() if self._installed else ()

    def device_name(self, index: int) -> str:
        """``str()`` of the device: ``"dask"`` (NumPy chunks), or
        ``"dask:cuda:<i>"`` (CuPy chunks on CUDA device ``i``)."""
        return "dask" if index == 0 else f"dask:cuda:{index - 1}"

    def device_index(self, name: str) -> int | None:
        """The index of the device named ``"dask:<name>"`` (``parse_device``
        reads ``"dask:cuda:0"`` with it), or None."""
        kind, _, rest = name.partition(":")
        if kind == "cuda" and rest.isdigit() and rest.isascii():
            return 1 + int(rest)
        return None

    def host_accessible(self, index: int) -> bool:
        """NumPy export (``__array__``) computes the graph of NumPy chunks
        (their values are host memory), and refuses CuPy chunks, as CuPy and
        the CUDA device do: ``to_device("cpu")`` copies explicitly."""
        return index == 0

    @property
    def ops(self) -> dict[str, Any]:
        """The table: one entry per operation of the CPU table, each building
        the real dask table (importing dask) on its first call.

        Enumerating devices, or making ``Device("dask")``, reads the table's
        names but imports nothing.  The entries stay in the plain dict (so
        ``ocean_ext.instrument`` wraps them like any other); each forwards to
        the real entry, one Python call more than a direct table.
        """
        if self._ops is None:
            with self._lock:
                if self._ops is None:
                    self._ops = self._deferred() if self.device_indices() else {}
        return self._ops

    def _deferred(self) -> dict[str, Any]:
        from ocean_array_api._backend import get_backend, missing_op

        cpu = get_backend("cpu")
        names = [*(cpu.ops if cpu is not None else ()), *EXTRA]
        table: dict[str, Any] = {}
        for name in names:
            table[name] = self._forward(name, missing_op)
        return table

    def _forward(self, name: str, missing_op: Any) -> Any:
        if name in ABSENT:

            def absent(*args: Any, **kwargs: Any) -> Any:
                raise missing_op(name, self.kind)

            absent.__name__ = f"missing_{name}"
            absent._ocean_missing = True  # type: ignore[attr-defined]
            return absent

        creation = name in CREATION

        def entry(*args: Any, **kwargs: Any) -> Any:
            gpu = (args[0] - 1 if args[0] else None) if creation else _gpu_of(args)
            if gpu is None:
                return self._table()[name](*args, **kwargs)
            return self._on_gpu(gpu, name, args, kwargs)

        entry.__name__ = entry.__qualname__ = f"dask_{name}"
        return entry

    def _on_gpu(
        self, gpu: int, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> Any:
        """The GPU table's entry, building with CUDA device ``gpu`` current."""
        from ._chunks import adopt, on_gpu

        table = self._gpu_table()
        res = on_gpu(gpu, lambda: table[name](*args, **kwargs))
        if res is None and name == "setitem":  # rebinds its operand's graph
            from ._chunks import gpu as gpu_of_index

            adopt(args[0], gpu_of_index(gpu))
        return res

    def _table(self) -> dict[str, Any]:
        """The real table (``_ops.build_ops``), built on first use."""
        real = self._real
        if real is None:
            with self._lock:
                if self._real is None:
                    from ._ops import build_ops

                    self._real = build_ops()
                real = self._real
        return real

    def _gpu_table(self) -> dict[str, Any]:
        """The table over CuPy chunks (``_ops.build_ops(gpu=True)``)."""
        real = self._gpu_real
        if real is None:
            with self._lock:
                if self._gpu_real is None:
                    from ._ops import build_ops

                    self._gpu_real = build_ops(gpu=True)
                real = self._gpu_real
        return real

    def chunk_device(self, darr: Any) -> int | None:
        """The index of the device whose chunks ``darr`` (a dask array) has,
        from its ``meta``: 0 for NumPy, ``1 + i`` for CuPy on GPU ``i`` (when
        that device exists here), None for other chunk types."""
        import numpy as np

        meta = getattr(darr, "_meta", None)
        if meta is None or meta.__class__ is np.ndarray:
            return 0
        if _gpu_count():
            xp = _cuda().array_module()
            if isinstance(meta, xp.ndarray):
                return 1 + int(meta.device.id)
        return 0 if isinstance(meta, np.ndarray) else None

    def array_module(self) -> Any:
        # ocean_ext.sparse runs NumPy-style index kernels eagerly; there is no
        # eager module for lazy chunks, so sparse arrays are not offered here.
        return None

    # --- protocol ---------------------------------------------------------
    def to_native(self, obj: Any) -> LazyArray:
        import numpy as np

        if obj.__class__ is LazyArray:
            return obj  # type: ignore[no-any-return]
        if obj.__class__ is not np.ndarray and _gpu_count():
            cuda = _cuda()
            if isinstance(obj, cuda.native_type):  # a CuPy result: stays there
                return _on_device(obj, int(obj.device.id))
        from ._ops import from_numpy

        return from_numpy(obj)

    def asarray(self, obj: Any, dtype: Any, index: int, copy: bool | None) -> LazyArray:
        import numpy as np

        from ._ops import from_numpy

        if obj.__class__ is LazyArray:
            arr = obj.arr
            if dtype is not None and arr.dtype != dtype:
                arr = arr.astype(dtype)
            res = LazyArray(arr, obj.gpu)
            gpu = index - 1 if index else None
            return res if gpu == obj.gpu else self.transfer(res, index)
        if index:  # CuPy chunks: the CUDA backend's conversion, on the GPU
            return _on_device(_cuda().asarray(obj, dtype, index - 1, copy), index - 1)
        # As the CPU backend: NumPy's conversion (no copy of a NumPy array
        # unless asked: the graph reads it when it runs, as a view would)
        if dtype is None and copy is None:
            return from_numpy(np.asarray(obj))
        return from_numpy(np.array(obj, dtype=dtype, copy=copy))

    def to_host(self, native: Any, *, stream: Any = None) -> Any:
        import numpy as np

        if native.__class__ is LazyArray:
            native = _exported(native)
        if native.__class__ is np.ndarray:
            return native  # NumPy chunks' values (or materialised already)
        return _cuda().to_host(native, stream=stream)  # a CuPy array: copied

    def from_host(self, host: Any, index: int, *, stream: Any = None) -> LazyArray:
        import numpy as np

        from ._ops import from_numpy

        if index:
            return _on_device(
                _cuda().from_host(host, index - 1, stream=stream), index - 1
            )
        return from_numpy(np.array(host, copy=True))

    def transfer(self, native: Any, index: int, *, stream: Any = None) -> LazyArray:
        """The handle's values on device ``index`` of this kind.

        Between handles of the same chunk kind nothing is copied (graphs are
        values).  NumPy chunks go to a GPU lazily: each chunk is copied there
        when the graph runs.  CuPy chunks leave their GPU by running their
        graph there (a task on CuPy chunks needs its GPU current, which a run
        on another device does not have) and copying the values, GPU to GPU
        or to host memory.
        """
        gpu = index - 1 if index else None
        if gpu == native.gpu:
            return LazyArray(native.arr, gpu)
        from . import _chunks

        arr = native.arr
        cuda = _cuda()
        if native.gpu is None:  # NumPy chunks -> CuPy chunks on `gpu`, lazily
            g = _chunks.gpu(gpu)
            moved = arr.map_blocks(
                cuda.from_host,
                gpu,
                dtype=arr.dtype,
                meta=g.meta(arr.ndim, arr.dtype),
                name=f"to-cuda{gpu}-{arr.name}",
            )
            return LazyArray(moved, gpu)
        value = compute(native)[0]
        like = LazyArray(native.arr, gpu)  # the chunks to keep, on `gpu`
        if gpu is None:  # to host memory: NumPy chunks
            return rewrap(cuda.to_host(value, stream=stream), like)
        return rewrap(cuda.transfer(value, gpu, stream=stream), like)  # GPU to GPU

    def move_to(
        self, native: Any, index: int, device: Any, *, stream: Any = None
    ) -> Any:
        """CuPy chunks to a ``cuda`` device: the computed CuPy array, copied
        from GPU to GPU, never through host memory.  (NotImplemented
        otherwise: the front end goes through the host.)"""
        if not index or device.kind != "cuda" or native.__class__ is not LazyArray:
            return NotImplemented
        value = compute(native)[0]
        cuda = _cuda()
        if device.index != index - 1 or value.base is not None:
            # a copy: another GPU, or the value may share a chunk's memory
            value = cuda.transfer(value, device.index, stream=stream)
        return value

    def move_from(
        self, native: Any, device: Any, index: int, *, stream: Any = None
    ) -> Any:
        """A ``cuda`` array to CuPy chunks: a copy from GPU to GPU, never
        through host memory (NotImplemented for other moves)."""
        if not index or device.kind != "cuda":
            return NotImplemented
        return _on_device(_cuda().transfer(native, index - 1, stream=stream), index - 1)

    def synchronize(self, index: int) -> None:
        return None  # nothing runs until it is computed

    def dlpack_device(self, native: Any, index: int) -> tuple[int, int]:
        if index:
            return (_KDLCUDA, index - 1)  # computed chunks are on the GPU
        return (_KDLCPU, 0)  # computed chunks are host memory

    def from_dlpack(self, obj: Any, index: int, copy: bool | None) -> LazyArray:
        import numpy as np

        from ._ops import from_numpy

        if index:
            return _on_device(_cuda().from_dlpack(obj, index - 1, copy), index - 1)
        # the graph references its chunks' memory: a copy unless copy=False,
        # so that the producer's later writes do not reach the graph
        host = np.from_dlpack(obj, copy=True if copy is None else copy)
        return from_numpy(host)

    def to_dlpack(
        self,
        native: Any,
        index: int,
        *,
        stream: Any = None,
        max_version: Any = None,
        copy: bool | None = None,
    ) -> Any:
        """Compute the graph and export the NumPy result (a new buffer, which
        no one else holds: ``copy=False`` is honoured trivially); CuPy chunks
        export the computed CuPy array through the CUDA backend."""
        if index:
            value = _exported(native)
            return _cuda().to_dlpack(
                value,
                index - 1,
                stream=stream,
                max_version=max_version,
                copy=copy,
            )
        host = _exported(native)
        kwargs: dict[str, Any] = {}
        if max_version is not None:
            kwargs["max_version"] = max_version
        if copy is not None:
            kwargs["copy"] = copy
        return host.__dlpack__(**kwargs)

    def is_lazy(self, native: Any) -> bool:
        return native.__class__ is LazyArray

    def materialize(self, native: Any) -> Any:
        """The array of a handle's values (runs the graph once): NumPy, or
        CuPy on the handle's GPU."""
        if native.__class__ is LazyArray:
            return _exported(native)
        return native

    # --- dask collections ---------------------------------------------------
    def dask_collection(self, native: Any) -> Any:
        """The dask array of a handle (what makes ``Array`` a dask
        collection), None for anything else."""
        return native.arr if native.__class__ is LazyArray else None

    def dask_scheduler(self, index: int) -> Any:
        """The scheduler dask uses for arrays of device ``index`` when no
        other is set: the threaded one; for CuPy chunks, threads that have
        their GPU current (one function per GPU, so that arrays of one GPU
        compute together)."""
        import dask.threaded

        if not index:
            return dask.threaded.get
        return _gpu_scheduler(index - 1)

    def from_values(self, value: Any, index: int, chunks: Any) -> LazyArray:
        """A handle over computed values (``dask.compute``'s result), in the
        chunks they were computed in where those are known."""
        import numpy as np

        gpu = index - 1 if index else None
        value = np.asarray(value) if gpu is None else _chunks_gpu(gpu).xp.asarray(value)
        like = LazyArray(_Chunked(chunks), gpu)
        return rewrap(value, like)

    def from_collection(self, arr: Any, index: int) -> LazyArray:
        """A handle over a dask array (``dask.persist``'s result)."""
        return LazyArray(arr, index - 1 if index else None)

    def known_values(self, native: Any) -> Any:
        """The values of a handle if they are in memory here (computed, or
        persisted with the local schedulers), for ``repr``; a word for values
        persisted on a cluster or too many to assemble for printing; None
        while they are not computed.  Never runs the graph's work: persisted
        chunks are only put together (with dask's synchronous scheduler)."""
        value = native.known()
        if value is not None:
            return value
        arr = native.arr
        state = _materialized(arr)
        if state is None:
            return None
        if state == "remote":
            return "<persisted>"
        if math.prod(arr.shape) > _PRINT_ASSEMBLE or any(s != s for s in arr.shape):
            return "<in memory>"
        import dask

        (value,) = dask.compute(arr, scheduler="sync")
        return value

    def describe_chunks(self, native: Any) -> str:
        """The chunks of a handle, for ``repr``: ``chunks=((2, 2, 1),)``, or
        for many chunks along an axis their number and largest size."""
        dims = []
        for dim in native.chunks:
            if len(dim) <= 6:
                inner = ", ".join("None" if c is None else str(c) for c in dim)
                dims.append(f"({inner},)" if len(dim) == 1 else f"({inner})")
            else:
                sizes = [c for c in dim if c is not None]
                big = max(sizes) if sizes else None
                dims.append(f"{len(dim)} x {big if big is not None else 'None'}")
        body = ", ".join(dims)
        return f"chunks=({body},)" if len(dims) == 1 else f"chunks=({body})"

    def capabilities(self) -> dict[str, Any]:
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": self.max_dimensions,
        }


# repr assembles persisted chunks of at most this many elements
_PRINT_ASSEMBLE = 1 << 20


class _Chunked:
    """Stands for a dask array of given chunks (``rewrap`` reads ``chunks``)."""

    __slots__ = ("chunks",)

    def __init__(self, chunks: Any) -> None:
        self.chunks = chunks


def _materialized(arr: Any) -> str | None:
    """``"local"`` when every task of the graph of dask array ``arr`` is a
    chunk in memory here (persisted, or data handed to the device),
    ``"remote"`` when they are a cluster's futures, None when some task
    computes.  Layers that compute are seen without materialising them."""
    from dask.highlevelgraph import MaterializedLayer

    graph = arr.__dask_graph__()
    remote = False
    for layer in graph.layers.values():
        if not isinstance(layer, MaterializedLayer):
            return None
        for v in layer.mapping.values():
            if hasattr(v, "shape") and hasattr(v, "dtype"):
                continue  # a NumPy or CuPy chunk
            if type(v).__name__ == "Future":
                remote = True
                continue
            return None
    return "remote" if remote else "local"


_gpu_schedulers: dict[int, Any] = {}


def _gpu_scheduler(gpu: int) -> Any:
    """dask's threaded scheduler on threads that have GPU ``gpu`` current,
    with that GPU current in the calling thread too (one per GPU)."""
    func = _gpu_schedulers.get(gpu)
    if func is None:
        from dask import local
        from dask.system import CPU_COUNT

        g = _chunks_gpu(gpu)

        def get(dsk: Any, keys: Any, **kwargs: Any) -> Any:
            pool = g.executor()
            kwargs.setdefault("num_workers", CPU_COUNT)
            with g.device():
                return local.get_async(pool.submit, dsk=dsk, result=keys, **kwargs)

        get.__name__ = f"get_cuda{gpu}"
        func = _gpu_schedulers.setdefault(gpu, get)
    return func


def _on_device(value: Any, gpu: int) -> LazyArray:
    """A handle over CuPy array ``value`` on GPU ``gpu`` (not copied)."""
    from . import _chunks

    g = _chunks.gpu(gpu)
    with g.device():
        arr = _chunks.from_device(value)
    return LazyArray(_chunks.fix_meta(arr, g), gpu)


def rewrap(value: Any, like: LazyArray) -> LazyArray:
    """A handle over ``value`` (computed from ``like``: NumPy, or CuPy on its
    GPU) with ``like``'s chunks where they are known."""
    from . import _chunks
    from ._ops import from_numpy

    chunks = like.arr.chunks
    known = all(c == c for dim in chunks for c in dim)
    if known and tuple(sum(d) for d in chunks) != tuple(value.shape):
        known = False  # (chunks of another shape: dask's finalize of a scalar)
    if like.gpu is None:
        res = from_numpy(value, chunks=chunks if known else "auto")
    else:
        g = _chunks.gpu(like.gpu)
        with g.device():
            arr = _chunks.from_device(value, chunks if known else "auto")
        res = LazyArray(_chunks.fix_meta(arr, g), like.gpu)
    res.value, res.value_of = value, res.arr  # repr shows them
    return res


backend = DaskBackend()
