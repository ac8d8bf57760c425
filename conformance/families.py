"""Differential features per standard name, family by family.

Each feature draws a recorded :class:`~conformance.calls.Call` on the
reference with Hypothesis; the runner runs it on both namespaces and compares.
Families: elementwise functions (and their operators, reflected and in-place),
creation, data-type functions, reductions, manipulation, searching, sorting,
set functions, indexing, linalg, fft.  Names absent from :data:`FEATURES` get
presence and signature checks only.
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from hypothesis import strategies as st

from .calls import DEV, DT, Arr, Call, to_numpy
from .checks import Finding, Options, check_array, describe, values_close
from .registry import Feature

__all__ = ["FEATURES", "aat_test_id", "dtypes_of"]

V24 = ("2024.12", "2025.12")
V25 = ("2025.12",)

KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
KINDS["integral"] = KINDS["signed integer"] + KINDS["unsigned integer"]
KINDS["integer"] = KINDS["integral"]
KINDS["real numeric"] = KINDS["integral"] + KINDS["real floating"]
KINDS["floating"] = KINDS["real floating"] + KINDS["complex floating"]
KINDS["numeric"] = KINDS["real numeric"] + KINDS["complex floating"]
KINDS["integer or boolean"] = KINDS["bool"] + KINDS["integral"]
KINDS["any"] = KINDS["bool"] + KINDS["numeric"]


def dtypes_of(kind: Any) -> tuple[str, ...]:
    """The dtype names of an ``isdtype`` kind (or a tuple of names)."""
    return tuple(kind) if isinstance(kind, tuple) else KINDS[kind]


# --- element and array strategies -----------------------------------------------


def _finfo(dt: str) -> np.finfo:
    return np.finfo({"complex64": np.float32, "complex128": np.float64}.get(dt, dt))


def specials(dt: str) -> list:
    """The special values drawn for special-case features of a float dtype."""
    fi = _finfo(dt)
    vals = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0]
    vals += [3.0, -3.0, math.pi, -math.pi, float(fi.max), -float(fi.max)]
    vals += [
        float(fi.smallest_normal),
        -float(fi.smallest_normal),
        float(fi.max) ** 0.5 * 4,
    ]
    # only values the dtype holds exactly (float32 has no float64 pi)
    real = np.float32 if dt in ("float32", "complex64") else np.float64
    kept = [float(real(v)) for v in vals if not math.isfinite(v) or abs(v) <= fi.max]
    vals = list({repr(v): v for v in kept}.values())  # -0.0 and 0.0 both stay
    if dt.startswith("complex"):
        return [complex(a, b) for a in vals[:8] for b in vals[:8]]
    return vals


@functools.cache
def elements(dt: str, kind: str = "finite") -> st.SearchStrategy:
    """Element values of dtype ``dt``; ``kind`` picks a domain."""
    if dt == "bool":
        return st.booleans()
    if dt.startswith(("int", "uint")):
        ii = np.iinfo(dt)
        lo, hi = int(ii.min), int(ii.max)
        bounds = {
            "finite": (max(lo, -10), min(hi, 20)),
            "full": (lo, hi),
            "shift": (0, ii.bits - 1),
            "nonzero": (max(lo, -10), min(hi, 20)),
            "base": (max(lo, -3), 3),
            "exponent": (0, 4),
            "unit": (max(lo, -3), 3),
            "positive": (1, 10),
        }[kind]
        s = st.integers(*bounds)
        return s.filter(bool) if kind == "nonzero" else s
    width = {"float32": 32, "float64": 64, "complex64": 32, "complex128": 64}[dt]
    if kind == "special":
        return st.sampled_from(specials(dt))
    lim = {"unit": 1.0, "positive": 100.0}.get(kind, 1e4)
    lo = 1e-3 if kind == "positive" else -lim
    real = st.floats(lo, lim, width=width, allow_subnormal=False)
    if kind == "unit":  # linalg, norms: no underflow questions the spec leaves open
        real = real.map(lambda v: 0.0 if abs(v) < 1e-6 else v)
    if kind == "nonzero":
        real = real.filter(bool)
    if dt.startswith("complex"):
        return st.builds(complex, real, real)
    return real


def _cached(ctx: Any, key: tuple, make: Any) -> st.SearchStrategy:
    # Strategies are immutable: building (and validating) one per draw was a
    # third of the drawing time, so each is built once per run.
    cache = ctx.__dict__.setdefault("_strategies", {})
    s = cache.get(key)
    if s is None:
        s = cache[key] = make()
    return s


def arr(ctx: Any, dt: str, shape: Any, kind: str = "finite") -> st.SearchStrategy:
    """Arrays of dtype ``dt`` drawn on the reference."""
    if not isinstance(shape, tuple):
        return ctx.xps.arrays(
            getattr(ctx.refmod, dt), shape, elements=elements(dt, kind)
        )
    return _cached(
        ctx,
        ("arr", dt, shape, kind),
        lambda: ctx.xps.arrays(
            getattr(ctx.refmod, dt), shape, elements=elements(dt, kind)
        ),
    )


def _cap(ctx: Any, max_side: int, min_side: int = 0) -> int:
    """``max_side``, capped by ``--max-side`` (never below ``min_side``)."""
    cap = getattr(getattr(ctx, "opts", None), "max_side", None)
    return max_side if cap is None else max(min_side, min(max_side, cap))


def shapes(
    ctx: Any, min_dims: int = 0, max_dims: int = 3, min_side: int = 0, max_side: int = 4
):
    max_side = _cap(ctx, max_side, min_side)
    return _cached(
        ctx,
        ("shapes", min_dims, max_dims, min_side, max_side),
        lambda: ctx.xps.array_shapes(
            min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
        ),
    )


def _mbs(ctx: Any, n: int, max_side: int) -> st.SearchStrategy:
    max_side = _cap(ctx, max_side, 1)
    return _cached(
        ctx,
        ("mbs", n, max_side),
        lambda: ctx.xps.mutually_broadcastable_shapes(n, max_side=max_side),
    )


def from_numpy(ctx: Any, a: np.ndarray, dt: str) -> Any:
    return ctx.refmod.asarray(a, dtype=getattr(ctx.refmod, dt))


def _scalar_for(dt: str, kind: str) -> st.SearchStrategy:
    """A Python scalar of the kind matching ``dt`` (bool, int, float, complex)."""
    if dt == "bool":
        return st.booleans()
    if dt.startswith(("int", "uint")):
        return elements(dt, kind)
    if kind == "special":
        return st.sampled_from([v for v in specials(dt) if abs(v) < 1e30 or v != v])
    return elements(
        "complex128" if dt.startswith("complex") else "float64", kind
    ).filter(lambda v: abs(v) < 1e4)


# --- elementwise ------------------------------------------------------------------

# name: (arity, dtype kind, tolerance, element kind for x1, element kind for x2)
ULP = ("ulp", 4)
EXACT = ("exact",)
UNARY = {
    "abs": ("numeric", ("ulp", 2)),  # complex abs is a hypot: rounding
    "acos": ("floating", ULP),
    "acosh": ("floating", ULP),
    "asin": ("floating", ULP),
    "asinh": ("floating", ULP),
    "atan": ("floating", ULP),
    "atanh": ("floating", ULP),
    "bitwise_invert": ("integer or boolean", EXACT),
    "ceil": ("real numeric", EXACT),
    "conj": ("numeric", EXACT),
    "cos": ("floating", ULP),
    "cosh": ("floating", ULP),
    "exp": ("floating", ULP),
    "expm1": ("floating", ULP),
    "floor": ("real numeric", EXACT),
    "imag": ("complex floating", EXACT),
    "isfinite": ("numeric", EXACT),
    "isinf": ("numeric", EXACT),
    "isnan": ("numeric", EXACT),
    "log": ("floating", ULP),
    "log10": ("floating", ULP),
    "log1p": ("floating", ULP),
    "log2": ("floating", ULP),
    "logical_not": ("bool", EXACT),
    "negative": ("numeric", EXACT),
    "positive": ("numeric", EXACT),
    "real": ("complex floating", EXACT),
    "reciprocal": ("floating", ("ulp", 1)),
    "round": ("numeric", EXACT),
    "sign": ("numeric", ("ulp", 2)),  # complex sign is x / |x|: rounding
    "signbit": ("real floating", EXACT),
    "sin": ("floating", ULP),
    "sinh": ("floating", ULP),
    "sqrt": ("floating", ULP),
    "square": ("numeric", ("ulp", 1)),
    "tan": ("floating", ULP),
    "tanh": ("floating", ULP),
    "trunc": ("real numeric", EXACT),
}
# name: (dtype kind, tolerance, x1 elements, x2 elements)
BINARY = {
    "add": ("numeric", EXACT, "finite", "finite"),
    "atan2": ("real floating", ULP, "finite", "finite"),
    "bitwise_and": ("integer or boolean", EXACT, "full", "full"),
    "bitwise_left_shift": ("integer", EXACT, "finite", "shift"),
    "bitwise_or": ("integer or boolean", EXACT, "full", "full"),
    "bitwise_right_shift": ("integer", EXACT, "full", "shift"),
    "bitwise_xor": ("integer or boolean", EXACT, "full", "full"),
    "copysign": ("real floating", EXACT, "finite", "finite"),
    "divide": ("floating", ("ulp", 2), "finite", "finite"),
    "equal": ("any", EXACT, "finite", "finite"),
    "floor_divide": ("real numeric", EXACT, "finite", "nonzero"),
    "greater": ("real numeric", EXACT, "finite", "finite"),
    "greater_equal": ("real numeric", EXACT, "finite", "finite"),
    "hypot": ("real floating", ("ulp", 2), "finite", "finite"),
    "less": ("real numeric", EXACT, "finite", "finite"),
    "less_equal": ("real numeric", EXACT, "finite", "finite"),
    "logaddexp": ("real floating", ULP, "finite", "finite"),
    "logical_and": ("bool", EXACT, "finite", "finite"),
    "logical_or": ("bool", EXACT, "finite", "finite"),
    "logical_xor": ("bool", EXACT, "finite", "finite"),
    "maximum": ("real numeric", EXACT, "finite", "finite"),
    "minimum": ("real numeric", EXACT, "finite", "finite"),
    "multiply": ("numeric", ("ulp", 2), "finite", "finite"),
    "nextafter": ("real floating", EXACT, "finite", "finite"),
    "not_equal": ("any", EXACT, "finite", "finite"),
    "pow": ("numeric", ULP, "base", "exponent"),
    "remainder": ("real numeric", ("rel", 4), "finite", "nonzero"),
    "subtract": ("numeric", EXACT, "finite", "finite"),
}
# Functions whose special cases the standard lists for zeros: compare the sign
# of zero there.  (Elsewhere -0.0 == +0.0.)
SIGNED_ZERO = set(UNARY) - {
    "acos",
    "acosh",
    "cos",
    "cosh",
    "exp",
    "log",
    "log2",
    "log10",
}
SIGNED_ZERO |= {
    "add",
    "subtract",
    "multiply",
    "divide",
    "copysign",
    "maximum",
    "minimum",
}
SIGNED_ZERO |= {"atan2", "floor_divide", "remainder", "pow", "nextafter"}
# Functions for which the standard lists special cases of complex inputs (or
# defines them through another function's: asin through asinh, cos through
# cosh, log2 through log, ...): their grid runs on complex dtypes too.
COMPLEX_SPECIAL = {
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "cos",
    "cosh",
    "exp",
    "expm1",
    "isfinite",
    "isinf",
    "isnan",
    "log",
    "log1p",
    "log2",
    "log10",
    "sign",
    "sin",
    "sinh",
    "sqrt",
    "tan",
    "tanh",
}
# Binary functions whose complex special cases the standard fixes, and how:
# "parts": the real rules apply to each part on its own (add, subtract: NaN,
# infinities and signed zeros per part); "exact": a boolean result (equal,
# not_equal: a NaN part makes them unequal); "textbook": only NaN + NaN j for
# four NaN parts, and the textbook formula for four finite parts, are fixed
# (multiply, divide; every other case is left to the implementation).  pow's
# complex special cases "should" follow exp(x2 * log(x1)), and may be treated
# "more carefully": nothing there is fixed, so pow is not on the grid.
COMPLEX_BINARY = {
    "add": "parts",
    "subtract": "parts",
    "equal": "exact",
    "not_equal": "exact",
    "multiply": "textbook",
    "divide": "textbook",
}
OPERATORS = {
    "__abs__": "abs",
    "__neg__": "negative",
    "__pos__": "positive",
    "__invert__": "bitwise_invert",
    "__add__": "add",
    "__sub__": "subtract",
    "__mul__": "multiply",
    "__truediv__": "divide",
    "__floordiv__": "floor_divide",
    "__mod__": "remainder",
    "__pow__": "pow",
    "__and__": "bitwise_and",
    "__or__": "bitwise_or",
    "__xor__": "bitwise_xor",
    "__lshift__": "bitwise_left_shift",
    "__rshift__": "bitwise_right_shift",
    "__eq__": "equal",
    "__ne__": "not_equal",
    "__lt__": "less",
    "__le__": "less_equal",
    "__gt__": "greater",
    "__ge__": "greater_equal",
}
# The operators are defined for every dtype their function is.  `__and__` etc
# are the bitwise functions (logical for bool); comparisons `<` need real dtypes.


def _unary_features(name: str, call_name: str, kind: str, tol: tuple, names=("x",)):
    sz = name in SIGNED_ZERO

    def build(kind_el):
        def b(ctx, dt):
            return arr(ctx, dt, shapes(ctx), kind_el).map(
                lambda x: Call(call_name, (Arr(x, names[0]),))
            )

        return b

    def grid(ctx, dt):
        x = from_numpy(ctx, np.asarray(specials(dt)), dt)
        return [Call(call_name, (Arr(x, names[0]),))]

    feats = [
        Feature("default", kind, build("finite"), Options(tol, sz), elementwise=True)
    ]
    fl = tuple(d for d in dtypes_of(kind) if d in KINDS["real floating"])
    if name in COMPLEX_SPECIAL:
        fl += tuple(d for d in dtypes_of(kind) if d in KINDS["complex floating"])
    if fl and name not in ("real", "imag", "conj"):
        feats.append(
            Feature(
                "special-cases",
                fl,
                build("special"),
                Options(tol, True, "special-case", accept=ALTERNATIVES.get(name)),
                elementwise=True,
                explicit=grid,
            )
        )
    return feats


def _returns_self(out, args, kwargs):
    if out is args[0]:
        return []
    return [Finding("value", "the in-place operator returned a new array, not self")]


def _binary_features(
    name: str, call_name: str, kind: str, tol, e1, e2, *, operator=None
):
    """Features of a binary elementwise function or operator.

    ``operator`` is None for the function, else "plain", "reflected" or
    "in-place".
    """
    sz = name in SIGNED_ZERO
    n1, n2 = ("x1", "x2") if operator is None else ("x", "other")
    inplace = operator == "in-place"

    def same(kind_el1, kind_el2, value_kind="value", signed=sz):
        @st.composite
        def b(draw, ctx, dt):
            if inplace:
                s1 = draw(shapes(ctx))
                s2 = draw(st.sampled_from([s1, s1[1:], ()]))
            else:
                s1, s2 = draw(_mbs(ctx, 2, max_side=4)).input_shapes
            x1 = draw(arr(ctx, dt, s1, kind_el1))
            x2 = draw(arr(ctx, dt, s2, kind_el2))
            return Call(
                call_name, (Arr(x1, n1), Arr(x2, n2)), mutates=(0,) if inplace else ()
            )

        return lambda ctx, dt: b(ctx, dt)

    def mixed():
        @st.composite
        def b(draw, ctx, pair):
            d1, d2 = draw(st.sampled_from(pair))
            s1, s2 = draw(_mbs(ctx, 2, max_side=3)).input_shapes
            x1 = draw(arr(ctx, d1, s1, e1))
            x2 = draw(arr(ctx, d2, s2, e2))
            return Call(call_name, (Arr(x1, n1), Arr(x2, n2)))

        return lambda ctx, pair: b(ctx, pair)

    def scalar(kind_el, value_kind="value"):
        @st.composite
        def b(draw, ctx, dt):
            first = operator is None and draw(st.booleans())  # the scalar is x1
            if name in ("bitwise_left_shift", "bitwise_right_shift", "pow"):
                first = False
            # The array takes the elements of the operand it stands for: a
            # reflected operator's array is x2 (the divisor of __rfloordiv__).
            second = first or operator == "reflected"
            ea, es = (e2, e1) if second else (e1, e2)
            if kind_el == "special":
                ea = es = kind_el
            x = draw(arr(ctx, dt, shapes(ctx), ea))
            s = draw(_scalar_for(dt, es))
            if first:
                return Call(call_name, (s, Arr(x, n2)))
            return Call(call_name, (Arr(x, n1), s), mutates=(0,) if inplace else ())

        return lambda ctx, dt: b(ctx, dt)

    def grid(ctx, dt):
        sp = np.asarray(specials(dt))
        x1 = from_numpy(ctx, np.repeat(sp, sp.size), dt)
        x2 = from_numpy(ctx, np.tile(sp, sp.size), dt)
        return [
            Call(call_name, (Arr(x1, n1), Arr(x2, n2)), mutates=(0,) if inplace else ())
        ]

    def table(ctx):
        ref = ctx.refmod
        names = dtypes_of(kind)
        calls = []
        for d1 in names:
            for d2 in names:
                if d1 == d2 or not _promotes(ctx, d1, d2):
                    continue
                x1 = ref.ones((2,), dtype=getattr(ref, d1))
                x2 = ref.ones((2,), dtype=getattr(ref, d2))
                calls.append(Call(call_name, (Arr(x1, n1), Arr(x2, n2))))
        return calls

    fl = tuple(d for d in dtypes_of(kind) if d in KINDS["real floating"])
    feats = []
    ew: dict = {"elementwise": True}
    if inplace:  # compare self after the call, and x += y must return self
        ew.update(result_arg=0, identity=_returns_self)
    if operator == "reflected":
        feats.append(Feature("python-scalar", kind, scalar(e1), Options(tol, sz), **ew))
        return feats
    if inplace and name == "divide":
        kind = "floating"
    feats.append(Feature("default", kind, same(e1, e2), Options(tol, sz), **ew))
    if fl:
        feats.append(
            Feature(
                "special-cases",
                fl,
                same("special", "special"),
                Options(tol, True, "special-case", accept=ALTERNATIVES.get(name)),
                explicit=grid,
                **ew,
            )
        )
    cl = tuple(d for d in dtypes_of(kind) if d in KINDS["complex floating"])
    rule = COMPLEX_BINARY.get(name)
    if cl and rule:
        feats.append(
            Feature(
                "special-cases",
                cl,
                same("special", "special"),
                Options(
                    tol,
                    rule == "parts",
                    "special-case",
                    accept=_complex_textbook(name) if rule == "textbook" else None,
                    complex_parts=True,
                ),
                explicit=grid,
                **ew,
            )
        )
    if not inplace and kind not in ("bool",):
        feats.append(
            Feature("promotion", "mixed:" + kind, mixed(), Options(tol, sz), **ew)
        )
        feats.append(
            Feature(
                "promotion-table",
                "none",
                lambda ctx, _: None,
                Options(check_values=False),
                table=table,
            )
        )
    versions = V24 if operator is None else ("2023.12", *V24)
    feats.append(
        Feature(
            "python-scalar", kind, scalar(e1), Options(tol, sz), versions=versions, **ew
        )
    )
    return feats


def _floordiv_python(inputs, ref, got):
    """floor_divide's special cases where libraries may follow Python instead."""
    x1, x2 = inputs
    inf1, fin2 = np.isinf(x1), np.isfinite(x2) & (x2 != 0)
    fin1, inf2 = np.isfinite(x1) & (x1 != 0), np.isinf(x2)
    nan_ok = inf1 & fin2 & np.isnan(got)  # +-inf // finite: NaN allowed
    minus_one_ok = fin1 & inf2 & (np.sign(x1) != np.sign(x2)) & (got == -1.0)
    return nan_ok | minus_one_ok


def _sign_complex_infinite(inputs, ref, got):
    """sign(z) for complex z with an infinite part: the standard's x / |x| reads
    as NaN parts under complex division, or as the direction of z in the limit
    (numpy: sign(0 + inf j) = 1j); either is accepted."""
    (x,) = inputs
    if x.dtype.kind != "c":
        return np.zeros(ref.shape, dtype=bool)
    inf = (np.isinf(x.real) | np.isinf(x.imag)) & ~(np.isnan(x.real) | np.isnan(x.imag))
    unit = np.abs(np.abs(got) - 1) <= 1e-6
    nan = np.isnan(got.real) | np.isnan(got.imag)
    return inf & (unit | nan)


def _complex_textbook(name: str):
    """multiply and divide of complex operands: the standard fixes the result
    only when all four parts are NaN (NaN + NaN j) or all four are finite (the
    textbook formula; for divide, by a nonzero divisor).  Any other result is
    accepted elsewhere."""

    def accept(inputs, ref, got):
        x1, x2 = inputs
        if x1.dtype.kind != "c":
            return np.zeros(ref.shape, dtype=bool)
        parts = (x1.real, x1.imag, x2.real, x2.imag)
        all_nan = np.logical_and.reduce([np.isnan(p) for p in parts])
        finite = np.logical_and.reduce([np.isfinite(p) for p in parts])
        if name == "divide":
            finite &= x2 != 0
        return ~(all_nan | finite)

    return accept


# Results the standard explicitly allows besides the reference's
# ("libraries may return NaN to match Python behavior"), or leaves open.
ALTERNATIVES = {"floor_divide": _floordiv_python, "sign": _sign_complex_infinite}


# --- results compared up to an order the standard leaves free ------------------------


def _outs(tgt_out, n):
    if not isinstance(tgt_out, (tuple, list)) or len(tgt_out) != n:
        return None
    return list(tgt_out)


def _meta(ref_out, tgt_out, ctx) -> list[Finding]:
    """dtype, shape and device of every output, values unchecked."""
    out = []
    for r, g in zip(ref_out, tgt_out, strict=True):
        out += check_array(
            r, g, ctx.tgt.module, ctx.expected_device, Options(check_values=False)
        )
    return out


def compare_unique(fields: tuple[str, ...]):
    def compare(ref_out, tgt_out, call, ctx):
        ref_out = (ref_out,) if len(fields) == 1 else tuple(ref_out)
        got = [tgt_out] if len(fields) == 1 else _outs(tgt_out, len(fields))
        if got is None:
            return [Finding("value", f"expected {len(fields)} outputs {fields}")]
        x = call.args[0].numpy()
        g = dict(zip(fields, (to_numpy(a) for a in got), strict=True))
        r = dict(zip(fields, (np.asarray(a) for a in ref_out), strict=True))
        if "inverse_indices" not in fields:
            # values' order is unspecified: compare as sorted
            out = [
                f
                for f in _meta(ref_out, got, ctx)
                if f.kind != "shape" or "inverse" in f.message
            ]
        else:
            out = _meta(ref_out, got, ctx)
        if out:
            return out
        order_g = np.argsort(g["values"], kind="stable")
        order_r = np.argsort(r["values"], kind="stable")
        if not np.array_equal(
            g["values"][order_g], r["values"][order_r], equal_nan=x.dtype.kind == "f"
        ):
            return [Finding("value", "unique values differ from the reference's")]
        if "counts" in fields and not np.array_equal(
            g["counts"][order_g], r["counts"][order_r]
        ):
            return [Finding("value", "counts differ from the reference's")]
        if (
            "indices" in fields
            and x.size
            and not np.array_equal(
                x.reshape(-1)[g["indices"]], g["values"], equal_nan=True
            )
        ):
            return [Finding("value", "x[indices] != values")]
        if "inverse_indices" in fields and x.size:
            back = g["values"][g["inverse_indices"].reshape(-1)].reshape(x.shape)
            if not np.array_equal(back, x, equal_nan=True):
                return [Finding("value", "values[inverse_indices] does not rebuild x")]
        return []

    return compare


def _rel_ok(a, b, dt, k, scale):
    return values_close(np.asarray(b), np.asarray(a), dt, ("rel", k), False, scale)[0]


def compare_eigh(values_only=False):
    def compare(ref_out, tgt_out, call, ctx):
        a = call.args[0].numpy().astype(np.complex128)
        dt = call.args[0].dtype_name
        n = a.shape[-1]
        scale = float(np.abs(a).max()) * n if a.size else 1.0
        if values_only:
            f = check_array(
                ref_out,
                tgt_out,
                ctx.tgt.module,
                ctx.expected_device,
                Options(check_values=False),
            )
            if f:
                return f
            w = to_numpy(tgt_out)
            ok = _rel_ok(w, np.asarray(ref_out), str(ref_out.dtype), 64 * n, scale)
            return (
                []
                if ok
                else [Finding("value", "eigenvalues differ from the reference's")]
            )
        got = _outs(tgt_out, 2)
        if got is None:
            return [Finding("value", "expected 2 outputs (eigenvalues, eigenvectors)")]
        f = _meta(tuple(ref_out), got, ctx)
        if f:
            return f
        w, v = (to_numpy(t) for t in got)
        if not _rel_ok(w, np.asarray(ref_out[0]), str(ref_out[0].dtype), 64 * n, scale):
            return [Finding("value", "eigenvalues differ from the reference's")]
        resid = a @ v - v * w[..., None, :]
        if not _rel_ok(resid, np.zeros_like(resid), dt, 256 * n, scale):
            return [Finding("value", "x @ v != v * w (eigenvectors wrong)")]
        return []

    return compare


def compare_svd(ref_out, tgt_out, call, ctx):
    a = call.args[0].numpy()
    dt = call.args[0].dtype_name
    got = _outs(tgt_out, 3)
    if got is None:
        return [Finding("value", "expected 3 outputs (U, S, Vh)")]
    f = _meta(tuple(ref_out), got, ctx)
    if f:
        return f
    u, s, vh = (to_numpy(t) for t in got)
    k = s.shape[-1]
    n = max(a.shape[-2:]) if a.ndim else 1
    scale = float(np.abs(a).max()) * n if a.size else 1.0
    if not _rel_ok(s, np.asarray(ref_out[1]), str(ref_out[1].dtype), 64 * n, scale):
        return [Finding("value", "singular values differ from the reference's")]
    rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    if not _rel_ok(rec, a, dt, 256 * n, scale):
        return [Finding("value", "U @ diag(S) @ Vh does not rebuild x")]
    return []


def compare_qr(ref_out, tgt_out, call, ctx):
    a = call.args[0].numpy()
    dt = call.args[0].dtype_name
    got = _outs(tgt_out, 2)
    if got is None:
        return [Finding("value", "expected 2 outputs (Q, R)")]
    f = _meta(tuple(ref_out), got, ctx)
    if f:
        return f
    q, r = (to_numpy(t) for t in got)
    n = max(a.shape[-2:])
    scale = float(np.abs(a).max()) * n if a.size else 1.0
    if not _rel_ok(q @ r, a, dt, 256 * n, scale):
        return [Finding("value", "Q @ R does not rebuild x")]
    if not np.allclose(np.tril(r, -1), 0):
        return [Finding("value", "R is not upper triangular")]
    return []


def compare_dtype_result(ref_out, tgt_out, call, ctx):
    want = getattr(ctx.tgt.module, str(ref_out))
    if tgt_out != want:
        return [Finding("dtype", f"returned {tgt_out!r}, expected {ref_out}")]
    return []


def compare_info(fields):
    def compare(ref_out, tgt_out, call, ctx):
        out = []
        for f in fields:
            r, g = getattr(ref_out, f), getattr(tgt_out, f, "<missing>")
            if f == "dtype":
                if g != getattr(ctx.tgt.module, str(r)):
                    out.append(Finding("dtype", f".{f} is {g!r}, expected {r}"))
            elif not (
                g == r
                or (
                    isinstance(r, float)
                    and isinstance(g, float)
                    and math.isclose(g, r, rel_tol=1e-6)
                )
            ):
                out.append(Finding("value", f".{f} is {g!r}, expected {r!r}"))
        return out

    return compare


# --- the table ---------------------------------------------------------------------

FEATURES: dict[str, list[Feature]] = {}


def _add(name: str, *features: Feature) -> None:
    FEATURES.setdefault(name, []).extend(features)


for _n, (_k, _t) in UNARY.items():
    _add(_n, *_unary_features(_n, _n, _k, _t))
for _n, (_k, _t, _e1, _e2) in BINARY.items():
    _add(_n, *_binary_features(_n, _n, _k, _t, _e1, _e2))

for _op, _fn in OPERATORS.items():
    if _fn in UNARY:
        _k, _t = UNARY[_fn]
        _add(f"Array.{_op}", *_unary_features(_fn, f"Array.{_op}", _k, _t))
        continue
    _k, _t, _e1, _e2 = BINARY[_fn]
    _add(
        f"Array.{_op}",
        *_binary_features(_fn, f"Array.{_op}", _k, _t, _e1, _e2, operator="plain"),
    )
    if _op[2:-2] in ("eq", "ne", "lt", "le", "gt", "ge"):
        continue
    _stem = _op[2:-2]
    _add(
        f"Array.__r{_stem}__",
        *_binary_features(
            _fn, f"Array.__r{_stem}__", _k, _t, _e1, _e2, operator="reflected"
        ),
    )
    _add(
        f"Array.__i{_stem}__",
        *_binary_features(
            _fn, f"Array.__i{_stem}__", _k, _t, _e1, _e2, operator="in-place"
        ),
    )


# clip(x, min, max)
@st.composite
def _clip(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    lo = draw(st.none() | _scalar_for(dt, "finite"))
    hi = draw(st.none() | _scalar_for(dt, "finite"))
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    return Call("clip", (Arr(x),), {"min": lo, "max": hi})


_add("clip", Feature("min,max", "real numeric", _clip, Options(EXACT)))


# --- creation ----------------------------------------------------------------------


def _shape_tuple(ctx):
    return shapes(ctx, max_dims=3)


def _creation(name, fill=None, check_values=True):
    @st.composite
    def b(draw, ctx, dt):
        shape = draw(_shape_tuple(ctx))
        args = (shape,) if fill is None else (shape, draw(_scalar_for(dt, "finite")))
        return Call(name, args, {"dtype": DT(dt), "device": DEV})

    return Feature("dtype,device", "any", b, Options(check_values=check_values))


def _like(name, fill=None, check_values=True):
    @st.composite
    def b(draw, ctx, dt):
        x = draw(arr(ctx, dt, shapes(ctx)))
        args = (Arr(x),) if fill is None else (Arr(x), draw(_scalar_for(dt, "finite")))
        return Call(name, args)

    return Feature("default", "any", b, Options(check_values=check_values))


_add("zeros", _creation("zeros"))
_add("ones", _creation("ones"))
_add("empty", _creation("empty", check_values=False))
_add("full", _creation("full", fill=True))
_add("zeros_like", _like("zeros_like"))
_add("ones_like", _like("ones_like"))
_add("empty_like", _like("empty_like", check_values=False))
_add("full_like", _like("full_like", fill=True))


@st.composite
def _eye(draw, ctx, dt):
    n = draw(st.integers(0, 5))
    kw = {"dtype": DT(dt), "device": DEV}
    if draw(st.booleans()):
        kw["n_cols"] = draw(st.integers(0, 5))
    if draw(st.booleans()):
        kw["k"] = draw(st.integers(-5, 5))
    return Call("eye", (n,), kw)


_add("eye", Feature("n_cols,k,dtype", "numeric", _eye))


@st.composite
def _arange(draw, ctx, dt):
    start = draw(st.integers(-10, 10))
    stop = draw(st.integers(-10, 10))
    step = draw(st.integers(-3, 3).filter(bool))
    if dt.startswith("uint") and (start < 0 or stop < 0):
        start, stop = abs(start), abs(stop)
    if dt.startswith("uint") and step < 0:
        step = -step
    return Call("arange", (start, stop, step), {"dtype": DT(dt), "device": DEV})


_add("arange", Feature("start,stop,step,dtype", "real numeric", _arange))


@st.composite
def _linspace(draw, ctx, dt):
    start = draw(st.integers(-100, 100)) / 4
    stop = draw(st.integers(-100, 100)) / 4
    num = draw(st.integers(0, 10))
    endpoint = draw(st.booleans())
    return Call(
        "linspace",
        (start, stop, num),
        {"dtype": DT(dt), "endpoint": endpoint, "device": DEV},
    )


_add(
    "linspace",
    Feature("num,endpoint,dtype", "real floating", _linspace, Options(("rel", 8))),
)


def _tri(name):
    @st.composite
    def b(draw, ctx, dt):
        x = draw(arr(ctx, dt, shapes(ctx, min_dims=2)))
        return Call(name, (Arr(x),), {"k": draw(st.integers(-4, 4))})

    return Feature("k", "any", b)


_add("tril", _tri("tril"))
_add("triu", _tri("triu"))


@st.composite
def _meshgrid(draw, ctx, dt):
    n = draw(st.integers(1, 3))
    xs = [Arr(draw(arr(ctx, dt, shapes(ctx, 1, 1))), f"x{i + 1}") for i in range(n)]
    return Call(
        "meshgrid", tuple(xs), {"indexing": draw(st.sampled_from(["xy", "ij"]))}
    )


_add("meshgrid", Feature("indexing", "numeric", _meshgrid))


@st.composite
def _asarray(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, max_dims=2)))
    return Call("asarray", (np.asarray(x).tolist(),), {"dtype": DT(dt), "device": DEV})


_add("asarray", Feature("nested-list,dtype", "any", _asarray))


def _host_view(a):
    """A NumPy view of ``a``'s memory through DLPack, or None if there is none."""
    try:
        return np.from_dlpack(a)
    except Exception:
        return None


@st.composite
def _asarray_copy(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    return Call("asarray", (Arr(x),), {"copy": draw(st.booleans())})


def _asarray_shares(out, args, kwargs):
    # copy=True must not share memory with the input; copy=False must (the
    # input is already an array of the namespace, on its device, of its dtype)
    a, b = _host_view(out), _host_view(args[0])
    if a is None or b is None:
        return []  # no host view to compare memory through
    shares = np.shares_memory(a, b)
    if kwargs.get("copy") is True and shares:
        return [Finding("value", "asarray(x, copy=True) shares memory with x")]
    if kwargs.get("copy") is False and not shares:
        return [Finding("value", "asarray(x, copy=False) copied x")]
    return []


_add("asarray", Feature("copy", "any", _asarray_copy, identity=_asarray_shares))
_add(
    "from_dlpack",
    Feature(
        "default",
        "any",
        lambda ctx, dt: arr(ctx, dt, shapes(ctx)).map(
            lambda x: Call("from_dlpack", (Arr(x),))
        ),
    ),
)


# --- data type functions ----------------------------------------------------------------


@st.composite
def _astype(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    to = draw(
        st.sampled_from(
            [
                d
                for d in KINDS["any"]
                if ctx.refmod.can_cast(getattr(ctx.refmod, dt), getattr(ctx.refmod, d))
            ]
        )
    )
    return Call("astype", (Arr(x), DT(to)))


_add("astype", Feature("safe-casts", "any", _astype))


@st.composite
def _astype_copy(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("astype", (Arr(x), DT(dt)), {"copy": draw(st.booleans())})


def _astype_identity(out, args, kwargs):
    # copy=False with the input's dtype must return the input itself; copy=True
    # must return a new array
    same = out is args[0]
    if kwargs.get("copy") is False and not same:
        return [Finding("value", "astype(x, x.dtype, copy=False) returned a copy")]
    if kwargs.get("copy") is True and same:
        return [Finding("value", "astype(x, x.dtype, copy=True) returned x itself")]
    return []


_add(
    "astype",
    Feature("copy", "any", _astype_copy, identity=_astype_identity),
)


@st.composite
def _astype_to_int(draw, ctx, dt):
    to = draw(st.sampled_from(KINDS["integral"]))
    lo = 0.0 if to.startswith("uint") else -100.0
    vals = st.floats(lo, 100.0, width=32 if dt == "float32" else 64)
    x = draw(ctx.xps.arrays(getattr(ctx.refmod, dt), draw(shapes(ctx)), elements=vals))
    return Call("astype", (Arr(x), DT(to)))


# Finite floats in range cast to integers by truncation (NaN and infinities
# are left to the implementation).
_add(
    "astype",
    Feature("float-to-integer", "real floating", _astype_to_int, elementwise=True),
)


def _all_pairs(name, cls=DT):
    def table(ctx):
        return [
            Call(name, (cls(a), cls(b)))
            for a in KINDS["any"]
            for b in KINDS["any"]
            if name != "result_type" or _promotes(ctx, a, b)
        ]

    return table


_add(
    "result_type",
    Feature(
        "dtypes",
        "none",
        lambda ctx, _: None,
        compare=compare_dtype_result,
        table=_all_pairs("result_type"),
    ),
)


def _promotes(ctx, a, b):
    try:
        ctx.refmod.result_type(getattr(ctx.refmod, a), getattr(ctx.refmod, b))
        return True
    except TypeError:
        return False


_add(
    "can_cast",
    Feature("dtypes", "none", lambda ctx, _: None, table=_all_pairs("can_cast")),
)
_add(
    "isdtype",
    Feature(
        "kinds",
        "none",
        lambda ctx, _: st.tuples(
            st.sampled_from(KINDS["any"]),
            st.sampled_from(
                [
                    "bool",
                    "signed integer",
                    "unsigned integer",
                    "integral",
                    "real floating",
                    "complex floating",
                    "numeric",
                ]
            ),
        ).map(lambda p: Call("isdtype", (DT(p[0]), p[1]))),
    ),
)
_add(
    "finfo",
    Feature(
        "fields",
        "none",
        lambda ctx, _: st.sampled_from(KINDS["floating"]).map(
            lambda d: Call("finfo", (DT(d),))
        ),
        compare=compare_info(("bits", "eps", "max", "min", "smallest_normal", "dtype")),
    ),
)
_add(
    "iinfo",
    Feature(
        "fields",
        "none",
        lambda ctx, _: st.sampled_from(KINDS["integral"]).map(
            lambda d: Call("iinfo", (DT(d),))
        ),
        compare=compare_info(("bits", "max", "min", "dtype")),
    ),
)


# --- statistical, utility -----------------------------------------------------------


def _axis_for(draw, ndim, tuples=True):
    if ndim == 0:
        return None
    if tuples and draw(st.booleans()):
        axes = draw(
            st.lists(st.integers(0, ndim - 1), unique=True, min_size=1, max_size=ndim)
        )
        return tuple(sorted(axes))
    return draw(st.integers(-ndim, ndim - 1))


def _reduction(name, kind, tol, *, min_side=0, tuples=True, elem="finite", extra=()):
    def mk(feature):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(arr(ctx, dt, shapes(ctx, min_side=min_side), elem))
            kw = {}
            if feature in ("axis", "keepdims", "correction", "dtype"):
                kw["axis"] = _axis_for(draw, x.ndim, tuples)
            if feature == "keepdims":
                kw["keepdims"] = True
            if feature == "correction":
                kw["correction"] = draw(st.sampled_from([0, 1, 0.5, 2]))
            if feature == "dtype":
                kw["dtype"] = DT(
                    "float64"
                    if dt.startswith("float")
                    else "complex128"
                    if dt.startswith("complex")
                    else "int64"
                    if not dt.startswith("uint")
                    else "uint64"
                )
            return Call(name, (Arr(x),), kw)

        return b

    def scale(call):
        x = call.args[0].numpy()
        if x.dtype.kind not in "fc" or not x.size:
            return 0.0
        return float(np.abs(x).max()) ** (2 if name in ("var", "std") else 1) * max(
            x.size, 1
        )

    feats = [
        Feature(f, kind, mk(f), Options(tol), scale_from=scale)
        for f in ("default", "axis", "keepdims", *extra)
    ]
    return feats


RED = ("rel", 32)
_add("sum", *_reduction("sum", "numeric", RED, extra=("dtype",)))
_add("prod", *_reduction("prod", "numeric", RED, elem="unit", extra=("dtype",)))
_add("mean", *_reduction("mean", "real floating", RED, min_side=1))
_add("var", *_reduction("var", "real floating", RED, min_side=3, extra=("correction",)))
_add("std", *_reduction("std", "real floating", RED, min_side=3, extra=("correction",)))
_add("max", *_reduction("max", "real numeric", EXACT, min_side=1))
_add("min", *_reduction("min", "real numeric", EXACT, min_side=1))
_add("all", *_reduction("all", "any", EXACT))
_add("any", *_reduction("any", "any", EXACT))
_add(
    "count_nonzero",
    *[
        Feature(f.name, f.dtypes, f.build, f.opts, versions=V24)
        for f in _reduction("count_nonzero", "any", EXACT)
    ],
)
_add("argmax", *_reduction("argmax", "real numeric", EXACT, min_side=1, tuples=False))
_add("argmin", *_reduction("argmin", "real numeric", EXACT, min_side=1, tuples=False))


def _cumulative(name, versions):
    def mk(feature):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, max_dims=2), "unit"))
            kw = {}
            if x.ndim > 1 or feature == "axis":
                kw["axis"] = draw(st.integers(-x.ndim, x.ndim - 1))
            if feature == "include_initial":
                kw["include_initial"] = True
            return Call(name, (Arr(x),), kw)

        return b

    return [
        Feature(
            f,
            "numeric",
            mk(f),
            Options(RED),
            versions=versions,
            scale_from=lambda c: float(np.abs(c.args[0].numpy()).sum()),
        )
        for f in ("default", "axis", "include_initial")
    ]


_add("cumulative_sum", *_cumulative("cumulative_sum", ("2023.12", *V24)))
_add("cumulative_prod", *_cumulative("cumulative_prod", V24))


@st.composite
def _diff(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1), "finite"))
    kw = {"axis": draw(st.integers(-x.ndim, x.ndim - 1)), "n": draw(st.integers(0, 2))}
    return Call("diff", (Arr(x),), kw)


_add("diff", Feature("n,axis", "numeric", _diff, Options(EXACT), versions=V24))


@st.composite
def _diff_pend(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1), "finite"))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    kw = {"axis": axis}
    for key in draw(
        st.sampled_from([("prepend",), ("append",), ("prepend", "append")])
    ):
        s = list(x.shape)
        s[axis] = draw(st.integers(1, 2))
        kw[key] = Arr(draw(arr(ctx, dt, tuple(s), "finite")), key)
    return Call("diff", (Arr(x),), kw)


_add(
    "diff",
    Feature("prepend,append", "numeric", _diff_pend, Options(EXACT), versions=V24),
)


# --- manipulation ---------------------------------------------------------------------


def _feature(name, fn_name, kind="any", opts=None, **kw):
    def deco(body):
        s = st.composite(body)
        _add(
            fn_name,
            Feature(name, kind, lambda ctx, dt: s(ctx, dt), opts or Options(), **kw),
        )
        return body

    return deco


@_feature("shape", "reshape")
def _reshape(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    n = math.prod(x.shape)
    dims = [d for d in range(1, n + 1) if n % d == 0] if n else [0, 1, 2]
    a = draw(st.sampled_from(dims))
    shape = (a, n // a) if a else (0, draw(st.integers(0, 3)))
    if draw(st.booleans()):
        shape = (-1, shape[1]) if n else shape
    return Call("reshape", (Arr(x), shape))


@_feature("incompatible-shape", "reshape", expect_raise=True)
def _reshape_bad(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=2)))
    n = math.prod(x.shape)
    m = draw(st.integers(1, 2 * n + 3).filter(lambda m: m != n))
    return Call("reshape", (Arr(x), (m,)))


@_feature("axis", "flip")
def _flip(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("flip", (Arr(x),), {"axis": _axis_for(draw, x.ndim)})


@_feature("axes", "permute_dims")
def _permute(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("permute_dims", (Arr(x), tuple(draw(st.permutations(range(x.ndim))))))


@_feature("axes", "matrix_transpose")
def _mt(draw, ctx, dt):
    return Call("matrix_transpose", (Arr(draw(arr(ctx, dt, shapes(ctx, min_dims=2)))),))


@_feature("axis", "expand_dims")
def _expand(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call(
        "expand_dims", (Arr(x),), {"axis": draw(st.integers(-x.ndim - 1, x.ndim))}
    )


@_feature("axis", "squeeze")
def _squeeze(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1))
    i = draw(st.integers(0, len(s) - 1))
    s = (*s[:i], 1, *s[i + 1 :])
    return Call("squeeze", (Arr(draw(arr(ctx, dt, s))),), {"axis": i})


@_feature("non-unit-axis", "squeeze", expect_raise=True)
def _squeeze_bad(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1, min_side=2))
    i = draw(st.integers(-len(s), len(s) - 1))
    return Call("squeeze", (Arr(draw(arr(ctx, dt, s))),), {"axis": i})


@_feature("shift,axis", "roll")
def _roll(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    axis = (
        None if x.ndim == 0 or draw(st.booleans()) else draw(st.integers(0, x.ndim - 1))
    )
    return Call("roll", (Arr(x), draw(st.integers(-6, 6))), {"axis": axis})


@_feature("source,destination", "moveaxis")
def _moveaxis(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    return Call(
        "moveaxis",
        (
            Arr(x),
            draw(st.integers(0, x.ndim - 1)),
            draw(st.integers(-x.ndim, x.ndim - 1)),
        ),
    )


@_feature("axis", "concat")
def _concat(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1))
    axis = draw(st.integers(0, len(s) - 1))
    xs = []
    for i in range(draw(st.integers(1, 3))):
        si = (*s[:axis], draw(st.integers(0, 3)), *s[axis + 1 :])
        xs.append(Arr(draw(arr(ctx, dt, si)), f"x{i + 1}"))
    return Call("concat", (xs,), {"axis": axis})


@_feature("axis=None", "concat")
def _concat_flat(draw, ctx, dt):
    xs = [
        Arr(draw(arr(ctx, dt, draw(shapes(ctx)))), f"x{i + 1}")
        for i in range(draw(st.integers(1, 3)))
    ]
    return Call("concat", (xs,), {"axis": None})


@_feature("incompatible-shapes", "concat", expect_raise=True)
def _concat_bad(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=2, min_side=1))
    t = (*s[:-1], s[-1] + 1)
    xs = [Arr(draw(arr(ctx, dt, s)), "x1"), Arr(draw(arr(ctx, dt, t)), "x2")]
    return Call("concat", (xs,), {"axis": 0})


@_feature("axis", "stack")
def _stack(draw, ctx, dt):
    s = draw(shapes(ctx))
    xs = [
        Arr(draw(arr(ctx, dt, s)), f"x{i + 1}") for i in range(draw(st.integers(1, 3)))
    ]
    return Call("stack", (xs,), {"axis": draw(st.integers(-len(s) - 1, len(s)))})


@_feature("axis", "unstack")
def _unstack(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    return Call("unstack", (Arr(x),), {"axis": draw(st.integers(-x.ndim, x.ndim - 1))})


@_feature("shape", "broadcast_to")
def _bto(draw, ctx, dt):
    s = draw(shapes(ctx, max_dims=2))
    target = (
        draw(st.integers(0, 3)),
        *tuple(d if d != 1 else draw(st.integers(1, 3)) for d in s),
    )
    return Call("broadcast_to", (Arr(draw(arr(ctx, dt, s))), target))


@_feature("default", "broadcast_arrays")
def _barr(draw, ctx, dt):
    s1, s2 = draw(_mbs(ctx, 2, max_side=3)).input_shapes
    return Call(
        "broadcast_arrays",
        (Arr(draw(arr(ctx, dt, s1)), "x1"), Arr(draw(arr(ctx, dt, s2)), "x2")),
    )


@_feature("incompatible-shapes", "broadcast_arrays", expect_raise=True)
def _barr_bad(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1, min_side=2))
    t = (*s[:-1], s[-1] + 1)
    return Call(
        "broadcast_arrays",
        (Arr(draw(arr(ctx, dt, s)), "x1"), Arr(draw(arr(ctx, dt, t)), "x2")),
    )


@_feature("repetitions", "tile")
def _tile(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, max_dims=2)))
    reps = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=3)))
    return Call("tile", (Arr(x), reps))


@_feature("repeats,axis", "repeat")
def _repeat(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, max_dims=2)))
    axis = draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    return Call("repeat", (Arr(x), draw(st.integers(0, 3))), {"axis": axis})


@_feature("indices,axis", "take")
def _take(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[axis]
    idx = from_numpy(
        ctx, np.asarray(draw(st.lists(st.integers(0, n - 1), max_size=5))), "int64"
    )
    return Call("take", (Arr(x), Arr(idx, "indices")), {"axis": axis})


@_feature("indices,axis", "take_along_axis", versions=V24)
def _take_along(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    s = list(x.shape)
    s[axis] = draw(st.integers(0, 4))
    idx = draw(
        st.lists(
            st.integers(0, x.shape[axis] - 1),
            min_size=math.prod(s),
            max_size=math.prod(s),
        )
    )
    idx = from_numpy(ctx, np.asarray(idx, dtype=np.int64).reshape(s), "int64")
    return Call("take_along_axis", (Arr(x), Arr(idx, "indices")), {"axis": axis})


# --- searching and sorting ---------------------------------------------------------------


def _sorting(name):
    def mk(feature):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(arr(ctx, dt, shapes(ctx, min_dims=1), "unit"))
            kw = {"axis": draw(st.integers(-x.ndim, x.ndim - 1))}
            if feature == "descending":
                kw["descending"] = True
            if feature == "descending,stable":
                kw["descending"] = True
                kw["stable"] = True
            return Call(name, (Arr(x),), kw)

        return b

    return [
        Feature(f, "real numeric", mk(f))
        for f in ("axis", "descending", "descending,stable")
    ]


_add("sort", *_sorting("sort"))
_add("argsort", *_sorting("argsort"))


def _searchsorted(feature):
    @st.composite
    def b(draw, ctx, dt):
        x1 = draw(arr(ctx, dt, shapes(ctx, 1, 1), "unit"))
        x1 = from_numpy(ctx, np.sort(np.asarray(x1)), dt)
        x2 = draw(arr(ctx, dt, shapes(ctx, max_dims=2), "unit"))
        kw = {} if feature == "default" else {"side": feature.split("=")[1]}
        return Call("searchsorted", (Arr(x1, "x1"), Arr(x2, "x2")), kw)

    return Feature(feature, "real numeric", b)


_add(
    "searchsorted", *(_searchsorted(f) for f in ("default", "side=left", "side=right"))
)


@st.composite
def _searchsorted_sorter(draw, ctx, dt):
    x1 = draw(arr(ctx, dt, shapes(ctx, 1, 1, min_side=2), "unit"))
    order = np.argsort(np.asarray(x1), kind="stable")
    x2 = draw(arr(ctx, dt, shapes(ctx, max_dims=2), "unit"))
    kw = {"side": draw(st.sampled_from(["left", "right"]))}
    kw["sorter"] = Arr(from_numpy(ctx, order.astype(np.int64), "int64"), "sorter")
    return Call("searchsorted", (Arr(x1, "x1"), Arr(x2, "x2")), kw)


_add("searchsorted", Feature("sorter", "real numeric", _searchsorted_sorter))


@_feature("default", "where")
def _where(draw, ctx, dt):
    s1, s2, s3 = draw(_mbs(ctx, 3, max_side=3)).input_shapes
    c = draw(arr(ctx, "bool", s1))
    return Call(
        "where",
        (
            Arr(c, "condition"),
            Arr(draw(arr(ctx, dt, s2)), "x1"),
            Arr(draw(arr(ctx, dt, s3)), "x2"),
        ),
    )


@_feature("python-scalar", "where", "numeric", versions=V24)
def _where_scalar(draw, ctx, dt):
    s1, s2 = draw(_mbs(ctx, 2, max_side=3)).input_shapes
    c = Arr(draw(arr(ctx, "bool", s1)), "condition")
    x = Arr(draw(arr(ctx, dt, s2)), "x")
    v = draw(_scalar_for(dt, "finite"))
    return Call("where", (c, x, v) if draw(st.booleans()) else (c, v, x))


@_feature("default", "nonzero")
def _nonzero(draw, ctx, dt):
    return Call("nonzero", (Arr(draw(arr(ctx, dt, shapes(ctx, min_dims=1), "unit"))),))


def _set(name, fields):
    def b(ctx, dt):
        return arr(ctx, dt, shapes(ctx), "unit").map(lambda x: Call(name, (Arr(x),)))

    def nan(ctx, dt):
        # every NaN is a distinct value; +0 and -0 are one
        return arr(ctx, dt, shapes(ctx, min_dims=1), "special").map(
            lambda x: Call(name, (Arr(x),))
        )

    return (
        Feature("default", "real numeric", b, compare=compare_unique(fields)),
        Feature(
            "nan,signed-zero", "real floating", nan, compare=compare_unique(fields)
        ),
    )


_add("unique_values", *_set("unique_values", ("values",)))
_add("unique_counts", *_set("unique_counts", ("values", "counts")))
_add("unique_inverse", *_set("unique_inverse", ("values", "inverse_indices")))
_add(
    "unique_all",
    *_set("unique_all", ("values", "indices", "inverse_indices", "counts")),
)


@_feature("invert", "isin", kind="integer", versions=V25)
def _isin(draw, ctx, dt):
    x1 = draw(arr(ctx, dt, shapes(ctx), "unit"))
    x2 = draw(arr(ctx, dt, shapes(ctx, max_dims=1), "unit"))
    return Call("isin", (Arr(x1, "x1"), Arr(x2, "x2")), {"invert": draw(st.booleans())})


# --- linear algebra ------------------------------------------------------------------------

LIN = ("rel", 256)


def _matrix(draw, ctx, dt, *, square=True, kind="general", batch=True, min_n=1):
    n = draw(st.integers(min_n, 4))
    m = n if square else draw(st.integers(1, 4))
    b = draw(st.sampled_from([(), (2,)])) if batch else ()
    a = np.asarray(draw(arr(ctx, dt, (*b, n, m), "unit")))
    if kind == "spd":
        a = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=a.dtype)
    elif kind == "hermitian":
        a = a + np.conj(np.swapaxes(a, -1, -2))
    elif kind == "invertible":
        # diagonally dominant, with diagonal signs drawn: determinants of both signs
        signs = draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
        a = a + 2 * n * np.diag(np.asarray(signs)).astype(a.dtype)
    return from_numpy(ctx, a, dt)


def _mscale(call):
    x = call.args[0].numpy()
    return float(np.abs(x).max()) * max(x.shape[-1:] or (1,)) if x.size else 1.0


def _lin(
    name,
    body,
    kind="floating",
    opts=None,
    compare=None,
    feature="default",
    versions=("2023.12", *V24),
):
    s = st.composite(body)
    _add(
        name,
        Feature(
            feature,
            kind,
            lambda ctx, dt: s(ctx, dt),
            opts or Options(LIN),
            compare=compare,
            versions=versions,
            scale_from=_mscale,
        ),
    )


def _unary_matrix(name, mkind="general", **kw):
    _lin(
        name,
        lambda draw, ctx, dt: Call(name, (Arr(_matrix(draw, ctx, dt, kind=mkind)),)),
        **kw,
    )


_unary_matrix("linalg.cholesky", "spd")
_lin(
    "linalg.cholesky",
    lambda draw, ctx, dt: Call(
        "linalg.cholesky", (Arr(_matrix(draw, ctx, dt, kind="spd")),), {"upper": True}
    ),
    feature="upper=True",
)
_unary_matrix("linalg.det", "invertible")
_unary_matrix("linalg.inv", "invertible")
_unary_matrix("linalg.eigh", "hermitian", compare=compare_eigh())
_unary_matrix("linalg.eigvalsh", "hermitian", compare=compare_eigh(values_only=True))
_unary_matrix("linalg.slogdet", "invertible")
_unary_matrix("linalg.svdvals")
_unary_matrix("linalg.pinv", "invertible")
_unary_matrix(
    "linalg.matrix_rank", "invertible", kind="real floating", opts=Options(EXACT)
)
_lin(
    "linalg.svd",
    lambda draw, ctx, dt: Call(
        "linalg.svd",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {"full_matrices": draw(st.booleans())},
    ),
    compare=compare_svd,
    feature="full_matrices",
)
_lin(
    "linalg.qr",
    lambda draw, ctx, dt: Call(
        "linalg.qr",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {"mode": draw(st.sampled_from(["reduced", "complete"]))},
    ),
    compare=compare_qr,
    feature="mode",
)
_lin(
    "linalg.matrix_power",
    lambda draw, ctx, dt: Call(
        "linalg.matrix_power",
        (Arr(_matrix(draw, ctx, dt, kind="invertible")), draw(st.integers(-2, 3))),
    ),
    feature="n",
)
_lin(
    "linalg.solve",
    lambda draw, ctx, dt: (
        lambda a: Call(
            "linalg.solve",
            (
                Arr(a, "x1"),
                Arr(
                    from_numpy(
                        ctx,
                        np.asarray(
                            draw(
                                arr(
                                    ctx,
                                    dt,
                                    (*a.shape[:-1], draw(st.integers(1, 3))),
                                    "unit",
                                )
                            )
                        ),
                        dt,
                    ),
                    "x2",
                ),
            ),
        )
    )(_matrix(draw, ctx, dt, kind="invertible")),
)
_lin(
    "linalg.trace",
    lambda draw, ctx, dt: Call(
        "linalg.trace",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {"offset": draw(st.integers(-2, 2))},
    ),
    kind="numeric",
    feature="offset",
)
_lin(
    "linalg.diagonal",
    lambda draw, ctx, dt: Call(
        "linalg.diagonal",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {"offset": draw(st.integers(-2, 2))},
    ),
    kind="numeric",
    feature="offset",
    opts=Options(EXACT),
)
_lin(
    "linalg.matrix_norm",
    lambda draw, ctx, dt: Call(
        "linalg.matrix_norm",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {
            "ord": draw(
                st.sampled_from(["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
            ),
            "keepdims": draw(st.booleans()),
        },
    ),
    feature="ord,keepdims",
)


@st.composite
def _vnorm(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1), "unit"))
    return Call(
        "linalg.vector_norm",
        (Arr(x),),
        {
            "axis": _axis_for(draw, x.ndim),
            "ord": draw(st.sampled_from([2, 1, 0, math.inf, -math.inf, 3, -1])),
            "keepdims": draw(st.booleans()),
        },
    )


_add(
    "linalg.vector_norm",
    Feature(
        "axis,ord,keepdims",
        "floating",
        lambda ctx, dt: _vnorm(ctx, dt),
        Options(LIN),
        scale_from=lambda c: float(np.abs(c.args[0].numpy()).sum()),
    ),
)


def _two(
    name,
    mk_shapes,
    kind="numeric",
    feature="default",
    kw=None,
    versions=("2023.12", *V24),
    mutates=(),
):
    @st.composite
    def b(draw, ctx, dt):
        s1, s2, extra = mk_shapes(draw)
        x1 = draw(arr(ctx, dt, s1, "unit"))
        x2 = draw(arr(ctx, dt, s2, "unit"))
        return Call(name, (Arr(x1, "x1"), Arr(x2, "x2")), dict(extra), mutates)

    _add(
        name,
        Feature(
            feature,
            kind,
            lambda ctx, dt: b(ctx, dt),
            Options(LIN),
            versions=versions,
            scale_from=lambda c: 16.0,
        ),
    )


def _mm_shapes(draw):
    n, k, m = (draw(st.integers(1, 4)) for _ in range(3))
    b = draw(st.sampled_from([(), (2,)]))
    s1 = (k,) if draw(st.integers(0, 3)) == 0 else (*b, n, k)  # 1-D operands too
    s2 = (k,) if draw(st.integers(0, 3)) == 0 else (k, m)
    return s1, s2 if draw(st.booleans()) or len(s2) == 1 else (*b, k, m), {}


for _n in ("matmul", "linalg.matmul", "Array.__matmul__"):
    _two(_n, _mm_shapes)
_two("Array.__rmatmul__", lambda d: (lambda s: (s[1], s[0], {}))(_mm_shapes(d)))


def _imm_shapes(draw):
    n, k = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    return (*draw(st.sampled_from([(), (2,)])), n, k), (k, k), {}


_two("Array.__imatmul__", _imm_shapes, mutates=(0,))


@st.composite
def _bshapes(draw, ctx, _):
    n = draw(st.integers(1, 3))
    shapes_ = draw(_mbs(ctx, n, max_side=4)).input_shapes
    return Call("broadcast_shapes", tuple(shapes_))


_add(
    "broadcast_shapes",
    Feature("shapes", "none", lambda ctx, _: _bshapes(ctx, None), versions=V25),
)
_two("linalg.outer", lambda d: ((d(st.integers(0, 4)),), (d(st.integers(0, 4)),), {}))
_two(
    "linalg.cross",
    lambda d: ((d(st.integers(1, 3)), 3), (3,), {"axis": -1}),
    feature="axis",
)
for _n in ("vecdot", "linalg.vecdot"):
    _two(_n, lambda d: ((d(st.integers(1, 3)), 4), (4,), {"axis": -1}), feature="axis")
for _n in ("tensordot", "linalg.tensordot"):
    _two(
        _n,
        lambda d: (
            (
                (2, 3, 4),
                (3, 4, 2),
                {"axes": d(st.sampled_from([0, 1, 2, ((1,), (0,)), ((1, 2), (0, 1))]))},
            )
            if True
            else None
        ),
        feature="axes",
    )
for _n in ("matrix_transpose", "linalg.matrix_transpose"):
    _add(
        _n,
        Feature(
            "default",
            "any",
            lambda ctx, dt, _n=_n: arr(ctx, dt, shapes(ctx, min_dims=2)).map(
                lambda x, _n=_n: Call(_n, (Arr(x),))
            ),
        ),
    )


# --- fft ---------------------------------------------------------------------------------

NORMS = ("backward", "ortho", "forward")


def _fft(name, kind, nd=False, hermitian_out=False):
    def mk(norm):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(
                arr(
                    ctx,
                    dt,
                    shapes(ctx, min_dims=1, max_dims=2, min_side=1, max_side=6),
                    "unit",
                )
            )
            kw = {"norm": norm}
            if nd:
                if draw(st.booleans()):
                    axes = tuple(draw(st.permutations(range(x.ndim))))[
                        : draw(st.integers(1, x.ndim))
                    ]
                    kw["axes"] = axes
                    if draw(st.booleans()):
                        kw["s"] = tuple(draw(st.integers(2, 6)) for _ in axes)
            else:
                kw["axis"] = draw(st.integers(-x.ndim, x.ndim - 1))
                if draw(st.booleans()):
                    kw["n"] = draw(st.integers(2 if hermitian_out else 1, 7))
            return Call(name, (Arr(x),), kw)

        return b

    def scale(call):
        x = call.args[0].numpy()
        return float(np.abs(x).sum()) + 1.0

    return [
        Feature(f"norm={n}", kind, mk(n), Options(("rel", 64)), scale_from=scale)
        for n in NORMS
    ]


for _n in ("fft", "ifft"):
    _add(f"fft.{_n}", *_fft(f"fft.{_n}", "complex floating"))
for _n in ("fftn", "ifftn"):
    _add(f"fft.{_n}", *_fft(f"fft.{_n}", "complex floating", nd=True))
_add("fft.rfft", *_fft("fft.rfft", "real floating"))
_add("fft.ihfft", *_fft("fft.ihfft", "real floating"))
_add("fft.irfft", *_fft("fft.irfft", "complex floating", hermitian_out=True))
_add("fft.hfft", *_fft("fft.hfft", "complex floating", hermitian_out=True))
_add("fft.rfftn", *_fft("fft.rfftn", "real floating", nd=True))


@st.composite
def _fftfreq(draw, ctx, dt, name):
    n = draw(st.integers(1, 10))
    kw = {"d": draw(st.sampled_from([1.0, 0.5, 2.0])), "device": DEV}
    if ctx.version == "2025.12":
        kw["dtype"] = DT(dt)
    return Call(name, (n,), kw)


for _n in ("fftfreq", "rfftfreq"):
    _add(
        f"fft.{_n}",
        Feature(
            "n,d,device",
            "real floating",
            lambda ctx, dt, _n=_n: _fftfreq(ctx, dt, f"fft.{_n}"),
            Options(("rel", 4)),
        ),
    )


@st.composite
def _shift(draw, ctx, dt, name):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    axes = draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    return Call(name, (Arr(x),), {"axes": axes})


for _n in ("fftshift", "ifftshift"):
    _add(
        f"fft.{_n}",
        Feature(
            "axes", "floating", lambda ctx, dt, _n=_n: _shift(ctx, dt, f"fft.{_n}")
        ),
    )


# --- indexing, conversions, devices, interchange ----------------------------------------


def _index_key(draw, shape, newaxis=True):
    """A basic index for ``shape``: integers, slices (any step), None, Ellipsis."""
    key: list = []
    dims = list(shape)
    use_ellipsis = bool(dims) and draw(st.booleans())
    n = draw(st.integers(0, len(dims)))
    for side in dims[:n]:
        c = draw(st.integers(0, 3))
        if c == 0 and side:
            key.append(draw(st.integers(-side, side - 1)))
        elif c == 1 and newaxis:  # __setitem__'s key has no None
            key.append(None)
            key.append(slice(None))
        else:
            # in-bounds starts and stops (clipping is not required)
            start = draw(st.none() | st.integers(-side, side - 1)) if side else None
            stop = draw(st.none() | st.integers(-side, side))
            step = draw(st.none() | st.sampled_from([1, 2, 3, -1, -2]))
            key.append(slice(start, stop, step))
    # The standard specifies a tuple index only when it covers every axis or
    # holds an ellipsis (x[0] on a 2-d array is x[0, ...]; x[(0,)] may differ).
    if use_ellipsis or n < len(dims):
        key.insert(len(key) if n < len(dims) or draw(st.booleans()) else 0, Ellipsis)
    return key[0] if len(key) == 1 and draw(st.booleans()) else tuple(key)


@_feature("basic", "Array.__getitem__", opts=Options(EXACT, True))
def _getitem(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, max_side=5)))
    return Call("Array.__getitem__", (Arr(x), _index_key(draw, tuple(x.shape))))


@_feature("boolean-mask", "Array.__getitem__", opts=Options(EXACT, True))
def _getitem_mask(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    k = draw(st.integers(1, x.ndim))
    m = draw(arr(ctx, "bool", tuple(x.shape[:k])))
    return Call("Array.__getitem__", (Arr(x), Arr(m, "mask")))


@_feature("integer-array", "Array.__getitem__", opts=Options(EXACT, True), versions=V24)
def _getitem_int(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    n = x.shape[0]
    i = draw(
        ctx.xps.arrays(
            ctx.refmod.int64,
            draw(shapes(ctx, max_dims=2)),
            elements=st.integers(-n, n - 1),
        )
    )
    # integer arrays combine with integers only, one index per axis
    rest = tuple(draw(st.integers(-d, d - 1)) for d in x.shape[1:])
    return Call("Array.__getitem__", (Arr(x), (Arr(i, "i"), *rest)))


def _setitem_value(draw, ctx, dt, shape):
    if draw(st.booleans()):
        return draw(_scalar_for(dt, "finite"))
    vshape = draw(st.sampled_from([shape, shape[1:], ()]))
    return Arr(draw(arr(ctx, dt, vshape)), "v")


@_feature("basic", "Array.__setitem__", opts=Options(EXACT, True), result_arg=0)
def _setitem(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, max_side=5)))
    key = _index_key(draw, tuple(x.shape), newaxis=False)
    view = np.empty(tuple(x.shape), dtype=bool)[key]
    value = _setitem_value(draw, ctx, dt, view.shape)
    return Call("Array.__setitem__", (Arr(x), key, value), mutates=(0,))


@_feature("boolean-mask", "Array.__setitem__", opts=Options(EXACT, True), result_arg=0)
def _setitem_mask(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    m = draw(arr(ctx, "bool", tuple(x.shape)))
    value = draw(_scalar_for(dt, "finite"))
    return Call("Array.__setitem__", (Arr(x), Arr(m, "mask"), value), mutates=(0,))


_CONVERSIONS = {
    "__bool__": "any",
    "__int__": "integer or boolean",
    "__index__": "integral",
    "__float__": "real numeric",
    "__complex__": "numeric",
}
for _m, _k in _CONVERSIONS.items():

    def _conv(method):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(arr(ctx, dt, (), "special" if dt.startswith("float") else "full"))
            return Call(f"Array.{method}", (Arr(x),))

        return b

    _add(
        f"Array.{_m}",
        Feature("0-d", _k, _conv(_m), Options(EXACT, True)),
    )


@_feature("device", "Array.to_device", opts=Options(EXACT, True))
def _to_device(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("Array.to_device", (Arr(x), DEV))


def _compare_dlpack_device(ref_out, tgt_out, call, ctx):
    ok = (
        isinstance(tgt_out, tuple)
        and len(tgt_out) == 2
        and all(isinstance(int(v), int) for v in tgt_out)
        and 1 <= int(tgt_out[0]) <= 17
    )
    return [] if ok else [Finding("value", f"returned {tgt_out!r}")]


@_feature("tuple", "Array.__dlpack_device__", compare=_compare_dlpack_device)
def _dlpack_device(draw, ctx, dt):
    return Call("Array.__dlpack_device__", (Arr(draw(arr(ctx, dt, shapes(ctx)))),))


def _compare_capsule(ref_out, tgt_out, call, ctx):
    name = type(tgt_out).__name__
    if name != "PyCapsule":
        return [Finding("value", f"returned a {name}, expected a DLPack capsule")]
    return []


@_feature("capsule", "Array.__dlpack__", compare=_compare_capsule)
def _dlpack(draw, ctx, dt):
    return Call("Array.__dlpack__", (Arr(draw(arr(ctx, dt, shapes(ctx)))),))


class _Capsule:
    """Hands a capsule already made to ``np.from_dlpack``."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


def _dlpack_shares(out, args, kwargs):
    # __dlpack__(copy=True) must export a copy; copy=False the array's memory
    x = args[0]
    mine = _host_view(x)
    try:
        theirs = np.from_dlpack(_Capsule(out, x.__dlpack_device__()))
    except Exception:
        return []  # not a capsule NumPy can read (another device): unchecked
    if mine is None:
        return []
    shares = np.shares_memory(mine, theirs)
    if kwargs.get("copy") is True and shares:
        return [Finding("value", "x.__dlpack__(copy=True) exported x's own memory")]
    if kwargs.get("copy") is False and not shares:
        return [Finding("value", "x.__dlpack__(copy=False) exported a copy")]
    return []


@_feature(
    "copy",
    "Array.__dlpack__",
    compare=_compare_capsule,
    identity=_dlpack_shares,
    versions=("2023.12", *V24),
)
def _dlpack_copy(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    return Call("Array.__dlpack__", (Arr(x),), {"copy": draw(st.booleans())})


def _compare_namespace(ref_out, tgt_out, call, ctx):
    missing = [
        n
        for n in ("asarray", "__array_namespace_info__", "add")
        if not hasattr(tgt_out, n)
    ]
    if missing:
        return [Finding("value", f"returned {tgt_out!r}, which has no {missing[0]}")]
    return []


@_feature("namespace", "Array.__array_namespace__", compare=_compare_namespace)
def _array_namespace(draw, ctx, dt):
    return Call("Array.__array_namespace__", (Arr(draw(arr(ctx, dt, ()))),))


# --- eigenvalues of general matrices (2025.12) ---------------------------------------------


def _eig_compare(vectors):
    def compare(ref_out, tgt_out, call, ctx):
        outs = _outs(tgt_out, 2) if vectors else [tgt_out]
        if outs is None:
            return [Finding("value", f"returned {describe(tgt_out)}, expected (w, v)")]
        refs = list(ref_out) if vectors else [ref_out]
        found = _meta(refs, outs, ctx)
        if found:
            return found
        x = call.args[0].numpy().astype(np.complex128)
        w = to_numpy(outs[0]).astype(np.complex128)
        rw = to_numpy(refs[0]).astype(np.complex128)
        eps = float(
            np.finfo(
                np.float32
                if call.args[0].dtype_name in ("float32", "complex64")
                else np.float64
            ).eps
        )
        scale = float(np.abs(x).max()) * max(x.shape[-1], 1) + 1.0
        tol = scale * eps**0.5 * 4
        d = np.abs(w[..., :, None] - rw[..., None, :])
        if w.size and (d.min(-1).max() > tol or d.min(-2).max() > tol):
            return [Finding("value", "eigenvalues differ from the reference's")]
        if vectors:
            v = to_numpy(outs[1]).astype(np.complex128)
            resid = np.abs(x @ v - v * w[..., None, :]).max() if v.size else 0.0
            if resid > tol:
                return [Finding("value", f"x @ v != v * w (residual {resid:.3g})")]
        return []

    return compare


for _n, _vec in (("linalg.eig", True), ("linalg.eigvals", False)):
    _lin(
        _n,
        (lambda name: lambda draw, ctx, dt: Call(name, (Arr(_matrix(draw, ctx, dt)),)))(
            _n
        ),
        compare=_eig_compare(_vec),
        versions=V25,
    )
_add("fft.irfftn", *_fft("fft.irfftn", "complex floating", nd=True, hermitian_out=True))


# --- array-api-tests ids -----------------------------------------------------------------

_AAT_FILES = {
    "linalg.": "test_linalg.py",
    "fft.": "test_fft.py",
}
_AAT_SECTION = {
    "creation": (
        "arange",
        "asarray",
        "empty",
        "empty_like",
        "eye",
        "from_dlpack",
        "full",
        "full_like",
        "linspace",
        "meshgrid",
        "ones",
        "ones_like",
        "tril",
        "triu",
        "zeros",
        "zeros_like",
    ),
    "manipulation": (
        "broadcast_arrays",
        "broadcast_to",
        "concat",
        "expand_dims",
        "flip",
        "moveaxis",
        "permute_dims",
        "repeat",
        "reshape",
        "roll",
        "squeeze",
        "stack",
        "tile",
        "unstack",
    ),
    "searching": (
        "argmax",
        "argmin",
        "count_nonzero",
        "nonzero",
        "searchsorted",
        "where",
    ),
    "sorting": ("argsort", "sort"),
    "set": ("unique_all", "unique_counts", "unique_inverse", "unique_values", "isin"),
    "statistical": (
        "cumulative_sum",
        "cumulative_prod",
        "max",
        "mean",
        "min",
        "prod",
        "std",
        "sum",
        "var",
    ),
    "utility": ("all", "any", "diff"),
    "data_type": ("astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"),
    "indexing": ("take", "take_along_axis"),
}


def aat_test_id(name: str, kind: str) -> str | None:
    """Best-effort array-api-tests test id covering a standard name."""
    for prefix, f in _AAT_FILES.items():
        if name.startswith(prefix):
            return f"array_api_tests/{f}::test_{name[len(prefix) :]}"
    if name.startswith("Array.") or kind in ("operator", "attribute"):
        op = name.split(".", 1)[1]
        fn = OPERATORS.get(op) or OPERATORS.get(
            "__" + op[3:] if op.startswith(("__r", "__i")) else op
        )
        if fn:
            return f"array_api_tests/test_operators_and_elementwise_functions.py::test_{fn}"
        return f"array_api_tests/test_array_object.py::test_{op.strip('_')}"
    if name in UNARY or name in BINARY or name == "clip":
        return (
            f"array_api_tests/test_operators_and_elementwise_functions.py::test_{name}"
        )
    for section, names in _AAT_SECTION.items():
        if name in names:
            return f"array_api_tests/test_{section}_functions.py::test_{name}"
    if name in ("matmul", "matrix_transpose", "tensordot", "vecdot"):
        return f"array_api_tests/test_linalg.py::test_{name}"
    if kind in ("constant", "dtype"):
        return f"array_api_tests/test_has_names.py::test_has_names[{name}]"
    return None
