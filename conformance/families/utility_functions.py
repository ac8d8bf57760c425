"""Utility functions: all, any, diff."""

from __future__ import annotations

from ..calls import Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import EXACT, V24, _add, arr, fixed, shapes
from ._st import st
from .statistical_functions import _reduction

_add("all", *_reduction("all", "any", EXACT, special="special"))
_add("any", *_reduction("any", "any", EXACT, special="special"))


def _diff_build(elem):
    @st.composite
    def b(draw, ctx, dt):
        x = draw(arr(ctx, dt, shapes(ctx, min_dims=1), elem))
        kw = {"axis": draw(st.integers(-x.ndim, x.ndim - 1))}
        # up to the axis' length (beyond it the result's shape is not defined)
        kw["n"] = draw(st.integers(0, min(x.shape[kw["axis"]], 3)))
        return Call("diff", (Arr(x),), kw)

    return b


def _diff_invalid(ctx, dt):
    x = fixed(ctx, dt, (2, 3))
    return [Call("diff", (Arr(x),), {"axis": a}) for a in (2, -3)]


_add(
    "diff",
    Feature("n,axis", "numeric", _diff_build("finite"), Options(EXACT), versions=V24),
    Feature(
        "special-values",
        "real floating",
        _diff_build("special"),
        Options(("rel", 4)),
        versions=V24,
    ),
    Feature(
        "invalid-axis",
        ("float64",),
        lambda ctx, dt: None,
        table=_diff_invalid,
        expect_raise=True,
    ),
)


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
