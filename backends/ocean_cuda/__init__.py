"""ocean_cuda: the CUDA backend of ocean_array_api, over CuPy.

Exposes ``backend``, an object satisfying ``ocean_array_api._backend.Backend``
for device kind ``"cuda"`` (devices ``cuda:0`` .. ``cuda:N-1``).

Design
------
- ``_ops.build_ops(xp)`` builds the function table from an *array module*
  parameter: ``cupy`` in production, a NumPy stand-in in the CPU tests.  Entry
  names and calling conventions are the CPU table's (``ocean_cpu._backend``);
  the CPU backend's corrections of NumPy are ported where CuPy follows NumPy
  (descending stable sort, sorted ``unique`` with distinct NaNs, floor_divide /
  expm1 / tanh / pow special cases, clip's dtype, quiet NaN for empty
  mean/var/std, zero-size max/min, linalg tolerances, fft precisions), written
  with ``where``/``copyto`` so that no correction synchronises with the host.
  Deliberately absent entries are listed in ``_ops.ABSENT`` with the reason.
- Devices: CuPy runs kernels on its *current* device.  With more than one GPU
  every entry makes the device of its first array operand current during the
  call (creation entries: the device index, their first argument).
- ``setitem`` copies a value that may share memory with its target first
  (``cupy.may_share_memory``): CuPy does not order the reads and writes of
  ``x[1:] = x[:-1]``.
- ``supports_byteswap = False``: CUDA arrays are always native; the front end
  swaps byte-swapped host data on the way in.
- Streams: ``to_device(..., stream=)`` and ``__dlpack__(stream=)`` accept a
  CuPy stream or a DLPack integer (1 legacy default, 2 per-thread default,
  else a ``cudaStream_t`` pointer); ``from_host``/``to_host``/``transfer`` make
  it current for the copy.
- CuPy is imported lazily (``device_indices()``, ``ops``, ``native_type``);
  without CuPy or without a GPU the backend reports no devices, quietly, and
  ``import ocean_array_api`` never imports CuPy.

Status
------
NOT RUN ON HARDWARE.  The table runs in CI on the simulated GPUs of
``tests/simcupy.py`` (CuPy's rules over NumPy's arithmetic: host data refused,
a current device, wrapped out-of-range indices, unbuffered overlapping
writes): the whole test suite with its device-generic tests, ``tests/test_cuda.py``
and the official array-api-tests with ``cuda:0`` as the default device.  What
that cannot show, and a GPU run must: CuPy's own numerics and signature
differences (``unique``'s ``equal_nan``, ``linalg.solve`` broadcasting,
``from_dlpack``'s ``copy``), real streams and peer access between GPUs, the
fused complex32 kernels of ``_halfprec_kernels`` (they compile with nvcc), and
speed against CuPy (``benchmarks/bench.py --device cuda:0``).
"""

from ._backend import backend

__all__ = ["backend"]
