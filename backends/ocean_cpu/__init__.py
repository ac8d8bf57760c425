"""ocean_cpu: the CPU backend of ocean_array_api, over NumPy.

Exposes ``backend``, an object satisfying ``ocean_array_api._backend.Backend``.
Registered under the entry-point group ``ocean_array_api.backends`` as "cpu".
"""

from ._backend import backend

__all__ = ["backend"]
