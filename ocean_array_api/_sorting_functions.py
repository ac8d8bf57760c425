"""Sorting functions of the Array API standard: ``argsort``, ``sort``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array, _wrap
from ._helpers import dtype_error, normalize_axis, type_error

__all__ = ["argsort", "sort"]

_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"


def _sorter(name: str, summary: str) -> Callable[..., Array]:
    where = f"{name}()"
    allowed = _dt._real_numeric
    indices = name == "argsort"
    index_dtype = _dt.DEFAULT_INDEX

    @_hints.keyword_only
    def func(
        x: Array,
        /,
        *_positional: Any,
        axis: int = -1,
        descending: bool = False,
        stable: bool = True,
    ) -> Array:
        if _positional:
            raise _hints.positional_error(func, (x, *_positional))
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
        dt = x._dtype
        if dt not in allowed and not _ext.passes(dt, allowed):  # float16: NumPy's
            dtype_error(where, "x", allowed, dt)
        data = x._data
        ndim = data.ndim
        if axis.__class__ is not int or not -ndim <= axis < ndim:
            axis = normalize_axis(axis, ndim, where)
        elif axis < 0:
            axis += ndim
        if descending is not False and descending is not True:
            type_error(where, "descending", "a bool", descending)
        if stable is not True and stable is not False:
            type_error(where, "stable", "a bool", stable)
        dev = x._device
        res = dev._ops[name](data, axis, descending, stable)
        return _wrap(res, index_dtype if indices else dt, dev)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = (
        f"{summary}\n\nSee {_SPEC.format(name)}\n\nNotes\n-----\n"
        "Only real numeric dtypes are accepted (complex ordering is unspecified "
        "by the standard).  NaNs sort after every other value in ascending order "
        "and before them in descending order.  ``descending=True`` keeps equal "
        "elements in their original order when ``stable`` is true."
    )
    return func


argsort = _sorter("argsort", "Indices that sort ``x`` along ``axis``.")
sort = _sorter("sort", "A sorted copy of ``x`` along ``axis``.")
