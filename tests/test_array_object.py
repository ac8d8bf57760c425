"""The Array object: attributes, operators, conversions, interchange."""

from __future__ import annotations

import copy
import math
import operator
import pickle
import weakref

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.extra.array_api import make_strategies_namespace

import ocean_array_api as xp

from .helpers import (
    ALL_DTYPES,
    CPU0,
    CPU1,
    FLOAT_DTYPES,
    INT_DTYPES,
    LAZY_DEFAULT,
    NUMERIC_DTYPES,
    assert_matches,
    host,
    np_dtype,
    rng_array,
)

xps = make_strategies_namespace(xp)

# --- construction and type ----------------------------------------------------


def test_array_cannot_be_constructed_directly():
    with pytest.raises(TypeError, match="asarray"):
        xp.Array(np.ones(3))
    with pytest.raises(TypeError):
        xp.Array()


def test_array_is_not_an_ndarray():
    x = xp.asarray([1.0, 2.0])
    assert not isinstance(x, np.ndarray)
    assert not issubclass(xp.Array, np.ndarray)
    assert np.ndarray not in type(x).__mro__


def test_array_is_not_hashable():
    with pytest.raises(TypeError):
        hash(xp.asarray([1, 2]))


def test_array_supports_weakrefs():
    x = xp.asarray([1, 2])
    r = weakref.ref(x)
    assert r() is x


def test_array_has_no_instance_dict():
    x = xp.asarray([1, 2])
    with pytest.raises(AttributeError):
        x.foo = 1


# --- attributes ----------------------------------------------------------------


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 4), (1, 2, 3, 4)])
def test_attributes(shape, device):
    a = np.zeros(shape, dtype=np.float32)
    x = xp.asarray(a, device=device)
    assert x.dtype == xp.float32
    assert x.device == device
    assert x.ndim == len(shape)
    assert x.shape == shape
    assert type(x.shape) is tuple
    assert all(type(s) is int for s in x.shape)
    assert x.size == a.size
    assert type(x.size) is int


def test_T_transposes_2d():
    a = rng_array((2, 3), xp.int32)
    x = xp.asarray(a)
    assert_matches(x.T, a.T)


def test_T_rejects_more_than_2d():
    x = xp.zeros((2, 3, 4))
    with pytest.raises(ValueError, match="mT"):
        _ = x.T


@pytest.mark.parametrize("shape", [(), (3,), (0,)])
def test_T_rejects_fewer_than_2d(shape):
    # The standard: "If the array instance is not two-dimensional, an error
    # should be raised" (NumPy returns 0-d and 1-d arrays unchanged).
    x = xp.zeros(shape)
    with pytest.raises(ValueError, match=r"Array.T: .*two-dimensional.*got"):
        _ = x.T


def test_mT():
    a = rng_array((2, 3, 4), xp.float64)
    assert_matches(xp.asarray(a).mT, np.swapaxes(a, -1, -2))
    with pytest.raises(ValueError):
        _ = xp.asarray([1.0, 2.0]).mT


def test_array_namespace_is_the_module(device):
    x = xp.ones(2, device=device)
    assert x.__array_namespace__() is xp
    assert x.__array_namespace__(api_version=None) is xp
    assert x.__array_namespace__(api_version=xp.__array_api_version__) is xp


# --- operators: values and dtypes -----------------------------------------------

BINARY_OPS = [
    ("__add__", operator.add, np.add, NUMERIC_DTYPES),
    ("__sub__", operator.sub, np.subtract, NUMERIC_DTYPES),
    ("__mul__", operator.mul, np.multiply, NUMERIC_DTYPES),
    ("__truediv__", operator.truediv, np.true_divide, FLOAT_DTYPES),
    (
        "__floordiv__",
        operator.floordiv,
        np.floor_divide,
        (xp.int32, xp.uint8, xp.float64),
    ),
    ("__mod__", operator.mod, np.remainder, (xp.int16, xp.uint16, xp.float32)),
    ("__pow__", operator.pow, np.power, (xp.float32, xp.float64, xp.complex128)),
    ("__and__", operator.and_, np.bitwise_and, (xp.bool, *INT_DTYPES)),
    ("__or__", operator.or_, np.bitwise_or, (xp.bool, *INT_DTYPES)),
    ("__xor__", operator.xor, np.bitwise_xor, (xp.bool, *INT_DTYPES)),
    ("__lshift__", operator.lshift, np.left_shift, INT_DTYPES),
    ("__rshift__", operator.rshift, np.right_shift, INT_DTYPES),
]
COMPARISONS = [
    (operator.eq, np.equal, ALL_DTYPES),
    (operator.ne, np.not_equal, ALL_DTYPES),
    (operator.lt, np.less, (*INT_DTYPES, xp.float32, xp.float64)),
    (operator.le, np.less_equal, (*INT_DTYPES, xp.float32, xp.float64)),
    (operator.gt, np.greater, (*INT_DTYPES, xp.float32, xp.float64)),
    (operator.ge, np.greater_equal, (*INT_DTYPES, xp.float32, xp.float64)),
]


def _operands(dtype, name):
    a = rng_array((3, 4), dtype, seed=1)
    b = rng_array((4,), dtype, seed=2)
    nd = np_dtype(dtype)
    if name in ("__floordiv__", "__mod__") and nd.kind in "iu":
        b[b == 0] = 1
    if name in ("__lshift__", "__rshift__"):
        a = np.abs(a)
        b = (np.abs(b) % 4).astype(nd)
    return a, b


@pytest.mark.parametrize(
    ("name", "op", "npop", "dtypes"), BINARY_OPS, ids=[o[0] for o in BINARY_OPS]
)
def test_binary_operator_matches_numpy(name, op, npop, dtypes, device):
    for dt in dtypes:
        a, b = _operands(dt, name)
        x = xp.asarray(a, device=device)
        y = xp.asarray(b, device=device)
        res = op(x, y)
        assert res.device == device
        assert_matches(res, npop(a, b), dtype=dt)


@pytest.mark.parametrize(
    ("op", "npop", "dtypes"), COMPARISONS, ids=[o[0].__name__ for o in COMPARISONS]
)
def test_comparison_operator_matches_numpy(op, npop, dtypes):
    for dt in dtypes:
        a = rng_array((3, 4), dt, seed=3)
        b = a.copy()
        b[0] = rng_array((4,), dt, seed=4)
        assert_matches(op(xp.asarray(a), xp.asarray(b)), npop(a, b), dtype=xp.bool)


def test_operators_agree_with_functions():
    a = rng_array((5,), xp.float64)
    x, y = xp.asarray(a), xp.asarray(a[::-1].copy())
    for op, func in [
        (operator.add, xp.add), (operator.sub, xp.subtract), (operator.mul, xp.multiply),
        (operator.truediv, xp.divide), (operator.pow, xp.pow), (operator.lt, xp.less),
        (operator.eq, xp.equal), (operator.floordiv, xp.floor_divide),
        (operator.mod, xp.remainder),
    ]:  # fmt: skip
        np.testing.assert_array_equal(host(op(x, y)), host(func(x, y)))


def test_integer_true_division_gives_default_float():
    # The standard leaves int / int unspecified; we document float64.
    x = xp.asarray([1, 2, 3], dtype=xp.int32)
    assert_matches(x / x, np.ones(3))
    assert_matches(x / 2, np.array([0.5, 1.0, 1.5]))


@pytest.mark.parametrize("dt", [xp.int8, xp.uint8, xp.int64, xp.float32, xp.complex64])
def test_python_scalar_operands_keep_array_dtype(dt):
    a = np.ones(3, dtype=np_dtype(dt))
    x = xp.asarray(a)
    for res in (x + 2, 2 + x, x * 3, 3 * x, x - 1, 1 - x):
        assert res.dtype == dt
    assert_matches(1 - x, 1 - a)
    assert_matches(x - 1, a - 1)
    if xp.isdtype(dt, ("real floating", "complex floating")):
        assert (x + 1.5).dtype == dt
        assert_matches(2.0 / x, 2.0 / a)


def test_reflected_operators():
    a = np.array([1.0, 2.0, 4.0])
    x = xp.asarray(a)
    assert_matches(10 - x, 10 - a)
    assert_matches(10 / x, 10 / a)
    assert_matches(2**x, 2**a)
    assert_matches(7 // x, 7 // a)
    assert_matches(7 % x, 7 % a)
    i = xp.asarray([1, 2, 3])
    assert_matches(1 << i, 1 << np.array([1, 2, 3]))
    assert_matches(16 >> i, 16 >> np.array([1, 2, 3]))
    assert_matches(6 & i, 6 & np.array([1, 2, 3]))
    assert_matches(6 | i, 6 | np.array([1, 2, 3]))
    assert_matches(6 ^ i, 6 ^ np.array([1, 2, 3]))
    b = xp.asarray([True, False])
    assert_matches(True & b, np.array([True, False]))


def test_complex_scalar_with_real_float_array_upcasts():
    # 2024.12: a complex Python scalar with a real floating array gives complex.
    x = xp.asarray([1.0, 2.0], dtype=xp.float32)
    assert (x + 1j).dtype == xp.complex64
    assert (xp.asarray([1.0]) * 1j).dtype == xp.complex128
    assert_matches(x + 1j, np.array([1 + 1j, 2 + 1j], dtype=np.complex64))


def test_numpy_scalars_that_subclass_python_scalars_are_python_scalars():
    # numpy.float64 and numpy.complex128 are subclasses of float and complex.
    x = xp.asarray([1.0, 2.0], dtype=xp.float32)
    assert (x + np.float64(1.0)).dtype == xp.float32
    assert (np.float64(1.0) + x).dtype == xp.float32
    assert (x * np.complex128(1j)).dtype == xp.complex64


@pytest.mark.parametrize(
    "scalar",
    [np.int64(2), np.int32(5), np.uint8(1), np.float32(1.5), np.float16(1.0),
     np.complex64(1j), np.bool_(True)],
    ids=repr,
)  # fmt: skip
def test_other_numpy_scalars_are_rejected_as_operands(scalar):
    # As in array-api-strict: the standard's operands are arrays and Python
    # scalars; NumPy's value-based rules for its own scalars must not leak in
    # (int8 + numpy.int64(300) was NumPy's OverflowError).
    for x in (xp.asarray([1, 2], dtype=xp.int8), xp.asarray([1.0], dtype=xp.float32)):
        with pytest.raises(TypeError, match="NumPy scalar"):
            x + scalar
        with pytest.raises(TypeError, match="NumPy scalar"):
            scalar * x
        with pytest.raises(TypeError, match=r"add\(\): `x2`"):
            xp.add(x, scalar)
        with pytest.raises(TypeError, match=r"where\(\): `x2`"):
            xp.where(x > 0, x, scalar)


@pytest.mark.parametrize(
    ("x", "scalar"),
    [
        (xp.asarray([1, 2]), 1.5),
        (xp.asarray([1, 2]), 1j),
        (xp.asarray([1.0, 2.0]), True),
        (xp.asarray([True]), 1),
        (xp.asarray([1, 2]), True),
        (xp.asarray([1, 2]), "1"),
        (xp.asarray([1, 2]), None),
        (xp.asarray([1, 2]), [1, 2]),
        (xp.asarray([1, 2]), (1, 2)),
    ],
)
def test_bad_scalar_operands_raise_type_error(x, scalar):
    with pytest.raises(TypeError):
        x + scalar
    with pytest.raises(TypeError):
        scalar + x


@pytest.mark.parametrize(
    ("d1", "d2"),
    [
        (xp.int32, xp.float32),
        (xp.uint64, xp.int64),
        (xp.uint8, xp.float64),
        (xp.int8, xp.complex64),
        (xp.bool, xp.int8),
        (xp.bool, xp.float32),
    ],
)
def test_mixed_kind_array_operands_raise_type_error(d1, d2):
    x = xp.ones(3, dtype=d1)
    y = xp.ones(3, dtype=d2)
    for op in (operator.add, operator.mul, operator.sub):
        with pytest.raises(TypeError):
            op(x, y)
        with pytest.raises(TypeError):
            op(y, x)
    with pytest.raises(TypeError):
        x == y  # noqa: B015


def test_dtype_category_errors():
    f = xp.asarray([1.0, 2.0])
    c = xp.asarray([1j, 2j])
    b = xp.asarray([True, False])
    with pytest.raises(TypeError):
        f & f
    with pytest.raises(TypeError):
        f << f
    with pytest.raises(TypeError):
        _ = ~f
    with pytest.raises(TypeError):
        b + b
    with pytest.raises(TypeError):
        _ = -b
    with pytest.raises(TypeError):
        _ = c < c
    with pytest.raises(TypeError):
        c // c
    with pytest.raises(TypeError):
        c % c


def test_unary_operators(device):
    a = np.array([-2, 0, 3], dtype=np.int16)
    x = xp.asarray(a, device=device)
    assert_matches(-x, -a, device=device)
    assert_matches(+x, a, device=device)
    assert_matches(abs(x), np.abs(a), device=device)
    assert_matches(~x, ~a, device=device)
    b = np.array([True, False])
    assert_matches(~xp.asarray(b), ~b)
    c = np.array([3 + 4j, -1j], dtype=np.complex64)
    assert_matches(abs(xp.asarray(c)), np.abs(c), dtype=xp.float32)


def test_binary_operator_shape_mismatch_is_value_error():
    with pytest.raises(ValueError):
        xp.ones((2, 3)) + xp.ones((3, 2))


def test_operators_broadcast():
    a = rng_array((3, 1), xp.float64)
    b = rng_array((1, 4), xp.float64)
    assert_matches(xp.asarray(a) * xp.asarray(b), a * b)


def test_zero_dim_operands():
    x = xp.asarray(2.0)
    y = x * x
    assert y.shape == ()
    assert float(y) == 4.0


# --- operators with foreign objects --------------------------------------------


def test_unknown_operands_return_not_implemented():
    x = xp.asarray([1, 2])
    assert x.__add__("a") is NotImplemented
    assert x.__radd__(object()) is NotImplemented
    assert x.__iadd__([1, 2]) is NotImplemented


def test_numpy_array_operands_raise_a_clear_error():
    # NumPy would answer NotImplemented with its own puzzling messages.
    x = xp.asarray([1.0, 2.0])
    for op in (x.__add__, x.__radd__, x.__iadd__, x.__lt__):
        with pytest.raises(TypeError, match="asarray"):
            op(np.ones(2))
    with pytest.raises(TypeError, match="asarray"):
        np.ones(2) + x


def test_ndarray_plus_array_raises_type_error():
    a = np.ones(3)
    x = xp.ones(3)
    with pytest.raises(TypeError):
        a + x
    with pytest.raises(TypeError):
        x + a
    with pytest.raises(TypeError):
        a * x
    with pytest.raises(TypeError):
        np.add(a, x)
    with pytest.raises(TypeError):
        np.sin(x)


def test_operator_with_a_foreign_reflected_type():
    class Other:
        def __radd__(self, other):
            return "other"

        def __rsub__(self, other):
            return "sub"

    x = xp.ones(2)
    assert x + Other() == "other"
    assert x - Other() == "sub"


# --- in-place operators --------------------------------------------------------------


def test_inplace_operators_modify_in_place(device):
    a = np.array([1.0, 2.0, 3.0])
    x = xp.asarray(a.copy(), device=device)
    view = x[1:]
    before = x
    x += 1
    assert x is before
    x *= xp.asarray([2.0, 2.0, 2.0], device=device)
    x -= 1.0
    x /= 2
    x **= 2
    expected = (((a + 1) * 2 - 1) / 2) ** 2
    assert_matches(x, expected, device=device)
    if device.kind == "dask":
        # A view of a lazy array is another graph: writes to x do not reach
        # it (the standard leaves writes through views unspecified).
        assert_matches(view, a[1:], device=device)
        return
    # the view sees the writes: the data was updated in place
    assert_matches(view, expected[1:])


def test_inplace_integer_and_bitwise():
    a = np.array([5, 6, 7], dtype=np.int32)
    x = xp.asarray(a.copy())
    x //= 2
    x %= 2
    x <<= 3
    x >>= 1
    x |= 1
    x &= 5
    x ^= 2
    e = a // 2
    e %= 2
    e <<= 3
    e >>= 1
    e |= 1
    e &= 5
    e ^= 2
    assert_matches(x, e)


def test_inplace_broadcasts_other_operand():
    x = xp.zeros((2, 3))
    x += xp.asarray([1.0, 2.0, 3.0])
    assert_matches(x, np.array([[1.0, 2, 3], [1, 2, 3]]))


def test_inplace_cannot_change_shape():
    x = xp.zeros((3,))
    with pytest.raises(ValueError):
        x += xp.zeros((2, 3))
    assert x.shape == (3,)


_INPLACE = {
    "+=": xp.add, "-=": xp.subtract, "*=": xp.multiply, "/=": xp.divide,
    "//=": xp.floor_divide, "%=": xp.remainder, "**=": xp.pow,
    "&=": xp.bitwise_and, "|=": xp.bitwise_or, "^=": xp.bitwise_xor,
    "<<=": xp.bitwise_left_shift, ">>=": xp.bitwise_right_shift,
}  # fmt: skip


@pytest.mark.parametrize("op", sorted(_INPLACE))
@given(
    dt=st.sampled_from(["int32", "uint8", "float32", "float64", "complex64"]),
    shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
    half=st.booleans(),
)
@example(  # the shape that dropped its leading axis
    dt="float64",
    shapes=hnp.BroadcastableShapes(((2,), (1, 2)), (1, 2)),
    half=True,
)
def test_inplace_operator_is_its_function_or_a_shape_error(op, dt, shapes, half):
    """``x op= y`` writes ``func(x, y)`` into ``x`` when that has ``x``'s shape,
    and raises ValueError leaving ``x`` as it was otherwise (``x (1,) //= y
    (1, 1)`` once dropped the leading axis, as did ``**=`` with an exponent
    of 0.5: the kernels that compute apart and then copy into ``x``)."""
    sx, sy = shapes.input_shapes
    dtype = getattr(xp, dt)
    a = np.arange(1, math.prod(sx) + 1).reshape(sx) % 5 + 1
    b = np.arange(math.prod(sy)).reshape(sy) % 3 + 1
    x = xp.asarray(a, dtype=dtype)
    y = (
        xp.asarray(b, dtype=dtype) * 0.5
        if half and dt[0] in "fc"
        else xp.asarray(b, dtype=dtype)
    )
    if op == "**=" and half and dt[0] in "fc":
        y = xp.full(sy, 0.5, dtype=dtype)  # the square-root kernel
    func = _INPLACE[op]
    try:
        expected = func(x, y)
    except TypeError:  # the dtype is not in the function's domain
        return
    before = host(x).copy()
    ns = {"x": x, "y": y}
    if expected.dtype != dtype:  # true division of integers: refused first
        with pytest.raises(TypeError, match="dtype"):
            exec(f"x {op} y", ns)
        np.testing.assert_array_equal(host(x), before)
        return
    if expected.shape != sx:
        with pytest.raises(ValueError, match="shape"):
            exec(f"x {op} y", ns)
        np.testing.assert_array_equal(host(x), before)
        return
    exec(f"x {op} y", ns)
    assert ns["x"] is x
    assert_matches(x, host(expected))


@pytest.mark.parametrize(
    ("dt", "other"),
    [
        (xp.int32, 1.5),
        (xp.int64, 1j),
        (xp.float32, 1j),  # upcasts to complex64: not in place
        (xp.float32, xp.ones(3, dtype=xp.float64)),
        (xp.int8, xp.ones(3, dtype=xp.int16)),
        (xp.uint8, xp.ones(3, dtype=xp.int8)),
        (xp.int32, xp.ones(3, dtype=xp.float32)),
    ],
)
def test_inplace_dtype_change_raises_type_error(dt, other):
    x = xp.ones(3, dtype=dt)
    with pytest.raises(TypeError):
        x += other
    assert x.dtype == dt
    assert_matches(x, np.ones(3, dtype=np_dtype(dt)))


def test_inplace_true_division_of_integers_raises():
    x = xp.asarray([1, 2, 3])
    with pytest.raises(TypeError):
        x /= 2
    with pytest.raises(TypeError):
        x /= xp.asarray([1, 1, 1])
    assert_matches(x, np.array([1, 2, 3]))


def test_inplace_promotion_into_larger_dtype_is_allowed():
    x = xp.ones(3, dtype=xp.float64)
    x += xp.ones(3, dtype=xp.float32)
    assert_matches(x, np.full(3, 2.0))
    y = xp.ones(2, dtype=xp.int64)
    y += xp.ones(2, dtype=xp.uint8)
    assert_matches(y, np.full(2, 2))


def test_inplace_device_mismatch_raises_value_error(other_device):
    x = xp.ones(3)
    with pytest.raises(ValueError, match="device"):
        x += xp.ones(3, device=other_device)


# --- conversion to Python scalars ------------------------------------------------


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_bool_of_zero_dim(dt):
    assert bool(xp.asarray(1, dtype=dt)) is True
    assert bool(xp.zeros((), dtype=dt)) is False


def test_bool_of_complex_and_nan():
    assert bool(xp.asarray(1j)) is True
    assert bool(xp.asarray(float("nan"))) is True


@pytest.mark.parametrize("shape", [(1,), (1, 1), (2,), (0,)])
def test_scalar_conversions_need_zero_dim(shape):
    x = xp.ones(shape)
    for conv in (bool, int, float, complex):
        with pytest.raises(TypeError):
            conv(x)
    with pytest.raises(TypeError):
        operator.index(xp.ones(shape, dtype=xp.int64))


def test_int_conversion():
    assert int(xp.asarray(7)) == 7
    assert type(int(xp.asarray(7, dtype=xp.uint8))) is int
    assert int(xp.asarray(-2.7)) == -2
    assert int(xp.asarray(True)) == 1
    big = 2**63 - 1
    assert int(xp.asarray(big)) == big
    assert int(xp.asarray(2**64 - 1, dtype=xp.uint64)) == 2**64 - 1


def test_int_conversion_special_cases():
    with pytest.raises(OverflowError):
        int(xp.asarray(float("inf")))
    with pytest.raises(OverflowError):
        int(xp.asarray(float("-inf")))
    with pytest.raises(ValueError):
        int(xp.asarray(float("nan")))
    with pytest.raises(TypeError):
        int(xp.asarray(1 + 0j))


def test_float_conversion():
    f = float(xp.asarray(1.5, dtype=xp.float32))
    assert type(f) is float
    assert f == 1.5
    assert float(xp.asarray(3)) == 3.0
    assert float(xp.asarray(True)) == 1.0
    with pytest.raises(TypeError):
        float(xp.asarray(1j))


def test_complex_conversion():
    c = complex(xp.asarray(1 + 2j, dtype=xp.complex64))
    assert type(c) is complex
    assert c == 1 + 2j
    assert complex(xp.asarray(2.0)) == 2 + 0j
    assert complex(xp.asarray(3)) == 3 + 0j


def test_index_conversion():
    assert operator.index(xp.asarray(3)) == 3
    assert [10, 20, 30, 40][xp.asarray(2, dtype=xp.uint8)] == 30
    assert list(range(5))[xp.asarray(1) : xp.asarray(3)] == [1, 2]
    with pytest.raises(TypeError):
        operator.index(xp.asarray(1.0))
    with pytest.raises(TypeError):
        operator.index(xp.asarray(True))
    with pytest.raises(TypeError):
        operator.index(xp.asarray(1j))


def test_scalar_conversion_on_other_devices(device):
    x = xp.asarray(2.5, device=device)
    assert float(x) == 2.5
    assert int(x) == 2
    assert bool(x)
    assert complex(x) == 2.5


# --- repr, pickle, copy, iteration -----------------------------------------------


@pytest.mark.skipif(
    LAZY_DEFAULT, reason="the repr of a lazy array shows no values (no hidden compute)"
)
def test_repr():
    r = repr(xp.asarray([1.0, 2.0]))
    assert r.startswith("Array(")
    assert "dtype=float64" in r
    assert "device" not in r
    assert "1." in r
    assert "2." in r
    assert "int8" in repr(xp.asarray([1], dtype=xp.int8))
    assert "dtype=bool" in repr(xp.asarray(True))


def test_repr_names_non_default_device(other_device):
    r = repr(xp.asarray([1, 2], device=other_device))
    assert str(other_device) in r
    assert "dtype=int64" in r


@pytest.mark.skipif(
    LAZY_DEFAULT, reason="the repr of a lazy array shows no values (no hidden compute)"
)
def test_repr_of_empty_and_zero_dim():
    assert "Array(" in repr(xp.zeros((0, 3)))
    assert "5" in repr(xp.asarray(5))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_pickle_round_trip(dt, device):
    a = rng_array((2, 3), dt)
    x = xp.asarray(a, device=device)
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        y = pickle.loads(pickle.dumps(x, protocol=protocol))
        assert type(y) is xp.Array
        assert_matches(y, a, device=device)


def test_copy_and_deepcopy_are_independent(device):
    a = np.arange(6.0).reshape(2, 3)
    x = xp.asarray(a, device=device)
    for y in (copy.copy(x), copy.deepcopy(x), copy.deepcopy([x])[0]):
        assert y is not x
        assert_matches(y, a, device=device)
        y[0, 0] = 100.0
        assert float(x[0, 0]) == 0.0


def test_iteration():
    a = np.arange(6).reshape(3, 2)
    x = xp.asarray(a)
    rows = list(x)
    assert len(rows) == 3
    for r, e in zip(rows, a, strict=True):
        assert_matches(r, e)
    items = list(xp.asarray([1.0, 2.0]))
    assert all(type(i) is xp.Array and i.shape == () for i in items)
    assert [float(i) for i in items] == [1.0, 2.0]
    assert list(xp.zeros((0, 2))) == []


def test_iteration_of_zero_dim_raises():
    with pytest.raises(TypeError):
        iter(xp.asarray(1.0)).__next__()


@given(
    x=xps.arrays(
        dtype=xps.scalar_dtypes(), shape=xps.array_shapes(min_dims=0, max_dims=3)
    )
)
def test_iter_raises_at_once_for_zero_dim_as_numpy(x):
    # iter(x) itself raises for a 0-d array, as for NumPy's, so that
    # numpy.iterable(x) and the "try iter(x)" probes of other libraries
    # (matplotlib's unit handling: scipy.cluster.hierarchy.dendrogram) see a
    # scalar; a generator function would raise only at the first next().
    a = np.asarray(x)
    assert np.iterable(x) == np.iterable(a)
    if x.ndim == 0:
        with pytest.raises(TypeError, match="0-dimensional"):
            iter(x)
    else:
        rows = list(iter(x))
        assert len(rows) == a.shape[0]
        for r, e in zip(rows, a, strict=True):
            assert_matches(r, e)


# --- NumPy interoperability ------------------------------------------------------


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_numpy_asarray_of_cpu_arrays(dt):
    a = rng_array((3, 2), dt)
    for dev in (CPU0, CPU1):
        x = xp.asarray(a, device=dev)
        b = np.asarray(x)
        assert type(b) is np.ndarray
        assert b.dtype == np_dtype(dt)
        np.testing.assert_array_equal(b, a)


def test_numpy_asarray_with_dtype_and_copy():
    x = xp.asarray([1, 2, 3], dtype=xp.int32)
    b = np.asarray(x, dtype=np.float64)
    assert b.dtype == np.float64
    np.testing.assert_array_equal(b, [1.0, 2.0, 3.0])
    c = np.array(x, copy=True)
    c[0] = 100
    assert int(x[0]) == 1
    with pytest.raises(ValueError):
        np.array(x, dtype=np.float64, copy=False)


@pytest.mark.cuda
def test_numpy_asarray_of_cuda_array_raises():
    cuda = next(d for d in xp.__array_namespace_info__().devices() if d.kind == "cuda")
    x = xp.ones(3, device=cuda)
    with pytest.raises(TypeError, match="to_device"):
        np.asarray(x)


# --- DLPack ------------------------------------------------------------------------


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_dlpack_round_trip_with_numpy(dt, device):
    if device.kind != "cpu":
        pytest.skip("NumPy imports DLPack from CPU devices only")
    a = rng_array((2, 3), dt)
    x = xp.asarray(a, device=device)
    b = np.from_dlpack(x)
    assert b.dtype == np_dtype(dt)
    np.testing.assert_array_equal(b, a)
    y = xp.from_dlpack(b)
    assert_matches(y, a, device=CPU0)
    z = xp.from_dlpack(b, device=device)
    assert_matches(z, a, device=device)


def test_dlpack_device():
    for dev in (CPU0, CPU1):
        x = xp.ones(2, device=dev)
        t, i = x.__dlpack_device__()
        assert int(t) == 1  # kDLCPU
        assert int(i) == 0


def test_from_dlpack_does_not_copy_by_default():
    a = np.arange(4.0)
    x = xp.from_dlpack(a, copy=False)
    a[0] = 42.0
    assert float(x[0]) == 42.0
    y = xp.from_dlpack(a)
    a[1] = 43.0
    assert float(y[1]) == 43.0


def test_from_dlpack_copy_true_copies():
    a = np.arange(4.0)
    x = xp.from_dlpack(a, copy=True)
    a[0] = 42.0
    assert float(x[0]) == 0.0


def test_from_dlpack_of_our_arrays():
    x = xp.asarray([1, 2, 3])
    assert_matches(xp.from_dlpack(x), np.array([1, 2, 3]))
    y = xp.from_dlpack(x, copy=True)
    y[0] = 10
    assert int(x[0]) == 1


def test_dlpack_export_options():
    x = xp.asarray([1.0, 2.0])
    cap = x.__dlpack__(max_version=(1, 0))
    assert cap is not None
    assert x.__dlpack__(dl_device=(1, 0)) is not None
    b = np.from_dlpack(x, copy=True)
    b[0] = 9.0
    assert float(x[0]) == 1.0


def test_dlpack_export_to_unknown_device_is_buffer_error():
    with pytest.raises(BufferError):
        xp.asarray([1.0]).__dlpack__(dl_device=(99, 0))


def test_from_dlpack_rejects_non_dlpack_objects_with_type_error():
    for obj in (object(), [1, 2], 3.0, "abc"):
        with pytest.raises(TypeError):
            xp.from_dlpack(obj)


def test_from_dlpack_bad_copy_argument_is_type_error():
    with pytest.raises(TypeError):
        xp.from_dlpack(np.ones(2), copy="yes")


def test_from_dlpack_unsupported_dtype_is_buffer_error():
    with pytest.raises(BufferError):
        xp.from_dlpack(np.ones(3, dtype=np.float16))


class _FakeProducer:
    """A DLPack producer whose export fails or names a strange device."""

    def __init__(self, device=(1, 0), exc=None):
        self._device = device
        self._exc = exc

    def __dlpack_device__(self):
        return self._device

    def __dlpack__(self, **kwargs):
        if self._exc is not None:
            raise self._exc
        return np.ones(2).__dlpack__(**kwargs)


def test_from_dlpack_producer_failures_are_never_runtime_error():
    with pytest.raises(BufferError):
        xp.from_dlpack(_FakeProducer(exc=RuntimeError("producer broke")))
    with pytest.raises(BufferError):
        xp.from_dlpack(_FakeProducer(device=(14, 0)))  # an unknown device type
    with pytest.raises(BufferError):
        xp.from_dlpack(_FakeProducer(exc=BufferError("cannot export")))


def test_from_dlpack_working_fake_producer():
    assert_matches(xp.from_dlpack(_FakeProducer()), np.ones(2))


def test_to_device_round_trip(device):
    a = rng_array((3,), xp.complex64)
    x = xp.asarray(a)
    y = x.to_device(device)
    assert_matches(y, a, device=device)
    z = y.to_device(CPU0)
    assert_matches(z, a, device=CPU0)
    assert x.to_device(x.device).device == x.device


def test_to_device_copies_between_logical_cpus():
    x = xp.asarray([1.0, 2.0])
    y = x.to_device(CPU1)
    y[0] = 5.0
    assert float(x[0]) == 1.0


def test_to_device_by_string():
    x = xp.asarray([1.0]).to_device("cpu:1")
    assert x.device == CPU1
    with pytest.raises(ValueError):
        xp.asarray([1.0]).to_device("nonsense_kind:0")
    with pytest.raises(TypeError):
        xp.asarray([1.0]).to_device(3)


def test_from_dlpack_copy_false_across_devices_is_value_error():
    x = xp.asarray([1.0, 2.0])
    with pytest.raises(ValueError):
        xp.from_dlpack(x, device=CPU1, copy=False)
    y = xp.from_dlpack(x, device=CPU1)
    assert_matches(y, np.array([1.0, 2.0]), device=CPU1)


def test_format_of_zero_dimensional_arrays():
    # format(x0d, ".3f") is common in downstream messages (SciPy).
    assert format(xp.asarray(1.23456), ".3f") == "1.235"
    assert f"{xp.asarray(7, dtype=xp.int16):04d}" == "0007"
    assert f"{xp.asarray(1 + 2j):.1f}" == "1.0+2.0j"
    assert format(xp.ones(2), "") == str(xp.ones(2))
    with pytest.raises(TypeError, match="0-dimensional"):
        format(xp.ones(2), ".3f")
