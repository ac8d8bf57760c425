"""ocean_ext compute modes: sqrt, log, ..., pow with mode=, and compute_mode().

NumPy is the oracle: an element is out of domain exactly when NumPy's real
function gives NaN for it although no input is NaN; complex results are checked
against ``numpy.emath`` and ``cmath``.
"""

from __future__ import annotations

import asyncio
import cmath
import math
import os
import subprocess
import sys
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext
from ocean_ext import DomainError, DomainWarning

from ..helpers import CUDA_ULPS, flush_subnormals, on_cuda, within_ulps

# With the lazy dask device as the default (the separate whole-suite run),
# this module tests eager behaviour; the dask tests cover the lazy side
# (tests/backends/test_dask_backend.py).
pytestmark = pytest.mark.skipif(
    xp.__array_namespace_info__().default_device().kind == "dask",
    reason='compute modes other than "standard" refuse lazy arrays: they need the values',
)

# Modes other than "standard" refuse lazy (dask) arrays by design: deciding
# needs the values (tests/backends/test_dask_backend.py checks the error).
ALL_DEVICES = tuple(
    d for d in xp.__array_namespace_info__().devices() if d.kind != "dask"
)

ROOT = Path(__file__).resolve().parents[2]
MODES = ("standard", "warn", "raise", "complex")

# name -> (NumPy's real function, numpy.emath's, cmath's for one element)
UNARY = {
    "sqrt": (np.sqrt, np.emath.sqrt, cmath.sqrt),
    "log": (np.log, np.emath.log, cmath.log),
    "log2": (np.log2, np.emath.log2, lambda z: cmath.log(z) / math.log(2)),
    "log10": (np.log10, np.emath.log10, cmath.log10),
    "log1p": (np.log1p, None, lambda z: cmath.log(1 + z)),
    "acos": (np.arccos, np.emath.arccos, cmath.acos),
    "asin": (np.arcsin, np.emath.arcsin, cmath.asin),
    "acosh": (np.arccosh, None, cmath.acosh),
    "atanh": (np.arctanh, np.emath.arctanh, cmath.atanh),
}
COMPLEX_OF = {"float32": np.complex64, "float64": np.complex128}
RTOL = {"float32": 2e-5, "float64": 1e-12}


@pytest.fixture(autouse=True)
def _standard_mode_around_each_test():
    assert ocean_ext.get_compute_mode() == "standard", "a test leaked its mode"
    yield
    assert ocean_ext.get_compute_mode() == "standard", "this test leaked its mode"


# --- strategies ----------------------------------------------------------------
def _specials(dtype: str) -> list[float]:
    t = np.dtype(dtype).type
    one_up = float(np.nextafter(t(1), t(2)))
    one_down = float(np.nextafter(t(1), t(0)))
    vals = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.0, -2.0, 3.0, -3.0]
    vals += [one_up, one_down, -one_up, -one_down, math.inf, -math.inf, math.nan]
    vals += [float(np.finfo(dtype).max), -float(np.finfo(dtype).max)]
    vals += [float(np.finfo(dtype).smallest_subnormal), 1e-3, -1e-3]
    return [v for v in vals if np.isnan(v) or float(t(v)) == v]


def _elements(dtype: str) -> st.SearchStrategy[float]:
    width = 32 if dtype == "float32" else 64
    return st.one_of(
        st.sampled_from(_specials(dtype)),
        st.floats(width=width),
        st.floats(-4, 4, width=width),
        st.integers(-6, 6).map(float),
    )


def float_arrays(dtype: str, shape: object = None) -> st.SearchStrategy[np.ndarray]:
    if shape is None:
        shape = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)
    return hnp.arrays(dtype, shape, elements=_elements(dtype))


dtypes = st.sampled_from(["float32", "float64"])
devices = st.sampled_from(ALL_DEVICES)


# --- oracles -------------------------------------------------------------------
def _np(a: xp.Array) -> np.ndarray:
    return np.asarray(a.to_device(xp.__array_namespace_info__().default_device()))


def assert_identical(got: xp.Array, expected: np.ndarray) -> None:
    """Same dtype, shape and values, NaN and the sign of zero included (on a
    CUDA device: within a few ulps, see ``tests.helpers.within_ulps``)."""
    g = _np(got)
    assert str(got.dtype) == str(expected.dtype)
    assert g.shape == expected.shape
    if on_cuda(got.device):
        ok = within_ulps(g, expected)
        assert ok.all(), f"{g[~ok]} != {expected[~ok]} (beyond {CUDA_ULPS} ulps)"
        return
    np.testing.assert_array_equal(g, expected)
    nan = np.isnan(expected)
    np.testing.assert_array_equal(np.signbit(g)[~nan], np.signbit(expected)[~nan])


def assert_same_values(got: np.ndarray, expected: np.ndarray, device: object) -> None:
    """Equal values (on a CUDA device: within a few ulps)."""
    if on_cuda(device):
        ok = within_ulps(got, expected, signed_zeros=False)
        assert ok.all(), f"{got[~ok]} != {expected[~ok]} (beyond {CUDA_ULPS} ulps)"
    else:
        np.testing.assert_array_equal(got, expected)


def assert_close(got: np.ndarray, expected: np.ndarray, rtol: float) -> None:
    """Complex values equal up to ``rtol``, infinities and NaN where expected."""
    for part in (np.real, np.imag):
        g = part(got).astype(np.float64)
        e = part(expected).astype(np.float64)
        scale = np.where(np.isfinite(expected), np.abs(expected), 1.0)
        np.testing.assert_array_equal(np.isnan(g), np.isnan(e))
        np.testing.assert_array_equal(np.isinf(g), np.isinf(e))
        finite = np.isfinite(e)
        np.testing.assert_array_equal(
            g[~finite & ~np.isnan(e)], e[~finite & ~np.isnan(e)]
        )
        assert np.all(np.abs(g - e)[finite] <= rtol * scale[finite] + 1e-300)


def _out_of_domain(real_result: np.ndarray, *inputs: object) -> np.ndarray:
    """The oracle's definition: NaN result from non-NaN input."""
    mask = np.isnan(real_result)
    for a in inputs:
        mask = mask & ~np.isnan(a)
    return np.asarray(mask)


def _first(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0])


def _call_checking_warnings(
    func, *args, expect_warning: bool, quiet: bool = True, **kwargs
):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = func(*args, **kwargs)
    domain = [w for w in caught if issubclass(w.category, DomainWarning)]
    assert len(domain) == (1 if expect_warning else 0), [str(w.message) for w in caught]
    # mode "warn" computes without the out-of-domain input: no NumPy "invalid
    # value" warning doubles the DomainWarning (``quiet``: unless NumPy makes
    # NaN of in-domain input, see check_pow).
    if quiet:
        assert not [w for w in caught if "invalid value" in str(w.message)]
    return res, (str(domain[0].message) if domain else None)


# --- unary functions -------------------------------------------------------------
def check_unary(name: str, x_np: np.ndarray, device: object) -> None:
    real_func, emath_func, cmath_func = UNARY[name]
    if on_cuda(device):  # CuPy's kernels read float32 subnormals as zeros
        x_np = flush_subnormals(x_np)
    dtype = str(x_np.dtype)
    with np.errstate(all="ignore"):
        expected = np.asarray(real_func(x_np))
    outside = _out_of_domain(expected, x_np)
    count = int(outside.sum())
    x = xp.asarray(x_np, device=device)
    func = getattr(ocean_ext, name)
    standard = getattr(xp, name)(x)

    # "standard": exactly ocean_array_api's result (which is NumPy's)
    res = func(x, mode="standard")
    assert_identical(res, expected)
    assert_identical(standard, expected)
    assert res.device == device

    # "warn": the same values, one DomainWarning iff something is out of domain
    res, message = _call_checking_warnings(
        func, x, mode="warn", expect_warning=count > 0
    )
    assert_identical(res, expected)
    assert res.device == device
    if count:
        assert f"ocean_ext.{name}()" in message
        assert f"{count} of {x_np.size} element" in message

    # "raise"
    if count:
        with pytest.raises(DomainError) as info:
            func(x, mode="raise")
        msg = str(info.value)
        assert isinstance(info.value, ValueError)
        assert msg.startswith(f"ocean_ext.{name}(): {count} of {x_np.size} element")
        first = _first(outside) if x_np.ndim else ()
        assert f"x = {x_np[first]!s}" in msg
        if x_np.ndim:
            assert f"at index {first}:" in msg
    else:
        assert_identical(func(x, mode="raise"), expected)

    # "complex"
    res = func(x, mode="complex")
    assert res.device == device
    if not count:
        assert_identical(res, expected)
        return
    cdtype = COMPLEX_OF[dtype]
    assert str(res.dtype) == np.dtype(cdtype).name
    got = _np(res)
    assert got.shape == x_np.shape
    # in-domain elements: the real result, exactly, with a zero imaginary part
    assert_same_values(got.real[~outside], expected[~outside], device)
    assert np.all(got.imag[~outside] == 0)
    # out-of-domain elements: the principal value
    z = x_np.astype(cdtype)
    with np.errstate(all="ignore"):
        principal = np.asarray(real_func(z))  # the complex ufunc
        if emath_func is not None:
            em = np.asarray(emath_func(x_np))
            assert np.iscomplexobj(em)
            assert_close(got[outside], em[outside], RTOL[dtype])
    assert_close(got[outside], principal[outside], RTOL[dtype])
    for v, g in zip(x_np[outside], got[outside], strict=True):
        if math.isfinite(v):
            try:
                e = complex(cmath_func(complex(float(v), 0.0)))
            except (ValueError, OverflowError):
                continue
            assert abs(complex(g) - e) <= 10 * RTOL[dtype] * abs(e), (v, g, e)


@pytest.mark.parametrize("name", sorted(UNARY))
@given(data=st.data())
def test_unary_modes_against_numpy(name, data):
    dtype = data.draw(dtypes, label="dtype")
    x_np = data.draw(float_arrays(dtype), label="x")
    check_unary(name, x_np, data.draw(devices, label="device"))


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unary_special_values(name, dtype):
    x_np = np.array(_specials(dtype), dtype=dtype)
    check_unary(name, x_np, ALL_DEVICES[0])
    check_unary(name, x_np.reshape(-1, 1)[::2], ALL_DEVICES[-1])
    for v in x_np:
        check_unary(name, np.asarray(v), ALL_DEVICES[0])


@pytest.mark.parametrize(
    ("name", "value", "result"),
    [
        ("log", 0.0, -math.inf),
        ("log", -0.0, -math.inf),
        ("log2", 0.0, -math.inf),
        ("log10", 0.0, -math.inf),
        ("log1p", -1.0, -math.inf),
        ("atanh", 1.0, math.inf),
        ("atanh", -1.0, -math.inf),
        ("acos", 1.0, 0.0),
        ("acos", -1.0, math.pi),
        ("asin", 1.0, math.pi / 2),
        ("acosh", 1.0, 0.0),
        ("sqrt", -0.0, -0.0),
    ],
)
@pytest.mark.parametrize("mode", MODES)
def test_poles_and_boundaries_are_in_domain(name, value, result, mode):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DomainWarning)
        res = getattr(ocean_ext, name)(
            xp.asarray([value, 0.5 + (name == "acosh")]), mode=mode
        )
    assert res.dtype == xp.float64
    assert float(res[0]) == result
    assert math.copysign(1, float(res[0])) == math.copysign(1, result)


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("mode", MODES)
def test_nan_is_not_out_of_domain(name, mode):
    x = xp.asarray([math.nan, 0.5 + (name == "acosh")], dtype=xp.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DomainWarning)
        res = getattr(ocean_ext, name)(x, mode=mode)
    assert res.dtype == xp.float32
    assert math.isnan(float(res[0]))


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_input_is_always_in_domain(name, mode, dtype):
    z = xp.asarray(
        [-4.0 + 0j, 2.0 + 1j, 3.0 - 0j, complex(-math.inf, 0)], dtype=getattr(xp, dtype)
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", DomainWarning)
        res = getattr(ocean_ext, name)(z, mode=mode)
    expected = getattr(xp, name)(z)
    assert res.dtype == expected.dtype
    np.testing.assert_array_equal(_np(res), _np(expected))


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("mode", [None, *MODES])
def test_non_floating_input_raises_like_ocean_array_api(name, mode):
    func = getattr(ocean_ext, name)
    for bad in (
        xp.asarray([1, -4]),
        xp.asarray([True]),
        [1.0, -4.0],
        -4.0,
        np.asarray([-4.0]),
    ):
        with pytest.raises(TypeError) as ours:
            func(bad, mode=mode)
        with pytest.raises(TypeError) as theirs:
            getattr(xp, name)(bad)
        assert str(ours.value) == str(theirs.value)


def test_float32_gives_complex64_and_float64_complex128():
    for dt, cdt in ((xp.float32, xp.complex64), (xp.float64, xp.complex128)):
        x = xp.asarray([-4.0, 4.0], dtype=dt)
        assert ocean_ext.sqrt(x, mode="complex").dtype == cdt
        assert ocean_ext.sqrt(-x * -x, mode="complex").dtype == dt
        assert ocean_ext.pow(x, 0.5, mode="complex").dtype == cdt
        assert ocean_ext.pow(x, 2.0, mode="complex").dtype == dt


def test_float16_extension_dtype():
    float16 = getattr(ocean_ext, "float16", None)
    if float16 is None:
        pytest.skip("ocean_ext.float16 is not available")
    x = xp.asarray([-4.0, 4.0], dtype=float16)
    with pytest.raises(DomainError, match=r"sqrt\(\): 1 of 2 elements .* x = -4.0"):
        ocean_ext.sqrt(x, mode="raise")
    with pytest.warns(DomainWarning):
        res = ocean_ext.log(x, mode="warn")
    assert res.dtype == float16
    assert math.isnan(float(res[0]))
    with pytest.raises(DomainError, match=r"x1 = -4.0, x2 = 0.5"):
        ocean_ext.pow(x, 0.5, mode="raise")
    res = ocean_ext.sqrt(x, mode="complex")
    assert res.dtype == ocean_ext.complex32
    assert complex(res[0]) == 2j
    assert complex(res[1]) == 2
    assert ocean_ext.sqrt(x * x, mode="complex").dtype == float16


def test_empty_and_zero_dimensional_input():
    empty = xp.asarray(np.empty((0, 3)))
    for mode in MODES:
        res = ocean_ext.sqrt(empty, mode=mode)
        assert res.shape == (0, 3)
        assert res.dtype == xp.float64
    res = ocean_ext.log(xp.asarray(-1.0, dtype=xp.float32), mode="complex")
    assert res.shape == ()
    assert res.dtype == xp.complex64
    assert complex(res) == pytest.approx(complex(0, math.pi))
    with pytest.raises(
        DomainError, match=r"1 of 1 element lies outside the domain x >= 0 \(x = -1.0\)"
    ):
        ocean_ext.log(xp.asarray(-1.0), mode="raise")


def test_log1p_keeps_its_accuracy_in_a_complex_result():
    res = ocean_ext.log1p(xp.asarray([-3.0, 1e-20]), mode="complex")
    assert complex(res[1]) == complex(1e-20, 0)
    assert complex(res[0]) == pytest.approx(cmath.log(-2))


def test_error_message_names_function_count_and_first_value():
    x = xp.asarray([[0.5, 2.0], [-3.0, 0.25]], dtype=xp.float32)
    with pytest.raises(DomainError) as info:
        ocean_ext.acos(x, mode="raise")
    assert str(info.value) == (
        "ocean_ext.acos(): 2 of 4 elements lie outside the domain -1 <= x <= 1 "
        "(the first at index (0, 1): x = 2.0); pass mode='complex' for a complex "
        "result, or mode='standard' for NaN"
    )
    with pytest.warns(
        DomainWarning, match=r"ocean_ext.acos\(\): 2 of 4 elements"
    ) as rec:
        ocean_ext.acos(x, mode="warn")
    assert rec[0].filename == __file__  # attributed to the caller


# --- pow -------------------------------------------------------------------------
def check_pow(x1: object, x2: object, device: object) -> None:
    if on_cuda(device):  # CuPy's kernels read float32 subnormals as zeros
        x1, x2 = flush_subnormals(x1), flush_subnormals(x2)
    with np.errstate(all="ignore"):
        expected = np.asarray(
            np.power(x1, x2)
        )  # NEP 50: scalars take the array's dtype
    dtype = str(expected.dtype)
    if (
        expected.dtype.kind == "f"
        and np.size(x2) == 1
        and np.all(np.asarray(x2) == 0.5)
    ):
        # NumPy takes sqrt() for a one-element exponent of 0.5; the standard
        # (and ocean_array_api) give +inf for -inf and +0 for -0.
        base = np.broadcast_to(np.asarray(x1, dtype=dtype), expected.shape)
        expected = np.where(np.isneginf(base), np.inf, expected).astype(dtype)
        expected = np.where(base == 0, 0.0, expected).astype(dtype)
    # The standard's special case for NaN: a finite negative x1 with a finite
    # non-integer x2.
    b1, b2 = (
        np.broadcast_to(np.asarray(v, dtype=dtype), expected.shape) for v in (x1, x2)
    )
    with np.errstate(all="ignore"):
        outside = (b1 < 0) & np.isfinite(b1) & np.isfinite(b2) & (np.floor(b2) != b2)
    count = int(outside.sum())
    t1 = xp.asarray(x1, device=device) if isinstance(x1, np.ndarray) else x1
    t2 = xp.asarray(x2, device=device) if isinstance(x2, np.ndarray) else x2

    assert_identical(ocean_ext.pow(t1, t2, mode="standard"), expected)
    assert_identical(xp.pow(t1, t2), expected)

    nan_inside = np.isnan(expected) & ~outside & ~np.isnan(b1) & ~np.isnan(b2)
    res, message = _call_checking_warnings(
        ocean_ext.pow,
        t1,
        t2,
        mode="warn",
        expect_warning=count > 0,
        quiet=not nan_inside.any(),
    )
    assert_identical(res, expected)
    assert res.device == device
    if count:
        assert f"ocean_ext.pow(): {count} of {expected.size} element" in message

    if count:
        with pytest.raises(DomainError) as info:
            ocean_ext.pow(t1, t2, mode="raise")
        msg = str(info.value)
        first = _first(outside) if expected.ndim else ()
        # each value as its own operand stores it (a scalar: as the result dtype)
        v1, v2 = (
            np.broadcast_to(v, expected.shape)[first]
            if isinstance(v, np.ndarray)
            else np.asarray(v, dtype=dtype)[()]
            for v in (x1, x2)
        )
        assert f"x1 = {v1!s}, x2 = {v2!s}" in msg
    else:
        assert_identical(ocean_ext.pow(t1, t2, mode="raise"), expected)

    res = ocean_ext.pow(t1, t2, mode="complex")
    assert res.device == device
    if not count:
        assert_identical(res, expected)
        return
    assert str(res.dtype) == np.dtype(COMPLEX_OF[dtype]).name
    got = _np(res)
    assert_same_values(got.real[~outside], expected[~outside], device)
    assert np.all(got.imag[~outside] == 0)
    with np.errstate(all="ignore"):
        em = np.asarray(np.emath.power(b1, b2))  # in the precision of the result
    assert np.iscomplexobj(em)
    assert_close(got[outside], em[outside], RTOL[dtype])


@given(data=st.data())
def test_pow_arrays_against_numpy(data):
    d1 = data.draw(dtypes, label="dtype1")
    d2 = data.draw(st.sampled_from([d1, "float32", "float64"]), label="dtype2")
    shapes = data.draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4)
    )
    x1 = data.draw(float_arrays(d1, shapes.input_shapes[0]), label="x1")
    x2 = data.draw(float_arrays(d2, shapes.input_shapes[1]), label="x2")
    check_pow(x1, x2, data.draw(devices, label="device"))


@given(data=st.data())
def test_pow_with_a_python_scalar_against_numpy(data):
    dtype = data.draw(dtypes, label="dtype")
    x = data.draw(float_arrays(dtype), label="x")
    scalar = data.draw(
        st.one_of(
            _elements("float64"),
            st.integers(-5, 5),
            st.sampled_from([0.5, -0.5, 1e-50, 1e300]),
        ),
        label="scalar",
    )
    device = data.draw(devices, label="device")
    if data.draw(st.booleans(), label="scalar first"):
        check_pow(scalar, x, device)
    else:
        check_pow(x, scalar, device)


def test_pow_special_pairs():
    vals = np.array(_specials("float64"))
    x1, x2 = np.meshgrid(vals, vals, indexing="ij")
    check_pow(x1, x2, ALL_DEVICES[0])
    check_pow(x1.astype(np.float32), x2.astype(np.float32), ALL_DEVICES[-1])
    # in the domain: negative base with integer or infinite exponent, infinite base
    for a, b in [
        (-2.0, 3.0),
        (-2.0, -2.0),
        (-2.0, math.inf),
        (-0.5, -math.inf),
        (-math.inf, 0.5),
        (math.nan, 0.0),
        (1.0, math.nan),
    ]:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DomainWarning)
            res = ocean_ext.pow(xp.asarray([a]), xp.asarray([b]), mode="raise")
        expected = float(xp.pow(xp.asarray([a]), xp.asarray([b]))[0])
        assert float(res[0]) == pytest.approx(expected, nan_ok=True)


def test_pow_scalar_is_taken_as_the_array_dtype_stores_it():
    # 1e-50 is 0 in float32: an integer exponent, in domain (NumPy gives 1)
    x = xp.asarray([-2.0], dtype=xp.float32)
    assert float(ocean_ext.pow(x, 1e-50, mode="raise")[0]) == 1.0
    with pytest.raises(DomainError):
        ocean_ext.pow(xp.asarray([-2.0]), 1e-50, mode="raise")


def test_pow_integer_and_complex_operands_follow_ocean_array_api():
    i = xp.asarray([-2, 3, 0])
    for mode in MODES:
        assert xp.all(ocean_ext.pow(i, 2, mode=mode) == xp.pow(i, 2))
        assert ocean_ext.pow(i, 2, mode=mode).dtype == xp.int64
        z = ocean_ext.pow(xp.asarray([-1.0]), 0.5j, mode=mode)
        assert z.dtype == xp.complex128
        with pytest.raises(TypeError):
            ocean_ext.pow(i, 0.5, mode=mode)  # a float scalar with an integer array
        with pytest.raises(TypeError):
            ocean_ext.pow(2.0, 0.5, mode=mode)  # no array at all


def test_pow_device_mixing_raises_in_every_mode(other_device):
    a = xp.asarray([-2.0])
    b = xp.asarray([0.5], device=other_device)
    for mode in MODES:
        with pytest.raises(ValueError, match="to_device"):
            ocean_ext.pow(a, b, mode=mode)


# --- mode arguments ------------------------------------------------------------
@pytest.mark.parametrize("name", [*sorted(UNARY), "pow"])
def test_bad_mode(name):
    func = getattr(ocean_ext, name)
    args = (xp.asarray([4.0]),) if name != "pow" else (xp.asarray([4.0]), 2.0)
    with pytest.raises(
        ValueError,
        match=rf"ocean_ext\.{name}\(\): `mode` must be 'standard', 'warn', 'raise' or 'complex', got 'Complex'",
    ):
        func(*args, mode="Complex")
    with pytest.raises(TypeError, match=rf"ocean_ext\.{name}\(\): `mode` must be"):
        func(*args, mode=1)
    with pytest.raises(TypeError):
        func(*args, "complex")  # mode is keyword-only


def test_bad_mode_in_compute_mode_raises_at_the_call():
    with pytest.raises(
        ValueError, match=r"ocean_ext\.compute_mode\(\): `mode` must be 'standard'"
    ):
        ocean_ext.compute_mode("complx")
    with pytest.raises(TypeError, match="compute_mode"):
        ocean_ext.compute_mode(None)


# --- compute_mode scoping --------------------------------------------------------
def test_compute_mode_sets_the_default_and_explicit_mode_wins():
    x = xp.asarray([-4.0, 4.0])
    with ocean_ext.compute_mode("complex") as mode:
        assert mode == "complex"
        assert ocean_ext.get_compute_mode() == "complex"
        assert ocean_ext.sqrt(x).dtype == xp.complex128
        assert ocean_ext.sqrt(x, mode=None).dtype == xp.complex128
        assert ocean_ext.sqrt(x, mode="standard").dtype == xp.float64
        with pytest.raises(DomainError):
            ocean_ext.sqrt(x, mode="raise")
        with ocean_ext.compute_mode("raise"), pytest.raises(DomainError):
            ocean_ext.pow(x, 0.5)
        assert ocean_ext.get_compute_mode() == "complex"
    assert ocean_ext.sqrt(x).dtype == xp.float64


def test_compute_mode_is_restored_after_an_exception():
    with ocean_ext.compute_mode("warn"):
        with pytest.raises(DomainError), ocean_ext.compute_mode("raise"):
            ocean_ext.log(xp.asarray([-1.0]))
        assert ocean_ext.get_compute_mode() == "warn"
    assert ocean_ext.get_compute_mode() == "standard"


@pytest.mark.parametrize("mode", MODES)
def test_ocean_array_api_is_unaffected(mode):
    x = xp.asarray([-4.0, 4.0])
    with ocean_ext.compute_mode(mode), warnings.catch_warnings():
        warnings.simplefilter("error", DomainWarning)
        for name in UNARY:
            res = getattr(xp, name)(x)
            assert res.dtype == xp.float64
        res = xp.sqrt(x)
        assert math.isnan(float(res[0]))
        assert float(res[1]) == 2.0
        assert xp.pow(x, 0.5).dtype == xp.float64
        assert (x**0.5).dtype == xp.float64


def test_standard_mode_runs_only_the_kernel_and_other_modes_one_check():
    x = xp.asarray([0.25, 4.0])
    with ocean_ext.instrument() as stats:
        ocean_ext.sqrt(x)
    assert {k: stats[k].count for k in stats} == {"sqrt": 1}
    with ocean_ext.instrument() as stats:
        ocean_ext.sqrt(x, mode="complex")
    assert {k: stats[k].count for k in stats} == {"less": 1, "any": 1, "sqrt": 1}


def test_threads_have_their_own_mode():
    barrier = threading.Barrier(3)
    seen: dict[str, object] = {}
    x = xp.asarray([-4.0, 4.0])

    def worker(mode: str) -> None:
        try:
            with ocean_ext.compute_mode(mode):
                barrier.wait(timeout=10)  # every thread is inside its block now
                if mode == "raise":
                    try:
                        ocean_ext.sqrt(x)
                        seen[mode] = "no error"
                    except DomainError:
                        seen[mode] = "DomainError"
                else:
                    seen[mode] = (ocean_ext.get_compute_mode(), ocean_ext.sqrt(x).dtype)
                barrier.wait(timeout=10)
        except Exception as exc:  # pragma: no cover - reported below
            seen[mode] = exc

    threads = [threading.Thread(target=worker, args=(m,)) for m in ("complex", "raise")]
    for t in threads:
        t.start()
    with ocean_ext.compute_mode("standard"):
        barrier.wait(timeout=10)
        assert ocean_ext.get_compute_mode() == "standard"
        assert ocean_ext.sqrt(x).dtype == xp.float64
        barrier.wait(timeout=10)
    for t in threads:
        t.join()
    assert seen == {"complex": ("complex", xp.complex128), "raise": "DomainError"}


def test_a_new_thread_does_not_see_the_mode_of_its_creator():
    seen = []
    with ocean_ext.compute_mode("complex"):
        t = threading.Thread(target=lambda: seen.append(ocean_ext.get_compute_mode()))
        t.start()
        t.join()
    inherits = bool(getattr(sys.flags, "thread_inherit_context", 0))
    assert seen == ["complex" if inherits else "standard"]


def test_asyncio_tasks_have_their_own_mode():
    x = xp.asarray([-4.0])

    async def task(mode: str, log: list[tuple[str, str]]) -> None:
        with ocean_ext.compute_mode(mode):
            for _ in range(3):
                await asyncio.sleep(0)  # let the other task run inside its block
                log.append((mode, ocean_ext.get_compute_mode()))
            if mode == "complex":
                assert ocean_ext.sqrt(x).dtype == xp.complex128

    async def main() -> list[tuple[str, str]]:
        log: list[tuple[str, str]] = []
        with ocean_ext.compute_mode("warn"):
            await asyncio.gather(task("complex", log), task("raise", log))
            assert ocean_ext.get_compute_mode() == "warn"
            # a task created inside a block starts with the block's mode
            inherited = await asyncio.create_task(_current_mode())
            assert inherited == "warn"
        return log

    log = asyncio.run(main())
    assert len(log) == 6
    assert all(mode == seen for mode, seen in log)
    assert ocean_ext.get_compute_mode() == "standard"


async def _current_mode() -> str:
    return ocean_ext.get_compute_mode()


# --- the conformance plugin ----------------------------------------------------
def _run_pytest(
    tmp_path: Path, test_source: str, *args: str
) -> subprocess.CompletedProcess[str]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_plugin_target.py").write_text(test_source)
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "conformance.compute_mode_plugin",
            *args,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


_TARGET = """
import math
import ocean_array_api as xp
import ocean_ext

def test_mode_is_active():
    assert ocean_ext.get_compute_mode() == "complex"
    assert ocean_ext.sqrt(xp.asarray([-1.0])).dtype == xp.complex128
    assert math.isnan(float(xp.sqrt(xp.asarray(-1.0))))

def test_second():
    assert ocean_ext.get_compute_mode() == "complex"
"""


def test_conformance_plugin_runs_the_session_in_the_mode(tmp_path):
    proc = _run_pytest(tmp_path, _TARGET, "-W", "ignore::RuntimeWarning")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (
        "ocean_ext.compute_mode('complex') was active in 2 test function call(s)"
        in proc.stdout
    )


def test_conformance_plugin_under_xdist(tmp_path):
    # pytest-xdist is in the `test` extra; skip only where it was not installed.
    pytest.importorskip("xdist")
    proc = _run_pytest(tmp_path, _TARGET, "-W", "ignore::RuntimeWarning", "-n", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "was active in 2 test function call(s)" in proc.stdout


def test_conformance_plugin_fails_a_test_that_runs_outside_the_mode(tmp_path):
    source = (
        _TARGET
        + """
import pytest

@pytest.fixture(autouse=True)
def _leave_the_mode():
    with ocean_ext.compute_mode("standard"):
        yield
"""
    )
    proc = _run_pytest(tmp_path, source, "-W", "ignore::RuntimeWarning")
    assert proc.returncode == 1
    assert "2 failed" in proc.stdout
    assert "is 'standard' in the thread running this test, not 'complex'" in proc.stdout


def test_conformance_plugin_mode_option(tmp_path):
    proc = _run_pytest(tmp_path, _TARGET, "--ocean-compute-mode=raise")
    assert proc.returncode == 1
    assert "ocean_ext.compute_mode('raise') was active in 2" in proc.stdout


# --- the context manager object itself (issue 12 item 7) ----------------------
def test_a_compute_mode_object_can_be_entered_again_and_nested():
    # Entering the same object twice raised AttributeError from contextlib.
    cm = ocean_ext.compute_mode("complex")
    with cm as mode:
        assert mode == "complex"
        with ocean_ext.compute_mode("raise"), cm:
            assert ocean_ext.get_compute_mode() == "complex"
        assert ocean_ext.get_compute_mode() == "complex"
    assert ocean_ext.get_compute_mode() == "standard"
    with cm:
        assert ocean_ext.sqrt(xp.asarray(-4.0)).dtype == xp.complex128
    assert ocean_ext.get_compute_mode() == "standard"


def test_a_compute_mode_object_shared_by_threads_restores_each_threads_mode():
    cm = ocean_ext.compute_mode("warn")
    seen: list[str] = []
    barrier = threading.Barrier(2)

    def work(outer: str) -> None:
        with ocean_ext.compute_mode(outer):
            with cm:
                barrier.wait()
                seen.append(ocean_ext.get_compute_mode())
            barrier.wait()
            seen.append(ocean_ext.get_compute_mode())

    threads = [threading.Thread(target=work, args=(m,)) for m in ("raise", "complex")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(seen) == ["complex", "raise", "warn", "warn"]
