"""The dask backend (``backends/ocean_dask``): laziness, None sizes, sorting
over many chunks, the ``ocean_ext`` bridge, and a distributed run.

Every test compares with NumPy (or the CPU device), and the laziness tests
count scheduler runs: the ``runs`` fixture installs a scheduler that counts
each graph it is given, then runs it synchronously.

The whole suite runs with the dask device as the default too (a separate,
slower command; see docs/dev/testing.md):
``OCEAN_ARRAY_API_DEFAULT_DEVICE=dask python -m pytest tests``.
"""

from __future__ import annotations

import contextlib
import math
import pickle
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# The dask device exists only with dask installed (the extra `.[dask]`); the
# default CI install has it through the `test` extra, minimal installs skip.
da = pytest.importorskip("dask.array", reason="dask is not installed (.[dask])")
dask = pytest.importorskip("dask")

from ocean_dask import _sort as dask_sort  # noqa: E402

import ocean_array_api as xp  # noqa: E402
import ocean_ext  # noqa: E402

# explicit devices: the module also runs with the dask device as the default
DASK = next(d for d in xp.__array_namespace_info__().devices() if d.kind == "dask")
CPU = xp.__array_namespace_info__().devices()[0]


def on_dask(a, chunks="auto"):
    """An array on the dask device with the given chunks (NumPy data)."""
    return ocean_ext.from_dask(da.from_array(np.asarray(a), chunks=chunks))


def chunked(a, chunks):
    """Like on_dask, but each chunk is its own piece of data in the graph (no
    task holds all of ``a``, as with data read chunk by chunk from disk)."""
    d = da.from_array(np.asarray(a), chunks=chunks)
    edges = [np.cumsum((0, *c)) for c in d.chunks]
    blocks = np.empty(d.numblocks, dtype=object)
    for idx in np.ndindex(*d.numblocks):
        key = tuple(slice(e[i], e[i + 1]) for e, i in zip(edges, idx, strict=True))
        piece = np.array(a[key])
        blocks[idx] = da.from_array(piece, chunks=piece.shape)
    return ocean_ext.from_dask(da.block(blocks.tolist()))


def values(x):
    """x's values as NumPy (computes)."""
    return np.asarray(x.to_device(CPU))


def _np_unique_all(flat):
    """NumPy's unique_all of a flat array (NaNs distinct): the oracle."""
    return np.unique(
        flat, return_index=True, return_inverse=True, return_counts=True,
        equal_nan=False,
    )  # fmt: skip


# --- the device -----------------------------------------------------------------
def test_device_is_listed_and_named_dask():
    assert DASK.kind == "dask"
    assert str(DASK) == "dask"
    assert xp.zeros(2, device="dask").device == DASK
    assert DASK in xp.__array_namespace_info__().devices()


def test_capabilities_come_from_the_backend():
    with DASK:
        caps = xp.__array_namespace_info__().capabilities()
    assert caps["data-dependent shapes"] is True
    assert caps["boolean indexing"] is True
    assert caps["max dimensions"] == 64


def test_mixing_with_cpu_is_a_device_error():
    with pytest.raises(ValueError, match="to_device"):
        xp.ones(3, device="dask") + xp.ones(3, device=CPU)


def test_the_table_covers_the_cpu_table_but_the_flat_gathers():
    from ocean_cpu import backend as cpu
    from ocean_dask._backend import ABSENT, EXTRA
    from ocean_dask._ops import build_ops

    real = build_ops()
    assert set(cpu.ops) - set(real) == ABSENT
    # and the optional entries of lazy tables (``raise_if``)
    assert set(real) - set(cpu.ops) == set(EXTRA)
    assert set(DASK._ops) == set(cpu.ops) | set(EXTRA)


def test_listing_devices_imports_no_dask():
    from ..helpers import run_python

    code = (
        "import sys\n"
        "import ocean_array_api as xp\n"
        "devs = xp.__array_namespace_info__().devices()\n"
        "assert 'dask' in [str(d) for d in devs]\n"
        "xp.sum(xp.ones(3))\n"
        "print('loaded:' + ','.join(m for m in sys.modules if m.split('.')[0] == 'dask'))\n"
        "xp.ones(3, device='dask') + 1\n"
        "print('after:' + str('dask.array' in sys.modules))\n"
    )
    out = run_python(code).stdout
    assert "loaded:\n" in out
    assert "after:True" in out


# --- laziness ---------------------------------------------------------------------
def test_standard_code_builds_graphs_without_running_them(runs):
    a = np.arange(24.0).reshape(4, 6)
    with DASK:
        x = xp.asarray(a)
        y = xp.sin(x) * 2 + xp.ones((4, 6))
        s = xp.sum(y, axis=0)
        m = xp.mean(y)
        srt = xp.sort(y, axis=1, descending=True)
        idx = xp.argsort(y[:, 0])
        u = xp.unique_values(xp.round(y))
        sel = y[y > 3]
        nz = xp.nonzero(y > 3)
        inv = xp.linalg.inv(xp.eye(3) * 2.0)
        f = xp.fft.fft(xp.astype(x, xp.complex128), axis=1)
        z = xp.matmul(x, x.mT)
        w = xp.where(x > 2, x, 0.0)
        c = xp.concat([x, x], axis=0)
        x[0, :] = 7.0  # setitem: a new graph
        x += 1.0  # in-place operator: a new graph
        text = repr(sel) + str(s)
    assert runs["n"] == 0
    assert "lazy" in text
    assert sel.shape == (None,)
    assert all(n.shape == (None,) for n in nz)
    assert u.shape == (None,)
    for arr in (s, m, srt, idx, inv, f, z, w, c):
        assert arr.device == DASK
    # each conversion runs the graph once
    assert float(m) == pytest.approx(np.mean(np.sin(a) * 2 + 1))
    assert runs["n"] == 1
    assert int(idx[0]) in range(4)
    assert runs["n"] == 2
    np.testing.assert_allclose(np.asarray(x)[0], 8.0)  # NumPy export
    assert runs["n"] == 3


def test_scalar_conversions_each_run_the_graph_once(runs):
    x = xp.arange(5, device="dask")
    assert bool(x[1] > 0) is True
    assert int(x[2]) == 2
    assert float(x[3]) == 3.0
    assert complex(xp.astype(x[4], xp.complex128)) == 4 + 0j
    assert [0, 1, 2][x[1]] == 1  # __index__
    assert runs["n"] == 5


def test_compute_runs_several_arrays_in_one_run(runs):
    x = xp.arange(10, device="dask")
    a, b, c = ocean_ext.compute(x[x % 3 == 0], xp.sum(x), xp.ones(2, device=CPU))
    assert runs["n"] == 1
    assert a.shape == (4,)  # now known
    assert a.device == DASK
    np.testing.assert_array_equal(values(a), [0, 3, 6, 9])
    assert int(b) == 45
    assert c.device == CPU  # eager arrays come back as they are


def test_pickling_keeps_the_graph_not_the_values(runs):
    x = xp.arange(4, device="dask") * 3
    y = pickle.loads(pickle.dumps(x))
    assert runs["n"] == 0
    assert y.device == DASK
    np.testing.assert_array_equal(values(y), [0, 3, 6, 9])


# --- data-dependent sizes -------------------------------------------------------
def test_data_dependent_sizes_are_none_never_nan():
    x = on_dask(np.arange(10.0), chunks=3)
    for res in (
        x[x > 4],
        xp.unique_values(x),
        xp.nonzero(x > 4)[0],
        xp.repeat(x, xp.asarray(np.arange(10), device="dask")),
    ):
        assert res.shape == (None,)
        assert res.size is None
        assert not any(isinstance(s, float) and math.isnan(s) for s in res.shape)
    assert xp.unique_inverse(x).inverse_indices.shape == (10,)
    masked = xp.reshape(x, (2, 5))[xp.reshape(x, (2, 5))[:, 0] > 1]
    assert masked.shape == (None, 5)
    assert values(masked).shape == (1, 5)


def test_indexing_an_unknown_length_computes_offsets_in_the_graph(runs):
    a = np.arange(20)
    x = on_dask(a, chunks=3)
    y = x[x % 3 != 1]  # chunks of data-dependent length, some short
    want = a[a % 3 != 1]
    keys = [0, -1, 5, slice(1, 3), slice(None, None, -2), slice(-4, None)]
    keys += [slice(-100, 100, 3), slice(8, 2, -1), slice(0, 0)]
    got = [y[k] for k in keys]
    assert runs["n"] == 0  # nothing computed to index
    for k, r in zip(keys, got, strict=True):
        np.testing.assert_array_equal(values(r), want[k])
    np.testing.assert_array_equal(values(y[None, ...][:, :]), [want])
    with pytest.raises(IndexError, match="out of bounds"):
        values(y[100])
    # assignments through a selection mask computed in the graph
    z = y * 1
    z[0] = 100
    z[-3::-2] = -1
    z[xp.asarray([1, -1], device=DASK)] = 7
    w = want.copy()
    w[0] = 100
    w[-3::-2] = -1
    w[[1, -1]] = 7
    np.testing.assert_array_equal(values(z), w)
    with pytest.raises(NotImplementedError, match=r"__setitem__\(\): .*whole axes"):
        z[1:3] = xp.asarray([1, 2], device=DASK)
    with pytest.raises(TypeError, match=r"__iter__\(\)"):
        list(y)


def test_operations_after_a_mask_stay_lazy_and_correct(runs):
    a = np.arange(20.0)
    x = on_dask(a, chunks=6)
    y = x[x % 2 == 0]
    z = xp.sum(y * y) + xp.max(y)
    assert runs["n"] == 0
    assert float(z) == np.sum(a[a % 2 == 0] ** 2) + 18.0


# --- sorting and unique over many chunks --------------------------------------
def _size(obj):
    """Elements in the NumPy arrays of a task's result (tuples, lists, nested)."""
    if isinstance(obj, np.ndarray):
        return obj.size
    if isinstance(obj, (tuple, list)):
        return sum(_size(o) for o in obj)
    return 0


class MaxBlock(dask.callbacks.Callback):
    """The largest NumPy data any task produced, and the largest it was given
    (its dependencies' results together), in elements."""

    def __init__(self):
        super().__init__()
        self.largest = 0
        self.largest_input = 0

    def _pretask(self, key, dsk, state):
        name = key[0] if isinstance(key, tuple) else key
        if str(name).startswith("finalize"):
            return  # compute()'s own last task, which assembles the result
        deps = state["dependencies"].get(key, ())
        held = sum(_size(state["cache"].get(d)) for d in deps)
        self.largest_input = max(self.largest_input, held)

    def _posttask(self, key, result, dsk, state, worker_id):
        name = key[0] if isinstance(key, tuple) else key
        if str(name).startswith("finalize"):
            return
        self.largest = max(self.largest, _size(result))


def test_sort_of_many_chunks_never_gathers_them():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 50, size=10000).astype(np.float64)
    a[[3, 500]] = np.nan
    x = chunked(a, 1000)
    with MaxBlock() as seen:
        res = values(xp.sort(x))
    np.testing.assert_array_equal(res, np.sort(a))
    # a task makes or is given one chunk and some bookkeeping (samples, the
    # values near the cuts: about P sqrt(2 n) = 1414 in all), never all ten
    # chunks
    assert seen.largest <= 2000
    assert seen.largest_input <= 2000
    assert ocean_ext.to_dask(xp.sort(x)).numblocks == (10,)
    assert ocean_ext.to_dask(xp.sort(x)).chunks == ((1000,) * 10,)


def test_sort_of_many_chunks_builds_the_graph_without_running_it(runs):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((6, 300))
    x = on_dask(a, chunks=(4, 40))
    s = xp.sort(x, axis=1)
    i = xp.argsort(x, axis=0, descending=True)
    u = xp.unique_all(x)
    assert runs["n"] == 0
    assert s.shape == a.shape
    assert i.shape == a.shape
    out = ocean_ext.compute(s, i, *u)
    assert runs["n"] == 1
    np.testing.assert_array_equal(values(out[0]), np.sort(a, axis=1))
    np.testing.assert_array_equal(values(out[1]), _stable_sort(a, 0, True)[1])
    np.testing.assert_array_equal(values(out[2]), np.unique(a))


def _stable_sort(a, axis, descending):
    """NumPy's stable sort and argsort, descending as the standard says
    (equal elements keep their order): the reversed input sorted, reversed."""
    n = a.shape[axis]
    src = np.flip(a, axis) if descending else a
    order = np.argsort(src, axis=axis, kind="stable")
    srt = np.take_along_axis(src, order, axis=axis)
    if descending:
        return np.flip(srt, axis), np.flip(n - 1 - order, axis)
    return srt, order


def _bits(a):
    """The bits of each element (floats compared bit for bit)."""
    return a.view(f"u{a.dtype.itemsize}") if a.dtype.kind == "f" else a


# bit patterns of float64 that sort equal but differ: signed zeros, NaNs with
# payloads and signs; and a few others
_SPECIAL_BITS = [
    0,
    1 << 63,
    0x3FF0000000000000,  # 1.0
    0xBFF0000000000000,  # -1.0
    0x7FF0000000000000,  # inf
    0xFFF0000000000000,  # -inf
    0x7FF8000000000000,
    0x7FF8000000000001,
    0x7FF0000000000003,  # a signalling NaN
    0xFFF8000000000002,
]


@st.composite
def _sort_inputs(draw):
    """A NumPy array with many ties (or none), an axis and chunks along each
    axis: many small chunks, sizes of one, uneven sizes."""
    dtype = draw(st.sampled_from(["float64", "float32", "int8", "int64", "uint16"]))
    ndim = draw(st.integers(1, 2))
    n = draw(st.integers(0, 400) if ndim == 1 else st.integers(0, 120))
    shape = (n,) if ndim == 1 else (draw(st.integers(0, 4)), n)
    if ndim == 2 and draw(st.booleans()):
        shape = shape[::-1]
    size = math.prod(shape)
    kind = draw(st.sampled_from(["few", "special", "any"]))
    if kind == "few":
        a = np.asarray(draw(st.lists(st.integers(0, 3), min_size=size, max_size=size)))
        a = a.astype(dtype).reshape(shape)
    elif kind == "special" and dtype == "float64":
        bits = draw(
            st.lists(st.sampled_from(_SPECIAL_BITS), min_size=size, max_size=size)
        )
        a = np.asarray(bits, dtype=np.uint64).view(np.float64).reshape(shape)
    else:
        a = draw(hnp.arrays(np.dtype(dtype), shape))
    order = draw(st.sampled_from(["as drawn", "sorted", "reversed"]))
    if order != "as drawn" and a.ndim == 1:
        a = np.sort(a, kind="stable")
        if order == "reversed":
            a = a[::-1].copy()
    axis = draw(st.integers(0, a.ndim - 1))
    chunks = tuple(draw(_chunk_sizes(s)) for s in a.shape)
    return a, axis, chunks


@st.composite
def _chunk_sizes(draw, n):
    if n == 0:
        return (0,)
    if draw(st.booleans()):  # regular chunks, up to 30
        size = draw(st.integers(max(1, -(-n // 30)), max(1, n // 2)))
        return tuple(min(size, n - s) for s in range(0, n, size))
    cuts = draw(st.sets(st.integers(1, n - 1), max_size=30)) if n > 1 else set()
    edges = [0, *sorted(cuts), n]
    return tuple(np.diff(edges).tolist())


def _groups_of(every_chunk):
    """Chunks along the sorted axis are grouped up to a least size (so that
    there are not too many tiny ones); ``every_chunk``: none are, so that small
    arrays take the sample sort's many-chunk path too."""
    if not every_chunk:
        return contextlib.nullcontext()
    return mock.patch.object(dask_sort, "_least_group", return_value=1)


@given(inputs=_sort_inputs(), descending=st.booleans(), every_chunk=st.booleans())
def test_sort_and_argsort_over_chunks_match_numpys_stable_sort(
    inputs, descending, every_chunk
):
    a, axis, chunks = inputs
    x = on_dask(a, chunks=chunks)
    want, want_idx = _stable_sort(a, axis, descending)
    with _groups_of(every_chunk):
        s = xp.sort(x, axis=axis, descending=descending)
        i = xp.argsort(x, axis=axis, descending=descending)
    assert s.shape == a.shape
    assert i.shape == a.shape
    assert ocean_ext.to_dask(s).chunks == ocean_ext.to_dask(x).chunks
    got, got_idx = ocean_ext.compute(s, i)
    got = values(got)
    assert got.dtype == a.dtype
    np.testing.assert_array_equal(_bits(got), _bits(want))
    np.testing.assert_array_equal(values(got_idx), want_idx)


@given(inputs=_sort_inputs(), every_chunk=st.booleans())
def test_unique_over_chunks_match_numpy(inputs, every_chunk):
    a, _, chunks = inputs
    x = on_dask(a, chunks=chunks)
    flat = a.reshape(-1)
    with _groups_of(every_chunk):
        u = xp.unique_all(x)
    vals, idx, inv, counts = (values(v) for v in ocean_ext.compute(*u))
    want_vals, want_idx, want_inv, want_counts = _np_unique_all(flat)
    np.testing.assert_array_equal(vals, want_vals)
    np.testing.assert_array_equal(idx, want_idx)
    np.testing.assert_array_equal(counts, want_counts)
    np.testing.assert_array_equal(inv, want_inv.reshape(a.shape))
    # each unique value is the first of its group, bit for bit
    np.testing.assert_array_equal(_bits(vals), _bits(flat[idx]))


def _skewed(kind, n):
    rng = np.random.default_rng(n)
    if kind == "all equal":
        return np.full(n, 7.0)
    if kind == "sorted":
        return np.arange(n, dtype=np.float64)
    if kind == "reversed":
        return np.arange(n, 0, -1).astype(np.float64)
    if kind == "mostly NaN":
        a = rng.standard_normal(n)
        a[rng.random(n) < 0.9] = np.nan
        return a
    if kind == "two values":
        return rng.integers(0, 2, n).astype(np.float64)
    if kind == "signed zeros":
        return np.where(rng.random(n) < 0.5, -0.0, 0.0)
    return rng.standard_normal(n)  # "random"


@pytest.mark.parametrize(
    "kind",
    [
        "all equal",
        "sorted",
        "reversed",
        "mostly NaN",
        "two values",
        "signed zeros",
        "random",
    ],
)
@pytest.mark.parametrize(
    "chunks",
    [
        (1000,) * 20,  # regular, sampled every few elements
        (7, 9000, 3, 10990),  # uneven
        (5000, 15000),  # two
        (20000,),  # one chunk
    ],
)
def test_sort_of_skewed_data_is_stable_and_balanced(kind, chunks):
    a = _skewed(kind, 20000)
    x = chunked(a, (chunks,))
    with MaxBlock() as seen:
        got, got_idx = ocean_ext.compute(xp.sort(x), xp.argsort(x, descending=True))
    want, _ = _stable_sort(a, 0, False)
    _, want_idx = _stable_sort(a, 0, True)
    np.testing.assert_array_equal(_bits(values(got)), _bits(want))
    np.testing.assert_array_equal(values(got_idx), want_idx)
    # whatever the data, no task is given more than the largest chunk's values
    # and positions, or the bookkeeping (samples, values near the cuts), which
    # is bounded by 2 P sqrt(2 n) whatever the data
    p = len(chunks)
    if p > 1:
        assert seen.largest_input <= 2 * max(chunks) + 2 * p * math.isqrt(2 * a.size)
    assert ocean_ext.to_dask(xp.sort(x)).chunks == ocean_ext.to_dask(x).chunks


def test_sort_of_many_chunks_of_one_element_and_of_empty_rows():
    a = np.array([3.0, -0.0, np.nan, 0.0, 1.0, 3.0, -np.inf])
    x = on_dask(a, chunks=1)
    np.testing.assert_array_equal(
        _bits(values(xp.sort(x))), _bits(_stable_sort(a, 0, False)[0])
    )
    np.testing.assert_array_equal(values(xp.argsort(x)), _stable_sort(a, 0, False)[1])
    b = np.array([2.0, np.nan, -1.0, 0.0, -0.0, 2.0, 5.0, 1.0, np.nan, -0.0, 2.0, 1.0])
    y = on_dask(b, chunks=((3, 0, 4, 0, 5),))  # empty chunks among others ...
    assert ocean_ext.to_dask(y).chunks == ((3, 4, 5),)  # ... are dropped
    got, got_idx = ocean_ext.compute(xp.sort(y), xp.argsort(y))
    np.testing.assert_array_equal(
        _bits(values(got)), _bits(_stable_sort(b, 0, False)[0])
    )
    np.testing.assert_array_equal(values(got_idx), _stable_sort(b, 0, False)[1])
    assert ocean_ext.to_dask(got).chunks == ((3, 4, 5),)
    empty = on_dask(np.zeros((0, 12)), chunks=(1, 3))
    assert values(xp.sort(empty, axis=1)).shape == (0, 12)
    assert values(xp.argsort(empty, axis=1)).shape == (0, 12)


@pytest.mark.parametrize("chunks", [5, 64, 333])
@pytest.mark.parametrize("descending", [False, True])
def test_argsort_is_stable_over_chunks(chunks, descending):
    rng = np.random.default_rng(chunks)
    a = rng.integers(0, 5, size=(3, 333))
    x = on_dask(a, chunks=(2, chunks))
    got = values(xp.argsort(x, axis=1, descending=descending))
    want = np.asarray(
        xp.argsort(xp.asarray(a, device=CPU), axis=1, descending=descending)
    )
    np.testing.assert_array_equal(got, want)
    got_sorted = values(xp.sort(x, axis=1, descending=descending))
    np.testing.assert_array_equal(got_sorted, np.take_along_axis(a, want, axis=1))


@pytest.mark.parametrize("chunks", [(3, 400), (2, 64), (3, 150)])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_keeps_floats_ties_to_the_bit(chunks, descending):
    # Signed zeros and NaNs with payloads and signs, each in input order (the
    # stable order), in one chunk along the axis (the CPU table's fast sort
    # with its fix-up) and over many (the sample sort); as on the CPU.
    rng = np.random.default_rng(chunks[1])
    bits = np.array(
        [0, 1 << 63, 0x3FF0000000000000, 0xBFF0000000000000]
        + [0x7FF8000000000000 | k for k in range(4)]
        + [0xFFF8000000000000 | k for k in range(2)],
        dtype=np.uint64,
    )
    a = rng.choice(bits, size=(3, 400)).view(np.float64)
    x = on_dask(a, chunks=chunks)
    got = values(xp.sort(x, axis=1, descending=descending))
    want = np.asarray(xp.sort(xp.asarray(a, device=CPU), axis=1, descending=descending))
    stable, _ = _stable_sort(a, 1, descending)
    np.testing.assert_array_equal(want.view(np.uint64), stable.view(np.uint64))
    np.testing.assert_array_equal(got.view(np.uint64), stable.view(np.uint64))


def test_sort_along_the_first_axis_of_a_chunked_matrix():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((50, 4))
    x = on_dask(a, chunks=(9, 3))
    np.testing.assert_array_equal(values(xp.sort(x, axis=0)), np.sort(a, axis=0))


def test_unique_functions_over_many_chunks():
    rng = np.random.default_rng(2)
    a = rng.integers(0, 20, size=(60, 40)).astype(np.float64)
    a[0, 0] = a[5, 5] = np.nan  # NaNs are distinct values
    x = chunked(a, (14, 12))
    with MaxBlock() as seen:
        ua = xp.unique_all(x)
        vals, idx, inv, counts = ocean_ext.compute(*ua)
    flat = a.reshape(-1)
    want_vals, want_idx, want_inv, want_counts = _np_unique_all(flat)
    np.testing.assert_array_equal(values(vals), want_vals)
    np.testing.assert_array_equal(values(idx), want_idx)
    np.testing.assert_array_equal(values(counts), want_counts)
    np.testing.assert_array_equal(values(inv), want_inv.reshape(a.shape))
    assert np.isnan(values(vals)).sum() == 2
    # no task saw the whole array (the flat array has 24 chunks)
    assert seen.largest < a.size // 2
    assert seen.largest_input < a.size // 2
    uc = xp.unique_counts(x)
    np.testing.assert_array_equal(values(uc.counts), want_counts)
    np.testing.assert_array_equal(values(xp.unique_values(x)), want_vals)


def test_sort_and_unique_of_masked_arrays_of_one_and_of_many_chunks():
    x = on_dask(np.array([5, 3, 9, 1, 7]), chunks=5)
    y = x[x > 2]
    np.testing.assert_array_equal(values(xp.sort(y)), [3, 5, 7, 9])
    np.testing.assert_array_equal(values(xp.unique_values(y)), [3, 5, 7, 9])
    # over many chunks: the axis of data-dependent length in one chunk
    a = np.array([4, 1, 9, 1, 7, 3, 3, 8, 0, 6])
    many = on_dask(a, chunks=3)
    m = many[many > 0]
    want = a[a > 0]
    np.testing.assert_array_equal(values(xp.sort(m)), np.sort(want))
    np.testing.assert_array_equal(
        values(xp.sort(m, descending=True)), np.sort(want)[::-1]
    )
    np.testing.assert_array_equal(
        values(xp.argsort(m, descending=True)),
        np.argsort(-want, kind="stable"),
    )
    u = xp.unique_all(m)
    wv, wi, winv, wc = np.unique(
        want, return_index=True, return_inverse=True, return_counts=True
    )
    for got, exp in zip(u, (wv, wi, winv, wc), strict=True):
        np.testing.assert_array_equal(values(got), exp)
    m2 = xp.reshape(many, (5, 2))[xp.reshape(many, (5, 2))[:, 0] > 0]
    inv = xp.unique_inverse(m2).inverse_indices
    assert inv.shape == (None, 2)
    a2 = a.reshape(5, 2)[a.reshape(5, 2)[:, 0] > 0]
    np.testing.assert_array_equal(values(inv), np.unique(a2, return_inverse=True)[1])


# --- matmul and tensordot over many chunks ------------------------------------
_PRODUCT_DTYPES = [
    ("float64", "float64"),
    ("float32", "float64"),
    ("int32", "int32"),
    ("int8", "int64"),
    ("uint8", "uint8"),
    ("complex128", "complex128"),
    ("float32", "complex64"),
]


def _draw_array(data, shape, dtype, label):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**16), label=f"seed {label}"))
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 100, size=shape).astype(dtype)  # wraps as NumPy's
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _close(got, want):
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    if want.dtype.kind in "iu":
        np.testing.assert_array_equal(got, want)
    else:
        tol = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-10
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


@settings(max_examples=40)
@given(
    shapes=hnp.mutually_broadcastable_shapes(
        signature=np.matmul.signature, max_dims=2, max_side=9
    ),
    pair=st.sampled_from(_PRODUCT_DTYPES),
    data=st.data(),
)
def test_matmul_over_many_chunks_matches_numpy(shapes, pair, data):
    (s1, s2), _ = shapes
    a = _draw_array(data, s1, pair[0], "x1")
    b = _draw_array(data, s2, pair[1], "x2")
    # chunks of different sizes on the two sides: the contracted axis is
    # rechunked to common blocks
    c1 = data.draw(st.integers(1, 4), label="chunks x1")
    c2 = data.draw(st.integers(1, 4), label="chunks x2")
    res = xp.matmul(on_dask(a, c1), on_dask(b, c2))
    assert res.shape == np.matmul(a, b).shape
    _close(values(res), np.matmul(a, b))


@pytest.mark.parametrize(
    ("s1", "s2", "axes"),
    [
        ((4, 5, 6), (5, 6, 3), 2),
        ((4, 5, 6), (6, 5, 3), ([1, 2], [1, 0])),
        ((3, 4, 5), (5, 4, 3), ([0, 2], [2, 0])),
        ((3, 4), (5, 2), 0),
        ((7,), (7,), 1),
        ((4, 5), (4, 5), 2),
        ((0, 5), (5, 3), 1),
    ],
)
@pytest.mark.parametrize("pair", [("float64", "float64"), ("int32", "int32")])
def test_tensordot_over_many_chunks_matches_numpy(s1, s2, axes, pair):
    rng = np.random.default_rng(7)
    a = rng.integers(-9, 9, size=s1).astype(pair[0])
    b = rng.integers(-9, 9, size=s2).astype(pair[1])
    res = xp.tensordot(chunked(a, 2), chunked(b, 3), axes=axes)
    _close(values(res), np.tensordot(a, b, axes=axes))


class HeldBytes(dask.callbacks.Callback):
    """The most bytes of task results the local scheduler held at once, and
    the names of the keys it ran."""

    def __init__(self):
        super().__init__()
        self.peak = 0
        self.names = set()

    def _posttask(self, key, result, dsk, state, worker_id):
        self.names.add(key[0] if isinstance(key, tuple) else key)
        held = sum(v.nbytes for v in state["cache"].values() if hasattr(v, "nbytes"))
        self.peak = max(self.peak, held)


def _lazy_operands(n, block):
    """A and B of the out-of-core benchmark, built from arange."""
    i = ocean_ext.rechunk(xp.arange(n, dtype=xp.float64, device="dask"), block)
    a = xp.cos(i[:, None] * 0.01 + i[None, :] * 0.02)
    b = xp.sin(i[:, None] * 0.02 - i[None, :] * 0.01)
    return a, b


def test_matmul_of_lazy_operands_holds_a_few_blocks():
    n, block = 192, 24  # 8 x 8 blocks of each operand, 8 steps per output block
    a, b = _lazy_operands(n, block)
    with dask.config.set(scheduler="sync"), HeldBytes() as seen:
        (total,) = ocean_ext.compute(xp.sum(a @ b))
    i = np.arange(n, dtype=np.float64)
    want = np.cos(i[:, None] * 0.01 + i[None, :] * 0.02) @ np.sin(
        i[:, None] * 0.02 - i[None, :] * 0.01
    )
    assert float(total) == pytest.approx(want.sum(), rel=1e-12)
    # the operands' blocks are recomputed in the steps that use them (never a
    # result of their own), and one output block is summed at a time: the
    # operands alone are 128 blocks
    assert ocean_ext.to_dask(a).name not in seen.names
    assert ocean_ext.to_dask(b).name not in seen.names
    assert seen.peak <= 3 * block * block * 8


def test_matmul_builds_lazily_and_runs_only_the_blocks_asked_for(runs):
    a, b = _lazy_operands(96, 12)
    c = a @ b
    t = xp.tensordot(a, b, axes=1)
    layer = ocean_ext.to_dask(c).dask.layers[ocean_ext.to_dask(c).name]
    assert not layer.is_materialized()  # tasks are written when it runs
    assert runs["n"] == 0
    seen = HeldBytes()
    with seen:
        corner = values(c[:12, :12])
    i = np.arange(96, dtype=np.float64)
    want = np.cos(i[:, None] * 0.01 + i[None, :] * 0.02) @ np.sin(
        i[:, None] * 0.02 - i[None, :] * 0.01
    )
    _close(corner, want[:12, :12])
    # one output block: its chain and the small inputs, not the 64 chains
    assert len(seen.names) < 20
    _close(values(t), want)
    assert runs["n"] == 2


def test_matmul_of_persisted_and_unknown_sized_operands():
    rng = np.random.default_rng(8)
    a = rng.standard_normal((30, 20))
    x = chunked(a, (7, 6))  # blocks are data: referenced, not recomputed
    _close(values(x @ x.mT), a @ a.T)
    _close(values(x.mT @ x), a.T @ a)
    keep = on_dask(a[:, 0] > 0, chunks=7)
    rows = x[keep]  # (None, 20)
    got = rows @ x.mT[:, :5]
    assert got.shape == (None, 5)
    _close(values(got), a[a[:, 0] > 0] @ a[:5].T)
    _close(values(rows.mT @ rows), a[a[:, 0] > 0].T @ a[a[:, 0] > 0])
    # one output block and many steps: the sum is cut into chains that run
    # side by side, then added
    v = rng.standard_normal(1000)
    xv = on_dask(v, chunks=10)
    assert float(xv @ xv) == pytest.approx(float(v @ v), rel=1e-12)


# --- standard functions against NumPy --------------------------------------------
def test_elementwise_reductions_and_linalg_match_numpy():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((6, 5))
    x = on_dask(a, chunks=(2, 2))
    np.testing.assert_allclose(values(xp.exp(x) - x**2), np.exp(a) - a**2)
    np.testing.assert_allclose(
        values(xp.std(x, axis=1, correction=1)), a.std(1, ddof=1)
    )
    np.testing.assert_allclose(values(xp.cumulative_sum(x, axis=0)), a.cumsum(0))
    np.testing.assert_array_equal(values(xp.argmax(x, axis=0)), a.argmax(0))
    np.testing.assert_allclose(values(x @ x.mT), a @ a.T)
    m = a[:5] @ a[:5].T + 5 * np.eye(5)
    xm = on_dask(m, chunks=2)
    np.testing.assert_allclose(values(xp.linalg.inv(xm)), np.linalg.inv(m))
    np.testing.assert_allclose(values(xp.linalg.cholesky(xm)), np.linalg.cholesky(m))
    np.testing.assert_allclose(
        values(xp.linalg.vector_norm(x, ord=3)), np.sum(np.abs(a) ** 3) ** (1 / 3)
    )
    np.testing.assert_allclose(values(xp.fft.rfft(x, axis=0)), np.fft.rfft(a, axis=0))
    np.testing.assert_array_equal(
        values(xp.linalg.diagonal(xm, offset=1)), np.diagonal(m, 1)
    )
    np.testing.assert_array_equal(values(xp.tril(x, k=-1)), np.tril(a, -1))
    np.testing.assert_array_equal(
        values(xp.eye(3, 5, k=1, device="dask")), np.eye(3, 5, 1)
    )


def test_indexing_with_several_index_arrays():
    a = np.arange(30).reshape(5, 6)
    x = on_dask(a, chunks=(2, 4))
    i = xp.asarray([0, -1, 2], device="dask")
    j = xp.asarray([5, 0, 1], device="dask")
    np.testing.assert_array_equal(values(x[i, j]), a[[0, -1, 2], [5, 0, 1]])
    np.testing.assert_array_equal(values(x[i]), a[[0, -1, 2]])
    np.testing.assert_array_equal(
        values(xp.take_along_axis(x, xp.argsort(x, axis=1), axis=1)), a
    )


def test_setitem_writes_through_shared_handles_only():
    x = xp.zeros(6, device="dask")
    same = xp.asarray(x, copy=False)  # shares x's data, as in NumPy
    copied = xp.asarray(x, copy=True)
    x[x == 0] = 2.0
    x[1:3] = xp.asarray([5.0, 6.0], device="dask")
    np.testing.assert_array_equal(values(x), [2, 5, 6, 2, 2, 2])
    np.testing.assert_array_equal(values(same), [2, 5, 6, 2, 2, 2])
    np.testing.assert_array_equal(values(copied), np.zeros(6))


def test_setitem_with_negative_steps_new_axes_and_empty_selections():
    a = np.arange(20).reshape(4, 5)
    x = xp.asarray(a, device="dask")
    v = np.arange(100, 106).reshape(2, 3)
    x[3:0:-2, ::-2] = xp.asarray(v, device="dask")
    a[3:0:-2, ::-2] = v
    x[None, 1, ::-1] = xp.asarray(np.arange(5), device="dask")
    a[None, 1, ::-1] = np.arange(5)
    x[2:2] = 99  # selects nothing
    np.testing.assert_array_equal(values(x), a)


@pytest.mark.parametrize("mask_dims", [1, 2])
def test_masked_assignment_of_a_masked_selection(runs, mask_dims):
    # x[m] = f(x[m]): the value's length is data-dependent (None), as in
    # array-api-extra's apply_where (SciPy) and scikit-learn's scalers
    a = np.arange(56.0).reshape(8, 7) - 20
    x = chunked(a, (3, 2))
    m = (x[:, 0] > 0) if mask_dims == 1 else (x > 3)
    x[m] = xp.sqrt(xp.abs(x[m])) + 1
    assert runs["n"] == 0
    nm = (a[:, 0] > 0) if mask_dims == 1 else (a > 3)
    a[nm] = np.sqrt(np.abs(a[nm])) + 1
    np.testing.assert_array_equal(values(x), a)
    y = chunked(np.arange(10.0), 3)
    y[y > 3] = y[y > 4]  # one value short: NumPy's ValueError when it runs
    with pytest.raises(ValueError, match="shape mismatch"):
        values(y)


def test_empty_arrays_where_dask_fails_on_them():
    with DASK:
        z = xp.zeros((0, 0, 1, 25), dtype=xp.complex128)
        assert z.shape == (0, 0, 1, 25)
        assert xp.roll(xp.zeros((2, 0)), 1).shape == (2, 0)
        assert xp.repeat(xp.zeros((0,)), 3).shape == (0,)
        s = xp.linalg.solve(xp.ones((1, 1)), xp.ones((1, 0)))
    assert values(s).shape == (1, 0)


def test_clip_with_a_wider_integer_bound_checks_it_when_computed(runs):
    # The range check of a bound array wider than x's dtype is part of the
    # graph: clip() computes nothing, the result raises the CPU's
    # OverflowError when it runs, and bounds that fit give the exact result.
    x = chunked(np.array([1, 50, 100, -7], dtype=np.int8), 2)
    too_big = chunked(np.array([0, 300, 0, 0], dtype=np.int16), 2)
    too_small = xp.asarray(-200, dtype=xp.int16, device="dask")
    for kwargs, name in (({"min": too_big}, "min"), ({"max": too_small}, "max")):
        y = xp.clip(x, **kwargs)
        assert runs["n"] == 0
        assert y.dtype == xp.int8
        with pytest.raises(OverflowError, match=rf"clip\(\): `{name}` holds a value"):
            values(y)
        runs["n"] = 0
    lo = chunked(np.array([10, -300, 60, 0], dtype=np.int16), 2)
    hi = xp.asarray(1000, dtype=xp.int16, device="dask")
    y = xp.clip(x, lo, hi)
    assert runs["n"] == 0
    np.testing.assert_array_equal(values(y), np.array([10, 50, 100, 0], np.int8))
    assert runs["n"] == 1
    # the check runs on every chunk of the result, not only the first
    z = xp.clip(
        chunked(np.zeros(6, dtype=np.uint8), 2),
        max=xp.asarray([-1, 0, 0, 0, 0, 1], dtype=xp.int16, device="dask"),
    )
    with pytest.raises(OverflowError, match="clip"):
        values(z[4:])


# --- bad input ------------------------------------------------------------------
def test_bridge_functions_reject_bad_input():
    with pytest.raises(TypeError, match=r"from_dask\(\): `darr` must be a dask"):
        ocean_ext.from_dask(np.ones(3))
    with pytest.raises(TypeError, match=r"from_dask\(\).*dtype"):
        ocean_ext.from_dask(da.from_array(np.array(["a", "b"])))
    with pytest.raises(ValueError, match=r"to_dask\(\): `x` is on Device\('cpu', 0\)"):
        ocean_ext.to_dask(xp.ones(3, device=CPU))
    with pytest.raises(TypeError, match=r"to_dask\(\): `x` must be an array"):
        ocean_ext.to_dask(da.ones(3))
    with pytest.raises(TypeError, match=r"rechunk\(\): `chunks` must be"):
        ocean_ext.rechunk(xp.ones(3, device="dask"), 2.5)
    with pytest.raises(ValueError, match=r"rechunk\(\): `chunks`"):
        ocean_ext.rechunk(xp.ones(3, device="dask"), ((1, 1),))
    with pytest.raises(TypeError, match=r"compute\(\): `arrays\[1\]`"):
        ocean_ext.compute(xp.ones(1), [1])


def test_what_dask_cannot_do_lazily_names_the_function():
    x = on_dask(np.arange(12.0), chunks=5)
    y = x[x > 3]
    with pytest.raises(NotImplementedError, match=r"unstack\(\): .*data-dependent"):
        xp.unstack(y)
    with pytest.raises(NotImplementedError, match=r"zeros_like\(\): .*data-dependent"):
        xp.zeros_like(y, device=CPU)
    with pytest.raises(NotImplementedError, match=r"__setitem__\(\): .*whole axes"):
        y[1:3] = xp.asarray([1.0, 2.0], device=DASK)
    # several index arrays on the unknown axis: the axis whole, lazily
    z = xp.reshape(y, (-1, 1))
    idx = xp.asarray([0, -1], device=DASK)
    np.testing.assert_array_equal(values(z[idx, xp.zeros_like(idx)]), [4.0, 11.0])


def test_mixed_advanced_indexing_and_scatter_match_numpy():
    a = np.arange(60).reshape(3, 4, 5)
    x = on_dask(a, chunks=2)
    i = xp.asarray([0, 2], device="dask")
    j = xp.asarray([1, -1], device="dask")
    np.testing.assert_array_equal(values(x[i, 1:, j]), a[[0, 2], 1:, [1, -1]])
    np.testing.assert_array_equal(values(x[1, :, j]), a[1, :, [1, -1]])
    np.testing.assert_array_equal(values(x[None, ..., j]), a[None, ..., [1, -1]])
    x[i, 0, j] = xp.asarray([-5, -6], device="dask")
    a[[0, 2], 0, [1, -1]] = [-5, -6]
    mask = a % 7 == 0
    x[xp.asarray(mask, device="dask")] = xp.asarray(
        np.arange(mask.sum()), device="dask"
    )
    a[mask] = np.arange(mask.sum())
    np.testing.assert_array_equal(values(x), a)


# --- the bridge: no copy, no compute ---------------------------------------------
def test_from_dask_and_to_dask_share_the_graph(runs):
    d = da.arange(12, chunks=5).reshape(3, 4)
    x = ocean_ext.from_dask(d)
    assert ocean_ext.to_dask(x) is d
    assert x.shape == (3, 4)
    assert x.dtype == xp.int64
    r = ocean_ext.rechunk(x, (1, -1))
    assert ocean_ext.to_dask(r).chunks == ((1, 1, 1), (4,))
    assert runs["n"] == 0
    np.testing.assert_array_equal(values(r), np.arange(12).reshape(3, 4))


def test_from_dask_converts_byteswapped_chunks_lazily():
    big = np.arange(6, dtype=">f8")
    x = ocean_ext.from_dask(da.from_array(big, chunks=4))
    assert x.dtype == xp.float64
    np.testing.assert_array_equal(values(x * 2), np.arange(6) * 2)
    y = ocean_ext.asarray(big, device="dask")  # swapped on the way in
    np.testing.assert_array_equal(values(y + 1), np.arange(6) + 1)


def test_host_data_is_copied_once_onto_the_device(runs):
    # asarray() copies NumPy data onto the dask device (as to any device that
    # is not the CPU); the handle's chunks are views of that one copy (dask's
    # from_array would copy it a second time).
    import tracemalloc

    a = np.arange(2_000_000, dtype=np.float64)  # 16 MB
    tracemalloc.start()
    try:
        x = xp.asarray(a, device="dask")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert a.nbytes <= peak < 1.5 * a.nbytes
    assert runs["n"] == 0
    a[0] = -1.0  # the copy is the device's own
    assert float(x[0]) == 0.0
    np.testing.assert_array_equal(values(x[1:]), np.arange(1, 2_000_000))
    with pytest.raises(ValueError, match="copy=False"):
        xp.asarray(a, device="dask", copy=False)


# --- ocean_ext features on chunks -------------------------------------------------
def test_float16_and_complex32_run_the_cpu_kernels_per_chunk():
    a = np.linspace(-2, 2, 11, dtype=np.float16)
    x = ocean_ext.from_dask(da.from_array(a, chunks=4))
    assert x.dtype == ocean_ext.float16
    cpu = xp.asarray(a, dtype=ocean_ext.float16, device=CPU)
    np.testing.assert_array_equal(
        values(xp.astype(x * x + 1, xp.float32)),
        np.asarray(xp.astype(cpu * cpu + 1, xp.float32)),
    )
    z = xp.astype(x, ocean_ext.complex32)
    zc = xp.astype(cpu, ocean_ext.complex32)
    assert z.device == DASK
    np.testing.assert_array_equal(
        values(xp.astype(xp.exp(z * 1j), xp.complex64)),
        np.asarray(xp.astype(xp.exp(zc * 1j), xp.complex64)),
    )
    assert float(xp.sum(x)) == pytest.approx(float(xp.sum(cpu)))


def test_instrumentation_counts_dask_kernels():
    x = xp.ones(4, device="dask")
    with ocean_ext.instrument() as stats:
        xp.add(x, x)
        xp.sum(x)
    assert stats["add"].count == 1
    assert stats["sum"].count == 1
    assert stats.kinds == ("dask",)


def test_instrumentation_stays_out_of_per_chunk_kernels():
    # The table captures the CPU kernels it runs per chunk when it is built.
    # Built inside an instrument block, it captured the block's wrappers and
    # kept them: every later computation counted each chunk's CPU kernel
    # under "cpu" in whatever block was active.
    from ocean_dask._ops import build_ops

    x = on_dask(np.linspace(0.0, 1.0, 10), chunks=3)
    with ocean_ext.instrument():
        table = build_ops()  # as when the first dask call is in a block
    with ocean_ext.instrument() as stats:
        y = table["sin"](x._data)
        sorted_y = table["sort"](y, 0, False, True)
        np.testing.assert_array_equal(
            DASK._backend.to_host(sorted_y), np.sort(np.sin(np.linspace(0, 1, 10)))
        )
    assert "cpu" not in stats.kinds
    assert stats["sin"].count == 0
    assert stats["sort"].count == 0


def test_read_only_arrays_refuse_writes():
    x = xp.ones(4, device="dask")
    ocean_ext.set_readonly(x)
    assert ocean_ext.is_readonly(x)
    with pytest.raises(ocean_ext.ReadOnlyError):
        x[0] = 2.0
    with pytest.raises(ocean_ext.ReadOnlyError):
        x += 1.0
    # `@=` of float16/complex32 (their own kernels, then a store) raised the
    # handle's bare ValueError
    for dt in (ocean_ext.float16, ocean_ext.complex32):
        m = xp.ones((2, 2), dtype=dt, device="dask")
        ocean_ext.set_readonly(m)
        with pytest.raises(ocean_ext.ReadOnlyError, match=r"\(@=\)"):
            m @= m
        ocean_ext.set_readonly(m, False)
        m @= m
        want = np.full((2, 2), 2.0, dtype=np.float32)
        np.testing.assert_array_equal(values(xp.astype(m, xp.complex64)), want)


def test_compute_modes_refuse_lazy_arrays_except_standard(runs):
    x = xp.asarray([-1.0, 4.0], device="dask")
    np.testing.assert_array_equal(
        values(ocean_ext.sqrt(x, mode="standard")), [np.nan, 2.0]
    )
    for mode in ("warn", "raise", "complex"):
        with pytest.raises(NotImplementedError, match=r"ocean_ext.sqrt\(\): mode"):
            ocean_ext.sqrt(x, mode=mode)
    with pytest.raises(NotImplementedError, match=r"ocean_ext.pow\(\): mode 'raise'"):
        ocean_ext.pow(x, 0.5, mode="raise")
    assert runs["n"] == 1  # the one values() above


def test_index_objects_on_lazy_arrays(runs):
    x = xp.arange(6.0, device="dask")
    idx = ocean_ext.index[xp.asarray([0, 2], device="dask")]
    y = x[idx]  # unbound: the key is passed on, lazily
    z = x[ocean_ext.index[1:3].bind(x)]
    assert runs["n"] == 0
    np.testing.assert_array_equal(values(y), [0.0, 2.0])
    np.testing.assert_array_equal(values(z), [1.0, 2.0])
    # binding checks bounds from the values: refused rather than computed
    with pytest.raises(NotImplementedError, match="index arrays"):
        idx.bind(x)
    assert runs["n"] == 2


# --- dask.distributed ------------------------------------------------------------
@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (.[dask])"
    )
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",  # any free port (None is 8787, which may be taken)
        silence_logs=50,
    )
    with cluster, distributed.Client(cluster) as c:
        yield c


def test_same_code_runs_on_a_local_cluster(client):
    rng = np.random.default_rng(4)
    a = rng.integers(0, 30, size=400)
    with DASK:
        x = ocean_ext.rechunk(xp.asarray(a), 50)
        s = xp.sort(x)
        u = xp.unique_counts(x)
        total = xp.sum(xp.astype(x, xp.float64) ** 2)
        vals, counts, srt = ocean_ext.compute(u.values, u.counts, s)
        m = ocean_ext.rechunk(xp.reshape(xp.astype(x, xp.float64), (20, 20)), 5)
        prod = m @ m.mT + xp.tensordot(m, m, axes=1)  # chains of 4 steps
    assert float(total) == float(np.sum(a.astype(float) ** 2))
    am = a.astype(float).reshape(20, 20)
    np.testing.assert_allclose(values(prod), am @ am.T + am @ am, rtol=1e-12)
    np.testing.assert_array_equal(values(srt), np.sort(a))
    want_vals, want_counts = np.unique(a, return_counts=True)
    np.testing.assert_array_equal(values(vals), want_vals)
    np.testing.assert_array_equal(values(counts), want_counts)
    # the work ran on the workers: each of them holds task results
    assert len(client.scheduler_info()["workers"]) == 2


def test_index_arrays_out_of_bounds_raise_when_computed(runs):
    x = chunked(np.arange(10), 4)
    m = chunked(np.arange(20).reshape(4, 5), 2)
    cases = [
        (x, (xp.asarray([3, -11], device="dask"),), "-11"),
        (x, (xp.asarray([10], device="dask"),), "10"),
        (x, (xp.asarray([2**64 - 1], dtype=xp.uint64, device="dask"),), "18446744"),
        (m, (xp.asarray([1], device="dask"), xp.asarray([-6], device="dask")), "-6"),
    ]
    for arr, key, text in cases:
        y = arr[key]  # lazy: checked chunk by chunk when it runs
        assert runs["n"] == 0
        with pytest.raises(IndexError, match=f"index {text}"):
            values(y)
        runs["n"] = 0
    k = xp.asarray([-10, 9, 0, -1], device="dask")
    np.testing.assert_array_equal(values(x[k]), np.arange(10)[[-10, 9, 0, -1]])


def test_data_dependent_sizes_in_in_place_operators_and_concat(runs):
    # An in-place operator on an array of data-dependent length compared
    # dask's nan sizes (never equal) and refused; concat along another axis
    # of arrays masked alike failed in dask.
    a = np.arange(12.0)
    x = chunked(a, 4)
    sel = x[x > 2.0]  # (None,)
    sel *= 2.0
    assert sel.shape == (None,)
    both = xp.stack([sel, sel + 1.0], axis=1)  # (None, 2)
    joined = xp.concat([both, both[:, :1]], axis=1)
    assert joined.shape == (None, 3)
    assert runs["n"] == 0
    want = a[a > 2.0] * 2.0
    np.testing.assert_array_equal(values(sel), want)
    np.testing.assert_array_equal(
        values(joined), np.stack([want, want + 1.0, want], axis=1)
    )
    # arrays cut differently on the unknown axis are aligned by making it
    # whole (their chunks pair exactly); lazily
    other = chunked(a, 6)
    other = xp.stack([other[other > 2.0]] * 2, axis=1)
    before = runs["n"]
    wide = xp.concat([both, other], axis=1)
    total = sel + xp.stack([other[:, 0]], axis=1)[:, 0]
    assert runs["n"] == before
    np.testing.assert_array_equal(
        values(wide), np.stack([want, want + 1.0, want / 2, want / 2], axis=1)
    )
    np.testing.assert_array_equal(values(total), want * 1.5)


def test_arrays_cut_by_different_masks_never_pair_chunks_wrongly():
    # The same number of chunks of data-dependent sizes, cut differently:
    # dask paired them chunk by chunk, broadcasting a chunk of one element
    # over a chunk of two (a silent wrong result); arrays of different
    # masks are now aligned exactly, and arrays of one mask stay paired.
    x = on_dask(np.array([10, -1, -1, 20]), 2)  # chunks of 1 and 1 after > 0
    y = on_dask(np.array([1, 2, -1, -1]), 2)  # chunks of 2 and 0
    m1, m2 = x[x > 0], y[y > 0]
    np.testing.assert_array_equal(values(m1 + m2), [11, 22])
    np.testing.assert_array_equal(values(xp.where(m1 > 15, m1, m2)), [1, 20])
    np.testing.assert_array_equal(values(xp.stack([m1, m2])), [[10, 20], [1, 2]])
    z = on_dask(np.array([5, 6, 7, 8]), 2)
    np.testing.assert_array_equal(values(m1 - z[x > 0]), [5, 12])
    np.testing.assert_array_equal(values(m1 + y[y > 1]), [12, 22])  # broadcast 1
    w = on_dask(np.array([1, 2, 3, -1]), 2)
    with pytest.raises(ValueError, match="broadcast"):
        values(m1 + w[w > 0])  # 2 and 3 elements: NumPy's error, when computed


def test_singular_matrices_raise_as_on_the_cpu_when_computed(runs):
    singular = [[1.0, 2.0], [2.0, 4.0]]
    for func in (
        xp.linalg.inv,
        xp.linalg.cholesky,
        lambda x: xp.linalg.matrix_power(x, -2),
    ):
        with pytest.raises(ValueError) as theirs:
            func(xp.asarray(singular, device=CPU))
        y = func(xp.asarray(singular, device="dask"))
        assert runs["n"] == 0
        with pytest.raises(type(theirs.value)):
            values(y)
        runs["n"] = 0


# --- dask collections ------------------------------------------------------------
def test_arrays_are_dask_collections(runs):
    x = xp.arange(10, device="dask")
    y = x[x % 3 == 0]
    assert dask.is_dask_collection(y)
    assert not dask.is_dask_collection(xp.ones(3, device=CPU))
    assert dask.base.tokenize(y) == dask.base.tokenize(y)
    assert dask.base.tokenize(y) != dask.base.tokenize(x)
    c, s, d = dask.compute(y, xp.sum(x), da.ones(2))
    assert runs["n"] == 1  # one run for ours and dask's own together
    assert type(c) is xp.Array
    assert c.device == DASK
    assert c.shape == (4,)
    np.testing.assert_array_equal(values(c), [0, 3, 6, 9])
    assert int(s) == 45
    np.testing.assert_array_equal(d, [1.0, 1.0])
    (p,) = dask.persist(x * 2)
    assert runs["n"] == 2  # persist (int(s) of computed values runs nothing)
    np.testing.assert_array_equal(values(p), np.arange(10) * 2)


def test_progress_bar_and_callbacks_see_the_graph():
    from dask.diagnostics import ProgressBar

    x = xp.astype(xp.arange(100, device="dask"), xp.float64)
    seen = []

    class Count(dask.callbacks.Callback):
        def _start(self, dsk):
            seen.append(len(dsk))

    with ProgressBar(out=__import__("io").StringIO()), Count():
        # (threads: the module's cluster may be the default scheduler now)
        (m,) = dask.compute(xp.mean(x), scheduler="threads")
        assert float(m) == 49.5
    assert seen
    assert seen[0] > 0


def test_persist_keeps_chunks_and_computes_sizes(runs):
    x = chunked(np.arange(20), 6)
    y = x[x % 4 != 1]
    (p,) = ocean_ext.persist(y)
    assert runs["n"] == 2  # the chunks, then their sizes
    assert p.shape == (15,)
    assert p.device == DASK
    assert ocean_ext.to_dask(p).chunks == ((4, 5, 4, 2),)
    np.testing.assert_array_equal(
        values(xp.sort(p)), np.sort(np.arange(20)[np.arange(20) % 4 != 1])
    )
    z = xp.ones(3, device=CPU)
    assert ocean_ext.persist(z)[0] is z
    with pytest.raises(TypeError, match=r"persist\(\): `arrays\[0\]`"):
        ocean_ext.persist([1])


def test_repr_shows_chunks_always_and_values_once_computed(runs):
    x = chunked(np.arange(5), 2)
    text = repr(x * 2)
    assert text.startswith("Array(<lazy>")
    assert "chunks=((2, 2, 1),)" in text
    assert "chunks=((None, None, None),)" in repr(x[x > 1])
    (c,) = ocean_ext.compute(x * 2)
    assert (
        repr(c)
        == "Array([0, 2, 4, 6, 8], dtype=int64, device=dask, chunks=((2, 2, 1),))"
    )
    (p,) = ocean_ext.persist(x[x > 1])
    # (the empty chunk of the mask's first chunk is dropped)
    assert repr(p) == "Array([2, 3, 4], dtype=int64, device=dask, chunks=((2, 1),))"
    n = runs["n"]
    repr(x * 3)
    assert runs["n"] == n  # printing runs nothing
    c[0] = 7  # a new graph: the values shown are gone
    assert repr(c).startswith("Array(<lazy>")
    many = ocean_ext.rechunk(xp.zeros(100, device="dask"), 10)
    assert "chunks=(10 x 10,)" in repr(many)


def test_known_sizes_computes_data_dependent_sizes_when_made(runs):
    x = chunked(np.arange(10), 3)
    assert x[x > 6].shape == (None,)
    assert runs["n"] == 0
    with ocean_ext.known_sizes():
        y = x[x > 6]
        u = xp.unique_values(x % 4)
        nz = xp.nonzero(x > 7)[0]
        kept = y + 1  # sizes known: nothing more to compute
    assert runs["n"] == 3
    assert (y.shape, u.shape, nz.shape, kept.shape) == ((3,), (4,), (2,), (3,))
    np.testing.assert_array_equal(values(kept), [8, 9, 10])
    assert x[x > 6].shape == (None,)  # outside the block: lazy again


def test_asarray_of_a_dask_array_points_to_from_dask():
    with pytest.raises(TypeError, match=r"ocean_ext\.from_dask"):
        xp.asarray(da.ones(3))


def test_client_compute_and_persist_take_arrays(client):
    x = ocean_ext.rechunk(xp.arange(40, device="dask"), 7)
    y = x[x % 3 == 0]
    fut = client.compute(xp.sum(y))
    assert int(fut.result()) == sum(range(0, 40, 3))
    (p,) = client.persist([y * 2])
    assert type(p) is xp.Array
    assert p.device == DASK
    np.testing.assert_array_equal(values(p), np.arange(0, 40, 3) * 2)
    (q,) = ocean_ext.persist(y)  # on the workers; sizes known
    assert q.shape == (14,)
    assert "<persisted>" in repr(q)
    (r,) = dask.compute(q + 1)
    np.testing.assert_array_equal(values(r), np.arange(0, 40, 3) + 1)
