"""Mutant namespaces: array-api-strict with one realistic bug injected each.

``import tests.conformance.mutants.<name>`` gives ``array_api_strict`` with the bug
:data:`MUTANTS` describes, so any tool that takes a namespace module can be
measured on it::

    python -m conformance tests.conformance.mutants.var_ignores_correction --only var
    ARRAY_API_TESTS_MODULE=tests.conformance.mutants.var_ignores_correction pytest ...

Each mutant names the function it breaks (``only``), the deviation kinds that
count as catching it, its category (promotion, values, special cases, keywords,
shapes, errors, linalg, fft, device, mutation) and the device to test on when
the bug is a device bug.  The base is the real array-api-strict, a library
other than the tool's reference, so a catch is a difference the tool finds
between two independent implementations; :mod:`tests.conformance.mutants.measure`
counts only deviations the unmutated base does not show.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.util
import math
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["MUTANTS", "SETS", "Mutant", "build", "mutant_set"]


@dataclass(frozen=True)
class Mutant:
    """One injected bug."""

    name: str
    description: str
    only: str  # the standard name it breaks
    kinds: tuple[str, ...]  # deviation kinds that catch it
    patch: Callable[[Any, Any], dict[str, Any]]  # (mutant module, base) -> {name: new}
    device: str | None = None
    aat_test: str = ""  # array-api-tests file::test for the comparison
    category: str = ""


MUTANTS: dict[str, Mutant] = {}
# namespaces that depart from array-api-strict only as the standard allows:
# the tool must report no deviation for them (tests/conformance/mutants/_variants.py)
VARIANTS: dict[str, Mutant] = {}


_CATEGORY = {  # of the first mutants, registered before categories were recorded
    "var_ignores_correction": "keywords",
    "fft_ortho_as_backward": "fft",
    "searchsorted_ignores_side": "keywords",
    "hypot_overflows": "values",
    "sign_negative_zero": "special cases",
    "reshape_truncates": "errors",
    "add_int8_uint8_is_int8": "promotion",
    "floor_divide_truncates": "values",
    "remainder_is_fmod": "values",
    "sqrt_loses_negative_zero": "special cases",
    "sum_ignores_keepdims": "keywords",
    "mean_float32_to_float64": "promotion",
    "argsort_descending_unstable": "keywords",
    "sort_in_place": "mutation",
    "expand_dims_negative_axis": "shapes",
    "unique_inverse_flat": "shapes",
    "inv_transposed": "linalg",
    "eigh_descending": "linalg",
    "vector_norm_inf_as_2": "linalg",
    "rfft_ignores_n": "fft",
    "multiply_uint8_int8_is_uint8": "promotion",
    "cumulative_sum_no_initial": "keywords",
    "ones_like_default_device": "device",
    "log1p_naive": "values",
}


def _mutant(name, only, kinds, description, device=None, aat="", category=""):
    def deco(fn):
        MUTANTS[name] = Mutant(
            name,
            description,
            only,
            tuple(kinds),
            fn,
            device,
            aat,
            category or _CATEGORY.get(name, ""),
        )
        return fn

    return deco


def _wrap(base_fn):
    """Decorator: keep the base function's name and signature."""
    return functools.wraps(base_fn)


AAT_EW = "array_api_tests/test_operators_and_elementwise_functions.py"


@_mutant(
    "var_ignores_correction",
    "var",
    ["value"],
    "var() ignores `correction`",
    aat="array_api_tests/test_statistical_functions.py::test_var",
)
def _(m, xp):
    @_wrap(xp.var)
    def var(x, /, *, axis=None, correction=0.0, keepdims=False):
        return xp.var(x, axis=axis, keepdims=keepdims)

    return {"var": var}


@_mutant(
    "fft_ortho_as_backward",
    "fft.fft",
    ["value"],
    'fft.fft treats norm="ortho" as "backward"',
    aat="array_api_tests/test_fft.py::test_fft",
)
def _(m, xp):
    @_wrap(xp.fft.fft)
    def fft(x, /, *, n=None, axis=-1, norm="backward"):
        return xp.fft.fft(
            x, n=n, axis=axis, norm="backward" if norm == "ortho" else norm
        )

    return {"fft.fft": fft}


@_mutant(
    "searchsorted_ignores_side",
    "searchsorted",
    ["value"],
    "searchsorted() ignores `side`",
    aat="array_api_tests/test_searching_functions.py::test_searchsorted",
)
def _(m, xp):
    @_wrap(xp.searchsorted)
    def searchsorted(x1, x2, /, *, side="left", sorter=None):
        return xp.searchsorted(x1, x2, sorter=sorter)

    return {"searchsorted": searchsorted}


@_mutant(
    "hypot_overflows",
    "hypot",
    ["value", "special-case"],
    "hypot() computes sqrt(x1**2 + x2**2) and overflows",
    aat=f"{AAT_EW}::test_hypot",
)
def _(m, xp):
    @_wrap(xp.hypot)
    def hypot(x1, x2, /):
        return xp.sqrt(xp.multiply(x1, x1) + xp.multiply(x2, x2))

    return {"hypot": hypot}


@_mutant(
    "sign_negative_zero",
    "sign",
    ["special-case", "value"],
    "sign(-0.0) gives -1",
    aat=f"{AAT_EW}::test_sign",
)
def _(m, xp):
    @_wrap(xp.sign)
    def sign(x, /):
        out = xp.sign(x)
        if xp.isdtype(x.dtype, "real floating"):
            neg0 = xp.logical_and(x == 0, xp.signbit(x))
            out = xp.where(neg0, xp.asarray(-1, dtype=x.dtype, device=x.device), out)
        return out

    return {"sign": sign}


@_mutant(
    "reshape_truncates",
    "reshape",
    ["exception"],
    "reshape() silently truncates or pads to the new size",
    aat="array_api_tests/test_manipulation_functions.py::test_reshape",
)
def _(m, xp):
    @_wrap(xp.reshape)
    def reshape(x, /, shape, *, copy=None):
        n = math.prod(shape) if -1 not in shape else None
        if n is not None and n != x.size:
            flat = xp.reshape(x, (-1,))
            if n <= x.size:
                return xp.reshape(flat[:n], shape)
            reps = -(-n // max(x.size, 1))
            return (
                xp.reshape(xp.tile(flat, (reps,))[:n], shape)
                if x.size
                else xp.zeros(shape, dtype=x.dtype)
            )
        return xp.reshape(x, shape, copy=copy)

    return {"reshape": reshape}


@_mutant(
    "add_int8_uint8_is_int8",
    "add",
    ["dtype"],
    "add(int8, uint8) gives int8 instead of int16",
    aat=f"{AAT_EW}::test_add",
)
def _(m, xp):
    @_wrap(xp.add)
    def add(x1, x2, /):
        out = xp.add(x1, x2)
        dts = {getattr(x1, "dtype", None), getattr(x2, "dtype", None)}
        if dts == {xp.int8, xp.uint8}:
            out = xp.astype(out, xp.int8)
        return out

    return {"add": add}


@_mutant(
    "floor_divide_truncates",
    "floor_divide",
    ["value"],
    "floor_divide() rounds toward zero (C division)",
    aat=f"{AAT_EW}::test_floor_divide",
)
def _(m, xp):
    @_wrap(xp.floor_divide)
    def floor_divide(x1, x2, /):
        q = xp.floor_divide(x1, x2)
        dt = q.dtype
        a, b = xp.asarray(x1, dtype=dt), xp.asarray(x2, dtype=dt)
        if xp.isdtype(dt, "integral"):
            r = xp.remainder(a, b)
            return xp.where(r != 0, q + xp.astype((a < 0) != (b < 0), dt), q)
        return xp.trunc(a / b)

    return {"floor_divide": floor_divide}


@_mutant(
    "remainder_is_fmod",
    "remainder",
    ["value"],
    "remainder() takes the sign of the dividend (C fmod)",
    aat=f"{AAT_EW}::test_remainder",
)
def _(m, xp):
    @_wrap(xp.remainder)
    def remainder(x1, x2, /):
        r = xp.remainder(x1, x2)
        fix = xp.logical_and(r != 0, (x1 < 0) != (r < 0))
        return xp.where(fix, r - x2, r)

    return {"remainder": remainder}


@_mutant(
    "sqrt_loses_negative_zero",
    "sqrt",
    ["special-case"],
    "sqrt(-0.0) gives +0.0",
    aat=f"{AAT_EW}::test_sqrt",
)
def _(m, xp):
    @_wrap(xp.sqrt)
    def sqrt(x, /):
        out = xp.sqrt(x)
        if xp.isdtype(x.dtype, "real floating"):
            out = xp.where(out == 0, xp.zeros_like(out), out)
        return out

    return {"sqrt": sqrt}


@_mutant(
    "sum_ignores_keepdims",
    "sum",
    ["shape"],
    "sum() ignores `keepdims`",
    aat="array_api_tests/test_statistical_functions.py::test_sum",
)
def _(m, xp):
    @_wrap(xp.sum)
    def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
        return xp.sum(x, axis=axis, dtype=dtype)

    return {"sum": sum}


@_mutant(
    "mean_float32_to_float64",
    "mean",
    ["dtype"],
    "mean() of float32 returns float64",
    aat="array_api_tests/test_statistical_functions.py::test_mean",
)
def _(m, xp):
    @_wrap(xp.mean)
    def mean(x, /, *, axis=None, keepdims=False):
        return xp.mean(
            xp.astype(x, xp.float64) if x.dtype == xp.float32 else x,
            axis=axis,
            keepdims=keepdims,
        )

    return {"mean": mean}


@_mutant(
    "argsort_descending_unstable",
    "argsort",
    ["value"],
    "argsort(descending=True) reverses an ascending sort, breaking stability",
    aat="array_api_tests/test_sorting_functions.py::test_argsort",
)
def _(m, xp):
    @_wrap(xp.argsort)
    def argsort(x, /, *, axis=-1, descending=False, stable=True):
        if not descending:
            return xp.argsort(x, axis=axis, stable=stable)
        return xp.flip(xp.argsort(x, axis=axis, stable=stable), axis=axis)

    return {"argsort": argsort}


@_mutant(
    "sort_in_place",
    "sort",
    ["mutation"],
    "sort() also sorts its input in place",
    aat="array_api_tests/test_sorting_functions.py::test_sort",
)
def _(m, xp):
    @_wrap(xp.sort)
    def sort(x, /, *, axis=-1, descending=False, stable=True):
        out = xp.sort(x, axis=axis, descending=descending, stable=stable)
        if x.ndim:
            x[...] = out
        return out

    return {"sort": sort}


@_mutant(
    "expand_dims_negative_axis",
    "expand_dims",
    ["shape"],
    "expand_dims() counts a negative axis like Python indexing of x.shape",
    aat="array_api_tests/test_manipulation_functions.py::test_expand_dims",
)
def _(m, xp):
    @_wrap(xp.expand_dims)
    def expand_dims(x, /, axis=0):
        return xp.expand_dims(x, axis=axis + x.ndim if axis < 0 and x.ndim else axis)

    return {"expand_dims": expand_dims}


@_mutant(
    "unique_inverse_flat",
    "unique_inverse",
    ["shape"],
    "unique_inverse() returns flat inverse indices (the 2022.12 behaviour)",
    aat="array_api_tests/test_set_functions.py::test_unique_inverse",
)
def _(m, xp):
    @_wrap(xp.unique_inverse)
    def unique_inverse(x, /):
        v, inv = xp.unique_inverse(x)
        return type(xp.unique_inverse(x))(v, xp.reshape(inv, (-1,)))

    return {"unique_inverse": unique_inverse}


@_mutant(
    "inv_transposed",
    "linalg.inv",
    ["value"],
    "linalg.inv returns the transpose of the inverse",
    aat="array_api_tests/test_linalg.py::test_inv",
)
def _(m, xp):
    @_wrap(xp.linalg.inv)
    def inv(x, /):
        return xp.matrix_transpose(xp.linalg.inv(x))

    return {"linalg.inv": inv}


@_mutant(
    "eigh_descending",
    "linalg.eigh",
    ["value"],
    "linalg.eigh returns eigenvalues in descending order",
    aat="array_api_tests/test_linalg.py::test_eigh",
)
def _(m, xp):
    @_wrap(xp.linalg.eigh)
    def eigh(x, /):
        w, v = xp.linalg.eigh(x)
        return type(xp.linalg.eigh(x))(xp.flip(w, axis=-1), xp.flip(v, axis=-1))

    return {"linalg.eigh": eigh}


@_mutant(
    "vector_norm_inf_as_2",
    "linalg.vector_norm",
    ["value"],
    "linalg.vector_norm treats ord=inf as ord=2",
    aat="array_api_tests/test_linalg.py::test_vector_norm",
)
def _(m, xp):
    @_wrap(xp.linalg.vector_norm)
    def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):  # noqa: A002
        return xp.linalg.vector_norm(
            x, axis=axis, keepdims=keepdims, ord=2 if ord == math.inf else ord
        )

    return {"linalg.vector_norm": vector_norm}


@_mutant(
    "rfft_ignores_n",
    "fft.rfft",
    ["shape", "value"],
    "fft.rfft ignores `n`",
    aat="array_api_tests/test_fft.py::test_rfft",
)
def _(m, xp):
    @_wrap(xp.fft.rfft)
    def rfft(x, /, *, n=None, axis=-1, norm="backward"):
        return xp.fft.rfft(x, axis=axis, norm=norm)

    return {"fft.rfft": rfft}


@_mutant(
    "multiply_uint8_int8_is_uint8",
    "multiply",
    ["dtype"],
    "multiply(uint8, int8) gives uint8",
    aat=f"{AAT_EW}::test_multiply",
)
def _(m, xp):
    @_wrap(xp.multiply)
    def multiply(x1, x2, /):
        out = xp.multiply(x1, x2)
        dts = {getattr(x1, "dtype", None), getattr(x2, "dtype", None)}
        return xp.astype(out, xp.uint8) if dts == {xp.int8, xp.uint8} else out

    return {"multiply": multiply}


@_mutant(
    "cumulative_sum_no_initial",
    "cumulative_sum",
    ["shape"],
    "cumulative_sum() ignores `include_initial`",
    aat="array_api_tests/test_statistical_functions.py::test_cumulative_sum",
)
def _(m, xp):
    @_wrap(xp.cumulative_sum)
    def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
        return xp.cumulative_sum(x, axis=axis, dtype=dtype)

    return {"cumulative_sum": cumulative_sum}


@_mutant(
    "ones_like_default_device",
    "ones_like",
    ["device"],
    "ones_like() puts its result on the default device, not x's",
    device="device1",
    aat="array_api_tests/test_creation_functions.py::test_ones_like",
)
def _(m, xp):
    @_wrap(xp.ones_like)
    def ones_like(x, /, *, dtype=None, device=None):
        return xp.ones(x.shape, dtype=dtype or x.dtype, device=device)

    return {"ones_like": ones_like}


@_mutant(
    "log1p_naive",
    "log1p",
    ["value", "special-case"],
    "log1p(x) computed as log(1 + x), losing precision near 0",
    aat=f"{AAT_EW}::test_log1p",
)
def _(m, xp):
    @_wrap(xp.log1p)
    def log1p(x, /):
        return xp.log(1 + x)

    return {"log1p": log1p}


def build(name: str) -> types.ModuleType:
    """Build the namespace module ``tests.conformance.mutants.<name>``."""
    import array_api_strict as xp

    mutant = MUTANTS[name] if name in MUTANTS else VARIANTS[name]
    mod = types.ModuleType(f"{__name__}.{name}", mutant.description)
    for attr in dir(xp):
        if not attr.startswith("_") or attr in (
            "__array_api_version__",
            "__array_namespace_info__",
            "__all__",
        ):
            setattr(mod, attr, getattr(xp, attr))
    for ext in ("linalg", "fft"):
        sub = types.ModuleType(f"{mod.__name__}.{ext}")
        for attr in dir(getattr(xp, ext)):
            if not attr.startswith("__"):
                setattr(sub, attr, getattr(getattr(xp, ext), attr))
        setattr(mod, ext, sub)
    for full, fn in mutant.patch(mod, xp).items():
        owner = mod
        *path, last = full.split(".")
        for p in path:
            owner = getattr(owner, p)
        setattr(owner, last, fn)
    mod.__mutant__ = mutant
    return mod


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        prefix = __name__ + "."
        rest = fullname[len(prefix) :]
        if fullname.startswith(prefix) and (rest in MUTANTS or rest in VARIANTS):
            return importlib.util.spec_from_loader(fullname, self)
        return None

    def create_module(self, spec):
        return build(spec.name.rsplit(".", 1)[1])

    def exec_module(self, module):
        pass


if not any(isinstance(f, _Finder) for f in sys.meta_path):
    sys.meta_path.insert(0, _Finder())

# registers the other mutants, then the second and third sets
from . import _audit, _extra, _more, _third, _variants  # noqa: E402, F401

SETS = ("first", "second", "third")


def mutant_set(which: str) -> list[str]:
    """The names of one set of mutants (``first``, ``second``, ``third``) or ``all``."""
    later = set(_extra.SECOND_SET) | set(_third.THIRD_SET) | set(_audit.AUDIT_SET)
    if which == "second":
        return list(_extra.SECOND_SET)
    if which == "third":
        return list(_third.THIRD_SET)
    if which == "first":
        return [n for n in MUTANTS if n not in later]
    return list(MUTANTS)
