"""Small, fast argument checks shared by every section of the namespace.

Everything here is on the hot path: plain functions, ``type()`` identity tests
and dict look-ups only.  Error messages name the function and the argument.
"""

from __future__ import annotations

import math
import operator
import sys
from typing import Any, NoReturn, SupportsIndex, cast

import numpy as _np

from ._dtypes import CATEGORY_NAMES, DType, complex64, float32

# The standard dtype an ocean_ext dtype of each kind is checked as.
_STAND_IN = {"complex floating": complex64, "real floating": float32}

_SCALARS = (bool, int, float, complex)
_MAX_SIZE = sys.maxsize


def type_name(obj: object) -> str:
    """The name of ``obj``'s type for a message: qualified by its package
    where it is not a builtin (``numpy.bool``, not ``bool``)."""
    t = type(obj)
    module = t.__module__
    if module == "builtins":
        return t.__name__
    return f"{module.partition('.')[0]}.{t.__name__}"


def type_error(where: str, argname: str, expected: str, got: object) -> NoReturn:
    msg = f"{where}: `{argname}` must be {expected}, got {type_name(got)}" + (
        f" {got!r}" if isinstance(got, (int, float, str)) else ""
    )
    raise TypeError(msg)


def dtype_error(where: str, argname: str, allowed: set[DType], got: DType) -> NoReturn:
    wider = _STAND_IN.get(got._kind) if not got._standard else None
    if wider is not None and wider in allowed:
        # An ocean_ext dtype (float16, complex32) that is meaningful here but
        # has no kernel: "must be numeric" would mislead; name the way out.
        # (Where its standard stand-in is refused too, e.g. ordering complex
        # numbers, the error below is the one complex64 would get.)
        msg = (
            f"{where}: `{argname}` has dtype {got} (an ocean_ext dtype), which this "
            f"function does not support; use astype({argname}, {wider}) first"
        )
        raise TypeError(msg)
    kind = CATEGORY_NAMES.get(id(allowed), "a supported")
    hint = ""
    if kind in ("a floating-point", "a real floating-point"):
        hint = "; use astype(x, float64) first"
    msg = f"{where}: `{argname}` must have {kind} dtype, got {got}{hint}"
    raise TypeError(msg)


def device_error(
    where: str, names: tuple[str, str], devices: tuple[Any, Any]
) -> NoReturn:
    msg = (
        f"{where}: `{names[0]}` is on {devices[0]!r} and `{names[1]}` on "
        f"{devices[1]!r}; move one with to_device()"
    )
    raise ValueError(msg)


def check_int(value: object, where: str, argname: str, expected: str = "an int") -> int:
    """An integer argument (``k``, ``n``, ``num``, ``offset``, ...) as a Python int.

    Any object with ``__index__`` counts (``numpy.int64`` from NumPy shape
    arithmetic, as array-api-strict accepts; a 0-d integer array of ours),
    except bools and NumPy arrays; anything else is a TypeError naming
    ``argname``.
    """
    if value.__class__ is int:
        return value  # type: ignore[return-value]
    if isinstance(value, (bool, _np.bool_, _np.ndarray)) or not hasattr(
        type(value), "__index__"
    ):
        type_error(where, argname, expected, value)
    return operator.index(cast("SupportsIndex", value))


def check_size(n: int, where: str, what: str) -> None:
    """ValueError when ``n`` elements (or one dimension of ``n``) are more than
    any array can hold (a memory error would be NumPy's unnamed message).

    NumPy's limit is on bytes (``sys.maxsize``); elements of the widest
    dtype (16 bytes) set the bound here, so that no creation reaches NumPy's
    unnamed "array is too big"."""
    if n > _MAX_SIZE // 16:
        msg = f"{where}: {what} would have {n} elements, more than an array can hold"
        raise ValueError(msg)


def normalize_axis(axis: object, ndim: int, where: str, argname: str = "axis") -> int:
    """A single axis in ``[-ndim, ndim)`` as a non-negative int, else IndexError."""
    if type(axis) is not int:
        if isinstance(axis, bool) or not hasattr(type(axis), "__index__"):
            type_error(where, argname, "an int", axis)
        axis = operator.index(cast("SupportsIndex", axis))
    if -ndim <= axis < ndim:  # type: ignore[operator]
        return axis + ndim if axis < 0 else axis  # type: ignore[operator,return-value]
    # (NumPy's wording after the argument's name: downstream tests match it)
    msg = f"{where}: `{argname}`: axis {axis} is out of bounds for array of dimension {ndim}"
    raise IndexError(msg)


def normalize_axes(
    axis: object, ndim: int, where: str, argname: str = "axis"
) -> tuple[int, ...] | None:
    """None, an int or a tuple of ints -> None or a sorted tuple of unique axes."""
    if axis is None:
        return None
    if type(axis) is tuple:
        out = tuple(normalize_axis(a, ndim, where, argname) for a in axis)
        if len(set(out)) != len(out):
            msg = f"{where}: `{argname}` {axis} repeats an axis"
            raise ValueError(msg)
        return out
    if isinstance(axis, (list, str, float)) or axis.__class__ is bool:
        type_error(where, argname, "None, an int or a tuple of ints", axis)
    return (normalize_axis(axis, ndim, where, argname),)


def check_shape(shape: object, where: str, argname: str = "shape") -> tuple[int, ...]:
    """A shape argument (int or tuple of non-negative ints) as a tuple."""
    if type(shape) is int:
        if shape < 0:
            msg = f"{where}: `{argname}` must not be negative, got {shape}"
            raise ValueError(msg)
        check_size(shape, where, f"`{argname}` {shape}: the array")
        return (shape,)
    if type(shape) is list:
        # Note: the standard says tuple; scikit-learn passes lists, so accept them.
        shape = tuple(shape)
    if type(shape) is tuple:
        for s in shape:
            if type(s) is not int:
                shape = tuple(
                    check_int(s, where, argname, "a tuple of ints") for s in shape
                )
                break
        for s in shape:
            if s < 0:
                msg = f"{where}: `{argname}` must not have negative sizes, got {shape}"
                raise ValueError(msg)
        if len(shape) > 1:
            check_size(math.prod(shape), where, f"`{argname}` {shape}: the array")
        elif shape:
            check_size(shape[0], where, f"`{argname}` {shape}: the array")
        return shape
    n = check_int(shape, where, argname, "an int or a tuple of ints")
    return check_shape(n, where, argname)


def check_bool(value: object, where: str, argname: str) -> bool:
    if value is True or value is False:
        return value  # type: ignore[return-value]
    type_error(where, argname, "a bool", value)


def check_copy(value: object, where: str) -> bool | None:
    if value is None or value is True or value is False:
        return value  # type: ignore[return-value]
    type_error(where, "copy", "True, False or None", value)


def reduction_axes(axis: object, ndim: int, where: str) -> int | tuple[int, ...] | None:
    """The ``axis`` of a reduction: None, one non-negative int, or a tuple of them.

    A single int stays an int (the common case, and what backends handle
    fastest); out-of-range axes are IndexError, repeated axes ValueError.
    """
    if axis is None:
        return None
    if axis.__class__ is int and -ndim <= axis < ndim:  # type: ignore[operator]
        return axis + ndim if axis < 0 else axis  # type: ignore[operator,return-value]
    return normalize_axes(axis, ndim, where)


# past the corner of any matrix an int64 length can describe
_BEYOND = 2**62


def matrix_bounds(shape: tuple[Any, ...]) -> tuple[int, int]:
    """(rows, columns) of the matrices of ``shape``, for clamping a diagonal
    offset: a length that depends on the data (None, lazy backends) bounds
    nothing, so it counts as longer than any int64 length."""
    rows, cols = shape[-2:]
    return (_BEYOND if rows is None else rows, _BEYOND if cols is None else cols)
