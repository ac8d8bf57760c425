"""The CUDA backend object (device kind ``"cuda"``), over CuPy.

CuPy is imported lazily, by the first call that needs it
(:meth:`CUDABackend.device_indices`, ``ops``, ``native_type``, transfers), never
by ``import ocean_array_api`` or ``import ocean_cuda``.  Without CuPy, or with
CuPy but no usable GPU/driver, the backend reports no devices, quietly (no
warning), exactly as the placeholder did: ``Device("cuda", 0)`` raises
ValueError and ``ops`` is an empty dict.

All methods take the array module from :meth:`CUDABackend.xp`; the tests
(``tests/backends/test_cuda_backend.py``) build a backend over a NumPy
stand-in with :func:`make_backend`.
"""

from __future__ import annotations

import contextlib
import functools
import threading
import warnings
from typing import Any

import numpy as np

from ._ops import build_ops, from_host

__all__ = ["CUDABackend", "backend", "make_backend"]

_KDLCUDA = 2


class CUDABackend:
    """The backend protocol for ``cuda`` devices, over the array module ``xp``."""

    kind = "cuda"
    supports_byteswap = False  # CUDA arrays are always native; the front end swaps
    max_dimensions = 64
    # complex32 always works (the portable entries of _halfprec_portable,
    # through complex64); the fused kernels of _halfprec_kernels, which compile
    # with nvcc but have not run on a GPU, override them when CuPy builds them,
    # and this flag says so (see _load).
    supports_complex32 = False
    ext_kernels_unavailable = ""

    def __init__(
        self,
        xp: Any = None,
        *,
        device_count: int | None = None,
        sort_kind: str | None = None,
        device_of: Any = None,
        linalg_errstate: Any = None,
    ) -> None:
        self._xp = xp  # None: import cupy on first use
        self._device_count = device_count
        self._sort_kind = sort_kind
        self._device_of = device_of
        # a context in which xp.linalg raises LinAlgError for singular input
        # (cupyx.errstate(linalg="raise"); None: found when CuPy is loaded)
        self._linalg_errstate = linalg_errstate
        self._ops: dict[str, Any] | None = None
        self._lock = threading.Lock()

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickles as "the CUDA backend of the process that loads it": by value
        # it would copy its table, closures over CuPy's compiled kernels, whose
        # loaded copies unload the originals' CUDA modules when freed (dask
        # pickles and loads what it tokenizes; see ocean_dask._chunks).
        from ocean_array_api._backend import get_backend

        return (get_backend, ("cuda",))

    def __dask_tokenize__(self) -> str:
        return "ocean_cuda.backend"

    def __repr__(self) -> str:
        n = len(self.device_indices()) if self._device_count is not None else "?"
        return f"<ocean_cuda backend ({n} devices)>"

    # --- lazy CuPy ------------------------------------------------------------
    def xp(self) -> Any:
        """The array module (cupy), or None when it cannot be imported or is
        older than :data:`MIN_CUPY` (then with one warning saying so)."""
        if self._xp is None:
            try:
                import cupy
            except Exception:
                self._xp = False
            else:
                self._xp = cupy if _recent_enough(cupy) else False
        return self._xp or None

    def device_indices(self) -> tuple[int, ...]:
        if self._device_count is None:
            xp = self.xp()
            count = 0
            if xp is not None:
                try:
                    count = int(xp.cuda.runtime.getDeviceCount())
                except Exception:  # no driver, no GPU: no devices, quietly
                    count = 0
            self._device_count = count
        return tuple(range(self._device_count))

    @property
    def native_type(self) -> type:
        xp = self.xp()
        return xp.ndarray if xp is not None else type(None)

    @property
    def ops(self) -> dict[str, Any]:
        if self._ops is None:
            with self._lock:
                if self._ops is None:
                    self._ops = self._load()
        return self._ops

    def _load(self) -> dict[str, Any]:
        if not self.device_indices():
            return {}
        xp = self.xp()
        extra: dict[str, Any] = {}
        errstate = self._linalg_errstate
        if getattr(xp, "__name__", "") == "cupy":  # pragma: no cover - needs a GPU
            import cupyx

            if errstate is None:
                errstate = functools.partial(cupyx.errstate, linalg="raise")
            try:
                from ._halfprec_kernels import cuda_ops

                extra = cuda_ops()
            except Exception as exc:  # pragma: no cover - needs a GPU
                self.ext_kernels_unavailable = (
                    f"the fused CUDA complex32 kernels failed to build ({exc}); "
                    f"complex32 is computed through complex64"
                )
            else:  # pragma: no cover - needs a GPU
                self.supports_complex32 = True
                self.ext_kernels_unavailable = ""
        return build_ops(
            xp,
            multi_device=len(self.device_indices()) > 1,
            sort_kind=self._sort_kind,
            device_of=self._device_of,
            extra=extra,
            linalg_errstate=errstate,
        )

    def array_module(self) -> Any:
        """The array module (cupy), or None without one."""
        return self.xp()

    def activate(self, index: int) -> Any:
        """A context making CUDA device ``index`` current (``cupy.cuda.Device``)."""
        return self._device(index)

    # --- helpers --------------------------------------------------------------
    def _device_id(self, native: Any) -> int:
        dev = self._device_of(native) if self._device_of is not None else native.device
        return int(dev.id)

    def _device(self, index: int) -> Any:
        return self.xp().cuda.Device(index)

    def _stream(self, stream: Any) -> Any:
        """A context making ``stream`` current: a CuPy stream, a DLPack int
        (1: legacy default stream, 2: per-thread default, -1: no
        synchronisation asked for, else a cudaStream_t pointer) or None (the
        current stream)."""
        if stream is None or stream == -1:
            return contextlib.nullcontext()
        cuda = self.xp().cuda
        if isinstance(stream, int):
            if stream == 1:
                stream = cuda.Stream.null
            elif stream == 2:
                stream = cuda.Stream.ptds
            else:
                stream = cuda.ExternalStream(stream)
        return stream  # cupy streams are context managers

    def _dlpack_stream(self, stream: Any) -> Any:
        """``stream`` as the int CuPy's ``__dlpack__`` takes (a CuPy stream
        object: 1 for the legacy default stream, 2 for the per-thread default,
        else its pointer)."""
        if stream is None or isinstance(stream, int):
            return stream
        cuda = self.xp().cuda
        if stream is cuda.Stream.null or stream.ptr == 0:
            return 1
        if stream is cuda.Stream.ptds:
            return 2
        return int(stream.ptr)

    # --- protocol methods ----------------------------------------------------------
    def to_native(self, obj: Any) -> Any:
        return self.xp().asarray(obj)

    def asarray(self, obj: Any, dtype: Any, index: int, copy: bool | None) -> Any:
        xp = self.xp()
        with self._device(index):
            if isinstance(obj, xp.ndarray):
                if copy is False and dtype is not None and obj.dtype != dtype:
                    msg = "asarray(): a dtype change needs a copy but copy=False"
                    raise ValueError(msg)
                if self._device_id(obj) != index:
                    # ndarray.copy() copies to the current device (C order: CuPy
                    # copies no non-contiguous array between devices in "K")
                    obj = obj.copy()
                    copy = False
                # astype, not array(copy=False): CuPy 14's array() reads
                # copy=False as "never copy" and refuses a dtype change
                return obj.astype(
                    obj.dtype if dtype is None else dtype, copy=bool(copy)
                )
            if copy is False:
                msg = "asarray(): host data always needs a copy to a CUDA device"
                raise ValueError(msg)
            if isinstance(obj, (float, complex)):  # keeps the sign of a zero
                return from_host(xp, np.asarray(obj, dtype=dtype))
            res = xp.array(obj, dtype=dtype)
            if res.ndim == 0 and res.dtype.kind in "fc":
                # a 0-d array from host data is filled by memset for a zero
                return from_host(xp, np.asarray(obj, dtype=res.dtype))
            return res

    def to_host(self, native: Any, *, stream: Any = None) -> Any:
        xp = self.xp()
        with self._stream(stream):
            return xp.asnumpy(native)

    def from_host(self, host: Any, index: int, *, stream: Any = None) -> Any:
        xp = self.xp()
        with self._device(index), self._stream(stream):
            return from_host(xp, host)

    def transfer(self, native: Any, index: int, *, stream: Any = None) -> Any:
        # ndarray.copy() copies to the *current* device, from any device
        with self._device(index), self._stream(stream):
            return native.copy()

    def synchronize(self, index: int) -> None:
        self._device(index).synchronize()

    def dlpack_device(self, native: Any, index: int) -> tuple[int, int]:
        return (_KDLCUDA, index)

    def from_dlpack(self, obj: Any, index: int, copy: bool | None) -> Any:
        # The producer is on this device (the front end moves other data):
        # a plain import never copies, and copy=True copies here, because
        # CuPy forwards copy=True to the producer, and CuPy's own __dlpack__
        # refuses it for device memory.
        xp = self.xp()
        with self._device(index):
            res = xp.from_dlpack(obj)
            return res.copy() if copy else res

    def to_dlpack(
        self,
        native: Any,
        index: int,
        *,
        stream: Any = None,
        max_version: Any = None,
        copy: bool | None = None,
    ) -> Any:
        """``native.__dlpack__`` as CuPy takes it: the stream as a DLPack
        int, and ``copy=True`` done here (CuPy's exporter refuses it for
        device memory)."""
        kwargs: dict[str, Any] = {}
        if max_version is not None:
            kwargs["max_version"] = max_version
        stream = self._dlpack_stream(stream)
        if stream is not None:
            kwargs["stream"] = stream
        if copy:
            with self._device(index), self._stream(stream):
                native = native.copy()
        return native.__dlpack__(**kwargs)

    def is_lazy(self, native: Any) -> bool:
        return False

    def materialize(self, native: Any) -> Any:
        return native

    def capabilities(self) -> dict[str, Any]:
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": self.max_dimensions,
        }


MIN_CUPY = (14, 0)
"""The oldest CuPy the backend runs on: CuPy 14 follows NumPy 2's promotion
rules (NEP 50; CuPy 13 promotes Python scalars by value, which would
mislabel results) and has integer ``floor``/``ceil``/``trunc``, NaN-aware
``sign``, ``linalg.eig`` and 64 dimensions."""


def _recent_enough(cupy: Any) -> bool:
    version = getattr(cupy, "__version__", "0")
    try:
        major_minor = tuple(int(p) for p in version.split(".")[:2])
    except ValueError:  # a development build: trust it
        return True
    if major_minor >= MIN_CUPY:
        return True
    warnings.warn(
        f"ocean_cuda: CuPy {version} is older than "
        f"{'.'.join(map(str, MIN_CUPY))}, which the CUDA backend needs (NumPy 2 "
        f"promotion rules); no CUDA devices are available. Install "
        f"ocean-array-api[cuda13] (or [cuda12] for a CUDA 12 driver) for a "
        f"recent CuPy.",
        RuntimeWarning,
        stacklevel=3,
    )
    return False


def make_backend(xp: Any, device_count: int, **kwargs: Any) -> CUDABackend:
    """A backend over a given array module (tests: a NumPy stand-in)."""
    return CUDABackend(xp, device_count=device_count, **kwargs)


backend = CUDABackend()
