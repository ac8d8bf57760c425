"""Elementwise functions, operators, reductions, products and manipulation,
with NumPy on the dense arrays as the oracle."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import ocean_array_api as xp
from ocean_ext import sparse

from .strategies import (
    FLOAT_DTYPES,
    INT_DTYPES,
    assert_dense_equal,
    basic_keys,
    check_canonical,
    coo_of,
    dense,
    dense_arrays,
    shapes,
)

FILLS = (0, 1.5, 2.0)


def _xp_dense(a):
    return xp.asarray(a)


def _expected(func_name, *args):
    """The dense oracle: ocean_array_api's own function on dense arrays."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(getattr(xp, func_name)(*args))


@pytest.mark.parametrize(
    "name",
    [
        "abs",
        "negative",
        "sqrt",
        "sin",
        "exp",
        "log1p",
        "square",
        "isnan",
        "sign",
        "floor",
        "logical_not",
    ],
)
@given(case=dense_arrays(dtypes=("float64", "float32"), fills=FILLS))
def test_unary_matches_dense(name, case):
    a, fill = case
    s = coo_of(a, fill)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        if name == "logical_not":
            s = s > 0.5
            a = a > 0.5
        r = getattr(sparse, name)(s)
    assert isinstance(r, sparse.COO)
    check_canonical(r)
    assert_dense_equal(r, _expected(name, xp.asarray(a)))


def test_unary_on_views_and_dense_passthrough():
    a = np.array([[0.0, -1.0], [4.0, 0.0]])
    s = coo_of(a, 0.0)
    assert_dense_equal(sparse.abs(s.T), np.abs(a.T))
    assert_dense_equal(abs(s[1]), np.abs(a[1]))
    assert_dense_equal(-s, -a)
    assert_dense_equal(+s, a)
    assert_dense_equal(~(s > 0), ~(a > 0))
    r = sparse.exp(s)
    assert r.fill_value == 1.0
    assert_dense_equal(r, np.exp(a))
    x = sparse.sqrt(xp.asarray([4.0]))  # dense in, dense out
    assert type(x) is xp.Array


BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "maximum",
    "minimum",
    "equal",
    "less",
    "greater_equal",
    "not_equal",
    "pow",
    "atan2",
    "hypot",
    "logaddexp",
]


@pytest.mark.parametrize("name", BINARY)
@given(data=st.data())
def test_binary_coo_coo(name, data):
    shape = data.draw(shapes(max_dims=3, max_side=5))
    a, fa = data.draw(dense_arrays(shape=shape, fills=FILLS))
    # the other operand: same shape, or a shape broadcasting with it
    bshape = tuple(1 if data.draw(st.integers(0, 3)) == 0 else n for n in shape)
    bshape = bshape[data.draw(st.integers(0, len(bshape))) :]
    b, fb = data.draw(dense_arrays(shape=bshape, fills=FILLS))
    sa = coo_of(a, fa)
    sb = coo_of(b, fb)
    r = getattr(sparse, name)(sa, sb)
    assert isinstance(r, sparse.COO)
    check_canonical(r)
    assert_dense_equal(r, _expected(name, xp.asarray(a), xp.asarray(b)))
    # the other way around, and through views
    r2 = getattr(sparse, name)(sb, sa)
    assert_dense_equal(r2, _expected(name, xp.asarray(b), xp.asarray(a)))


@given(dense_arrays(fills=FILLS), st.data())
def test_binary_same_pattern(case, data):
    a, fill = case
    s = coo_of(a, fill)
    t = sparse.COO(s.coords, s.data * 2.0, s.shape, fill_value=fill)
    assert_dense_equal(s * t, a * np.where(a == fill, fill, a * 2))
    assert_dense_equal(s * s, a * a)


@pytest.mark.parametrize(
    "name", ["add", "subtract", "multiply", "divide", "pow", "less", "maximum"]
)
@given(case=dense_arrays(fills=FILLS), scalar=st.sampled_from((0, 2, -1.5, 0.0)))
def test_binary_with_scalars(name, case, scalar):
    a, fill = case
    s = coo_of(a, fill)
    f = getattr(sparse, name)
    r = f(s, scalar)
    assert isinstance(r, sparse.COO)
    check_canonical(r)
    assert_dense_equal(r, _expected(name, xp.asarray(a), scalar))
    assert_dense_equal(f(scalar, s), _expected(name, scalar, xp.asarray(a)))
    assert_dense_equal(
        f(s, xp.asarray(scalar, dtype=xp.float64)),
        _expected(name, xp.asarray(a), scalar),
    )


@given(dense_arrays(fills=FILLS, min_dims=1), st.data())
def test_binary_with_dense_gives_dense(case, data):
    a, fill = case
    b, _ = data.draw(dense_arrays(shape=a.shape[1:], fills=(0,)))
    assume(b.ndim >= 1)
    s = coo_of(a, fill)
    for r, e in (
        (s + xp.asarray(b), a + b),
        (xp.asarray(b) - s, b - a),
        (sparse.multiply(s, xp.asarray(b)), a * b),
        (s > xp.asarray(b), a > b),
    ):
        assert type(r) is xp.Array
        assert_dense_equal(r, e)


def test_operators():
    a = np.array([[0.0, 2.0], [3.0, 0.0]])
    b = np.array([[1.0, 0.0], [3.0, 0.0]])
    s, t = coo_of(a, 0.0), coo_of(b, 0.0)
    assert_dense_equal(s + t, a + b)
    assert_dense_equal(s - t, a - b)
    assert_dense_equal(s * t, a * b)
    assert_dense_equal(2 * s, 2 * a)
    assert_dense_equal(s / 2, a / 2)
    assert_dense_equal(s**2, a**2)
    assert_dense_equal(2.0**s, 2.0**a)
    assert_dense_equal(s // 2, a // 2)
    assert_dense_equal(s % 2, a % 2)
    assert_dense_equal(s == t, a == b)
    assert_dense_equal(s != t, a != b)
    assert_dense_equal(s < t, a < b)
    assert_dense_equal(s <= t, a <= b)
    assert_dense_equal(s > t, a > b)
    assert_dense_equal(s >= t, a >= b)
    i = coo_of(np.array([0, 3, 5]), 0)
    assert_dense_equal(i & 1, np.array([0, 3, 5]) & 1)
    assert_dense_equal(i | 8, np.array([0, 3, 5]) | 8)
    assert_dense_equal(i ^ i, np.zeros(3, dtype=np.int64))
    assert_dense_equal(i << 1, np.array([0, 6, 10]))
    assert_dense_equal(i >> 1, np.array([0, 1, 2]))
    with pytest.raises(TypeError):
        s + "a"
    with pytest.raises(TypeError):
        s + np.ones(2)
    with pytest.raises(TypeError, match="cannot be combined"):
        i + 1.5
    with pytest.raises(TypeError):
        s + coo_of(np.array([1, 2]), 0)  # float64 + int64: mixed kinds
    assert (s == s).dtype == xp.bool


def test_inplace_operators_write_through():
    a = np.array([[0.0, 2.0], [3.0, 0.0]])
    s = coo_of(a, 0.0)
    row = s[1]
    row += 1.0
    a[1] += 1.0
    assert_dense_equal(s, a)
    v = s.T
    v *= 2.0
    a *= 2.0
    assert_dense_equal(s, a)
    s -= coo_of(a, 0.0)
    assert s.nnz == 0
    i = coo_of(np.array([1, 2]), 0)
    with pytest.raises(TypeError, match="dtype"):
        i /= 2
    with pytest.raises(ValueError, match="shape"):
        row += coo_of(np.ones((2, 2)), 0.0)


def test_device_mismatch(other_device):
    s = sparse.COO.from_dense(xp.asarray([1.0, 0.0]))
    t = sparse.COO.from_dense(xp.asarray([1.0, 0.0], device=other_device))
    assert t.device == other_device
    with pytest.raises(ValueError, match="to_device"):
        s + t
    with pytest.raises(ValueError, match="to_device"):
        s @ t
    with pytest.raises(ValueError):
        s[0] = t[0]
    u = t.to_device(s.device)
    assert u.device == s.device
    assert_dense_equal(s + u, np.array([2.0, 0.0]))


REDUCTIONS = ["sum", "prod", "max", "min", "mean", "all", "any"]


@pytest.mark.parametrize("name", REDUCTIONS)
@given(data=st.data())
def test_reductions_match_dense(name, data):
    dtypes = ("float64", "float32") if name == "mean" else (*FLOAT_DTYPES, *INT_DTYPES)
    a, fill = data.draw(dense_arrays(dtypes=dtypes, fills=(0, 1, 2.0, -1)))
    s = coo_of(a, fill)
    nd = a.ndim
    axis = data.draw(
        st.none()
        | (st.integers(-nd, nd - 1) if nd else st.none())
        | st.lists(st.integers(0, max(nd - 1, 0)), unique=True, max_size=nd).map(tuple)
    )
    keepdims = data.draw(st.booleans())
    f = getattr(sparse, name)
    try:
        expected = _expected_reduction(name, a, axis, keepdims)
    except ValueError:
        with pytest.raises(ValueError):
            f(s, axis=axis, keepdims=keepdims)
        return
    got = f(s, axis=axis, keepdims=keepdims)
    if axis is None:
        reduced = set(range(nd))
    elif isinstance(axis, tuple):
        reduced = set(axis)
    else:
        reduced = {axis % nd}
    full = len(reduced) == nd
    if full:
        assert type(got) is xp.Array
    else:
        assert isinstance(got, sparse.COO)
        check_canonical(got)
    assert_dense_equal(got, expected)


def _expected_reduction(name, a, axis, keepdims):
    return _expected(name, xp.asarray(a), **{"axis": axis, "keepdims": keepdims})


def _expected(name, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(getattr(xp, name)(*args, **kwargs))


def test_reduction_dtypes_and_errors():
    s = coo_of(np.array([[1, 0], [0, 2]], dtype=np.int8), 0)
    assert sparse.sum(s).dtype == xp.int64
    assert sparse.sum(s, axis=0).dtype == xp.int64
    assert sparse.sum(s, axis=0, dtype=xp.float64).dtype == xp.float64
    assert sparse.max(s, axis=0).dtype == xp.int8
    with pytest.raises(TypeError):
        sparse.mean(s)
    with pytest.raises(IndexError):
        sparse.sum(s, axis=2)
    with pytest.raises(ValueError):
        sparse.sum(s, axis=(0, 0))
    with pytest.raises(TypeError):
        sparse.sum(s > 0)
    with pytest.raises(ValueError, match="zero elements"):
        sparse.max(coo_of(np.zeros((0, 3)), 0.0), axis=0)
    assert s.sum() == 3


@given(dense_arrays(fills=(0, 1.0), min_dims=2, max_dims=3), st.data())
def test_reductions_on_views(case, data):
    a, fill = case
    s = coo_of(a, fill)
    key = data.draw(basic_keys(a.shape, allow_none=False))
    v = s[key]
    e = np.asarray(a[key])
    for axis in range(e.ndim):
        assert_dense_equal(
            sparse.sum(v, axis=axis), _expected("sum", xp.asarray(e), axis=axis)
        )
        assert_dense_equal(
            sparse.max(sparse.permute_dims(v, tuple(range(e.ndim))[::-1]), axis=axis)
            if 0 not in e.shape
            else xp.asarray(0.0),
            _expected("max", xp.asarray(e.T), axis=axis)
            if 0 not in e.shape
            else np.asarray(0.0),
        )


@given(data=st.data())
def test_matmul_matches_dense(data):
    n, k, m = (data.draw(st.integers(1, 6)) for _ in range(3))
    batch = data.draw(st.sampled_from(((), (2,), (1,), (3, 2))))
    a, fa = data.draw(dense_arrays(shape=(*batch, n, k), fills=(0,)))
    b, fb = data.draw(
        dense_arrays(
            shape=(k, m) if data.draw(st.booleans()) else (*batch, k, m), fills=(0,)
        )
    )
    sa, sb = coo_of(a, fa), coo_of(b, fb)
    expected = a @ b
    for got, dense_out in (
        (sa @ xp.asarray(b), True),
        (xp.asarray(a) @ sb, True),
        (sa @ sb, False),
        (sparse.matmul(sa, sb), False),
    ):
        assert (type(got) is xp.Array) == dense_out
        assert_dense_equal(got, expected)
    # vectors
    v = np.arange(k, dtype=np.float64)
    assert_dense_equal(sa @ xp.asarray(v), a @ v)
    assert_dense_equal(sa @ coo_of(v, 0.0), a @ v)
    w = np.arange(n, dtype=np.float64) - 2
    assert_dense_equal(xp.asarray(w) @ sa, w @ a)
    assert_dense_equal(coo_of(w, 0.0) @ sa, w @ a)
    # transposed views cost nothing and give the same answers
    assert_dense_equal(sa.mT @ xp.asarray(w), np.swapaxes(a, -1, -2) @ w)


def test_matmul_vector_vector_and_fill_values():
    v = coo_of(np.array([0.0, 2.0, 3.0]), 0.0)
    assert float(v @ v) == 13.0
    assert float(v @ xp.asarray([1.0, 1.0, 1.0])) == 5.0
    f = coo_of(np.array([[1.0, 1.0], [2.0, 1.0]]), 1.0)  # fill value 1
    np.testing.assert_allclose(dense(f @ xp.asarray([1.0, 2.0])), [3.0, 4.0])
    with pytest.raises(ValueError, match="align"):
        v @ xp.ones(2)
    with pytest.raises(TypeError):
        v @ coo_of(np.array([True, False, True]), False)


@given(data=st.data())
def test_tensordot_matches_dense(data):
    shape = data.draw(shapes(min_dims=1, max_dims=3, max_side=4))
    a, fa = data.draw(dense_arrays(shape=shape, fills=(0,)))
    naxes = data.draw(st.integers(0, len(shape)))
    bshape = shape[len(shape) - naxes :] + data.draw(shapes(max_dims=2, max_side=3))
    b, fb = data.draw(dense_arrays(shape=bshape, fills=(0,)))
    expected = np.tensordot(a, b, axes=naxes)
    sa, sb = coo_of(a, fa), coo_of(b, fb)
    assert_dense_equal(sparse.tensordot(sa, sb, axes=naxes), expected)
    assert_dense_equal(sparse.tensordot(sa, xp.asarray(b), axes=naxes), expected)
    assert_dense_equal(sparse.tensordot(xp.asarray(a), sb, axes=naxes), expected)


def test_tensordot_axes_pairs_and_vecdot():
    a = np.arange(24.0).reshape(2, 3, 4) % 5
    b = np.arange(12.0).reshape(4, 3) % 4
    sa, sb = coo_of(a, 0.0), coo_of(b, 0.0)
    e = np.tensordot(a, b, axes=([1, 2], [1, 0]))
    assert_dense_equal(sparse.tensordot(sa, sb, axes=([1, 2], [1, 0])), e)
    assert_dense_equal(sparse.tensordot(sa, sb, axes=([-2, -1], [-1, 0])), e)
    with pytest.raises(ValueError):
        sparse.tensordot(sa, sb, axes=([0], [0]))
    c = coo_of(np.array([[1 + 1j, 0], [0, 2j]]), 0)
    assert_dense_equal(sparse.vecdot(c, c), np.array([2 + 0j, 4 + 0j]))
    assert_dense_equal(sparse.vecdot(sa, xp.asarray(a), axis=-2), np.sum(a * a, axis=1))


@pytest.mark.parametrize(
    ("s1", "s2", "axis"),
    [
        ((2, 3), (2, 3), 0),  # the standard allows negative axes only
        ((2, 3), (2, 3), 1),
        ((2, 3), (2, 3), -3),
        ((2, 3), (3,), -2),  # counted within the smaller number of dimensions
        ((2, 1), (2, 3), -1),  # the contracted axis is not broadcast
        ((2, 3), (4, 3), -1),  # the other axes must broadcast
        ((3,), (4,), -1),
    ],
)
def test_vecdot_axis_and_shape_rules_match_dense(s1, s2, axis):
    a = xp.ones(s1)
    b = xp.ones(s2)
    with pytest.raises((IndexError, ValueError)) as dense_exc:
        xp.vecdot(a, b, axis=axis)
    for x1, x2 in ((sparse.COO.from_dense(a), b), (a, sparse.COO.from_dense(b))):
        with pytest.raises(dense_exc.type, match=r"vecdot\(\)"):
            sparse.vecdot(x1, x2, axis=axis)
    good = sparse.vecdot(sparse.COO.from_dense(xp.ones((4, 2, 3))), xp.ones((2, 3)))
    assert_dense_equal(good, np.full((4, 2), 3.0))


@given(dense_arrays(fills=(0, 1.5), min_dims=1), st.data())
def test_reshape_astype_broadcast(case, data):
    a, fill = case
    s = coo_of(a, fill)
    r = sparse.reshape(s, (-1,))
    check_canonical(r)
    assert_dense_equal(r, a.reshape(-1))
    assert_dense_equal(s.reshape(a.shape[::-1]), a.reshape(a.shape[::-1]))
    assert_dense_equal(
        sparse.reshape(s.mT if a.ndim >= 2 else s, (-1,)),
        (np.swapaxes(a, -1, -2) if a.ndim >= 2 else a).reshape(-1),
    )
    i = sparse.astype(s, xp.int32)
    check_canonical(i)
    assert_dense_equal(i, a.astype(np.int32))
    assert s.astype(xp.float64, copy=False) is s
    target = (2, *a.shape)
    b = sparse.broadcast_to(s, target)
    check_canonical(b)
    assert_dense_equal(b, np.broadcast_to(a, target))


def test_reshape_errors_and_copy():
    s = coo_of(np.zeros((2, 3)), 0.0)
    with pytest.raises(ValueError, match="reshape"):
        sparse.reshape(s, (4,))
    with pytest.raises(ValueError, match="copy"):
        sparse.reshape(s, (6,), copy=False)
    assert sparse.reshape(s, (2, 3), copy=False) is s
    with pytest.raises(ValueError):
        sparse.broadcast_to(s, (3, 3))
    with pytest.raises(TypeError):
        sparse.astype(s, "float32")


def test_concat_stack():
    a = np.array([[0.0, 1.0], [2.0, 0.0]])
    b = np.array([[3.0, 0.0]])
    sa, sb = coo_of(a, 0.0), coo_of(b, 0.0)
    assert_dense_equal(sparse.concat([sa, sb]), np.concatenate([a, b]))
    assert_dense_equal(
        sparse.concat([sa, sa.T], axis=1), np.concatenate([a, a.T], axis=1)
    )
    assert_dense_equal(
        sparse.concat([sa, sb], axis=None), np.concatenate([a, b], axis=None)
    )
    assert_dense_equal(sparse.stack([sa, sa.T], axis=1), np.stack([a, a.T], axis=1))
    # a dense input or differing fill values give a dense result
    r = sparse.concat([sa, xp.asarray(b)])
    assert type(r) is xp.Array
    assert_dense_equal(r, np.concatenate([a, b]))
    r = sparse.concat([sa, coo_of(b, 3.0)])
    assert type(r) is xp.Array
    with pytest.raises(ValueError):
        sparse.concat([sa, coo_of(np.zeros((1, 3)), 0.0)])


def test_clip_and_where_scalars():
    s = coo_of(np.array([0.0, 5.0, -3.0]), 0.0)
    assert_dense_equal(sparse.clip(s, min=-1.0, max=1.0), np.array([0.0, 1.0, -1.0]))
    with pytest.raises(TypeError):
        sparse.clip(s, min=xp.asarray([1.0, 2.0, 3.0]))


@given(dense_arrays(fills=(0, 1.0), min_dims=1, max_dims=3), st.data())
def test_nonzero_count_nonzero_moveaxis_unstack(case, data):
    a, fill = case
    s = coo_of(a, fill)
    got = sparse.nonzero(s)
    for g, e in zip(got, np.nonzero(a), strict=True):
        np.testing.assert_array_equal(np.asarray(g), e)
    axis = data.draw(st.none() | st.integers(0, a.ndim - 1))
    assert_dense_equal(
        sparse.count_nonzero(s, axis=axis), np.asarray(np.count_nonzero(a, axis=axis))
    )
    src = data.draw(st.integers(-a.ndim, a.ndim - 1))
    dst = data.draw(st.integers(-a.ndim, a.ndim - 1))
    m = sparse.moveaxis(s, src, dst)
    assert m._store is s._store
    assert_dense_equal(m, np.moveaxis(a, src, dst))
    ax = data.draw(st.integers(0, a.ndim - 1))
    parts = sparse.unstack(s, axis=ax)
    assert len(parts) == a.shape[ax]
    for p, e in zip(parts, np.moveaxis(a, ax, 0), strict=True):
        assert_dense_equal(p, e)
