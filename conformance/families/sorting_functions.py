"""Sorting functions."""

from __future__ import annotations

from hypothesis import strategies as st

from ..calls import Arr, Call
from ..registry import Feature
from ._base import _add, arr, shapes


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
