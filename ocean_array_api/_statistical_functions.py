"""Statistical functions of the Array API standard: reductions and cumulative sums.

Each function checks its arguments once (array, dtype, axes, ``keepdims``,
``dtype=``) and calls one backend kernel with already normalised axes.  The
result dtype is decided here, never taken from the backend: sums and products
of integers widen to the default integer dtype (``uint64`` for unsigned
integers), floating-point input keeps its dtype.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as _np

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array, _wrap
from ._dtypes import DType, check_dtype_arg
from ._helpers import dtype_error, normalize_axis, reduction_axes, type_error

__all__ = [
    "cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std",
    "sum", "var",
]  # fmt: skip

_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"

# Result dtype of sum/prod/cumulative_* with dtype=None, for the standard
# dtypes; other numeric dtypes (ocean_ext's float16, complex32) keep theirs.
_ACCUMULATE: dict[DType, DType] = {
    _dt.int8: _dt.DEFAULT_INT, _dt.int16: _dt.DEFAULT_INT,
    _dt.int32: _dt.DEFAULT_INT, _dt.int64: _dt.DEFAULT_INT,
    _dt.uint8: _dt.uint64, _dt.uint16: _dt.uint64,
    _dt.uint32: _dt.uint64, _dt.uint64: _dt.uint64,
    _dt.float32: _dt.float32, _dt.float64: _dt.float64,
    _dt.complex64: _dt.complex64, _dt.complex128: _dt.complex128,
}  # fmt: skip

# How wide a kind is: a ``dtype=`` argument may not be of a narrower kind
# than ``x`` (no float -> int, no complex -> real).
_KIND_RANK = {
    "signed integer": 1,
    "unsigned integer": 1,
    "real floating": 2,
    "complex floating": 3,
}


def _accumulation_dtype(x: Array, dtype: Any, where: str) -> DType:
    """The result dtype of sum/prod/cumulative_* (``dtype=`` checked)."""
    xdt = x._dtype
    if xdt not in _dt._numeric:
        dtype_error(where, "x", _dt._numeric, xdt)
    if dtype is None:
        return _ACCUMULATE.get(xdt, xdt)
    rdt = check_dtype_arg(dtype, where)
    if rdt not in _dt._numeric or _KIND_RANK[rdt._kind] < _KIND_RANK[xdt._kind]:
        msg = (
            f"{where}: `dtype` {rdt} cannot hold the result for input of dtype {xdt}; "
            f"pass a numeric dtype of the same or a wider kind (integer < real "
            f"floating < complex floating), or convert x with astype() first"
        )
        raise TypeError(msg)
    return rdt


def _keepdims_error(where: str, keepdims: Any) -> None:
    type_error(where, "keepdims", "a bool", keepdims)


def _empty_reduction(
    shape: tuple[int, ...], axis: int | tuple[int, ...] | None
) -> bool:
    """For an array of size 0: whether reducing over ``axis`` leaves some
    result element with nothing to reduce."""
    if axis is None:
        return True
    axes = (axis,) if axis.__class__ is int else axis
    count = rest = 1
    for i, d in enumerate(shape):
        if i in axes:  # type: ignore[operator]
            count *= d
        else:
            rest *= d
    return count == 0 and rest != 0


def _doc(name: str, summary: str, notes: str = "") -> str:
    doc = f"{summary}\n\nSee {_SPEC.format(name)}"
    if notes:
        doc += f"\n\nNotes\n-----\n{notes}"
    return doc


# --- sum, prod -------------------------------------------------------------------
def _accumulating(name: str, summary: str) -> Callable[..., Array]:
    where = f"{name}()"

    @_hints.keyword_only
    def func(
        x: Array,
        /,
        *_positional: Any,
        axis: int | tuple[int, ...] | None = None,
        dtype: DType | None = None,
        keepdims: bool = False,
    ) -> Array:
        if _positional:
            raise _hints.positional_error(func, (x, *_positional))
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
        xdt = x._dtype
        if dtype is None:
            rdt = _ACCUMULATE.get(xdt)
            if rdt is None:
                if not xdt._standard:  # an ocean_ext dtype: its own kernels
                    return _ext.accumulate(name, x, axis, dtype, keepdims)
                rdt = _accumulation_dtype(x, None, where)
        else:
            if not xdt._standard:
                return _ext.accumulate(name, x, axis, dtype, keepdims)
            rdt = _accumulation_dtype(x, dtype, where)
        data = x._data
        if axis is not None:
            axis = reduction_axes(axis, data.ndim, where)
        if keepdims is not False and keepdims is not True:
            _keepdims_error(where, keepdims)
        dev = x._device
        res = dev._ops[name](data, axis, rdt._native, keepdims)
        if res.__class__ is not dev._native:
            res = dev._backend.to_native(res)
        return _wrap(res, rdt, dev)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _doc(
        name,
        summary,
        "Integer input accumulates in int64 (signed) or uint64 (unsigned), as the "
        "standard says; floating-point input keeps its dtype.  ``dtype=`` may be "
        "any numeric dtype of the same or a wider kind than ``x`` (integer < real "
        "floating < complex floating); a narrower kind is a TypeError.",
    )
    return func


sum = _accumulating("sum", "Sum of the elements of ``x`` over ``axis``.")  # noqa: A001
prod = _accumulating("prod", "Product of the elements of ``x`` over ``axis``.")


# --- max, min --------------------------------------------------------------------
def _extremum(name: str, summary: str) -> Callable[..., Array]:
    where = f"{name}()"
    allowed = _dt._real_numeric

    @_hints.keyword_only
    def func(
        x: Array,
        /,
        *_positional: Any,
        axis: int | tuple[int, ...] | None = None,
        keepdims: bool = False,
    ) -> Array:
        if _positional:
            raise _hints.positional_error(func, (x, *_positional))
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
        dt = x._dtype
        if dt not in allowed and not _ext.passes(dt, allowed):  # float16: NumPy's
            dtype_error(where, "x", allowed, dt)
        data = x._data
        if axis is not None:
            axis = reduction_axes(axis, data.ndim, where)
        if keepdims is not False and keepdims is not True:
            _keepdims_error(where, keepdims)
        if data.size == 0 and _empty_reduction(data.shape, axis):
            msg = (
                f"{where}: the {'maximum' if name == 'max' else 'minimum'} of zero "
                f"elements is undefined (x has shape {data.shape}, axis={axis})"
            )
            raise ValueError(msg)
        dev = x._device
        res = dev._ops[name](data, axis, keepdims)
        if res.__class__ is not dev._native:
            res = dev._backend.to_native(res)
        return _wrap(res, dt, dev)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _doc(
        name,
        summary,
        "NaN propagates.  Reducing over zero elements (where the standard leaves "
        "the result to the implementation) raises ValueError.",
    )
    return func


max = _extremum("max", "Maximum of the elements of ``x`` over ``axis``.")  # noqa: A001
min = _extremum("min", "Minimum of the elements of ``x`` over ``axis``.")  # noqa: A001


# --- mean, std, var ----------------------------------------------------------------
@_hints.keyword_only
def mean(
    x: Array,
    /,
    *_positional: Any,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
) -> Array:
    """Arithmetic mean of the elements of ``x`` over ``axis``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.mean.html

    Notes
    -----
    Integer input is a TypeError (the standard recommends floating-point input
    only); use ``astype(x, float64)`` first.  The mean of zero elements is NaN
    (NaN + NaN j for complex input).
    """
    if _positional:
        raise _hints.positional_error(mean, (x, *_positional))
    if x.__class__ is not Array:
        type_error("mean()", "x", "an array", x)
    dt = x._dtype
    if dt not in _dt._floating:
        if not dt._standard:  # an ocean_ext dtype: its own kernels
            return _ext.mean(x, axis, keepdims)
        dtype_error("mean()", "x", _dt._floating, dt)
    data = x._data
    if axis is not None:
        axis = reduction_axes(axis, data.ndim, "mean()")
    if keepdims is not False and keepdims is not True:
        _keepdims_error("mean()", keepdims)
    dev = x._device
    res = dev._ops["mean"](data, axis, keepdims)
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return _wrap(res, dt, dev)


def _correction_arg(correction: Any, where: str) -> int | float:
    """``correction``: a real number (Python or NumPy scalar), never a bool."""
    if correction.__class__ is not bool and isinstance(correction, (int, float)):
        return correction  # type: ignore[no-any-return]
    if isinstance(correction, (_np.integer, _np.floating)):
        return correction.item()  # type: ignore[no-any-return]
    type_error(where, "correction", "an int or a float", correction)


def _spread(name: str, summary: str) -> Callable[..., Array]:
    where = f"{name}()"
    allowed = _dt._real_floating

    @_hints.keyword_only
    def func(
        x: Array,
        /,
        *_positional: Any,
        axis: int | tuple[int, ...] | None = None,
        correction: int | float = 0.0,
        keepdims: bool = False,
    ) -> Array:
        if _positional:
            raise _hints.positional_error(func, (x, *_positional))
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
        dt = x._dtype
        if dt not in allowed:
            if not dt._standard:  # float16: two passes in float32, rounded once
                kwargs = {"axis": axis, "correction": correction, "keepdims": keepdims}
                return _ext.via_proxy(func, where, allowed, {"x": x}, kwargs)  # type: ignore[no-any-return]
            dtype_error(where, "x", allowed, dt)
        data = x._data
        if axis is not None:
            axis = reduction_axes(axis, data.ndim, where)
        if correction.__class__ is not float and correction.__class__ is not int:
            correction = _correction_arg(correction, where)
        if keepdims is not False and keepdims is not True:
            _keepdims_error(where, keepdims)
        dev = x._device
        res = dev._ops[name](data, axis, correction, keepdims)
        if res.__class__ is not dev._native:
            res = dev._backend.to_native(res)
        return _wrap(res, dt, dev)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _doc(
        name,
        summary,
        "Only real floating-point input is accepted (integer input is a "
        "TypeError; use astype() first).  Where the number of elements minus "
        "``correction`` is at most zero the result is NaN.",
    )
    return func


std = _spread("std", "Standard deviation of the elements of ``x`` over ``axis``.")
var = _spread("var", "Variance of the elements of ``x`` over ``axis``.")


# --- cumulative_sum, cumulative_prod -------------------------------------------------
def _cumulative(name: str, summary: str, identity: str) -> Callable[..., Array]:
    where = f"{name}()"

    @_hints.keyword_only
    def func(
        x: Array,
        /,
        *_positional: Any,
        axis: int | None = None,
        dtype: DType | None = None,
        include_initial: bool = False,
    ) -> Array:
        if _positional:
            raise _hints.positional_error(func, (x, *_positional))
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
        if not x._dtype._standard or (dtype.__class__ is DType and not dtype._standard):
            # an ocean_ext dtype: accumulated in float32/complex64, each
            # partial result rounded once
            _ext.accumulation_dtype(x._dtype, dtype, where)
            kwargs = {"axis": axis, "dtype": dtype, "include_initial": include_initial}
            return _ext.via_proxy(func, where, _dt._numeric, {"x": x}, kwargs)  # type: ignore[no-any-return]
        rdt = _accumulation_dtype(x, dtype, where)
        data = x._data
        ndim = data.ndim
        if ndim == 0:
            msg = f"{where}: `x` must have at least one dimension, got a 0-dimensional array"
            raise ValueError(msg)
        if axis is None:
            if ndim != 1:
                msg = (
                    f"{where}: `axis` is required for arrays of more than one "
                    f"dimension (x has {ndim})"
                )
                raise ValueError(msg)
            axis = 0
        elif axis.__class__ is not int or not 0 <= axis < ndim:  # type: ignore[operator]
            axis = normalize_axis(axis, ndim, where)
        if include_initial is not False and include_initial is not True:
            type_error(where, "include_initial", "a bool", include_initial)
        dev = x._device
        res = dev._ops[name](data, axis, rdt._native, include_initial)
        return _wrap(res, rdt, dev)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _doc(
        name,
        summary,
        f"The result dtype follows ``sum``/``prod``.  With ``include_initial`` the "
        f"result starts with {identity} along ``axis``.  A 0-dimensional ``x`` (left "
        f"unspecified by the standard) is a ValueError.",
    )
    return func


cumulative_sum = _cumulative(
    "cumulative_sum", "Cumulative sum of ``x`` along ``axis``.", "zero"
)
cumulative_prod = _cumulative(
    "cumulative_prod", "Cumulative product of ``x`` along ``axis``.", "one"
)
