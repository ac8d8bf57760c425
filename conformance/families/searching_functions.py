"""Searching functions."""

from __future__ import annotations

import numpy as np

from ..calls import Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import (
    EXACT,
    KINDS,
    V24,
    V25,
    _add,
    _feature,
    _mbs,
    _promotes,
    _scalar_for,
    arr,
    fixed,
    from_numpy,
    pool,
    shapes,
)
from ._st import st
from .elementwise_functions import EDGE_SHAPES, INCOMPATIBLE
from .statistical_functions import _reduction

_add(
    "count_nonzero",
    *_reduction("count_nonzero", "any", EXACT, special="special", versions=V24),
)
for _n in ("argmax", "argmin"):
    _add(
        _n,
        *_reduction(
            _n,
            "real numeric",
            EXACT,
            min_side=1,
            tuples=False,
            special="order-special",
            empty="axes",
        ),
    )


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


@st.composite
def _searchsorted_special(draw, ctx, dt):
    # infinities and the dtype's extremes (the order of NaN and signed zeros
    # is left to the implementation); an empty x1 too
    vals = pool(dt, "order-special")
    n = draw(st.integers(0, 5))
    x1 = np.sort(np.asarray([draw(st.sampled_from(vals)) for _ in range(n)], dtype=dt))
    m = draw(st.integers(0, 4))
    x2 = np.asarray([draw(st.sampled_from(vals)) for _ in range(m)], dtype=dt)
    kw = {"side": draw(st.sampled_from(["left", "right"]))}
    return Call(
        "searchsorted",
        (Arr(from_numpy(ctx, x1, dt), "x1"), Arr(from_numpy(ctx, x2, dt), "x2")),
        kw,
    )


@st.composite
def _searchsorted_scalar(draw, ctx, dt):
    x1 = draw(arr(ctx, dt, shapes(ctx, 1, 1), "unit"))
    x1 = from_numpy(ctx, np.sort(np.asarray(x1)), dt)
    v = draw(_scalar_for(dt, "unit"))
    kw = {"side": draw(st.sampled_from(["left", "right"]))}
    return Call("searchsorted", (Arr(x1, "x1"), v), kw)


_add(
    "searchsorted",
    Feature("special-values", "real numeric", _searchsorted_special),
    Feature("python-scalar", "real numeric", _searchsorted_scalar, versions=V25),
)


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


@st.composite
def _where_mixed(draw, ctx, pair):
    # x1 and x2 of different dtypes: the result's is their promotion
    d1, d2 = draw(st.sampled_from(pair))
    s1, s2, s3 = draw(_mbs(ctx, 3, max_side=3)).input_shapes
    c = draw(arr(ctx, "bool", s1))
    return Call(
        "where",
        (
            Arr(c, "condition"),
            Arr(draw(arr(ctx, d1, s2)), "x1"),
            Arr(draw(arr(ctx, d2, s3)), "x2"),
        ),
    )


def _where_table(ctx):
    ref = ctx.refmod
    calls = []
    for d1 in KINDS["numeric"]:
        for d2 in KINDS["numeric"]:
            if d1 == d2 or not _promotes(ctx, d1, d2):
                continue
            c = ref.asarray([True, False])
            x1 = ref.ones((2,), dtype=getattr(ref, d1))
            x2 = ref.zeros((2,), dtype=getattr(ref, d2))
            calls.append(
                Call("where", (Arr(c, "condition"), Arr(x1, "x1"), Arr(x2, "x2")))
            )
    return calls


def _where_edges(ctx, dt):
    calls = []
    for i, (s1, s2) in enumerate(EDGE_SHAPES):
        c = Arr(fixed(ctx, "bool", s1, seed=i), "condition")
        x1 = Arr(fixed(ctx, dt, s2, seed=i), "x1")
        x2 = Arr(fixed(ctx, dt, s1[::-1], seed=i + 1), "x2")
        calls.append(Call("where", (c, x1, x2)))
    return calls


def _where_bad(ctx, dt):
    calls = []
    for i, (s1, s2) in enumerate(INCOMPATIBLE):
        c = Arr(fixed(ctx, "bool", s1, seed=i), "condition")
        calls.append(
            Call(
                "where",
                (c, Arr(fixed(ctx, dt, s2), "x1"), Arr(fixed(ctx, dt, s2), "x2")),
            )
        )
    return calls


_add(
    "where",
    Feature("promotion", "mixed:numeric", _where_mixed),
    Feature(
        "promotion-table",
        "none",
        lambda ctx, _: None,
        Options(check_values=False),
        table=_where_table,
    ),
    Feature(
        "broadcasting",
        ("float64",),
        lambda ctx, dt: None,
        table=_where_edges,
        classes=("broadcasting edges",),
    ),
    Feature(
        "incompatible-shapes",
        ("float64",),
        lambda ctx, dt: None,
        table=_where_bad,
        expect_raise=True,
    ),
)


@_feature("default", "nonzero", capability="data-dependent shapes")
def _nonzero(draw, ctx, dt):
    return Call("nonzero", (Arr(draw(arr(ctx, dt, shapes(ctx, min_dims=1), "unit"))),))


@_feature("special-values", "nonzero", capability="data-dependent shapes")
def _nonzero_special(draw, ctx, dt):
    # NaN is nonzero, -0.0 is zero
    return Call(
        "nonzero", (Arr(draw(arr(ctx, dt, shapes(ctx, min_dims=1), "special"))),)
    )


def _nonzero_0d(ctx, dt):
    return [Call("nonzero", (Arr(fixed(ctx, dt, ())),))]


# "If x is zero-dimensional, the function must raise an exception"
_add(
    "nonzero",
    Feature(
        "zero-dimensional",
        ("float64", "bool"),
        lambda ctx, dt: None,
        table=_nonzero_0d,
        expect_raise=True,
    ),
)
