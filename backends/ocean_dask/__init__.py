"""ocean_dask: the ``dask`` backend of ocean_array_api, over ``dask.array``.

Exposes ``backend``, an object satisfying ``ocean_array_api._backend.Backend``
for the device kind ``"dask"`` (one device, whose ``str`` is ``"dask"``).
Registered under the entry-point group ``ocean_array_api.backends`` as
``dask``; also found from a source checkout (``backends/``).

Design
------
- Arrays are lazy: the native array is a :class:`~ocean_dask._native.LazyArray`
  handle around a ``dask.array.Array`` of NumPy chunks.  Operations build
  graphs; only ``__bool__``/``__int__``/``__float__``/``__complex__``/
  ``__index__``, DLPack and NumPy export, ``to_device`` to another kind and
  ``ocean_ext.compute`` run them, all through :func:`ocean_dask._backend.compute`.
- Data-dependent sizes (boolean masks, ``nonzero``, ``unique_*``, ``repeat``
  with an array of counts) are ``None`` in ``shape``, never ``nan``.
- The table (``_ops``) runs the CPU backend's own entries on chunks where the
  operation is local (elementwise functions, float16/complex32 kernels, each
  matrix of a stack in ``linalg``, each transformed axis in ``fft``) and
  dask's distributed algorithms elsewhere; ``sort``/``argsort``/``unique_*``
  (``_sort``) never gather more than two chunks in one task, and
  ``matmul``/``tensordot`` (``_contract``) hold a few blocks per output block
  in progress.
- dask is imported lazily (by ``ops`` and by computing), never by
  ``import ocean_array_api`` or ``import ocean_dask``; without dask the
  backend has no devices, quietly.
- Scheduling is dask's: the threaded scheduler by default, or a
  ``distributed.Client`` when one is active.
"""

from ._backend import backend
from ._native import LazyArray

__all__ = ["LazyArray", "backend"]
