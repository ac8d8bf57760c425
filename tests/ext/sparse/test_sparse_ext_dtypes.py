"""ocean_ext's dtypes in sparse arrays: float16 values work everywhere a
standard float does, matching the dense result; complex32 (no native storage
to index) is refused with a TypeError naming the function, wherever a sparse
array of it would be made."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import ocean_array_api as xp
import ocean_ext
from ocean_ext import sparse
from ocean_ext.sparse import _elementwise

F16 = ocean_ext.float16
C32 = ocean_ext.complex32
A = np.array([[0.0, 1.5, 0.0], [-2.0, 0.0, 0.25]])
B = np.array([[0.5, 0.0, 0.0], [3.0, 0.0, -1.0]])


def _coo(a, fill=0.0, dtype=F16):
    return sparse.COO.from_dense(xp.asarray(a, dtype=dtype), fill_value=fill)


def _np(x):
    if isinstance(x, sparse.COO):
        x = x.todense()
    if x.dtype == F16:
        x = xp.astype(x, xp.float32)
    elif x.dtype == C32:
        x = xp.astype(x, xp.complex64)
    return np.asarray(x)


def _same(got, exp):
    """``got`` (sparse) against ``exp`` (dense): dtype, shape and values."""
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    assert got.shape == exp.shape
    g, e = _np(got), _np(exp)
    np.testing.assert_allclose(g, e, rtol=2e-3, atol=2e-3, equal_nan=True)


def _dense_or_exc(f, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            return f(*args, **kw)
        except (TypeError, ValueError) as e:
            return e


def _check(sf, df, sargs, dargs, **kw):
    exp = _dense_or_exc(df, *dargs, **kw)
    if isinstance(exp, Exception):
        with pytest.raises(type(exp)):
            sf(*sargs, **kw)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = sf(*sargs, **kw)
    _same(got, exp)


@pytest.mark.parametrize("name", _elementwise.UNARY)
@pytest.mark.parametrize("fill", [0.0, 0.5])
def test_float16_unary(name, fill):
    s = _coo(A, fill)
    _check(getattr(sparse, name), getattr(xp, name), (s,), (s.todense(),))


@pytest.mark.parametrize("name", _elementwise.BINARY)
def test_float16_binary(name):
    s, t = _coo(A), _coo(B, 0.5)
    t32 = _coo(B, 0.5, xp.float32)
    sd, td, t32d = s.todense(), t.todense(), t32.todense()
    f, g = getattr(sparse, name), getattr(xp, name)
    _check(f, g, (s, t), (sd, td))
    _check(f, g, (s, t32), (sd, t32d))  # float16 + float32 -> float32
    _check(f, g, (s, 2.0), (sd, 2.0))
    _check(f, g, (1.5, s), (1.5, sd))
    _check(f, g, (s, td), (sd, td))  # with a dense operand: dense


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "all", "any"])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_float16_reductions(name, axis):
    for s in (_coo(A), _coo(A, 0.5), _coo(A).T):
        _check(
            getattr(sparse, name), getattr(xp, name), (s,), (s.todense(),), axis=axis
        )
    s = _coo(A)
    _check(sparse.count_nonzero, xp.count_nonzero, (s,), (s.todense(),), axis=axis)


def test_float16_reductions_with_dtype():
    s = _coo(A, 0.5)
    for name in ("sum", "prod"):
        f, g = getattr(sparse, name), getattr(xp, name)
        _check(f, g, (s,), (s.todense(),), axis=0, dtype=xp.float32)
        _check(f, g, (s,), (s.todense(),), dtype=C32)  # dense 0-d: allowed
        with pytest.raises(TypeError, match=rf"{name}\(\).*complex32"):
            f(s, axis=0, dtype=C32)  # a sparse result of complex32


def test_float16_products():
    s, t = _coo(A), _coo(B)
    sd, td = s.todense(), t.todense()
    _check(sparse.matmul, xp.matmul, (s, t.T), (sd, td.T))
    _check(sparse.matmul, xp.matmul, (s, td.T), (sd, td.T))
    _check(sparse.matmul, xp.matmul, (sd, t.T), (sd, td.T))
    _same(s @ t.T, xp.matmul(sd, td.T))
    _check(sparse.tensordot, xp.tensordot, (s, t), (sd, td), axes=2)
    _check(sparse.tensordot, xp.tensordot, (s, t), (sd, td), axes=([0], [0]))
    _check(sparse.vecdot, xp.vecdot, (s, t), (sd, td))
    _check(sparse.vecdot, xp.vecdot, (s, td), (sd, td), axis=-2)
    # a dense complex32 operand: a dense complex32 result, as dense
    tc = xp.astype(td, C32)
    _check(sparse.matmul, xp.matmul, (s, tc.mT), (sd, tc.mT))
    _check(sparse.vecdot, xp.vecdot, (s, tc), (sd, tc))


def test_float16_manipulation_and_conversion():
    s = _coo(A, 0.5)
    d = s.todense()
    _same(sparse.reshape(s, (3, 2)), xp.reshape(d, (3, 2)))
    _same(sparse.permute_dims(s, (1, 0)), xp.permute_dims(d, (1, 0)))
    _same(sparse.concat([s, s], axis=1), xp.concat([d, d], axis=1))
    _same(sparse.stack([s, s]), xp.stack([d, d]))
    _same(sparse.broadcast_to(s[None], (2, 2, 3)), xp.broadcast_to(d[None], (2, 2, 3)))
    _same(sparse.astype(s, xp.float32), xp.astype(d, xp.float32))
    _same(sparse.astype(_coo(A, 0.5, xp.float64), F16), xp.astype(xp.asarray(A), F16))
    _same(sparse.clip(s, min=-1.0, max=1.0), xp.clip(d, min=-1.0, max=1.0))
    _same(s[::-1, 1:], d[::-1, 1:])
    import pickle

    _same(pickle.loads(pickle.dumps(s)), d)
    pytest.importorskip("sparse")
    back = sparse.from_pydata(s.to_pydata())
    assert back.dtype == F16
    assert back.fill_value == 0.5
    _same(back, d)
    with pytest.raises(TypeError, match=r"to_scipy_sparse\(\).*float16"):
        sparse.to_scipy_sparse(_coo(A))


@pytest.mark.parametrize(
    "op", ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__"]
)
def test_float16_inplace_operators(op):
    for other in (2.0, _coo(B, 0.5), xp.asarray(B, dtype=F16)):
        s = _coo(A, 0.5)
        d = s.todense()
        other_d = other.todense() if isinstance(other, sparse.COO) else other
        view = s[:, ::-1]
        getattr(view, op)(other if not hasattr(other, "shape") else other[:, ::-1])
        getattr(d[:, ::-1], op)(
            other_d if not hasattr(other_d, "shape") else other_d[:, ::-1]
        )
        _same(s, d)
    s = _coo(A)
    with pytest.raises(TypeError):
        getattr(s, op)(1j)  # complex32 result: would change the dtype anyway


def test_float16_setitem():
    s = _coo(A)
    d = s.todense()
    s[0] = 0.1
    d[0] = 0.1
    s[1, ::2] = xp.asarray([7.0, 8.0], dtype=F16)
    d[1, ::2] = xp.asarray([7.0, 8.0], dtype=F16)
    _same(s, d)
    t = _coo(A, 0.0, xp.float32)
    t[0] = xp.asarray([1.0, 2.0, 3.0], dtype=F16)  # float16 promotes to float32
    assert float(t.todense()[0, 2]) == 3.0


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: sparse.astype(_coo(A), C32), "astype"),
        (lambda: _coo(A).astype(C32), "astype"),
        (lambda: sparse.COO.from_dense(xp.asarray(A, dtype=C32)), "from_dense"),
        (lambda: sparse.COO([[0]], xp.asarray([1.0], dtype=C32), (2,)), "COO"),
        (lambda: sparse.add(_coo(A), 1j), "add"),
        (lambda: _coo(A) * 1j, "multiply"),
        (lambda: sparse.sum(_coo(A), axis=0, dtype=C32), "sum"),
    ],
)
def test_complex32_is_refused_with_a_type_error(call, where):
    with pytest.raises(TypeError, match=rf"{where}.*complex32"):
        call()
