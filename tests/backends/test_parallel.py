"""Large CPU operations on several threads (``ocean_cpu._parallel``).

What must hold whatever the thread count: elementwise results bit for bit
those of one call of the wrapped kernel; reductions along an axis equal to
NumPy's bits; reductions over every element the same bits on 1, 2 and 7
threads; floating-point errors reported once, as NumPy reports them; the
thread count scoped, read from the environment and never multiplied inside
other pools.

The thresholds are lowered here (``_parallel.limits``) so that small arrays
take the parallel strategies, with parts and reduction blocks of a few
elements, so that many parts and blocks are exercised.  No timing here: speed
is measured by ``benchmarks/bench.py``.
"""

from __future__ import annotations

import math
import pickle
import threading
import warnings
import zlib

import numpy as np
import pytest

import ocean_array_api as xp
import ocean_ext
from ocean_array_api import _backend

cpu = _backend.get_backend("cpu")
from ocean_cpu import _common, _parallel  # noqa: E402 (after the backend loads)

OPS = cpu.ops
COUNTS = (1, 2, 7)


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    """Every call of a few elements takes the parallel strategies, in parts
    and reduction blocks of a few elements."""
    monkeypatch.setattr(_parallel, "_PART", 8)
    monkeypatch.setattr(_parallel, "_MATH_PART", 8)
    monkeypatch.setattr(_parallel, "_CACHE_ELEMENTS", 4)
    monkeypatch.setattr(_parallel, "CHUNK", 64)
    with _parallel.limits(copy=32, math=32, reduce=32):
        yield


def same(a, b) -> bool:
    """Same dtype, shape and bytes (NaN payloads and signed zeros included)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def same_values(a, b) -> bool:
    """Same dtype, shape and bytes, except that a NaN may have another sign or
    payload: NumPy's own loops give NaNs of other signs on slices of another
    length (SIMD body or scalar tail), so a result made in parts is compared
    with one NumPy call so."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "c":
        return same_values(a.real, b.real) and same_values(a.imag, b.imag)
    if a.dtype.kind != "f":
        return a.tobytes() == b.tobytes()
    nan = np.isnan(a)
    if not np.array_equal(nan, np.isnan(b)):
        return False
    return a[~nan].tobytes() == b[~nan].tobytes()


def run(n, func, *args, **kwargs):
    with _parallel.threads(n):
        return func(*args, **kwargs)


# --- inputs ------------------------------------------------------------------------
def _values(shape, dtype):
    """Random values with special ones first; the same for the same shape
    and dtype whatever the order the tests run in."""
    dt = np.dtype(dtype)
    _rng = np.random.default_rng(zlib.crc32(repr((shape, dt.str)).encode()))
    if dt.kind == "b":
        return _rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = max(info.min, -1000), min(info.max, 1000)
        return _rng.integers(lo, hi, shape, endpoint=True).astype(dt)
    v = _rng.standard_normal(shape) * 3
    flat = v.reshape(-1)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, -1e-310, 0.5, -1.0]
    flat[: len(specials)] = specials[: flat.size]
    if dt.kind == "c":
        v = v + 1j * np.roll(v, 3)
    return v.astype(dt)


def _layouts(a):
    """The same values in several layouts: C, Fortran, strided, byte-swapped."""
    yield "C", a
    yield "F", np.asfortranarray(a)
    big = np.empty((a.shape[0] * 2, a.shape[1] + 3), a.dtype)
    big[::2, 1:-2] = a
    yield "strided", big[::2, 1:-2]
    if a.dtype.itemsize > 1:
        yield "swapped", a.astype(a.dtype.newbyteorder())
    yield "transposed", a.T


UNARY = [
    name
    for name in _common.ELEMENTWISE
    if name not in ("matmul", "real", "imag")
    and name
    not in {
        "add", "atan2", "bitwise_and", "bitwise_left_shift", "bitwise_or",
        "bitwise_right_shift", "bitwise_xor", "copysign", "divide", "equal",
        "floor_divide", "greater", "greater_equal", "hypot", "less", "less_equal",
        "logaddexp", "logical_and", "logical_or", "logical_xor", "maximum",
        "minimum", "multiply", "nextafter", "not_equal", "pow", "remainder",
        "subtract",
    }
]  # fmt: skip
BINARY = [
    "add", "subtract", "multiply", "divide", "pow", "floor_divide", "remainder",
    "atan2", "hypot", "maximum", "minimum", "equal", "less", "copysign",
    "logaddexp", "nextafter", "bitwise_and", "bitwise_left_shift",
]  # fmt: skip


def _dtypes_for(name):
    if name.startswith(("bitwise", "logical")) or name in ("bitwise_invert",):
        return ["int32"] if not name.startswith("logical") else ["bool"]
    if name in ("atan2", "hypot", "copysign", "logaddexp", "nextafter"):
        return ["float64", "float32"]
    if name in ("floor", "ceil", "trunc", "signbit", "isnan", "isinf", "isfinite"):
        return ["float64", "float32"]
    if name in ("maximum", "minimum", "equal", "less", "floor_divide", "remainder"):
        return ["float64", "int64"]
    return ["float64", "float32", "complex128"]


def _call_kernel(entry, *args, **kwargs):
    with np.errstate(all="ignore"):
        return entry(*args, **kwargs)


@pytest.mark.parametrize("name", UNARY)
def test_unary_bit_identical(name):
    entry = OPS[name]
    kernel = entry.__wrapped__
    for dtype in _dtypes_for(name):
        if name in ("bitwise_invert",) and dtype == "bool":
            continue
        base = _values((23, 9), dtype)
        for layout, a in _layouts(base):
            ref = _call_kernel(kernel, a)
            results = [run(n, _call_kernel, entry, a) for n in COUNTS]
            for n, res in zip(COUNTS, results, strict=True):
                assert same(res, results[0]), (name, dtype, layout, n)
                assert same_values(res, ref), (name, dtype, layout, n)
                if isinstance(kernel, np.ufunc):  # laid out as NumPy lays out
                    assert np.asarray(res).strides == np.asarray(ref).strides


@pytest.mark.parametrize("name", BINARY)
def test_binary_bit_identical(name):
    entry = OPS[name]
    kernel = entry.__wrapped__
    for dtype in _dtypes_for(name):
        if name == "pow" and dtype.startswith("int"):
            continue
        a0 = _values((23, 9), dtype)
        b0 = _values((23, 9), dtype)
        if name == "bitwise_left_shift":
            b0 = np.abs(b0) % 8
        cases = [
            (layout, a, b)
            for (layout, a), (_, b) in zip(_layouts(a0), _layouts(b0), strict=True)
        ]
        cases += [
            ("row", a0, b0[0]),  # broadcast along the first axis
            ("column", a0, b0[:, :1]),
            ("scalar", a0, 2 if dtype.startswith("int") else 2.5),
            ("reflected", 3 if dtype.startswith("int") else 0.5, a0),
            ("swapped", a0.astype(a0.dtype.newbyteorder()), b0),
        ]
        for layout, a, b in cases:
            ref = _call_kernel(kernel, a, b)
            results = [run(n, _call_kernel, entry, a, b) for n in COUNTS]
            for n, res in zip(COUNTS, results, strict=True):
                assert same(res, results[0]), (name, dtype, layout, n)
                assert same_values(res, ref), (name, dtype, layout, n)


@pytest.mark.parametrize("exponent", [2, 3, 0.5, -1.5])
def test_pow_takes_the_kernel_of_the_whole_call(exponent):
    # _pow picks square (2), NumPy's power, or its 0.5 fix-up from the whole
    # exponent; the parts must not choose another
    entry = OPS["pow"]
    a = _values((40, 5), "float64")
    col = np.full((40, 1), exponent, dtype=np.float64)
    for b in (exponent, col, np.float64(exponent)):
        ref = _call_kernel(entry.__wrapped__, a, b)
        for n in COUNTS:
            assert same_values(run(n, _call_kernel, entry, a, b), ref), (b, n)


@pytest.mark.parametrize("name", ["add", "multiply", "divide", "pow", "subtract"])
def test_in_place_bit_identical(name):
    entry = OPS[name]
    kernel = entry.__wrapped__
    for layout, a0 in _layouts(_values((31, 7), "float64")):
        b = _values(a0.shape, "float64")
        ref = a0.copy()
        _call_kernel(kernel, ref, b, out=ref)
        for n in COUNTS:
            a = a0.copy(order="K") if layout != "swapped" else a0.copy()
            res = run(n, _call_kernel, entry, a, b, out=a)
            assert res is a
            assert same_values(a, ref), (name, layout, n)


def test_in_place_with_overlap_is_as_numpy():
    # x[1:] += x[:-1]: NumPy copies the overlapping operand first; the parts
    # must not read what another part wrote
    for n in COUNTS:
        x = np.arange(200.0)
        ref = np.arange(200.0)
        ref[1:] += ref[:-1]
        view = x[1:]
        run(n, OPS["add"], view, x[:-1], out=view)
        assert same(x, ref)


def test_ext_dtypes_bit_identical():
    import ocean_cpu._halfprec as hp

    if not hp.AVAILABLE:
        pytest.skip(hp.UNAVAILABLE)
    f16 = _values((33, 5), "float32").astype(np.float16)
    c32 = hp._to_complex32(_values((33, 5), "complex64"))
    for name, args in [
        ("add.float16", (f16, f16[::-1])),
        ("sqrt.float16", (np.abs(f16),)),
        ("exp.float16", (f16,)),
        ("add.complex32", (c32, c32[::-1])),
        ("multiply.complex32", (c32, c32)),
        ("exp.complex32", (c32,)),
        ("abs.complex32", (c32,)),
        ("pow.complex32", (c32, c32)),
        ("negative.complex32", (c32,)),
    ]:
        entry = OPS[name]
        ref = _call_kernel(entry.__wrapped__, *args)
        for n in COUNTS:
            assert same_values(run(n, _call_kernel, entry, *args), ref), (name, n)


# --- where, astype, copy, clip, and the copies behind concat/stack/setitem -------------
def test_where_astype_copy_clip():
    x = _values((41, 6), "float64")
    y = _values((41, 6), "float64")
    c = _values((41, 6), "bool")
    for layout, a in _layouts(x):
        cc = c if a.shape == c.shape else c.T
        b = y if a.shape == y.shape else y.T
        for n in COUNTS:
            assert same(run(n, OPS["where"], cc, a, b), np.where(cc, a, b)), layout
            assert same(run(n, OPS["where"], cc, a, 0.5), np.where(cc, a, 0.5))
            assert same(run(n, OPS["where"], cc[0], a, b), np.where(cc[0], a, b))
            for dt in ("int32", "float32", "uint8", "bool", "complex64"):
                ref = a.astype(dt)
                res = run(n, OPS["astype"], a, np.dtype(dt), True)
                assert same(res, ref), (layout, dt)
                assert res.strides == ref.strides
            ref = OPS["copy"].__wrapped__(a)
            res = run(n, OPS["copy"], a)
            assert same(res, ref)
            assert res.strides == ref.strides
            clip = OPS["clip"]
            for lo, hi in ((-1.0, 1.0), (None, 0.0), (-0.5, None), (y.min(), np.nan)):
                res = run(n, clip, a, lo, hi)
                assert same_values(res, clip.__wrapped__(a, lo, hi))
                assert same(res, run(1, clip, a, lo, hi))
            lo_arr = np.full(a.shape, -1.0)
            res = run(n, clip, a, lo_arr, 2.0)
            assert same_values(res, clip.__wrapped__(a, lo_arr, 2.0))


def test_concat_stack_setitem():
    a = _values((50, 4), "float64")
    b = _values((30, 4), "float64")
    s = a.astype(a.dtype.newbyteorder())
    for n in COUNTS:
        for axis in (0, None):
            res = run(n, OPS["concat"], [a, b], axis, None)
            assert same(res, np.concatenate([a, b], axis))
        res = run(n, OPS["concat"], [a, a], 1, None)
        assert same(res, np.concatenate([a, a], 1))
        res = run(n, OPS["concat"], [a, s, a.T.copy().T], 0, None)  # mixed layouts
        assert same(res, np.concatenate([a, s, a.T.copy().T], 0))
        res = run(n, OPS["concat"], [a, b.astype(np.float32)], 0, np.dtype(np.float64))
        assert same(res, np.concatenate([a, b.astype(np.float32)], 0, dtype=np.float64))
        for axis in (0, 1, 2):
            res = run(n, OPS["stack"], [a, a + 1], axis, None)
            assert same(res, np.stack([a, a + 1], axis))
        for key, value in [
            (slice(10, 60), a),
            ((Ellipsis, slice(0, 2)), np.concatenate([a, b])[:, :2].copy()),
            (slice(None, None, -1), np.concatenate([a, b])),
            ((slice(0, 80), slice(1, 3)), a[:1, :2].copy()),  # broadcast value
            (slice(0, 50), s),
        ]:
            z = np.zeros((80, 4))
            ref = np.zeros((80, 4))
            ref[key] = value
            run(n, OPS["setitem"], z, key, value)
            assert same(z, ref), key


# --- reductions ----------------------------------------------------------------------
REDUCTIONS = {
    "sum": lambda d: (np.dtype(d) if np.dtype(d).kind in "fc" else np.dtype("int64"),),
    "prod": lambda d: (np.dtype(d) if np.dtype(d).kind in "fc" else np.dtype("int64"),),
    "max": lambda d: (),
    "min": lambda d: (),
    "mean": lambda d: (),
    "std": lambda d: (1.0,),
    "var": lambda d: (0.0,),
    "argmax": lambda d: (),
    "argmin": lambda d: (),
    "all": lambda d: (),
    "any": lambda d: (),
    "count_nonzero": lambda d: (),
}


def _reduction_dtypes(name):
    if name in ("mean", "std", "var"):
        return ["float64", "float32", "complex128"]
    if name in ("all", "any", "count_nonzero"):
        return ["bool", "int32"]
    if name in ("max", "min", "argmax", "argmin"):
        return ["float64", "int16"]
    return ["float64", "float32", "complex64", "int32"]


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reductions_same_bits_on_any_thread_count(name):
    entry = OPS[name]
    for dtype in _reduction_dtypes(name):
        extra = REDUCTIONS[name](dtype)
        base = _values((37, 11), dtype)
        if name == "prod" and np.dtype(dtype).kind in "fc":
            base = np.where(np.isfinite(base), 1 + base / 100, base).astype(dtype)
        for layout, a in _layouts(base):
            axes = [None, 0, 1] if name.startswith("arg") else [None, 0, 1, (0, 1)]
            for axis in axes:
                for keepdims in (False, True):
                    results = [
                        run(n, _call_kernel, entry, a, axis, *extra, keepdims)
                        for n in COUNTS
                    ]
                    ref = _call_kernel(entry.__wrapped__, a, axis, *extra, keepdims)
                    where = (name, dtype, layout, axis, keepdims)
                    for r in results[1:]:
                        assert same(r, results[0]), where
                    if (
                        axis in (0, 1)
                        or name.startswith("arg")
                        or name in ("max", "min", "all", "any", "count_nonzero")
                        or np.dtype(dtype).kind in "iub"
                    ):
                        # split along a kept axis, or exact whatever the
                        # partition: NumPy's own bits
                        assert same_values(results[0], ref), where
                    else:
                        assert np.asarray(results[0]).shape == np.asarray(ref).shape
                        assert np.asarray(results[0]).dtype == np.asarray(ref).dtype
                        np.testing.assert_allclose(
                            results[0],
                            ref,
                            rtol=1e-5,
                            equal_nan=True,
                            err_msg=str(where),
                        )


def test_full_reductions_use_blocks():
    # a full reduction above the threshold reduces fixed blocks of CHUNK
    # elements with NumPy's pairwise sum and adds the block sums exactly:
    # the same bits on one and seven threads, whatever NumPy's own sum gives
    rng = np.random.default_rng(7)
    x = rng.standard_normal(10_000) * 1e3
    x[::7] = 1e-3
    chunk = _parallel.CHUNK
    blocks = [np.add.reduce(x[i : i + chunk]) for i in range(0, x.size, chunk)]
    expected = np.float64(math.fsum(blocks))
    for n in COUNTS:
        res = run(n, OPS["sum"], x, None, np.dtype(np.float64), False)
        assert same(res, expected), n


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
def test_full_sum_accuracy_at_least_numpy(dtype):
    # ill-conditioned sums (terms of many magnitudes and both signs): the
    # blocked sum (pairwise in each block, blocks summed exactly) errs less
    # than NumPy's pairwise sum on average, and stays within the bound of
    # NumPy's pairwise sum, (log2(n) + 16) u sum|x|
    ours, numpy_errors = [], []
    for seed in range(60):
        rng = np.random.default_rng(seed)
        n = int(rng.integers(2_000, 20_000))
        x = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 8, n)
        if dtype == "complex128":
            x = x + 1j * x[::-1]
        x = x.astype(dtype)
        res = run(2, OPS["sum"], x, None, x.dtype, False)
        theirs = np.sum(x)
        for part in ("real", "imag") if dtype == "complex128" else ("real",):
            xs = getattr(x, part).astype(np.float64)
            exact = math.fsum(xs.tolist())
            scale = math.fsum(np.abs(xs).tolist())
            ours.append(abs(float(getattr(res, part)) - exact) / scale)
            numpy_errors.append(abs(float(getattr(theirs, part)) - exact) / scale)
        u = float(np.finfo(dtype).eps) / 2
        assert ours[-1] <= (math.log2(n) + 16) * u, seed
    assert np.mean(ours) <= np.mean(numpy_errors)


def test_full_reduction_special_values():
    for values, expect in [
        ([np.inf, 1.0], np.inf),
        ([np.inf, -np.inf], np.nan),
        ([1e308, 1e308], np.inf),
        ([np.nan, 1.0], np.nan),
    ]:
        x = np.full(1000, 0.0)
        x[100] = values[0]
        x[900] = values[1]
        with np.errstate(all="ignore"):
            res = run(2, OPS["sum"], x, None, np.dtype(np.float64), False)
        np.testing.assert_equal(float(res), expect)
    x = np.arange(1000.0)
    x[[300, 700]] = np.nan
    assert run(2, OPS["argmax"], x, None, False) == 300
    assert run(2, OPS["argmin"], x, None, False) == 300
    x = np.zeros(1000)
    x[[10, 500, 999]] = 5.0
    assert run(7, OPS["argmax"], x, None, False) == 10


def test_big_integer_sums_wrap_as_numpy():
    x = np.full(5000, 2**62, dtype=np.int64)
    with np.errstate(all="ignore"):
        assert same(run(2, OPS["sum"], x, None, np.dtype(np.int64), False), np.sum(x))


# --- through the front end ---------------------------------------------------------------
def test_front_end_same_bits_on_1_2_7_threads():
    x = xp.asarray(_values((64, 33), "float64"))
    y = xp.asarray(_values((64, 33), "float64"))
    exprs = [
        lambda: xp.exp(x),
        lambda: x + y,
        lambda: x * 2.5,
        lambda: x / y,
        lambda: x**2,
        lambda: xp.where(x > 0, x, y),
        lambda: xp.astype(x, xp.float32),
        lambda: xp.clip(x, -1.0, 1.0),
        lambda: xp.concat([x, y]),
        lambda: xp.stack([x, y]),
        lambda: xp.sum(x),
        lambda: xp.sum(x, axis=0),
        lambda: xp.max(x),
        lambda: xp.mean(x),
        lambda: xp.std(x, correction=1),
        lambda: xp.argmax(x),
    ]
    for expr in exprs:
        results = []
        for n in COUNTS:
            with ocean_ext.threads(n), np.errstate(all="ignore"):
                results.append(np.asarray(expr()))
        assert all(same(r, results[0]) for r in results)
    for n in COUNTS:
        z = xp.asarray(_values((64, 33), "float64"))
        ref = np.asarray(z) + np.asarray(y)
        with ocean_ext.threads(n):
            z += y
        assert same(z, ref)
        w = xp.zeros((64, 33))
        with ocean_ext.threads(n):
            w[...] = y
        assert same(w, y)


def test_instrument_counts_one_call_per_operation():
    x = xp.asarray(_values((64, 16), "float64"))
    with ocean_ext.threads(2), ocean_ext.instrument() as stats:
        xp.exp(x)
        xp.sum(x)
        x + x
    assert stats["exp"].count == 1
    assert stats["sum"].count == 1
    assert stats["add"].count == 1


# --- floating-point errors ------------------------------------------------------------------
def test_floating_point_warning_once():
    x = np.zeros(500)
    for n in COUNTS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run(n, OPS["log"], x)
        assert [str(w.message) for w in caught] == ["divide by zero encountered in log"]
        assert caught[0].category is RuntimeWarning
        assert caught[0].filename == __file__  # the caller's, not ocean_cpu's
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            run(n, OPS["divide"], x, x)
        assert [str(w.message) for w in caught] == [
            "invalid value encountered in divide"
        ]


def test_floating_point_errstate_is_the_callers():
    x = np.zeros(500)
    with (
        np.errstate(divide="raise"),
        pytest.raises(FloatingPointError, match="divide by zero encountered in log"),
    ):
        run(2, OPS["log"], x)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        run(2, OPS["log"], x)
    seen = []
    with np.errstate(divide="call", call=lambda kind, flag: seen.append(kind)):
        run(2, OPS["log"], x)
    assert seen == ["divide by zero"]
    with (
        np.errstate(all="ignore", over="warn"),
        warnings.catch_warnings(record=True) as c,
    ):
        warnings.simplefilter("always")
        run(2, OPS["exp"], np.full(500, 1000.0))
        run(2, OPS["log"], x)
    assert [str(w.message) for w in c] == ["overflow encountered in exp"]


def test_errors_of_a_part_reach_the_caller():
    a = np.arange(-50, 50, dtype=np.int64)
    for n in COUNTS:
        with pytest.raises(ValueError, match="negative integer powers"):
            run(n, OPS["pow"], a, a)


# --- the thread count ----------------------------------------------------------------------
def test_threads_scope_nests_and_restores():
    default = _parallel.current_threads()
    with ocean_ext.threads(3) as count:
        assert count == 3
        assert _parallel.current_threads() == 3
        with ocean_ext.threads(1) as inner:
            assert inner == 1
        with ocean_ext.threads(None) as back:
            assert back == default
        assert _parallel.current_threads() == 3
    assert _parallel.current_threads() == default


def test_threads_arguments():
    with pytest.raises(ValueError, match=r"threads\(\): `n` must be at least 1, got 0"):
        ocean_ext.threads(0)
    with pytest.raises(TypeError, match=r"threads\(\): `n` must be an int or None"):
        ocean_ext.threads(2.0)
    with pytest.raises(TypeError, match="got bool"):
        ocean_ext.threads(True)
    with ocean_ext.threads(np.int64(2)) as count:
        assert count == 2


def test_other_threads_use_one_thread_unless_told():
    seen = {}

    def body():
        seen["default"] = _parallel.current_threads()
        with ocean_ext.threads(2):
            seen["told"] = _parallel.current_threads()

    with ocean_ext.threads(5):  # the scope of the main thread stays there
        t = threading.Thread(target=body)
        t.start()
        t.join()
    assert seen == {"default": 1, "told": 2}


def test_dask_tasks_use_one_thread():
    dask = pytest.importorskip("dask")
    task = dask.delayed(_parallel.current_threads)()
    assert dask.compute(task, scheduler="threads")[0] == 1


def test_concurrent_callers_share_the_pool():
    # two threads asking for the pool at once: one runs alone, both right
    x = _values((300, 20), "float64")
    ref = np.exp(x)
    errors = []

    def body():
        with _parallel.threads(4):
            for _ in range(20):
                if not same(OPS["exp"](x), ref):
                    errors.append("mismatch")

    ts = [threading.Thread(target=body) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


def test_environment_variable(monkeypatch):
    monkeypatch.setenv("OCEAN_NUM_THREADS", "3")
    try:
        assert _parallel._reload_default() == 3
        if threading.current_thread() is threading.main_thread():
            assert _parallel.current_threads() == 3
        monkeypatch.setenv("OCEAN_NUM_THREADS", "zero")
        with pytest.warns(RuntimeWarning, match="OCEAN_NUM_THREADS='zero'"):
            assert _parallel._reload_default() == _parallel.usable_cores()
    finally:
        monkeypatch.delenv("OCEAN_NUM_THREADS")
        _parallel._reload_default()


def test_cgroup_quota(tmp_path):
    root = tmp_path / "cgroup"
    (root / "a" / "b").mkdir(parents=True)
    proc = tmp_path / "proc_cgroup"
    proc.write_text("0::/a/b\n")
    (root / "cpu.max").write_text("max 100000\n")
    assert _parallel._cgroup_quota(str(root), str(proc)) is None
    (root / "a" / "cpu.max").write_text("150000 100000\n")
    assert _parallel._cgroup_quota(str(root), str(proc)) == 2
    (root / "a" / "b" / "cpu.max").write_text("50000 100000\n")
    assert _parallel._cgroup_quota(str(root), str(proc)) == 1
    assert 1 <= _parallel.usable_cores() <= (len(__import__("os").sched_getaffinity(0)))


# --- the entries themselves ------------------------------------------------------------------
def test_small_calls_go_straight_to_the_kernel():
    calls = []

    def strategy(func, *args, **kwargs):
        calls.append(args)
        return func(*args, **kwargs)

    for cls in {_parallel.ParallelPy, _parallel._Parallel}:
        entry = cls(np.add, strategy, _parallel.M_ALL, _parallel.COPY)
        small = np.ones(31)
        big = np.ones(32)
        assert same(entry(small, small), small + small)
        assert same(entry(small, 1.0), small + 1.0)
        assert calls == []
        entry(big, 1.0)
        entry(1.0, big)
        entry(small, small, out=np.empty(32)[:31])  # counts its own size: small
        assert len(calls) == 2
        entry(big[:1], 1.0, out=np.empty(32))  # `out` counts too
        assert len(calls) == 3
        calls.clear()
        seq = cls(np.concatenate, strategy, _parallel.M_SEQUENCE, _parallel.COPY)
        seq([np.ones(16), np.ones(15)])
        assert calls == []
        seq([np.ones(16), np.ones(16)])
        assert len(calls) == 1
        calls.clear()
        third = cls(lambda a, k, v: None, strategy, _parallel.M_THIRD, _parallel.COPY)
        third(np.ones(100), 0, np.ones(31))
        assert calls == []
        third(np.ones(1), 0, np.ones(32))
        assert len(calls) == 1
        calls.clear()


def test_entries_look_like_their_functions_and_pickle():
    where = OPS["where"]
    assert where.__qualname__ == "_where"
    assert where.__module__ == "ocean_cpu._backend"
    assert OPS["add"].__name__ == "add"
    assert OPS["add"].__wrapped__ is np.add
    for name in ("add", "where", "sum"):
        again = pickle.loads(pickle.dumps(OPS[name]))
        assert again.__wrapped__ is OPS[name].__wrapped__
        assert again.quick == OPS[name].quick  # the quick path too (None for add)
        assert tuple(again.layout) == tuple(OPS[name].layout)
        x = np.arange(100.0)
        args = {"add": (x, x), "where": (x > 3, x, x), "sum": (x, None, x.dtype, False)}
        assert same(again(*args[name]), OPS[name](*args[name]))


def test_python_twin_gives_the_same_results(monkeypatch):
    # the table built with the pure Python wrapper: same results
    monkeypatch.setattr(_parallel, "_Parallel", _parallel.ParallelPy)
    ops = dict(cpu.ops)
    for name in list(ops):
        ops[name] = _parallel.unwrap(ops[name])
    _parallel.wrap(ops, tuple(_common.ELEMENTWISE), _common.ELEMENTWISE)
    assert isinstance(ops["exp"], _parallel.ParallelPy)
    x = _values((50, 3), "float64")
    for n in COUNTS:
        with np.errstate(all="ignore"):
            assert same_values(run(n, ops["exp"], x), np.exp(x))
            assert same(
                run(n, ops["sum"], x, None, x.dtype, False),
                run(n, OPS["sum"], x, None, x.dtype, False),
            )
            assert same(run(n, ops["where"], x > 0, x, 1.0), np.where(x > 0, x, 1.0))


def test_large_calls_of_the_fast_path_reach_the_strategies(monkeypatch):
    # the compiled fast path replaces the CPU entries of where, astype, concat
    # and pow by NumPy's C calls below the threshold only
    calls = []
    real = _parallel.current_threads

    def counting():
        calls.append(1)
        return real()

    monkeypatch.setattr(_parallel, "current_threads", counting)
    x = xp.asarray(_values(100, "float64"))
    c = x > 0
    exprs = [
        lambda: xp.where(c, x, x),
        lambda: xp.where(c, x, 0.5),
        lambda: xp.astype(x, xp.float32),
        lambda: xp.concat([x, x]),
        lambda: xp.concat([x, x], axis=0),
        lambda: x**2,
        lambda: x**3,
        lambda: xp.exp(x),
    ]
    for expr in exprs:
        calls.clear()
        with np.errstate(all="ignore"):
            expr()
        assert calls, expr
    with _parallel.limits(copy=1000, math=1000):
        for expr in exprs:
            calls.clear()
            with np.errstate(all="ignore"):
                expr()
            assert not calls


def test_ext_reductions_same_bits_on_any_thread_count():
    import ocean_cpu._halfprec as hp

    if not hp.AVAILABLE:
        pytest.skip(hp.UNAVAILABLE)
    f16 = _values((40, 7), "float32").astype(np.float16)
    f16 = np.where(np.isfinite(f16), f16, np.float16(1))
    c32 = hp._to_complex32(f16.astype(np.complex64) + 1j * f16[::-1])
    for name, x in [("sum.float16", f16), ("sum.complex32", c32),
                    ("prod.float16", f16 / 8 + 1), ("prod.complex32", c32)]:  # fmt: skip
        entry = OPS[name]
        for layout, a in [("C", x), ("F", np.asfortranarray(x)), ("T", x.T)]:
            for axis in (None, 0, 1):
                results = [run(n, _call_kernel, entry, a, axis, False) for n in COUNTS]
                assert all(same(r, results[0]) for r in results), (name, layout, axis)
                ref = _call_kernel(entry.__wrapped__, a, axis, False)
                if axis is None:
                    np.testing.assert_allclose(results[0], ref, rtol=1e-6)
                else:
                    assert same_values(results[0], ref), (name, layout, axis)
    x = xp.asarray(f16.reshape(-1), dtype=ocean_ext.float16)
    with ocean_ext.threads(2):
        two = xp.sum(x)
    with ocean_ext.threads(1):
        one = xp.sum(x)
    assert same(
        np.asarray(xp.astype(one, xp.float32)), np.asarray(xp.astype(two, xp.float32))
    )


@pytest.mark.parametrize(
    "name", ["sum", "prod", "mean", "std", "max", "argmax", "argmin"]
)
def test_reductions_along_an_axis_are_laid_out_as_numpy(name):
    # The result's layout decides the bits of a later reduction over it
    # (NumPy sums a contiguous axis pairwise): a result made in parts is laid
    # out as NumPy's one call lays it out (its kept axes in the input's memory
    # order), so that xp.std(xp.mean(x, axis=-1), axis=-1) gives NumPy's bits
    # whether or not the mean was split.
    entry = OPS[name]
    extra = REDUCTIONS[name]("float64")
    base = _values((6, 7, 9), "float64")
    cases = [
        ("C", base),
        ("transposed", base.transpose(1, 2, 0)),
        ("moved", np.moveaxis(base, 0, -1)),
        ("F", np.asfortranarray(base)),
        ("strided", np.concatenate([base, base], axis=1)[:, ::2]),
    ]
    for layout, a in cases:
        for axis in (0, 1, 2):
            for keepdims in (False, True):
                ref = _call_kernel(entry.__wrapped__, a, axis, *extra, keepdims)
                for n in COUNTS:
                    res = run(n, _call_kernel, entry, a, axis, *extra, keepdims)
                    where = (name, layout, axis, keepdims, n)
                    assert same_values(res, ref), where
                    if not keepdims:  # (the strides of a length-1 axis are free)
                        assert res.strides == ref.strides, where


def test_a_reduction_of_a_split_result_has_numpy_bits():
    # scipy.stats.bootstrap: the standard error of a bootstrap distribution
    # made in one batch or in ten must agree bit for bit, as with NumPy.
    a = _values((11, 12, 10, 100), "float64").transpose(0, 1, 3, 2)
    for n in COUNTS:
        m = run(n, OPS["mean"], a, (3,), False)
        s = run(n, OPS["std"], m, (2,), 1.0, False)
        ref = np.std(np.mean(a, axis=3), axis=2, ddof=1)
        assert same_values(s, ref), n


def test_where_over_dtypes_byte_orders_and_broadcasting():
    # each piece is the entry's own selection copied into the result: the
    # bits, dtype and layout of NumPy's where on every thread count, for
    # mixed and byte-swapped operands, NaN payloads, and operands broadcast
    # along the cut axis or the other one
    rng = np.random.default_rng(11)
    c = rng.random((37, 8)) < 0.5
    a64 = _values((37, 8), "float64")
    a64[::5, ::3] = np.frombuffer(
        np.uint64(0xFFF8_0000_0000_1234).tobytes(), np.float64
    )[0]
    cases = [
        (c, a64, _values((37, 8), "float32")),
        (c, a64.astype(">f8"), _values((37, 8), ">f8")),
        (c, a64[:1], _values((37, 8), "float64")),  # x1 broadcast along the cut
        (c[:, :1], a64, _values((1, 8), "float64")),
        (c, 2, _values((37, 8), "int16")),
        (c, _values((37, 8), "complex64"), 0.25),
    ]
    for cond, x1, x2 in cases:
        ref = np.where(cond, x1, x2)
        for n in COUNTS:
            res = run(n, OPS["where"], cond, x1, x2)
            assert same(res, ref), (
                n,
                getattr(x1, "dtype", x1),
                getattr(x2, "dtype", x2),
            )


def test_binary_operands_in_one_memory_order_give_it_to_the_result():
    a = _values((23, 9, 5), "float64").transpose(2, 0, 1)
    b = _values((23, 9, 5), "float64").transpose(2, 0, 1)
    mask = np.ascontiguousarray(a.transpose(1, 2, 0) > 0).transpose(2, 0, 1)
    for n in COUNTS:
        res = run(n, _call_kernel, OPS["add"], a, b)
        assert res.strides == np.add(a, b).strides, n
        assert same_values(res, np.add(a, b)), n
        res = run(n, OPS["where"], mask, a, b)
        assert res.strides == np.where(mask, a, b).strides, n


# --- the quick path: small calls straight to the NumPy C function ---------------------------
_QUICK_DTYPES = ("bool", "int8", "uint16", "int64", "float16", "float32", "float64",
                 "complex64", "complex128", ">f8", "<i4")  # fmt: skip


def _quick_calls(rng, name, a):
    """The table's calls of ``name`` on ``a``: every axis form, keepdims, dtype."""
    if name == "where":
        yield (a != 0, a, a[..., :1] if a.ndim else a)
        yield (a != 0, a, 1.5)
        yield (a > 0, 0, a)
        return
    if name == "astype":
        for dt in ("float32", "int16", "complex128", "bool", a.dtype):
            yield (a, np.dtype(dt), bool(rng.random() < 0.5))
        return
    axes = [None, *range(-a.ndim, a.ndim)]
    if a.ndim >= 2:
        axes += [(0, a.ndim - 1), tuple(range(a.ndim))]
    for axis in axes:
        for keepdims in (False, True):
            if name in ("sum", "prod"):
                for dt in (None, a.dtype, np.dtype("float64"), np.dtype("complex128")):
                    if a.dtype.kind == "c" and dt is not None and dt.kind != "c":
                        continue
                    yield (a, axis, dt, keepdims)
            elif name in ("argmax", "argmin"):
                if axis is None or isinstance(axis, int):
                    yield (a, axis, keepdims)
            else:
                yield (a, axis, keepdims)


def _same_result(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return False
    return same(a, b) and type(a) is type(b)


@pytest.mark.parametrize("wrapper", ["compiled", "python"])
def test_quick_calls_give_the_entries_results(wrapper):
    # The C function named as an entry's quick path must give what the entry's
    # own Python function gives, value, dtype, shape and type, for every call
    # the front end makes (and for the ones it does not: an empty or 0-d array,
    # a byte-swapped one, a non-contiguous one, a NumPy subclass).
    from ocean_cpu import _backend as cpu_backend

    cls = _parallel.ParallelPy if wrapper == "python" else _parallel._Parallel
    rng = np.random.default_rng(7)
    shapes = [(), (0,), (1,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)]
    checked = 0
    for name, quick in cpu_backend._QUICK.items():
        func = _parallel.unwrap(OPS[name])
        entry = cls(func, OPS[name].strategy, OPS[name].mode, OPS[name].limit, *quick)
        for dtype in _QUICK_DTYPES:
            dt = np.dtype(dtype)
            if name in ("max", "min", "argmax", "argmin") and dt.kind == "c":
                continue
            for shape in shapes:
                a = np.asarray(rng.standard_normal(shape) * 3).astype(dt)
                if a.ndim >= 2 and rng.random() < 0.5:
                    a = a[..., ::-1]  # not contiguous
                for args in _quick_calls(rng, name, a):
                    with np.errstate(all="ignore"), warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        try:
                            want = func(*args)
                        except (ValueError, TypeError) as e:  # refused by the front end
                            with pytest.raises(type(e)):
                                entry(*args)
                            continue
                        got = entry(*args)
                    assert _same_result(got, want), (name, dtype, shape, args[1:])
                    checked += 1
    assert checked > 1000


def test_quick_path_is_taken_only_for_plain_calls():
    calls = []

    def func(x, axis, keepdims, *extra):
        calls.append("func")
        return np.add.reduce(x, axis=axis, keepdims=keepdims)

    def quick(*args, **kwargs):
        calls.append("quick")
        return np.add.reduce(*args, **kwargs)

    def strategy(f, *args, **kwargs):
        calls.append("strategy")
        return f(*args, **kwargs)

    for cls in {_parallel.ParallelPy, _parallel._Parallel}:
        entry = cls(func, strategy, _parallel.M_FIRST, _parallel.COPY, quick,
                    (0, 1, -1, -1), (("keepdims", 2),))  # fmt: skip
        x = np.arange(6.0)
        calls.clear()
        assert same(entry(x, None, False), np.add.reduce(x))
        assert calls == ["quick"]
        for args, kwargs in [
            ((x[:0], None, False), {}),  # empty: the entry's own function
            ((np.ma.masked_array(x), None, False), {}),  # a subclass
            ((x, None), {"keepdims": False}),  # a keyword
            ((x, None, False, "extra"), {}),  # not the layout's arguments
        ]:
            calls.clear()
            entry(*args, **kwargs)
            assert calls == ["func"], (args, kwargs)
        calls.clear()
        entry(np.arange(32.0), None, False)  # at the threshold: the strategy
        assert calls == ["strategy", "func"]
        assert entry.quick is quick
        assert tuple(entry.layout) == (0, 1, -1, -1)
        assert tuple(entry.keywords) == (("keepdims", 2),)
        with pytest.raises(ValueError):
            cls(func, strategy, 1, 0, quick, ())
        with pytest.raises(ValueError):
            cls(func, strategy, 1, 0, quick, (0, 9))


@pytest.mark.parametrize(
    ("layout", "keywords", "error"),
    [
        ((), (), ValueError),  # no argument
        ((0, 9), (), ValueError),  # past the eighth argument
        ((0, -2), (), ValueError),
        ((0, 2**100), (), ValueError),  # too large for a C long: no SystemError
        ((0, -(2**100)), (), ValueError),
        ((0, 1.0), (), ValueError),  # not an integer
        ((0,), (("k", -1),), ValueError),  # a keyword cannot be None
        ((0,), (("k", 1), ("k", 2)), ValueError),  # a keyword named twice
        ((0,) * 8, (("k", 1),), ValueError),  # nine arguments
        ([0, 1], (), TypeError),  # not a tuple
        ((0,), [("k", 1)], TypeError),
        ((0,), (("k",),), TypeError),  # not a pair
        ((0,), ((1, 1),), TypeError),  # a name that is not a str
    ],
)
def test_quick_layouts_refused_alike(layout, keywords, error):
    # the compiled wrapper and its Python twin refuse the same layouts with
    # the same exceptions, at construction
    def f(*args, **kwargs):
        return None

    for cls in {_parallel.ParallelPy, _parallel._Parallel}:
        with pytest.raises(error):
            cls(f, f, _parallel.M_FIRST, _parallel.COPY, f, layout, keywords)
    for cls in {_parallel.ParallelPy, _parallel._Parallel}:
        with pytest.raises(TypeError):  # quick not callable
            cls(f, f, _parallel.M_FIRST, _parallel.COPY, 3, (0,), ())

        class Layout(tuple):
            pass

        # a tuple subclass is a tuple to both
        cls(f, f, _parallel.M_FIRST, _parallel.COPY, f, Layout((0, 1)), Layout())
        plain = cls(f, f, _parallel.M_FIRST, _parallel.COPY)
        assert plain.quick is None
        assert tuple(plain.layout) == ()
        assert tuple(plain.keywords) == ()


# --- interrupts (KeyboardInterrupt, a signal handler's exception) --------------------
# An interrupt reaches the main thread between two bytecodes.  These tests
# raise it at the exact points where one used to hang the caller, leave
# workers writing after the caller had it, or leave NumPy's error state
# changed; the hang cases run in a subprocess with a time limit.
def _in_subprocess(code: str, timeout: float = 60) -> str:
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(xp.__file__))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [root, os.path.join(root, "backends"), env.get("PYTHONPATH", "")]
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


# Parts that log when they start and end; a worker's part waits a little (so
# that the caller waits for it), the caller's first part waits until a
# worker has started one (so that there is something to wait for).
_PARTS = """
import threading, time
from ocean_cpu import _parallel
main = threading.get_ident()
log = []
started = threading.Event()
def fn(i):
    log.append(("start", i))
    if threading.get_ident() == main:
        started.wait(10)
    else:
        started.set()
        time.sleep(0.05)
    log.append(("end", i))
def quiet_after_raise(raised):
    n = len(log)
    time.sleep(0.3)
    assert len(log) == n, "a worker ran a part after run() raised"
    starts = [i for what, i in log if what == "start"]
    ends = [i for what, i in log if what == "end"]
    assert sorted(starts) == sorted(ends), log
    assert isinstance(raised, KeyboardInterrupt), raised
"""


def test_an_interrupt_just_after_the_wait_succeeded_does_not_hang():
    # the interrupt lands once the caller has been woken (its token taken):
    # the caller must not wait for a wake-up that already came
    code = (
        _PARTS
        + """
class Idle:
    def __init__(self, q):
        self.q = q
        self.put = q.put
    def get(self):
        self.q.get()
        raise KeyboardInterrupt
class Job(_parallel._Job):
    __slots__ = ()
    def __init__(self, fn, n):
        super().__init__(fn, n)
        self.idle = Idle(self.idle)
_parallel._Job = Job
try:
    _parallel._Pool().run(fn, 12, 2)
    raised = None
except BaseException as exc:
    raised = exc
quiet_after_raise(raised)
print("ok")
"""
    )
    assert _in_subprocess(code).strip() == "ok"


@pytest.mark.parametrize("where", ["after_put", "in_part"])
def test_after_an_interrupt_no_worker_touches_the_operands(where):
    # the interrupt lands after the job went to the workers, before the
    # caller took an item, or in the caller's own part: run() raises it
    # only once the parts the workers started are over, and skips the rest
    code = (
        _PARTS
        + f"""
class Job(_parallel._Job):
    __slots__ = ()
    def work(self):  # (the old pool's workers ran work() too)
        if {where!r} == "after_put" and threading.get_ident() == main:
            started.wait(10)
            raise KeyboardInterrupt
        return super().work()
def fn2(i):
    fn(i)
    if threading.get_ident() == main:
        raise KeyboardInterrupt
_parallel._Job = Job
try:
    _parallel._Pool().run(fn2, 40, 2)
    raised = None
except BaseException as exc:
    raised = exc
quiet_after_raise(raised)
assert len([1 for what, _ in log if what == "start"]) < 40, "nothing was skipped"
print("ok")
"""
    )
    assert _in_subprocess(code).strip() == "ok"


def test_a_pool_stays_usable_after_an_interrupt():
    pool = _parallel._Pool()

    def interrupted(i):
        if threading.current_thread() is threading.main_thread():
            raise KeyboardInterrupt

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("needs the main thread")
    with pytest.raises(KeyboardInterrupt):
        pool.run(interrupted, 16, 3)
    seen = []
    pool.run(seen.append, 16, 3)
    assert sorted(seen) == list(range(16))


def test_an_interrupt_never_leaves_numpys_error_state_changed(monkeypatch):
    # the interrupt lands while the parts run with the collecting handler
    class Interrupted:
        def run(self, fn, n, nthreads):
            assert np.geterr()["divide"] == "call"  # the parts' own state
            raise KeyboardInterrupt

    monkeypatch.setattr(_parallel, "_pool", Interrupted())
    handler = object.__new__(_parallel._Collect)  # any callable marks ours
    with np.errstate(all="raise"):
        policy, call = np.geterr(), np.geterrcall()
        with pytest.raises(KeyboardInterrupt):
            run(2, OPS["log"], np.zeros(500))
        assert np.geterr() == policy
        assert np.geterrcall() is call
        assert np.geterrcall() is not handler
        with pytest.raises(FloatingPointError, match="divide by zero"):
            np.log(np.zeros(3))


# --- reductions whose blocks would change the value -----------------------------------
@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
def test_a_floating_product_is_numpys(dtype):
    # a block's own product underflows (or overflows) where the whole
    # product is representable: one NumPy call over every element
    big, small = (1e200, 1e-200) if dtype != "float32" else (1e30, 1e-30)
    a = np.ones(64 * 8, dtype)
    a[0] = big
    a[64] = a[65] = small
    for n in COUNTS:
        assert same(run(n, OPS["prod"], a, None, None, False), np.prod(a))
    b = a[::-1].copy()
    b[64 * 3] = b[64 * 3 + 1] = big
    for n in COUNTS:
        assert same(run(n, OPS["prod"], b, None, None, False), np.prod(b))


def test_an_integer_product_wraps_as_numpys():
    a = np.arange(1, 64 * 8 + 1, dtype=np.int64)
    for n in COUNTS:
        assert same(run(n, OPS["prod"], a, None, None, False), np.prod(a))


def test_a_float16_product_is_one_call():
    func = _parallel.unwrap(OPS["prod.float16"])
    a = np.ones(64 * 8, np.float16)
    a[:64] = 60000.0  # a block's float64 product overflows
    a[64:200] = np.float16(2.0**-14)
    want = func(a, None, False)
    for n in COUNTS:
        assert same(run(n, OPS["prod.float16"], a, None, False), want)


# --- floating-point error messages of large reductions --------------------------------
@pytest.mark.parametrize(
    ("name", "values", "extra"),
    [
        ("sum", np.full(640, 3e38 / 320, np.float32), (None, None, False)),
        ("mean", np.full(640, 3e38, np.float32), (None, False)),
        ("var", np.resize(np.array([1e200, -1e200]), 640), (None, 0, False)),
        ("std", np.resize(np.array([1e200, -1e200]), 640), (None, 0, False)),
    ],
)
def test_errors_of_large_reductions_say_what_numpys_say(name, values, extra):
    func = _parallel.unwrap(OPS[name])
    with np.errstate(all="raise"):
        with pytest.raises(FloatingPointError) as want:
            func(values, *extra)
        for n in COUNTS:
            with pytest.raises(FloatingPointError) as got:
                run(n, OPS[name], values, *extra)
            assert str(got.value) == str(want.value)
