"""Indexing functions: take, take_along_axis."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from ..calls import Arr, Call
from ._base import V24, _feature, arr, from_numpy, shapes


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
