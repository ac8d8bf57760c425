"""Indexing (``__getitem__``/``__setitem__``) against NumPy, and its errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import LAZY_DEFAULT, assert_matches, host

_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5)


@st.composite
def _shapes_broadcasting_to(draw, target):
    """Shapes that broadcast *to* ``target`` (trailing dims, some set to 1)."""
    k = draw(st.integers(0, len(target)))
    dims = target[len(target) - k :]
    return tuple(draw(st.sampled_from([d, 1])) for d in dims)


def _arange(shape, dtype=np.int64):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


# --- basic indexing --------------------------------------------------------------------


@given(data=st.data(), shape=_shapes)
def test_basic_indexing_matches_numpy(data, shape):
    a = _arange(shape)
    idx = data.draw(
        hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True), label="index"
    )
    assert_matches(xp.asarray(a)[idx], a[idx])


@given(data=st.data(), shape=_shapes.filter(lambda s: len(s) > 0))
def test_basic_setitem_matches_numpy(data, shape):
    a = _arange(shape, np.float64)
    idx = data.draw(
        hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True), label="index"
    )
    target_shape = a[idx].shape
    use_array = data.draw(st.booleans(), label="array value")
    if use_array:
        vshape = data.draw(_shapes_broadcasting_to(target_shape), label="value shape")
        value = np.full(vshape, -1.5)
        xvalue = xp.asarray(value)
    else:
        value = xvalue = -2.5
    x = xp.asarray(a.copy())
    x[idx] = xvalue
    a[idx] = value
    assert_matches(x, a)


def test_indexing_examples(device):
    a = _arange((3, 4, 5))
    x = xp.asarray(a, device=device)
    for key in [0, -1, 2, (1, 2), (1, 2, 3), (-1, -2, -3), slice(None), slice(1, None), slice(None, None, -1),
                slice(None, None, 2), (slice(None), 1), (Ellipsis, 1), (1, Ellipsis), (None, 1), (1, None, 2),
                (Ellipsis,), (), Ellipsis, (slice(1, 2), slice(None, None, -2), 0), (slice(10, 20),),
                (slice(-10, 2),), (None, Ellipsis, None)]:  # fmt: skip
        res = x[key]
        assert_matches(res, a[key], device=device)


def test_integer_index_of_1d_array_gives_a_proper_zero_dim_array():
    # A 0-d result must behave like every other array: NumPy conversion,
    # DLPack, setitem.
    x = xp.asarray([1.0, 2.0])
    y = x[0]
    assert y.shape == ()
    np.testing.assert_array_equal(np.asarray(y), np.float64(1.0))
    np.testing.assert_array_equal(np.from_dlpack(y), np.float64(1.0))
    z = x[-1]
    z[...] = 5.0  # writes into a 0-d array (a view or a copy: either is allowed)
    assert float(z) == 5.0
    assert_matches(xp.reshape(xp.arange(3), (3,))[1], np.int64(1))


def test_zero_dim_indexing():
    x = xp.asarray(5.0)
    assert_matches(x[()], np.float64(5.0))
    assert_matches(x[...], np.float64(5.0))
    assert_matches(x[None], np.array([5.0]))
    with pytest.raises(IndexError):
        x[0]


def test_slice_bounds_may_be_zero_dim_integer_arrays():
    a = np.arange(10)
    x = xp.asarray(a)
    assert_matches(x[xp.asarray(2) : xp.asarray(7)], a[2:7])


def test_integer_zero_dim_array_index():
    a = _arange((3, 4))
    assert_matches(xp.asarray(a)[xp.asarray(1)], a[1])
    assert_matches(xp.asarray(a)[xp.asarray(1), xp.asarray(-1)], a[1, -1])


# --- integer array indexing --------------------------------------------------------------------


@pytest.mark.parametrize(
    "make_key",
    [
        lambda: [0, 2, 1],
        lambda: [-1, 0],
        lambda: [[0, 1], [2, 2]],
        lambda: ([0, 2], [1, 3]),
        lambda: ([[0], [2]], [1, 3]),
        lambda: (1, [0, 3]),
        lambda: ([0, 2], 1),
        lambda: ([0, 1], [1, 2], [3, 4]),
        lambda: (Ellipsis, [0, 4]),
        lambda: (Ellipsis, [[0, 4], [1, 1]]),
        lambda: (slice(None), [0, 2]),
        lambda: (slice(None), slice(None), [1, -1]),
        lambda: (1, slice(None), [1, -1]),
        lambda: ([0, 1], slice(None), [1, -1]),
        lambda: (None, [0, 1]),
        lambda: [],
    ],
)
def test_integer_array_indexing_matches_numpy(make_key, device):
    a = _arange((3, 4, 5))
    key = make_key()
    keys = key if isinstance(key, tuple) else (key,)
    np_key = tuple(
        np.asarray(k, dtype=np.int64) if isinstance(k, list) else k for k in keys
    )
    xp_key = tuple(
        xp.asarray(k, dtype=xp.int64, device=device) if isinstance(k, list) else k
        for k in keys
    )
    assert_matches(xp.asarray(a, device=device)[xp_key], a[np_key], device=device)
    if len(keys) == 1:
        assert_matches(
            xp.asarray(a, device=device)[xp_key[0]], a[np_key[0]], device=device
        )


@pytest.mark.parametrize(
    "dt", [xp.int8, xp.int16, xp.int32, xp.uint8, xp.uint16, xp.uint32, xp.uint64]
)
def test_integer_array_index_dtypes(dt):
    a = np.arange(10.0)
    assert_matches(xp.asarray(a)[xp.asarray([1, 3], dtype=dt)], a[[1, 3]])


@given(data=st.data())
def test_integer_array_indexing_property(data):
    shape = data.draw(
        hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5), label="shape"
    )
    a = _arange(shape)
    axis_len = shape[-1]
    idx = data.draw(
        hnp.arrays(
            np.int64,
            hnp.array_shapes(min_dims=0, max_dims=2, max_side=3),
            elements=st.integers(-axis_len, axis_len - 1),
        ),
        label="idx",
    )
    assert_matches(xp.asarray(a)[..., xp.asarray(idx)], a[..., idx])
    first = data.draw(
        hnp.arrays(np.int64, (2,), elements=st.integers(-shape[0], shape[0] - 1)),
        label="first",
    )
    assert_matches(xp.asarray(a)[xp.asarray(first)], a[first])


@pytest.mark.skipif(
    LAZY_DEFAULT,
    reason="a lazy device cannot check index values without computing them",
)
def test_integer_array_out_of_bounds_is_index_error():
    x = xp.arange(5)
    with pytest.raises(IndexError):
        x[xp.asarray([0, 5])]
    with pytest.raises(IndexError):
        x[xp.asarray([-6])]
    with pytest.raises(IndexError):
        x[xp.asarray([0, 5])] = 1


_INT_DTYPES = [xp.int8, xp.int16, xp.int32, xp.int64, xp.uint8, xp.uint16, xp.uint32, xp.uint64]  # fmt: skip


def _index_paths(x, key):
    """Every way an index array reaches the data: getitem (a lone key and one
    of a tuple), setitem, take, take_along_axis, an unbound ocean_ext.index."""
    import ocean_ext

    return {
        "getitem": lambda: x[key],
        "tuple": lambda: x[key, ...],
        "setitem": lambda: x.__setitem__(key, -1),
        "take": lambda: xp.take(x, key if key.ndim == 1 else xp.reshape(key, (-1,))),
        "take_along_axis": lambda: xp.take_along_axis(
            x, xp.reshape(key, (-1,)), axis=0
        ),
        "index": lambda: x[ocean_ext.index[key]],
    }


@pytest.mark.skipif(
    LAZY_DEFAULT,
    reason="a lazy device cannot check index values without computing them",
)
@given(data=st.data())
def test_index_arrays_of_every_integer_dtype_over_its_whole_range(data):
    # Values anywhere in the dtype's range: in bounds they index as the same
    # Python integers do, out of bounds (uint64 beyond intp too, which NumPy
    # wraps around to negative indices) they raise IndexError on every path.
    dt = data.draw(st.sampled_from(_INT_DTYPES), label="dtype")
    info = xp.iinfo(dt)
    n = data.draw(st.integers(0, 6), label="n")
    near = st.integers(max(info.min, -n - 1), min(info.max, n))
    # the range's edges, and where a wider type's sign bit falls
    edges = {info.min, info.max, (info.max >> 1) + 1, 2**31, 2**32, 2**63}
    edge = st.sampled_from(sorted(v for v in edges if info.min <= v <= info.max))
    values = data.draw(
        st.lists(near | edge | st.integers(info.min, info.max), min_size=0, max_size=4),
        label="values",
    )
    key = xp.asarray(values, dtype=dt)
    a = np.arange(n, dtype=np.int64) * 10
    inside = all(-n <= v < n for v in values)
    for name, call in _index_paths(xp.asarray(a), key).items():
        if inside:
            got = call()
            if name == "setitem":
                continue
            np.testing.assert_array_equal(
                host(got), a[np.asarray(values, dtype=np.int64)], err_msg=name
            )
        else:
            with pytest.raises(IndexError):
                call()
    zero_d = xp.asarray(values[0] if values else 0, dtype=dt)
    if -n <= int(zero_d) < n:
        assert int(xp.asarray(a)[zero_d]) == a[int(zero_d)]
    else:
        with pytest.raises(IndexError):
            xp.asarray(a)[zero_d]


@pytest.mark.skipif(
    LAZY_DEFAULT,
    reason="a lazy device cannot check index values without computing them",
)
@pytest.mark.parametrize("value", [2**64 - 1, 2**63, 2**63 + 5])
def test_uint64_indices_beyond_intp_are_out_of_bounds(value, device):
    # NumPy casts them to intp, wrapping 2**64 - 1 around to -1: the last
    # element was read and written (CuPy wraps too: the CUDA backend checks)
    if device.kind == "dask":
        pytest.skip("a lazy device checks index values when the graph runs")
    x = xp.arange(4.0, device=device)
    key = xp.asarray([value], dtype=xp.uint64, device=device)
    for name, call in _index_paths(x, key).items():
        with pytest.raises(IndexError, match=str(value)):
            call()
        assert xp.all(x == xp.arange(4.0, device=device)), name
    with pytest.raises(IndexError, match=str(value)):
        x[xp.asarray(value, dtype=xp.uint64, device=device)]


# --- boolean indexing ---------------------------------------------------------------------------------


@given(
    data=st.data(),
    shape=hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4),
)
def test_boolean_mask_matches_numpy(data, shape):
    a = _arange(shape)
    k = data.draw(st.integers(1, len(shape)), label="mask ndim")
    mask = data.draw(hnp.arrays(np.bool_, shape[:k]), label="mask")
    assert_matches(xp.asarray(a)[xp.asarray(mask)], a[mask])
    assert_matches(xp.asarray(a)[(xp.asarray(mask),)], a[(mask,)])


def test_zero_dim_boolean_mask():
    a = _arange((2, 3))
    assert_matches(xp.asarray(a)[xp.asarray(True)], a[np.True_])
    assert_matches(xp.asarray(a)[xp.asarray(False)], a[np.False_])


def test_boolean_mask_setitem(device):
    a = np.array([1.0, -2.0, 3.0, -4.0])
    x = xp.asarray(a, device=device)
    x[x < 0] = 0.0
    assert_matches(x, np.array([1.0, 0.0, 3.0, 0.0]), device=device)
    x[xp.asarray([True, False, True, False], device=device)] = xp.asarray(
        [10.0, 30.0], device=device
    )
    assert_matches(x, np.array([10.0, 0.0, 30.0, 0.0]))


def test_boolean_mask_errors():
    x = xp.reshape(xp.arange(6), (2, 3))
    with pytest.raises(IndexError):
        x[xp.asarray([True, False, True])]  # wrong length for axis 0
    with pytest.raises(IndexError):
        x[xp.ones((2, 3, 1), dtype=xp.bool)]  # more dimensions than x
    with pytest.raises(IndexError):
        x[xp.asarray([True, False]), 0]  # not the sole index
    with pytest.raises(IndexError):
        x[0, xp.asarray([True, False, True])]
    with pytest.raises(IndexError):
        x[..., xp.asarray([True, False, True])]


# --- setitem -------------------------------------------------------------------------------------------------


def test_setitem_integer_arrays(device):
    a = np.zeros((3, 4))
    x = xp.asarray(a.copy(), device=device)
    x[xp.asarray([0, 2], device=device)] = 1.0
    a[[0, 2]] = 1.0
    x[1, xp.asarray([1, 3], device=device)] = xp.asarray([5.0, 6.0], device=device)
    a[1, [1, 3]] = [5.0, 6.0]
    x[..., xp.asarray([0], device=device)] = -1.0
    a[..., [0]] = -1.0
    assert_matches(x, a, device=device)


@pytest.mark.parametrize(
    ("dt", "value"),
    [
        (xp.int32, 1.5),
        (xp.int32, True),
        (xp.float64, 1j),
        (xp.float32, True),
        (xp.bool, 1),
        (xp.uint8, 1.0),
        (xp.int8, xp.ones(1, dtype=xp.int16)),
        (xp.float32, xp.ones(1, dtype=xp.float64)),
        (xp.int64, xp.ones(1, dtype=xp.float32)),
        (xp.float64, xp.ones(1, dtype=xp.complex64)),
        (xp.int64, xp.ones(1, dtype=xp.uint64)),
        (xp.float64, [1.0]),
        (xp.float64, np.ones(1)),
        (xp.float64, "1"),
    ],
)
def test_setitem_value_dtype_errors(dt, value):
    x = xp.zeros(3, dtype=dt)
    with pytest.raises(TypeError):
        x[0] = value
    assert_matches(x, np.zeros(3, dtype=str(dt)))


def test_setitem_promotable_values():
    x = xp.zeros(3, dtype=xp.float64)
    x[0] = xp.asarray(1.5, dtype=xp.float32)
    x[1] = 2
    x[2:] = xp.asarray([3.0], dtype=xp.float32)
    assert_matches(x, np.array([1.5, 2.0, 3.0]))
    i = xp.zeros(2, dtype=xp.int16)
    i[:] = xp.asarray([1, 2], dtype=xp.uint8)
    assert_matches(i, np.array([1, 2], dtype=np.int16))
    c = xp.zeros(2, dtype=xp.complex64)
    c[0] = 1.5
    c[1] = 2j
    assert_matches(c, np.array([1.5, 2j], dtype=np.complex64))
    b = xp.zeros(2, dtype=xp.bool)
    b[1] = True
    assert_matches(b, np.array([False, True]))


def test_setitem_python_int_out_of_range():
    x = xp.zeros(2, dtype=xp.int8)
    with pytest.raises((OverflowError, TypeError)):
        x[0] = 1000
    assert_matches(x, np.zeros(2, dtype=np.int8))


def test_setitem_shape_errors():
    x = xp.zeros((2, 3))
    with pytest.raises(ValueError):
        x[0] = xp.ones(2)
    with pytest.raises(ValueError):
        x[:, 0] = xp.ones((2, 2))


def test_setitem_out_of_bounds_is_index_error():
    x = xp.zeros((2, 3))
    with pytest.raises(IndexError):
        x[2] = 1.0
    with pytest.raises(IndexError):
        x[0, -4] = 1.0


def test_setitem_device_mismatch(other_device):
    x = xp.zeros(3)
    with pytest.raises(ValueError):
        x[0] = xp.asarray(1.0, device=other_device)
    with pytest.raises(ValueError):
        x[xp.asarray([0], device=other_device)] = 1.0
    with pytest.raises(ValueError):
        x[xp.asarray([True, False, True], device=other_device)] = 1.0


def test_getitem_index_array_device_mismatch(other_device):
    x = xp.arange(3)
    with pytest.raises(ValueError):
        x[xp.asarray([0], device=other_device)]
    with pytest.raises(ValueError):
        x[xp.asarray([True, False, True], device=other_device)]


@pytest.mark.skipif(
    LAZY_DEFAULT,
    reason="a view of a lazy array is another graph: writes do not reach its base",
)
def test_setitem_writes_through_basic_views():
    x = xp.zeros((3, 3))
    row = x[1]
    row[1] = 5.0
    assert float(x[1, 1]) == 5.0


# --- non-standard keys: IndexError -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        [0, 1],
        [True, False, True],
        (0, [0]),
        np.array([0, 1]),
        np.array([True, False, True]),
        np.array(1),
        1.0,
        (0.0,),
        True,
        False,
        (0, True),
        "a",
        slice(0.0, 2),
        slice(None, 2.5),
        slice(0, 2, 1.0),
        (Ellipsis, Ellipsis),
        (0, 0, 0),
        object(),
    ],
    ids=lambda k: type(k).__name__ if type(k) is object else repr(k),
)
def test_non_standard_keys_are_index_errors(key):
    x = xp.reshape(xp.arange(9), (3, 3))
    with pytest.raises(IndexError):
        x[key]
    with pytest.raises(IndexError):
        x[key] = 0


@pytest.mark.parametrize("dt", [xp.float32, xp.float64, xp.complex64])
def test_float_array_keys_are_index_errors(dt):
    x = xp.arange(3)
    with pytest.raises(IndexError):
        x[xp.asarray([0, 1], dtype=dt)]


@pytest.mark.parametrize("key", [3, -4, (0, 3), (Ellipsis, 5), (slice(None), -4)])
def test_out_of_bounds_integers_are_index_errors(key):
    x = xp.reshape(xp.arange(9), (3, 3))
    with pytest.raises(IndexError):
        x[key]


def test_indexing_results_are_arrays_with_dtype_and_device(other_device):
    x = xp.asarray([[1, 2], [3, 4]], dtype=xp.uint16, device=other_device)
    for key in (0, (0, 1), slice(None), xp.asarray([1], device=other_device), x > 1):
        r = x[key]
        assert type(r) is xp.Array
        assert r.dtype == xp.uint16
        assert r.device == other_device
    assert int(x[1, 0]) == 3
    np.testing.assert_array_equal(host(x[x > 1]), [2, 3, 4])


@pytest.mark.parametrize(
    "key",
    [0, slice(None), (Ellipsis,), xp.asarray([0])],
    ids=["int", "slice", "ellipsis", "array"],
)
def test_setitem_of_an_out_of_range_python_int_names_the_function(key):
    # The fast path let NumPy's unnamed OverflowError through.
    x = xp.asarray([1, 2], dtype=xp.int8)
    with pytest.raises(
        OverflowError, match=r"^__setitem__\(\): the Python int `value` 300"
    ):
        x[key] = 300
    np.testing.assert_array_equal(np.asarray(x), [1, 2])


NP_INTS = [np.int64(1), np.int32(1), np.uint8(1), np.intp(1)]


@pytest.mark.parametrize("i", NP_INTS, ids=repr)
def test_numpy_integers_index_like_ints(i):
    # Downstream code indexes with NumPy integers (argmax results, shape
    # arithmetic); they have __index__, which is what the standard asks of an
    # integer index.  x[np.int64(k)] = ... raised IndexError (scikit-learn's
    # GaussianMixture), and so did NumPy-integer slice bounds in a tuple key
    # (scipy.signal).
    a = np.arange(24.0).reshape(4, 6)
    x = xp.asarray(a)
    assert_matches(x[i], a[1])
    assert_matches(x[i, i + 4], a[1, 5])
    assert_matches(x[i:, : 2 * i + 1 : i], a[1:, :3:1])
    assert_matches(x[..., i], a[..., 1])
    y = xp.asarray(a)
    y[i] = 0.0
    y[i + 1 :, i] = -1.0
    want = a.copy()
    want[1] = 0.0
    want[2:, 1] = -1.0
    assert_matches(y, want)


@pytest.mark.parametrize(
    "key",
    [
        np.True_,
        np.float64(1.0),
        np.array(1),
        (0, np.array(1)),
        slice(np.float64(1.0), None),
    ],
    ids=repr,
)
def test_numpy_non_integers_are_still_invalid_indices(key):
    x = xp.ones((3, 3))
    with pytest.raises(IndexError):
        x[key]
