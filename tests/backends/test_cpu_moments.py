"""The CPU backend's ``mean``, ``var`` and ``std`` kernels compute NumPy's
``np.mean``/``np.var``/``np.std`` step for step without their Python-level
dispatch: the same bits, dtype, shape and result type (NumPy scalar or
array) for every input, axis form, ``keepdims`` and ``correction``."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
from ocean_array_api import _backend

_backend.get_backend("cpu")  # loads ocean_cpu
from ocean_cpu import _backend as cpu  # noqa: E402
from ocean_cpu import _common  # noqa: E402

DTYPES = ["float32", "float64", "complex64", "complex128", ">f8", ">f4", ">c8", ">c16"]
REF = {
    "mean": _common.mean_entry(np, np.mean),
    "var": _common.spread_entry(np, np.var),
    "std": _common.spread_entry(np, np.std),
}
KERNEL = {"mean": cpu._mean, "var": cpu._var, "std": cpu._std}


def _same(got, want):
    assert type(got) is type(want)
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype
    assert g.shape == w.shape
    assert g.tobytes() == w.tobytes()


def _axes(ndim):
    yield None
    yield from range(-ndim, ndim)
    for r in range(1, ndim + 1):
        yield from itertools.combinations(range(ndim), r)


def _check(name, a, axis, keepdims, correction=0):
    args = (a, axis, keepdims) if name == "mean" else (a, axis, correction, keepdims)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = REF[name](*args)
        got = KERNEL[name](*args)
    _same(got, want)


@st.composite
def _arrays(draw):
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=6))
    elements = hnp.from_dtype(dtype, allow_nan=True, allow_infinity=True)
    a = draw(hnp.arrays(dtype, shape, elements=elements))
    if a.ndim >= 2 and draw(st.booleans()):
        a = a[..., ::-1]  # not contiguous
    return a


@settings(max_examples=300, deadline=None)
@given(_arrays(), st.data())
def test_moments_are_numpys(a, data):
    axis = data.draw(st.sampled_from(list(_axes(a.ndim))))
    keepdims = data.draw(st.booleans())
    correction = data.draw(st.sampled_from([0, 1, 0.5, 2.0, 5]))
    for name in ("mean", "var", "std"):
        _check(name, a, axis, keepdims, correction)


@pytest.mark.parametrize("dtype", DTYPES)
def test_moments_over_wide_magnitudes(dtype):
    # magnitudes over ten decades, every axis form: the rounding of each step
    # shows in the last bits if any step differs from NumPy's
    rng = np.random.default_rng(5)
    for shape in [(), (1,), (9,), (4, 7), (3, 4, 5), (3000,)]:
        a = rng.standard_normal(shape) * 10.0 ** rng.integers(-5, 5, size=shape)
        if np.dtype(dtype).kind == "c":
            a = a + 1j * rng.standard_normal(shape)
        a = np.asarray(a).astype(dtype)
        for axis in _axes(a.ndim):
            for keepdims in (False, True):
                _check("mean", a, axis, keepdims)
                for correction in (0, 1, 2.5):
                    _check("var", a, axis, keepdims, correction)
                    _check("std", a, axis, keepdims, correction)


def test_other_dtypes_and_empty_input_take_numpys_functions():
    # integers and float16 are summed by NumPy in a wider type; empty input
    # and a count at or below the correction give NaN
    for a in (np.arange(6).reshape(2, 3), np.ones(4, np.float16), np.ones((0, 3))):
        for axis in (None, 0):
            _check("mean", a, axis, False)
            _check("var", a, axis, False, 1)
    _check("std", np.ones(3), None, False, 3)
    _check("var", np.ones((2, 3)), 0, True, 2.5)


def test_front_end_values():
    x = xp.asarray([[1.0, 2.0, 4.0], [8.0, 16.0, 32.0]])
    n = np.asarray([[1.0, 2.0, 4.0], [8.0, 16.0, 32.0]])
    assert np.asarray(xp.mean(x, axis=1)).tobytes() == np.mean(n, axis=1).tobytes()
    assert float(xp.std(x, correction=1)) == float(np.std(n, ddof=1))
    assert float(xp.var(x)) == float(np.var(n))


def test_axis_forms_and_errors_are_numpys():
    # a NumPy integer axis (the dask backend's chunk kernels may pass one), a
    # negative one, and NumPy's AxisError out of range
    x = np.arange(12.0).reshape(3, 4) ** 1.5
    for axis, same_as in ((np.int64(1), 1), (np.intp(-1), -1), ((np.int32(0),), (0,))):
        for name in ("mean", "var", "std"):
            args = (axis, False) if name == "mean" else (axis, 1, False)
            want = (same_as, False) if name == "mean" else (same_as, 1, False)
            _same(KERNEL[name](x, *args), REF[name](x, *want))
    for name in ("mean", "var", "std"):
        _check(name, x, (0, -1), True, 1)
    for name in ("mean", "var", "std"):
        args = (x, 2, False) if name == "mean" else (x, 2, 0, False)
        with pytest.raises(np.exceptions.AxisError):
            KERNEL[name](*args)


@pytest.mark.skipif(
    np.dtype(np.clongdouble).itemsize <= 16, reason="no long double here"
)
def test_long_double_takes_numpys_own():
    # NumPy squares long double complex parts its own way (a NaN's sign differs
    # from the conjugate product): such input takes np.var itself
    x = np.array([complex(np.inf, 0), 0], np.clongdouble)
    for name in ("var", "std"):
        _check(name, x, None, False)
    _check("mean", np.array([1.0, 2.0], np.longdouble), None, False)
