"""Read-only arrays, shares_memory, and assignments whose source overlaps the target."""

from __future__ import annotations

import gc
import operator

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext
from ocean_array_api import _ext_hooks as _hooks
from ocean_ext import ReadOnlyError, _readonly

from ..helpers import CPU0, CPU1, LAZY_DEFAULT, host, run_python
from . import all_functions as af


@pytest.fixture
def _cpu_default():
    """The CPU as the default device, for the tests of read-only *memory*
    (views sharing it, NumPy's flags, regions, shares_memory): a lazy device
    (dask) has none.  Its arrays are graphs, and read-only is a flag of each
    array that its views inherit (tests/backends/test_dask_views.py)."""
    if LAZY_DEFAULT:
        with CPU0:
            yield
    else:
        yield


cpu_memory = pytest.mark.usefixtures("_cpu_default")

# --- every write path -------------------------------------------------------------
INPLACE = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul,
    "/=": operator.itruediv, "//=": operator.ifloordiv, "%=": operator.imod,
    "**=": operator.ipow,
}  # fmt: skip
INPLACE_INT = {
    "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor,
    "<<=": operator.ilshift, ">>=": operator.irshift,
}  # fmt: skip


def _writes(x):
    """Every way of writing into ``x`` (1-d, at least 2 elements): name -> thunk."""
    dt = x.dtype
    one = xp.ones_like(x)
    is_int = xp.isdtype(dt, "integral")
    writes = {
        "x[0] = 1": lambda: x.__setitem__(0, 1),
        "x[:] = 1": lambda: x.__setitem__(slice(None), 1),
        "x[1:] = array": lambda: x.__setitem__(slice(1, None), one[1:]),
        "x[(0,)] = 1": lambda: x.__setitem__((0,), 1),
        "x[..., 0] = 1": lambda: x.__setitem__((Ellipsis, 0), 1),
        "x[idx] = 1": lambda: x.__setitem__(xp.asarray([0]), 1),
        "x[mask] = 1": lambda: x.__setitem__(xp.ones(x.shape, dtype=xp.bool), 1),
    }
    for name, op in INPLACE.items():
        if not (is_int and name == "/="):  # a dtype error comes first
            writes[f"x {name} 1"] = lambda op=op: op(x, one)
    if is_int:
        for name, op in INPLACE_INT.items():
            writes[f"x {name} 1"] = lambda op=op: op(x, one)
    return writes


def _square_writes(m):
    return {"m @= m": lambda: operator.imatmul(m, xp.eye(m.shape[0], dtype=m.dtype))}


@pytest.fixture(params=["float64", "int32"])
def dtype(request):
    return getattr(xp, request.param)


def _all_write_paths_raise(x, where=""):
    before = np.asarray(x).copy()
    for name, write in _writes(x).items():
        with pytest.raises(ReadOnlyError, match="read-only"):
            write()
        np.testing.assert_array_equal(np.asarray(x), before, err_msg=f"{where}{name}")


def test_read_only_error_is_a_value_error_and_public():
    assert issubclass(ReadOnlyError, ValueError)
    assert ocean_ext.ReadOnlyError is _hooks.ReadOnlyError


def test_every_write_path_raises_on_a_read_only_array(dtype):
    x = xp.arange(6, dtype=dtype)
    ocean_ext.set_readonly(x)
    assert ocean_ext.is_readonly(x)
    _all_write_paths_raise(x)
    m = xp.eye(3, dtype=dtype)
    ocean_ext.set_readonly(m)
    with pytest.raises(ReadOnlyError, match=r"@="):
        m @= xp.eye(3, dtype=dtype)


@cpu_memory
def test_views_made_before_and_after_are_read_only(dtype):
    x = xp.reshape(xp.arange(12, dtype=dtype), (3, 4))
    before = [x[1], x[:, 1:3], x.mT, xp.reshape(x, (12,)), x[...], xp.flip(x, axis=0)]
    ocean_ext.set_readonly(x)
    after = [x[1], x[:, 1:3], x.mT, xp.reshape(x, (12,)), x[...], xp.flip(x, axis=0)]
    for i, v in enumerate(before + after):
        assert ocean_ext.is_readonly(v)
        flat = xp.reshape(v, (-1,)) if v.ndim != 1 else v
        if flat.shape[0] >= 2 and ocean_ext.shares_memory(flat, v):
            _all_write_paths_raise(flat, where=f"view {i}: ")
        with pytest.raises(ReadOnlyError):
            v[...] = 0
    for v in before[:2]:
        with pytest.raises(ReadOnlyError):
            v += 1
    np.testing.assert_array_equal(host(x), np.arange(12).reshape(3, 4))


@cpu_memory
def test_numpy_level_writes_are_refused_too():
    x = xp.arange(4.0)
    ocean_ext.set_readonly(x)
    a = np.asarray(x)
    assert not a.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        a[0] = 1.0


@cpu_memory
def test_a_read_only_view_protects_its_memory_in_the_base():
    x = xp.arange(10.0)
    ocean_ext.set_readonly(x[2:5])
    assert ocean_ext.is_readonly(x)  # writes through x may touch it
    assert not ocean_ext.is_readonly(x[5:])
    assert not ocean_ext.is_readonly(x[:2])
    with pytest.raises(ReadOnlyError):
        x[3] = 1.0
    with pytest.raises(ReadOnlyError):
        x[7] = 1.0  # through x: the check is per array, not per element
    x[5:][0] = 2.0  # through a view of the writable part
    assert float(x[5]) == 2.0


@cpu_memory
def test_strided_regions_are_exact():
    x = xp.arange(10.0)
    ocean_ext.set_readonly(x[::2])
    odd = x[1::2]
    assert not ocean_ext.is_readonly(odd)
    odd[...] = -1.0
    assert ocean_ext.is_readonly(x[2::4])
    with pytest.raises(ReadOnlyError):
        x[4:7][...] = 0.0
    np.testing.assert_array_equal(host(x)[::2], np.arange(0.0, 10.0, 2))
    np.testing.assert_array_equal(host(x)[1::2], -1.0)


@cpu_memory
def test_arrays_from_read_only_numpy_arrays(dtype):
    base = np.arange(7).astype(str(dtype))
    base.flags.writeable = False
    a = base[1:]
    x = xp.asarray(a)
    assert ocean_ext.is_readonly(x)
    _all_write_paths_raise(x)
    assert ocean_ext.is_readonly(x[1:])
    # NumPy cannot make a view of a read-only base writable
    with pytest.raises(ValueError, match="read-only when it came in"):
        ocean_ext.set_readonly(x, False)
    c = xp.asarray(a, copy=True)
    assert not ocean_ext.is_readonly(c)
    c[0] = 5


@cpu_memory
def test_set_readonly_false_follows_numpy_for_owned_memory():
    a = np.arange(3.0)
    a.flags.writeable = False
    x = xp.asarray(a)
    ocean_ext.set_readonly(x, False)  # as a.flags.writeable = True would
    x[0] = 5.0
    assert a[0] == 5.0


@cpu_memory
def test_read_only_numpy_memory_from_a_buffer():
    x = xp.asarray(np.frombuffer(b"\x00" * 16, dtype=np.float64))
    assert ocean_ext.is_readonly(x)
    with pytest.raises(ReadOnlyError):
        x[0] = 1.0


@cpu_memory
def test_set_readonly_false_releases():
    x = xp.arange(6.0)
    v = x[1:4]
    ocean_ext.set_readonly(x)
    w = x[2:]  # taken while read-only: NumPy's flag is off on it
    ocean_ext.set_readonly(x, False)
    assert not ocean_ext.is_readonly(x)
    assert not ocean_ext.is_readonly(v)
    x[0] = 10.0
    v[0] = 11.0
    x += 1
    assert ocean_ext.is_readonly(w)  # as documented; release it on its own
    with pytest.raises(ReadOnlyError):
        w[0] = 1.0
    ocean_ext.set_readonly(w, False)
    w[0] = 1.0
    np.testing.assert_array_equal(host(x), [11.0, 12.0, 1.0, 4.0, 5.0, 6.0])


@cpu_memory
def test_set_readonly_false_on_a_view_of_read_only_memory_raises():
    x = xp.arange(6.0)
    v = x[1:3]
    ocean_ext.set_readonly(x)
    for view in (v, x[2:], x[::2]):
        with pytest.raises(ValueError, match="view of read-only memory"):
            ocean_ext.set_readonly(view, False)
    assert ocean_ext.is_readonly(v)  # nothing changed


@cpu_memory
def test_set_readonly_false_on_the_base_releases_read_only_views():
    x = xp.arange(6.0)
    v = x[1:3]
    ocean_ext.set_readonly(v)
    ocean_ext.set_readonly(x, False)
    assert not ocean_ext.is_readonly(v)
    v[0] = 7.0
    assert float(x[1]) == 7.0


def test_set_readonly_is_idempotent_and_validates():
    x = xp.zeros(3)
    ocean_ext.set_readonly(x)
    ocean_ext.set_readonly(x)
    ocean_ext.set_readonly(x, False)
    assert not ocean_ext.is_readonly(x)
    ocean_ext.set_readonly(x, False)  # already writable: nothing to do
    with pytest.raises(TypeError, match=r"set_readonly\(\): `x`"):
        ocean_ext.set_readonly(np.zeros(3))
    with pytest.raises(TypeError, match=r"set_readonly\(\): `flag`"):
        ocean_ext.set_readonly(x, 1)
    with pytest.raises(TypeError, match=r"is_readonly\(\): `x`"):
        ocean_ext.is_readonly([1, 2])


def test_empty_and_zero_dim_arrays():
    e = xp.zeros((0, 3))
    ocean_ext.set_readonly(e)
    assert ocean_ext.is_readonly(e)
    with pytest.raises(ReadOnlyError):
        e[...] = 1.0
    s = xp.asarray(1.5)
    ocean_ext.set_readonly(s)
    with pytest.raises(ReadOnlyError):
        s[...] = 2.0
    with pytest.raises(ReadOnlyError):
        s += 1.0
    assert float(s) == 1.5


def test_results_of_functions_on_read_only_arrays_are_writable():
    x = xp.arange(5.0)
    ocean_ext.set_readonly(x)
    for r in (
        x + 1,
        xp.sort(x),
        xp.asarray(x, copy=True),
        ocean_ext.cast(x),
        x[xp.asarray([1])],
    ):
        assert not ocean_ext.is_readonly(r)
        r[0] = -1.0


@cpu_memory
def test_byteswapped_read_only_arrays():
    s = ocean_ext.byteswap(xp.arange(4.0))
    ocean_ext.set_readonly(s)
    with pytest.raises(ReadOnlyError):
        s[0] = 1.0
    v = ocean_ext.reinterpret_byteorder(s, "little")
    assert ocean_ext.is_readonly(v)
    assert float(xp.sum(s)) == 6.0


# --- zero cost when unused -------------------------------------------------------
@cpu_memory
def test_the_checker_is_installed_only_while_memory_is_read_only():
    gc.collect()
    assert (_hooks._check is _hooks._writable_default) == (not _readonly._regions)
    x = xp.arange(4.0)
    ocean_ext.set_readonly(x)
    assert _hooks._check is _readonly._check
    root = id(_readonly._root(x._data))
    assert root in _readonly._regions
    del x
    gc.collect()
    assert root not in _readonly._regions
    assert (_hooks._check is _hooks._writable_default) == (not _readonly._regions)


def test_a_fresh_process_pays_nothing_until_set_readonly():
    code = """
import gc
import ocean_array_api as xp
import ocean_ext
from ocean_array_api import _ext_hooks as h
assert h._check is h._writable_default
x = xp.arange(3.0)
x[0] = 1.0
ocean_ext.set_readonly(x)
assert h._check is not h._writable_default
ocean_ext.set_readonly(x, False)
assert h._check is h._writable_default, "released: back to the default"
ocean_ext.set_readonly(x)
del x
gc.collect()
assert h._check is h._writable_default, "freed: back to the default"
"""
    run_python(code)


# --- every function on read-only input ----------------------------------------------
@pytest.mark.parametrize("name", sorted(af.CASES))
@settings(max_examples=10)
@given(data=st.data())
def test_every_function_accepts_read_only_input(name, data):
    env, result = af.run_differential(name, data, "readonly")
    for r in af.result_arrays(result):
        if af.shares_any(r, env.prepared):
            # a view of read-only memory is read-only
            assert ocean_ext.is_readonly(r), (
                f"{name}: a view of read-only input is writable"
            )
        elif not name.startswith(("broadcast_to", "broadcast_arrays")):
            # (NumPy's broadcast views are read-only whatever their input)
            assert not ocean_ext.is_readonly(r), f"{name}: a new result is read-only"


# --- shares_memory -------------------------------------------------------------------
@cpu_memory
@given(
    st.slices(12),
    st.slices(12),
)
def test_shares_memory_matches_numpy(s1, s2):
    a = np.arange(12.0)
    x = xp.asarray(a)
    assert ocean_ext.shares_memory(x[s1], x[s2]) == np.shares_memory(a[s1], a[s2])
    assert ocean_ext.shares_memory(x[s1], a[s2]) == np.shares_memory(a[s1], a[s2])


@cpu_memory
def test_shares_memory_cases():
    x = xp.arange(6.0)
    assert ocean_ext.shares_memory(x, x)
    assert not ocean_ext.shares_memory(x, xp.asarray(x, copy=True))
    assert not ocean_ext.shares_memory(x, x.to_device(CPU1))
    assert ocean_ext.shares_memory(x, xp.reshape(x, (2, 3)).mT)
    with pytest.raises(TypeError, match=r"shares_memory\(\): `b`"):
        ocean_ext.shares_memory(x, [1.0])


# --- assignments whose source overlaps the target -------------------------------------
def _check_overlap(device, key_dst, key_src, n=8):
    a = np.arange(n, dtype=np.float64)
    x = xp.asarray(a.copy(), device=device)
    if isinstance(key_src, list):
        src = x[xp.asarray(key_src, device=device)]
    else:
        src = x[key_src]
    dst = xp.asarray(key_dst, device=device) if isinstance(key_dst, list) else key_dst
    x[dst] = src
    want = a.copy()
    want[key_dst] = a[key_src].copy()  # the source copied first
    np.testing.assert_array_equal(host(x), want)


@pytest.mark.parametrize(
    ("dst", "src"),
    [
        ([1, 2], [2, 1]),
        (slice(1, None), slice(None, -1)),
        (slice(None, -1), slice(1, None)),
        (slice(None, None, -1), slice(None)),
        (slice(None), slice(None, None, -1)),
        (slice(0, 4), slice(2, 6)),
        (slice(2, 6), slice(0, 4)),
        ([0, 1, 2, 3], slice(1, 5)),
        (slice(1, 5), [0, 1, 2, 3]),
    ],
)
def test_overlapping_assignment_copies_the_source_first(device, dst, src):
    _check_overlap(device, dst, src)


@given(data=st.data())
@settings(max_examples=30)
def test_overlapping_slice_assignment(device, data):
    n = 10
    s1 = data.draw(st.slices(n))
    length = len(range(*s1.indices(n)))
    start = data.draw(st.integers(0, n))
    step = data.draw(st.sampled_from([1, -1, 2, -2]))
    candidates = [
        slice(i, i + step * length if i + step * length >= 0 else None, step)
        for i in range(n)
    ]
    s2 = [c for c in candidates if len(range(*c.indices(n))) == length]
    if not s2:
        return
    src = s2[start % len(s2)]
    _check_overlap(device, s1, src, n)


def test_overlapping_assignment_in_2d(device):
    a = np.arange(16.0).reshape(4, 4)
    x = xp.asarray(a.copy(), device=device)
    x[1:, :] = x[:-1, :]
    x[:, ::-1] = x
    x[...] = x.mT
    want = a.copy()
    want[1:, :] = a[:-1, :].copy()
    want[:, ::-1] = want.copy()
    want[...] = want.T.copy()
    np.testing.assert_array_equal(host(x), want)


@given(hnp.arrays(np.int64, (6,), elements=st.integers(-5, 5)), st.integers(1, 5))
def test_inplace_operator_with_an_overlapping_operand(a, k):
    x = xp.asarray(a.copy())
    x[k:] += x[:-k]
    want = a.copy()
    want[k:] += a[:-k].copy()
    np.testing.assert_array_equal(host(x), want)


def test_sparse_arrays_use_their_own_flag():
    sparse = pytest.importorskip("ocean_ext.sparse")
    # (on the CPU: sparse arrays are not offered on the lazy dask device)
    s = sparse.COO.from_dense(xp.eye(3, device=CPU0))
    v = s[1:]
    ocean_ext.set_readonly(s)
    assert ocean_ext.is_readonly(s)
    assert ocean_ext.is_readonly(v)
    with pytest.raises(ReadOnlyError):
        s[0, 0] = 5.0
    ocean_ext.set_readonly(s, False)
    assert not ocean_ext.is_readonly(s)
    s[0, 0] = 5.0
    assert float(s.todense()[0, 0]) == 5.0


class _ReadOnlyOnIndex:
    """An index whose conversion makes ``base`` read-only."""

    def __init__(self, base):
        self.base = base

    def __index__(self):
        ocean_ext.set_readonly(self.base)
        return 0


class _ReadOnlyOnFloat:
    def __init__(self, base):
        self.base = base

    def __float__(self):
        ocean_ext.set_readonly(self.base)
        return 5.0


@pytest.mark.parametrize(
    "write",
    [
        lambda v, b: v.__setitem__(_ReadOnlyOnIndex(b), 9.0),
        lambda v, b: v.__setitem__((_ReadOnlyOnIndex(b), ...), 9.0),
        lambda v, b: v.__setitem__(slice(_ReadOnlyOnIndex(b), None), 9.0),
        lambda v, b: v.__setitem__(0, type("F", (float,), {"__float__": (
            lambda s: _ReadOnlyOnFloat(b).__float__())})(1.0)),
        lambda v, b: v.__setitem__(ocean_ext.index[1], type("F", (float,), {
            "__float__": (lambda s: _ReadOnlyOnFloat(b).__float__())})(1.0)),
    ],
    ids=["int key", "tuple key", "slice bound", "float value", "index object"],
)  # fmt: skip
def test_made_read_only_while_the_write_converts_its_key_or_value(write):
    # the key's or value's own code runs during the write and makes the base
    # read-only: the write must not go through (the check comes after it)
    b = xp.arange(5.0)
    v = b[1:]
    with pytest.raises(ocean_ext.ReadOnlyError):
        write(v, b)
    assert xp.all(b == xp.arange(5.0))
