"""Statistical functions: reductions and cumulative sums and products.

Every reduction draws every form of ``axis`` (None, negative, tuples mixing
signs, the empty tuple) with and without ``keepdims``; its special values
(NaN, infinities, signed zeros, subnormals, the dtype's extremes, chosen so
that the result does not depend on the order of evaluation); empty arrays
where the standard fixes the result (a sum of nothing is 0, a mean NaN, a
variance with ``M - correction <= 0`` NaN); every ``dtype`` and
``correction``; and invalid axes, which must raise.
"""

from __future__ import annotations

import numpy as np

from ..calls import DT, Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import (
    EXACT,
    V24,
    V25,
    _add,
    arr,
    axis_examples,
    axis_forms,
    dtypes_of,
    fixed,
    invalid_axes,
    pool,
    shapes,
)
from ._st import st

RED = ("rel", 32)
_WIDER = {
    "int8": ("int8", "int16", "int32", "int64"),
    "int16": ("int16", "int32", "int64"),
    "int32": ("int32", "int64"),
    "int64": ("int64",),
    "uint8": ("uint8", "uint16", "uint32", "uint64"),
    "uint16": ("uint16", "uint32", "uint64"),
    "uint32": ("uint32", "uint64"),
    "uint64": ("uint64",),
    "float32": ("float32", "float64"),
    "float64": ("float64",),
    "complex64": ("complex64", "complex128"),
    "complex128": ("complex128",),
    "bool": ("bool",),
}
# shapes of the empty arrays, and the axes reduced
_EMPTY: tuple = (((0,), None), ((0,), 0), ((2, 0), -1), ((2, 0), None), ((0, 3), (0,)))
_EMPTY += (((0, 3), 1), ((3, 0, 2), (0, 2)), ((3, 0, 2), (-2,)), ((0, 2), ()))


def _finite_scale(x: np.ndarray, power: int = 1) -> float:
    fin = np.abs(x[np.isfinite(x)]) if x.dtype.kind in "fc" else np.abs(x)
    if not fin.size:
        return 0.0
    return float(fin.max()) ** power * max(x.size, 1)


def _reduction(
    name,
    kind,
    tol,
    *,
    min_side=0,
    tuples=True,
    elem="finite",
    extra=(),
    special=None,
    empty=True,
    versions=None,
):
    """The features of a reduction.

    ``special`` names the pool of special values (see ``_base.pool``) drawn
    by the ``special-values`` feature; ``empty`` is True where the standard
    fixes the result over no elements, "axes" where only reductions over
    non-empty axes of an empty array are defined, False for neither.
    """
    ver = {"versions": versions} if versions else {}
    power = 2 if name in ("var", "std") else 1

    def scale(call):
        x = call.args[0].numpy()
        return _finite_scale(x, power) if x.dtype.kind in "fc" else 0.0

    def kwargs(draw, feature, x, dt):
        kw = {}
        if feature in ("axis", "keepdims", "correction", "dtype", "special-values"):
            kw["axis"] = axis_forms(draw, x.ndim, tuples=tuples)
            if feature != "keepdims":
                kw["keepdims"] = draw(st.booleans())
        if feature == "keepdims":
            kw["keepdims"] = True
        if feature == "correction":
            kw["correction"] = draw(st.sampled_from([0, 1, 0.5, 2, 3]))
        if feature == "dtype":
            kw["dtype"] = DT(draw(st.sampled_from(_WIDER[dt])))
        return kw

    def mk(feature):
        el = special if feature == "special-values" else elem
        side = 0 if feature == "correction" else min_side

        @st.composite
        def b(draw, ctx, dt):
            shp = shapes(
                ctx, min_side=side, max_side=3 if feature == "correction" else 4
            )
            if feature == "special-values":
                vals = pool(dt, el)
                s = draw(shapes(ctx, min_side=max(side, 1)))
                n = int(np.prod(s))
                idx = draw(
                    st.lists(st.integers(0, len(vals) - 1), min_size=n, max_size=n)
                )
                host = np.asarray([vals[i] for i in idx], dtype=dt).reshape(s)
                x = ctx.refmod.asarray(host, dtype=getattr(ctx.refmod, dt))
            else:
                x = draw(arr(ctx, dt, shp, el))
            return Call(name, (Arr(x),), kwargs(draw, feature, x, dt))

        return b

    def axis_explicit(keep):
        def explicit(ctx, dt):
            calls = []
            for shape in ((2, 3, 4), (3,), ()):
                x = fixed(ctx, dt, shape, elem)
                for ax in axis_examples(len(shape), tuples):
                    kw = {"axis": ax}
                    if keep is not None:
                        kw["keepdims"] = keep
                    calls.append(Call(name, (Arr(x),), kw))
            return calls

        return explicit

    def correction_explicit(ctx, dt):
        # M - correction <= 0: NaN; a fractional correction
        calls = []
        for shape in ((), (1,), (2,), (3, 2)):
            x = fixed(ctx, dt, shape, elem)
            for c in (1, 2, 0.5):
                calls.append(Call(name, (Arr(x),), {"correction": c}))
        return calls

    def special_explicit(ctx, dt):
        x = fixed(ctx, dt, (4, 6), special)
        calls = [Call(name, (Arr(x),), {})]
        calls += [Call(name, (Arr(x),), {"axis": a}) for a in (0, -1)]
        return calls

    def empty_table(ctx, dt):
        calls = []
        for shape, ax in _EMPTY:
            if empty == "axes":  # only axes that are not empty
                axes = () if ax is None else ax if isinstance(ax, tuple) else (ax,)
                if ax is None or any(shape[a] == 0 for a in axes):
                    continue
            if ax == () and not tuples:
                continue
            if isinstance(ax, tuple) and len(ax) != 1 and not tuples:
                continue
            x = fixed(ctx, dt, shape)
            if isinstance(ax, tuple) and not tuples:
                ax = ax[0]
            for keep in (False, True):
                kw = {"axis": ax, "keepdims": keep}
                if name in ("var", "std"):
                    kw["correction"] = 1
                calls.append(Call(name, (Arr(x),), kw))
        return calls

    def invalid_table(ctx, dt):
        calls = []
        for shape in ((2, 3), ()):
            x = fixed(ctx, dt, shape)
            for ax in invalid_axes(len(shape), tuples):
                calls.append(Call(name, (Arr(x),), {"axis": ax}))
        return calls

    opts = Options(tol)
    feats = [
        Feature("default", kind, mk("default"), opts, scale_from=scale, **ver),
        Feature(
            "axis",
            kind,
            mk("axis"),
            opts,
            scale_from=scale,
            explicit=axis_explicit(False),
            **ver,
        ),
        Feature(
            "keepdims",
            kind,
            mk("keepdims"),
            opts,
            scale_from=scale,
            explicit=axis_explicit(True),
            **ver,
        ),
    ]
    feats += [Feature(f, kind, mk(f), opts, scale_from=scale, **ver) for f in extra]
    if special:
        sk = kind
        if special == "sum-special":
            sk = tuple(d for d in dtypes_of(kind) if d[0] in "fc")
        elif special == "prod-special":
            # complex products of infinities are left to the implementation
            sk = tuple(d for d in dtypes_of(kind) if d[0] == "f")
        feats.append(
            Feature(
                "special-values",
                sk,
                mk("special-values"),
                Options(tol),
                scale_from=scale,
                explicit=special_explicit,
                **ver,
            )
        )
    if empty:
        feats.append(
            Feature(
                "empty",
                kind,
                lambda ctx, dt: None,
                Options(tol),
                table=empty_table,
                **ver,
            )
        )
    first = ("float64",) if "float64" in dtypes_of(kind) else dtypes_of(kind)[-1:]
    feats.append(
        Feature(
            "invalid-axis",
            first,
            lambda ctx, dt: None,
            table=invalid_table,
            expect_raise=True,
        )
    )
    return feats


_add(
    "sum",
    *_reduction("sum", "numeric", RED, extra=("dtype",), special="sum-special"),
)
_add(
    "prod",
    *_reduction(
        "prod", "numeric", RED, elem="unit", extra=("dtype",), special="prod-special"
    ),
)
_add("mean", *_reduction("mean", "real floating", RED, special="sum-special"))
# 2025.12: the mean of complex numbers
_add(
    "mean",
    *[
        Feature(
            f"complex-{f.name}",
            f.dtypes,
            f.build,
            f.opts,
            scale_from=f.scale_from,
            explicit=f.explicit,
            table=f.table,
            versions=V25,
        )
        for f in _reduction("mean", "complex floating", RED)[:2]
    ],
)
for _n in ("var", "std"):
    _add(
        _n,
        *_reduction(
            _n,
            "real floating",
            RED,
            min_side=2,
            extra=("correction",),
            special="sum-special",
        ),
    )
for _n in ("max", "min"):
    _add(
        _n,
        *_reduction(
            _n,
            "real numeric",
            EXACT,
            min_side=1,
            special="minmax-special",
            empty="axes",
        ),
    )


def _cumulative(name, versions):
    special = "sum-special" if name == "cumulative_sum" else "prod-special"

    def scale(c):
        x = c.args[0].numpy()
        return _finite_scale(x) if x.dtype.kind in "fc" else 0.0

    def mk(feature):
        @st.composite
        def b(draw, ctx, dt):
            el = special if feature == "special-values" else "unit"
            if feature == "special-values":
                vals = pool(dt, el)
                s = draw(shapes(ctx, min_dims=1, max_dims=2, min_side=1))
                n = int(np.prod(s))
                idx = draw(
                    st.lists(st.integers(0, len(vals) - 1), min_size=n, max_size=n)
                )
                host = np.asarray([vals[i] for i in idx], dtype=dt).reshape(s)
                x = ctx.refmod.asarray(host, dtype=getattr(ctx.refmod, dt))
            else:
                x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, max_dims=2), el))
            kw = {}
            if x.ndim > 1 or feature != "default":
                kw["axis"] = draw(st.integers(-x.ndim, x.ndim - 1))
            if feature in ("include_initial", "special-values"):
                kw["include_initial"] = (
                    draw(st.booleans()) or feature == "include_initial"
                )
            if feature == "dtype":
                kw["dtype"] = DT(draw(st.sampled_from(_WIDER[dt])))
                kw["include_initial"] = draw(st.booleans())
            return Call(name, (Arr(x),), kw)

        return b

    def empty_table(ctx, dt):
        calls = []
        for shape, ax in (((0,), 0), ((2, 0), -1), ((0, 3), 0), ((0, 3), 1)):
            x = fixed(ctx, dt, shape)
            for keep in (False, True):
                calls.append(
                    Call(name, (Arr(x),), {"axis": ax, "include_initial": keep})
                )
        return calls

    def invalid_table(ctx, dt):
        x = fixed(ctx, dt, (2, 3))
        return [Call(name, (Arr(x),), {"axis": a}) for a in (2, -3)]

    feats = [
        Feature(f, "numeric", mk(f), Options(RED), versions=versions, scale_from=scale)
        for f in ("default", "axis", "include_initial", "dtype")
    ]
    feats.append(
        Feature(
            "special-values",
            "floating" if name == "cumulative_sum" else "real floating",
            mk("special-values"),
            Options(RED),
            versions=versions,
            scale_from=scale,
        )
    )
    feats.append(
        Feature(
            "empty",
            "numeric",
            lambda ctx, dt: None,
            Options(RED),
            table=empty_table,
            versions=V24,
        )
    )
    feats.append(
        Feature(
            "invalid-axis",
            ("float64",),
            lambda ctx, dt: None,
            table=invalid_table,
            expect_raise=True,
        )
    )
    return feats


_add("cumulative_sum", *_cumulative("cumulative_sum", ("2023.12", *V24)))
_add("cumulative_prod", *_cumulative("cumulative_prod", V24))
