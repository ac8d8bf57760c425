"""The CPU backend: NumPy, corrected where NumPy departs from the standard.

The table ``ops`` follows the conventions documented in ``docs/dev/backends.md``:
arguments are native (NumPy) arrays, Python scalars, NumPy dtypes and already
normalised axes; results are native arrays (or tuples of them).  Nothing here
validates standard input: the front end has done that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

ndarray = np.ndarray


# --- corrections and compositions ------------------------------------------
def _clip(x: ndarray, lo: Any, hi: Any) -> ndarray:
    # Note: np.clip promotes min/max with x and rejects min > max orders in some
    # versions; the standard wants x's dtype and NaN propagation from any operand.
    out = x
    if lo is not None:
        out = np.maximum(out, lo)
    if hi is not None:
        out = np.minimum(out, hi)
    if out is x:
        return x.copy()
    return out.astype(x.dtype, copy=False)


def _sort(x: ndarray, axis: int, descending: bool, stable: bool) -> ndarray:
    kind = "stable" if stable else None
    if not descending:
        return np.sort(x, axis=axis, kind=kind)
    # Note: NumPy has no descending sort; sorting the reversed input stably and
    # reversing back keeps equal elements in their original order.
    return np.flip(np.sort(np.flip(x, axis=axis), axis=axis, kind=kind), axis=axis)


def _argsort(x: ndarray, axis: int, descending: bool, stable: bool) -> ndarray:
    kind = "stable" if stable else None
    if not descending:
        return np.argsort(x, axis=axis, kind=kind)
    n = x.shape[axis]
    rev = np.argsort(np.flip(x, axis=axis), axis=axis, kind=kind)
    return np.flip(n - 1 - rev, axis=axis)


def _unstack(x: ndarray, axis: int) -> tuple[ndarray, ...]:
    return tuple(np.moveaxis(x, axis, 0))


def _getitem(x: ndarray, key: Any) -> ndarray:
    return x[key]


def _setitem(x: ndarray, key: Any, value: Any) -> None:
    x[key] = value


def _reshape(x: ndarray, shape: tuple[int, ...], copy: bool | None) -> ndarray:
    return np.reshape(x, shape, copy=copy)


def _astype(x: ndarray, dtype: np.dtype, copy: bool) -> ndarray:
    return x.astype(dtype, copy=copy)


def _unique_all(x: ndarray) -> tuple[ndarray, ndarray, ndarray, ndarray]:
    r = np.unique_all(x)
    return r.values, r.indices, r.inverse_indices, r.counts


def _unique_counts(x: ndarray) -> tuple[ndarray, ndarray]:
    r = np.unique_counts(x)
    return r.values, r.counts


def _unique_inverse(x: ndarray) -> tuple[ndarray, ndarray]:
    r = np.unique_inverse(x)
    return r.values, r.inverse_indices


def _full(index: int, shape: tuple[int, ...], fill: Any, dtype: np.dtype) -> ndarray:
    return np.full(shape, fill, dtype=dtype)


def _zeros(index: int, shape: tuple[int, ...], dtype: np.dtype) -> ndarray:
    return np.zeros(shape, dtype=dtype)


def _ones(index: int, shape: tuple[int, ...], dtype: np.dtype) -> ndarray:
    return np.ones(shape, dtype=dtype)


def _empty(index: int, shape: tuple[int, ...], dtype: np.dtype) -> ndarray:
    return np.empty(shape, dtype=dtype)


def _arange(index: int, start: Any, stop: Any, step: Any, dtype: np.dtype) -> ndarray:
    return np.arange(start, stop, step, dtype=dtype)


def _eye(index: int, n: int, m: int, k: int, dtype: np.dtype) -> ndarray:
    return np.eye(n, m, k=k, dtype=dtype)


def _linspace(
    index: int, start: Any, stop: Any, num: int, dtype: np.dtype, endpoint: bool
) -> ndarray:
    return np.linspace(start, stop, num, dtype=dtype, endpoint=endpoint)


def _sum(x: ndarray, axis: Any, dtype: Any, keepdims: bool) -> ndarray:
    return np.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _prod(x: ndarray, axis: Any, dtype: Any, keepdims: bool) -> ndarray:
    return np.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)


def _std(x: ndarray, axis: Any, correction: float, keepdims: bool) -> ndarray:
    return np.std(x, axis=axis, ddof=correction, keepdims=keepdims)


def _var(x: ndarray, axis: Any, correction: float, keepdims: bool) -> ndarray:
    return np.var(x, axis=axis, ddof=correction, keepdims=keepdims)


def _cumulative(func: Callable[..., ndarray]) -> Callable[..., ndarray]:
    def cumulative(x: ndarray, axis: int, dtype: Any, include_initial: bool) -> ndarray:
        return func(x, axis=axis, dtype=dtype, include_initial=include_initial)

    return cumulative


def _reduce_kw(func: Callable[..., ndarray]) -> Callable[..., ndarray]:
    def reduce(x: ndarray, axis: Any, keepdims: bool) -> ndarray:
        return func(x, axis=axis, keepdims=keepdims)

    return reduce


def _searchsorted(x1: ndarray, x2: Any, side: str, sorter: Any) -> ndarray:
    return np.searchsorted(x1, x2, side=side, sorter=sorter)


def _sorted_isin(x1: ndarray, x2: Any, invert: bool) -> ndarray:
    return np.isin(x1, x2, invert=invert)


def _diff(x: ndarray, axis: int, n: int, prepend: Any, append: Any) -> ndarray:
    kw: dict[str, Any] = {}
    if prepend is not None:
        kw["prepend"] = prepend
    if append is not None:
        kw["append"] = append
    return np.diff(x, n=n, axis=axis, **kw)


def _concat(arrays: Sequence[ndarray], axis: int | None, dtype: np.dtype) -> ndarray:
    return np.concatenate(arrays, axis=axis, dtype=dtype)


def _stack(arrays: Sequence[ndarray], axis: int, dtype: np.dtype) -> ndarray:
    return np.stack(arrays, axis=axis, dtype=dtype)


def _take(x: ndarray, indices: ndarray, axis: int) -> ndarray:
    return np.take(x, indices, axis=axis)


def _take_along_axis(x: ndarray, indices: ndarray, axis: int) -> ndarray:
    return np.take_along_axis(x, indices, axis=axis)


def _tensordot(x1: ndarray, x2: ndarray, axes: Any) -> ndarray:
    return np.tensordot(x1, x2, axes=axes)


def _vecdot(x1: ndarray, x2: ndarray, axis: int) -> ndarray:
    return np.vecdot(x1, x2, axis=axis)


def _where(cond: ndarray, x1: Any, x2: Any) -> ndarray:
    return np.where(cond, x1, x2)


def _copy(x: ndarray) -> ndarray:
    return x.copy()


_UFUNCS: dict[str, Callable[..., Any]] = {
    # unary
    "abs": np.absolute, "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin,
    "asinh": np.arcsinh, "atan": np.arctan, "atanh": np.arctanh,
    "bitwise_invert": np.invert, "ceil": np.ceil, "conj": np.conjugate,
    "cos": np.cos, "cosh": np.cosh, "exp": np.exp, "expm1": np.expm1,
    "floor": np.floor, "imag": np.imag, "isfinite": np.isfinite, "isinf": np.isinf,
    "isnan": np.isnan, "log": np.log, "log1p": np.log1p, "log2": np.log2,
    "log10": np.log10, "logical_not": np.logical_not, "negative": np.negative,
    "positive": np.positive, "real": np.real, "reciprocal": np.reciprocal,
    "round": np.round, "sign": np.sign, "signbit": np.signbit, "sin": np.sin,
    "sinh": np.sinh, "square": np.square, "sqrt": np.sqrt, "tan": np.tan,
    "tanh": np.tanh, "trunc": np.trunc,
    # binary (all accept out=)
    "add": np.add, "atan2": np.arctan2, "bitwise_and": np.bitwise_and,
    "bitwise_left_shift": np.left_shift, "bitwise_or": np.bitwise_or,
    "bitwise_right_shift": np.right_shift, "bitwise_xor": np.bitwise_xor,
    "copysign": np.copysign, "divide": np.true_divide, "equal": np.equal,
    "floor_divide": np.floor_divide, "greater": np.greater,
    "greater_equal": np.greater_equal, "hypot": np.hypot, "less": np.less,
    "less_equal": np.less_equal, "logaddexp": np.logaddexp,
    "logical_and": np.logical_and, "logical_or": np.logical_or,
    "logical_xor": np.logical_xor, "maximum": np.maximum, "minimum": np.minimum,
    "multiply": np.multiply, "nextafter": np.nextafter, "not_equal": np.not_equal,
    "pow": np.power, "remainder": np.remainder, "subtract": np.subtract,
    "matmul": np.matmul,
}  # fmt: skip


def _build_ops() -> dict[str, Callable[..., Any]]:
    ops: dict[str, Callable[..., Any]] = dict(_UFUNCS)
    ops.update(
        {
            "clip": _clip,
            "where": _where,
            "astype": _astype,
            "copy": _copy,
            "getitem": _getitem,
            "setitem": _setitem,
            "take": _take,
            "take_along_axis": _take_along_axis,
            # creation (first argument: the device index)
            "arange": _arange,
            "empty": _empty,
            "zeros": _zeros,
            "ones": _ones,
            "full": _full,
            "eye": _eye,
            "linspace": _linspace,
            "tril": lambda x, k: np.tril(x, k=k),
            "triu": lambda x, k: np.triu(x, k=k),
            "meshgrid": lambda arrays, indexing: tuple(
                np.meshgrid(*arrays, indexing=indexing)
            ),
            # manipulation
            "broadcast_to": np.broadcast_to,
            "concat": _concat,
            "stack": _stack,
            "expand_dims": lambda x, axes: np.expand_dims(x, axes),
            "flip": lambda x, axis: np.flip(x, axis=axis),
            "moveaxis": np.moveaxis,
            "permute_dims": np.transpose,
            "repeat": lambda x, repeats, axis: np.repeat(x, repeats, axis=axis),
            "reshape": _reshape,
            "roll": lambda x, shift, axis: np.roll(x, shift, axis=axis),
            "squeeze": lambda x, axis: np.squeeze(x, axis=axis),
            "tile": np.tile,
            "unstack": _unstack,
            # searching
            "argmax": lambda x, axis, keepdims: np.argmax(x, axis=axis, keepdims=keepdims),
            "argmin": lambda x, axis, keepdims: np.argmin(x, axis=axis, keepdims=keepdims),
            "count_nonzero": lambda x, axis, keepdims: np.count_nonzero(
                x, axis=axis, keepdims=keepdims
            ),
            "nonzero": np.nonzero,
            "searchsorted": _searchsorted,
            # set
            "isin": _sorted_isin,
            "unique_all": _unique_all,
            "unique_counts": _unique_counts,
            "unique_inverse": _unique_inverse,
            "unique_values": np.unique_values,
            # sorting
            "sort": _sort,
            "argsort": _argsort,
            # statistical and utility
            "sum": _sum,
            "prod": _prod,
            "max": _reduce_kw(np.max),
            "min": _reduce_kw(np.min),
            "mean": _reduce_kw(np.mean),
            "std": _std,
            "var": _var,
            "all": _reduce_kw(np.all),
            "any": _reduce_kw(np.any),
            "cumulative_sum": _cumulative(np.cumulative_sum),
            "cumulative_prod": _cumulative(np.cumulative_prod),
            "diff": _diff,
            # linear algebra (linalg.* and fft.* entries are added by _linalg/_fft)
            "tensordot": _tensordot,
            "vecdot": _vecdot,
            "matrix_transpose": np.matrix_transpose,
        }
    )
    from . import _fft, _linalg

    ops.update(_linalg.OPS)
    ops.update(_fft.OPS)
    return ops


class CPUBackend:
    """NumPy-backed implementation of the backend protocol for ``cpu`` devices."""

    kind = "cpu"
    native_type = np.ndarray
    supports_byteswap = True
    supports_complex32 = False
    max_dimensions = 64

    def __init__(self) -> None:
        self.ops = _build_ops()

    def __repr__(self) -> str:
        return "<ocean_cpu backend>"

    def device_indices(self) -> tuple[int, ...]:
        return (0,)

    def to_native(self, obj: Any) -> ndarray:
        return np.asarray(obj)

    def asarray(self, obj: Any, dtype: Any, index: int, copy: bool | None) -> ndarray:
        return np.array(obj, dtype=dtype, copy=copy)

    def to_host(self, native: ndarray, *, stream: Any = None) -> ndarray:
        return native

    def from_host(self, host: ndarray, index: int, *, stream: Any = None) -> ndarray:
        return np.array(host, copy=True)

    def transfer(self, native: ndarray, index: int, *, stream: Any = None) -> ndarray:
        return native.copy()

    def synchronize(self, index: int) -> None:
        return None

    def dlpack_device(self, native: ndarray, index: int) -> tuple[int, int]:
        return (1, 0)  # kDLCPU

    def from_dlpack(self, obj: Any, index: int, copy: bool | None) -> ndarray:
        return np.from_dlpack(obj, device="cpu", copy=copy)

    def is_lazy(self, native: Any) -> bool:
        return False

    def materialize(self, native: Any) -> Any:
        return native

    def capabilities(self) -> dict[str, Any]:
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": self.max_dimensions,
        }


backend = CPUBackend()
