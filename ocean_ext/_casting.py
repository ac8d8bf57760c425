"""ensure and cast: dtype/device conversion that copies only when needed, or always.

Ocean converted tensors implicitly where a dtype or device did not match;
the standard namespace never does.  ``ensure`` is the explicit, cheap form
(``x`` itself when it already fits, which costs two identity tests), ``cast``
the one that always gives a new array the caller may write to.
"""

from __future__ import annotations

from typing import Any

import ocean_array_api as _xp
from ocean_array_api._array_object import Array
from ocean_array_api._devices import Device, parse_device
from ocean_array_api._dtypes import DType

__all__ = ["cast", "ensure"]


def _args(
    x: Any, dtype: Any, device: Any, where: str
) -> tuple[DType | None, Device | None]:
    """Validate the arguments -> (dtype or None, device or None)."""
    if x.__class__ is not Array:
        msg = (
            f"{where}: `x` must be an array of ocean_array_api, got "
            f"{type(x).__name__}; convert it with ocean_array_api.asarray() first"
        )
        raise TypeError(msg)
    if dtype is not None and dtype.__class__ is not DType:
        msg = (
            f"{where}: `dtype` must be a dtype of ocean_array_api or ocean_ext (e.g. "
            f"ocean_array_api.float32), got {dtype!r} of type {type(dtype).__name__}"
        )
        raise TypeError(msg)
    dev = None if device is None else parse_device(device, where)
    return dtype, dev


def _convert(x: Array, dt: DType, dev: Device, where: str) -> Array:
    """A new array: ``x`` converted to ``dt`` on ``dev`` (native byte order)."""
    if x._dtype._kind == "complex floating" and dt._kind != "complex floating":
        msg = (
            f"{where}: converting complex {x._dtype} to {dt} would drop the "
            f"imaginary part; use real() or abs() first"
        )
        raise TypeError(msg)
    # astype handles ocean_ext's dtypes (float16, complex32) too.
    return _xp.astype(x, dt, copy=True, device=dev)


def ensure(
    x: Array, dtype: DType | None = None, device: Device | str | None = None
) -> Array:
    """``x`` with the given dtype and on the given device, copying only if needed.

    Returns ``x`` itself (the very same object) when it already has ``dtype``
    and lives on ``device``; otherwise a converted copy.  Use it where a
    function needs one dtype or device and the caller's array usually has it
    already.

    Parameters
    ----------
    x : Array
        The array.
    dtype : DType, optional
        The dtype wanted (``None``: keep that of ``x``).  Conversions follow
        ``astype``; complex to real is refused.
    device : Device or str, optional
        The device wanted (``None``: keep that of ``x``), e.g. ``"cuda:0"``.

    Returns
    -------
    Array
        ``x``, or a new array in native byte order.

    Raises
    ------
    TypeError
        If ``x`` is not an array, ``dtype`` not a dtype or ``device`` not a
        device or string, or for a complex to real conversion.
    ValueError
        If ``device`` names no device of this machine.

    See Also
    --------
    cast : always a new array

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.ones(3, dtype=xp.float32)
    >>> ocean_ext.ensure(x, xp.float32) is x
    True
    >>> ocean_ext.ensure(x, xp.float64)
    Array([1., 1., 1.], dtype=float64)
    >>> ocean_ext.ensure(x, device="cpu:1").device
    Device('cpu', 1)
    """
    where = "ensure()"
    dt, dev = _args(x, dtype, device, where)
    if (dt is None or dt is x._dtype) and (dev is None or dev is x._device):
        return x
    return _convert(
        x, x._dtype if dt is None else dt, x._device if dev is None else dev, where
    )


def cast(
    x: Array, dtype: DType | None = None, device: Device | str | None = None
) -> Array:
    """A new array with the values of ``x``, converted to ``dtype`` on ``device``.

    Unlike :func:`ensure`, always a new array (never a view of ``x``), even
    when nothing changes, so the result can be written to freely.

    Parameters
    ----------
    x : Array
        The array.
    dtype : DType, optional
        The dtype of the result (``None``: that of ``x``).  Conversions follow
        ``astype``; complex to real is refused.
    device : Device or str, optional
        The device of the result (``None``: that of ``x``).

    Returns
    -------
    Array
        A new array, in native byte order.

    Raises
    ------
    TypeError
        If ``x`` is not an array, ``dtype`` not a dtype or ``device`` not a
        device or string, or for a complex to real conversion.
    ValueError
        If ``device`` names no device of this machine.

    See Also
    --------
    ensure : ``x`` itself when nothing changes

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.asarray([1.5, -2.5])
    >>> y = ocean_ext.cast(x)
    >>> y is x, bool(xp.all(y == x))
    (False, True)
    >>> ocean_ext.cast(x, xp.int32)
    Array([ 1, -2], dtype=int32)
    """
    where = "cast()"
    dt, dev = _args(x, dtype, device, where)
    return _convert(
        x, x._dtype if dt is None else dt, x._device if dev is None else dev, where
    )
