"""Linear algebra functions of the main namespace (and their linalg aliases)."""

from __future__ import annotations

from hypothesis import strategies as st

from ..calls import Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import V24, V25, _add, _mbs, arr, shapes
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
    b = draw(st.sampled_from([(), (2,)]))
    s1 = (k,) if draw(st.integers(0, 3)) == 0 else (*b, n, k)  # 1-D operands too
    s2 = (k,) if draw(st.integers(0, 3)) == 0 else (k, m)
    return s1, s2 if draw(st.booleans()) or len(s2) == 1 else (*b, k, m), {}


for _n in ("matmul", "linalg.matmul", "Array.__matmul__"):
    _two(_n, _mm_shapes)
_two("Array.__rmatmul__", lambda d: (lambda s: (s[1], s[0], {}))(_mm_shapes(d)))


def _imm_shapes(draw):
    n, k = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    return (*draw(st.sampled_from([(), (2,)])), n, k), (k, k), {}


_two("Array.__imatmul__", _imm_shapes, mutates=(0,))


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
_two(
    "linalg.cross",
    lambda d: ((d(st.integers(1, 3)), 3), (3,), {"axis": -1}),
    feature="axis",
)
for _n in ("vecdot", "linalg.vecdot"):
    _two(_n, lambda d: ((d(st.integers(1, 3)), 4), (4,), {"axis": -1}), feature="axis")
for _n in ("tensordot", "linalg.tensordot"):
    _two(
        _n,
        lambda d: (
            (
                (2, 3, 4),
                (3, 4, 2),
                {"axes": d(st.sampled_from([0, 1, 2, ((1,), (0,)), ((1, 2), (0, 1))]))},
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
