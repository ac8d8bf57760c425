"""Every function and operator of ``ocean_array_api``, runnable on drawn inputs.

A *case* is a function ``case(env)`` that draws its inputs through ``env``
(arrays with :meth:`Env.array`, anything else with :meth:`Env.draw`) and calls
one function.  :func:`run_differential` runs a case twice on the same drawn
values: once on plain native arrays (the oracle) and once on arrays prepared
by a *mode* (byte-swapped, read-only), then compares the results.  Draws are
recorded in the first run and replayed in the second, so both see identical
inputs and parameters.

``CASES`` names cases ``"<function>"`` or ``"<function>[<variant>]"``;
:data:`NOT_ARRAY_FUNCTIONS` lists the public callables that take no array
(creation from scratch, dtype inspection), and a test checks that every other
public callable of the namespace, ``linalg``, ``fft`` and ``Array`` has a case.
"""

from __future__ import annotations

import copy
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext

from ..helpers import (
    ALL_DTYPES,
    COMPLEX_DTYPES,
    FLOAT_DTYPES,
    INT_DTYPES,
    NUMERIC_DTYPES,
    REAL_DTYPES,
    REAL_FLOAT_DTYPES,
    np_dtype,
)

BOOL = (xp.bool,)
INT_BOOL = (xp.bool, *INT_DTYPES)
WIDE = (xp.int16, xp.int32, xp.int64, xp.uint16, xp.uint32, xp.uint64)
WIDE_REAL = (*WIDE, *REAL_FLOAT_DTYPES)
WIDE_NUMERIC = (*WIDE_REAL, *COMPLEX_DTYPES)

# Public callables that take no array argument: nothing to run on inputs.
NOT_ARRAY_FUNCTIONS = frozenset(
    {
        "arange", "empty", "eye", "full", "linspace", "ones", "zeros",
        "broadcast_shapes", "isdtype", "__array_namespace_info__",
        "fft.fftfreq", "fft.rfftfreq",
    }
)  # fmt: skip


class Meta:
    """A result whose values are undefined (``empty_like``): compare dtype and shape."""

    def __init__(self, x: Any) -> None:
        self.x = x


class Env:
    """Draws inputs for one run of a case, in a given mode.

    Modes: ``"native"`` (plain arrays), ``"swapped"`` (each array of a
    multi-byte dtype byte-swapped when a drawn flag says so, the first one
    always) and ``"readonly"`` (likewise made read-only).
    """

    def __init__(self, data: Any, mode: str, log: list[Any] | None) -> None:
        self._data = data
        self.mode = mode
        self._log: list[Any] = [] if log is None else log
        self._replay = log is not None
        self._pos = 0
        self.inputs: list[tuple[Any, np.ndarray]] = []  # (Array, its values)
        self.prepared: list[Any] = []  # the arrays the mode changed

    @property
    def log(self) -> list[Any]:
        return self._log

    def draw(self, strategy: Any) -> Any:
        if self._replay:
            value = self._log[self._pos]
            self._pos += 1
            return value
        value = self._data.draw(strategy)
        self._log.append(value)
        return value

    # --- arrays --------------------------------------------------------------
    def shape(
        self,
        *,
        min_dims: int = 0,
        max_dims: int = 3,
        min_side: int = 0,
        max_side: int = 4,
    ) -> tuple[int, ...]:
        return self.draw(  # type: ignore[no-any-return]
            hnp.array_shapes(
                min_dims=min_dims,
                max_dims=max_dims,
                min_side=min_side,
                max_side=max_side,
            )
        )

    def dtype(self, dtypes: tuple[Any, ...]) -> Any:
        return dtypes[0] if len(dtypes) == 1 else self.draw(st.sampled_from(dtypes))

    def values(
        self, dtype: Any, shape: tuple[int, ...], *, finite: bool = False
    ) -> np.ndarray:
        nd = np_dtype(dtype)
        if nd.kind == "f":
            elements = st.floats(
                -1e3 if finite else None,
                1e3 if finite else None,
                width=nd.itemsize * 8,
                allow_nan=not finite,
                allow_infinity=not finite,
            )
        elif nd.kind == "c":
            part = st.floats(
                -1e3 if finite else None,
                1e3 if finite else None,
                width=nd.itemsize * 4,
                allow_nan=not finite,
                allow_infinity=not finite,
            )
            elements = st.builds(complex, part, part)
        else:
            elements = hnp.from_dtype(nd)
        return self.draw(hnp.arrays(nd, shape, elements=elements))  # type: ignore[no-any-return]

    def array(
        self,
        dtypes: tuple[Any, ...] = ALL_DTYPES,
        shape: tuple[int, ...] | None = None,
        *,
        finite: bool = False,
        **shape_kw: Any,
    ) -> Any:
        """An input array of one of ``dtypes`` (drawn shape unless given)."""
        dt = self.dtype(dtypes)
        if shape is None:
            shape = self.shape(**shape_kw)
        return self.wrap(self.values(dt, shape, finite=finite))

    def wrap(self, values: np.ndarray) -> Any:
        """An input array holding ``values`` (a NumPy array), prepared by the mode."""
        values = np.ascontiguousarray(values)
        flag = self.draw(st.booleans())
        first = not self.inputs
        x = xp.asarray(values.copy())
        if self.mode == "swapped" and (flag or first) and values.dtype.itemsize > 1:
            x = ocean_ext.byteswap(x)
            assert ocean_ext.is_byteswapped(x)
            self.prepared.append(x)
        elif self.mode == "readonly" and (flag or first):
            ocean_ext.set_readonly(x)
            self.prepared.append(x)
        self.inputs.append((x, values))
        return x


Case = Callable[[Env], Any]
CASES: dict[str, Case] = {}


def case(name: str) -> Callable[[Case], Case]:
    def register(func: Case) -> Case:
        assert name not in CASES, name
        CASES[name] = func
        return func

    return register


# --- elementwise functions and operators -------------------------------------------
UNARY = {
    "abs": NUMERIC_DTYPES, "acos": FLOAT_DTYPES, "acosh": FLOAT_DTYPES,
    "asin": FLOAT_DTYPES, "asinh": FLOAT_DTYPES, "atan": FLOAT_DTYPES,
    "atanh": FLOAT_DTYPES, "bitwise_invert": INT_BOOL, "ceil": REAL_DTYPES,
    "conj": NUMERIC_DTYPES, "cos": FLOAT_DTYPES, "cosh": FLOAT_DTYPES,
    "exp": FLOAT_DTYPES, "expm1": FLOAT_DTYPES, "floor": REAL_DTYPES,
    "imag": COMPLEX_DTYPES, "isfinite": NUMERIC_DTYPES, "isinf": NUMERIC_DTYPES,
    "isnan": NUMERIC_DTYPES, "log": FLOAT_DTYPES, "log1p": FLOAT_DTYPES,
    "log2": FLOAT_DTYPES, "log10": FLOAT_DTYPES, "logical_not": BOOL,
    "negative": NUMERIC_DTYPES, "positive": NUMERIC_DTYPES, "real": NUMERIC_DTYPES,
    "reciprocal": FLOAT_DTYPES, "round": NUMERIC_DTYPES, "sign": NUMERIC_DTYPES,
    "signbit": REAL_FLOAT_DTYPES, "sin": FLOAT_DTYPES, "sinh": FLOAT_DTYPES,
    "square": NUMERIC_DTYPES, "sqrt": FLOAT_DTYPES, "tan": FLOAT_DTYPES,
    "tanh": FLOAT_DTYPES, "trunc": REAL_DTYPES,
}  # fmt: skip
BINARY = {
    "add": NUMERIC_DTYPES, "atan2": REAL_FLOAT_DTYPES, "bitwise_and": INT_BOOL,
    "bitwise_left_shift": INT_DTYPES, "bitwise_or": INT_BOOL,
    "bitwise_right_shift": INT_DTYPES, "bitwise_xor": INT_BOOL,
    "copysign": REAL_FLOAT_DTYPES, "divide": NUMERIC_DTYPES, "equal": ALL_DTYPES,
    "floor_divide": REAL_DTYPES, "greater": REAL_DTYPES, "greater_equal": REAL_DTYPES,
    "hypot": REAL_FLOAT_DTYPES, "less": REAL_DTYPES, "less_equal": REAL_DTYPES,
    "logaddexp": REAL_FLOAT_DTYPES, "logical_and": BOOL, "logical_or": BOOL,
    "logical_xor": BOOL, "maximum": REAL_DTYPES, "minimum": REAL_DTYPES,
    "multiply": NUMERIC_DTYPES, "nextafter": REAL_FLOAT_DTYPES,
    "not_equal": ALL_DTYPES, "pow": NUMERIC_DTYPES, "remainder": REAL_DTYPES,
    "subtract": NUMERIC_DTYPES,
}  # fmt: skip
BINARY_OPERATORS = {
    "__add__": ("add", operator.add), "__sub__": ("subtract", operator.sub),
    "__mul__": ("multiply", operator.mul), "__truediv__": ("divide", operator.truediv),
    "__floordiv__": ("floor_divide", operator.floordiv),
    "__mod__": ("remainder", operator.mod), "__pow__": ("pow", operator.pow),
    "__and__": ("bitwise_and", operator.and_), "__or__": ("bitwise_or", operator.or_),
    "__xor__": ("bitwise_xor", operator.xor),
    "__lshift__": ("bitwise_left_shift", operator.lshift),
    "__rshift__": ("bitwise_right_shift", operator.rshift),
    "__eq__": ("equal", operator.eq), "__ne__": ("not_equal", operator.ne),
    "__lt__": ("less", operator.lt), "__le__": ("less_equal", operator.le),
    "__gt__": ("greater", operator.gt), "__ge__": ("greater_equal", operator.ge),
}  # fmt: skip
UNARY_OPERATORS = {
    "__neg__": ("negative", operator.neg), "__pos__": ("positive", operator.pos),
    "__abs__": ("abs", operator.abs), "__invert__": ("bitwise_invert", operator.invert),
}  # fmt: skip
SCALARS = {
    "b": st.booleans(),
    "i": st.integers(-3, 3),
    "u": st.integers(0, 3),
    "f": st.floats(-4, 4),
    "c": st.complex_numbers(max_magnitude=4),
}


def _pair(env: Env, dtypes: tuple[Any, ...]) -> tuple[Any, Any]:
    dt = env.dtype(dtypes)
    s1, s2 = env.draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4)
    ).input_shapes
    return env.wrap(env.values(dt, s1)), env.wrap(env.values(dt, s2))


def _unary_case(func: Callable[..., Any], dtypes: tuple[Any, ...]) -> Case:
    return lambda env: func(env.array(dtypes))


def _binary_case(func: Callable[..., Any], dtypes: tuple[Any, ...]) -> Case:
    return lambda env: func(*_pair(env, dtypes))


def _scalar_case(func: Callable[..., Any], dtypes: tuple[Any, ...]) -> Case:
    def run(env: Env) -> Any:
        x = env.array(dtypes)
        kind = np_dtype(x.dtype).kind
        s = env.draw(SCALARS[kind])
        return func(x, s) if env.draw(st.booleans()) else func(s, x)

    return run


for _name, _dts in UNARY.items():
    case(_name)(_unary_case(getattr(xp, _name), _dts))
for _name, _dts in BINARY.items():
    case(_name)(_binary_case(getattr(xp, _name), _dts))
    case(f"{_name}[scalar]")(_scalar_case(getattr(xp, _name), _dts))
for _name, (_fname, _op) in BINARY_OPERATORS.items():
    case(_name)(_binary_case(_op, BINARY[_fname]))
for _name, (_fname, _op) in UNARY_OPERATORS.items():
    case(_name)(_unary_case(_op, UNARY[_fname]))


@case("add[mixed dtypes]")
def _(env: Env) -> Any:
    return env.array((xp.float32,), (3,)) + env.array((xp.float64,), (3,))


@case("clip")
def _(env: Env) -> Any:
    x = env.array(REAL_DTYPES)
    kind = env.draw(st.sampled_from(["none", "scalar", "array"]))
    if kind == "array":
        lo = env.array((x.dtype,), x.shape)
        hi = env.array((x.dtype,), x.shape)
    elif kind == "scalar":
        lo, hi = env.draw(st.integers(-3, 0)), env.draw(st.integers(0, 3))
        if x.dtype in (xp.uint8, xp.uint16, xp.uint32, xp.uint64):
            lo = 0
    else:
        lo = hi = None
    return xp.clip(x, lo, hi)


@case("__matmul__")
def _(env: Env) -> Any:
    n, k, m = (env.draw(st.integers(1, 4)) for _ in range(3))
    dt = env.dtype(NUMERIC_DTYPES)
    return env.array((dt,), (n, k)) @ env.array((dt,), (k, m))


# --- creation ------------------------------------------------------------------
@case("asarray")
def _(env: Env) -> Any:
    return xp.asarray(env.array())


@case("asarray[copy]")
def _(env: Env) -> Any:
    return xp.asarray(env.array(), copy=True)


@case("asarray[dtype]")
def _(env: Env) -> Any:
    x = env.array(REAL_FLOAT_DTYPES)
    return xp.asarray(x, dtype=env.dtype(REAL_FLOAT_DTYPES))


@case("from_dlpack")
def _(env: Env) -> Any:
    return xp.from_dlpack(env.array())


@case("empty_like")
def _(env: Env) -> Any:
    return Meta(xp.empty_like(env.array()))


@case("zeros_like")
def _(env: Env) -> Any:
    return xp.zeros_like(env.array())


@case("ones_like")
def _(env: Env) -> Any:
    return xp.ones_like(env.array())


@case("full_like")
def _(env: Env) -> Any:
    x = env.array(NUMERIC_DTYPES)
    kind = np_dtype(x.dtype).kind
    fill = {"i": 3, "u": 3, "f": 1.5, "c": 1.5 - 1j}[kind]
    return xp.full_like(x, fill)


for _name in ("tril", "triu"):

    def _tri(env: Env, _f: Callable[..., Any] = xp.__dict__[_name]) -> Any:
        return _f(env.array(min_dims=2), k=env.draw(st.integers(-3, 3)))

    case(_name)(_tri)


@case("meshgrid")
def _(env: Env) -> Any:
    dt = env.dtype(ALL_DTYPES)
    count = env.draw(st.integers(1, 3))
    arrays = [env.array((dt,), min_dims=1, max_dims=1) for _ in range(count)]
    return xp.meshgrid(*arrays, indexing=env.draw(st.sampled_from(["xy", "ij"])))


# --- data type functions ------------------------------------------------------------
@case("astype")
def _(env: Env) -> Any:
    x = env.array(REAL_DTYPES)
    return xp.astype(x, env.dtype(ALL_DTYPES), copy=env.draw(st.booleans()))


@case("astype[complex]")
def _(env: Env) -> Any:
    x = env.array(COMPLEX_DTYPES)
    return xp.astype(x, env.dtype(COMPLEX_DTYPES), copy=env.draw(st.booleans()))


@case("can_cast")
def _(env: Env) -> Any:
    return xp.can_cast(env.array(), env.dtype(ALL_DTYPES))


@case("finfo")
def _(env: Env) -> Any:
    f = xp.finfo(env.array(FLOAT_DTYPES))
    return (f.bits, f.eps, f.max, f.min, f.smallest_normal, f.dtype)


@case("iinfo")
def _(env: Env) -> Any:
    i = xp.iinfo(env.array(INT_DTYPES))
    return (i.bits, i.max, i.min, i.dtype)


@case("result_type")
def _(env: Env) -> Any:
    return xp.result_type(env.array(REAL_FLOAT_DTYPES), env.array(REAL_FLOAT_DTYPES))


# --- indexing -------------------------------------------------------------------------
def _indices(env: Env, size: int, count: int | None = None) -> Any:
    n = env.draw(st.integers(0, 5)) if count is None else count
    values = np.asarray(
        env.draw(st.lists(st.integers(-size, size - 1), min_size=n, max_size=n)),
        dtype=np.int64,
    )
    return xp.asarray(values)


@case("take")
def _(env: Env) -> Any:
    x = env.array(min_dims=1, min_side=1)
    axis = env.draw(st.integers(0, x.ndim - 1))
    return xp.take(x, _indices(env, x.shape[axis]), axis=axis)


@case("take_along_axis")
def _(env: Env) -> Any:
    x = env.array(min_dims=1, min_side=1)
    axis = env.draw(st.integers(-x.ndim, -1))
    shape = list(x.shape)
    shape[axis] = env.draw(st.integers(0, 4))
    n = x.shape[axis]
    idx = env.draw(hnp.arrays(np.int64, tuple(shape), elements=st.integers(-n, n - 1)))
    return xp.take_along_axis(x, xp.asarray(idx), axis=axis)


@case("__getitem__[basic]")
def _(env: Env) -> Any:
    x = env.array(min_dims=1)
    key = tuple(
        env.draw(st.slices(n)) if n else slice(None) for n in x.shape
    ) + env.draw(st.sampled_from([(), (None,), (Ellipsis,)]))
    return x[key]


@case("__getitem__[int]")
def _(env: Env) -> Any:
    x = env.array(min_dims=1, min_side=1)
    return x[env.draw(st.integers(-x.shape[0], x.shape[0] - 1))]


@case("__getitem__[index array]")
def _(env: Env) -> Any:
    x = env.array(min_dims=1, min_side=1)
    return x[_indices(env, x.shape[0])]


@case("__getitem__[index arrays]")
def _(env: Env) -> Any:
    x = env.array(min_dims=2, min_side=1)
    n = env.draw(st.integers(0, 4))
    return x[_indices(env, x.shape[0], n), _indices(env, x.shape[1], n)]


@case("__getitem__[ellipsis, index array]")
def _(env: Env) -> Any:
    x = env.array(min_dims=2, min_side=1)
    return x[..., _indices(env, x.shape[-1])]


@case("__getitem__[mask]")
def _(env: Env) -> Any:
    x = env.array(min_dims=1)
    return x[xp.asarray(env.values(xp.bool, x.shape))]


@case("__iter__")
def _(env: Env) -> Any:
    return tuple(env.array(min_dims=1))


@case("__bool__")
def _(env: Env) -> Any:
    return bool(env.array(shape=()))


@case("__int__")
def _(env: Env) -> Any:
    return int(env.array(REAL_DTYPES, shape=(), finite=True))


@case("__index__")
def _(env: Env) -> Any:
    return operator.index(env.array(INT_DTYPES, shape=()))


@case("__float__")
def _(env: Env) -> Any:
    return float(env.array(REAL_DTYPES, shape=()))


@case("__complex__")
def _(env: Env) -> Any:
    return complex(env.array(NUMERIC_DTYPES, shape=()))


@case("__copy__")
def _(env: Env) -> Any:
    return copy.copy(env.array())


@case("__deepcopy__")
def _(env: Env) -> Any:
    return copy.deepcopy(env.array())


@case("__repr__")
def _(env: Env) -> Any:
    return repr(env.array())


@case("to_device")
def _(env: Env) -> Any:
    return env.array().to_device(env.draw(st.sampled_from(["cpu:0", "cpu:1"])))


@case("T")
def _(env: Env) -> Any:
    return env.array(max_dims=2).T


@case("mT")
def _(env: Env) -> Any:
    return env.array(min_dims=2).mT


# --- linear algebra -------------------------------------------------------------------
@case("matmul")
def _(env: Env) -> Any:
    dt = env.dtype(NUMERIC_DTYPES)
    n, k, m = (env.draw(st.integers(1, 4)) for _ in range(3))
    batch = env.draw(st.sampled_from([(), (2,)]))
    a = env.array((dt,), (*batch, n, k))
    b = env.array((dt,), (k,) if env.draw(st.booleans()) else (k, m))
    return xp.matmul(a, b)


@case("matrix_transpose")
def _(env: Env) -> Any:
    return xp.matrix_transpose(env.array(min_dims=2))


@case("tensordot")
def _(env: Env) -> Any:
    dt = env.dtype(NUMERIC_DTYPES)
    a = env.array((dt,), (2, 3, 4))
    b = env.array((dt,), (3, 4, 2))
    return xp.tensordot(a, b, axes=env.draw(st.sampled_from([2, ((1,), (0,))])))


@case("vecdot")
def _(env: Env) -> Any:
    dt = env.dtype(NUMERIC_DTYPES)
    shape = env.shape(min_dims=1, min_side=1)
    return xp.vecdot(env.array((dt,), shape), env.array((dt,), shape))


# --- manipulation -------------------------------------------------------------------
@case("broadcast_arrays")
def _(env: Env) -> Any:
    return xp.broadcast_arrays(*_pair(env, ALL_DTYPES))


@case("broadcast_to")
def _(env: Env) -> Any:
    x = env.array()
    return xp.broadcast_to(x, (env.draw(st.integers(0, 3)), *x.shape))


@case("concat")
def _(env: Env) -> Any:
    dt = env.dtype(ALL_DTYPES)
    shape = env.shape(min_dims=1)
    other = (env.draw(st.integers(0, 3)), *shape[1:])
    return xp.concat([env.array((dt,), shape), env.array((dt,), other)], axis=0)


@case("concat[axis=None]")
def _(env: Env) -> Any:
    dt = env.dtype(ALL_DTYPES)
    return xp.concat([env.array((dt,)), env.array((dt,))], axis=None)


@case("concat[mixed dtypes]")
def _(env: Env) -> Any:
    return xp.concat([env.array((xp.float32,), (2,)), env.array((xp.float64,), (3,))])


@case("expand_dims")
def _(env: Env) -> Any:
    x = env.array()
    return xp.expand_dims(x, axis=env.draw(st.integers(-x.ndim - 1, x.ndim)))


@case("flip")
def _(env: Env) -> Any:
    x = env.array()
    axis = None if x.ndim == 0 else env.draw(st.sampled_from([None, 0, -1]))
    return xp.flip(x, axis=axis)


@case("moveaxis")
def _(env: Env) -> Any:
    x = env.array(min_dims=1)
    return xp.moveaxis(x, 0, -1)


@case("permute_dims")
def _(env: Env) -> Any:
    x = env.array()
    return xp.permute_dims(x, env.draw(st.permutations(range(x.ndim))))


@case("repeat")
def _(env: Env) -> Any:
    x = env.array(min_dims=1)
    return xp.repeat(
        x, env.draw(st.integers(0, 3)), axis=env.draw(st.sampled_from([None, 0]))
    )


@case("reshape")
def _(env: Env) -> Any:
    x = env.array()
    return xp.reshape(x, (-1,), copy=env.draw(st.sampled_from([None, True])))


@case("reshape[needs a copy]")
def _(env: Env) -> Any:
    x = env.array(min_dims=2, min_side=2)
    return xp.reshape(x.mT, (-1,))


@case("roll")
def _(env: Env) -> Any:
    x = env.array(min_dims=1)
    return xp.roll(
        x, env.draw(st.integers(-3, 3)), axis=env.draw(st.sampled_from([None, 0]))
    )


@case("squeeze")
def _(env: Env) -> Any:
    return xp.squeeze(env.array()[None, ...], axis=0)


@case("stack")
def _(env: Env) -> Any:
    dt = env.dtype(ALL_DTYPES)
    shape = env.shape()
    return xp.stack(
        [env.array((dt,), shape), env.array((dt,), shape)],
        axis=env.draw(st.integers(-len(shape) - 1, len(shape))),
    )


@case("tile")
def _(env: Env) -> Any:
    x = env.array()
    return xp.tile(
        x, tuple(env.draw(st.lists(st.integers(0, 2), min_size=1, max_size=3)))
    )


@case("unstack")
def _(env: Env) -> Any:
    x = env.array(min_dims=1)
    return xp.unstack(x, axis=env.draw(st.integers(-x.ndim, x.ndim - 1)))


# --- searching --------------------------------------------------------------------
for _name in ("argmax", "argmin"):

    def _arg(env: Env, _f: Callable[..., Any] = xp.__dict__[_name]) -> Any:
        x = env.array(REAL_DTYPES, min_dims=1, min_side=1)
        return _f(x, axis=env.draw(st.sampled_from([None, 0])))

    case(_name)(_arg)


@case("count_nonzero")
def _(env: Env) -> Any:
    x = env.array(min_dims=1)
    return xp.count_nonzero(x, axis=env.draw(st.sampled_from([None, 0])))


@case("nonzero")
def _(env: Env) -> Any:
    return xp.nonzero(env.array(min_dims=1))


@case("searchsorted")
def _(env: Env) -> Any:
    dt = env.dtype(WIDE_REAL)
    nd = np_dtype(dt)
    x1 = env.wrap(np.sort(env.values(dt, env.shape(min_dims=1, max_dims=1))).astype(nd))
    x2 = env.array((dt,))
    return xp.searchsorted(x1, x2, side=env.draw(st.sampled_from(["left", "right"])))


@case("where")
def _(env: Env) -> Any:
    dt = env.dtype(ALL_DTYPES)
    shape = env.shape()
    cond = env.array(BOOL, shape)
    return xp.where(cond, env.array((dt,), shape), env.array((dt,), shape))


@case("where[scalar]")
def _(env: Env) -> Any:
    x = env.array(REAL_FLOAT_DTYPES)
    return xp.where(env.array(BOOL, x.shape), x, 0.5)


# --- set ----------------------------------------------------------------------------
for _name in ("unique_all", "unique_counts", "unique_inverse", "unique_values"):

    def _uniq(env: Env, _f: Callable[..., Any] = xp.__dict__[_name]) -> Any:
        return _f(env.array(REAL_DTYPES))

    case(_name)(_uniq)


@case("isin")
def _(env: Env) -> Any:
    dt = env.dtype(INT_DTYPES)
    return xp.isin(env.array((dt,)), env.array((dt,)))


# --- sorting ----------------------------------------------------------------------
for _name in ("sort", "argsort"):

    def _sort(env: Env, _f: Callable[..., Any] = xp.__dict__[_name]) -> Any:
        x = env.array(REAL_DTYPES, min_dims=1)
        return _f(
            x,
            axis=env.draw(st.integers(-x.ndim, x.ndim - 1)),
            descending=env.draw(st.booleans()),
        )

    case(_name)(_sort)


# --- statistical and utility -----------------------------------------------------------
def _axis(env: Env, x: Any) -> Any:
    return env.draw(st.sampled_from([None, *range(-x.ndim, x.ndim)]))


def _reduction(
    func: Callable[..., Any], dtypes: tuple[Any, ...], *, nonempty: bool = False
) -> Case:
    def run(env: Env) -> Any:
        x = env.array(dtypes, min_side=1 if nonempty else 0)
        return func(x, axis=_axis(env, x), keepdims=env.draw(st.booleans()))

    return run


for _name, _dts, _nonempty in (
    ("sum", NUMERIC_DTYPES, False), ("prod", NUMERIC_DTYPES, False),
    ("max", REAL_DTYPES, True), ("min", REAL_DTYPES, True),
    ("mean", FLOAT_DTYPES, False), ("all", ALL_DTYPES, False),
    ("any", ALL_DTYPES, False),
):  # fmt: skip
    case(_name)(_reduction(getattr(xp, _name), _dts, nonempty=_nonempty))
for _name in ("std", "var"):

    def _spread(env: Env, _f: Callable[..., Any] = xp.__dict__[_name]) -> Any:
        x = env.array(REAL_FLOAT_DTYPES)
        return _f(x, axis=_axis(env, x), correction=env.draw(st.sampled_from([0, 1])))

    case(_name)(_spread)
for _name in ("cumulative_sum", "cumulative_prod"):

    def _cum(env: Env, _f: Callable[..., Any] = xp.__dict__[_name]) -> Any:
        x = env.array(NUMERIC_DTYPES, min_dims=1, max_dims=1)
        return _f(x, axis=0, include_initial=env.draw(st.booleans()))

    case(_name)(_cum)


@case("diff")
def _(env: Env) -> Any:
    x = env.array(NUMERIC_DTYPES, min_dims=1)
    return xp.diff(x, axis=-1, n=env.draw(st.integers(1, 2)))


@case("diff[prepend]")
def _(env: Env) -> Any:
    dt = env.dtype(NUMERIC_DTYPES)
    x = env.array((dt,), min_dims=1, max_dims=1)
    return xp.diff(x, prepend=env.array((dt,), (2,)), append=env.array((dt,), (1,)))


# --- linalg ----------------------------------------------------------------------
def _square(env: Env, dtypes: tuple[Any, ...] = FLOAT_DTYPES, **kw: Any) -> Any:
    n = env.draw(st.integers(1, 4))
    batch = env.draw(st.sampled_from([(), (2,)]))
    return env.array(dtypes, (*batch, n, n), finite=True, **kw)


def _spd(env: Env, *, hermitian_only: bool = False) -> Any:
    """A symmetric (Hermitian) positive definite stack of matrices."""
    dt = env.dtype(FLOAT_DTYPES)
    n = env.draw(st.integers(1, 4))
    a = env.values(dt, (n, n), finite=True).astype(np.complex128)
    m = a @ a.conj().T + n * 1e3 * np.eye(n)
    if hermitian_only:
        m = a + a.conj().T
    if np_dtype(dt).kind == "f":
        m = m.real
    return env.wrap(m.astype(np_dtype(dt)))


def _general(env: Env) -> Any:
    """A well-conditioned square float matrix (diagonally dominant)."""
    dt = env.dtype(FLOAT_DTYPES)
    n = env.draw(st.integers(1, 4))
    a = env.values(dt, (n, n), finite=True)
    return env.wrap((a + np.eye(n, dtype=a.dtype) * 1e4).astype(a.dtype))


LINALG: dict[str, Case] = {
    "cholesky": lambda env: xp.linalg.cholesky(_spd(env)),
    "cross": lambda env: xp.linalg.cross(
        env.array(REAL_DTYPES, (2, 3), finite=True),
        env.array(REAL_DTYPES, (2, 3), finite=True),
    ),
    "det": lambda env: xp.linalg.det(_general(env)),
    "diagonal": lambda env: xp.linalg.diagonal(
        env.array(min_dims=2), offset=env.draw(st.integers(-2, 2))
    ),
    "eig": lambda env: tuple(xp.linalg.eig(_general(env))),
    "eigh": lambda env: tuple(xp.linalg.eigh(_spd(env))),
    "eigvals": lambda env: xp.linalg.eigvals(_general(env)),
    "eigvalsh": lambda env: xp.linalg.eigvalsh(_spd(env, hermitian_only=True)),
    "inv": lambda env: xp.linalg.inv(_general(env)),
    "matmul": lambda env: xp.linalg.matmul(_square(env), _square(env)),
    "matrix_norm": lambda env: xp.linalg.matrix_norm(
        _general(env), ord=env.draw(st.sampled_from(["fro", "nuc", 1, 2, -1, math.inf]))
    ),
    "matrix_power": lambda env: xp.linalg.matrix_power(
        _general(env), env.draw(st.integers(-1, 3))
    ),
    "matrix_rank": lambda env: xp.linalg.matrix_rank(_square(env)),
    "matrix_transpose": lambda env: xp.linalg.matrix_transpose(env.array(min_dims=2)),
    "outer": lambda env: xp.linalg.outer(
        env.array(NUMERIC_DTYPES, min_dims=1, max_dims=1),
        env.array(NUMERIC_DTYPES, min_dims=1, max_dims=1),
    ),
    "pinv": lambda env: xp.linalg.pinv(_general(env)),
    "qr": lambda env: tuple(xp.linalg.qr(_general(env))),
    "slogdet": lambda env: tuple(xp.linalg.slogdet(_general(env))),
    "solve": lambda env: xp.linalg.solve(
        _general(env), env.array(FLOAT_DTYPES, (1,), finite=True)
    ),
    "svd": lambda env: tuple(xp.linalg.svd(_general(env))),
    "svdvals": lambda env: xp.linalg.svdvals(_general(env)),
    "tensordot": lambda env: xp.linalg.tensordot(
        env.array(NUMERIC_DTYPES, (2, 3)), env.array(NUMERIC_DTYPES, (3, 2))
    ),
    "trace": lambda env: xp.linalg.trace(
        env.array(NUMERIC_DTYPES, min_dims=2), offset=env.draw(st.integers(-1, 1))
    ),
    "vecdot": lambda env: xp.linalg.vecdot(*_pair(env, NUMERIC_DTYPES)),
    "vector_norm": lambda env: xp.linalg.vector_norm(
        env.array(FLOAT_DTYPES, finite=True),
        ord=env.draw(st.sampled_from([2, 1, 0, 3, -1, math.inf, -math.inf])),
    ),
}
for _name, _case in LINALG.items():
    case(f"linalg.{_name}")(_case)


# --- fft ----------------------------------------------------------------------------
def _fft_input(env: Env, dtypes: tuple[Any, ...], min_dims: int = 1) -> Any:
    return env.array(dtypes, finite=True, min_dims=min_dims, min_side=1)


FFT: dict[str, Case] = {
    "fft": lambda env: xp.fft.fft(_fft_input(env, COMPLEX_DTYPES)),
    "ifft": lambda env: xp.fft.ifft(_fft_input(env, COMPLEX_DTYPES)),
    "fftn": lambda env: xp.fft.fftn(_fft_input(env, COMPLEX_DTYPES)),
    "ifftn": lambda env: xp.fft.ifftn(_fft_input(env, COMPLEX_DTYPES)),
    "rfft": lambda env: xp.fft.rfft(_fft_input(env, REAL_FLOAT_DTYPES)),
    "irfft": lambda env: xp.fft.irfft(_fft_input(env, COMPLEX_DTYPES), n=4),
    "rfftn": lambda env: xp.fft.rfftn(_fft_input(env, REAL_FLOAT_DTYPES)),
    "irfftn": lambda env: xp.fft.irfftn(
        _fft_input(env, COMPLEX_DTYPES), s=(4,), axes=(-1,)
    ),
    "hfft": lambda env: xp.fft.hfft(_fft_input(env, COMPLEX_DTYPES), n=4),
    "ihfft": lambda env: xp.fft.ihfft(_fft_input(env, REAL_FLOAT_DTYPES)),
    "fftshift": lambda env: xp.fft.fftshift(_fft_input(env, FLOAT_DTYPES)),
    "ifftshift": lambda env: xp.fft.ifftshift(_fft_input(env, FLOAT_DTYPES)),
}
for _name, _case in FFT.items():
    case(f"fft.{_name}")(_case)


# --- running and comparing --------------------------------------------------------------
def _arrays(result: Any) -> list[Any]:
    """The Arrays in a result (nested tuples, Meta)."""
    if isinstance(result, Meta):
        return [result.x]
    if type(result) is xp.Array:
        return [result]
    if isinstance(result, (tuple, list)):
        return [a for r in result for a in _arrays(r)]
    return []


def assert_same(got: Any, want: Any, where: str) -> None:
    """``got`` (a run on prepared inputs) equals ``want`` (the native run)."""
    if isinstance(want, Meta):
        assert isinstance(got, Meta), where
        got, want = got.x, want.x
        assert (got.dtype, got.shape, got.device) == (
            want.dtype,
            want.shape,
            want.device,
        ), where
        return
    if type(want) is xp.Array:
        assert type(got) is xp.Array, f"{where}: {type(got)}"
        assert got.dtype == want.dtype, (
            f"{where}: dtype {got.dtype}, expected {want.dtype}"
        )
        assert got.shape == want.shape, (
            f"{where}: shape {got.shape}, expected {want.shape}"
        )
        assert got.device == want.device, where
        np.testing.assert_array_equal(
            np.asarray(got.to_device("cpu")),
            np.asarray(want.to_device("cpu")),
            err_msg=where,
        )
        return
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want), where
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same(g, w, f"{where}[{i}]")
        return
    if isinstance(want, float) and math.isnan(want):
        assert isinstance(got, float), where
        assert math.isnan(got), where
        return
    if isinstance(want, complex) and (math.isnan(want.real) or math.isnan(want.imag)):
        assert repr(got) == repr(want), where
        return
    assert got == want, f"{where}: {got!r} != {want!r}"


def _call(func: Case, env: Env) -> tuple[Any, BaseException | None]:
    try:
        res = func(env)
        # a lazy device (dask) raises for bad values when the result runs:
        # run it here, so that the error counts as the call's
        lazy = [r for r in _arrays(res) if r.device.kind == "dask"]
        if lazy:
            ocean_ext.compute(*lazy)
        return res, None
    except (TypeError, ValueError, IndexError, OverflowError, ZeroDivisionError) as exc:
        return None, exc
    except np.linalg.LinAlgError as exc:
        return None, exc


def run_differential(name: str, data: Any, mode: str) -> tuple[Env, Any]:
    """Run case ``name`` natively and in ``mode`` on the same draws; compare.

    Returns the mode's environment and result for further checks.
    """
    func = CASES[name]
    native_env = Env(data, "native", None)
    want, want_exc = _call(func, native_env)
    env = Env(data, mode, native_env.log)
    got, got_exc = _call(func, env)
    if want_exc is not None or got_exc is not None:
        assert type(got_exc) is type(want_exc), (
            f"{name}: native inputs raised {want_exc!r}, {mode} inputs {got_exc!r}"
        )
        return env, None
    assert_same(got, want, name)
    # No function writes into its inputs.
    for x, values in env.inputs:
        np.testing.assert_array_equal(
            np.asarray(x), values, err_msg=f"{name}: input changed"
        )
    return env, got


def _root(data: Any) -> Any:
    while isinstance(data.base, np.ndarray):
        data = data.base
    return data


def shares_any(r: Any, pool: list[Any]) -> bool:
    """Whether Array ``r`` is a view of any array of ``pool``.

    Memory decides, except for empty arrays (which share no element with
    anything): for those, a common root buffer does.
    """
    for x in pool:
        if ocean_ext.shares_memory(r, x):
            return True
        if (r.size == 0 or x.size == 0) and _root(r._data) is _root(x._data):
            return True
    return False


def result_arrays(result: Any) -> list[Any]:
    """The Arrays in a result (nested tuples and lists)."""
    return _arrays(result)
