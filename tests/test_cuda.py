"""CUDA-specific behaviour: devices, transfers, DLPack, streams, defaults, writes.

Marked ``cuda``: they run on real GPUs, and, without one, on the simulated
devices of ``tests/simcupy.py`` (see ``tests/conftest.py``), which follow CuPy's
rules (no host data in device code, a current device, wrapped out-of-range
indices) with NumPy's arithmetic.  The device-generic behaviour of every
function is covered by the rest of the suite through the ``device`` fixture.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import ocean_array_api as xp
import ocean_ext

from .conftest import CUDA_DEVICES, SIMULATED_CUDA
from .helpers import ALL_DTYPES, CPU0, CPU1, assert_matches, host, np_dtype, run_python

pytestmark = pytest.mark.cuda

CUDA0 = CUDA_DEVICES[0] if CUDA_DEVICES else None
CUDA_LAST = CUDA_DEVICES[-1] if CUDA_DEVICES else None
# The CPU is the reference of these tests (explicitly: the suite may run with
# the lazy dask device as the default, whose linalg errors come when a result
# is computed)
DEFAULT = xp.__array_namespace_info__().default_device()


def _module():
    """The backend's array module (cupy, or the simulation)."""
    return CUDA0._backend.array_module()


# --- devices -----------------------------------------------------------------------------
def test_devices_are_listed_after_the_cpus():
    devs = xp.__array_namespace_info__().devices()
    kinds = [d.kind for d in devs]
    assert kinds[:2] == ["cpu", "cpu"]
    n = len(CUDA_DEVICES)
    assert kinds[2 : 2 + n] == ["cuda"] * n
    assert "cuda" not in kinds[2 + n :]  # other kinds (dask) come after
    assert [d.index for d in devs if d.kind == "cuda"] == list(range(len(CUDA_DEVICES)))
    assert xp.zeros(1, device="cuda:0").device is CUDA0
    assert str(CUDA0) == "cuda:0"


def test_inspection_on_a_cuda_device():
    info = xp.__array_namespace_info__()
    assert info.dtypes(device=CUDA0) == info.dtypes(device=CPU0)
    assert info.default_dtypes(device=CUDA0) == info.default_dtypes(device=CPU0)
    assert info.capabilities()["max dimensions"] is not None


# --- moving data -------------------------------------------------------------------------
@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_to_device_both_ways_keeps_values_and_dtype(dt):
    a = (np.arange(12) % 5).astype(np_dtype(dt)).reshape(3, 4)
    x = xp.asarray(a, device=CPU0)
    y = x.to_device(CUDA0)
    assert y.device == CUDA0
    assert y.dtype == dt
    z = y.to_device(CUDA_LAST).to_device("cpu")
    assert z.device == CPU0
    np.testing.assert_array_equal(np.asarray(z), a)
    assert host(y.to_device(CUDA0)).tolist() == a.tolist()


def test_to_device_of_a_strided_view():
    x = xp.reshape(xp.arange(24.0, device=CUDA0), (4, 6))[::2, ::-3]
    assert_matches(x.to_device("cpu"), np.arange(24.0).reshape(4, 6)[::2, ::-3])
    assert_matches(x.to_device(CUDA_LAST), np.arange(24.0).reshape(4, 6)[::2, ::-3])


def test_asarray_onto_cuda_from_python_numpy_and_cpu_arrays():
    assert_matches(
        xp.asarray([[1, 2], [3, 4]], device=CUDA0), np.array([[1, 2], [3, 4]])
    )
    assert xp.asarray(1.5, device=CUDA0).device == CUDA0
    a = np.linspace(0, 1, 7, dtype=np.float32)
    assert_matches(xp.asarray(a, device=CUDA0), a, device=CUDA0)
    big_endian = a.astype(">f4")
    assert_matches(xp.asarray(big_endian, device=CUDA0), a, device=CUDA0)
    swapped = ocean_ext.asarray(big_endian, byteorder="big", device=CPU0)
    moved = swapped.to_device(CUDA0)
    assert not ocean_ext.is_byteswapped(moved)  # CUDA arrays are always native
    assert_matches(moved, a, device=CUDA0)
    assert_matches(xp.asarray(xp.asarray(a), device=CUDA_LAST), a, device=CUDA_LAST)


def test_asarray_copy_false_across_devices_is_a_value_error():
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(np.zeros(3), device=CUDA0, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(xp.zeros(3), device=CUDA0, copy=False)
    x = xp.zeros(3, device=CUDA0)
    y = xp.asarray(x, copy=False)  # same device: no copy needed
    assert y.device == CUDA0
    assert ocean_ext.shares_memory(x, y)


def test_asarray_of_a_sequence_of_cuda_scalars():
    x = xp.asarray([1.0, 2.0, 4.0], device=CUDA_LAST, dtype=xp.float32)
    y = xp.asarray([[x[0] * x[1], x[2]], [x[1], x[0]]])
    assert y.device == CUDA_LAST
    assert_matches(y, np.array([[2.0, 4.0], [2.0, 1.0]], dtype=np.float32))
    assert xp.asarray([x[0], x[1]], device="cpu").device == CPU0
    if len(CUDA_DEVICES) > 1:
        other = xp.asarray(1.0, device=CUDA0, dtype=xp.float32)
        with pytest.raises(ValueError, match="different devices"):
            xp.asarray([x[0], other])


def test_numpy_asarray_refuses_a_cuda_array():
    x = xp.ones(3, device=CUDA0)
    with pytest.raises(TypeError, match="to_device"):
        np.asarray(x)
    assert np.asarray(x.to_device("cpu")).tolist() == [1.0, 1.0, 1.0]


# --- DLPack ------------------------------------------------------------------------------
def test_dlpack_device_and_round_trip():
    x = xp.arange(6, device=CUDA_LAST)
    assert x.__dlpack_device__() == (2, CUDA_LAST.index)
    y = xp.from_dlpack(x)
    assert y.device == CUDA_LAST
    assert_matches(y, np.arange(6))


def test_from_dlpack_of_a_cpu_array_onto_cuda():
    a = xp.arange(5.0)
    y = xp.from_dlpack(a, device=CUDA0)
    assert y.device == CUDA0
    assert_matches(y, np.arange(5.0))
    with pytest.raises(ValueError, match="copy=False"):
        xp.from_dlpack(a, device=CUDA0, copy=False)


def test_from_dlpack_of_a_native_cuda_array():
    mod = _module()
    with mod.cuda.Device(CUDA_LAST.index):
        native = mod.arange(4, dtype=mod.float32)
    y = xp.from_dlpack(native)
    assert y.device == CUDA_LAST
    assert_matches(y, np.arange(4, dtype=np.float32))
    z = xp.from_dlpack(native, device="cpu")
    assert z.device == CPU0
    assert_matches(z, np.arange(4, dtype=np.float32))


def test_dunder_dlpack_to_the_host_copies_for_numpy():
    x = xp.arange(4.0, device=CUDA0)
    b = np.from_dlpack(x, device="cpu")  # asks __dlpack__(dl_device=(kDLCPU, 0))
    np.testing.assert_array_equal(b, np.arange(4.0))
    b[0] = 99.0  # a copy: the device array is untouched
    assert host(x)[0] == 0.0
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(1, 0), copy=False)  # the standard: BufferError
    with pytest.raises(BufferError):
        x.__dlpack__(dl_device=(99, 0))


def test_dlpack_export_on_the_device_with_copy_and_a_stream_object():
    # CuPy's own exporter refuses copy=True for device memory and takes the
    # stream as an int: the backend copies first and passes the pointer
    mod = _module()
    x = xp.arange(4.0, device=CUDA_LAST)
    with mod.cuda.Device(CUDA_LAST.index):
        stream = mod.cuda.Stream()
    for kwargs in ({"copy": True}, {"stream": stream}, {"stream": -1}, {}):
        y = xp.from_dlpack(_Capsule(x, **kwargs))
        assert y.device == CUDA_LAST
        assert_matches(y, np.arange(4.0))
        y[0] = 7.0
        # copy=True exported a copy; otherwise the same device memory
        assert host(x)[0] == (0.0 if kwargs.get("copy") else 7.0)
        x[0] = 0.0


def test_from_dlpack_of_a_native_cuda_array_with_copy():
    mod = _module()
    with mod.cuda.Device(CUDA0.index):
        native = mod.arange(3, dtype=mod.float64)
    y = xp.from_dlpack(native, copy=True)
    y[0] = 5.0
    assert host(xp.from_dlpack(native))[0] == 0.0
    z = xp.from_dlpack(native, copy=False)
    z[1] = 9.0
    assert float(mod.asnumpy(native)[1]) == 9.0  # shared


class _Capsule:
    """A DLPack producer that forwards to an Array with fixed keywords (so
    from_dlpack exercises Array.__dlpack__ with them)."""

    def __init__(self, x, **kwargs):
        self.x = x
        self.kwargs = kwargs

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()

    def __dlpack__(self, **kw):
        kw.pop("copy", None)
        kw.pop("stream", None)
        return self.x.__dlpack__(**{**kw, **self.kwargs})


# --- streams -----------------------------------------------------------------------------
def test_streams_for_transfers_and_dlpack():
    mod = _module()
    with mod.cuda.Device(CUDA0.index):
        stream = mod.cuda.Stream()
    if SIMULATED_CUDA:
        mod.cuda.Stream.used.clear()
    x = xp.asarray([1.0, 2.0]).to_device(CUDA0, stream=stream)
    back = x.to_device("cpu", stream=stream)
    assert host(back).tolist() == [1.0, 2.0]
    for s in (stream, 1, 2):  # a stream object, the legacy and per-thread defaults
        capsule = x.__dlpack__(stream=s, dl_device=(1, 0))
        assert capsule is not None
    if SIMULATED_CUDA:
        used = mod.cuda.Stream.used
        assert stream in used
        assert mod.cuda.Stream.null in used
        assert mod.cuda.Stream.ptds in used


# --- the default device ------------------------------------------------------------------
def test_scoped_default_device_is_per_thread():
    seen = {}

    def other_thread():
        seen["other"] = xp.zeros(1).device

    with CUDA0:
        assert xp.zeros(2).device == CUDA0
        assert xp.asarray([1, 2]).device == CUDA0
        assert xp.__array_namespace_info__().default_device() == CUDA0
        with CPU1:
            assert xp.ones(1).device == CPU1
        assert xp.arange(3).device == CUDA0
        t = threading.Thread(target=other_thread)
        t.start()
        t.join()
    # (the default device: the CPU unless the suite runs with another)
    assert seen["other"] == DEFAULT
    assert xp.zeros(1).device == DEFAULT


def test_default_device_from_the_environment():
    prelude = "import tests.sim_cuda\n" if SIMULATED_CUDA else ""
    proc = run_python(
        prelude + "import ocean_array_api as xp\n"
        "print(xp.zeros(2).device, xp.__array_namespace_info__().default_device())\n",
        env={"OCEAN_ARRAY_API_DEFAULT_DEVICE": str(CUDA_LAST)},
    )
    assert proc.stdout.split() == [str(CUDA_LAST), str(CUDA_LAST)]


# --- writes and indexing -----------------------------------------------------------------
def test_overlapping_writes_copy_the_source_first():
    x = xp.arange(6, device=CUDA0)
    x[1:] = x[:-1]
    assert host(x).tolist() == [0, 0, 1, 2, 3, 4]
    y = xp.arange(6, device=CUDA0)
    y[xp.asarray([1, 2], device=CUDA0)] = y[xp.asarray([2, 1], device=CUDA0)]
    assert host(y).tolist() == [0, 2, 1, 3, 4, 5]
    z = xp.arange(6, device=CUDA0)
    z[::-1] = z
    assert host(z).tolist() == [5, 4, 3, 2, 1, 0]
    w = xp.arange(8, device=CUDA0)
    w[2:] = w[:-2]
    assert host(w).tolist() == [0, 1, 0, 1, 2, 3, 4, 5]


def test_out_of_range_index_arrays_raise_instead_of_wrapping():
    # CuPy wraps them (x[[5]] of 3 elements reads x[2]); we raise as NumPy does
    x = xp.arange(3, device=CUDA_LAST)
    idx = xp.asarray([0, 5], device=CUDA_LAST)
    with pytest.raises(IndexError, match="__getitem__"):
        x[idx]
    with pytest.raises(IndexError, match="__setitem__"):
        x[idx] = 1
    with pytest.raises(IndexError, match="take"):
        xp.take(x, xp.asarray([-4], device=CUDA_LAST))
    with pytest.raises(IndexError, match="take_along_axis"):
        xp.take_along_axis(x, xp.asarray([3], device=CUDA_LAST), axis=0)
    m = xp.reshape(xp.arange(6, device=CUDA_LAST), (2, 3))
    with pytest.raises(IndexError, match="axis 1"):
        m[..., xp.asarray([3], device=CUDA_LAST)]
    assert host(x).tolist() == [0, 1, 2]  # nothing written
    assert host(x[xp.asarray([-3, 2], device=CUDA_LAST)]).tolist() == [0, 2]


def test_mixing_devices_is_an_error_naming_the_function():
    a = xp.ones(2, device=CUDA0)
    with pytest.raises(ValueError, match="add"):
        xp.add(a, xp.ones(2))
    with pytest.raises(ValueError):
        _ = a + xp.ones(2)
    if len(CUDA_DEVICES) > 1:
        with pytest.raises(ValueError, match="matmul"):
            xp.matmul(a, xp.ones(2, device=CUDA_DEVICES[1]))


def test_second_gpu_computes_on_its_own_device():
    x = xp.reshape(xp.arange(12.0, device=CUDA_LAST), (3, 4))
    results = [
        xp.sum(x, axis=0), xp.sort(-x, axis=1), xp.linalg.matrix_norm(x),
        xp.fft.rfft(x), xp.unique_values(x), xp.cumulative_sum(x, axis=1), x @ x.mT,
    ]  # fmt: skip
    for r in results:
        assert r.device == CUDA_LAST
    assert_matches(results[0], np.arange(12.0).reshape(3, 4).sum(axis=0))


# --- where CuPy departs from NumPy: the backend's corrections ----------------------------
def _same_on_both(func, *arrays, exact=True):
    """``func`` on CPU arrays and on their copies on the last CUDA device."""
    want = func(*[xp.asarray(a, device=CPU0) for a in arrays])
    got = func(*[xp.asarray(a, device=CUDA_LAST) for a in arrays])
    assert got.device == CUDA_LAST
    assert got.dtype == want.dtype
    g, w = host(got), host(want)
    if exact:
        assert g.shape == w.shape
        np.testing.assert_array_equal(g, w)
        if g.dtype.kind == "f":  # signed zeros too (a NaN's sign is unspecified)
            np.testing.assert_array_equal(
                np.signbit(g) & ~np.isnan(g), np.signbit(w) & ~np.isnan(w)
            )
    else:
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


def test_isin_with_python_ints_and_mixed_dtypes():
    a = np.array([-1, 0, 2, 127], dtype=np.int8)
    _same_on_both(lambda x: xp.isin(x, 2), a)
    _same_on_both(lambda x: xp.isin(x, 1000), a)  # out of int8's range: no match
    _same_on_both(lambda x: xp.isin(x, -1, invert=True), a)
    _same_on_both(lambda x: xp.isin(2, x), a)  # 0-d
    _same_on_both(lambda x: xp.isin(300, x), a)
    _same_on_both(lambda x: xp.isin(x, 2), a.astype(np.float32))
    # int32 -1 must not match uint32 4294967295 (a comparison without promotion)
    _same_on_both(
        xp.isin,
        np.array([-1, 5], dtype=np.int32),
        np.array([4294967295, 5], dtype=np.uint32),
    )


def test_searchsorted_with_a_scalar_and_mixed_dtypes():
    s = np.array([-3.0, -1.0, 0.5, 2.0])
    _same_on_both(lambda x: xp.searchsorted(x, 0.5, side="right"), s)
    _same_on_both(lambda x: xp.searchsorted(x, -2), s)
    _same_on_both(
        xp.searchsorted,
        np.array([-5, -1, 3], dtype=np.int16),
        np.array([[-2, 4]], dtype=np.int8),
    )
    _same_on_both(
        xp.searchsorted,
        np.array([1, 7, 200], dtype=np.uint8),
        np.array([-1, 150], dtype=np.int16),
    )


def test_remainder_special_cases_and_large_quotients():
    inf, nan = float("inf"), float("nan")
    x1 = np.array(
        [1.0, -1.0, 1.0, -1.0, 0.0, -0.0, 0.0, 5.5, -5.5, 1e30, inf, nan, 3.0]
    )
    x2 = np.array([inf, inf, -inf, -inf, 3.0, 3.0, -3.0, -2.0, 2.0, 3.0, 2.0, 1.0, 0.0])
    _same_on_both(xp.remainder, x1, x2)
    _same_on_both(lambda a: a % 3.0, x1)
    _same_on_both(lambda a: a % -inf, x1)
    _same_on_both(
        xp.remainder,
        np.array([7, -7, 7, 0], dtype=np.int32),
        np.array([3, 3, -3, 5], dtype=np.int32),
    )


def test_shifts_by_the_width_or_more():
    a = np.array([1, -8, 8, -1], dtype=np.int8)
    _same_on_both(xp.bitwise_left_shift, a, np.array([8, 9, 7, 100], dtype=np.int8))
    _same_on_both(xp.bitwise_right_shift, a, np.array([8, 9, 2, 100], dtype=np.int8))
    _same_on_both(lambda x: x << 70, np.array([1, 2], dtype=np.int64))
    _same_on_both(lambda x: x >> 64, np.array([-5, 5], dtype=np.int64))
    _same_on_both(lambda x: x >> 40, np.array([7, 200], dtype=np.uint32))


def test_solve_broadcasts_batch_shapes():
    rng = np.random.default_rng(2)
    a = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    _same_on_both(xp.linalg.solve, a, rng.standard_normal((3, 4)), exact=False)
    _same_on_both(xp.linalg.solve, a[0], rng.standard_normal((5, 3, 2)), exact=False)
    _same_on_both(xp.linalg.solve, a, rng.standard_normal(3), exact=False)
    _same_on_both(xp.linalg.solve, a[:1], rng.standard_normal((4, 3, 1)), exact=False)


@pytest.mark.parametrize(
    "func",
    [
        xp.linalg.inv,
        lambda x: xp.linalg.solve(x, xp.ones(2, device=x.device)),
        xp.linalg.cholesky,
    ],
    ids=["inv", "solve", "cholesky"],
)
def test_singular_input_raises_as_on_the_cpu(func):
    # CuPy returns NaN unless asked (cupyx.errstate(linalg="raise"))
    singular = xp.asarray([[1.0, 2.0], [2.0, 4.0]], device=CUDA_LAST)
    with pytest.raises(ValueError) as theirs:
        func(xp.asarray([[1.0, 2.0], [2.0, 4.0]], device=CPU0))
    with pytest.raises(type(theirs.value)):
        func(singular)


# --- from the second review of CuPy 14's sources (simulated in tests/simcupy.py) ---------
_NEG_NAN = np.copysign(np.nan, -1.0)  # what 0/0 gives on x86


def test_sorting_and_sets_with_nans_whose_sign_bit_is_set():
    a = np.array([1.0, _NEG_NAN, 3.0, -np.inf, np.nan, 2.0, 1.0])
    _same_on_both(xp.sort, a)
    _same_on_both(lambda x: xp.sort(x, descending=True), a)
    _same_on_both(xp.argsort, a)
    _same_on_both(lambda x: xp.argsort(x, descending=True), a)
    _same_on_both(xp.unique_values, a)
    for i in range(2):
        _same_on_both(lambda x, i=i: xp.unique_counts(x)[i], a)
        _same_on_both(lambda x, i=i: xp.unique_inverse(x)[i], a)
    # isin's binary search over the sorted x2 must still find 1.0 and 3.0
    _same_on_both(xp.isin, np.array([1.0, 3.0, 4.0, np.nan]), a)
    _same_on_both(xp.isin, a.astype(np.float32), a[::-1].astype(np.float32))
    _same_on_both(xp.isin, np.asarray(3.0), a)  # 0-d
    _same_on_both(xp.isin, np.asarray(7, dtype=np.uint8), np.zeros(0, np.uint8))


def test_argmax_and_argmin_return_the_first_of_several_nans():
    a = np.array([[1.0, np.nan, 5.0, np.nan, 2.0], [np.nan, 0.0, np.nan, 9.0, -1.0]])
    for func in (xp.argmax, xp.argmin):
        _same_on_both(func, a)
        _same_on_both(lambda x, f=func: f(x, axis=1), a)
        _same_on_both(lambda x, f=func: f(x, axis=0, keepdims=True), a)
        _same_on_both(lambda x, f=func: f(x, axis=1), np.array([[3.0, 1.0, 2.0]]))


def test_float_floor_divide_is_numpys_quotient():
    inf, nan = float("inf"), float("nan")
    x1 = np.array(
        [1.0, -1.0, 0.7, 1e30, 5.5, -5.5, 0.0, -0.0, 1.0, -1.0, inf, 1.0, nan]
    )
    x2 = np.array([0.1, 0.1, 0.1, 3.0, -2.0, 2.0, 3.0, 3.0, inf, inf, 2.0, 0.0, 1.0])
    for dt in (np.float64, np.float32):
        _same_on_both(xp.floor_divide, x1.astype(dt), x2.astype(dt))
    _same_on_both(lambda x: x // 0.1, x1)
    _same_on_both(lambda x: 1.0 // x, x2)
    # the quotient and the remainder agree: (x // y) * y + x % y == x
    x, y = xp.asarray([1.0, 7.3, -2.9], device=CUDA_LAST), 0.1
    np.testing.assert_allclose(host((x // y) * y + x % y), host(x), rtol=1e-15)
    _same_on_both(
        xp.floor_divide,
        np.array([7, -7, 7], dtype=np.int16),
        np.array([2, 2, -2], dtype=np.int16),
    )
    h = ocean_ext.float16
    got = xp.floor_divide(
        xp.asarray([1.0, -1.0, 6.5], dtype=h, device=CUDA_LAST),
        xp.asarray([0.1, 0.1, 2.0], dtype=h, device=CUDA_LAST),
    )
    want = np.floor_divide(
        np.array([1.0, -1.0, 6.5], np.float16), np.float16([0.1, 0.1, 2.0])
    )
    assert got.dtype == h
    np.testing.assert_array_equal(
        host(xp.astype(got, xp.float32)), want.astype(np.float32)
    )


def test_vecdot_of_small_integers_keeps_their_dtype():
    a = np.full((2, 10), 10, dtype=np.int8)
    _same_on_both(xp.vecdot, a, a)  # wraps in int8, as on the CPU
    _same_on_both(xp.vecdot, a.astype(np.uint8), a.astype(np.uint8))
    res = xp.vecdot(xp.asarray(a, device=CUDA_LAST), xp.asarray(a, device=CUDA_LAST))
    assert res._data.dtype == np.dtype(np.int8)  # the data, not only the label


def test_assigning_a_negative_zero_keeps_its_sign():
    for value in (-0.0, complex(-0.0, -0.0)):
        dt = xp.complex128 if isinstance(value, complex) else xp.float64
        x = xp.ones(3, dtype=dt, device=CUDA_LAST)
        x[0] = value
        x[1:] = value
        got = host(x)
        assert np.signbit(got.real).all()
        if dt == xp.complex128:
            assert np.signbit(got.imag).all()
    y = xp.ones((2, 3), device=CUDA_LAST)
    y[...] = -0.0
    assert np.signbit(host(y)).all()


@pytest.mark.parametrize(
    "make",
    [
        lambda v, dt, d: xp.asarray(v, dtype=dt, device=d),
        lambda v, dt, d: xp.asarray([v, v], dtype=dt, device=d),
        lambda v, dt, d: xp.full((), v, dtype=dt, device=d),
        lambda v, dt, d: xp.full((2, 3), v, dtype=dt, device=d),
        lambda v, dt, d: xp.asarray(v, dtype=dt, device=CPU0).to_device(d),
        lambda v, dt, d: xp.asarray(np.asarray(v, dtype=str(dt)), device=d),
        lambda v, dt, d: xp.where(
            xp.ones(2, dtype=xp.bool, device=d), v, xp.ones(2, dtype=dt, device=d)
        ),
    ],
    ids=["asarray-0d", "asarray-list", "full-0d", "full", "to_device", "numpy-0d",
         "where-scalar"],
)  # fmt: skip
@pytest.mark.parametrize("dt", [xp.float32, xp.float64, xp.complex64, xp.complex128])
def test_a_negative_zero_reaches_the_gpu(make, dt):
    """CuPy fills with a host zero by memset (+0): cupy.array(-0.0), full()
    and 0-d copies from the host lost the sign on a GPU (the standard's
    special cases for -0 then failed everywhere)."""
    value = complex(-0.0, -0.0) if xp.isdtype(dt, "complex floating") else -0.0
    got = host(make(value, dt, CUDA_LAST))
    assert np.signbit(got.real).all(), got
    if got.dtype.kind == "c":
        assert np.signbit(got.imag).all(), got


def test_complex_linspace():
    for endpoint in (True, False):
        _same_on_both(
            lambda x, e=endpoint: xp.linspace(
                0j, 1 + 2j, 5, dtype=xp.complex64, endpoint=e, device=x.device
            ),
            np.zeros(1),
            exact=False,
        )
    got = xp.linspace(1 - 1j, 2 + 3j, 4, device=CUDA_LAST)
    np.testing.assert_allclose(host(got), np.linspace(1 - 1j, 2 + 3j, 4), rtol=1e-15)
    assert got.dtype == xp.complex128
    assert xp.linspace(2j, 2j, 1, device=CUDA_LAST).shape == (1,)


def test_float16_nextafter_special_cases():
    h = ocean_ext.float16
    inf = float("inf")
    x1 = [inf, inf, -inf, -0.0, 0.0, 1.0, 65504.0, -inf]
    x2 = [0.0, inf, 0.0, 0.0, -0.0, 2.0, inf, -inf]
    for dev in (CPU0, CUDA_LAST):
        got = host(
            xp.astype(
                xp.nextafter(
                    xp.asarray(x1, dtype=h, device=dev),
                    xp.asarray(x2, dtype=h, device=dev),
                ),
                xp.float32,
            )
        )
        want = [65504.0, inf, -65504.0, 0.0, -0.0, 1.0009765625, inf, -inf]
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(np.signbit(got), np.signbit(want))  # +0, -0


@pytest.mark.parametrize(
    "func",
    [
        xp.linalg.svdvals,
        lambda x: xp.linalg.svd(x)[1],
        xp.linalg.eigvalsh,
        lambda x: xp.linalg.eigh(x)[0],
        xp.linalg.pinv,
        xp.linalg.matrix_rank,
    ],
    ids=["svdvals", "svd", "eigvalsh", "eigh", "pinv", "matrix_rank"],
)
def test_failed_factorisations_raise_as_on_the_cpu(func):
    bad = [[np.nan, 1.0], [1.0, 2.0]]
    try:
        func(xp.asarray(bad, device=CPU0))
    except ValueError as exc:  # LinAlgError
        with pytest.raises(type(exc)):
            func(xp.asarray(bad, device=CUDA_LAST))
    else:  # NumPy's eigh returns what LAPACK gives; so must the GPU
        assert func(xp.asarray(bad, device=CUDA_LAST)).device == CUDA_LAST


def test_negative_matrix_power_of_a_singular_matrix_raises():
    singular = [[1.0, 2.0], [2.0, 4.0]]
    with pytest.raises(ValueError) as theirs:
        xp.linalg.matrix_power(xp.asarray(singular, device=CPU0), -2)
    with pytest.raises(type(theirs.value)):
        xp.linalg.matrix_power(xp.asarray(singular, device=CUDA_LAST), -2)
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    for n in (-1, -3):
        _same_on_both(lambda x, n=n: xp.linalg.matrix_power(x, n), a, exact=False)


def test_asarray_of_a_cuda_array_with_another_dtype():
    x = xp.asarray([1.5, 2.5], device=CUDA0)
    for copy in (None, True):
        y = xp.asarray(x, dtype=xp.float32, copy=copy)
        assert y.dtype == xp.float32
        assert y.device == CUDA0
        assert host(y).tolist() == [1.5, 2.5]
    with pytest.raises(ValueError, match="copy"):
        xp.asarray(x, dtype=xp.float32, copy=False)
    backend = CUDA0._backend
    native = backend.asarray(x._data, np.dtype(np.float32), CUDA_LAST.index, None)
    assert backend._device_id(native) == CUDA_LAST.index  # across devices too
    strided = xp.reshape(xp.arange(12.0, device=CUDA0), (3, 4))[:, ::2]
    native = backend.asarray(strided._data, None, CUDA_LAST.index, None)
    assert host(xp.asarray(native, device=CUDA_LAST)).tolist() == [
        [0, 2],
        [4, 6],
        [8, 10],
    ]


def test_an_old_cupy_is_refused_with_a_warning():
    from ocean_cuda import _backend as cuda_backend

    class Old:
        __version__ = "13.6.0"

    class New:
        __version__ = "14.1.0"

    with pytest.warns(RuntimeWarning, match=r"CuPy 13\.6\.0 is older than 14\.0"):
        assert not cuda_backend._recent_enough(Old)
    assert cuda_backend._recent_enough(New)


# --- ocean_ext dtypes --------------------------------------------------------------------
_C32_VALUES = [1 + 2j, -0.5j, 3.0, complex(np.inf, 1.0), complex(np.nan, 0.0), 0.0,
               -2.25 + 0.125j, 1e-3 - 7j]  # fmt: skip
_C32_EXACT = {"add", "subtract", "multiply", "exp", "equal", "not_equal", "real",
              "imag", "isnan", "isinf", "isfinite", "square"}  # fmt: skip


ELEMENTWISE_2 = {"add", "subtract", "multiply", "divide", "equal", "not_equal", "pow"}
_C32_FUNCTIONS = sorted(
    ["add", "subtract", "multiply", "divide", "equal", "not_equal", "pow", "exp",
     "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos", "tan",
     "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh", "atanh",
     "square", "reciprocal", "sign", "round", "abs", "real", "imag", "isnan",
     "isinf", "isfinite", "negative", "conj", "positive"]
)  # fmt: skip


@pytest.mark.parametrize("name", _C32_FUNCTIONS)
def test_complex32_functions_match_the_cpu(name):
    c32 = ocean_ext.complex32
    func = getattr(xp, name)
    on_cpu = xp.asarray(_C32_VALUES, dtype=c32)
    on_gpu = xp.asarray(_C32_VALUES, dtype=c32, device=CUDA_LAST)
    with np.errstate(all="ignore"):
        args = (on_cpu, on_cpu[::-1]) if name in ELEMENTWISE_2 else (on_cpu,)
        want = func(*args)
        args = (on_gpu, on_gpu[::-1]) if name in ELEMENTWISE_2 else (on_gpu,)
        got = func(*args)
    assert got.device == CUDA_LAST
    assert got.dtype == want.dtype
    g, w = _c32_host(got), _c32_host(want)
    if name in _C32_EXACT or w.dtype.kind == "b":
        np.testing.assert_array_equal(g, w)
    else:  # the CPU's fused kernels may round differently: one float16 ulp
        np.testing.assert_allclose(g, w, rtol=2e-3, atol=1e-6, equal_nan=True)


def _c32_host(x):
    if x.dtype == ocean_ext.complex32:
        x = xp.astype(x, xp.complex64)
    elif x.dtype == ocean_ext.float16:
        x = xp.astype(x, xp.float32)
    return np.asarray(x.to_device("cpu"))


def test_complex32_reductions_linalg_views_and_conversions():
    c32 = ocean_ext.complex32
    rng = np.random.default_rng(7)
    a = (rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))).astype(
        np.complex64
    )
    cpu = xp.asarray(a, dtype=c32)
    gpu = cpu.to_device(CUDA_LAST)
    assert gpu.dtype == c32
    for f in (
        lambda z: xp.sum(z, axis=1),
        lambda z: xp.prod(z, axis=0, keepdims=True),
        lambda z: xp.mean(z),
        lambda z: z @ z.mT,
        lambda z: xp.vecdot(z, z),
        lambda z: xp.astype(z, xp.complex128),
        lambda z: xp.astype(xp.real(z), xp.float32),
        lambda z: xp.astype(xp.astype(xp.real(z), xp.float64), c32),
        lambda z: xp.real(z),
        lambda z: ocean_ext.view_as_real(z),
        lambda z: ocean_ext.view_as_complex(ocean_ext.view_as_real(z)),
        lambda z: z[1:3, ::-2],
        lambda z: z[xp.asarray([3, 0], device=z.device)],
        lambda z: xp.where(xp.real(z) > 0, z, -z),
        lambda z: xp.fft.fft(z),
    ):
        want, got = f(cpu), f(gpu)
        assert got.device == CUDA_LAST
        assert got.dtype == want.dtype
        np.testing.assert_allclose(
            _c32_host(got), _c32_host(want), rtol=2e-3, atol=2e-3
        )
    with pytest.raises(BufferError, match="complex64"):
        gpu.__dlpack__()


_PROXY_PATH = {
    "count_nonzero": lambda z: xp.count_nonzero(z, axis=1),
    "nonzero": lambda z: xp.nonzero(z),
    "any": lambda z: xp.any(z, axis=0),
    "unique_all": lambda z: xp.unique_all(z),
    "isin": lambda z: xp.isin(z, z[1]),
    "cumulative_sum": lambda z: xp.cumulative_sum(z, axis=1, include_initial=True),
    "diff": lambda z: xp.diff(z, n=2, axis=0),
    "tensordot": lambda z: xp.tensordot(z, z.mT, axes=1),
    "linalg.solve": lambda z: xp.linalg.solve(
        z[:, :4] + 4 * xp.eye(4, dtype=z.dtype, device=z.device), z
    ),
    "linalg.svdvals": lambda z: xp.linalg.svdvals(z),
    "linalg.trace": lambda z: xp.linalg.trace(z),
    "linalg.diagonal": lambda z: xp.linalg.diagonal(z, offset=1),
    "fft.fftshift": lambda z: xp.fft.fftshift(z),
    "var": lambda z: xp.var(xp.real(z), axis=1),
}


@pytest.mark.parametrize("dt", ["complex32", "float16"])
@pytest.mark.parametrize("name", sorted(_PROXY_PATH))
def test_half_precision_without_kernels_matches_the_cpu(name, dt):
    """Functions with no half-precision kernel compute in complex64/float32 on
    the device and round once, as on the CPU."""
    rng = np.random.default_rng(8)
    a = rng.standard_normal((4, 6)) + 1j * rng.standard_normal((4, 6))
    a[0, :2] = 0
    if dt == "float16":
        a = a.real
    cpu = xp.asarray(a, dtype=getattr(ocean_ext, dt))
    gpu = cpu.to_device(CUDA_LAST)
    func = _PROXY_PATH[name]
    want, got = func(cpu), func(gpu)
    want = want if isinstance(want, tuple) else (want,)
    got = got if isinstance(got, tuple) else (got,)
    for g, w in zip(got, want, strict=True):
        assert g.device == CUDA_LAST
        assert g.dtype == w.dtype
        if w.dtype in (ocean_ext.complex32, ocean_ext.float16):
            np.testing.assert_allclose(_c32_host(g), _c32_host(w), rtol=2e-3, atol=2e-3)
        else:
            np.testing.assert_array_equal(_c32_host(g), _c32_host(w))
