"""Indexing functions of the Array API standard: ``take``, ``take_along_axis``."""

from __future__ import annotations

from typing import Any

from . import _dtypes as _dt
from . import _hints
from ._array_object import Array, _wrap
from ._helpers import device_error, dtype_error, normalize_axis, type_error

__all__ = ["take", "take_along_axis"]


def _indices_arg(x: Any, indices: Any, fn: str) -> None:
    if x.__class__ is not Array:
        type_error(fn, "x", "an array", x)
    if indices.__class__ is not Array:
        type_error(fn, "indices", "an array", indices)
    if indices._dtype not in _dt._integer:
        dtype_error(fn, "indices", _dt._integer, indices._dtype)
    if indices._device is not x._device:
        device_error(fn, ("x", "indices"), (x._device, indices._device))


@_hints.keyword_only
def take(
    x: Array, indices: Array, /, *_positional: Any, axis: int | None = None
) -> Array:
    """Elements of ``x`` at ``indices`` along ``axis``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.take.html

    Notes
    -----
    Negative indices count from the end; an index outside ``[-n, n)`` is an
    IndexError (the standard leaves out-of-bounds behaviour unspecified).  A
    0-dimensional ``x`` is a ValueError.
    """
    if _positional:
        raise _hints.positional_error(take, (x, indices, *_positional))
    fn = "take()"
    _indices_arg(x, indices, fn)
    if indices._data.ndim != 1:
        msg = f"{fn}: `indices` must be one-dimensional, got {indices._data.ndim} dimensions"
        raise ValueError(msg)
    data = x._data
    ndim = data.ndim
    if axis is None:
        if ndim != 1:
            msg = (
                f"{fn}: `axis` is required unless x is one-dimensional "
                f"(x has {ndim} dimensions)"
            )
            raise ValueError(msg)
        axis = 0
    elif axis.__class__ is not int or not -ndim <= axis < ndim:
        if ndim == 0:
            msg = (
                f"{fn}: `x` must have at least one dimension, got a 0-dimensional array"
            )
            raise ValueError(msg)
        axis = normalize_axis(axis, ndim, fn)
    elif axis < 0:
        axis += ndim
    dev = x._device
    try:
        res = dev._ops["take"](data, indices._data, axis)
    except IndexError as exc:
        msg = f"{fn}: {exc}"
        raise IndexError(msg) from None
    return _wrap(res, x._dtype, dev)


@_hints.keyword_only
def take_along_axis(
    x: Array, indices: Array, /, *_positional: Any, axis: int = -1
) -> Array:
    """Elements of ``x`` at the 1-D ``indices`` along ``axis`` (as in ``argsort``).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.take_along_axis.html

    Notes
    -----
    ``x`` and ``indices`` broadcast against each other except along ``axis``.
    Negative indices count from the end; an index outside ``[-n, n)`` is an
    IndexError.
    """
    if _positional:
        raise _hints.positional_error(take_along_axis, (x, indices, *_positional))
    fn = "take_along_axis()"
    _indices_arg(x, indices, fn)
    data = x._data
    idx = indices._data
    ndim = data.ndim
    if axis.__class__ is not int or not -ndim <= axis < ndim:
        axis = normalize_axis(axis, ndim, fn)
    elif axis < 0:
        axis += ndim
    if idx.ndim != ndim:
        msg = (
            f"{fn}: `indices` must have as many dimensions as x ({ndim}), "
            f"got {idx.ndim}"
        )
        raise ValueError(msg)
    if data.shape != idx.shape:
        for i, (p, q) in enumerate(zip(data.shape, idx.shape, strict=True)):
            # Note: a data-dependent length (None) is checked by the backend
            if p != q and p != 1 and q != 1 and i != axis and None not in (p, q):
                msg = (
                    f"{fn}: shapes {data.shape} of x and {idx.shape} of indices do "
                    f"not broadcast outside axis {axis}"
                )
                raise ValueError(msg)
    dev = x._device
    try:
        res = dev._ops["take_along_axis"](data, idx, axis)
    except IndexError as exc:
        msg = f"{fn}: {exc}"
        raise IndexError(msg) from None
    return _wrap(res, x._dtype, dev)
