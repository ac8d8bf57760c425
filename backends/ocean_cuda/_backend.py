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
import threading
from typing import Any

from ._ops import build_ops

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
    ) -> None:
        self._xp = xp  # None: import cupy on first use
        self._device_count = device_count
        self._sort_kind = sort_kind
        self._device_of = device_of
        self._ops: dict[str, Any] | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        n = len(self.device_indices()) if self._device_count is not None else "?"
        return f"<ocean_cuda backend ({n} devices)>"

    # --- lazy CuPy ------------------------------------------------------------
    def xp(self) -> Any:
        """The array module (cupy), or None when it cannot be imported."""
        if self._xp is None:
            try:
                import cupy
            except Exception:
                self._xp = False
            else:
                self._xp = cupy
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
        if getattr(xp, "__name__", "") == "cupy":
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
        (1: legacy default stream, 2: per-thread default, else a cudaStream_t
        pointer) or None (the current stream)."""
        if stream is None:
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
                return xp.array(
                    obj, dtype=dtype, copy=bool(copy) or self._device_id(obj) != index
                )
            if copy is False:
                msg = "asarray(): host data always needs a copy to a CUDA device"
                raise ValueError(msg)
            return xp.array(obj, dtype=dtype)

    def to_host(self, native: Any, *, stream: Any = None) -> Any:
        xp = self.xp()
        with self._stream(stream):
            return xp.asnumpy(native)

    def from_host(self, host: Any, index: int, *, stream: Any = None) -> Any:
        xp = self.xp()
        with self._device(index), self._stream(stream):
            return xp.array(host, copy=True)

    def transfer(self, native: Any, index: int, *, stream: Any = None) -> Any:
        # ndarray.copy() copies to the *current* device, from any device
        with self._device(index), self._stream(stream):
            return native.copy()

    def synchronize(self, index: int) -> None:
        self._device(index).synchronize()

    def dlpack_device(self, native: Any, index: int) -> tuple[int, int]:
        return (_KDLCUDA, index)

    def from_dlpack(self, obj: Any, index: int, copy: bool | None) -> Any:
        xp = self.xp()
        with self._device(index):
            if copy is None:
                return xp.from_dlpack(obj)
            try:
                return xp.from_dlpack(obj, copy=copy)
            except TypeError:  # a CuPy without the copy keyword
                if copy is False:
                    raise
                return xp.from_dlpack(obj).copy()

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


def make_backend(xp: Any, device_count: int, **kwargs: Any) -> CUDABackend:
    """A backend over a given array module (tests: a NumPy stand-in)."""
    return CUDABackend(xp, device_count=device_count, **kwargs)


backend = CUDABackend()
