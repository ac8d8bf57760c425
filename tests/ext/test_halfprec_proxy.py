"""float16 and complex32 in the functions that have no half-precision kernel.

``cumulative_sum``, ``diff``, ``std``, ``var``, ``tensordot``, ``linalg``,
``unique_*``, ``isin``... compute in the proxy dtype (float32, complex64), to
which every half-precision value widens exactly, and round their floating
results once.  So the oracle is the same function called on the widened
input, its result rounded: the two must agree bit for bit.  Functions that
only move data (``fft.fftshift``, ``linalg.diagonal``) keep the stored bits,
NaN payloads included.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
from ocean_ext import complex32, float16, view_as_complex, view_as_real

from ..helpers import to_np
from .halfprec_support import round_c64, round_f32, same_bits

F16 = np.dtype(np.float16)
PROXY = {float16: xp.float32, complex32: xp.complex64}
NARROW = {xp.float32: float16, xp.complex64: complex32}

half = st.floats(width=16, allow_nan=True, allow_infinity=True)
finite_half = st.floats(-8, 8, width=16)
shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6)


def make(values: np.ndarray, dt):
    """An array of ``dt`` from float16 ``values`` (complex32: shape (..., 2) parts)."""
    if dt is complex32:
        return xp.asarray(view_as_complex(np.ascontiguousarray(values)), copy=True)
    return xp.asarray(values, dtype=float16)


@st.composite
def halfprec(draw, dt, elements=half, shape=None):
    shp = draw(shapes) if shape is None else shape
    full = (*shp, 2) if dt is complex32 else shp
    return make(draw(hnp.arrays(F16, full, elements=elements)), dt)


def widen(x):
    return xp.astype(x, PROXY[x.dtype]) if x.dtype in PROXY else x


def rounded(res):
    """The oracle's result, its floating arrays rounded like ours."""
    if isinstance(res, tuple):
        items = [rounded(r) for r in res]
        return type(res)(*items) if hasattr(res, "_fields") else tuple(items)
    if res.dtype in NARROW:  # the same map for both families
        return xp.astype(res, NARROW[res.dtype])
    return res


def assert_same(ours, want):
    if isinstance(want, tuple):
        assert type(ours) is type(want)
        for o, w in zip(ours, want, strict=True):
            assert_same(o, w)
        return
    assert ours.dtype == want.dtype
    assert ours.shape == want.shape
    assert ours.device == want.device
    o, w = to_np(ours), to_np(want)
    if o.dtype.kind in "fc":
        if ours.dtype is complex32:
            o = to_np(xp.astype(ours, xp.complex64))
            w = to_np(xp.astype(want, xp.complex64))
        same_bits(o, w)
    else:
        np.testing.assert_array_equal(o, w)


def through_proxy(func, *arrays, **kwargs):
    """(ours, oracle): ``func`` on half-precision input, and on the widened
    input with its result rounded to the input's dtype family."""
    with np.errstate(all="ignore"):
        ours = func(*arrays, **kwargs)
        want = rounded(func(*[widen(a) for a in arrays], **kwargs))
    return ours, want


DTYPES = pytest.mark.parametrize("dt", [float16, complex32], ids=str)


# --- statistics and differences --------------------------------------------------------
@DTYPES
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@given(data=st.data())
def test_cumulative_functions(dt, name, data):
    x = data.draw(halfprec(dt))
    axis = data.draw(st.integers(0, x.ndim - 1))
    initial = data.draw(st.booleans())
    ours, want = through_proxy(getattr(xp, name), x, axis=axis, include_initial=initial)
    assert ours.dtype == dt
    assert_same(ours, want)


@DTYPES
@given(data=st.data())
def test_diff(dt, data):
    x = data.draw(halfprec(dt))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    n = data.draw(st.integers(0, 3))
    ours, want = through_proxy(xp.diff, x, axis=axis, n=n)
    assert ours.dtype == dt
    assert_same(ours, want)


def test_diff_prepend_append_promote():
    x = xp.asarray([1.0, 2.5, 4.0], dtype=float16)
    got = xp.diff(x, prepend=xp.asarray([0.5], dtype=float16))
    assert got.dtype == float16
    assert to_np(got).tolist() == [0.5, 1.5, 1.5]
    got = xp.diff(x, append=xp.asarray([0.1], dtype=xp.float32))
    assert got.dtype == xp.float32  # float16 with float32 is float32, not rounded
    np.testing.assert_array_equal(
        to_np(got), np.diff(np.array([1.0, 2.5, 4.0, 0.1], dtype=np.float32))
    )
    got = xp.diff(xp.asarray([1.0, 2.0]), prepend=xp.asarray([1j], dtype=complex32))
    assert got.dtype == xp.complex128


@pytest.mark.parametrize("name", ["std", "var"])
@given(data=st.data())
def test_std_var_of_float16(name, data):
    x = data.draw(halfprec(float16, elements=finite_half))
    axis = data.draw(st.sampled_from([None, 0, -1]))
    correction = data.draw(st.sampled_from([0, 1, 1.5]))
    keepdims = data.draw(st.booleans())
    func = getattr(xp, name)
    ours, want = through_proxy(
        func, x, axis=axis, correction=correction, keepdims=keepdims
    )
    assert ours.dtype == float16
    assert_same(ours, want)


def test_std_var_accumulate_in_float32():
    # 4096 ones and a two: a float16 running sum would stall at 2048
    x = xp.ones(4097, dtype=float16)
    x[0] = 2.0
    want = np.var(np.r_[2.0, np.ones(4096)])
    assert float(xp.var(x)) == float(np.float16(want))
    assert float(xp.std(x)) == float(np.float16(np.sqrt(want)))


def test_statistics_refuse_what_complex64_refuses():
    z = xp.ones((2, 2), dtype=complex32)
    for func in (xp.std, xp.var):
        with pytest.raises(TypeError, match="complex32"):
            func(z)
    with pytest.raises(TypeError, match=r"`dtype` float16 .*complex32"):
        xp.cumulative_sum(z, axis=0, dtype=float16)
    with pytest.raises(TypeError, match=r"`dtype` int8 .*complex32"):
        xp.cumulative_prod(z, axis=0, dtype=xp.int8)
    with pytest.raises(ValueError, match="axis"):
        xp.cumulative_sum(z)  # 2-d without an axis


def test_cumulative_sum_with_a_dtype():
    x = xp.asarray([1.0, 2.0, 3.0], dtype=float16)
    got = xp.cumulative_sum(x, dtype=xp.float64)
    assert got.dtype == xp.float64
    assert to_np(got).tolist() == [1.0, 3.0, 6.0]
    got = xp.cumulative_sum(xp.asarray([1.0, 2.0]), dtype=float16, include_initial=True)
    assert got.dtype == float16
    assert to_np(got).tolist() == [0.0, 1.0, 3.0]
    got = xp.cumulative_prod(x, dtype=complex32)
    assert got.dtype == complex32
    assert to_np(got).tolist() == [1, 2, 6]


# --- zero tests, sets --------------------------------------------------------------------
SPECIAL = [0.0, -0.0, 1.0, np.nan, np.inf, -2.5]


def special_c32():
    """complex32 values with every mix of zero, -0, NaN and inf parts."""
    parts = np.array([(a, b) for a in SPECIAL for b in SPECIAL], dtype=F16)
    return make(parts, complex32)


@pytest.mark.parametrize(
    "func",
    [
        xp.count_nonzero,
        xp.nonzero,
        xp.all,
        xp.any,
        lambda z: xp.all(xp.reshape(z, (6, 6)), axis=1),
        lambda z: xp.any(xp.reshape(z, (6, 6)), axis=0, keepdims=True),
        lambda z: xp.count_nonzero(xp.reshape(z, (6, 6)), axis=1),
    ],
)
def test_zero_tests_of_complex32(func):
    z = special_c32()
    ours, want = func(z), func(xp.astype(z, xp.complex64))
    assert_same(ours, want)
    # a complex value is zero when both parts are (+0 or -0)
    assert int(xp.count_nonzero(z)) == 36 - 4


def test_unique_functions_of_complex32_are_exact():
    z = xp.concat([special_c32(), special_c32()[::-3]])
    for name in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
        func = getattr(xp, name)
        ours, want = through_proxy(func, z)
        assert_same(ours, want)
    values = xp.unique_values(z)
    assert values.dtype == complex32
    # every value it returns is one of the input's
    assert bool(xp.all(xp.isin(values[~xp.isnan(values)], z)))


@given(data=st.data())
def test_isin_of_complex32(data):
    a = data.draw(
        halfprec(complex32, elements=st.sampled_from([0.0, -0.0, 1.0, np.nan]))
    )
    b = data.draw(halfprec(complex32, elements=st.sampled_from([0.0, 1.0, 2.0])))
    invert = data.draw(st.booleans())
    ours, want = through_proxy(xp.isin, a, b, invert=invert)
    assert_same(ours, want)
    got = xp.isin(a, 1)
    assert_same(got, xp.isin(widen(a), 1))


# --- linear algebra ------------------------------------------------------------------
def _spd(n, dt):
    rng = np.random.default_rng(n)
    m = rng.uniform(-1, 1, (n, n)) + 1j * rng.uniform(-1, 1, (n, n))
    if dt is float16:
        m = m.real
    a = m @ m.conj().T + n * np.eye(n)
    return xp.asarray(
        a.astype(np.complex64 if dt is complex32 else np.float32), dtype=dt
    )


LINALG = {
    "cholesky": lambda a, b: xp.linalg.cholesky(a),
    "cholesky_upper": lambda a, b: xp.linalg.cholesky(a, upper=True),
    "cross": lambda a, b: xp.linalg.cross(a[:, :3], b[:, :3]),
    "det": lambda a, b: xp.linalg.det(a),
    "eig": lambda a, b: xp.linalg.eig(a),
    "eigh": lambda a, b: xp.linalg.eigh(a),
    "eigvals": lambda a, b: xp.linalg.eigvals(a),
    "eigvalsh": lambda a, b: xp.linalg.eigvalsh(a),
    "inv": lambda a, b: xp.linalg.inv(a),
    "matrix_norm": lambda a, b: xp.linalg.matrix_norm(a, ord="nuc"),
    "matrix_power": lambda a, b: xp.linalg.matrix_power(a, 3),
    "matrix_power_neg": lambda a, b: xp.linalg.matrix_power(a, -1),
    "matrix_rank": lambda a, b: xp.linalg.matrix_rank(a),
    "outer": lambda a, b: xp.linalg.outer(a[0], b[1]),
    "pinv": lambda a, b: xp.linalg.pinv(a),
    "qr": lambda a, b: xp.linalg.qr(a),
    "slogdet": lambda a, b: xp.linalg.slogdet(a),
    "solve": lambda a, b: xp.linalg.solve(a, b),
    "svd": lambda a, b: xp.linalg.svd(a, full_matrices=False),
    "svdvals": lambda a, b: xp.linalg.svdvals(a),
    "trace": lambda a, b: xp.linalg.trace(a, offset=1),
    "vector_norm": lambda a, b: xp.linalg.vector_norm(a, axis=1, ord=3),
    "tensordot": lambda a, b: xp.tensordot(a, b, axes=([1], [0])),
    "linalg.tensordot": lambda a, b: xp.linalg.tensordot(a, b, axes=2),
}


@DTYPES
@pytest.mark.parametrize("name", sorted(LINALG))
def test_linalg_computes_in_the_proxy_and_rounds_once(dt, name):
    a, b = _spd(4, dt), _spd(4, dt) * 0.5
    ours, want = through_proxy(LINALG[name], a, b)
    assert_same(ours, want)
    for r in ours if isinstance(ours, tuple) else (ours,):
        if xp.isdtype(r.dtype, ("real floating", "complex floating")):
            assert r.dtype in (float16, complex32), (name, r.dtype)


def test_linalg_result_dtypes():
    a = _spd(3, float16)
    z = _spd(3, complex32)
    assert xp.linalg.eigvals(a).dtype == complex32  # eigenvalues are complex
    assert xp.linalg.eigvalsh(z).dtype == float16
    assert xp.linalg.svdvals(z).dtype == float16
    assert xp.linalg.slogdet(z).logabsdet.dtype == float16
    assert xp.linalg.slogdet(z).sign.dtype == complex32
    assert xp.linalg.vector_norm(z).dtype == float16
    assert xp.linalg.matrix_rank(z).dtype == xp.int64
    assert xp.linalg.trace(a, dtype=xp.float64).dtype == xp.float64
    assert xp.linalg.trace(xp.eye(3), dtype=float16).dtype == float16
    assert xp.linalg.trace(a, dtype=complex32).dtype == complex32


def test_linalg_mixed_dtypes_promote_as_elsewhere():
    a = _spd(3, float16)
    b = xp.asarray([[1.0], [2.0], [3.0]], dtype=xp.float32)
    got = xp.linalg.solve(a, b)
    assert got.dtype == xp.float32  # float16 with float32: float32, not rounded
    assert_same(got, xp.linalg.solve(xp.astype(a, xp.float32), b))
    got = xp.tensordot(a, _spd(3, complex32), axes=1)
    assert got.dtype == complex32
    got = xp.linalg.cross(a[0], xp.asarray([1.0, 0.0, 0.0]))
    assert got.dtype == xp.float64


def test_linalg_errors_name_the_half_precision_dtype():
    z = _spd(3, complex32)
    with pytest.raises(TypeError, match=r"`dtype` float16 .*complex32"):
        xp.linalg.trace(z, dtype=float16)
    with pytest.raises(ValueError, match="at least 2 dimensions"):
        xp.linalg.inv(z[0])
    with pytest.raises(ValueError, match="square"):
        xp.linalg.det(z[:2])
    with pytest.raises(TypeError, match=r"linalg\.cholesky"):
        xp.linalg.cholesky("not an array")
    with pytest.raises(ValueError, match=r"Device\('cpu', 1\)"):
        xp.linalg.solve(z, xp.ones((3,), dtype=complex32, device="cpu:1"))


# --- functions that only move data keep the stored bits ------------------------------
def _random_bits(shape, dt):
    rng = np.random.default_rng(11)
    full = (*shape, 2) if dt is complex32 else shape
    bits = rng.integers(0, 2**16, full, dtype=np.uint16)
    return make(bits.view(F16), dt), bits


def _storage(x):
    """The stored 16-bit patterns of ``x`` (pairs for complex32)."""
    if x.dtype is complex32:
        x = view_as_real(x)
    return np.asarray(x).view(np.uint16)


@DTYPES
def test_data_movement_keeps_bits(dt):
    x, bits = _random_bits((4, 5), dt)
    np.testing.assert_array_equal(
        _storage(xp.fft.fftshift(x)), np.fft.fftshift(bits, axes=(0, 1))
    )
    np.testing.assert_array_equal(
        _storage(xp.fft.ifftshift(x, axes=1)), np.fft.ifftshift(bits, axes=1)
    )
    np.testing.assert_array_equal(
        _storage(xp.linalg.diagonal(x, offset=1)),
        np.stack([bits[i, i + 1] for i in range(4)]),
    )
    assert xp.fft.fftshift(x).dtype == dt


# --- creation with a half-precision dtype ------------------------------------------------
@given(
    n=st.integers(1, 40),
    d=st.floats(0.01, 100),
)
def test_fftfreq_rounds_once(n, d):
    got = xp.fft.fftfreq(n, d=d, dtype=float16)
    assert got.dtype == float16
    np.testing.assert_array_equal(to_np(got), np.fft.fftfreq(n, d).astype(F16))
    got = xp.fft.rfftfreq(n, d=d, dtype=float16)
    np.testing.assert_array_equal(to_np(got), np.fft.rfftfreq(n, d).astype(F16))


def test_arange_rounds_once():
    got = xp.arange(0, 1, 0.1, dtype=float16)
    assert got.dtype == float16
    np.testing.assert_array_equal(to_np(got), np.arange(0, 1, 0.1).astype(F16))
    assert to_np(xp.arange(5, dtype=float16)).tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(TypeError, match="real numeric"):
        xp.arange(3, dtype=complex32)
    with pytest.raises(TypeError, match="real floating"):
        xp.fft.fftfreq(3, dtype=complex32)


def test_rounding_helpers_agree_with_numpy():
    # the oracle above rounds with our astype; NumPy's rounding agrees
    v = np.array([1 / 3, 2.0**-20, 70000.0, -np.pi], dtype=np.float32)
    assert_same(xp.asarray(v, dtype=float16), xp.asarray(round_f32(v), dtype=float16))
    z = (v + 1j * v[::-1]).astype(np.complex64)
    got = to_np(xp.astype(xp.asarray(z, dtype=complex32), xp.complex64))
    same_bits(got, round_c64(z))
