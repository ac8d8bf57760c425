"""Every special case the standard states for complex operands, on every
complex dtype (complex128, complex64 and ``ocean_ext.complex32``) and device.

The table below is our own reading of the "Special cases" of the 2025.12
elementwise functions for complex floating-point operands: one row per stated
case, ``(a, b, (real, imag))`` for ``x = a + bj``.  Inputs are *kinds* of
value ("a positive finite number", "any value", ...) that expand to concrete
values of each dtype (its subnormals and largest finite value included);
results are exact values (a zero's sign counts), :class:`Pm` where the
standard leaves a sign unspecified, :class:`Approx` for values such as pi/2
that a dtype can only round, or a function of ``(a, b)`` (``cis`` cases).  A
NaN result is any NaN: the standard never specifies a NaN's sign.

The standard states most tables for one quadrant and adds symmetries
(``f(conj(x)) == conj(f(x))``, odd functions); inputs outside the quadrant
resolve through them.  Functions defined "as if" through another (``asin``
as ``-1j * asinh(x * 1j)``, ``cos`` as ``cosh(x * 1j)``, ``log2`` through the
change of base) resolve through that one's table, with the component rules of
multiplying by ``-1j`` and dividing by a real number.  Where no stated case
applies the result is not checked here (``tests/test_elementwise_properties.py``
checks those against NumPy, or complex64 for complex32).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import ocean_array_api as xp
import ocean_ext

from .helpers import FTZ_DTYPES, host, on_cuda

INF = math.inf
NAN = math.nan
PI = math.pi


# --- expected values -----------------------------------------------------------------
@dataclass(frozen=True)
class Pm:
    """``±v``: the standard leaves the sign unspecified."""

    v: float


@dataclass(frozen=True)
class Approx:
    """A value a dtype rounds (pi/2, ...); ``signed=False`` for ``±v``."""

    v: float
    signed: bool = True


def _neg(c: Any) -> Any:
    if isinstance(c, Pm):
        return c
    if isinstance(c, Approx):
        return Approx(-c.v, c.signed)
    return -c


def _scale(c: Any, k: float) -> Any:
    """A component divided by the real number ``1 / k`` (> 0), as IEEE does."""
    if isinstance(c, Pm):
        return Pm(c.v * k)
    if isinstance(c, Approx):
        return Approx(c.v * k, c.signed)
    if c == 0 or math.isinf(c) or math.isnan(c):
        return c
    return Approx(c * k)


# --- kinds of input --------------------------------------------------------------------
def _finite_pool(dt: Any) -> list[float]:
    """Positive finite values of ``dt``'s parts: a subnormal, the smallest
    normal, ordinary values and the largest finite value."""
    fi = xp.finfo(dt)
    return [fi.smallest_normal * fi.eps, fi.smallest_normal, 0.5, 1.0, 2.5, fi.max]


def _kinds(dt: Any) -> dict[str, list[float]]:
    pos = _finite_pool(dt)
    neg = [-v for v in pos]
    fin = [0.0, -0.0, *pos, *neg]
    return {
        "+0": [0.0],
        "-0": [-0.0],
        "0": [0.0, -0.0],
        "1": [1.0],
        "-1": [-1.0],
        "pos": pos,  # a positive (> 0) finite number
        "fin": fin,  # a finite number
        "nzf": pos + neg,  # a nonzero finite number
        "nz": pos + neg + [INF, -INF, NAN],  # not equal to 0
        "nzn": pos + neg + [INF, -INF],  # a nonzero number (not NaN)
        "any": [*fin, INF, -INF, NAN],
        "+inf": [INF],
        "-inf": [-INF],
        "inf": [INF, -INF],
        "nan": [NAN],
    }


Row = tuple[str, str, Any]  # (kind of a, kind of b, result or result(a, b))


def _cis(r: float) -> Callable[[float, float], tuple[float, float]]:
    """``r * cis(b)`` for r = 0 or +inf (signs from cos b and sin b)."""

    def f(a: float, b: float) -> tuple[float, float]:
        return math.copysign(r, math.cos(b)), math.copysign(r, math.sin(b))

    return f


def _cis_m1(a: float, b: float) -> tuple[Any, Any]:
    """``+0 * cis(b) - 1``: -1 plus a zero, and a zero with sin b's sign."""
    return -1.0, math.copysign(0.0, math.sin(b))


def _inf_cis_m1(a: float, b: float) -> tuple[float, float]:
    return math.copysign(INF, math.cos(b)), math.copysign(INF, math.sin(b))


# The tables, in the standard's order.  "0j" in a result is +0 (as the
# official array-api-tests read it); Pm where the standard says "sign ...
# unspecified" or writes ±.
TABLES: dict[str, list[Row]] = {
    "acos": [
        ("0", "+0", (Approx(PI / 2), -0.0)),
        ("0", "nan", (Approx(PI / 2), NAN)),
        ("fin", "+inf", (Approx(PI / 2), -INF)),
        ("nzf", "nan", (NAN, NAN)),
        ("-inf", "pos", (Approx(PI), -INF)),
        ("+inf", "pos", (0.0, -INF)),
        ("-inf", "+inf", (Approx(3 * PI / 4), -INF)),
        ("+inf", "+inf", (Approx(PI / 4), -INF)),
        ("inf", "nan", (NAN, Pm(INF))),
        ("nan", "fin", (NAN, NAN)),
        ("nan", "+inf", (NAN, -INF)),
        ("nan", "nan", (NAN, NAN)),
    ],
    "acosh": [
        ("0", "+0", (0.0, Approx(PI / 2))),
        ("fin", "+inf", (INF, Approx(PI / 2))),
        ("nzf", "nan", (NAN, NAN)),
        ("+0", "nan", (NAN, Approx(PI / 2, signed=False))),
        ("-inf", "pos", (INF, Approx(PI))),
        ("+inf", "pos", (INF, 0.0)),
        ("-inf", "+inf", (INF, Approx(3 * PI / 4))),
        ("+inf", "+inf", (INF, Approx(PI / 4))),
        ("inf", "nan", (INF, NAN)),
        ("nan", "fin", (NAN, NAN)),
        ("nan", "+inf", (INF, NAN)),
        ("nan", "nan", (NAN, NAN)),
    ],
    "asinh": [
        ("+0", "+0", (0.0, 0.0)),
        ("pos", "+inf", (INF, Approx(PI / 2))),
        ("fin", "nan", (NAN, NAN)),
        ("+inf", "pos", (INF, 0.0)),
        ("+inf", "+inf", (INF, Approx(PI / 4))),
        ("nan", "+0", (NAN, 0.0)),
        ("nan", "nzf", (NAN, NAN)),
        ("nan", "+inf", (Pm(INF), NAN)),
        ("nan", "nan", (NAN, NAN)),
    ],
    "atanh": [
        ("+0", "+0", (0.0, 0.0)),
        ("+0", "nan", (0.0, NAN)),
        ("1", "+0", (INF, 0.0)),
        ("pos", "+inf", (0.0, Approx(PI / 2))),
        ("nzf", "nan", (NAN, NAN)),
        ("+inf", "pos", (0.0, Approx(PI / 2))),
        ("+inf", "+inf", (0.0, Approx(PI / 2))),
        ("+inf", "nan", (0.0, NAN)),
        ("nan", "fin", (NAN, NAN)),
        ("nan", "+inf", (Pm(0.0), Approx(PI / 2))),
        ("nan", "nan", (NAN, NAN)),
    ],
    "cosh": [
        ("+0", "+0", (1.0, 0.0)),
        ("+0", "+inf", (NAN, Pm(0.0))),
        ("+0", "nan", (NAN, Pm(0.0))),
        ("nzf", "+inf", (NAN, NAN)),
        ("nzf", "nan", (NAN, NAN)),
        ("+inf", "+0", (INF, 0.0)),
        ("+inf", "nzf", _cis(INF)),
        ("+inf", "+inf", (Pm(INF), NAN)),
        ("+inf", "nan", (INF, NAN)),
        ("nan", "0", (NAN, Pm(0.0))),
        ("nan", "nzf", (NAN, NAN)),
        ("nan", "nan", (NAN, NAN)),
    ],
    "exp": [
        ("0", "+0", (1.0, 0.0)),
        ("fin", "+inf", (NAN, NAN)),
        ("fin", "nan", (NAN, NAN)),
        ("+inf", "+0", (INF, 0.0)),
        ("-inf", "fin", _cis(0.0)),
        ("+inf", "nzf", _cis(INF)),
        ("-inf", "+inf", (Pm(0.0), Pm(0.0))),
        ("+inf", "+inf", (Pm(INF), NAN)),
        ("-inf", "nan", (Pm(0.0), Pm(0.0))),
        ("+inf", "nan", (Pm(INF), NAN)),
        ("nan", "+0", (NAN, 0.0)),
        ("nan", "nz", (NAN, NAN)),
    ],
    "expm1": [
        ("0", "+0", (0.0, 0.0)),
        ("fin", "+inf", (NAN, NAN)),
        ("fin", "nan", (NAN, NAN)),
        ("+inf", "+0", (INF, 0.0)),
        ("-inf", "fin", _cis_m1),
        ("+inf", "nzf", _inf_cis_m1),
        ("-inf", "+inf", (-1.0, Pm(0.0))),
        ("+inf", "+inf", (Pm(INF), NAN)),
        ("-inf", "nan", (-1.0, Pm(0.0))),
        ("+inf", "nan", (Pm(INF), NAN)),
        ("nan", "+0", (NAN, 0.0)),
        ("nan", "nz", (NAN, NAN)),
    ],
    "log": [
        ("-0", "+0", (-INF, Approx(PI))),
        ("+0", "+0", (-INF, 0.0)),
        ("fin", "+inf", (INF, Approx(PI / 2))),
        ("fin", "nan", (NAN, NAN)),
        ("-inf", "pos", (INF, Approx(PI))),
        ("+inf", "pos", (INF, 0.0)),
        ("-inf", "+inf", (INF, Approx(3 * PI / 4))),
        ("+inf", "+inf", (INF, Approx(PI / 4))),
        ("inf", "nan", (INF, NAN)),
        ("nan", "fin", (NAN, NAN)),
        ("nan", "+inf", (INF, NAN)),
        ("nan", "nan", (NAN, NAN)),
    ],
    "log1p": [
        ("-1", "+0", (-INF, 0.0)),
        ("fin", "+inf", (INF, Approx(PI / 2))),
        ("fin", "nan", (NAN, NAN)),
        ("-inf", "pos", (INF, Approx(PI))),
        ("+inf", "pos", (INF, 0.0)),
        ("-inf", "+inf", (INF, Approx(3 * PI / 4))),
        ("+inf", "+inf", (INF, Approx(PI / 4))),
        ("inf", "nan", (INF, NAN)),
        ("nan", "fin", (NAN, NAN)),
        ("nan", "+inf", (INF, NAN)),
        ("nan", "nan", (NAN, NAN)),
    ],
    "sinh": [
        ("+0", "+0", (0.0, 0.0)),
        ("+0", "+inf", (Pm(0.0), NAN)),
        ("+0", "nan", (Pm(0.0), NAN)),
        ("pos", "+inf", (NAN, NAN)),
        ("pos", "nan", (NAN, NAN)),
        ("+inf", "+0", (INF, 0.0)),
        ("+inf", "pos", _cis(INF)),
        ("+inf", "+inf", (Pm(INF), NAN)),
        ("+inf", "nan", (Pm(INF), NAN)),
        ("nan", "+0", (NAN, 0.0)),
        ("nan", "nzf", (NAN, NAN)),
        ("nan", "nan", (NAN, NAN)),
    ],
    "sqrt": [
        ("0", "+0", (0.0, 0.0)),
        ("any", "+inf", (INF, INF)),
        ("fin", "nan", (NAN, NAN)),
        ("-inf", "pos", (0.0, INF)),
        ("+inf", "pos", (INF, 0.0)),
        ("-inf", "nan", (NAN, Pm(INF))),
        ("+inf", "nan", (INF, NAN)),
        ("nan", "any", (NAN, NAN)),
    ],
    "tanh": [
        ("+0", "+0", (0.0, 0.0)),
        ("nzf", "+inf", (NAN, NAN)),
        ("+0", "+inf", (0.0, NAN)),
        ("nzf", "nan", (NAN, NAN)),
        ("+0", "nan", (0.0, NAN)),
        ("+inf", "pos", (1.0, 0.0)),
        ("+inf", "+inf", (1.0, Pm(0.0))),
        ("+inf", "nan", (1.0, Pm(0.0))),
        ("nan", "+0", (NAN, 0.0)),
        ("nan", "nzn", (NAN, NAN)),
        ("nan", "nan", (NAN, NAN)),
    ],
    # sign: x / |x| where |x| is real, so the division table's
    # (a / c) + (b / c) j with IEEE's real rules (inf / inf is NaN)
    "sign": [
        ("0", "0", (0.0, 0.0)),
        ("nan", "any", (NAN, NAN)),
        ("any", "nan", (NAN, NAN)),
        ("inf", "inf", (NAN, NAN)),
        ("inf", "fin", lambda a, b: (NAN, math.copysign(0.0, b))),
        ("fin", "inf", lambda a, b: (math.copysign(0.0, a), NAN)),
    ],
    # abs, the predicates and the comparisons: real-valued results
    "abs": [
        ("inf", "any", INF),
        ("any", "inf", INF),
        ("0", "any", "abs(b)"),
        ("any", "0", "abs(a)"),
        ("nan", "fin", NAN),
        ("fin", "nan", NAN),
        ("nan", "nan", NAN),
    ],
    "isnan": [("nan", "any", True), ("any", "nan", True), ("any", "any", False)],
    "isinf": [
        ("inf", "any", True),
        ("fin", "inf", True),
        ("nan", "inf", True),
        ("any", "any", False),
    ],
    "isfinite": [
        ("nan", "any", False),
        ("any", "nan", False),
        ("inf", "any", False),
        ("any", "inf", False),
        ("fin", "fin", True),
    ],
    # x * x and 1.0 / x: only "all of a, b, c, d NaN" is stated for complex
    # operands (the rest is implementation-dependent)
    "square": [("nan", "nan", (NAN, NAN))],
}

# f(conj(x)) == conj(f(x)); odd: f(-x) == -f(x)
CONJ_SYMMETRIC = frozenset(
    {"acos", "acosh", "asinh", "atanh", "cosh", "exp", "expm1", "log", "log1p",
     "sinh", "sqrt", "tanh"}
)  # fmt: skip
ODD = frozenset({"asinh", "atanh"})
# functions defined as -1j * g(x * 1j) (or g(x * 1j) for cos)
ROTATED = {"asin": "asinh", "atan": "atanh", "sin": "sinh", "tan": "tanh"}


def _matches(kind: str, v: float, kinds: dict[str, list[float]]) -> bool:
    pool = kinds[kind]
    if math.isnan(v):
        return any(math.isnan(p) for p in pool)
    return any(p == v and math.copysign(1, p) == math.copysign(1, v) for p in pool)


def _lookup(name: str, a: float, b: float, kinds: dict[str, list[float]]) -> Any:
    for ka, kb, res in TABLES[name]:
        if _matches(ka, a, kinds) and _matches(kb, b, kinds):
            if callable(res):
                return res(a, b)
            if res == "abs(b)":
                return abs(b)
            if res == "abs(a)":
                return abs(a)
            return res
    return None


def _signbit(v: float) -> bool:
    return not math.isnan(v) and math.copysign(1, v) < 0


def expected(name: str, a: float, b: float, kinds: dict[str, list[float]]) -> Any:
    """What the standard says ``name(a + bj)`` is, or None where it is silent."""
    if name in ROTATED:
        # -1j * g(-b + aj): (X, Y) -> (Y, -X)
        r = expected(ROTATED[name], -b if not math.isnan(b) else b, a, kinds)
        return None if r is None else (r[1], _neg(r[0]))
    if name == "cos":
        return expected("cosh", -b if not math.isnan(b) else b, a, kinds)
    if name in ("log2", "log10"):
        r = expected("log", a, b, kinds)
        k = 1 / math.log(2.0 if name == "log2" else 10.0)
        return None if r is None else (_scale(r[0], k), _scale(r[1], k))
    if name in ODD and _signbit(a):
        r = expected(name, -a, -b if not math.isnan(b) else b, kinds)
        return None if r is None else (_neg(r[0]), _neg(r[1]))
    if name in CONJ_SYMMETRIC and _signbit(b):
        r = expected(name, a, -b, kinds)
        return None if r is None else (r[0], _neg(r[1]))
    return _lookup(name, a, b, kinds)


# --- comparing -----------------------------------------------------------------------------
def _component_ok(got: float, want: Any, eps: float) -> bool:
    if isinstance(want, Pm):
        return abs(got) == want.v
    if isinstance(want, Approx):
        v = got if want.signed else abs(got)
        return math.isclose(v, want.v, rel_tol=2 * eps, abs_tol=0)
    if isinstance(want, float) and math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


COMPLEX = [xp.complex128, xp.complex64, ocean_ext.complex32]
UNARY = sorted(
    [*TABLES, *ROTATED, "cos", "log2", "log10"],
)
REAL_RESULT = frozenset({"abs", "isnan", "isinf", "isfinite"})


def _needs_complex32(dt: Any, device: Any) -> None:
    """Skip on a CPU without the compiled complex32 kernels (CUDA computes
    complex32 through complex64 when its fused kernels are missing)."""
    if (
        dt == ocean_ext.complex32
        and device.kind == "cpu"
        and not device._backend.supports_complex32
    ):
        pytest.skip(device._backend.ext_kernels_unavailable)


def _grid(dt: Any) -> tuple[list[complex], dict[str, list[float]]]:
    kinds = _kinds(dt)
    parts = kinds["any"]
    return [complex(a, b) for a in parts for b in parts], kinds


def _eps(dt: Any) -> float:
    return float(xp.finfo(dt).eps)


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
@pytest.mark.parametrize("name", UNARY)
def test_unary_special_cases(name, dt, device):
    """Every stated case of ``name`` on the special and extreme values of ``dt``."""
    _needs_complex32(dt, device)
    grid, kinds = _grid(dt)
    x = xp.asarray(grid, dtype=dt, device=device)
    res = getattr(xp, name)(x)
    got = host(xp.astype(res, xp.complex128) if name not in REAL_RESULT else res)
    eps = _eps(dt)
    bad = []
    checked = 0
    # CuPy compiles its kernels with -ftz=true: a float32 subnormal part (of
    # complex64, or of complex32 computed in float32) is read as a zero of its
    # sign, so the rule of a zero part applies to it there (a hardware mode
    # the standard leaves alone); those inputs are not checked on CUDA.
    tiny = float(xp.finfo(xp.float32).smallest_normal)
    ftz = on_cuda(device) and str(dt) in FTZ_DTYPES
    for z, g in zip(grid, got.tolist(), strict=True):
        want = expected(name, z.real, z.imag, kinds)
        if want is None:
            continue
        if ftz and any(0 < abs(p) < tiny for p in (z.real, z.imag)):
            continue
        checked += 1
        if name in REAL_RESULT:
            ok = (
                g is want
                if isinstance(want, bool)
                else _component_ok(float(g), want, eps)
            )
        else:
            ok = _component_ok(g.real, want[0], eps) and _component_ok(
                g.imag, want[1], eps
            )
        if not ok:
            bad.append(f"{name}({z!r}) = {g!r}, the standard says {want}")
    assert checked, f"no stated case of {name} was checked"
    assert not bad, f"{len(bad)} of {checked} cases:\n" + "\n".join(bad[:40])


# --- the reviewed defects (issue item 5) ------------------------------------------------
def _values(x: Any) -> list[complex]:
    return host(xp.astype(x, xp.complex128)).tolist()


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_sign_of_a_nan_component_is_nan(dt, device):
    """sign(inf + NaN j) is NaN + NaN j: a NaN part wins over an infinite one."""
    _needs_complex32(dt, device)
    zs = [complex(INF, NAN), complex(NAN, -INF), complex(-INF, NAN), complex(NAN, 0)]
    for z in _values(xp.sign(xp.asarray(zs, dtype=dt, device=device))):
        assert math.isnan(z.real)
        assert math.isnan(z.imag)


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_sign_of_two_infinite_parts_is_nan(dt, device):
    """sign(inf + inf j) = (inf + inf j) / inf: NaN + NaN j for every dtype."""
    _needs_complex32(dt, device)
    zs = [complex(INF, INF), complex(-INF, INF), complex(INF, -INF)]
    for z in _values(xp.sign(xp.asarray(zs, dtype=dt, device=device))):
        assert math.isnan(z.real)
        assert math.isnan(z.imag)


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_sign_of_the_largest_finite_values(dt, device):
    """A finite x whose |x| overflows still has sign x / |x| (no 0 + 1j)."""
    _needs_complex32(dt, device)
    big = float(xp.finfo(dt).max)
    zs = [complex(big, big), complex(-big, big), complex(big, -1.0)]
    got = _values(xp.sign(xp.asarray(zs, dtype=dt, device=device)))
    eps = 2 * _eps(dt)
    assert math.isclose(got[0].real, math.sqrt(0.5), rel_tol=eps)
    assert math.isclose(got[0].imag, math.sqrt(0.5), rel_tol=eps)
    assert math.isclose(got[1].real, -math.sqrt(0.5), rel_tol=eps)
    assert math.isclose(got[1].imag, math.sqrt(0.5), rel_tol=eps)
    assert got[2].real == 1.0
    assert got[2].imag <= 0.0


@pytest.mark.parametrize("name", ["sign", "reciprocal"])
def test_complex32_agrees_with_complex64_on_special_values(name, device):
    """complex32 gives complex64's result, rounded, on every special value."""
    _needs_complex32(ocean_ext.complex32, device)
    parts = [0.0, -0.0, 1.0, -2.0, 65504.0, 2.0**-24, INF, -INF, NAN]
    zs = [complex(a, b) for a in parts for b in parts]
    wide = getattr(xp, name)(xp.asarray(zs, dtype=xp.complex64, device=device))
    want = xp.astype(xp.astype(wide, ocean_ext.complex32), xp.complex128)
    got = getattr(xp, name)(xp.asarray(zs, dtype=ocean_ext.complex32, device=device))
    w, g = host(want), host(xp.astype(got, xp.complex128))
    for z, wz, gz in zip(zs, w.tolist(), g.tolist(), strict=True):
        for wp, gp in ((wz.real, gz.real), (wz.imag, gz.imag)):
            if math.isnan(wp):
                assert math.isnan(gp), f"{name}({z}) = {gz}, complex64: {wz}"
            else:
                close = gp == wp or abs(gp - wp) <= 2.0**-10 * abs(wp)
                assert close, f"{name}({z}): {gz} vs {wz}"
                assert math.copysign(1, gp) == math.copysign(1, wp), (
                    f"{name}({z}) = {gz}, complex64: {wz}"
                )
