"""Set functions against NumPy (NaNs are distinct, as the standard says)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import ALL_DTYPES, COMPLEX_DTYPES, assert_matches, host, np_dtype
from .test_sorting_functions import _FLOATS, _as_array, _assert_same_bits, _tie_floats

_shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5)


def _small_values(dt):
    nd = np_dtype(dt)
    return st.sampled_from([0, 1, 2, 5]).map(lambda v: np.asarray(v).astype(nd))


@given(data=st.data(), shape=_shapes)
def test_unique_all_matches_numpy(data, shape):
    dt = data.draw(st.sampled_from(ALL_DTYPES), label="dtype")
    a = data.draw(
        hnp.arrays(np_dtype(dt), shape, elements=_small_values(dt)), label="x"
    )
    x = xp.asarray(a)
    r = xp.unique_all(x)
    assert r._fields == ("values", "indices", "inverse_indices", "counts")
    values, indices, inverse, counts = r
    # The standard leaves the order of the unique values unspecified; the
    # results must agree with each other.
    exp_values = np.unique(a)
    vals = host(values)
    assert values.dtype == x.dtype
    np.testing.assert_array_equal(np.sort(vals), exp_values)
    assert indices.dtype == inverse.dtype == counts.dtype == xp.int64
    flat = a.ravel()
    np.testing.assert_array_equal(flat[host(indices)], vals)
    assert inverse.shape == a.shape
    np.testing.assert_array_equal(vals[host(inverse)], a)
    np.testing.assert_array_equal(host(counts), [np.sum(flat == v) for v in vals])

    v2, c2 = xp.unique_counts(x)
    np.testing.assert_array_equal(np.sort(host(v2)), exp_values)
    np.testing.assert_array_equal(host(c2), [np.sum(flat == v) for v in host(v2)])
    v3, i3 = xp.unique_inverse(x)
    np.testing.assert_array_equal(np.sort(host(v3)), exp_values)
    assert i3.shape == a.shape
    np.testing.assert_array_equal(host(v3)[host(i3)], a)
    uv = xp.unique_values(x)
    assert uv.dtype == x.dtype
    np.testing.assert_array_equal(np.sort(host(uv)), exp_values)


def test_unique_values_are_sorted_for_downstream_code():
    # The standard leaves the order unspecified, but NumPy's np.unique,
    # array-api-strict and CuPy sort, and scikit-learn relies on it (label
    # encoding with searchsorted): unsorted values give silently wrong
    # confusion matrices there (see test_downstream). NaNs come last.
    a = np.array([3, 1, 2, 1, 0, 3], dtype=np.int8)
    x = xp.asarray(a)
    assert_matches(xp.unique_values(x), np.array([0, 1, 2, 3], dtype=np.int8))
    assert_matches(xp.unique_counts(x).values, np.array([0, 1, 2, 3], dtype=np.int8))
    assert_matches(xp.unique_inverse(x).values, np.array([0, 1, 2, 3], dtype=np.int8))
    assert_matches(xp.unique_all(x).values, np.array([0, 1, 2, 3], dtype=np.int8))
    f = xp.unique_values(xp.asarray([2.0, math.nan, -1.0]))
    np.testing.assert_array_equal(host(f), [-1.0, 2.0, math.nan])


def test_unique_result_field_names():
    x = xp.asarray([1, 1, 2])
    assert xp.unique_counts(x)._fields == ("values", "counts")
    assert xp.unique_inverse(x)._fields == ("values", "inverse_indices")
    r = xp.unique_inverse(x)
    np.testing.assert_array_equal(host(r.values)[host(r.inverse_indices)], [1, 1, 2])


def test_unique_nans_are_distinct():
    x = xp.asarray([1.0, math.nan, math.nan, 1.0, -0.0, 0.0])
    vals = host(xp.unique_values(x))
    assert int(np.isnan(vals).sum()) == 2
    np.testing.assert_array_equal(np.sort(vals[~np.isnan(vals)]), [0.0, 1.0])
    values, counts = xp.unique_counts(x)
    c = host(counts)[np.isnan(host(values))]
    np.testing.assert_array_equal(c, [1, 1])
    r = xp.unique_all(x)
    # (sizes are data-dependent: None on a lazy device until computed)
    assert host(r.values).shape == host(r.indices).shape == host(r.counts).shape == (4,)
    assert int(xp.sum(r.counts)) == 6
    v, inv = xp.unique_inverse(x)
    assert host(v).shape == (4,)
    assert inv.shape == (6,)


def test_unique_complex_nan_distinct():
    x = xp.asarray([complex(math.nan, 0), complex(math.nan, 0), 1j])
    assert host(xp.unique_values(x)).shape == (3,)


@pytest.mark.parametrize("invert", [False, True])
@given(data=st.data())
def test_isin_matches_numpy(invert, data):
    dt = data.draw(
        st.sampled_from(
            [d for d in ALL_DTYPES if d != xp.bool and "complex" not in str(d)]
        ),
        label="dtype",
    )
    nd = np_dtype(dt)
    a = data.draw(hnp.arrays(nd, _shapes, elements=_small_values(dt)), label="x1")
    b = data.draw(hnp.arrays(nd, _shapes, elements=_small_values(dt)), label="x2")
    res = xp.isin(xp.asarray(a), xp.asarray(b), invert=invert)
    assert_matches(res, np.isin(a, b, invert=invert))


def test_isin_with_scalars_and_promotion():
    x = xp.asarray([1, 2, 3], dtype=xp.int8)
    assert_matches(xp.isin(x, 2), np.array([False, True, False]))
    assert_matches(
        xp.isin(x, xp.asarray([3], dtype=xp.int16)), np.array([False, False, True])
    )
    assert_matches(xp.isin(2, x), np.bool_(True))


def test_isin_errors():
    with pytest.raises(TypeError):
        xp.isin(xp.asarray([1, 2]), xp.asarray([1.0]))
    with pytest.raises(TypeError):
        xp.isin(np.array([1]), xp.asarray([1]))
    with pytest.raises(TypeError):
        xp.isin(xp.asarray([1]), xp.asarray([1]), invert=None)


def test_set_functions_keep_device(other_device):
    x = xp.asarray([3, 1, 3], device=other_device)
    for r in (
        *xp.unique_all(x),
        *xp.unique_counts(x),
        *xp.unique_inverse(x),
        xp.unique_values(x),
    ):
        assert r.device == other_device


# --- the results of a stable sort, to the bit -----------------------------------
# Which of -0.0 and +0.0 stands for their run, and the NaNs' order and payloads,
# depend on the sort; ours are those of a stable one: each value is its first
# occurrence, NaNs (distinct, last) keep input order, and ``indices`` are the
# first occurrences as the standard asks.
def _stable_unique(a: np.ndarray):
    flat = a.reshape(-1)
    perm = np.argsort(flat, kind="stable")
    aux = flat[perm]
    first = np.ones(flat.size, dtype=bool)
    first[1:] = aux[1:] != aux[:-1]  # NaN != NaN: each NaN its own value
    starts = np.flatnonzero(first)
    inverse = np.empty(flat.size, dtype=np.int64)
    inverse[perm] = np.cumsum(first) - 1
    counts = np.diff(starts, append=flat.size)
    return flat[perm[starts]], perm[starts], inverse.reshape(a.shape), counts


@given(data=st.data(), shape=_shapes)
def test_unique_stable_representatives_bit_for_bit(data, shape):
    kind = data.draw(st.sampled_from(["float16", "float32", "float64", "other"]))
    if kind == "other":
        dt = data.draw(
            st.sampled_from([d for d in ALL_DTYPES if d not in COMPLEX_DTYPES])
        )
        a = data.draw(hnp.arrays(np_dtype(dt), shape, elements=_small_values(dt)))
    else:
        a = _tie_floats(data, np.dtype(kind), shape)
    if data.draw(st.booleans(), label="byteswapped") and kind != "float16":
        a = a.astype(a.dtype.newbyteorder())
    x = _as_array(a)
    values, indices, inverse, counts = _stable_unique(a)
    r = xp.unique_all(x)
    _assert_same_bits(r.values, values)
    _assert_same_bits(r.indices, indices)
    _assert_same_bits(r.inverse_indices, inverse)
    _assert_same_bits(r.counts, counts)
    v, c = xp.unique_counts(x)
    _assert_same_bits(v, values)
    _assert_same_bits(c, counts)
    v, i = xp.unique_inverse(x)
    _assert_same_bits(v, values)
    _assert_same_bits(i, inverse)
    _assert_same_bits(xp.unique_values(x), values)


@given(data=st.data(), n=st.integers(50, 400))
def test_unique_long_input_bit_for_bit(data, n):
    # Long enough for NumPy's SIMD sort, which loses NaN payloads and may flip
    # the sign of zeros.
    a = _tie_floats(data, data.draw(st.sampled_from(_FLOATS)), (n,))
    values, indices, inverse, counts = _stable_unique(a)
    x = _as_array(a)
    _assert_same_bits(xp.unique_values(x), values)
    _assert_same_bits(xp.unique_counts(x).counts, counts)
    v, i = xp.unique_inverse(x)
    _assert_same_bits(v, values)
    _assert_same_bits(i, inverse)
    r = xp.unique_all(x)
    _assert_same_bits(r.values, values)
    _assert_same_bits(r.indices, indices)


def test_unique_first_zero_stands_for_both():
    nan = np.array([0x7FF8000000000003, 0xFFF8000000000001], np.uint64).view(np.float64)
    a = np.array([1.0, -0.0, nan[1], 0.0, 1.0, nan[0], -0.0])
    x = xp.asarray(a)
    values = np.array([-0.0, 1.0, nan[1], nan[0]])
    _assert_same_bits(xp.unique_values(x), values)
    r = xp.unique_all(x)
    _assert_same_bits(r.values, values)
    _assert_same_bits(r.indices, np.array([1, 0, 2, 5]))
    _assert_same_bits(r.inverse_indices, np.array([1, 0, 2, 0, 1, 3, 0]))
    _assert_same_bits(r.counts, np.array([3, 2, 1, 1]))
    # +0.0 first here
    _assert_same_bits(
        xp.unique_inverse(xp.asarray(a[3:])).values, np.array([0.0, 1.0, nan[0]])
    )


@pytest.mark.parametrize("distinct", [3, 500, 1 << 40])
def test_unique_of_many_wide_integers(distinct):
    # Few distinct values go by NumPy's hash table, many by a sort; the same
    # results either way (sorted values, first indices).
    a = np.random.default_rng(distinct).integers(0, distinct, 20_000)
    x = xp.asarray(a)
    values, indices, inverse, counts = _stable_unique(a)
    _assert_same_bits(xp.unique_values(x), values)
    _assert_same_bits(
        xp.unique_values(xp.asarray(a.astype(np.uint64))), values.astype(np.uint64)
    )
    r = xp.unique_all(x)
    _assert_same_bits(r.values, values)
    _assert_same_bits(r.indices, indices)
    _assert_same_bits(r.inverse_indices, inverse)
    _assert_same_bits(r.counts, counts)
