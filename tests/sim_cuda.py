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
It also checks every simulated CUDA array the front end makes: its native
data must have the dtype its label says (a backend entry that returns int64
data for an int8 result would otherwise pass unnoticed, printed as int8).
"""

from __future__ import annotations

from typing import Any

from ocean_array_api import _backend
from ocean_array_api._array_object import Array

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
    _check_labels()


class _CheckedDType:
    """``Array._dtype`` (a slot), checked when set: on a simulated CUDA array
    the native data must have the label's storage dtype.  Every way to make an
    Array (``_wrap`` and the hot paths that inline it) sets ``_data`` first."""

    def __init__(self, slot: Any) -> None:
        self.slot = slot

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        return self if obj is None else self.slot.__get__(obj, cls)

    def __set__(self, obj: Any, dtype: Any) -> None:
        data = obj._data
        if data.__class__ is simcupy.SimArray and data.dtype != dtype._native:
            msg = (
                f"sim_cuda: a backend entry returned {data.dtype} data for an "
                f"array labelled {dtype} (storage {dtype._native})"
            )
            raise AssertionError(msg)
        self.slot.__set__(obj, dtype)


def _check_labels() -> None:
    # The slot is a base class's: ``_array_object._Fields`` without the
    # compiled path (``_wrap`` fills it on a ``_Fields`` instance, so the check
    # goes there), a read-only member of ``_fastpath.ArrayBase`` with it
    # (arrays the compiled code makes bypass this check; the CI run with
    # OCEAN_ARRAY_API_FASTPATH=0 checks every array).
    owner = next(k for k in Array.__mro__ if "_dtype" in vars(k))
    slot = vars(owner)["_dtype"]
    if isinstance(slot, _CheckedDType):
        return
    if owner.__flags__ & (1 << 9):  # a heap type (Py_TPFLAGS_HEAPTYPE)
        owner._dtype = _CheckedDType(slot)
    else:
        Array._dtype = _CheckedDType(slot)  # type: ignore[assignment,misc]


install()
