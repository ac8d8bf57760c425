"""The inspection API: ``__array_namespace_info__()``."""

from __future__ import annotations

from typing import Any

from . import _dtypes as _dt
from ._devices import Device, all_devices, default_device, parse_device
from ._dtypes import DType
from ._flags import API_VERSION, at_least

__all__ = ["__array_namespace_info__"]

_KIND_ORDER: tuple[tuple[str, tuple[DType, ...]], ...] = (
    ("bool", (_dt.bool,)),
    ("signed integer", (_dt.int8, _dt.int16, _dt.int32, _dt.int64)),
    ("unsigned integer", (_dt.uint8, _dt.uint16, _dt.uint32, _dt.uint64)),
    ("real floating", (_dt.float32, _dt.float64)),
    ("complex floating", (_dt.complex64, _dt.complex128)),
)
_KIND_GROUPS = {
    "integral": ("signed integer", "unsigned integer"),
    "numeric": (
        "signed integer",
        "unsigned integer",
        "real floating",
        "complex floating",
    ),
}


class Info:
    """What this namespace supports: devices, dtypes and capabilities.

    See https://data-apis.org/array-api/2025.12/API_specification/inspection.html
    """

    __slots__ = ("_version",)

    def __init__(self, version: str = API_VERSION) -> None:
        self._version = version

    def capabilities(self) -> dict[str, Any]:
        """Optional features: boolean indexing, data-dependent shapes, max dimensions."""
        caps = dict(default_device()._backend.capabilities())
        if not at_least(self._version, "2024.12"):
            caps.pop("max dimensions", None)
        return caps

    def default_device(self) -> Device:
        """The device creation functions use without ``device=``."""
        return default_device()

    def default_dtypes(self, *, device: Device | None = None) -> dict[str, DType]:
        """The default dtypes of each kind (the same on every device here)."""
        if device is not None:
            parse_device(device, "default_dtypes()")
        return {
            "real floating": _dt.DEFAULT_FLOAT,
            "complex floating": _dt.DEFAULT_COMPLEX,
            "integral": _dt.DEFAULT_INT,
            "indexing": _dt.DEFAULT_INDEX,
        }

    def devices(self) -> Any:
        """Every device present (a tuple since 2025.12, a list before)."""
        devs = all_devices()
        return devs if at_least(self._version, "2025.12") else list(devs)

    def dtypes(
        self, *, device: Device | None = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, DType]:
        """The standard dtypes of ``kind`` (all when None), by name."""
        where = "dtypes()"
        if device is not None:
            parse_device(device, where)
        if kind is None:
            wanted = {k for k, _ in _KIND_ORDER}
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            wanted = set()
            for k in kinds:
                if not isinstance(k, str):
                    msg = f"{where}: `kind` must be a str or a tuple of str, got {k!r}"
                    raise TypeError(msg)
                if k in _KIND_GROUPS:
                    wanted.update(_KIND_GROUPS[k])
                elif k in dict(_KIND_ORDER):
                    wanted.add(k)
                else:
                    msg = f"{where}: unknown kind {k!r}"
                    raise ValueError(msg)
        return {dt._name: dt for k, group in _KIND_ORDER if k in wanted for dt in group}


def __array_namespace_info__() -> Info:
    """The inspection namespace (see the standard's "Inspection" page)."""
    return Info()
