"""Manipulation functions."""

from __future__ import annotations

import math

import numpy as np

from ..calls import Arr, Call
from ..checks import Finding
from ..registry import Feature
from ._base import (
    _add,
    _axis_for,
    _feature,
    _host_view,
    _mbs,
    arr,
    axis_forms,
    fixed,
    from_numpy,
    invalid_axis,
    shapes,
)
from ._st import st
from .elementwise_functions import broadcast_features


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


@st.composite
def _reshape_copy(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    # contiguous: flattening then needs no copy, so copy=False must share
    return Call("reshape", (Arr(x, layout=""), (-1,)), {"copy": draw(st.booleans())})


def _reshape_no_view(ctx, dt):
    # strided arrays no view can flatten: copy=False "must never copy", so
    # the call must raise (a ValueError "should" be raised)
    out = []
    for shape, layout, to in (
        ((2, 3), "T", (6,)),
        ((2, 3, 2), "T", (12,)),
        ((3, 4), "step", (12,)),
        ((2, 4), "T", (4, 2)),
    ):
        x = Arr(fixed(ctx, dt, shape), layout=layout)
        out.append(Call("reshape", (x, to), {"copy": False}))
    return out


_SHARES = (
    "__import__('numpy').shares_memory(__import__('numpy').from_dlpack({expr}),"
    " __import__('numpy').from_dlpack({x}))"
)


def _reshape_shares(out, args, kwargs):
    # copy=True must copy; copy=False must not (a contiguous array needs none)
    a, b = _host_view(out), _host_view(args[0])
    if a is None or b is None:
        return []
    shares = np.shares_memory(a, b)
    if kwargs.get("copy") is True and shares:
        msg = "reshape(x, shape, copy=True) shares memory with x"
        return [Finding("value", msg, show=(_SHARES, "True", "False"))]
    if kwargs.get("copy") is False and not shares:
        msg = "reshape(x, shape, copy=False) copied x"
        return [Finding("value", msg, show=(_SHARES, "False", "True"))]
    return []


def _reshape_viewed(out, args, kwargs):
    # The target's x may not be the strided view the reference's is (a
    # library whose permute_dims or slices copy has a contiguous x): where a
    # view of the target's own x has the new shape, answering with one is
    # right, and a copy is not; unreadable memory: not judged.
    a, b = _host_view(args[0]), _host_view(out)
    if a is None or b is None:
        return True
    try:
        np.reshape(a, tuple(args[1]), copy=False)
    except ValueError:
        return False  # no view can do it: the target had to raise
    return bool(np.shares_memory(a, b))


_add(
    "reshape",
    Feature(
        "copy", "any", lambda ctx, dt: _reshape_copy(ctx, dt), identity=_reshape_shares
    ),
    Feature(
        "copy=False,no-view",
        ("float64",),
        lambda ctx, dt: None,
        table=_reshape_no_view,
        expect_raise=True,
        exc_types=(ValueError,),
        may_answer=_reshape_viewed,
    ),
)


@_feature("axis", "flip")
def _flip(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("flip", (Arr(x),), {"axis": _axis_for(draw, x.ndim)})


def _flip_bad(ndim):
    return [ndim, -ndim - 1, (0, ndim)]


_add(
    "flip",
    invalid_axis("flip", lambda x, a: Call("flip", (x,), {"axis": a}), axes=_flip_bad),
)


def _permute_explicit(ctx, dt):
    # permutations that are not their own inverse, negative axes too
    x = fixed(ctx, dt, (2, 3, 4))
    perms = [(1, 2, 0), (2, 0, 1), (-2, -1, 0), (0, 2, 1)]
    return [Call("permute_dims", (Arr(x), p)) for p in perms]


def _moveaxis_explicit(ctx, dt):
    x = fixed(ctx, dt, (2, 3, 4))
    moves = [(0, -1), (-1, 0), ((0, 1), (2, 0)), ((-3,), (1,))]
    return [Call("moveaxis", (Arr(x), a, b)) for a, b in moves]


@_feature("axes", "permute_dims", explicit=_permute_explicit)
def _permute(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    perm = draw(st.permutations(range(x.ndim)))
    # negative axes count from the last (2023.12 and later)
    signs = draw(st.lists(st.booleans(), min_size=x.ndim, max_size=x.ndim))
    perm = [a - x.ndim if neg else a for a, neg in zip(perm, signs, strict=True)]
    return Call("permute_dims", (Arr(x), tuple(perm)))


_add(
    "permute_dims",
    invalid_axis(
        "permute_dims",
        lambda x, a: Call("permute_dims", (x, a)),
        axes=lambda n: [(0, n), (n, *range(1, n))],
    ),
)


@_feature("axes", "matrix_transpose")
def _mt(draw, ctx, dt):
    return Call("matrix_transpose", (Arr(draw(arr(ctx, dt, shapes(ctx, min_dims=2)))),))


@_feature("axis", "expand_dims")
def _expand(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call(
        "expand_dims", (Arr(x),), {"axis": draw(st.integers(-x.ndim - 1, x.ndim))}
    )


_add(
    "expand_dims",
    invalid_axis(
        "expand_dims",
        lambda x, a: Call("expand_dims", (x,), {"axis": a}),
        axes=lambda n: [n + 1, -n - 2],
    ),
)


@_feature("axis", "squeeze")
def _squeeze(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1))
    n = len(s)
    axes = draw(st.lists(st.integers(0, n - 1), unique=True, min_size=1, max_size=n))
    s = tuple(1 if i in axes else d for i, d in enumerate(s))
    signs = draw(st.lists(st.booleans(), min_size=len(axes), max_size=len(axes)))
    axes = [a - n if neg else a for a, neg in zip(axes, signs, strict=True)]
    axis = axes[0] if len(axes) == 1 and draw(st.booleans()) else tuple(axes)
    return Call("squeeze", (Arr(draw(arr(ctx, dt, s))),), {"axis": axis})


_add(
    "squeeze",
    invalid_axis(
        "squeeze",
        lambda x, a: Call("squeeze", (x,), {"axis": a}),
        shapes_=((1, 1),),
    ),
)


# "a ValueError should be raised": an advisory
@_feature(
    "non-unit-axis",
    "squeeze",
    expect_raise=True,
    level="should",
    exc_types=(ValueError,),
)
def _squeeze_bad(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1, min_side=2))
    i = draw(st.integers(-len(s), len(s) - 1))
    return Call("squeeze", (Arr(draw(arr(ctx, dt, s))),), {"axis": i})


@_feature("shift,axis", "roll")
def _roll(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    form = draw(st.sampled_from(["none", "int", "tuple"])) if x.ndim else "none"
    if form == "none":
        return Call("roll", (Arr(x), draw(st.integers(-6, 6))), {"axis": None})
    if form == "int":
        axis = draw(st.integers(-x.ndim, x.ndim - 1))
        return Call("roll", (Arr(x), draw(st.integers(-6, 6))), {"axis": axis})
    axis = axis_forms(draw, x.ndim, none=False)
    if not isinstance(axis, tuple) or not axis:
        axis = (axis,) if isinstance(axis, int) else (0,)
    # a tuple of shifts, one per axis, or one shift for every axis
    shift = (
        tuple(draw(st.integers(-6, 6)) for _ in axis)
        if draw(st.booleans())
        else draw(st.integers(-6, 6))
    )
    return Call("roll", (Arr(x), shift), {"axis": axis})


_add(
    "roll",
    invalid_axis(
        "roll",
        lambda x, a: Call("roll", (x, 1), {"axis": a}),
        axes=lambda n: [n, -n - 1, (0, n)],
    ),
)


@_feature("source,destination", "moveaxis", explicit=_moveaxis_explicit)
def _moveaxis(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    n = x.ndim
    if draw(st.booleans()):
        return Call(
            "moveaxis",
            (Arr(x), draw(st.integers(-n, n - 1)), draw(st.integers(-n, n - 1))),
        )
    k = draw(st.integers(1, n))
    src = draw(st.permutations(range(n)))[:k]
    dst = draw(st.permutations(range(n)))[:k]
    return Call("moveaxis", (Arr(x), tuple(a - n for a in src), tuple(dst)))


_add(
    "moveaxis",
    invalid_axis(
        "moveaxis",
        lambda x, a: Call("moveaxis", (x, a, 0)),
        axes=lambda n: [n, -n - 1],
    ),
)


@_feature("axis", "concat")
def _concat(draw, ctx, dt):
    s = draw(shapes(ctx, min_dims=1))
    axis = draw(st.integers(-len(s), len(s) - 1))
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


@st.composite
def _concat_mixed(draw, ctx, pair):
    # arrays of different dtypes: the result's is their promotion
    d1, d2 = draw(st.sampled_from(pair))
    s = draw(shapes(ctx, min_dims=1))
    xs = [Arr(draw(arr(ctx, d1, s)), "x1"), Arr(draw(arr(ctx, d2, s)), "x2")]
    return Call("concat", (xs,), {"axis": draw(st.integers(-len(s), len(s) - 1))})


@st.composite
def _stack_mixed(draw, ctx, pair):
    d1, d2 = draw(st.sampled_from(pair))
    s = draw(shapes(ctx))
    xs = [Arr(draw(arr(ctx, d1, s)), "x1"), Arr(draw(arr(ctx, d2, s)), "x2")]
    return Call("stack", (xs,), {"axis": draw(st.integers(-len(s) - 1, len(s)))})


_add("concat", Feature("promotion", "mixed:numeric", _concat_mixed))
_add("stack", Feature("promotion", "mixed:numeric", _stack_mixed))
_add(
    "concat",
    invalid_axis(
        "concat",
        lambda x, a: Call("concat", ([x, x],), {"axis": a}),
    ),
)
_add(
    "stack",
    invalid_axis(
        "stack",
        lambda x, a: Call("stack", ([x, x],), {"axis": a}),
        axes=lambda n: [n + 1, -n - 2],
    ),
)


# the standard requires the same shapes but does not say an error is raised
@_feature("incompatible-shapes", "concat", expect_raise=True, level="should")
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


_add(
    "unstack",
    invalid_axis(
        "unstack",
        lambda x, a: Call("unstack", (x,), {"axis": a}),
    ),
)


@_feature("shape", "broadcast_to")
def _bto(draw, ctx, dt):
    s = draw(shapes(ctx, max_dims=2))
    target = (
        draw(st.integers(0, 3)),
        *tuple(d if d != 1 else draw(st.integers(1, 3)) for d in s),
    )
    return Call("broadcast_to", (Arr(draw(arr(ctx, dt, s))), target))


def _bto_bad(ctx, dt):
    calls = []
    for s, t in (((3,), (2,)), ((2, 3), (3, 3)), ((2,), (0,)), ((2, 1), (2,))):
        calls.append(Call("broadcast_to", (Arr(fixed(ctx, dt, s)), t)))
    return calls


# "If the array is incompatible with the specified shape, the function must
# raise an exception"
_add(
    "broadcast_to",
    Feature(
        "incompatible-shape",
        ("float64",),
        lambda ctx, dt: None,
        table=_bto_bad,
        expect_raise=True,
    ),
)
_add("broadcast_arrays", *broadcast_features("broadcast_arrays", "any", ("exact",)))


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


# repeats as an array: one count per element (or one for all); the output's
# shape depends on the values ("data-dependent shapes")
@_feature("repeats-array", "repeat", capability="data-dependent shapes")
def _repeat_array(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, max_dims=2)))
    axis = draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    m = int(np.prod(x.shape)) if axis is None else x.shape[axis]
    n = draw(st.sampled_from([m, 1])) if m != 1 else 1
    reps = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    r = from_numpy(ctx, np.asarray(reps, dtype=np.int64), "int64")
    return Call("repeat", (Arr(x), Arr(r, "repeats")), {"axis": axis})


_add(
    "repeat",
    invalid_axis("repeat", lambda x, a: Call("repeat", (x, 2), {"axis": a})),
)
