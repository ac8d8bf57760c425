"""The fft extension against numpy.fft."""

from __future__ import annotations

import numpy as np
import pytest

import ocean_array_api as xp

from .helpers import COMPLEX_DTYPES, REAL_FLOAT_DTYPES, assert_matches, rng_array

fft = xp.fft
_NORMS = ["backward", "ortho", "forward"]
_COMPLEX_OF = {"float32": xp.complex64, "float64": xp.complex128}
_REAL_OF = {"complex64": xp.float32, "complex128": xp.float64}


def _tol(dt):
    return 1e-4 if str(dt) in ("float32", "complex64") else 1e-10


def _close(res, expected, dt):
    assert_matches(res, expected, dtype=dt, rtol=_tol(dt), atol=_tol(dt) * 10)


@pytest.mark.parametrize("name", ["fft", "ifft"])
@pytest.mark.parametrize("dt", COMPLEX_DTYPES, ids=str)
@pytest.mark.parametrize("norm", _NORMS)
@pytest.mark.parametrize(
    ("n", "axis"), [(None, -1), (None, 0), (5, -1), (3, 1), (8, 0)]
)
def test_fft_ifft(name, dt, norm, n, axis, device):
    a = rng_array((4, 6), dt)
    res = getattr(fft, name)(xp.asarray(a, device=device), n=n, axis=axis, norm=norm)
    assert res.device == device
    _close(res, getattr(np.fft, name)(a, n=n, axis=axis, norm=norm), dt)


@pytest.mark.parametrize("name", ["fftn", "ifftn"])
@pytest.mark.parametrize("dt", COMPLEX_DTYPES, ids=str)
@pytest.mark.parametrize(
    ("s", "axes"),
    [
        (None, None),
        (None, (0, 2)),
        ((3, 4), (-2, -1)),
        ((2, 2, 2), (0, 1, 2)),
        (None, (1,)),
    ],
)
def test_fftn_ifftn(name, dt, s, axes):
    a = rng_array((3, 4, 5), dt)
    res = getattr(fft, name)(xp.asarray(a), s=s, axes=axes, norm="ortho")
    _close(res, getattr(np.fft, name)(a, s=s, axes=axes, norm="ortho"), dt)


@pytest.mark.parametrize("dt", REAL_FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("norm", _NORMS)
@pytest.mark.parametrize(("n", "axis"), [(None, -1), (7, -1), (4, 0)])
def test_rfft_irfft(dt, norm, n, axis):
    a = rng_array((4, 6), dt)
    r = fft.rfft(xp.asarray(a), n=n, axis=axis, norm=norm)
    cdt = _COMPLEX_OF[str(dt)]
    _close(r, np.fft.rfft(a, n=n, axis=axis, norm=norm), cdt)
    c = np.fft.rfft(a, axis=axis).astype(str(cdt))
    back = fft.irfft(xp.asarray(c), n=n, axis=axis, norm=norm)
    _close(back, np.fft.irfft(c, n=n, axis=axis, norm=norm), dt)


@pytest.mark.parametrize("dt", REAL_FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize(
    ("s", "axes"), [(None, None), ((4, 6), (0, 1)), (None, (0, 2))]
)
def test_rfftn_irfftn(dt, s, axes):
    a = rng_array((4, 5, 6), dt)
    cdt = _COMPLEX_OF[str(dt)]
    _close(
        fft.rfftn(xp.asarray(a), s=s, axes=axes), np.fft.rfftn(a, s=s, axes=axes), cdt
    )
    c = np.fft.rfftn(a, axes=axes).astype(str(cdt))
    _close(
        fft.irfftn(xp.asarray(c), s=s, axes=axes), np.fft.irfftn(c, s=s, axes=axes), dt
    )


def test_rfft_round_trip():
    a = rng_array((10,), xp.float64)
    back = fft.irfft(fft.rfft(xp.asarray(a)), n=10)
    assert_matches(back, a, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dt", COMPLEX_DTYPES, ids=str)
@pytest.mark.parametrize("n", [None, 6, 9])
def test_hfft_ihfft(dt, n):
    c = rng_array((3, 5), dt)
    rdt = _REAL_OF[str(dt)]
    _close(fft.hfft(xp.asarray(c), n=n), np.fft.hfft(c, n=n), rdt)
    r = rng_array((3, 8), rdt)
    _close(fft.ihfft(xp.asarray(r), n=n), np.fft.ihfft(r, n=n), dt)


@pytest.mark.parametrize(("n", "d"), [(1, 1.0), (4, 1.0), (5, 0.5), (8, 2.0)])
@pytest.mark.parametrize("dt", [None, xp.float32, xp.float64])
def test_fftfreq_rfftfreq(n, d, dt, device):
    want = dt or xp.float64
    res = fft.fftfreq(n, d=d, dtype=dt, device=device)
    assert res.device == device
    _close(res, np.fft.fftfreq(n, d=d), want)
    _close(fft.rfftfreq(n, d=d, dtype=dt, device=device), np.fft.rfftfreq(n, d=d), want)


def test_fftfreq_errors():
    with pytest.raises(TypeError):
        fft.fftfreq(4, dtype=xp.int64)
    with pytest.raises(TypeError):
        fft.fftfreq(4.0)
    with pytest.raises(ValueError):
        fft.fftfreq(0)


@pytest.mark.parametrize("name", ["fftshift", "ifftshift"])
@pytest.mark.parametrize("axes", [None, 0, -1, (0, 1)])
def test_shifts(name, axes):
    a = np.arange(30.0).reshape(5, 6)
    assert_matches(
        getattr(fft, name)(xp.asarray(a), axes=axes),
        getattr(np.fft, name)(a, axes=axes),
    )
    f = np.arange(7.0)
    assert_matches(getattr(fft, name)(xp.asarray(f)), getattr(np.fft, name)(f))


def test_shift_dtype_errors():
    for f in (fft.fftshift, fft.ifftshift):
        with pytest.raises(TypeError):
            f(xp.ones(3, dtype=xp.bool))


def test_fft_dtype_errors():
    real = xp.ones(4)
    cplx = xp.ones(4, dtype=xp.complex128)
    for f in (fft.fft, fft.ifft, fft.fftn, fft.ifftn, fft.irfft, fft.irfftn, fft.hfft):
        with pytest.raises(TypeError):
            f(real)
        with pytest.raises(TypeError):
            f(xp.ones(4, dtype=xp.int64))
    for f in (fft.rfft, fft.rfftn, fft.ihfft):
        with pytest.raises(TypeError):
            f(cplx)
        with pytest.raises(TypeError):
            f(xp.ones(4, dtype=xp.int64))
    with pytest.raises(TypeError):
        fft.fft(np.ones(4, dtype=complex))


def test_fft_argument_errors():
    c = xp.ones((4, 4), dtype=xp.complex128)
    with pytest.raises(ValueError):
        fft.fft(c, norm="sideways")
    with pytest.raises(ValueError):
        fft.fft(c, n=0)
    with pytest.raises(IndexError):
        fft.fft(c, axis=2)
    with pytest.raises(ValueError):
        fft.fftn(c, s=(2, 2), axes=(0,))
    with pytest.raises(ValueError):
        fft.fftn(c, axes=(0, 0))


_ONE_DIM = {
    "fft": True,
    "ifft": True,
    "rfft": False,
    "irfft": True,
    "hfft": True,
    "ihfft": False,
}
_N_DIM = {"fftn": True, "ifftn": True, "rfftn": False, "irfftn": True}


@pytest.mark.parametrize("name", sorted(_ONE_DIM))
@pytest.mark.parametrize(
    ("shape", "axis", "n"), [((0,), 0, 5), ((0, 2), 0, 4), ((3, 0), 1, 1)]
)
def test_an_empty_axis_is_zero_padded_to_n(name, shape, axis, n, device):
    """An empty axis padded to ``n`` is ``n`` zeros, whose transform is zeros
    (NumPy's irfft and hfft gave uninitialised values there)."""
    dt = xp.complex128 if _ONE_DIM[name] else xp.float64
    res = getattr(fft, name)(xp.zeros(shape, dtype=dt, device=device), n=n, axis=axis)
    padded = np.zeros(tuple(1 if i == axis else d for i, d in enumerate(shape)))
    expected = getattr(np.fft, name)(padded.astype(str(dt)), n=n, axis=axis)
    assert expected.shape == res.shape
    assert not expected.any()
    assert_matches(res, expected)


@pytest.mark.parametrize("name", sorted(_N_DIM))
@pytest.mark.parametrize(
    ("shape", "s"), [((0, 3), (4, 3)), ((2, 0), (2, 4)), ((0, 0), (3, 2))]
)
def test_empty_axes_are_zero_padded_to_s(name, shape, s, device):
    dt = xp.complex128 if _N_DIM[name] else xp.float64
    res = getattr(fft, name)(xp.zeros(shape, dtype=dt, device=device), s=s, axes=(0, 1))
    padded = np.zeros(tuple(d or 1 for d in shape), dtype=str(dt))
    expected = getattr(np.fft, name)(padded, s=s, axes=(0, 1))
    assert not expected.any()
    assert_matches(res, expected)
