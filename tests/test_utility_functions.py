"""Utility functions against NumPy: all, any, diff."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import ALL_DTYPES, NUMERIC_DTYPES, assert_matches, np_dtype, rng_array

_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)


@pytest.mark.parametrize("name", ["all", "any"])
@given(data=st.data(), shape=_shapes)
def test_all_any(name, data, shape):
    dt = data.draw(st.sampled_from(ALL_DTYPES), label="dtype")
    nd = np_dtype(dt)
    a = data.draw(
        hnp.arrays(
            nd,
            shape,
            elements=st.sampled_from([0, 1]).map(lambda v: np.asarray(v).astype(nd)),
        ),
        label="x",
    )
    ndim = len(shape)
    axis = data.draw(
        st.none() | (st.integers(-ndim, ndim - 1) if ndim else st.none()), label="axis"
    )
    keepdims = data.draw(st.booleans(), label="keepdims")
    res = getattr(xp, name)(xp.asarray(a), axis=axis, keepdims=keepdims)
    assert_matches(res, getattr(np, name)(a, axis=axis, keepdims=keepdims))


def test_all_any_nan_is_true_and_empty():
    assert bool(xp.all(xp.asarray([math.nan, 1.0])))
    assert bool(xp.any(xp.asarray([math.nan, 0.0])))
    assert bool(xp.all(xp.zeros((0,))))
    assert not bool(xp.any(xp.zeros((0,))))
    assert_matches(
        xp.all(xp.ones((2, 3)), axis=(0, 1), keepdims=True), np.ones((1, 1), dtype=bool)
    )


def test_all_any_errors():
    for f in (xp.all, xp.any):
        with pytest.raises(IndexError):
            f(xp.ones((2, 3)), axis=2)
        with pytest.raises(TypeError):
            f([True, False])


@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5),
)
def test_diff(data, shape):
    dt = data.draw(st.sampled_from(NUMERIC_DTYPES), label="dtype")
    a = rng_array(shape, dt)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    n = data.draw(st.integers(0, 3), label="n")
    res = xp.diff(xp.asarray(a), axis=axis, n=n)
    assert_matches(res, np.diff(a, n=n, axis=axis))


def test_diff_prepend_append():
    a = np.array([[1, 4, 9], [2, 3, 5]])
    x = xp.asarray(a)
    pre = np.zeros((2, 1), dtype=np.int64)
    app = np.full((2, 2), 10)
    assert_matches(
        xp.diff(x, prepend=xp.asarray(pre), append=xp.asarray(app)),
        np.diff(a, prepend=pre, append=app),
    )
    assert_matches(
        xp.diff(x, axis=0, append=xp.asarray(a[:1])), np.diff(a, axis=0, append=a[:1])
    )


def test_diff_errors():
    with pytest.raises(ValueError):
        xp.diff(xp.asarray([1, 2, 3]), n=-1)
    with pytest.raises((ValueError, IndexError)):
        xp.diff(xp.asarray(1))
    with pytest.raises(IndexError):
        xp.diff(xp.ones((2, 2)), axis=2)
    with pytest.raises((TypeError, ValueError)):
        xp.diff(xp.ones((2, 2)), prepend=xp.ones((2, 2), dtype=xp.int64))
