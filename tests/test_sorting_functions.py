"""Sorting functions against NumPy: stability, descending order, NaNs last."""

from __future__ import annotations

import contextlib
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext

from .helpers import REAL_DTYPES, assert_matches, host, np_dtype

_shapes = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=6)


def _draw(data):
    dt = data.draw(st.sampled_from(REAL_DTYPES), label="dtype")
    nd = np_dtype(dt)
    shape = data.draw(_shapes, label="shape")
    # few distinct values, so that stability matters
    a = data.draw(
        hnp.arrays(
            nd,
            shape,
            elements=st.sampled_from([0, 1, 2, 7]).map(
                lambda v: np.asarray(v).astype(nd)
            ),
        ),
        label="x",
    )
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    return a, axis


def _stable_descending_argsort(a, axis):
    # Descending and stable: equal elements keep their original order.
    return np.flip(
        a.shape[axis] - 1 - np.argsort(np.flip(a, axis=axis), axis=axis, kind="stable"),
        axis=axis,
    )


@given(data=st.data(), descending=st.booleans())
def test_sort(data, descending):
    a, axis = _draw(data)
    res = xp.sort(xp.asarray(a), axis=axis, descending=descending)
    expected = np.sort(a, axis=axis)
    if descending:
        expected = np.flip(expected, axis=axis)
    assert_matches(res, expected)


@given(data=st.data(), descending=st.booleans())
def test_argsort_is_stable(data, descending):
    a, axis = _draw(data)
    res = xp.argsort(xp.asarray(a), axis=axis, descending=descending, stable=True)
    if descending:
        expected = _stable_descending_argsort(a, axis)
    else:
        expected = np.argsort(a, axis=axis, kind="stable")
    assert_matches(res, expected.astype(np.int64))


@given(data=st.data(), descending=st.booleans())
def test_argsort_unstable_still_sorts(data, descending):
    a, axis = _draw(data)
    idx = host(
        xp.argsort(xp.asarray(a), axis=axis, descending=descending, stable=False)
    )
    got = np.take_along_axis(a, idx, axis=axis)
    expected = np.sort(a, axis=axis)
    if descending:
        expected = np.flip(expected, axis=axis)
    np.testing.assert_array_equal(got, expected)


def test_defaults_are_last_axis_ascending():
    a = np.array([[3, 1, 2], [0, 5, 4]])
    assert_matches(xp.sort(xp.asarray(a)), np.sort(a, axis=-1))
    assert_matches(
        xp.argsort(xp.asarray(a)),
        np.argsort(a, axis=-1, kind="stable").astype(np.int64),
    )


def test_nans_sort_last():
    a = np.array([math.nan, 1.0, -math.inf, 0.5])
    assert_matches(xp.sort(xp.asarray(a)), np.array([-math.inf, 0.5, 1.0, math.nan]))
    assert_matches(xp.argsort(xp.asarray(a)), np.array([2, 3, 1, 0]))


def test_sort_errors():
    with pytest.raises(TypeError):
        xp.sort(xp.asarray([1j, 2j]))
    with pytest.raises(TypeError):
        xp.argsort(xp.asarray([True, False]))
    with pytest.raises(IndexError):
        xp.sort(xp.ones((2, 3)), axis=2)
    with pytest.raises((ValueError, IndexError)):
        xp.sort(xp.asarray(1.0))
    with pytest.raises(TypeError):
        xp.sort(np.ones(3))
    with pytest.raises(TypeError):
        xp.sort(xp.ones(3), descending=1)


# --- bit-for-bit stability of floats ------------------------------------------
# Equal floats can still be told apart: -0.0 and +0.0, and NaNs with different
# payloads and signs.  A stable sort keeps them in input order, so the result
# is fixed to the bit; NumPy's fast (SIMD) sort neither keeps their order nor,
# for NaN payloads and where -0.0 meets +0.0, their bits.
_UINT = {2: np.uint16, 4: np.uint32, 8: np.uint64}


def _tie_bits(nd: np.dtype) -> list[int]:
    """Bit patterns of ``nd``: both zeros, NaNs of several payloads and both
    signs, and a few ordinary values, so that ties of equal but distinct
    floats are frequent."""
    bits = 8 * nd.itemsize
    mant = {2: 10, 4: 23, 8: 52}[nd.itemsize]
    sign = 1 << (bits - 1)
    quiet = ((1 << (bits - 1 - mant)) - 1) << mant | 1 << (mant - 1)
    values = [0.0, 1.0, -1.0, 2.5, math.inf, -math.inf]
    ordinary = [int(np.asarray(v, nd).view(_UINT[nd.itemsize])) for v in values]
    nans = [quiet, quiet | 1, quiet | 2, quiet | (1 << (mant - 2)), quiet | 5]
    return [sign, *ordinary, *nans, *(n | sign for n in nans[:3])]


def _tie_floats(data, nd: np.dtype, shape, label="x") -> np.ndarray:
    u = data.draw(
        hnp.arrays(_UINT[nd.itemsize], shape, elements=st.sampled_from(_tie_bits(nd))),
        label=label,
    )
    return u.view(nd)


def _as_array(a: np.ndarray) -> xp.Array:
    if a.dtype == np.float16:
        return ocean_ext.asarray(a, dtype=ocean_ext.float16)
    return xp.asarray(a)


def _stable_sort(a: np.ndarray, axis: int, descending: bool) -> np.ndarray:
    # Gathering by NumPy's stable argsort keeps the input's bits exactly;
    # descending: equal elements keep their input order too.
    if descending:
        order = _stable_descending_argsort(a, axis)
    else:
        order = np.argsort(a, axis=axis, kind="stable")
    return np.take_along_axis(a, order, axis=axis)


def _assert_same_bits(res: xp.Array, expected: np.ndarray) -> None:
    got = host(res)
    assert got.dtype == expected.dtype.newbyteorder("=")
    assert got.shape == expected.shape
    u = _UINT.get(got.dtype.itemsize) if got.dtype.kind == "f" else None
    exp = expected.astype(got.dtype)
    if u is not None and res.device.kind == "cuda":
        # Note: the CUDA table makes every NaN the canonical one before it
        # sorts (CUB's radix sort would put NaNs with the sign bit first), so
        # there only the order of signed zeros is checked to the bit.
        exp = np.where(np.isnan(exp), np.nan, exp).astype(got.dtype)
    if u is None:
        np.testing.assert_array_equal(got, exp)
    else:  # -0.0/+0.0 order and NaN payloads count
        np.testing.assert_array_equal(got.view(u), exp.view(u))


_FLOATS = [np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)]


@contextlib.contextmanager
def _rows_short_enough_for_stable(short: bool, count: bool = True):
    """The CPU backend sorts floats in short rows, few in all
    (``_stable_is_faster``), with NumPy's stable sort and others with its
    fast sort plus a fix-up of the ties, which finds each row's zeros by
    counting (``_count_is_faster``) or by a binary search; ``short=False``
    sends every row through the fix-up, so that the small inputs drawn here
    test both paths, and ``count`` picks the fix-up's way to the zeros."""
    from ocean_cpu import _backend as cpu

    saved = cpu._stable_is_faster, cpu._count_is_faster
    if not short:
        cpu._stable_is_faster = lambda n, size: False
    cpu._count_is_faster = lambda n, size: count
    try:
        yield
    finally:
        cpu._stable_is_faster, cpu._count_is_faster = saved


@given(data=st.data(), descending=st.booleans(), stable=st.booleans())
def test_sort_floats_bit_for_bit(data, descending, stable):
    # stable=False may order ties freely; ours is stable all the same (the
    # fast sort plus a fix-up), and it must at least keep every element's bits.
    nd = data.draw(st.sampled_from(_FLOATS), label="dtype")
    shape = data.draw(_shapes, label="shape")
    a = _tie_floats(data, nd, shape)
    if nd != np.float16 and data.draw(st.booleans(), label="byteswapped"):
        a = a.astype(nd.newbyteorder())
    axis = data.draw(st.integers(-len(shape), len(shape) - 1), label="axis")
    with _rows_short_enough_for_stable(
        data.draw(st.booleans(), label="short"), data.draw(st.booleans(), label="count")
    ):
        res = xp.sort(_as_array(a), axis=axis, descending=descending, stable=stable)
    _assert_same_bits(res, _stable_sort(a, axis, descending))


@given(
    data=st.data(),
    n=st.integers(50, 400),
    rows=st.integers(1, 3),
    descending=st.booleans(),
)
def test_sort_long_rows_of_ties_bit_for_bit(data, n, rows, descending):
    # Rows long enough for NumPy's SIMD sort (its min/max networks flip the
    # sign of zeros where -0.0 meets +0.0).
    nd = data.draw(st.sampled_from(_FLOATS), label="dtype")
    a = _tie_floats(data, nd, (rows, n))
    # Rows this short take NumPy's stable sort unless forced through the
    # fast sort and its fix-up (which the rows of 4,097 below reach without
    # forcing).
    with _rows_short_enough_for_stable(
        data.draw(st.booleans(), label="short"), data.draw(st.booleans(), label="count")
    ):
        for axis, b in ((1, a), (0, a.T.copy())):
            res = xp.sort(_as_array(b), axis=axis, descending=descending)
            _assert_same_bits(res, _stable_sort(b, axis, descending))
        res = xp.sort(_as_array(a[0]), descending=descending)
        _assert_same_bits(res, _stable_sort(a[0], 0, descending))


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("nd", _FLOATS)
def test_sort_rows_longer_than_the_stable_cutoff_bit_for_bit(nd, descending):
    from ocean_cpu import _backend as cpu

    rng = np.random.default_rng(16)
    bits = np.asarray(_tie_bits(nd), dtype=_UINT[nd.itemsize])
    a = rng.choice(bits, size=(2, 4097)).view(nd)
    assert not cpu._stable_is_faster(4097, a.size)
    for axis, b in ((1, a), (0, a.T.copy())):
        res = xp.sort(_as_array(b), axis=axis, descending=descending)
        _assert_same_bits(res, _stable_sort(b, axis, descending))
    # a 1-D row has its own, shorter cutoff; with ties, with one zero and
    # no NaN (no tie to restore), and with NaNs only at its end
    n = cpu._STABLE_UP_TO_1D + 1
    one = rng.choice(bits, size=n).view(nd)
    plain = rng.standard_normal(n).astype(nd)
    plain[n // 2] = -0.0
    nans = plain.copy()
    nans[:5] = one[np.isnan(one)][:5] if np.isnan(one).sum() >= 5 else np.nan
    # two zeros of both signs: NumPy's SIMD sort may flip either's sign
    pairs = []
    for _ in range(8):
        two = rng.standard_normal(n).astype(nd)
        i, j = sorted(rng.choice(n, 2, replace=False))
        two[i], two[j] = 0.0, -0.0
        pairs.append(two)
    for b in (one, plain, nans, *pairs):
        res = xp.sort(_as_array(b), descending=descending)
        _assert_same_bits(res, _stable_sort(b, 0, descending))


@given(data=st.data(), descending=st.booleans(), stable=st.booleans())
def test_sort_every_real_dtype(data, descending, stable):
    a, axis = _draw(data)
    res = xp.sort(xp.asarray(a), axis=axis, descending=descending, stable=stable)
    _assert_same_bits(res, _stable_sort(a, axis, descending))


def test_sort_signed_zeros_and_nan_payloads_in_input_order():
    nan = np.array([0x7FF8000000000001, 0xFFF8000000000002], np.uint64).view(np.float64)
    a = np.array([0.0, nan[0], -0.0, 1.0, nan[1], -0.0, 0.0, -1.0])
    asc = np.array([-1.0, 0.0, -0.0, -0.0, 0.0, 1.0, nan[0], nan[1]])
    desc = np.array([nan[0], nan[1], 1.0, 0.0, -0.0, -0.0, 0.0, -1.0])
    for stable in (True, False):
        _assert_same_bits(xp.sort(xp.asarray(a), stable=stable), asc)
        res = xp.sort(xp.asarray(a), descending=True, stable=stable)
        _assert_same_bits(res, desc)
        two = xp.sort(xp.asarray(np.stack([a, a[::-1]])), axis=1, stable=stable)
        _assert_same_bits(two, np.stack([asc, _stable_sort(a[::-1], 0, False)]))
