"""The dask backend object (device kind ``"dask"``).

dask is imported lazily, by the first call that needs it (``ops``, transfers,
``compute``), never by ``import ocean_array_api`` or ``import ocean_dask``.
Without dask installed the backend reports no devices, quietly, as the CUDA
backend does without CuPy.

Every graph this backend runs goes through :func:`compute` (the one place
that calls ``dask.compute``), so the tests can count scheduler runs.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from typing import Any

from ._native import LazyArray

__all__ = ["DaskBackend", "backend", "compute"]

_KDLCPU = 1


# Entries of the CPU table that the dask table leaves out: the flat-offset
# gathers of bound index objects (lazy arrays have no memory layout).
ABSENT = frozenset({"compact_offsets", "flat_layout", "take_flat"})


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
    """NumPy arrays holding the values of ``natives`` (LazyArray handles), in
    one run of the scheduler (dask's default: threads, or the active
    ``distributed.Client``)."""
    import dask
    import numpy as np

    results = dask.compute(*[n.arr for n in natives])
    # a 0-d dask array computes to a NumPy scalar: native results are arrays
    return tuple(np.asarray(r) for r in results)


class DaskBackend:
    """The backend protocol for the ``dask`` device kind, over ``dask.array``.

    One device, ``dask`` (``Device("dask", 0)``), whose arrays are lazy: a
    ``LazyArray`` handle around a ``dask.array.Array`` with NumPy chunks.
    """

    kind = "dask"
    native_type = LazyArray
    supports_byteswap = False  # chunks are native; the front end swaps on the way in
    supports_complex32 = True  # per chunk, through the CPU backend's kernels
    ext_kernels_unavailable = ""
    max_dimensions = 64
    # The data lives in host memory once computed: NumPy export (``__array__``)
    # computes the graph instead of refusing, as for CUDA.
    host_accessible = True

    def __init__(self) -> None:
        self._ops: dict[str, Any] | None = None
        self._real: dict[str, Any] | None = None
        self._lock = threading.RLock()
        self._installed: bool | None = None

    def __repr__(self) -> str:
        return "<ocean_dask backend>"

    # --- lazy dask --------------------------------------------------------
    def device_indices(self) -> tuple[int, ...]:
        if self._installed is None:
            self._installed = _dask_installed()
        return (0,) if self._installed else ()

    def device_name(self, index: int) -> str:
        """``str()`` of the device: plain ``"dask"``."""
        return "dask" if index == 0 else f"dask:{index}"

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
        names = list(cpu.ops) if cpu is not None else []
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

        def entry(*args: Any, **kwargs: Any) -> Any:
            return self._table()[name](*args, **kwargs)

        entry.__name__ = entry.__qualname__ = f"dask_{name}"
        return entry

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

    def array_module(self) -> Any:
        # ocean_ext.sparse runs NumPy-style index kernels eagerly; there is no
        # eager module for lazy chunks, so sparse arrays are not offered here.
        return None

    # --- protocol ---------------------------------------------------------
    def to_native(self, obj: Any) -> LazyArray:
        if obj.__class__ is LazyArray:
            return obj  # type: ignore[no-any-return]
        from ._ops import from_numpy

        return from_numpy(obj)

    def asarray(self, obj: Any, dtype: Any, index: int, copy: bool | None) -> LazyArray:
        import numpy as np

        from ._ops import from_numpy

        if obj.__class__ is LazyArray:
            arr = obj.arr
            if dtype is not None and arr.dtype != dtype:
                arr = arr.astype(dtype)
            return LazyArray(arr)
        # As the CPU backend: NumPy's conversion (no copy of a NumPy array
        # unless asked: the graph reads it when it runs, as a view would)
        if dtype is None and copy is None:
            return from_numpy(np.asarray(obj))
        return from_numpy(np.array(obj, dtype=dtype, copy=copy))

    def to_host(self, native: Any, *, stream: Any = None) -> Any:
        if native.__class__ is LazyArray:
            return compute(native)[0]
        return native  # already materialised (a NumPy array)

    def from_host(self, host: Any, index: int, *, stream: Any = None) -> LazyArray:
        import numpy as np

        from ._ops import from_numpy

        return from_numpy(np.array(host, copy=True))

    def transfer(self, native: Any, index: int, *, stream: Any = None) -> LazyArray:
        return LazyArray(native.arr)  # graphs are values: nothing to copy

    def synchronize(self, index: int) -> None:
        return None  # nothing runs until it is computed

    def dlpack_device(self, native: Any, index: int) -> tuple[int, int]:
        return (_KDLCPU, 0)  # computed chunks are host memory

    def from_dlpack(self, obj: Any, index: int, copy: bool | None) -> LazyArray:
        import numpy as np

        from ._ops import from_numpy

        host = np.from_dlpack(obj, copy=copy)
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
        no one else holds: ``copy=False`` is honoured trivially)."""
        host = compute(native)[0]
        kwargs: dict[str, Any] = {}
        if max_version is not None:
            kwargs["max_version"] = max_version
        if copy is not None:
            kwargs["copy"] = copy
        return host.__dlpack__(**kwargs)

    def is_lazy(self, native: Any) -> bool:
        return native.__class__ is LazyArray

    def materialize(self, native: Any) -> Any:
        """The NumPy array of a handle's values (runs the graph once)."""
        if native.__class__ is LazyArray:
            return compute(native)[0]
        return native

    def capabilities(self) -> dict[str, Any]:
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": self.max_dimensions,
        }


backend = DaskBackend()
