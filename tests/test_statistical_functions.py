"""Statistical functions against NumPy: values, dtypes, axes, keepdims."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import (
    ALL_DTYPES,
    COMPLEX_DTYPES,
    INT_DTYPES,
    NUMERIC_DTYPES,
    REAL_DTYPES,
    REAL_FLOAT_DTYPES,
    SIGNED_DTYPES,
    UNSIGNED_DTYPES,
    assert_matches,
    host,
    np_dtype,
)

_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
_nonempty = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=4)


def _values(dt):
    nd = np_dtype(dt)
    if nd.kind in "iu":
        return st.integers(0 if nd.kind == "u" else -3, 3).map(
            lambda v: np.asarray(v).astype(nd)
        )
    if nd.kind == "f":
        return st.floats(-10, 10, width=nd.itemsize * 8)
    return st.complex_numbers(max_magnitude=10, width=nd.itemsize * 8)


def _axes(data, ndim):
    """None, an int, or a tuple of distinct axes (possibly negative)."""
    if ndim == 0:
        return data.draw(st.sampled_from([None, ()]), label="axis")
    single = st.integers(-ndim, ndim - 1)
    multi = st.lists(st.integers(0, ndim - 1), unique=True, max_size=ndim).map(
        lambda ax: tuple(a - ndim if i % 2 else a for i, a in enumerate(ax))
    )
    return data.draw(st.none() | single | multi, label="axis")


def _rtol(dt):
    return 1e-4 if dt in (xp.float32, xp.complex64) else 1e-10


def _sum_dtype(dt):
    """The standard's accumulation dtype for sum/prod/cumulative_* (dtype=None)."""
    if dt in SIGNED_DTYPES:
        return xp.int64
    if dt in UNSIGNED_DTYPES:
        return xp.uint64
    return dt


@pytest.mark.parametrize("name", ["sum", "prod"])
@given(data=st.data(), shape=_shapes)
def test_sum_prod(name, data, shape):
    dt = data.draw(st.sampled_from(NUMERIC_DTYPES), label="dtype")
    a = data.draw(hnp.arrays(np_dtype(dt), shape, elements=_values(dt)), label="x")
    axis = _axes(data, len(shape))
    keepdims = data.draw(st.booleans(), label="keepdims")
    res = getattr(xp, name)(xp.asarray(a), axis=axis, keepdims=keepdims)
    want = _sum_dtype(dt)
    expected = getattr(np, name)(a, axis=axis, keepdims=keepdims, dtype=np_dtype(want))
    if xp.isdtype(dt, "integral"):
        assert_matches(res, expected, dtype=want)
    else:
        assert_matches(res, expected, dtype=want, rtol=_rtol(dt), atol=1e-5)


@pytest.mark.parametrize("name", ["sum", "prod"])
def test_sum_prod_dtype_argument(name):
    f = getattr(xp, name)
    x = xp.asarray([100, 100, 2], dtype=xp.int8)
    assert_matches(
        f(x, dtype=xp.int8),
        getattr(np, name)(np.array([100, 100, 2], np.int8), dtype=np.int8),
    )
    assert f(x, dtype=xp.float64).dtype == xp.float64
    assert f(xp.ones(3, dtype=xp.float32), dtype=xp.float64).dtype == xp.float64
    assert f(xp.ones(3, dtype=xp.float32)).dtype == xp.float32  # 2023.12: no upcast
    with pytest.raises(TypeError):
        f(x, dtype=np.int64)


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_dtype_argument(name):
    f = getattr(xp, name)
    a = np.array([100, 100, 2], dtype=np.int8)
    x = xp.asarray(a)
    assert_matches(f(x, dtype=xp.int8), getattr(np, name)(a, dtype=np.int8))
    assert_matches(f(x, dtype=xp.float32), getattr(np, name)(a, dtype=np.float32))
    with pytest.raises(TypeError):
        f(xp.ones(2), dtype=xp.int64)  # float -> int is not allowed


def test_empty_sum_and_prod():
    assert_matches(xp.sum(xp.zeros((0,))), np.float64(0.0))
    assert_matches(xp.prod(xp.zeros((0,), dtype=xp.int32)), np.int64(1))
    assert_matches(xp.sum(xp.zeros((0, 3)), axis=0), np.zeros(3))


@pytest.mark.parametrize("name", ["max", "min"])
@given(data=st.data(), shape=_nonempty)
def test_max_min(name, data, shape):
    dt = data.draw(st.sampled_from(REAL_DTYPES), label="dtype")
    nd = np_dtype(dt)
    a = data.draw(hnp.arrays(nd, shape, elements=hnp.from_dtype(nd)), label="x")
    axis = _axes(data, len(shape))
    keepdims = data.draw(st.booleans(), label="keepdims")
    res = getattr(xp, name)(xp.asarray(a), axis=axis, keepdims=keepdims)
    assert_matches(res, getattr(np, name)(a, axis=axis, keepdims=keepdims))


def test_max_min_propagate_nan():
    x = xp.asarray([1.0, math.nan, 3.0])
    assert math.isnan(float(xp.max(x)))
    assert math.isnan(float(xp.min(x)))


@given(data=st.data(), shape=_nonempty)
def test_mean(data, shape):
    dt = data.draw(st.sampled_from(REAL_FLOAT_DTYPES + COMPLEX_DTYPES), label="dtype")
    a = data.draw(hnp.arrays(np_dtype(dt), shape, elements=_values(dt)), label="x")
    axis = _axes(data, len(shape))
    keepdims = data.draw(st.booleans(), label="keepdims")
    res = xp.mean(xp.asarray(a), axis=axis, keepdims=keepdims)
    assert_matches(
        res,
        np.mean(a, axis=axis, keepdims=keepdims),
        dtype=dt,
        rtol=_rtol(dt),
        atol=1e-5,
    )


@pytest.mark.parametrize("name", ["std", "var"])
@given(data=st.data(), shape=_nonempty)
def test_std_var(name, data, shape):
    dt = data.draw(st.sampled_from(REAL_FLOAT_DTYPES), label="dtype")
    a = data.draw(hnp.arrays(np_dtype(dt), shape, elements=_values(dt)), label="x")
    axis = _axes(data, len(shape))
    keepdims = data.draw(st.booleans(), label="keepdims")
    correction = data.draw(st.sampled_from([0, 1, 0.5]), label="correction")
    res = getattr(xp, name)(
        xp.asarray(a), axis=axis, keepdims=keepdims, correction=correction
    )
    with warnings.catch_warnings():
        warnings.simplefilter(
            "ignore", RuntimeWarning
        )  # NumPy warns when N <= correction
        expected = getattr(np, name)(a, axis=axis, keepdims=keepdims, ddof=correction)
    assert_matches(res, expected, dtype=dt, rtol=_rtol(dt), atol=1e-4)


def test_degenerate_statistics_are_nan_without_warnings():
    # filterwarnings=error: a RuntimeWarning from NumPy would fail these.
    assert math.isnan(float(xp.mean(xp.zeros((0,)))))
    assert math.isnan(float(xp.var(xp.ones(1), correction=1)))
    assert math.isnan(float(xp.std(xp.ones(2), correction=2)))
    assert np.isnan(host(xp.std(xp.zeros((0, 3)), axis=0))).all()


@pytest.mark.parametrize(
    ("name", "dtypes"),
    [
        ("sum", (xp.bool,)),
        ("prod", (xp.bool,)),
        ("max", (xp.bool, *COMPLEX_DTYPES)),
        ("min", (xp.bool, *COMPLEX_DTYPES)),
        ("mean", (xp.bool, *INT_DTYPES)),
        ("std", (xp.bool, *INT_DTYPES)),
        ("var", (xp.bool, *INT_DTYPES)),
        ("cumulative_sum", (xp.bool,)),
        ("cumulative_prod", (xp.bool,)),
    ],
)
def test_statistical_dtype_errors(name, dtypes):
    for dt in dtypes:
        with pytest.raises(TypeError, match=name):
            getattr(xp, name)(xp.ones(3, dtype=dt))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "std", "var"])
def test_reduction_axis_errors(name):
    f = getattr(xp, name)
    x = xp.ones((2, 3))
    with pytest.raises(IndexError):
        f(x, axis=2)
    with pytest.raises(IndexError):
        f(x, axis=(0, -3))
    with pytest.raises(ValueError):
        f(x, axis=(0, 0))
    with pytest.raises(TypeError):
        f(x, axis=1.0)
    with pytest.raises(TypeError):
        f(x, axis=[0])
    with pytest.raises(TypeError):
        f(np.ones(3))


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4),
)
def test_cumulative(name, data, shape):
    dt = data.draw(st.sampled_from(NUMERIC_DTYPES), label="dtype")
    a = data.draw(hnp.arrays(np_dtype(dt), shape, elements=_values(dt)), label="x")
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    include_initial = data.draw(st.booleans(), label="include_initial")
    res = getattr(xp, name)(xp.asarray(a), axis=axis, include_initial=include_initial)
    want = _sum_dtype(dt)
    expected = getattr(np, name)(
        a, axis=axis, include_initial=include_initial, dtype=np_dtype(want)
    )
    if xp.isdtype(dt, "integral"):
        assert_matches(res, expected, dtype=want)
    else:
        assert_matches(res, expected, dtype=want, rtol=_rtol(dt), atol=1e-4)


def test_cumulative_axis_rules():
    a = np.arange(6).reshape(2, 3)
    assert_matches(xp.cumulative_sum(xp.asarray([1, 2, 3])), np.array([1, 3, 6]))
    with pytest.raises((ValueError, TypeError)):
        xp.cumulative_sum(xp.asarray(a))  # axis is required above 1-D
    assert_matches(
        xp.cumulative_prod(xp.asarray(a) + 1, axis=1), np.cumulative_prod(a + 1, axis=1)
    )
    assert_matches(
        xp.cumulative_sum(xp.asarray([1, 2], dtype=xp.int8), dtype=xp.float32),
        np.array([1.0, 3.0], dtype=np.float32),
    )
    with pytest.raises(IndexError):
        xp.cumulative_sum(xp.asarray(a), axis=2)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_reductions_keep_device(dt, other_device):
    x = xp.ones((2, 3), dtype=dt, device=other_device)
    if xp.isdtype(dt, "numeric"):
        assert xp.sum(x).device == other_device
        assert xp.cumulative_sum(x, axis=0).device == other_device
    if xp.isdtype(dt, ("integral", "real floating")):
        assert xp.max(x, axis=0).device == other_device
    if xp.isdtype(dt, "real floating"):
        assert xp.std(x).device == other_device
    assert xp.all(x).device == other_device
