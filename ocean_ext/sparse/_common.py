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
    "zero_of",
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


def zero_of(dtype: DType) -> bool | int | float | complex:
    """The zero of ``dtype``'s kind as a Python scalar (False for bool)."""
    kind = dtype._kind
    if kind == "bool":
        return False
    if kind in ("signed integer", "unsigned integer"):
        return 0
    return 0.0 if kind == "real floating" else 0j


def fill_scalar(
    value: Any, dtype: DType, where: str, argname: str = "fill_value"
) -> bool | int | float | complex:
    """``value`` as the Python scalar of ``dtype``'s kind, exactly representable.

    ``None`` is the zero of the dtype.  The rules (every sparse function that
    takes a fill value follows them):

    - TypeError for a value of a kind the dtype cannot hold, as the standard's
      scalar rules say: a bool for a numeric dtype, an int for bool, a float
      for an integer dtype, a complex for a real one;
    - OverflowError for a value out of the dtype's range (an int out of
      bounds, a finite value that would become inf), as ``ocean_array_api``
      raises for out-of-bounds Python ints;
    - ValueError for a value in range that the dtype cannot hold exactly
      (0.1 in float16, 2**53 + 1 in float64): a fill value stands for every
      element that is not stored, so it is never rounded silently.

    NaN and infinities are exact in every floating-point dtype.
    """
    if value is None:
        return zero_of(dtype)
    if value.__class__ is Array:
        if value.ndim != 0:
            msg = f"{where}: `{argname}` must be a scalar or a 0-d array, got shape {value.shape}"
            raise ValueError(msg)
        if value.dtype in _EXT_OPAQUE:  # complex32: read through its proxy
            value = xp.astype(value, proxy_of(value.dtype))
        if value.device._kind != "cpu":
            value = value.to_device("cpu")
        value = value._data.item()
    if isinstance(value, np.generic):
        value = value.item()
    if not isinstance(value, (bool, int, float, complex)):
        msg = (
            f"{where}: `{argname}` must be a Python scalar or a 0-d array, got "
            f"{type(value).__name__}"
        )
        raise TypeError(msg)
    kind = dtype._kind
    t = value.__class__
    ok = {
        "bool": t is bool,
        "signed integer": t is int,
        "unsigned integer": t is int,
        "real floating": t is int or t is float,
        "complex floating": t is not bool,
    }[kind]
    if not ok:
        msg = (
            f"{where}: a Python {t.__name__} `{argname}` ({value!r}) cannot be held "
            f"by dtype {dtype}; give a value of the array's kind"
        )
        raise TypeError(msg)
    if kind == "bool":
        return value  # type: ignore[no-any-return]
    native = dtype._native
    if kind != "real floating" and kind != "complex floating":
        info = np.iinfo(native)
        if not info.min <= value <= info.max:
            msg = f"{where}: `{argname}` {value} is out of bounds for {dtype}"
            raise OverflowError(msg)
        return int(value)
    if kind == "real floating":
        parts: tuple[Any, ...] = (value,)
    else:
        parts = (value.real, value.imag) if t is complex else (value, 0.0)
    out = []
    for v in parts:
        try:
            f = float(v)
        except OverflowError:
            msg = f"{where}: `{argname}` {value!r} is out of range for {dtype}"
            raise OverflowError(msg) from None
        with np.errstate(over="ignore"):
            cast = float(
                native.type(f) if kind == "real floating" else _real_of(native)(f)
            )
        if math.isinf(cast) and not math.isinf(f):
            msg = f"{where}: `{argname}` {value!r} is out of range for {dtype}"
            raise OverflowError(msg)
        if cast != v and not (math.isnan(cast) and math.isnan(f)):
            msg = (
                f"{where}: `{argname}` {value!r} is not exactly representable in "
                f"{dtype} (the nearest value is {cast!r}); give a value the dtype "
                f"holds exactly"
            )
            raise ValueError(msg)
        out.append(cast)
    return out[0] if kind == "real floating" else complex(out[0], out[1])


def _real_of(native: Any) -> Any:
    """The real NumPy scalar type of a complex one (complex64 -> float32)."""
    return np.dtype(native).type(0).real.dtype.type


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
