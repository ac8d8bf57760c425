"""The CUDA backend (backends/ocean_cuda), tested on the CPU with NumPy standing in for CuPy.

``_ops.build_ops`` takes the array module as a parameter; here it is ``FakeCupy``,
NumPy plus the few CuPy-only names the backend uses (``cuda.Device`` as a context
manager that records the current device, ``cuda.runtime``, streams, ``asnumpy``).
Arrays tagged with a device are ``OnDevice`` (an ndarray subclass carrying a device
id).  These tests check the table's names and calling conventions, its corrections
(the same results as the CPU table's), device switching, overlap-safe setitem and
the transfer methods.  Nothing here touches a GPU; the ``cuda``-marked tests at the
end need one (and CuPy) and skip otherwise.
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
import pytest

import ocean_array_api as xp
from ocean_array_api import _backend

from ..helpers import run_python

cpu_backend = _backend.get_backend("cpu")
_backend.get_backend("cuda")  # ensures backends/ is importable
from ocean_cuda import _ops  # noqa: E402
from ocean_cuda._backend import CUDABackend, make_backend  # noqa: E402

CPU_OPS = cpu_backend.ops


# --- the stand-in for CuPy ---------------------------------------------------------------
class FakeDevice:
    current: ClassVar[list[int]] = [0]
    entered: ClassVar[list[int]] = []
    synchronized: ClassVar[list[int]] = []

    def __init__(self, id: int) -> None:
        self.id = id

    def __enter__(self) -> FakeDevice:
        FakeDevice.current.append(self.id)
        FakeDevice.entered.append(self.id)
        return self

    def __exit__(self, *exc: object) -> None:
        FakeDevice.current.pop()

    def synchronize(self) -> None:
        FakeDevice.synchronized.append(self.id)


class FakeStream:
    current: ClassVar[list[object]] = [None]

    def __init__(self, ptr: int = 0) -> None:
        self.ptr = ptr

    def __enter__(self) -> FakeStream:
        FakeStream.current.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        FakeStream.current.pop()


FakeStream.null = FakeStream(0)
FakeStream.ptds = FakeStream(2)


class OnDevice(np.ndarray):
    """An ndarray that says which (fake) device it lives on, and records the
    overlap of the values assigned to it."""

    dev_id = 0
    overlapping_writes = 0

    def __array_finalize__(self, obj: object) -> None:
        self.dev_id = getattr(obj, "dev_id", 0)

    def __setitem__(self, key, value):
        if isinstance(value, np.ndarray) and np.shares_memory(self, value):
            OnDevice.overlapping_writes += 1
        super().__setitem__(key, value)


def on(dev_id: int, a) -> OnDevice:
    out = np.asarray(a).view(OnDevice)
    out.dev_id = dev_id
    return out


class _Cuda:
    Device = FakeDevice
    Stream = FakeStream
    ExternalStream = FakeStream

    class runtime:
        @staticmethod
        def getDeviceCount() -> int:
            return 2


class FakeCupy:
    """NumPy under CuPy's names."""

    __name__ = "fakecupy"
    cuda = _Cuda
    ndarray = np.ndarray

    def __getattr__(self, name: str):
        return getattr(np, name)

    @staticmethod
    def asnumpy(a, stream=None):
        return np.asarray(a).view(np.ndarray).copy()

    @staticmethod
    def unique(ar, return_index=False, return_inverse=False, return_counts=False, **kw):
        """As CuPy: grouped after a stable sort, so the first of equal values
        (-0.0 or +0.0) stands for them.  np.unique sorts unstably (it may
        pick either zero); the CPU table gives the stable result."""
        kw.pop("equal_nan", None)
        flat = np.asarray(ar).reshape(-1)
        order = np.argsort(flat, kind="stable")
        res = np.unique(
            flat[order],
            return_index=True,
            return_inverse=return_inverse,
            return_counts=return_counts,
            equal_nan=False,
            **kw,
        )
        _, first, *rest = res
        first = order[first]  # np.unique's first in the sorted copy: stable
        out = [flat[first]]
        if return_index:
            out.append(first)
        if return_inverse:
            inv = np.empty(flat.size, dtype=np.intp)
            inv[order] = rest.pop(0).reshape(-1)
            out.append(inv)
        out.extend(rest)
        return out[0] if len(out) == 1 else tuple(out)


fake = FakeCupy()


def device_of(a) -> FakeDevice:
    return FakeDevice(getattr(a, "dev_id", 0))


@pytest.fixture(scope="module")
def cuda() -> CUDABackend:
    return make_backend(fake, 2, sort_kind="stable", device_of=device_of)


@pytest.fixture(scope="module")
def ops(cuda) -> dict:
    return cuda.ops


@pytest.fixture(autouse=True)
def _quiet_records():
    FakeDevice.entered.clear()
    FakeDevice.synchronized.clear()
    OnDevice.overlapping_writes = 0
    return


# --- names and the protocol ----------------------------------------------------------------
def test_every_cpu_entry_exists_or_is_deliberately_absent(ops):
    missing = set(CPU_OPS) - set(ops)
    # complex32 entries come from _halfprec_kernels.cuda_ops(), built only over real CuPy
    missing = {m for m in missing if not m.endswith(".complex32")}
    # (NumPy, standing in here, has linalg.eig; CuPy before v14 has not)
    assert missing <= set(_ops.ABSENT), missing
    for name, reason in _ops.ABSENT.items():
        assert name in CPU_OPS
        assert reason


def test_no_entry_beyond_the_cpu_table(ops):
    assert set(ops) <= set(CPU_OPS)


def test_backend_satisfies_the_protocol(cuda):
    assert isinstance(cuda, _backend.Backend)
    assert cuda.kind == "cuda"
    assert cuda.supports_byteswap is False
    assert cuda.device_indices() == (0, 1)
    assert cuda.native_type is np.ndarray
    assert cuda.capabilities()["max dimensions"] == cuda.max_dimensions
    assert cuda.is_lazy(np.zeros(1)) is False


def test_without_cupy_there_are_no_devices_and_no_warning():
    import warnings

    b = CUDABackend()
    b._xp = False  # as after a failed `import cupy`
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert b.device_indices() == ()
        assert b.ops == {}
        assert b.native_type is type(None)


def test_builtin_backend_reports_no_devices_here():
    import ocean_cuda

    try:
        import cupy  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("CuPy is installed")
    assert ocean_cuda.backend.device_indices() == ()
    assert ocean_cuda.backend.ops == {}
    # (this process may have simulated GPUs registered: ask a fresh one)
    proc = run_python(
        "import ocean_array_api as xp\n"
        "print([str(d) for d in xp.__array_namespace_info__().devices()])\n"
        "try:\n    xp.zeros(2, device='cuda:0')\n"
        "except ValueError as e:\n    print('ValueError', e)\n"
    )
    listed = proc.stdout.splitlines()[0]
    # the CPUs first, then other kinds (dask, when installed), but no cuda
    assert listed.startswith("['cpu:0', 'cpu:1'")
    assert "cuda" not in listed
    assert "ValueError" in proc.stdout
    assert "cuda:0" in proc.stdout


def test_importing_the_backend_does_not_import_cupy():
    code = """
import sys
attempts = []
class Recorder:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {"cupy", "cupyx", "cupy_backends"}:
            attempts.append(name)
        return None
sys.meta_path.insert(0, Recorder())
from ocean_array_api import _backend
_backend.get_backend("cuda")
import ocean_cuda, ocean_cuda._ops, ocean_cuda._backend, ocean_cuda._halfprec_kernels
print("attempts:" + ",".join(attempts))
"""
    proc = run_python(code)
    assert "attempts:\n" in proc.stdout or proc.stdout.strip() == "attempts:"


# --- the same results as the CPU table ----------------------------------------------------
def same(a, b) -> None:
    if isinstance(a, tuple):
        assert isinstance(b, tuple)
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            same(x, y)
        return
    a = np.asarray(a)
    b = np.asarray(b)
    assert a.dtype == b.dtype, (a.dtype, b.dtype)
    assert a.shape == b.shape, (a.shape, b.shape)
    np.testing.assert_array_equal(a, b, strict=True)
    if a.dtype.kind in "fc":  # signed zeros
        np.testing.assert_array_equal(np.signbit(a.real), np.signbit(b.real))
        if a.dtype.kind == "c":
            np.testing.assert_array_equal(np.signbit(a.imag), np.signbit(b.imag))


inf, nan = math.inf, math.nan
F = np.array([-inf, -2.5, -0.0, 0.0, 1.5, inf, nan])
SORT_IN = np.array([3, 1, 2, 1, 3, 0, 2], dtype=np.int64)
FLOATS_NAN = np.array([2.0, nan, 1.0, nan, 2.0, -0.0, 0.0])
C = np.array(
    [
        complex(inf, 1.0),
        complex(-inf, 3.14159),
        complex(inf, -0.0),
        1e-9 + 1e-9j,
        complex(-inf, inf),
        complex(inf, nan),
        complex(1.0, 0.0),
        complex(-0.0, 0.0),
    ]
)

CASES = [
    ("sort", (SORT_IN, 0, True, True)),
    ("sort", (FLOATS_NAN, 0, True, True)),
    ("sort", (np.arange(12.0).reshape(3, 4) % 5, 1, True, True)),
    ("argsort", (SORT_IN, 0, True, True)),
    ("argsort", (SORT_IN, 0, False, True)),
    ("argsort", (np.arange(12).reshape(3, 4) % 3, 0, True, True)),
    ("unique_values", (FLOATS_NAN,)),
    ("unique_counts", (FLOATS_NAN,)),
    ("unique_inverse", (SORT_IN.reshape(7, 1),)),
    ("unique_all", (SORT_IN,)),
    (
        "floor_divide",
        (np.array([inf, -inf, 5.0, -5.0, 5.0]), np.array([2.0, 3.0, inf, inf, -inf])),
    ),
    ("floor_divide", (np.array([7, -7]), np.array([2, 2]))),
    ("expm1", (C,)),
    ("expm1", (F,)),
    ("tanh", (C,)),
    ("pow", (F, 0.5)),
    ("pow", (F, np.array([0.5]))),
    ("pow", (F, 2.0)),
    ("pow", (np.array([2, 3]), 2)),
    ("clip", (np.array([1, 5, 9], dtype=np.int8), 2, 7)),
    ("clip", (np.array([1.0, nan, 9.0], dtype=np.float32), 2.0, None)),
    ("clip", (np.array([1.0, 2.0]), None, None)),
    ("mean", (np.zeros((0, 3)), 0, False)),
    ("mean", (np.zeros((0,), dtype=np.complex64), None, True)),
    ("var", (np.array([1.0, 2.0]), None, 2.0, False)),
    ("std", (np.arange(6.0).reshape(2, 3), 1, 1.0, True)),
    ("max", (np.zeros((0, 3)), 1, False)),
    ("min", (np.arange(6).reshape(2, 3), (0,), True)),
    ("cumulative_sum", (np.arange(6).reshape(2, 3), 1, None, True)),
    ("cumulative_prod", (np.arange(1.0, 7.0).reshape(2, 3), 0, None, False)),
    ("count_nonzero", (np.array([[0, 1], [2, 0]]), None, False)),
    ("count_nonzero", (np.array([[0, 1], [2, 0]]), (1,), True)),
    ("diff", (np.array([1, 4, 9, 16]), 0, 2, None, np.array([25]))),
    ("repeat", (np.array([1, 2, 3]), np.array([1, 0, 2], dtype=np.uint64), 0)),
    ("reshape", (np.arange(6), (2, 3), None)),
    ("reshape", (np.arange(6), (3, 2), True)),
    ("moveaxis", (np.zeros((2, 3, 4)), (0,), (2,))),
    ("flip", (np.arange(6).reshape(2, 3), (1,))),
    ("flip", (np.arange(6).reshape(2, 3), None)),
    ("unstack", (np.arange(6).reshape(2, 3), 1)),
    ("concat", ((np.arange(2), np.arange(3.0)), 0, np.dtype(np.float64))),
    ("stack", ((np.arange(2), np.arange(2)), 1, np.dtype(np.int64))),
    ("expand_dims", (np.arange(3), (0, 2))),
    ("searchsorted", (np.array([1, 3, 5]), np.array([3, 4]), "right", None)),
    ("isin", (np.array([1, 2, 3]), np.array([2]), True)),
    ("take", (np.arange(5), np.array([4, 0]), 0)),
    ("vecdot", (np.array([1 + 1j, 2]), np.array([1j, 1]), -1)),
    ("sum", (np.arange(4, dtype=np.int8), None, np.dtype(np.int64), False)),
    ("argmax", (np.array([[1, 5], [7, 2]]), 1, True)),
    ("astype", (np.arange(3), np.dtype(np.float32), True)),
    ("linalg.matrix_rank", (np.eye(3), None)),
    ("linalg.matrix_rank", (np.zeros((2, 0, 3)), None)),
    ("linalg.vector_norm", (np.zeros((0, 2)), (0,), False, -inf)),
    ("linalg.vector_norm", (np.array([3.0, 4.0]), None, True, 2.0)),
    ("linalg.matrix_norm", (np.zeros((2, 0, 0)), False, 1)),
    ("linalg.matrix_norm", (np.array([[1.0, -2.0], [3.0, 4.0]]), True, "fro")),
    ("linalg.cholesky", (np.array([[4.0, 2.0], [2.0, 3.0]]), True)),
    ("linalg.matrix_power", (np.array([[1.0, 1.0], [0.0, 1.0]]), 0)),
    ("linalg.diagonal", (np.arange(9.0).reshape(3, 3), 1)),
    ("linalg.trace", (np.arange(9).reshape(3, 3), 0, np.dtype(np.int64))),
    ("fft.fftn", (np.arange(4.0, dtype=np.float32), (), (), "backward")),
    ("fft.rfft", (np.arange(4.0, dtype=np.float32), 4, -1, "ortho")),
    ("fft.fftfreq", (0, 5, 0.5, np.dtype(np.float32))),
    ("fft.fftshift", (np.arange(5), (0,))),
    ("arange", (0, 0, 5, 2, np.dtype(np.int32))),
    ("full", (0, (2, 2), 3.5, np.dtype(np.float32))),
    ("eye", (0, 2, 3, 1, np.dtype(np.float64))),
    ("linspace", (0, 0.0, 1.0, 5, np.dtype(np.float64), False)),
    ("sum.float16", (np.array([1.0, 2.0], dtype=np.float16), None, False)),
    (
        "matmul.float16",
        (np.eye(2, dtype=np.float16), np.ones((2, 2), dtype=np.float16)),
    ),
    ("view_as_real", (np.array([1 + 2j], dtype=np.complex64), np.dtype(np.float32))),
]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(
    ("name", "args"), CASES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CASES)]
)
def test_entry_matches_the_cpu_table(ops, name, args):
    same(ops[name](*args), CPU_OPS[name](*args))


def test_pinv_matches_the_cpu_table(ops):
    a = np.array([[1.0, 2.0], [2.0, 4.0], [0.0, 1.0]])
    np.testing.assert_allclose(
        ops["linalg.pinv"](a, None), CPU_OPS["linalg.pinv"](a, None), atol=1e-12
    )
    np.testing.assert_allclose(
        ops["linalg.pinv"](a, 0.5), CPU_OPS["linalg.pinv"](a, 0.5), atol=1e-12
    )
    same(
        ops["linalg.pinv"](np.zeros((0, 2)), None),
        CPU_OPS["linalg.pinv"](np.zeros((0, 2)), None),
    )


def test_out_argument_of_corrected_binary_entries(ops):
    out = np.empty(2)
    res = ops["floor_divide"](np.array([inf, 5.0]), np.array([2.0, 2.0]), out=out)
    assert res is out
    same(out, np.array([inf, 2.0]))
    out = np.empty(2)
    assert ops["pow"](np.array([-inf, -0.0]), 0.5, out=out) is out
    same(out, np.array([inf, 0.0]))


def test_descending_sort_is_stable(ops):
    keys = np.array([1, 2, 1, 2, 1])
    order = ops["argsort"](keys, 0, True, True)
    same(order, np.array([1, 3, 0, 2, 4]))


def test_unique_keeps_nans_distinct_and_sorted(ops):
    values = ops["unique_values"](np.array([nan, 3.0, nan, 1.0, 3.0]))
    assert values.shape == (4,)
    same(values[:2], np.array([1.0, 3.0]))
    assert np.isnan(values[2:]).all()


def test_reshape_copy_false_refuses_a_copy(ops):
    with pytest.raises(ValueError):
        ops["reshape"](np.arange(6).reshape(2, 3).T, (6,), False)


# --- devices -------------------------------------------------------------------------------
def test_entries_run_on_the_device_of_their_operands(ops):
    x = on(1, [3.0, 1.0, 2.0])
    ops["sort"](x, 0, False, True)
    ops["add"](2.0, x)  # the array need not be first
    ops["concat"]([on(1, [1]), on(1, [2])], 0, None)
    assert FakeDevice.entered == [1, 1, 1]
    ops["add"](on(0, [1.0]), on(0, [1.0]))
    assert FakeDevice.entered[-1] == 0


def test_creation_entries_take_the_device_index_first(ops):
    for name, args in [
        ("zeros", (1, (2,), np.dtype(np.float32))),
        ("ones", (1, (2,), np.dtype(np.int8))),
        ("empty", (1, (0,), np.dtype(np.float64))),
        ("fft.rfftfreq", (1, 4, 1.0, np.dtype(np.float64))),
    ]:
        FakeDevice.entered.clear()
        res = ops[name](*args)
        assert FakeDevice.entered == [1], name
        same(res, CPU_OPS[name](*args))


def test_single_device_tables_are_not_wrapped():
    ops1 = make_backend(fake, 1, sort_kind="stable", device_of=device_of).ops
    assert ops1["sort"].__name__ == "sort"
    assert not hasattr(ops1["sort"], "__wrapped__")
    ops1["zeros"](0, (1,), np.dtype(np.float32))
    assert FakeDevice.entered == []


# --- overlap-safe writes ------------------------------------------------------------------
def test_setitem_copies_an_overlapping_slice(ops):
    x = on(0, np.arange(5.0))
    ops["setitem"](x, slice(1, None), x[:-1])
    same(np.asarray(x).view(np.ndarray), np.array([0.0, 0.0, 1.0, 2.0, 3.0]))
    assert OnDevice.overlapping_writes == 0  # the value reached x[...] = v as a copy


def test_setitem_copies_the_array_itself(ops):
    x = on(0, np.arange(4.0))
    ops["setitem"](x, slice(None, None, -1), x)
    same(np.asarray(x).view(np.ndarray), np.array([3.0, 2.0, 1.0, 0.0]))
    assert OnDevice.overlapping_writes == 0


def test_setitem_fancy_swap(ops):
    x = on(0, np.arange(4.0))
    ops["setitem"](x, np.array([1, 2]), x[np.array([2, 1])])
    same(np.asarray(x).view(np.ndarray), np.array([0.0, 2.0, 1.0, 3.0]))


def test_setitem_without_overlap_does_not_copy(ops):
    x = on(0, np.zeros(3))
    v = np.ones(3)
    ops["setitem"](x, slice(None), v)
    same(np.asarray(x).view(np.ndarray), v)


# --- allocation, transfers, streams, DLPack ---------------------------------------------------
def test_asarray_from_host_and_copy_rules(cuda):
    a = cuda.asarray([1, 2], np.dtype(np.float32), 1, None)
    assert a.dtype == np.float32
    assert FakeDevice.entered == [1]
    with pytest.raises(ValueError):
        cuda.asarray([1, 2], None, 0, False)
    x = on(0, [1.0, 2.0])
    assert np.shares_memory(cuda.asarray(x, None, 0, None), x)
    assert not np.shares_memory(cuda.asarray(x, None, 1, None), x)  # another device
    with pytest.raises(ValueError):
        cuda.asarray(x, np.dtype(np.float32), 0, False)


@pytest.mark.parametrize("stream", [None, 1, 2, 12345, FakeStream(7)])
def test_transfers_with_streams(cuda, stream):
    host = np.arange(3.0)
    seen = []

    class Spy(FakeCupy):
        @staticmethod
        def asnumpy(a, stream=None):
            seen.append(FakeStream.current[-1])
            return FakeCupy.asnumpy(a)

    b = make_backend(Spy(), 2, device_of=device_of)
    d = b.from_host(host, 1, stream=stream)
    assert not np.shares_memory(d, host)
    assert FakeDevice.entered == [1]
    t = b.transfer(d, 0, stream=stream)
    assert not np.shares_memory(t, d)
    back = b.to_host(t, stream=stream)
    same(back, host)
    cur = seen[-1]
    if stream is None:
        assert cur is None
    elif stream in (1, 2):
        assert cur is (FakeStream.null if stream == 1 else FakeStream.ptds)
    elif isinstance(stream, int):
        assert cur.ptr == stream
    else:
        assert cur is stream


def test_synchronize_and_dlpack(cuda):
    cuda.synchronize(1)
    assert FakeDevice.synchronized == [1]
    assert cuda.dlpack_device(on(1, [1.0]), 1) == (2, 1)
    src = np.arange(3.0)
    got = cuda.from_dlpack(src, 0, None)
    same(got, src)
    assert not np.shares_memory(cuda.from_dlpack(src, 0, True), src)


def test_to_native_and_materialize(cuda):
    same(cuda.to_native(np.float64(2.0)), np.asarray(2.0))
    x = np.zeros(1)
    assert cuda.materialize(x) is x


# --- on a real GPU (skipped without one) ------------------------------------------------------
@pytest.mark.gpu
def test_gpu_table_matches_cpu_table():
    import cupy

    gpu = _backend.get_backend("cuda")
    for name, args in CASES:

        def to_gpu(a):
            if isinstance(a, np.ndarray):
                return cupy.asarray(a)
            if isinstance(a, (list, tuple)):  # concat, stack, meshgrid
                return type(a)(to_gpu(v) for v in a)
            return a

        if name in ("arange", "full", "eye", "linspace", "fft.fftfreq"):
            dev_args = args
        else:
            dev_args = tuple(to_gpu(a) for a in args)
        res = gpu.ops[name](*dev_args)
        want = CPU_OPS[name](*args)
        if isinstance(res, tuple):  # parts of other shapes: one by one
            assert isinstance(want, tuple), name
            assert len(res) == len(want), name
            for r, w in zip(res, want, strict=True):
                np.testing.assert_allclose(cupy.asnumpy(r), w, rtol=1e-6, err_msg=name)
        else:
            np.testing.assert_allclose(cupy.asnumpy(res), want, rtol=1e-6, err_msg=name)


@pytest.mark.cuda
def test_gpu_setitem_overlap_and_sort():
    d = xp.__array_namespace_info__().devices()
    cuda0 = next(dev for dev in d if dev.kind == "cuda")
    x = xp.arange(6.0, device=cuda0)
    x[1:] = x[:-1]
    assert np.array_equal(np.asarray(x.to_device("cpu")), [0, 0, 1, 2, 3, 4])
    s = xp.sort(xp.asarray([1, 3, 2], device=cuda0), descending=True)
    assert np.array_equal(np.asarray(s.to_device("cpu")), [3, 2, 1])


@pytest.mark.cuda
def test_gpu_multi_device_round_trip():
    devs = [
        dev for dev in xp.__array_namespace_info__().devices() if dev.kind == "cuda"
    ]
    if len(devs) < 2:
        pytest.skip("needs two GPUs")
    x = xp.arange(4.0, device=devs[1])
    y = (x + 1).to_device(devs[0])
    assert y.device == devs[0]
    assert x._data.device.id == 1
    assert y._data.device.id == 0


@pytest.mark.gpu
def test_gpu_fused_complex32_kernels_match_the_portable_entries():
    # "compute in complex64, round once to complex32": the fused kernels must
    # give the portable entries' bits for add, subtract, multiply and exp.
    import cupy
    from ocean_cuda._halfprec_kernels import cuda_ops
    from ocean_cuda._halfprec_portable import portable_ops

    gpu = _backend.get_backend("cuda")
    portable = portable_ops(cupy, gpu.ops)
    fused = cuda_ops()
    rng = np.random.default_rng(0)
    z = (rng.standard_normal(10_000) + 1j * rng.standard_normal(10_000)) * 4
    z[:4] = [complex(inf, 1), complex(nan, 0), 0, complex(-inf, -inf)]
    c = portable["astype.to.complex32"](cupy.asarray(z.astype(np.complex64)))
    d = c[::-1].copy()
    for name, args in (("add", (c, d)), ("subtract", (c, d)), ("multiply", (c, d)),
                       ("exp", (c,))):  # fmt: skip
        key = f"{name}.complex32"
        got = cupy.asnumpy(fused[key](*args))
        want = cupy.asnumpy(portable[key](*args))
        same_or_both_nan = (got == want) | (
            np.isnan(got.view(np.float16)).reshape(-1, 2).any(1)
            & np.isnan(want.view(np.float16)).reshape(-1, 2).any(1)
        )
        if name == "exp":
            # the portable entry rounds CuPy's complex64 exp (thrust's), the
            # fused kernel its own float32 exp and sincos: on finite input the
            # two may straddle a float16 midpoint (one float16 ulp apart);
            # the special inputs' results are rules, the same bits
            g = got.view(np.uint16).reshape(-1, 2).astype(np.int32)
            w = want.view(np.uint16).reshape(-1, 2).astype(np.int32)
            one_ulp = (np.abs(g - w) <= 1).all(1)
            same_or_both_nan[4:] |= one_ulp[4:]
        assert same_or_both_nan.all(), (name, np.flatnonzero(~same_or_both_nan)[:5])


def test_fused_kernels_take_out_by_position():
    """CuPy's ElementwiseKernel takes outputs by position and refuses ``out=``;
    the table entries take the front end's ``out=`` (in-place operators)."""
    from ocean_cuda._halfprec_kernels import with_out

    calls = []

    class Kernel:  # the call signature of cupy.ElementwiseKernel
        def __call__(self, *args, **kwargs):
            if set(kwargs) - {"size", "stream", "block_size"}:
                raise TypeError(f"Wrong arguments {kwargs}")
            calls.append(args)
            return args[2] if len(args) == 3 else "new"

    entry = with_out(Kernel())
    assert entry("a", "b") == "new"
    assert entry("a", "b", out="a") == "a"
    assert calls == [("a", "b"), ("a", "b", "a")]
