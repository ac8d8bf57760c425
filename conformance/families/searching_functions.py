"""Searching functions."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from ..calls import Arr, Call
from ..registry import Feature
from ._base import (
    EXACT,
    V24,
    _add,
    _feature,
    _mbs,
    _scalar_for,
    arr,
    from_numpy,
    shapes,
)
from .statistical_functions import _reduction

_add(
    "count_nonzero",
    *[
        Feature(f.name, f.dtypes, f.build, f.opts, versions=V24)
        for f in _reduction("count_nonzero", "any", EXACT)
    ],
)
_add("argmax", *_reduction("argmax", "real numeric", EXACT, min_side=1, tuples=False))
_add("argmin", *_reduction("argmin", "real numeric", EXACT, min_side=1, tuples=False))


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
