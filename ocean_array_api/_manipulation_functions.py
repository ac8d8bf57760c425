"""Manipulation functions of the Array API standard.

Shapes, axes and dtypes are checked here, so backends receive normalised,
valid arguments: non-negative axes, shapes that fit, one common dtype.  Views
(``reshape``, ``permute_dims``, ``expand_dims``, ``squeeze``, ``flip``,
``broadcast_to``, ``unstack``, ...) share memory with their input where the
backend can do so.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import Any

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array, _compiled, _wrap
from ._dtypes import promote
from ._helpers import (
    check_copy,
    check_int,
    check_size,
    device_error,
    dtype_error,
    normalize_axes,
    normalize_axis,
    type_error,
)

__all__ = [
    "broadcast_arrays", "broadcast_shapes", "broadcast_to", "concat", "expand_dims",
    "flip", "moveaxis", "permute_dims", "repeat", "reshape", "roll", "squeeze",
    "stack", "tile", "unstack",
]  # fmt: skip


# --- argument helpers ----------------------------------------------------------
def _int_tuple(
    value: Any, fn: str, argname: str, what: str = "a tuple of ints"
) -> tuple[int, ...]:
    """A tuple of ints (ints only, no bools); anything else is a TypeError.

    A list is accepted as a tuple (the standard says tuple; NumPy and the
    creation functions here accept lists, and downstream code passes them).
    """
    if value.__class__ is not tuple:
        if value.__class__ is not list:
            type_error(fn, argname, what, value)
        value = tuple(value)
    for v in value:
        if v.__class__ is not int:
            return tuple(check_int(v, fn, argname) for v in value)
    return value  # type: ignore[no-any-return]


def _shape_arg(shape: Any, fn: str, *, allow_infer: bool = False) -> tuple[int, ...]:
    """A shape: a tuple of non-negative ints (``-1`` once, if ``allow_infer``).

    A single int is accepted as a 1-tuple and a list as a tuple, as by the
    creation functions.
    """
    if shape.__class__ is not tuple and shape.__class__ is not list:
        if shape.__class__ is bool or not hasattr(type(shape), "__index__"):
            type_error(fn, "shape", "a tuple of ints", shape)
        shape = (operator.index(shape),)
    shape = _int_tuple(shape, fn, "shape")
    infer = 0
    for s in shape:
        if s < 0:
            if s == -1 and allow_infer:
                infer += 1
                continue
            msg = f"{fn}: `shape` must not have negative sizes, got {shape}"
            raise ValueError(msg)
    if infer > 1:
        msg = f"{fn}: `shape` may contain -1 only once, got {shape}"
        raise ValueError(msg)
    return shape


# Note: a list of arrays is copied into a tuple at the entry of the functions
# that take one (stack, concat), so that Python code run during the call (a
# finaliser, a GC callback) that changes the list cannot change what is
# joined, nor make the call fail half way.  The copy is ``(*arrays,)``, never
# ``tuple(arrays)``: CPython 3.11's ``tuple(list)`` reads the list's item
# storage before it allocates the tuple, and a GC pass at that allocation
# that empties the list frees what it then reads.  ``(*arrays,)`` makes its
# list first and reads after; the compiled ``concat`` takes its snapshot at
# the same point (src/fastpath.c, ``fast_concat``), and for a list nothing
# before the copy allocates (``isinstance(a, (tuple, list))`` builds a tuple),
# so that a GC pass changes what both paths join alike.


def _arrays_arg(arrays: Any, fn: str) -> tuple[Any, Any, list[Any], bool]:
    """Check a sequence of arrays.

    Returns (common dtype, common device, native arrays, whether all shapes
    are equal).
    """
    c = arrays.__class__
    if c is not tuple:
        if c is not list and not isinstance(arrays, (tuple, list)):
            type_error(fn, "arrays", "a tuple or list of arrays", arrays)
        arrays = (*arrays,)  # a snapshot (see the note above)
    if not arrays:
        msg = f"{fn}: `arrays` must contain at least one array"
        raise ValueError(msg)
    first = arrays[0]
    if first.__class__ is not Array:
        type_error(fn, "arrays[0]", "an array", first)
    dt = first._dtype
    dev = first._device
    shape = first._data.shape
    same = True
    promoted = False
    natives: list[Any] = []
    append = natives.append
    for a in arrays:
        if a.__class__ is not Array or a._device is not dev:
            _arrays_error(arrays, fn)
        if a._dtype is not dt:
            dt = promote(dt, a._dtype, fn)
            promoted = True
        data = a._data
        if same and data.shape != shape:
            same = False
        append(data)
    if promoted and _ext.involved(arrays):  # ocean_ext dtypes: convert storages
        natives = _ext.convert_all(arrays, dt, dev, fn)
    return dt, dev, natives, same


def _arrays_error(arrays: Any, fn: str) -> None:
    dev = arrays[0]._device
    for i, a in enumerate(arrays):
        if a.__class__ is not Array:
            type_error(fn, f"arrays[{i}]", "an array", a)
        if a._device is not dev:
            device_error(fn, ("arrays[0]", f"arrays[{i}]"), (dev, a._device))


def _check_array(x: Any, fn: str) -> None:
    if x.__class__ is not Array:
        type_error(fn, "x", "an array", x)


# --- broadcasting ----------------------------------------------------------------
def _broadcast(
    shapes: Sequence[tuple[int | None, ...]], fn: str
) -> tuple[int | None, ...]:
    """The broadcast shape of already validated shapes (None: unknown size)."""
    if len(shapes) == 1:
        return tuple(shapes[0])
    ndim = 0
    for s in shapes:
        if len(s) > ndim:
            ndim = len(s)
    out: list[int | None] = []
    for k in range(ndim, 0, -1):
        dim: int | None = 1
        for s in shapes:
            if len(s) < k:
                continue
            d = s[-k]
            if d == 1 or d == dim:
                continue
            if dim == 1:
                dim = d
            elif d is None:
                continue  # an unknown size matching a known one
            elif dim is None:
                dim = d
            else:
                msg = (
                    f"{fn}: shapes {', '.join(str(tuple(t)) for t in shapes)} cannot "
                    f"be broadcast together (size {dim} against {d})"
                )
                raise ValueError(msg)
        out.append(dim)
    return tuple(out)


def broadcast_shapes(*shapes: tuple[int | None, ...]) -> tuple[int | None, ...]:
    """The shape that ``shapes`` broadcast to.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.broadcast_shapes.html

    Notes
    -----
    A size of ``None`` (unknown, as in lazy arrays) broadcasts with 1 or with
    another ``None`` to ``None`` and with any other size to that size.
    """
    fn = "broadcast_shapes()"
    for i, s in enumerate(shapes):
        if s.__class__ is not tuple:
            type_error(fn, f"shapes[{i}]", "a tuple of ints", s)
        for d in s:
            if (
                d.__class__ is not int
                and d is not None
                and (d.__class__ is bool or not hasattr(type(d), "__index__"))
            ):
                type_error(fn, f"shapes[{i}]", "a tuple of ints or None", d)
            if d is not None and d < 0:
                msg = f"{fn}: `shapes[{i}]` must not have negative sizes, got {s}"
                raise ValueError(msg)
    if not shapes:
        return ()
    return _broadcast(
        [tuple(None if d is None else operator.index(d) for d in s) for s in shapes], fn
    )


def broadcast_arrays(*arrays: Array) -> tuple[Array, ...]:
    """Views of ``arrays`` broadcast to one shape.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.broadcast_arrays.html

    Notes
    -----
    Arrays that need broadcasting come back as read-only views on the CPU; an
    array that already has the result shape is returned as it is (on a lazy
    device, where sizes may be data-dependent, each comes back paired with
    the others, so that lengths of ``None`` that differ raise ValueError
    when computed).  Before
    2025.12 the namespace's ``broadcast_arrays`` returns a list.
    """
    fn = "broadcast_arrays()"
    if not arrays:
        return ()
    dev = None
    for i, a in enumerate(arrays):
        if a.__class__ is not Array:
            type_error(fn, f"arrays[{i}]", "an array", a)
        if dev is None:
            dev = a._device
        elif a._device is not dev:
            device_error(fn, ("arrays[0]", f"arrays[{i}]"), (dev, a._device))
    shape = _broadcast([a._data.shape for a in arrays], fn)
    like = dev._ops.get("broadcast_like")  # type: ignore[union-attr]
    if like is not None and None in shape:
        # a data-dependent size (lazy devices): each array broadcast against
        # the others chunk by chunk, as an elementwise function pairs them
        # (every array, that of the result shape too: two lengths of None
        # may differ, which the pairing checks when the graph runs)
        natives = [a._data for a in arrays]
        return tuple(
            _wrap(like(a._data, *natives[:i], *natives[i + 1 :]), a._dtype, dev)  # type: ignore[arg-type]
            for i, a in enumerate(arrays)
        )
    op = dev._ops["broadcast_to"]  # type: ignore[union-attr]
    return tuple(
        a if a._data.shape == shape else _wrap(op(a._data, shape), a._dtype, dev)  # type: ignore[arg-type]
        for a in arrays
    )


def broadcast_to(x: Array, /, shape: tuple[int, ...]) -> Array:
    """A view of ``x`` broadcast to ``shape``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.broadcast_to.html

    Notes
    -----
    The result is a read-only view on the CPU.
    """
    fn = "broadcast_to()"
    _check_array(x, fn)
    shape = _shape_arg(shape, fn)
    check_size(math.prod(shape), fn, f"`shape` {shape}: the result")
    data = x._data
    xs = data.shape
    n = len(xs)
    if n > len(shape):
        msg = f"{fn}: cannot broadcast shape {xs} to the shorter shape {shape}"
        raise ValueError(msg)
    for i in range(1, n + 1):
        d = xs[-i]
        if d != shape[-i] and d != 1 and d is not None:
            # (None: data-dependent, lazy devices; checked when it runs)
            msg = f"{fn}: cannot broadcast shape {xs} to {shape}"
            raise ValueError(msg)
    dev = x._device
    return _wrap(dev._ops["broadcast_to"](data, shape), x._dtype, dev)


# --- joining and splitting ----------------------------------------------------------
@_hints.keyword_only
def concat(
    arrays: tuple[Array, ...] | list[Array], /, *_positional: Any, axis: int | None = 0
) -> Array:
    """Join ``arrays`` along an existing axis (flattened first when ``axis=None``).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.concat.html

    Notes
    -----
    The dtypes must promote under the standard's rules (mixed kinds are a
    TypeError).
    """
    if _positional:
        raise _hints.positional_error(concat, (arrays, *_positional))
    # _arrays_arg inlined: concat is hot and small inputs pay for every call
    t = arrays.__class__
    if t is not tuple and (t is list or isinstance(arrays, (tuple, list))):
        arrays = (*arrays,)  # a snapshot (see above _arrays_arg)
        t = tuple
    first = arrays[0] if t is tuple and arrays else None
    if first.__class__ is not Array:
        _arrays_arg(arrays, "concat()")  # raises the right error
    dt = first._dtype  # type: ignore[union-attr]
    dev = first._device  # type: ignore[union-attr]
    shape = first._data.shape  # type: ignore[union-attr]
    same = True
    promoted = False
    natives = []
    for a in arrays:
        if a.__class__ is not Array or a._device is not dev:
            _arrays_error(arrays, "concat()")
        if a._dtype is not dt:
            dt = promote(dt, a._dtype, "concat()")
            promoted = True
        data = a._data
        if data.shape != shape:
            same = False
        natives.append(data)
    if axis is not None:
        ndim = len(shape)
        if axis.__class__ is not int or not -ndim <= axis < ndim:
            axis = normalize_axis(axis, ndim, "concat()")
        elif axis < 0:
            axis += ndim
        if not same:
            _check_concat_shapes(natives, axis)
    if promoted and _ext.involved(arrays):  # ocean_ext dtypes: convert storages
        natives = _ext.convert_all(arrays, dt, dev, "concat()")
    # dtype=None when nothing was promoted: NumPy's concatenate is slower with it.
    native_dt = dt._native if promoted else None
    return _wrap(dev._ops["concat"](natives, axis, native_dt), dt, dev)


def _check_concat_shapes(natives: list[Any], axis: int) -> None:
    first = natives[0].shape
    ndim = len(first)
    for i in range(1, len(natives)):
        s = natives[i].shape
        if len(s) != ndim or any(
            p != q and None not in (p, q)
            for j, (p, q) in enumerate(zip(s, first, strict=True))
            if j != axis
        ):
            msg = (
                f"concat(): `arrays[{i}]` has shape {s}, which does not match "
                f"{first} of arrays[0] outside axis {axis}"
            )
            raise ValueError(msg)


@_hints.keyword_only
def stack(
    arrays: tuple[Array, ...] | list[Array], /, *_positional: Any, axis: int = 0
) -> Array:
    """Join ``arrays`` (all of one shape) along a new axis.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.stack.html

    Notes
    -----
    The dtypes must promote under the standard's rules (mixed kinds are a
    TypeError).
    """
    if _positional:
        raise _hints.positional_error(stack, (arrays, *_positional))
    fn = "stack()"
    dt, dev, natives, same = _arrays_arg(arrays, fn)
    first = natives[0].shape
    ndim = len(first) + 1
    if axis.__class__ is not int or not -ndim <= axis < ndim:
        axis = normalize_axis(axis, ndim, fn)
    elif axis < 0:
        axis += ndim
    if not same:
        for i in range(1, len(natives)):
            s = natives[i].shape
            if s != first and (
                len(s) != len(first)
                or any(
                    p != q and None not in (p, q) for p, q in zip(s, first, strict=True)
                )
            ):  # (None: a data-dependent size, checked when it runs)
                msg = f"{fn}: all arrays must have one shape; arrays[0] has {first}, arrays[{i}] has {s}"
                raise ValueError(msg)
    return _wrap(dev._ops["stack"](natives, axis, dt._native), dt, dev)


@_hints.keyword_only
def unstack(x: Array, /, *_positional: Any, axis: int = 0) -> tuple[Array, ...]:
    """Views of ``x`` split along ``axis``, that axis removed.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.unstack.html
    """
    if _positional:
        raise _hints.positional_error(unstack, (x, *_positional))
    fn = "unstack()"
    _check_array(x, fn)
    data = x._data
    ndim = data.ndim
    if axis.__class__ is not int or not -ndim <= axis < ndim:
        axis = normalize_axis(axis, ndim, fn)
    elif axis < 0:
        axis += ndim
    dt = x._dtype
    dev = x._device
    return tuple(_wrap(p, dt, dev) for p in dev._ops["unstack"](data, axis))


# --- axes -----------------------------------------------------------------------------
def expand_dims(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    """A view of ``x`` with size-1 axes inserted at ``axis``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.expand_dims.html

    Notes
    -----
    ``axis`` positions refer to the result (of ``x.ndim + len(axis)``
    dimensions); out-of-range positions are an IndexError and repeated ones a
    ValueError.
    """
    fn = "expand_dims()"
    _check_array(x, fn)
    data = x._data
    if axis.__class__ is int:
        m = data.ndim + 1
        if not -m <= axis < m:
            normalize_axis(axis, m, fn)
        axes: tuple[int, ...] = (axis + m if axis < 0 else axis,)
    elif axis.__class__ is tuple:
        m = data.ndim + len(axis)
        axes = tuple(sorted(normalize_axes(axis, m, fn)))  # type: ignore[arg-type]
    else:
        axes = (normalize_axis(axis, data.ndim + 1, fn),)
    dev = x._device
    return _wrap(dev._ops["expand_dims"](data, axes), x._dtype, dev)


def squeeze(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    """A view of ``x`` without the size-1 axes ``axis``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.squeeze.html
    """
    if x.__class__ is not Array:
        type_error("squeeze()", "x", "an array", x)
    data = x._data
    shape = data.shape
    ndim = len(shape)
    if axis.__class__ is int and -ndim <= axis < ndim:  # type: ignore[operator]
        axes: tuple[int, ...] = (axis + ndim if axis < 0 else axis,)  # type: ignore[operator]
    else:
        axes = normalize_axes(axis, ndim, "squeeze()")  # type: ignore[assignment]
        if axes is None:
            type_error("squeeze()", "axis", "an int or a tuple of ints", axis)
    for a in axes:
        if shape[a] != 1 and shape[a] is not None:  # (None: checked when it runs)
            msg = f"squeeze(): cannot squeeze axis {a} of size {shape[a]} (x has shape {shape})"
            raise ValueError(msg)
    dev = x._device
    return _wrap(dev._ops["squeeze"](data, axes), x._dtype, dev)


@_hints.keyword_only
def flip(
    x: Array, /, *_positional: Any, axis: int | tuple[int, ...] | None = None
) -> Array:
    """A view of ``x`` with the order of elements reversed along ``axis``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.flip.html
    """
    if _positional:
        raise _hints.positional_error(flip, (x, *_positional))
    fn = "flip()"
    _check_array(x, fn)
    data = x._data
    if axis is not None:
        axis = normalize_axes(axis, data.ndim, fn)
    dev = x._device
    return _wrap(dev._ops["flip"](data, axis), x._dtype, dev)


def _axes_arg(value: Any, ndim: int, fn: str, argname: str) -> tuple[int, ...]:
    """``source``/``destination`` of moveaxis: distinct, normalised axes.

    A list is accepted as a tuple (as for shapes; downstream code passes them).
    """
    if value.__class__ is not tuple and value.__class__ is not list:
        return (normalize_axis(value, ndim, fn, argname),)
    axes = tuple(normalize_axis(a, ndim, fn, argname) for a in value)
    if len(set(axes)) != len(axes):
        msg = f"{fn}: `{argname}` {value} repeats an axis"
        raise ValueError(msg)
    return axes


def moveaxis(
    x: Array, source: int | tuple[int, ...], destination: int | tuple[int, ...], /
) -> Array:
    """A view of ``x`` with axes ``source`` moved to positions ``destination``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.moveaxis.html
    """
    fn = "moveaxis()"
    _check_array(x, fn)
    data = x._data
    ndim = data.ndim
    src = _axes_arg(source, ndim, fn, "source")
    dst = _axes_arg(destination, ndim, fn, "destination")
    if len(src) != len(dst):
        msg = (
            f"{fn}: `source` and `destination` must name as many axes, got "
            f"{source} and {destination}"
        )
        raise ValueError(msg)
    dev = x._device
    return _wrap(dev._ops["moveaxis"](data, src, dst), x._dtype, dev)


def permute_dims(x: Array, /, axes: tuple[int, ...]) -> Array:
    """A view of ``x`` with its axes permuted as ``axes`` says.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.permute_dims.html

    Notes
    -----
    Negative axes count from the end (new in 2025.12).
    """
    if x.__class__ is not Array:
        type_error("permute_dims()", "x", "an array", x)
    data = x._data
    ndim = data.ndim
    if axes.__class__ is tuple and len(axes) == ndim:
        for a in axes:
            if a.__class__ is not int or not 0 <= a < ndim:
                axes = _permutation(axes, ndim)
                break
        else:
            if len(set(axes)) != ndim:
                _permutation(axes, ndim)
    else:
        axes = _permutation(axes, ndim)
    dev = x._device
    return _wrap(dev._ops["permute_dims"](data, axes), x._dtype, dev)


def _permutation(axes: Any, ndim: int) -> tuple[int, ...]:
    """Slow path of permute_dims: negative axes, or errors."""
    fn = "permute_dims()"
    axes = _int_tuple(axes, fn, "axes")
    if len(axes) != ndim:
        msg = f"{fn}: `axes` must name each of the {ndim} axes of x once, got {axes}"
        raise ValueError(msg)
    norm = tuple(normalize_axis(a, ndim, fn, "axes") for a in axes)
    if len(set(norm)) != ndim:
        msg = f"{fn}: `axes` must be a permutation of the axes of x, got {axes}"
        raise ValueError(msg)
    return norm


# --- shape changes ---------------------------------------------------------------------
def reshape(x: Array, /, shape: tuple[int, ...], *, copy: bool | None = None) -> Array:
    """``x`` with a new shape (one size may be -1, inferred).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.reshape.html

    Notes
    -----
    With ``copy=None`` the result is a view whenever the memory layout allows
    it; ``copy=False`` raises ValueError when it does not.
    """
    if x.__class__ is not Array:
        type_error("reshape()", "x", "an array", x)
    data = x._data
    if shape.__class__ is not tuple or (
        copy is not None and copy.__class__ is not bool
    ):
        shape = _reshape_shape(data, shape)
        if copy is not None and copy is not True and copy is not False:
            check_copy(copy, "reshape()")
    dev = x._device
    try:
        res = dev._ops["reshape"](data, shape, copy)
    except (ValueError, TypeError) as exc:
        # The backend checked sizes and types; report the precise reason (the
        # shape is wrong), or else the layout needs a copy and copy=False.
        _reshape_shape(data, shape)
        msg = f"reshape(): {exc}"
        raise ValueError(msg) from None
    return _wrap(res, x._dtype, dev)


def _reshape_shape(data: Any, shape: Any) -> tuple[int, ...]:
    """Full check of a reshape target against ``data``: the shape as a tuple,
    else TypeError (not a shape) or ValueError (sizes do not match)."""
    shape, known, infer = _reshape_target(shape)
    size = data.size
    if size is None:  # data-dependent (lazy devices): checked when it runs
        return shape
    if (known == 0 or size % known != 0) if infer else known != size:
        msg = (
            f"reshape(): cannot reshape an array of shape {data.shape} "
            f"(size {size}) into shape {shape}"
        )
        raise ValueError(msg)
    return shape


def _reshape_target(shape: Any) -> tuple[tuple[int, ...], int, bool]:
    """Slow path of reshape: (checked shape, product of known sizes, has -1)."""
    shape = _shape_arg(shape, "reshape()", allow_infer=True)
    known = 1
    for s in shape:
        if s != -1:
            known *= s
    return shape, known, -1 in shape


@_hints.keyword_only
def repeat(
    x: Array, repeats: int | Array, /, *_positional: Any, axis: int | None = None
) -> Array:
    """Each element of ``x`` repeated ``repeats`` times (along ``axis``, or flattened).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.repeat.html

    Notes
    -----
    An array ``repeats`` (integer dtype, shape ``(1,)`` or ``(n,)``) makes the
    result shape depend on its values, which on an accelerator means a
    synchronisation.  Negative repeats are a ValueError.
    """
    if _positional:
        raise _hints.positional_error(repeat, (x, repeats, *_positional))
    fn = "repeat()"
    _check_array(x, fn)
    data = x._data
    dev = x._device
    if axis is None:
        n = data.size
    else:
        axis = normalize_axis(axis, data.ndim, fn)
        n = data.shape[axis]
    if repeats.__class__ is Array:
        if repeats._dtype not in _dt._integer:
            dtype_error(fn, "repeats", _dt._integer, repeats._dtype)
        if repeats._device is not dev:
            device_error(fn, ("x", "repeats"), (dev, repeats._device))
        rs = repeats._data.shape
        if len(rs) != 1 or (
            rs[0] != 1 and rs[0] != n and rs[0] is not None and n is not None
        ):
            # (a data-dependent length, None, is checked when a lazy graph runs)
            msg = f"{fn}: an array `repeats` must have shape (1,) or ({n},), got {rs}"
            raise ValueError(msg)
        r = repeats._data
    else:
        r = check_int(repeats, fn, "repeats")
        if r < 0:
            msg = f"{fn}: `repeats` must not be negative, got {r}"
            raise ValueError(msg)
        if data.size is not None:  # (None: data-dependent, lazy devices)
            check_size(data.size * r, fn, f"with `repeats` {r}, the result")
    try:
        res = dev._ops["repeat"](data, r, axis)
    except ValueError as exc:
        # negative values in a repeats array
        msg = f"{fn}: {exc}"
        raise ValueError(msg) from None
    return _wrap(res, x._dtype, dev)


@_hints.keyword_only
def roll(
    x: Array,
    /,
    shift: int | tuple[int, ...],
    *_positional: Any,
    axis: int | tuple[int, ...] | None = None,
) -> Array:
    """``x`` with its elements shifted cyclically by ``shift`` along ``axis``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.roll.html

    Notes
    -----
    An axis named twice in ``axis`` is shifted by the sum of its shifts.
    """
    if _positional:
        raise _hints.positional_error(roll, (x, shift, *_positional))
    fn = "roll()"
    _check_array(x, fn)
    data = x._data
    ndim = data.ndim
    if shift.__class__ is tuple:
        shift = _int_tuple(shift, fn, "shift")
        if axis.__class__ is not tuple or len(axis) != len(shift):  # type: ignore[arg-type]
            msg = f"{fn}: a tuple `shift` needs a tuple `axis` of the same length, got axis={axis!r}"
            raise ValueError(msg)
    else:
        shift = check_int(shift, fn, "shift")
    if axis is not None:
        if axis.__class__ is tuple:
            axis = tuple(normalize_axis(a, ndim, fn) for a in axis)
        else:
            axis = normalize_axis(axis, ndim, fn)
    dev = x._device
    return _wrap(dev._ops["roll"](data, shift, axis), x._dtype, dev)


def tile(x: Array, repetitions: tuple[int, ...], /) -> Array:
    """``x`` repeated ``repetitions[i]`` times along each axis ``i``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.tile.html
    """
    fn = "tile()"
    _check_array(x, fn)
    reps = _int_tuple(repetitions, fn, "repetitions")
    size = x._data.size
    for r in reps:
        if r < 0:
            msg = f"{fn}: `repetitions` must not be negative, got {reps}"
            raise ValueError(msg)
        size = None if size is None else size * r
    if size is not None:  # (None: data-dependent, lazy devices)
        check_size(size, fn, f"with `repetitions` {reps}, the result")
    if max(len(reps), x.ndim) > _MAX_DIMS:
        msg = (
            f"{fn}: the result would have {max(len(reps), x.ndim)} dimensions, "
            f"more than the {_MAX_DIMS} an array can have"
        )
        raise ValueError(msg)
    dev = x._device
    return _wrap(dev._ops["tile"](x._data, reps), x._dtype, dev)


_MAX_DIMS = 64  # NumPy's


# The compiled fast path (docs/dev/fastpath.md) in front of the hot functions.
reshape = _compiled(reshape, "reshape")
permute_dims = _compiled(permute_dims, "permute_dims")
concat = _compiled(concat, "concat")
