"""Devices as values, and the scoped default device.

There is no current device: every array knows its device and every operation
runs on the device of its operands.  ``Device(kind, index)`` values are
interned, so identity comparison is the fast path and ``==``/``hash`` agree
with it.  A device also carries its backend's function table (``_ops``).

The *default device* is only used by creation functions called without
``device=``.  It is the first CPU unless set in a scoped way::

    with some_device:            # thread- and async-safe (contextvars)
        x = xp.zeros(3)          # on some_device

or, for a whole process, with the environment variable
``OCEAN_ARRAY_API_DEFAULT_DEVICE`` (e.g. ``cuda:0``).

Besides ``cpu:0`` there is a second logical CPU device, ``cpu:1``, so that
device-mixing code can be tested on machines without a GPU.
"""

from __future__ import annotations

import contextvars
import os
from typing import Any, ClassVar

from ._backend import available_kinds, get_backend, missing_op

__all__ = ["CPU", "Device", "default_device", "parse_device"]

# Logical CPU devices: same memory, distinct values.
CPU_DEVICE_COUNT = 2


class Device:
    """A device: a kind (``"cpu"``, ``"cuda"``, ...) and an index.

    Immutable, hashable, never equal to NumPy or CuPy objects.  Use it as a
    context manager to make it the default device inside a ``with`` block.
    """

    __slots__ = (
        "__weakref__",
        "_backend",
        "_index",
        "_kind",
        "_native",
        "_ops",
        "_str",
    )
    _backend: Any
    _index: int
    _kind: str
    _native: type
    _ops: dict[str, Any]
    _str: str
    _interned: ClassVar[dict[tuple[str, int], Device]] = {}

    def __new__(cls, kind: str, index: int = 0) -> Device:
        if kind.__class__ is not str:
            msg = f"Device(): `kind` must be a str such as 'cpu', got {kind!r}"
            raise TypeError(msg)
        if index.__class__ is not int:
            msg = f"Device(): `index` must be an int, got {index!r}"
            raise TypeError(msg)
        dev = cls._interned.get((kind, index))
        if dev is not None:
            return dev
        key = (kind, index)
        backend = get_backend(kind)
        if backend is None:
            kinds = ", ".join(available_kinds())
            msg = (
                f"Device(): no backend for device kind {kind!r} could be loaded "
                f"(registered kinds: {kinds})"
            )
            raise ValueError(msg)
        indices = range(CPU_DEVICE_COUNT) if kind == "cpu" else backend.device_indices()
        # A backend may name its devices (the dask backend's one device is
        # plain "dask", its GPU ones "dask:cuda:<i>"); otherwise "kind:index".
        naming = getattr(backend, "device_name", None)
        name_str = naming(index) if naming is not None else f"{kind}:{index}"
        if index not in indices:
            msg = (
                f"Device(): there is no device {name_str} (index {index}) on this "
                f"machine (available indices: {list(indices)})"
            )
            raise ValueError(msg)
        dev = object.__new__(cls)
        for name, value in (
            ("_str", name_str),
            ("_kind", kind),
            ("_index", index),
            ("_backend", backend),
            ("_ops", _op_table(backend)),
            ("_native", backend.native_type),
        ):
            object.__setattr__(dev, name, value)
        return cls._interned.setdefault(key, dev)

    def __setattr__(self, name: str, value: object) -> None:
        msg = "Device objects are immutable"
        raise AttributeError(msg)

    @property
    def kind(self) -> str:
        """The device kind, e.g. ``"cpu"`` or ``"cuda"``."""
        return self._kind

    @property
    def index(self) -> int:
        """The index of the device among those of its kind."""
        return self._index

    def __repr__(self) -> str:
        return f"Device({self._kind!r}, {self._index})"

    def __str__(self) -> str:
        return self._str

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        return (Device, (self._kind, self._index))

    def __copy__(self) -> Device:
        return self

    def __deepcopy__(self, memo: object) -> Device:
        return self

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    # --- scoped default device ---------------------------------------------
    # Safe against an interrupt (Ctrl-C) anywhere inside: ``__enter__`` undoes
    # its change when it raises (``with`` then calls no ``__exit__``), and
    # ``__exit__`` is one line of C calls, so it either has not started or is
    # done.  (Nothing written in Python can guard its own first instruction.)
    def __enter__(self) -> Device:
        old = _scope.get()
        try:
            _scope.set((*old, self))
            return self
        except BaseException:
            _scope.set(old)
            raise

    def __exit__(self, *exc: object) -> None:
        _scope.set(_scope.get()[:-1])


def _missing_entry(name: str, kind: str) -> Any:
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise missing_op(name, kind)

    missing.__name__ = f"missing_{name}"
    missing._ocean_missing = True  # type: ignore[attr-defined]  # see _ext_dtypes.kernel
    return missing


def _op_table(backend: Any) -> dict[str, Any]:
    """The backend's ``ops``, completed once, in place.

    Operations the reference (CPU) table has but this backend lacks get an
    entry that raises NotImplementedError naming the operation and device
    kind, so the front end's ``dev._ops[name]`` never raises KeyError.  The
    table stays a plain dict: the interpreter's fast path for subscripting
    applies only to exact dicts, and ``ocean_ext.instrument`` wraps its
    entries in place.
    """
    ops: dict[str, Any] = backend.ops
    if backend.kind != "cpu":
        cpu = get_backend("cpu")
        for name in cpu.ops if cpu is not None else ():
            if name not in ops:
                ops[name] = _missing_entry(name, backend.kind)
    return ops


_scope: contextvars.ContextVar[tuple[Device, ...]] = contextvars.ContextVar(
    "ocean_array_api_default_device", default=()
)

CPU = Device("cpu", 0)


def parse_device(spec: object, where: str) -> Device:
    """A Device from a ``device=`` argument: a Device, or a string like "cuda:0"."""
    if spec.__class__ is Device:
        return spec  # type: ignore[return-value]
    if isinstance(spec, str):
        kind, _, idx = spec.partition(":")
        try:
            index = int(idx) if idx else 0
        except ValueError:
            index = _named_index(kind, idx)
        if index < 0:
            msg = (
                f"{where}: cannot read device {spec!r}; expected e.g. 'cpu' or 'cuda:0'"
            )
            raise ValueError(msg)
        return Device(kind, index)
    msg = (
        f"{where}: `device` must be a Device of this namespace (e.g. x.device) or a "
        f"string such as 'cpu' or 'cuda:0', got {spec!r} of type {type(spec).__name__}"
    )
    raise TypeError(msg)


def _named_index(kind: str, name: str) -> int:
    """The index of the device ``kind:name`` that its backend names itself
    (the dask backend's ``"dask:cuda:0"``), or -1."""
    backend = get_backend(kind) if kind else None
    naming = getattr(backend, "device_index", None)
    index = naming(name) if naming is not None else None
    return -1 if index is None else index


_env_default: Device | None = None
_env_checked = False


def default_device() -> Device:
    """The device used by creation functions called without ``device=``."""
    stack = _scope.get()
    if stack:
        return stack[-1]
    global _env_default, _env_checked
    if not _env_checked:
        spec = os.environ.get("OCEAN_ARRAY_API_DEFAULT_DEVICE")
        _env_default = (
            parse_device(spec, "OCEAN_ARRAY_API_DEFAULT_DEVICE") if spec else None
        )
        _env_checked = True
    return _env_default if _env_default is not None else CPU


def all_devices() -> tuple[Device, ...]:
    """Every device present: the logical CPUs, then the other kinds' devices."""
    out = [Device("cpu", i) for i in range(CPU_DEVICE_COUNT)]
    for kind in available_kinds():
        if kind == "cpu":
            continue
        backend = get_backend(kind)
        if backend is None:
            continue
        try:
            indices = backend.device_indices()
        except Exception:
            indices = ()
        out.extend(Device(kind, i) for i in indices)
    return tuple(out)
