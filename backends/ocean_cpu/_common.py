"""Pieces of a backend table that hold for any NumPy-like array module.

The CPU backend (NumPy) and the CUDA backend (CuPy, ``ocean_cuda._ops``) share
these: the elementwise entries' names in the NumPy API, layout compositions
(views built from slicing, ``reshape`` and ``transpose``), the shape
arithmetic of reductions, the flat layout that ``ocean_ext.index`` objects
gather through, and the corrections that NumPy and CuPy need alike (quiet NaN
for empty means and variances, float16 ``nextafter``).  They use only what an
array of either module has (``shape``, ``strides``, ``itemsize``, ``flags``,
slicing, ``reshape``, ``transpose``); where a function of the module is needed
(``concatenate``, ``as_strided``, ``full``) the caller passes it or the module
itself, so nothing here imports NumPy or CuPy.  Corrections that differ stay
in each backend (the CPU may test a mask on the host; the GPU must not
synchronise).

Arguments are already validated and normalised by the front end (axes are
non-negative unless said otherwise), as everywhere in a backend table.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

__all__ = [
    "ELEMENTWISE",
    "c_strides",
    "check_complex_view",
    "complex_reciprocal",
    "complex_sign",
    "diff",
    "elementwise",
    "expand_dims",
    "flat_layout",
    "flip",
    "mean_entry",
    "moveaxis",
    "nan_fill",
    "nextafter_half",
    "reduced",
    "reversed_view",
    "spread_entry",
    "stack",
    "tensordot",
    "unstack",
]


# The standard's elementwise functions (and matmul) with their name in the
# NumPy API, which CuPy shares.  Every binary one accepts ``out=``.
ELEMENTWISE: dict[str, str] = {
    # unary
    "abs": "absolute", "acos": "arccos", "acosh": "arccosh", "asin": "arcsin",
    "asinh": "arcsinh", "atan": "arctan", "atanh": "arctanh",
    "bitwise_invert": "invert", "ceil": "ceil", "conj": "conjugate", "cos": "cos",
    "cosh": "cosh", "exp": "exp", "expm1": "expm1", "floor": "floor",
    "imag": "imag", "isfinite": "isfinite", "isinf": "isinf", "isnan": "isnan",
    "log": "log", "log1p": "log1p", "log2": "log2", "log10": "log10",
    "logical_not": "logical_not", "negative": "negative", "positive": "positive",
    "real": "real", "reciprocal": "reciprocal", "round": "round", "sign": "sign",
    "signbit": "signbit", "sin": "sin", "sinh": "sinh", "square": "square",
    "sqrt": "sqrt", "tan": "tan", "tanh": "tanh", "trunc": "trunc",
    # binary
    "add": "add", "atan2": "arctan2", "bitwise_and": "bitwise_and",
    "bitwise_left_shift": "left_shift", "bitwise_or": "bitwise_or",
    "bitwise_right_shift": "right_shift", "bitwise_xor": "bitwise_xor",
    "copysign": "copysign", "divide": "true_divide", "equal": "equal",
    "floor_divide": "floor_divide", "greater": "greater",
    "greater_equal": "greater_equal", "hypot": "hypot", "less": "less",
    "less_equal": "less_equal", "logaddexp": "logaddexp",
    "logical_and": "logical_and", "logical_or": "logical_or",
    "logical_xor": "logical_xor", "maximum": "maximum", "minimum": "minimum",
    "multiply": "multiply", "nextafter": "nextafter", "not_equal": "not_equal",
    "pow": "power", "remainder": "remainder", "subtract": "subtract",
    "matmul": "matmul",
}  # fmt: skip


def elementwise(
    xp: Any, corrected: dict[str, Callable[..., Any]]
) -> dict[str, Callable[..., Any]]:
    """The elementwise entries over module ``xp``: its functions, except the
    ``corrected`` ones (where the module departs from the standard)."""
    unknown = corrected.keys() - ELEMENTWISE.keys()
    if unknown:
        msg = f"not elementwise entries: {sorted(unknown)}"
        raise KeyError(msg)
    return {
        name: corrected[name] if name in corrected else getattr(xp, attr)
        for name, attr in ELEMENTWISE.items()
    }


def reversed_view(x: Any, axis: int) -> Any:
    """A view of ``x`` reversed along ``axis`` (cheaper than ``flip``)."""
    key = [slice(None)] * x.ndim
    key[axis] = slice(None, None, -1)
    return x[tuple(key)]


def flip(x: Any, axis: tuple[int, ...] | None) -> Any:
    """``x`` reversed along ``axis`` (every axis for None), as a view."""
    rev = slice(None, None, -1)
    if axis is None:
        return x[(rev,) * x.ndim] if x.ndim else x[...]
    key: list[Any] = [slice(None)] * x.ndim
    for a in axis:
        key[a] = rev
    # (..., first: x[()] of a 0-d array is a scalar, not an array)
    key.insert(0, Ellipsis)
    return x[tuple(key)]


def unstack(x: Any, axis: int) -> tuple[Any, ...]:
    """Views of ``x`` along ``axis``."""
    if axis:
        order = list(range(x.ndim))
        order.insert(0, order.pop(axis))
        x = x.transpose(order)
    # x[i, ...] is a view even for 1-D x (x[i] would be a NumPy scalar)
    return tuple([x[i, ...] for i in range(x.shape[0])])


def moveaxis(x: Any, source: tuple[int, ...], destination: tuple[int, ...]) -> Any:
    """``moveaxis`` without its argument normalisation (the front end did it)."""
    order = [n for n in range(x.ndim) if n not in source]
    for dst, src in sorted(zip(destination, source, strict=True)):
        order.insert(dst, src)
    return x.transpose(order)


def expand_dims(x: Any, axes: tuple[int, ...]) -> Any:
    """``x`` with size-1 axes at ``axes`` (sorted positions in the result);
    inserting size-1 axes is always a view."""
    shape = list(x.shape)
    for a in axes:
        shape.insert(a, 1)
    return x.reshape(shape)


def stack(
    concatenate: Callable[..., Any], arrays: Sequence[Any], axis: int, dtype: Any
) -> Any:
    """``stack`` as one ``concatenate`` of views with a new axis."""
    key = (slice(None),) * axis + (None,)
    return concatenate([a[key] for a in arrays], axis=axis, dtype=dtype)


def diff(
    concatenate: Callable[..., Any],
    x: Any,
    axis: int,
    n: int,
    prepend: Any,
    append: Any,
) -> Any:
    """The ``n``-th forward difference along ``axis``, after joining
    ``prepend`` and ``append`` (arrays of x's dtype, or None)."""
    if prepend is not None or append is not None:
        x = concatenate([p for p in (prepend, x, append) if p is not None], axis=axis)
    if n == 0:
        return x
    lo = [slice(None)] * x.ndim
    hi = lo[:]
    lo[axis] = slice(None, -1)
    hi[axis] = slice(1, None)
    klo, khi = tuple(lo), tuple(hi)
    # Past the length along ``axis`` every further difference is empty: never
    # loop ``n`` times for a huge ``n``.
    for _ in range(min(n, x.shape[axis])):
        x = x[khi] - x[klo]
    return x


def tensordot(xp: Any, x1: Any, x2: Any, axes: Any) -> Any:
    """``tensordot`` of arrays of module ``xp`` over ``axes`` (two tuples of
    non-negative axes).

    Note: a sum of one term (no axis contracted, an outer product; or only
    axes of length 1) is the elementwise product, as ``multiply`` gives it.
    NumPy's and CuPy's ``tensordot`` compute it with BLAS's gemm (NumPy for
    some shapes only), whose scaling by alpha = 1 turns a complex product
    with an infinite part into NaN: the value depended on the shapes, and on
    a dask device on the chunks.
    """
    ax1, ax2 = axes
    if not all(x1.shape[a] == 1 for a in ax1):
        return xp.tensordot(x1, x2, axes=axes)
    a = x1.reshape(tuple(n for d, n in enumerate(x1.shape) if d not in ax1))
    b = x2.reshape(tuple(n for d, n in enumerate(x2.shape) if d not in ax2))
    return xp.asarray(xp.multiply(a[(Ellipsis,) + (None,) * b.ndim], b))


def store(out: Any, res: Any) -> Any:
    """Write ``res`` into ``out`` (an in-place operator's ``x1``) and return it,
    refusing what a ufunc's ``out=`` refuses: an assignment would drop
    ``res``'s leading length-1 axes, so ``x (1,) //= y (1, 1)`` would pass."""
    if res.shape != out.shape:
        msg = (
            f"non-broadcastable output operand with shape {out.shape} doesn't "
            f"match the broadcast shape {res.shape}"
        )
        raise ValueError(msg)
    out[...] = res
    return out


def fill_empty_axes(zeros: Callable[..., Any], x: Any, axes: Sequence[int]) -> Any:
    """``x``, or zeros of its dtype with length 1 on those of ``axes`` where
    ``x`` has length 0: a transform zero-pads its input to the length asked
    for, and NumPy's irfft/hfft read uninitialised memory for an empty axis
    (values of about 1e-313 instead of zeros)."""
    shape = x.shape
    if all(shape[a] for a in axes):
        return x
    return zeros(
        tuple(d or (1 if i in axes else 0) for i, d in enumerate(shape)), dtype=x.dtype
    )


def reduced(
    shape: tuple[int, ...], axis: Any, keepdims: bool
) -> tuple[tuple[int, ...], int]:
    """(result shape, number of elements reduced into each result element)
    of a reduction of ``shape`` over ``axis`` (None, an int or a tuple; negative
    axes count from the end)."""
    nd = len(shape)
    if axis is None:
        axes: tuple[int, ...] = tuple(range(nd))
    elif axis.__class__ is int:
        axes = (axis % nd if nd else axis,)
    else:
        axes = tuple([a % nd for a in axis])
    out: list[int] = []
    count = 1
    for i, d in enumerate(shape):
        if i in axes:
            count *= d
            if keepdims:
                out.append(1)
        else:
            out.append(d)
    return tuple(out), count


@functools.lru_cache(maxsize=256)
def c_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """Element strides of a C-contiguous array of ``shape`` (0 for length 1)."""
    out = []
    step = 1
    for n in reversed(shape):
        out.append(step if n > 1 else 0)
        step *= n
    return tuple(reversed(out))


def flat_layout(
    as_strided: Callable[..., Any], x: Any
) -> tuple[Any, int, tuple[int, ...]] | None:
    """``(flat, start, strides)``: a 1-D view of the memory holding ``x``, the
    position of ``x[0, ..., 0]`` in it and ``x``'s strides, in elements (0 for
    axes of length 1); None for an empty ``x`` or strides that are not whole
    elements.  Index objects (``ocean_ext.index``) gather and scatter through
    ``flat`` with precomputed offsets.  ``as_strided``: the module's
    ``lib.stride_tricks.as_strided``.
    """
    size = x.size
    if not size:
        return None
    if x.flags.c_contiguous:
        return x.reshape(size), 0, c_strides(x.shape)
    item = x.itemsize
    dims = list(zip(x.shape, x.strides, strict=True))
    if any(s % item for n, s in dims if n > 1):
        return None
    dims = [(n, s // item if n > 1 else 0) for n, s in dims]
    lo = sum([(n - 1) * s for n, s in dims if s < 0])
    hi = sum([(n - 1) * s for n, s in dims if s > 0])
    # the element at the lowest address, as a view, stretched over the span
    corner = x[tuple([slice(n - 1, n) if s < 0 else slice(0, 1) for n, s in dims])]
    flat = as_strided(corner, (hi - lo + 1,), (item,))
    return flat, -lo, tuple([s for _, s in dims])


def check_complex_view(x: Any) -> None:
    """Raise ValueError unless ``x`` of shape (..., 2) can be viewed as complex
    elements of twice its itemsize, shape (...), without a copy."""
    if x.strides[-1] != x.itemsize:
        msg = "the last axis (real, imaginary) must be contiguous in memory"
        raise ValueError(msg)
    if any(
        s % (2 * x.itemsize)
        for s, n in zip(x.strides[:-1], x.shape[:-1], strict=True)
        if n > 1
    ):
        msg = "every other stride must be a multiple of the complex element's size"
        raise ValueError(msg)


def nextafter_half(xp: Any, nextafter: Callable[..., Any]) -> Callable[..., Any]:
    """The ``"nextafter.float16"`` entry over module ``xp``'s ``nextafter``.

    Note: NumPy's float16 loop returns ``x1`` when ``x1 == x2``, so
    ``nextafter(-0, +0)`` is -0 where the standard wants +0 (``x2``); CuPy's
    float16 kernel also gives NaN for an infinite ``x1`` (the largest finite
    value toward ``x2`` is right, or ``x2`` itself when equal).
    """
    f16 = xp.dtype(xp.float16)
    ndarray = xp.ndarray

    def entry(x1: Any, x2: Any, out: Any = None) -> Any:
        # a Python scalar operand is float16 here, as NumPy's promotion makes it
        x1, x2 = (
            a if isinstance(a, ndarray) else xp.asarray(a, dtype=f16) for a in (x1, x2)
        )
        res = xp.asarray(nextafter(x1, x2))
        fix = xp.isinf(x1) & ~xp.isnan(x2) & (x1 != x2)
        res = xp.where(fix, xp.copysign(65504.0, x1), res)  # float16's largest
        res = xp.where(x1 == x2, x2, res).astype(f16, copy=False)
        return res if out is None else store(out, res)

    return entry


def complex_sign(xp: Any, x: Any) -> Any:
    """``sign`` of complex ``x`` by the standard's rules, for any values.

    Note: NumPy (and so CuPy) divide by ``hypot(a, b)`` and branch on it, so a
    NaN beside an infinity gives ``1 + 0j`` (the standard: NaN + NaN j), an
    infinite part gives +-1 (the standard: division by the real ``|x| = inf``,
    part by part, so inf / inf is NaN and a finite part / inf a signed zero),
    and a finite ``x`` whose ``|x|`` overflows gives ``0 +- 1j``.  Here: the
    finite values are scaled by ``max(|a|, |b|)`` before ``x / |x|``; zero
    gives ``0 + 0j``.  The caller quiets floating-point warnings.
    """
    a, b = xp.real(x), xp.imag(x)
    m = xp.maximum(xp.abs(a), xp.abs(b))  # NaN if a part is
    finite = xp.isfinite(m)
    scale = xp.where(finite & (m != 0), m, 1)
    sa, sb = a / scale, b / scale  # one of them +-1, the other in [-1, 1]
    r = xp.sqrt(sa * sa + sb * sb)  # in [1, sqrt 2]: no overflow or underflow
    r = xp.where(r == 0, 1, r)
    # infinite x: a / inf, b / inf (NaN for an infinite part)
    inf_re = xp.where(xp.isinf(a), xp.nan, a * 0.0)
    inf_im = xp.where(xp.isinf(b), xp.nan, b * 0.0)
    re = xp.where(finite, sa / r, inf_re)
    im = xp.where(finite, sb / r, inf_im)
    nan = xp.isnan(a) | xp.isnan(b)
    re = xp.where(nan, xp.nan, re)
    im = xp.where(nan, xp.nan, im)
    out = xp.empty(x.shape, dtype=x.dtype)
    out.real[...] = re
    out.imag[...] = im
    return out


def complex_reciprocal(xp: Any, x: Any) -> Any:
    """``reciprocal`` of complex ``x`` as NumPy computes it (Smith's method
    with no branch for zero), so that every backend and dtype gives the same
    special values: ``1 / (0 + 0j)`` is NaN + NaN j, ``1 / (inf + 1j)`` is
    ``0 - 0j``.  The standard leaves them to the implementation (``1.0 / x``
    with an infinite, zero or NaN part); CuPy's kernel divides complex
    numbers its own way.  The caller quiets floating-point warnings.
    """
    a, b = xp.real(x), xp.imag(x)
    real_major = xp.abs(b) <= xp.abs(a)
    # |b| <= |a|: r = b / a, d = a + b r, 1 / d - (r / d) j;
    # else r = a / b, d = a r + b, r / d - (1 / d) j
    r = xp.where(real_major, b / a, a / b)
    d = xp.where(real_major, a + b * r, a * r + b)
    re = xp.where(real_major, 1 / d, r / d)
    im = xp.where(real_major, -r / d, -1 / d)
    out = xp.empty(x.shape, dtype=x.dtype)
    out.real[...] = re
    out.imag[...] = im
    return out


def nan_fill(xp: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    """A native array of ``shape`` full of NaN (NaN + NaN j for complex)."""
    nan = float("nan")
    fill = complex(nan, nan) if dtype.kind == "c" else nan
    return xp.full(shape, fill, dtype=dtype.newbyteorder("="))


def mean_entry(xp: Any, mean: Callable[..., Any]) -> Callable[..., Any]:
    """The ``"mean"`` entry over the module's ``mean``.

    Note: NumPy warns ("Mean of empty slice") for a mean over zero elements;
    the standard wants NaN (NaN + NaN j for complex input), quietly.
    """

    def entry(x: Any, axis: Any, keepdims: bool) -> Any:
        if x.size == 0:
            shape, count = reduced(x.shape, axis, keepdims)
            if count == 0:
                return nan_fill(xp, shape, x.dtype)
        return mean(x, axis=axis, keepdims=keepdims)

    return entry


def spread_entry(xp: Any, func: Callable[..., Any]) -> Callable[..., Any]:
    """The ``"std"``/``"var"`` entry over the module's ``func``.

    Note: where count - correction <= 0 NumPy warns and may give inf; the
    standard wants NaN.
    """

    def entry(x: Any, axis: Any, correction: float, keepdims: bool) -> Any:
        shape, count = reduced(x.shape, axis, keepdims)
        if count - correction <= 0:
            return nan_fill(xp, shape, x.dtype)
        return func(x, axis=axis, ddof=correction, keepdims=keepdims)

    return entry
