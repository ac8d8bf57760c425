"""Mutants and variants from an outside audit of the tool's verdicts.

Variants (:data:`tests.conformance.mutants.VARIANTS`) depart from
array-api-strict only as the standard allows and must show no deviation;
mutants (:data:`AUDIT_SET`) break a MUST the tool used to miss.
"""

from __future__ import annotations

import math

import numpy as np

from . import VARIANTS, Mutant, _mutant, _wrap
from ._extra import _array_class, _making_functions

AUDIT_SET: list[str] = []


def _variant(name, only, description):
    def deco(fn):
        VARIANTS[name] = Mutant(name, description, only, (), fn, category="allowed")
        return fn

    return deco


def _audit(name, only, kinds, description, category):
    AUDIT_SET.append(name)
    return _mutant(name, only, kinds, description, category=category)


def _ulps_up(xp, out, n, where):
    """``out`` with the elements ``where(a)`` selects moved ``n`` ULP up."""
    a = np.asarray(out._array)
    b = a.copy()
    for _ in range(n):
        b = np.nextafter(b, np.inf).astype(a.dtype)
    return xp.asarray(np.where(where(a), b, a), device=out.device)


# --- allowed ---------------------------------------------------------------------


@_variant(
    "invalid_axis_unchecked",
    "sum",
    "sum() and argmax() of an invalid axis answer instead of raising: required"
    " only from 2025.12 ('If provided an invalid axis, the function must raise"
    " an exception'), open before",
)
def _(m, xp):
    def lenient(base):
        @_wrap(base)
        def fn(x, /, *, axis=None, **kw):
            if isinstance(axis, int) and not -max(x.ndim, 1) <= axis < max(x.ndim, 1):
                axis = None
            if isinstance(axis, int) and x.ndim == 0:
                axis = None
            return base(x, axis=axis, **kw)

        return fn

    return {"sum": lenient(xp.sum), "argmax": lenient(xp.argmax)}


@_variant(
    "isin_integers_only",
    "isin",
    "isin() raises TypeError for floating inputs ('x1: Should have an integer"
    " data type')",
)
def _(m, xp):
    @_wrap(xp.isin)
    def isin(x1, x2, /, *, invert=False):
        for x in (x1, x2):
            if isinstance(x, float) or (
                hasattr(x, "dtype") and not xp.isdtype(x.dtype, "integral")
            ):
                msg = "isin() needs integer inputs"
                raise TypeError(msg)
        if not hasattr(x1, "dtype"):  # a Python int
            x1 = xp.asarray(x1, dtype=x2.dtype, device=x2.device)
        if not hasattr(x2, "dtype"):
            x2 = xp.asarray(x2, dtype=x1.dtype, device=x1.device)
        out = xp.isin(x1, x2)  # (array-api-strict ignores invert)
        return xp.logical_not(out) if invert else out

    return {"isin": isin}


@_variant(
    "approximate_sin_exp",
    "sin",
    "sin() 6 ULP and exp() 50 ULP off at non-special inputs (the standard does"
    " not precisely define their accuracy)",
)
def _(m, xp):
    def off(base, n):
        @_wrap(base)
        def fn(x, /):
            out = base(x)
            if not xp.isdtype(out.dtype, "real floating"):
                return out
            return _ulps_up(
                xp, out, n, lambda a: np.isfinite(a) & (a != 0) & (np.abs(a) != 1)
            )

        return fn

    return {"sin": off(xp.sin, 6), "exp": off(xp.exp, 50)}


@_variant(
    "can_cast_mixed_kinds",
    "can_cast",
    "can_cast() says True from bool to integers and from integers to floats"
    " (mixed-kind promotion is unspecified)",
)
def _(m, xp):
    @_wrap(xp.can_cast)
    def can_cast(from_, to, /):
        f = from_.dtype if hasattr(from_, "dtype") else from_
        if f == xp.bool and xp.isdtype(to, "numeric"):
            return True
        if xp.isdtype(f, "integral") and xp.isdtype(to, "real floating"):
            return True
        return xp.can_cast(from_, to)

    return {"can_cast": can_cast}


@_variant(
    "inplace_casts_to_x",
    "Array.__iadd__",
    "x += y casts the sum to x's dtype and raises where y would grow x's shape"
    " (an in-place operation must not change x's dtype or shape; either way is"
    " allowed)",
)
def _(m, xp):
    def __iadd__(self, other, /):
        out = xp.add(self, other)
        if out.shape != self.shape:
            msg = f"cannot broadcast {other.shape} into {self.shape}"
            raise ValueError(msg)
        return xp.astype(out, self.dtype)

    return _making_functions(xp, _array_class(xp, "Array", {"__iadd__": __iadd__}))


@_variant(
    "unique_all_reversed",
    "unique_all",
    "unique_all() gives its values in descending order, with indices, inverse"
    " indices and counts to match (the order of unique values is unspecified)",
)
def _(m, xp):
    @_wrap(xp.unique_all)
    def unique_all(x, /):
        r = xp.unique_all(x)
        n = r.values.shape[0]

        def new(a):
            return xp.asarray(np.asarray(a), device=x.device)

        def back(a):
            return new(np.asarray(a._array)[::-1])

        inv = n - 1 - np.asarray(r.inverse_indices._array)
        return type(r)(back(r.values), back(r.indices), new(inv), back(r.counts))

    return {"unique_all": unique_all}


# --- bugs --------------------------------------------------------------------------


@_audit(
    "sqrt_complex_nan_collapse",
    "sqrt",
    ["special-case"],
    "complex sqrt() turns every result with a NaN part into NaN + NaN j"
    " (sqrt(+inf + NaN j) must be +inf + NaN j)",
    "special cases",
)
def _(m, xp):
    @_wrap(xp.sqrt)
    def sqrt(x, /):
        out = xp.sqrt(x)
        if not xp.isdtype(x.dtype, "complex floating"):
            return out
        a = np.array(out._array, copy=True)
        a[np.isnan(a.real) | np.isnan(a.imag)] = complex(np.nan, np.nan)
        return xp.asarray(a, device=out.device)

    return {"sqrt": sqrt}


@_audit(
    "sqrt_one_ulp_high",
    "sqrt",
    ["value", "special-case"],
    "sqrt() 1 ULP high at positive results (must be correctly rounded)",
    "values",
)
def _(m, xp):
    @_wrap(xp.sqrt)
    def sqrt(x, /):
        out = xp.sqrt(x)
        if not xp.isdtype(out.dtype, "real floating"):
            return out
        return _ulps_up(xp, out, 1, lambda a: np.isfinite(a) & (a > 0))

    return {"sqrt": sqrt}


@_audit(
    "multiply_one_ulp_high",
    "multiply",
    ["value", "special-case"],
    "multiply() 1 ULP high at positive results (must be correctly rounded)",
    "values",
)
def _(m, xp):
    @_wrap(xp.multiply)
    def multiply(x1, x2, /):
        out = xp.multiply(x1, x2)
        if not xp.isdtype(out.dtype, "real floating"):
            return out
        return _ulps_up(xp, out, 1, lambda a: np.isfinite(a) & (a > 0))

    return {"multiply": multiply}


@_audit(
    "iadd_int8_promotes",
    "Array.__iadd__",
    ["dtype"],
    "x += y rebinds x_int8 to an int16 array when y is int16 (an in-place"
    " operation must not change x's dtype)",
    "operators",
)
def _(m, xp):
    def __iadd__(self, other, /):
        return xp.add(self, other)

    return _making_functions(xp, _array_class(xp, "Array", {"__iadd__": __iadd__}))


@_audit(
    "iadd_broadcast_self",
    "Array.__iadd__",
    ["shape"],
    "x += y with y of more dimensions rebinds x to the broadcast sum (an"
    " in-place operation must not change x's shape)",
    "operators",
)
def _(m, xp):
    def __iadd__(self, other, /):
        if hasattr(other, "dtype") and xp.result_type(self, other) != self.dtype:
            msg = "in-place promotion"
            raise TypeError(msg)
        return xp.add(self, other)

    return _making_functions(xp, _array_class(xp, "Array", {"__iadd__": __iadd__}))


@_audit(
    "unique_all_last_index",
    "unique_all",
    ["value"],
    "unique_all()'s indices are the last occurrences of each value (must be the first)",
    "values",
)
def _(m, xp):
    @_wrap(xp.unique_all)
    def unique_all(x, /):
        r = xp.unique_all(x)
        a = np.asarray(x._array).reshape(-1)
        last = [
            np.flatnonzero((a == v) | (np.isnan(a) & np.isnan(v)))[-1]
            if np.issubdtype(a.dtype, np.inexact)
            else np.flatnonzero(a == v)[-1]
            for v in np.asarray(r.values._array)
        ]
        idx = xp.asarray(np.asarray(last, dtype=np.int64), device=x.device)
        return type(r)(r.values, idx, r.inverse_indices, r.counts)

    return {"unique_all": unique_all}


@_audit(
    "mT_3d_wrong_axes",
    "Array.mT",
    ["shape", "value"],
    "x.mT of an array of more than two dimensions swaps its first two axes"
    " (must swap the last two)",
    "shapes",
)
def _(m, xp):
    base = type(xp.asarray(0)).mT

    def mT(self):
        if self.ndim > 2:
            return xp.permute_dims(self, (1, 0, *range(2, self.ndim)))
        return base.fget(self)

    return _making_functions(xp, _array_class(xp, "Array", {"mT": property(mT)}))


@_audit(
    "setitem_negative_index",
    "Array.__setitem__",
    ["value"],
    "x[-k] = v writes x[k - 1] (x[-1] = v writes x[0])",
    "operators",
)
def _(m, xp):
    base = type(xp.asarray(0)).__setitem__

    def __setitem__(self, key, value, /):
        if isinstance(key, int) and key < 0:
            key = -key - 1
        return base(self, key, value)

    return _making_functions(
        xp, _array_class(xp, "Array", {"__setitem__": __setitem__})
    )


@_audit(
    "getitem_negative_step_start",
    "Array.__getitem__",
    ["value", "shape"],
    "x[::-k] (k > 1) starts at x[-2] instead of x[-1]",
    "operators",
)
def _(m, xp):
    base = type(xp.asarray(0)).__getitem__

    def __getitem__(self, key, /):
        if (
            isinstance(key, slice)
            and key.start is None
            and key.step is not None
            and key.step < -1
            and self.ndim >= 1
            and self.shape[0] > 1
        ):
            key = slice(-2, key.stop, key.step)
        return base(self, key)

    return _making_functions(
        xp, _array_class(xp, "Array", {"__getitem__": __getitem__})
    )


# --- defaults of optional arguments ------------------------------------------------


@_audit(
    "vector_norm_default_ord1",
    "linalg.vector_norm",
    ["value"],
    "linalg.vector_norm() without `ord` computes the 1-norm (the default is 2)",
    "keywords",
)
def _(m, xp):
    @_wrap(xp.linalg.vector_norm)
    def vector_norm(x, /, *, axis=None, keepdims=False, ord=1):
        return xp.linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)

    return {"linalg.vector_norm": vector_norm}


@_audit(
    "matrix_norm_default_nuc",
    "linalg.matrix_norm",
    ["value"],
    "linalg.matrix_norm() without `ord` computes the nuclear norm (the default"
    " is 'fro')",
    "keywords",
)
def _(m, xp):
    @_wrap(xp.linalg.matrix_norm)
    def matrix_norm(x, /, *, keepdims=False, ord="nuc"):
        return xp.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)

    return {"linalg.matrix_norm": matrix_norm}


@_audit(
    "argsort_default_axis_0",
    "argsort",
    ["value", "shape"],
    "argsort() without `axis` sorts along the first axis (the default is -1)",
    "keywords",
)
def _(m, xp):
    @_wrap(xp.argsort)
    def argsort(x, /, *, axis=0, descending=False, stable=True):
        return xp.argsort(x, axis=axis, descending=descending, stable=stable)

    return {"argsort": argsort}


@_audit(
    "linspace_default_no_endpoint",
    "linspace",
    ["value"],
    "linspace() without `endpoint` leaves out `stop` (the default is True)",
    "keywords",
)
def _(m, xp):
    @_wrap(xp.linspace)
    def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=False):
        return xp.linspace(
            start, stop, num, dtype=dtype, device=device, endpoint=endpoint
        )

    return {"linspace": linspace}


# --- the audit's last misses (allowed first) ---------------------------------------


@_variant(
    "matmul_mismatch_type_error",
    "matmul",
    "matmul() of mismatched inner dimensions raises TypeError (the standard"
    " names no exception type: 2023.12 and 2024.12 list the cases under"
    " 'Raises' without one, 2025.12 says 'an exception should be raised')",
)
def _(m, xp):
    @_wrap(xp.matmul)
    def matmul(x1, x2, /):
        try:
            return xp.matmul(x1, x2)
        except ValueError as e:
            raise TypeError(str(e)) from None

    return {"matmul": matmul}


def _skipping_nan(xp, base, pick):
    @_wrap(base)
    def fn(x, /, *, axis=None, keepdims=False):
        a = np.asarray(x._array)
        nan = np.isnan(a) if np.issubdtype(a.dtype, np.floating) else None
        if nan is None or not nan.any() or nan.all():
            return base(x, axis=axis, keepdims=keepdims)
        if axis is not None and nan.all(axis=axis).any():
            return base(x, axis=axis, keepdims=keepdims)
        r = pick(a, axis=axis, keepdims=keepdims if axis is not None else False)
        r = np.asarray(r, dtype=np.int64)
        if axis is None and keepdims:
            r = r.reshape((1,) * a.ndim)
        return xp.asarray(r, device=x.device)

    return fn


@_variant(
    "argmin_argmax_skip_nan",
    "argmin",
    "argmin() and argmax() skip NaN (their text says nothing about NaN: only"
    " the first occurrence of the minimum or maximum is required)",
)
def _(m, xp):
    return {
        "argmin": _skipping_nan(xp, xp.argmin, np.nanargmin),
        "argmax": _skipping_nan(xp, xp.argmax, np.nanargmax),
    }


@_audit(
    "tensordot_int_axes_leading",
    "tensordot",
    ["value", "shape", "crash"],
    "tensordot(axes=N) contracts the first N axes of x1 with the first N of x2"
    " wherever their sizes match (must be the last N of x1 with the first N"
    " of x2)",
    "linalg",
)
def _(m, xp):
    @_wrap(xp.tensordot)
    def tensordot(x1, x2, /, *, axes=2):
        n = axes if isinstance(axes, int) else 0
        if 0 < n <= min(x1.ndim, x2.ndim) and x1.shape[:n] == x2.shape[:n]:
            axes = (list(range(n)), list(range(n)))
        return xp.tensordot(x1, x2, axes=axes)

    return {"tensordot": tensordot}


@_audit(
    "rpow_scalar_negative_zero",
    "Array.__rpow__",
    ["special-case", "value"],
    "s ** x with the Python scalar s = -0.0 computes with +0.0 ((-0.0) ** -1"
    " must be -infinity)",
    "special cases",
)
def _(m, xp):
    base = type(xp.asarray(0)).__rpow__

    def __rpow__(self, other, /):
        if isinstance(other, float) and other == 0:
            other = 0.0
        return base(self, other)

    return _making_functions(xp, _array_class(xp, "Array", {"__rpow__": __rpow__}))


@_audit(
    "ceil_0d_negative_zero",
    "ceil",
    ["special-case", "value"],
    "ceil() of a 0-d array in (-1, 0], -0.0 included, gives +0.0 (ceil(-0.0)"
    " must be -0.0; 1-d arrays are right)",
    "special cases",
)
def _(m, xp):
    @_wrap(xp.ceil)
    def ceil(x, /):
        out = xp.ceil(x)
        if x.ndim == 0 and xp.isdtype(x.dtype, "real floating"):
            v = float(x)
            if -1 < v <= 0 and math.copysign(1.0, v) < 0:
                out = xp.asarray(0.0, dtype=x.dtype, device=x.device)
        return out

    return {"ceil": ceil}


@_audit(
    "argsort_unstable_long",
    "argsort",
    ["value"],
    "argsort(stable=True) reverses ties along an axis longer than 8 (a kernel"
    " chosen by size; the drawn sides are at most 4)",
    "keywords",
)
def _(m, xp):
    @_wrap(xp.argsort)
    def argsort(x, /, *, axis=-1, descending=False, stable=True):
        a = np.asarray(x._array)
        if a.ndim == 0 or a.shape[axis] <= 8 or descending:
            return xp.argsort(x, axis=axis, descending=descending, stable=stable)
        n = a.shape[axis]
        i = n - 1 - np.argsort(np.flip(a, axis=axis), axis=axis, kind="stable")
        return xp.asarray(i.astype(np.int64), device=x.device)

    return {"argsort": argsort}


@_audit(
    "cumulative_sum_ignores_strides",
    "cumulative_sum",
    ["value"],
    "cumulative_sum() of a non-contiguous array (a transposed or stepped view)"
    " reads the memory as if it were contiguous",
    "values",
)
def _(m, xp):
    @_wrap(xp.cumulative_sum)
    def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
        a = x._array
        if a.ndim and a.size > 1 and not a.flags.c_contiguous:
            c = np.empty(a.shape, dtype=a.dtype).strides  # a kernel's own strides
            raw = np.lib.stride_tricks.as_strided(a, a.shape, c).copy()
            x = xp.asarray(raw, device=x.device)
        return xp.cumulative_sum(
            x, axis=axis, dtype=dtype, include_initial=include_initial
        )

    return {"cumulative_sum": cumulative_sum}


@_audit(
    "reshape_copy_false_copies",
    "reshape",
    ["exception"],
    "reshape(copy=False) copies where a view is impossible (copy=False 'must"
    " never copy')",
    "errors",
)
def _(m, xp):
    @_wrap(xp.reshape)
    def reshape(x, /, shape, *, copy=None):
        if copy is not False:
            return xp.reshape(x, shape, copy=copy)
        try:
            return xp.reshape(x, shape, copy=False)
        except Exception:  # array-api-strict raises AttributeError here
            return xp.reshape(x, shape, copy=True)

    return {"reshape": reshape}


@_audit(
    "abs_int16_off_by_one",
    "abs",
    ["value"],
    "abs() of negative int16 values is one too small (one dtype only, which"
    " --quick used to leave out)",
    "values",
)
def _(m, xp):
    @_wrap(xp.abs)
    def abs(x, /):  # noqa: A001
        out = xp.abs(x)
        if x.dtype == xp.int16:
            return xp.where(x < 0, out - 1, out)
        return out

    return {"abs": abs}


@_audit(
    "matrix_rank_first_of_stack",
    "linalg.matrix_rank",
    ["value"],
    "linalg.matrix_rank() of a stack gives every matrix the first one's rank"
    " ('must compute the number of non-zero singular values for each matrix')",
    "linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.matrix_rank)
    def matrix_rank(x, /, *, rtol=None):
        r = xp.linalg.matrix_rank(x, rtol=rtol)
        if r.ndim and r.size > 1:
            first = np.asarray(r._array).reshape(-1)[0]
            r = xp.asarray(np.full(r.shape, first), device=r.device)
        return r

    return {"linalg.matrix_rank": matrix_rank}


@_variant(
    "views_are_copies",
    "reshape",
    "permute_dims() and x[...] return copies, not views (whether a result is a"
    " view is unspecified), so reshape(copy=False) of what the tool builds as"
    " a transposed or stepped view can answer without copying",
)
def _(m, xp):
    base = type(xp.asarray(0)).__getitem__

    def __getitem__(self, key, /):
        out = base(self, key)
        return xp.asarray(out, copy=True) if hasattr(out, "shape") else out

    @_wrap(xp.permute_dims)
    def permute_dims(x, /, axes):
        return xp.asarray(xp.permute_dims(x, axes), copy=True)

    cls = _array_class(xp, "Array", {"__getitem__": __getitem__})
    return {**_making_functions(xp, cls), "permute_dims": permute_dims}
