"""The ``linalg`` extension of the Array API standard.

Every function checks its arguments once (array type, dtype category, matrix
shapes, devices, keyword values) and calls the backend's ``linalg.<name>``
kernel; results keep the device of the input and have the dtype the standard
names, decided here rather than read from the backend's result.

``eig`` and ``eigvals`` are new in 2025.12: when ``OCEAN_ARRAY_API_VERSION``
selects an older revision they are absent from this module (``_FULL`` keeps
every name, so that namespaces for other revisions can be built from it).

Singular inputs (``inv``, ``solve``, ``cholesky`` of a matrix that is not
positive definite, ...) are left unspecified by the standard; the CPU backend
raises ``numpy.linalg.LinAlgError``, a subclass of ``ValueError``.

See https://data-apis.org/array-api/2025.12/extensions/linear_algebra_functions.html
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable
from typing import Any, Literal, NamedTuple, TypeVar

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array
from ._dtypes import DType, check_dtype_arg
from ._helpers import (
    check_bool,
    check_int,
    device_error,
    dtype_error,
    matrix_bounds,
    normalize_axes,
    type_error,
)
from ._linear_algebra_functions import (
    _broadcast_shapes,
    _check_array,
    _finish,
    _negative_axis,
    _two_arrays,
    matmul,
    matrix_transpose,
    tensordot,
    vecdot,
)

_floating = _dt._floating
_real_floating = _dt._real_floating
_complex_floating = _dt._complex_floating
_numeric = _dt._numeric
_inf = float("inf")


# --- result types -------------------------------------------------------------
class EigResult(NamedTuple):
    """Result of :func:`eig`."""

    eigenvalues: Array
    eigenvectors: Array


class EighResult(NamedTuple):
    """Result of :func:`eigh`."""

    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """Result of :func:`qr`."""

    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    """Result of :func:`slogdet`."""

    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    """Result of :func:`svd`."""

    U: Array
    S: Array
    Vh: Array


# --- helpers ---------------------------------------------------------------------
_F = TypeVar("_F", bound=Callable[..., Any])


def _ext_via_proxy(allowed: set[DType], *argnames: str) -> Callable[[_F], _F]:
    """Decorator: a call with an ocean_ext dtype (float16, complex32) among its
    array arguments or as its ``dtype`` computes in the proxy dtype (float32,
    complex64; there are no half-precision LAPACK routines) and rounds the
    results once (see ``_ext_dtypes.via_proxy``).  Calls with standard dtypes
    only pay a loop over the positional arguments."""
    names = argnames or ("x",)

    def decorate(func: _F) -> _F:
        where = f"linalg.{func.__name__}()"

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for a in args:
                if a.__class__ is Array and not a._dtype._standard:
                    break
            else:
                dt = kwargs.get("dtype")
                if dt.__class__ is not DType or dt._standard:
                    return func(*args, **kwargs)
            if len(args) > len(names):  # too many: let func say so
                return func(*args, **kwargs)
            return _ext.via_proxy(
                func, where, allowed, dict(zip(names, args, strict=False)), kwargs
            )

        return wrapper  # type: ignore[return-value]

    return decorate


def _matrix(
    x: Any, where: str, allowed: set[DType] | None, *, square: bool = False
) -> Any:
    """Check ``x`` is an array of ``allowed`` dtype (None: any) holding (a stack
    of) matrices."""
    if allowed is None:
        if x.__class__ is not Array:
            type_error(where, "x", "an array", x)
    else:
        _check_array(x, where, "x", allowed)
    shape = x._data.shape
    if len(shape) < 2:
        msg = (
            f"{where}: `x` must have at least 2 dimensions (a matrix or a stack of "
            f"matrices), got shape {shape}"
        )
        raise ValueError(msg)
    # (a data-dependent size, None on lazy devices, is checked when it runs)
    if square and shape[-1] != shape[-2] and None not in shape[-2:]:
        msg = f"{where}: `x` must hold square matrices (..., M, M), got shape {shape}"
        raise ValueError(msg)
    return x._data


def _real(dt: DType) -> DType:
    return _dt.REAL_OF.get(dt, dt)


def _complex(dt: DType) -> DType:
    return _dt.COMPLEX_OF.get(dt, dt)


def _rtol(rtol: Any, x: Array, where: str) -> Any:
    """A validated ``rtol``: None, a Python float, or a native array."""
    if rtol is None:
        return None
    if rtol.__class__ is Array:
        if rtol._dtype not in _real_floating:
            dtype_error(where, "rtol", _real_floating, rtol._dtype)
        if rtol._device is not x._device:
            device_error(where, ("x", "rtol"), (x._device, rtol._device))
        _broadcast_shapes(
            rtol._data.shape,
            x._data.shape[:-2],
            where,
            "the shape of `rtol` and the stack shape of `x`",
        )
        return rtol._data
    if isinstance(rtol, numbers.Real) and not isinstance(rtol, bool):
        return float(rtol)
    type_error(where, "rtol", "None, a float or a real floating-point array", rtol)


# --- functions -------------------------------------------------------------------
@_ext_via_proxy(_floating)
@_hints.keyword_only
def cholesky(x: Array, /, *_positional: Any, upper: bool = False) -> Array:
    """Cholesky factor of each Hermitian positive-definite matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.cholesky.html
    """
    if _positional:
        raise _hints.positional_error(cholesky, (x, *_positional))
    where = "linalg.cholesky()"
    data = _matrix(x, where, _floating, square=True)
    upper = check_bool(upper, where, "upper")
    dev = x._device
    return _finish(dev._ops["linalg.cholesky"](data, upper), x._dtype, dev)


@_ext_via_proxy(_numeric, "x1", "x2")
@_hints.keyword_only
def cross(x1: Array, x2: Array, /, *_positional: Any, axis: int = -1) -> Array:
    """Cross product of the 3-element vectors of ``x1`` and ``x2`` along ``axis``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.cross.html
    """
    if _positional:
        raise _hints.positional_error(cross, (x1, x2, *_positional))
    where = "linalg.cross()"
    dt, dev = _two_arrays(x1, x2, where, _numeric)
    s1 = x1._data.shape
    s2 = x2._data.shape
    n = min(len(s1), len(s2))
    if n == 0:
        msg = f"{where}: operands must have at least one dimension, got shapes {s1} and {s2}"
        raise ValueError(msg)
    axis = _negative_axis(axis, n, where)
    # Note: a data-dependent length (None) is checked when the graph runs
    if any(s[axis] is not None and s[axis] != 3 for s in (s1, s2)):
        msg = (
            f"{where}: axis {axis} must have size 3 in both arrays (it is not "
            f"broadcast), got shapes {s1} and {s2}"
        )
        raise ValueError(msg)
    _broadcast_shapes(
        s1[:axis] + s1[axis:][1:],
        s2[:axis] + s2[axis:][1:],
        where,
        "the non-vector shapes",
    )
    return _finish(dev._ops["linalg.cross"](x1._data, x2._data, axis), dt, dev)


@_ext_via_proxy(_floating)
def det(x: Array, /) -> Array:
    """Determinant of each square matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.det.html
    """
    data = _matrix(x, "linalg.det()", _floating, square=True)
    dev = x._device
    return _finish(dev._ops["linalg.det"](data), x._dtype, dev)


@_hints.keyword_only
def diagonal(x: Array, /, *_positional: Any, offset: int = 0) -> Array:
    """The ``offset`` diagonal of each matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.diagonal.html

    Notes
    -----
    The result is a new array, not a view of ``x``.
    """
    if _positional:
        raise _hints.positional_error(diagonal, (x, *_positional))
    where = "linalg.diagonal()"
    data = _matrix(x, where, None)  # any dtype: a gather of the storage
    offset = _clamp_offset(check_int(offset, where, "offset"), data.shape)
    dev = x._device
    return _finish(dev._ops["linalg.diagonal"](data, offset), x._dtype, dev)


def _clamp_offset(offset: int, shape: tuple[Any, ...]) -> int:
    """``offset`` moved into ``[-rows, cols]``: past either end the diagonal is
    empty, and a huge offset would overflow the backend's C long."""
    rows, cols = matrix_bounds(shape)
    return max(-rows, min(cols, offset))


@_ext_via_proxy(_floating)
def eig(x: Array, /) -> EigResult:
    """Eigenvalues and eigenvectors of each square matrix of ``x``.

    Both results are complex, of the precision of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.eig.html
    """
    data = _matrix(x, "linalg.eig()", _floating, square=True)
    dev = x._device
    ct = _complex(x._dtype)
    w, v = dev._ops["linalg.eig"](data)
    return EigResult(_finish(w, ct, dev), _finish(v, ct, dev))


@_ext_via_proxy(_floating)
def eigh(x: Array, /) -> EighResult:
    """Eigenvalues and eigenvectors of each Hermitian (symmetric) matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.eigh.html
    """
    data = _matrix(x, "linalg.eigh()", _floating, square=True)
    dev = x._device
    dt = x._dtype
    w, v = dev._ops["linalg.eigh"](data)
    return EighResult(_finish(w, _real(dt), dev), _finish(v, dt, dev))


@_ext_via_proxy(_floating)
def eigvals(x: Array, /) -> Array:
    """Eigenvalues of each square matrix of ``x`` (complex, of the precision of ``x``).

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.eigvals.html
    """
    data = _matrix(x, "linalg.eigvals()", _floating, square=True)
    dev = x._device
    return _finish(dev._ops["linalg.eigvals"](data), _complex(x._dtype), dev)


@_ext_via_proxy(_floating)
def eigvalsh(x: Array, /) -> Array:
    """Eigenvalues of each Hermitian (symmetric) matrix of ``x`` (real).

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.eigvalsh.html
    """
    data = _matrix(x, "linalg.eigvalsh()", _floating, square=True)
    dev = x._device
    return _finish(dev._ops["linalg.eigvalsh"](data), _real(x._dtype), dev)


@_ext_via_proxy(_floating)
def inv(x: Array, /) -> Array:
    """Inverse of each square matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.inv.html
    """
    data = _matrix(x, "linalg.inv()", _floating, square=True)
    dev = x._device
    return _finish(dev._ops["linalg.inv"](data), x._dtype, dev)


_MATRIX_ORDS = (1, 2, -1, -2, _inf, -_inf)


@_ext_via_proxy(_floating)
@_hints.keyword_only
def matrix_norm(
    x: Array,
    /,
    *_positional: Any,
    keepdims: bool = False,
    ord: int | float | Literal["fro", "nuc"] | None = "fro",  # noqa: A002
) -> Array:
    """Matrix norm of each matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.matrix_norm.html

    Notes
    -----
    ``ord=None`` means ``"fro"``.  For matrices with a zero dimension, the
    norms that take a minimum (``ord`` in -1, -2, -inf) are ``inf``, the
    identity of an empty minimum.
    """
    if _positional:
        raise _hints.positional_error(matrix_norm, (x, *_positional))
    where = "linalg.matrix_norm()"
    data = _matrix(x, where, _floating)
    keepdims = check_bool(keepdims, where, "keepdims")
    if ord is None:
        ord = "fro"  # noqa: A001
    elif ord.__class__ is str:
        if ord not in ("fro", "nuc"):
            msg = f"{where}: `ord` must be 'fro', 'nuc', 1, 2, -1, -2, inf or -inf, got {ord!r}"
            raise ValueError(msg)
    elif isinstance(ord, numbers.Real) and not isinstance(ord, bool):
        if ord not in _MATRIX_ORDS:
            msg = f"{where}: `ord` must be 'fro', 'nuc', 1, 2, -1, -2, inf or -inf, got {ord!r}"
            raise ValueError(msg)
        ord = int(ord) if math.isfinite(ord) else float(ord)  # noqa: A001
    else:
        type_error(where, "ord", "'fro', 'nuc', an int or a float", ord)
    dev = x._device
    return _finish(
        dev._ops["linalg.matrix_norm"](data, keepdims, ord), _real(x._dtype), dev
    )


@_ext_via_proxy(_floating, "x", "n")
def matrix_power(x: Array, n: int, /) -> Array:
    """Each square matrix of ``x`` raised to the integer power ``n``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.matrix_power.html
    """
    where = "linalg.matrix_power()"
    data = _matrix(x, where, _floating, square=True)
    n = check_int(n, where, "n")
    dev = x._device
    return _finish(dev._ops["linalg.matrix_power"](data, n), x._dtype, dev)


@_ext_via_proxy(_floating)
@_hints.keyword_only
def matrix_rank(
    x: Array, /, *_positional: Any, rtol: float | Array | None = None
) -> Array:
    """Rank (number of singular values above the tolerance) of each matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.matrix_rank.html
    """
    if _positional:
        raise _hints.positional_error(matrix_rank, (x, *_positional))
    where = "linalg.matrix_rank()"
    data = _matrix(x, where, _floating)
    tol = _rtol(rtol, x, where)
    dev = x._device
    return _finish(dev._ops["linalg.matrix_rank"](data, tol), _dt.DEFAULT_INT, dev)


@_ext_via_proxy(_numeric, "x1", "x2")
def outer(x1: Array, x2: Array, /) -> Array:
    """Outer product of the one-dimensional arrays ``x1`` and ``x2``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.outer.html
    """
    where = "linalg.outer()"
    dt, dev = _two_arrays(x1, x2, where, _numeric)
    a = x1._data
    b = x2._data
    if a.ndim != 1 or b.ndim != 1:
        msg = f"{where}: `x1` and `x2` must be one-dimensional, got shapes {a.shape} and {b.shape}"
        raise ValueError(msg)
    return _finish(dev._ops["linalg.outer"](a, b), dt, dev)


@_ext_via_proxy(_floating)
@_hints.keyword_only
def pinv(x: Array, /, *_positional: Any, rtol: float | Array | None = None) -> Array:
    """Moore-Penrose pseudo-inverse of each matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.pinv.html
    """
    if _positional:
        raise _hints.positional_error(pinv, (x, *_positional))
    where = "linalg.pinv()"
    data = _matrix(x, where, _floating)
    tol = _rtol(rtol, x, where)
    dev = x._device
    return _finish(dev._ops["linalg.pinv"](data, tol), x._dtype, dev)


@_ext_via_proxy(_floating)
@_hints.keyword_only
def qr(
    x: Array, /, *_positional: Any, mode: Literal["reduced", "complete"] = "reduced"
) -> QRResult:
    """QR decomposition of each matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.qr.html
    """
    if _positional:
        raise _hints.positional_error(qr, (x, *_positional))
    where = "linalg.qr()"
    data = _matrix(x, where, _floating)
    if mode.__class__ is not str:
        type_error(where, "mode", "'reduced' or 'complete'", mode)
    if mode != "reduced" and mode != "complete":
        msg = f"{where}: `mode` must be 'reduced' or 'complete', got {mode!r}"
        raise ValueError(msg)
    dev = x._device
    dt = x._dtype
    q, r = dev._ops["linalg.qr"](data, mode)
    return QRResult(_finish(q, dt, dev), _finish(r, dt, dev))


@_ext_via_proxy(_floating)
def slogdet(x: Array, /) -> SlogdetResult:
    """Sign and log of the absolute value of the determinant of each square matrix.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.slogdet.html
    """
    data = _matrix(x, "linalg.slogdet()", _floating, square=True)
    dev = x._device
    dt = x._dtype
    sign, logabsdet = dev._ops["linalg.slogdet"](data)
    return SlogdetResult(_finish(sign, dt, dev), _finish(logabsdet, _real(dt), dev))


@_ext_via_proxy(_floating, "x1", "x2")
def solve(x1: Array, x2: Array, /) -> Array:
    """Solution ``X`` of ``x1 @ X = x2`` for each square matrix of ``x1``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.solve.html

    Notes
    -----
    ``x2`` of shape ``(M,)`` is one vector; any other ``x2`` is a stack of
    ``(M, K)`` matrices.
    """
    where = "linalg.solve()"
    dt, dev = _two_arrays(x1, x2, where, _floating)
    s1 = x1._data.shape
    s2 = x2._data.shape
    if len(s1) < 2 or (s1[-1] != s1[-2] and None not in s1[-2:]):
        msg = f"{where}: `x1` must hold square matrices (..., M, M), got shape {s1}"
        raise ValueError(msg)
    m = s1[-1]
    if len(s2) == 0:
        msg = f"{where}: `x2` must have shape (M,) or (..., M, K), got shape {s2}"
        raise ValueError(msg)
    if len(s2) == 1:
        if s2[0] != m and None not in (s2[0], m):
            msg = f"{where}: `x2` of shape {s2} does not match `x1` of shape {s1}"
            raise ValueError(msg)
    else:
        if s2[-2] != m and None not in (s2[-2], m):
            msg = (
                f"{where}: `x2` must have shape (..., {m}, K) to match `x1` of shape "
                f"{s1}, got {s2}"
            )
            raise ValueError(msg)
        _broadcast_shapes(s1[:-2], s2[:-2], where, "the stack shapes")
    return _finish(dev._ops["linalg.solve"](x1._data, x2._data), dt, dev)


@_ext_via_proxy(_floating)
@_hints.keyword_only
def svd(x: Array, /, *_positional: Any, full_matrices: bool = True) -> SVDResult:
    """Singular value decomposition ``U, S, Vh`` of each matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.svd.html
    """
    if _positional:
        raise _hints.positional_error(svd, (x, *_positional))
    where = "linalg.svd()"
    data = _matrix(x, where, _floating)
    full_matrices = check_bool(full_matrices, where, "full_matrices")
    dev = x._device
    dt = x._dtype
    u, s, vh = dev._ops["linalg.svd"](data, full_matrices)
    return SVDResult(
        _finish(u, dt, dev), _finish(s, _real(dt), dev), _finish(vh, dt, dev)
    )


@_ext_via_proxy(_floating)
def svdvals(x: Array, /) -> Array:
    """Singular values of each matrix of ``x``, in descending order.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.svdvals.html
    """
    data = _matrix(x, "linalg.svdvals()", _floating)
    dev = x._device
    return _finish(dev._ops["linalg.svdvals"](data), _real(x._dtype), dev)


_UNSIGNED_BY_BITS = {8: _dt.uint8, 16: _dt.uint16, 32: _dt.uint32, 64: _dt.uint64}


@_ext_via_proxy(_numeric)
@_hints.keyword_only
def trace(
    x: Array, /, *_positional: Any, offset: int = 0, dtype: DType | None = None
) -> Array:
    """Sum of the ``offset`` diagonal of each matrix of ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.trace.html

    Notes
    -----
    Without ``dtype``, integer inputs narrower than the default integer dtype
    sum in the default integer dtype (unsigned: the unsigned dtype of its
    width), as the standard says.  A complex ``x`` refuses a real ``dtype``
    (it would discard the imaginary parts).
    """
    if _positional:
        raise _hints.positional_error(trace, (x, *_positional))
    where = "linalg.trace()"
    data = _matrix(x, where, _numeric)
    offset = _clamp_offset(check_int(offset, where, "offset"), data.shape)
    dt = x._dtype
    if dtype is None:
        rdt = dt
        default = _dt.DEFAULT_INT
        if dt._bits < default._bits:
            if dt in _dt._signed:
                rdt = default
            elif dt in _dt._unsigned:
                rdt = _UNSIGNED_BY_BITS[default._bits]
    else:
        rdt = check_dtype_arg(dtype, where)
        if rdt not in _numeric:
            msg = f"{where}: `dtype` must be a numeric dtype, got {rdt}"
            raise TypeError(msg)
        if dt in _complex_floating and rdt not in _complex_floating:
            msg = (
                f"{where}: `dtype` {rdt} would discard the imaginary part of the "
                f"complex input ({dt}); use a complex dtype or real() first"
            )
            raise TypeError(msg)
    dev = x._device
    return _finish(dev._ops["linalg.trace"](data, offset, rdt._native), rdt, dev)


@_ext_via_proxy(_floating)
@_hints.keyword_only
def vector_norm(
    x: Array,
    /,
    *_positional: Any,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: int | float = 2,  # noqa: A002
) -> Array:
    """Vector norm of ``x`` over ``axis`` (all axes when None).

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.linalg.vector_norm.html

    Notes
    -----
    Over an empty set of elements the norm is 0, except for ``ord=-inf``
    (``inf``, the identity of an empty minimum) and negative orders (``inf``).
    """
    if _positional:
        raise _hints.positional_error(vector_norm, (x, *_positional))
    where = "linalg.vector_norm()"
    _check_array(x, where, "x", _floating)
    data = x._data
    axes = normalize_axes(axis, data.ndim, where)
    keepdims = check_bool(keepdims, where, "keepdims")
    if ord.__class__ is not int and ord.__class__ is not float:
        if not isinstance(ord, numbers.Real) or isinstance(ord, bool):
            type_error(where, "ord", "an int or a float", ord)
        ord = int(ord) if isinstance(ord, numbers.Integral) else float(ord)  # noqa: A001
    if ord != ord:
        msg = f"{where}: `ord` must not be NaN"
        raise ValueError(msg)
    dev = x._device
    res = dev._ops["linalg.vector_norm"](data, axes, keepdims, ord)
    return _finish(res, _real(x._dtype), dev)


# --- the module's public names, by revision of the standard ------------------------
_FULL: dict[str, Any] = {
    "cholesky": cholesky,
    "cross": cross,
    "det": det,
    "diagonal": diagonal,
    "eig": eig,
    "eigh": eigh,
    "eigvals": eigvals,
    "eigvalsh": eigvalsh,
    "inv": inv,
    "matmul": matmul,
    "matrix_norm": matrix_norm,
    "matrix_power": matrix_power,
    "matrix_rank": matrix_rank,
    "matrix_transpose": matrix_transpose,
    "outer": outer,
    "pinv": pinv,
    "qr": qr,
    "slogdet": slogdet,
    "solve": solve,
    "svd": svd,
    "svdvals": svdvals,
    "tensordot": tensordot,
    "trace": trace,
    "vecdot": vecdot,
    "vector_norm": vector_norm,
}


def _select_version() -> list[str]:
    from ._flags import API_VERSION
    from ._namespace import removed_linalg_names

    drop = removed_linalg_names(API_VERSION)
    for name in drop:
        globals().pop(name, None)
    return [n for n in _FULL if n not in drop]


__all__ = _select_version()
del _select_version


def __dir__() -> list[str]:
    # Only the standard's names: the helpers this module imports stay unlisted.
    return sorted(__all__)


def __getattr__(name: str) -> object:
    # Only reached for a name the module lacks (see _hints).
    raise _hints.missing_module_attribute_error(__name__, name)
