"""Byte order: ocean_ext's functions, and every function on byte-swapped input.

The audit (``test_every_function_accepts_byteswapped_input``) runs every public
function and operator of ``ocean_array_api`` on byte-swapped arrays and on
native arrays holding the same values (``all_functions``): results must agree
in values, dtype and shape, and every result that is not a view of an input
must be in native byte order.
"""

from __future__ import annotations

import operator
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext
from ocean_array_api._backend import get_backend

from ..helpers import ALL_DTYPES, CPU0, CPU1, LAZY_DEFAULT, NUMERIC_DTYPES, np_dtype
from . import all_functions as af

# Byte-swapped arrays live on the CPU only, and these tests make them on the
# default device; with the dask device as the default they would all be
# native copies (ocean_ext.asarray converts on the way in; the dask tests
# check that: tests/backends/test_dask_backend.py).
pytestmark = pytest.mark.skipif(
    LAZY_DEFAULT, reason="byte-swapped arrays exist on the CPU only"
)

NATIVE = sys.byteorder
OTHER = "big" if NATIVE == "little" else "little"
OTHER_CHAR = ">" if NATIVE == "little" else "<"
MULTIBYTE = tuple(d for d in ALL_DTYPES if np_dtype(d).itemsize > 1)


def swapped_np(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` in the non-native byte order (same values)."""
    return a.astype(a.dtype.newbyteorder("S"))


def values(dtypes=MULTIBYTE, **kw):
    return st.sampled_from(dtypes).flatmap(
        lambda dt: hnp.arrays(
            np_dtype(dt),
            hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=5),
            **kw,
        )
    )


# --- byteorder, is_byteswapped ---------------------------------------------------------
@given(values())
def test_byteorder_and_is_byteswapped(a):
    x = xp.asarray(a)
    assert ocean_ext.byteorder(x) == NATIVE
    assert not ocean_ext.is_byteswapped(x)
    s = ocean_ext.asarray(swapped_np(a))
    assert ocean_ext.byteorder(s) == OTHER
    assert ocean_ext.is_byteswapped(s)
    assert s.dtype == x.dtype
    np.testing.assert_array_equal(np.asarray(s), a)


@pytest.mark.parametrize("dt", [xp.bool, xp.int8, xp.uint8])
def test_one_byte_dtypes_have_no_byte_order(dt):
    x = xp.asarray(np.zeros(3, dtype=np_dtype(dt)))
    assert ocean_ext.byteorder(x) == NATIVE
    assert not ocean_ext.is_byteswapped(x)
    y = ocean_ext.byteswap(x)
    assert y is not x
    assert not ocean_ext.shares_memory(x, y)
    assert ocean_ext.byteorder(ocean_ext.reinterpret_byteorder(x, OTHER)) == NATIVE
    assert ocean_ext.byteorder(ocean_ext.asarray(x, byteorder=OTHER)) == NATIVE


def test_explicit_byte_orders():
    big = ocean_ext.asarray(np.arange(3, dtype=">i4"))
    little = ocean_ext.asarray(np.arange(3, dtype="<i4"))
    assert ocean_ext.byteorder(big) == "big"
    assert ocean_ext.byteorder(little) == "little"
    assert ocean_ext.is_byteswapped(big) is (NATIVE == "little")
    assert ocean_ext.is_byteswapped(little) is (NATIVE == "big")


@pytest.mark.parametrize(
    "func",
    [
        ocean_ext.byteorder,
        ocean_ext.is_byteswapped,
        ocean_ext.byteswap,
        lambda x: ocean_ext.reinterpret_byteorder(x, "big"),
    ],
)
@pytest.mark.parametrize("bad", [np.zeros(3), [1.0, 2.0], 3.0])
def test_functions_refuse_non_arrays(func, bad):
    with pytest.raises(TypeError, match="must be an array of ocean_array_api"):
        func(bad)


# --- byteswap ----------------------------------------------------------------------
@given(values())
def test_byteswap_keeps_values_and_swaps_the_bytes(a):
    x = xp.asarray(a)
    y = ocean_ext.byteswap(x)
    assert ocean_ext.is_byteswapped(y)
    assert y.dtype == x.dtype
    assert y.shape == x.shape
    assert y.device == x.device
    assert not ocean_ext.shares_memory(x, y)
    np.testing.assert_array_equal(np.asarray(y), a)
    # the bytes of each element (each part of a complex one) are reversed
    size = a.dtype.itemsize // (2 if a.dtype.kind == "c" else 1)
    raw = np.asarray(y).reshape(-1).view(np.uint8).reshape(-1, size)
    expect = a.reshape(-1).view(np.uint8).reshape(-1, size)[:, ::-1]
    np.testing.assert_array_equal(raw, expect)
    z = ocean_ext.byteswap(y)
    assert not ocean_ext.is_byteswapped(z)
    np.testing.assert_array_equal(np.asarray(z), a)


# --- reinterpret_byteorder ------------------------------------------------------------
@given(values(), st.sampled_from(["little", "big", "native"]))
def test_reinterpret_byteorder_is_a_view_reading_the_same_bytes(a, order):
    x = xp.asarray(a.copy())
    v = ocean_ext.reinterpret_byteorder(x, order)
    want = NATIVE if order == "native" else order
    assert ocean_ext.byteorder(v) == want
    assert v.dtype == x.dtype
    assert v.shape == x.shape
    if a.size:
        assert ocean_ext.shares_memory(v, x)
    char = "<" if want == "little" else ">"
    np.testing.assert_array_equal(np.asarray(v), a.view(a.dtype.newbyteorder(char)))


def test_reinterpret_byteorder_views_write_through():
    x = xp.zeros(2, dtype=xp.uint16)
    v = ocean_ext.reinterpret_byteorder(x, OTHER)
    v[0] = 1
    assert int(x[0]) == 256


@pytest.mark.parametrize(
    ("order", "exc"),
    [("BIG", ValueError), ("=", ValueError), (None, TypeError), (1, TypeError)],
)
def test_reinterpret_byteorder_validates_order(order, exc):
    with pytest.raises(exc, match=r"reinterpret_byteorder\(\): `order`"):
        ocean_ext.reinterpret_byteorder(xp.zeros(2), order)


# --- asarray -------------------------------------------------------------------------
@given(values())
def test_asarray_keeps_a_numpy_arrays_byte_order_without_a_copy(a):
    s = swapped_np(a)
    x = ocean_ext.asarray(s)
    assert ocean_ext.is_byteswapped(x)
    if a.size:
        assert ocean_ext.shares_memory(x, s)
    np.testing.assert_array_equal(np.asarray(x), a)
    y = ocean_ext.asarray(s, copy=False)
    assert ocean_ext.is_byteswapped(y)
    c = ocean_ext.asarray(s, copy=True)
    assert ocean_ext.is_byteswapped(c)
    assert not ocean_ext.shares_memory(c, s)
    np.testing.assert_array_equal(np.asarray(c), a)
    # the standard asarray converts to native order (a copy)
    n = xp.asarray(s)
    assert not ocean_ext.is_byteswapped(n)
    np.testing.assert_array_equal(np.asarray(n), a)


@given(values(), st.sampled_from(["little", "big", "native"]))
def test_asarray_byteorder_converts(a, order):
    want = NATIVE if order == "native" else order
    for obj in (a, swapped_np(a), xp.asarray(a), ocean_ext.asarray(swapped_np(a))):
        x = ocean_ext.asarray(obj, byteorder=order)
        assert ocean_ext.byteorder(x) == want
        np.testing.assert_array_equal(np.asarray(x), a)


def test_asarray_byteorder_from_python_data():
    x = ocean_ext.asarray([1, 2, 3], byteorder=OTHER)
    assert ocean_ext.is_byteswapped(x)
    assert x.dtype == xp.int64
    assert xp.all(x == xp.asarray([1, 2, 3]))
    assert not ocean_ext.is_byteswapped(ocean_ext.asarray([1.5]))
    with pytest.raises(ValueError, match="copy=False"):
        ocean_ext.asarray(xp.asarray([1.0]), byteorder=OTHER, copy=False)


@given(values(NUMERIC_DTYPES[4:]), st.sampled_from(NUMERIC_DTYPES[4:]))
def test_asarray_dtype_conversion_keeps_the_byte_order(a, dt):
    if a.dtype.kind == "c" and dt not in (xp.complex64, xp.complex128):
        with pytest.raises(TypeError, match="imaginary"):
            ocean_ext.asarray(swapped_np(a), dtype=dt)
        return
    x = ocean_ext.asarray(swapped_np(a), dtype=dt)
    assert x.dtype == dt
    # a one-byte source has no byte order to keep
    swapped = a.dtype.itemsize > 1 and np_dtype(dt).itemsize > 1
    assert ocean_ext.is_byteswapped(x) is swapped
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.asarray(x), a.astype(np_dtype(dt)))


def test_asarray_of_arrays():
    s = ocean_ext.asarray(swapped_np(np.arange(4.0)))
    same = ocean_ext.asarray(s)
    assert ocean_ext.is_byteswapped(same)
    assert ocean_ext.shares_memory(same, s)
    c = ocean_ext.asarray(s, copy=True)
    assert ocean_ext.is_byteswapped(c)
    assert not ocean_ext.shares_memory(c, s)
    moved = ocean_ext.asarray(s, device=CPU1)
    assert moved.device == CPU1
    assert ocean_ext.is_byteswapped(moved)
    assert xp.all(moved == xp.asarray(np.arange(4.0), device=CPU1))
    with pytest.raises(ValueError, match="copy=False"):
        ocean_ext.asarray(s, device=CPU1, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        ocean_ext.asarray(s, dtype=xp.float32, copy=False)
    native = ocean_ext.asarray(xp.asarray([1, 2]))
    assert not ocean_ext.is_byteswapped(native)


def test_asarray_validates_arguments():
    with pytest.raises(TypeError, match=r"ocean_ext.asarray\(\): `dtype`"):
        ocean_ext.asarray([1], dtype="float64")
    with pytest.raises(TypeError, match=r"ocean_ext.asarray\(\): `copy`"):
        ocean_ext.asarray([1], copy=1)
    with pytest.raises(ValueError, match=r"ocean_ext.asarray\(\): `byteorder`"):
        ocean_ext.asarray([1], byteorder="middle")
    with pytest.raises(TypeError, match=r"cannot convert|not a valid|must be"):
        ocean_ext.asarray(object())


# --- devices without byte swapping ---------------------------------------------------
class _NoSwapCPU:
    """A CPU-like backend without supports_byteswap (stands in for CUDA)."""

    def __init__(self) -> None:
        cpu = get_backend("cpu")
        self._cpu = cpu
        self.ops = cpu.ops

    def __getattr__(self, name):
        return getattr(self._cpu, name)

    kind = "cpu"
    supports_byteswap = False


@pytest.fixture
def nsdev():
    """cpu:1, its backend pretending to lack non-native byte order (as CUDA)."""
    fake = _NoSwapCPU()
    original = CPU1._backend
    object.__setattr__(CPU1, "_backend", fake)
    yield CPU1
    object.__setattr__(CPU1, "_backend", original)


def test_no_byteswap_device_refuses_swapped_arrays(nsdev):
    x = xp.asarray([1.0, 2.0], device=nsdev)
    with pytest.raises(ValueError, match="no non-native byte order"):
        ocean_ext.byteswap(x)
    with pytest.raises(ValueError, match="no non-native byte order"):
        ocean_ext.reinterpret_byteorder(x, OTHER)
    assert not ocean_ext.is_byteswapped(ocean_ext.reinterpret_byteorder(x, NATIVE))
    with pytest.raises(ValueError, match="no non-native byte order"):
        ocean_ext.asarray([1.0], device=nsdev, byteorder=OTHER)
    with pytest.raises(ValueError, match="no non-native byte order"):
        ocean_ext.asarray(swapped_np(np.ones(2)), device=nsdev, byteorder=OTHER)


def test_moving_to_a_no_byteswap_device_swaps_on_the_way(nsdev):
    s = ocean_ext.asarray(swapped_np(np.arange(5.0)))
    for moved in (
        s.to_device(nsdev),
        xp.asarray(s, device=nsdev),
        ocean_ext.asarray(s, device=nsdev),
        ocean_ext.asarray(swapped_np(np.arange(5.0)), device=nsdev),
        ocean_ext.ensure(s, device=nsdev),
        xp.astype(s, xp.float64, device=nsdev),
    ):
        assert moved.device == nsdev
        assert not ocean_ext.is_byteswapped(moved)
        np.testing.assert_array_equal(np.asarray(moved), np.arange(5.0))


def test_transfer_converts_for_a_backend_without_byteswap():
    from ocean_array_api._array_object import _transfer

    class Dst:
        _kind = "other"
        _index = 0

        class _backend:
            supports_byteswap = False

            @staticmethod
            def from_host(host, index, *, stream=None):
                return host.copy()

    data = swapped_np(np.arange(3.0))
    out = _transfer(data, CPU0, Dst, None)
    assert out.dtype.isnative
    np.testing.assert_array_equal(out, np.arange(3.0))


# --- the audit: every function on byte-swapped input ------------------------------------
def _public_callables() -> set[str]:
    names = {
        n
        for n in xp.__all__
        if callable(getattr(xp, n)) and not isinstance(getattr(xp, n), type(xp))
    }
    names -= {d for d in xp.__all__ if isinstance(getattr(xp, d), type(xp.float64))}
    names |= {f"linalg.{n}" for n in xp.linalg.__all__}
    names |= {f"fft.{n}" for n in xp.fft.__all__}
    return names


def test_audit_covers_every_function():
    covered = {name.split("[")[0] for name in af.CASES}
    missing = _public_callables() - af.NOT_ARRAY_FUNCTIONS - covered
    assert not missing, (
        f"functions without a case in all_functions.py: {sorted(missing)}"
    )
    operators = {
        n for n in dir(xp.Array)
        if n.startswith("__") and n[2:-2] in {
            "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "and", "or",
            "xor", "lshift", "rshift", "eq", "ne", "lt", "le", "gt", "ge", "matmul",
            "neg", "pos", "abs", "invert", "getitem", "iter", "bool", "int",
            "float", "complex", "index", "copy", "deepcopy", "repr",
        }
    }  # fmt: skip
    assert not operators - covered, sorted(operators - covered)


@pytest.mark.parametrize("name", sorted(af.CASES))
@settings(max_examples=15)
@given(data=st.data())
def test_every_function_accepts_byteswapped_input(name, data):
    env, result = af.run_differential(name, data, "swapped")
    for r in af.result_arrays(result):
        data_dtype = r._data.dtype
        if data_dtype.isnative:
            continue
        # a view of a byte-swapped input keeps its byte order; nothing else may
        assert af.shares_any(r, env.prepared), (
            f"{name}: a result that is not a view of an input is byte-swapped "
            f"({data_dtype})"
        )


# --- operators that write: in-place and __setitem__ ---------------------------------
INPLACE = {
    "__iadd__": (operator.iadd, np.add), "__isub__": (operator.isub, np.subtract),
    "__imul__": (operator.imul, np.multiply),
    "__itruediv__": (operator.itruediv, np.true_divide),
    "__ipow__": (operator.ipow, np.power),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(INPLACE))
@given(
    a=hnp.arrays(np.float64, (4,), elements=st.floats(-10, 10)),
    b=hnp.arrays(np.float64, (4,), elements=st.floats(0.5, 3)),
    swap_other=st.booleans(),
)
def test_inplace_operators_on_byteswapped_arrays(name, a, b, swap_other):
    op, ufunc = INPLACE[name]
    x = ocean_ext.asarray(swapped_np(a))
    y = ocean_ext.asarray(swapped_np(b)) if swap_other else xp.asarray(b)
    data = x._data
    res = op(x, y)
    assert res is x
    assert x._data is data
    assert ocean_ext.is_byteswapped(x)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.asarray(x), ufunc(a, b))


def test_imatmul_on_byteswapped_arrays():
    a = np.arange(9.0).reshape(3, 3)
    x = ocean_ext.asarray(swapped_np(a))
    x @= ocean_ext.asarray(swapped_np(np.eye(3) * 2))
    assert ocean_ext.is_byteswapped(x)
    np.testing.assert_array_equal(np.asarray(x), a * 2)


@given(
    a=hnp.arrays(np.int32, (6,)),
    v=hnp.arrays(np.int32, (3,)),
    swap_target=st.booleans(),
    swap_value=st.booleans(),
)
def test_setitem_with_byteswapped_target_and_value(a, v, swap_target, swap_value):
    x = ocean_ext.asarray(swapped_np(a)) if swap_target else xp.asarray(a.copy())
    val = ocean_ext.asarray(swapped_np(v)) if swap_value else xp.asarray(v)
    x[1:4] = val
    x[xp.asarray([5])] = val[0]
    want = a.copy()
    want[1:4] = v
    want[5] = v[0]
    np.testing.assert_array_equal(np.asarray(x), want)
    assert ocean_ext.is_byteswapped(x) is swap_target


# --- views keep the byte order -----------------------------------------------------------
def test_views_are_the_same_memory_and_keep_the_byte_order():
    s = ocean_ext.asarray(swapped_np(np.arange(24.0).reshape(2, 3, 4)))
    for v in (
        s[1:],
        s[0],
        s[..., ::2],
        s[None],
        xp.reshape(s, (6, 4)),
        xp.permute_dims(s, (2, 0, 1)),
        s.mT,
        xp.expand_dims(s, axis=0),
        xp.squeeze(s[:1], axis=0),
        xp.flip(s, axis=0),
        xp.moveaxis(s, 0, -1),
        xp.broadcast_to(s, (2, 2, 3, 4)),
        xp.asarray(s),
        xp.astype(s, xp.float64, copy=False),
    ):
        assert ocean_ext.is_byteswapped(v)
        assert ocean_ext.shares_memory(v, s)
    for copy in (
        s[xp.asarray([0])],
        xp.asarray(s, copy=True),
        xp.astype(s, xp.float64),
        xp.reshape(s, (24,), copy=True),
        xp.reshape(s.mT, (-1,)),
        s.to_device(CPU1),
        s + 0,
        xp.sort(s),
        xp.take(s, xp.asarray([1]), axis=0),
        ocean_ext.cast(s),
    ):
        assert not ocean_ext.is_byteswapped(copy)
        assert not ocean_ext.shares_memory(copy, s)


def test_astype_copy_false_returns_the_input_itself():
    s = ocean_ext.asarray(swapped_np(np.arange(3.0)))
    assert xp.astype(s, xp.float64, copy=False) is s


# --- DLPack and NumPy -----------------------------------------------------------------
@given(values())
def test_dlpack_export_of_byteswapped_arrays_copies_to_native(a):
    s = ocean_ext.asarray(swapped_np(a))
    out = np.from_dlpack(s)
    assert out.dtype.isnative
    assert out.dtype == a.dtype
    np.testing.assert_array_equal(out, a)
    assert not np.shares_memory(out, np.asarray(s))
    cap = s.__dlpack__(copy=True)
    assert type(cap).__name__ == "PyCapsule"


def test_dlpack_export_of_byteswapped_arrays_without_copy_raises():
    s = ocean_ext.asarray(swapped_np(np.arange(3.0)))
    with pytest.raises(BufferError, match="byte-swapped"):
        s.__dlpack__(copy=False)
    with pytest.raises(BufferError, match="byte-swapped"):
        np.from_dlpack(s, copy=False)
    # a native array exports without a copy
    n = xp.asarray(np.arange(3.0))
    assert np.shares_memory(np.from_dlpack(n, copy=False), np.asarray(n))


def test_numpy_asarray_of_a_byteswapped_array_is_the_swapped_memory():
    a = swapped_np(np.arange(3.0))
    s = ocean_ext.asarray(a)
    out = np.asarray(s)
    assert out.dtype == a.dtype
    assert np.shares_memory(out, a)


def test_pickle_round_trip_of_a_byteswapped_array():
    import pickle

    s = ocean_ext.asarray(swapped_np(np.arange(3.0)))
    t = pickle.loads(pickle.dumps(s))
    assert t.dtype == s.dtype
    assert bool(xp.all(t == s))
    assert not ocean_ext.is_byteswapped(t)  # a copy, hence native


def test_integer_index_of_a_vector_is_native():
    # x[i] of a 1-d array is a 0-d copy (NumPy gives a scalar), hence native
    s = ocean_ext.asarray(swapped_np(np.arange(3.0)))
    assert not ocean_ext.is_byteswapped(s[1])
    assert float(s[1]) == 1.0


# --- dtypes without a byte-swapped form (issue 12 item 8) ----------------------------------
@pytest.mark.parametrize("src", [">f8", ">f4", ">i4", ">c16"])
def test_swapped_input_to_complex32_gives_a_native_result(src):
    # Keeping the source's byte order is the default, not a request: complex32
    # has no byte-swapped form, so the result is native (this raised).
    a = np.array([1.0, -2.5, 3.0], dtype=src)
    z = ocean_ext.asarray(a, dtype=ocean_ext.complex32)
    assert z.dtype == ocean_ext.complex32
    assert not ocean_ext.is_byteswapped(z)
    want = a.astype(np.complex64)
    np.testing.assert_array_equal(np.asarray(xp.astype(z, xp.complex64)), want)
    on_cpu1 = ocean_ext.asarray(a, dtype=ocean_ext.complex32, device=CPU1)
    assert on_cpu1.device == CPU1
    # Asking for the swapped form still says it does not exist.
    with pytest.raises(TypeError, match="no byte-swapped form"):
        ocean_ext.asarray(a, dtype=ocean_ext.complex32, byteorder="big")


def test_swapped_input_to_float16_keeps_its_byte_order():
    a = np.array([1.0, -2.5], dtype=">f8")
    h = ocean_ext.asarray(a, dtype=ocean_ext.float16)
    assert (h.dtype, ocean_ext.byteorder(h)) == (ocean_ext.float16, "big")
    np.testing.assert_array_equal(np.asarray(xp.astype(h, xp.float64)), a)
