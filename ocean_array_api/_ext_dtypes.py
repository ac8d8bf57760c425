"""Dtypes beyond the standard (``ocean_ext.float16``, ``ocean_ext.complex32``).

``ocean_ext`` creates and registers them (:func:`register`); the core never
imports ``ocean_ext``.  They are *not* members of the dtype categories the
core's functions test (``_dtypes._numeric``, ``_floating``, ...), so every
fast path stays exactly as it is for the standard dtypes and an extension
dtype always falls through to a function's slow path: a failed category test,
the promotion path of the elementwise functions (``_resolve``), a failed
``dtype=`` check.  There the function calls into this module, which

- checks the dtype as its *proxy*, the standard dtype of the same kind it
  behaves like (float16 -> float32, complex32 -> complex64): a function takes
  an extension dtype where it takes the proxy, and otherwise raises the
  TypeError it raises for the proxy (``floor`` of complex32 fails as
  ``floor`` of complex64 does);
- runs the backend's kernel for that dtype, the table entry
  ``"<operation>.<dtype name>"`` (``"add.complex32"``); an entry the backend
  lacks is a TypeError that names the dtype and the way out
  (``astype(x, complex64)``);
- converts storages with the entries ``"astype.to.<dtype>"`` and
  ``"astype.from.<dtype>"`` (:func:`convert`).

A function with no kernel of the dtype (``cumulative_sum``, ``std``,
``tensordot``, ``linalg``, ``unique_*``...) runs through :func:`via_proxy`:
the arrays are widened to the proxy, exactly, the function computes there,
and its floating results are rounded once.

Some extension dtypes have an *opaque* storage: complex32 elements are stored
as one ``uint32`` (the two float16 parts), which NumPy and CuPy would read as
integers.  Functions that would read such a native as numbers must not see
it: they go through the proxy, read ``x != 0`` (:func:`truth_data`), or
refuse (DLPack export, :func:`dlpack_check`); a test drives every public
function with complex32 input to keep it so.  float16's storage is NumPy's
float16, which those functions read correctly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import _dtypes as _dt
from ._array_object import Array, _wrap
from ._dtypes import DType, promote
from ._helpers import device_error, dtype_error, reduction_axes, type_error

__all__ = ["OPAQUE", "PROXY", "register"]

# extension dtype -> the standard dtype of its kind it is checked as
PROXY: dict[DType, DType] = {}
# extension dtypes whose native storage NumPy/CuPy would misread
OPAQUE: set[DType] = set()
# the widest standard dtype of a kind: accumulators, parsing Python data
_WIDE: dict[str, DType] = {
    "real floating": _dt.float64,
    "complex floating": _dt.complex128,
}


def register(dt: DType, *, proxy: DType, opaque: bool) -> None:
    """Declare ``dt`` (made by ``_dtypes._register``) an extension dtype.

    ``proxy``: the standard dtype of the same kind whose dtype checks apply.
    ``opaque``: its native storage must never reach a generic kernel.
    """
    if dt._standard or not proxy._standard or dt._kind != proxy._kind:
        msg = f"register(): cannot register {dt!r} with proxy {proxy!r}"
        raise ValueError(msg)
    PROXY[dt] = proxy
    if opaque:
        OPAQUE.add(dt)
    else:
        OPAQUE.discard(dt)


# --- kernels -----------------------------------------------------------------
# dtype -> operation -> table key ("add" -> "add.complex32"), built on demand
_KEYS: dict[DType, dict[str, str]] = {}


def _key(name: str, dt: DType) -> str:
    keys = _KEYS.get(dt)
    if keys is None:
        keys = _KEYS[dt] = {}
    key = keys.get(name)
    if key is None:
        key = keys[name] = f"{name}.{dt._name}"
    return key


def _unsupported(where: str, dt: DType, dev: Any, key: str) -> TypeError:
    proxy = PROXY.get(dt)
    msg = f"{where}: {dt} is not supported here"
    if proxy is not None:
        msg = (
            f"{where}: {dt} (an ocean_ext dtype) is not supported by this function on "
            f"{dev._kind!r} devices (no {key!r} kernel); use astype(x, {proxy}) first"
        )
    note = getattr(dev._backend, "ext_kernels_unavailable", "")
    if note and dt in OPAQUE:
        msg += f" ({note})"
    return TypeError(msg)


def kernel(dev: Any, name: str, dt: DType, where: str) -> Callable[..., Any]:
    """The backend's ``"<name>.<dt>"`` entry, or a TypeError saying what to do."""
    key = _key(name, dt)
    op = dev._ops.get(key)
    if op is None or getattr(op, "_ocean_missing", False):  # absent, or a stub
        raise _unsupported(where, dt, dev, key)
    return op  # type: ignore[no-any-return]


def _native(res: Any, dev: Any) -> Any:
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return res


def convert(
    dev: Any, data: Any, src: DType, dst: DType, where: str = "astype()"
) -> Any:
    """Native ``data`` of dtype ``src`` as dtype ``dst`` (``data`` itself if equal)."""
    if src is dst:
        return data
    if dst in OPAQUE:
        if src in OPAQUE:
            data = kernel(dev, "astype.from", src, where)(data, PROXY[src]._native)
        res = kernel(dev, "astype.to", dst, where)(data)
    elif not src._standard:
        res = kernel(dev, "astype.from", src, where)(data, dst._native)
    elif not dst._standard:
        res = kernel(dev, "astype.to", dst, where)(data)
    else:
        res = dev._ops["astype"](data, dst._native, False)
    return _native(res, dev)  # 0-d ufunc results are NumPy scalars


def scalar_native(dev: Any, value: Any, dt: DType, where: str) -> Any:
    """A Python scalar as a 0-d native array of extension dtype ``dt``."""
    wide = _WIDE[dt._kind]
    native = dev._backend.asarray(value, wide._native, dev._index, None)
    return convert(dev, native, wide, dt, where)


def is_ext(x: Any) -> bool:
    """Whether ``x`` is an Array of an extension dtype."""
    return x.__class__ is Array and not x._dtype._standard


# --- dtype rules ---------------------------------------------------------------
def check_kind(where: str, argname: str, allowed: set[DType], dt: DType) -> None:
    """TypeError unless extension dtype ``dt`` passes as its proxy."""
    proxy = PROXY.get(dt)
    if proxy is None or proxy not in allowed:
        dtype_error(where, argname, allowed, dt)


def passes(dt: DType, allowed: set[DType]) -> bool:
    """Whether extension dtype ``dt`` may run a standard kernel that takes
    ``allowed``: its storage is one the library reads (float16, not
    complex32) and its proxy is allowed (sorting, max, min, clip...)."""
    return dt not in OPAQUE and PROXY.get(dt) in allowed


def scalar_ok(t: type, dt: DType, allow_complex_upcast: bool) -> bool:
    """Whether a Python scalar of type ``t`` combines with extension dtype ``dt``."""
    proxy = PROXY.get(dt)
    if proxy is None or t is bool:
        return False
    if t is int:
        return proxy in _dt._numeric
    if t is float:
        return proxy in _dt._floating
    if t is complex:
        return proxy in _dt._complex_floating or (
            allow_complex_upcast and proxy in _dt._real_floating
        )
    return False


def isdtype(dtype: DType, kinds: tuple[Any, ...]) -> bool:
    """``isdtype`` for an extension dtype (kinds already validated)."""
    for k in kinds:
        if k is dtype or (isinstance(k, str) and k in ("numeric", dtype._kind)):
            return True
    return False


def finfo(dt: DType) -> Any:
    """``finfo`` of an extension floating dtype (of its real part if complex)."""
    from ._data_type_functions import finfo_object

    real = _dt.REAL_OF.get(dt, dt)
    fi = np.finfo(real._native)
    return finfo_object(
        bits=int(fi.bits),
        eps=float(fi.eps),
        max=float(fi.max),
        min=float(fi.min),
        smallest_normal=float(fi.smallest_normal),
        dtype=real,
    )


# --- elementwise functions ------------------------------------------------------
def resolve(where: str, x1: Any, x2: Any) -> tuple[Any, Any, DType, Any]:
    """``_resolve`` when an extension dtype takes part: natives in the storage
    of the promoted dtype (Python scalars as 0-d arrays when it is an
    extension dtype), that dtype and the device."""
    if x1.__class__ is Array and x2.__class__ is Array:
        d1 = x1._dtype
        d2 = x2._dtype
        dt = d1 if d1 is d2 else promote(d1, d2, where)
        dev = x1._device
        if x2._device is not dev:
            device_error(where, ("x1", "x2"), (dev, x2._device))
        a = convert(dev, x1._data, d1, dt, where)
        return a, convert(dev, x2._data, d2, dt, where), dt, dev
    from ._elementwise_functions import check_scalar

    first = x1.__class__ is Array
    arr, other, argname = (x1, x2, "x2") if first else (x2, x1, "x1")
    d = arr._dtype
    v = check_scalar(other, d, where, argname, allow_complex_upcast=True)
    dt = (
        _dt.COMPLEX_OF[d]
        if v.__class__ is complex and d._kind == "real floating"
        else d
    )
    dev = arr._device
    a = convert(dev, arr._data, d, dt, where)
    s = scalar_native(dev, v, dt, where)
    return (a, s, dt, dev) if first else (s, a, dt, dev)


def _result(result: str, dt: DType) -> DType:
    if result == "bool":
        return _dt.bool
    if result == "real":
        return _dt.REAL_OF.get(dt, dt)
    return dt  # same, promote, divide (extension dtypes are floating)


def unary(name: str, result: str, allowed: set[DType], x: Array) -> Array:
    """An elementwise function of one extension-dtype array."""
    dt = x._dtype
    if PROXY.get(dt) not in allowed:
        dtype_error(f"{name}()", "x", allowed, dt)
    dev = x._device
    op = dev._ops.get(_key(name, dt))
    if op is None:
        where = f"{name}()"
        raise _unsupported(where, dt, dev, _key(name, dt))
    res = op(x._data)
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return _wrap(res, dt if result == "same" else _result(result, dt), dev)


def binary(
    name: str, result: str, allowed: set[DType], a: Any, b: Any, dt: DType, dev: Any
) -> Array:
    """An elementwise function of two operands resolved to extension dtype ``dt``."""
    if PROXY.get(dt) not in allowed:
        dtype_error(f"{name}()", "x1", allowed, dt)
    op = dev._ops.get(_key(name, dt))
    if op is None:
        where = f"{name}()"
        raise _unsupported(where, dt, dev, _key(name, dt))
    try:
        res = op(a, b)
    except ValueError as exc:
        msg = f"{name}(): {exc}"
        raise ValueError(msg) from None
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return _wrap(res, dt if result == "promote" else _result(result, dt), dev)


def inplace(
    name: str, result: str, allowed: set[DType], x: Array, a: Any, b: Any, dt: DType
) -> Array:
    """``x op= other`` resolved to extension dtype ``dt`` (``a`` is ``x``'s data
    when ``dt`` is ``x``'s dtype)."""
    from ._ext_hooks import check_writable, is_readonly_failure, readonly_error

    where = f"in-place {name}()"
    check_kind(where, "x2", allowed, dt)
    rdt = _result(result, dt)
    if rdt is not x._dtype:
        msg = (
            f"{where}: the result would have dtype {rdt}, but an in-place "
            f"operation cannot change the dtype {x._dtype} of `x1`"
        )
        raise TypeError(msg)
    op = kernel(x._device, name, dt, where)
    check_writable(x, where)
    try:
        op(a, b, out=a)
    except ValueError as exc:
        if is_readonly_failure(exc):
            raise readonly_error(where) from None
        msg = f"{where}: {exc}"
        raise ValueError(msg) from None
    return x


# --- statistical functions ------------------------------------------------------
_KIND_RANK = {"real floating": 2, "complex floating": 3}


def accumulate(name: str, x: Array, axis: Any, dtype: Any, keepdims: Any) -> Array:
    """``sum``/``prod`` of an extension-dtype array (accumulated in float32 or
    wider by the backend, rounded once to the result dtype)."""
    where = f"{name}()"
    rdt = accumulation_dtype(x._dtype, dtype, where)
    return _reduce(name, x, axis, keepdims, rdt, where)


def accumulation_dtype(xdt: DType, dtype: Any, where: str) -> DType:
    """The result dtype of ``sum``/``prod``/``cumulative_*`` where ``x`` or
    ``dtype`` is an extension dtype (TypeError naming both if it cannot hold
    the result)."""
    if xdt._standard:
        if xdt not in _dt._numeric:
            dtype_error(where, "x", _dt._numeric, xdt)
    else:
        check_kind(where, "x", _dt._numeric, xdt)
    if dtype is None:
        return xdt
    rdt = _dt.check_dtype_arg(dtype, where)
    rank = _KIND_RANK.get(rdt._kind, 0)
    if (rdt._standard and rdt not in _dt._numeric) or rank < _KIND_RANK.get(
        xdt._kind, 1
    ):
        msg = (
            f"{where}: `dtype` {rdt} cannot hold the result for input of dtype "
            f"{xdt}; pass a numeric dtype of the same or a wider kind"
        )
        raise TypeError(msg)
    return rdt


def mean(x: Array, axis: Any, keepdims: Any) -> Array:
    """``mean`` of an extension-dtype array."""
    where = "mean()"
    check_kind(where, "x", _dt._floating, x._dtype)
    return _reduce("mean", x, axis, keepdims, x._dtype, where)


def _reduce(
    name: str, x: Array, axis: Any, keepdims: Any, rdt: DType, where: str
) -> Array:
    data = x._data
    if axis is not None:
        axis = reduction_axes(axis, data.ndim, where)
    if keepdims is not False and keepdims is not True:
        type_error(where, "keepdims", "a bool", keepdims)
    dev = x._device
    res = _native(kernel(dev, name, x._dtype, where)(data, axis, keepdims), dev)
    src = _dt.from_native(res.dtype)  # the accumulator: float64 or complex128
    return _wrap(convert(dev, res, src, rdt, where), rdt, dev)  # type: ignore[arg-type]


# --- linear algebra, fft ----------------------------------------------------------
def _operands(x1: Any, x2: Any, where: str) -> tuple[DType, Any]:
    for argname, x in (("x1", x1), ("x2", x2)):
        if x.__class__ is not Array:
            type_error(where, argname, "an array", x)
        dt = x._dtype
        if dt._standard:
            if dt not in _dt._numeric:
                dtype_error(where, argname, _dt._numeric, dt)
        else:
            check_kind(where, argname, _dt._numeric, dt)
    dt = promote(x1._dtype, x2._dtype, where)
    dev = x1._device
    if x2._device is not dev:
        device_error(where, ("x1", "x2"), (dev, x2._device))
    return dt, dev


def _apply(dev: Any, name: str, dt: DType, where: str) -> Callable[..., Any]:
    return dev._ops[name] if dt._standard else kernel(dev, name, dt, where)  # type: ignore[no-any-return]


def matmul(x1: Any, x2: Any) -> Array:
    """``matmul`` (``@``) with an extension dtype among the operands."""
    from ._linear_algebra_functions import _matmul_shape

    where = "matmul()"
    dt, dev = _operands(x1, x2, where)
    _matmul_shape(x1._data.shape, x2._data.shape, where)
    a = convert(dev, x1._data, x1._dtype, dt, where)
    b = convert(dev, x2._data, x2._dtype, dt, where)
    return _wrap(_native(_apply(dev, "matmul", dt, where)(a, b), dev), dt, dev)


def vecdot(x1: Any, x2: Any, axis: Any) -> Array:
    """``vecdot`` with an extension dtype among the operands."""
    from ._linear_algebra_functions import _broadcast_shapes, _negative_axis

    where = "vecdot()"
    dt, dev = _operands(x1, x2, where)
    s1 = x1._data.shape
    s2 = x2._data.shape
    n = min(len(s1), len(s2))
    if n == 0:
        msg = f"{where}: operands must have at least one dimension, got shapes {s1} and {s2}"
        raise ValueError(msg)
    axis = _negative_axis(axis, n, where)
    if s1[axis] != s2[axis]:
        msg = (
            f"{where}: the contracted axis {axis} must have the same size in both "
            f"arrays (it is not broadcast), got shapes {s1} and {s2}"
        )
        raise ValueError(msg)
    _broadcast_shapes(
        s1[:axis] + s1[axis:][1:],
        s2[:axis] + s2[axis:][1:],
        where,
        "the non-contracted shapes",
    )
    a = convert(dev, x1._data, x1._dtype, dt, where)
    b = convert(dev, x2._data, x2._dtype, dt, where)
    res = _apply(dev, "vecdot", dt, where)(a, b, axis)
    return _wrap(_native(res, dev), dt, dev)


def fft_input(x: Array, allowed: set[DType], where: str) -> Any:
    """The data of an extension-dtype ``x`` as its proxy, for the ``fft`` kernels.

    Note: the transforms run in the proxy's precision (complex64, float32) and
    the front end rounds the result to the extension dtype (:func:`from_proxy`).
    """
    dt = x._dtype
    check_kind(where, "x", allowed, dt)
    return convert(x._device, x._data, dt, PROXY[dt], where)


def from_proxy(dev: Any, res: Any, dt: DType) -> Any:
    """A native result computed in a standard dtype, as extension dtype ``dt``."""
    if res.dtype == dt._native:
        return res
    return convert(dev, res, _dt.from_native(res.dtype), dt)  # type: ignore[arg-type]


# --- functions without extension-dtype kernels: through the proxy -----------------
def _narrowing(target: DType) -> dict[DType, DType]:
    """Result dtypes of a call computed in ``PROXY[target]`` -> the dtypes the
    call has for ``target`` (float32 -> float16, complex64 -> complex32)."""
    proxy = PROXY[target]
    out = {proxy: target}
    real = _dt.REAL_OF.get(proxy)
    if real is not None:
        out[real] = _dt.REAL_OF[target]
    cplx = _dt.COMPLEX_OF.get(proxy)
    if cplx is not None:
        out[cplx] = _dt.COMPLEX_OF[target]
    return out


def _widen(x: Array, where: str) -> Array:
    """``x`` as its proxy (exact: every float16/complex32 value is a
    float32/complex64 value)."""
    dt = x._dtype
    proxy = PROXY[dt]
    dev = x._device
    return _wrap(convert(dev, x._data, dt, proxy, where), proxy, dev)


def via_proxy(
    func: Callable[..., Any],
    where: str,
    allowed: set[DType],
    args: dict[str, Any],
    kwargs: dict[str, Any] | None = None,
    joined: tuple[str, ...] = (),
) -> Any:
    """Run front-end ``func`` where some argument has an extension dtype and no
    kernel of that dtype exists: the extension-dtype arrays are widened to
    their proxies (exactly), ``func`` computes in the proxy's precision, and
    its floating results are rounded once to the extension dtype the call
    promotes to.

    ``args``: the positional arguments by name (arrays among them take part
    in the promotion); ``kwargs``: the keyword arguments, of which the arrays
    named in ``joined`` take part in the promotion too (``diff``'s
    ``prepend``); a ``dtype`` keyword that is an extension dtype becomes its
    proxy, and names the result dtype.  Each extension-dtype array must pass
    ``allowed`` as its proxy; otherwise the error is the one its proxy gets,
    naming the extension dtype.  Results that are not arrays of the proxy's
    floating dtypes (indices, counts, bools) are returned as they are.
    """
    kwargs = {} if kwargs is None else dict(kwargs)
    target = None
    call_args = []
    for name, value in args.items():
        if value.__class__ is Array:
            dt = value._dtype
            if not dt._standard:
                check_kind(where, name, allowed, dt)
                value = _widen(value, where)
            target = dt if target is None else promote(target, dt, where)
        call_args.append(value)
    for name, value in kwargs.items():
        if value.__class__ is Array:
            dt = value._dtype
            if not dt._standard:
                check_kind(where, name, allowed, dt)
                kwargs[name] = _widen(value, where)
            if name in joined:
                target = dt if target is None else promote(target, dt, where)
    dtype = kwargs.get("dtype")
    if dtype is not None:
        if dtype.__class__ is DType:
            _check_result_kind(where, dtype, args)
            if not dtype._standard:
                kwargs["dtype"] = PROXY[dtype]
            target = dtype
        else:  # not a dtype: func reports it
            target = None
    res = func(*call_args, **kwargs)
    if target is None or target._standard:
        return res
    return _narrow_results(res, _narrowing(target), where)


def _check_result_kind(where: str, dtype: DType, args: dict[str, Any]) -> None:
    """TypeError if a ``dtype=`` result cannot hold the values of the inputs
    (complex input, real ``dtype``), naming the dtypes the caller passed
    (checked here, before the inputs are widened to their proxies)."""
    rank = _KIND_RANK.get(dtype._kind, 1)
    for x in args.values():
        if x.__class__ is Array and _KIND_RANK.get(x._dtype._kind, 1) > rank:
            msg = (
                f"{where}: `dtype` {dtype} cannot hold the result for input of "
                f"dtype {x._dtype}; pass a dtype of the same or a wider kind"
            )
            raise TypeError(msg)


def _narrow_results(res: Any, narrowing: dict[DType, DType], where: str) -> Any:
    if res.__class__ is Array:
        dt = narrowing.get(res._dtype)
        if dt is None:
            return res
        dev = res._device
        return _wrap(convert(dev, res._data, res._dtype, dt, where), dt, dev)
    if isinstance(res, tuple):
        items = [_narrow_results(r, narrowing, where) for r in res]
        return res.__class__(*items) if hasattr(res, "_fields") else tuple(items)
    if isinstance(res, list):
        return [_narrow_results(r, narrowing, where) for r in res]
    return res


def truth_data(x: Array, where: str) -> Any:
    """What ``all``, ``any``, ``count_nonzero`` and ``nonzero`` read for an
    extension-dtype ``x``: its data where the backend reads the storage as
    numbers (float16), else the bools ``x != 0`` (one fused pass)."""
    dt = x._dtype
    if dt not in OPAQUE:
        return x._data
    dev = x._device
    zero = scalar_native(dev, 0, dt, where)
    return _native(kernel(dev, "not_equal", dt, where)(x._data, zero), dev)


# --- creation, conversion ----------------------------------------------------------
def astype(x: Array, dt: DType, copy: bool, device: Any) -> Array:
    """``astype`` with an extension dtype as source or target."""
    from ._array_object import _transfer
    from ._devices import parse_device

    where = "astype()"
    xdt = x._dtype
    if xdt._kind == "complex floating" and dt._kind != "complex floating":
        msg = f"{where}: casting complex {xdt} to {dt} would drop the imaginary part; use real() or abs() first"
        raise TypeError(msg)
    data = x._data
    dev = x._device
    if device is not None:
        target = parse_device(device, where)
        if target is not dev:
            data = _transfer(data, dev, target, None)
            dev = target
            copy = False
    if dt is xdt:
        if not copy:
            return x if dev is x._device else _wrap(data, dt, dev)
        return _wrap(dev._ops["copy"](data), dt, dev)
    return _wrap(convert(dev, data, xdt, dt, where), dt, dev)


def asarray_python(obj: Any, dt: DType, dev: Any) -> Array:
    """``asarray`` of Python data with an extension ``dtype``."""
    where = "asarray()"
    wide = _WIDE[dt._kind]
    try:
        data = dev._backend.asarray(obj, wide._native, dev._index, None)
    except OverflowError:
        raise
    except (ValueError, TypeError) as exc:
        msg = f"{where}: cannot convert `obj` to an array of {dt}: {exc}"
        raise (TypeError if isinstance(exc, TypeError) else ValueError)(msg) from None
    return _wrap(convert(dev, data, wide, dt, where), dt, dev)


def asarray_host(host: Any, dt: DType, dev: Any, copy: bool | None) -> Array:
    """``asarray`` of a NumPy array (or buffer) with an extension ``dtype``."""
    where = "asarray()"
    src = _dt.from_native(host.dtype) if host.dtype != object else None
    if src is None:
        msg = f"{where}: input of NumPy dtype {host.dtype} is not supported"
        raise TypeError(msg)
    if src is dt and host.dtype.isnative and dt not in OPAQUE:
        if dev._kind == "cpu":
            return _wrap(
                np.array(host, copy=True) if copy else np.asarray(host), dt, dev
            )
        if copy is False:
            msg = f"{where}: moving host data to {dev} needs a copy but copy=False"
            raise ValueError(msg)
        return _wrap(dev._backend.from_host(np.asarray(host), dev._index), dt, dev)
    if copy is False:
        msg = f"{where}: converting {host.dtype} to {dt} needs a copy but copy=False"
        raise ValueError(msg)
    if not host.dtype.isnative:
        host = host.astype(host.dtype.newbyteorder("="))
    data = (
        np.asarray(host)
        if dev._kind == "cpu"
        else dev._backend.from_host(np.asarray(host), dev._index)
    )
    return _wrap(convert(dev, data, src, dt, where), dt, dev)


def full(shape: tuple[int, ...], fill_value: Any, dt: DType, dev: Any) -> Array:
    """``full`` with an extension dtype (``fill_value`` already checked)."""
    fill = dev._backend.to_host(scalar_native(dev, fill_value, dt, "full()"))
    return _wrap(dev._ops["full"](dev._index, shape, fill[()], dt._native), dt, dev)


def filled(name: str, shape: tuple[int, ...], dt: DType, dev: Any) -> Array:
    """``zeros``/``ones``/``empty`` with an extension dtype."""
    if name == "ones":
        return full(shape, 1, dt, dev)
    # zero bits are +0 in every extension dtype
    return _wrap(dev._ops[name](dev._index, shape, dt._native), dt, dev)


def eye(n: int, m: int, k: int, dt: DType, dev: Any) -> Array:
    """``eye`` with an extension dtype."""
    proxy = PROXY[dt]
    res = dev._ops["eye"](dev._index, n, m, k, proxy._native)
    return _wrap(convert(dev, res, proxy, dt, "eye()"), dt, dev)


def linspace(
    start: Any,
    stop: Any,
    num: int,
    dt: DType,
    dev: Any,
    endpoint: bool,
    is_complex: bool,
) -> Array:
    """``linspace`` with an extension dtype, computed in float64/complex128."""
    where = "linspace()"
    if is_complex and dt._kind != "complex floating":
        msg = f"{where}: `dtype` must be a floating dtype (complex for complex bounds), got {dt}"
        raise TypeError(msg)
    wide = _WIDE[dt._kind]
    res = dev._ops["linspace"](dev._index, start, stop, num, wide._native, endpoint)
    return _wrap(convert(dev, res, wide, dt, where), dt, dev)


def arange(start: Any, stop: Any, step: Any, dt: DType, dev: Any) -> Array:
    """``arange`` with a real extension dtype: each value computed in float64
    and rounded once."""
    wide = _WIDE[dt._kind]
    res = dev._ops["arange"](dev._index, start, stop, step, wide._native)
    return _wrap(convert(dev, res, wide, dt, "arange()"), dt, dev)


def convert_all(arrays: Any, dt: DType, dev: Any, where: str) -> list[Any]:
    """The natives of ``arrays`` (concat, stack) converted to ``dt``."""
    return [convert(dev, a._data, a._dtype, dt, where) for a in arrays]


def involved(arrays: Any) -> bool:
    """Whether some array of ``arrays`` has an extension dtype."""
    return any(not a._dtype._standard for a in arrays)


# --- host values: Python scalars, NumPy, printing ------------------------------------
def host_values(dt: DType, host: Any) -> Any:
    """A NumPy array of the values of ``host`` (the storage of ``dt``):
    complex32 as complex64, float16 as itself.  Pure NumPy (no kernels)."""
    if dt in OPAQUE:
        try:
            parts = host[..., None].view(np.float16)  # (..., 2): real, imaginary
        except ValueError:  # a layout that allows no view (broadcast)
            parts = host.copy()[..., None].view(np.float16)
        return parts.astype(np.float32, order="C").view(np.complex64)[..., 0]
    return host


def python_scalar(dt: DType, host: Any) -> Any:
    """The Python scalar of a 0-d ``host`` array of extension dtype ``dt``."""
    return host_values(dt, host).item()


def dlpack_check(x: Array) -> None:
    """BufferError for a dtype DLPack cannot describe (complex32)."""
    if x._dtype in OPAQUE:
        proxy = PROXY[x._dtype]
        msg = (
            f"__dlpack__(): {x._dtype} has no DLPack data type (DLPack has no "
            f"complex-half); export astype(x, {proxy}) instead"
        )
        raise BufferError(msg)
