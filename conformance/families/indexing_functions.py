"""Indexing functions: take, take_along_axis."""

from __future__ import annotations

import math

import numpy as np

from ..calls import Arr, Call
from ._base import V24, _add, _feature, arr, from_numpy, invalid_axis, shapes
from ._st import st


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
    # negative indices count from the last element (the same sentence as take's)
    idx = draw(
        st.lists(
            st.integers(-x.shape[axis], x.shape[axis] - 1),
            min_size=math.prod(s),
            max_size=math.prod(s),
        )
    )
    idx = from_numpy(ctx, np.asarray(idx, dtype=np.int64).reshape(s), "int64")
    return Call("take_along_axis", (Arr(x), Arr(idx, "indices")), {"axis": axis})


# 2024.12 and later: "If an index is negative, the function must determine the
# element to select along a specified axis (dimension) by counting from the last
# element (where -1 refers to the last element)" (2024.12: "Clarified support
# for negative indices").
@_feature("negative-indices", "take", versions=V24)
def _take_negative(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    axis = draw(st.integers(-x.ndim, x.ndim - 1))
    n = x.shape[axis]
    idx = draw(st.lists(st.integers(-n, n - 1), max_size=5))
    idx = from_numpy(ctx, np.asarray(idx, dtype=np.int64), "int64")
    kw = {"axis": axis} if x.ndim > 1 or draw(st.booleans()) else {}
    return Call("take", (Arr(x), Arr(idx, "indices")), kw)


@_feature("default-axis", "take_along_axis", versions=V24)
def _take_along_default(draw, ctx, dt):
    # axis defaults to -1
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    s = list(x.shape)
    s[-1] = draw(st.integers(0, 4))
    n = math.prod(s)
    m = x.shape[-1]
    idx = draw(st.lists(st.integers(-m, m - 1), min_size=n, max_size=n))
    idx = from_numpy(ctx, np.asarray(idx, dtype=np.int64).reshape(s), "int64")
    return Call("take_along_axis", (Arr(x), Arr(idx, "indices")))


def _take_along_bad(x, a):
    i = Arr(
        x.value.__array_namespace__().zeros(
            (2, 1), dtype=x.value.__array_namespace__().int64
        ),
        "indices",
    )
    return Call("take_along_axis", (x, i), {"axis": a})


_add("take_along_axis", invalid_axis("take_along_axis", _take_along_bad))
