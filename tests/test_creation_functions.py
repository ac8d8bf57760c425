"""Creation functions, with NumPy as the oracle."""

from __future__ import annotations

import array
import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import (
    ALL_DTYPES,
    CPU0,
    CPU1,
    LAZY_DEFAULT,
    assert_matches,
    host,
    np_dtype,
    rng_array,
)

DEFAULT = xp.__array_namespace_info__().default_device()  # the CPU unless set

# --- asarray ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "dtype"),
    [
        (True, xp.bool),
        (3, xp.int64),
        (3.5, xp.float64),
        (1 + 2j, xp.complex128),
        ([1, 2, 3], xp.int64),
        ([1, 2.5], xp.float64),
        ([1, 2j], xp.complex128),
        ([1.0, 2j], xp.complex128),
        ([[True, False], [False, True]], xp.bool),
        ((1, 2), xp.int64),
        ([[1, 2], (3, 4)], xp.int64),
        ([], xp.float64),
        ([[], []], xp.float64),
    ],
)
def test_asarray_python_objects_default_dtypes(obj, dtype, device):
    x = xp.asarray(obj, device=device)
    assert_matches(x, np.array(obj, dtype=np_dtype(dtype)), dtype=dtype, device=device)


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_asarray_with_dtype(dt):
    x = (
        xp.asarray([[0, 1], [1, 0]], dtype=dt)
        if dt != xp.bool
        else xp.asarray([[False, True], [True, False]], dtype=dt)
    )
    assert_matches(x, np.array([[0, 1], [1, 0]], dtype=np_dtype(dt)))


@pytest.mark.parametrize(
    ("obj", "dtype"),
    [
        (2**63, None),
        (-(2**63) - 1, None),
        ([1, 2**64], None),
        (300, xp.int8),
        (-1, xp.uint8),
        ([0, 2**32], xp.uint32),
    ],
)
def test_asarray_int_out_of_range_is_overflow_error(obj, dtype):
    with pytest.raises(OverflowError):
        xp.asarray(obj, dtype=dtype)


def test_asarray_int_at_range_limits():
    assert int(xp.asarray(2**63 - 1)) == 2**63 - 1
    assert int(xp.asarray(-(2**63))) == -(2**63)
    assert int(xp.asarray(2**64 - 1, dtype=xp.uint64)) == 2**64 - 1
    assert int(xp.asarray(-128, dtype=xp.int8)) == -128


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_asarray_numpy_arrays_keep_dtype(dt, device):
    a = rng_array((2, 3), dt)
    assert_matches(xp.asarray(a, device=device), a, device=device)


def test_asarray_numpy_scalars():
    assert_matches(xp.asarray(np.float32(1.5)), np.float32(1.5))
    assert_matches(xp.asarray(np.int16(-3)), np.int16(-3))
    assert_matches(xp.asarray(np.bool_(True)), np.bool_(True))


def test_asarray_numpy_scalar_with_another_dtype_is_an_array():
    # astype() of a NumPy scalar is a scalar: the result must still hold a
    # 0-d array, in-place operators included (SciPy's stats.mannwhitneyu).
    p = xp.asarray(np.float64(0.25), dtype=xp.float32)
    p *= 2
    assert_matches(p, np.asarray(0.5, dtype=np.float32))
    q = xp.asarray(np.int8(3), dtype=xp.int64)
    q += 1
    assert_matches(q, np.asarray(4, dtype=np.int64))


def test_asarray_numpy_array_is_not_copied_by_default():
    # The CPU shares a NumPy array's memory.  (With the lazy dask device as
    # the default, the CPU is asked for explicitly: that device, as any that
    # is not the CPU, holds its own copy, checked below.)
    on_cpu = {"device": CPU0} if LAZY_DEFAULT else {}
    a = np.arange(3.0)
    x = xp.asarray(a, **on_cpu)
    a[0] = 7.0
    assert float(x[0]) == 7.0
    y = xp.asarray(a, copy=False, **on_cpu)
    a[1] = 8.0
    assert float(y[1]) == 8.0
    if LAZY_DEFAULT:
        z = xp.asarray(a)
        a[2] = 9.0
        assert float(z[2]) == 2.0
        with pytest.raises(ValueError, match="copy=False"):
            xp.asarray(a, copy=False)


def test_asarray_copy_true_copies_numpy_arrays():
    a = np.arange(3.0)
    x = xp.asarray(a, copy=True)
    a[0] = 7.0
    assert float(x[0]) == 0.0


def test_asarray_copy_false_impossible_is_value_error():
    with pytest.raises(ValueError):
        xp.asarray([1, 2], copy=False)
    with pytest.raises(ValueError):
        xp.asarray(np.arange(3), dtype=xp.float64, copy=False)
    with pytest.raises(ValueError):
        xp.asarray(xp.arange(3), dtype=xp.float64, copy=False)
    with pytest.raises(ValueError):
        xp.asarray(xp.arange(3), device=CPU1, copy=False)


def test_asarray_bad_copy_argument():
    with pytest.raises(TypeError):
        xp.asarray([1], copy="never")


def test_asarray_of_array():
    x = xp.asarray([1, 2, 3])
    same = xp.asarray(x)
    same[0] = 10
    assert int(x[0]) == 10  # copy=None: no copy needed, none made
    copied = xp.asarray(x, copy=True)
    copied[1] = 20
    assert int(x[1]) == 2
    f = xp.asarray(x, dtype=xp.float32)
    assert_matches(f, np.array([10, 2, 3], dtype=np.float32))
    moved = xp.asarray(x, device=CPU1)
    assert_matches(moved, np.array([10, 2, 3]), device=CPU1)
    moved[0] = 0
    assert int(x[0]) == 10


def test_asarray_buffers():
    assert_matches(xp.asarray(array.array("d", [1.0, 2.0])), np.array([1.0, 2.0]))
    assert_matches(
        xp.asarray(array.array("i", [1, 2])), np.array([1, 2], dtype=np.intc)
    )
    assert_matches(xp.asarray(bytearray(b"\x01\x02")), np.array([1, 2], dtype=np.uint8))
    assert_matches(xp.asarray(memoryview(b"\x05")), np.array([5], dtype=np.uint8))


def test_asarray_big_endian_numpy_array_gives_native_values():
    a = np.arange(4, dtype=">i4")
    x = xp.asarray(a)
    assert x.dtype == xp.int32
    np.testing.assert_array_equal(host(x), np.arange(4))
    assert host(x).dtype.isnative


def test_asarray_dlpack_object_without_array_interface():
    class OnlyDLPack:
        def __init__(self, a):
            self._a = a

        def __dlpack__(self, **kwargs):
            return self._a.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return self._a.__dlpack_device__()

    assert_matches(xp.asarray(OnlyDLPack(np.arange(3))), np.arange(3))


@pytest.mark.parametrize(
    "obj",
    [
        np.ones(2, dtype=np.float16),
        np.array(["a", "b"]),
        np.array([object(), 1], dtype=object),
        np.ones(2, dtype="datetime64[s]"),
        "abc",
        object(),
        {1: 2},
        None,
        [1, "a"],
        [None],
    ],
)
def test_asarray_unsupported_input_is_type_error(obj):
    with pytest.raises(TypeError):
        xp.asarray(obj)


def test_asarray_ragged_is_value_error():
    with pytest.raises(ValueError):
        xp.asarray([[1, 2], [3]])


@pytest.mark.parametrize("dtype", [np.float64, "float64", float, int, object()])
def test_dtype_argument_must_be_ours(dtype):
    for f in (
        lambda: xp.asarray([1], dtype=dtype),
        lambda: xp.zeros(2, dtype=dtype),
        lambda: xp.ones(2, dtype=dtype),
        lambda: xp.empty(2, dtype=dtype),
        lambda: xp.full(2, 1, dtype=dtype),
        lambda: xp.arange(3, dtype=dtype),
        lambda: xp.eye(2, dtype=dtype),
        lambda: xp.linspace(0, 1, 3, dtype=dtype),
    ):
        with pytest.raises(TypeError):
            f()


# --- zeros, ones, empty, full ----------------------------------------------------------


@given(shape=hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
def test_zeros_ones_empty_shapes(shape):
    for func, expected in ((xp.zeros, np.zeros(shape)), (xp.ones, np.ones(shape))):
        assert_matches(func(shape), expected, device=DEFAULT)
    e = xp.empty(shape)
    assert e.shape == shape
    assert e.dtype == xp.float64


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_zeros_ones_empty_dtypes(dt, device):
    nd = np_dtype(dt)
    assert_matches(
        xp.zeros((2, 3), dtype=dt, device=device), np.zeros((2, 3), nd), device=device
    )
    assert_matches(xp.ones(4, dtype=dt, device=device), np.ones(4, nd), device=device)
    e = xp.empty((0, 2), dtype=dt, device=device)
    assert (e.shape, e.dtype, e.device) == ((0, 2), dt, device)


def test_shape_may_be_an_int():
    assert xp.zeros(3).shape == (3,)
    assert xp.ones(0).shape == (0,)
    assert xp.full(2, 1.0).shape == (2,)


@pytest.mark.parametrize("shape", [-1, (2, -1)])
def test_negative_shape_is_value_error(shape):
    for f in (xp.zeros, xp.ones, xp.empty):
        with pytest.raises(ValueError):
            f(shape)
    with pytest.raises(ValueError):
        xp.full(shape, 1.0)


def test_list_shape_is_accepted_for_downstream_code():
    # scikit-learn calls xp.ones([n]); the standard says tuple, we accept lists too.
    for f in (xp.zeros, xp.ones, xp.empty):
        assert f([2, 3]).shape == (2, 3)


@pytest.mark.parametrize("shape", [2.0, (2.0, 3), "3", None])
def test_non_integer_shape_is_type_error(shape):
    for f in (xp.zeros, xp.ones, xp.empty):
        with pytest.raises(TypeError):
            f(shape)


@pytest.mark.parametrize(
    ("fill", "dtype"),
    [(True, xp.bool), (3, xp.int64), (2.5, xp.float64), (1 - 1j, xp.complex128)],
)
def test_full_default_dtypes(fill, dtype, device):
    x = xp.full((2, 2), fill, device=device)
    assert_matches(x, np.full((2, 2), fill), dtype=dtype, device=device)


@pytest.mark.parametrize(
    ("fill", "dtype"),
    [
        (3, xp.float32),
        (3, xp.uint8),
        (-3, xp.int16),
        (2.5, xp.complex64),
        (1j, xp.complex64),
    ],
)
def test_full_with_dtype(fill, dtype):
    assert_matches(
        xp.full(3, fill, dtype=dtype), np.full(3, fill, dtype=np_dtype(dtype))
    )


@pytest.mark.parametrize(
    ("fill", "dtype"),
    [
        (1.5, xp.int32),
        (True, xp.int8),
        (1, xp.bool),
        (1j, xp.float64),
        ("1", None),
        (None, None),
        ([1], None),
    ],
)
def test_full_mismatched_fill_is_type_error(fill, dtype):
    with pytest.raises(TypeError):
        xp.full(3, fill, dtype=dtype)


def test_full_fill_out_of_range_is_overflow_error():
    with pytest.raises(OverflowError):
        xp.full(3, 300, dtype=xp.int8)
    with pytest.raises(OverflowError):
        xp.full(3, -1, dtype=xp.uint16)
    with pytest.raises(OverflowError):
        xp.full(3, 2**64)


def test_full_special_values():
    assert_matches(xp.full(2, math.inf), np.full(2, np.inf))
    assert bool(xp.isnan(xp.full((), math.nan)))


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_like_functions_inherit_shape_dtype_device(dt, other_device):
    x = xp.ones((2, 3), dtype=dt, device=other_device)
    nd = np_dtype(dt)
    assert_matches(xp.zeros_like(x), np.zeros((2, 3), nd), device=other_device)
    assert_matches(xp.ones_like(x), np.ones((2, 3), nd), device=other_device)
    e = xp.empty_like(x)
    assert (e.shape, e.dtype, e.device) == ((2, 3), dt, other_device)
    fill = True if dt == xp.bool else 1
    assert_matches(
        xp.full_like(x, fill), np.full((2, 3), fill, nd), device=other_device
    )


def test_like_functions_overrides():
    x = xp.ones((2,), dtype=xp.int8, device=CPU1)
    assert_matches(
        xp.zeros_like(x, dtype=xp.float32, device=CPU0),
        np.zeros(2, np.float32),
        device=CPU0,
    )
    assert_matches(
        xp.ones_like(x, dtype=xp.complex64), np.ones(2, np.complex64), device=CPU1
    )
    assert_matches(xp.full_like(x, 2.5, dtype=xp.float64), np.full(2, 2.5), device=CPU1)
    assert xp.empty_like(x, device=CPU0).device == CPU0
    with pytest.raises(TypeError):
        xp.full_like(x, 2.5)  # float fill for an int8 array
    with pytest.raises(OverflowError):
        xp.full_like(x, 1000)


def test_like_functions_need_arrays():
    for f in (xp.zeros_like, xp.ones_like, xp.empty_like):
        with pytest.raises(TypeError):
            f(np.ones(3))
    with pytest.raises(TypeError):
        xp.full_like([1, 2], 0)


# --- arange, linspace, eye ---------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [(5,), (0,), (-3,), (1, 10, 3), (10, 0, -2), (10, 0), (2, 3), (-5, 5, 1)],
)
def test_arange_integers(args, device):
    assert_matches(
        xp.arange(*args, device=device), np.arange(*args, dtype=np.int64), device=device
    )


@pytest.mark.parametrize(
    "args", [(5.0,), (0, 1, 0.1), (1.5, 4), (0, -1, -0.25), (0.5, 0.5), (0, 1, 0.3)]
)
def test_arange_floats(args):
    x = xp.arange(*args)
    e = np.arange(*args, dtype=np.float64)
    assert_matches(x, e, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dt", [xp.int8, xp.uint16, xp.int32, xp.float32])
def test_arange_with_dtype(dt):
    assert_matches(xp.arange(1, 7, 2, dtype=dt), np.arange(1, 7, 2, dtype=np_dtype(dt)))


def test_arange_errors():
    with pytest.raises(ValueError):
        xp.arange(0, 10, 0)
    # (a complex dtype is accepted: test_arange_complex_dtype_as_numpy)
    with pytest.raises(TypeError):
        xp.arange(5, dtype=xp.bool)
    with pytest.raises(TypeError):
        xp.arange("5")
    with pytest.raises(TypeError):
        xp.arange(1j)
    with pytest.raises(TypeError):
        xp.arange(True)


@given(
    start=st.integers(-100, 100),
    stop=st.integers(-100, 100),
    step=st.integers(-7, 7).filter(bool),
)
def test_arange_matches_numpy_property(start, stop, step):
    assert_matches(
        xp.arange(start, stop, step), np.arange(start, stop, step, dtype=np.int64)
    )


@pytest.mark.parametrize(
    ("start", "stop", "num", "endpoint"),
    [
        (0, 1, 5, True),
        (0, 1, 5, False),
        (-3.5, 2, 8, True),
        (2, 2, 3, True),
        (0, 1, 0, True),
        (0, 1, 1, True),
        (1, 0, 4, False),
    ],
)
def test_linspace_real(start, stop, num, endpoint, device):
    x = xp.linspace(start, stop, num, endpoint=endpoint, device=device)
    e = np.linspace(start, stop, num, endpoint=endpoint)
    assert_matches(x, e, device=device, rtol=1e-12, atol=1e-15)


def test_linspace_complex_and_dtypes():
    assert_matches(xp.linspace(0, 1 + 1j, 3), np.linspace(0, 1 + 1j, 3), rtol=1e-12)
    assert_matches(
        xp.linspace(0, 1, 4, dtype=xp.float32),
        np.linspace(0, 1, 4, dtype=np.float32),
        rtol=1e-6,
    )
    assert xp.linspace(0j, 1, 3, dtype=xp.complex64).dtype == xp.complex64


def test_linspace_errors():
    # (an integer dtype is accepted: test_linspace_integer_dtype_as_numpy)
    with pytest.raises(TypeError):
        xp.linspace(0, 1j, 3, dtype=xp.float64)
    with pytest.raises(ValueError):
        xp.linspace(0, 1, -1)
    with pytest.raises(TypeError):
        xp.linspace(0, 1, 2.0)
    with pytest.raises(TypeError):
        xp.linspace("0", 1, 2)


@pytest.mark.parametrize(
    ("n", "m", "k"),
    [
        (3, None, 0),
        (3, 4, 0),
        (4, 3, 1),
        (3, 3, -1),
        (3, 3, 5),
        (0, None, 0),
        (2, 5, -7),
    ],
)
def test_eye(n, m, k, device):
    assert_matches(xp.eye(n, m, k=k, device=device), np.eye(n, m, k=k), device=device)


def test_eye_dtype_and_errors():
    assert_matches(xp.eye(2, dtype=xp.int8), np.eye(2, dtype=np.int8))
    assert_matches(xp.eye(2, dtype=xp.bool), np.eye(2, dtype=bool))
    with pytest.raises(ValueError):
        xp.eye(-1)
    with pytest.raises(TypeError):
        xp.eye(2.0)
    with pytest.raises(TypeError):
        xp.eye(2, k=1.0)


# --- meshgrid, tril, triu -----------------------------------------------------------------


@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid(indexing, device):
    a, b, c = np.arange(3.0), np.arange(4.0), np.arange(2.0)
    got = xp.meshgrid(
        xp.asarray(a, device=device), xp.asarray(b, device=device), xp.asarray(c, device=device),
        indexing=indexing,
    )  # fmt: skip
    expected = np.meshgrid(a, b, c, indexing=indexing)
    assert type(got) is tuple  # 2025.12 (a list before)
    assert len(got) == 3
    for g, e in zip(got, expected, strict=True):
        assert_matches(g, e, device=device)


def test_meshgrid_edge_cases():
    assert xp.meshgrid() == ()
    (only,) = xp.meshgrid(xp.arange(3))
    assert_matches(only, np.arange(3))


def test_meshgrid_errors(other_device):
    with pytest.raises(ValueError):
        xp.meshgrid(xp.arange(3), indexing="zz")
    with pytest.raises(TypeError):
        xp.meshgrid(xp.arange(3), xp.arange(3.0))
    with pytest.raises(ValueError):
        xp.meshgrid(xp.zeros((2, 2)))
    with pytest.raises(ValueError, match="meshgrid"):
        xp.meshgrid(xp.arange(3), xp.arange(3, device=other_device))
    with pytest.raises(TypeError):
        xp.meshgrid(np.arange(3))


@pytest.mark.parametrize("k", [-2, -1, 0, 1, 3])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4), (4, 2), (2, 3, 3), (0, 3)])
def test_tril_triu(shape, k):
    a = rng_array(shape, xp.int32)
    x = xp.asarray(a)
    assert_matches(xp.tril(x, k=k), np.tril(a, k=k))
    assert_matches(xp.triu(x, k=k), np.triu(a, k=k))


def test_tril_triu_errors():
    for f in (xp.tril, xp.triu):
        with pytest.raises(ValueError):
            f(xp.arange(3))
        with pytest.raises(TypeError):
            f(np.ones((2, 2)))
        with pytest.raises(TypeError):
            f(xp.ones((2, 2)), k=1.0)


# --- devices and the default device --------------------------------------------------


def test_creation_functions_follow_default_device_scope(other_device):
    with other_device:
        made = [
            xp.asarray([1, 2]), xp.zeros(2), xp.ones(2), xp.empty(2), xp.full(2, 1),
            xp.arange(3), xp.eye(2), xp.linspace(0, 1, 3),
        ]  # fmt: skip
    for x in made:
        assert x.device == other_device
    assert xp.zeros(2).device == xp.__array_namespace_info__().default_device()


def test_explicit_device_beats_scope(other_device):
    with other_device:
        assert xp.zeros(2, device=CPU0).device == CPU0
        assert xp.asarray([1.0], device="cpu:0").device == CPU0


def test_asarray_of_array_keeps_its_device_inside_a_scope(other_device):
    x = xp.ones(2)
    with other_device:
        assert xp.asarray(x).device == x.device


@pytest.mark.parametrize("bad", ["gpu", "cpu:7", "cpu:-1", "cpu:x"])
def test_bad_device_strings_are_value_errors(bad):
    with pytest.raises(ValueError):
        xp.zeros(2, device=bad)


@pytest.mark.parametrize("bad", [0, 1.0, object(), np.float64(1)])
def test_bad_device_objects_are_type_errors(bad):
    with pytest.raises(TypeError):
        xp.zeros(2, device=bad)


@pytest.mark.parametrize(
    "scalar", [np.float64(0.25), np.float32(0.5), np.int8(3), np.bool_(True)], ids=repr
)
@pytest.mark.parametrize("dtype", [None, xp.float32])
@pytest.mark.skipif(
    LAZY_DEFAULT,
    reason="checks the CPU backend's native type (ndarray); a lazy device's "
    "native array is a graph handle by design",
)
def test_asarray_of_a_numpy_scalar_is_an_ndarray_backed_array(scalar, dtype):
    # With a dtype the data was NumPy's scalar (its astype returns a scalar),
    # and `p *= 2` then raised "return arrays must be of ArrayType".
    p = xp.asarray(scalar, dtype=dtype)
    assert type(p._data) is np.ndarray
    if p.dtype != xp.bool:
        p *= 2
        assert float(p) == 2 * float(scalar)


@pytest.mark.parametrize(
    "obj", [np.complex64(1j), np.array([1j, 2]), xp.asarray([1j, 2])], ids=repr
)
@pytest.mark.parametrize("dtype", [xp.float32, xp.float64, xp.int64, xp.bool])
def test_asarray_refuses_to_drop_imaginary_parts(obj, dtype):
    # NumPy drops them with a ComplexWarning; astype() refuses, so must asarray().
    with pytest.raises(TypeError, match="imaginary"):
        xp.asarray(obj, dtype=dtype)


# --- dtypes the standard leaves open: linspace integer, arange complex ------------
@pytest.mark.parametrize(
    "dtype", ["int8", "int16", "int32", "int64", "uint8", "uint64"]
)
@pytest.mark.parametrize(
    ("start", "stop", "num", "endpoint"),
    [(0, 10, 5, True), (0.5, 7.2, 9, True), (10, 0, 7, False), (0, 1, 0, True),
     (3, 3, 4, True), (0, 100, 1, False)],
)  # fmt: skip
def test_linspace_integer_dtype_as_numpy(dtype, start, stop, num, endpoint):
    got = xp.linspace(start, stop, num, dtype=getattr(xp, dtype), endpoint=endpoint)
    want = np.linspace(start, stop, num, dtype=dtype, endpoint=endpoint)
    assert got.dtype == getattr(xp, dtype)
    np.testing.assert_array_equal(np.asarray(got), want)


def test_linspace_integer_dtype_never_wraps():
    # NumPy wraps -4 into uint8's 252; out-of-range values are an error here.
    with pytest.raises(OverflowError, match=r"linspace\(\).*uint8"):
        xp.linspace(-3.5, 7.2, 9, dtype=xp.uint8)
    with pytest.raises(OverflowError, match=r"linspace\(\).*int8"):
        xp.linspace(0, 300, 3, dtype=xp.int8)
    with pytest.raises(ValueError, match=r"linspace\(\).*finite"):
        xp.linspace(0, math.inf, 3, dtype=xp.int32)
    with pytest.raises(TypeError, match=r"linspace\(\).*dtype"):
        xp.linspace(0, 3j, 3, dtype=xp.int64)
    with pytest.raises(TypeError, match=r"linspace\(\).*dtype"):
        xp.linspace(0, 3, 3, dtype=xp.bool)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("args", [(5,), (1, 4), (0.5, 2, 0.25), (4, 0, -1), (3, 3)])
def test_arange_complex_dtype_as_numpy(dtype, args):
    got = xp.arange(*args, dtype=getattr(xp, dtype))
    want = np.arange(*args, dtype=dtype)
    assert got.dtype == getattr(xp, dtype)
    np.testing.assert_array_equal(np.asarray(got), want)


# --- 0-d arrays where the standard takes a Python scalar ----------------------------
# The standard types linspace's and arange's bounds and full's fill value as
# Python scalars; NumPy, CuPy, PyTorch, JAX and array-api-strict accept a 0-d
# array there, and SciPy passes one (signal.freqs, BSpline derivatives,
# stats.cramervonmises).  Its value counts; the result goes on its device.


def test_linspace_takes_0d_bounds():
    got = xp.linspace(xp.asarray(0.0), xp.asarray(2.0), 5)
    assert_matches(got, np.linspace(0.0, 2.0, 5))
    got = xp.linspace(xp.asarray(1), 3.0, 3, endpoint=False)
    assert_matches(got, np.linspace(1, 3.0, 3, endpoint=False))
    # as Python scalars: the default dtypes, complex for a complex bound
    assert xp.linspace(xp.asarray(0.0, dtype=xp.float32), 1.0, 2).dtype == xp.float64
    assert xp.linspace(xp.asarray(1j), 1.0, 2).dtype == xp.complex128


def test_arange_takes_0d_bounds():
    assert_matches(xp.arange(xp.asarray(4)), np.arange(4))
    assert_matches(
        xp.arange(xp.asarray(0.5), xp.asarray(3), xp.asarray(0.5)),
        np.arange(0.5, 3, 0.5),
    )
    assert xp.arange(xp.asarray(4, dtype=xp.int8)).dtype == xp.int64


def test_full_takes_a_0d_fill_value():
    # its value, and its dtype where dtype is None (as NumPy and JAX give)
    assert_matches(xp.full((2,), xp.asarray(1.5)), np.full((2,), 1.5))
    got = xp.full((2,), xp.asarray(1.5, dtype=xp.float32))
    assert_matches(got, np.full((2,), 1.5, dtype=np.float32))
    assert xp.full((2,), xp.asarray(True)).dtype == xp.bool
    got = xp.full((2,), xp.asarray(2), dtype=xp.float32)
    assert_matches(got, np.full((2,), 2.0, dtype=np.float32))
    got = xp.full_like(xp.ones(2, dtype=xp.int8), xp.asarray(3))
    assert_matches(got, np.full((2,), 3, dtype=np.int8))


def test_0d_scalar_arguments_follow_their_device():
    a = xp.asarray(0.0, device=CPU1)
    assert xp.linspace(a, 1.0, 3).device == CPU1
    assert xp.arange(xp.asarray(3, device=CPU1)).device == CPU1
    assert xp.full((2,), xp.asarray(1.0, device=CPU1)).device == CPU1
    assert xp.linspace(a, 1.0, 3, device=CPU1).device == CPU1


def test_0d_scalar_arguments_on_another_device_are_device_errors():
    a = xp.asarray(0.0, device=CPU1)
    with pytest.raises(ValueError, match=r"linspace\(\): `start` is on .* `stop` on"):
        xp.linspace(a, xp.asarray(1.0), 3)
    with pytest.raises(ValueError, match=r"full\(\): `fill_value` is on .* `device`"):
        xp.full((2,), xp.asarray(1.0, device=CPU1), device="cpu:0")
    with pytest.raises(ValueError, match=r"arange\(\): `start`.*`device`"):
        xp.arange(xp.asarray(3, device=CPU1), device="cpu:0")


def test_scalar_arguments_must_still_be_0d():
    with pytest.raises(
        TypeError, match=r"full\(\): `fill_value` must be a Python scalar or a 0-d"
    ):
        xp.full((2,), xp.ones(2))
    with pytest.raises(TypeError, match=r"linspace\(\): `stop`"):
        xp.linspace(0.0, xp.ones(2), 3)
    with pytest.raises(TypeError, match=r"arange\(\): `step`"):
        xp.arange(0, 3, xp.ones(1))
    with pytest.raises(TypeError, match="does not fit"):
        xp.full((2,), xp.asarray(1.5), dtype=xp.int32)


def test_asarray_of_a_list_that_holds_itself_raises():
    # Such a list (directly, through another list, with an Array inside) has
    # no shape: NumPy's ValueError, where the walks over the nesting looped
    # for ever (or hit the recursion limit).  In a subprocess with a time
    # limit, so that a regression fails instead of hanging the run.
    code = textwrap.dedent(
        """
        import ocean_array_api as xp
        def cases():
            a = []; a.append(a); yield a
            b = [1]; b.append(b); yield b
            c = [1.0]; d = [c]; c.append(d); yield c
            e = [xp.asarray(1.0)]; e.append(e); yield e
            yield [[1, 2], b]
        for obj in cases():
            for dtype in (None, xp.int8, xp.float32):
                try:
                    xp.asarray(obj, dtype=dtype)
                except ValueError:
                    continue
                raise SystemExit(f"no ValueError for {obj!r:.40} {dtype}")
        print("ok")
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"


def test_asarray_of_a_sequence_of_arrays_follows_their_device():
    # NumPy takes CPU arrays in a list through __array__, whatever their
    # device: the result went to the default device, devices mixed silently
    a0, a1 = xp.asarray(1.0, device="cpu:0"), xp.asarray(2.0, device="cpu:1")
    assert xp.asarray([a1, a1]).device == a1.device
    assert xp.asarray([[a1], [a1]]).device == a1.device
    assert xp.asarray([a1, 2.5]).device == a1.device
    assert xp.asarray([a0, a0]).device == a0.device
    assert xp.asarray([a1, a1], device=a0.device).device == a0.device
    with pytest.raises(ValueError, match="different devices"):
        xp.asarray([a0, a1])
    with pytest.raises(ValueError, match="different devices"):
        xp.asarray([[a0], [a1]], dtype=xp.float32)


def test_arange_of_int_subclasses_is_an_integer_range():
    # "If those are all integers, the output array dtype must be the default
    # integer dtype": a subclass of int is an int (it gave float64)
    class Int(int):
        pass

    class Flt(float):
        pass

    assert (
        xp.arange(Int(4)).dtype
        == xp.__array_namespace_info__().default_dtypes()["integral"]
    )
    assert xp.arange(Int(1), Int(7), Int(2)).dtype == xp.int64
    np.testing.assert_array_equal(host(xp.arange(Int(1), Int(7), Int(2))), [1, 3, 5])
    assert xp.arange(Flt(2.0)).dtype == xp.float64
    assert xp.arange(Int(1), Flt(2.5)).dtype == xp.float64


@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: xp.arange(0, -(2**62), -1), ValueError, r"^arange\(\): .*more than"),
        (lambda: xp.linspace(0, 1, 2**62), ValueError, r"^linspace\(\): .*more than"),
        (lambda: xp.zeros(2**61), ValueError, r"^zeros\(\): .*more than"),
        (lambda: xp.asarray([300], dtype=xp.int8), OverflowError, r"^asarray\(\): .*300"),
        (lambda: xp.asarray([math.inf], dtype=xp.int32), OverflowError, r"^asarray\(\)"),
        (lambda: xp.asarray(xp.ones(2), copy=np.False_), TypeError, r"got numpy\.bool$"),
    ],
    ids=["arange", "linspace", "zeros", "int8 300", "inf to int32", "numpy bool"],
)  # fmt: skip
def test_errors_name_the_function(call, exc, match):
    # NumPy's own messages ("array is too big", "Python integer 300 out of
    # bounds") named no function; a NumPy bool was reported as "bool"
    with pytest.raises(exc, match=match):
        call()


def test_the_float16_hint_only_for_float16():
    with pytest.raises(TypeError, match="ocean_ext supports float16"):
        xp.asarray(np.ones(2, np.float16))
    for a in (np.array(["a"]), np.array(["2020-01-01"], dtype="datetime64[D]")):
        with pytest.raises(TypeError) as info:
            xp.asarray(a)
        assert "float16" not in str(info.value)


def test_from_dlpack_of_a_bad_capsule_is_a_buffer_error():
    # Python's own "PyCapsule_GetPointer called with ..." ValueError leaked
    class NoCapsule:
        def __dlpack__(self, **kwargs):
            return 42

        def __dlpack_device__(self):
            return (1, 0)

    capsule = np.arange(3.0).__dlpack__()

    class SameCapsule(NoCapsule):
        def __dlpack__(self, **kwargs):
            return capsule

    with pytest.raises(BufferError, match=r"^from_dlpack\(\): "):
        xp.from_dlpack(NoCapsule())
    xp.from_dlpack(SameCapsule())  # the capsule's first use
    with pytest.raises(BufferError, match=r"^from_dlpack\(\): "):
        xp.from_dlpack(SameCapsule())  # used already
