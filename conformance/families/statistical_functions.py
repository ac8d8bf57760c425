"""Statistical functions: reductions and cumulative sums and products."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from ..calls import DT, Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import EXACT, V24, _add, _axis_for, arr, shapes


def _reduction(name, kind, tol, *, min_side=0, tuples=True, elem="finite", extra=()):
    def mk(feature):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(arr(ctx, dt, shapes(ctx, min_side=min_side), elem))
            kw = {}
            if feature in ("axis", "keepdims", "correction", "dtype"):
                kw["axis"] = _axis_for(draw, x.ndim, tuples)
            if feature == "keepdims":
                kw["keepdims"] = True
            if feature == "correction":
                kw["correction"] = draw(st.sampled_from([0, 1, 0.5, 2]))
            if feature == "dtype":
                kw["dtype"] = DT(
                    "float64"
                    if dt.startswith("float")
                    else "complex128"
                    if dt.startswith("complex")
                    else "int64"
                    if not dt.startswith("uint")
                    else "uint64"
                )
            return Call(name, (Arr(x),), kw)

        return b

    def scale(call):
        x = call.args[0].numpy()
        if x.dtype.kind not in "fc" or not x.size:
            return 0.0
        return float(np.abs(x).max()) ** (2 if name in ("var", "std") else 1) * max(
            x.size, 1
        )

    feats = [
        Feature(f, kind, mk(f), Options(tol), scale_from=scale)
        for f in ("default", "axis", "keepdims", *extra)
    ]
    return feats


RED = ("rel", 32)
_add("sum", *_reduction("sum", "numeric", RED, extra=("dtype",)))
_add("prod", *_reduction("prod", "numeric", RED, elem="unit", extra=("dtype",)))
_add("mean", *_reduction("mean", "real floating", RED, min_side=1))
_add("var", *_reduction("var", "real floating", RED, min_side=3, extra=("correction",)))
_add("std", *_reduction("std", "real floating", RED, min_side=3, extra=("correction",)))
_add("max", *_reduction("max", "real numeric", EXACT, min_side=1))
_add("min", *_reduction("min", "real numeric", EXACT, min_side=1))


def _cumulative(name, versions):
    def mk(feature):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, max_dims=2), "unit"))
            kw = {}
            if x.ndim > 1 or feature == "axis":
                kw["axis"] = draw(st.integers(-x.ndim, x.ndim - 1))
            if feature == "include_initial":
                kw["include_initial"] = True
            return Call(name, (Arr(x),), kw)

        return b

    return [
        Feature(
            f,
            "numeric",
            mk(f),
            Options(RED),
            versions=versions,
            scale_from=lambda c: float(np.abs(c.args[0].numpy()).sum()),
        )
        for f in ("default", "axis", "include_initial")
    ]


_add("cumulative_sum", *_cumulative("cumulative_sum", ("2023.12", *V24)))
_add("cumulative_prod", *_cumulative("cumulative_prod", V24))
