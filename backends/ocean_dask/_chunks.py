"""Where the chunks of a dask array live: NumPy (host) or CuPy on one GPU.

The ``dask`` backend serves two chunk kinds with one table:

- ``Device("dask", 0)``, ``str`` ``"dask"``: NumPy chunks;
- ``Device("dask", 1 + i)``, ``str`` ``"dask:cuda:<i>"``: CuPy chunks on CUDA
  device ``i``, one device per GPU the CUDA backend (``ocean_cuda``) sees.
  CuPy is the CUDA backend's array module, so the test suite's simulated
  CuPy (``tests/simcupy.py``) serves here too.

A ``LazyArray`` handle says which (``gpu``: None, or ``i``).  The backend's
table entries find it on their operands (or, for creation entries, from the
device index) and, for CuPy chunks, build the graph inside :func:`on_gpu`:
the :class:`GPU` is then the *current chunk kind* (a context variable), which
the few places of ``_ops`` that make chunks of their own ask for (creation,
index arrays, per-chunk kernels), and CUDA device ``i`` is CuPy's current
device (dask computes meta arrays, CuPy arrays of size 0, while it builds).

Per-chunk kernels are the CUDA backend's table entries (the same names and
conventions as the CPU table's that the NumPy chunks run), so every
correction of CuPy that table makes holds chunk by chunk.  Graph functions
capture what they need while the graph is built; nothing here is read when
a graph runs (dask's worker threads have no current chunk kind).
"""

from __future__ import annotations

import contextvars
import itertools
import threading
import uuid
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np
from ocean_cpu import backend as _cpu

from ._native import LazyArray

__all__ = [
    "GPU",
    "current",
    "gpu",
    "on_gpu",
]

_current: contextvars.ContextVar[GPU | None] = contextvars.ContextVar(
    "ocean_dask_chunks", default=None
)
_lock = threading.Lock()
_gpus: dict[int, GPU] = {}


class GPU:
    """CuPy chunks on CUDA device ``index``: the array module and kernels of
    the CUDA backend."""

    __slots__ = ("_executor", "cuda", "index", "ndarray", "ops", "xp")

    def __init__(self, index: int, cuda: Any) -> None:
        self.index = index
        self.cuda = cuda  # the CUDA backend object
        self.xp = cuda.array_module()
        self.ndarray = self.xp.ndarray
        self.ops: dict[str, Any] = cuda.ops
        self._executor: Any = None

    def __repr__(self) -> str:
        return f"<CuPy chunks on CUDA device {self.index}>"

    def device(self) -> Any:
        """A context making this GPU CuPy's current device."""
        return self.xp.cuda.Device(self.index)

    def meta(self, ndim: int, dtype: Any) -> Any:
        """An empty CuPy array (dask's ``meta``: it says the chunk type)."""
        with self.device():
            return self.xp.empty((0,) * ndim, dtype=dtype)

    def kernel(self, name: str) -> Callable[..., Any]:
        """The CUDA table's entry ``name`` (NotImplementedError, naming the
        function and the device, where the CUDA backend lacks it), as a
        :class:`ChunkKernel`."""
        func = original(self.ops.get(name))
        if func is None or getattr(func, "_ocean_missing", False):
            raise missing(name, self.index)
        return ChunkKernel(name, func)

    def __reduce__(self) -> tuple[Any, ...]:
        return (gpu, (self.index,))

    def __dask_tokenize__(self) -> tuple[str, int]:
        return ("ocean_dask.GPU", self.index)

    def executor(self) -> Any:
        """A thread pool for dask's threaded scheduler whose threads have this
        GPU current (CuPy's current device is a per-thread setting)."""
        if self._executor is None:
            with _lock:
                if self._executor is None:
                    import atexit
                    from concurrent.futures import ThreadPoolExecutor

                    from dask.system import CPU_COUNT

                    pool = ThreadPoolExecutor(
                        CPU_COUNT,
                        thread_name_prefix=f"ocean-dask-cuda{self.index}",
                        initializer=lambda: self.xp.cuda.Device(self.index).use(),
                    )
                    atexit.register(pool.shutdown)
                    self._executor = pool
        return self._executor


def missing(name: str, index: int) -> NotImplementedError:
    """The error for an operation CuPy chunks cannot run."""
    return NotImplementedError(
        f"{name}(): not available on the device dask:cuda:{index} (CuPy chunks): "
        f"the CUDA backend has no kernel for it; move the array to the 'dask' "
        f"device (NumPy chunks) with x.to_device('dask')"
    )


def gpu(index: int) -> GPU:
    """The chunk kind of CUDA device ``index`` (made once)."""
    g = _gpus.get(index)
    if g is None:
        from ocean_array_api._backend import get_backend

        with _lock:
            g = _gpus.get(index)
            if g is None:
                cuda = get_backend("cuda")
                if cuda is None or index not in cuda.device_indices():
                    msg = f"ocean_dask: there is no CUDA device {index} for CuPy chunks"
                    raise ValueError(msg)
                g = _gpus[index] = GPU(index, cuda)
    return g


def cuda_backend() -> Any:
    """The CUDA backend (its array module is CuPy, or the simulated one)."""
    from ocean_array_api._backend import get_backend

    cuda = get_backend("cuda")
    if cuda is None:  # pragma: no cover - no GPU table is built without it
        msg = "ocean_dask: CuPy chunks need the CUDA backend (ocean_cuda)"
        raise RuntimeError(msg)
    return cuda


def current() -> GPU | None:
    """The GPU whose chunks the graph being built holds (None: NumPy)."""
    return _current.get()


def activate(g: GPU) -> _Activate:
    """Build graphs of CuPy chunks on ``g`` in this block."""
    return _Activate(g)


class _Activate:
    """The context manager :func:`activate` returns: reusable and reentrant.

    Safe against an interrupt (Ctrl-C) anywhere inside: ``__enter__`` undoes
    its changes when it raises (``with`` then calls no ``__exit__``), and
    ``__exit__`` is one line of C calls (CuPy's ``Device`` is compiled)."""

    __slots__ = ("_devices", "_g", "_tokens")

    def __init__(self, g: GPU) -> None:
        self._g = g
        self._tokens: list[contextvars.Token[GPU | None]] = []  # innermost last
        self._devices: list[Any] = []  # the CuPy devices entered, innermost last

    def __enter__(self) -> GPU:
        tokens, devices = self._tokens, self._devices
        depth = len(tokens)
        try:
            tokens.append(_current.set(self._g))
            device = self._g.device()
            # entered and recorded on one line, so that an interrupt cannot
            # come between
            devices.append((device, device.__enter__())[0])
            return self._g
        except BaseException:
            if len(devices) > depth:
                devices.pop().__exit__(None, None, None)
            if len(tokens) > depth:
                _current.reset(tokens.pop())
            raise

    def __exit__(self, *exc: object) -> None:
        self._devices.pop().__exit__(None, None, None); _current.reset(self._tokens.pop())  # noqa: E702  # fmt: skip


def on_gpu(index: int, build: Callable[[], Any]) -> Any:
    """``build()`` with CUDA device ``index``'s chunks as the current kind;
    the handles it returns are marked as that GPU's (see :func:`adopt`)."""
    g = gpu(index)
    with activate(g):
        return adopt(build(), g)


def adopt(res: Any, g: GPU) -> Any:
    """``res`` (a handle, or a tuple of them) marked as holding ``g``'s chunks.

    dask keeps the chunk type in ``meta``, and a few of its algorithms
    (boolean indexing, ``nonzero``'s bookkeeping) make a NumPy ``meta`` for
    arrays whose chunks are CuPy ones; such a ``meta`` is replaced, so that
    the next operation sees CuPy chunks too.
    """
    c = res.__class__
    if c is LazyArray:
        res.gpu = g.index
        res.arr = fix_meta(res.arr, g)
        return res
    if c is tuple or c is list:
        return c([adopt(r, g) for r in res])
    return res


def fix_meta(arr: Any, g: GPU) -> Any:
    """``arr`` itself, or the same graph with a CuPy ``meta`` on ``g``."""
    meta = getattr(arr, "_meta", None)
    if isinstance(meta, g.ndarray):
        return arr
    return da.Array(arr.dask, arr.name, arr.chunks, meta=g.meta(arr.ndim, arr.dtype))


# --- chunk makers for _ops (NumPy, or the current GPU) --------------------------
def kernels() -> Any:
    """The table whose entries run on one chunk: the CPU table's for NumPy
    chunks, the CUDA table's on a GPU (missing ones raise when called)."""
    g = _current.get()
    if g is None:
        return CPU_KERNELS
    return CudaKernels(g.cuda)


def creation_kw(
    kind: str, shape: Any, dtype: Any, chunks: Any, *token: Any
) -> dict[str, Any]:
    """``meta=`` and ``name=`` for dask's creation functions (``zeros``,
    ``full``, ...): {} for NumPy chunks.

    The name says the GPU: dask names created chunks by their parameters
    only, so a NumPy graph and a CuPy one moved into it (``to_device``) would
    otherwise have tasks of the same name and different chunk types.
    """
    g = _current.get()
    if g is None:
        return {}
    from dask.base import tokenize

    token_ = tokenize(shape, str(np.dtype(dtype)), chunks, *token)
    name = f"{kind}-cuda{g.index}-{token_}"
    return {"meta": g.meta(len(shape), dtype), "name": name}


def arange(start: int, stop: int, *, chunks: Any = "auto", dtype: Any) -> Any:
    """``dask.array.arange(start, stop)`` in chunks of the current kind.

    Note: dask's own ``arange(like=...)`` names its tasks without the chunk
    type (see :func:`creation_kw`); on a GPU each chunk is made there by
    CuPy's ``arange``, under a name that says the GPU.
    """
    g = _current.get()
    if g is None:
        return da.arange(start, stop, chunks=chunks, dtype=dtype)
    from dask.base import tokenize

    dtype = np.dtype(dtype)
    n = max(stop - start, 0)
    chunks = da.core.normalize_chunks(chunks, (n,), dtype=dtype)
    name = f"arange-cuda{g.index}-{tokenize(start, stop, chunks, str(dtype))}"
    xp = g.xp

    def block(block_info: Any = None) -> Any:
        lo, hi = block_info[None]["array-location"][0]
        return xp.arange(start + lo, start + hi, dtype=dtype)

    return da.map_blocks(
        block, chunks=chunks, dtype=dtype, meta=g.meta(1, dtype), name=name
    )


def asarray(value: Any, dtype: Any = None) -> Any:
    """A small dask array of host ``value`` (an index, a scalar) as a chunk
    of the current kind (copied to the GPU while the graph is built)."""
    host = np.asarray(value, dtype=dtype)
    g = _current.get()
    if g is None:
        return da.asarray(host)
    with g.device():
        dev = g.xp.asarray(host)
    return da.from_array(dev, chunks=host.shape or (), asarray=False, name=False)


def from_device(arr: Any, chunks: Any = "auto") -> Any:
    """A dask array over CuPy array ``arr`` (referenced, not copied)."""
    if chunks == "auto" and (0 in arr.shape or arr.dtype == object):
        # dask's automatic chunks divide by zero for empty shapes, and cannot
        # size object chunks (which the front end then reports as bad input)
        chunks = arr.shape
    return embed(arr, chunks)


def embed(arr: Any, chunks: Any) -> Any:
    """A dask array whose chunks are views of ``arr`` (a NumPy or CuPy
    array), which the graph references: no copy.

    Note: ``dask.array.from_array`` copies a NumPy or CuPy array first (since
    dask 2025), which would double the memory of every array made from host
    data and break ``asarray(a, copy=False)``; the chunks here are the views
    it would slice from its copy.
    """
    chunks = da.core.normalize_chunks(chunks, arr.shape, dtype=arr.dtype)
    name = f"array-{uuid.uuid4().hex}"
    keys = itertools.product([name], *(range(len(c)) for c in chunks))
    slices = da.core.slices_from_chunks(chunks)
    # (..., ) keeps a 0-d chunk an array (arr[()] would be a scalar)
    dsk = {k: arr[(*s, Ellipsis)] for k, s in zip(keys, slices, strict=True)}
    meta = da.utils.meta_from_array(arr, ndim=arr.ndim)
    return da.Array(dsk, name, chunks, meta=meta)


def module() -> Any:
    """The array module of the current chunks (NumPy or CuPy)."""
    g = _current.get()
    return np if g is None else g.xp


def module_of(chunk: Any) -> Any:
    """The array module of a chunk, when a graph runs (CuPy's
    ``get_array_module``, without importing CuPy by name)."""
    for g in _gpus.values():
        if isinstance(chunk, g.ndarray):
            return g.xp
    return np


def kernel_index() -> int:
    """The device index creation kernels take: the GPU's, 0 for the CPU."""
    g = _current.get()
    return 0 if g is None else g.index


def to_current(host: Any) -> Any:
    """A small host array (a sample for dtype inference) as a chunk of the
    current kind."""
    g = _current.get()
    if g is None:
        return host
    with g.device():
        return g.xp.asarray(host)


def result(value: Any) -> Any:
    """A dask array over a whole result computed while building (a NumPy
    array, or a CuPy array on the current GPU)."""
    from ._ops import from_numpy

    g = _current.get()
    if g is not None and isinstance(value, g.ndarray):
        return from_device(value)
    return from_numpy(value).arr


class ChunkKernel:
    """A CUDA table entry as a per-chunk kernel of a dask graph: it calls the
    entry, pickles as its name and tokenizes as its name.

    dask tokenizes a graph's functions by pickling them and loading the
    pickle back (``dask.tokenize``), and a distributed scheduler pickles them
    to ship them.  A CUDA entry is a closure over CuPy's compiled kernels,
    which pickle by value: the copy a load makes shares the original's CUDA
    module handle and unloads it when it is freed, after which every launch
    of the original fails with ``CUDA_ERROR_INVALID_HANDLE`` or crashes
    (seen on a real GPU; the simulated CuPy of the tests reproduces it).  By
    name, a load looks the entry up in the CUDA backend of the process that
    runs it, with its own kernels.
    """

    __slots__ = ("__name__", "func", "name")

    def __init__(self, name: str, func: Callable[..., Any]) -> None:
        self.name = name
        self.func = func
        self.__name__ = f"cuda_{name}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<ocean_cuda kernel {self.name}>"

    def __reduce__(self) -> tuple[Any, ...]:
        return (cuda_kernel, (self.name,))

    def __dask_tokenize__(self) -> tuple[str, str]:
        return ("ocean_cuda.kernel", self.name)


def cuda_kernel(name: str) -> ChunkKernel:
    """The CUDA backend's entry ``name`` as a :class:`ChunkKernel` (how one
    is unpickled)."""
    return CudaKernels(cuda_backend())[name]  # type: ignore[return-value]


class CudaKernels:
    """The GPU table's per-chunk kernels, by name: the CUDA table's entries
    (as :class:`ChunkKernel`, which pickle by name); those it lacks raise
    NotImplementedError naming the function and the device when called
    (while the graph is built, for most)."""

    __slots__ = ("cuda",)

    def __init__(self, cuda: Any) -> None:
        self.cuda = cuda

    def __reduce__(self) -> tuple[Any, ...]:
        return (_cuda_kernels, ())

    def __dask_tokenize__(self) -> str:
        return "ocean_dask.CudaKernels"

    def __getitem__(self, name: str) -> Callable[..., Any]:
        func = original(self.cuda.ops.get(name))
        if func is not None and not getattr(func, "_ocean_missing", False):
            return ChunkKernel(name, func)

        def absent(*args: Any, **kwargs: Any) -> Any:
            g = _current.get()
            raise missing(name, g.index if g is not None else 0)

        absent.__name__ = f"missing_{name}"
        absent._ocean_missing = True  # type: ignore[attr-defined]
        return absent

    def __contains__(self, name: str) -> bool:
        return name in _cpu_ops()

    def items(self) -> list[tuple[str, Callable[..., Any]]]:
        return [(name, self[name]) for name in _cpu_ops()]


def _cuda_kernels() -> CudaKernels:
    return CudaKernels(cuda_backend())


def _cpu_ops() -> dict[str, Any]:
    return _cpu.ops  # type: ignore[no-any-return]


def original(func: Any) -> Any:
    """``func`` without the wrappers of ``ocean_ext.instrument`` (marked
    ``_ocean_instrumented``).

    Per-chunk kernels are captured when a graph (or this backend's table) is
    built and run when it is computed: a wrapper captured inside an
    instrument block would stay in the table after the block, and would
    count the CPU kernel of every chunk, under the kind ``cpu``, in whatever
    block is active when the graph runs.  Instrumentation counts the dask
    table's own entries instead.
    """
    while getattr(func, "_ocean_instrumented", False):
        func = func.__wrapped__
    return func


class CpuKernels:
    """The CPU table's entries, by name, as per-chunk kernels (never an
    instrumentation wrapper, see :func:`original`)."""

    __slots__ = ()

    def __getitem__(self, name: str) -> Callable[..., Any]:
        return original(_cpu.ops[name])  # type: ignore[no-any-return]

    def __contains__(self, name: str) -> bool:
        return name in _cpu_ops()

    def items(self) -> list[tuple[str, Callable[..., Any]]]:
        return [(name, self[name]) for name in _cpu_ops()]


CPU_KERNELS = CpuKernels()
