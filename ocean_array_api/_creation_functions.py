"""Creation functions of the Array API standard, and DLPack export/import."""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _array_object as _ao
from . import _devices, _hints
from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from ._array_object import Array, _transfer, _wrap, host_conversions
from ._devices import CPU as _CPU
from ._devices import Device, default_device, parse_device
from ._dtypes import DType, check_dtype_arg
from ._helpers import (
    check_copy,
    check_int,
    check_shape,
    check_size,
    device_error,
    matrix_bounds,
    type_error,
)

_MAX = sys.maxsize

__all__ = [
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full",
    "full_like", "linspace", "meshgrid", "ones", "ones_like", "tril", "triu",
    "zeros", "zeros_like",
]  # fmt: skip

_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"


def _device_arg(device: object, where: str) -> Device:
    return default_device() if device is None else parse_device(device, where)


def _dtype_arg(dtype: object, where: str) -> DType | None:
    return None if dtype is None else check_dtype_arg(dtype, where)


# --- asarray -------------------------------------------------------------------
def _infer_scalar_dtype(obj: Any, where: str) -> DType:
    """Default dtype of a Python scalar or nested sequence of them."""
    kinds = set()
    seen: set[int] = set()  # each list once: a list may hold itself
    stack = [obj]
    while stack:
        o = stack.pop()
        t = o.__class__
        if t is bool:
            kinds.add(0)
        elif t is int:
            kinds.add(1)
        elif t is float:
            kinds.add(2)
        elif t is complex:
            kinds.add(3)
        elif t is Array:
            msg = f"{where}: a sequence mixing arrays and Python scalars is not supported; use stack()"
            raise TypeError(msg)
        elif isinstance(o, (list, tuple)):
            if id(o) not in seen:
                seen.add(id(o))
                stack.extend(o)
        elif isinstance(o, np.generic):
            kinds.add(4)
        else:
            type_error(
                where,
                "obj",
                "an array, a Python scalar, a (nested) sequence of them, a buffer or a DLPack object",
                o,
            )
    if 4 in kinds:
        return None  # type: ignore[return-value]  # let NumPy decide
    if not kinds:
        return _dt.DEFAULT_FLOAT
    if kinds == {0}:
        return _dt.bool
    if 0 in kinds and len(kinds) > 1:
        msg = f"{where}: cannot mix Python bools with numbers in one array"
        raise TypeError(msg)
    top = max(kinds)
    return (_dt.DEFAULT_INT, _dt.DEFAULT_INT, _dt.DEFAULT_FLOAT, _dt.DEFAULT_COMPLEX)[
        top
    ]


# NumPy's inference from Python data -> our dtype, where it agrees with the
# standard's defaults (anything else goes through the careful path).
_ndarray = np.ndarray
_scope_get = _devices._scope.get
# id(NumPy's descriptor) -> standard DType, for asarray's fast path.  The
# built-in native-order descriptors are singletons (np.zeros(3).dtype is
# np.dtype("float64")); the dict keeps them alive, so the ids stay valid.
_HOST_DESCRS = [(np.dtype(d._native), d) for d in _dt._all]
_HOST_DTYPES = {id(n): d for n, d in _HOST_DESCRS if n.isnative}

_PYTHON_DEFAULTS = {
    np.dtype(np.bool_): _dt.bool,
    np.dtype(np.int64): _dt.DEFAULT_INT,
    np.dtype(np.float64): _dt.DEFAULT_FLOAT,
    np.dtype(np.complex128): _dt.DEFAULT_COMPLEX,
}


def _from_native_dtype(native: np.dtype, where: str) -> DType:
    dt = _dt.from_native(native)
    if dt is None or not dt._standard:
        hint = (
            " (ocean_ext supports float16)"
            if native.kind == "f" and native.itemsize == 2
            else ""
        )
        msg = (
            f"{where}: input of NumPy dtype {native} has no standard dtype here; "
            f"convert it first{hint}"
        )
        raise TypeError(msg)
    return dt


def _check_not_dropping_imaginary(src: DType, dst: DType, where: str) -> None:
    """TypeError for a complex-to-real conversion, as astype() refuses it (NumPy
    would drop the imaginary parts with a ComplexWarning)."""
    if src._kind == "complex floating" and dst._kind != "complex floating":
        msg = f"{where}: converting complex values to {dst} would drop the imaginary part; use real() or abs() first"
        raise TypeError(msg)


def asarray(
    obj: Any,
    /,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    copy: bool | None = None,
) -> Array:
    """Convert ``obj`` to an array.

    ``obj`` may be an array of this namespace, a Python scalar or nested
    sequence of scalars, a NumPy array or scalar, an object with the buffer
    protocol, or an object with ``__dlpack__``.  Python ints outside the int64
    range raise OverflowError.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.asarray.html
    """
    if (
        obj.__class__ is _ndarray
        and dtype is None
        and device is None
        and copy is None
        and (dt := _HOST_DTYPES.get(id(obj.dtype))) is not None
    ):
        # Fast path: a NumPy array of a standard dtype in native byte order
        # (NumPy's own descriptors, compared by identity), no keywords, and
        # the CPU as the default device (default_device(), inlined): the array
        # itself, as the general path below gives.
        if not _scope_get() and _devices._env_checked and _devices._env_default is None:
            return _wrap(obj, dt, _CPU)
        dev = default_device()
        if dev._kind == "cpu":
            return _wrap(obj, dt, dev)
    where = "asarray()"
    # (checks inlined: asarray of a short list is a benchmarked small op)
    dt = None if dtype is None else check_dtype_arg(dtype, where)
    if copy is not None and copy is not True and copy is not False:
        check_copy(copy, where)
    if obj.__class__ is Array:
        dev = obj._device if device is None else parse_device(device, where)
        data = obj._data
        if dev is not obj._device:
            if copy is False:
                msg = f"{where}: moving an array from {obj._device} to {dev} needs a copy but copy=False"
                raise ValueError(msg)
            data = _transfer(data, obj._device, dev, None)
            copied = True
        else:
            copied = False
        if dt is not None and dt is not obj._dtype:
            _check_not_dropping_imaginary(obj._dtype, dt, where)
            if copy is False:
                msg = f"{where}: converting {obj._dtype} to {dt} needs a copy but copy=False"
                raise ValueError(msg)
            if not (dt._standard and obj._dtype._standard):  # ocean_ext dtypes
                return _wrap(_ext.convert(dev, data, obj._dtype, dt, where), dt, dev)
            return _wrap(dev._ops["astype"](data, dt._native, True), dt, dev)
        if copy and not copied:
            data = dev._ops["copy"](data)
        return _wrap(data, obj._dtype, dev)

    dev = default_device() if device is None else parse_device(device, where)
    backend = dev._backend
    t = obj.__class__
    if t is list or t is tuple or t in (bool, int, float, complex):
        if copy is False:
            msg = f"{where}: converting Python objects always copies, but copy=False"
            raise ValueError(msg)
        if dt is not None and not dt._standard:  # an ocean_ext dtype
            return _ext.asarray_python(obj, dt, dev)
        before = host_conversions[0]
        try:
            data = backend.asarray(
                obj, None if dt is None else dt._native, dev._index, None
            )
        except OverflowError as exc:  # a Python int (or inf) out of dtype's range
            msg = f"{where}: {exc}"
            raise OverflowError(msg) from None
        except (ValueError, TypeError) as exc:
            devices = _nested_devices(obj)
            if devices:  # a sequence of our arrays on a non-CPU device
                return _asarray_of_nested(obj, devices, dt, device, where)
            msg = f"{where}: cannot convert `obj` to an array: {exc}"
            raise (TypeError if isinstance(exc, TypeError) else ValueError)(
                msg
            ) from None
        if host_conversions[0] != before:
            # NumPy took Arrays of a CPU device in the sequence through
            # __array__ (or another thread did): where they are and whether
            # they agree decide the device, as for any other device
            devices = _nested_devices(obj)
            if devices:
                return _asarray_of_nested(obj, devices, dt, device, where)
        if dt is None:
            dt = _PYTHON_DEFAULTS.get(data.dtype)
            if dt is None:
                _infer_scalar_dtype(obj, where)  # raises a precise error
                if data.dtype == np.uint64 or data.dtype == object:
                    _check_int_range(obj, _dt.DEFAULT_INT, where)
                dt = _from_native_dtype(data.dtype, where)
        return _wrap(data, dt, dev)

    if isinstance(obj, np.ndarray):
        host = obj
    elif isinstance(obj, np.generic):
        # Note: a NumPy scalar's astype() gives a NumPy scalar, which must
        # never become an Array's data (in-place operators then failed).
        host = np.asarray(obj)
    elif hasattr(obj, "__dlpack__") and not hasattr(obj, "__array_interface__"):
        return from_dlpack(obj, device=dev, copy=copy)
    else:
        try:
            host = (
                np.asarray(memoryview(obj))
                if not hasattr(obj, "__array_interface__")
                else np.asarray(obj)
            )
        except TypeError:
            _lazy_collection(obj, where)
            type_error(
                where,
                "obj",
                "an array, a Python scalar, a sequence, a buffer or a DLPack object",
                obj,
            )
    if dt is not None and not dt._standard:  # an ocean_ext dtype
        if host.dtype.kind == "c":
            _check_not_dropping_imaginary(_dt.complex128, dt, where)
        return _ext.asarray_host(host, dt, dev, copy)
    src_dt = _from_native_dtype(host.dtype, where) if host.dtype != object else None
    if src_dt is None:
        msg = f"{where}: input of NumPy dtype object is not supported"
        raise TypeError(msg)
    target = dt if dt is not None else src_dt
    _check_not_dropping_imaginary(src_dt, target, where)
    needs_convert = target is not src_dt or not host.dtype.isnative
    if dev._kind == "cpu":
        if needs_convert:
            if copy is False:
                msg = f"{where}: converting {host.dtype} to {target} needs a copy but copy=False"
                raise ValueError(msg)
            data = host.astype(target._native)
        else:
            data = np.array(host, copy=copy) if copy else np.asarray(host)
        return _wrap(data, target, dev)
    if copy is False:
        msg = f"{where}: moving host data to {dev} needs a copy but copy=False"
        raise ValueError(msg)
    if needs_convert:
        host = host.astype(target._native)
    return _wrap(backend.from_host(np.asarray(host), dev._index), target, dev)


_MAX_NESTING = 64  # NumPy's most dimensions


def _nested_devices(obj: Any) -> set[Device]:
    """The devices of the Arrays inside a nested list/tuple (empty for plain
    Python data)."""
    found: set[Device] = set()
    seen: set[int] = set()  # each list once: a list may hold itself (l.append(l))
    stack = [obj]
    while stack:
        o = stack.pop()
        if o.__class__ is Array:
            found.add(o._device)
        elif (o.__class__ is list or o.__class__ is tuple) and id(o) not in seen:
            seen.add(id(o))
            stack.extend(o)
    return found


def _asarray_of_nested(
    obj: Any, devices: set[Device], dt: DType | None, device: Any, where: str
) -> Array:
    """``asarray`` of a nested sequence holding Arrays (e.g. 0-d results).

    Without ``device=`` the result goes where the Arrays are (they must agree:
    mixing devices is an error); the values are gathered on the host and moved
    once.  NumPy and CuPy accept such sequences; the CPU path gets here only
    through ``Array.__array__``, which refuses non-CPU arrays.
    """
    if device is None:
        if len(devices) > 1:
            names = ", ".join(sorted(str(d) for d in devices))
            msg = f"{where}: the arrays in `obj` are on different devices ({names})"
            raise ValueError(msg)
        dev = next(iter(devices))
    else:
        dev = parse_device(device, where)

    def to_host(o: Any, depth: int) -> Any:
        if o.__class__ is Array:
            return o._device._backend.to_host(o._data)
        if o.__class__ is list or o.__class__ is tuple:
            if depth > _MAX_NESTING:  # (a list that holds itself never ends)
                msg = (
                    f"`obj` nests sequences more than {_MAX_NESTING} deep "
                    f"(an array has at most {_MAX_NESTING} dimensions)"
                )
                raise ValueError(msg)
            return [to_host(e, depth + 1) for e in o]
        return o

    try:
        host = np.asarray(to_host(obj, 1), dtype=None if dt is None else dt._native)
    except (ValueError, TypeError) as exc:
        msg = f"{where}: cannot convert `obj` to an array: {exc}"
        raise (TypeError if isinstance(exc, TypeError) else ValueError)(msg) from None
    return asarray(host, dtype=dt, device=dev)


def _check_int_range(obj: Any, dt: DType, where: str) -> None:
    info = np.iinfo(dt._native)
    seen: set[int] = set()  # each list once: a list may hold itself
    stack = [obj]
    while stack:
        o = stack.pop()
        if o.__class__ is int:
            if not info.min <= o <= info.max:
                msg = f"{where}: Python int {o} is out of bounds for {dt}"
                raise OverflowError(msg)
        elif isinstance(o, (list, tuple)) and id(o) not in seen:
            seen.add(id(o))
            stack.extend(o)


# --- filled arrays ----------------------------------------------------------------
def _scalar_of(value: Any, where: str, argname: str, devices: list[Device]) -> Any:
    """The Python scalar a 0-d array passed for a scalar argument stands for.

    The standard types the bounds of ``linspace`` and ``arange`` and the fill
    value of ``full`` as Python scalars; NumPy, CuPy, PyTorch, JAX and
    array-api-strict all accept a 0-d array there too, and SciPy passes one,
    so refusing it would protect no portable code.  Its value counts (``bool``,
    ``int``, ``float`` or ``complex`` by its dtype's kind; reading it computes
    a lazy array), and its device is appended to ``devices``: the result goes
    there (see :func:`_scalar_device`).  Anything else is returned unchanged.
    """
    if value.__class__ is not Array:
        return value
    if value._data.ndim != 0:
        msg = (
            f"{where}: `{argname}` must be a Python scalar or a 0-d array, got an "
            f"array of shape {value._data.shape}"
        )
        raise TypeError(msg)
    devices.append(value._device)
    dt = value._dtype
    if dt is _dt.bool:
        return bool(value)
    if dt in _dt._integer:
        return int(value)
    if dt in _dt._complex_floating or (not dt._standard and "complex" in dt._name):
        return complex(value)
    return float(value)


def _scalar_device(
    device: Any, devices: list[Device], names: tuple[str, ...], where: str
) -> Any:
    """``device`` for a result whose scalar arguments ``names`` were 0-d arrays
    on ``devices``: theirs when ``device`` is None; mixing devices (among them
    or with ``device``) is the usual device error."""
    if not devices:
        return device
    first = devices[0]
    for dev, name in zip(devices[1:], names[1:], strict=False):
        if dev is not first:
            device_error(where, (names[0], name), (first, dev))
    if device is None:
        return first
    dev = parse_device(device, where)
    if dev is not first:
        device_error(where, (names[0], "device"), (first, dev))
    return dev


def _fill_dtype(fill_value: Any, dt: DType | None, where: str) -> DType:
    t = fill_value.__class__
    if t not in (bool, int, float, complex):
        if isinstance(fill_value, np.generic):
            fill_value = fill_value.item()
            t = fill_value.__class__
        else:
            type_error(
                where, "fill_value", "a Python bool, int, float or complex", fill_value
            )
    if dt is None:
        dt = {
            bool: _dt.bool,
            int: _dt.DEFAULT_INT,
            float: _dt.DEFAULT_FLOAT,
            complex: _dt.DEFAULT_COMPLEX,
        }[t]
        if t is int:
            _check_int_range(fill_value, dt, where)
        return dt
    ok = (
        (t is bool and dt is _dt.bool)
        or (t is int and dt in _dt._numeric)
        or (t is float and dt in _dt._floating)
        or (t is complex and dt in _dt._complex_floating)
    )
    if not ok and not dt._standard:  # an ocean_ext dtype: as its proxy
        ok = _ext.scalar_ok(t, dt, False)
    if not ok:
        msg = f"{where}: a Python {t.__name__} fill_value does not fit dtype {dt}"
        raise TypeError(msg)
    if t is int and dt in _dt._integer:
        _check_int_range(fill_value, dt, where)
    return dt


@_hints.keyword_only
def full(
    shape: int | tuple[int, ...],
    fill_value: bool | int | float | complex,
    *_positional: Any,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """An array of ``shape`` filled with ``fill_value``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.full.html
    """
    if _positional:
        raise _hints.positional_error(full, (shape, fill_value, *_positional))
    where = "full()"
    if fill_value.__class__ is Array:  # a 0-d array: its value, dtype and device
        devs: list[Device] = []
        fill_dtype = fill_value._dtype
        fill_value = _scalar_of(fill_value, where, "fill_value", devs)
        dtype = fill_dtype if dtype is None else dtype
        device = _scalar_device(device, devs, ("fill_value",), where)
    shp = check_shape(shape, where)
    dt = _fill_dtype(fill_value, _dtype_arg(dtype, where), where)
    dev = _device_arg(device, where)
    if isinstance(fill_value, np.generic):
        fill_value = fill_value.item()
    if not dt._standard:  # an ocean_ext dtype
        return _ext.full(shp, fill_value, dt, dev)
    return _wrap(dev._ops["full"](dev._index, shp, fill_value, dt._native), dt, dev)


def _filled(name: str, fill: int) -> Any:
    where = f"{name}()"

    @_hints.keyword_only
    def func(
        shape: int | tuple[int, ...],
        *_positional: Any,
        dtype: DType | None = None,
        device: Device | None = None,
    ) -> Array:
        if _positional:
            raise _hints.positional_error(func, (shape, *_positional))
        shp = check_shape(shape, where)
        dt = _dt.DEFAULT_FLOAT if dtype is None else check_dtype_arg(dtype, where)
        dev = _device_arg(device, where)
        if not dt._standard:  # an ocean_ext dtype
            return _ext.filled(name, shp, dt, dev)
        return _wrap(dev._ops[name](dev._index, shp, dt._native), dt, dev)

    func.__name__ = func.__qualname__ = name
    return func


zeros = _filled("zeros", 0)
zeros.__doc__ = f"An array of zeros.\n\nSee {_SPEC.format('zeros')}"
ones = _filled("ones", 1)
ones.__doc__ = f"An array of ones.\n\nSee {_SPEC.format('ones')}"
empty = _filled("empty", 0)
empty.__doc__ = f"An uninitialised array.\n\nSee {_SPEC.format('empty')}"


def _like(name: str, base: Any) -> Any:
    where = f"{name}()"

    @_hints.keyword_only
    def func(
        x: Array,
        /,
        *_positional: Any,
        dtype: DType | None = None,
        device: Device | None = None,
    ) -> Array:
        if _positional:
            raise _hints.positional_error(func, (x, *_positional))
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
        if None in x._data.shape:
            # the 0-d value made by ``base`` itself: a Python 0 or 1 would not
            # fit every dtype (bool)
            return _like_unknown(
                where, x, lambda dt, dev: base((), dtype=dt, device=dev), dtype, device
            )
        return base(
            x._data.shape,
            dtype=x._dtype if dtype is None else dtype,
            device=x._device if device is None else device,
        )

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"Like {base.__name__}(), with the shape (and by default dtype and device) of ``x``.\n\nSee {_SPEC.format(name)}"
    return func


def _lazy_collection(obj: Any, where: str) -> None:
    """TypeError pointing to ``ocean_ext.from_dask`` for a dask array (which
    ``asarray`` does not take: it would have to compute it, or wrap its
    graph, which is ``from_dask``'s explicit job)."""
    cls = type(obj)
    if cls.__name__ == "Array" and cls.__module__.startswith("dask."):
        msg = (
            f"{where}: `obj` is a dask.array.Array; wrap it lazily with "
            f"ocean_ext.from_dask(obj) (an array on the 'dask' device, sharing "
            f"its graph), or compute it first (obj.compute()) for an array in "
            f"memory"
        )
        raise TypeError(msg)


def _like_unknown(
    where: str,
    x: Array,
    make: Callable[[DType, Device], Array],
    dtype: DType | None,
    device: Any,
) -> Array:
    """``*_like`` of an array whose shape has data-dependent sizes (None, on a
    lazy device): the 0-d value ``make(dtype, device)`` put in the shape of
    ``x``'s chunks by the table's ``full_like`` entry (no size is needed), on
    ``x``'s device."""
    dev = x._device if device is None else parse_device(device, where)
    ops = x._device._ops
    if dev is not x._device or "full_like" not in ops:
        msg = (
            f"{where}: `x` has a data-dependent shape {x.shape} on {x._device}, "
            f"which another device cannot take without its values; compute it "
            f"first (ocean_ext.compute) or make the array on {x._device}"
        )
        raise NotImplementedError(msg)
    value = make(x._dtype if dtype is None else dtype, dev)
    return _wrap(ops["full_like"](x._data, value._data), value._dtype, dev)


zeros_like = _like("zeros_like", zeros)
ones_like = _like("ones_like", ones)
empty_like = _like("empty_like", empty)


@_hints.keyword_only
def full_like(
    x: Array,
    /,
    fill_value: bool | int | float | complex,
    *_positional: Any,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """An array like ``x`` filled with ``fill_value``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.full_like.html
    """
    if _positional:
        raise _hints.positional_error(full_like, (x, fill_value, *_positional))
    if x.__class__ is not Array:
        type_error("full_like()", "x", "an array", x)
    if None in x._data.shape:
        return _like_unknown(
            "full_like()",
            x,
            lambda dt, dev: full((), fill_value, dtype=dt, device=dev),
            dtype,
            device,
        )
    return full(
        x._data.shape,
        fill_value,
        dtype=x._dtype if dtype is None else dtype,
        device=x._device if device is None else device,
    )


def _real_scalar(
    value: Any, where: str, argname: str, *, allow_none: bool = False
) -> Any:
    if value is None and allow_none:
        return None
    if value.__class__ in (int, float):
        return value
    if isinstance(value, np.generic) and not isinstance(
        value, (np.bool_, np.complexfloating)
    ):
        return value.item()
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)  # a subclass of int: an int (the dtype follows it)
    if isinstance(value, float):
        return float(value)
    type_error(where, argname, "an int or float", value)


@_hints.keyword_only
def arange(
    start: int | float,
    /,
    stop: int | float | None = None,
    step: int | float = 1,
    *_positional: Any,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Evenly spaced values in ``[start, stop)``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.arange.html
    """
    if _positional:
        raise _hints.positional_error(arange, (start, stop, step, *_positional))
    where = "arange()"
    if Array in (start.__class__, stop.__class__, step.__class__):  # 0-d arrays
        devs: list[Device] = []
        names = tuple(
            n
            for n, v in (("start", start), ("stop", stop), ("step", step))
            if v.__class__ is Array
        )
        start = _scalar_of(start, where, "start", devs)
        stop = _scalar_of(stop, where, "stop", devs)
        step = _scalar_of(step, where, "step", devs)
        device = _scalar_device(device, devs, names, where)
    start = _real_scalar(start, where, "start")
    stop = _real_scalar(stop, where, "stop", allow_none=True)
    step = _real_scalar(step, where, "step")
    if stop is None:
        start, stop = 0, start
    if step == 0:
        msg = f"{where}: `step` must not be zero"
        raise ValueError(msg)
    dt = _dtype_arg(dtype, where)
    if dt is None:
        is_int = all(v.__class__ is int for v in (start, stop, step))
        dt = _dt.DEFAULT_INT if is_int else _dt.DEFAULT_FLOAT
    elif dt in _dt._complex_floating:
        # The standard leaves arange's dtype open: a complex one gets the real
        # range of its precision, as NumPy gives.
        real = _dt.float32 if dt is _dt.complex64 else _dt.float64
        r = arange(start, stop, step, dtype=real, device=device)
        return _wrap(
            r._device._ops["astype"](r._data, dt._native, False), dt, r._device
        )
    elif dt not in _dt._real_numeric:
        if _ext.PROXY.get(dt) not in _dt._real_numeric:
            msg = f"{where}: `dtype` must be a real numeric dtype, got {dt}"
            raise TypeError(msg)
        return _ext.arange(start, stop, step, dt, _device_arg(device, where))
    dev = _device_arg(device, where)
    if start.__class__ is int and stop.__class__ is int and step.__class__ is int:
        count = -((start - stop) // step)  # exact, however large
    else:
        if not all(map(math.isfinite, (start, stop, step))):
            msg = f"{where}: `start`, `stop` and `step` must be finite, got {start}, {stop}, {step}"
            raise ValueError(msg)
        span = (stop - start) / step  # may overflow to +-inf
        count = math.ceil(span) if math.isfinite(span) else (span > 0) * (_MAX + 1)
    check_size(count, where, "the result")
    if count <= 0:  # empty (NumPy's own count can overflow for huge spans)
        start, stop, step = 0, 0, 1
    if dt in _dt._integer and count > 0:
        # Note: NumPy computes integer ranges in int64 (or wraps its bounds).
        _check_int_range([start, start + (count - 1) * step], dt, where)
    return _wrap(dev._ops["arange"](dev._index, start, stop, step, dt._native), dt, dev)


@_hints.keyword_only
def eye(
    n_rows: int,
    n_cols: int | None = None,
    /,
    *_positional: Any,
    k: int = 0,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """A 2-D array with ones on the ``k``-th diagonal.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.eye.html
    """
    if _positional:
        raise _hints.positional_error(eye, (n_rows, n_cols, *_positional))
    where = "eye()"
    n_rows = check_int(n_rows, where, "n_rows")
    if n_cols is not None:
        n_cols = check_int(n_cols, where, "n_cols")
    k = check_int(k, where, "k")
    if n_rows < 0 or (n_cols is not None and n_cols < 0):
        msg = f"{where}: the number of rows and columns must not be negative"
        raise ValueError(msg)
    check_size(n_rows * (n_rows if n_cols is None else n_cols), where, "the matrix")
    # Past either corner the diagonal is empty (and a huge k overflows a C long).
    k = max(-n_rows, min(n_rows if n_cols is None else n_cols, k))
    dt = _dt.DEFAULT_FLOAT if dtype is None else check_dtype_arg(dtype, where)
    dev = _device_arg(device, where)
    m = n_rows if n_cols is None else n_cols
    if not dt._standard:  # an ocean_ext dtype
        return _ext.eye(n_rows, m, k, dt, dev)
    return _wrap(dev._ops["eye"](dev._index, n_rows, m, k, dt._native), dt, dev)


@_hints.keyword_only
def linspace(
    start: int | float | complex,
    stop: int | float | complex,
    /,
    num: int,
    *_positional: Any,
    dtype: DType | None = None,
    device: Device | None = None,
    endpoint: bool = True,
) -> Array:
    """``num`` evenly spaced numbers over ``[start, stop]``.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.linspace.html
    """
    if _positional:
        raise _hints.positional_error(linspace, (start, stop, num, *_positional))
    where = "linspace()"
    if start.__class__ is Array or stop.__class__ is Array:  # 0-d arrays
        devs: list[Device] = []
        names = tuple(
            n for n, v in (("start", start), ("stop", stop)) if v.__class__ is Array
        )
        start = _scalar_of(start, where, "start", devs)
        stop = _scalar_of(stop, where, "stop", devs)
        device = _scalar_device(device, devs, names, where)
    for argname, v in (("start", start), ("stop", stop)):
        if v.__class__ not in (int, float, complex) and not isinstance(
            v, (int, float, complex)
        ):
            type_error(where, argname, "an int, float or complex", v)
        if v.__class__ is bool:
            type_error(where, argname, "an int, float or complex", v)
    num = check_int(num, where, "num")
    if num < 0:
        msg = f"{where}: `num` must not be negative, got {num}"
        raise ValueError(msg)
    check_size(num, where, f"`num` {num}: the result")
    if endpoint is not True and endpoint is not False:
        type_error(where, "endpoint", "a bool", endpoint)
    is_complex = isinstance(start, complex) or isinstance(stop, complex)
    dt = _dtype_arg(dtype, where)
    if dt is None:
        dt = _dt.DEFAULT_COMPLEX if is_complex else _dt.DEFAULT_FLOAT
    elif dt in _dt._integer and not is_complex:
        # The standard asks for a floating dtype ("should"); an integer one
        # gets NumPy's result: the float64 values rounded towards -inf.
        return _integer_linspace(
            start, stop, num, dt, _device_arg(device, where), endpoint
        )
    elif dt not in _dt._floating or (is_complex and dt not in _dt._complex_floating):
        if not dt._standard and dt in _ext.PROXY:  # an ocean_ext dtype
            dev = _device_arg(device, where)
            return _ext.linspace(start, stop, num, dt, dev, endpoint, is_complex)
        msg = (
            f"{where}: `dtype` must be a floating dtype (complex for complex bounds) "
            f"or an integer dtype, got {dt}"
        )
        raise TypeError(msg)
    dev = _device_arg(device, where)
    return _wrap(
        dev._ops["linspace"](dev._index, start, stop, num, dt._native, endpoint),
        dt,
        dev,
    )


def _integer_linspace(
    start: Any, stop: Any, num: int, dt: DType, dev: Device, endpoint: bool
) -> Array:
    """``linspace`` with an integer ``dtype``: as NumPy, the float64 values
    rounded towards -inf; a value outside ``dt``'s range is an error."""
    where = "linspace()"
    if not (math.isfinite(start) and math.isfinite(stop)):
        msg = f"{where}: `start` and `stop` must be finite for an integer dtype"
        raise ValueError(msg)
    f64 = _dt.float64._native
    values = dev._ops["floor"](
        dev._ops["linspace"](dev._index, start, stop, num, f64, endpoint)
    )
    if num:
        # The values lie between start and stop: their floors bound them all.
        _check_int_range([math.floor(start), math.floor(stop)], dt, where)
    return _wrap(dev._ops["astype"](values, dt._native, False), dt, dev)


def meshgrid(*arrays: Array, indexing: str = "xy") -> tuple[Array, ...]:
    """Coordinate matrices from coordinate vectors (a tuple since 2025.12).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.meshgrid.html
    """
    where = "meshgrid()"
    if indexing not in ("xy", "ij"):
        msg = f"{where}: `indexing` must be 'xy' or 'ij', got {indexing!r}"
        raise ValueError(msg)
    if not arrays:
        return ()
    for i, a in enumerate(arrays):
        if a.__class__ is not Array:
            type_error(where, f"arrays[{i}]", "an array", a)
        if a._data.ndim != 1:
            msg = f"{where}: `arrays[{i}]` must be one-dimensional, got {a._data.ndim} dimensions"
            raise ValueError(msg)
    dt = arrays[0]._dtype
    dev = arrays[0]._device
    for i, a in enumerate(arrays[1:], 1):
        if a._dtype is not dt:
            msg = f"{where}: all arrays must have one dtype; `arrays[0]` is {dt}, `arrays[{i}]` is {a._dtype}"
            raise TypeError(msg)
        if a._device is not dev:
            device_error(where, ("arrays[0]", f"arrays[{i}]"), (dev, a._device))
    out = dev._ops["meshgrid"]([a._data for a in arrays], indexing)
    return tuple(_wrap(o, dt, dev) for o in out)


def _tri(name: str) -> Any:
    where = f"{name}()"

    @_hints.keyword_only
    def func(x: Array, /, *_positional: Any, k: int = 0) -> Array:
        if _positional:
            raise _hints.positional_error(func, (x, *_positional))
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
        k = check_int(k, where, "k")
        if x._data.ndim < 2:
            msg = f"{where}: `x` must have at least 2 dimensions, got {x._data.ndim}"
            raise ValueError(msg)
        # Past either corner the triangle is all or nothing: the same result
        # for any larger |k|, which would overflow the backend's C long.
        rows, cols = matrix_bounds(x._data.shape)
        k = max(-rows - 1, min(cols, k))
        return _wrap(x._device._ops[name](x._data, k), x._dtype, x._device)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"{'Lower' if name == 'tril' else 'Upper'} triangle of a (stack of) matrices.\n\nSee {_SPEC.format(name)}"
    return func


tril = _tri("tril")
triu = _tri("triu")


# --- DLPack ------------------------------------------------------------------------
_DLPACK_KINDS = {1: "cpu", 2: "cuda", 3: "cuda"}  # kDLCPU, kDLCUDA, kDLCUDAHost


def from_dlpack(
    x: Any, /, *, device: Device | None = None, copy: bool | None = None
) -> Array:
    """An array from an object supporting the DLPack protocol.

    Failures are TypeError (no DLPack support), BufferError (the data cannot
    be exported or has an unsupported dtype) or ValueError (a copy would be
    needed but ``copy=False``), never RuntimeError.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.from_dlpack.html
    """
    where = "from_dlpack()"
    copy = check_copy(copy, where)
    target = None if device is None else parse_device(device, where)
    if x.__class__ is Array:
        return asarray(x, device=target, copy=copy)
    if not hasattr(x, "__dlpack__") or not hasattr(x, "__dlpack_device__"):
        type_error(where, "x", "an object with __dlpack__ and __dlpack_device__", x)
    try:
        dl_type, dl_id = x.__dlpack_device__()
    except Exception as exc:
        msg = f"{where}: __dlpack_device__() failed: {exc}"
        raise BufferError(msg) from None
    kind = _DLPACK_KINDS.get(int(dl_type))
    if kind is None:
        msg = f"{where}: DLPack device type {dl_type} is not supported"
        raise BufferError(msg)
    src = (
        Device("cpu", 0)
        if kind == "cpu"
        else parse_device(f"{kind}:{int(dl_id)}", where)
    )
    if target is None:
        target = src
    if kind == "cpu" and target._kind == "cpu":
        src = target  # logical CPU devices share memory
    try:
        native = src._backend.from_dlpack(
            x, src._index, copy if target is src else None
        )
    except (BufferError, TypeError, ValueError) as exc:
        if "PyCapsule" not in str(exc):
            raise
        # Python's own words: __dlpack__ gave no capsule, or a used one
        msg = f"{where}: `x.__dlpack__()` gave no unused DLPack capsule ({exc})"
        raise BufferError(msg) from None
    except Exception as exc:  # e.g. RuntimeError from a producer
        msg = f"{where}: {exc}"
        raise BufferError(msg) from None
    dt = _dt.from_native(native.dtype)
    if dt is None or not dt._standard:
        msg = f"{where}: DLPack data of dtype {native.dtype} has no standard dtype here"
        raise BufferError(msg)
    if target is not src:
        if copy is False:
            msg = f"{where}: moving data from {src} to {target} needs a copy but copy=False"
            raise ValueError(msg)
        native = _transfer(native, src, target, None)
    return _wrap(native, dt, target)


def dlpack_export(
    x: Array, stream: Any, max_version: Any, dl_device: Any, copy: bool | None
) -> Any:
    """``Array.__dlpack__``: export, copying to ``dl_device`` when it differs."""
    where = "__dlpack__()"
    if not x._dtype._standard:
        _ext.dlpack_check(x)  # complex32 has no DLPack type
    data = x._data
    dev = x._device
    backend = dev._backend
    if dl_device is not None:
        dl_type, dl_id = dl_device
        here = backend.dlpack_device(data, x._device._index)
        if (int(dl_type), int(dl_id)) != tuple(here):
            kind = _DLPACK_KINDS.get(int(dl_type))
            if kind is None:
                msg = f"{where}: cannot export to DLPack device type {dl_type}"
                raise BufferError(msg)
            if copy is False:  # the standard: BufferError when a copy is needed
                msg = f"{where}: exporting to device {dl_device} needs a copy but copy=False"
                raise BufferError(msg)
            dst = parse_device(kind if kind == "cpu" else f"{kind}:{int(dl_id)}", where)
            data = _transfer(data, x._device, dst, stream)
            dev = dst
            backend = dst._backend
            copy = None
            if kind == "cpu":
                stream = None  # the copy ran on `stream`; host memory has none
    if not data.dtype.isnative:
        if copy is False:
            msg = f"{where}: a byte-swapped array can only be exported as a native copy"
            raise BufferError(msg)
        data = data.astype(data.dtype.newbyteorder("="))
        copy = None
    export = getattr(backend, "to_dlpack", None)  # optional protocol method
    kwargs: dict[str, Any] = {}
    if max_version is not None:
        kwargs["max_version"] = max_version
    if copy is not None:
        kwargs["copy"] = copy
    if stream is not None:
        kwargs["stream"] = stream
    try:
        if export is not None:
            return export(data, dev._index, **kwargs)
        return data.__dlpack__(**kwargs)
    except (BufferError, TypeError, ValueError):
        raise
    except Exception as exc:
        msg = f"{where}: {exc}"
        raise BufferError(msg) from None


# The compiled fast path (docs/dev/fastpath.md) in front of asarray(): the
# fast case above (a NumPy array, no keywords, the CPU by default) in C.
if _ao._FASTPATH:
    _ao._fp._setup_asarray(
        tuple((n, d) for n, d in _HOST_DESCRS if n.isnative),
        _devices._scope,
        vars(_devices),
        _CPU,
    )
    asarray = _ao._compiled(asarray, "asarray")
