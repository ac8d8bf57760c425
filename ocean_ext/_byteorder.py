"""Byte order: byteorder, is_byteswapped, byteswap, reinterpret_byteorder, asarray.

Arrays on the CPU may hold their elements in either byte order, e.g. the
big-endian data of a FITS file used in place.  Such an array has our dtype
(``float64``) and its data a NumPy dtype of the other byte order (``'>f8'`` on
a little-endian machine).  The rules:

- every function and operator of ``ocean_array_api`` accepts byte-swapped
  arrays, and every result that is a new array is in native byte order;
- a *view* (``x[1:]``, ``reshape``, ``permute_dims``, ``x.mT``,
  ``expand_dims``, ...) is the same memory, so it keeps the byte order;
- in-place operations and ``x[key] = v`` write in the byte order of ``x``;
- devices without non-native byte order (CUDA) refuse byte-swapped arrays,
  and moving a byte-swapped array there converts it on the way.
"""

from __future__ import annotations

import sys
from typing import Any, Literal

import numpy as np

import ocean_array_api as _xp
from ocean_array_api import _dtypes as _dt
from ocean_array_api._array_object import Array, _wrap
from ocean_array_api._devices import Device, default_device, parse_device
from ocean_array_api._dtypes import DType

__all__ = [
    "asarray",
    "byteorder",
    "byteswap",
    "is_byteswapped",
    "reinterpret_byteorder",
]

_NATIVE = sys.byteorder  # "little" or "big"
_CHAR: dict[str, Literal["<", ">"]] = {"little": "<", "big": ">"}


def _check_array(x: Any, where: str) -> None:
    if x.__class__ is not Array:
        msg = (
            f"{where}: `x` must be an array of ocean_array_api, got "
            f"{type(x).__name__}; convert it with ocean_ext.asarray() first"
        )
        raise TypeError(msg)


def _order_arg(order: Any, where: str, argname: str) -> str:
    """ "little" or "big" from a byte-order argument ("native" allowed)."""
    if order.__class__ is not str:
        msg = (
            f"{where}: `{argname}` must be 'little' or 'big', got {order!r} of "
            f"type {type(order).__name__}"
        )
        raise TypeError(msg)
    if order == "native":
        return _NATIVE
    if order not in _CHAR:
        msg = f"{where}: `{argname}` must be 'little', 'big' or 'native', got {order!r}"
        raise ValueError(msg)
    return order


def _order_of(native: np.dtype) -> str:
    bo = native.byteorder
    if bo == ">":
        return "big"
    if bo == "<":
        return "little"
    return _NATIVE  # "=" (native) or "|" (one byte: no byte order)


def _supports(device: Device) -> bool:
    return bool(getattr(device._backend, "supports_byteswap", False))


def _refuse_device(device: Device, where: str) -> None:
    msg = (
        f"{where}: {device!r} has no non-native byte order (its backend lacks "
        f"supports_byteswap); byte-swapped arrays live on the CPU only"
    )
    raise ValueError(msg)


def _swappable(dt: DType, where: str) -> None:
    """TypeError for dtypes whose elements are not one NumPy scalar each."""
    if _dt.from_native(dt._native) is not dt:
        msg = f"{where}: arrays of dtype {dt} have no byte-swapped form"
        raise TypeError(msg)


def _with_order(native: np.dtype, order: str) -> np.dtype:
    return native.newbyteorder(_CHAR[order])


def byteorder(x: Array) -> str:
    """The byte order of the elements of ``x`` in memory.

    Parameters
    ----------
    x : Array
        The array.

    Returns
    -------
    str
        ``"little"`` or ``"big"``.  Arrays of one-byte dtypes (``bool``,
        ``int8``, ``uint8``) have no byte order and report the machine's
        (``sys.byteorder``).

    See Also
    --------
    is_byteswapped, byteswap, reinterpret_byteorder

    Examples
    --------
    >>> import numpy as np
    >>> import ocean_ext
    >>> x = ocean_ext.asarray(np.arange(3, dtype=">f8"))
    >>> ocean_ext.byteorder(x)
    'big'
    >>> ocean_ext.byteorder(ocean_ext.asarray(np.arange(3, dtype="<f8")))
    'little'
    """
    _check_array(x, "byteorder()")
    return _order_of(x._data.dtype)


def is_byteswapped(x: Array) -> bool:
    """Whether the elements of ``x`` are in the machine's non-native byte order.

    Parameters
    ----------
    x : Array
        The array.

    Returns
    -------
    bool

    Examples
    --------
    >>> import numpy as np
    >>> import sys
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> other = ">f8" if sys.byteorder == "little" else "<f8"
    >>> x = ocean_ext.asarray(np.arange(3, dtype=other))
    >>> ocean_ext.is_byteswapped(x)
    True
    >>> ocean_ext.is_byteswapped(x + 1)          # results are native
    False
    >>> ocean_ext.is_byteswapped(x[1:])          # a view is the same memory
    True
    """
    _check_array(x, "is_byteswapped()")
    return not x._data.dtype.isnative


def byteswap(x: Array) -> Array:
    """A new array with the values of ``x``, in the other byte order.

    Parameters
    ----------
    x : Array
        The array (on a device that supports non-native byte order when the
        result would be byte-swapped: the CPU).

    Returns
    -------
    Array
        Same dtype, shape, device and values; the bytes of each element
        reversed.  Arrays of one-byte dtypes have no byte order: the result is
        a copy.

    Raises
    ------
    TypeError
        If ``x`` is not an array, or its dtype has no byte-swapped form.
    ValueError
        If the result would be byte-swapped on a device without non-native
        byte order (CUDA).

    See Also
    --------
    reinterpret_byteorder : the same memory read in another byte order

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.asarray([1.0, 2.5])
    >>> y = ocean_ext.byteswap(x)
    >>> ocean_ext.is_byteswapped(y), bool(xp.all(y == x))
    (True, True)
    >>> ocean_ext.is_byteswapped(ocean_ext.byteswap(y))
    False
    """
    where = "byteswap()"
    _check_array(x, where)
    _swappable(x._dtype, where)
    data = x._data
    dev = x._device
    native = data.dtype
    if native.itemsize == 1 or native.byteorder == "|":
        return _wrap(dev._ops["copy"](data), x._dtype, dev)
    target = native.newbyteorder("S")
    if not target.isnative and not _supports(dev):
        _refuse_device(dev, where)
    return _wrap(data.astype(target), x._dtype, dev)


def reinterpret_byteorder(x: Array, order: str) -> Array:
    """A view of the memory of ``x``, its elements read in byte order ``order``.

    Nothing is copied or converted: where ``order`` differs from the byte
    order of ``x`` the values change (the bytes of each element are read the
    other way round).  Use it to declare the byte order of data that was read
    as the wrong one; use :func:`byteswap` to keep the values.

    Parameters
    ----------
    x : Array
        The array.
    order : {"little", "big", "native"}
        The byte order to read the memory in.

    Returns
    -------
    Array
        A view of ``x`` (writes to one show in the other): same dtype, shape
        and device.

    Raises
    ------
    TypeError
        If ``x`` is not an array, ``order`` not a str, or the dtype of ``x``
        has no byte-swapped form.
    ValueError
        If ``order`` is not one of the above, or is non-native on a device
        without non-native byte order (CUDA).

    Examples
    --------
    >>> import numpy as np
    >>> import ocean_ext
    >>> raw = np.array([1, 256], dtype="<u2")        # bytes 01 00, 00 01
    >>> x = ocean_ext.asarray(raw)
    >>> ocean_ext.reinterpret_byteorder(x, "big")
    Array([256,   1], dtype=uint16)
    """
    where = "reinterpret_byteorder()"
    _check_array(x, where)
    want = _order_arg(order, where, "order")
    _swappable(x._dtype, where)
    data = x._data
    native = data.dtype
    if native.itemsize == 1 or native.byteorder == "|":
        return _wrap(data.view(), x._dtype, x._device)
    target = _with_order(native, want)
    if not target.isnative and not _supports(x._device):
        _refuse_device(x._device, where)
    return _wrap(data.view(target), x._dtype, x._device)


def asarray(
    obj: Any,
    /,
    *,
    dtype: DType | None = None,
    device: Device | str | None = None,
    copy: bool | None = None,
    byteorder: str | None = None,
) -> Array:
    """Like ``ocean_array_api.asarray``, keeping the byte order of the input.

    ``ocean_array_api.asarray`` converts a byte-swapped NumPy array to native
    order (a copy); this one uses its memory as it is, without a copy, e.g.
    the big-endian data of a FITS file.  ``byteorder=`` asks for a byte order
    (converting when the input has the other).

    Parameters
    ----------
    obj : object
        Anything ``ocean_array_api.asarray`` accepts.  The byte order of NumPy
        arrays and of arrays of this library is kept; other inputs give
        native arrays (unless ``byteorder`` asks otherwise).
    dtype : DType, optional
        The dtype of the result (a conversion keeps the byte order).
    device : Device or str, optional
        The device of the result.  Only devices that support non-native byte
        order (the CPU) hold byte-swapped arrays: on others the data is
        converted to native order on the way.
    copy : bool, optional
        As for ``ocean_array_api.asarray``: ``True`` always copies (keeping the
        byte order), ``False`` never copies (ValueError when a dtype, device
        or byte-order change needs one), ``None`` copies only when needed.
    byteorder : {"little", "big", "native"}, optional
        The byte order of the result.  Default: that of ``obj``.

    Returns
    -------
    Array

    Raises
    ------
    TypeError
        For an invalid argument type, or inputs ``ocean_array_api.asarray``
        refuses.
    ValueError
        If ``copy=False`` but a copy is needed, ``byteorder`` is not one of the
        above, or a non-native ``byteorder`` is asked for on a device without
        non-native byte order (CUDA).

    Examples
    --------
    >>> import numpy as np
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> data = np.arange(4, dtype=">f8")             # e.g. from a FITS file
    >>> x = ocean_ext.asarray(data)
    >>> ocean_ext.byteorder(x), ocean_ext.shares_memory(x, data)
    ('big', True)
    >>> xp.sum(x)
    Array(6., dtype=float64)
    >>> ocean_ext.byteorder(ocean_ext.asarray([1, 2], byteorder="big"))
    'big'
    """
    where = "ocean_ext.asarray()"
    want = None if byteorder is None else _order_arg(byteorder, where, "byteorder")
    if dtype is not None and dtype.__class__ is not DType:
        msg = (
            f"{where}: `dtype` must be a dtype of ocean_array_api (e.g. "
            f"ocean_array_api.float64), got {dtype!r} of type {type(dtype).__name__}"
        )
        raise TypeError(msg)
    if copy is not None and copy is not True and copy is not False:
        msg = f"{where}: `copy` must be True, False or None, got {copy!r}"
        raise TypeError(msg)
    dev_arg = None if device is None else parse_device(device, where)

    # Sources whose byte order matters: our arrays and NumPy arrays.
    src: Any = None
    src_dev: Device | None = None  # None: host memory, used in place on the CPU
    src_dt: DType | None = None
    if obj.__class__ is Array:
        src, src_dev, src_dt = obj._data, obj._device, obj._dtype
    elif isinstance(obj, np.ndarray) and obj.dtype != object:
        src, src_dt = obj, _dt.from_native(obj.dtype)
    if src is None or src_dt is None or (want is None and src.dtype.isnative):
        # Python data, buffers, DLPack objects, native arrays: ocean_array_api
        # converts them (to native order), then the byte order asked for.
        res = _xp.asarray(obj, dtype=dtype, device=dev_arg, copy=copy)
        if want is None or _order_of(res._data.dtype) == want:
            return res
        if copy is False:
            msg = f"{where}: converting to {want}-endian needs a copy but copy=False"
            raise ValueError(msg)
        return _convert_order(res._data, res._dtype, res._device, want, where)

    if dev_arg is None:
        dev = src_dev if src_dev is not None else default_device()
    else:
        dev = dev_arg
    target_dt = src_dt if dtype is None else dtype
    if src_dt._kind == "complex floating" and target_dt._kind != "complex floating":
        msg = (
            f"{where}: converting complex {src_dt} to {target_dt} would drop the "
            f"imaginary part; use real() or abs() first"
        )
        raise TypeError(msg)
    if want is None:
        want = _order_of(src.dtype)
        if want != _NATIVE and (
            not _supports(dev) or _dt.from_native(target_dt._native) is not target_dt
        ):
            # Moving to such a device swaps on the way; a dtype without a
            # byte-swapped form (complex32) can only be native.
            want = _NATIVE
    elif want != _NATIVE and not _supports(dev):
        _refuse_device(dev, where)
    if want != _NATIVE:
        _swappable(target_dt, where)
    same_dev = dev is src_dev if src_dev is not None else dev._kind == "cpu"
    same_order = src.dtype.itemsize == 1 or _order_of(src.dtype) == want
    if target_dt is src_dt and same_dev and same_order:
        # Nothing to convert: the memory itself, or a copy of it as it is.
        if not copy:
            data = src if src_dev is not None else np.asarray(src)
        elif dev._kind == "cpu":
            data = np.array(src, copy=True)  # keeps the byte order
        else:
            data = dev._ops["copy"](src)
        return _wrap(data, src_dt, dev)
    if copy is False:
        msg = (
            f"{where}: converting {src_dt} ({_order_of(src.dtype)}-endian) to "
            f"{target_dt} ({want}-endian) on {dev} needs a copy but copy=False"
        )
        raise ValueError(msg)
    if (
        dev._kind == "cpu"
        and (src_dev is None or src_dev._kind == "cpu")
        and target_dt._standard
    ):
        # One pass converts dtype and byte order together (the logical CPU
        # devices share memory).
        data = np.asarray(src).astype(_with_order(target_dt._native, want))
        return _wrap(data, target_dt, dev)
    # Other devices: ocean_array_api converts (to native order, on the way).
    res = _xp.asarray(obj, dtype=dtype, device=dev, copy=copy)
    if _order_of(res._data.dtype) == want:
        return res
    return _convert_order(res._data, res._dtype, dev, want, where)


def _convert_order(data: Any, dt: DType, dev: Device, want: str, where: str) -> Array:
    if data.dtype.itemsize == 1:
        return _wrap(data, dt, dev)
    if want != _NATIVE and not _supports(dev):
        _refuse_device(dev, where)
    _swappable(dt, where)
    return _wrap(data.astype(_with_order(data.dtype, want)), dt, dev)
