"""Validation of indexing keys, and ``__setitem__``.

Accepted keys (the standard's, plus what NumPy users rely on where the standard
leaves behaviour to the implementation):

- integers, slices of integers, ``...``, ``None`` and tuples of them: basic
  indexing (a view).  An integer outside ``[-n, n)`` is an IndexError.
- integer arrays (of this namespace, integer dtype, same device), alone or in
  a tuple with integers; mixing them with slices, ``...`` or ``None`` follows
  NumPy (e.g. ``x[..., idx]``), which the standard leaves unspecified.
- a boolean array as the *sole* index (``x[mask]``, also ``x[(mask,)]``),
  whose shape must match the leading dimensions of ``x``.

Anything else (lists, NumPy arrays, floats, Python bools) is an IndexError
naming what came in.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as _np

from . import _dtypes as _dt
from ._array_object import Array, _may_overlap
from ._ext_hooks import check_writable, is_readonly_failure, readonly_error
from ._helpers import device_error

_BASIC = (int, slice, type(None), type(Ellipsis))


def _index_int(item: Any) -> int | None:
    """``item`` as an int when it is an integer scalar other than a bool: a
    Python int or any scalar with ``__index__`` (``numpy.int64`` from NumPy
    shape arithmetic, as array-api-strict accepts); None for anything else
    (arrays of any library have a shape, and are not integer scalars here)."""
    t = item.__class__
    if t is int:
        return item  # type: ignore[no-any-return]
    if (
        hasattr(t, "__index__")
        and not isinstance(item, (bool, _np.bool_, _np.ndarray))
        and (isinstance(item, _np.generic) or not hasattr(item, "shape"))
    ):
        return operator.index(item)
    return None


def _check_slice(s: slice, where: str) -> slice:
    """``s`` with integer-scalar bounds as ints; IndexError for other bounds."""
    parts = []
    for part in (s.start, s.stop, s.step):
        if part is not None and part.__class__ is not int:
            if (
                isinstance(part, Array)
                and part._dtype in _dt._integer
                and part.ndim == 0
            ):
                part = int(part)
            else:
                value = _index_int(part)
                if value is None:
                    msg = f"{where}: slice bounds must be ints or None, got {part!r}"
                    raise IndexError(msg)
                part = value
        parts.append(part)
    if parts[2] == 0:
        msg = f"{where}: slice step cannot be zero"
        raise ValueError(msg)
    return slice(*parts)


def index_data(item: Array, device: Any, where: str) -> Any:
    """The native data of the integer index array ``item`` for ``device``'s
    getitem/setitem: a uint64 one through the backend's ``index_array``
    entry where it has one (the CPU's refuses values beyond intp, which
    NumPy would wrap around to negative indices)."""
    if item._dtype is not _dt.uint64:
        return item._data
    convert = device._ops.get("index_array")
    if convert is None or getattr(convert, "_ocean_missing", False):
        return item._data  # the backend's getitem checks such values itself
    try:
        return convert(item._data)
    except IndexError as exc:
        msg = f"{where}: {exc}"
        raise IndexError(msg) from None


def native_key(x: Array, key: Any, where: str) -> Any:
    """Check ``key`` against the standard's rules for ``x``; return the native key."""
    items = key if key.__class__ is tuple else (key,)
    ndim = x._data.ndim
    shape = x._data.shape
    n_axes = 0  # axes consumed by the key
    ellipses = 0
    has_array = False
    out: list[Any] = []
    for item in items:
        t = item.__class__
        if t is int:
            n_axes += 1
            out.append(item)
        elif t is slice:
            n_axes += 1
            out.append(_check_slice(item, where))
        elif item is None:
            out.append(None)
        elif item is Ellipsis:
            ellipses += 1
            out.append(item)
        elif t is Array:
            if item._device is not x._device:
                device_error(where, ("x", "key"), (x._device, item._device))
            if item._dtype is _dt.bool:
                if len(items) != 1:
                    msg = (
                        f"{where}: a boolean array index must be the only index; "
                        f"index with x[mask] and then further, or use nonzero()"
                    )
                    raise IndexError(msg)
                m = item._data.shape
                if len(m) > ndim:
                    msg = (
                        f"{where}: boolean index of {len(m)} dimension(s) for an "
                        f"array of {ndim}"
                    )
                    raise IndexError(msg)
                for i, (a, b) in enumerate(zip(m, shape, strict=False)):
                    # (None: a data-dependent size, checked when it runs)
                    if a != b and a != 0 and a is not None and b is not None:
                        msg = (
                            f"{where}: boolean index has size {a} in dimension {i}, "
                            f"the array has {b}"
                        )
                        raise IndexError(msg)
                return item._data
            if item._dtype not in _dt._integer:
                msg = f"{where}: array indices must have an integer or boolean dtype, got {item._dtype}"
                raise IndexError(msg)
            has_array = True
            n_axes += 1
            out.append(index_data(item, x._device, where))
        else:
            value = _index_int(item)
            if value is not None:  # e.g. numpy.int64 scalars
                n_axes += 1
                out.append(value)
                continue
            msg = (
                f"{where}: {type(item).__name__} is not a valid index; use ints, slices, "
                f"..., None, integer arrays or a boolean array of this namespace"
            )
            raise IndexError(msg)
    if ellipses > 1:
        msg = f"{where}: an index can only have a single ellipsis ('...')"
        raise IndexError(msg)
    if n_axes > ndim:
        msg = (
            f"{where}: too many indices ({n_axes}) for an array of {ndim} dimension(s)"
        )
        raise IndexError(msg)
    # Bounds of integer indices (NumPy checks too, but its message names no axis).
    if not has_array:
        axis = 0
        for item in out:
            if item is Ellipsis:
                axis = ndim - (n_axes - axis)
                continue
            if item is None:
                continue
            if item.__class__ is int:
                size = shape[axis]
                # a data-dependent size (None, lazy backends): the backend decides
                if size is not None and not -size <= item < size:
                    msg = f"{where}: index {item} is out of bounds for axis {axis} with size {size}"
                    raise IndexError(msg)
            axis += 1
    return tuple(out)


def setitem(
    x: Array, key: Any, value: Any, failed: BaseException | None = None
) -> None:
    """``x[key] = value`` after checking key, value dtype and device.

    ``failed``: the error a quick attempt's kernel raised for this very call
    (``Array.__setitem__``'s, or the compiled one's).  The checks run as
    always, and then that error is reported as the kernel's own would be,
    without running the kernel again: it may have written part of its
    elements before failing, and a second run would start from them.
    """
    where = "__setitem__()"
    check_writable(x, where)
    nkey = native_key(x, key, where)
    v = native_value(x, value, where)
    # again: converting the key and value runs their own code (__index__,
    # __float__), which may have made x read-only (ocean_ext.set_readonly)
    check_writable(x, where)
    try:
        if failed is not None:
            raise failed
        x._device._ops["setitem"](x._data, nkey, v)
    except IndexError as exc:  # out-of-bounds index arrays
        msg = f"{where}: {exc}"
        raise IndexError(msg) from None
    except ValueError as exc:
        if is_readonly_failure(exc):
            raise readonly_error(where) from None
        msg = f"{where}: {exc}"
        raise ValueError(msg) from None


def native_value(x: Array, value: Any, where: str) -> Any:
    """The native form of a value assigned into ``x`` (``__setitem__``'s rules).

    An array must be on ``x``'s device with a dtype that promotes to
    ``x.dtype``; a Python scalar must suit ``x.dtype``.  Also used by
    ``ocean_ext`` index objects.
    """
    dt = x._dtype
    if value.__class__ is Array:
        if value._device is not x._device:
            device_error(where, ("x", "value"), (x._device, value._device))
        vdt = value._dtype
        if vdt is not dt and _dt._PROMOTION.get((vdt, dt)) is not dt:
            msg = (
                f"{where}: cannot assign {vdt} values to an array of dtype {dt} "
                f"without changing its dtype; use astype(value, {dt}) first"
            )
            raise TypeError(msg)
        if vdt is not dt and not (vdt._standard and dt._standard):
            from ._ext_dtypes import convert  # ocean_ext dtypes: a new array

            return convert(x._device, value._data, vdt, dt, where)
        v = value._data
        if _may_overlap(v, x._data):
            v = x._device._ops["copy"](v)  # the source overlaps: copy it first
        return v
    from ._elementwise_functions import check_int_range, check_scalar

    v = check_scalar(value, dt, where, "value", allow_complex_upcast=False)
    if not dt._standard:  # an ocean_ext dtype: the value in its storage
        from ._ext_dtypes import scalar_native

        return scalar_native(x._device, v, dt, where)
    if v.__class__ is int and dt in _dt._integer:
        check_int_range(v, dt, where, "value")  # NumPy's error has no name
    return v
