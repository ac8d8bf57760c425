"""The linalg extension against numpy.linalg.

Factorizations that are unique only up to signs or phases (eigenvectors, SVD,
QR) are checked through their defining identities instead of raw factors.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ocean_array_api as xp

from .helpers import (
    ALL_DTYPES,
    FLOAT_DTYPES,
    INT_DTYPES,
    LAZY_DEFAULT,
    REAL_FLOAT_DTYPES,
    assert_matches,
    host,
    np_dtype,
    rng_array,
)

linalg = xp.linalg
_STACKS = [(3, 3), (2, 4, 4), (2, 1, 2, 2)]


def _tol(dt):
    return 1e-4 if str(dt) in ("float32", "complex64") else 1e-10


def _real_of(dt):
    return {"complex64": xp.float32, "complex128": xp.float64}.get(str(dt), dt)


def _spd(shape, dt, seed=0):
    """A well-conditioned Hermitian positive-definite stack."""
    a = rng_array(shape, dt, seed)
    n = shape[-1]
    m = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=np_dtype(dt))
    return m.astype(np_dtype(dt))


def _wellcond(shape, dt, seed=0):
    n = shape[-1]
    return (rng_array(shape, dt, seed) + 4 * n * np.eye(n, dtype=np_dtype(dt))).astype(
        np_dtype(dt)
    )


def _close(res, expected, dt, **kw):
    t = _tol(dt)
    assert_matches(res, expected, dtype=kw.pop("dtype", dt), rtol=t, atol=t)


# --- simple functions -----------------------------------------------------------------


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("shape", _STACKS)
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky(dt, shape, upper):
    a = _spd(shape, dt)
    res = linalg.cholesky(xp.asarray(a), upper=upper)
    lower = np.linalg.cholesky(a)
    expected = np.conj(np.swapaxes(lower, -1, -2)) if upper else lower
    _close(res, expected, dt)


@pytest.mark.parametrize(
    "dt", [xp.int64, xp.float32, xp.float64, xp.complex128], ids=str
)
@pytest.mark.parametrize(
    ("s1", "s2", "axis"),
    [
        ((3,), (3,), -1),
        ((4, 3), (3,), -1),
        ((3, 5), (3, 5), -2),
        ((2, 3, 4), (2, 3, 4), -2),
    ],
)
def test_cross(dt, s1, s2, axis):
    a, b = rng_array(s1, dt, 1), rng_array(s2, dt, 2)
    _close(
        linalg.cross(xp.asarray(a), xp.asarray(b), axis=axis),
        np.cross(a, b, axis=axis),
        dt,
    )


def test_cross_errors():
    with pytest.raises(ValueError):
        linalg.cross(xp.ones(2), xp.ones(2))
    with pytest.raises(ValueError):
        linalg.cross(xp.ones((3, 2)), xp.ones((3, 2)), axis=-1)
    with pytest.raises(TypeError):
        linalg.cross(xp.ones(3, dtype=xp.bool), xp.ones(3, dtype=xp.bool))


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("shape", _STACKS)
def test_det_slogdet_inv(dt, shape):
    a = _wellcond(shape, dt)
    x = xp.asarray(a)
    _close(linalg.det(x), np.linalg.det(a), dt)
    sign, logabs = linalg.slogdet(x)
    esign, elog = np.linalg.slogdet(a)
    _close(sign, esign, dt)
    _close(logabs, elog, dt, dtype=_real_of(dt))
    assert linalg.slogdet(x)._fields == ("sign", "logabsdet")
    _close(linalg.inv(x), np.linalg.inv(a), dt)


@pytest.mark.parametrize("offset", [-2, -1, 0, 1, 3])
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_diagonal(offset, dt):
    a = rng_array((2, 3, 4), dt)
    assert_matches(
        linalg.diagonal(xp.asarray(a), offset=offset),
        np.diagonal(a, offset=offset, axis1=-2, axis2=-1),
    )


@pytest.mark.parametrize("dt", [*INT_DTYPES, *FLOAT_DTYPES], ids=str)
@pytest.mark.parametrize("offset", [-1, 0, 2])
def test_trace(dt, offset):
    a = rng_array((2, 3, 3), dt)
    want = {
        "int8": xp.int64,
        "int16": xp.int64,
        "int32": xp.int64,
        "uint8": xp.uint64,
        "uint16": xp.uint64,
        "uint32": xp.uint64,
    }.get(str(dt), dt)
    expected = np.trace(a, offset=offset, axis1=-2, axis2=-1, dtype=np_dtype(want))
    if xp.isdtype(dt, "integral"):
        assert_matches(linalg.trace(xp.asarray(a), offset=offset), expected, dtype=want)
    else:
        _close(linalg.trace(xp.asarray(a), offset=offset), expected, dt)


def test_trace_dtype_argument():
    x = xp.asarray([[1, 2], [3, 4]], dtype=xp.int8)
    assert_matches(linalg.trace(x, dtype=xp.float64), np.float64(5.0))
    assert_matches(linalg.trace(x, dtype=xp.int8), np.int8(5))


@pytest.mark.parametrize("dt", [xp.int32, xp.uint8, xp.float32, xp.complex128], ids=str)
def test_outer(dt):
    a, b = rng_array((3,), dt, 1), rng_array((4,), dt, 2)
    res = linalg.outer(xp.asarray(a), xp.asarray(b))
    if xp.isdtype(dt, "integral"):
        assert_matches(res, np.outer(a, b))
    else:
        _close(res, np.outer(a, b), dt)
    with pytest.raises(ValueError):
        linalg.outer(xp.ones((2, 2)), xp.ones(2))


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("n", [-2, -1, 0, 1, 3])
def test_matrix_power(dt, n):
    a = _wellcond((2, 3, 3), dt)
    _close(linalg.matrix_power(xp.asarray(a), n), np.linalg.matrix_power(a, n), dt)


def test_linalg_matmul_tensordot_vecdot_are_the_main_ones():
    assert linalg.matmul is xp.matmul
    assert linalg.tensordot is xp.tensordot
    assert linalg.vecdot is xp.vecdot
    assert linalg.matrix_transpose is xp.matrix_transpose


# --- solve ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize(
    ("s1", "s2"),
    [
        ((3, 3), (3,)),
        ((3, 3), (3, 2)),
        ((2, 3, 3), (2, 3, 1)),
        ((2, 3, 3), (3, 4)),
        ((3, 3), (2, 3, 2)),
    ],
)
def test_solve(dt, s1, s2):
    a = _wellcond(s1, dt)
    b = rng_array(s2, dt, 3)
    res = linalg.solve(xp.asarray(a), xp.asarray(b))
    check = a @ host(res) if len(s2) == 1 else np.matmul(a, host(res))
    np.testing.assert_allclose(
        check, np.broadcast_to(b, check.shape), rtol=_tol(dt) * 10, atol=_tol(dt) * 10
    )
    assert res.dtype == dt


def test_solve_errors():
    with pytest.raises(ValueError):
        linalg.solve(xp.ones((2, 3)), xp.ones(2))
    with pytest.raises(ValueError):
        linalg.solve(xp.eye(3), xp.ones(2))
    with pytest.raises(TypeError):
        linalg.solve(xp.eye(2, dtype=xp.int64), xp.ones(2, dtype=xp.int64))
    with pytest.raises(TypeError):
        linalg.solve(xp.eye(2), xp.ones(2, dtype=xp.int64))
    if LAZY_DEFAULT:
        return  # a lazy device finds a singular matrix when it computes
    with pytest.raises(ValueError):  # singular: LinAlgError is a ValueError
        linalg.solve(xp.zeros((2, 2)), xp.ones(2))


# --- decompositions ---------------------------------------------------------------------------


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("shape", _STACKS)
def test_eigh_eigvalsh(dt, shape):
    a = _spd(shape, dt)
    w, v = linalg.eigh(xp.asarray(a))
    ew = np.linalg.eigvalsh(a)
    _close(w, ew, dt, dtype=_real_of(dt))
    vv = host(v)
    assert v.dtype == dt
    recon = vv @ (host(w)[..., None] * np.conj(np.swapaxes(vv, -1, -2)))
    np.testing.assert_allclose(recon, a, rtol=_tol(dt) * 10, atol=_tol(dt) * 100)
    _close(linalg.eigvalsh(xp.asarray(a)), ew, dt, dtype=_real_of(dt))


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
def test_eig_eigvals(dt):
    a = _wellcond((2, 3, 3), dt)
    w, v = linalg.eig(xp.asarray(a))
    cdt = {"float32": xp.complex64, "float64": xp.complex128}.get(str(dt), dt)
    assert w.dtype == cdt
    assert v.dtype == cdt
    wh, vh = host(w), host(v)
    np.testing.assert_allclose(
        a @ vh, vh * wh[..., None, :], rtol=_tol(dt) * 10, atol=_tol(dt) * 100
    )
    ev = np.linalg.eigvals(a)
    np.testing.assert_allclose(
        np.sort_complex(host(linalg.eigvals(xp.asarray(a))).ravel()),
        np.sort_complex(ev.ravel()),
        rtol=_tol(dt) * 10,
    )


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 5, 2)])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr(dt, shape, mode):
    a = rng_array(shape, dt)
    q, r = linalg.qr(xp.asarray(a), mode=mode)
    eq, er = np.linalg.qr(a, mode=mode)
    assert q.shape == eq.shape
    assert r.shape == er.shape
    assert q.dtype == r.dtype == dt
    np.testing.assert_allclose(
        host(q) @ host(r), a, rtol=_tol(dt) * 10, atol=_tol(dt) * 10
    )
    np.testing.assert_allclose(np.triu(host(r)), host(r), atol=0)


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3)])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_svdvals(dt, shape, full_matrices):
    a = rng_array(shape, dt)
    u, s, vh = linalg.svd(xp.asarray(a), full_matrices=full_matrices)
    assert linalg.svd(xp.asarray(a))._fields == ("U", "S", "Vh")
    eu, es, evh = np.linalg.svd(a, full_matrices=full_matrices)
    assert (u.shape, s.shape, vh.shape) == (eu.shape, es.shape, evh.shape)
    assert s.dtype == _real_of(dt)
    _close(s, es, dt, dtype=_real_of(dt))
    k = es.shape[-1]
    recon = host(u)[..., :k] * host(s)[..., None, :] @ host(vh)[..., :k, :]
    np.testing.assert_allclose(recon, a, rtol=_tol(dt) * 10, atol=_tol(dt) * 10)
    _close(linalg.svdvals(xp.asarray(a)), es, dt, dtype=_real_of(dt))


@pytest.mark.parametrize("dt", REAL_FLOAT_DTYPES, ids=str)
def test_pinv_matrix_rank(dt):
    a = rng_array((2, 4, 3), dt)
    a[1, :, 2] = a[1, :, 0]  # rank 2
    _close(linalg.pinv(xp.asarray(a)), np.linalg.pinv(a), dt)
    assert_matches(
        linalg.matrix_rank(xp.asarray(a)), np.linalg.matrix_rank(a).astype(np.int64)
    )
    assert_matches(
        linalg.matrix_rank(xp.asarray(a), rtol=0.5),
        np.linalg.matrix_rank(a, rtol=0.5).astype(np.int64),
    )


# --- norms ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, 2, -1, -2, math.inf, -math.inf])
@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
def test_matrix_norm(ord, dt, keepdims):
    a = rng_array((2, 3, 4), dt)
    res = linalg.matrix_norm(xp.asarray(a), ord=ord, keepdims=keepdims)
    expected = np.linalg.matrix_norm(a, ord=ord, keepdims=keepdims)
    _close(res, expected, dt, dtype=_real_of(dt))


@pytest.mark.parametrize("ord", [1, 2, 3, 0.5, 0, math.inf, -math.inf, -1])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1), (0, 2)])
@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
def test_vector_norm(ord, axis, dt):
    a = rng_array((2, 3, 4), dt)
    keepdims = axis == 0
    res = linalg.vector_norm(xp.asarray(a), axis=axis, ord=ord, keepdims=keepdims)
    expected = np.linalg.vector_norm(a, axis=axis, ord=ord, keepdims=keepdims)
    _close(res, expected, dt, dtype=_real_of(dt))


def test_norm_errors():
    with pytest.raises(ValueError):
        linalg.matrix_norm(xp.ones((2, 2)), ord=3)
    with pytest.raises(ValueError):
        linalg.matrix_norm(xp.ones(3))
    with pytest.raises(TypeError):
        linalg.vector_norm(xp.ones(3, dtype=xp.int64))
    with pytest.raises(TypeError):
        linalg.matrix_norm(xp.ones((2, 2), dtype=xp.int64))
    with pytest.raises(IndexError):
        linalg.vector_norm(xp.ones(3), axis=1)


# --- argument errors shared by the matrix functions ----------------------------------------------------

_MATRIX_FUNCS = [
    "cholesky",
    "det",
    "eigh",
    "eigvalsh",
    "inv",
    "slogdet",
    "eig",
    "eigvals",
    "matrix_rank",
    "pinv",
    "qr",
    "svd",
    "svdvals",
]
_SQUARE = {"cholesky", "det", "eigh", "eigvalsh", "inv", "slogdet", "eig", "eigvals"}


@pytest.mark.parametrize("name", _MATRIX_FUNCS)
def test_matrix_function_errors(name):
    f = getattr(linalg, name)
    with pytest.raises(ValueError):
        f(xp.ones(3))
    if name in _SQUARE:
        with pytest.raises(ValueError):
            f(xp.ones((2, 3)))
    for dt in (xp.bool, xp.int64):
        with pytest.raises(TypeError):
            f(xp.eye(2, dtype=dt))
    with pytest.raises(TypeError):
        f(np.eye(2))


@pytest.mark.parametrize(
    "name",
    [
        "cholesky",
        "det",
        "inv",
        "eigh",
        "qr",
        "svd",
        "matrix_norm",
        "vector_norm",
        "trace",
        "diagonal",
        "pinv",
    ],
)
def test_linalg_keeps_device(name, other_device):
    x = xp.asarray(_spd((3, 3), xp.float64), device=other_device)
    res = getattr(linalg, name)(x)
    for r in res if isinstance(res, tuple) else (res,):
        assert r.device == other_device
