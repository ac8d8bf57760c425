"""Searching functions of the Array API standard.

``argmax``, ``argmin``, ``count_nonzero``, ``nonzero``, ``searchsorted`` and
``where``.  Index results have the default index dtype (int64).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array, _compiled, _wrap
from ._dtypes import promote
from ._elementwise_functions import _resolve, check_int_range, check_scalar
from ._helpers import (
    device_error,
    dtype_error,
    normalize_axis,
    reduction_axes,
    type_error,
)

__all__ = ["argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where"]

_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"

_index = _dt.DEFAULT_INDEX


def _arg_extremum(name: str, summary: str) -> Callable[..., Array]:
    fn = f"{name}()"
    allowed = _dt._real_numeric

    @_hints.keyword_only
    def func(
        x: Array, /, *_positional: Any, axis: int | None = None, keepdims: bool = False
    ) -> Array:
        if _positional:
            raise _hints.positional_error(func, (x, *_positional))
        if x.__class__ is not Array:
            type_error(fn, "x", "an array", x)
        dt = x._dtype
        if dt not in allowed and not _ext.passes(dt, allowed):  # float16: NumPy's
            dtype_error(fn, "x", allowed, dt)
        data = x._data
        ndim = data.ndim
        if axis is not None:
            if axis.__class__ is not int or not -ndim <= axis < ndim:
                axis = normalize_axis(axis, ndim, fn)
            elif axis < 0:
                axis += ndim
        if keepdims is not False and keepdims is not True:
            type_error(fn, "keepdims", "a bool", keepdims)
        dev = x._device
        if data.size == 0 and (axis is None or data.shape[axis] == 0):
            shape = list(data.shape)
            if axis is not None and 0 in shape[:axis] + shape[axis + 1 :]:
                # nothing to search, but also no result element: an empty result
                shape[axis] = 1
                if not keepdims:
                    del shape[axis]
                res = dev._ops["empty"](dev._index, tuple(shape), _index._native)
                return _wrap(res, _index, dev)
            msg = (
                f"{fn}: `x` has no elements to search along the axis "
                f"(shape {data.shape}, axis={axis})"
            )
            raise ValueError(msg)
        res = dev._ops[name](data, axis, keepdims)
        if res.__class__ is not dev._native:
            res = dev._backend.to_native(res)
        return _wrap(res, _index, dev)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = (
        f"{summary}\n\nSee {_SPEC.format(name)}\n\nNotes\n-----\n"
        "Only real numeric dtypes are accepted.  The first occurrence wins; a NaN "
        "counts as the extreme value.  An empty search is a ValueError."
    )
    return func


argmax = _arg_extremum(
    "argmax", "Indices of the maximum values of ``x`` along ``axis``."
)
argmin = _arg_extremum(
    "argmin", "Indices of the minimum values of ``x`` along ``axis``."
)


@_hints.keyword_only
def count_nonzero(
    x: Array,
    /,
    *_positional: Any,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """Number of nonzero elements of ``x`` over ``axis``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.count_nonzero.html
    """
    if _positional:
        raise _hints.positional_error(count_nonzero, (x, *_positional))
    if x.__class__ is not Array:
        type_error("count_nonzero()", "x", "an array", x)
    data = x._data
    if not x._dtype._standard:
        data = _ext.truth_data(x, "count_nonzero()")  # complex32: x != 0
    if axis is not None:
        axis = reduction_axes(axis, data.ndim, "count_nonzero()")
    if keepdims is not False and keepdims is not True:
        type_error("count_nonzero()", "keepdims", "a bool", keepdims)
    dev = x._device
    res = dev._ops["count_nonzero"](data, axis, keepdims)
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return _wrap(res, _index, dev)


def nonzero(x: Array, /) -> tuple[Array, ...]:
    """Indices of the nonzero elements of ``x``, one array per dimension.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.nonzero.html

    Notes
    -----
    A 0-dimensional ``x`` is a ValueError, as the standard requires.
    """
    if x.__class__ is not Array:
        type_error("nonzero()", "x", "an array", x)
    data = x._data
    if not x._dtype._standard:
        data = _ext.truth_data(x, "nonzero()")  # complex32: x != 0
    if data.ndim == 0:
        msg = (
            "nonzero(): `x` must have at least one dimension, got a 0-dimensional array"
        )
        raise ValueError(msg)
    dev = x._device
    res = dev._ops["nonzero"](data)
    if len(res) == 1:
        return (_wrap(res[0], _index, dev),)
    return tuple([_wrap(i, _index, dev) for i in res])


@_hints.keyword_only
def searchsorted(
    x1: Array,
    x2: Array | int | float,
    /,
    *_positional: Any,
    side: Literal["left", "right"] = "left",
    sorter: Array | None = None,
) -> Array:
    """Indices at which to insert ``x2`` into the sorted ``x1`` to keep it sorted.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.searchsorted.html

    Notes
    -----
    ``x1`` and ``x2`` must have real numeric dtypes that promote together.  NaNs
    sort last, consistently with ``sort``.
    """
    if _positional:
        raise _hints.positional_error(searchsorted, (x1, x2, *_positional))
    fn = "searchsorted()"
    if x1.__class__ is not Array:
        type_error(fn, "x1", "an array", x1)
    dt = x1._dtype
    if dt not in _dt._real_numeric and not _ext.passes(dt, _dt._real_numeric):
        dtype_error(fn, "x1", _dt._real_numeric, dt)
    if x1._data.ndim != 1:
        msg = f"{fn}: `x1` must be one-dimensional, got {x1._data.ndim} dimensions"
        raise ValueError(msg)
    dev = x1._device
    if x2.__class__ is Array:
        if x2._dtype is not dt:
            if x2._dtype not in _dt._real_numeric and not _ext.passes(
                x2._dtype, _dt._real_numeric
            ):
                dtype_error(fn, "x2", _dt._real_numeric, x2._dtype)
            promote(dt, x2._dtype, fn)
        if x2._device is not dev:
            device_error(fn, ("x1", "x2"), (dev, x2._device))
        v = x2._data
    else:
        # A bool or complex scalar, or a float with integer x1, is a TypeError.
        v = check_scalar(x2, dt, fn, "x2", allow_complex_upcast=False)
    if side.__class__ is not str:
        type_error(fn, "side", "'left' or 'right'", side)
    if side != "left" and side != "right":
        msg = f"{fn}: `side` must be 'left' or 'right', got {side!r}"
        raise ValueError(msg)
    s = None
    if sorter is not None:
        if sorter.__class__ is not Array:
            type_error(fn, "sorter", "an array or None", sorter)
        if sorter._dtype not in _dt._integer:
            dtype_error(fn, "sorter", _dt._integer, sorter._dtype)
        if sorter._device is not dev:
            device_error(fn, ("x1", "sorter"), (dev, sorter._device))
        if sorter._data.shape != x1._data.shape:
            msg = f"{fn}: `sorter` must have the shape of x1 {x1._data.shape}, got {sorter._data.shape}"
            raise ValueError(msg)
        s = sorter._data
    res = dev._ops["searchsorted"](x1._data, v, side, s)
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return _wrap(res, _index, dev)


@_hints.required(2)
def where(
    condition: Array,
    x1: Array | int | float | complex | bool = _hints.MISSING,
    x2: Array | int | float | complex | bool = _hints.MISSING,
    /,
) -> Array:
    """Elements of ``x1`` where ``condition`` is true, else of ``x2``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.where.html

    Notes
    -----
    ``condition`` must have the bool dtype.  ``x1`` and ``x2`` follow the
    standard's promotion rules, including Python scalars (at least one of them
    must be an array).
    """
    if x2 is _hints.MISSING:  # where(mask): NumPy's nonzero
        raise _hints.positional_error(
            where, (condition, x1)[: 2 - (x1 is _hints.MISSING)]
        )
    fn = "where()"
    if condition.__class__ is not Array:
        type_error(fn, "condition", "an array", condition)
    if condition._dtype is not _dt.bool:
        dtype_error(fn, "condition", _dt._boolean, condition._dtype)
    if x1.__class__ is Array and x2.__class__ is Array and x1._dtype is x2._dtype:
        dt = x1._dtype
        dev = x1._device
        if x2._device is not dev:
            device_error(fn, ("x1", "x2"), (dev, x2._device))
        a = x1._data
        b = x2._data
    else:
        a, b, dt, dev = _resolve(fn, x1, x2)
        if dt in _dt._integer:
            # Note: NumPy's where() promotes an out-of-range Python int to a
            # wider dtype, which the cast back to ``dt`` would wrap around.
            for value, argname in ((a, "x1"), (b, "x2")):
                if value.__class__ is int:
                    check_int_range(value, dt, fn, argname)
    if condition._device is not dev:
        device_error(
            fn,
            ("condition", "x1" if x1.__class__ is Array else "x2"),
            (condition._device, dev),
        )
    try:
        res = dev._ops["where"](condition._data, a, b)
    except ValueError as exc:
        msg = f"{fn}: {exc}"
        raise ValueError(msg) from None
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    if res.dtype is not dt._native and res.dtype != dt._native:
        res = dev._ops["astype"](res, dt._native, False)
    return _wrap(res, dt, dev)


# The compiled fast path (docs/dev/fastpath.md) in front of where().
where = _compiled(where, "where")
