"""ocean_ext.complex32: dtype rules, creation, conversion, kernels, exchange.

The oracle is NumPy's complex64 on the same values, rounded part by part to
float16.  add, subtract, multiply and exp must match it bit for bit (signed
zeros included); the other kernels within a unit in the last place of a
half.  Every kernel test runs twice, on the AVX2/F16C loops (where the CPU
has them) and on the portable ones.
"""

from __future__ import annotations

import importlib
import math
import shutil
import subprocess
import sys
import textwrap
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext
from ocean_ext import complex32, float16

from ..helpers import to_np
from .halfprec_support import (
    NO_ARRAY_ARGUMENT,
    SWEEP,
    c32_from_parts,
    cancelling_halves,
    check_sweep_case,
    cpu_halfprec,
    needs_kernels,
    proxy_accepts,
    public_callables,
    round_c64,
    same_bits,
    values,
)

pytestmark = needs_kernels

F16 = np.dtype(np.float16)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["avx512", "avx2", "portable"])
def loops(request):
    """Run a test on each level of compiled loops this CPU has."""
    level = {"avx512": 2, "avx2": 1, "portable": 0}[request.param]
    if level > cpu_halfprec.max_simd_level():
        pytest.skip(f"this CPU has no {request.param} loops")
    previous = cpu_halfprec.set_simd(level)
    yield request.param
    cpu_halfprec.set_simd(previous)


# The kernel choice (``loops``) holds for every example of a test.
fixture_ok = settings(
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ]
)

# --- strategies ---------------------------------------------------------------------
half = st.floats(width=16, allow_nan=True, allow_infinity=True)
finite_half = st.floats(-60000, 60000, width=16)
shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=7)


@st.composite
def pairs(draw, shape=None, elements=half):
    """float16 data of shape (..., 2): the parts of complex32 values."""
    shp = draw(shapes) if shape is None else shape
    return draw(hnp.arrays(F16, (*shp, 2), elements=elements))


@st.composite
def two_pairs(draw):
    """Two part arrays whose complex shapes broadcast together."""
    a_shape, b_shape = draw(
        hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=7)
    ).input_shapes
    return draw(pairs(a_shape)), draw(pairs(b_shape))


def c64(parts: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(parts).astype(np.float32).view(np.complex64)[..., 0]


def layout(z, how: str):
    """The same values in another memory layout (strided, reversed)."""
    if how == "contiguous" or z.ndim == 0:
        return z
    if how == "strided":
        big = xp.concat([xp.expand_dims(z, axis=-1)] * 2, axis=-1)
        return big[..., 0]
    return xp.flip(xp.flip(z), axis=None) if how == "reversed" else z


# --- the dtypes ----------------------------------------------------------------------
def test_dtype_objects():
    assert repr(complex32) == "ocean_ext.complex32"
    assert str(complex32) == "complex32"
    assert complex32.kind == "complex floating"
    assert complex32.itemsize == 4
    assert repr(float16) == "ocean_ext.float16"
    assert float16.itemsize == 2
    assert complex32 != xp.complex64
    assert complex32 != np.complex64
    import pickle

    assert pickle.loads(pickle.dumps(complex32)) is complex32


def test_inspection_lists_only_standard_dtypes():
    dtypes = xp.__array_namespace_info__().dtypes()
    assert "complex32" not in dtypes
    assert "float16" not in dtypes
    assert complex32 not in dtypes.values()
    assert not hasattr(xp, "complex32")
    assert not hasattr(xp, "float16")


def test_isdtype_and_finfo():
    assert xp.isdtype(complex32, "complex floating")
    assert xp.isdtype(complex32, "numeric")
    assert xp.isdtype(complex32, ("integral", complex32))
    assert not xp.isdtype(complex32, "real floating")
    assert xp.isdtype(float16, "real floating")
    assert not xp.isdtype(float16, ("bool", "integral"))
    fi = xp.finfo(complex32)
    assert fi.dtype == float16
    assert fi.bits == 16
    assert fi.eps == 2.0**-10
    assert fi.max == 65504.0
    assert fi.smallest_normal == 2.0**-14
    with pytest.raises(TypeError):
        xp.iinfo(complex32)
    with pytest.raises(ValueError):
        xp.isdtype(complex32, "no such kind")


# The issue's lattice, written out: (a, b) -> result; None: TypeError.
LATTICE = {
    ("float16", "float32"): "float32",
    ("float16", "float64"): "float64",
    ("complex32", "complex64"): "complex64",
    ("complex32", "complex128"): "complex128",
    ("float16", "complex32"): "complex32",
    ("float32", "complex32"): "complex64",
    ("float64", "complex32"): "complex128",
    ("float16", "complex64"): "complex64",
    ("float16", "complex128"): "complex128",
    ("float16", "int8"): None,
    ("complex32", "int64"): None,
    ("complex32", "uint8"): None,
    ("complex32", "bool"): None,
    ("float16", "bool"): None,
}


def _dt(name):
    return getattr(ocean_ext, name, None) or getattr(xp, name)


@pytest.mark.parametrize(("pair", "result"), LATTICE.items())
def test_promotion_lattice(pair, result):
    a, b = (_dt(n) for n in pair)
    for x, y in ((a, b), (b, a)):
        if result is None:
            with pytest.raises(TypeError):
                xp.result_type(x, y)
            with pytest.raises(TypeError):
                xp.zeros(2, dtype=x) + xp.zeros(2, dtype=y)
        else:
            assert xp.result_type(x, y) == _dt(result)
            assert (xp.zeros(2, dtype=x) + xp.ones(2, dtype=y)).dtype == _dt(result)
            assert xp.can_cast(x, _dt(result))
    assert not xp.can_cast(complex32, float16)
    assert not xp.can_cast(xp.complex64, complex32)


def test_python_scalars_follow_the_standard():
    z = xp.asarray([1 + 1j], dtype=complex32)
    f = xp.asarray([1.5], dtype=float16)
    assert (z + 1).dtype == complex32
    assert (2.5 * z).dtype == complex32
    assert (z - 1j).dtype == complex32
    assert (
        f * 1j
    ).dtype == complex32  # complex scalar with real array: complex of its precision
    assert xp.result_type(f, 1j) == complex32
    assert xp.result_type(z, 2.0) == complex32
    with pytest.raises(TypeError):
        z + True


# --- creation ---------------------------------------------------------------------
def test_asarray_from_python_and_numpy():
    z = xp.asarray([[1 + 2j, -0.5], [3, 1e5j]], dtype=complex32)
    assert z.dtype == complex32
    assert z.shape == (2, 2)
    np.testing.assert_array_equal(
        to_np(z), np.array([[1 + 2j, -0.5], [3, complex(0, np.inf)]], np.complex64)
    )
    for src in (
        np.complex128,
        np.complex64,
        np.float64,
        np.float32,
        np.float16,
        np.int32,
        np.uint8,
        np.bool_,
    ):
        a = np.array([1, 0, 2], dtype=src)
        got = xp.asarray(a, dtype=complex32)
        np.testing.assert_array_equal(to_np(got), a.astype(np.complex64))
    # complex128 rounds straight to half (no double rounding through float32)
    tricky = np.array([1 + 2.0**-11 + 2.0**-40], dtype=np.complex128)
    assert complex(xp.asarray(tricky, dtype=complex32)[0]) == 1 + 2.0**-10
    with pytest.raises(ValueError):
        xp.asarray(np.ones(2), dtype=complex32, copy=False)
    with pytest.raises(TypeError):
        xp.asarray([1j], dtype=float16)


def test_asarray_of_our_arrays():
    z = xp.asarray([1 + 1j, 2], dtype=complex32)
    assert xp.asarray(z) is not None
    assert xp.asarray(z, dtype=complex32).dtype == complex32
    w = xp.asarray(z, dtype=xp.complex128)
    assert w.dtype == xp.complex128
    np.testing.assert_array_equal(to_np(w), [1 + 1j, 2])
    back = xp.asarray(w, dtype=complex32)
    assert back.dtype == complex32
    copy = xp.asarray(z, copy=True)
    copy[0] = 5
    assert complex(z[0]) == 1 + 1j


def test_filled_creation():
    for func, value in ((xp.zeros, 0), (xp.ones, 1)):
        a = func((2, 3), dtype=complex32)
        assert a.dtype == complex32
        assert a.shape == (2, 3)
        np.testing.assert_array_equal(to_np(a), np.full((2, 3), value, np.complex64))
    assert xp.empty(4, dtype=complex32).dtype == complex32
    f = xp.full((2,), 1.5 - 2j, dtype=complex32)
    np.testing.assert_array_equal(to_np(f), [1.5 - 2j] * 2)
    assert complex(xp.full((), 3, dtype=complex32)) == 3
    with pytest.raises(TypeError):
        xp.full(2, True, dtype=complex32)
    with pytest.raises(TypeError):
        xp.full(2, 1j, dtype=float16)
    base = xp.ones((2, 2), dtype=complex32)
    for like in (xp.zeros_like, xp.ones_like, xp.empty_like):
        assert like(base).dtype == complex32
    assert complex(xp.full_like(base, 2j)[1, 1]) == 2j
    assert xp.zeros_like(xp.ones(3), dtype=complex32).dtype == complex32


def test_eye_and_linspace():
    e = xp.eye(3, 4, k=1, dtype=complex32)
    np.testing.assert_array_equal(to_np(e), np.eye(3, 4, k=1))
    lin = xp.linspace(0, 1 + 1j, 5, dtype=complex32)
    np.testing.assert_array_equal(to_np(lin), round_c64(np.linspace(0, 1 + 1j, 5)))
    lin = xp.linspace(0.1, 0.7, 7, dtype=complex32, endpoint=False)
    np.testing.assert_array_equal(
        to_np(lin), round_c64(np.linspace(0.1, 0.7, 7, endpoint=False))
    )
    with pytest.raises(TypeError):
        xp.linspace(0, 1j, 3, dtype=float16)
    with pytest.raises(TypeError):
        xp.arange(3, dtype=complex32)


# --- astype ---------------------------------------------------------------------------
NUMERIC = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
           "float32", "float64", "complex64", "complex128", "float16", "bool")  # fmt: skip


@pytest.mark.parametrize("src", NUMERIC)
def test_astype_to_complex32(src, loops):
    a = np.array([0, 1, 2, 7, 100, 3000], dtype=np.int64)
    if src == "bool":
        a = a % 2
    host = a.astype(np.float64 if src == "float16" else src)
    x = xp.asarray(host, dtype=_dt(src))
    z = xp.astype(x, complex32)
    assert z.dtype == complex32
    np.testing.assert_array_equal(to_np(z), host.astype(np.complex64))
    if src in ("float32", "complex64", "float64", "complex128"):
        vals = np.array(
            [0.1, -1 / 3, 65519.0, 65520.0, 1e-8, -0.0, np.inf, np.nan], dtype=src
        )
        got = to_np(xp.astype(xp.asarray(vals), complex32))
        want = to_np(vals.real.astype(np.float16), np.complex64)
        same_bits(got, want)


@pytest.mark.parametrize(
    "dst",
    [n for n in NUMERIC if n in ("complex64", "complex128", "complex32")]
    + ["complex32"],
)
def test_astype_from_complex32(dst, loops):
    z = xp.asarray([1.5 - 2j, np.inf, -0.0], dtype=complex32)
    out = xp.astype(z, _dt(dst))
    assert out.dtype == _dt(dst)
    same_bits(values(out).astype(np.complex128), np.array([1.5 - 2j, np.inf, -0.0]))


@pytest.mark.parametrize("dst", ["float16", "float32", "float64", "int32", "bool"])
def test_astype_complex32_to_real_is_a_type_error(dst):
    with pytest.raises(TypeError, match="imaginary"):
        xp.astype(xp.ones(2, dtype=complex32), _dt(dst))


@pytest.mark.parametrize(
    "other",
    ["complex64", "complex128", "float32", "float64", "float16", "int16", "bool"],
)
def test_zero_dimensional_conversions(loops, other):
    """0-d arrays: NumPy's ufuncs give scalars there, our results stay arrays."""
    x = xp.asarray(1, dtype=_dt(other))
    z = xp.astype(x, complex32)
    assert z.dtype == complex32
    assert z.shape == ()
    assert complex(z) == 1
    if xp.isdtype(_dt(other), "complex floating"):
        back = xp.astype(z, _dt(other))
        assert back.shape == ()
        assert complex(back) == 1
    if xp.isdtype(_dt(other), ("real floating", "complex floating")):
        assert (z + x).shape == ()
    assert (z * 2).shape == ()
    assert xp.sum(z).shape == ()
    assert xp.abs(z).shape == ()
    assert complex(xp.exp(xp.asarray(0j, dtype=complex32))) == 1


def test_astype_copy_semantics():
    z = xp.ones(3, dtype=complex32)
    assert xp.astype(z, complex32, copy=False) is z
    c = xp.astype(z, complex32)
    assert c is not z
    c[0] = 0
    assert complex(z[0]) == 1


# --- parts, printing, Python scalars, NumPy ----------------------------------------
def test_real_imag_conj_abs():
    z = xp.asarray(
        [3 - 4j, complex(-0.0, 1), np.inf, complex(np.nan, 2)], dtype=complex32
    )
    re, im = xp.real(z), xp.imag(z)
    assert re.dtype == im.dtype == float16
    same_bits(to_np(re), np.array([3, -0.0, np.inf, np.nan], F16))
    same_bits(to_np(im), np.array([-4, 1, 0, 2], F16))
    same_bits(
        to_np(xp.conj(z)),
        np.array(
            [3 + 4j, complex(-0.0, -1), complex(np.inf, -0.0), complex(np.nan, -2)],
            np.complex64,
        ),
    )
    a = xp.abs(z)
    assert a.dtype == float16
    same_bits(to_np(a), np.array([5, 1, np.inf, np.nan], F16))
    assert xp.abs(xp.asarray(complex(np.inf, np.nan), dtype=complex32)) == np.inf
    same_bits(to_np(-z), -to_np(z))
    same_bits(to_np(+z), to_np(z))


def test_repr_and_python_scalars():
    # repr with values: the CPU's (a lazy default device, dask, shows none)
    cpu = xp.__array_namespace_info__().devices()[0]
    zc = xp.asarray([1 + 2j, 3 - 4j], dtype=complex32, device=cpu)
    assert repr(zc) == "Array([1.+2.j, 3.-4.j], dtype=complex32)"
    half_j = xp.asarray(0.5j, dtype=complex32, device=cpu)
    assert repr(half_j) == "Array(0.+0.5j, dtype=complex32)"
    z = xp.asarray([1 + 2j, 3 - 4j], dtype=complex32)
    assert complex(z[1]) == 3 - 4j
    assert bool(xp.asarray(-0.0, dtype=complex32)) is False  # -0 is zero, not its bits
    assert bool(xp.asarray(1j, dtype=complex32)) is True
    with pytest.raises(TypeError):
        float(z[0])
    with pytest.raises(TypeError):
        int(z[0])
    assert float(xp.asarray(2.5, dtype=float16)) == 2.5


def test_numpy_conversion():
    z = xp.asarray([1 + 2j, -1j], dtype=complex32)
    a = to_np(z)
    assert a.dtype == np.complex64
    np.testing.assert_array_equal(a, [1 + 2j, -1j])
    with pytest.raises(ValueError, match="copy"):
        z.__array__(copy=False)
    assert to_np(z, dtype=np.complex128).dtype == np.complex128


def test_dlpack():
    z = xp.ones(3, dtype=complex32)
    with pytest.raises(BufferError, match=r"astype\(x, complex64\)"):
        z.__dlpack__()
    with pytest.raises(BufferError):
        np.from_dlpack(z)
    f = xp.asarray([1.5, -2.0], dtype=float16)
    back = np.from_dlpack(f)
    assert back.dtype == np.float16
    np.testing.assert_array_equal(back, [1.5, -2.0])
    # the strict namespace does not infer ocean_ext dtypes from its inputs
    with pytest.raises(BufferError):
        xp.from_dlpack(back)
    with pytest.raises(TypeError):
        xp.asarray(back)
    assert xp.asarray(back, dtype=float16).dtype == float16


# --- views --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("real", "cplx"),
    [(np.float16, complex32), (np.float32, xp.complex64), (np.float64, xp.complex128)],
)
def test_view_as_complex_and_back(real, cplx):
    parts = np.arange(12, dtype=real).reshape(3, 2, 2)
    z = ocean_ext.view_as_complex(parts)
    assert z.dtype == cplx
    assert z.shape == (3, 2)
    np.testing.assert_array_equal(to_np(z), parts[..., 0] + 1j * parts[..., 1])
    parts[0, 0, 1] = 9  # no copy
    assert complex(z[0, 0]) == 9j
    r = ocean_ext.view_as_real(z)
    assert r.shape == (3, 2, 2)
    assert str(r.dtype) == np.dtype(real).name
    r[2, 1, 0] = -1  # writes through to parts
    assert parts[2, 1, 0] == -1
    # our arrays too, and views of views
    ours = (
        xp.asarray(parts)
        if real is not np.float16
        else xp.asarray(parts, dtype=float16)
    )
    assert ocean_ext.view_as_complex(ours).dtype == cplx
    w = ocean_ext.view_as_complex(ocean_ext.view_as_real(z[::-1]))
    np.testing.assert_array_equal(to_np(w), to_np(z)[::-1])


def test_view_errors():
    with pytest.raises(ValueError, match="length 2"):
        ocean_ext.view_as_complex(np.zeros((3, 3), np.float16))
    with pytest.raises(ValueError):
        ocean_ext.view_as_complex(np.zeros((3, 4), np.float32)[:, ::2])
    with pytest.raises(TypeError):
        ocean_ext.view_as_complex(np.zeros((3, 2), np.int32))
    with pytest.raises(TypeError):
        ocean_ext.view_as_complex(xp.ones((3, 2), dtype=complex32))
    with pytest.raises(TypeError):
        ocean_ext.view_as_real(xp.ones(3))
    with pytest.raises(TypeError):
        ocean_ext.view_as_complex([1.0, 2.0])
    with pytest.raises(ValueError):
        ocean_ext.view_as_complex(np.zeros(2, np.float16).astype(">f2"))


# --- kernels against the oracle --------------------------------------------------------
EXACT_BINARY = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply}


@pytest.mark.parametrize("name", EXACT_BINARY)
@fixture_ok
@given(data=two_pairs(), how=st.sampled_from(["contiguous", "strided", "reversed"]))
def test_add_subtract_multiply_are_complex64_rounded(loops, name, data, how):
    a, b = data
    x, y = layout(c32_from_parts(a), how), c32_from_parts(b)
    with np.errstate(all="ignore"):
        want = round_c64(EXACT_BINARY[name](c64(a), c64(b)))
        got = getattr(xp, name)(x, y)
    assert got.dtype == complex32
    assert got.shape == want.shape
    same_bits(to_np(got), want)


@fixture_ok
@given(data=pairs(), how=st.sampled_from(["contiguous", "strided", "reversed"]))
def test_exp_is_complex64_rounded(loops, data, how):
    z = layout(c32_from_parts(data), how)
    with np.errstate(all="ignore"):
        want = round_c64(np.exp(c64(data)))
        got = xp.exp(z)
    same_bits(to_np(got), want)


def test_exp_on_every_real_part(loops):
    """All 65536 real parts, against a few imaginary parts (glibc's cexpf)."""
    re = np.arange(65536, dtype=np.uint16).view(F16)
    for im in (0.0, -0.0, 1.5, -3.140625, 100.0, 65504.0, np.inf, np.nan):
        parts = np.stack([re, np.full_like(re, im)], axis=-1)
        with np.errstate(all="ignore"):
            same_bits(
                to_np(xp.exp(c32_from_parts(parts))), round_c64(np.exp(c64(parts)))
            )


@pytest.mark.parametrize("scalar", [2.0, -1, 0.5j, complex(0, -3.0), 1e30])
@fixture_ok
@given(data=pairs())
def test_python_scalar_operands(loops, scalar, data):
    z = c32_from_parts(data)
    s64 = np.complex64(scalar) if abs(scalar) < 1e5 else np.complex64(np.inf)
    with np.errstate(all="ignore"):
        for got, want in (
            (z * scalar, c64(data) * round_c64(s64)),
            (scalar + z, round_c64(s64) + c64(data)),
            (z - scalar, c64(data) - round_c64(s64)),
        ):
            same_bits(to_np(got), round_c64(want))


UNARY_LIBM = ("log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin",
              "acos", "atan", "asinh", "acosh", "atanh", "square")  # fmt: skip


@pytest.mark.parametrize("name", UNARY_LIBM)
@fixture_ok
@given(data=pairs())
def test_transcendental_functions(loops, name, data):
    z = c32_from_parts(data)
    with np.errstate(all="ignore"):
        want = round_c64(getattr(np, name)(c64(data)))
        got = to_np(getattr(xp, name)(z))
    if name == "tanh":  # the standard's special case, as complex64's tanh here
        want = round_c64(to_np(xp.tanh(xp.asarray(c64(data)))))
    np.testing.assert_allclose(got, want, rtol=2.0**-10, atol=0, equal_nan=True)


@pytest.mark.parametrize("name", ["log2", "log10", "reciprocal", "sign"])
@fixture_ok
@given(data=pairs(elements=finite_half))
def test_other_unary_functions(loops, name, data):
    z = c32_from_parts(data)
    with np.errstate(all="ignore"):
        want = round_c64(to_np(getattr(xp, name)(xp.asarray(c64(data)))))
        got = to_np(getattr(xp, name)(z))
    np.testing.assert_allclose(got, want, rtol=2.0**-9, atol=2.0**-24, equal_nan=True)


@fixture_ok
@given(data=two_pairs())
def test_divide(loops, data):
    a, b = data
    with np.errstate(all="ignore"):
        got = to_np(xp.divide(c32_from_parts(a), c32_from_parts(b)))
        exact = c64(a).astype(np.complex128) / c64(b).astype(np.complex128)
        want = round_c64(exact)
    finite = np.isfinite(want) & (np.abs(want) > 2.0**-14)
    np.testing.assert_allclose(got[finite], want[finite], rtol=2.0**-10)
    assert np.array_equal(np.isnan(got), np.isnan(round_c64(c64(a) / c64(b))))


@fixture_ok
@given(data=pairs(), how=st.sampled_from(["contiguous", "strided", "reversed"]))
def test_abs(loops, data, how):
    z = layout(c32_from_parts(data), how)
    got = to_np(xp.abs(z))
    f = c64(data)
    with np.errstate(all="ignore"):
        want = to_np(
            np.sqrt(f.real * f.real + f.imag * f.imag).astype(F16)
        )  # binary32, then half
    want[np.isinf(f.real) | np.isinf(f.imag)] = np.inf
    same_bits(got, want)
    np.testing.assert_allclose(
        got, np.abs(f.astype(np.complex128)).astype(F16), rtol=2.0**-10
    )


@fixture_ok
@given(data=two_pairs())
def test_comparisons_and_predicates(loops, data):
    a, b = data
    x, y = c32_from_parts(a), c32_from_parts(b)
    np.testing.assert_array_equal(to_np(x == y), c64(a) == c64(b))
    np.testing.assert_array_equal(to_np(x != y), c64(a) != c64(b))
    np.testing.assert_array_equal(
        to_np(x == x), c64(a) == c64(a)
    )  # NaN != NaN, -0 == 0
    for name in ("isnan", "isinf", "isfinite"):
        np.testing.assert_array_equal(
            to_np(getattr(xp, name)(x)), getattr(np, name)(c64(a))
        )


# --- promotion with other dtypes ---------------------------------------------------------
@fixture_ok
@given(data=two_pairs())
def test_mixed_dtypes(loops, data):
    a, b = data
    z = c32_from_parts(a)
    w64 = xp.asarray(c64(b))
    with np.errstate(all="ignore"):
        got = z + w64
        assert got.dtype == xp.complex64
        same_bits(to_np(got), c64(a) + c64(b))
        f16 = xp.asarray(b[..., 0], dtype=float16)
        got = z * f16
        assert got.dtype == complex32
        same_bits(to_np(got), round_c64(c64(a) * b[..., 0].astype(np.float32)))
        f32 = xp.asarray(b[..., 1].astype(np.float32))
        got = f32 - z
        assert got.dtype == xp.complex64
        same_bits(to_np(got), b[..., 1].astype(np.float32) - c64(a))


def test_in_place_operators():
    z = xp.asarray([1 + 1j, 2 - 1j], dtype=complex32)
    alias = z
    z += z
    z *= 0.5j
    z -= xp.asarray([1.0, 2.0], dtype=float16)
    assert z is alias
    assert z.dtype == complex32
    np.testing.assert_array_equal(
        to_np(z), round_c64(((np.array([1 + 1j, 2 - 1j]) * 2) * 0.5j) - [1, 2])
    )
    with pytest.raises(TypeError, match="in-place"):
        z += xp.ones(2, dtype=xp.complex64)
    f = xp.ones(2, dtype=float16)
    with pytest.raises(TypeError):
        f += z
    w = xp.ones(2, dtype=xp.complex64)
    w += z
    np.testing.assert_array_equal(to_np(w), 1 + to_np(z))


def test_unsupported_operations_fail_as_for_complex64():
    z = xp.ones(3, dtype=complex32)
    ref = xp.ones(3, dtype=xp.complex64)
    for name in ("floor", "ceil", "trunc", "signbit", "less", "greater_equal", "maximum",
                 "atan2", "floor_divide", "remainder", "logaddexp", "bitwise_and"):  # fmt: skip
        func = getattr(xp, name)
        args = (z,) if name in ("floor", "ceil", "trunc", "signbit") else (z, z)
        args64 = (ref,) * len(args)
        with pytest.raises(TypeError) as ours:
            func(*args)
        with pytest.raises(TypeError) as theirs:
            func(*args64)
        assert str(ours.value) == str(theirs.value).replace("complex64", "complex32")
    with pytest.raises(TypeError):
        _ = z < z


@pytest.mark.parametrize("name", ["pow", "expm1", "log1p", "round"])
@given(data=pairs(elements=st.floats(-4, 4, width=16)))
def test_functions_computed_in_complex64(name, data):
    # no fused kernel yet: computed in complex64 (the backend's entry, special
    # cases included) and rounded once to complex32
    z = c32_from_parts(data)
    ref = c64(data)
    # The oracle is our own complex64 function: it corrects NumPy's complex
    # expm1 (see ocean_cpu), so NumPy's can differ in the last float16 bit.
    ref_x = xp.asarray(ref)
    with np.errstate(all="ignore"):
        if name == "pow":
            got = xp.pow(z, z)
            want = to_np(xp.pow(ref_x, ref_x))
        else:
            got = getattr(xp, name)(z)
            want = to_np(getattr(xp, name)(ref_x))
    assert got.dtype == complex32
    assert got.shape == ref.shape
    got_c, want_c = to_np(got), round_c64(want)
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(part(got_c), part(want_c))


# --- reductions, linear algebra, fft ----------------------------------------------------
@pytest.mark.parametrize("name", ["sum", "prod", "mean"])
@fixture_ok
@given(
    data=pairs(elements=st.floats(-4, 4, width=16)),
    axis=st.sampled_from([None, 0, -1, (0, 1), ()]),
    keepdims=st.booleans(),
)
def test_reductions(loops, name, data, axis, keepdims):
    z = c32_from_parts(data)
    ref = c64(data).astype(np.complex128)
    nd = ref.ndim
    if axis is not None and (
        nd == 0
        or (isinstance(axis, tuple) and len(axis) > nd)
        or (isinstance(axis, int) and nd < 1)
    ):
        return
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's mean of nothing
        want = getattr(np, name)(ref, axis=axis, keepdims=keepdims)
        got = getattr(xp, name)(z, axis=axis, keepdims=keepdims)
    assert got.dtype == complex32
    assert got.shape == np.shape(want)
    # accumulated in at least binary32: within a unit of the half result.
    # Real and imaginary parts apart: assert_allclose mishandles a complex
    # infinity (an overflowed prod gives inf + 0j against inf - 6e-8j).
    got_c, want_c = to_np(got), round_c64(want)
    # Where the result overflows float16, a part that is mathematically zero
    # can hold rounding noise of order |z| * 1e-16 (a prod of 72 values of
    # 3+3j has |z| ~ 1e45: NumPy's imaginary part rounds to -inf, ours to 0).
    # There both must overflow; elsewhere each part is checked.
    over = np.isinf(want_c.real) | np.isinf(want_c.imag)
    got_over = np.isinf(got_c.real) | np.isinf(got_c.imag)
    np.testing.assert_array_equal(got_over[over], True)
    for part in (np.real, np.imag):
        np.testing.assert_allclose(
            part(got_c)[~over],
            part(want_c)[~over],
            rtol=2.0**-9,
            atol=2.0**-13,
            equal_nan=True,
        )


@st.composite
def cancelling_pairs(draw):
    n = draw(st.integers(0, 100))
    re, im = draw(cancelling_halves(size=n)), draw(cancelling_halves(size=n))
    return np.stack([re, im], axis=-1)


@settings(fixture_ok, max_examples=200)
@given(
    data=cancelling_pairs(), how=st.sampled_from(["contiguous", "strided", "reversed"])
)
def test_sum_is_exact_in_every_loop_and_layout(loops, data, how):
    """Each part sums exactly in double (see test_float16's twin): every
    loop and layout gives math.fsum's parts, rounded once."""
    exact = complex(
        *(math.fsum(data[:, k].astype(np.float64).tolist()) for k in (0, 1))
    )
    z = layout(c32_from_parts(data), how)
    assert complex(xp.sum(z, dtype=xp.complex128)) == exact
    got = to_np(ocean_ext.view_as_real(xp.sum(z)))
    same_bits(got, np.array([exact.real, exact.imag]).astype(F16))


def test_reductions_accumulate_in_float32_or_wider(loops):
    z = xp.full(100_000, 1 + 0.5j, dtype=complex32)  # half would saturate at 2048
    assert complex(xp.sum(z)) == round_c64(100_000 * (1 + 0.5j))[()]
    assert complex(xp.mean(z)) == 1 + 0.5j
    assert complex(xp.sum(z, dtype=xp.complex128)) == 100_000 * (1 + 0.5j)
    assert xp.sum(z, dtype=xp.complex64).dtype == xp.complex64
    with pytest.raises(TypeError):
        xp.sum(z, dtype=float16)
    e = xp.zeros((0, 3), dtype=complex32)
    assert complex(xp.sum(e)) == 0
    assert complex(xp.prod(e)) == 1
    assert np.isnan(complex(xp.mean(e)).real)
    np.testing.assert_array_equal(to_np(xp.sum(e, axis=0)), np.zeros(3))


@fixture_ok
@given(
    a=pairs(shape=(4, 3), elements=st.floats(-4, 4, width=16)),
    b=pairs(shape=(3, 5), elements=st.floats(-4, 4, width=16)),
)
def test_matmul_and_vecdot(loops, a, b):
    x, y = c32_from_parts(a), c32_from_parts(b)
    got = x @ y
    assert got.dtype == complex32
    want = round_c64(c64(a).astype(np.complex128) @ c64(b).astype(np.complex128))
    np.testing.assert_allclose(to_np(got), want, rtol=2.0**-9, atol=2.0**-10)
    got = xp.vecdot(x, x)
    want = round_c64(
        np.vecdot(c64(a).astype(np.complex128), c64(a).astype(np.complex128))
    )
    np.testing.assert_allclose(to_np(got), want, rtol=2.0**-9, atol=2.0**-10)
    v = xp.vecdot(y, y, axis=-2)
    assert v.shape == (5,)
    mixed = x @ xp.asarray(c64(b))
    assert mixed.dtype == xp.complex64


@pytest.mark.parametrize("name", ["fft", "ifft", "fftn", "ifftn", "hfft", "irfft"])
@given(data=pairs(shape=(3, 8), elements=st.floats(-4, 4, width=16)))
def test_fft_is_complex64_rounded(name, data):
    z = c32_from_parts(data)
    got = getattr(xp.fft, name)(z)
    want = getattr(xp.fft, name)(xp.asarray(c64(data)))
    if want.dtype == xp.complex64:
        assert got.dtype == complex32
        same_bits(to_np(got), round_c64(to_np(want)))
    else:
        assert got.dtype == float16
        same_bits(to_np(got), to_np(want).astype(F16))


def test_real_ffts_of_float16():
    x = xp.asarray([1.0, 2.0, -1.0, 0.5], dtype=float16)
    r = xp.fft.rfft(x)
    assert r.dtype == complex32
    np.testing.assert_array_equal(
        to_np(r), round_c64(np.fft.rfft(np.float32([1, 2, -1, 0.5])))
    )
    assert xp.fft.irfft(r).dtype == float16


# --- indexing, manipulation --------------------------------------------------------------
def test_indexing_and_setitem():
    z = xp.asarray([[1 + 1j, 2], [3j, -4]], dtype=complex32)
    assert complex(z[1, 0]) == 3j
    np.testing.assert_array_equal(to_np(z[:, ::-1]), to_np(z)[:, ::-1])
    np.testing.assert_array_equal(
        to_np(z[xp.asarray([True, False])]), to_np(z)[[True, False]]
    )
    z[0, 0] = 5 - 1j
    z[1] = xp.asarray([1.5, 2.5], dtype=float16)
    z[0, 1] = 7
    z[...] = z * 2
    np.testing.assert_array_equal(to_np(z), [[10 - 2j, 14], [3, 5]])
    with pytest.raises(TypeError):
        z[0, 0] = xp.asarray(1j, dtype=xp.complex64)  # would narrow
    with pytest.raises(TypeError):
        z[0, 0] = True
    f = xp.zeros(2, dtype=float16)
    f[0] = 0.1
    assert float(f[0]) == float(np.float16(0.1))
    w = xp.zeros(2, dtype=xp.complex64)
    w[0] = xp.asarray(1 + 1j, dtype=complex32)
    assert complex(w[0]) == 1 + 1j


def test_manipulation_and_where():
    z = xp.asarray([[1 + 1j, 2], [3j, -4]], dtype=complex32)
    w = xp.asarray([[0.5, 1j]], dtype=xp.complex64)
    c = xp.concat([z, w])
    assert c.dtype == xp.complex64
    np.testing.assert_array_equal(to_np(c), np.concatenate([to_np(z), to_np(w)]))
    s = xp.stack([z[0], xp.asarray([1.0, 2.0], dtype=float16)])
    assert s.dtype == complex32
    np.testing.assert_array_equal(to_np(s), [[1 + 1j, 2], [1, 2]])
    cond = xp.asarray([[True, False], [False, True]])
    got = xp.where(cond, z, 0.5j)
    assert got.dtype == complex32
    np.testing.assert_array_equal(to_np(got), np.where(to_np(cond), to_np(z), 0.5j))
    got = xp.where(cond, z, w)
    assert got.dtype == xp.complex64
    for res in (xp.reshape(z, (4,)), xp.flip(z), xp.roll(z, 1), xp.permute_dims(z, (1, 0)),
                xp.tile(z, (1, 2)), xp.repeat(z, 2, axis=0), xp.take(z, xp.asarray([1]), axis=1),
                xp.broadcast_to(z, (3, 2, 2)), xp.tril(z), z.mT):  # fmt: skip
        assert res.dtype == complex32


# --- every function: a result that is right, or a TypeError -------------------------------
def test_the_sweep_covers_every_public_function():
    covered = {name.split("[")[0] for name in SWEEP} | NO_ARRAY_ARGUMENT
    missing = [n for n in public_callables() if n not in covered]
    assert not missing, f"add these to halfprec_support.SWEEP: {missing}"


@pytest.mark.parametrize("name", sorted(SWEEP))
def test_every_function_is_right_or_refuses_as_complex64_does(loops, name):
    # functions without a complex32 kernel compute in complex64: what
    # complex64 accepts, complex32 accepts too
    want = "supported" if proxy_accepts(name, complex32) else "rejected"
    assert check_sweep_case(name, complex32) == want


SUPPORTED = {
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "conj", "cos", "cosh", "exp",
    "imag", "isfinite", "isinf", "isnan", "log", "log2", "log10", "negative", "positive",
    "real", "reciprocal", "sign", "sin", "sinh", "square", "sqrt", "tan", "tanh", "add",
    "divide", "equal", "multiply", "not_equal", "subtract", "mean", "sum", "prod", "matmul",
    "vecdot", "linalg.matmul", "linalg.vecdot", "fft.fft", "fft.ifft", "fft.fftn",
    "fft.ifftn", "fft.irfft", "fft.irfftn", "fft.hfft", "astype", "asarray", "where",
    "concat", "stack", "reshape", "take", "tril", "triu", "Array.__getitem__",
    # through complex64, rounded once (test_halfprec_proxy.py)
    "all", "any", "count_nonzero", "nonzero", "isin", "unique_all", "unique_values",
    "cumulative_sum", "cumulative_prod", "diff", "tensordot", "linalg.inv",
    "linalg.solve", "linalg.svd", "linalg.eigh", "linalg.trace", "fft.fftshift",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SUPPORTED))
def test_the_issue_functions_are_supported(name):
    assert check_sweep_case(name, complex32) == "supported"


@pytest.mark.parametrize(
    "op",
    [
        lambda z, w: z * w,
        lambda z, w: z + w,
        lambda z, w: z - 2.5j,
        lambda z, w: xp.abs(z),
        lambda z, w: xp.exp(w),
    ],
)
def test_memory_of_one_pass_kernels(op):
    """No whole-array temporaries: the peak of extra memory is the output.

    The CPU's compiled kernels, on the CPU explicitly (a lazy device builds
    a graph here, and its chunks go through these kernels when it runs)."""
    cpu = xp.__array_namespace_info__().devices()[0]
    z = xp.ones(200_000, dtype=complex32, device=cpu)
    w = z * 1j
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        res = op(z, w)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert peak <= 1.25 * res._data.nbytes, (peak, res._data.nbytes)


# --- the build ------------------------------------------------------------------------
def test_every_level_of_loops_agrees():
    """Random bits (NaNs, infinities, subnormals included): the AVX-512, AVX2
    and portable loops give the same bits, also on strided and broadcast data."""
    rng = np.random.default_rng(3)
    bits = rng.integers(0, 2**32, 50_003, dtype=np.uint64).astype(np.uint32)
    z = xp.asarray(ocean_ext.view_as_complex(bits.view(F16).reshape(-1, 2)), copy=True)
    h = xp.real(z)
    funcs = (
        xp.exp,
        xp.abs,
        lambda v: v * v[::-1],
        lambda v: v[1::2] - v[2::2],
        lambda v: v + 1j,
        lambda v: (3 - 1j) * v,
        xp.sqrt,
        xp.sum,
        lambda v: xp.astype(xp.astype(v, xp.complex64), complex32),
    )
    half_funcs = (
        lambda v: v + v[::-1],
        lambda v: v * 0.5,
        lambda v: 2 / v,
        lambda v: v - v,
        xp.sqrt,
        xp.sum,
        lambda v: xp.astype(xp.astype(v, xp.float32), float16),
    )
    results = []
    for level in range(cpu_halfprec.max_simd_level() + 1):
        previous = cpu_halfprec.set_simd(level)
        try:
            with np.errstate(all="ignore"):
                results.append(
                    [to_np(f(z)) for f in funcs] + [to_np(f(h)) for f in half_funcs]
                )
        finally:
            cpu_halfprec.set_simd(previous)
    for other in results[1:]:
        for a, b in zip(results[0], other, strict=True):
            same_bits(a, b)


def test_without_the_compiled_kernels(tmp_path):
    """A build without the C extension: float16 on NumPy's loops, complex32
    refused with a message that says how to build."""
    script = textwrap.dedent(
        """
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.endswith("_halfprec_c"):
                    raise ImportError("blocked for the test")
        sys.meta_path.insert(0, Block())
        import ocean_array_api as xp
        import ocean_ext
        f = xp.asarray([1.5, 2.0], dtype=ocean_ext.float16)
        assert float(xp.sum(f * f)) == 6.25
        z = xp.zeros(2, dtype=ocean_ext.complex32)
        print(repr(z))
        try:
            z + z
        except TypeError as exc:
            print("TypeError:", exc)
        """
    )
    env_path = [str(ROOT), str(ROOT / "backends")]
    res = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": ":".join(env_path), "PATH": "/usr/bin:/bin"},
        cwd=tmp_path,
        check=False,
    )
    assert res.returncode == 0, res.stderr
    assert "Array([0.+0.j, 0.+0.j], dtype=complex32)" in res.stdout
    assert "TypeError: add(): complex32" in res.stdout
    assert "build_ext --inplace" in res.stdout


@pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc is not installed")
def test_cuda_kernel_sources_compile(tmp_path):
    """The CuPy kernel sources of the future CUDA backend compile with nvcc
    (they are not run here: that needs a GPU)."""
    mod = importlib.import_module("ocean_cuda._halfprec_kernels")
    src = tmp_path / "halfprec_kernels.cu"
    src.write_text(mod.compile_check_source())
    res = subprocess.run(
        ["nvcc", "-c", "-std=c++17", "-o", str(tmp_path / "k.o"), str(src)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert res.returncode == 0, res.stdout + res.stderr


@pytest.mark.parametrize("func", ["view_as_complex", "view_as_real"])
def test_views_of_numpy_arrays_are_on_the_default_cpu_device(func):
    # Inside `with cpu1:` they were created on cpu:0 (issue 12 item 9).
    cpu1 = xp.__array_namespace_info__().devices()[1]
    data = np.ones((3, 2)) if func == "view_as_complex" else np.ones(3, np.complex128)
    with cpu1:
        v = getattr(ocean_ext, func)(data)
    assert v.device == cpu1
    assert np.shares_memory(np.asarray(v), data)
    # the default device when it is a CPU device, else the first CPU (a view of
    # NumPy memory: only a CPU device has it)
    default = xp.__array_namespace_info__().default_device()
    cpu0 = xp.__array_namespace_info__().devices()[0]
    assert getattr(ocean_ext, func)(data).device == (
        default if default.kind == "cpu" else cpu0
    )
