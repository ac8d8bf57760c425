"""ocean_ext.index: reusable index objects mean exactly x[key] / x[key] = v.

NumPy is the oracle (``xn[key]`` with the same key in NumPy form): values,
shape and dtype, and the exception class when NumPy raises.  Where the strict
namespace accepts the key too, ``x[key]`` is compared as well.  Each example
checks the unbound index, ``bind(shape)`` and ``bind(x)``, on contiguous and
non-contiguous arrays.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

import ocean_array_api as xp
import ocean_ext
from ocean_array_api import _ext_hooks
from ocean_ext import Index

from ..helpers import CPU0, CPU1, host

# With the lazy dask device as the default (the separate whole-suite run),
# this module tests eager behaviour; the dask tests cover the lazy side
# (tests/backends/test_dask_backend.py).
pytestmark = pytest.mark.skipif(
    xp.__array_namespace_info__().default_device().kind == "dask",
    reason="binding index objects with index arrays needs the values: refused on a lazy device",
)

# --- strategies ------------------------------------------------------------------


@st.composite
def arrays(draw, dtype=np.float64):
    """A maker of (Array, NumPy copy) pairs: each call gives a fresh pair with
    the same values and layout (contiguous, strided, reversed or transposed).
    """
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=0, max_size=4)))
    view = draw(st.sampled_from(["none", "step", "reverse", "transpose"]))
    base_shape = tuple(2 * n for n in shape) if view == "step" else shape
    size = int(np.prod(base_shape))

    def make():
        base_np = (np.arange(size, dtype=np.float64) * 1.5 - 7).astype(dtype)
        base_np = base_np.reshape(base_shape)
        base = xp.asarray(base_np, copy=True)
        if view == "step" and shape:
            key = tuple(slice(None, None, 2) for _ in shape)
            return base[key], base_np[key].copy()
        if view == "reverse" and shape:
            key = tuple(slice(None, None, -1) for _ in shape)
            return base[key], base_np[key].copy()
        if view == "transpose" and len(shape) >= 2:
            perm = tuple(reversed(range(len(shape))))
            return xp.permute_dims(base, perm), base_np.transpose(perm).copy()
        return base, base_np

    return make


@st.composite
def keys(draw, shape):
    """A key as a list of ("kind", NumPy form) items, and the key's two forms.

    Mostly valid for ``shape``; sometimes out of bounds, too long, or with
    index arrays that do not broadcast (errors are compared too).
    """
    ndim = len(shape)
    n_items = draw(st.integers(0, ndim + 1))
    items = []
    ellipsis = False
    axis = 0
    adv_len = draw(st.integers(0, 3))
    for _ in range(n_items):
        kinds = ["int", "slice", "none", "intarray", "list", "mask", "mask0d"]
        if not ellipsis:
            kinds.append("ellipsis")
        kind = draw(st.sampled_from(kinds))
        n = shape[axis] if axis < ndim else draw(st.integers(0, 3))
        if kind == "int":
            lo, hi = (-n, n - 1) if n else (-1, 0)
            if draw(st.integers(0, 9)) == 0:
                lo, hi = -n - 2, n + 1  # sometimes out of bounds
            items.append(("int", draw(st.integers(lo, hi))))
            axis += 1
        elif kind == "slice":
            bound = st.none() | st.integers(-n - 2, n + 2)
            step = draw(st.none() | st.integers(-3, 3).filter(bool))
            items.append(("slice", slice(draw(bound), draw(bound), step)))
            axis += 1
        elif kind == "none":
            items.append(("none", None))
        elif kind == "ellipsis":
            items.append(("ellipsis", Ellipsis))
            ellipsis = True
            axis = max(axis, ndim - (n_items - len(items)))
        elif kind in ("intarray", "list"):
            lo, hi = (-n, n - 1) if n else (0, 0)
            if draw(st.integers(0, 9)) == 0:
                hi += 2  # sometimes out of bounds
            length = 0 if n == 0 and draw(st.booleans()) else adv_len
            shape_a = draw(
                st.sampled_from([(length,), (1, length), (length, 1), ()])
                if kind == "intarray"
                else st.just((length,))
            )
            size = int(np.prod(shape_a))
            vals = np.array(
                draw(st.lists(st.integers(lo, hi), min_size=size, max_size=size)),
                dtype=np.int64,
            )
            if kind == "intarray":
                dtype = draw(st.sampled_from([np.int64, np.int32, np.int8, np.uint8]))
                info = np.iinfo(dtype)
                if not size or (info.min <= vals.min() and vals.max() <= info.max):
                    vals = vals.astype(dtype)
            items.append((kind, vals.reshape(shape_a)))
            axis += 1
        elif kind == "mask":
            k = draw(st.integers(1, max(1, min(2, ndim - axis))))
            mshape = tuple(shape[axis : axis + k]) or (draw(st.integers(0, 3)),)
            if draw(st.integers(0, 15)) == 0:
                mshape = (*mshape[:-1], mshape[-1] + 1)  # wrong shape
            size = int(np.prod(mshape))
            bits = draw(st.lists(st.booleans(), min_size=size, max_size=size))
            items.append(("mask", np.array(bits, dtype=bool).reshape(mshape)))
            axis += len(mshape)
        else:  # mask0d
            items.append(("mask", np.array(draw(st.booleans()))))
    return items


def np_key(items):
    return tuple(v for _, v in items)


def xp_key(items, device=CPU0):
    """The key with NumPy arrays as Arrays (lists stay lists)."""
    out = []
    for kind, v in items:
        if kind in ("intarray", "mask"):
            out.append(xp.asarray(v, device=device))
        elif kind == "list":
            out.append(v.tolist())
        else:
            out.append(v)
    return tuple(out)


def outcome(f):
    """f()'s result as a NumPy array, or the exception class it raised."""
    try:
        res = f()
    except (IndexError, ValueError, TypeError) as exc:
        return type(exc)
    return res


def same(got, expected):
    if isinstance(expected, type):
        assert got is expected, f"expected {expected.__name__}, got {got!r}"
        return
    assert not isinstance(got, type), f"raised {got.__name__}, NumPy gave {expected!r}"
    got = host(got)
    expected = np.asarray(expected)
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def strict_accepts(items):
    """Whether the strict namespace's x[key] takes this key (no lists, masks alone)."""
    kinds = [k for k, _ in items]
    if "list" in kinds:
        return False
    return "mask" not in kinds or len(items) == 1


# --- property tests: x[idx] ----------------------------------------------------------


@given(data=st.data())
def test_getitem_matches_numpy(data):
    x, xn = data.draw(arrays())()
    items = data.draw(keys(xn.shape))
    note(f"x: shape {xn.shape}, strides {x._data.strides}, dtype {x._data.dtype}")
    expected = outcome(lambda: xn[np_key(items)])
    idx = outcome(lambda: ocean_ext.index[xp_key(items)])
    assume(not isinstance(idx, type))  # the builder takes every drawn key
    same(outcome(lambda: x[idx]), expected)  # unbound
    for target in (xn.shape, x):
        bound = outcome(lambda t=target: idx.bind(t))
        if isinstance(expected, type):
            # the error comes from bind (or at the latest from the use)
            if isinstance(bound, type):
                assert bound is expected
            else:
                same(outcome(lambda b=bound: x[b]), expected)
            continue
        assert not isinstance(bound, type), f"bind raised {bound.__name__}"
        assert bound.is_bound
        assert bound.input_shape == xn.shape
        assert bound.output_shape == np.asarray(expected).shape
        same(outcome(lambda b=bound: x[b]), expected)
        same(outcome(lambda b=bound: x[b]), expected)  # reused
    if strict_accepts(items):
        same(outcome(lambda: x[xp_key(items)]), expected)


@given(data=st.data())
def test_setitem_matches_numpy(data):
    make = data.draw(arrays())
    _, xn = make()
    items = data.draw(keys(xn.shape))
    key = np_key(items)
    try:
        out_shape = np.asarray(xn[key]).shape
    except IndexError:
        out_shape = None
    form = data.draw(st.sampled_from(["scalar", "full", "broadcast", "bad"]))
    if form == "scalar" or out_shape is None:
        vn = np.float64(data.draw(st.integers(-50, 50)))
        value = float(vn)
    else:
        if form == "full":
            vshape = out_shape
        elif form == "broadcast":
            vshape = out_shape[len(out_shape) // 2 :]
        else:
            vshape = (*out_shape, 2)
        vn = np.arange(int(np.prod(vshape)), dtype=np.float64).reshape(vshape) + 100
        value = xp.asarray(vn)

    def np_set():
        e = xn.copy()
        e[key] = vn
        return e

    expected = outcome(np_set)
    idx = ocean_ext.index[xp_key(items)]
    for how in ("unbound", "shape", "array"):
        y, _ = make()
        i = idx
        if how != "unbound":
            i = outcome(lambda y=y, how=how: idx.bind(y if how == "array" else y.shape))
            if isinstance(i, type):
                assert i is expected
                continue

        def ours(y=y, i=i):
            y[i] = value
            return y

        same(outcome(ours), expected)
    if strict_accepts(items):
        y, _ = make()

        def plain(y=y):
            y[xp_key(items)] = value
            return y

        same(outcome(plain), expected)


@given(data=st.data())
def test_noncontiguous_views_write_through(data):
    """x[idx] = v on a strided view writes into its base, and only where x is."""
    base_np = np.arange(60, dtype=np.float64).reshape(6, 10)
    base = xp.asarray(base_np, copy=True)
    view_key = data.draw(
        st.sampled_from(
            [(slice(None, None, 2), slice(1, None, 3)), (slice(None, None, -1),), ()]
        )
    )
    x = base[view_key]
    xn_base = base_np.copy()
    xn = xn_base[view_key]
    if data.draw(st.booleans()):
        x, xn = x.mT, xn.T
    items = data.draw(keys(xn.shape))
    key = np_key(items)
    try:
        xn[key] = -1.0
    except IndexError:
        return
    idx = ocean_ext.index[xp_key(items)].bind(x)
    x[idx] = -1.0
    np.testing.assert_array_equal(host(base), xn_base)


# --- particular keys ---------------------------------------------------------------


def test_design_example():
    x = xp.reshape(xp.arange(4 * 6 * 3, dtype=xp.float64), (4, 6, 3))
    mask = xp.asarray([True, False, False, True])
    idx = ocean_ext.index[mask, 1:5, [0, -1]]
    xn = np.asarray(x)
    expected = xn[np.asarray(mask), 1:5, [0, -1]]
    same(x[idx], expected)
    b = idx.bind(x)
    assert b.input_shape == (4, 6, 3)
    assert b.output_shape == expected.shape == (2, 4)
    assert not b.is_view
    same(x[b], expected)


@pytest.mark.parametrize(
    ("key", "view"),
    [
        ((0, slice(1, 3)), True),
        ((Ellipsis, None), True),
        ((), True),
        (([0, 1],), False),
        ((slice(None), [1]), False),
    ],
)
def test_is_view(key, view):
    x = xp.reshape(xp.arange(12.0), (3, 4))
    idx = ocean_ext.index[key]
    assert idx.is_view is view
    b = idx.bind(x)
    assert b.is_view is view
    r = x[b]
    r2 = x[idx]
    if view:
        # a view: writing through it changes x
        r[...] = 100.0
        assert float(xp.max(x)) == 100.0
        assert float(xp.max(r2)) == 100.0
    else:
        r[...] = 100.0
        assert float(xp.max(x)) == 11.0


def test_attributes_unbound():
    idx = ocean_ext.index[1:3]
    assert not idx.is_bound
    assert idx.input_shape is None
    assert idx.output_shape is None
    assert idx.is_view
    assert idx.device is None
    assert isinstance(idx, Index)
    assert Index((slice(1, 3),)).is_view
    m = xp.asarray([True, False], device=CPU1)
    assert ocean_ext.index[m].device == CPU1


def test_bind_returns_new_index():
    idx = ocean_ext.index[[0, 2]]
    b = idx.bind((5,))
    assert b is not idx
    assert not idx.is_bound
    assert b.bind((3,)).input_shape == (3,)  # rebinding to another shape
    assert b.input_shape == (5,)


def test_repr():
    idx = ocean_ext.index[xp.asarray([True, False]), 1:5:2, ..., None, [0, -1], 3]
    text = repr(idx)
    assert text.startswith("ocean_ext.index[<mask bool (2,)>, 1:5:2, ..., None,")
    assert "bound" not in text
    assert "bound to (2, 8, 3, 4)" in repr(idx.bind((2, 8, 3, 4)))
    assert repr(ocean_ext.index) == "ocean_ext.index"


def test_negative_int32_indices():
    x = xp.arange(10.0)
    i = xp.asarray([-1, -10, 0, 9, -5], dtype=xp.int32)
    b = ocean_ext.index[i].bind(x)
    same(x[b], np.asarray(x)[np.asarray(i)])
    x[b] = xp.asarray([1.0, 2.0, 3.0, 4.0, 5.0])
    np.testing.assert_array_equal(host(x)[[9, 0, 5]], [4.0, 3.0, 5.0])


def test_uint64_and_large_values():
    x = xp.arange(10.0)
    i = xp.asarray([3, 9], dtype=xp.uint64)
    same(x[ocean_ext.index[i].bind(x)], [3.0, 9.0])
    big = xp.asarray([2**63 + 5], dtype=xp.uint64)
    with pytest.raises(IndexError, match="out of bounds for axis 0"):
        ocean_ext.index[big].bind(x)


def test_numpy_arrays_and_lists_are_copied():
    a = np.array([0, 1])
    lst = [2, 3]
    idx = ocean_ext.index[a, lst]
    a[0] = 4
    lst[0] = 0
    x = xp.reshape(xp.arange(25.0), (5, 5))
    same(x[idx], [2.0, 8.0])  # x[0, 2], x[1, 3]


def test_bound_index_does_not_see_later_changes_to_its_arrays():
    x = xp.arange(5.0)
    i = xp.asarray([0, 1])
    b = ocean_ext.index[i].bind(x)
    u = ocean_ext.index[i]
    i[0] = 4
    same(x[b], [0.0, 1.0])
    same(x[u], [4.0, 1.0])  # unbound: reads the key at each use


def test_empty_selections():
    x = xp.reshape(xp.arange(12.0), (3, 4))
    for key in ([], (slice(None), []), xp.zeros((3, 4), dtype=xp.bool), (slice(0, 0),)):
        expected = np.asarray(x)[np.asarray(key) if isinstance(key, xp.Array) else key]
        same(x[ocean_ext.index[key].bind(x)], expected)
    z = xp.zeros((0, 3))
    same(z[ocean_ext.index[:, [0, 2]].bind(z)], np.zeros((0, 2)))


def test_zero_dimensional():
    x = xp.asarray(5.0)
    for key in ((), ..., None, xp.asarray(True), xp.asarray(False)):
        nk = np.asarray(key) if isinstance(key, xp.Array) else key
        expected = np.asarray(np.asarray(x)[nk])
        same(x[ocean_ext.index[key]], expected)
        same(x[ocean_ext.index[key].bind(x)], expected)
    y = xp.asarray(5.0)
    y[ocean_ext.index[...].bind(y)] = 2.0
    assert float(y) == 2.0


def test_byteswapped_array():
    if not hasattr(ocean_ext, "asarray"):
        pytest.skip("ocean_ext.asarray (byte order) is not available")
    xn = np.arange(10.0).astype(">f8")
    x = ocean_ext.asarray(xn)  # keeps the byte order, shares the memory
    idx = ocean_ext.index[[1, -1]].bind(x)
    same(x[idx], [1.0, 9.0])
    for i in (idx, ocean_ext.index[[1, -1]]):
        # a copy is native, as x[key] makes it; a view keeps the byte order
        assert ocean_ext.is_byteswapped(x[i]) is ocean_ext.is_byteswapped(
            x[xp.asarray([1, -1])]
        )
        assert not ocean_ext.is_byteswapped(x[i])
    assert ocean_ext.is_byteswapped(x[ocean_ext.index[1:].bind(x)])
    x[idx] = 0.5
    assert xn[1] == 0.5
    assert xn[9] == 0.5


# --- errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [1.5, "a", True, np.bool_(True), [1.5], [[0, 1], [2]], {1: 2}, (0, 1j), slice(0.5)],
)
def test_invalid_items_raise_index_error(key):
    with pytest.raises(IndexError, match="index"):
        ocean_ext.index[key]


def test_build_errors():
    with pytest.raises(IndexError, match="single ellipsis"):
        ocean_ext.index[..., 0, ...]
    with pytest.raises(ValueError, match="step cannot be zero"):
        ocean_ext.index[::0]
    with pytest.raises(IndexError, match="integer or boolean dtype"):
        ocean_ext.index[xp.asarray([1.0])]
    a, b = xp.asarray([0], device=CPU0), xp.asarray([0], device=CPU1)
    with pytest.raises(ValueError, match="move them to one device"):
        ocean_ext.index[a, b]


def test_out_of_bounds_names_the_axis():
    x = xp.reshape(xp.arange(12.0), (3, 4))
    for key, axis, value in (
        ((0, [1, 4]), 1, 4),
        (([-4],), 0, -4),
        ((slice(None), 7), 1, 7),
    ):
        idx = ocean_ext.index[key]
        pattern = rf"index {value} is out of bounds for axis {axis} with size"
        with pytest.raises(IndexError, match=pattern):
            idx.bind(x)
        with pytest.raises(IndexError, match=pattern):
            idx.bind(x.shape)
        with pytest.raises(IndexError):
            x[idx]  # unbound: the same error class as x[key]
        with pytest.raises(IndexError):
            x[idx] = 1.0


def test_mask_shape_mismatch_names_the_dimension():
    x = xp.reshape(xp.arange(12.0), (3, 4))
    m = xp.ones((3, 5), dtype=xp.bool)
    with pytest.raises(IndexError, match="size 5 in dimension 1"):
        ocean_ext.index[m].bind(x)
    with pytest.raises(IndexError):
        x[ocean_ext.index[m]]


def test_too_many_indices_and_broadcast_errors():
    x = xp.reshape(xp.arange(12.0), (3, 4))
    with pytest.raises(IndexError, match="too many indices"):
        ocean_ext.index[0, 0, 0].bind(x)
    with pytest.raises(IndexError, match="broadcast"):
        ocean_ext.index[[0, 1], [0, 1, 2]].bind(x)
    with pytest.raises(IndexError):
        x[ocean_ext.index[[0, 1], [0, 1, 2]]]


def test_bound_index_on_another_shape_names_the_dimension():
    idx = ocean_ext.index[[0, 1], 1:].bind((3, 4))
    with pytest.raises(IndexError, match=r"dimension 1 has size 5, not 4"):
        xp.zeros((3, 5))[idx]
    y = xp.zeros((2, 4))
    with pytest.raises(IndexError, match=r"dimension 0 has size 2, not 3"):
        y[idx] = 1.0
    with pytest.raises(IndexError, match=r"3 dimension\(s\)"):
        xp.zeros((3, 4, 1))[idx]
    # a basic index too
    view = ocean_ext.index[1:].bind((3,))
    with pytest.raises(IndexError, match="dimension 0"):
        xp.zeros(4)[view]


def test_bind_target_type():
    idx = ocean_ext.index[0]
    with pytest.raises(TypeError, match="shape"):
        idx.bind(3)
    with pytest.raises(TypeError, match="shape"):
        idx.bind((3, -1))
    with pytest.raises(TypeError, match="shape"):
        idx.bind(np.zeros(3))


def test_setitem_dtype_rules_match_setitem():
    x = xp.zeros(5, dtype=xp.int32)
    for idx in (ocean_ext.index[[0, 1]], ocean_ext.index[[0, 1]].bind(x)):
        with pytest.raises(TypeError):
            x[idx] = 1.5  # a float into an int array
        with pytest.raises(TypeError):
            x[idx] = xp.asarray([1.0, 2.0])  # float64 does not promote to int32
        with pytest.raises(TypeError):
            x[idx] = xp.asarray([1, 2], dtype=xp.int64)
        x[idx] = xp.asarray([1, 2], dtype=xp.int8)  # promotes
        x[idx] = True if x.dtype == xp.bool else 3
    same(x, np.array([3, 3, 0, 0, 0], dtype=np.int32))
    with pytest.raises(ValueError, match="__setitem__"):
        x[ocean_ext.index[[0, 1]].bind(x)] = xp.asarray([1, 2, 3], dtype=xp.int32)


def test_key_errors_come_before_value_errors():
    x = xp.zeros(3)
    with pytest.raises(IndexError):
        x[ocean_ext.index[[5]]] = "not a value"
    with pytest.raises(IndexError):
        x[ocean_ext.index[[0]].bind((4,))] = "not a value"


# --- devices -----------------------------------------------------------------------


def test_key_arrays_pin_the_device():
    x1 = xp.arange(5.0, device=CPU1)
    i0 = xp.asarray([0, 1], device=CPU0)
    idx = ocean_ext.index[i0]
    with pytest.raises(ValueError, match="to_device"):
        x1[idx]
    with pytest.raises(ValueError, match="to_device"):
        idx.bind(x1)
    b = idx.bind((5,))
    with pytest.raises(ValueError, match="to_device"):
        x1[b]
    with pytest.raises(ValueError, match="to_device"):
        x1[b] = 1.0
    with pytest.raises(ValueError):
        x1[i0]  # the same error class as x[key]


def test_host_keys_move_to_each_device_once():
    idx = ocean_ext.index[[0, -1]].bind((5,))
    for dev in (CPU0, CPU1):
        x = xp.arange(5.0, device=dev)
        r = x[idx]
        assert r.device == dev
        same(r, [0.0, 4.0])
        x[idx] = 7.0
        same(x, [7.0, 1.0, 2.0, 3.0, 7.0])
    assert set(idx._bound) == {CPU0, CPU1}


def test_value_on_another_device():
    x = xp.zeros(3)
    v = xp.ones(2, device=CPU1)
    with pytest.raises(ValueError, match="to_device"):
        x[ocean_ext.index[[0, 1]].bind(x)] = v


# --- read-only and overlap ---------------------------------------------------------


def test_read_only_hook_is_called(monkeypatch):
    calls = []

    def check(x, where):
        calls.append(where)
        raise _ext_hooks.ReadOnlyError(f"{where}: read-only")

    monkeypatch.setattr(_ext_hooks, "_check", check)
    x = xp.zeros(3)
    for idx in (
        ocean_ext.index[[0]],
        ocean_ext.index[[0]].bind(x),
        ocean_ext.index[1:],
    ):
        with pytest.raises(_ext_hooks.ReadOnlyError):
            x[idx] = 1.0
    assert calls == ["__setitem__()"] * 3
    same(x, np.zeros(3))


def test_read_only_memory():
    xn = np.arange(6.0)
    xn.flags.writeable = False
    x = xp.asarray(xn)
    for idx in (
        ocean_ext.index[[0]],
        ocean_ext.index[[0]].bind(x),
        ocean_ext.index[::2].bind(x),
    ):
        with pytest.raises(ValueError, match="read-only"):
            x[idx] = 1.0
    same(x, np.arange(6.0))


def test_read_only_set_after_binding():
    if not hasattr(ocean_ext, "set_readonly"):
        pytest.skip("ocean_ext.set_readonly is not available")
    x = xp.arange(6.0)
    idx = ocean_ext.index[[0, 2]].bind(x)
    x[idx] = 1.0
    ocean_ext.set_readonly(x)
    with pytest.raises(ocean_ext.ReadOnlyError):
        x[idx] = 2.0
    with pytest.raises(ocean_ext.ReadOnlyError):
        x[ocean_ext.index[::2]] = 2.0
    same(x[idx], [1.0, 1.0])


@pytest.mark.parametrize(
    ("dst", "src"),
    [
        ([1, 2], [2, 1]),
        (slice(1, None), slice(None, -1)),
        ([0, 2, 4, 6, 8], slice(None, None, -2)),
        (slice(None, None, -1), slice(None)),
        ([9, 8, 7, 6, 5, 4, 3, 2, 1, 0], slice(None)),
    ],
)
def test_overlapping_source_is_read_first(dst, src):
    xn = np.arange(10.0)
    expected = xn.copy()
    expected[dst] = xn.copy()[src]
    for bind in (False, True):
        x = xp.arange(10.0)
        d, s = ocean_ext.index[dst], ocean_ext.index[src]
        if bind:
            d, s = d.bind(x), s.bind(x)
        x[d] = x[s]
        same(x, expected)
        x = xp.arange(10.0)
        x[d] = x[xp.asarray(src) if isinstance(src, list) else src]
        same(x, expected)


def test_overlap_on_strided_view():
    base = xp.arange(20.0)
    x = base[::2]
    idx = ocean_ext.index[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]].bind(x)
    x[idx] = base[18::-2]  # x reversed, through another view of the same memory
    np.testing.assert_array_equal(host(x), np.arange(18.0, -1, -2))


# --- the core hook ---------------------------------------------------------------


def test_core_hook_registered():
    assert _ext_hooks.index_type is Index


def test_index_objects_are_not_keys_inside_tuples():
    x = xp.zeros((3, 3))
    with pytest.raises(IndexError, match="Index is not a valid index"):
        x[ocean_ext.index[0], 0]


def test_instrumented_kernels():
    x = xp.arange(100.0)
    idx = ocean_ext.index[xp.asarray([3, -1])].bind(x)
    with ocean_ext.instrument() as stats:
        x[idx]
        x[idx] = 1.0
    assert stats["take_flat"].count == 1
    assert stats["setitem"].count == 1


def test_error_messages_name_the_operation():
    x = xp.zeros((2, 2))
    with pytest.raises(IndexError, match=re.escape("__getitem__()")):
        x[ocean_ext.index[[0, 1]].bind((2, 3))]
    with pytest.raises(IndexError, match=re.escape("Index.bind()")):
        ocean_ext.index[5].bind(x)


def test_backend_without_flat_entries(monkeypatch):
    """A backend without flat_layout/take_flat: the resolved key is applied."""
    ops = CPU0._ops
    monkeypatch.delitem(ops, "flat_layout")
    monkeypatch.delitem(ops, "take_flat")
    x = xp.reshape(xp.arange(24.0), (4, 6))
    key = (xp.asarray([True, False, True, True]), slice(1, None, 2))
    b = ocean_ext.index[key].bind(x)
    xn = np.asarray(x)
    same(x[b], xn[np.asarray(key[0]), 1::2])
    x[b] = -1.0
    xn = xn.copy()
    xn[np.asarray(key[0]), 1::2] = -1.0
    same(x, xn)


def test_bound_index_on_a_one_element_view_with_a_wide_stride():
    # x.reshape(1) of such a view keeps its 16-byte stride: the compiled gather
    # must hand it to NumPy rather than fail (found by hypothesis).
    base = xp.arange(4.0)
    x = base[::2][:1]
    assert x[ocean_ext.index[[0]].bind(x)].shape == (1,)
    assert float(x[ocean_ext.index[[0]].bind(x)][0]) == 0.0
    assert x[ocean_ext.index[[]].bind(x)].shape == (0,)


def test_a_0d_index_array_is_bounds_checked_as_an_integer():
    """NumPy checks a 0-d index array's bounds as it checks an integer's, even
    when another index array selects nothing (``a[0, array(1), []]`` raises);
    an n-d one only when something is selected.  Bound index objects did not
    raise (found by test_setitem_matches_numpy)."""
    a = xp.zeros((1, 1, 1))
    empty = xp.asarray([], dtype=xp.int64)
    idx = ocean_ext.index[0, xp.asarray(1), empty]
    for target in (a, a.shape):
        with pytest.raises(IndexError, match="out of bounds for axis 1"):
            idx.bind(target)
    with pytest.raises(IndexError, match="out of bounds"):
        a[idx] = 0.0
    # an n-d out-of-bounds index array with an empty selection: nothing to do
    b = xp.zeros((2, 2))
    ok = ocean_ext.index[xp.asarray([5]), empty].bind(b)
    b[ok] = 1.0
    assert float(xp.sum(b)) == 0.0
