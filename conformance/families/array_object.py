"""The array object: operators, indexing, conversions, devices, interchange."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..calls import DEV, Arr, Call
from ..checks import Finding, Options
from ..registry import Feature
from ._base import (
    EXACT,
    KINDS,
    V24,
    _add,
    _feature,
    _host_view,
    _scalar_for,
    arr,
    from_numpy,
    shapes,
)
from ._st import st
from .elementwise_functions import (
    BINARY,
    OPERATORS,
    UNARY,
    _binary_features,
    _unary_features,
)

for _op, _fn in OPERATORS.items():
    if _fn in UNARY:
        _k, _t = UNARY[_fn]
        _add(f"Array.{_op}", *_unary_features(_fn, f"Array.{_op}", _k, _t))
        continue
    _k, _t, _e1, _e2 = BINARY[_fn]
    _add(
        f"Array.{_op}",
        *_binary_features(_fn, f"Array.{_op}", _k, _t, _e1, _e2, operator="plain"),
    )
    if _op[2:-2] in ("eq", "ne", "lt", "le", "gt", "ge"):
        continue
    _stem = _op[2:-2]
    _add(
        f"Array.__r{_stem}__",
        *_binary_features(
            _fn, f"Array.__r{_stem}__", _k, _t, _e1, _e2, operator="reflected"
        ),
    )
    _add(
        f"Array.__i{_stem}__",
        *_binary_features(
            _fn, f"Array.__i{_stem}__", _k, _t, _e1, _e2, operator="in-place"
        ),
    )


def _axis_index(draw, side):
    """An integer in bounds of ``side`` (negative half the time)."""
    if draw(st.booleans()):
        return draw(st.integers(-side, -1))
    return draw(st.integers(0, side - 1))


def _slice(draw, side):
    """A slice of in-bounds start and stop, a negative step half the time."""
    # in-bounds starts and stops (clipping is not required)
    start = draw(st.none() | st.integers(-side, side - 1)) if side else None
    stop = draw(st.none() | st.integers(-side, side))
    step = draw(st.sampled_from([-1, -2, -3, None, 1, 2]))
    return slice(start, stop, step)


def _index_key(draw, shape, newaxis=True):
    """A basic index for ``shape``: integers, slices (any step), None, Ellipsis.

    Half the keys index the first axis alone, with a bare integer or slice on
    a 1-d array (``x[-1]``, ``x[::-2]``); integers are negative and steps
    negative half the time, where an implementation most often goes wrong.
    """
    dims = list(shape)
    if dims and draw(st.booleans()):
        one = (
            _axis_index(draw, dims[0])
            if dims[0] and draw(st.booleans())
            else _slice(draw, dims[0])
        )
        # fewer indices than axes "should" raise without an ellipsis
        return one if len(dims) == 1 else (one, Ellipsis)
    key: list = []
    use_ellipsis = bool(dims) and draw(st.booleans())
    n = draw(st.integers(0, len(dims)))
    for side in dims[:n]:
        c = draw(st.integers(0, 3))
        if c in (0, 3) and side:
            key.append(_axis_index(draw, side))
        elif c == 1 and newaxis:  # __setitem__'s key has no None
            key.append(None)
            key.append(slice(None))
        else:
            key.append(_slice(draw, side))
    # The standard specifies a tuple index only when it covers every axis or
    # holds an ellipsis (x[0] on a 2-d array is x[0, ...]; x[(0,)] may differ).
    if use_ellipsis or n < len(dims):
        key.insert(len(key) if n < len(dims) or draw(st.booleans()) else 0, Ellipsis)
    return key[0] if len(key) == 1 and draw(st.booleans()) else tuple(key)


def _key_shapes(draw, ctx):
    """Shapes of indexed arrays: 1-d half the time, where keys may be bare."""
    if draw(st.booleans()):
        return shapes(ctx, min_dims=1, max_dims=1, max_side=5)
    return shapes(ctx, max_side=5)


# Fixed keys run at every setting: negative integers and negative steps, on a
# 1-d and a 2-d array whose elements all differ.
_EDGE_KEYS = {
    (5,): [
        -1,
        -5,
        slice(None, None, -1),
        slice(None, None, -2),
        slice(None, None, -3),
        slice(-2, None, -2),
        slice(None, 1, -2),
        (Ellipsis, -1),
    ],
    (3, 4): [
        (-1, Ellipsis),
        (-1, -2),
        (slice(None, None, -2), Ellipsis),
        (slice(None, None, -2), -1),
    ],
}


def _edge_array(ctx, dt, shape):
    n = math.prod(shape)
    a = np.arange(1, n + 1).reshape(shape)
    a = a % 2 == 0 if dt == "bool" else a
    if dt == "bool":
        a.reshape(-1)[0] = True  # x[0] and x[-1] differ
        a.reshape(-1)[-1] = False
    return from_numpy(ctx, a.astype(dt), dt)


def _getitem_edges(ctx, dt):
    return [
        Call("Array.__getitem__", (Arr(_edge_array(ctx, dt, shape)), key))
        for shape, keys in _EDGE_KEYS.items()
        for key in keys
    ]


def _distinct_value(ctx, dt, shape):
    """A value of ``shape`` whose elements differ from each other and from
    every element of :func:`_edge_array` (not a palindrome: a write in the
    wrong order shows)."""
    k = math.prod(shape)
    if dt == "bool":
        v = np.zeros(k, dtype=bool)
        v[0] = True
    elif np.dtype(dt).kind == "u":
        v = np.arange(100, 100 + k)
    else:
        v = -np.arange(1, k + 1)
    return Arr(from_numpy(ctx, v.reshape(shape).astype(dt), dt), "v")


def _setitem_edges(ctx, dt):
    # a value no element of the array has: a write to the wrong place shows;
    # and one of distinct elements, where the key selects several: a write
    # in the wrong order shows
    zero = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}[np.dtype(dt).kind]
    calls = []
    for shape, keys in _EDGE_KEYS.items():
        for key in keys:
            calls.append(
                Call(
                    "Array.__setitem__",
                    (Arr(_edge_array(ctx, dt, shape)), key, zero),
                    mutates=(0,),
                )
            )
            view = np.empty(shape, dtype=bool)[key].shape
            if math.prod(view) > 1:
                value = _distinct_value(ctx, dt, view)
                calls.append(
                    Call(
                        "Array.__setitem__",
                        (Arr(_edge_array(ctx, dt, shape)), key, value),
                        mutates=(0,),
                    )
                )
    return calls


@_feature(
    "basic", "Array.__getitem__", opts=Options(EXACT, True), explicit=_getitem_edges
)
def _getitem(draw, ctx, dt):
    x = draw(arr(ctx, dt, _key_shapes(draw, ctx)))
    return Call("Array.__getitem__", (Arr(x), _index_key(draw, tuple(x.shape))))


@_feature(
    "boolean-mask",
    "Array.__getitem__",
    opts=Options(EXACT, True),
    capability="boolean indexing",
)
def _getitem_mask(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    k = draw(st.integers(1, x.ndim))
    m = draw(arr(ctx, "bool", tuple(x.shape[:k])))
    return Call("Array.__getitem__", (Arr(x), Arr(m, "mask")))


@_feature("integer-array", "Array.__getitem__", opts=Options(EXACT, True), versions=V24)
def _getitem_int(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    n = x.shape[0]
    i = draw(
        ctx.xps.arrays(
            ctx.refmod.int64,
            draw(shapes(ctx, max_dims=2)),
            elements=st.integers(-n, n - 1),
        )
    )
    # integer arrays combine with integers only, one index per axis
    rest = tuple(draw(st.integers(-d, d - 1)) for d in x.shape[1:])
    return Call("Array.__getitem__", (Arr(x), (Arr(i, "i"), *rest)))


def _setitem_value(draw, ctx, dt, shape):
    if draw(st.booleans()):
        return draw(_scalar_for(dt, "finite"))
    vshape = draw(st.sampled_from([shape, shape[1:], ()]))
    return Arr(draw(arr(ctx, dt, vshape)), "v")


@_feature(
    "basic",
    "Array.__setitem__",
    opts=Options(EXACT, True),
    result_arg=0,
    explicit=_setitem_edges,
)
def _setitem(draw, ctx, dt):
    x = draw(arr(ctx, dt, _key_shapes(draw, ctx)))
    key = _index_key(draw, tuple(x.shape), newaxis=False)
    view = np.empty(tuple(x.shape), dtype=bool)[key]
    value = _setitem_value(draw, ctx, dt, view.shape)
    return Call("Array.__setitem__", (Arr(x), key, value), mutates=(0,))


@_feature(
    "boolean-mask",
    "Array.__setitem__",
    opts=Options(EXACT, True),
    result_arg=0,
    capability="boolean indexing",
)
def _setitem_mask(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    m = draw(arr(ctx, "bool", tuple(x.shape)))
    value = draw(_scalar_for(dt, "finite"))
    return Call("Array.__setitem__", (Arr(x), Arr(m, "mask"), value), mutates=(0,))


_CONVERSIONS: dict[str, Any] = {
    "__bool__": "any",
    # 2023.12 on: int() of a finite float is its integer part
    "__int__": ("bool", *KINDS["real numeric"]),
    "__index__": "integral",
    "__float__": "real numeric",
    "__complex__": "numeric",
}
for _m, _k in _CONVERSIONS.items():

    def _conv(method):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(arr(ctx, dt, (), "special" if dt.startswith("float") else "full"))
            return Call(f"Array.{method}", (Arr(x),))

        return b

    _add(
        f"Array.{_m}",
        Feature("0-d", _k, _conv(_m), Options(EXACT, True)),
    )


def _conversion_errors(method, values, dtypes):
    def table(ctx, dt):
        return [
            Call(
                f"Array.{method}",
                (Arr(ctx.refmod.asarray(v, dtype=getattr(ctx.refmod, d))),),
            )
            for d in dtypes
            for v in values
        ]

    return table


# The errors the standard names with "must" (or as its Raises list)
for _m, _exc, _vals, _dts in (
    ("__float__", TypeError, [1 + 2j], ("complex128",)),
    ("__int__", TypeError, [1 + 2j], ("complex128",)),
    ("__index__", TypeError, [1.5, 2.0], ("float64",)),
    ("__int__", OverflowError, [float("inf"), float("-inf")], ("float64",)),
    ("__int__", ValueError, [float("nan")], ("float64",)),
):
    _add(
        f"Array.{_m}",
        Feature(
            f"raises {_exc.__name__}",
            ("float64",),
            lambda ctx, dt: None,
            table=_conversion_errors(_m, _vals, _dts),
            expect_raise=True,
            exc_types=(_exc,),
            exc_level="must",
        ),
    )


@_feature("device", "Array.to_device", opts=Options(EXACT, True))
def _to_device(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("Array.to_device", (Arr(x), DEV))


def _compare_dlpack_device(ref_out, tgt_out, call, ctx):
    ok = (
        isinstance(tgt_out, tuple)
        and len(tgt_out) == 2
        and all(isinstance(int(v), int) for v in tgt_out)
        and 1 <= int(tgt_out[0]) <= 17
    )
    return [] if ok else [Finding("value", f"returned {tgt_out!r}")]


@_feature("tuple", "Array.__dlpack_device__", compare=_compare_dlpack_device)
def _dlpack_device(draw, ctx, dt):
    return Call("Array.__dlpack_device__", (Arr(draw(arr(ctx, dt, shapes(ctx)))),))


def _compare_capsule(ref_out, tgt_out, call, ctx):
    name = type(tgt_out).__name__
    if name != "PyCapsule":
        return [Finding("value", f"returned a {name}, expected a DLPack capsule")]
    return []


@_feature("capsule", "Array.__dlpack__", compare=_compare_capsule)
def _dlpack(draw, ctx, dt):
    # contiguous: the interchange is checked, not whether strides travel
    x = draw(arr(ctx, dt, shapes(ctx)))
    return Call("Array.__dlpack__", (Arr(x, layout=""),))


class _Capsule:
    """Hands a capsule already made to ``np.from_dlpack``."""

    def __init__(self, capsule, device):
        self.capsule, self.device = capsule, device

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return self.device


def _dlpack_shares(out, args, kwargs):
    # __dlpack__(copy=True) must export a copy; copy=False the array's memory
    x = args[0]
    mine = _host_view(x)
    try:
        theirs = np.from_dlpack(_Capsule(out, x.__dlpack_device__()))
    except Exception:
        return []  # not a capsule NumPy can read (another device): unchecked
    if mine is None:
        return []
    shares = np.shares_memory(mine, theirs)
    if kwargs.get("copy") is True and shares:
        return [Finding("value", "x.__dlpack__(copy=True) exported x's own memory")]
    if kwargs.get("copy") is False and not shares:
        return [Finding("value", "x.__dlpack__(copy=False) exported a copy")]
    return []


@_feature(
    "copy",
    "Array.__dlpack__",
    compare=_compare_capsule,
    identity=_dlpack_shares,
    versions=("2023.12", *V24),
)
def _dlpack_copy(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    return Call("Array.__dlpack__", (Arr(x, layout=""),), {"copy": draw(st.booleans())})


def _compare_namespace(ref_out, tgt_out, call, ctx):
    missing = [
        n
        for n in ("asarray", "__array_namespace_info__", "add")
        if not hasattr(tgt_out, n)
    ]
    if missing:
        return [Finding("value", f"returned {tgt_out!r}, which has no {missing[0]}")]
    return []


@_feature("namespace", "Array.__array_namespace__", compare=_compare_namespace)
def _array_namespace(draw, ctx, dt):
    return Call("Array.__array_namespace__", (Arr(draw(arr(ctx, dt, ()))),))
