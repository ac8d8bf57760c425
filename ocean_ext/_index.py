"""Reusable index objects: ``index[...]``, ``Index.bind(shape)``, ``Index.bind(x)``.

An :class:`Index` holds an indexing key, checked once.  Bound to a shape it
also holds the key in its resolved form (negative indices normalised, bounds
checked, masks turned into integer indices, the result shape known), and, for
each memory layout of the arrays it is used with, the *flat offsets* of the
selected elements, so that ``x[idx]`` is one gather (``take`` on a 1-D view of
``x``'s memory) and ``x[idx] = v`` one scatter.

The core calls :meth:`Index._getitem` / :meth:`Index._setitem` from the slow
path of ``Array.__getitem__`` / ``__setitem__`` (this module registers the
class in ``ocean_array_api._ext_hooks``), so ordinary keys pay nothing.
"""

from __future__ import annotations

import contextlib
import math
import operator
from typing import Any, cast

import numpy as np

import ocean_array_api as xp
from ocean_array_api import _dtypes as _dt
from ocean_array_api import _ext_hooks as _hooks
from ocean_array_api._array_object import Array, _wrap
from ocean_array_api._devices import Device, default_device
from ocean_array_api._helpers import device_error
from ocean_array_api._indexing import index_data

__all__ = ["Index", "index"]

_GET = "__getitem__()"
_SET = "__setitem__()"
_BIND = "Index.bind()"
_MAX_LAYOUTS = 4  # offsets kept per binding, one per memory layout seen
_CHUNK = 1 << 16  # elements per step when normalising negative indices

_INT64 = _dt.int64


# --- parsing a key (once, when the index is built) ------------------------------
def _parse_item(item: Any) -> Any:
    """One key item as int, slice, None, Ellipsis, Array or a host ndarray."""
    t = item.__class__
    if t is int or item is None or item is Ellipsis:
        return item
    if t is slice:
        parts = []
        for part in (item.start, item.stop, item.step):
            if part is None or part.__class__ is int:
                parts.append(part)
            elif (
                part.__class__ is Array
                and part.ndim == 0
                and part.dtype in _dt._integer
            ) or (isinstance(part, np.integer)):
                parts.append(int(part))
            else:
                msg = f"index: slice bounds must be ints or None, got {part!r}"
                raise IndexError(msg)
        if parts[2] == 0:
            msg = "index: slice step cannot be zero"
            raise ValueError(msg)
        return slice(*parts)
    if t is Array:
        if item.dtype is not _dt.bool and item.dtype not in _dt._integer:
            msg = (
                "index: array indices must have an integer or boolean dtype, "
                f"got {item.dtype}"
            )
            raise IndexError(msg)
        return item
    if t is list or isinstance(item, np.ndarray):
        # Host data (Python lists, NumPy arrays): copied now, so that the index
        # owns it; moved to a device when first used there.
        try:
            a = np.array(item, copy=True)
        except (ValueError, TypeError):
            a = None
        empty_list = t is list and a is not None and a.size == 0
        if a is None or (a.dtype.kind not in "biu" and not empty_list):
            what = "list" if t is list else f"NumPy array of dtype {item.dtype}"
            msg = (
                f"index: a {what} is not a valid index; lists and NumPy arrays "
                "must hold integers or booleans"
            )
            raise IndexError(msg)
        if empty_list and a.dtype.kind not in "biu":  # [] is float64 to NumPy
            a = a.astype(np.intp)
        if not a.dtype.isnative:
            a = a.astype(a.dtype.newbyteorder("="))
        return a
    if isinstance(item, np.integer) or (
        t is not bool
        and not isinstance(item, np.bool_)
        and hasattr(item, "__index__")
        and not hasattr(item, "shape")
    ):
        return operator.index(item)
    msg = (
        f"index: {t.__name__} is not a valid index; use ints, slices, ..., None, "
        "integer arrays, boolean arrays, or lists of ints"
    )
    raise IndexError(msg)


def _is_bool_array(item: Any) -> bool:
    if item.__class__ is Array:
        return item.dtype is _dt.bool
    return isinstance(item, np.ndarray) and item.dtype.kind == "b"


def _item_repr(item: Any) -> str:
    if item is Ellipsis:
        return "..."
    if item.__class__ is slice:
        parts = ["" if p is None else str(p) for p in (item.start, item.stop)]
        text = ":".join(parts)
        return text if item.step is None else f"{text}:{item.step}"
    if item.__class__ is Array or isinstance(item, np.ndarray):
        kind = "mask" if _is_bool_array(item) else "array"
        dtype = item.dtype if item.__class__ is Array else item.dtype.name
        return f"<{kind} {dtype} {tuple(item.shape)}>"
    return repr(item)


# --- a key resolved against a shape, on one device ----------------------------------
class _Binding:
    """A key resolved for one shape on one device.

    ``nkey`` is the native key (normalised ints and integer arrays, masks as
    their ``nonzero()`` arrays).  ``slices`` (axis, start, step, output
    axis), ``scalars`` (axis, index) and ``adv`` (axis, int64 indices, whose
    broadcast shape sits at output axes ``adv_at`` to ``adv_at + adv_ndim``)
    say how to compute the flat offsets of the selected elements for a memory
    layout; ``offsets`` caches them per layout ``(start, strides)``.
    """

    __slots__ = (
        "adv",
        "adv_at",
        "adv_ndim",
        "device",
        "nkey",
        "offsets",
        "out_shape",
        "scalars",
        "shape",
        "slices",
        "view",
        "whole_mask",
    )

    adv: list[tuple[int, Array]]
    adv_at: int
    adv_ndim: int
    device: Device
    nkey: tuple[Any, ...]
    offsets: dict[tuple[int, tuple[int, ...]], Any]
    out_shape: tuple[int, ...]
    scalars: list[tuple[int, int]]
    shape: tuple[int, ...]
    slices: list[tuple[int, int, int, int]]
    view: bool
    whole_mask: bool

    def __init__(self) -> None:
        self.offsets = {}
        self.slices = []
        self.scalars = []
        self.adv = []

    def flat_offsets(self, start: int, strides: tuple[int, ...], span: int) -> Any:
        """Native array of ``out_shape``: element offsets for this layout, into
        a flat view of ``span`` elements; int64, or whatever narrower type the
        backend's ``compact_offsets`` entry prefers (int32 on the CPU)."""
        key = (start, strides)
        off = self.offsets.get(key)
        if off is not None:
            return off
        dev = self.device
        out_shape = self.out_shape
        nd = len(out_shape)
        scalar = start
        for axis, i in self.scalars:
            scalar += i * strides[axis]
        acc: Array | None = None
        for axis, s0, step, pos in self.slices:
            n = out_shape[pos]
            scalar += s0 * strides[axis]
            if n > 1 and step * strides[axis]:
                t = xp.arange(0, n * step * strides[axis], step * strides[axis],
                              dtype=_INT64, device=dev)  # fmt: skip
                t = xp.reshape(t, (1,) * pos + (n,) + (1,) * (nd - pos - 1))
                acc = t if acc is None else xp.add(acc, t)
        q, m = self.adv_at, self.adv_ndim
        for axis, a in self.adv:
            s = strides[axis]
            if not s:
                continue
            t = a if s == 1 else xp.multiply(a, s)
            tshape = _shape(t)
            shape = (1,) * (q + m - len(tshape)) + tshape + (1,) * (nd - q - m)
            if shape != tshape:
                t = xp.reshape(t, shape)
            acc = t if acc is None else xp.add(acc, t)
        if acc is None:
            acc = xp.full(out_shape, scalar, dtype=_INT64, device=dev)
        else:
            if scalar:
                acc = xp.add(acc, scalar)
            if _shape(acc) != out_shape:
                acc = xp.broadcast_to(acc, out_shape)
        data = acc._data
        if not _c_contiguous(data):
            data = dev._ops["copy"](data)
        with contextlib.suppress(NotImplementedError):  # else int64 offsets
            data = dev._ops["compact_offsets"](data, span)
        if len(self.offsets) >= _MAX_LAYOUTS:
            self.offsets.clear()
        self.offsets[key] = data
        return data


def _wrap_negative(a: Array, n: int) -> None:
    """``a[a < 0] += n``, in place on a C-contiguous int64 ``a``.

    Branch-free (``where()`` mispredicts on random signs): ``(i >> 63) & n`` is
    ``n`` for a negative ``i``, else 0.  In chunks, so that the temporary stays
    small: a fresh temporary as large as ``a`` costs more in page faults than
    the arithmetic.
    """
    flat = xp.reshape(a, (-1,))
    for s in range(0, _shape(flat)[0], _CHUNK):
        chunk = slice(s, s + _CHUNK)
        c = flat[chunk]
        flat[chunk] = xp.add(c, xp.bitwise_and(xp.bitwise_right_shift(c, 63), n))


def _shape(a: Array) -> tuple[int, ...]:
    """The shape of an array whose shape is known (not data-dependent)."""
    return cast("tuple[int, ...]", a._data.shape)


def _c_contiguous(data: Any) -> bool:
    flags = getattr(data, "flags", None)  # NumPy and CuPy arrays
    return flags is not None and bool(flags.c_contiguous)


def _out_of_bounds(where: str, i: int, axis: int, n: int) -> IndexError:
    return IndexError(
        f"{where}: index {i} is out of bounds for axis {axis} with size {n}"
    )


def _resolve(
    items: tuple[Any, ...], shape: tuple[int, ...], device: Device, where: str
) -> _Binding:
    """Check ``items`` (on ``device``) against ``shape``; the binding or IndexError."""
    ndim = len(shape)
    consumed = 0
    has_array = False
    for it in items:
        t = it.__class__
        if t is int or t is slice:
            consumed += 1
        elif t is Array:
            has_array = True
            consumed += it.ndim if it.dtype is _dt.bool else 1
    if consumed > ndim:
        msg = (
            f"{where}: too many indices ({consumed}) for an array of {ndim} "
            "dimension(s)"
        )
        raise IndexError(msg)
    b = _Binding()
    b.device = device
    b.shape = shape
    b.view = not has_array
    nkey: list[Any] = []
    out_dims: list[int] = []
    adv_shapes: list[tuple[int, ...]] = []
    adv_at = -1
    state = 0  # 0: no advanced index yet, 1: in the first run, 2: after it
    separated = False
    bad: IndexError | None = None  # the first out-of-bounds index array
    axis = 0
    for it in items:
        t = it.__class__
        advanced = t is Array or (t is int and has_array)
        if advanced:
            if state == 0:
                adv_at = len(out_dims)
                state = 1
            elif state == 2:
                separated = True
        elif state == 1:
            state = 2
        if t is int:
            n = shape[axis]
            if not -n <= it < n:
                raise _out_of_bounds(where, it, axis, n)
            i = it + n if it < 0 else it
            nkey.append(i)
            if has_array:
                adv_shapes.append(())
            b.scalars.append((axis, i))
            axis += 1
        elif t is slice:
            n = shape[axis]
            start, stop, step = it.indices(n)
            b.slices.append((axis, start, step, len(out_dims)))
            out_dims.append(len(range(start, stop, step)))
            nkey.append(it)
            axis += 1
        elif it is None:
            out_dims.append(1)
            nkey.append(None)
        elif it is Ellipsis:
            for _ in range(ndim - consumed):
                b.slices.append((axis, 0, 1, len(out_dims)))
                out_dims.append(shape[axis])
                axis += 1
            nkey.append(Ellipsis)
        elif device._backend.is_lazy(it._data):
            # Binding checks bounds and turns masks into indices: it needs the
            # values, which on a lazy device would run the graph unasked.
            msg = (
                f"{where}: index objects with index arrays cannot be bound to "
                f"arrays on the lazy {device} device; index with the key itself "
                f"(x[key]) instead"
            )
            raise NotImplementedError(msg)
        elif it.dtype is _dt.bool:
            mshape = tuple(it.shape)
            if not mshape:  # a 0-d mask: a new axis of length 1 or 0
                adv_shapes.append((1 if bool(it) else 0,))
                nkey.append(device._ops["copy"](it._data))
                continue
            for d, m in enumerate(mshape):
                # Note: NumPy lets a mask of length 0 index an axis of any length
                if m != shape[axis + d] and m:
                    msg = (
                        f"{where}: boolean index has size {m} in dimension "
                        f"{axis + d}, the array has {shape[axis + d]}"
                    )
                    raise IndexError(msg)
            for d, nz in enumerate(xp.nonzero(it)):
                adv_shapes.append(_shape(nz))
                b.adv.append((axis + d, nz))
                nkey.append(nz._data)
            axis += len(mshape)
        else:  # an integer array
            n = shape[axis]
            lo = 0
            if it.size:
                lo, hi = int(xp.min(it)), int(xp.max(it))
                if (lo < -n or hi >= n) and it.ndim == 0:
                    # a 0-d index array is checked as an integer is (NumPy
                    # raises even when another index array selects nothing)
                    raise _out_of_bounds(where, hi if hi >= n else lo, axis, n)
                if (lo < -n or hi >= n) and bad is None:
                    # raised once the index arrays are known to select
                    # something (as NumPy, which checks no bounds of an n-d
                    # index array for an empty selection)
                    bad = _out_of_bounds(where, hi if hi >= n else lo, axis, n)
            # our own int64 copy: later changes to the caller's array are not
            # seen (the index has read it), and it can be normalised in place
            a = xp.astype(it, _INT64)
            if not _c_contiguous(a._data):
                a = _wrap(device._ops["copy"](a._data), a._dtype, device)
            if lo < 0:
                _wrap_negative(a, n)
            adv_shapes.append(_shape(a))
            b.adv.append((axis, a))
            nkey.append(a._data)
            axis += 1
    for _ in range(ndim - axis):  # trailing axes the key leaves out
        b.slices.append((axis, 0, 1, len(out_dims)))
        out_dims.append(shape[axis])
        axis += 1
    if has_array:
        try:
            adv_shape = np.broadcast_shapes(*adv_shapes)
        except ValueError:
            shapes = ", ".join(str(s) for s in adv_shapes)
            msg = (
                f"{where}: shape mismatch: the index arrays could not be broadcast "
                f"together (shapes {shapes})"
            )
            raise IndexError(msg) from None
        if bad is not None:
            if math.prod(adv_shape):
                raise bad
            b.adv = []  # nothing is selected: no offsets to compute
        q = 0 if separated else adv_at
        m = len(adv_shape)
        b.slices = [(a, s, st, p + m if p >= q else p) for a, s, st, p in b.slices]
        b.out_shape = (*out_dims[:q], *adv_shape, *out_dims[q:])
        b.adv_at, b.adv_ndim = q, m
    else:
        b.out_shape = tuple(out_dims)
        b.adv_at, b.adv_ndim = 0, 0
    b.nkey = tuple(nkey)
    # A lone mask over every dimension: NumPy's boolean assignment, which
    # takes only 0-d and 1-d values (x[mask] = v raises TypeError otherwise).
    only = items[0] if len(items) == 1 else None
    b.whole_mask = (
        only.__class__ is Array and only.dtype is _dt.bool and only.ndim == ndim
    )
    return b


def _check_shape(bound: tuple[int, ...], shape: tuple[int, ...], where: str) -> None:
    """IndexError naming the first dimension where ``shape`` differs from ``bound``."""
    if len(shape) != len(bound):
        msg = (
            f"{where}: the index is bound to shape {bound} ({len(bound)} "
            f"dimension(s)) but the array has shape {shape} ({len(shape)} "
            "dimension(s)); bind it again with idx.bind(x)"
        )
        raise IndexError(msg)
    for d, (a, n) in enumerate(zip(bound, shape, strict=True)):
        if a != n:
            msg = (
                f"{where}: the index is bound to shape {bound} but the array has "
                f"shape {shape}: dimension {d} has size {n}, not {a}; bind it "
                "again with idx.bind(x)"
            )
            raise IndexError(msg)


def _result(res: Any, x: Array, copy: bool) -> Array:
    """Wrap a backend's result; a copy (advanced indexing) is in native byte
    order, as the core's ``x[key]`` makes it (a view keeps its memory's)."""
    dev = x._device
    native = res.__class__ is dev._native
    if not native:
        res = dev._backend.to_native(res)
    elif copy and not res.dtype.isnative:
        res = dev._ops["native_result"](res)
    return _wrap(res, x._dtype, dev)


# --- the public class -------------------------------------------------------------
class Index:
    """A reusable indexing key: ``x[idx]`` means ``x[key]``, faster when reused.

    Build one with :data:`index` (``ocean_ext.index[key]``) or ``Index(key)``.
    An index is *unbound* until :meth:`bind` resolves it against a shape;
    ``bind`` returns a new, bound index and leaves this one unchanged.

    Parameters
    ----------
    key : int, slice, ellipsis, None, array, list or tuple of them
        Any key of the standard: integers, slices, ``...``, ``None``, integer
        arrays and boolean arrays of ``ocean_array_api``.  Also accepted, as
        an extension: Python lists of ints (or of bools) and NumPy integer or
        boolean arrays, converted to index arrays once, here; and boolean
        arrays anywhere in a tuple key, with NumPy's meaning (a mask stands
        for its ``nonzero()`` arrays).

    Attributes
    ----------
    input_shape : tuple of int or None
        The shape the index is bound to; None when unbound.
    output_shape : tuple of int or None
        The shape of ``x[idx]``; None when unbound.
    is_bound : bool
        Whether :meth:`bind` resolved this index.
    is_view : bool
        Whether the key is basic (ints, slices, ``...``, ``None``), so that
        ``x[idx]`` is a view of ``x``.
    device : Device or None
        The device of the arrays of the key, if any of them is an
        ``ocean_array_api`` array; None when the key holds only host data.

    Raises
    ------
    IndexError
        For an item that is not a valid index (a float, a string, a list of
        floats...), or more than one ``...``.
    ValueError
        For a slice step of zero, or key arrays on different devices.

    Notes
    -----
    ``x[idx]`` and ``x[idx] = v`` give the values, dtype and shape of
    ``x[key]`` and ``x[key] = v``, and raise the same exception types, with
    these differences that follow from binding:

    - A bound index checks the shape of ``x`` first: an array of another shape
      is an IndexError naming the first dimension that differs.
    - A bound index has read its arrays when it was bound: later in-place
      changes to a mask or index array are not seen (bind again).  An unbound
      index reads them at each use.
    - Results of advanced indexing are new arrays, as for ``x[key]``; results
      of basic indexing (``is_view``) are views.

    Devices: an index whose key holds ``ocean_array_api`` arrays belongs to
    their device, and using it on an array on another device is the
    ValueError that ``x[key]`` raises.  An index built only from ints,
    slices, lists and NumPy arrays belongs to no device: its arrays are moved
    to the device of the array it is used with, once per device, and kept.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.reshape(xp.arange(12.0), (3, 4))
    >>> idx = ocean_ext.index[[0, -1], 1:3]
    >>> x[idx]
    Array([[ 1.,  2.],
           [ 9., 10.]], dtype=float64)
    >>> b = idx.bind(x)
    >>> b.input_shape, b.output_shape, b.is_bound, b.is_view
    ((3, 4), (2, 2), True, False)
    >>> x[b] = 0.0
    >>> x[0]
    Array([0., 0., 0., 3.], dtype=float64)
    """

    __slots__ = ("_bound", "_device", "_hosted", "_items", "_shape", "_view")

    _items: tuple[Any, ...]
    _device: Device | None
    _shape: tuple[int, ...] | None
    _bound: dict[Device, _Binding]
    _hosted: dict[Device, tuple[Any, ...]]
    _view: bool

    def __init__(self, key: Any, /) -> None:
        raw = key if key.__class__ is tuple else (key,)
        items = tuple([_parse_item(it) for it in raw])
        if sum(1 for it in items if it is Ellipsis) > 1:
            msg = "index: an index can only have a single ellipsis ('...')"
            raise IndexError(msg)
        device: Device | None = None
        for it in items:
            if it.__class__ is Array:
                if device is None:
                    device = it.device
                elif it.device != device:
                    msg = (
                        f"index: the key's arrays are on {device!r} and "
                        f"{it.device!r}; move them to one device with to_device()"
                    )
                    raise ValueError(msg)
        self._items = items
        self._device = device
        self._shape = None
        self._bound = {}
        self._hosted = {}
        self._view = not any(
            it.__class__ is Array or isinstance(it, np.ndarray) for it in items
        )

    @classmethod
    def _copy_of(cls, other: Index, shape: tuple[int, ...]) -> Index:
        new = object.__new__(cls)
        new._items = other._items
        new._device = other._device
        new._hosted = other._hosted  # host arrays moved to devices: shared
        new._view = other._view
        new._shape = shape
        new._bound = {}
        return new

    # --- attributes --------------------------------------------------------
    @property
    def input_shape(self) -> tuple[int, ...] | None:
        """The shape this index is bound to (None when unbound)."""
        return self._shape

    @property
    def output_shape(self) -> tuple[int, ...] | None:
        """The shape of ``x[idx]`` (None when unbound)."""
        if self._shape is None:
            return None
        return next(iter(self._bound.values())).out_shape

    @property
    def is_bound(self) -> bool:
        """Whether the index is bound to a shape."""
        return self._shape is not None

    @property
    def is_view(self) -> bool:
        """Whether ``x[idx]`` is a view (basic indexing only)."""
        return self._view

    @property
    def device(self) -> Device | None:
        """The device of the key's arrays; None for host-only keys."""
        return self._device

    def __repr__(self) -> str:
        body = ", ".join(_item_repr(it) for it in self._items)
        if len(self._items) == 1:
            body += ","
        where = "" if self._shape is None else f", bound to {self._shape}"
        return f"ocean_ext.index[{body}]{where}"

    # --- binding -------------------------------------------------------------
    def _items_on(self, device: Device, where: str) -> tuple[Any, ...]:
        """The key's items with host arrays moved to ``device`` (cached)."""
        if self._device is not None and device != self._device:
            device_error(where, ("x", "key"), (device, self._device))
        items = self._hosted.get(device)
        if items is None:
            items = tuple(
                [
                    xp.asarray(it, device=device) if isinstance(it, np.ndarray) else it
                    for it in self._items
                ]
            )
            self._hosted[device] = items
        return items

    def _binding(self, device: Device, where: str) -> _Binding:
        """This bound index's resolution on ``device`` (computed once)."""
        b = self._bound.get(device)
        if b is None:
            assert self._shape is not None
            b = _resolve(self._items_on(device, where), self._shape, device, where)
            self._bound[device] = b
        return b

    def bind(self, target: Array | tuple[int, ...], /) -> Index:
        """Resolve the index against a shape, or against an array.

        Parameters
        ----------
        target : Array or tuple of int
            A shape, or an array: then the index is also resolved on the
            array's device, and the flat offsets of the selected elements for
            its memory layout are computed now.

        Returns
        -------
        Index
            A new, bound index (this one is unchanged).  Used on an array of
            another shape, it raises IndexError naming the dimension.

        Raises
        ------
        IndexError
            An index out of bounds (naming the axis), a mask whose shape does
            not match, too many indices, index arrays that do not broadcast.
        TypeError
            ``target`` is neither an array nor a tuple of ints.
        ValueError
            ``target`` is an array on another device than the key's arrays.

        Examples
        --------
        >>> import ocean_array_api as xp
        >>> import ocean_ext
        >>> idx = ocean_ext.index[xp.asarray([0, 3]), 2:]
        >>> idx.bind((5, 4)).output_shape
        (2, 2)
        >>> idx.bind((2, 4))
        Traceback (most recent call last):
            ...
        IndexError: Index.bind(): index 3 is out of bounds for axis 0 with size 2
        """
        if target.__class__ is Array:
            x: Array = target
            new = Index._copy_of(self, _shape(x))
            b = new._binding(x._device, _BIND)
            if not b.view:
                layout = _layout(x)
                if layout is not None:
                    b.flat_offsets(layout[1], layout[2], layout[0].shape[0])
            return new
        if not isinstance(target, (tuple, list)) or not all(
            n.__class__ is int and n >= 0 for n in target
        ):
            msg = (
                f"{_BIND}: `target` must be an array or a shape (a tuple of "
                f"non-negative ints), got {target!r}"
            )
            raise TypeError(msg)
        new = Index._copy_of(self, tuple(target))
        new._binding(self._device or default_device(), _BIND)
        return new

    # --- used by Array.__getitem__ / __setitem__ -------------------------------
    def _native_key(self, x: Array, where: str) -> Any:
        """The key in native form for an unbound use on ``x``."""
        return tuple(
            [
                index_data(it, x._device, where) if it.__class__ is Array else it
                for it in self._items_on(x._device, where)
            ]
        )

    def _unbound_error(self, x: Array, where: str, exc: Exception) -> None:
        """Re-raise a backend's IndexError with our message (naming the axis)."""
        _resolve(self._items_on(x._device, where), _shape(x), x._device, where)
        msg = f"{where}: {exc}"
        raise IndexError(msg) from None

    def _getitem(self, x: Array) -> Array:
        """``x[self]`` (called by ``Array.__getitem__``)."""
        dev = x._device
        data = x._data
        if self._shape is None:
            nkey = self._native_key(x, _GET)
            try:
                res = dev._ops["getitem"](data, nkey)
            except IndexError as exc:
                self._unbound_error(x, _GET, exc)
            return _result(res, x, not self._view)
        if data.shape != self._shape:
            _check_shape(self._shape, data.shape, _GET)
        b = self._bound.get(dev) or self._binding(dev, _GET)
        if not b.view:
            layout = _layout(x)
            if layout is not None:
                flat, start, strides = layout
                off = b.offsets.get((start, strides))
                if off is None:
                    off = b.flat_offsets(start, strides, flat.shape[0])
                return _result(dev._ops["take_flat"](flat, off), x, False)
        return _result(dev._ops["getitem"](data, b.nkey), x, not b.view)

    def _setitem(self, x: Array, value: Any) -> None:
        """``x[self] = value`` (called by ``Array.__setitem__``)."""
        from ocean_array_api._indexing import native_value

        _hooks.check_writable(x, _SET)
        dev = x._device
        data = x._data
        if self._shape is None:
            nkey = self._native_key(x, _SET)
            try:
                v = native_value(x, value, _SET)
            except (TypeError, ValueError):
                # the key's errors come first, as for x[key] = value
                items = self._items_on(dev, _SET)
                _resolve(items, _shape(x), dev, _SET)
                raise
            _hooks.check_writable(x, _SET)  # the value's own code ran since
            try:
                dev._ops["setitem"](data, nkey, v)
            except IndexError as exc:
                self._unbound_error(x, _SET, exc)
            except ValueError as exc:
                _value_error(exc)
            return
        if data.shape != self._shape:
            _check_shape(self._shape, data.shape, _SET)
        b = self._bound.get(dev) or self._binding(dev, _SET)
        v = native_value(x, value, _SET)
        if b.whole_mask and value.__class__ is Array and value.ndim > 1:
            msg = (
                f"{_SET}: a value assigned through a boolean mask must have 0 or 1 "
                f"dimensions, got {value.ndim}"
            )
            raise TypeError(msg)
        _hooks.check_writable(x, _SET)  # the value's own code ran since
        target: Any = data
        key: Any = b.nkey
        if not b.view:
            layout = _layout(x)
            if layout is not None:
                target, start, strides = layout
                key = b.offsets.get((start, strides))
                if key is None:
                    key = b.flat_offsets(start, strides, target.shape[0])
        try:
            dev._ops["setitem"](target, key, v)
        except ValueError as exc:
            _value_error(exc)


def _value_error(exc: ValueError) -> None:
    """Re-raise a backend's ValueError from a write, as ``__setitem__`` does."""
    if _hooks.is_readonly_failure(exc):
        raise _hooks.readonly_error(_SET) from None
    msg = f"{_SET}: {exc}"
    raise ValueError(msg) from None


def _layout(x: Array) -> tuple[Any, int, tuple[int, ...]] | None:
    """``x``'s memory as (1-D view, start, element strides), or None.

    None when the backend has no ``flat_layout`` entry or cannot express
    ``x`` that way; the index then applies its native key instead.
    """
    try:
        layout = x._device._ops["flat_layout"](x._data)
    except (KeyError, NotImplementedError):
        return None
    return cast("tuple[Any, int, tuple[int, ...]] | None", layout)


class _IndexBuilder:
    """``ocean_ext.index[key]``: an :class:`Index` from subscript syntax.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.arange(10)
    >>> even = ocean_ext.index[x % 2 == 0].bind(x)
    >>> x[even]
    Array([0, 2, 4, 6, 8], dtype=int64)
    >>> even.output_shape
    (5,)
    """

    __slots__ = ()

    def __getitem__(self, key: Any) -> Index:
        return Index(key)

    def __repr__(self) -> str:
        return "ocean_ext.index"


index = _IndexBuilder()
"""Build an :class:`Index` with subscript syntax: ``ocean_ext.index[mask, 1:5]``."""

_hooks.index_type = Index
