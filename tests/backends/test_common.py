"""The array-module-generic pieces both backend tables share (ocean_cpu._common).

They are exercised through every test of the CPU and (simulated) CUDA tables;
these tests pin the parts whose mistakes would be silent: the shape arithmetic
of reductions and the flat layout index objects gather through.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ocean_array_api import _backend

_backend.get_backend("cpu")  # ensures backends/ is importable
from ocean_cpu import _common  # noqa: E402

as_strided = np.lib.stride_tricks.as_strided


@pytest.mark.parametrize(
    ("shape", "axis", "keepdims", "expected"),
    [
        ((2, 3, 4), None, False, ((), 24)),
        ((2, 3, 4), None, True, ((1, 1, 1), 24)),
        ((2, 3, 4), 1, False, ((2, 4), 3)),
        ((2, 3, 4), -1, True, ((2, 3, 1), 4)),
        ((2, 3, 4), (0, 2), False, ((3,), 8)),
        ((2, 3, 4), (-3, -1), True, ((1, 3, 1), 8)),
        ((2, 0, 4), 1, False, ((2, 4), 0)),
        ((), None, False, ((), 1)),
    ],
)
def test_reduced(shape, axis, keepdims, expected):
    assert _common.reduced(shape, axis, keepdims) == expected
    ref = np.sum(np.ones(shape), axis=axis, keepdims=keepdims)
    assert ref.shape == expected[0]


@st.composite
def strided_views(draw):
    """A view of a fresh array with arbitrary steps (negative ones too)."""
    base = draw(
        hnp.arrays(np.int32, hnp.array_shapes(min_dims=0, max_dims=4, max_side=5))
    )
    key = tuple(
        slice(
            draw(st.none() | st.integers(-n - 1, n + 1)),
            draw(st.none() | st.integers(-n - 1, n + 1)),
            draw(st.sampled_from([None, 1, 2, -1, -2, 3])),
        )
        for n in base.shape
    )
    view = base[(*key, ...)]  # a 0-d view, not a NumPy scalar, for ndim 0
    if draw(st.booleans()) and view.ndim > 1:
        view = view.transpose(draw(st.permutations(range(view.ndim))))
    return view


@given(strided_views())
def test_flat_layout_addresses_every_element(x):
    layout = _common.flat_layout(as_strided, x)
    if x.size == 0:
        assert layout is None
        return
    flat, start, strides = layout
    assert np.shares_memory(flat, x)
    # every element of x, read through flat at start + sum(index * stride)
    for index in np.ndindex(x.shape):
        offset = start + sum(i * s for i, s in zip(index, strides, strict=True))
        assert 0 <= offset < flat.size
        assert flat[offset] == x[index]
    assert all(s == 0 for n, s in zip(x.shape, strides, strict=True) if n == 1)


def test_flat_layout_refuses_partial_element_strides():
    # int32 elements 6 bytes apart: no whole-element flat view holds them
    y = as_strided(np.zeros(8, dtype=np.int32), (3,), (6,))
    assert _common.flat_layout(as_strided, y) is None


@pytest.mark.parametrize(
    ("shape", "expected"),
    [((), ()), ((5,), (1,)), ((2, 3), (3, 1)), ((2, 1, 4), (4, 0, 1)), ((1,), (0,))],
)
def test_c_strides(shape, expected):
    assert _common.c_strides(shape) == expected


@given(
    hnp.arrays(np.int64, hnp.array_shapes(min_dims=1, max_dims=3, max_side=5)),
    st.data(),
)
def test_layout_compositions_match_numpy(x, data):
    axis = data.draw(st.integers(0, x.ndim - 1))
    np.testing.assert_array_equal(_common.reversed_view(x, axis), np.flip(x, axis))
    np.testing.assert_array_equal(_common.flip(x, None), np.flip(x))
    parts = _common.unstack(x, axis)
    assert len(parts) == x.shape[axis]
    for i, part in enumerate(parts):
        np.testing.assert_array_equal(part, np.take(x, i, axis=axis))
        assert np.shares_memory(part, x) or part.size == 0
    n = data.draw(st.integers(1, 2))
    tail = x[:1] if axis == 0 else None  # appended along axis 0 only
    extra = {} if tail is None else {"append": tail}
    np.testing.assert_array_equal(
        _common.diff(np.concatenate, x, axis, n, None, tail),
        np.diff(x, n=n, axis=axis, **extra),
    )
    np.testing.assert_array_equal(
        _common.stack(np.concatenate, [x, x], axis, x.dtype), np.stack([x, x], axis)
    )
    dest = data.draw(st.integers(0, x.ndim - 1))
    np.testing.assert_array_equal(
        _common.moveaxis(x, (axis,), (dest,)), np.moveaxis(x, axis, dest)
    )


def test_check_complex_view():
    pairs = np.zeros((4, 2), dtype=np.float16)
    _common.check_complex_view(pairs)  # fine
    with pytest.raises(ValueError, match="last axis"):
        _common.check_complex_view(np.zeros((2, 4), dtype=np.float16).T)
    with pytest.raises(ValueError, match="multiple of the complex"):
        _common.check_complex_view(np.zeros((3, 3), dtype=np.float16)[:, :2])


def test_elementwise_table_takes_corrections_by_known_name():
    table = _common.elementwise(np, {"pow": np.float_power})
    assert table.keys() == _common.ELEMENTWISE.keys()
    assert table["pow"] is np.float_power
    assert table["divide"] is np.true_divide
    with pytest.raises(KeyError, match="not elementwise entries"):
        _common.elementwise(np, {"power": np.power})  # a NumPy name, not ours


@pytest.mark.parametrize("kind", ["cpu", "cuda"])
def test_both_tables_have_every_elementwise_entry(kind):
    ops = _backend.get_backend(kind).ops if kind == "cpu" else _cuda_ops()
    missing = [n for n in _common.ELEMENTWISE if n not in ops]
    assert not missing


def _cuda_ops():
    from ocean_cuda import _ops

    from ..simcupy import xp as simulated

    return _ops.build_ops(simulated, multi_device=False)


def test_empty_mean_and_spread_are_quiet_nans():
    mean = _common.mean_entry(np, np.mean)
    res = mean(np.zeros((0, 3), dtype=np.complex64), 0, False)
    assert res.shape == (3,)
    assert res.dtype == np.complex64
    assert np.isnan(res.real).all()
    assert np.isnan(res.imag).all()
    var = _common.spread_entry(np, np.var)
    assert np.isnan(var(np.ones((2, 3)), 0, 2.0, True)).all()
    np.testing.assert_allclose(
        var(np.arange(4.0), None, 1.0, False), np.var(np.arange(4.0), ddof=1)
    )
    assert mean(np.zeros(4, dtype=">f8"), None, False).dtype.isnative
