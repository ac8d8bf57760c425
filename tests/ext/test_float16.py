"""ocean_ext.float16: creation, conversion, kernels, promotion, exchange.

The oracle is NumPy's float32 on the same (half) values, rounded to float16;
add, subtract, multiply, divide, sqrt and the comparisons must match it bit
for bit on both the AVX2/F16C loops and the portable ones.  Functions that
run on NumPy's own float16 loops are checked against NumPy's float16.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
from ocean_ext import complex32, float16

from ..helpers import CPU0, to_np
from .halfprec_support import (
    NO_ARRAY_ARGUMENT,
    SWEEP,
    cancelling_halves,
    check_sweep_case,
    cpu_halfprec,
    needs_kernels,
    proxy_accepts,
    public_callables,
    round_f32,
    same_bits,
)

F16 = np.dtype(np.float16)

fixture_ok = settings(
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ]
)


@pytest.fixture(params=["avx512", "avx2", "portable"])
def loops(request):
    """Run a test on each level of compiled loops this CPU has."""
    level = {"avx512": 2, "avx2": 1, "portable": 0}[request.param]
    if level > cpu_halfprec.max_simd_level():
        pytest.skip(f"this CPU has no {request.param} loops")
    previous = cpu_halfprec.set_simd(level)
    yield request.param
    cpu_halfprec.set_simd(previous)


half = st.floats(width=16, allow_nan=True, allow_infinity=True)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=7)


@st.composite
def halves(draw, shape=None, elements=half):
    return draw(
        hnp.arrays(F16, draw(shapes) if shape is None else shape, elements=elements)
    )


@st.composite
def two_halves(draw, elements=half):
    a, b = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=7)
    ).input_shapes
    return draw(halves(a, elements)), draw(halves(b, elements))


def f16(a):
    return xp.asarray(to_np(a, dtype=F16), dtype=float16)


def layout(x, how):
    if how == "contiguous" or x.ndim == 0:
        return x
    if how == "strided":
        return xp.concat([xp.expand_dims(x, axis=-1)] * 2, axis=-1)[..., 1]
    return xp.flip(xp.flip(x))


# --- creation and conversion ----------------------------------------------------------
def test_creation():
    a = xp.asarray([0.1, 1, 65520.0, -1e-8], dtype=float16)
    assert a.dtype == float16
    same_bits(to_np(a), np.array([0.1, 1, np.inf, -0.0], F16))
    np.testing.assert_array_equal(
        to_np(xp.ones((2, 2), dtype=float16)), np.ones((2, 2), F16)
    )
    np.testing.assert_array_equal(to_np(xp.zeros(3, dtype=float16)), np.zeros(3, F16))
    np.testing.assert_array_equal(to_np(xp.full(2, 2.5, dtype=float16)), [2.5, 2.5])
    np.testing.assert_array_equal(to_np(xp.eye(2, dtype=float16)), np.eye(2, dtype=F16))
    np.testing.assert_array_equal(
        to_np(xp.linspace(0, 1, 11, dtype=float16)),
        np.linspace(0, 1, 11).astype(F16),
    )
    assert xp.empty_like(a).dtype == float16
    assert xp.full_like(a, 3).dtype == float16
    # Sharing NumPy memory and a repr with values: the CPU's (explicitly, when
    # the suite runs with the lazy dask device as the default)
    host = np.array([1.5, 2.5], dtype=F16)
    view = xp.asarray(host, dtype=float16, copy=False, device=CPU0)
    host[0] = 7
    assert float(view[0]) == 7  # no copy
    shown = a if a.device == CPU0 else a.to_device(CPU0)
    assert repr(shown[:2]) == "Array([0.1, 1. ], dtype=float16)"
    with pytest.raises(TypeError):
        xp.full(2, 1j, dtype=float16)


NUMERIC = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "bool")  # fmt: skip


def _dt(name):
    return getattr(xp, name)


@pytest.mark.parametrize("other", NUMERIC)
def test_astype_both_ways(loops, other):
    src = np.array([0, 1, 3, 100, 2048, 2049], dtype=np.int64)
    if other == "bool":
        src = src % 2
    x = xp.asarray(src.astype(other))
    h = xp.astype(x, float16)
    assert h.dtype == float16
    np.testing.assert_array_equal(to_np(h), src.astype(other).astype(F16))
    back = xp.astype(h, _dt(other))
    assert back.dtype == _dt(other)
    np.testing.assert_array_equal(
        to_np(back), src.astype(other).astype(F16).astype(other)
    )


@fixture_ok
@given(data=halves())
def test_float32_round_trip(loops, data):
    f = xp.asarray(data.astype(np.float32))
    h = xp.astype(f, float16)
    same_bits(to_np(h), data)
    same_bits(to_np(xp.astype(h, xp.float32)), data.astype(np.float32))
    vals = xp.asarray(
        np.array([0.1, 65519.0, 65520.0, 2.0**-25, 2.0**-24 * 1.5, -np.inf], np.float32)
    )
    same_bits(to_np(xp.astype(vals, float16)), to_np(vals).astype(F16))


def test_astype_to_and_from_complex():
    h = xp.asarray([1.5, -2.0], dtype=float16)
    for dt in (complex32, xp.complex64, xp.complex128):
        z = xp.astype(h, dt)
        assert z.dtype == dt
        np.testing.assert_array_equal(to_np(z), [1.5, -2.0])
    with pytest.raises(TypeError):
        xp.astype(xp.ones(2, dtype=xp.complex64), float16)


def test_scalars_printing_numpy():
    h = xp.asarray(2.5, dtype=float16)
    assert float(h) == 2.5
    assert int(h) == 2
    assert bool(h)
    assert complex(h) == 2.5
    with pytest.raises(TypeError):
        h.__index__()
    assert to_np(xp.ones(2, dtype=float16)).dtype == np.float16
    assert np.from_dlpack(xp.ones(2, dtype=float16)).dtype == np.float16


# --- promotion -----------------------------------------------------------------------
def test_promotion():
    h = xp.asarray([1.5], dtype=float16)
    assert (h + xp.asarray([1.0], dtype=xp.float32)).dtype == xp.float32
    assert (xp.asarray([1.0]) * h).dtype == xp.float64
    assert (h + 1).dtype == float16
    assert (h * 0.5).dtype == float16
    assert (h + 1j).dtype == complex32
    assert (h + xp.ones(1, dtype=xp.complex64)).dtype == xp.complex64
    for other in (xp.int8, xp.uint64, xp.bool):
        with pytest.raises(TypeError):
            h + xp.ones(1, dtype=other)
    with pytest.raises(TypeError):
        h + True
    assert xp.can_cast(float16, xp.float32)
    assert not xp.can_cast(xp.float32, float16)


# --- kernels against the oracle ---------------------------------------------------------
BINARY = {
    "add": np.add,
    "subtract": np.subtract,
    "multiply": np.multiply,
    "divide": np.divide,
}


@pytest.mark.parametrize("name", BINARY)
@fixture_ok
@given(data=two_halves(), how=st.sampled_from(["contiguous", "strided", "reversed"]))
def test_arithmetic_is_float32_rounded(loops, name, data, how):
    a, b = data
    with np.errstate(all="ignore"):
        got = getattr(xp, name)(layout(f16(a), how), f16(b))
        want = BINARY[name](a.astype(np.float32), b.astype(np.float32)).astype(F16)
    assert got.dtype == float16
    same_bits(to_np(got), want)


@pytest.mark.parametrize("scalar", [3, -0.5, 1e6])
@fixture_ok
@given(data=halves())
def test_scalar_operands(loops, scalar, data):
    with np.errstate(all="ignore"):
        s = np.float32(np.float16(scalar))
        same_bits(to_np(f16(data) * scalar), (data.astype(np.float32) * s).astype(F16))
        same_bits(to_np(scalar - f16(data)), (s - data.astype(np.float32)).astype(F16))


@fixture_ok
@given(data=two_halves())
def test_comparisons(loops, data):
    a, b = data
    x, y = f16(a), f16(b)
    for op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        np.testing.assert_array_equal(
            to_np(getattr(xp, op)(x, y)), getattr(np, op)(a, b)
        )


@fixture_ok
@given(data=halves(), how=st.sampled_from(["contiguous", "strided", "reversed"]))
def test_sqrt_is_float32_rounded(loops, data, how):
    with np.errstate(all="ignore"):
        same_bits(
            to_np(xp.sqrt(layout(f16(data), how))),
            np.sqrt(data.astype(np.float32)).astype(F16),
        )


ON_NUMPY = ("abs", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan",
            "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh",
            "floor", "ceil", "trunc", "round", "sign", "signbit", "isnan", "isinf",
            "isfinite", "negative", "positive", "square", "reciprocal", "real", "conj")  # fmt: skip


@pytest.mark.parametrize("name", ON_NUMPY)
@given(data=halves())
def test_other_elementwise_functions(name, data):
    with np.errstate(all="ignore"):
        got = getattr(xp, name)(f16(data))
        want = to_np(getattr(xp, name)(xp.asarray(data.astype(np.float32))))
    assert got.dtype == (xp.bool if want.dtype == bool else float16)
    g = to_np(got)
    if want.dtype == bool:
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(
            g.astype(np.float32), round_f32(want), rtol=2.0**-10, equal_nan=True
        )


def test_ordering_functions_work():
    a, b = f16([3, -1, np.nan]), f16([1, 1, 1])
    np.testing.assert_array_equal(to_np(xp.maximum(a, b)), [3, 1, np.nan])
    np.testing.assert_array_equal(to_np(xp.atan2(a, b)), np.arctan2(to_np(a), to_np(b)))
    assert xp.floor(f16([1.5])).dtype == float16
    with pytest.raises(TypeError):
        xp.imag(a)
    with pytest.raises(TypeError):
        xp.bitwise_and(a, a)


# --- reductions, linear algebra, fft -------------------------------------------------------
@pytest.mark.parametrize("name", ["sum", "prod", "mean"])
@fixture_ok
@given(
    data=halves(elements=st.floats(-4, 4, width=16)),
    axis=st.sampled_from([None, 0, -1, (0, 1), ()]),
    keepdims=st.booleans(),
)
def test_reductions(loops, name, data, axis, keepdims):
    nd = data.ndim
    if axis is not None and (nd == 0 or (isinstance(axis, tuple) and len(axis) > nd)):
        return
    ref = data.astype(np.float64)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's mean of nothing
        want = getattr(np, name)(ref, axis=axis, keepdims=keepdims)
        got = getattr(xp, name)(f16(data), axis=axis, keepdims=keepdims)
    assert got.dtype == float16
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(
        to_np(got).astype(np.float64),
        round_f32(want),
        rtol=2.0**-10,
        atol=2.0**-14,
        equal_nan=True,
    )


def test_sum_accumulates_in_float32_or_wider(loops):
    h = xp.full(100_000, 0.1, dtype=float16)
    assert float(xp.sum(h)) == float(np.float16(100_000 * np.float64(np.float16(0.1))))
    assert float(xp.sum(h, dtype=xp.float64)) == pytest.approx(
        100_000 * float(np.float16(0.1))
    )
    assert float(xp.mean(h)) == float(np.float16(0.1))
    assert xp.sum(h, dtype=complex32).dtype == complex32
    with pytest.raises(TypeError):
        xp.sum(h, dtype=xp.int64)


@settings(fixture_ok, max_examples=200)
@given(
    data=cancelling_halves(), how=st.sampled_from(["contiguous", "strided", "reversed"])
)
def test_sum_is_exact_in_every_loop_and_layout(loops, data, how):
    """Halves are multiples of 2**-24 below 2**16: a double holds the sum of
    up to 2**13 of them exactly, so every loop (SIMD on contiguous data,
    scalar on strided) must give math.fsum's value, rounded once to half."""
    exact = math.fsum(data.astype(np.float64).tolist())
    x = layout(f16(data), how)
    assert float(xp.sum(x, dtype=xp.float64)) == exact
    same_bits(to_np(xp.sum(x)), np.asarray(exact).astype(F16))


def test_sum_keeps_what_cancellation_leaves(loops):
    # in binary32 lanes 65504 + 2**-14 lost the 2**-14, leaving 0 after -65504
    a = np.zeros(96, F16)
    a[[0, 32, 64]] = 65504, 2.0**-14, -65504
    assert float(xp.sum(f16(a))) == 2.0**-14
    assert float(xp.sum(f16(a), dtype=xp.float64)) == 2.0**-14
    assert float(xp.mean(f16(a))) == float(np.float16(2.0**-14 / 96))


@fixture_ok
@given(
    a=halves(shape=(4, 3), elements=st.floats(-4, 4, width=16)),
    b=halves(shape=(3, 2), elements=st.floats(-4, 4, width=16)),
)
def test_matmul_vecdot(loops, a, b):
    got = f16(a) @ f16(b)
    assert got.dtype == float16
    np.testing.assert_allclose(
        to_np(got).astype(np.float64),
        round_f32(a.astype(np.float64) @ b),
        rtol=2.0**-10,
        atol=2.0**-12,
    )
    v = xp.vecdot(f16(a), f16(a))
    np.testing.assert_allclose(
        to_np(v).astype(np.float64),
        round_f32((a.astype(np.float64) ** 2).sum(-1)),
        rtol=2.0**-10,
        atol=2.0**-12,
    )


def test_rfft():
    x = f16([1.0, 0.5, -2.0, 3.0])
    r = xp.fft.rfft(x)
    assert r.dtype == complex32
    assert xp.fft.irfft(r).dtype == float16


# --- every function: a right result, or a TypeError ---------------------------------------
def test_the_sweep_covers_every_public_function():
    covered = {name.split("[")[0] for name in SWEEP} | NO_ARRAY_ARGUMENT
    assert not [n for n in public_callables() if n not in covered]


@pytest.mark.parametrize("name", sorted(SWEEP))
def test_every_function_is_right_or_refuses_as_float32_does(loops, name):
    want = "supported" if proxy_accepts(name, float16) else "rejected"
    assert check_sweep_case(name, float16) == want


@needs_kernels
def test_compiled_loops_are_in_the_table():
    ops = CPU0._ops  # the CPU table (other devices run these kernels per chunk)
    # (behind the size test that sends large calls to several threads)
    assert ops["add.float16"].__wrapped__ is cpu_halfprec._k.f16_add
    assert ops["add.complex32"].__wrapped__ is cpu_halfprec._k.c32_add
