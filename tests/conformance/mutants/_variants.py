"""Variants: array-api-strict departing only as the standard allows.

Each is importable as ``tests.conformance.mutants.<name>``, like a mutant,
and the tool must find no deviation in it (``tests/conformance/test_verdicts.py``):
optional features a library declares it lacks, SHOULD-level recommendations
not followed, implementation-defined behaviour.
"""

from __future__ import annotations

from . import VARIANTS, Mutant, _wrap
from ._extra import _array_class, _making_functions


def _variant(name, only, description):
    def deco(fn):
        VARIANTS[name] = Mutant(name, description, only, (), fn, category="allowed")
        return fn

    return deco


class _Info:
    """An inspection namespace whose capabilities() differ from the base's."""

    def __init__(self, base, **caps):
        self._base, self._caps = base, caps

    def __getattr__(self, name):
        return getattr(self._base, name)

    def capabilities(self):
        return {**self._base.capabilities(), **self._caps}


def _info(xp, **caps):
    def __array_namespace_info__():
        return _Info(xp.__array_namespace_info__(), **caps)

    return __array_namespace_info__


def _refuse(fn):
    @_wrap(fn)
    def refused(*args, **kwargs):
        msg = "data-dependent output shapes are not supported"
        raise NotImplementedError(msg)

    return refused


@_variant(
    "no_data_dependent_shapes",
    "unique_values",
    "capabilities() says 'data-dependent shapes': False, and unique_*, nonzero"
    " and repeat with an array of repeats raise",
)
def _(m, xp):
    out = {"__array_namespace_info__": _info(xp, **{"data-dependent shapes": False})}
    for n in ("unique_values", "unique_counts", "unique_inverse", "unique_all"):
        out[n] = _refuse(getattr(xp, n))
    out["nonzero"] = _refuse(xp.nonzero)

    @_wrap(xp.repeat)
    def repeat(x, repeats, /, *, axis=None):
        if not isinstance(repeats, int):
            msg = "repeats must be an int here"
            raise NotImplementedError(msg)
        return xp.repeat(x, repeats, axis=axis)

    out["repeat"] = repeat
    return out


@_variant(
    "no_boolean_indexing",
    "Array.__getitem__",
    "capabilities() says 'boolean indexing': False, and a boolean mask raises",
)
def _(m, xp):
    base = type(xp.asarray(0))

    def __getitem__(self, key, /):
        if isinstance(key, base) and key.dtype == xp.bool:
            msg = "boolean indexing is not supported"
            raise NotImplementedError(msg)
        return base.__getitem__(self, key)

    out = _making_functions(xp, _array_class(xp, "Array", {"__getitem__": __getitem__}))
    out["__array_namespace_info__"] = _info(xp, **{"boolean indexing": False})
    return out


@_variant(
    "declares_2023_12",
    "__array_api_version__",
    "declares the 2023.12 revision: the tool tests it against 2023.12",
)
def _(m, xp):
    return {"__array_api_version__": "2023.12"}


@_variant(
    "flushes_subnormals",
    "multiply",
    "multiply() and sqrt() flush subnormal results and inputs to zero (FTZ/DAZ):"
    " subnormal behaviour is implementation-defined",
)
def _(m, xp):
    def flush(x):
        if not xp.isdtype(x.dtype, "real floating"):
            return x
        tiny = xp.finfo(x.dtype).smallest_normal
        sub = (xp.abs(x) < tiny) & (x != 0)
        return xp.where(sub, xp.copysign(xp.zeros_like(x), x), x)

    @_wrap(xp.multiply)
    def multiply(x1, x2, /):
        if hasattr(x1, "dtype"):
            x1 = flush(x1)
        if hasattr(x2, "dtype"):
            x2 = flush(x2)
        out = xp.multiply(x1, x2)
        return flush(out)

    @_wrap(xp.sqrt)
    def sqrt(x, /):
        return flush(xp.sqrt(flush(x)))

    return {"multiply": multiply, "sqrt": sqrt}


@_variant(
    "recommended_errors_not_raised",
    "squeeze",
    "squeeze() of a non-singleton axis and matmul() of mismatched shapes return"
    " something instead of raising (the standard: an error 'should' be raised)",
)
def _(m, xp):
    @_wrap(xp.squeeze)
    def squeeze(x, /, axis):
        axes = axis if isinstance(axis, tuple) else (axis,)
        if any(x.shape[a] != 1 for a in axes):
            return x
        return xp.squeeze(x, axis=axis)

    @_wrap(xp.matmul)
    def matmul(x1, x2, /):
        try:
            return xp.matmul(x1, x2)
        except ValueError:
            return xp.zeros((), dtype=x1.dtype)

    return {"squeeze": squeeze, "matmul": matmul}


@_variant(
    "inplace_without_mutation",
    "Array.__iadd__",
    "x += y rebinds x to x + y and leaves the array alone (in-place operators"
    " do not guarantee mutation)",
)
def _(m, xp):
    def __iadd__(self, other, /):
        return NotImplemented  # Python falls back to __add__

    return _making_functions(xp, _array_class(xp, "Array", {"__iadd__": __iadd__}))


@_variant(
    "signed_zero_order_swapped",
    "minimum",
    "minimum() and maximum() choose the other zero between -0 and +0 (the order of "
    "signed zeros is implementation-defined)",
)
def _(m, xp):
    def swap(base):
        @_wrap(base)
        def fn(x1, x2, /):
            out = base(x1, x2)  # which gives x2 when they are equal
            if not (hasattr(x1, "dtype") and hasattr(x2, "dtype")):
                return out
            return xp.where(x1 == x2, x1, out)  # -0 against +0: the other zero

        return fn

    return {"minimum": swap(xp.minimum), "maximum": swap(xp.maximum)}
