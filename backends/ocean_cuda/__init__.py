"""ocean_cuda: the CUDA backend of ocean_array_api, over CuPy.

Not built yet (issue 3): until then it reports no devices, so CUDA devices are
absent from ``__array_namespace_info__().devices()`` and ``Device("cuda", 0)``
raises ValueError.  CuPy is never imported by ``import ocean_array_api``.
"""

from __future__ import annotations

from typing import Any


class _PendingCUDABackend:
    kind = "cuda"
    native_type: type = type(None)
    supports_byteswap = False
    supports_complex32 = False
    max_dimensions = 64

    def __init__(self) -> None:
        # Per instance, as in the CPU backend: ocean_array_api replaces it with
        # an OpTable on first use.
        self.ops: dict[str, Any] = {}

    def device_indices(self) -> tuple[int, ...]:
        return ()

    def __repr__(self) -> str:
        return "<ocean_cuda backend (not built yet: no devices)>"


backend = _PendingCUDABackend()

__all__ = ["backend"]
