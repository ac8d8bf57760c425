"""Set functions: unique values compared as sets, isin."""

from __future__ import annotations

import numpy as np

from ..calls import Arr, Call, to_numpy
from ..checks import Finding
from ..registry import Feature
from ._base import V25, _add, _feature, _meta, _outs, _scalar_for, arr, shapes
from ._st import st


def compare_unique(fields: tuple[str, ...]):
    def compare(ref_out, tgt_out, call, ctx):
        ref_out = (ref_out,) if len(fields) == 1 else tuple(ref_out)
        got = [tgt_out] if len(fields) == 1 else _outs(tgt_out, len(fields))
        if got is None:
            return [Finding("value", f"expected {len(fields)} outputs {fields}")]
        x = call.args[0].numpy()
        g = dict(zip(fields, (to_numpy(a) for a in got), strict=True))
        r = dict(zip(fields, (np.asarray(a) for a in ref_out), strict=True))
        if "inverse_indices" not in fields:
            # values' order is unspecified: compare as sorted
            out = [
                f
                for f in _meta(ref_out, got, ctx)
                if f.kind != "shape" or "inverse" in f.message
            ]
        else:
            out = _meta(ref_out, got, ctx)
        if out:
            return out
        order_g = np.argsort(g["values"], kind="stable")
        order_r = np.argsort(r["values"], kind="stable")
        if not np.array_equal(
            g["values"][order_g], r["values"][order_r], equal_nan=x.dtype.kind == "f"
        ):
            return [Finding("value", "unique values differ from the reference's")]
        if "counts" in fields and not np.array_equal(
            g["counts"][order_g], r["counts"][order_r]
        ):
            return [Finding("value", "counts differ from the reference's")]
        if (
            "indices" in fields
            and x.size
            and not np.array_equal(
                x.reshape(-1)[g["indices"]], g["values"], equal_nan=True
            )
        ):
            return [Finding("value", "x[indices] != values")]
        if "indices" in fields and x.size:
            late = _not_first(x.reshape(-1), g["values"], g["indices"])
            if late:
                return [Finding("value", late)]
        if "inverse_indices" in fields and x.size:
            back = g["values"][g["inverse_indices"].reshape(-1)].reshape(x.shape)
            if not np.array_equal(back, x, equal_nan=True):
                return [Finding("value", "values[inverse_indices] does not rebuild x")]
        return []

    return compare


def _not_first(flat: np.ndarray, values: np.ndarray, indices: np.ndarray) -> str:
    """Why ``indices`` are not the first occurrences of ``values`` in ``flat``.

    "indices (first occurrences)": each index is that of the value's first
    occurrence (-0 and +0 are one value); a NaN, distinct from every other,
    has no other occurrence to compare with.
    """
    for k, (v, i) in enumerate(zip(values, indices.reshape(-1), strict=True)):
        if v != v:
            continue
        first = int(np.flatnonzero(flat == v)[0])
        if int(i) != first:
            return (
                f"indices[{k}] is {int(i)}, but the first occurrence of {v.item()!r} in"
                f" x is at {first}"
            )
    return ""


def _set(name, fields):
    cap = "data-dependent shapes"

    def b(ctx, dt):
        return arr(ctx, dt, shapes(ctx), "unit").map(lambda x: Call(name, (Arr(x),)))

    def extremes(ctx, dt):
        # infinities and the dtype's extremes: values like any other
        return arr(ctx, dt, shapes(ctx, min_dims=1), "order-special").map(
            lambda x: Call(name, (Arr(x),))
        )

    def nan(ctx, dt):
        # every NaN is a distinct value; +0 and -0 are one ("should")
        return arr(ctx, dt, shapes(ctx, min_dims=1), "special").map(
            lambda x: Call(name, (Arr(x),))
        )

    cmp = compare_unique(fields)
    return (
        Feature("default", "real numeric", b, compare=cmp, capability=cap),
        Feature(
            "special-values", "real numeric", extremes, compare=cmp, capability=cap
        ),
        Feature(
            "nan,signed-zero",
            "real floating",
            nan,
            compare=cmp,
            capability=cap,
            level="should",
        ),
    )


_add("unique_values", *_set("unique_values", ("values",)))
_add("unique_counts", *_set("unique_counts", ("values", "counts")))
_add("unique_inverse", *_set("unique_inverse", ("values", "inverse_indices")))
_add(
    "unique_all",
    *_set("unique_all", ("values", "indices", "inverse_indices", "counts")),
)


@_feature("invert", "isin", kind="integer", versions=V25)
def _isin(draw, ctx, dt):
    x1 = draw(arr(ctx, dt, shapes(ctx), "special"))
    x2 = draw(arr(ctx, dt, shapes(ctx, max_dims=2), "special"))
    return Call("isin", (Arr(x1, "x1"), Arr(x2, "x2")), {"invert": draw(st.booleans())})


@_feature("python-scalar", "isin", kind="integer", versions=V25)
def _isin_scalar(draw, ctx, dt):
    x = Arr(draw(arr(ctx, dt, shapes(ctx), "unit")), "x")
    v = draw(_scalar_for(dt, "unit"))
    args = (x, v) if draw(st.booleans()) else (v, x)
    return Call("isin", args, {"invert": draw(st.booleans())})


# floating arrays: "should" have an integer dtype, so a library may refuse
# them; where it answers, NaN is in nothing (value equality)
@_feature("floating", "isin", kind="real floating", versions=V25, level="should")
def _isin_float(draw, ctx, dt):
    x1 = draw(arr(ctx, dt, shapes(ctx), "special"))
    x2 = draw(arr(ctx, dt, shapes(ctx, max_dims=1), "special"))
    return Call("isin", (Arr(x1, "x1"), Arr(x2, "x2")), {"invert": draw(st.booleans())})
