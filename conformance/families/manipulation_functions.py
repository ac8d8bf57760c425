"""Manipulation functions."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from ..calls import Arr, Call
from ._base import _axis_for, _feature, _mbs, arr, shapes


@_feature("shape", "reshape")
def _reshape(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    n = math.prod(x.shape)
    dims = [d for d in range(1, n + 1) if n % d == 0] if n else [0, 1, 2]
    a = draw(st.sampled_from(dims))
    shape = (a, n // a) if a else (0, draw(st.integers(0, 3)))
    if draw(st.booleans()):
        shape = (-1, shape[1]) if n else shape
    return Call("reshape", (Arr(x), shape))


@_feature("incompatible-shape", "reshape", expect_raise=True)
def _reshape_bad(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=2)))
    n = math.prod(x.shape)
    m = draw(st.integers(1, 2 * n + 3).filter(lambda m: m != n))
    return Call("reshape", (Arr(x), (m,)))


@_feature("axis", "flip")
def _flip(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("flip", (Arr(x),), {"axis": _axis_for(draw, x.ndim)})


@_feature("axes", "permute_dims")
def _permute(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("permute_dims", (Arr(x), tuple(draw(st.permutations(range(x.ndim))))))


@_feature("axes", "matrix_transpose")
def _mt(draw, ctx, dt):
    return Call("matrix_transpose", (Arr(draw(arr(ctx, dt, shapes(ctx, min_dims=2)))),))


@_feature("axis", "expand_dims")
def _expand(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call(
        "expand_dims", (Arr(x),), {"axis": draw(st.integers(-x.ndim - 1, x.ndim))}
    )


@_feature("axis", "squeeze")
def _squeeze(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1))
    i = draw(st.integers(0, len(s) - 1))
    s = (*s[:i], 1, *s[i + 1 :])
    return Call("squeeze", (Arr(draw(arr(ctx, dt, s))),), {"axis": i})


@_feature("non-unit-axis", "squeeze", expect_raise=True)
def _squeeze_bad(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1, min_side=2))
    i = draw(st.integers(-len(s), len(s) - 1))
    return Call("squeeze", (Arr(draw(arr(ctx, dt, s))),), {"axis": i})


@_feature("shift,axis", "roll")
def _roll(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    axis = (
        None if x.ndim == 0 or draw(st.booleans()) else draw(st.integers(0, x.ndim - 1))
    )
    return Call("roll", (Arr(x), draw(st.integers(-6, 6))), {"axis": axis})


@_feature("source,destination", "moveaxis")
def _moveaxis(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    return Call(
        "moveaxis",
        (
            Arr(x),
            draw(st.integers(0, x.ndim - 1)),
            draw(st.integers(-x.ndim, x.ndim - 1)),
        ),
    )


@_feature("axis", "concat")
def _concat(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1))
    axis = draw(st.integers(0, len(s) - 1))
    xs = []
    for i in range(draw(st.integers(1, 3))):
        si = (*s[:axis], draw(st.integers(0, 3)), *s[axis + 1 :])
        xs.append(Arr(draw(arr(ctx, dt, si)), f"x{i + 1}"))
    return Call("concat", (xs,), {"axis": axis})


@_feature("axis=None", "concat")
def _concat_flat(draw, ctx, dt):
    xs = [
        Arr(draw(arr(ctx, dt, draw(shapes(ctx)))), f"x{i + 1}")
        for i in range(draw(st.integers(1, 3)))
    ]
    return Call("concat", (xs,), {"axis": None})


@_feature("incompatible-shapes", "concat", expect_raise=True)
def _concat_bad(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=2, min_side=1))
    t = (*s[:-1], s[-1] + 1)
    xs = [Arr(draw(arr(ctx, dt, s)), "x1"), Arr(draw(arr(ctx, dt, t)), "x2")]
    return Call("concat", (xs,), {"axis": 0})


@_feature("axis", "stack")
def _stack(draw, ctx, dt):
    s = draw(shapes(ctx))
    xs = [
        Arr(draw(arr(ctx, dt, s)), f"x{i + 1}") for i in range(draw(st.integers(1, 3)))
    ]
    return Call("stack", (xs,), {"axis": draw(st.integers(-len(s) - 1, len(s)))})


@_feature("axis", "unstack")
def _unstack(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    return Call("unstack", (Arr(x),), {"axis": draw(st.integers(-x.ndim, x.ndim - 1))})


@_feature("shape", "broadcast_to")
def _bto(draw, ctx, dt):
    s = draw(shapes(ctx, max_dims=2))
    target = (
        draw(st.integers(0, 3)),
        *tuple(d if d != 1 else draw(st.integers(1, 3)) for d in s),
    )
    return Call("broadcast_to", (Arr(draw(arr(ctx, dt, s))), target))


@_feature("default", "broadcast_arrays")
def _barr(draw, ctx, dt):
    s1, s2 = draw(_mbs(ctx, 2, max_side=3)).input_shapes
    return Call(
        "broadcast_arrays",
        (Arr(draw(arr(ctx, dt, s1)), "x1"), Arr(draw(arr(ctx, dt, s2)), "x2")),
    )


@_feature("incompatible-shapes", "broadcast_arrays", expect_raise=True)
def _barr_bad(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1, min_side=2))
    t = (*s[:-1], s[-1] + 1)
    return Call(
        "broadcast_arrays",
        (Arr(draw(arr(ctx, dt, s)), "x1"), Arr(draw(arr(ctx, dt, t)), "x2")),
    )


@_feature("repetitions", "tile")
def _tile(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, max_dims=2)))
    reps = tuple(draw(st.lists(st.integers(0, 3), min_size=0, max_size=3)))
    return Call("tile", (Arr(x), reps))


@_feature("repeats,axis", "repeat")
def _repeat(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, max_dims=2)))
    axis = draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    return Call("repeat", (Arr(x), draw(st.integers(0, 3))), {"axis": axis})
