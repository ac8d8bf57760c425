"""Namespaces for each supported revision of the standard.

The module ``ocean_array_api`` itself serves the revision chosen by
``OCEAN_ARRAY_API_VERSION``.  ``x.__array_namespace__(api_version=v)`` for
another revision ``v`` returns a module object built here once: the same
functions, minus the names ``v`` does not have, with the few functions whose
behaviour changed between revisions replaced by ``v``'s variant.
"""

from __future__ import annotations

import functools
import sys
import types
from collections.abc import Callable
from typing import Any

from ._flags import SUPPORTED_VERSIONS, at_least

# Names each revision added, relative to the one before.
ADDED: dict[str, tuple[str, ...]] = {
    "2024.12": (
        "count_nonzero", "cumulative_prod", "diff", "nextafter", "reciprocal",
        "take_along_axis",
    ),
    "2025.12": ("broadcast_shapes", "isin"),
}  # fmt: skip
LINALG_ADDED: dict[str, tuple[str, ...]] = {"2025.12": ("eig", "eigvals")}


def _missing(version: str, table: dict[str, tuple[str, ...]]) -> set[str]:
    """Names introduced after ``version``."""
    return {n for v, names in table.items() if not at_least(version, v) for n in names}


def removed_names(version: str) -> set[str]:
    return _missing(version, ADDED)


def removed_linalg_names(version: str) -> set[str]:
    return _missing(version, LINALG_ADDED)


def _returning_list(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> list[Any]:
        return list(func(*args, **kwargs))

    wrapper.__doc__ = (func.__doc__ or "") + "\n\nBefore 2025.12 this returns a list."
    return wrapper


def _arrays_only(func: Callable[..., Any]) -> Callable[..., Any]:
    """2023.12 binary functions take arrays only (scalars came in 2024.12)."""
    from ._array_object import Array

    name = func.__name__

    @functools.wraps(func)
    def wrapper(x1: Any, x2: Any, /) -> Any:
        if x1.__class__ is not Array or x2.__class__ is not Array:
            msg = (
                f"{name}(): Python scalar arguments need API version 2024.12 or later; "
                f"this namespace is 2023.12, so pass arrays (asarray(value))"
            )
            raise TypeError(msg)
        return func(x1, x2)

    return wrapper


# Python scalars as ``_python_scalar`` in _elementwise_functions sees them
# (NumPy scalars subclass these or are caught by the function itself).
_PY_SCALARS = (bool, int, float, complex)


def _too_old(name: str, what: str, since: str, version: str, hint: str = "") -> str:
    """The TypeError message for a feature ``version`` does not have yet."""
    return (
        f"{name}(): {what} needs API version {since} or later; this namespace is "
        f"{version}{hint}"
    )


def _where_arrays_only(func: Callable[..., Any], version: str) -> Callable[..., Any]:
    """Before 2024.12, ``where``'s ``x1`` and ``x2`` are arrays only."""

    @functools.wraps(func)
    def wrapper(condition: Any, x1: Any, x2: Any, /) -> Any:
        for argname, value in (("x1", x1), ("x2", x2)):
            if isinstance(value, _PY_SCALARS):
                what = f"a Python scalar `{argname}`"
                hint = ", so pass an array (asarray(value))"
                msg = _too_old("where", what, "2024.12", version, hint)
                raise TypeError(msg)
        return func(condition, x1, x2)

    return wrapper


def _real_mean(func: Callable[..., Any], version: str) -> Callable[..., Any]:
    """Before 2024.12, ``mean`` takes real floating-point input only."""
    from . import _dtypes as _dt
    from ._array_object import Array

    @functools.wraps(func)
    def wrapper(x: Any, /, **kwargs: Any) -> Any:
        if x.__class__ is Array and x._dtype in _dt._complex_floating:
            what = f"complex `x` ({x._dtype})"
            msg = _too_old("mean", what, "2024.12", version)
            raise TypeError(msg)
        return func(x, **kwargs)

    return wrapper


def _searchsorted_array_x2(
    func: Callable[..., Any], version: str
) -> Callable[..., Any]:
    """Before 2025.12, ``searchsorted``'s ``x2`` is an array only."""

    @functools.wraps(func)
    def wrapper(x1: Any, x2: Any, /, **kwargs: Any) -> Any:
        if isinstance(x2, _PY_SCALARS):
            what = "a Python scalar `x2`"
            hint = ", so pass an array (asarray(value))"
            msg = _too_old("searchsorted", what, "2025.12", version, hint)
            raise TypeError(msg)
        return func(x1, x2, **kwargs)

    return wrapper


def _expand_dims_int_axis(func: Callable[..., Any], version: str) -> Callable[..., Any]:
    """Before 2025.12, ``expand_dims`` inserts one axis (default 0).

    (The older revisions make ``axis`` keyword-only; passing it by position, as
    2025.12 allows, is accepted as a harmless extension.)
    """

    @functools.wraps(func)
    def wrapper(x: Any, /, axis: Any = 0) -> Any:
        if axis.__class__ is tuple:
            hint = "; pass one int, or call expand_dims once per axis"
            msg = _too_old("expand_dims", "a tuple `axis`", "2025.12", version, hint)
            raise TypeError(msg)
        return func(x, axis)

    # The signature is this wrapper's (``axis`` defaults to 0), not func's.
    del wrapper.__wrapped__
    wrapper.__annotations__ = {"x": "Array", "axis": "int", "return": "Array"}
    wrapper.__doc__ = (func.__doc__ or "") + (
        "\n\nBefore 2025.12 ``axis`` is one int (default 0)."
    )
    return wrapper


def overrides(version: str, ns: dict[str, Any]) -> dict[str, Any]:
    """Functions of ``ns`` whose behaviour in ``version`` differs from 2025.12.

    ``permute_dims`` keeps accepting negative axes (new in 2025.12) in every
    revision: a harmless extension, since older code never passes them.
    """
    out: dict[str, Any] = {}
    if not at_least(version, "2025.12"):
        out["meshgrid"] = _returning_list(ns["meshgrid"])
        out["broadcast_arrays"] = _returning_list(ns["broadcast_arrays"])
        out["searchsorted"] = _searchsorted_array_x2(ns["searchsorted"], version)
        out["expand_dims"] = _expand_dims_int_axis(ns["expand_dims"], version)
    if not at_least(version, "2024.12"):
        from . import _elementwise_functions as ew

        for name in ew.__all__:
            f = ns.get(name)  # None: added after `version` (nextafter, ...)
            if f is not None and hasattr(f, "_operator"):  # the binary functions
                out[name] = _arrays_only(f)
        out["where"] = _where_arrays_only(ns["where"], version)
        out["mean"] = _real_mean(ns["mean"], version)

    def info() -> Any:
        from ._info import Info

        return Info(version)

    info.__name__ = info.__qualname__ = "__array_namespace_info__"
    info.__doc__ = ns["__array_namespace_info__"].__doc__
    out["__array_namespace_info__"] = info
    return out


_cache: dict[str, types.ModuleType] = {}


def _submodule(
    name: str, module: types.ModuleType, drop: set[str], version: str | None = None
) -> types.ModuleType:
    """A copy of extension ``module`` without the names in ``drop``.

    Built from ``module._FULL`` (every name of the newest revision) when the
    module has it, since the module itself may lack names that the process's
    own revision (``OCEAN_ARRAY_API_VERSION``) does not have.
    """
    sub = types.ModuleType(name, module.__doc__)
    full: dict[str, Any] = getattr(module, "_FULL", None) or {
        n: getattr(module, n) for n in module.__all__
    }
    names = [n for n in full if n not in drop]
    for n in names:
        setattr(sub, n, full[n])
    sub.__all__ = names  # type: ignore[attr-defined]
    sub.__getattr__ = _missing_attribute(name, names, version)  # type: ignore[method-assign]
    return sub


def _missing_attribute(
    module: str, names: list[str], version: str | None = None
) -> Callable[[str], Any]:
    """A module ``__getattr__``: the AttributeError with a hint (_hints)."""

    def __getattr__(name: str) -> Any:
        from ._hints import missing_module_attribute_error

        raise missing_module_attribute_error(module, name, names, version)

    return __getattr__


def namespace_for(version: str) -> types.ModuleType:
    """The namespace object for ``version`` (built once)."""
    ns = _cache.get(version)
    if ns is not None:
        return ns
    assert version in SUPPORTED_VERSIONS
    main = sys.modules["ocean_array_api"]
    from . import _all_sections, fft, linalg

    full = dict(_all_sections())
    for n in removed_names(version):
        full.pop(n, None)
    full.update(overrides(version, full))
    ns = types.ModuleType("ocean_array_api", main.__doc__)
    for n, obj in full.items():
        setattr(ns, n, obj)
    ns.linalg = _submodule(  # type: ignore[attr-defined]
        "ocean_array_api.linalg", linalg, removed_linalg_names(version), version
    )
    ns.fft = _submodule("ocean_array_api.fft", fft, set(), version)  # type: ignore[attr-defined]
    ns.__array_api_version__ = version  # type: ignore[attr-defined]
    ns.__all__ = sorted(full)  # type: ignore[attr-defined]
    ns.__getattr__ = _missing_attribute(  # type: ignore[method-assign]
        "ocean_array_api", ns.__all__, version
    )
    return _cache.setdefault(version, ns)
