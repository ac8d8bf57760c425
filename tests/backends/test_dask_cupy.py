"""The dask backend's CuPy-chunk devices ``dask:cuda:<i>`` (``Device("dask", 1 + i)``).

Without a GPU these run on the suite's simulated CuPy (``tests/simcupy.py``:
NumPy's arithmetic under CuPy's rules; host NumPy arrays are refused by
device operations), which the CUDA backend then uses, so the dask arrays
carry ``SimArray`` chunks.  Every test compares with NumPy, and checks that
the chunks of the results are device arrays (the CUDA backend's
``native_type``), not NumPy ones: an operation that went through the host
would fail here.  With a GPU and CuPy the same tests run on CuPy chunks.

Not covered by the simulation: CuPy's own numerics and speed, and NumPy
code that indexes a host array with a device array (``SimArray`` is an
``ndarray`` subclass, so NumPy accepts it where CuPy would refuse).
"""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

da = pytest.importorskip("dask.array", reason="dask is not installed (.[dask])")
dask = pytest.importorskip("dask")

import ocean_array_api as xp  # noqa: E402
import ocean_ext  # noqa: E402
from ocean_array_api._backend import get_backend  # noqa: E402
from ocean_array_api._devices import Device, parse_device  # noqa: E402

from .. import simcupy  # noqa: E402
from ..conftest import SIMULATED_CUDA  # noqa: E402
from ..helpers import assert_matches, run_python  # noqa: E402

INFO = xp.__array_namespace_info__()
CPU = INFO.devices()[0]
DASK = Device("dask", 0)
GPUS = tuple(d for d in INFO.devices() if d.kind == "dask" and d.index > 0)
if not GPUS:
    pytest.skip(
        "no dask:cuda device: needs CuPy and a GPU, or the simulated CUDA "
        "devices (OCEAN_TEST_SIMULATE_CUDA)",
        allow_module_level=True,
    )
G0 = GPUS[0]
CUDA = get_backend("cuda")
DEVICE_ARRAY = CUDA.native_type  # cupy.ndarray, or simcupy.SimArray
CUPY = CUDA.array_module()

if SIMULATED_CUDA:
    simcupy.register_with_dask()


@pytest.fixture(autouse=True)
def _cupy_for_dask(monkeypatch):
    # dask imports CuPy by name in a few branches for chunk types whose name
    # contains "cupy" (dask.utils.is_cupy_type; e.g. the blocks of matmul):
    # on a GPU machine that is CuPy; here it must be the simulation.
    if SIMULATED_CUDA:
        monkeypatch.setitem(sys.modules, "cupy", simcupy.xp)


def gpu_of(device):
    return device.index - 1


def chunk_types(x):
    """The types of the computed chunks of an array on a dask device."""
    arr = x._data.arr
    with CUPY.cuda.Device(x._data.gpu or 0):
        blocks = dask.compute(*arr.to_delayed().ravel(), scheduler="sync")
    return {type(b) for b in blocks}


def on(device, a, chunks):
    """``a`` on ``device`` with the given chunks."""
    return ocean_ext.rechunk(xp.asarray(a, device=device), chunks)


def check(x, expected, *, device=G0, rtol=None, atol=0.0, dtype=None):
    """x matches NumPy's ``expected`` (dtype, shape, values), is on
    ``device``, and its chunks are device arrays."""
    assert x.device == device
    assert x._data.gpu == gpu_of(device)
    assert chunk_types(x) <= {DEVICE_ARRAY}, chunk_types(x)
    assert isinstance(x._data.arr._meta, DEVICE_ARRAY)
    assert_matches(x, expected, device=device, rtol=rtol, atol=atol, dtype=dtype)


RNG = np.random.default_rng(7)
A = RNG.standard_normal((7, 5))


# --- the devices ------------------------------------------------------------------
def test_one_device_per_gpu_named_dask_cuda():
    gpus = CUDA.device_indices()
    assert len(GPUS) == len(gpus) >= 1
    for i, dev in zip(gpus, GPUS, strict=True):
        assert dev == Device("dask", 1 + i)
        assert str(dev) == f"dask:cuda:{i}"
        assert parse_device(f"dask:cuda:{i}", "t") is dev
        assert xp.zeros(2, device=f"dask:cuda:{i}").device == dev
        assert dev in INFO.devices()
    assert str(DASK) == "dask"
    assert parse_device("dask", "t") is DASK


@pytest.mark.parametrize("spec", ["dask:cuda:x", "dask:gpu:0", "dask:cuda:-1"])
def test_bad_names_are_refused(spec):
    with pytest.raises(ValueError, match="cannot read device"):
        xp.zeros(1, device=spec)


def test_a_gpu_that_is_not_there_is_refused():
    n = len(GPUS)
    with pytest.raises(ValueError, match=f"no device dask:cuda:{n} "):
        xp.zeros(1, device=f"dask:cuda:{n}")


def test_default_device_from_the_environment():
    code = ("from tests import sim_cuda\n" if SIMULATED_CUDA else "") + (
        "import ocean_array_api as xp\n"
        "x = xp.zeros(3)\n"
        "print(x.device, x.__dlpack_device__())\n"
    )
    out = run_python(
        code, {"OCEAN_ARRAY_API_DEFAULT_DEVICE": "dask:cuda:0"}
    ).stdout.strip()
    assert out == "dask:cuda:0 (2, 0)"


def test_without_a_gpu_only_the_numpy_chunk_device_is_listed():
    code = (
        "import ocean_array_api as xp\n"
        "print([str(d) for d in xp.__array_namespace_info__().devices()"
        " if d.kind == 'dask'])\n"
    )
    # no CuPy here, or a GPU that CUDA_VISIBLE_DEVICES hides
    out = run_python(code, {"CUDA_VISIBLE_DEVICES": ""}).stdout.strip()
    assert out == "['dask']"


def test_capabilities_and_dlpack_device():
    with G0:
        caps = INFO.capabilities()
        x = xp.ones(3)
    assert caps["data-dependent shapes"] is True
    assert x.__dlpack_device__() == (2, gpu_of(G0))
    assert xp.ones(3, device=DASK).__dlpack_device__() == (1, 0)


def test_mixing_with_other_dask_devices_is_a_device_error():
    x = xp.ones(3, device=G0)
    with pytest.raises(ValueError, match="to_device"):
        x + xp.ones(3, device=DASK)
    with pytest.raises(ValueError, match="to_device"):
        xp.ones(3, device=DASK) * x
    if len(GPUS) > 1:
        with pytest.raises(ValueError, match="to_device"):
            x - xp.ones(3, device=GPUS[1])


def test_numpy_export_is_refused_as_on_cuda():
    x = xp.ones(3, device=G0)
    with pytest.raises(TypeError, match="to_device"):
        np.asarray(x)
    np.testing.assert_array_equal(np.asarray(xp.ones(3, device=DASK)), np.ones(3))


# --- creation --------------------------------------------------------------------
CREATION = [
    (lambda d: xp.zeros((4, 3), device=d), np.zeros((4, 3))),
    (lambda d: xp.ones(5, dtype=xp.int32, device=d), np.ones(5, np.int32)),
    (lambda d: xp.full((2, 3), 2.5, device=d), np.full((2, 3), 2.5)),
    (lambda d: xp.full(3, True, device=d), np.full(3, True)),
    (lambda d: xp.empty((0, 3), device=d), np.empty((0, 3))),
    (lambda d: xp.arange(1, 10, 2.5, device=d), np.arange(1, 10, 2.5)),
    (lambda d: xp.arange(7, dtype=xp.int16, device=d), np.arange(7, dtype=np.int16)),
    (lambda d: xp.linspace(0, 1, 7, device=d), np.linspace(0, 1, 7)),
    (lambda d: xp.linspace(2, 3, 1, device=d), np.linspace(2, 3, 1)),
    (lambda d: xp.eye(3, 4, k=1, device=d), np.eye(3, 4, 1)),
    (lambda d: xp.asarray([[1, 2], [3, 4]], device=d), np.array([[1, 2], [3, 4]])),
    (lambda d: xp.asarray(np.arange(6.0), device=d), np.arange(6.0)),
    (lambda d: xp.fft.fftfreq(8, d=0.5, device=d), np.fft.fftfreq(8, 0.5)),
    (lambda d: xp.tril(xp.ones((4, 4), device=d)), np.tril(np.ones((4, 4)))),
]


@pytest.mark.parametrize("device", GPUS, ids=str)
@pytest.mark.parametrize("case", range(len(CREATION)))
def test_creation_makes_device_chunks(case, device):
    make, want = CREATION[case]
    check(make(device), want, device=device)


# --- elementwise, reductions, linear algebra ---------------------------------------
X = on(G0, A, (3, 2))
ELEMENTWISE = [
    (
        lambda x: xp.exp(x) - x**2 + xp.abs(x) / 3,
        lambda a: np.exp(a) - a**2 + np.abs(a) / 3,
    ),
    (lambda x: x % 0.7, lambda a: np.remainder(a, 0.7)),
    (lambda x: x // 0.3, lambda a: np.floor_divide(a, 0.3)),
    (lambda x: xp.clip(x, -0.5, 0.5), lambda a: np.clip(a, -0.5, 0.5)),
    (lambda x: xp.where(x > 0, x, 0.0), lambda a: np.where(a > 0, a, 0.0)),
    (lambda x: xp.atan2(x, x[0]), lambda a: np.arctan2(a, a[0])),
    (
        lambda x: xp.astype(x * 10, xp.int8) >> 1,
        lambda a: (a * 10).astype(np.int8) >> 1,
    ),
    (lambda x: xp.logical_and(x > 0, x < 1), lambda a: (a > 0) & (a < 1)),
    (lambda x: xp.round(x * 4), lambda a: np.round(a * 4)),
    (lambda x: xp.astype(x, xp.complex64) * 1j, lambda a: a.astype(np.complex64) * 1j),
]


@pytest.mark.parametrize("case", range(len(ELEMENTWISE)))
def test_elementwise_functions(case):
    f, g = ELEMENTWISE[case]
    check(f(X), g(A), rtol=1e-12)


def test_in_place_operators_rebind_to_device_chunks():
    y = xp.asarray(X, copy=True)
    y += 1.0
    y *= X
    check(y, (A + 1) * A, rtol=1e-12)
    check(X, A)  # the operand is untouched


REDUCTIONS = [
    (lambda x: xp.sum(x, axis=0), lambda a: a.sum(0)),
    (lambda x: xp.prod(x, axis=1), lambda a: a.prod(1)),
    (lambda x: xp.mean(x), lambda a: a.mean()),
    (lambda x: xp.std(x, axis=1, correction=1), lambda a: a.std(1, ddof=1)),
    (lambda x: xp.var(x), lambda a: a.var()),
    (lambda x: xp.max(x, axis=0), lambda a: a.max(0)),
    (lambda x: xp.min(x), lambda a: a.min()),
    (lambda x: xp.argmax(x, axis=0), lambda a: a.argmax(0)),
    (lambda x: xp.argmin(x), lambda a: a.argmin()),
    (
        lambda x: xp.cumulative_sum(x, axis=0, include_initial=True),
        lambda a: np.concatenate([np.zeros((1, 5)), a.cumsum(0)]),
    ),
    (lambda x: xp.cumulative_prod(x, axis=1), lambda a: a.cumprod(1)),
    (lambda x: xp.diff(x, axis=0), lambda a: np.diff(a, axis=0)),
    (lambda x: xp.any(x > 1, axis=0), lambda a: (a > 1).any(0)),
    (lambda x: xp.all(x > -3), lambda a: (a > -3).all()),
    (lambda x: xp.count_nonzero(x > 0, axis=1), lambda a: (a > 0).sum(1)),
]


@pytest.mark.parametrize("case", range(len(REDUCTIONS)))
def test_reductions(case):
    f, g = REDUCTIONS[case]
    check(f(X), g(A), rtol=1e-12)


def test_matmul_tensordot_vecdot():
    check(X @ X.mT, A @ A.T, rtol=1e-12)
    check(X @ X[0], A @ A[0], rtol=1e-12)
    check(xp.tensordot(X, X, axes=([0], [0])), A.T @ A, rtol=1e-12)
    check(xp.vecdot(X, X), (A * A).sum(-1), rtol=1e-12)
    xi = on(G0, np.arange(12, dtype=np.int32).reshape(3, 4), 2)
    i = np.arange(12, dtype=np.int32).reshape(3, 4)
    check(xi @ xi.mT, i @ i.T)


def test_linalg():
    m = A[:5] @ A[:5].T + 5 * np.eye(5)
    xm = on(G0, m, 2)
    check(xp.linalg.inv(xm), np.linalg.inv(m), rtol=1e-10)
    check(xp.linalg.solve(xm, xm[0]), np.linalg.solve(m, m[0]), rtol=1e-10)
    check(xp.linalg.cholesky(xm), np.linalg.cholesky(m), rtol=1e-10)
    check(xp.linalg.det(xm), np.linalg.det(m), rtol=1e-10)
    check(xp.linalg.eigvalsh(xm), np.linalg.eigvalsh(m), rtol=1e-10)
    check(xp.linalg.svdvals(X), np.linalg.svd(A, compute_uv=False), rtol=1e-10)
    check(xp.abs(xp.linalg.qr(X).R), np.abs(np.linalg.qr(A).R), rtol=1e-10)
    check(
        xp.linalg.vector_norm(X, ord=3), np.sum(np.abs(A) ** 3) ** (1 / 3), rtol=1e-12
    )
    check(xp.linalg.matrix_norm(xm), np.linalg.norm(m), rtol=1e-12)
    check(xp.linalg.trace(xm), np.trace(m), rtol=1e-12)
    check(xp.linalg.diagonal(xm, offset=1), np.diagonal(m, 1))
    check(xp.linalg.outer(X[0], X[1]), np.outer(A[0], A[1]))
    check(
        xp.linalg.cross(X[:, :3], X[:, 1:4]), np.cross(A[:, :3], A[:, 1:4]), rtol=1e-12
    )
    stack = np.stack([m, 2 * m, 3 * m])
    check(xp.linalg.inv(on(G0, stack, (1, 5, 5))), np.linalg.inv(stack), rtol=1e-10)
    empty = xp.linalg.solve(xp.ones((1, 1), device=G0), xp.ones((1, 0), device=G0))
    check(empty, np.ones((1, 0)))


def test_fft():
    c = xp.astype(X, xp.complex128)
    check(xp.fft.fft(c, axis=0), np.fft.fft(A, axis=0), rtol=1e-12, atol=1e-12)
    check(xp.fft.rfft(X, axis=1), np.fft.rfft(A, axis=1), rtol=1e-12, atol=1e-12)
    check(xp.fft.irfft(xp.fft.rfft(X, axis=0), n=7, axis=0), A, rtol=1e-12, atol=1e-12)
    check(xp.fft.fftn(c), np.fft.fftn(A), rtol=1e-12, atol=1e-12)
    check(xp.fft.fftshift(X), np.fft.fftshift(A))


def test_float16_and_complex32_run_the_cuda_kernels_per_chunk():
    h = np.linspace(-2, 2, 11, dtype=np.float16)
    x = ocean_ext.rechunk(xp.asarray(h, dtype=ocean_ext.float16, device=G0), 4)
    check(
        xp.astype(x * x + 1, xp.float32),
        (h * h + 1).astype(np.float32),
        rtol=1e-3,
    )
    z = xp.astype(x, ocean_ext.complex32)
    assert z.device == G0
    check(
        xp.astype(xp.exp(z * 1j), xp.complex64),
        np.exp(h.astype(np.complex64) * 1j),
        rtol=2e-3,
        atol=2e-3,
    )
    assert float(xp.sum(x)) == pytest.approx(float(h.astype(np.float64).sum()))


# --- indexing ----------------------------------------------------------------------
def test_basic_and_integer_array_indexing():
    check(X[1:-1, ::2], A[1:-1, ::2])
    check(X[2], A[2])
    check(X[None, :, 1], A[None, :, 1])
    i = xp.asarray([0, -1, 3], device=G0)
    j = xp.asarray([1, 2, 0], device=G0)
    check(X[i], A[[0, -1, 3]])
    check(X[i, j], A[[0, -1, 3], [1, 2, 0]])
    check(X[i, 1:], A[[0, -1, 3], 1:])
    check(xp.take(X, i, axis=1), np.take(A, [0, 4, 3], axis=1))
    check(xp.take_along_axis(X, xp.argsort(X, axis=1), axis=1), np.sort(A, axis=1))


def test_out_of_bounds_index_arrays_raise_when_computed(runs):
    y = X[xp.asarray([0, 7], device=G0)]
    assert runs["n"] == 0
    with pytest.raises(IndexError, match="index 7 is out of bounds"):
        y.to_device(CPU)


def test_masks_give_none_sizes_and_device_chunks(runs):
    m = X > 0
    sel = X[m]
    rows = X[X[:, 0] > 0]
    total = xp.sum(sel * 2)
    nz = xp.nonzero(X > 0.5)
    assert sel.shape == (None,)
    assert rows.shape == (None, 5)
    assert all(n.shape == (None,) for n in nz)
    assert runs["n"] == 0
    check(sel, A[A > 0])
    check(rows, A[A[:, 0] > 0])
    check(total, 2 * A[A > 0].sum(), rtol=1e-12)
    for got, want in zip(nz, np.nonzero(A > 0.5), strict=True):
        check(got, want)
    check(X[xp.asarray(True, device=G0)], A[None])


def test_setitem_keeps_device_chunks():
    y = xp.asarray(X, copy=True)
    y[1:3, 0] = 5.0
    y[y < -1] = -1.0
    y[xp.asarray([0, -1, 3], device=G0), 2] = xp.asarray([7.0, 8.0, 9.0], device=G0)
    m = y > 0.3
    y[m] = xp.sqrt(y[m])  # a value of data-dependent length
    b = A.copy()
    b[1:3, 0] = 5.0
    b[b < -1] = -1.0
    b[[0, -1, 3], 2] = [7.0, 8.0, 9.0]
    b[b > 0.3] = np.sqrt(b[b > 0.3])
    check(y, b)
    check(X, A)


# --- sorting and unique over several chunks ---------------------------------------
V = RNG.integers(0, 20, size=(3, 50)).astype(np.float64)
V[0, 3] = V[2, 40] = np.nan


def cpu_result(func, a, **kwargs):
    return np.asarray(func(xp.asarray(a, device=CPU), **kwargs))


@pytest.mark.parametrize("chunks", [(2, 7), (3, 16), (1, 50)])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort_over_chunks(chunks, descending):
    x = on(G0, V, chunks)
    for func in (xp.sort, xp.argsort):
        want = cpu_result(func, V, axis=1, descending=descending)
        check(func(x, axis=1, descending=descending), want)
    check(xp.sort(x, axis=0), np.sort(V, axis=0))


class MaxBlock(dask.callbacks.Callback):
    """The largest array any task produced (elements)."""

    def __init__(self):
        super().__init__()
        self.largest = 0

    def _posttask(self, key, result, dsk, state, worker_id):
        name = key[0] if isinstance(key, tuple) else key
        if str(name).startswith("finalize"):
            return
        parts = result if isinstance(result, tuple) else (result,)
        flat = [p for r in parts for p in (r if isinstance(r, tuple) else (r,))]
        size = max((p.size for p in flat if isinstance(p, DEVICE_ARRAY)), default=0)
        self.largest = max(self.largest, size)


def pieces(a, size):
    """1-D ``a`` on G0 in chunks of ``size``, each chunk its own piece of data
    in the graph (no task holds all of ``a``, as with data read from disk)."""
    with CUPY.cuda.Device(gpu_of(G0)):
        parts = [
            da.from_array(CUPY.asarray(a[i : i + size]), chunks=size, asarray=False)
            for i in range(0, len(a), size)
        ]
    return ocean_ext.from_dask(da.concatenate(parts))


def test_sort_never_gathers_the_chunks():
    a = RNG.permutation(600).astype(np.float64)
    x = pieces(a, 60)
    with MaxBlock() as seen:
        check(xp.sort(x), np.sort(a))
        check(xp.argsort(x, descending=True), np.argsort(-a, kind="stable"))
    assert seen.largest <= 120  # two chunks at most, never all ten
    assert ocean_ext.to_dask(xp.sort(x)).numblocks == (10,)


def test_sort_is_stable_with_ties_and_nans():
    a = np.array([3, np.nan, 1, 3, -0.0, 0.0, np.nan, 1, 3] * 7)
    x = on(G0, a, 10)
    want = np.argsort(a, kind="stable")
    check(xp.argsort(x), want)
    got = xp.sort(x).to_device(CPU)
    np.testing.assert_array_equal(np.asarray(got), a[want])
    check(xp.argsort(x, descending=True), cpu_result(xp.argsort, a, descending=True))


@pytest.mark.parametrize("chunks", [(2, 7), (3, 50), (1, 13)])
def test_unique_functions_over_chunks(chunks):
    x = on(G0, V, chunks)
    uv, ui, uinv, uc = np.unique(
        V.reshape(-1),
        return_index=True,
        return_inverse=True,
        return_counts=True,
        equal_nan=False,
    )
    res = xp.unique_all(x)
    for got, want in zip(res, (uv, ui, uinv.reshape(V.shape), uc), strict=True):
        check(got, want)
    assert res.values.shape == (None,)
    check(xp.unique_values(x), uv)
    values, counts = xp.unique_counts(x)
    check(values, uv)
    check(counts, uc)
    values, inverse = xp.unique_inverse(x)
    check(inverse, uinv.reshape(V.shape))


def test_unique_and_sort_of_a_masked_array():
    flat = V.reshape(-1)
    one = on(G0, flat, 150)
    check(xp.unique_values(one[one > 5]), np.unique(flat[flat > 5]))
    check(xp.sort(one[one > 5]), np.sort(flat[flat > 5]))
    many = on(G0, flat, 40)  # the axis of data-dependent length in one chunk
    check(xp.unique_values(many[many > 5]), np.unique(flat[flat > 5]))
    check(xp.sort(many[many > 5]), np.sort(flat[flat > 5]))


def test_isin_searchsorted_repeat():
    s = np.sort(A[:, 0])
    check(xp.isin(X, X[0]), np.isin(A, A[0]))
    ints = on(G0, np.arange(12, dtype=np.int16), 5)
    check(
        xp.isin(ints, xp.asarray([3, 300, 11], device=G0)),
        np.isin(np.arange(12), [3, 11]),
    )
    check(xp.searchsorted(on(G0, s, 3), X[:, 1]), np.searchsorted(s, A[:, 1]))
    check(xp.repeat(X, 2, axis=0), np.repeat(A, 2, axis=0))
    counts = [1, 0, 2, 1, 3, 0, 1]
    check(xp.repeat(X[:, 0], xp.asarray(counts, device=G0)), np.repeat(A[:, 0], counts))


def test_manipulation():
    check(xp.tile(X, (2, 1)), np.tile(A, (2, 1)))
    check(xp.concat([X, X], axis=1), np.concatenate([A, A], 1))
    check(xp.stack([X, X]), np.stack([A, A]))
    check(xp.flip(X), np.flip(A))
    check(xp.roll(X, 2, axis=0), np.roll(A, 2, axis=0))
    check(xp.permute_dims(X, (1, 0)), A.T)
    check(xp.reshape(X, (-1,)), A.reshape(-1))
    for got, want in zip(xp.meshgrid(X[0], X[1]), np.meshgrid(A[0], A[1]), strict=True):
        check(got, want)
    check(xp.broadcast_to(X[0], (3, 5)), np.broadcast_to(A[0], (3, 5)))
    check(xp.squeeze(xp.expand_dims(X, axis=0), axis=0), A)
    check(xp.astype(X, xp.float32), A.astype(np.float32))


# --- moving data ----------------------------------------------------------------------
def test_to_device_cpu_gives_numpy():
    y = (X * 2).to_device(CPU)
    assert y.device == CPU
    assert type(y._data) is np.ndarray
    np.testing.assert_array_equal(np.asarray(y), A * 2)


@pytest.mark.parametrize("target", range(len(GPUS)))
def test_to_device_cuda_stays_on_the_gpus(monkeypatch, target):
    cuda_dev = Device("cuda", target)
    y = X * 2

    def no_host(*args, **kwargs):
        raise AssertionError("went through host memory")

    monkeypatch.setattr(CUDA, "from_host", no_host)
    monkeypatch.setattr(CUDA, "to_host", no_host)
    z = y.to_device(cuda_dev)
    monkeypatch.undo()
    assert z.device == cuda_dev
    assert type(z._data) is DEVICE_ARRAY
    assert z._data.device.id == target
    assert_matches(z, A * 2)
    # and back, from the CUDA device to CuPy chunks
    monkeypatch.setattr(CUDA, "from_host", no_host)
    monkeypatch.setattr(CUDA, "to_host", no_host)
    back = z.to_device(G0)
    monkeypatch.undo()
    check(back, A * 2)
    z[0, 0] = 100.0  # the dask array holds a copy
    check(back, A * 2)


def test_to_device_between_dask_devices(runs):
    # NumPy chunks go to a GPU lazily, chunk by chunk
    dev = GPUS[-1]
    moved = xp.ones((4, 4), device=DASK).to_device(dev) * 3
    assert runs["n"] == 0
    check(moved, np.full((4, 4), 3.0), device=dev)
    runs["n"] = 0
    # CuPy chunks leave their GPU by running their graph there, once
    host_chunks = (X + 1).to_device(DASK)
    assert runs["n"] == 1
    assert host_chunks._data.gpu is None
    assert_matches(host_chunks, A + 1, device=DASK)
    arr = ocean_ext.to_dask(host_chunks)
    assert type(arr.compute(scheduler="sync")) is np.ndarray
    assert arr.chunks == ((3, 3, 1), (2, 2, 1))  # the chunks are kept
    runs["n"] = 0
    other = (X - 1).to_device(dev)
    assert runs["n"] == (1 if dev is not G0 else 0)
    check(other, A - 1, device=dev)


def test_a_graph_of_numpy_and_cupy_chunks_of_equal_names():
    # dask names created chunks by their parameters only: the NumPy arange
    # moved to the GPU and the GPU's own arange must stay apart
    moved = xp.arange(10, device=DASK).to_device(G0)
    own = xp.arange(10, device=G0)
    check(moved + own, 2 * np.arange(10))
    check(xp.zeros(4, device=DASK).to_device(G0) - xp.zeros(4, device=G0), np.zeros(4))


def test_dlpack_both_ways():
    y = xp.sin(X)
    assert y.__dlpack_device__() == (2, gpu_of(G0))
    d = CUPY.from_dlpack(y)
    assert type(d) is DEVICE_ARRAY
    np.testing.assert_allclose(CUPY.asnumpy(d), np.sin(A))
    src = CUPY.asarray(A)
    z = xp.from_dlpack(src, device=G0)
    check(z, A)
    w = xp.from_dlpack(xp.sin(z))  # our own array: stays where it is
    check(w, np.sin(A))
    check(xp.asarray(src, device=G0), A)


def test_from_dask_and_to_dask_share_the_cupy_graph(runs):
    for dev in GPUS:
        with CUPY.cuda.Device(gpu_of(dev)):
            d = da.from_array(CUPY.asarray(A), chunks=(2, 3), asarray=False)
        x = ocean_ext.from_dask(d)
        assert x.device == dev
        assert ocean_ext.to_dask(x) is d
        r = ocean_ext.rechunk(x * 1.5, (7, -1))
        assert r.device == dev
        assert ocean_ext.to_dask(r).chunks == ((7,), (5,))
        assert isinstance(ocean_ext.to_dask(r)._meta, DEVICE_ARRAY)
        assert runs["n"] == 0
        check(r, A * 1.5, device=dev)
        runs["n"] = 0


def test_from_dask_refuses_other_chunk_types():
    sparse = pytest.importorskip("scipy.sparse", reason="needs SciPy for sparse chunks")
    d = da.from_array(sparse.csr_matrix(np.eye(4)), chunks=2, asarray=False)
    with pytest.raises(NotImplementedError, match="csr_matrix objects"):
        ocean_ext.from_dask(d)
    # NumPy subclasses stay NumPy chunks, as before CuPy chunks came in
    masked = da.from_array(np.ma.masked_array(np.ones(4)), chunks=2, asarray=False)
    assert ocean_ext.from_dask(masked).device == DASK


# --- laziness and scheduling ----------------------------------------------------------
def test_operations_build_graphs_without_running_them(runs):
    with G0:
        x = xp.asarray(A)
        y = xp.sin(x) * 2 + xp.ones((7, 5))
        s = xp.sum(y, axis=0)
        srt = xp.sort(ocean_ext.rechunk(y, (2, 2)), axis=1)
        u = xp.unique_counts(xp.round(y))
        inv = xp.linalg.inv(xp.eye(3) * 2.0)
        f = xp.fft.fft(xp.astype(x, xp.complex128), axis=1)
        z = x @ x.mT
        x[0, :] = 7.0
        x += 1.0
    assert runs["n"] == 0
    for arr in (y, s, srt, *u, inv, f, z, x):
        assert arr.device == G0
    assert float(xp.sum(s)) == pytest.approx(np.sum(np.sin(A) * 2 + 1))
    assert runs["n"] == 1
    a, b, c = ocean_ext.compute(srt, z, x)
    assert runs["n"] == 2
    for r in (a, b, c):
        assert r.device == G0
        assert chunk_types(r) == {DEVICE_ARRAY}
    assert runs["n"] == 2  # chunk_types runs outside ocean's compute
    np.testing.assert_allclose(np.asarray(b.to_device(CPU)), A @ A.T)


def test_compute_of_several_gpus_and_numpy_chunks(runs):
    arrays = [xp.arange(5, device=dev) * (k + 1) for k, dev in enumerate(GPUS)]
    arrays.append(xp.arange(5, device=DASK))
    out = ocean_ext.compute(*arrays)
    assert runs["n"] == len(GPUS) + 1  # one run per chunk kind
    for k, (r, dev) in enumerate(zip(out, GPUS, strict=False)):
        check(r, np.arange(5) * (k + 1), device=dev)
    assert out[-1].device == DASK
    np.testing.assert_array_equal(np.asarray(out[-1]), np.arange(5))


@pytest.mark.parametrize("device", GPUS, ids=str)
def test_threaded_scheduler_runs_with_the_gpu_current(device):
    # dask's default scheduler (threads): each thread must have the chunks'
    # GPU current, or device operations fail on the other GPUs
    a = RNG.standard_normal((40, 30))
    x = on(device, a, (7, 6))
    y = xp.sort(xp.sum(x * x, axis=1)) + xp.mean(x)
    np.testing.assert_allclose(
        np.asarray(y.to_device(CPU)), np.sort((a * a).sum(1)) + a.mean()
    )


def test_scalar_conversions_run_the_graph_once_each(runs):
    x = xp.arange(5, device=G0)
    assert bool(x[1] > 0) is True
    assert int(x[2]) == 2
    assert float(x[3]) == 3.0
    assert [0, 1, 2][x[1]] == 1
    assert runs["n"] == 4


# --- what CuPy chunks cannot run ---------------------------------------------------------
def test_a_kernel_the_cuda_backend_lacks_names_function_and_device(monkeypatch):
    from ocean_dask import backend

    def missing(*args, **kwargs):
        raise AssertionError("not to be called")

    missing._ocean_missing = True
    monkeypatch.setitem(CUDA.ops, "linalg.eigvals", missing)
    monkeypatch.setattr(backend, "_gpu_real", None)  # rebuilt with it missing
    x = xp.eye(3, device=G0)
    with pytest.raises(
        NotImplementedError,
        match=r"linalg.eigvals\(\): not available on the device "
        r"dask:cuda:0 \(CuPy chunks\)",
    ):
        xp.linalg.eigvals(x)
    monkeypatch.undo()
    backend._gpu_real = None


# --- the merge network -------------------------------------------------------------------
@pytest.mark.parametrize("p", range(1, 11))
def test_network_sorts_every_zero_one_input(p):
    # the 0-1 principle: a comparator network that sorts every 0/1 input
    # sorts every input
    from ocean_dask._cusort import network

    comparators = network(p)
    assert all(0 <= i < j < p for i, j in comparators)
    for bits in range(2**p):
        a = [(bits >> k) & 1 for k in range(p)]
        for i, j in comparators:
            if a[i] > a[j]:
                a[i], a[j] = a[j], a[i]
        assert a == sorted(a)


# --- properties against NumPy -------------------------------------------------------------
@st.composite
def chunked(draw, dtype=np.float64, max_side=12):
    a = draw(
        hnp.arrays(
            dtype,
            hnp.array_shapes(min_dims=1, max_dims=2, max_side=max_side),
            elements=st.floats(-100, 100, allow_nan=False, width=64)
            if np.dtype(dtype).kind == "f"
            else st.integers(-100, 100),
        )
    )
    # at most four chunks along an axis (the sort network's cost grows with
    # their number, and the simulation's with the number of kernel calls)
    chunks = tuple(draw(st.integers(max(1, -(-s // 4)), max(s, 1))) for s in a.shape)
    return a, chunks


@given(chunked(), st.sampled_from(["add", "multiply", "maximum", "atan2", "hypot"]))
def test_binary_functions_match_numpy(case, name):
    a, chunks = case
    x = on(G0, a, chunks)
    y = xp.flip(x)
    got = getattr(xp, name)(x, y)
    np_name = {"atan2": "arctan2"}.get(name, name)
    check(got, getattr(np, np_name)(a, np.flip(a)), rtol=1e-12)


@given(chunked(dtype=np.int64, max_side=20), st.booleans())
def test_sort_and_unique_match_numpy(case, descending):
    a, chunks = case
    x = on(G0, a, chunks)
    axis = a.ndim - 1
    check(
        xp.argsort(x, axis=axis, descending=descending),
        cpu_result(xp.argsort, a, axis=axis, descending=descending),
    )
    values, counts = xp.unique_counts(x)
    uv, uc = np.unique(a, return_counts=True)
    check(values, uv)
    check(counts, uc)


def test_graph_functions_pickle_by_name_not_by_value():
    """dask tokenizes a graph's functions by pickling them and loading the
    pickle back.  CuPy's kernels pickle by value, and a loaded copy unloads
    the original's CUDA module when it is freed: every later launch failed
    with CUDA_ERROR_INVALID_HANDLE, or crashed, on a GPU (the simulated CuPy
    does the same).  The per-chunk kernels of the CuPy-chunk devices pickle
    by name, and so do the GPU chunk kind and the CUDA backend."""
    import pickle

    from ocean_dask import _chunks

    g = _chunks.gpu(gpu_of(G0))
    k = g.kernel("add")
    assert pickle.loads(pickle.dumps(k)).name == "add"
    assert pickle.loads(pickle.dumps(g)) is g
    assert pickle.loads(pickle.dumps(CUDA)) is CUDA
    assert dask.base.tokenize(k) == dask.base.tokenize(g.kernel("add"))
    x = on(G0, A, (3, 2))
    for _ in range(3):  # each builds (and tokenizes) a graph of CUDA kernels
        y = xp.sin(x) * x + 1.0
    check(y, np.sin(A) * A + 1.0, rtol=1e-12)
    check(xp.exp(x), np.exp(A), rtol=1e-12)


def test_data_dependent_sizes_keep_cupy_chunks():
    # the functions that compute sizes in the graph run on CuPy chunks too
    # (the simulated CuPy refuses NumPy arrays in its operations)
    flat = V.reshape(-1)
    x = on(G0, flat, 40)
    m = x[x > 5]
    want = flat[flat > 5]
    check(xp.var(m), np.var(want))
    check(xp.max(m), np.max(want))
    check(xp.argmax(m), np.argmax(want))
    check(xp.cumulative_sum(m), np.cumsum(want))
    check(m[3:-2:2], want[3:-2:2])
    check(xp.nonzero(m > 7)[0], np.nonzero(want > 7)[0])
    check(xp.searchsorted(xp.sort(m), m[:4]), np.searchsorted(np.sort(want), want[:4]))
    check(xp.linalg.vector_norm(m, ord=xp.inf), np.max(np.abs(want)))
