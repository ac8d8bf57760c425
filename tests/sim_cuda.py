"""Run the CUDA backend on a simulated GPU (``tests/simcupy.py``), no hardware needed.

Importing this module registers ``backends/ocean_cuda``'s ``CUDABackend``, built
over the simulated CuPy with two devices, as the ``cuda`` backend, so that
``cuda:0`` and ``cuda:1`` appear in ``__array_namespace_info__().devices()``.
It must be imported before any CUDA device is looked up.

- Our test suite: ``OCEAN_TEST_SIMULATE_CUDA=1 python -m pytest tests`` (the
  ``device`` fixture then covers cuda:0 and cuda:1 too).  Add
  ``OCEAN_ARRAY_API_DEFAULT_DEVICE=cuda:0`` to make every array without
  ``device=`` a (simulated) CUDA array.
- Another runner, e.g. the official array-api-tests:
  ``python -m pytest -p tests.sim_cuda ...`` with
  ``OCEAN_ARRAY_API_DEFAULT_DEVICE=cuda:0`` and this repository on ``PYTHONPATH``.

What this checks is the CUDA table's logic and the front end's device-generic
paths under CuPy's rules (no host arrays in device code, a current device, 0-d
results); it says nothing of CuPy's own numerics or speed, which need a GPU.
"""

from __future__ import annotations

from ocean_array_api import _backend

from . import simcupy


def install() -> None:
    """Register the simulated CUDA backend (idempotent)."""
    current = _backend._loaded.get("cuda")
    if current is not None and getattr(current, "simulated", False):
        return
    _backend.get_backend("cpu")
    _backend.get_backend("cuda")  # puts backends/ on sys.path in a source checkout
    from ocean_cuda._backend import make_backend

    sim = make_backend(
        simcupy.xp, simcupy.DEVICE_COUNT, linalg_errstate=simcupy.linalg_errstate
    )
    sim.simulated = True
    _backend._loaded["cuda"] = sim


install()
