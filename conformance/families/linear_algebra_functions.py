"""Linear algebra functions of the main namespace (and their linalg aliases)."""

from __future__ import annotations

from ..calls import Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import V24, V25, _add, _mbs, arr, fixed, shapes
from ._st import st
from .linalg import LIN


def _two(
    name,
    mk_shapes,
    kind="numeric",
    feature="default",
    kw=None,
    versions=("2023.12", *V24),
    mutates=(),
):
    @st.composite
    def b(draw, ctx, dt):
        s1, s2, extra = mk_shapes(draw)
        x1 = draw(arr(ctx, dt, s1, "unit"))
        x2 = draw(arr(ctx, dt, s2, "unit"))
        return Call(name, (Arr(x1, "x1"), Arr(x2, "x2")), dict(extra), mutates)

    _add(
        name,
        Feature(
            feature,
            kind,
            lambda ctx, dt: b(ctx, dt),
            Options(LIN),
            versions=versions,
            scale_from=lambda c: 16.0,
        ),
    )


def _mm_shapes(draw):
    n, k, m = (draw(st.integers(1, 4)) for _ in range(3))
    if draw(st.integers(0, 5)) == 0:  # a zero-length dimension: k=0 gives zeros
        n, k, m = (draw(st.sampled_from([0, n])) for n in (n, k, m))
    b = draw(st.sampled_from([(), (2,), (1, 2)]))
    b2 = draw(st.sampled_from([b, b[1:], (3, 1)[-len(b) :] if b else ()]))
    s1 = (k,) if draw(st.integers(0, 3)) == 0 else (*b, n, k)  # 1-D operands too
    s2 = (k,) if draw(st.integers(0, 3)) == 0 else (*b2, k, m)
    return s1, s2, {}


for _n in ("matmul", "linalg.matmul", "Array.__matmul__"):
    _two(_n, _mm_shapes)
_two("Array.__rmatmul__", lambda d: (lambda s: (s[1], s[0], {}))(_mm_shapes(d)))


def _imm_shapes(draw):
    n, k = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    return (*draw(st.sampled_from([(), (2,)])), n, k), (k, k), {}


_two("Array.__imatmul__", _imm_shapes, mutates=(0,))


def _pairs_table(name, pairs, kw=None):
    def table(ctx, dt):
        return [
            Call(
                name,
                (Arr(fixed(ctx, dt, a), "x1"), Arr(fixed(ctx, dt, b), "x2")),
                dict(kw or {}),
            )
            for a, b in pairs
        ]

    return table


# "an exception should be raised" for mismatched contracted dimensions: advisories
for _n in ("matmul", "linalg.matmul"):
    _add(
        _n,
        Feature(
            "mismatched-shapes",
            ("float64",),
            lambda ctx, dt: None,
            table=_pairs_table(
                _n,
                [
                    ((2, 3), (4, 2)),
                    ((3,), (4,)),
                    ((2, 3), (2,)),
                    (((2, 2, 3)), (2, 4, 2)),
                ],
            ),
            expect_raise=True,
            level="should",
        ),
    )
for _n in ("vecdot", "linalg.vecdot"):
    _add(
        _n,
        Feature(
            "mismatched-shapes",
            ("float64",),
            lambda ctx, dt, _n=_n: None,
            table=_pairs_table(_n, [((2, 3), (4,)), ((3,), (2,))]),
            expect_raise=True,
            level="should",
        ),
    )
_add(
    "linalg.cross",
    Feature(
        "size-not-3",
        ("float64",),
        lambda ctx, dt: None,
        table=_pairs_table("linalg.cross", [((2, 4), (2, 4)), ((2,), (2,))]),
        expect_raise=True,
        level="should",
    ),
)


def _tensordot_bad(ctx, dt):
    x1, x2 = Arr(fixed(ctx, dt, (2, 3)), "x1"), Arr(fixed(ctx, dt, (3, 2)), "x2")
    return [
        Call("tensordot", (x1, x2), {"axes": ((2,), (0,))}),
        Call("tensordot", (x1, x2), {"axes": ((1,), (-3,))}),
    ]


def _tensordot_int(name):
    # "If axes is an int equal to N, then contraction must be performed over
    # the last N axes of x1 and the first N axes of x2 in order": shapes where
    # other axes would match too (a kernel contracting the leading axes shows
    # in the values, not as an error), and every N up to the rank
    pairs = [
        ((3, 3, 3), (3, 3, 3), 1),
        ((3, 3, 3), (3, 3, 3), 2),
        ((2, 3, 4), (4, 3, 2), 1),
        ((2, 3, 4), (3, 4, 2), 2),
        ((2, 3), (2, 3), 2),
        ((2, 2), (2, 2), 0),
        ((2, 2, 2), (2, 2, 2), 3),
    ]

    def table(ctx, dt):
        return [
            Call(
                name,
                (Arr(fixed(ctx, dt, a), "x1"), Arr(fixed(ctx, dt, b, seed=1), "x2")),
                {"axes": n},
            )
            for a, b, n in pairs
        ]

    return Feature(
        "axes=int",
        "numeric",
        lambda ctx, dt: None,
        Options(LIN),
        table=table,
        scale_from=lambda c: 16.0,
    )


# "If provided an invalid axis, the function must raise an exception"
for _n in ("tensordot", "linalg.tensordot"):
    _add(_n, _tensordot_int(_n))
    _add(
        _n,
        Feature(
            "invalid-axis",
            ("float64",),
            lambda ctx, dt, _n=_n: None,
            table=lambda ctx, dt, _n=_n: [
                Call(_n, c.args, c.kwargs) for c in _tensordot_bad(ctx, dt)
            ],
            expect_raise=True,
        ),
    )


@st.composite
def _bshapes(draw, ctx, _):
    n = draw(st.integers(1, 3))
    shapes_ = draw(_mbs(ctx, n, max_side=4)).input_shapes
    return Call("broadcast_shapes", tuple(shapes_))


_add(
    "broadcast_shapes",
    Feature("shapes", "none", lambda ctx, _: _bshapes(ctx, None), versions=V25),
)
_two("linalg.outer", lambda d: ((d(st.integers(0, 4)),), (d(st.integers(0, 4)),), {}))


def _cross_shapes(d):
    # the vectors along any axis (counted from the end), broadcasting the rest
    n = d(st.integers(1, 3))
    if d(st.booleans()):
        return (n, 3), (d(st.sampled_from([(3,), (1, 3), (n, 3)]))), {"axis": -1}
    return (
        (3, n),
        (d(st.sampled_from([(3, 1), (3, n)]))),
        {"axis": d(st.sampled_from([0, -2]))},
    )


def _vecdot_shapes(d):
    # the contracted axis anywhere (negative), the others broadcasting
    n, k = d(st.integers(1, 3)), d(st.integers(0, 4))
    form = d(st.integers(0, 2))
    if form == 0:
        return (n, k), (k,), {"axis": -1}
    # "Should be an integer on the interval [-N, -1]": negative axes only
    if form == 1:
        return (n, k), (1, k), {"axis": -1}
    return (k, n), (k, 1), {"axis": -2}


_two("linalg.cross", _cross_shapes, feature="axis")
# vecdot's operands "should have a floating-point data type"
for _n in ("vecdot", "linalg.vecdot"):
    _two(_n, _vecdot_shapes, feature="axis", kind="floating")
for _n in ("tensordot", "linalg.tensordot"):
    _two(
        _n,
        lambda d: (
            (
                (2, 3, 4),
                (3, 4, 2),
                {
                    "axes": d(
                        st.sampled_from(
                            [
                                0,
                                1,
                                2,
                                ((1,), (0,)),
                                ((1, 2), (0, 1)),
                                ((-1, -2), (1, 0)),
                            ]
                        )
                    )
                },
            )
            if True
            else None
        ),
        feature="axes",
    )
for _n in ("matrix_transpose", "linalg.matrix_transpose"):
    _add(
        _n,
        Feature(
            "default",
            "any",
            lambda ctx, dt, _n=_n: arr(ctx, dt, shapes(ctx, min_dims=2)).map(
                lambda x, _n=_n: Call(_n, (Arr(x),))
            ),
        ),
    )
