"""Sorting functions: every axis, both orders, stable or not, special values."""

from __future__ import annotations

import numpy as np

from ..calls import Arr, Call, to_numpy
from ..checks import Finding, Options, check_array
from ..registry import Feature
from ._base import _add, arr, invalid_axis, omit_some, pool, shapes
from ._st import st

_NOVALUES = Options(check_values=False)


def compare_argsort_unstable(ref_out, tgt_out, call, ctx):
    """argsort(stable=False): ties may come in any order.  The indices must
    be a permutation along the axis that sorts x as the reference's do."""
    found = check_array(ref_out, tgt_out, ctx.tgt.module, ctx.where, _NOVALUES)
    if found:
        return found
    x = call.args[0].numpy()
    axis = call.kwargs.get("axis", -1)
    got = to_numpy(tgt_out).astype(np.int64)
    ref = np.asarray(ref_out).astype(np.int64)
    if x.ndim == 0 or x.size == 0:
        return []
    if not np.array_equal(np.sort(got, axis=axis), np.sort(ref, axis=axis)):
        return [Finding("value", "the indices are not a permutation along the axis")]
    a = np.take_along_axis(x, got, axis=axis)
    b = np.take_along_axis(x, ref, axis=axis)
    if not np.array_equal(a, b, equal_nan=True):
        return [Finding("value", "x[indices] is not sorted as the standard requires")]
    return []


def _defaults(name):
    # every optional argument omitted (axis=-1, descending=False, stable=True),
    # on arrays of several axes, where the axis shows
    @st.composite
    def b(draw, ctx, dt):
        x = draw(arr(ctx, dt, shapes(ctx, min_dims=2, min_side=2, max_side=3), "unit"))
        return Call(name, (Arr(x),))

    return b


# Axes longer than the drawn sides (at most 4): libraries switch kernels by
# length (insertion sort below 16 or so, then merge, radix or parallel
# sorts), and a stable sort must keep ties in order in every one of them.
LONG = (9, 17, 33, 65, 129, 257, 1025)


def _long(name):
    def table(ctx, dt):
        ref = ctx.refmod
        calls = []
        for i, n in enumerate(LONG):
            host = (np.arange(n) * 7 + i) % 3  # three values: ties everywhere
            x = Arr(ref.asarray(host.astype(dt), dtype=getattr(ref, dt)))
            calls.append(Call(name, (x,), {"descending": bool(i % 2)}))
            calls.append(Call(name, (x,), {"stable": True}))
        host = (np.arange(120) % 4).reshape(3, 40).astype(dt)
        x = Arr(ref.asarray(host, dtype=getattr(ref, dt)))
        calls.append(Call(name, (x,), {"axis": -1}))
        x = Arr(ref.asarray(np.ascontiguousarray(host.T), dtype=getattr(ref, dt)))
        calls.append(Call(name, (x,), {"axis": 0, "descending": True}))
        return calls

    return Feature("long-axis", "real numeric", lambda ctx, dt: None, table=table)


def _sorting(name):
    def mk(feature):
        @st.composite
        def b(draw, ctx, dt):
            if feature == "special-values":
                vals = pool(dt, "order-special")
                s = draw(shapes(ctx, min_dims=1, min_side=1))
                n = int(np.prod(s))
                idx = draw(
                    st.lists(st.integers(0, len(vals) - 1), min_size=n, max_size=n)
                )
                host = np.asarray([vals[i] for i in idx], dtype=dt).reshape(s)
                x = ctx.refmod.asarray(host, dtype=getattr(ctx.refmod, dt))
            else:
                x = draw(arr(ctx, dt, shapes(ctx, min_dims=1), "unit"))
            kw = {"axis": draw(st.integers(-x.ndim, x.ndim - 1))}
            if feature == "descending":
                kw["descending"] = True
            if feature == "descending,stable":
                kw["descending"] = True
                kw["stable"] = True
            if feature == "stable=False":
                kw["descending"] = draw(st.booleans())
                kw["stable"] = False
            if feature == "special-values":
                kw["descending"] = draw(st.booleans())
            if feature == "axis":  # axis=-1, descending=False, stable=True
                kw = omit_some(draw, kw, ("axis",))
            return Call(name, (Arr(x),), kw)

        return b

    unstable = compare_argsort_unstable if name == "argsort" else None
    feats = [
        Feature(f, "real numeric", mk(f))
        for f in ("axis", "descending", "descending,stable", "special-values")
    ]
    feats.append(
        Feature("stable=False", "real numeric", mk("stable=False"), compare=unstable)
    )
    feats.append(Feature("defaults", "real numeric", _defaults(name)))
    feats.append(_long(name))
    feats.append(invalid_axis(name, lambda x, a: Call(name, (x,), {"axis": a})))
    return feats


_add("sort", *_sorting("sort"))
_add("argsort", *_sorting("argsort"))
