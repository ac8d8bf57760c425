"""Data type functions."""

from __future__ import annotations

import math

from ..calls import DT, Arr, Call
from ..checks import Finding
from ..registry import Feature
from ._base import KINDS, V24, _add, _promotes, arr, shapes
from ._st import st


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
        msg = "astype(x, x.dtype, copy=False) returned a copy"
        return [Finding("value", msg, show=("{expr} is {x}", "False", "True"))]
    if kwargs.get("copy") is True and same:
        msg = "astype(x, x.dtype, copy=True) returned x itself"
        return [Finding("value", msg, show=("{expr} is {x}", "True", "False"))]
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
    # Only pairs the standard's promotion table covers: "Type promotion of
    # non-numerical data types to numerical data types is unspecified (e.g.,
    # bool to intxx or floatxx)" and "Mixed integer and floating-point type
    # promotion rules are not specified" (type_promotion.md), so result_type
    # of such a pair, and can_cast ("True if the cast can occur according to
    # type promotion rules"), are left to the library.
    def table(ctx):
        return [
            Call(name, (cls(a), cls(b)))
            for a in KINDS["any"]
            for b in KINDS["any"]
            if _promotes(ctx, a, b)
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


_add(
    "can_cast",
    Feature("dtypes", "none", lambda ctx, _: None, table=_all_pairs("can_cast")),
)
_ISDTYPE_KINDS = (
    "bool",
    "signed integer",
    "unsigned integer",
    "integral",
    "real floating",
    "complex floating",
    "numeric",
    ("integral", "real floating"),
    ("bool", "complex floating"),
)


def _isdtype_table(ctx):
    # every dtype against every kind, a dtype itself, and tuples of kinds
    calls = [Call("isdtype", (DT(d), k)) for d in KINDS["any"] for k in _ISDTYPE_KINDS]
    calls += [
        Call("isdtype", (DT(d), DT(e)))
        for d in KINDS["any"]
        for e in ("int32", "float64")
    ]
    return calls


_add(
    "isdtype",
    Feature("kinds", "none", lambda ctx, _: None, table=_isdtype_table),
)


def _scalar_table(ctx):
    """result_type with Python scalars (2024.12): a scalar takes the array's
    or dtype's kind where it fits (bool with bool, int with any numeric, float
    with floating, complex with complex)."""
    calls = []
    for d in KINDS["any"]:
        fits = [True] if d == "bool" else []
        if d in KINDS["numeric"]:
            fits.append(3)
        if d in KINDS["floating"]:
            fits.append(1.5)
        if d in KINDS["complex floating"]:
            fits.append(1j)
        for v in fits:
            calls.append(Call("result_type", (DT(d), v)))
            calls.append(Call("result_type", (v, DT(d))))
    return calls


def _arrays_table(ctx):
    # arrays as arguments, and three at once
    ref = ctx.refmod
    calls = []
    for a, b, c in (
        ("int8", "uint8", "int16"),
        ("float32", "int8", "float32"),
        ("uint16", "int32", "int64"),
        ("complex64", "float64", "float32"),
    ):
        if not (_promotes(ctx, a, b) and _promotes(ctx, b, c) and _promotes(ctx, a, c)):
            continue
        x = Arr(ref.ones((1,), dtype=getattr(ref, a)), "x")
        calls.append(Call("result_type", (x, DT(b))))
        calls.append(Call("result_type", (DT(a), DT(b), DT(c))))
    return calls


_add(
    "result_type",
    Feature(
        "python-scalars",
        "none",
        lambda ctx, _: None,
        compare=compare_dtype_result,
        table=_scalar_table,
        versions=V24,
    ),
    Feature(
        "arrays,three",
        "none",
        lambda ctx, _: None,
        compare=compare_dtype_result,
        table=_arrays_table,
    ),
)


def _can_cast_arrays(ctx):
    ref = ctx.refmod
    return [
        Call("can_cast", (Arr(ref.ones((1,), dtype=getattr(ref, a)), "x"), DT(b)))
        for a in KINDS["any"]
        for b in ("int64", "float32", "bool", "uint8", "complex128")
        if _promotes(ctx, a, b)  # mixed kinds are unspecified, see _all_pairs
    ]


_add(
    "can_cast",
    Feature("array", "none", lambda ctx, _: None, table=_can_cast_arrays),
)


@st.composite
def _astype_bool(draw, ctx, dt):
    # to bool: zero is False, anything else (NaN too) True; from bool: 0 and 1
    if dt == "bool":
        x = draw(arr(ctx, "bool", shapes(ctx)))
        return Call("astype", (Arr(x), DT(draw(st.sampled_from(KINDS["numeric"])))))
    x = draw(arr(ctx, dt, shapes(ctx), "special"))
    return Call("astype", (Arr(x), DT("bool")))


_add("astype", Feature("bool", ("bool", *KINDS["real numeric"]), _astype_bool))


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
    Feature(
        "array",
        "floating",
        lambda ctx, dt: arr(ctx, dt, shapes(ctx, max_dims=1)).map(
            lambda x: Call("finfo", (Arr(x),))
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
    Feature(
        "array",
        "integral",
        lambda ctx, dt: arr(ctx, dt, shapes(ctx, max_dims=1)).map(
            lambda x: Call("iinfo", (Arr(x),))
        ),
        compare=compare_info(("bits", "max", "min", "dtype")),
    ),
)
