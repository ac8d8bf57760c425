"""Utility functions: all, any, diff."""

from __future__ import annotations

from hypothesis import strategies as st

from ..calls import Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import EXACT, V24, _add, arr, shapes
from .statistical_functions import _reduction

_add("all", *_reduction("all", "any", EXACT))
_add("any", *_reduction("any", "any", EXACT))


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
