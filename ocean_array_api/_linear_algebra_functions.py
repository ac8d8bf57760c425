"""Linear algebra functions of the main namespace, and the ``@`` operators.

``matmul``, ``matrix_transpose``, ``tensordot`` and ``vecdot`` check their
arguments once (types, dtypes, devices, shapes, axes) and call the backend's
kernel of the same name.  ``linalg`` re-exports them (the standard makes them
aliases) and reuses the small helpers defined here.  The operators ``@``,
``@=`` and the reflected ``@`` are installed on :class:`Array` at the bottom of
this file from :func:`matmul` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array, _wrap
from ._dtypes import DType, promote
from ._helpers import (
    check_int,
    device_error,
    dtype_error,
    normalize_axis,
    type_error,
)

__all__ = ["matmul", "matrix_transpose", "tensordot", "vecdot"]

_numeric = _dt._numeric


# --- helpers shared with linalg ----------------------------------------------
def _finish(res: Any, dt: DType, dev: Any) -> Array:
    """Wrap a backend result (NumPy returns scalars for 0-d results).

    For an ocean_ext ``dt`` the result was computed in its proxy dtype (fft)
    and is rounded to ``dt`` here.
    """
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    if not dt._standard:
        res = _ext.from_proxy(dev, res, dt)
    return _wrap(res, dt, dev)


def _check_array(x: Any, where: str, argname: str, allowed: set[DType]) -> None:
    """TypeError unless ``x`` is an Array with a dtype in ``allowed``."""
    if x.__class__ is not Array:
        type_error(where, argname, "an array", x)
    if x._dtype not in allowed:
        dtype_error(where, argname, allowed, x._dtype)


def _two_arrays(x1: Any, x2: Any, where: str, allowed: set[DType]) -> tuple[DType, Any]:
    """Check two array operands -> (promoted dtype, common device)."""
    _check_array(x1, where, "x1", allowed)
    _check_array(x2, where, "x2", allowed)
    dt = x1._dtype
    if x2._dtype is not dt:
        dt = promote(dt, x2._dtype, where)
    dev = x1._device
    if x2._device is not dev:
        device_error(where, ("x1", "x2"), (dev, x2._device))
    return dt, dev


def _broadcast_shapes(
    s1: tuple[Any, ...], s2: tuple[Any, ...], where: str, what: str
) -> tuple[Any, ...]:
    """Broadcast two shapes (sizes may be None: unknown), else ValueError."""
    if s1 == s2:
        return s1
    n1, n2 = len(s1), len(s2)
    a1 = (1,) * (n2 - n1) + tuple(s1) if n1 < n2 else s1
    a2 = (1,) * (n1 - n2) + tuple(s2) if n2 < n1 else s2
    out = []
    for a, b in zip(a1, a2, strict=True):
        if a == b or b == 1:
            out.append(a)
        elif a == 1:
            out.append(b)
        elif a is None or b is None:
            out.append(a if b is None else b)
        else:
            msg = f"{where}: {what} {tuple(s1)} and {tuple(s2)} cannot be broadcast together"
            raise ValueError(msg)
    return tuple(out)


def _negative_axis(axis: Any, ndim: int, where: str) -> int:
    """An ``axis`` in ``[-ndim, -1]`` (the standard's rule for vecdot and cross)."""
    axis = check_int(axis, where, "axis")
    if -ndim <= axis <= -1:
        return axis  # type: ignore[no-any-return]
    msg = (
        f"{where}: `axis` must be a negative int in [-{ndim}, -1] (counted from the "
        f"last axis of the arrays, {ndim} being the smaller number of dimensions), "
        f"got {axis}"
    )
    raise IndexError(msg)


# --- matmul ----------------------------------------------------------------------
def _matmul_shape(
    s1: tuple[Any, ...], s2: tuple[Any, ...], where: str
) -> tuple[Any, ...]:
    """The result shape of ``matmul`` for operand shapes ``s1``, ``s2``, else ValueError."""
    n1 = len(s1)
    n2 = len(s2)
    if n1 == 0 or n2 == 0:
        msg = (
            f"{where}: operands must have at least one dimension, got shapes "
            f"{s1} and {s2}; use multiply() for scalars"
        )
        raise ValueError(msg)
    k1 = s1[-1]
    k2 = s2[-2] if n2 > 1 else s2[0]
    if k1 != k2 and k1 is not None and k2 is not None:
        msg = (
            f"{where}: the last dimension of `x1` (shape {s1}) must match the "
            f"{'second-to-last' if n2 > 1 else 'only'} dimension of `x2` (shape {s2}), "
            f"got {k1} and {k2}"
        )
        raise ValueError(msg)
    if n1 == 2 and n2 == 2:
        return (s1[0], s2[1])
    if n1 <= 2 and n2 <= 2:
        batch: tuple[Any, ...] = ()
    else:
        batch = _broadcast_shapes(s1[:-2], s2[:-2], where, "the stack shapes")
    return batch + ((s1[-2],) if n1 > 1 else ()) + ((s2[-1],) if n2 > 1 else ())


def matmul(x1: Array, x2: Array, /) -> Array:
    """Matrix product of two arrays (the ``@`` operator).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.matmul.html
    """
    if (
        x1.__class__ is Array
        and x2.__class__ is Array
        and x1._dtype is x2._dtype
        and x1._device is x2._device
        and x1._dtype in _numeric
    ):
        dt = x1._dtype
        dev = x1._device
    else:
        if _ext.is_ext(x1) or _ext.is_ext(x2):  # ocean_ext dtypes: own kernels
            return _ext.matmul(x1, x2)
        dt, dev = _two_arrays(x1, x2, "matmul()", _numeric)
    a = x1._data
    b = x2._data
    sa = a.shape
    sb = b.shape
    if len(sa) != 2 or len(sb) != 2 or sa[1] != sb[0]:
        _matmul_shape(sa, sb, "matmul()")
    res = dev._ops["matmul"](a, b)
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return _wrap(res, dt, dev)


def matrix_transpose(x: Array, /) -> Array:
    """Transpose of each matrix (the last two axes) of ``x``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.matrix_transpose.html
    """
    if x.__class__ is not Array:
        type_error("matrix_transpose()", "x", "an array", x)
    data = x._data
    if data.ndim < 2:
        msg = (
            f"matrix_transpose(): `x` must have at least 2 dimensions, got shape "
            f"{data.shape}"
        )
        raise ValueError(msg)
    dev = x._device
    return _wrap(dev._ops["matrix_transpose"](data), x._dtype, dev)


def _axis_list(seq: Any, ndim: int, where: str, which: str) -> tuple[int, ...]:
    if seq.__class__ not in (tuple, list):
        type_error(where, "axes", "an int or a tuple of two sequences of ints", seq)
    out = tuple(normalize_axis(a, ndim, where, f"axes[{which}]") for a in seq)
    if len(set(out)) != len(out):
        msg = f"{where}: `axes[{which}]` {tuple(seq)} repeats an axis"
        raise ValueError(msg)
    return out


@_hints.keyword_only
def tensordot(
    x1: Array,
    x2: Array,
    /,
    *_positional: Any,
    axes: int | tuple[Sequence[int], Sequence[int]] = 2,
) -> Array:
    """Tensor contraction of ``x1`` and ``x2`` over the given axes.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.tensordot.html
    """
    if _positional:
        raise _hints.positional_error(tensordot, (x1, x2, *_positional))
    where = "tensordot()"
    if _ext.is_ext(x1) or _ext.is_ext(x2):  # float32/complex64, rounded once
        return _ext.via_proxy(  # type: ignore[no-any-return]
            tensordot, where, _numeric, {"x1": x1, "x2": x2}, {"axes": axes}
        )
    dt, dev = _two_arrays(x1, x2, where, _numeric)
    s1 = x1._data.shape
    s2 = x2._data.shape
    n1 = len(s1)
    n2 = len(s2)
    if axes.__class__ is tuple:
        if len(axes) != 2:  # type: ignore[arg-type]
            msg = f"{where}: `axes` must be an int or a pair (x1_axes, x2_axes), got {axes!r}"
            raise ValueError(msg)
        ax1 = _axis_list(axes[0], n1, where, "0")  # type: ignore[index]
        ax2 = _axis_list(axes[1], n2, where, "1")  # type: ignore[index]
        if len(ax1) != len(ax2):
            msg = (
                f"{where}: `axes` must name as many axes of x1 as of x2, got "
                f"{len(ax1)} and {len(ax2)}"
            )
            raise ValueError(msg)
    else:
        count = check_int(
            axes, where, "axes", "an int or a tuple of two sequences of ints"
        )
        if count < 0:
            msg = f"{where}: an int `axes` must not be negative, got {count}"
            raise ValueError(msg)
        if count > n1 or count > n2:
            msg = (
                f"{where}: cannot contract {count} axes of arrays with {n1} and {n2} "
                f"dimensions"
            )
            raise ValueError(msg)
        ax1 = tuple(range(n1 - count, n1))
        ax2 = tuple(range(count))
    for i, j in zip(ax1, ax2, strict=True):
        if s1[i] != s2[j] and s1[i] is not None and s2[j] is not None:
            msg = (
                f"{where}: contracted axes must have equal sizes (no broadcasting): "
                f"axis {i} of x1 has size {s1[i]} and axis {j} of x2 has size {s2[j]}"
            )
            raise ValueError(msg)
    return _finish(dev._ops["tensordot"](x1._data, x2._data, (ax1, ax2)), dt, dev)


@_hints.keyword_only
def vecdot(x1: Array, x2: Array, /, *_positional: Any, axis: int = -1) -> Array:
    """Dot product of vectors along ``axis``, conjugating ``x1``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.vecdot.html
    """
    if _positional:
        raise _hints.positional_error(vecdot, (x1, x2, *_positional))
    where = "vecdot()"
    if _ext.is_ext(x1) or _ext.is_ext(x2):  # ocean_ext dtypes: own kernels
        return _ext.vecdot(x1, x2, axis)
    dt, dev = _two_arrays(x1, x2, where, _numeric)
    s1 = x1._data.shape
    s2 = x2._data.shape
    n = min(len(s1), len(s2))
    if n == 0:
        msg = f"{where}: operands must have at least one dimension, got shapes {s1} and {s2}"
        raise ValueError(msg)
    axis = _negative_axis(axis, n, where)
    if s1[axis] != s2[axis] and s1[axis] is not None and s2[axis] is not None:
        msg = (
            f"{where}: the contracted axis {axis} must have the same size in both "
            f"arrays (it is not broadcast), got shapes {s1} and {s2}"
        )
        raise ValueError(msg)
    if s1 != s2:
        rest1 = s1[:axis] + s1[axis:][1:]
        rest2 = s2[:axis] + s2[axis:][1:]
        _broadcast_shapes(rest1, rest2, where, "the non-contracted shapes")
    return _finish(dev._ops["vecdot"](x1._data, x2._data, axis), dt, dev)


# --- operators ---------------------------------------------------------------------
def _inplace_checks(x1: Array, dt: DType, shape: tuple[Any, ...], where: str) -> None:
    """TypeError/ValueError when ``x1 @= x2`` would change x1's dtype or shape."""
    if dt is not x1._dtype:
        msg = (
            f"{where}: the result would have dtype {dt}, but an in-place "
            f"operation cannot change the dtype {x1._dtype} of `x1`"
        )
        raise TypeError(msg)
    if shape != x1._data.shape:
        msg = (
            f"{where}: the result would have shape {shape}, but an in-place "
            f"operation cannot change the shape {x1._data.shape} of `x1`"
        )
        raise ValueError(msg)


def _imatmul_ext(x1: Array, x2: Array, where: str) -> Array:
    """``x1 @= x2`` with an ocean_ext dtype (float16, complex32) taking part:
    the product by their own kernels, then stored into x1's storage."""
    from ._ext_hooks import check_writable, is_readonly_failure, readonly_error

    res = matmul(x1, x2)
    _inplace_checks(x1, res._dtype, res._data.shape, where)
    check_writable(x1, where)
    try:
        x1._device._ops["setitem"](x1._data, Ellipsis, res._data)
    except ValueError as exc:
        # memory read-only at the source (a read-only NumPy array), or a lazy
        # handle's own flag: the backend refuses, as NumPy does
        if is_readonly_failure(exc):
            raise readonly_error(where) from None
        raise
    return x1


def _install_operators() -> None:
    def __matmul__(self: Array, other: Any, /) -> Any:
        if other.__class__ is not Array:
            return NotImplemented
        return matmul(self, other)

    def __rmatmul__(self: Array, other: Any, /) -> Any:
        if other.__class__ is not Array:
            return NotImplemented
        return matmul(other, self)

    def __imatmul__(self: Array, other: Any, /) -> Any:
        if other.__class__ is not Array:
            return NotImplemented
        where = "in-place matmul() (@=)"
        if _ext.is_ext(self) or _ext.is_ext(other):
            return _imatmul_ext(self, other, where)
        dt, dev = _two_arrays(self, other, where, _numeric)
        a = self._data
        _inplace_checks(
            self, dt, _matmul_shape(a.shape, other._data.shape, where), where
        )
        from ._ext_hooks import check_writable, is_readonly_failure, readonly_error

        check_writable(self, where)
        try:
            dev._ops["matmul"](a, other._data, out=a)
        except ValueError as exc:
            if is_readonly_failure(exc):
                raise readonly_error(where) from None
            raise
        return self

    setattr(Array, "__matmul__", __matmul__)  # noqa: B010
    setattr(Array, "__rmatmul__", __rmatmul__)  # noqa: B010
    setattr(Array, "__imatmul__", __imatmul__)  # noqa: B010


_install_operators()
