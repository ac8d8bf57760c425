"""Utility functions of the Array API standard: ``all``, ``any``, ``diff``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array, _wrap
from ._dtypes import promote
from ._helpers import (
    check_int,
    device_error,
    dtype_error,
    normalize_axis,
    reduction_axes,
    type_error,
)

__all__ = ["all", "any", "diff"]

_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"


def _truth_reduction(name: str, summary: str) -> Callable[..., Array]:
    where = f"{name}()"
    _bool = _dt.bool

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
        data = x._data
        if not x._dtype._standard:
            data = _ext.truth_data(x, where)  # complex32: x != 0
        if axis is not None:
            axis = reduction_axes(axis, data.ndim, where)
        if keepdims is not False and keepdims is not True:
            type_error(where, "keepdims", "a bool", keepdims)
        dev = x._device
        res = dev._ops[name](data, axis, keepdims)
        if res.__class__ is not dev._native:
            res = dev._backend.to_native(res)
        return _wrap(res, _bool, dev)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"{summary}\n\nSee {_SPEC.format(name)}"
    return func


all = _truth_reduction(  # noqa: A001
    "all", "Whether every element of ``x`` is true (nonzero) over ``axis``."
)
any = _truth_reduction(  # noqa: A001
    "any", "Whether some element of ``x`` is true (nonzero) over ``axis``."
)


def _diff_extra(
    arr: Any, argname: str, x: Array, axis: int, dt: Any
) -> tuple[Any, Any]:
    """Check a ``prepend``/``append`` array against ``x``; (native, promoted dtype)."""
    where = "diff()"
    if arr.__class__ is not Array:
        type_error(where, argname, "an array or None", arr)
    if arr._device is not x._device:
        device_error(where, ("x", argname), (x._device, arr._device))
    if arr._dtype not in _dt._numeric:
        dtype_error(where, argname, _dt._numeric, arr._dtype)
    dt = promote(dt, arr._dtype, where)
    xs = x._data.shape
    s = arr._data.shape
    if len(s) != len(xs) or _shape_mismatch(s, xs, axis):
        msg = (
            f"{where}: `{argname}` must have the shape of x except along axis {axis}; "
            f"x has shape {xs}, {argname} has shape {s}"
        )
        raise ValueError(msg)
    return arr._data, dt


def _shape_mismatch(a: tuple[int, ...], b: tuple[int, ...], skip: int) -> bool:
    """Whether shapes ``a`` and ``b`` (of one length) differ outside axis ``skip``."""
    # a loop, not any(): ``any`` is this module's array function
    for i, (p, q) in enumerate(zip(a, b, strict=True)):  # noqa: SIM110
        if p != q and i != skip:
            return True
    return False


@_hints.keyword_only
def diff(
    x: Array,
    /,
    *_positional: Any,
    axis: int = -1,
    n: int = 1,
    prepend: Array | None = None,
    append: Array | None = None,
) -> Array:
    """The ``n``-th forward difference of ``x`` along ``axis``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.diff.html

    Notes
    -----
    ``prepend`` and ``append`` must be numeric arrays on the device of ``x``
    with its shape except along ``axis``; their dtypes are promoted with that of
    ``x`` (the standard leaves this to the implementation), so the result has
    the promoted dtype.  ``n`` larger than the length along ``axis`` gives an
    empty axis.
    """
    if _positional:
        raise _hints.positional_error(diff, (x, *_positional))
    where = "diff()"
    if x.__class__ is not Array:
        type_error(where, "x", "an array", x)
    dt = x._dtype
    if dt not in _dt._numeric:
        if not dt._standard:
            return _diff_via_proxy(x, axis, n, prepend, append)
        dtype_error(where, "x", _dt._numeric, dt)
    data = x._data
    ndim = data.ndim
    if axis.__class__ is not int or not -ndim <= axis < ndim:
        axis = normalize_axis(axis, ndim, where)
    elif axis < 0:
        axis += ndim
    n = check_int(n, where, "n")
    if n < 0:
        msg = f"{where}: `n` must not be negative, got {n}"
        raise ValueError(msg)
    pre = app = None
    if (prepend.__class__ is Array and not prepend._dtype._standard) or (
        append.__class__ is Array and not append._dtype._standard
    ):
        return _diff_via_proxy(x, axis, n, prepend, append)
    if prepend is not None:
        pre, dt = _diff_extra(prepend, "prepend", x, axis, dt)
    if append is not None:
        app, dt = _diff_extra(append, "append", x, axis, dt)
    dev = x._device
    res = dev._ops["diff"](data, axis, n, pre, app)
    return _wrap(res, dt, dev)


def _diff_via_proxy(x: Array, axis: Any, n: Any, prepend: Any, append: Any) -> Array:
    """``diff`` with an ocean_ext dtype taking part: the ``n``-th differences
    of the float32/complex64 values, rounded once to the result dtype."""
    kwargs = {"axis": axis, "n": n, "prepend": prepend, "append": append}
    return _ext.via_proxy(  # type: ignore[no-any-return]
        diff, "diff()", _dt._numeric, {"x": x}, kwargs, ("prepend", "append")
    )
