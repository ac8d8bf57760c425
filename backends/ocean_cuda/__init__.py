"""ocean_cuda: the CUDA backend of ocean_array_api, over CuPy (issue 3).

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
NOT RUN ON HARDWARE.  Everything in the table has been exercised on the CPU
only, with NumPy standing in for CuPy (``tests/backends/test_cuda_backend.py``):
entry names, conventions and corrections.  Untested until a GPU run: the real
CuPy calls (signature differences between CuPy and NumPy, e.g. ``unique``'s
``equal_nan``, ``concatenate``'s ``dtype``, ``linalg.solve`` broadcasting,
``from_dlpack``'s ``copy``), the device switching with several GPUs, stream
handling, DLPack exchange and the complex32 kernels of ``_halfprec_kernels``.
"""

from ._backend import backend

__all__ = ["backend"]
