"""Small helpers shared by the sparse modules: wrapping, dtypes, fill values."""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

import ocean_array_api as xp
from ocean_array_api import _dtypes as _dt
from ocean_array_api._array_object import Array, _wrap
from ocean_array_api._devices import Device
from ocean_array_api._dtypes import DType

__all__ = [
    "INT64_MAX",
    "Array",
    "Device",
    "DType",
    "as_index",
    "check_data_dtype",
    "check_result_dtype",
    "fill_array",
    "fill_scalar",
    "is_fill",
    "is_numeric",
    "proxy_of",
    "prod",
    "row_major_strides",
    "wrap",
    "wrap_index",
]

INT64_MAX = 2**63 - 1


def wrap(native: Any, dtype: DType, device: Device) -> Array:
    """An ``Array`` over a native array (no checks: the caller guarantees them)."""
    return _wrap(native, dtype, device)


def wrap_index(native: Any, device: Device) -> Array:
    """An ``int64`` Array over a native index array."""
    return _wrap(native, _dt.int64, device)


def prod(shape: tuple[int, ...]) -> int:
    return math.prod(shape)


def row_major_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Element strides of a C-ordered array of ``shape`` (Python ints)."""
    strides = []
    acc = 1
    for n in reversed(shape):
        strides.append(acc)
        acc *= n
    return tuple(reversed(strides))


def as_index(value: Any, where: str, argname: str) -> int:
    """An int from an int-like (never a bool)."""
    if value.__class__ is int:
        return int(value)
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        msg = (
            f"{where}: `{argname}` must be an int, got {type(value).__name__} {value!r}"
        )
        raise TypeError(msg)
    return operator.index(value)


try:  # the core's registry of ocean_ext's dtypes (float16, complex32)
    from ocean_array_api._ext_dtypes import OPAQUE as _EXT_OPAQUE
    from ocean_array_api._ext_dtypes import PROXY as _EXT_PROXY
except ImportError:  # pragma: no cover - a core without extension dtypes
    _EXT_OPAQUE: set[Any] = set()  # type: ignore[no-redef]
    _EXT_PROXY: dict[Any, Any] = {}  # type: ignore[no-redef]

_NATIVE_KINDS = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "real floating": "f",
    "complex floating": "c",
}


def is_numeric(dt: DType) -> bool:
    """Whether ``dt`` is numeric, ocean_ext's float16 and complex32 included."""
    return dt._kind in _NUMERIC_KINDS


_NUMERIC_KINDS = frozenset(
    ["signed integer", "unsigned integer", "real floating", "complex floating"]
)


def proxy_of(dt: DType) -> DType:
    """The standard dtype an ocean_ext dtype computes in (float16 -> float32,
    complex32 -> complex64); ``dt`` itself for a standard dtype."""
    return _EXT_PROXY.get(dt, dt)  # type: ignore[no-any-return]


def check_data_dtype(dt: DType, where: str, argname: str) -> None:
    """Sparse values: the standard's numeric and boolean dtypes, and ocean_ext's
    float16; not complex32 (no native storage to index into)."""
    if dt in _dt._numeric or dt in _dt._boolean or dt in _EXT_PROXY:
        if dt not in _EXT_OPAQUE and dt._native.kind == _NATIVE_KINDS.get(dt._kind):
            return
        subject = f"`{argname}`" if argname == "dtype" else f"`{argname}` has dtype"
        msg = (
            f"{where}: {subject} {dt}, which sparse arrays do not support "
            f"(its values have no native storage to index); use "
            f"{proxy_of(dt)} instead"
        )
        raise TypeError(msg)
    msg = f"{where}: `{argname}` must have a numeric or boolean dtype, got {dt}"
    raise TypeError(msg)


def check_result_dtype(dt: DType, where: str) -> None:
    """A sparse result must have a dtype sparse arrays hold (not complex32)."""
    if dt in _EXT_OPAQUE:
        msg = (
            f"{where}: the result would have dtype {dt}, which sparse arrays do "
            f"not support (its values have no native storage to index); convert "
            f"the operands to {proxy_of(dt)} first"
        )
        raise TypeError(msg)


def fill_scalar(value: Any, dtype: DType, where: str) -> bool | int | float | complex:
    """``value`` as the Python scalar of ``dtype``'s kind, exactly representable.

    Raises TypeError for a value of a kind the dtype cannot hold (a float for an
    integer dtype), ValueError for one out of range or not exactly
    representable.
    """
    if value.__class__ is Array:
        if value.ndim != 0:
            msg = f"{where}: `fill_value` must be a scalar or a 0-d array, got shape {value.shape}"
            raise ValueError(msg)
        value = (
            value.to_device("cpu")._data.item()
            if value.device._kind != "cpu"
            else value._data.item()
        )
    if isinstance(value, np.generic):
        value = value.item()
    if not isinstance(value, (bool, int, float, complex)):
        msg = (
            f"{where}: `fill_value` must be a Python scalar or a 0-d array, got "
            f"{type(value).__name__}"
        )
        raise TypeError(msg)
    kind = dtype._kind
    native = dtype._native
    if kind == "bool":
        if value.__class__ is bool:
            return value
        if isinstance(value, int) and value in (0, 1):
            return bool(value)
        msg = f"{where}: `fill_value` {value!r} is not a boolean; a bool array needs True or False"
        raise TypeError(msg)
    if kind in ("signed integer", "unsigned integer"):
        if not isinstance(value, int):
            msg = f"{where}: `fill_value` {value!r} cannot be held by an integer dtype ({dtype})"
            raise TypeError(msg)
        info = np.iinfo(native)
        if not info.min <= value <= info.max:
            msg = f"{where}: `fill_value` {value} is out of range for {dtype}"
            raise ValueError(msg)
        return int(value)
    if kind == "real floating":
        if isinstance(value, complex):
            msg = f"{where}: `fill_value` {value!r} is complex but the dtype is {dtype}"
            raise TypeError(msg)
        f = float(value)
        cast = float(native.type(f))
        if math.isinf(cast) and not math.isinf(f):
            msg = f"{where}: `fill_value` {value!r} overflows {dtype}"
            raise ValueError(msg)
        return cast
    # complex floating
    c = complex(value)
    return complex(native.type(c))


def fill_array(fill: Any, dtype: DType, device: Device) -> Array:
    """A 0-d Array of ``dtype`` on ``device`` holding ``fill``."""
    return xp.asarray(fill, dtype=dtype, device=device)


def is_fill(data: Array, fill: Any) -> Array:
    """Boolean mask of the elements of ``data`` equal to the scalar ``fill``.

    NaN counts as equal to a NaN fill value (a NaN-filled array stores no NaN).
    """
    if fill != fill:  # NaN (real or complex)
        return xp.isnan(data)
    if data.dtype is _dt.bool:
        return data if fill else xp.logical_not(data)
    return xp.equal(data, fill)
