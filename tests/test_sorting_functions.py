"""Sorting functions against NumPy: stability, descending order, NaNs last."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import REAL_DTYPES, assert_matches, host, np_dtype

_shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6)


def _draw(data):
    dt = data.draw(st.sampled_from(REAL_DTYPES), label="dtype")
    nd = np_dtype(dt)
    shape = data.draw(_shapes, label="shape")
    # few distinct values, so that stability matters
    a = data.draw(
        hnp.arrays(
            nd,
            shape,
            elements=st.sampled_from([0, 1, 2, 7]).map(
                lambda v: np.asarray(v).astype(nd)
            ),
        ),
        label="x",
    )
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    return a, axis


def _stable_descending_argsort(a, axis):
    # Descending and stable: equal elements keep their original order.
    return np.flip(
        a.shape[axis] - 1 - np.argsort(np.flip(a, axis=axis), axis=axis, kind="stable"),
        axis=axis,
    )


@given(data=st.data(), descending=st.booleans())
def test_sort(data, descending):
    a, axis = _draw(data)
    res = xp.sort(xp.asarray(a), axis=axis, descending=descending)
    expected = np.sort(a, axis=axis)
    if descending:
        expected = np.flip(expected, axis=axis)
    assert_matches(res, expected)


@given(data=st.data(), descending=st.booleans())
def test_argsort_is_stable(data, descending):
    a, axis = _draw(data)
    res = xp.argsort(xp.asarray(a), axis=axis, descending=descending, stable=True)
    if descending:
        expected = _stable_descending_argsort(a, axis)
    else:
        expected = np.argsort(a, axis=axis, kind="stable")
    assert_matches(res, expected.astype(np.int64))


@given(data=st.data(), descending=st.booleans())
def test_argsort_unstable_still_sorts(data, descending):
    a, axis = _draw(data)
    idx = host(
        xp.argsort(xp.asarray(a), axis=axis, descending=descending, stable=False)
    )
    got = np.take_along_axis(a, idx, axis=axis)
    expected = np.sort(a, axis=axis)
    if descending:
        expected = np.flip(expected, axis=axis)
    np.testing.assert_array_equal(got, expected)


def test_defaults_are_last_axis_ascending():
    a = np.array([[3, 1, 2], [0, 5, 4]])
    assert_matches(xp.sort(xp.asarray(a)), np.sort(a, axis=-1))
    assert_matches(
        xp.argsort(xp.asarray(a)),
        np.argsort(a, axis=-1, kind="stable").astype(np.int64),
    )


def test_nans_sort_last():
    a = np.array([math.nan, 1.0, -math.inf, 0.5])
    assert_matches(xp.sort(xp.asarray(a)), np.array([-math.inf, 0.5, 1.0, math.nan]))
    assert_matches(xp.argsort(xp.asarray(a)), np.array([2, 3, 1, 0]))


def test_sort_errors():
    with pytest.raises(TypeError):
        xp.sort(xp.asarray([1j, 2j]))
    with pytest.raises(TypeError):
        xp.argsort(xp.asarray([True, False]))
    with pytest.raises(IndexError):
        xp.sort(xp.ones((2, 3)), axis=2)
    with pytest.raises((ValueError, IndexError)):
        xp.sort(xp.asarray(1.0))
    with pytest.raises(TypeError):
        xp.sort(np.ones(3))
    with pytest.raises(TypeError):
        xp.sort(xp.ones(3), descending=1)
