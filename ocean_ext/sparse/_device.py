"""Run sparse operations with their operands' device current.

The index kernels call the device's array module directly (``cupy.argsort``,
fancy indexing, ...), and CuPy computes on its *current* device: an operation
on COO arrays of ``cuda:1`` while ``cuda:0`` is current would fail, or run
through slow peer access.  Every public function of ``ocean_ext.sparse`` and
every public method, property and operator of ``COO`` is therefore wrapped so
that the device of its first COO or Array operand (or its ``device=``
argument) is made current through the backend's optional ``activate(index)``.
On the CPU the wrapper only looks at the operands' device kind.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, cast

from ocean_array_api._devices import Device

from ._common import Array

__all__ = ["install_class", "install_functions", "on_device"]

# Cheap metadata of COO that never touches the entries.
_METADATA = frozenset(
    {"shape", "ndim", "size", "dtype", "device", "fill_value", "base"}
)


def _device_of(args: tuple[Any, ...], kwargs: dict[str, Any], coo: type) -> Any:
    dev = kwargs.get("device")
    if dev.__class__ is Device:
        return dev
    for a in args:
        cls = a.__class__
        if cls is coo:
            store = getattr(a, "_store", None)  # None: inside __init__
            if store is not None:
                return store.device
            continue
        if cls is Array:
            return a._device
        if (cls is list or cls is tuple) and a:
            first = a[0]
            if first.__class__ is coo:
                return cast(Any, first)._store.device  # `coo` is only a `type` here
            if first.__class__ is Array:
                return first._device
    return None


def on_device(func: Callable[..., Any], coo: type) -> Callable[..., Any]:
    """``func`` with the device of its operands current during the call."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        dev = _device_of(args, kwargs, coo)
        if dev is None or dev._kind == "cpu":
            return func(*args, **kwargs)
        activate = getattr(dev._backend, "activate", None)
        if activate is None:
            return func(*args, **kwargs)
        with activate(dev._index):
            return func(*args, **kwargs)

    wrapper.__wrapped__ = func  # type: ignore[attr-defined]
    return wrapper


def install_functions(
    namespace: dict[str, Any], names: Iterable[str], coo: type
) -> None:
    """Wrap the plain functions among ``names`` in ``namespace``, in place."""
    for name in names:
        obj = namespace.get(name)
        if callable(obj) and not isinstance(obj, type):
            namespace[name] = on_device(obj, coo)


def install_class(coo: type) -> None:
    """Wrap the public methods, properties and operators of ``coo``, in place."""
    for name, attr in list(vars(coo).items()):
        if name in _METADATA or (name.startswith("_") and not name.startswith("__")):
            continue
        if name in {"__init_subclass__", "__class_getitem__", "__new__"}:
            continue
        if isinstance(attr, property):
            setattr(
                coo,
                name,
                property(
                    on_device(attr.fget, coo) if attr.fget else None,
                    on_device(attr.fset, coo) if attr.fset else None,
                    attr.fdel,
                    attr.__doc__,
                ),
            )
        elif isinstance(attr, classmethod):
            setattr(coo, name, classmethod(on_device(attr.__func__, coo)))
        elif isinstance(attr, staticmethod):
            setattr(coo, name, staticmethod(on_device(attr.__func__, coo)))
        elif callable(attr) and not isinstance(attr, type):
            setattr(coo, name, on_device(attr, coo))
