"""Elementwise functions and operators on COO arrays.

Every function applies the ``ocean_array_api`` function of the same name to
the stored values *and* to the fill value, so dtypes, promotion, special
cases and errors are the standard namespace's, and the result is exactly what
the dense computation gives:

- unary ``f(s)``: a COO with the same coordinates, values ``f(data)`` and
  fill value ``f(fill_value)`` (``exp`` of a zero-filled array is one-filled);
- ``f(s, scalar)`` (a Python scalar or 0-d array): a COO likewise;
- ``f(s, t)`` of two COOs: over the union of their entries, with the other
  operand's fill value where one has no entry; broadcasting as the standard's;
- ``f(s, x)`` with a dense array ``x`` of 1 or more dimensions: dense.

Entries whose result equals the result's fill value are dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ocean_array_api as xp

from ._common import Array, check_result_dtype, fill_array, wrap
from ._setitem import broadcast_entries, broadcast_shapes
from ._store import Entries, prune

__all__ = ["BINARY", "UNARY", "clip", "to_scalar"]  # and every name of UNARY, BINARY

UNARY = (
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "bitwise_invert",
    "ceil", "conj", "cos", "cosh", "exp", "expm1", "floor", "imag", "isfinite",
    "isinf", "isnan", "log", "log1p", "log2", "log10", "logical_not", "negative",
    "positive", "real", "reciprocal", "round", "sign", "signbit", "sin", "sinh",
    "square", "sqrt", "tan", "tanh", "trunc",
)  # fmt: skip

BINARY = (
    "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "copysign", "divide", "equal",
    "floor_divide", "greater", "greater_equal", "hypot", "less", "less_equal",
    "logaddexp", "logical_and", "logical_or", "logical_xor", "maximum", "minimum",
    "multiply", "nextafter", "not_equal", "pow", "remainder", "subtract",
)  # fmt: skip


def to_scalar(a: Array) -> Any:
    """The Python scalar held by a 0-d Array."""
    if a.device._kind != "cpu":
        a = a.to_device("cpu")
    return a._data.item()


def _is_coo(x: Any) -> bool:
    from ._coo import COO

    return isinstance(x, COO)


def _new(ent: Entries, fill: Any) -> Any:
    from ._coo import COO

    return COO._from_entries(prune(ent, fill), fill)


def _map_values(s: Any, func: Callable[[Array], Array], where: str) -> Any:
    """A COO with the coordinates of ``s`` and values ``func(data)``,
    fill value ``func(fill_value)``."""
    fr = func(fill_array(s.fill_value, s.dtype, s.device))
    check_result_dtype(fr.dtype, where)
    fill = to_scalar(fr)
    ent = s._mat()
    data = func(ent.values())
    new = Entries(
        ent.shape,
        fr.dtype,
        ent.device,
        data._data,
        keys=ent._keys,
        coords=ent._coords,
        k=ent.k,
    )
    return _new(new, fill)


_EXAMPLE_INPUT = {
    "bitwise_invert": "xp.asarray([0, 3])",
    "logical_not": "xp.asarray([False, True])",
    "conj": "xp.asarray([0j, 1 + 2j])",
    "real": "xp.asarray([0j, 1 + 2j])",
    "imag": "xp.asarray([0j, 1 + 2j])",
    "acosh": "xp.asarray([1.0, 2.0]), fill_value=1.0",
}


def _unary(name: str) -> Callable[..., Any]:
    f = getattr(xp, name)
    where = f"{name}()"

    def func(x: Any, /) -> Any:
        if _is_coo(x):
            return _map_values(x, f, where)
        return f(x)

    func.__name__ = func.__qualname__ = name
    example = _EXAMPLE_INPUT.get(name, "xp.asarray([0.0, 0.5])")
    func.__doc__ = (
        f"``{name}`` of a COO (a COO, the fill value mapped too) or of a dense "
        f"array (``ocean_array_api.{name}``).\n\n"
        f"Examples\n--------\n"
        f">>> import ocean_array_api as xp\n"
        f">>> from ocean_ext import sparse\n"
        f">>> s = sparse.COO.from_dense({example})\n"
        f">>> r = sparse.{name}(s)\n"
        f">>> bool(xp.all(r.todense() == xp.{name}(s.todense())))\n"
        f"True\n"
    )
    return func


def _scalar_like(x: Any) -> bool:
    if x.__class__ is Array:
        return x.ndim == 0
    return isinstance(x, (bool, int, float, complex))


def _coo_coo(f: Callable[..., Array], a: Any, b: Any, where: str) -> Any:
    dev = a.device
    if b.device is not dev:
        msg = f"{where}: `x1` is on {dev!r} and `x2` on {b.device!r}; move one with to_device()"
        raise ValueError(msg)
    shape = broadcast_shapes(a.shape, b.shape, where)
    fa0 = fill_array(a.fill_value, a.dtype, dev)
    fb0 = fill_array(b.fill_value, b.dtype, dev)
    fr = f(fa0, fb0)  # checks the dtypes, gives the result's
    rdt = fr.dtype
    check_result_dtype(rdt, where)
    fill = to_scalar(fr)
    ea = a._mat()
    eb = b._mat()
    if ea.shape != shape:
        ea = broadcast_entries(ea, shape, a.fill_value, where)
    if eb.shape != shape:
        eb = broadcast_entries(eb, shape, b.fill_value, where)
    k = ea.k
    nx = k.nx
    ka = ea.keys
    kb = eb.keys
    n = ka.shape[0]
    m = kb.shape[0]
    if ka is kb or (n == m and bool(nx.array_equal(ka, kb))):
        data = f(ea.values(), eb.values())._data
        coords = ea._coords if ea._coords is not None else eb._coords
        return _new(Entries(shape, rdt, dev, data, keys=ka, coords=coords, k=k), fill)
    # the union of the two sorted key lists; each operand's values scattered
    # over it, its fill value where it has no entry, then one call of f
    sk, from_a = k.merge_sorted(ka, kb, max(_size(shape) - 1, 0))
    total = n + m
    first = nx.ones(total, dtype=bool)
    nx.not_equal(sk[1:], sk[:-1], out=first[1:])
    gid = nx.cumsum(first) - 1
    u = int(gid[-1]) + 1 if total else 0
    va = nx.full(u, a.fill_value, dtype=a.dtype._native)
    vb = nx.full(u, b.fill_value, dtype=b.dtype._native)
    va[gid[from_a]] = ea.data
    vb[gid[~from_a]] = eb.data
    out = f(wrap(va, a.dtype, dev), wrap(vb, b.dtype, dev))._data
    return _new(Entries(shape, rdt, dev, out, keys=sk[first], k=k), fill)


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _binary(name: str) -> Callable[..., Any]:
    f = getattr(xp, name)
    where = f"{name}()"

    def apply(x1: Any, x2: Any) -> Any:
        c1 = _is_coo(x1)
        c2 = _is_coo(x2)
        if c1 and c2:
            return _coo_coo(f, x1, x2, where)
        if c1:
            if _scalar_like(x2):
                return _map_values(x1, lambda v: f(v, x2), where)
            if x2.__class__ is Array:
                return f(x1.todense(), x2)
        elif c2:
            if _scalar_like(x1):
                return _map_values(x2, lambda v: f(x1, v), where)
            if x1.__class__ is Array:
                return f(x1, x2.todense())
        else:
            return f(x1, x2)
        return NotImplemented

    def func(x1: Any, x2: Any, /) -> Any:
        res = apply(x1, x2)
        if res is NotImplemented:
            bad, arg = (x2, "x2") if _is_coo(x1) else (x1, "x1")
            msg = (
                f"{where}: `{arg}` must be a COO, an ocean_array_api array or a Python "
                f"scalar, got {type(bad).__name__}"
            )
            raise TypeError(msg)
        return res

    func.__name__ = func.__qualname__ = name
    func.__doc__ = (
        f"``{name}`` of two operands, COO or dense (see the module notes of "
        f"``ocean_ext.sparse``: COO with COO or scalar gives COO, COO with a dense "
        f"array gives a dense array)."
    )
    func._apply = apply  # type: ignore[attr-defined]
    func._xp = f  # type: ignore[attr-defined]
    return func


def clip(x: Any, /, min: Any = None, max: Any = None) -> Any:  # noqa: A002
    """``clip`` of a COO (scalar bounds; the fill value is clipped too) or of a
    dense array.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([0.0, 5.0, -3.0]))
    >>> sparse.clip(s, min=-1.0, max=1.0).todense()
    Array([ 0.,  1., -1.], dtype=float64)
    """
    if _is_coo(x):
        if not all(b is None or _scalar_like(b) for b in (min, max)):
            msg = (
                "clip(): sparse `x` needs scalar (or 0-d array) bounds `min` and `max`"
            )
            raise TypeError(msg)
        return _map_values(x, lambda v: xp.clip(v, min=min, max=max), "clip()")
    return xp.clip(x, min=min, max=max)


abs = _unary("abs")  # noqa: A001
acos = _unary("acos")
acosh = _unary("acosh")
asin = _unary("asin")
asinh = _unary("asinh")
atan = _unary("atan")
atanh = _unary("atanh")
bitwise_invert = _unary("bitwise_invert")
ceil = _unary("ceil")
conj = _unary("conj")
cos = _unary("cos")
cosh = _unary("cosh")
exp = _unary("exp")
expm1 = _unary("expm1")
floor = _unary("floor")
imag = _unary("imag")
isfinite = _unary("isfinite")
isinf = _unary("isinf")
isnan = _unary("isnan")
log = _unary("log")
log1p = _unary("log1p")
log2 = _unary("log2")
log10 = _unary("log10")
logical_not = _unary("logical_not")
negative = _unary("negative")
positive = _unary("positive")
real = _unary("real")
reciprocal = _unary("reciprocal")
round = _unary("round")  # noqa: A001
sign = _unary("sign")
signbit = _unary("signbit")
sin = _unary("sin")
sinh = _unary("sinh")
square = _unary("square")
sqrt = _unary("sqrt")
tan = _unary("tan")
tanh = _unary("tanh")
trunc = _unary("trunc")
add = _binary("add")
atan2 = _binary("atan2")
bitwise_and = _binary("bitwise_and")
bitwise_left_shift = _binary("bitwise_left_shift")
bitwise_or = _binary("bitwise_or")
bitwise_right_shift = _binary("bitwise_right_shift")
bitwise_xor = _binary("bitwise_xor")
copysign = _binary("copysign")
divide = _binary("divide")
equal = _binary("equal")
floor_divide = _binary("floor_divide")
greater = _binary("greater")
greater_equal = _binary("greater_equal")
hypot = _binary("hypot")
less = _binary("less")
less_equal = _binary("less_equal")
logaddexp = _binary("logaddexp")
logical_and = _binary("logical_and")
logical_or = _binary("logical_or")
logical_xor = _binary("logical_xor")
maximum = _binary("maximum")
minimum = _binary("minimum")
multiply = _binary("multiply")
nextafter = _binary("nextafter")
not_equal = _binary("not_equal")
pow = _binary("pow")  # noqa: A001
remainder = _binary("remainder")
subtract = _binary("subtract")
