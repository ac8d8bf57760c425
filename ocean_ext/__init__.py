"""ocean_ext: what the Array API standard lacks and the Ocean Tensor Package had.

Works on the same ``Array`` objects as ``ocean_array_api`` and never changes
what ``ocean_array_api`` itself computes::

    import ocean_array_api as xp
    import ocean_ext

Features: non-native byte order, compute modes for out-of-domain input,
reusable index objects, ``ensure``/``cast``, read-only arrays and overlap-safe
writes, call instrumentation, the thread count of large CPU operations
(``threads``), the half-precision dtypes float16 and complex32,
and the bridge to dask for arrays on the ``dask`` device (``from_dask``,
``to_dask``, ``rechunk``, ``compute``).
"""

from ._byteorder import *
from ._byteorder import __all__ as _byteorder_all
from ._casting import *
from ._casting import __all__ as _casting_all
from ._dask import *
from ._dask import __all__ as _dask_all
from ._halfprec import *
from ._halfprec import __all__ as _halfprec_all
from ._index import *
from ._index import __all__ as _index_all
from ._instrument import *
from ._instrument import __all__ as _instrument_all
from ._modes import *
from ._modes import __all__ as _modes_all
from ._portability import *
from ._portability import __all__ as _portability_all
from ._readonly import *
from ._readonly import __all__ as _readonly_all
from ._threads import *
from ._threads import __all__ as _threads_all

__all__ = [
    *_byteorder_all,
    *_casting_all,
    *_dask_all,
    *_halfprec_all,
    *_index_all,
    *_instrument_all,
    *_modes_all,
    *_portability_all,
    *_readonly_all,
    *_threads_all,
]


def __getattr__(name: str) -> object:
    # ocean_ext.sparse is imported on first use, keeping `import ocean_ext` light.
    if name == "sparse":
        import importlib

        return importlib.import_module("ocean_ext.sparse")
    msg = f"module 'ocean_ext' has no attribute {name!r}"
    raise AttributeError(msg)


def __dir__() -> list[str]:
    return [*globals(), "sparse"]
