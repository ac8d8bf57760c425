"""Data type functions."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from ..calls import DT, Arr, Call
from ..checks import Finding
from ..registry import Feature
from ._base import KINDS, _add, _promotes, arr, shapes


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
