"""ocean_array_api: a strict implementation of the Python Array API standard.

One ``Array`` type for every device; every array knows its device and there
is no current device.  Only the standard's names are public.  The revision of
the standard served is 2025.12, or the one named by the environment variable
``OCEAN_ARRAY_API_VERSION`` ("2023.12", "2024.12"); other revisions are
reached with ``x.__array_namespace__(api_version=...)``.

The standard: https://data-apis.org/array-api/2025.12/
"""

from __future__ import annotations

from ._flags import API_VERSION as __array_api_version__

# --- the standard's names, section by section ------------------------------
from ._constants import *
from ._constants import __all__ as _constants_all
from ._creation_functions import *
from ._creation_functions import __all__ as _creation_all
from ._data_type_functions import *
from ._data_type_functions import __all__ as _data_type_all
from ._dtypes import (
    bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float32, float64, complex64, complex128,
)  # fmt: skip
from ._dtypes import __all__ as _dtypes_all
from ._elementwise_functions import *
from ._elementwise_functions import __all__ as _elementwise_all
from ._indexing_functions import *
from ._indexing_functions import __all__ as _indexing_all
from ._info import __array_namespace_info__
from ._linear_algebra_functions import *
from ._linear_algebra_functions import __all__ as _linear_algebra_all
from ._manipulation_functions import *
from ._manipulation_functions import __all__ as _manipulation_all
from ._searching_functions import *
from ._searching_functions import __all__ as _searching_all
from ._set_functions import *
from ._set_functions import __all__ as _set_all
from ._sorting_functions import *
from ._sorting_functions import __all__ as _sorting_all
from ._statistical_functions import *
from ._statistical_functions import __all__ as _statistical_all
from ._utility_functions import *
from ._utility_functions import __all__ as _utility_all

# The Array class is not a standard name, but type annotations need it.
from ._array_object import Array
from . import fft, linalg
from . import _hints

_SECTIONS = (
    _constants_all, _creation_all, _data_type_all, [n for n in _dtypes_all if n != "DType"],
    _elementwise_all, _indexing_all, ["__array_namespace_info__"], _linear_algebra_all,
    _manipulation_all, _searching_all, _set_all, _sorting_all, _statistical_all,
    _utility_all,
)  # fmt: skip
_FULL: dict[str, object] = {n: globals()[n] for names in _SECTIONS for n in names}


def _all_sections() -> dict[str, object]:
    """Every public name of the newest revision (used to build other revisions)."""
    return dict(_FULL)


def _select_version() -> list[str]:
    from . import _namespace

    for _name in _namespace.removed_names(__array_api_version__):
        globals().pop(_name, None)
    globals().update(
        _namespace.overrides(
            __array_api_version__,
            {n: v for n, v in _FULL.items() if n in globals()},
        )
    )
    return sorted(
        [n for n in _FULL if n in globals()]
        + ["fft", "linalg", "__array_api_version__"]
    )


__all__ = _select_version()
del _select_version, annotations


def __getattr__(name: str) -> object:
    # Only reached for a name the module lacks: ``xp.array`` and other NumPy
    # names get an AttributeError that says what the standard calls it.
    raise _hints.missing_module_attribute_error(__name__, name)


# One warning, at import, when the compiled parts were not built (no C
# compiler at install time): what runs slower, and how to build them.
from ._compiled import warn_if_missing as _warn_if_missing  # noqa: E402

_warn_if_missing()
del _warn_if_missing
