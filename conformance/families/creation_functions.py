"""Creation functions."""

from __future__ import annotations

import numpy as np

from ..calls import DEV, DT, Arr, Call
from ..checks import Finding, Options
from ..registry import Feature
from ._base import KINDS, _add, _host_view, _scalar_for, arr, omit_some, shapes
from ._st import st


def _shape_tuple(ctx):
    return shapes(ctx, max_dims=3)


def _creation(name, fill=None, check_values=True):
    @st.composite
    def b(draw, ctx, dt):
        shape = draw(_shape_tuple(ctx))
        args = (shape,) if fill is None else (shape, draw(_scalar_for(dt, "finite")))
        return Call(name, args, {"dtype": DT(dt), "device": DEV})

    return Feature("dtype,device", "any", b, Options(check_values=check_values))


def _like(name, fill=None, check_values=True):
    @st.composite
    def b(draw, ctx, dt):
        x = draw(arr(ctx, dt, shapes(ctx)))
        args = (Arr(x),) if fill is None else (Arr(x), draw(_scalar_for(dt, "finite")))
        return Call(name, args)

    return Feature("default", "any", b, Options(check_values=check_values))


def _creation_default(name, fill=False, check_values=True):
    """dtype=None: the default floating dtype, or for full() the kind of the
    fill value (bool, the default integer, floating or complex dtype)."""

    @st.composite
    def b(draw, ctx, _):
        shape = draw(_shape_tuple(ctx))
        if not fill:
            return Call(name, (shape,), {"device": DEV})
        v = draw(st.sampled_from([True, False, 0, -3, 7, 1.5, -0.0, complex(1, -2)]))
        return Call(name, (shape, v), {"device": DEV})

    return Feature("default-dtype", "none", b, Options(check_values=check_values))


def _like_dtype(name, fill=False, check_values=True):
    """dtype= overrides x's dtype; device= its device."""

    @st.composite
    def b(draw, ctx, dt):
        x = draw(arr(ctx, dt, shapes(ctx)))
        to = draw(st.sampled_from(KINDS["numeric"]))
        args = (Arr(x),) if not fill else (Arr(x), draw(_scalar_for(to, "finite")))
        return Call(name, args, {"dtype": DT(to), "device": DEV})

    return Feature("dtype,device", "any", b, Options(check_values=check_values))


for _n, _fill, _vals in (
    ("zeros", False, True),
    ("ones", False, True),
    ("empty", False, False),
    ("full", True, True),
):
    _add(_n, _creation_default(_n, _fill, _vals))
    _add(f"{_n}_like", _like_dtype(f"{_n}_like", _fill, _vals))

_add("zeros", _creation("zeros"))
_add("ones", _creation("ones"))
_add("empty", _creation("empty", check_values=False))
_add("full", _creation("full", fill=True))
_add("zeros_like", _like("zeros_like"))
_add("ones_like", _like("ones_like"))
_add("empty_like", _like("empty_like", check_values=False))
_add("full_like", _like("full_like", fill=True))


@st.composite
def _eye(draw, ctx, dt):
    n = draw(st.integers(0, 5))
    kw = {"dtype": DT(dt), "device": DEV}
    if draw(st.booleans()):
        kw["n_cols"] = draw(st.integers(0, 5))
    if draw(st.booleans()):
        kw["k"] = draw(st.integers(-5, 5))
    return Call("eye", (n,), kw)


_add("eye", Feature("n_cols,k,dtype", "numeric", _eye))


@st.composite
def _arange(draw, ctx, dt):
    start = draw(st.integers(-10, 10))
    stop = draw(st.integers(-10, 10))
    step = draw(st.integers(-3, 3).filter(bool))
    if dt.startswith("uint") and (start < 0 or stop < 0):
        start, stop = abs(start), abs(stop)
    if dt.startswith("uint") and step < 0:
        step = -step
    return Call("arange", (start, stop, step), {"dtype": DT(dt), "device": DEV})


_add("arange", Feature("start,stop,step,dtype", "real numeric", _arange))


@st.composite
def _arange_float(draw, ctx, _):
    # one argument (the stop), float steps, empty ranges, dtype=None
    form = draw(st.sampled_from(["stop", "float", "empty"]))
    dev = {"device": DEV}
    if form == "stop":
        return Call("arange", (draw(st.integers(0, 7)),), dev)
    if form == "empty":
        start = draw(st.integers(-3, 3))
        return Call("arange", (start, start - draw(st.integers(0, 2)), 1), dev)
    start = draw(st.sampled_from([0.0, -1.5, 0.25, 2.0]))
    step = draw(st.sampled_from([0.5, 0.25, -0.5, 1.5]))
    n = draw(st.integers(0, 6))
    stop = start + step * n + step / 2  # no element near the stop: no rounding
    return Call("arange", (start, stop, step), dev)


_add(
    "arange",
    Feature("forms,default-dtype", "none", _arange_float, Options(("rel", 8))),
)


@st.composite
def _linspace(draw, ctx, dt):
    start = draw(st.integers(-100, 100)) / 4
    stop = draw(st.integers(-100, 100)) / 4
    num = draw(st.integers(0, 10))
    endpoint = draw(st.booleans())
    return Call(
        "linspace",
        (start, stop, num),
        omit_some(
            draw, {"dtype": DT(dt), "endpoint": endpoint, "device": DEV}, ("endpoint",)
        ),
    )


_add(
    "linspace",
    Feature("num,endpoint,dtype", "real floating", _linspace, Options(("rel", 8))),
)


def _tri(name):
    @st.composite
    def b(draw, ctx, dt):
        x = draw(arr(ctx, dt, shapes(ctx, min_dims=2)))
        return Call(name, (Arr(x),), {"k": draw(st.integers(-4, 4))})

    return Feature("k", "any", b)


_add("tril", _tri("tril"))
_add("triu", _tri("triu"))


@st.composite
def _meshgrid(draw, ctx, dt):
    n = draw(st.integers(1, 3))
    xs = [Arr(draw(arr(ctx, dt, shapes(ctx, 1, 1))), f"x{i + 1}") for i in range(n)]
    return Call(
        "meshgrid", tuple(xs), {"indexing": draw(st.sampled_from(["xy", "ij"]))}
    )


_add("meshgrid", Feature("indexing", "numeric", _meshgrid))


@st.composite
def _asarray_infer(draw, ctx, _):
    """dtype=None: the dtype is inferred from Python scalars (bool, the
    default integer, floating or complex dtype; ints with floats: floating)."""
    kind = draw(st.sampled_from(["bool", "int", "float", "complex", "int+float"]))
    leaf = {
        "bool": st.booleans(),
        "int": st.integers(-5, 5),
        "float": st.sampled_from([0.5, -1.0, 2.25, -0.0]),
        "complex": st.sampled_from([1j, complex(1, -1), 0.5 + 0j]),
        "int+float": st.integers(-5, 5) | st.sampled_from([0.5, -1.5]),
    }[kind]
    shape = draw(st.sampled_from([(), (3,), (2, 2), (1, 3)]))
    n = int(np.prod(shape))
    vals = draw(st.lists(leaf, min_size=n, max_size=n))
    if kind == "int+float" and n:
        vals[0] = 0.5  # at least one float
    obj = (
        vals[0]
        if shape == ()
        else np.asarray(vals, dtype=object).reshape(shape).tolist()
    )
    return Call("asarray", (obj,), {"device": DEV})


_add("asarray", Feature("default-dtype", "none", _asarray_infer))


@st.composite
def _asarray(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, max_dims=2)))
    return Call("asarray", (np.asarray(x).tolist(),), {"dtype": DT(dt), "device": DEV})


_add("asarray", Feature("nested-list,dtype", "any", _asarray))


@st.composite
def _asarray_copy(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1)))
    return Call("asarray", (Arr(x),), {"copy": draw(st.booleans())})


_SHARES = (
    "__import__('numpy').shares_memory(__import__('numpy').from_dlpack({expr}),"
    " __import__('numpy').from_dlpack({x}))"
)


def _asarray_shares(out, args, kwargs):
    # copy=True must not share memory with the input; copy=False must (the
    # input is already an array of the namespace, on its device, of its dtype)
    a, b = _host_view(out), _host_view(args[0])
    if a is None or b is None:
        return []  # no host view to compare memory through
    shares = np.shares_memory(a, b)
    if kwargs.get("copy") is True and shares:
        msg = "asarray(x, copy=True) shares memory with x"
        return [Finding("value", msg, show=(_SHARES, "True", "False"))]
    if kwargs.get("copy") is False and not shares:
        msg = "asarray(x, copy=False) copied x"
        return [Finding("value", msg, show=(_SHARES, "False", "True"))]
    return []


_add("asarray", Feature("copy", "any", _asarray_copy, identity=_asarray_shares))
_add(
    "from_dlpack",
    Feature(
        "default",
        "any",
        lambda ctx, dt: arr(ctx, dt, shapes(ctx)).map(
            lambda x: Call("from_dlpack", (Arr(x, layout=""),))
        ),
    ),
)
