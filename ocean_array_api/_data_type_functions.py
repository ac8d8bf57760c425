"""Data type functions of the Array API standard."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _dtypes as _dt
from ._array_object import Array, _compiled, _transfer, _wrap
from ._devices import Device, parse_device
from ._dtypes import DType, check_dtype_arg, promote
from ._helpers import type_error

__all__ = ["astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"]


def astype(
    x: Array, dtype: DType, /, *, copy: bool = True, device: Device | None = None
) -> Array:
    """Copy of ``x`` converted to ``dtype`` (``x`` itself if ``copy=False``
    and nothing changes).

    Casting follows NumPy's unsafe casting for the conversions the standard
    leaves unspecified (e.g. float to int truncates).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.astype.html
    """
    where = "astype()"
    if x.__class__ is not Array:
        type_error(where, "x", "an array", x)
    dt = check_dtype_arg(dtype, where)
    if copy is not True and copy is not False:
        type_error(where, "copy", "a bool", copy)
    if not (dt._standard and x._dtype._standard):  # an ocean_ext dtype
        from ._ext_dtypes import astype as ext_astype

        return ext_astype(x, dt, copy, device)
    if x._dtype in _dt._complex_floating and dt not in _dt._complex_floating:
        msg = f"{where}: casting complex {x._dtype} to {dt} would drop the imaginary part; use real() or abs() first"
        raise TypeError(msg)
    data = x._data
    dev = x._device
    if device is not None:
        target = parse_device(device, where)
        if target is not dev:
            data = _transfer(data, dev, target, None)
            dev = target
            copy = False  # the transfer already copied
    if dt is x._dtype and not copy:
        # Note: also for byte-swapped ``x`` (its dtype is ``dt``): the standard
        # wants the input itself back when copy=False and the dtype matches.
        return x if dev is x._device else _wrap(data, dt, dev)
    return _wrap(dev._ops["astype"](data, dt._native, copy), dt, dev)


def can_cast(from_: DType | Array, to: DType, /) -> bool:
    """Whether ``from_`` can be cast to ``to`` by the standard's promotion rules.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.can_cast.html
    """
    where = "can_cast()"
    src = (
        from_._dtype
        if from_.__class__ is Array
        else check_dtype_arg(from_, where, "from_")
    )
    dst = check_dtype_arg(to, where, "to")
    if src is dst:
        return True
    return _dt._PROMOTION.get((src, dst)) is dst


class _Info:
    """A frozen record of named fields, compared and printed by value (a
    dataclass without the import of ``dataclasses``)."""

    __slots__ = ()
    _FIELDS: tuple[str, ...] = ()  # in order (__slots__ is sorted)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        names = self._FIELDS
        values = dict(zip(names, args, strict=False))
        if len(args) > len(names) or values.keys() & kwargs.keys():
            msg = f"{type(self).__name__}() takes the fields {names}, once each"
            raise TypeError(msg)
        values.update(kwargs)
        if values.keys() != set(names):
            msg = f"{type(self).__name__}() takes the fields {names}, once each"
            raise TypeError(msg)
        for name in names:
            object.__setattr__(self, name, values[name])

    def __setattr__(self, name: str, value: Any) -> None:
        msg = f"cannot assign to field {name!r} of {type(self).__name__}"
        raise AttributeError(msg)

    def __delattr__(self, name: str) -> None:
        msg = f"cannot delete field {name!r} of {type(self).__name__}"
        raise AttributeError(msg)

    def _astuple(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self._FIELDS)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._astuple() == other._astuple()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._astuple())

    def __repr__(self) -> str:
        body = ", ".join(f"{n}={getattr(self, n)!r}" for n in self._FIELDS)
        return f"{type(self).__name__}({body})"


class finfo_object(_Info):
    """Machine limits of a floating-point dtype (``finfo``'s result)."""

    __slots__ = ("bits", "dtype", "eps", "max", "min", "smallest_normal")
    _FIELDS = ("bits", "eps", "max", "min", "smallest_normal", "dtype")
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: DType


class iinfo_object(_Info):
    """Machine limits of an integer dtype (``iinfo``'s result)."""

    __slots__ = ("bits", "dtype", "max", "min")
    _FIELDS = ("bits", "max", "min", "dtype")
    bits: int
    max: int
    min: int
    dtype: DType


def finfo(type: DType | Array, /) -> finfo_object:  # noqa: A002
    """Machine limits of a floating-point dtype (for complex: of its real part).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.finfo.html
    """
    where = "finfo()"
    dt = (
        type._dtype if type.__class__ is Array else check_dtype_arg(type, where, "type")
    )
    if dt not in _dt._floating:
        if not dt._standard and dt._kind in ("real floating", "complex floating"):
            from ._ext_dtypes import finfo as ext_finfo

            return ext_finfo(dt)  # type: ignore[no-any-return]  # an ocean_ext dtype
        msg = f"{where}: `type` must be a floating-point dtype, got {dt}"
        raise TypeError(msg)
    real = _dt.REAL_OF.get(dt, dt)
    fi = np.finfo(real._native)
    return finfo_object(
        bits=fi.bits,
        eps=float(fi.eps),
        max=float(fi.max),
        min=float(fi.min),
        smallest_normal=float(fi.smallest_normal),
        dtype=real,
    )


def iinfo(type: DType | Array, /) -> iinfo_object:  # noqa: A002
    """Machine limits of an integer dtype.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.iinfo.html
    """
    where = "iinfo()"
    dt = (
        type._dtype if type.__class__ is Array else check_dtype_arg(type, where, "type")
    )
    if dt not in _dt._integer:
        msg = f"{where}: `type` must be an integer dtype, got {dt}"
        raise TypeError(msg)
    ii = np.iinfo(dt._native)
    return iinfo_object(bits=ii.bits, max=int(ii.max), min=int(ii.min), dtype=dt)


def isdtype(dtype: DType, kind: DType | str | tuple[DType | str, ...]) -> bool:
    """Whether ``dtype`` is of ``kind`` (a dtype, a kind name, or a tuple of them).

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.isdtype.html
    """
    where = "isdtype()"
    if dtype.__class__ is not DType:
        type_error(where, "dtype", "a dtype", dtype)
    kinds = kind if kind.__class__ is tuple else (kind,)
    for k in kinds:
        if k.__class__ is DType:
            if k is dtype:
                return True
        elif isinstance(k, str):
            members = _dt.KINDS.get(k)
            if members is None:
                msg = f"{where}: unknown kind {k!r}; expected one of {', '.join(_dt.KINDS)}"
                raise ValueError(msg)
            if dtype in members:
                return True
        else:
            type_error(where, "kind", "a dtype, a kind name or a tuple of them", k)
    if not dtype._standard:  # an ocean_ext dtype: of its kind, "numeric"
        from ._ext_dtypes import isdtype as ext_isdtype

        return ext_isdtype(dtype, kinds)
    return False


def result_type(*arrays_and_dtypes: Any) -> DType:
    """The dtype the standard's promotion rules give for the arguments.

    Python scalars (since 2024.12) take part as in elementwise functions: they
    never change the dtype of the arrays and dtypes they are combined with.

    See https://data-apis.org/array-api/2025.12/API_specification/generated/array_api.result_type.html
    """
    where = "result_type()"
    dtypes: list[DType] = []
    scalars: list[Any] = []
    for a in arrays_and_dtypes:
        if a.__class__ is Array:
            dtypes.append(a._dtype)
        elif a.__class__ is DType:
            dtypes.append(check_dtype_arg(a, where, "arrays_and_dtypes"))
        elif a.__class__ in (bool, int, float, complex):
            scalars.append(a)
        else:
            type_error(
                where, "arrays_and_dtypes", "arrays, dtypes or Python scalars", a
            )
    if not dtypes:
        if not scalars:
            msg = f"{where}: at least one array or dtype is required"
            raise ValueError(msg)
        # Note: ValueError, as for no argument at all and as array-api-strict
        # raises (the standard names no type; SciPy catches this one).  No
        # parentheses: SciPy's tests use this text as a regular expression.
        msg = (
            "result_type: at least one array or dtype is required besides "
            "Python scalars"
        )
        raise ValueError(msg)
    res = dtypes[0]
    for d in dtypes[1:]:
        res = promote(res, d, where)
    from ._elementwise_functions import _scalar_operand

    for s in scalars:
        _, res = _scalar_operand(s, res, where, "arrays_and_dtypes")
    return res


def _device_of(x: Any) -> Any:  # used by _info
    return x._device if x.__class__ is Array else None


# The compiled fast path (docs/dev/fastpath.md) in front of astype().
astype = _compiled(astype, "astype")
