"""Shared fixtures for the ocean_array_api test suite.

- ``device``: every device of ``__array_namespace_info__().devices()`` (the two
  logical CPUs, and CUDA devices when a GPU and CuPy are present).
- ``other_device``: a device different from the first CPU (``cpu:1``), for
  device-mixing errors without a GPU.
- CUDA: without a real GPU the tests run the CUDA backend on two *simulated*
  devices (``tests/simcupy.py``: NumPy's arithmetic under CuPy's rules), so its
  table and the front end's device-generic paths are tested everywhere; test ids
  then read ``cuda:0-sim``.  ``OCEAN_TEST_SIMULATE_CUDA=0`` turns that off,
  ``=1`` forces it; the default, ``auto``, simulates only when no GPU is present.
- ``@pytest.mark.cuda``: needs a CUDA device, real or simulated (skipped with
  the reason otherwise); ``@pytest.mark.gpu``: needs real hardware and CuPy.
- dask: the ``dask`` device (``backends/ocean_dask``, when dask is installed)
  is tested by ``tests/backends/test_dask_backend.py`` in every run, its
  CuPy-chunk devices ``dask:cuda:<i>`` by ``tests/backends/test_dask_cupy.py``
  (on the simulated CuPy without a GPU).  The
  ``device`` fixture covers it too with ``OCEAN_TEST_DASK=1``, or when it is
  the default device (``OCEAN_ARRAY_API_DEFAULT_DEVICE=dask``, the separate,
  slower run of the whole suite on dask: see docs/dev/testing.md);
  ``OCEAN_TEST_DASK=0`` leaves it out even then.
- Hypothesis profiles: "default" (50 examples, no deadline), "ci"
  (deterministic, no example database; the default when ``CI`` is set) and
  "thorough" (1000 examples), chosen with ``HYPOTHESIS_PROFILE``.
- Every test starts and ends with an empty default-device scope; a test that
  leaves a ``with device:`` block open fails instead of leaking it.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import ocean_array_api as xp
from ocean_array_api import _backend, _devices


def _real_cuda_devices() -> int:
    """How many real CUDA devices the installed backend sees (0 without CuPy)."""
    backend = _backend.get_backend("cuda")
    return len(backend.device_indices()) if backend is not None else 0


REAL_GPUS = _real_cuda_devices()
_sim = os.environ.get("OCEAN_TEST_SIMULATE_CUDA", "auto").lower()
if _sim not in {"auto", "0", "1"}:
    msg = f"OCEAN_TEST_SIMULATE_CUDA must be auto, 0 or 1, got {_sim!r}"
    raise ValueError(msg)
SIMULATED_CUDA = _sim == "1" or (_sim == "auto" and not REAL_GPUS)
if SIMULATED_CUDA:
    from . import sim_cuda  # noqa: F401 - registers two simulated GPUs

settings.register_profile(
    "default",
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=50,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default")
)

_dask = os.environ.get("OCEAN_TEST_DASK", "auto").lower()
if _dask not in {"auto", "0", "1"}:
    msg = f"OCEAN_TEST_DASK must be auto, 0 or 1, got {_dask!r}"
    raise ValueError(msg)
TEST_DASK = _dask == "1" or (
    _dask == "auto" and xp.__array_namespace_info__().default_device().kind == "dask"
)
ALL_DEVICES = tuple(
    d for d in xp.__array_namespace_info__().devices() if d.kind != "dask" or TEST_DASK
)
CUDA_DEVICES = tuple(d for d in ALL_DEVICES if d.kind == "cuda")
CPU0 = xp.__array_namespace_info__().default_device()
if SIMULATED_CUDA and CPU0.kind == "dask" and CPU0.index > 0:
    # the whole suite on a dask:cuda device with simulated CuPy chunks: dask
    # must know their type as it knows CuPy's, and finds "cupy" by name in a
    # few places (see simcupy.register_with_dask)
    import sys

    from . import simcupy

    simcupy.register_with_dask()
    sys.modules.setdefault("cupy", simcupy.xp)


def _device_id(d: Any) -> str:
    return f"{d}-sim" if SIMULATED_CUDA and d.kind == "cuda" else str(d)


@pytest.fixture(scope="session", params=ALL_DEVICES, ids=_device_id)
def device(request: pytest.FixtureRequest) -> object:
    """Each device this machine has (session-scoped: devices are immutable values;
    the dask device only as said above)."""
    return request.param


@pytest.fixture(scope="session")
def other_device() -> object:
    """A device other than the default CPU (the second logical CPU)."""
    return xp.__array_namespace_info__().devices()[1]


def pytest_configure(config: pytest.Config) -> None:
    # Hypothesis's failure report imports a module that uses a deprecated
    # mypy_extensions API; with filterwarnings=error that would turn a test
    # failure into an INTERNALERROR that hides the falsifying example.
    config.addinivalue_line(
        "filterwarnings",
        "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning",
    )


def _downstream_suites_requested(config: pytest.Config) -> bool:
    """``OCEAN_DOWNSTREAM_SUITES=1``, or a ``-m`` expression naming the marker."""
    return os.environ.get("OCEAN_DOWNSTREAM_SUITES") == "1" or (
        "downstream_suites" in (config.option.markexpr or "")
    )


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    no_cuda = pytest.mark.skip(
        reason="no CUDA device: needs an NVIDIA GPU, CuPy and a built ocean_cuda "
        "backend (or the simulated one, OCEAN_TEST_SIMULATE_CUDA=1)"
    )
    no_gpu = pytest.mark.skip(
        reason="needs a real NVIDIA GPU and CuPy"
        + (" (the CUDA devices here are simulated)" if SIMULATED_CUDA else "")
    )
    if not _downstream_suites_requested(config):
        # SciPy's and scikit-learn's own suites (tests/test_downstream_suites.py)
        # take minutes: deselected unless asked for, so the default run stays fast.
        chosen = [i for i in items if not i.get_closest_marker("downstream_suites")]
        if len(chosen) < len(items):
            config.hook.pytest_deselected(
                items=[i for i in items if i.get_closest_marker("downstream_suites")]
            )
            items[:] = chosen
    for item in items:
        # (markers, not keywords: a parameter id such as "gpu" is a keyword too)
        if item.get_closest_marker("gpu") and (SIMULATED_CUDA or not REAL_GPUS):
            item.add_marker(no_gpu)
        elif item.get_closest_marker("cuda") and not CUDA_DEVICES:
            item.add_marker(no_cuda)


@pytest.fixture(autouse=True)
def _clean_default_device_scope() -> object:
    """Run each test with an empty default-device scope and check it left none."""
    token = _devices._scope.set(())
    try:
        yield
        leaked = _devices._scope.get()
        assert leaked == (), f"test left a default-device scope open: {leaked}"
    finally:
        _devices._scope.reset(token)
