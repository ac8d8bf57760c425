"""The backend protocol and the registry that finds backends.

A backend serves one *device kind* ("cpu", "cuda", ...).  It is Ocean's
function look-up table: ``ops`` maps operation names to callables on *native*
arrays (``numpy.ndarray`` for the CPU, ``cupy.ndarray`` for CUDA), plus a few
explicit methods (device enumeration, allocation and transfer, DLPack,
synchronisation) and capability flags.

Rules for backends:

- they never see :class:`~ocean_array_api._array_object.Array`; the front end
  has already checked types, dtypes, shapes and devices, so a backend never
  raises for a standard-input reason;
- ``ops`` is a plain mutable dict looked up at call time, so that
  ``ocean_ext.instrument()`` can wrap its entries;
- an operation a backend lacks is simply absent from ``ops``; the front end
  raises a clear error naming the operation and device kind
  (:func:`missing_op`).

Backends are found through the entry-point group ``ocean_array_api.backends``
(entry name = device kind), lazily and once.  The built-in backends also work
from a source checkout (``backends/`` next to this package).  A backend that
fails to load produces one warning naming it, and its devices are absent.
"""

from __future__ import annotations

import _thread
import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

__all__ = ["Backend", "available_kinds", "get_backend", "missing_op"]

ENTRY_POINT_GROUP = "ocean_array_api.backends"
_BUILTIN = {
    "cpu": "ocean_cpu:backend",
    "cuda": "ocean_cuda:backend",
    "dask": "ocean_dask:backend",
}


@runtime_checkable
class Backend(Protocol):
    """What a device kind's backend provides.

    Attributes
    ----------
    kind : str
        The device kind it serves, e.g. ``"cpu"``.
    native_type : type
        The native array class (``numpy.ndarray``).  Results of ``ops`` that
        are not of this class (NumPy returns scalars from 0-d operations) are
        passed through :meth:`to_native`.  Its instances have ``dtype`` (a
        NumPy dtype) and ``base`` (None, or the array whose memory a view
        uses), which ``__setitem__`` reads to copy a source that overlaps its
        destination.
    ops : dict
        Operation name -> callable on native arrays.
    supports_byteswap, supports_complex32 : bool
        Capability flags (non-native byte order; a native complex-half type).
    max_dimensions : int or None
        The largest number of dimensions an array may have.

    Optional methods (looked up with ``getattr``; a backend may leave them out):

    ``array_module()``
        The NumPy-compatible module of its native arrays (``numpy``, ``cupy``),
        or None.  ``ocean_ext.sparse`` runs its index kernels with it, so a
        backend that has one gets sparse arrays too.
    ``activate(index)``
        A context manager that makes device ``index`` the one the array module
        computes on (CuPy's current device), for code such as the sparse
        kernels that calls the array module directly.  Without it, nothing is
        switched.
    ``to_dlpack(native, index, *, stream=None, max_version=None, copy=None)``
        ``Array.__dlpack__`` for a native array on device ``index`` (after
        the front end's checks and any copy to another device), for a native
        whose own ``__dlpack__`` needs adapting (CuPy takes the stream as an
        int and refuses ``copy=True`` for device memory).  Without it,
        ``native.__dlpack__`` is called with the same keywords.
    ``device_name(index)`` / ``device_index(name)``
        The ``str`` of device ``index`` (default ``"kind:index"``), and the
        index of the device written ``"kind:name"`` where ``name`` is not an
        integer, or None (``parse_device`` asks it): the dask backend's
        ``"dask"`` and ``"dask:cuda:0"``.
    ``host_accessible``
        True when computed data is host memory, so that ``numpy.asarray(x)``
        computes instead of refusing; or a method taking the device index.
    ``move_to(native, index, device, *, stream=None)`` / ``move_from(native, device, index, *, stream=None)``
        A copy of ``native`` (on device ``index`` of this kind) on ``device``
        of another kind, or a native array of this kind from ``native`` on
        ``device`` of another kind, without a trip through host memory; or
        ``NotImplemented``, and the front end goes through the host.
    """

    kind: str
    native_type: type
    ops: dict[str, Callable[..., Any]]
    supports_byteswap: bool
    supports_complex32: bool
    max_dimensions: int | None

    def device_indices(self) -> tuple[int, ...]:
        """Indices of the devices of this kind present on this machine."""

    def to_native(self, obj: Any) -> Any:
        """Turn a backend result that is not ``native_type`` into one (0-d)."""

    def asarray(self, obj: Any, dtype: Any, index: int, copy: bool | None) -> Any:
        """A native array from Python data, buffers or host (NumPy) arrays.

        ``dtype`` is a NumPy dtype or None (infer).  ``copy`` follows the
        standard's ``asarray`` (True: always, False: never, None: if needed).
        """

    def to_host(self, native: Any, *, stream: Any = None) -> Any:
        """A NumPy array holding the same values (no copy when already host)."""

    def from_host(self, host: Any, index: int, *, stream: Any = None) -> Any:
        """A native array on device ``index`` from a NumPy array (a copy)."""

    def transfer(self, native: Any, index: int, *, stream: Any = None) -> Any:
        """A copy of a native array of this kind on device ``index``."""

    def synchronize(self, index: int) -> None:
        """Wait for all work queued on device ``index``."""

    def dlpack_device(self, native: Any, index: int) -> tuple[int, int]:
        """The ``(device_type, device_id)`` pair of the DLPack protocol."""

    def from_dlpack(self, obj: Any, index: int, copy: bool | None) -> Any:
        """A native array from a DLPack-capable object on this device kind."""

    def is_lazy(self, native: Any) -> bool:
        """Whether ``native`` is a lazy handle that needs ``materialize``."""

    def materialize(self, native: Any) -> Any:
        """Compute a lazy handle; identity for eager backends."""

    def capabilities(self) -> Mapping[str, Any]:
        """The inspection API's capabilities for this device kind."""


_lock = _thread.allocate_lock()  # threading.Lock, without importing threading
_loaded: dict[str, Backend | None] = {}
_entry_points: dict[str, str] | None = None


def _discover() -> dict[str, str]:
    """Device kind -> "module:attribute", from entry points and built-ins."""
    global _entry_points
    if _entry_points is None:
        found = dict(_BUILTIN)
        try:
            from importlib.metadata import entry_points

            for ep in entry_points(group=ENTRY_POINT_GROUP):
                found[ep.name] = ep.value
        except Exception:  # pragma: no cover - broken metadata must not break import
            pass
        _entry_points = found
    return _entry_points


def _import_target(target: str) -> Any:
    modname, _, attr = target.partition(":")
    try:
        module = importlib.import_module(modname)
    except ModuleNotFoundError as exc:
        # Built-in backends from a source checkout: backends/ beside the package.
        source_dir = Path(__file__).resolve().parent.parent / "backends"
        if exc.name != modname or not (source_dir / modname).is_dir():
            raise
        sys.path.append(str(source_dir))
        module = importlib.import_module(modname)
    obj = module
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


def get_backend(kind: str) -> Backend | None:
    """The backend for device ``kind``, loading it on first use; None if absent.

    A backend that fails to import warns once (naming itself) and counts as
    absent from then on.
    """
    try:
        return _loaded[kind]
    except KeyError:
        pass
    with _lock:
        if kind in _loaded:
            return _loaded[kind]
        # Built-in kinds need no scan of the installed distributions' entry
        # points (importlib.metadata costs tens of milliseconds at import).
        target = _BUILTIN.get(kind) or _discover().get(kind)
        backend: Backend | None = None
        if target is not None:
            try:
                backend = _import_target(target)
            except Exception as exc:
                warnings.warn(
                    f"ocean_array_api: the {kind!r} backend ({target}) could not be "
                    f"loaded and its devices are unavailable: {exc}",
                    RuntimeWarning,
                    stacklevel=3,
                )
        _loaded[kind] = backend
        return backend


def available_kinds() -> tuple[str, ...]:
    """Device kinds with a registered backend (loaded or not)."""
    return tuple(_discover())


def missing_op(name: str, kind: str) -> NotImplementedError:
    """The error for an operation a backend's table lacks."""
    return NotImplementedError(
        f"{name}(): the {kind!r} backend does not implement this operation"
    )
