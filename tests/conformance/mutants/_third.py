"""The third set of mutants: one per input class the generator must draw.

Written before the input generator drew these classes, to measure what it
gains from them: special values and dtype extremes in reductions, empty and
short reductions, every axis form and ``keepdims``, parameters left at their
defaults, degenerate and badly scaled matrices, a 0-length dimension
broadcast against a 1-length one, the errors the standard requires, and the
integer widths ``--quick`` used to drop.  Registered into
:data:`tests.conformance.mutants.MUTANTS` on import; :data:`THIRD_SET` names
them and :data:`INPUT_CLASS` says which input class each one needs.
"""

from __future__ import annotations

import math

from . import AAT_EW, _mutant, _wrap
from ._more import AAT_LINALG, AAT_MANIP, AAT_SEARCH, AAT_STATS, AAT_UTIL

AAT_SORT = "array_api_tests/test_sorting_functions.py"

THIRD_SET: list[str] = []
INPUT_CLASS: dict[str, str] = {}


def _third(name, only, kinds, description, input_class, aat="", category=""):
    THIRD_SET.append(name)
    INPUT_CLASS[name] = input_class
    return _mutant(name, only, kinds, description, aat=aat, category=category)


def _axes(x, axis):
    """The non-negative axes a reduction over ``axis`` reduces."""
    if axis is None:
        return tuple(range(x.ndim))
    axis = axis if isinstance(axis, tuple) else (axis,)
    return tuple(a % x.ndim for a in axis) if x.ndim else ()


# --- special values and dtype extremes in reductions ------------------------------


@_third(
    "min_ignores_nan",
    "min",
    ["value", "special-case"],
    "min() skips NaN (as nanmin does) instead of propagating it",
    "special values in reductions",
    aat=f"{AAT_STATS}::test_min",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.min)
    def min(x, /, *, axis=None, keepdims=False):  # noqa: A001
        if not xp.isdtype(x.dtype, "real floating"):
            return xp.min(x, axis=axis, keepdims=keepdims)
        nan = xp.isnan(x)
        big = xp.asarray(xp.inf, dtype=x.dtype, device=x.device)
        out = xp.min(xp.where(nan, big, x), axis=axis, keepdims=keepdims)
        all_nan = xp.all(nan, axis=axis, keepdims=keepdims)
        return xp.where(all_nan, xp.asarray(xp.nan, dtype=x.dtype), out)

    return {"min": min}


@_third(
    "max_int64_through_float64",
    "max",
    ["value"],
    "max() of 64-bit integers computed in float64: wrong beyond 2**53",
    "dtype extremes",
    aat=f"{AAT_STATS}::test_max",
    category="values",
)
def _(m, xp):
    @_wrap(xp.max)
    def max(x, /, *, axis=None, keepdims=False):  # noqa: A001
        if x.dtype not in (xp.int64, xp.uint64):
            return xp.max(x, axis=axis, keepdims=keepdims)
        out = xp.max(xp.astype(x, xp.float64), axis=axis, keepdims=keepdims)
        return xp.astype(out, x.dtype)

    return {"max": max}


# --- empty and short reductions ---------------------------------------------------------


@_third(
    "var_no_degrees_of_freedom_is_zero",
    "var",
    ["value", "special-case"],
    "var() divides by max(M - correction, 1): 0 instead of NaN when M <= correction"
    " (an empty array, or one element with correction=1)",
    "empty arrays",
    aat=f"{AAT_STATS}::test_var",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.var)
    def var(x, /, *, axis=None, correction=0.0, keepdims=False):
        out = xp.var(x, axis=axis, correction=correction, keepdims=keepdims)
        n = math.prod(x.shape[a] for a in _axes(x, axis))
        return xp.zeros_like(out) if n - correction <= 0 else out

    return {"var": var}


# --- axis forms and keepdims -------------------------------------------------------------


@_third(
    "sum_empty_axis_tuple_reduces_all",
    "sum",
    ["shape"],
    "sum(x, axis=()) reduces every axis (an empty tuple taken for None)",
    "axis forms",
    aat=f"{AAT_STATS}::test_sum",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.sum)
    def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
        return xp.sum(
            x, axis=None if axis == () else axis, dtype=dtype, keepdims=keepdims
        )

    return {"sum": sum}


@_third(
    "any_negative_axes_one_at_a_time",
    "any",
    ["shape", "value", "crash"],
    "any() reduces a tuple of axes one at a time, in sorted(axis, reverse=True)"
    " order: right for non-negative axes, wrong for negative ones",
    "axis forms",
    aat=f"{AAT_UTIL}::test_any",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.any)
    def any(x, /, *, axis=None, keepdims=False):  # noqa: A001
        if not isinstance(axis, tuple) or len(axis) < 2:
            return xp.any(x, axis=axis, keepdims=keepdims)
        for a in sorted(axis, reverse=True):
            x = xp.any(x, axis=a, keepdims=keepdims)
        return x

    return {"any": any}


@_third(
    "prod_keepdims_ignored_without_axis",
    "prod",
    ["shape"],
    "prod(x, keepdims=True) with axis=None returns a 0-d array",
    "keepdims",
    aat=f"{AAT_STATS}::test_prod",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.prod)
    def prod(x, /, *, axis=None, dtype=None, keepdims=False):
        if axis is None:
            return xp.prod(x, dtype=dtype)
        return xp.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)

    return {"prod": prod}


# --- parameters left at their defaults ------------------------------------------------------


@_third(
    "pinv_ignores_rtol",
    "linalg.pinv",
    ["value"],
    "linalg.pinv() ignores `rtol` (always the default cut-off)",
    "parameters",
    aat=f"{AAT_LINALG}::test_pinv",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.pinv)
    def pinv(x, /, *, rtol=None):
        return xp.linalg.pinv(x)

    return {"linalg.pinv": pinv}


@_third(
    "trace_ignores_dtype",
    "linalg.trace",
    ["dtype"],
    "linalg.trace() ignores `dtype`",
    "parameters",
    aat=f"{AAT_LINALG}::test_trace",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.linalg.trace)
    def trace(x, /, *, offset=0, dtype=None):
        return xp.linalg.trace(x, offset=offset)

    return {"linalg.trace": trace}


@_third(
    "sort_unstable_ignores_descending",
    "sort",
    ["value"],
    "sort(stable=False) takes a faster path that forgets `descending`",
    "parameters",
    aat=f"{AAT_SORT}::test_sort",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.sort)
    def sort(x, /, *, axis=-1, descending=False, stable=True):
        if not stable:
            return xp.sort(x, axis=axis, stable=False)
        return xp.sort(x, axis=axis, descending=descending, stable=stable)

    return {"sort": sort}


# --- degenerate and badly scaled matrices -------------------------------------------------


@_third(
    "pinv_square_through_inv",
    "linalg.pinv",
    ["value", "crash"],
    "linalg.pinv() of a square matrix computed as linalg.inv(): wrong (or raising)"
    " for a singular matrix",
    "degenerate matrices",
    aat=f"{AAT_LINALG}::test_pinv",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.pinv)
    def pinv(x, /, *, rtol=None):
        if rtol is None and x.shape[-1] == x.shape[-2]:
            return xp.linalg.inv(x)
        return xp.linalg.pinv(x, rtol=rtol)

    return {"linalg.pinv": pinv}


@_third(
    "matrix_rank_absolute_cutoff",
    "linalg.matrix_rank",
    ["value"],
    "linalg.matrix_rank() counts singular values above 1e-8, not above"
    " rtol * the largest one: a full-rank matrix of small entries has rank 0",
    "degenerate matrices",
    aat=f"{AAT_LINALG}::test_matrix_rank",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.matrix_rank)
    def matrix_rank(x, /, *, rtol=None):
        if rtol is not None:
            return xp.linalg.matrix_rank(x, rtol=rtol)
        s = xp.linalg.svdvals(x)
        return xp.sum(xp.astype(s > 1e-8, xp.int64), axis=-1)

    return {"linalg.matrix_rank": matrix_rank}


# --- broadcasting a 0-length dimension against a 1-length one ---------------------------


@_third(
    "copysign_zero_against_one",
    "copysign",
    ["crash", "shape"],
    "copysign() checks broadcasting as 'equal, or the smaller is 1': a 0-length"
    " dimension against a 1-length one raises",
    "broadcasting",
    aat=f"{AAT_EW}::test_copysign",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.copysign)
    def copysign(x1, x2, /):
        s1, s2 = getattr(x1, "shape", ()), getattr(x2, "shape", ())
        for a, b in zip(reversed(s1), reversed(s2), strict=False):
            if a != b and min(a, b) != 1:
                msg = f"shapes {s1} and {s2} are not broadcastable"
                raise ValueError(msg)
        return xp.copysign(x1, x2)

    return {"copysign": copysign}


# --- errors the standard requires -------------------------------------------------------------


@_third(
    "expand_dims_axis_wraps",
    "expand_dims",
    ["exception"],
    "expand_dims() wraps an out-of-range axis around instead of raising",
    "required errors",
    aat=f"{AAT_MANIP}::test_expand_dims",
    category="errors",
)
def _(m, xp):
    @_wrap(xp.expand_dims)
    def expand_dims(x, /, axis=0):
        if isinstance(axis, int) and not -x.ndim - 1 <= axis <= x.ndim:
            axis = axis % (x.ndim + 1)
        return xp.expand_dims(x, axis=axis)

    return {"expand_dims": expand_dims}


@_third(
    "nonzero_of_0d_answers",
    "nonzero",
    ["exception"],
    "nonzero() of a zero-dimensional array answers as for a 1-element vector"
    " (the standard: it must raise)",
    "required errors",
    aat=f"{AAT_SEARCH}::test_nonzero",
    category="errors",
)
def _(m, xp):
    @_wrap(xp.nonzero)
    def nonzero(x, /):
        if x.ndim == 0:
            return xp.nonzero(xp.reshape(x, (1,)))
        return xp.nonzero(x)

    return {"nonzero": nonzero}


# --- integer widths --quick used to drop -------------------------------------------------------


@_third(
    "prod_int32_stays_int32",
    "prod",
    ["dtype"],
    "prod() of int32 keeps int32 (taken for 'wide enough') instead of the"
    " default integer",
    "quick dtypes",
    aat=f"{AAT_STATS}::test_prod",
    category="promotion",
)
def _(m, xp):
    @_wrap(xp.prod)
    def prod(x, /, *, axis=None, dtype=None, keepdims=False):
        if dtype is None and x.dtype == xp.int32:
            dtype = xp.int32
        return xp.prod(x, axis=axis, dtype=dtype, keepdims=keepdims)

    return {"prod": prod}
