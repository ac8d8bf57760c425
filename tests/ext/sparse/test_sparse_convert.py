"""Conversions (SciPy, pydata/sparse, devices) and the portable kernels."""

from __future__ import annotations

import numpy as np
import pytest
import scipy
import scipy.sparse as sps
from hypothesis import given
from hypothesis import strategies as st

import ocean_array_api as xp
from ocean_ext import sparse
from ocean_ext.sparse import _kernels

from .strategies import assert_dense_equal, check_canonical, coo_of, dense, dense_arrays


@given(
    dense_arrays(
        dtypes=("float64", "int32", "complex128", "bool"), min_dims=2, max_dims=2
    )
)
def test_scipy_roundtrip_2d(case):
    a, _ = case
    s = coo_of(a, None)  # the zero of the dtype (False for bool)
    for fmt in ("coo", "csr", "csc"):
        m = s.to_scipy_sparse(format=fmt)
        assert m.format == fmt
        np.testing.assert_array_equal(m.toarray(), a)
        t = sparse.from_scipy_sparse(m)
        check_canonical(t)
        assert_dense_equal(t, a, exact=True)
    assert_dense_equal(sparse.COO.from_scipy_sparse(sps.csr_matrix(a)), a, exact=True)


_SCIPY_ND = tuple(int(v) for v in scipy.__version__.split(".")[:2]) >= (1, 15)


@pytest.mark.skipif(not _SCIPY_ND, reason="n-d coo_array needs SciPy 1.15")
@given(dense_arrays(min_dims=1, max_dims=4))
def test_scipy_nd_coo(case):
    a, _ = case
    s = coo_of(a, 0.0)
    m = sparse.to_scipy_sparse(s)
    assert m.shape == a.shape
    np.testing.assert_array_equal(m.toarray(), a)
    assert_dense_equal(sparse.from_scipy_sparse(m), a)


def test_from_scipy_sums_duplicates_and_drops_zeros():
    m = sps.coo_array(
        (
            np.array([1.0, 2.0, 0.0, -1.0]),
            (np.array([1, 0, 1, 1]), np.array([1, 2, 0, 1])),
        ),
        shape=(2, 3),
    )
    s = sparse.from_scipy_sparse(m)
    check_canonical(s)
    assert s.nnz == 1
    np.testing.assert_array_equal(dense(s), m.toarray())


def test_scipy_errors():
    s = coo_of(np.array([[0.0, 1.0]]), 1.0)
    with pytest.raises(ValueError, match="fill value"):
        s.to_scipy_sparse()
    with pytest.raises(ValueError, match="format"):
        coo_of(np.zeros((2, 2, 2)), 0.0).to_scipy_sparse(format="csr")
    with pytest.raises(ValueError, match="format"):
        coo_of(np.zeros((2, 2)), 0.0).to_scipy_sparse(format="dok")
    with pytest.raises(TypeError, match="SciPy sparse"):
        sparse.from_scipy_sparse(np.zeros((2, 2)))


def test_scipy_result_is_independent():
    s = coo_of(np.array([[0.0, 1.0]]), 0.0)
    m = s.to_scipy_sparse("csr")
    m.data[0] = 5.0
    assert dense(s)[0, 1] == 1.0


@given(dense_arrays(dtypes=("float64", "int64"), fills=(0, 1, 2.5)))
def test_pydata_roundtrip(case):
    pydata = pytest.importorskip("sparse")
    a, fill = case
    s = coo_of(a, fill)
    p = s.to_pydata()
    assert isinstance(p, pydata.COO)
    assert p.fill_value == fill
    np.testing.assert_array_equal(p.todense(), a)
    t = sparse.from_pydata(p)
    check_canonical(t)
    assert t.fill_value == fill
    assert_dense_equal(t, a, exact=True)
    assert_dense_equal(sparse.COO.from_pydata(p), a, exact=True)


def test_pydata_other_formats_and_errors():
    pydata = pytest.importorskip("sparse")
    g = pydata.GCXS.from_numpy(np.array([[0.0, 1.0], [2.0, 0.0]]))
    assert_dense_equal(sparse.from_pydata(g), np.array([[0.0, 1.0], [2.0, 0.0]]))
    with pytest.raises(TypeError, match="pydata"):
        sparse.from_pydata(np.zeros(2))
    assert sparse.as_coo(g).nnz == 2
    assert sparse.as_coo(sps.csr_array(np.eye(2))).nnz == 2


def test_to_device(other_device):
    s = coo_of(np.array([[0.0, 1.0], [2.0, 0.0]]), 0.0)
    t = s[1].to_device(other_device)
    assert t.device == other_device
    assert t.base is None
    assert_dense_equal(t, np.array([2.0, 0.0]))
    assert sparse.astype(s, xp.float32, device=other_device).device == other_device


# --- kernels: the portable implementation (what CUDA falls back to) ----------------
def _portable():
    return _kernels.Kernels(np)


@given(st.lists(st.integers(0, 50), max_size=60))
def test_portable_kernels_match_numpy(values):
    pk = _portable()
    nk = _kernels.NumpyKernels()
    keys = np.asarray(values, dtype=np.int64)
    for k in (pk, nk):
        sk, perm = k.sort_perm(keys, 50)
        np.testing.assert_array_equal(sk, np.sort(keys))
        np.testing.assert_array_equal(keys[perm], sk)
        np.testing.assert_array_equal(perm, np.argsort(keys, kind="stable"))
        starts = k.group_starts(sk)
        np.testing.assert_array_equal(starts, np.unique(sk, return_index=True)[1])
        counts = np.bincount(keys, minlength=51) if keys.size else np.zeros(51, int)
        np.testing.assert_array_equal(k.counts(keys, 51), counts)
        reps = (keys % 3).astype(np.int64)
        np.testing.assert_array_equal(k.repeat(keys, reps), np.repeat(keys, reps))
        np.testing.assert_array_equal(
            k.expand_ranges(keys, reps),
            np.concatenate(
                [np.arange(a, a + r) for a, r in zip(keys, reps, strict=True)]
                + [np.zeros(0, int)]
            ),
        )
        vals = (keys * 1.5 - 20).astype(np.float64)
        for op, init in (
            ("add", 0.0),
            ("multiply", 1.0),
            ("maximum", -np.inf),
            ("minimum", np.inf),
        ):
            out = np.full(51, init)
            k.scatter(op, out, keys, vals)
            ref = np.full(51, init)
            getattr(np, op).at(ref, keys, vals)
            np.testing.assert_allclose(out, ref)
            if keys.size:
                red = k.reduce_sorted(op, starts, vals[perm])
                np.testing.assert_allclose(
                    red, getattr(np, op).reduceat(vals[perm], starts)
                )


def test_coo_on_portable_kernels(monkeypatch):
    """The whole COO machinery on the portable kernels (CuPy's fallbacks)."""
    monkeypatch.setitem(_kernels._cache, "cpu", _portable())
    a = np.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0], [0.0, 0.0, 4.0]])
    c = np.array([[2, 0, 1, 1, 2, 1], [2, 1, 2, 0, 2, 0]])
    d = np.array([2.0, 1.0, 3.0, 1.0, 2.0, 1.0])
    s = sparse.COO(xp.asarray(c), xp.asarray(d), (3, 3))
    assert isinstance(s._mat().k, _kernels.Kernels)
    assert s._mat().k.kind == "portable"
    check_canonical(s)
    assert_dense_equal(s, a)
    assert_dense_equal(sparse.sum(s, axis=0), a.sum(axis=0))
    assert_dense_equal(sparse.prod(s, axis=1), a.prod(axis=1))
    assert_dense_equal(sparse.max(s, axis=0), a.max(axis=0))
    assert_dense_equal(s @ xp.asarray([1.0, 2.0, 3.0]), a @ [1.0, 2.0, 3.0])
    assert_dense_equal(s @ s.T, a @ a.T)
    assert_dense_equal(s @ xp.asarray(a), a @ a)  # rows of values scattered
    assert_dense_equal(s + s.T, a + a.T)
    v = s.T[::-1]
    v[0] = 7.0
    a.T[::-1][0] = 7.0
    assert_dense_equal(s, a)
    assert_dense_equal(s[xp.asarray([2, 0, 2])], a[[2, 0, 2]])
