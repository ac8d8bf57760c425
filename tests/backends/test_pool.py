"""The pool of large result blocks (``ocean_cpu._pool``).

What must hold: a block is never handed out while any array (the result
or a view of it) still uses it; a block freed by its last array is handed
out again; the pool keeps no more than its limit; ``OCEAN_CPU_POOL_BYTES``
sets that limit and ``0`` turns the pool off.  The size floor is lowered here
so that small arrays go through the pool.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ocean_array_api as xp
from ocean_array_api import _backend

_backend.get_backend("cpu")
from ocean_cpu import _parallel, _pool  # noqa: E402 (after the backend loads)


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(_pool, "MIN_BYTES", 64)
    monkeypatch.setattr(_pool, "_limit", 1 << 20)
    _pool.clear()
    yield
    _pool.clear()


def address(a: np.ndarray) -> int:
    return int(a.__array_interface__["data"][0])


def test_a_block_in_use_by_a_view_is_not_handed_out():
    a = _pool.empty((100,), np.float64)
    a[:] = np.arange(100.0)
    v = a[::3]
    del a
    gc.collect()
    assert _pool.held() == 0  # the view still uses the block
    b = _pool.empty((100,), np.float64)
    b[:] = -1.0
    assert not np.shares_memory(v, b)
    np.testing.assert_array_equal(v, np.arange(100.0)[::3])


def test_a_freed_block_is_handed_out_again():
    a = _pool.empty((10, 10), np.float64)
    where = address(a)
    del a
    assert _pool.held() == 800
    b = _pool.empty((100,), np.int64)  # same byte size, another shape and dtype
    assert address(b) == where
    assert _pool.held() == 0
    assert b.shape == (100,)
    assert b.dtype == np.int64
    assert b.flags.writeable


def test_fortran_order_and_layouts():
    f = np.asfortranarray(np.ones((20, 30)))
    r = _pool.empty_like(f, np.float32)
    assert r.flags.f_contiguous
    assert r.dtype == np.float32
    assert r.shape == (20, 30)
    c = _pool.empty_like(np.ones((20, 30)), np.float64)
    assert c.flags.c_contiguous
    s = _pool.empty_like(np.ones((20, 30))[:, ::2], np.float64)  # neither
    assert s.shape == (20, 15)


def test_the_limit_bounds_what_is_kept(monkeypatch):
    monkeypatch.setattr(_pool, "_limit", 2000)
    blocks = [_pool.empty((100,), np.float64) for _ in range(4)]  # 800 bytes each
    del blocks
    assert _pool.held() == 1600  # two kept, two freed
    _pool.clear()
    assert _pool.held() == 0


def test_off_and_small_and_object_arrays_bypass_the_pool(monkeypatch):
    monkeypatch.setattr(_pool, "_limit", 0)
    assert _pool.empty((100,), np.float64).base is None
    monkeypatch.setattr(_pool, "_limit", 1 << 20)
    assert _pool.empty((4,), np.float64).base is None  # below MIN_BYTES
    assert _pool.empty((100,), object).base is None


@pytest.mark.parametrize(("env", "want"), [("0", 0), ("123456", 123456), ("junk", 0)])
def test_the_environment_sets_the_limit(env, want):
    code = "from ocean_cpu import _pool; print(_pool.limit())"
    backends = os.path.join(os.path.dirname(os.path.dirname(xp.__file__)), "backends")
    env_vars = dict(os.environ, OCEAN_CPU_POOL_BYTES=env)
    env_vars["PYTHONPATH"] = os.pathsep.join([backends, env_vars.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-c", code],
        env=env_vars,
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(out.stdout) == want


@settings(max_examples=60, deadline=None)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["mul", "add", "exp", "astype", "where", "copy"]),
            st.sampled_from(["keep", "view", "drop"]),
        ),
        min_size=1,
        max_size=25,
    )
)
def test_results_through_the_pool_keep_their_values(steps):
    # the parallel strategies on small arrays (lowered thresholds), every
    # result from the pool; some results and views are kept, some dropped,
    # and every kept one must still hold its own values at the end
    rng = np.random.default_rng(len(steps))
    base = rng.standard_normal(200)
    x = xp.asarray(base)
    kept: list[tuple[object, np.ndarray]] = []
    with _parallel.limits(copy=32, math=32, reduce=32):
        for i, (op, fate) in enumerate(steps):
            if op == "mul":
                r, want = x * float(i), base * float(i)
            elif op == "add":
                r, want = x + x, base + base
            elif op == "exp":
                r, want = xp.exp(x), np.exp(base)
            elif op == "astype":
                r, want = xp.astype(x, xp.float32), base.astype(np.float32)
            elif op == "where":
                r = xp.where(x > 0, x, -x)
                want = np.where(base > 0, base, -base)
            else:
                r, want = xp.asarray(x, copy=True), base.copy()
            if fate == "keep":
                kept.append((r, want))
            elif fate == "view":
                kept.append((r[1::3], want[1::3]))
            del r
    for r, want in kept:
        np.testing.assert_array_equal(np.asarray(r), want)


def test_large_results_of_the_parallel_strategies_come_from_the_pool():
    x = xp.asarray(np.arange(200.0))
    with _parallel.limits(copy=32, math=32, reduce=32):
        r = x * 2.0
        data = np.asarray(r)
        while isinstance(data.base, np.ndarray):
            data = data.base
        assert isinstance(data.base, memoryview)
        where = address(np.asarray(r))
        del r, data
        assert _pool.held() == 1600
        r2 = x + 1.0  # the freed block again
        assert address(np.asarray(r2)) == where
        np.testing.assert_array_equal(np.asarray(r2), np.arange(200.0) + 1.0)


def test_a_forked_child_takes_blocks_though_the_lock_was_held():
    # another thread of the parent holds the pool's lock at the fork: the
    # child has a new lock and no free blocks, and its first large result
    # does not wait for a thread it does not have
    if not hasattr(os, "fork"):
        pytest.skip("no fork")
    code = """
import os, threading
import numpy as np
from ocean_cpu import _pool
_pool.empty((1 << 20,), np.float64)  # a block goes back to the pool
held, release = threading.Event(), threading.Event()
def holder():
    with _pool._lock:
        held.set()
        release.wait()
threading.Thread(target=holder, daemon=True).start()
held.wait()
pid = os.fork()
if pid == 0:
    import faulthandler
    faulthandler.dump_traceback_later(20, exit=True)  # a hang: exit 1
    ok = _pool.held() == 0
    _pool.empty((1 << 20,), np.float64)
    os._exit(0 if ok else 3)
release.set()
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""
    backends = os.path.join(os.path.dirname(os.path.dirname(xp.__file__)), "backends")
    env_vars = dict(os.environ)
    env_vars["PYTHONPATH"] = os.pathsep.join([backends, env_vars.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-W", "ignore::DeprecationWarning", "-c", code],
        env=env_vars,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert out.stdout.strip() == "0"
