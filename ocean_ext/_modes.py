"""Compute modes: what ``sqrt``, ``log``, ``pow``, ... do outside their real domain.

The standard says that ``sqrt(-1.0)`` is NaN.  ``ocean_ext`` offers the same
functions with a ``mode`` keyword that chooses instead to warn
(:class:`DomainWarning`), to raise (:class:`DomainError`) or to return a complex
result, and :func:`compute_mode`, a context manager that sets the default mode
of these functions within a ``with`` block.  ``ocean_array_api`` itself always
follows the standard, whatever mode is active.

The active mode lives in a :class:`contextvars.ContextVar`, so a ``with``
block affects only its own thread and its own asyncio task.

An element is *out of domain* when the standard's result for it is NaN although
no input is NaN: ``x < 0`` for ``sqrt`` and the logarithms, ``x < -1`` for
``log1p``, ``|x| > 1`` for ``acos``, ``asin`` and ``atanh``, ``x < 1`` for
``acosh``, and a finite negative ``x1`` with a finite non-integer ``x2`` for
``pow``.  NaN inputs, poles (``log(0)`` is ``-inf``, ``atanh(1)`` is ``inf``)
and boundary values (``acos(1)``) are in the domain.

Cost: mode "standard" is one context-variable read more than the
``ocean_array_api`` function.  The other modes add one vectorised check of the
input (a comparison, after an absolute value for ``acos``, ``asin`` and
``atanh``; through the device's kernel table, so every backend works) and a
reduction of it to one boolean; only input that actually has out-of-domain
elements costs more.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import Any, Literal

import numpy as np

import ocean_array_api as xp
from ocean_array_api import _dtypes as _dt
from ocean_array_api._array_object import Array, _wrap
from ocean_array_api._elementwise_functions import _resolve

__all__ = [
    "DomainError",
    "DomainWarning",
    "acos",
    "acosh",
    "asin",
    "atanh",
    "compute_mode",
    "get_compute_mode",
    "log",
    "log1p",
    "log2",
    "log10",
    "pow",
    "sqrt",
]

Mode = Literal["standard", "warn", "raise", "complex"]
_MODES = ("standard", "warn", "raise", "complex")
_VALID = "'standard', 'warn', 'raise' or 'complex'"

# The default mode of this thread / asyncio task.  Only valid modes are ever
# stored, so the functions need not re-check what they read.
# The modes of the blocks entered, innermost first: one variable, so that a
# block's entry and exit are each one ``set`` (see _Scope).
_current: ContextVar[tuple[str, ...]] = ContextVar(
    "ocean_ext.compute_mode", default=("standard",)
)
_current_get = _current.get


def _get() -> str:
    return _current_get()[0]


class DomainWarning(RuntimeWarning):
    """Some input of an ``ocean_ext`` function lies outside its domain (mode "warn").

    The function still returns what the standard says (NaN for those elements).
    The message names the function, how many elements are out of domain, and
    the first of them.

    Examples
    --------
    >>> import warnings
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     y = ocean_ext.log(xp.asarray([1.0, -2.0]), mode="warn")
    >>> caught[0].category is ocean_ext.DomainWarning
    True
    >>> y
    Array([ 0., nan], dtype=float64)
    """


class DomainError(ValueError):
    """Some input of an ``ocean_ext`` function lies outside its domain (mode "raise").

    The message names the function, how many elements are out of domain, and
    the first of them (its index and value).

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> try:
    ...     ocean_ext.acos(xp.asarray([0.5, 2.0, 3.0]), mode="raise")
    ... except ocean_ext.DomainError as exc:
    ...     print(exc)
    ocean_ext.acos(): 2 of 3 elements lie outside the domain -1 <= x <= 1 (the first at index (1,): x = 2.0); pass mode='complex' for a complex result, or mode='standard' for NaN
    """


# Shown (in tracebacks, reprs, the docs) under their public home.
DomainWarning.__module__ = DomainError.__module__ = "ocean_ext"


def _check_mode(mode: object, where: str) -> str:
    """``mode`` if it names a compute mode, else TypeError/ValueError."""
    if isinstance(mode, str):
        if mode in _MODES:
            return str(mode)
        msg = f"{where}: `mode` must be {_VALID}, got {mode!r}"
        raise ValueError(msg)
    msg = (
        f"{where}: `mode` must be {_VALID} (a str), got {type(mode).__name__} {mode!r}"
    )
    raise TypeError(msg)


# The modes that the active blocks replaced, innermost last, per context (so
# the same block object can be entered again, nested, or in another thread).
class _Scope:
    """The context manager :func:`compute_mode` returns: reusable and reentrant.

    Safe against an interrupt (Ctrl-C) anywhere inside: ``__enter__`` undoes
    its change when it raises (``with`` then calls no ``__exit__``), and
    ``__exit__`` is one line of C calls."""

    __slots__ = ("_mode",)

    def __init__(self, mode: str) -> None:
        self._mode = mode

    def __enter__(self) -> str:
        old = _current_get()
        try:
            _current.set((self._mode, *old))
            return self._mode
        except BaseException:
            _current.set(old)
            raise

    def __exit__(self, *exc: object) -> None:
        _current.set(_current_get()[1:])

    def __repr__(self) -> str:
        return f"ocean_ext.compute_mode({self._mode!r})"


def compute_mode(mode: Mode) -> AbstractContextManager[str]:
    """Set the default compute mode of the ``ocean_ext`` functions in a ``with`` block.

    Inside the block, :func:`sqrt`, :func:`log`, :func:`log2`, :func:`log10`,
    :func:`log1p`, :func:`acos`, :func:`asin`, :func:`acosh`, :func:`atanh` and
    :func:`pow` of ``ocean_ext`` called without ``mode=`` (or with
    ``mode=None``) use ``mode``; an explicit ``mode=`` still wins.  The
    functions of ``ocean_array_api`` are not affected: they always follow the
    standard.

    Parameters
    ----------
    mode : {"standard", "warn", "raise", "complex"}
        What to do with input outside a function's domain:

        - ``"standard"``: NaN for those elements, as the standard says;
        - ``"warn"``: the same values, and a :class:`DomainWarning`;
        - ``"raise"``: a :class:`DomainError`, and no result;
        - ``"complex"``: a complex result (principal branch), when and only
          when some element needs one.

    Returns
    -------
    contextlib.AbstractContextManager
        A context manager; ``with ... as m`` binds ``m`` to the mode.  The same
        object may be entered again, also while it is active (nested).

    Raises
    ------
    TypeError
        If ``mode`` is not a string.
    ValueError
        If ``mode`` is not one of the four modes.

    See Also
    --------
    get_compute_mode : the mode now in effect.

    Notes
    -----
    The mode is held in a :class:`contextvars.ContextVar`: a block affects only
    the thread and the asyncio task that run it (a task created inside the block
    starts with the block's mode, as tasks copy their context), blocks nest,
    and leaving a block restores the mode that was in effect before it, even
    when the block raises.  A new thread starts in mode "standard".

    As with every context variable (and NumPy's ``errstate``), a block left
    open inside a generator that is suspended at a ``yield`` stays in effect
    in the code that resumed the generator until it is resumed again: enter
    the block around code that does not yield, or iterate the generator
    inside the block.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.asarray([-1.0, 4.0])
    >>> with ocean_ext.compute_mode("complex"):
    ...     ocean_ext.sqrt(x)
    Array([0.+1.j, 2.+0.j], dtype=complex128)
    >>> with ocean_ext.compute_mode("complex"):
    ...     ocean_ext.sqrt(x, mode="standard")  # an explicit mode wins
    Array([nan,  2.], dtype=float64)
    >>> ocean_ext.get_compute_mode()
    'standard'
    """
    return _Scope(_check_mode(mode, "ocean_ext.compute_mode()"))


def get_compute_mode() -> str:
    """The compute mode in effect for the ``ocean_ext`` functions here and now.

    Returns
    -------
    str
        ``"standard"``, ``"warn"``, ``"raise"`` or ``"complex"``: the mode of the
        innermost active :func:`compute_mode` block of this thread or asyncio
        task, or ``"standard"`` outside every block.

    Examples
    --------
    >>> import ocean_ext
    >>> ocean_ext.get_compute_mode()
    'standard'
    >>> with ocean_ext.compute_mode("raise"):
    ...     with ocean_ext.compute_mode("warn"):
    ...         print(ocean_ext.get_compute_mode())
    ...     print(ocean_ext.get_compute_mode())
    warn
    raise
    """
    return _get()


# --- helpers for the out-of-domain path ---------------------------------------
def _host(dev: Any, native: Any) -> Any:
    """``native`` (a small result) as a NumPy value on the host."""
    backend = dev._backend
    if backend.is_lazy(native):
        native = backend.materialize(native)
    return np.asarray(backend.to_host(native))[()]


def _refuse_lazy(dev: Any, native: Any, where: str, mode: str) -> None:
    """Modes other than "standard" decide from the values; on a lazy device
    (dask) that would run the graph behind the caller's back."""
    if dev._backend.is_lazy(native):
        msg = (
            f"{where}: mode {mode!r} needs the values of the input to decide, and "
            f"the array on {dev} is lazy; use mode='standard' (NaN outside the "
            f"domain), or compute the input first (ocean_ext.compute)"
        )
        raise NotImplementedError(msg)


def _any(dev: Any, mask: Any) -> bool:
    return bool(_host(dev, dev._ops["any"](mask, None, False)))


def _native(dev: Any, res: Any) -> Any:
    """A kernel's result as the device's native array (NumPy ufuncs give
    NumPy scalars for 0-d input)."""
    return res if res.__class__ is dev._native else dev._backend.to_native(res)


def _complex_dtype(dt: Any, where: str) -> Any:
    cdt = _dt.COMPLEX_OF.get(dt)
    if cdt is None:
        msg = f"{where}: mode 'complex' needs a complex dtype matching {dt}, and there is none"
        raise TypeError(msg)
    return cdt


def _as_stored(value: Any, dt: Any) -> float:
    """A Python int/float scalar as an array of dtype ``dt`` stores it (float32
    rounds, huge values become infinite), which is what the kernel computes with."""
    try:
        with np.errstate(over="ignore"):
            return float(dt._native.type(value))
    except OverflowError:
        return math.copysign(math.inf, value)


def _describe(
    where: str,
    dev: Any,
    mask: Any,
    domain: str,
    operands: tuple[tuple[str, Any, Any], ...],
) -> str:
    """Say how many elements of ``mask`` are set, and where the first one is.

    ``operands``: (name, native array or Python scalar, dtype) of each input.
    Runs on the error path only.
    """
    ops = dev._ops
    shape = tuple(mask.shape)
    size = math.prod(shape)
    count = int(_host(dev, ops["count_nonzero"](mask, None, False)))
    flat = int(
        _host(dev, ops["argmax"](ops["reshape"](mask, (-1,), None), None, False))
    )
    index = []
    for n in reversed(shape):
        flat, i = divmod(flat, n)
        index.append(i)
    key = tuple(reversed(index))
    values = []
    for name, value, dt in operands:
        if value.__class__ is dev._native:
            v = _host(dev, ops["getitem"](ops["broadcast_to"](value, shape), key))
        else:
            v = dt._native.type(_as_stored(value, dt))
        values.append(f"{name} = {v!s}")  # str: NumPy's shortest repr of v's dtype
    first = ", ".join(values)
    if shape:
        first = f"the first at index {key}: {first}"
    verb = "lies" if count == 1 else "lie"
    return (
        f"{where}: {count} of {size} element{'' if size == 1 else 's'} {verb} "
        f"outside the domain {domain} ({first})"
    )


def _report(mode: str, message: str) -> None:
    """Raise (mode "raise") or warn (mode "warn") about out-of-domain input."""
    if mode == "raise":
        msg = (
            f"{message}; pass mode='complex' for a complex result, or "
            f"mode='standard' for NaN"
        )
        raise DomainError(msg)
    # stacklevel: _report <- the ocean_ext function <- the caller
    warnings.warn(DomainWarning(f"{message}; their results are NaN"), stacklevel=3)


def _nan_where(dev: Any, mask: Any, data: Any, dt: Any) -> Array:
    """``data`` with NaN where ``mask`` is set (the standard's result there).

    Modes "warn" and "complex" compute the real result from this, so that the
    backend sees no invalid input: the caller gets one :class:`DomainWarning`
    (or none, in mode "complex") rather than the backend's own floating-point
    warning too.
    """
    return _wrap(_native(dev, dev._ops["where"](mask, math.nan, data)), dt, dev)


def _merge(dev: Any, mask: Any, outside: Array, inside: Array) -> Array:
    """``outside`` (complex) where ``mask`` is set, else ``inside`` (real)."""
    return xp.where(_wrap(mask, _dt.bool, dev), outside, inside)


# --- the functions -----------------------------------------------------------

_DOC = """\
{summary}, with a choice of what happens outside the domain {domain}.

Parameters
----------
x : Array
    Input array, of a floating-point dtype.
mode : {{"standard", "warn", "raise", "complex"}}, optional
    What to do when some element of ``x`` lies outside the domain (see
    :func:`compute_mode`).  ``None``, the default, uses the mode of the
    innermost active :func:`compute_mode` block ("standard" outside every block).

Returns
-------
Array
    ``ocean_array_api.{name}(x)``, of the dtype of ``x``; except in mode
    "complex" when some element lies outside the domain: then the complex
    result over the principal branch, of the complex dtype of the same
    precision (float32 gives complex64, float64 complex128, float16
    complex32).  Complex input is
    always in the domain and gives ``ocean_array_api.{name}(x)`` in every mode.

Raises
------
DomainError
    In mode "raise", when some element lies outside the domain; the message
    says how many, and the index and value of the first.
TypeError
    If ``x`` is not an array or has no floating-point dtype (as
    ``ocean_array_api.{name}``), or ``mode`` is not a string.
ValueError
    If ``mode`` is not one of the four modes.

Warns
-----
DomainWarning
    In mode "warn", when some element lies outside the domain.

See Also
--------
compute_mode : set the default mode in a ``with`` block.
get_compute_mode : the mode now in effect.

Notes
-----
An element is out of domain when the standard gives NaN for it although it is
not NaN itself: here, {outside}.  NaN input gives NaN in every mode without
counting as out of domain.{notes}

In a complex result (mode "complex"), each out-of-domain element is the
principal value of the complex function (what ``numpy.emath`` gives), and
every other element is the real result with a zero imaginary part, exactly as
in mode "standard" (so that, e.g., ``log1p`` keeps its accuracy near zero).

Examples
--------
>>> import ocean_array_api as xp
>>> import ocean_ext
{examples}
"""


def _unary(
    name: str,
    summary: str,
    domain: str,
    outside_text: str,
    outside: Callable[[Any, Any], Any],
    notes: str,
    examples: str,
) -> Callable[..., Array]:
    xp_func: Callable[[Array], Array] = getattr(xp, name)
    where = f"ocean_ext.{name}()"

    def func(x: Array, /, *, mode: Mode | None = None) -> Array:
        if mode is None:
            m = _get()
        elif mode.__class__ is str and mode in _MODES:
            m = mode
        else:
            m = _check_mode(mode, where)
        if m == "standard":
            return xp_func(x)
        if x.__class__ is not Array or x._dtype._kind != "real floating":
            # ocean_array_api's own TypeError, or complex input (always in
            # domain).  The kind, not the category set: ocean_ext.float16 too.
            return xp_func(x)
        dev = x._device
        data = x._data
        _refuse_lazy(dev, data, where, m)
        mask = _native(dev, outside(dev._ops, data))
        if not _any(dev, mask):
            return xp_func(x)
        dt = x._dtype
        if m != "complex":
            _report(m, _describe(where, dev, mask, domain, (("x", data, dt),)))
        # The standard's result, computed without out-of-domain input (NaN there).
        real = xp_func(_nan_where(dev, mask, data, dt))
        if m != "complex":
            return real
        cx = xp.astype(x, _complex_dtype(dt, where))
        return _merge(dev, mask, xp_func(cx), real)

    func.__name__ = func.__qualname__ = name
    func.__doc__ = _DOC.format(
        name=name,
        summary=summary,
        domain=domain,
        outside=outside_text,
        notes=notes,
        examples=examples,
    )
    return func


def _below(bound: float) -> Callable[[Any, Any], Any]:
    def outside(ops: Any, a: Any) -> Any:
        return ops["less"](a, bound)

    return outside


def _beyond_one(ops: Any, a: Any) -> Any:
    return ops["greater"](ops["abs"](a), 1)


def _pole(pole: str, value: str) -> str:
    return f"  ``{pole}`` is a pole, not a domain error: it gives ``{value}`` in every mode."


# fmt: off
sqrt = _unary(
    "sqrt", "Principal square root of each element", "x >= 0", "``x < 0``",
    _below(0), "  ``sqrt(-0.0)`` is ``-0.0``, in the domain.",
    """\
>>> x = xp.asarray([-4.0, 0.0, 4.0])
>>> ocean_ext.sqrt(x, mode="complex")
Array([0.+2.j, 0.+0.j, 2.+0.j], dtype=complex128)
>>> ocean_ext.sqrt(xp.asarray([0.0, 4.0], dtype=xp.float32), mode="complex")
Array([0., 2.], dtype=float32)
>>> ocean_ext.sqrt(x, mode="raise")
Traceback (most recent call last):
    ...
ocean_ext.DomainError: ocean_ext.sqrt(): 1 of 3 elements lies outside the domain x >= 0 (the first at index (0,): x = -4.0); ...""",
)
log = _unary(
    "log", "Natural logarithm of each element", "x >= 0", "``x < 0``",
    _below(0), _pole("log(0)", "-inf"),
    """\
>>> x = xp.asarray([-1.0, 1.0])
>>> ocean_ext.log(x, mode="complex")
Array([0.+3.14159265j, 0.+0.j        ], dtype=complex128)""",
)
log2 = _unary(
    "log2", "Base-2 logarithm of each element", "x >= 0", "``x < 0``",
    _below(0), _pole("log2(0)", "-inf"),
    """\
>>> ocean_ext.log2(xp.asarray([-8.0, 8.0]), mode="complex")
Array([3.+4.53236014j, 3.+0.j        ], dtype=complex128)""",
)
log10 = _unary(
    "log10", "Base-10 logarithm of each element", "x >= 0", "``x < 0``",
    _below(0), _pole("log10(0)", "-inf"),
    """\
>>> ocean_ext.log10(xp.asarray([-100.0, 10.0]), mode="complex")
Array([2.+1.36437635j, 1.+0.j        ], dtype=complex128)""",
)
log1p = _unary(
    "log1p", "log(1 + x) for each element, accurate near zero", "x >= -1",
    "``x < -1``", _below(-1), _pole("log1p(-1)", "-inf"),
    """\
>>> ocean_ext.log1p(xp.asarray([-2.0, 0.0]), mode="complex")
Array([0.+3.14159265j, 0.+0.j        ], dtype=complex128)""",
)
acos = _unary(
    "acos", "Principal inverse cosine of each element", "-1 <= x <= 1",
    "``|x| > 1``, infinities included", _beyond_one,
    "  The boundary values are in the domain: ``acos(1)`` is ``0``.",
    """\
>>> ocean_ext.acos(xp.asarray([2.0, 1.0]), mode="complex")
Array([0.-1.3169579j, 0.+0.j       ], dtype=complex128)""",
)
asin = _unary(
    "asin", "Principal inverse sine of each element", "-1 <= x <= 1",
    "``|x| > 1``, infinities included", _beyond_one,
    "  The boundary values are in the domain: ``asin(-1)`` is ``-pi/2``.",
    """\
>>> ocean_ext.asin(xp.asarray([2.0, 0.0]), mode="complex")
Array([1.57079633+1.3169579j, 0.        +0.j       ], dtype=complex128)""",
)
acosh = _unary(
    "acosh", "Inverse hyperbolic cosine of each element", "x >= 1",
    "``x < 1``, ``-inf`` included", _below(1),
    "  The boundary value is in the domain: ``acosh(1)`` is ``0``.",
    """\
>>> ocean_ext.acosh(xp.asarray([0.0, 1.0]), mode="complex")
Array([0.+1.57079633j, 0.+0.j        ], dtype=complex128)""",
)
atanh = _unary(
    "atanh", "Inverse hyperbolic tangent of each element", "-1 <= x <= 1",
    "``|x| > 1``, infinities included", _beyond_one,
    "  ``atanh(1)`` and ``atanh(-1)`` are poles, not domain errors: they give "
    "``inf`` and ``-inf`` in every mode.",
    """\
>>> ocean_ext.atanh(xp.asarray([2.0, 0.0]), mode="complex")
Array([0.54930614+1.57079633j, 0.        +0.j        ], dtype=complex128)""",
)
# fmt: on


def pow(  # noqa: A001
    x1: Array | int | float | complex,
    x2: Array | int | float | complex,
    /,
    *,
    mode: Mode | None = None,
) -> Array:
    """``x1`` raised to the power ``x2``, with a choice of what happens outside the domain.

    Outside the domain means: a finite negative ``x1`` with a finite
    non-integer ``x2``, where the real power is undefined.

    Parameters
    ----------
    x1, x2 : Array or Python scalar
        Base and exponent, as for ``ocean_array_api.pow`` (at least one an
        array; broadcasting and type promotion as the standard says).
    mode : {"standard", "warn", "raise", "complex"}, optional
        What to do when some pair of elements lies outside the domain (see
        :func:`compute_mode`).  ``None``, the default, uses the mode of the
        innermost active :func:`compute_mode` block ("standard" outside every
        block).

    Returns
    -------
    Array
        ``ocean_array_api.pow(x1, x2)``; except in mode "complex" when some pair
        lies outside the domain: then the complex power over the principal
        branch, of the complex dtype of the promoted precision (float32 gives
        complex64).  Integer and complex operands are always in the domain and
        give ``ocean_array_api.pow(x1, x2)`` in every mode.

    Raises
    ------
    DomainError
        In mode "raise", when some pair lies outside the domain; the message
        says how many, and the index and values of the first.
    TypeError
        For operands ``ocean_array_api.pow`` refuses, or a ``mode`` that is not
        a string.
    ValueError
        If ``mode`` is not one of the four modes, or the shapes do not broadcast.

    Warns
    -----
    DomainWarning
        In mode "warn", when some pair lies outside the domain.

    See Also
    --------
    compute_mode : set the default mode in a ``with`` block.
    get_compute_mode : the mode now in effect.

    Notes
    -----
    NaN operands give what the standard says (NaN, except ``pow(x, 0)`` and
    ``pow(1, y)``, which are 1) in every mode, without counting as out of the
    domain.  A negative base with an integer exponent (``pow(-2.0, 3.0)``), an
    infinite base or an infinite exponent are in the domain.  A Python scalar
    operand is taken as the array's dtype stores it (in float32, ``1e-50`` is 0,
    an integer).

    In a complex result (mode "complex"), each out-of-domain element is the
    principal value of the complex power, and every other element the real
    result with a zero imaginary part, exactly as in mode "standard"
    (``pow(-2.0, 2.0)`` next to ``pow(-2.0, 0.5)`` is exactly ``4+0j``).
    Unlike ``numpy.emath.power``, mode "complex" keeps a real result for a
    negative base whose exponents are all integers.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.asarray([-8.0, 4.0])
    >>> ocean_ext.pow(x, 2.0, mode="complex")
    Array([64., 16.], dtype=float64)
    >>> ocean_ext.pow(x, 0.5, mode="complex")
    Array([1.73191211e-16+2.82842712j, 2.00000000e+00+0.j        ], dtype=complex128)
    >>> ocean_ext.pow(x, 0.5, mode="raise")
    Traceback (most recent call last):
        ...
    ocean_ext.DomainError: ocean_ext.pow(): 1 of 2 elements lies outside the domain ...
    """
    where = "ocean_ext.pow()"
    if mode is None:
        m = _get()
    elif mode.__class__ is str and mode in _MODES:
        m = mode
    else:
        m = _check_mode(mode, where)
    if m == "standard":
        return xp.pow(x1, x2)
    a, b, dt, dev = _resolve("pow()", x1, x2)
    if dt._kind != "real floating":
        # integer, complex (always in domain) or refused dtypes: as xp.pow
        return xp.pow(x1, x2)
    ops = dev._ops
    native = dev._native
    _refuse_lazy(dev, a if a.__class__ is native else b, where, m)
    if a.__class__ is native:
        neg = ops["less"](a, 0)
        if b.__class__ is native:
            if not _any(dev, neg):
                return xp.pow(x1, x2)
            mask = ops["logical_and"](
                ops["logical_and"](neg, ops["greater"](a, -math.inf)),
                ops["logical_and"](
                    ops["isfinite"](b), ops["not_equal"](ops["floor"](b), b)
                ),
            )
        else:
            e = _as_stored(b, dt)
            if not math.isfinite(e) or e == math.floor(e):
                return xp.pow(x1, x2)
            mask = ops["logical_and"](neg, ops["greater"](a, -math.inf))
    else:
        base = _as_stored(a, dt)
        if not (-math.inf < base < 0):
            return xp.pow(x1, x2)
        mask = ops["logical_and"](
            ops["isfinite"](b), ops["not_equal"](ops["floor"](b), b)
        )
    mask = _native(dev, mask)
    if not _any(dev, mask):
        return xp.pow(x1, x2)
    if m != "complex":
        domain = "x1 >= 0 or integer x2"
        _report(m, _describe(where, dev, mask, domain, (("x1", a, dt), ("x2", b, dt))))
    # The standard's result, computed without out-of-domain input (NaN there).
    if x1.__class__ is Array:
        real = xp.pow(_nan_where(dev, mask, a, x1._dtype), x2)
    else:
        real = xp.pow(x1, _nan_where(dev, mask, b, x2._dtype))  # type: ignore[union-attr]
    if m != "complex":
        return real
    cdt = _complex_dtype(dt, where)
    c1 = xp.astype(x1, cdt) if x1.__class__ is Array else complex(a)
    c2 = xp.astype(x2, cdt) if x2.__class__ is Array else complex(b)
    return _merge(dev, mask, xp.pow(c1, c2), real)
