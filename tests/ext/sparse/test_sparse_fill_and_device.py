"""Fill values are exact or refused; constructors from foreign data use the
default device."""

from __future__ import annotations

import numpy as np
import pytest

import ocean_array_api as xp
import ocean_ext
from ocean_ext import sparse

F16 = ocean_ext.float16


def _constructors(values, dtype):
    """Every sparse function that takes a fill value, as f(fill)."""
    x = xp.asarray(values, dtype=dtype)
    n = len(values)
    return [
        lambda fill: sparse.COO.from_dense(x, fill_value=fill),
        lambda fill: sparse.COO(
            xp.asarray([list(range(n))]), x, (n + 1,), fill_value=fill
        ),
        lambda fill: sparse.as_coo(x, fill_value=fill),
    ]


@pytest.mark.parametrize(
    ("dtype", "fill", "exc"),
    [
        (xp.int64, True, TypeError),  # the report: a bool for an integer dtype
        (xp.int8, False, TypeError),
        (xp.int32, 1.0, TypeError),  # a float for an integer dtype
        (xp.bool, 1, TypeError),  # an int for bool
        (xp.bool, 0, TypeError),
        (xp.float64, True, TypeError),
        (xp.float32, 1j, TypeError),
        (xp.int8, 300, OverflowError),
        (xp.uint8, -1, OverflowError),
        (xp.int64, 2**63, OverflowError),
        (xp.float32, 1e300, OverflowError),  # would become inf
        (F16, 70000.0, OverflowError),
        (xp.float64, 2**1024, OverflowError),
        (xp.complex64, complex(1e300, 0), OverflowError),
        (F16, 0.1, ValueError),  # the report: rounded silently before
        (xp.float32, 0.1, ValueError),
        (xp.float32, 2**24 + 1, ValueError),  # an int not exact in float32
        (xp.float64, 2**53 + 1, ValueError),
        (xp.complex64, 0.1 + 0.5j, ValueError),
        (xp.complex128, 2**53 + 1, ValueError),
        (F16, xp.asarray(0.1), ValueError),  # a 0-d array is checked the same
        (xp.int64, xp.asarray(1.0), TypeError),
    ],
)
def test_fill_value_not_held_exactly_is_refused(dtype, fill, exc):
    values = [True, False] if dtype == xp.bool else [1, 0]
    for make in _constructors(values, dtype):
        with pytest.raises(exc, match=r"`fill_value`"):
            make(fill)


@pytest.mark.parametrize(
    ("dtype", "fill", "stored"),
    [
        (xp.bool, True, True),
        (xp.bool, None, False),  # the default: the zero of the dtype
        (xp.int8, -128, -128),
        (xp.uint64, 2**64 - 1, 2**64 - 1),
        (xp.float32, 2**24, 16777216.0),  # ints exact in the dtype
        (xp.float32, 0.5, 0.5),
        (F16, 65504.0, 65504.0),
        (F16, float("-inf"), float("-inf")),
        (xp.float64, None, 0.0),
        (xp.complex64, 0.5 - 2j, 0.5 - 2j),
        (xp.complex128, 3, 3 + 0j),
        (xp.float64, np.float32(0.1), float(np.float32(0.1))),
        (F16, xp.asarray(0.5, dtype=F16), 0.5),
    ],
)
def test_fill_value_held_exactly_is_kept(dtype, fill, stored):
    values = [True, False] if dtype == xp.bool else [1, 0]
    for make in _constructors(values, dtype):
        s = make(fill)
        assert s.fill_value == stored
        assert type(s.fill_value) is type(stored)


def test_nan_fill_is_exact():
    s = sparse.COO.from_dense(xp.asarray([1.0, float("nan")]), fill_value=float("nan"))
    assert s.nnz == 1
    assert np.isnan(s.fill_value)


def test_bool_arrays_default_to_a_false_fill():
    s = sparse.COO.from_dense(xp.asarray([True, False, False]))
    assert s.fill_value is False
    assert s.nnz == 1
    t = sparse.COO(xp.asarray([[1]]), xp.asarray([True]), (3,))
    assert t.fill_value is False


# --- default device ------------------------------------------------------------
CPU1 = xp.__array_namespace_info__().devices()[1]


def test_from_scipy_sparse_uses_the_default_device():
    sps = pytest.importorskip("scipy.sparse")
    m = sps.csr_array(np.array([[0.0, 1.0], [2.0, 0.0]]))
    with CPU1:
        for s in (sparse.from_scipy_sparse(m), sparse.COO.from_scipy_sparse(m)):
            assert s.device == CPU1
            np.testing.assert_array_equal(np.asarray(s.todense()), m.toarray())
        assert sparse.as_coo(m).device == CPU1
    assert (
        sparse.from_scipy_sparse(m).device
        == xp.__array_namespace_info__().default_device()
    )


def test_from_pydata_uses_the_default_device():
    pydata = pytest.importorskip("sparse")
    p = pydata.COO.from_numpy(np.array([0.0, 3.0, 0.0]))
    with CPU1:
        for s in (sparse.from_pydata(p), sparse.COO.from_pydata(p), sparse.as_coo(p)):
            assert s.device == CPU1
            assert float(s.todense()[1]) == 3.0


def test_other_constructors_use_the_default_device():
    with CPU1:
        assert sparse.COO([[0, 2]], [1.0, 2.0], (3,)).device == CPU1
        assert sparse.COO.from_dense([0.0, 1.0]).device == CPU1
        assert sparse.as_coo([0.0, 1.0]).device == CPU1
    # list coordinates follow an array of values to its device
    d = xp.asarray([1.0, 2.0], device=CPU1)
    assert sparse.COO([[0, 2]], d, (3,)).device == CPU1
