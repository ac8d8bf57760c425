"""Devices: value semantics, mixing errors, transfers, the scoped default device."""

from __future__ import annotations

import asyncio
import copy
import pickle
import threading

import numpy as np
import pytest

import ocean_array_api as xp

from .conftest import REAL_GPUS
from .helpers import CPU0, CPU1, LAZY_DEFAULT, assert_matches, run_python

# CPU unless OCEAN_ARRAY_API_DEFAULT_DEVICE says otherwise (the dask run)
DEFAULT = xp.__array_namespace_info__().default_device()

Device = type(CPU0)


# --- Device values ------------------------------------------------------------------


def test_devices_listed_by_inspection():
    devs = xp.__array_namespace_info__().devices()
    assert CPU0 in devs
    assert CPU1 in devs
    assert len(set(devs)) == len(devs)
    assert DEFAULT in devs
    if not LAZY_DEFAULT:  # the CPU default comes first
        assert devs[0] == DEFAULT


def test_device_value_semantics():
    assert Device("cpu", 0) == CPU0
    assert Device("cpu") == CPU0
    assert Device("cpu", 1) == CPU1
    assert CPU0 != CPU1
    assert hash(Device("cpu", 1)) == hash(CPU1)
    assert {CPU0: "a", CPU1: "b"}[Device("cpu", 1)] == "b"
    assert CPU1.kind == "cpu"
    assert CPU1.index == 1
    assert repr(CPU1) == "Device('cpu', 1)"
    assert str(CPU1) == "cpu:1"


def test_device_is_never_equal_to_foreign_objects():
    for other in ("cpu", "cpu:0", 0, None, ("cpu", 0)):
        assert other != CPU0
        assert other != CPU0


def test_device_pickle_and_copy():
    for d in (CPU0, CPU1):
        assert pickle.loads(pickle.dumps(d)) == d
        assert copy.copy(d) == d
        assert copy.deepcopy(d) == d


def test_device_is_immutable():
    with pytest.raises(AttributeError):
        CPU0._index = 1
    with pytest.raises(AttributeError):
        CPU0.kind = "cuda"
    assert CPU0.index == 0


@pytest.mark.parametrize(
    ("args", "exc"),
    [
        (("cpu", 5), ValueError),
        (("no_such_kind", 0), ValueError),
        (("cpu", -1), ValueError),  # an int of the wrong value
        (("cpu", 1.0), TypeError),  # interned (kind, 1) must not match 1.0
        (("cpu", True), TypeError),
        ((1, 0), TypeError),
    ],
)
def test_bad_devices(args, exc):
    with pytest.raises(exc):
        Device(*args)


@pytest.mark.skipif(REAL_GPUS > 0, reason="a real GPU is present: cuda:0 exists")
def test_cuda_device_absent_without_gpu():
    # In a fresh interpreter: this one has the simulated GPUs that
    # tests/conftest.py registers when there is no real one (asking this
    # process skipped the test in every full run).
    code = """
import ocean_array_api as xp
devs = xp.__array_namespace_info__().devices()
assert not any(d.kind == "cuda" for d in devs), devs
try:
    xp.zeros(2, device="cuda:0")
except ValueError as exc:
    print("ValueError:", exc)
"""
    proc = run_python(code)
    assert proc.stdout.startswith("ValueError: "), proc.stdout
    assert "cuda" in proc.stdout


@pytest.mark.cuda
def test_cuda_device_round_trip():
    cuda = next(d for d in xp.__array_namespace_info__().devices() if d.kind == "cuda")
    a = np.arange(6.0).reshape(2, 3)
    x = xp.asarray(a, device=cuda)
    assert x.device == cuda
    assert_matches(x + 1, a + 1, device=cuda)
    assert_matches(x.to_device(CPU0), a, device=CPU0)


# --- mixing devices is an error naming the function --------------------------------------


def _mixers(a, b, ai, bi, ab, bb):
    """(function name, callable) pairs that combine arrays on two devices."""
    return [
        ("add", lambda: xp.add(a, b)),
        (
            "matmul",
            lambda: xp.matmul(xp.ones((2, 2)), xp.ones((2, 2), device=b.device)),
        ),
        (
            "tensordot",
            lambda: xp.tensordot(xp.ones((2, 2)), xp.ones((2, 2), device=b.device)),
        ),
        ("vecdot", lambda: xp.vecdot(a, b)),
        ("concat", lambda: xp.concat([a, b])),
        ("stack", lambda: xp.stack([a, b])),
        ("where", lambda: xp.where(ab, a, b)),
        ("where", lambda: xp.where(bb, a, a)),
        ("clip", lambda: xp.clip(a, b)),
        ("meshgrid", lambda: xp.meshgrid(a, b)),
        ("searchsorted", lambda: xp.searchsorted(a, b)),
        ("take", lambda: xp.take(a, bi)),
        ("take_along_axis", lambda: xp.take_along_axis(a, bi, axis=0)),
        ("isin", lambda: xp.isin(ai, bi)),
        ("broadcast_arrays", lambda: xp.broadcast_arrays(a, b)),
        ("cross", lambda: xp.linalg.cross(xp.ones(3), xp.ones(3, device=b.device))),
        ("solve", lambda: xp.linalg.solve(xp.eye(2), xp.ones(2, device=b.device))),
        ("outer", lambda: xp.linalg.outer(a, b)),
        ("diff", lambda: xp.diff(a, prepend=b)),
        ("__setitem__", lambda: a.__setitem__(slice(None), b)),
        ("__getitem__", lambda: a[bi]),
    ]


def _mixing_cases():
    a = xp.ones(3)
    b = xp.ones(3, device=CPU1)
    ai = xp.asarray([0, 1, 2])
    bi = xp.asarray([0, 1, 2], device=CPU1)
    ab = xp.ones(3, dtype=xp.bool)
    bb = xp.ones(3, dtype=xp.bool, device=CPU1)
    return _mixers(a, b, ai, bi, ab, bb)


@pytest.mark.parametrize(
    ("name", "call"), _mixing_cases(), ids=[n for n, _ in _mixing_cases()]
)
def test_mixing_devices_is_value_error_naming_function(name, call):
    with pytest.raises(ValueError, match=name.strip("_")):
        call()


def test_same_device_other_than_default_works():
    a = xp.asarray([3.0, 1.0, 2.0], device=CPU1)
    for res in (
        a + a,
        xp.sort(a),
        xp.concat([a, a]),
        xp.sum(a),
        xp.matmul(a, a),
        xp.where(a > 1, a, 0.0),
    ):
        assert res.device == CPU1


# --- to_device -------------------------------------------------------------------------


def test_to_device_every_pair(device):
    for src in xp.__array_namespace_info__().devices():
        a = np.arange(5, dtype=np.int16)
        x = xp.asarray(a, device=src)
        y = x.to_device(device)
        assert_matches(y, a, device=device)


def test_to_device_same_device_keeps_values():
    x = xp.asarray([1, 2])
    y = x.to_device(x.device)
    assert y.device == x.device
    assert_matches(y, np.array([1, 2]))


# --- the scoped default device --------------------------------------------------------------


def test_with_device_sets_default():
    info = xp.__array_namespace_info__()
    assert info.default_device() == DEFAULT
    with CPU1 as d:
        assert d == CPU1
        assert info.default_device() == CPU1
        assert xp.zeros(1).device == CPU1
        with CPU0:
            assert xp.ones(1).device == CPU0
        assert xp.ones(1).device == CPU1
    assert info.default_device() == DEFAULT
    assert xp.zeros(1).device == DEFAULT


def test_with_device_restores_after_exception():
    with pytest.raises(RuntimeError), CPU1:
        raise RuntimeError("boom")
    assert xp.zeros(1).device == DEFAULT


def test_default_device_scope_is_per_thread():
    # Four workers and the main thread meet at a barrier while each holds its
    # own scope (or none), then each checks what it sees, many times.
    barrier = threading.Barrier(5)
    results: dict[str, list[object]] = {}
    errors: list[BaseException] = []

    def observe(seen):
        for _ in range(50):
            seen.append(xp.zeros(1).device)
            seen.append(xp.__array_namespace_info__().default_device())

    def work(name, dev):
        seen: list[object] = []
        try:
            if dev is None:
                barrier.wait(timeout=30)
                observe(seen)
            else:
                with dev:
                    barrier.wait(timeout=30)
                    observe(seen)
            results[name] = seen
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [
        threading.Thread(target=work, args=("cpu1-a", CPU1)),
        threading.Thread(target=work, args=("cpu1-b", CPU1)),
        threading.Thread(target=work, args=("cpu0", CPU0)),
        threading.Thread(target=work, args=("none", None)),
    ]
    for t in threads:
        t.start()
    main_seen: list[object] = []
    with CPU1:
        barrier.wait(timeout=30)
        observe(main_seen)
    for t in threads:
        t.join(timeout=60)
    assert not errors, errors
    assert set(results["cpu1-a"]) == {CPU1}
    assert set(results["cpu1-b"]) == {CPU1}
    assert set(results["cpu0"]) == {CPU0}
    assert set(results["none"]) == {DEFAULT}
    assert set(main_seen) == {CPU1}
    assert xp.zeros(1).device == DEFAULT


def test_default_device_scope_is_per_async_task():
    async def task(dev, started, other_started):
        with dev:
            started.set()
            await other_started.wait()
            await asyncio.sleep(0)
            return xp.zeros(1).device

    async def main():
        e1, e2 = asyncio.Event(), asyncio.Event()
        return await asyncio.gather(task(CPU1, e1, e2), task(CPU0, e2, e1))

    assert asyncio.run(main()) == [CPU1, CPU0]
    assert xp.zeros(1).device == DEFAULT


def test_environment_variable_sets_default_device():
    code = """
import ocean_array_api as xp
info = xp.__array_namespace_info__()
d = info.devices()[1]
assert info.default_device() == d, info.default_device()
assert xp.zeros(2).device == d
assert xp.asarray([1]).device == d
with info.devices()[0]:
    assert xp.zeros(2).device == info.devices()[0]
assert xp.arange(3).device == d
print("ok")
"""
    proc = run_python(code, {"OCEAN_ARRAY_API_DEFAULT_DEVICE": "cpu:1"})
    assert proc.stdout.strip() == "ok"


def test_environment_variable_unset_means_cpu0():
    proc = run_python("import ocean_array_api as xp; print(xp.zeros(1).device)")
    assert proc.stdout.strip() == "cpu:0"


def test_environment_variable_bad_device_is_an_error():
    proc = run_python(
        "import ocean_array_api as xp; xp.zeros(1)",
        {"OCEAN_ARRAY_API_DEFAULT_DEVICE": "cpu:9"},
        check=False,
    )
    assert proc.returncode != 0
    assert "ValueError" in proc.stderr
    assert "OCEAN_ARRAY_API_DEFAULT_DEVICE" in proc.stderr or "cpu:9" in proc.stderr
