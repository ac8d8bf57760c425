"""Elementwise functions: values, special cases, promotion, Python scalars."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from ..calls import Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import (
    EXACT,
    KINDS,
    ULP,
    V24,
    _add,
    _mbs,
    _promotes,
    _scalar_for,
    arr,
    dtypes_of,
    fixed,
    from_numpy,
    int_extremes,
    pool,
    shapes,
    specials,
)
from ._st import st


# Correctly rounded (accuracy.md: "+ - * / ... for real-valued floating-point
# operands must return a correctly rounded value"; "reciprocal, sqrt ... must
# return a correctly rounded value"): 0 ULP for real dtypes.  "This
# specification does not specify accuracy requirements for arithmetic or
# functional operations involving complex-valued floating-point operands": the
# complex tolerance (second number) stays.  Flushed subnormals are allowed
# apart (runner._flush_tolerated).
def _cr(complex_ulp: int) -> tuple:
    return ("ulp", 0, complex_ulp)


# accuracy.md: "This specification does not precisely define the behavior of
# the following functions ... except to require specific results for certain
# argument values that represent boundary cases of interest"; "these functions
# should compute approximations": off beyond the tolerance at inputs that are
# no special case, they get an "accuracy" advisory (Options.approximate).
APPROXIMATE = frozenset(
    {
        "acos",
        "acosh",
        "asin",
        "asinh",
        "atan",
        "atan2",
        "atanh",
        "cos",
        "cosh",
        "exp",
        "expm1",
        "hypot",
        "log",
        "log1p",
        "log2",
        "log10",
        "logaddexp",
        "pow",
        "sin",
        "sinh",
        "tan",
        "tanh",
    }
)


def _approximate(name: str, feats: list[Feature]) -> list[Feature]:
    """``feats`` with inaccuracy an advisory, for the functions of APPROXIMATE."""
    if name not in APPROXIMATE:
        return feats
    for f in feats:
        f.opts = dataclasses.replace(f.opts, approximate=True)
    return feats


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
    "reciprocal": ("floating", _cr(1)),
    "round": ("numeric", EXACT),
    "sign": ("numeric", ("ulp", 2)),  # complex sign is x / |x|: rounding
    "signbit": ("real floating", EXACT),
    "sin": ("floating", ULP),
    "sinh": ("floating", ULP),
    "sqrt": ("floating", _cr(4)),
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
    "divide": ("floating", _cr(2), "finite", "finite"),
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
    "multiply": ("numeric", _cr(2), "finite", "finite"),
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
# Not maximum and minimum: "the order of signed zeros is unspecified and thus
# implementation-defined", either zero may be returned (on the special-value
# grid too).
ZERO_ORDER_FREE = frozenset({"maximum", "minimum"})
SIGNED_ZERO |= {
    "add",
    "subtract",
    "multiply",
    "divide",
    "copysign",
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
        calls = [Call(call_name, (Arr(x, names[0]),))]
        # each special value as a 0-d array too: libraries take other paths
        # for 0-d arrays (scalar fast paths), and the special cases hold there
        if dt in KINDS["real floating"]:
            calls += [
                Call(call_name, (Arr(from_numpy(ctx, np.asarray(v), dt), names[0]),))
                for v in specials(dt)
            ]
        return calls

    def every_value(ctx, dt):
        # the whole fixed pool once, negative values included, before drawing
        host = np.asarray(pool(dt, "finite"), dtype=_NP_DT.get(dt, dt))
        return [Call(call_name, (Arr(from_numpy(ctx, host, dt), names[0]),))]

    feats = [
        Feature(
            "default",
            kind,
            build("finite"),
            Options(tol, sz, accept=complex_overflow),
            elementwise=True,
            explicit=every_value,
        )
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
    ints = tuple(d for d in dtypes_of(kind) if d in KINDS["integral"])
    if ints and name in EXTREMES_OK:

        def ext_grid(ctx, dt):
            x = from_numpy(ctx, np.asarray(int_extremes(dt), dtype=dt), dt)
            return [Call(call_name, (Arr(x, names[0]),))]

        feats.append(
            Feature(
                "dtype-extremes",
                ints,
                build("special"),
                Options(EXACT),
                elementwise=True,
                explicit=ext_grid,
            )
        )
    return _approximate(name, feats)


# Functions whose results at an integer dtype's extremes the standard fixes
# (no overflow: abs and negative of the minimum, sums and products are
# implementation-defined there).
EXTREMES_OK = {
    "bitwise_invert",
    "positive",
    "sign",
    "floor",
    "ceil",
    "trunc",
    "round",
    "isfinite",
    "isinf",
    "isnan",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "bitwise_right_shift",
    "equal",
    "not_equal",
    "greater",
    "greater_equal",
    "less",
    "less_equal",
    "maximum",
    "minimum",
}
# Broadcasting a 0-length dimension against a 1-length one (and the
# scalar-like ()), the shapes the drawn ones rarely reach.
EDGE_SHAPES = (
    ((0,), (1,)),
    ((1,), (0,)),
    ((0,), ()),
    ((2, 0), (2, 1)),
    ((2, 1), (1, 0)),
    ((0, 1), (1, 3)),
    ((1, 0, 2), (3, 1, 1)),
    ((0,), (0,)),
    ((3, 1), (1, 4)),
)
# shapes that do not broadcast: the standard's broadcasting raises
INCOMPATIBLE = (
    ((2,), (3,)),
    ((2, 3), (3, 2)),
    ((0,), (2,)),
    ((2, 1, 3), (4, 3)),
)


def one_dtype(kind: Any) -> tuple[str, ...]:
    """A single dtype of ``kind`` for features whose dtype does not matter."""
    names = dtypes_of(kind)
    for d in ("float64", "int64", "bool"):
        if d in names:
            return (d,)
    return names[:1]


def broadcast_features(
    call_name: str,
    kind: Any,
    tol: tuple,
    nargs: int = 2,
    names=("x1", "x2"),
    el=("finite", "finite"),
):
    """Broadcasting edges (a 0-length against a 1-length dimension) and
    incompatible shapes (which must raise), on one dtype."""

    def arrays(ctx, dt, shapes_, seed):
        return tuple(
            Arr(fixed(ctx, dt, s, el[i], seed + i), names[i])
            for i, s in enumerate(shapes_)
        )

    @st.composite
    def drawn(draw, ctx, dt):
        shp = draw(_mbs(ctx, nargs, max_side=3, min_side=0)).input_shapes
        xs = tuple(
            Arr(draw(arr(ctx, dt, s, el[i])), names[i]) for i, s in enumerate(shp)
        )
        return Call(call_name, xs)

    def edges(ctx, dt):
        return [
            Call(call_name, arrays(ctx, dt, pair, i))
            for i, pair in enumerate(EDGE_SHAPES)
        ]

    def bad(ctx, dt):
        return [
            Call(call_name, arrays(ctx, dt, pair, i))
            for i, pair in enumerate(INCOMPATIBLE)
        ]

    one = one_dtype(kind)
    return [
        Feature(
            "broadcasting",
            one,
            drawn,
            Options(tol, name_signed(call_name)),
            explicit=edges,
            classes=("broadcasting edges",),
        ),
        Feature(
            "incompatible-shapes",
            one,
            lambda ctx, dt: None,
            table=bad,
            expect_raise=True,
        ),
    ]


def name_signed(call_name: str) -> bool:
    return call_name.split(".")[-1] in SIGNED_ZERO


_NP_DT = {"bool": np.bool_}
# The Python scalars of the python-scalar special cases: the special values
# every float dtype holds exactly.
SCALAR_SPECIALS = (0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5, -0.5)
SCALAR_SPECIALS += (2.0, -2.0, 3.0, -3.0)
# ... and the functions that take them only as x2, as the drawn calls do
_ARRAY_FIRST = frozenset({"bitwise_left_shift", "bitwise_right_shift", "pow"})


def _binary_features(
    name: str, call_name: str, kind: str, tol, e1, e2, *, operator=None
):
    """Features of a binary elementwise function or operator.

    ``operator`` is None for the function, else "plain", "reflected" or
    "in-place".
    """
    sz = name in SIGNED_ZERO
    n1, n2 = ("x1", "x2") if operator is None else ("x", "other")
    # results the standard leaves open, besides the reference's
    acc = _pow_complex_zero_base if name == "pow" else complex_overflow
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

    def changes_x():
        # x op= y where promotion or broadcasting would change x's dtype or
        # shape: the target must raise or keep them (the reference raises)
        @st.composite
        def b(draw, ctx, pairs):
            ref = ctx.refmod
            wider = [
                (a, c)
                for a, c in pairs
                if ref.result_type(getattr(ref, a), getattr(ref, c)) != getattr(ref, a)
            ]
            if wider and draw(st.booleans()):
                d1, d2 = draw(st.sampled_from(wider))
                s1 = draw(shapes(ctx))
                s2 = draw(st.sampled_from([s1, s1[1:], ()]))
            else:
                d1 = d2 = draw(st.sampled_from(sorted({a for a, _ in pairs})))
                s2 = draw(shapes(ctx, min_dims=1, min_side=1, max_side=3))
                wide = [i for i, n in enumerate(s2) if n > 1]
                if wide and draw(st.booleans()):  # a 1 that y stretches
                    i = draw(st.sampled_from(wide))
                    s1 = (*s2[:i], 1, *s2[i + 1 :])
                    s1 = s1[draw(st.integers(0, i)) :]
                else:  # y has more dimensions
                    s1 = s2[draw(st.integers(1, len(s2))) :]
            x1 = draw(arr(ctx, d1, s1, e1))
            x2 = draw(arr(ctx, d2, s2, e2))
            return Call(call_name, (Arr(x1, n1), Arr(x2, n2)), mutates=(0,))

        return lambda ctx, pairs: b(ctx, pairs)

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
        calls = [
            Call(call_name, (Arr(x1, n1), Arr(x2, n2)), mutates=(0,) if inplace else ())
        ]
        if operator is None and dt in KINDS["real floating"]:
            # a 0-d operand against every special value (scalar fast paths)
            whole = from_numpy(ctx, sp, dt)
            for v in sp:
                zero_d = from_numpy(ctx, np.asarray(v), dt)
                calls.append(Call(call_name, (Arr(zero_d, n1), Arr(whole, n2))))
                calls.append(Call(call_name, (Arr(whole, n1), Arr(zero_d, n2))))
        return calls

    def scalar_grid(ctx, dt):
        # every special value as a Python scalar against the array of every
        # special value: a scalar is converted to x's dtype and the special
        # cases hold (x ** 0.5 at -0.0 must be +0, (-0.0) ** x must keep the
        # sign of the zero)
        whole = from_numpy(ctx, np.asarray(specials(dt)), dt)
        scalar_first = operator is None and name not in _ARRAY_FIRST
        calls = []
        for v in SCALAR_SPECIALS:
            calls.append(
                Call(
                    call_name,
                    (Arr(whole, n1), v),
                    mutates=(0,) if inplace else (),
                )
            )
            if scalar_first:
                calls.append(Call(call_name, (v, Arr(whole, n2))))
        return calls

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
    if inplace:  # compare what x op= y binds x to; updating x is advisory
        ew.update(inplace=True)
    if fl:
        feats.append(
            Feature(
                "python-scalar-special-cases",
                fl,
                lambda ctx, dt: None,
                Options(
                    tol,
                    name not in ZERO_ORDER_FREE,
                    "special-case",
                    accept=ALTERNATIVES.get(name),
                ),
                table=scalar_grid,
                versions=V24 if operator is None else ("2023.12", *V24),
                **{k: v for k, v in ew.items() if k != "elementwise"},
            )
        )
    if operator == "reflected":
        feats.append(
            Feature(
                "python-scalar",
                kind,
                scalar(e1),
                Options(
                    tol,
                    sz,
                    accept=_rpow_complex_zero if name == "pow" else complex_overflow,
                ),
                **ew,
            )
        )
        return _approximate(name, feats)
    if inplace and name == "divide":
        kind = "floating"
    feats.append(
        Feature(
            "default",
            kind,
            same(e1, e2),
            Options(tol, sz, accept=acc),
            **ew,
        )
    )
    if fl:
        feats.append(
            Feature(
                "special-cases",
                fl,
                same("special", "special"),
                Options(
                    tol,
                    name not in ZERO_ORDER_FREE,
                    "special-case",
                    accept=ALTERNATIVES.get(name),
                ),
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
            Feature(
                "promotion",
                "mixed:" + kind,
                mixed(),
                Options(tol, sz, accept=acc),
                **ew,
            )
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
    if inplace and kind not in ("bool",):
        feats.append(
            Feature(
                "promotion-or-broadcast",
                "mixed:" + kind,
                changes_x(),
                Options(check_values=False),
                expect_raise=True,
                inplace=True,
                classes=("in-place promotion or broadcast",),
            )
        )
    versions = V24 if operator is None else ("2023.12", *V24)
    feats.append(
        Feature(
            "python-scalar",
            kind,
            scalar(e1),
            Options(tol, sz, accept=acc),
            versions=versions,
            **ew,
        )
    )
    ints = tuple(d for d in dtypes_of(kind) if d in KINDS["integral"])
    if ints and name in EXTREMES_OK and not inplace:
        e2x = "shift" if "shift" in name else "special"

        def ext_grid(ctx, dt):
            ex = np.asarray(int_extremes(dt), dtype=dt)
            x2v = ex if e2x == "special" else np.arange(np.iinfo(dt).bits, dtype=dt)
            x1 = from_numpy(ctx, np.repeat(ex, x2v.size), dt)
            x2 = from_numpy(ctx, np.tile(x2v, ex.size), dt)
            return [Call(call_name, (Arr(x1, n1), Arr(x2, n2)))]

        feats.append(
            Feature(
                "dtype-extremes",
                ints,
                same("special", e2x),
                Options(EXACT),
                explicit=ext_grid,
                **ew,
            )
        )
    if operator in (None, "plain"):
        el = (e1 if e1 != "nonzero" else "finite", e2)
        feats += broadcast_features(call_name, kind, tol, names=(n1, n2), el=el)
    return _approximate(name, feats)


def complex_overflow(inputs, ref, got):
    """A complex result that overflows from finite inputs: the standard fixes
    only its special cases, so where the reference's result has an infinite
    or NaN part, any result with one is an approximation it allows
    (``expm1(9009 + 0j)`` may be ``inf + nan j``)."""
    if ref.dtype.kind != "c":
        return np.zeros(ref.shape, dtype=bool)
    finite_in = np.ones(ref.shape, dtype=bool)
    for x in inputs:
        finite_in &= np.isfinite(x) if x.dtype.kind in "fc" else True
    bad_r = ~np.isfinite(ref.real) | ~np.isfinite(ref.imag)
    bad_g = ~np.isfinite(got.real) | ~np.isfinite(got.imag)
    return finite_in & bad_r & bad_g


def _pow_complex_zero_base(inputs, ref, got):
    """Complex ``pow`` "should" follow ``exp(x2 * log(x1))`` and may be more
    careful: at a zero base, where ``log`` is infinite, that gives NaN where a
    careful library gives 1 or 0, so the standard fixes no result there."""
    ok = complex_overflow(inputs, ref, got)
    if ref.dtype.kind == "c" and inputs:
        ok = ok | np.broadcast_to(inputs[0] == 0, ref.shape)
    return ok


def _rpow_complex_zero(inputs, ref, got):
    """``scalar ** x``: the one array is the exponent and the base is unseen, so
    a zero exponent (``0j ** 0j``) is left open as a zero base is."""
    return _pow_complex_zero_base(inputs, ref, got)


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


for _n, (_k, _t) in UNARY.items():
    _add(_n, *_unary_features(_n, _n, _k, _t))
for _n, (_k, _t, _e1, _e2) in BINARY.items():
    _add(_n, *_binary_features(_n, _n, _k, _t, _e1, _e2))


@st.composite
def _clip(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    bounds = []
    for _ in range(2):
        form = draw(st.sampled_from(["none", "scalar", "array"]))
        if form == "none" or (ctx.version == "2023.12" and form == "array"):
            bounds.append(None)
        elif form == "scalar":
            bounds.append(draw(_scalar_for(dt, "finite")))
        else:  # an array broadcasting against x (2023.12: scalars only)
            s = tuple(x.shape)[draw(st.integers(0, x.ndim)) :]
            bounds.append(Arr(draw(arr(ctx, dt, s)), "bound"))
    lo, hi = bounds
    # min > max is left to the implementation: keep min <= max
    if lo is not None and hi is not None:
        lo_v = lo.numpy() if isinstance(lo, Arr) else lo
        hi_v = hi.numpy() if isinstance(hi, Arr) else hi
        if np.any(np.asarray(lo_v) > np.asarray(hi_v)):
            lo, hi = None, hi
    return Call("clip", (Arr(x),), {"min": lo, "max": hi})


@st.composite
def _clip_special(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1), "special"))
    lo = draw(st.none() | _scalar_for(dt, "special"))  # NaN bounds: NaN
    hi = draw(st.none() | _scalar_for(dt, "special"))
    if lo is not None and hi is not None and lo > hi:
        lo, hi = hi, lo
    return Call("clip", (Arr(x),), {"min": lo, "max": hi})


_add(
    "clip",
    Feature("min,max", "real numeric", _clip, Options(EXACT)),
    Feature("special-values", "real numeric", _clip_special, Options(EXACT)),
)
