"""``linalg.*`` entries of the CPU backend's function table, over ``numpy.linalg``.

Arguments are native (NumPy) arrays and already-validated values: the front end
(``ocean_array_api.linalg``) has checked dtypes, shapes (square matrices, at
least two dimensions, matching sizes), devices, ``ord``/``mode`` values and
normalised the axes.  Results are native arrays (or NumPy scalars, which the
front end turns into 0-d arrays) in native byte order, of the dtype the
standard names; tuples of results are plain tuples (the front end builds the
namedtuples).

Where NumPy departs from the standard the entry corrects it; each correction
carries a ``# Note:`` comment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

ndarray = np.ndarray
_inf = float("inf")

# dtype character -> the complex dtype of the same precision.
_COMPLEX_OF: dict[str, np.dtype[Any]] = {
    "f": np.dtype(np.complex64),
    "d": np.dtype(np.complex128),
    "F": np.dtype(np.complex64),
    "D": np.dtype(np.complex128),
}


def _native_copy(x: ndarray) -> ndarray:
    """A writeable copy in native byte order."""
    return x.astype(x.dtype.newbyteorder("="), copy=True)


def _cholesky(x: ndarray, upper: bool) -> ndarray:
    return np.linalg.cholesky(x, upper=upper)


def _cross(x1: ndarray, x2: ndarray, axis: int) -> ndarray:
    return np.linalg.cross(x1, x2, axis=axis)


def _diagonal(x: ndarray, offset: int) -> ndarray:
    # Note: np.linalg.diagonal returns a read-only view; writing to the result
    # would then fail with NumPy's error.  The diagonal is small, so copy it.
    return _native_copy(np.diagonal(x, offset=offset, axis1=-2, axis2=-1))


def _eig(x: ndarray) -> tuple[ndarray, ndarray]:
    # Note: np.linalg.eig returns real arrays when every eigenvalue of a real
    # input happens to be real; the standard always wants complex results of
    # the input's precision.
    w, v = np.linalg.eig(x)
    ct = _COMPLEX_OF[x.dtype.char]
    return w.astype(ct, copy=False), v.astype(ct, copy=False)


def _eigvals(x: ndarray) -> ndarray:
    # Note: as for eig, always complex.
    return np.linalg.eigvals(x).astype(_COMPLEX_OF[x.dtype.char], copy=False)


def _eigh(x: ndarray) -> tuple[ndarray, ndarray]:
    w, v = np.linalg.eigh(x)
    return w, v


def _qr(x: ndarray, mode: str) -> tuple[ndarray, ndarray]:
    q, r = np.linalg.qr(x, mode=mode)  # type: ignore[call-overload]
    return q, r


def _slogdet(x: ndarray) -> tuple[ndarray, ndarray]:
    sign, logabsdet = np.linalg.slogdet(x)
    return sign, logabsdet


def _svd(x: ndarray, full_matrices: bool) -> tuple[ndarray, ndarray, ndarray]:
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return u, s, vh


def _matrix_power(x: ndarray, n: int) -> ndarray:
    # Note: np.linalg.matrix_power returns its input itself for n == 1 (the
    # result would alias x) and keeps a byte-swapped input's byte order for
    # n == 0 and 1.
    if n == 0 or n == 1:
        return _native_copy(np.linalg.matrix_power(x, n))
    return np.linalg.matrix_power(x, n)


def _rtol_column(rtol: Any) -> Any:
    """``rtol`` (a Python float or an array of the stack shape) against (..., K)."""
    if isinstance(rtol, np.ndarray):
        return rtol[..., np.newaxis]
    return rtol


def _matrix_rank(x: ndarray, rtol: Any) -> ndarray:
    # Note: written out rather than np.linalg.matrix_rank so that the tolerance
    # is exactly the standard's (rtol * largest singular value, default
    # max(M, N) * eps of the input's precision), empty stacks and K == 0
    # matrices work, and the result is always the default integer dtype.
    s = np.linalg.svdvals(x)
    if rtol is None:
        rtol = max(x.shape[-2:]) * np.finfo(s.dtype).eps
    else:
        rtol = _rtol_column(rtol)
    tol = np.max(s, axis=-1, keepdims=True, initial=0) * rtol
    return np.asarray(np.count_nonzero(s > tol, axis=-1)).astype(np.int64, copy=False)


def _pinv(x: ndarray, rtol: Any) -> ndarray:
    # Note: np.linalg.pinv's default cutoff is rcond=1e-15, not the standard's
    # max(M, N) * eps; passing rtol=None explicitly selects the standard's.
    return np.linalg.pinv(x, rtol=rtol)


def _trace(x: ndarray, offset: int, dtype: np.dtype) -> ndarray:
    # dtype: the result dtype the front end resolved (the standard's rules for
    # small integers differ from NumPy's platform-dependent ones on Windows).
    return np.trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def _vector_norm(
    x: ndarray, axis: tuple[int, ...] | None, keepdims: bool, ord: float
) -> ndarray:
    """Vector norm over ``axis`` (None: all axes; a tuple, possibly empty).

    Note: written over reductions instead of np.linalg.vector_norm so that
    empty reductions have defined results (ord=inf -> 0, ord=-inf -> inf,
    instead of a ValueError), negative orders on zeros give 0 without a
    divide-by-zero warning, and general p-norms are scaled by the largest
    magnitude so that they do not overflow for large p.
    """
    complex_input = x.dtype.kind == "c"
    if ord == 2:
        sq = np.square(x.real) + np.square(x.imag) if complex_input else np.square(x)
        return np.sqrt(np.sum(sq, axis=axis, keepdims=keepdims))
    a = np.abs(x)
    if ord == 1:
        return np.sum(a, axis=axis, keepdims=keepdims)
    if ord == _inf:
        return np.max(a, axis=axis, keepdims=keepdims, initial=0)
    if ord == -_inf:
        return np.min(a, axis=axis, keepdims=keepdims, initial=_inf)
    if ord == 0:
        return np.sum(a != 0, axis=axis, keepdims=keepdims, dtype=a.dtype)
    if ord > 0:
        m = np.max(a, axis=axis, keepdims=True, initial=0)
        scale = np.where((m == 0) | ~np.isfinite(m), 1, m).astype(a.dtype, copy=False)
        s = np.sum((a / scale) ** ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)
        return (scale if keepdims else np.squeeze(scale, axis=axis)) * s
    with np.errstate(divide="ignore"):
        return np.sum(a**ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def _matrix_norm(x: ndarray, keepdims: bool, ord: Any) -> ndarray:
    """Matrix norm over the last two axes (ord validated by the front end).

    Note: the min/max reductions use the identity of an empty reduction
    (0 for max, inf for min) so that matrices with a zero dimension do not
    raise, where np.linalg.matrix_norm raises for ord in (-1, -2, -inf).
    """
    if ord == "fro":
        if x.dtype.kind == "c":
            sq = np.square(x.real) + np.square(x.imag)
        else:
            sq = np.square(x)
        res = np.sqrt(np.sum(sq, axis=(-2, -1)))
    elif ord == "nuc":
        res = np.sum(np.linalg.svdvals(x), axis=-1)
    elif ord == 2:
        res = np.max(np.linalg.svdvals(x), axis=-1, initial=0)
    elif ord == -2:
        res = np.min(np.linalg.svdvals(x), axis=-1, initial=_inf)
    else:
        # 1 / -1: over the column sums; inf / -inf: over the row sums.
        sums = np.sum(np.abs(x), axis=-2 if ord in (1, -1) else -1)
        if ord > 0:
            res = np.max(sums, axis=-1, initial=0)
        else:
            res = np.min(sums, axis=-1, initial=_inf)
    if keepdims:
        res = np.expand_dims(res, (-2, -1))
    return res


OPS: dict[str, Callable[..., Any]] = {
    "linalg.cholesky": _cholesky,
    "linalg.cross": _cross,
    "linalg.det": np.linalg.det,
    "linalg.diagonal": _diagonal,
    "linalg.eig": _eig,
    "linalg.eigh": _eigh,
    "linalg.eigvals": _eigvals,
    "linalg.eigvalsh": np.linalg.eigvalsh,
    "linalg.inv": np.linalg.inv,
    "linalg.matrix_norm": _matrix_norm,
    "linalg.matrix_power": _matrix_power,
    "linalg.matrix_rank": _matrix_rank,
    "linalg.outer": np.outer,
    "linalg.pinv": _pinv,
    "linalg.qr": _qr,
    "linalg.slogdet": _slogdet,
    "linalg.solve": np.linalg.solve,
    "linalg.svd": _svd,
    "linalg.svdvals": np.linalg.svdvals,
    "linalg.trace": _trace,
    "linalg.vector_norm": _vector_norm,
}
