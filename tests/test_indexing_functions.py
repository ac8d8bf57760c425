"""take and take_along_axis against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import ALL_DTYPES, assert_matches, computed, rng_array


@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5),
)
def test_take(data, shape):
    dt = data.draw(st.sampled_from(ALL_DTYPES), label="dtype")
    a = rng_array(shape, dt)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    n = shape[axis]
    idx = data.draw(
        hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-n, n - 1)),
        label="indices",
    )
    res = xp.take(xp.asarray(a), xp.asarray(idx), axis=axis)
    assert_matches(res, np.take(a, idx, axis=axis))


def test_take_1d_axis_optional_and_index_dtypes():
    a = np.arange(10.0)
    for dt in (xp.int8, xp.uint8, xp.int32, xp.uint64):
        assert_matches(xp.take(xp.asarray(a), xp.asarray([1, 3], dtype=dt)), a[[1, 3]])


def test_take_errors(other_device):
    x = xp.ones((2, 3))
    with pytest.raises(ValueError):
        xp.take(x, xp.asarray([0]))  # axis required for ndim > 1
    with pytest.raises(IndexError):
        xp.take(x, xp.asarray([0]), axis=2)
    with pytest.raises((TypeError, IndexError)):
        xp.take(x, xp.asarray([0.0]), axis=0)
    with pytest.raises(TypeError):
        xp.take(x, [0], axis=0)
    with pytest.raises(ValueError, match="take"):
        xp.take(x, xp.asarray([0], device=other_device), axis=0)


@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4),
)
def test_take_along_axis(data, shape):
    a = rng_array(shape, xp.float32)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    n = shape[axis]
    ishape = list(shape)
    ishape[axis] = data.draw(st.integers(0, 5), label="count")
    idx = data.draw(
        hnp.arrays(np.int64, tuple(ishape), elements=st.integers(-n, n - 1)),
        label="indices",
    )
    res = xp.take_along_axis(xp.asarray(a), xp.asarray(idx), axis=axis)
    assert_matches(res, np.take_along_axis(a, idx, axis=axis))


def test_take_along_axis_default_axis_and_argsort():
    a = np.array([[3, 1, 2], [9, 7, 8]])
    x = xp.asarray(a)
    assert_matches(xp.take_along_axis(x, xp.argsort(x)), np.sort(a, axis=-1))


def test_take_along_axis_errors():
    x = xp.ones((2, 3))
    with pytest.raises(ValueError):
        xp.take_along_axis(x, xp.asarray([0, 1]))  # ndim mismatch
    with pytest.raises(IndexError):
        xp.take_along_axis(x, xp.asarray([[0]]), axis=2)
    with pytest.raises((TypeError, IndexError)):
        xp.take_along_axis(x, xp.asarray([[0.0]]))


@pytest.mark.parametrize(("shape", "axis"), [((0, 3), 1), ((3, 0, 2), 2), ((2, 0), 0)])
@pytest.mark.parametrize("index", [[5], [-4], [0, 3], [-3, 2], []])
def test_take_checks_indices_when_the_result_is_empty(shape, axis, index, device):
    """An out-of-bounds index is an IndexError even when another axis is empty
    (NumPy checks nothing then; every device agrees here)."""
    x = xp.zeros(shape, device=device)
    indices = xp.asarray(index, dtype=xp.int64, device=device)
    n = shape[axis]
    if any(not -n <= i < n for i in index):
        with pytest.raises(IndexError, match="out of bounds"):
            computed(xp.take(x, indices, axis=axis))
        return
    res = computed(xp.take(x, indices, axis=axis))
    expected = tuple(len(index) if i == axis else d for i, d in enumerate(shape))
    assert res.shape == expected
