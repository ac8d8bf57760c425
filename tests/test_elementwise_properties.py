"""Property tests of the elementwise functions over each dtype's special values.

Inputs mix the special values of a dtype (+-0, +-inf, NaN, subnormals, the
smallest normal and largest finite values, +-1 and values beside them, the
branch points of the inverse functions) with ordinary values, in both parts
of complex numbers.  Two oracles:

- NumPy for float16, float32, float64, complex64 and complex128 (every
  elementwise function that takes floating-point input), compared bit for bit
  (signed zeros count, any NaN equals any NaN), except where the standard
  departs from NumPy: each departure is in :func:`_numpy_oracle` with the
  standard's rule;
- complex64, its result rounded to complex32, for complex32 (every
  elementwise function that takes complex input).  See :func:`_c32_agrees`
  for what must agree bit for bit and what within one float16 ulp.

Run on every device (the CUDA backend too, simulated or real).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext

from .helpers import (
    FTZ_DTYPES,
    flush_subnormals,
    has_subnormals,
    host,
    on_cuda,
    within_ulps,
)

F16 = np.dtype(np.float16)


# --- inputs -----------------------------------------------------------------------
def _specials(dtype: np.dtype) -> list[float]:
    fi = np.finfo(dtype)
    tiny = float(fi.smallest_normal)
    pos = [
        0.0,
        float(fi.smallest_subnormal),
        tiny,
        0.5,
        1.0,
        float(np.nextafter(dtype.type(1), dtype.type(2))),
        float(np.nextafter(dtype.type(1), dtype.type(0))),
        2.0,
        math.pi,
        float(fi.max),
        math.inf,
    ]
    return [*pos, *[-v for v in pos], math.nan]


def _parts(dtype: np.dtype) -> st.SearchStrategy[float]:
    width = dtype.itemsize * 8
    return st.one_of(
        st.sampled_from(_specials(dtype)),
        st.floats(width=width, allow_nan=False, allow_infinity=False),
        st.floats(-4, 4, width=width),
    )


def _elements(dt: np.dtype) -> st.SearchStrategy[Any]:
    if dt.kind == "c":
        part = _parts(np.dtype(f"f{dt.itemsize // 2}"))
        return st.builds(complex, part, part)
    return _parts(dt)


def _arrays(dt: np.dtype, shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray]:
    return hnp.arrays(dt, shape, elements=_elements(dt))


SHAPES = st.sampled_from([(), (1,), (7,), (3, 5)])

# --- the functions ----------------------------------------------------------------------
UNARY_COMPLEX = (
    "abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "conj", "cos",
    "cosh", "exp", "expm1", "imag", "isfinite", "isinf", "isnan", "log", "log1p",
    "log2", "log10", "negative", "positive", "real", "reciprocal", "round",
    "sign", "sin", "sinh", "sqrt", "square", "tan", "tanh",
)  # fmt: skip
UNARY_REAL = (
    *[n for n in UNARY_COMPLEX if n != "imag"],
    "ceil", "floor", "signbit", "trunc",
)  # fmt: skip
BINARY_COMPLEX = (
    "add", "divide", "equal", "multiply", "not_equal", "pow", "subtract",
)  # fmt: skip
BINARY_REAL = (
    *BINARY_COMPLEX, "atan2", "copysign", "floor_divide", "greater",
    "greater_equal", "hypot", "less", "less_equal", "logaddexp", "maximum",
    "minimum", "nextafter", "remainder",
)  # fmt: skip
NP_NAME = {
    "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
    "atan": "arctan", "atanh": "arctanh", "atan2": "arctan2", "pow": "power",
    "conj": "conjugate", "abs": "absolute",
}  # fmt: skip

STANDARD = ("float32", "float64", "complex64", "complex128")


# --- the NumPy oracle and the standard's departures from it ---------------------------
def _numpy_oracle(name: str, *args: np.ndarray) -> np.ndarray:
    """NumPy's result, with the standard's rule where the standard departs
    from NumPy (each one a ``# Note:`` with the rule)."""
    f = getattr(np, NP_NAME.get(name, name))
    with np.errstate(all="ignore"):
        res = np.asarray(f(*args))
        x = args[0]
        if name == "sign" and x.dtype.kind == "c":
            # Note: the standard: NaN + NaN j for a NaN part; otherwise
            # x / |x| with real division (an infinite part gives NaN, a finite
            # one a signed zero when |x| is infinite); NumPy branches on
            # hypot and gives 1 + 0j for inf + NaN j, +-1 for an infinite
            # part and 0 +- 1j for an overflowing |x|.
            a, b = x.real, x.imag
            nan = np.isnan(a) | np.isnan(b)
            inf = ~nan & (np.isinf(a) | np.isinf(b))
            big = ~nan & ~inf & ~np.isfinite(np.abs(x))
            re = np.where(np.isinf(a), np.nan, a * 0.0)
            im = np.where(np.isinf(b), np.nan, b * 0.0)
            res.real[inf] = re[inf]
            res.imag[inf] = im[inf]
            res[nan] = complex(np.nan, np.nan)
            # (x / |x| part by part with real division, after scaling by
            # max(|a|, |b|); a complex-by-real division in NumPy rounds the
            # parts differently, by an ulp, and the standard leaves how |x|
            # rounds open: the plain square root of the scaled squares here)
            m = np.where(big, np.maximum(np.abs(a), np.abs(b)), 1)
            sa, sb = a / m, b / m
            r = np.sqrt(sa * sa + sb * sb)
            res.real[big] = (sa / r)[big]
            res.imag[big] = (sb / r)[big]
        elif name == "tanh" and x.dtype.kind == "c":
            # Note: tanh(+-inf + bj), finite b: sign(a) + copysign(0, b) j
            # (the standard's table); NumPy signs the zero like sin(2b).
            fix = np.isinf(x.real) & np.isfinite(x.imag)
            res.real[fix] = np.sign(x.real[fix])
            res.imag[fix] = np.copysign(0.0, x.imag[fix])
        elif name == "tan" and x.dtype.kind == "c":
            # Note: tan is -1j * tanh(x * 1j): copysign(0, a) + sign(b) j for
            # finite a and infinite b.
            fix = np.isfinite(x.real) & np.isinf(x.imag)
            res.real[fix] = np.copysign(0.0, x.real[fix])
            res.imag[fix] = np.sign(x.imag[fix])
        elif name == "expm1" and x.dtype.kind == "c":
            # Note: NumPy's complex expm1 is exp(x) - 1, inexact near 0 and
            # off the standard's table for infinite parts; compared apart
            # (test_complex_special_cases.py and test_elementwise_functions.py).
            res = None
        elif name == "floor_divide" and res.dtype.kind == "f":
            # Note: the standard: floor(x1 / x2) where exactly one operand is
            # infinite; NumPy gives NaN for inf // finite and -1 for a
            # negative finite // inf.
            one_inf = np.isinf(args[0]) ^ np.isinf(args[1])
            res = np.where(one_inf, np.floor(args[0] / args[1]), res)
        elif name == "pow" and res.dtype.kind == "f":
            # Note: x ** 0.5 is +inf for x = -inf and +0 for x = -0 (NumPy's
            # sqrt shortcut for a one-element exponent gives NaN and -0).
            half = np.broadcast_to(args[1] == 0.5, res.shape)
            base = np.broadcast_to(args[0], res.shape)
            res = np.where(half & np.isneginf(base), np.inf, res)
            res = np.where(half & (base == 0), 0.0, res).astype(res.dtype)
        elif name == "nextafter" and res.dtype == F16:
            # Note: x2 where x1 == x2 (NumPy's float16 loop returns x1, so
            # nextafter(-0, +0) is -0); the largest finite value toward x2 for
            # an infinite x1.
            x1, x2 = np.broadcast_arrays(*args)
            fix = np.isinf(x1) & ~np.isnan(x2) & (x1 != x2)
            res = np.where(fix, np.copysign(np.float16(65504), x1), res)
            res = np.where(x1 == x2, x2, res).astype(F16)
    return res


def _same(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Element by element: equal bits, or both NaN (per part for complex)."""
    if got.dtype.kind == "c":
        return _same(got.real, want.real) & _same(got.imag, want.imag)
    if got.dtype.kind == "b":
        return got == want
    return (np.isnan(got) & np.isnan(want)) | (
        (got == want) & (np.signbit(got) == np.signbit(want))
    )


def _near_subnormal(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Elements with a nonzero part below ``smallest_normal * 2**24``: where
    CuPy's kernels flush float32 (-ftz=true) or CUDA's math library loses
    accuracy (float64 subnormals), an input or a result."""
    a = np.asarray(a)
    if a.dtype.kind not in "fc":
        return np.zeros(shape, dtype=bool)
    parts = (a.real, a.imag) if a.dtype.kind == "c" else (a,)
    limit = np.finfo(parts[0].dtype).smallest_normal * 2.0**24
    near = np.zeros(a.shape, dtype=bool)
    for p in parts:
        with np.errstate(invalid="ignore"):
            near |= (p != 0) & (np.abs(p) < limit)
    return np.broadcast_to(near, shape)


def _odd_parts(a: np.ndarray) -> np.ndarray:
    c = np.asarray(a)
    return ~np.isfinite(c) | (c.real == 0) | (c.imag == 0)


def _agrees(
    device: Any, name: str, args: tuple[np.ndarray, ...], got: Any, want: Any
) -> np.ndarray:
    """Where ``got`` agrees with NumPy's ``want``: :func:`_same`, and on a
    CUDA device (see ``helpers.on_cuda``; the simulated ones run NumPy's
    arithmetic, so CI takes the same branches):

    - within a few ulps (CUDA's math library and thrust's complex functions
      round otherwise);
    - for float32-based dtypes, as a kernel compiled with -ftz=true computes:
      the oracle of the inputs with subnormals flushed, flushed;
    - not compared where an input or the result has a part near the subnormal
      range (flushed, or computed with less accuracy there);
    - zeros of either sign for maximum and minimum of two zeros, and inf for a
      hypot or abs at the largest finite value (CUDA rounds it over); a finite
      complex log1p where NumPy's overflows (|1 + x| above the largest value);
    - not compared for a complex division or power with a zero, infinite or
      NaN part, which the standard leaves to the implementation (CuPy's are
      not NumPy's there).
    """
    ok = _same(got, want)
    if ok.all() or not on_cuda(device):
        return ok
    shape = ok.shape
    ok = ok | within_ulps(got, want)
    if args[0].dtype.name in FTZ_DTYPES and has_subnormals(*args, want):
        flushed = _numpy_oracle(name, *[flush_subnormals(a) for a in args])
        if flushed is not None:
            ok = ok | within_ulps(got, flush_subnormals(flushed))
    for a in (*args, want):
        ok = ok | _near_subnormal(a, shape)
    if name in ("maximum", "minimum"):
        ok = ok | ((got == 0) & (want == 0))
    if name in ("hypot", "abs") and got.dtype.kind == "f":
        edge = np.isinf(got) & np.isfinite(want)
        ok = ok | (edge & (np.abs(want) >= np.finfo(got.dtype).max / 2))
    if name == "log1p" and got.dtype.kind == "c":
        # NumPy's complex log1p overflows where |1 + x| passes the largest
        # finite value; the CUDA backend gives log(1 + x) there
        finite_in = np.isfinite(args[0])
        ok = ok | (finite_in & np.isinf(want.real) & np.isfinite(got.real))
    if name in ("divide", "pow") and args[0].dtype.kind == "c":
        for a in args:
            ok = ok | np.broadcast_to(_odd_parts(a), shape)
    return ok


def _report(name: str, args: tuple[np.ndarray, ...], got: Any, want: Any, ok: Any):
    bad = np.argwhere(~np.broadcast_to(ok, np.shape(got)))[:5]
    lines = []
    for idx in bad:
        i = tuple(idx)
        ins = [np.broadcast_to(a, np.shape(got))[i] for a in args]
        lines.append(f"{name}{tuple(ins)} = {got[i]!r}, expected {want[i]!r}")
    return f"{int((~ok).sum())} of {np.size(ok)} differ:\n" + "\n".join(lines)


def _device_ok(dev: Any, dt_name: str) -> None:
    """Skip complex32 on a CPU without its compiled kernels."""
    if (
        dt_name == "complex32"
        and dev.kind == "cpu"
        and not dev._backend.supports_complex32
    ):
        pytest.skip(dev._backend.ext_kernels_unavailable)


def _xp_dtype(name: str) -> Any:
    return (
        getattr(ocean_ext, name)
        if name in ("float16", "complex32")
        else (getattr(xp, name))
    )


def _to_ours(a: np.ndarray, dt_name: str, device: Any) -> Any:
    return xp.asarray(a, dtype=_xp_dtype(dt_name), device=device)


def _from_ours(x: Any) -> np.ndarray:
    if x.dtype == ocean_ext.complex32:
        return host(xp.astype(x, xp.complex64))
    return host(x)


props = settings(max_examples=15)


# --- standard dtypes and float16 against NumPy ----------------------------------------
@pytest.mark.parametrize("dt_name", ["float16", *STANDARD])
@pytest.mark.parametrize("name", sorted(set(UNARY_REAL) | set(UNARY_COMPLEX)))
@props
@given(data=st.data())
def test_unary_matches_numpy(name, dt_name, device, data):
    """Unary functions: NumPy's result (or the standard's rule), bit for bit."""
    complex_dt = dt_name.startswith("complex")
    if name not in (UNARY_COMPLEX if complex_dt else UNARY_REAL):
        return
    _device_ok(device, dt_name)
    a = data.draw(_arrays(np.dtype(dt_name), data.draw(SHAPES)), label="x")
    want = _numpy_oracle(name, a)
    if want is None:
        return
    got = _from_ours(getattr(xp, name)(_to_ours(a, dt_name, device)))
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    ok = _agrees(device, name, (a,), got, want)
    assert ok.all(), _report(name, (a,), got, want, ok)


@pytest.mark.parametrize("dt_name", ["float16", *STANDARD])
@pytest.mark.parametrize("name", BINARY_REAL)
@props
@given(data=st.data())
def test_binary_matches_numpy(name, dt_name, device, data):
    """Binary functions: NumPy's result (or the standard's rule), bit for bit."""
    if dt_name.startswith("complex") and name not in BINARY_COMPLEX:
        return
    _device_ok(device, dt_name)
    shapes = data.draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2))
    dt = np.dtype(dt_name)
    a = data.draw(_arrays(dt, shapes.input_shapes[0]), label="x1")
    b = data.draw(_arrays(dt, shapes.input_shapes[1]), label="x2")
    want = _numpy_oracle(name, a, b)
    got = _from_ours(
        getattr(xp, name)(_to_ours(a, dt_name, device), _to_ours(b, dt_name, device))
    )
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    ok = _agrees(device, name, (a, b), got, want)
    assert ok.all(), _report(name, (a, b), got, want, ok)


# --- complex32 against complex64, rounded ------------------------------------------------
# Functions whose complex32 result must be complex64's rounded, bit for bit,
# on every input: exact bit operations (negative, conj, real, imag), the
# predicates and comparisons, round, the functions computed through complex64
# (pow, expm1, log1p), and add, subtract, multiply, square, exp, divide and
# reciprocal, whose kernels take complex64's binary32 steps (the products of
# float16 parts are exact in float32: one rounding per part, as complex64's;
# exp is glibc's cexpf; divide and reciprocal NumPy's Smith's method).
C32_EXACT = frozenset(
    {"add", "subtract", "multiply", "square", "exp", "divide", "reciprocal",
     "negative", "positive", "conj", "real", "imag", "isnan", "isinf",
     "isfinite", "equal", "not_equal", "round", "pow", "expm1", "log1p"}
)  # fmt: skip


def _half_order(v: np.ndarray) -> np.ndarray:
    """float16 values as integers in their order (adjacent values differ by 1;
    +0 and -0 are both 0)."""
    bits = v.astype(F16).view(np.uint16).astype(np.int32)
    return np.where(bits >= 0x8000, -(bits & 0x7FFF), bits)


# On a CUDA device complex64's transcendental functions and division are
# CuPy's (CUDA's math library, thrust), not glibc's and NumPy's: complex32's
# kernels then round a result of their own, as for the functions outside
# C32_EXACT.
C32_EXACT_CUDA = C32_EXACT - {"exp", "divide", "reciprocal", "pow", "expm1", "log1p"}


def _c32_agrees(
    name: str,
    got: np.ndarray,
    want: np.ndarray,
    special_in: np.ndarray,
    cuda: bool = False,
) -> np.ndarray:
    """Where complex32 ``got`` agrees with complex64's ``want`` rounded.

    Bit for bit (any NaN equals any NaN) for :data:`C32_EXACT`, and for every
    function wherever an input has a NaN or infinite part: there the result
    is fixed by exact rules (the standard's special cases, or the agreed
    implementation choice), never by rounding.  Elsewhere the other kernels
    round, once, a result computed in float32 or double from the same
    float16 inputs, where complex64 rounds its float32 result (itself within a
    few float32 ulps) again to float16: the two can straddle the midpoint
    between two float16 values, which are then one float16 ulp apart, and
    no more (a float32 ulp is 2**-13 float16 ulps).  So: the same NaNs, the
    same zero signs where both are zero, and at most one float16 ulp apart
    (counting through the largest finite value to infinity and through the
    smallest subnormal to zero, the bounds of rounding).
    """
    exact = _same(got, want)
    if name in (C32_EXACT_CUDA if cuda else C32_EXACT):
        return exact
    if got.dtype.kind == "c":
        parts = [(got.real, want.real), (got.imag, want.imag)]
    else:
        parts = [(got, want)]
    near = np.ones(got.shape, dtype=bool)
    for g, w in parts:
        same_nan = np.isnan(g) == np.isnan(w)
        both_zero = (g == 0) & (w == 0)
        zero_sign = ~both_zero | (np.signbit(g) == np.signbit(w))
        with np.errstate(invalid="ignore"):
            ulp = np.abs(_half_order(g) - _half_order(w)) <= 1
        near &= same_nan & zero_sign & (np.isnan(g) | ulp)
    return np.where(special_in, exact, near)


def _c64_rounded(a: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        pair = a.astype(np.complex64)[..., None].view(np.float32).astype(F16)
    return pair.astype(np.float32).view(np.complex64)[..., 0]


@pytest.mark.parametrize(
    "name", sorted(set(UNARY_COMPLEX) | set(BINARY_COMPLEX)), ids=str
)
@props
@given(data=st.data())
def test_complex32_agrees_with_complex64(name, device, data):
    """complex32 gives complex64's result rounded to complex32 (see
    :func:`_c32_agrees`), on every device."""
    _device_ok(device, "complex32")
    nargs = 2 if name in BINARY_COMPLEX else 1
    if nargs == 2:
        shapes = data.draw(
            hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2)
        ).input_shapes
    else:
        shapes = [data.draw(SHAPES)]
    # complex32 values: float16 parts, held as complex64
    args = [
        _c64_rounded(data.draw(_arrays(np.dtype(np.complex64), s), label=f"x{i}"))
        for i, s in enumerate(shapes)
    ]
    f = getattr(xp, name)
    wide = f(*[xp.asarray(a, device=device) for a in args])
    want = _from_ours(
        xp.astype(wide, ocean_ext.complex32)
        if wide.dtype == xp.complex64
        else xp.astype(wide, ocean_ext.float16)
        if wide.dtype == xp.float32
        else wide
    )
    got = _from_ours(f(*[_to_ours(a, "complex32", device) for a in args]))
    if got.dtype == F16:
        got, want = got.astype(np.float32), want.astype(np.float32)
    assert got.shape == want.shape
    special = np.zeros(got.shape, dtype=bool)
    for a in args:
        special |= np.broadcast_to(~np.isfinite(a), got.shape)
    ok = _c32_agrees(name, got, want, special, cuda=on_cuda(device))
    if on_cuda(device) and name in ("divide", "reciprocal"):
        # the standard leaves a complex division with a zero, infinite or NaN
        # part to the implementation: CuPy's complex64 is not NumPy's there
        for a in args[-1:]:
            odd = ~np.isfinite(a) | (a.real == 0) | (a.imag == 0)
            ok = ok | np.broadcast_to(odd, ok.shape)
    assert ok.all(), _report(name, tuple(args), got, want, ok)
