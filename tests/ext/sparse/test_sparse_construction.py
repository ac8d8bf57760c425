"""COO construction, canonical form, attributes and validation."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ocean_array_api as xp
from ocean_ext import sparse

from .strategies import (
    FLOAT_DTYPES,
    INT_DTYPES,
    assert_dense_equal,
    check_canonical,
    coo_of,
    dense,
    dense_arrays,
)


@given(
    dense_arrays(
        dtypes=(*FLOAT_DTYPES, *INT_DTYPES, "bool", "complex128"), fills=(0, 1, 2.5)
    )
)
def test_from_dense_roundtrip(case):
    a, fill = case
    s = coo_of(a, fill)
    check_canonical(s)
    assert s.shape == a.shape
    assert s.ndim == a.ndim
    assert s.size == a.size
    assert str(s.dtype) == a.dtype.name
    assert s.fill_value == fill
    assert s.nnz == int(np.count_nonzero(a != fill))
    assert s.density == (s.nnz / a.size if a.size else 0.0)
    assert_dense_equal(s, a, exact=True)


@given(dense_arrays(min_dims=1), st.integers(0, 3), st.integers(0, 2**32 - 1))
def test_constructor_sorts_and_sums_duplicates(case, dup, seed):
    a, _ = case
    rng = np.random.default_rng(seed)
    coords = np.array(np.nonzero(a))
    data = a[tuple(coords)]
    # split every value into parts at repeated coordinates, in random order
    reps = rng.integers(1, dup + 2, coords.shape[1])
    c = np.repeat(coords, reps, axis=1)
    d = np.repeat(data / reps, reps)
    perm = rng.permutation(c.shape[1])
    s = sparse.COO(xp.asarray(c[:, perm]), xp.asarray(d[perm]), a.shape)
    check_canonical(s)
    assert_dense_equal(s, a)


def test_constructor_drops_entries_summing_to_fill():
    s = sparse.COO(xp.asarray([[0, 0, 1]]), xp.asarray([1.0, -1.0, 0.0]), (3,))
    assert s.nnz == 0
    s = sparse.COO(xp.asarray([[0, 2]]), xp.asarray([7, 7]), (3,), fill_value=7)
    assert s.nnz == 0
    assert_dense_equal(s, np.full(3, 7))


def test_constructor_infers_shape_and_accepts_1d_coords():
    s = sparse.COO(xp.asarray([[1, 3], [0, 2]]), xp.asarray([1.0, 2.0]))
    assert s.shape == (4, 3)
    s = sparse.COO(xp.asarray([4, 1]), xp.asarray([1, 2]), (6,))
    np.testing.assert_array_equal(dense(s), [0, 2, 0, 0, 1, 0])
    # data broadcast from a scalar
    s = sparse.COO(xp.asarray([[0, 1]]), 3.0, (2,))
    np.testing.assert_array_equal(dense(s), [3.0, 3.0])


def test_constructor_accepts_python_and_numpy_input():
    s = sparse.COO([[0, 1], [1, 0]], [1.0, 2.0], (2, 2))
    np.testing.assert_array_equal(dense(s), [[0, 1], [2, 0]])
    s = sparse.COO(np.array([[0, 1]]), np.array([1, 2], dtype=np.int8), (3,))
    assert s.dtype == xp.int8


def test_constructor_copies_its_input():
    c = xp.asarray([[0, 1]])
    d = xp.asarray([1.0, 2.0])
    s = sparse.COO(c, d, (2,))
    d[0] = 5.0
    c[0, 0] = 1
    np.testing.assert_array_equal(dense(s), [1.0, 2.0])


def test_zero_dimensional():
    s = sparse.COO(xp.zeros((0, 1), dtype=xp.int64), xp.asarray([4.0]), ())
    assert s.shape == ()
    assert s.nnz == 1
    assert float(s) == 4.0
    assert int(s) == 4
    assert bool(s)
    assert_dense_equal(s, np.asarray(4.0))
    e = sparse.COO.from_dense(xp.asarray(0.0))
    assert e.nnz == 0
    assert float(e) == 0.0
    with pytest.raises(TypeError, match="0-dimensional"):
        float(sparse.COO.from_dense(xp.asarray([1.0])))


@pytest.mark.parametrize(
    ("coords", "data", "shape", "kwargs", "exc", "match"),
    [
        (
            [[0.0, 1.0]],
            [1.0, 2.0],
            (2,),
            {},
            TypeError,
            "`coords` must have an integer dtype",
        ),
        ([[True, False]], [1.0, 2.0], (2,), {}, TypeError, "`coords`"),
        ([[0, 1]], [1.0, 2.0, 3.0], (2,), {}, ValueError, "`data` must have shape"),
        ([[0, 5]], [1.0, 2.0], (3,), {}, ValueError, "`coords` has index 5 on axis 0"),
        ([[0, -1]], [1.0, 2.0], (3,), {}, ValueError, "`coords` must be non-negative"),
        ([[0, 1]], [1.0, 2.0], (3, 3), {}, ValueError, "`shape`"),
        ([[0, 1]], [1.0, 2.0], (3,), {"fill_value": "a"}, TypeError, "`fill_value`"),
        ([[0, 1]], [1, 2], (3,), {"fill_value": 0.5}, TypeError, "`fill_value`"),
        ([[0, 1]], [1, 2], (3,), {"fill_value": 2**70}, OverflowError, "`fill_value`"),
        ([[0, 1]], [1, 2], (-3,), {}, ValueError, "`shape`"),
        ([[0, 1]], [1, 2], (3.5,), {}, TypeError, "`shape`"),
        ([[[0, 1]]], [1, 2], None, {}, ValueError, "`coords` must have shape"),
        ([[0, 1]], [[1, 2]], (3,), {}, ValueError, "`data` must have shape"),
        ([[0, 1]], ["a", "b"], (3,), {}, TypeError, "`data`"),
    ],
)
def test_constructor_errors(coords, data, shape, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        sparse.COO(coords, data, shape, **kwargs)


def test_constructor_device_mismatch(other_device):
    c = xp.asarray([[0, 1]])
    d = xp.asarray([1.0, 2.0], device=other_device)
    with pytest.raises(ValueError, match="`coords` is on"):
        sparse.COO(c, d, (2,))


def test_huge_shapes_refused():
    with pytest.raises(ValueError, match="2\\*\\*63"):
        sparse.COO(
            xp.asarray([[0], [0], [0]]), xp.asarray([1.0]), (2**30, 2**30, 2**30)
        )


def test_large_sparse_shape_works():
    n = 3 * 10**9
    s = sparse.COO(xp.asarray([[10**9, 5], [3, 10**9]]), xp.asarray([1.0, 2.0]), (n, n))
    assert s.nnz == 2
    np.testing.assert_array_equal(np.asarray(s.coords), [[5, 10**9], [10**9, 3]])
    assert float(s[10**9, 3]) == 1.0
    assert float(s[10**9, 4]) == 0.0
    assert float(sparse.sum(s)) == 3.0
    assert s.T[3, 10**9] == 1.0


def test_attributes_and_repr():
    s = sparse.COO.from_dense(
        xp.asarray([[0, 1], [2, 0]], dtype=xp.int32), fill_value=0
    )
    assert s.dtype == xp.int32
    assert s.device == xp.asarray(0).device
    assert s.fill_value == 0
    assert type(s.fill_value) is int
    assert repr(s) == "<COO: shape=(2, 2), dtype=int32, nnz=2, fill_value=0>"
    assert repr(s[0]) == "<COO view: shape=(2,), dtype=int32, nnz=1, fill_value=0>"
    assert len(s) == 2
    assert [dense(r).tolist() for r in s] == [[0, 1], [2, 0]]
    assert s.base is None
    assert s[0].base is s
    assert s[0][1:].base is s


def test_coords_and_data_are_read_only_snapshots():
    s = sparse.COO.from_dense(xp.asarray([0.0, 1.0, 2.0]))
    d = s.data
    c = s.coords
    with pytest.raises(ValueError, match="read-only"):
        d[0] = 5.0
    with pytest.raises(ValueError, match="read-only"):
        c[0, 0] = 2
    s[1] = 7.0
    np.testing.assert_array_equal(np.asarray(d), [1.0, 2.0])  # the old snapshot
    np.testing.assert_array_equal(np.asarray(s.data), [7.0, 2.0])


def test_implicit_dense_conversion_refused():
    s = sparse.COO.from_dense(xp.asarray([0.0, 1.0]))
    with pytest.raises(TypeError, match="todense"):
        np.asarray(s)


@given(dense_arrays(fills=(0, 1.5, float("nan"))))
def test_copy_pickle(case):
    a, fill = case
    s = coo_of(a, fill)
    for t in (s.copy(), copy.copy(s), copy.deepcopy(s), pickle.loads(pickle.dumps(s))):
        assert t is not s
        assert t.fill_value == fill or (fill != fill and t.fill_value != t.fill_value)
        assert_dense_equal(t, a)
        check_canonical(t)


def test_copy_is_independent():
    s = sparse.COO.from_dense(xp.asarray([0.0, 1.0]))
    t = s.copy()
    t[0] = 3.0
    assert s.nnz == 1
    assert t.nnz == 2


def test_nan_fill_value():
    a = np.array([np.nan, 1.0, np.nan, 0.0])
    s = coo_of(a, float("nan"))
    assert s.nnz == 2
    check_canonical(s)
    assert_dense_equal(s, a)
    s[0] = float("nan")
    assert s.nnz == 2
    s[1] = float("nan")
    assert s.nnz == 1


def test_fill_value_zero_for_bool_dtype():
    s = sparse.COO.from_dense(xp.asarray([True, False]))
    assert s.fill_value is False
    with pytest.raises(TypeError, match="fill_value"):
        sparse.COO.from_dense(xp.asarray([True]), fill_value=2)


def test_as_coo():
    s = sparse.as_coo(xp.asarray([0, 3]))
    assert sparse.as_coo(s) is s
    assert s.nnz == 1
