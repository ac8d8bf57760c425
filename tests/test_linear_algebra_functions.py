"""matmul (and @), matrix_transpose, tensordot, vecdot against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ocean_array_api as xp

from .helpers import NUMERIC_DTYPES, assert_matches, np_dtype, rng_array, spec_promote

_RTOL = {"float32": 1e-5, "complex64": 1e-5, "float64": 1e-12, "complex128": 1e-12}


def _check(res, expected, dt):
    rtol = _RTOL.get(str(dt))
    if rtol is None:
        assert_matches(res, expected, dtype=dt)
    else:
        assert_matches(res, expected, dtype=dt, rtol=rtol, atol=rtol)


_MATMUL_SHAPES = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((5, 2, 3), (3, 4)),
    ((2, 3), (5, 3, 4)), ((5, 1, 2, 3), (4, 3, 2)), ((0, 3), (3, 2)), ((2, 0), (0, 2)),
]  # fmt: skip


@pytest.mark.parametrize(("s1", "s2"), _MATMUL_SHAPES)
@pytest.mark.parametrize("dt", NUMERIC_DTYPES, ids=str)
def test_matmul(s1, s2, dt):
    a, b = rng_array(s1, dt, 1), rng_array(s2, dt, 2)
    x, y = xp.asarray(a), xp.asarray(b)
    expected = np.matmul(a, b)
    _check(xp.matmul(x, y), expected, dt)
    _check(x @ y, expected, dt)


@given(
    pair=st.sampled_from(
        [
            (a, b)
            for a in NUMERIC_DTYPES
            for b in NUMERIC_DTYPES
            if spec_promote(str(a), str(b))
        ]
    )
)
def test_matmul_promotes(pair):
    d1, d2 = pair
    r = xp.matmul(xp.ones((2, 2), dtype=d1), xp.ones((2, 2), dtype=d2))
    assert r.dtype == getattr(xp, spec_promote(str(d1), str(d2)))
    assert_matches(r, np.full((2, 2), 2, dtype=np_dtype(r.dtype)))


def test_matmul_errors():
    with pytest.raises(ValueError):
        xp.matmul(xp.ones((2, 3)), xp.ones((2, 3)))
    with pytest.raises(ValueError):
        xp.matmul(xp.ones(()), xp.ones(()))
    with pytest.raises(TypeError):
        xp.matmul(xp.ones((2, 2), dtype=xp.bool), xp.ones((2, 2), dtype=xp.bool))
    with pytest.raises(TypeError):
        xp.matmul(xp.ones((2, 2)), xp.ones((2, 2), dtype=xp.int64))
    with pytest.raises(TypeError):
        xp.ones((2, 2)) @ np.ones((2, 2))
    with pytest.raises(TypeError):
        np.ones((2, 2)) @ xp.ones((2, 2))
    with pytest.raises(TypeError):
        xp.ones((2, 2)) @ 2.0


def test_imatmul():
    a = rng_array((3, 3), xp.float64)
    b = rng_array((3, 3), xp.float64, 5)
    x = xp.asarray(a.copy())
    before = x
    x @= xp.asarray(b)
    assert x is before
    assert_matches(x, a @ b, rtol=1e-12, atol=1e-12)
    y = xp.ones((2, 3))
    with pytest.raises(ValueError):
        y @= xp.ones((3, 4))  # would change the shape of y
    z = xp.ones((2, 2), dtype=xp.float32)
    with pytest.raises(TypeError):
        z @= xp.ones((2, 2), dtype=xp.float64)


def test_rmatmul_via_operator_protocol():
    x = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert_matches(x.__rmatmul__(xp.eye(2)), np.array([[1.0, 2.0], [3.0, 4.0]]))


@pytest.mark.parametrize("shape", [(2, 3), (4, 2, 3), (1, 0, 3)])
def test_matrix_transpose(shape):
    a = rng_array(shape, xp.int16)
    assert_matches(xp.matrix_transpose(xp.asarray(a)), np.swapaxes(a, -1, -2))
    assert_matches(xp.asarray(a).mT, np.swapaxes(a, -1, -2))


def test_matrix_transpose_errors():
    with pytest.raises(ValueError):
        xp.matrix_transpose(xp.ones(3))
    with pytest.raises(TypeError):
        xp.matrix_transpose(np.ones((2, 2)))


@pytest.mark.parametrize(
    ("s1", "s2", "axes"),
    [
        ((3, 4, 5), (4, 5, 6), 2),
        ((3, 4), (4, 5), 1),
        ((3, 4), (5, 6), 0),
        ((3, 4, 5), (5, 4, 2), ((1, 2), (1, 0))),
        ((2, 3), (3, 2), ([0], [1])),
        ((), (), 0),
    ],
)
@pytest.mark.parametrize("dt", [xp.int32, xp.float32, xp.complex128])
def test_tensordot(s1, s2, axes, dt):
    a, b = rng_array(s1, dt, 1), rng_array(s2, dt, 2)
    _check(
        xp.tensordot(xp.asarray(a), xp.asarray(b), axes=axes),
        np.tensordot(a, b, axes=axes),
        dt,
    )


def test_tensordot_errors():
    with pytest.raises(ValueError):
        xp.tensordot(xp.ones((2, 3)), xp.ones((2, 3)), axes=1)
    with pytest.raises((ValueError, TypeError)):
        xp.tensordot(xp.ones((2, 3)), xp.ones((3, 2)), axes=-1)
    with pytest.raises(TypeError):
        xp.tensordot(xp.ones((2, 2)), xp.ones((2, 2), dtype=xp.int64))
    with pytest.raises(TypeError):
        xp.tensordot(xp.ones((2, 2), dtype=xp.bool), xp.ones((2, 2), dtype=xp.bool))


@pytest.mark.parametrize(
    ("s1", "s2", "axis"),
    [
        ((3,), (3,), -1),
        ((2, 3), (3,), -1),
        ((4, 1, 3), (2, 3), -1),
        ((3, 2), (3, 2), -2),
        ((3, 2), (3, 1), -2),
    ],
)
@pytest.mark.parametrize("dt", [xp.int64, xp.float64, xp.complex64])
def test_vecdot(s1, s2, axis, dt):
    a, b = rng_array(s1, dt, 1), rng_array(s2, dt, 2)
    # the standard conjugates x1
    expected = np.sum(np.conj(a) * b, axis=axis)
    _check(xp.vecdot(xp.asarray(a), xp.asarray(b), axis=axis), expected, dt)


def test_vecdot_errors():
    with pytest.raises(ValueError):
        xp.vecdot(xp.ones(3), xp.ones(4))
    with pytest.raises(IndexError):
        xp.vecdot(xp.ones(3), xp.ones(3), axis=-2)
    with pytest.raises(TypeError):
        xp.vecdot(xp.ones(3, dtype=xp.bool), xp.ones(3, dtype=xp.bool))
