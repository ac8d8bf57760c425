"""Searching functions against NumPy."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import ALL_DTYPES, REAL_DTYPES, assert_matches, np_dtype, rng_array

_nonempty = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5)


def _axis(data, ndim):
    return data.draw(st.none() | st.integers(-ndim, ndim - 1), label="axis")


@pytest.mark.parametrize("func", ["argmax", "argmin"])
@given(data=st.data(), shape=_nonempty)
def test_argmax_argmin(func, data, shape):
    dt = data.draw(st.sampled_from(REAL_DTYPES), label="dtype")
    a = data.draw(
        hnp.arrays(
            np_dtype(dt), shape, elements=hnp.from_dtype(np_dtype(dt), allow_nan=False)
        ),
        label="x",
    )
    axis = _axis(data, len(shape))
    keepdims = data.draw(st.booleans(), label="keepdims")
    res = getattr(xp, func)(xp.asarray(a), axis=axis, keepdims=keepdims)
    expected = getattr(np, func)(a, axis=axis, keepdims=keepdims)
    assert_matches(res, np.asarray(expected, dtype=np.int64))


def test_argmax_first_occurrence_and_nan():
    assert int(xp.argmax(xp.asarray([1, 3, 3, 0]))) == 1
    assert int(xp.argmin(xp.asarray([2, 0, 0]))) == 1
    assert int(xp.argmax(xp.asarray([1.0, math.nan, 2.0]))) == 1


def test_argmax_errors():
    with pytest.raises(ValueError):
        xp.argmax(xp.ones((0,)))
    with pytest.raises(TypeError):
        xp.argmax(xp.asarray([1j]))
    with pytest.raises(TypeError):
        xp.argmin(xp.asarray([True]))
    with pytest.raises(IndexError):
        xp.argmax(xp.ones((2, 3)), axis=2)
    with pytest.raises(TypeError):
        xp.argmax(xp.ones((2, 3)), axis=(0, 1))


@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
)
def test_nonzero(data, shape):
    dt = data.draw(st.sampled_from(ALL_DTYPES), label="dtype")
    a = data.draw(
        hnp.arrays(
            np_dtype(dt),
            shape,
            elements=st.sampled_from([0, 1]).map(
                lambda v: np.asarray(v).astype(np_dtype(dt))
            ),
        ),
        label="x",
    )
    got = xp.nonzero(xp.asarray(a))
    assert type(got) is tuple
    expected = np.nonzero(a)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert_matches(g, e.astype(np.int64))


def test_nonzero_of_zero_dim_is_value_error():
    with pytest.raises(ValueError):
        xp.nonzero(xp.asarray(1))


@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
)
def test_count_nonzero(data, shape):
    a = data.draw(
        hnp.arrays(
            np.float64, shape, elements=st.sampled_from([0.0, 1.0, -2.0, math.nan])
        ),
        label="x",
    )
    axis = data.draw(
        st.none()
        | st.lists(
            st.integers(0, max(len(shape) - 1, 0)), unique=True, max_size=len(shape)
        ).map(tuple),
        label="axis",
    )
    if axis is not None and not shape:
        axis = None
    keepdims = data.draw(st.booleans(), label="keepdims")
    res = xp.count_nonzero(xp.asarray(a), axis=axis, keepdims=keepdims)
    assert_matches(
        res,
        np.asarray(np.count_nonzero(a, axis=axis, keepdims=keepdims), dtype=np.int64),
    )


@pytest.mark.parametrize("side", ["left", "right"])
@given(data=st.data())
def test_searchsorted(side, data):
    dt = data.draw(st.sampled_from(REAL_DTYPES), label="dtype")
    nd = np_dtype(dt)
    x1 = np.sort(
        data.draw(
            hnp.arrays(
                nd, st.integers(0, 8), elements=hnp.from_dtype(nd, allow_nan=False)
            ),
            label="x1",
        )
    )
    x2 = data.draw(
        hnp.arrays(
            nd,
            hnp.array_shapes(min_dims=0, max_dims=2, max_side=4),
            elements=hnp.from_dtype(nd, allow_nan=False),
        ),
        label="x2",
    )
    res = xp.searchsorted(xp.asarray(x1), xp.asarray(x2), side=side)
    assert_matches(res, np.asarray(np.searchsorted(x1, x2, side=side), dtype=np.int64))


def test_searchsorted_with_sorter_and_scalars():
    x1 = np.array([3.0, 1.0, 2.0])
    sorter = np.argsort(x1)
    res = xp.searchsorted(
        xp.asarray(x1), xp.asarray([2.5, 0.0]), sorter=xp.asarray(sorter)
    )
    assert_matches(res, np.searchsorted(x1, [2.5, 0.0], sorter=sorter).astype(np.int64))
    # 2025.12: x2 may be a Python scalar
    assert_matches(xp.searchsorted(xp.asarray([1.0, 2.0, 3.0]), 2.5), np.int64(2))
    assert_matches(xp.searchsorted(xp.asarray([1, 2, 3]), 2, side="right"), np.int64(2))


def test_searchsorted_errors():
    with pytest.raises((ValueError, TypeError)):
        xp.searchsorted(xp.ones((2, 2)), xp.ones(2))
    with pytest.raises(TypeError):
        xp.searchsorted(xp.asarray([1, 2]), xp.asarray([1.5]))
    with pytest.raises(TypeError):
        xp.searchsorted(xp.asarray([1j]), xp.asarray([1j]))
    with pytest.raises(ValueError):
        xp.searchsorted(xp.asarray([1.0]), xp.asarray([1.0]), side="middle")
    with pytest.raises(TypeError):
        xp.searchsorted(xp.asarray([1, 2]), 1.5)


@given(data=st.data())
def test_where(data):
    shapes = data.draw(
        hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=3, max_side=4),
        label="shapes",
    )
    s0, s1, s2 = shapes.input_shapes
    cond = data.draw(hnp.arrays(np.bool_, s0), label="cond")
    dt = data.draw(st.sampled_from(ALL_DTYPES), label="dtype")
    a = rng_array(s1, dt, seed=1)
    b = rng_array(s2, dt, seed=2)
    res = xp.where(xp.asarray(cond), xp.asarray(a), xp.asarray(b))
    assert_matches(res, np.where(cond, a, b))


def test_where_promotes_and_takes_scalars():
    c = xp.asarray([True, False])
    assert (
        xp.where(c, xp.ones(2, dtype=xp.int8), xp.zeros(2, dtype=xp.int16)).dtype
        == xp.int16
    )
    assert_matches(
        xp.where(c, xp.asarray([1.0, 2.0], dtype=xp.float32), 0.0),
        np.array([1.0, 0.0], dtype=np.float32),
    )
    assert_matches(
        xp.where(c, 5, xp.asarray([1, 2], dtype=xp.uint8)),
        np.array([5, 2], dtype=np.uint8),
    )


def test_where_errors():
    c = xp.asarray([True, False])
    with pytest.raises(TypeError):
        xp.where(xp.asarray([1, 0]), xp.ones(2), xp.ones(2))
    with pytest.raises(TypeError):
        xp.where(c, xp.ones(2), xp.ones(2, dtype=xp.int64))
    with pytest.raises(TypeError):
        xp.where(c, xp.ones(2, dtype=xp.int64), 1.5)
    with pytest.raises(ValueError):
        xp.where(c, xp.ones(3), xp.ones(3))
