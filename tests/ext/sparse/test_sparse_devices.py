"""The core of ocean_ext.sparse on every device (both logical CPUs here; CUDA
where there is a GPU, with CuPy's kernels), and extension dtypes."""

from __future__ import annotations

import numpy as np
import pytest

import ocean_array_api as xp
import ocean_ext
from ocean_ext import sparse

from .strategies import assert_dense_equal, check_canonical


def _a():
    rng = np.random.default_rng(3)
    a = rng.random((6, 7, 5))
    a[a < 0.7] = 0.0
    return a


def test_core_on_device(device):
    a = _a()
    s = sparse.COO.from_dense(xp.asarray(a, device=device))
    assert s.device == device
    check_canonical(s)
    c = np.array(np.nonzero(a))
    t = sparse.COO(
        xp.asarray(c[:, ::-1], device=device),
        xp.asarray(a[tuple(c)][::-1], device=device),
        a.shape,
    )
    assert t.device == device
    assert_dense_equal(t, a)
    # views and writes
    v = s[1:4, ::-2]
    w = s.mT[2]
    v[0] = 1.0
    a[1:4, ::-2][0] = 1.0
    w[...] = 0.0
    np.swapaxes(a, -1, -2)[2][...] = 0.0
    assert_dense_equal(s, a)
    assert_dense_equal(v, a[1:4, ::-2])
    # operations
    assert_dense_equal(sparse.sum(s, axis=(0, 2)), a.sum(axis=(0, 2)))
    assert_dense_equal(sparse.max(s, axis=1), a.max(axis=1))
    assert_dense_equal(s * s.mT.mT + 1.0, a * a + 1.0)
    x = np.arange(5.0)
    assert_dense_equal(s @ xp.asarray(x, device=device), a @ x)
    assert_dense_equal(s[0] @ s[1].T, a[0] @ a[1].T)
    assert_dense_equal(s[xp.asarray([0, 5], device=device)], a[[0, 5]])
    assert_dense_equal(sparse.reshape(s, (-1, 5)), a.reshape(-1, 5))


def test_float16():
    f16 = getattr(ocean_ext, "float16", None)
    if f16 is None:
        pytest.skip("ocean_ext.float16 is not available")
    a = np.array([[0.0, 1.5], [2.0, 0.0]], dtype=np.float16)
    s = sparse.COO.from_dense(xp.astype(xp.asarray(a.astype(np.float32)), f16))
    assert s.dtype == f16
    assert s.nnz == 2
    np.testing.assert_array_equal(np.asarray(xp.astype(s.todense(), xp.float32)), a)
    r = sparse.astype(s * 2.0, xp.float32)
    np.testing.assert_array_equal(np.asarray(r.todense()), a * 2)


def test_complex32_is_refused():
    c32 = getattr(ocean_ext, "complex32", None)
    if c32 is None:
        pytest.skip("ocean_ext.complex32 is not available")
    z = xp.asarray([0j, 1 + 1j], dtype=c32)
    with pytest.raises(TypeError, match="complex64"):
        sparse.COO.from_dense(z)


def test_exact_prod_and_wide_reductions_on_device(device):
    """The mantissa/exponent product and the sort path of the reductions use
    the device's array module (CuPy's on CUDA)."""
    a = np.full((2, 3000), 2.0)
    a[:, 5] = 0.0
    s = sparse.COO.from_dense(xp.asarray(a, device=device), fill_value=2.0)
    got = sparse.prod(s, axis=1)
    assert got.device == device
    np.testing.assert_array_equal(np.asarray(got.todense().to_device("cpu")), [0, 0])
    assert float(sparse.prod(s).to_device("cpu")) == 0.0
    c = sparse.COO.from_dense(
        xp.asarray(np.array([[1 + 1j, 0], [2j, 1]]), device=device), fill_value=0
    )
    assert_dense_equal(sparse.prod(c, axis=0), np.array([-2 + 2j, 0j]))
    w = sparse.COO(
        xp.asarray([[0, 1], [5, 99_999]], device=device),
        xp.asarray([1.0, 2.0], device=device),
        (2, 100_000),
    )
    for name in ("sum", "max", "mean", "any"):
        r = getattr(sparse, name)(w, axis=0)
        e = getattr(xp, name)(w.todense(), axis=0)
        assert_dense_equal(r, np.asarray(e.to_device("cpu")))
