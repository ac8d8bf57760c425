"""Elementwise functions, and the Array operators built from them.

Every function is made by one of two factories, :func:`_unary` and
:func:`_binary`, from a row of a table: name, allowed dtypes, result dtype.
The fast path (arrays of one dtype on one device) is a few identity tests and
one dict look-up before the backend's kernel; promotion, Python scalars and
errors take a slower path.  The operators (``+``, ``+=``, ``__radd__``, ...) are
installed on :class:`Array` from the same functions at the bottom of this file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import numpy as _np

from . import _array_object as _ao
from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from ._array_object import Array, _wrap
from ._dtypes import DType, promote
from ._helpers import device_error, dtype_error, type_error
from ._manipulation_functions import _broadcast

_SPEC = "https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.{}.html"

_bool = _dt.bool
_float64 = _dt.float64
# Python scalar type -> dtypes of arrays it may be combined with (fast path).
_SCALAR_OK = {int: _dt._numeric, float: _dt._floating}


# --- Python scalars as operands --------------------------------------------
def _python_scalar(value: Any) -> Any:
    """A Python bool/int/float/complex for ``value``, or None if it is none.

    Subclasses of the Python scalar types count (``numpy.float64`` and
    ``numpy.complex128`` are subclasses of float and complex); other NumPy
    scalars (``numpy.int64(3)``, ``numpy.float32(1.5)``, ``numpy.bool_``) do
    not, as in array-api-strict: the standard's operands are arrays and Python
    scalars, and NumPy's own value-based rules for its scalars would otherwise
    leak in (an int8 array plus ``numpy.int64(300)``).
    """
    t = value.__class__
    if t is int or t is float or t is bool or t is complex:
        return value
    kinds: tuple[type, ...] = (bool, int, float, complex)
    for kind in kinds:
        if isinstance(value, kind):
            return kind(value)
    return None


def check_scalar(
    value: Any, dt: DType, where: str, argname: str, *, allow_complex_upcast: bool
) -> Any:
    """Check a Python scalar against an array dtype (the standard's rules).

    bool scalars go with bool arrays, ints with integer and floating arrays,
    floats with floating arrays, complex with complex arrays (and with real
    floating arrays when ``allow_complex_upcast``, since 2024.12).
    """
    v = _python_scalar(value)
    t = v.__class__
    if t is bool:
        ok = dt is _bool
    elif t is int:
        ok = dt in _dt._numeric
    elif t is float:
        ok = dt in _dt._floating
    elif t is complex:
        ok = dt in _dt._complex_floating or (
            allow_complex_upcast and dt in _dt._real_floating
        )
    else:
        type_error(
            where,
            argname,
            "an array or a Python scalar (bool, int, float, complex)",
            value,
        )
    if not ok and not dt._standard:  # an ocean_ext dtype: as its proxy
        ok = _ext.scalar_ok(t, dt, allow_complex_upcast)
    if not ok:
        msg = (
            f"{where}: a Python {t.__name__} `{argname}` cannot be combined with an "
            f"array of dtype {dt}; use an array of a compatible dtype instead"
        )
        raise TypeError(msg)
    return v


def check_int_range(value: int, dt: DType, where: str, argname: str) -> None:
    """OverflowError unless the Python int ``value`` fits integer dtype ``dt``."""
    ii = _np.iinfo(dt._native)
    if not ii.min <= value <= ii.max:
        msg = (
            f"{where}: the Python int `{argname}` {value} is out of bounds for "
            f"{dt} (range {ii.min} to {ii.max})"
        )
        raise OverflowError(msg)


def _scalar_operand(
    value: Any, dt: DType, where: str, argname: str
) -> tuple[Any, DType]:
    v = check_scalar(value, dt, where, argname, allow_complex_upcast=True)
    if v.__class__ is complex and dt._kind == "real floating":
        return v, _dt.COMPLEX_OF[dt]
    return v, dt


def _resolve(where: str, x1: Any, x2: Any) -> tuple[Any, Any, DType, Any]:
    """Operands of a binary function -> (native1, native2, dtype, device).

    Operands of ocean_ext dtypes (float16, complex32) go to ``_ext.resolve``,
    which converts the natives to the storage of the promoted dtype.
    """
    if x1.__class__ is Array:
        dt = x1._dtype
        dev = x1._device
        if x2.__class__ is Array:
            if x2._dtype is not dt:
                if not (dt._standard and x2._dtype._standard):
                    return _ext.resolve(where, x1, x2)
                dt = promote(dt, x2._dtype, where)
            if x2._device is not dev:
                device_error(where, ("x1", "x2"), (dev, x2._device))
            return x1._data, x2._data, dt, dev
        if not dt._standard:
            return _ext.resolve(where, x1, x2)
        b, dt = _scalar_operand(x2, dt, where, "x2")
        return x1._data, b, dt, dev
    if x2.__class__ is Array:
        if not x2._dtype._standard:
            return _ext.resolve(where, x1, x2)
        a, dt = _scalar_operand(x1, x2._dtype, where, "x1")
        return a, x2._data, dt, x2._device
    msg = f"{where}: at least one of `x1`, `x2` must be an array, got {type(x1).__name__} and {type(x2).__name__}"
    raise TypeError(msg)


def _finish(res: Any, dt: DType, dev: Any) -> Array:
    if res.__class__ is not dev._native:
        res = dev._backend.to_native(res)
    return _wrap(res, dt, dev)


def _shape_error(where: str, exc: Exception) -> ValueError:
    return ValueError(f"{where}: {exc}")


def _overflow_error(where: str, exc: Exception) -> OverflowError:
    text = str(exc)
    if "too large to convert to C" in text:  # NumPy's words say not which int
        text = "a Python int operand beyond 64 bits is out of bounds for every integer dtype"
    return OverflowError(f"{where}: {text}")


# --- factories ---------------------------------------------------------------
def _binary(
    name: str, allowed: set[DType], result: str, doc: str
) -> Callable[..., Array]:
    """A binary elementwise function.

    ``result``: "promote" (the promoted dtype), "bool" (comparisons) or
    "divide" (the default floating dtype for integer operands).
    """
    where = f"{name}()"

    # The namespace function and the forward operator (``x1 + x2``) are two
    # instances of this one definition; they differ only in that the operator
    # returns NotImplemented for an operand it does not know (so Python can
    # try the other operand's reflected method) where the function raises.
    def make(is_operator: bool) -> Callable[..., Any]:
        def func(x1: Any, x2: Any, /) -> Any:
            if x1.__class__ is Array:
                t2 = x2.__class__
                if t2 is Array and x1._dtype is x2._dtype:
                    dt = x1._dtype
                    dev = x1._device
                    if x2._device is not dev:
                        device_error(where, ("x1", "x2"), (dev, x2._device))
                    a = x1._data
                    b = x2._data
                elif (t2 is float or t2 is int) and x1._dtype in _SCALAR_OK[t2]:
                    # Python int/float with an array of a dtype that accepts it.
                    dt = x1._dtype
                    dev = x1._device
                    a = x1._data
                    b = x2
                else:
                    if is_operator and not _operand_ok(x2):
                        return NotImplemented
                    a, b, dt, dev = _resolve(where, x1, x2)
            else:
                a, b, dt, dev = _resolve(where, x1, x2)
            if dt not in allowed:
                if not dt._standard:  # an ocean_ext dtype: its own kernels
                    return _ext.binary(name, result, allowed, a, b, dt, dev)
                dtype_error(
                    where,
                    "x1" if dt is getattr(x1, "_dtype", None) else "x2",
                    allowed,
                    dt,
                )
            try:
                res = dev._ops[name](a, b)
            except (ValueError, OverflowError) as exc:
                _binary_failed(name, exc)
            if res.__class__ is not dev._native:
                res = dev._backend.to_native(res)
            if result == "promote":
                return _wrap(res, dt, dev)
            if result == "bool":
                return _wrap(res, _bool, dev)
            return _wrap(res, _float64 if dt in _dt._integer else dt, dev)

        return func

    func = make(False)
    func._operator = make(True)  # type: ignore[attr-defined]
    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"{doc}\n\nSee {_SPEC.format(name)}"
    func._allowed = allowed  # type: ignore[attr-defined]
    func._result = result  # type: ignore[attr-defined]
    return func


def _unary(
    name: str, allowed: set[DType], result: str, doc: str
) -> Callable[..., Array]:
    """A unary elementwise function.

    ``result``: "same", "bool", or "real" (the real dtype of a complex input).
    """
    where = f"{name}()"

    def func(x: Array, /) -> Array:
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
        dt = x._dtype
        if dt not in allowed:
            if not dt._standard:  # an ocean_ext dtype: its own kernels
                return _ext.unary(name, result, allowed, x)
            dtype_error(where, "x", allowed, dt)
        dev = x._device
        res = dev._ops[name](x._data)
        if res.__class__ is not dev._native:
            res = dev._backend.to_native(res)
        if result == "same":
            return _wrap(res, dt, dev)
        if result == "bool":
            return _wrap(res, _bool, dev)
        return _wrap(res, _dt.REAL_OF.get(dt, dt), dev)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = f"{doc}\n\nSee {_SPEC.format(name)}"
    func._allowed = allowed  # type: ignore[attr-defined]
    func._result = result  # type: ignore[attr-defined]
    return func


_num = _dt._numeric
_real = _dt._real_numeric
_int = _dt._integer
_intbool = _dt._integer_or_boolean
_flt = _dt._floating
_rflt = _dt._real_floating
_cflt = _dt._complex_floating
_all = _dt._all
_b = _dt._boolean

# fmt: off
abs = _unary("abs", _num, "real", "Absolute value of each element.")  # noqa: A001
acos = _unary("acos", _flt, "same", "Principal inverse cosine of each element.")
acosh = _unary("acosh", _flt, "same", "Inverse hyperbolic cosine of each element.")
asin = _unary("asin", _flt, "same", "Principal inverse sine of each element.")
asinh = _unary("asinh", _flt, "same", "Inverse hyperbolic sine of each element.")
atan = _unary("atan", _flt, "same", "Principal inverse tangent of each element.")
atanh = _unary("atanh", _flt, "same", "Inverse hyperbolic tangent of each element.")
bitwise_invert = _unary("bitwise_invert", _intbool, "same", "Bitwise NOT of each element.")
ceil = _unary("ceil", _real, "same", "Smallest integer-valued number not less than each element.")
conj = _unary("conj", _num, "same", "Complex conjugate of each element.")
cos = _unary("cos", _flt, "same", "Cosine of each element (radians).")
cosh = _unary("cosh", _flt, "same", "Hyperbolic cosine of each element.")
exp = _unary("exp", _flt, "same", "Exponential of each element.")
expm1 = _unary("expm1", _flt, "same", "exp(x) - 1 for each element, accurate near zero.")
floor = _unary("floor", _real, "same", "Greatest integer-valued number not greater than each element.")
imag = _unary("imag", _cflt, "real", "Imaginary component of each element.")
isfinite = _unary("isfinite", _num, "bool", "Whether each element is finite.")
isinf = _unary("isinf", _num, "bool", "Whether each element is infinite.")
isnan = _unary("isnan", _num, "bool", "Whether each element is NaN.")
log = _unary("log", _flt, "same", "Natural logarithm of each element.")
log1p = _unary("log1p", _flt, "same", "log(1 + x) for each element, accurate near zero.")
log2 = _unary("log2", _flt, "same", "Base-2 logarithm of each element.")
log10 = _unary("log10", _flt, "same", "Base-10 logarithm of each element.")
logical_not = _unary("logical_not", _b, "same", "Logical NOT of each element.")
negative = _unary("negative", _num, "same", "Numerical negative of each element.")
positive = _unary("positive", _num, "same", "Numerical positive of each element (a copy).")
real = _unary("real", _num, "real", "Real component of each element.")
reciprocal = _unary("reciprocal", _flt, "same", "1 / x for each element.")
round = _unary("round", _num, "same", "Round each element to the nearest integer-valued number (ties to even).")  # noqa: A001
sign = _unary("sign", _num, "same", "Sign of each element (x / |x| for complex).")
signbit = _unary("signbit", _rflt, "bool", "Whether the sign bit of each element is set.")
sin = _unary("sin", _flt, "same", "Sine of each element (radians).")
sinh = _unary("sinh", _flt, "same", "Hyperbolic sine of each element.")
square = _unary("square", _num, "same", "Square of each element.")
sqrt = _unary("sqrt", _flt, "same", "Principal square root of each element.")
tan = _unary("tan", _flt, "same", "Tangent of each element (radians).")
tanh = _unary("tanh", _flt, "same", "Hyperbolic tangent of each element.")
trunc = _unary("trunc", _real, "same", "Round each element toward zero.")

add = _binary("add", _num, "promote", "Sum of each element of x1 with the element of x2.")
atan2 = _binary("atan2", _rflt, "promote", "Inverse tangent of x1/x2, in the quadrant of (x2, x1).")
bitwise_and = _binary("bitwise_and", _intbool, "promote", "Bitwise AND of each pair of elements.")
bitwise_left_shift = _binary("bitwise_left_shift", _int, "promote", "Shift the bits of x1 to the left by x2.")
bitwise_or = _binary("bitwise_or", _intbool, "promote", "Bitwise OR of each pair of elements.")
bitwise_right_shift = _binary("bitwise_right_shift", _int, "promote", "Shift the bits of x1 to the right by x2.")
bitwise_xor = _binary("bitwise_xor", _intbool, "promote", "Bitwise XOR of each pair of elements.")
copysign = _binary("copysign", _rflt, "promote", "x1 with the sign of x2.")
divide = _binary("divide", _num, "divide", "x1 / x2 for each pair of elements.\n\nNotes\n-----\nInteger operands (left unspecified by the standard) give the default floating dtype.")
equal = _binary("equal", _all, "bool", "Whether x1 == x2 for each pair of elements.")
floor_divide = _binary("floor_divide", _real, "promote", "Floor of x1 / x2 for each pair of elements.")
greater = _binary("greater", _real, "bool", "Whether x1 > x2 for each pair of elements.")
greater_equal = _binary("greater_equal", _real, "bool", "Whether x1 >= x2 for each pair of elements.")
hypot = _binary("hypot", _rflt, "promote", "sqrt(x1**2 + x2**2) without undue overflow.")
less = _binary("less", _real, "bool", "Whether x1 < x2 for each pair of elements.")
less_equal = _binary("less_equal", _real, "bool", "Whether x1 <= x2 for each pair of elements.")
logaddexp = _binary("logaddexp", _rflt, "promote", "log(exp(x1) + exp(x2)) for each pair of elements.")
logical_and = _binary("logical_and", _b, "promote", "Logical AND of each pair of elements.")
logical_or = _binary("logical_or", _b, "promote", "Logical OR of each pair of elements.")
logical_xor = _binary("logical_xor", _b, "promote", "Logical XOR of each pair of elements.")
maximum = _binary("maximum", _real, "promote", "Larger of each pair of elements (NaN propagates).")
minimum = _binary("minimum", _real, "promote", "Smaller of each pair of elements (NaN propagates).")
multiply = _binary("multiply", _num, "promote", "Product of each pair of elements.")
nextafter = _binary("nextafter", _rflt, "promote", "Next representable value after x1 toward x2.")
not_equal = _binary("not_equal", _all, "bool", "Whether x1 != x2 for each pair of elements.")
pow = _binary("pow", _num, "promote", "x1 raised to the power x2.")  # noqa: A001
remainder = _binary("remainder", _real, "promote", "Remainder of x1 / x2, with the sign of x2.")
subtract = _binary("subtract", _num, "promote", "Difference x1 - x2 for each pair of elements.")
# fmt: on


def clip(
    x: Array,
    /,
    min: int | float | Array | None = None,  # noqa: A002
    max: int | float | Array | None = None,  # noqa: A002
) -> Array:
    """Clamp each element of ``x`` to ``[min, max]``.

    The result has the dtype of ``x``; NaN in any operand gives NaN.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.clip.html
    """
    where = "clip()"
    if x.__class__ is not Array:
        type_error(where, "x", "an array", x)
    dt = x._dtype
    if dt not in _real and not _ext.passes(dt, _real):  # float16: NumPy's
        dtype_error(where, "x", _real, dt)
    dev = x._device
    bounds: list[Any] = []
    wide: list[tuple[int, DType, str]] = []  # array bounds wider than x's dtype
    for argname, bound in (("min", min), ("max", max)):
        if bound is None:
            bounds.append(None)
        elif bound.__class__ is Array:
            if bound._device is not dev:
                device_error(where, ("x", argname), (dev, bound._device))
            bdt = bound._dtype
            if (bdt not in _real and not _ext.passes(bdt, _real)) or (
                bdt is not dt and (bdt in _int) != (dt in _int)
            ):
                msg = f"{where}: `{argname}` has dtype {bound._dtype}, which does not match x's {dt}"
                raise TypeError(msg)
            b = bound._data
            if bdt is not dt and dt in _int and promote(dt, bdt, where) is not dt:
                # (converted below, once the shapes are known to broadcast)
                wide.append((len(bounds), bdt, argname))
            bounds.append(b)
        else:
            v = check_scalar(bound, dt, where, argname, allow_complex_upcast=False)
            if dt in _int:
                ii = _np.iinfo(dt._native)
                # Note: a bound beyond x's range on the side it clamps from
                # cannot take effect (None); on the other side every element
                # would become an unrepresentable value: an error, never a wrap.
                if v < ii.min:
                    if argname == "max":
                        _bound_overflow(argname, dt, v)
                    v = None
                elif v > ii.max:
                    if argname == "min":
                        _bound_overflow(argname, dt, v)
                    v = None
            bounds.append(v)
    if wide:
        # Note: the shapes are checked before the values of the bounds (as
        # NumPy does): a lazy device can check shapes when the graph is
        # built and values only when it runs, and must raise what the CPU
        # raises, so every device checks in this order.
        arrays = [b for b in (x, min, max) if b.__class__ is Array]
        _broadcast([tuple(b.shape) for b in arrays], where)
        for i, bdt, argname in wide:
            bounds[i] = _int_bound_into(bounds[i], bdt, dt, dev, argname)
    try:
        res = dev._ops["clip"](x._data, bounds[0], bounds[1])
    except ValueError as exc:
        raise _shape_error(where, exc) from None
    return _finish(res, dt, dev)


def _bound_overflow(argname: str, dt: DType, value: Any) -> None:
    raise _overflow(argname, dt, value)


def _overflow(argname: str, dt: DType, value: Any) -> OverflowError:
    return OverflowError(
        f"clip(): `{argname}` {value} lies outside the range of x's dtype {dt}, "
        "so the result cannot be represented"
    )


def _int_bound_into(b: Any, bdt: DType, dt: DType, dev: Any, argname: str) -> Any:
    """An integer bound array of a dtype wider than (or not within) x's integer
    dtype ``dt``, converted exactly to ``dt``.

    Values beyond ``dt``'s range on the side the bound clamps from have no
    effect and are saturated; a value beyond it on the other side would put an
    unrepresentable value into the result and raises OverflowError.

    On a lazy device the check is part of the graph (the table's optional
    ``raise_if``): the error comes when the result is computed, and building
    the result computes nothing.
    """
    ops = dev._ops
    lo, hi = _np.iinfo(dt._native).min, _np.iinfo(dt._native).max
    blo, bhi = _np.iinfo(bdt._native).min, _np.iinfo(bdt._native).max
    bad = None
    if argname == "min" and bhi > hi:
        bad = ops["any"](ops["greater"](b, hi), None, False)
    if argname == "max" and blo < lo:
        bad = ops["any"](ops["less"](b, lo), None, False)
    if bad is not None:
        exc = _overflow(argname, dt, "holds a value that")
        raise_if = ops.get("raise_if")
        if raise_if is not None and dev._backend.is_lazy(bad):
            b = raise_if(b, bad, exc)
        elif bool(bad):
            raise exc
    b = ops["clip"](b, lo if blo < lo else None, hi if bhi > hi else None)
    return ops["astype"](b, dt._native, False)


# --- operators -----------------------------------------------------------------
def _operand_ok(other: Any) -> bool:
    """Whether an operator can take ``other``; False lets Python try the other
    operand's reflected method (e.g. a sparse array's ``__radd__``).

    A NumPy array raises instead: NumPy would otherwise answer with its own
    puzzling errors, and converting silently would hide a mixing of array
    types that the standard leaves undefined.
    """
    if other.__class__ is Array or _python_scalar(other) is not None:
        return True
    if isinstance(other, _np.ndarray):
        msg = (
            "an ocean_array_api Array cannot be combined with a NumPy array in an "
            "operator; convert the NumPy array with asarray() first"
        )
        raise TypeError(msg)
    if isinstance(other, _np.generic):
        msg = (
            "an ocean_array_api Array cannot be combined with a NumPy scalar "
            f"(numpy.{type(other).__name__}) in an operator; use a Python scalar "
            "(int(v), float(v), ...) or asarray() first"
        )
        raise TypeError(msg)
    return False


def _binary_failed(name: str, exc: BaseException) -> NoReturn:
    """Raise what binary function ``name`` (and its operators) raises when its
    kernel raised ``exc`` (the compiled operators call this too, rather than
    running the kernel again: a kernel may warn before it raises)."""
    where = f"{name}()"
    if isinstance(exc, ValueError):
        raise _shape_error(where, exc) from None
    if isinstance(exc, OverflowError):  # a Python int beyond the dtype's range
        raise _overflow_error(where, exc) from None
    raise exc


def _inplace_failed(name: str, exc: BaseException) -> NoReturn:
    """Raise what the in-place operator of kernel ``name`` raises when that
    kernel (``kernel(a, b, out=a)``) raised ``exc``.

    The kernel may have written part of ``a`` before failing (NumPy's integer
    power stops at the first negative exponent), so nothing runs it again:
    the compiled operators call this too after their kernel failed.
    """
    where = f"in-place {name}()"
    if isinstance(exc, ValueError):
        from ._ext_hooks import is_readonly_failure, readonly_error

        if is_readonly_failure(exc):
            raise readonly_error(where) from None
        raise _shape_error(where, exc) from None
    if isinstance(exc, OverflowError):  # a Python int beyond the dtype's range
        raise _overflow_error(where, exc) from None
    raise exc


def _install_operators() -> None:
    def forward(func: Callable[..., Array]) -> Callable[..., Any]:
        op = func._operator  # type: ignore[attr-defined]
        op.__name__ = op.__qualname__ = f"Array.__{func.__name__}__"
        return op  # type: ignore[no-any-return]

    def reflected(func: Callable[..., Array]) -> Callable[..., Any]:
        def op(self: Array, other: Any, /) -> Any:
            if not _operand_ok(other):
                return NotImplemented
            return func(other, self)

        return op

    def inplace(func: Callable[..., Array]) -> Callable[..., Any]:
        name = func.__name__
        where = f"in-place {name}()"

        def op(self: Array, other: Any, /) -> Any:
            if not _operand_ok(other):
                return NotImplemented
            a, b, dt, dev = _resolve(where, self, other)
            result = func._result  # type: ignore[attr-defined]
            if dt not in func._allowed:  # type: ignore[attr-defined]
                if not dt._standard:  # an ocean_ext dtype: its own kernels
                    return _ext.inplace(name, result, func._allowed, self, a, b, dt)  # type: ignore[attr-defined]
                dtype_error(where, "x2", func._allowed, dt)  # type: ignore[attr-defined]
            rdt = _float64 if (result == "divide" and dt in _dt._integer) else dt
            if rdt is not self._dtype:
                msg = (
                    f"{where}: the result would have dtype {rdt}, but an in-place "
                    f"operation cannot change the dtype {self._dtype} of `x1`"
                )
                raise TypeError(msg)
            from ._ext_hooks import check_writable

            check_writable(self, where)
            try:
                dev._ops[name](a, b, out=a)
            except (ValueError, OverflowError) as exc:
                _inplace_failed(name, exc)
            return self

        return op

    def compiled(op: Callable[..., Any], kind: str, func: Any) -> Any:
        """``op`` with the compiled fast path in front (when built and enabled)."""
        if not _ao._FASTPATH:
            return op
        mask = _ao._allowed_mask(func._allowed)
        return _ao._fp._make_op(op, kind, func.__name__, mask, func._result)

    table = {
        "add": add, "sub": subtract, "mul": multiply, "truediv": divide,
        "floordiv": floor_divide, "mod": remainder, "pow": pow,
        "and": bitwise_and, "or": bitwise_or, "xor": bitwise_xor,
        "lshift": bitwise_left_shift, "rshift": bitwise_right_shift,
    }  # fmt: skip
    for short, func in table.items():
        setattr(Array, f"__{short}__", compiled(forward(func), "forward", func))
        setattr(Array, f"__r{short}__", compiled(reflected(func), "reflected", func))
        setattr(Array, f"__i{short}__", compiled(inplace(func), "inplace", func))
    for short, func in {
        "eq": equal, "ne": not_equal, "lt": less, "le": less_equal,
        "gt": greater, "ge": greater_equal,
    }.items():  # fmt: skip
        setattr(Array, f"__{short}__", compiled(forward(func), "forward", func))
    for short, func in {
        "neg": negative, "pos": positive, "abs": abs, "invert": bitwise_invert,
    }.items():  # fmt: skip

        def unary_op(self: Array, /, _f: Callable[..., Array] = func) -> Array:
            return _f(self)

        unary_op.__name__ = unary_op.__qualname__ = f"Array.__{short}__"
        setattr(Array, f"__{short}__", compiled(unary_op, "unary", func))
    if _ao._FASTPATH:
        # the compiled operators and indexing straight into Array's type slots
        _ao._fp._install_slots()


_install_operators()


def _install_functions() -> None:
    """The namespace's elementwise functions with the compiled fast path in
    front (the same cases as the operators'); ``clip`` stays Python."""
    if not _ao._FASTPATH:
        return
    g = globals()
    for name in __all__:
        func = g[name]
        if not hasattr(func, "_result"):
            continue  # clip
        kind = "forward" if hasattr(func, "_operator") else "unary"
        mask = _ao._allowed_mask(func._allowed)
        g[name] = _ao._compiled(func, kind, mask, func._result)


__all__ = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh",
    "bitwise_and", "bitwise_left_shift", "bitwise_invert", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "ceil", "clip", "conj", "copysign", "cos",
    "cosh", "divide", "equal", "exp", "expm1", "floor", "floor_divide", "greater",
    "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less",
    "less_equal", "log", "log1p", "log2", "log10", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
    "negative", "nextafter", "not_equal", "positive", "pow", "real", "reciprocal",
    "remainder", "round", "sign", "signbit", "sin", "sinh", "square", "sqrt",
    "subtract", "tan", "tanh", "trunc",
]  # fmt: skip

_install_functions()
