"""Set functions of the Array API standard: ``isin`` and the ``unique_*`` family.

The ``unique_*`` functions flatten their input and return namedtuples with the
standard's field names.  Uniqueness is value equality: every NaN is distinct
(a count of one each), ``-0.0`` and ``+0.0`` are one value.  The standard
leaves the order of the unique values to the implementation; the CPU backend
returns them sorted (NaNs last), as NumPy's ``unique`` does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as _np

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array, _wrap
from ._dtypes import promote
from ._helpers import device_error, type_error

__all__ = ["isin", "unique_all", "unique_counts", "unique_inverse", "unique_values"]

_index = _dt.DEFAULT_INDEX


class UniqueAllResult(NamedTuple):
    """Result of :func:`unique_all`."""

    values: Array
    indices: Array
    inverse_indices: Array
    counts: Array


class UniqueCountsResult(NamedTuple):
    """Result of :func:`unique_counts`."""

    values: Array
    counts: Array


class UniqueInverseResult(NamedTuple):
    """Result of :func:`unique_inverse`."""

    values: Array
    inverse_indices: Array


def _int_operand(value: Any, dt: Any, argname: str) -> int:
    """A Python int operand of ``isin`` (NumPy integers count as ints)."""
    fn = "isin()"
    if value.__class__ is not int:
        if value.__class__ is bool or not isinstance(value, (int, _np.integer)):
            type_error(fn, argname, "an array or a Python int", value)
        value = int(value)
    if dt not in _dt._numeric:
        msg = f"{fn}: a Python int `{argname}` cannot be compared with an array of dtype {dt}"
        raise TypeError(msg)
    return value  # type: ignore[no-any-return]


@_hints.keyword_only
def isin(
    x1: Array | int, x2: Array | int, /, *_positional: Any, invert: bool = False
) -> Array:
    """Whether each element of ``x1`` equals some element of ``x2``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.isin.html

    Notes
    -----
    Arrays of any dtypes that promote together are accepted (the standard asks
    for integers and leaves the rest to the implementation); other pairs are a
    TypeError.  A Python int operand may be compared with an integer or
    floating-point array; an int outside the range of an integer array's dtype
    simply matches nothing.  NaN matches nothing, as with ``equal``.
    """
    if _positional:
        raise _hints.positional_error(isin, (x1, x2, *_positional))
    fn = "isin()"
    for x in (x1, x2):
        if x.__class__ is Array and x._dtype in _ext.OPAQUE:
            # complex32: compared as the complex64 values it holds (exact)
            return _ext.via_proxy(  # type: ignore[no-any-return]
                isin, fn, _dt._numeric, {"x1": x1, "x2": x2}, {"invert": invert}
            )
    if x1.__class__ is Array:
        dev = x1._device
        a = x1._data
        if x2.__class__ is Array:
            if x2._dtype is not x1._dtype:
                promote(x1._dtype, x2._dtype, fn)
            if x2._device is not dev:
                device_error(fn, ("x1", "x2"), (dev, x2._device))
            b = x2._data
        else:
            b = _int_operand(x2, x1._dtype, "x2")
    elif x2.__class__ is Array:
        dev = x2._device
        a = _int_operand(x1, x2._dtype, "x1")
        b = x2._data
    else:
        msg = (
            f"{fn}: at least one of `x1`, `x2` must be an array, got "
            f"{type(x1).__name__} and {type(x2).__name__}"
        )
        raise TypeError(msg)
    if invert is not False and invert is not True:
        type_error(fn, "invert", "a bool", invert)
    res = dev._ops["isin"](a, b, invert)
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return _wrap(res, _dt.bool, dev)


def _by_proxy(x: Any, fn: str) -> bool:
    """Check ``x``; whether it must go through its proxy dtype (complex32:
    its values are found among the complex64 values it holds, exactly)."""
    if x.__class__ is not Array:
        type_error(fn, "x", "an array", x)
    return x._dtype in _ext.OPAQUE


def unique_all(x: Array, /) -> UniqueAllResult:
    """Unique values of ``x`` with first indices, inverse indices and counts.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unique_all.html
    """
    if _by_proxy(x, "unique_all()"):
        return _ext.via_proxy(unique_all, "unique_all()", _dt._all, {"x": x})  # type: ignore[no-any-return]
    dev = x._device
    values, indices, inverse, counts = dev._ops["unique_all"](x._data)
    return UniqueAllResult(
        _wrap(values, x._dtype, dev),
        _wrap(indices, _index, dev),
        _wrap(inverse, _index, dev),
        _wrap(counts, _index, dev),
    )


def unique_counts(x: Array, /) -> UniqueCountsResult:
    """Unique values of ``x`` and how often each occurs.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unique_counts.html
    """
    if _by_proxy(x, "unique_counts()"):
        return _ext.via_proxy(unique_counts, "unique_counts()", _dt._all, {"x": x})  # type: ignore[no-any-return]
    dev = x._device
    values, counts = dev._ops["unique_counts"](x._data)
    return UniqueCountsResult(_wrap(values, x._dtype, dev), _wrap(counts, _index, dev))


def unique_inverse(x: Array, /) -> UniqueInverseResult:
    """Unique values of ``x`` and the indices into them that rebuild ``x``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unique_inverse.html
    """
    if _by_proxy(x, "unique_inverse()"):
        return _ext.via_proxy(unique_inverse, "unique_inverse()", _dt._all, {"x": x})  # type: ignore[no-any-return]
    dev = x._device
    values, inverse = dev._ops["unique_inverse"](x._data)
    return UniqueInverseResult(
        _wrap(values, x._dtype, dev), _wrap(inverse, _index, dev)
    )


def unique_values(x: Array, /) -> Array:
    """The unique values of ``x`` (flattened), as a 1-D array.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unique_values.html
    """
    if _by_proxy(x, "unique_values()"):
        return _ext.via_proxy(unique_values, "unique_values()", _dt._all, {"x": x})  # type: ignore[no-any-return]
    dev = x._device
    return _wrap(dev._ops["unique_values"](x._data), x._dtype, dev)
