"""Data types, their kinds, and the type-promotion lattice.

A :class:`DType` is a small immutable value; every dtype is a singleton, so
equality is identity and hashing is cheap.  Dtypes are never equal to NumPy or
CuPy dtype objects.  ``_native`` holds the NumPy dtype that CPU and CUDA
backends store the elements as (CuPy uses NumPy's dtype objects too).

Promotion is one explicit table (:data:`_PROMOTION`) mirroring the standard's
type-promotion rules; any pair missing from it is a ``TypeError``.  The kinds
are the vocabulary of ``isdtype``: "bool", "signed integer", "unsigned
integer", "real floating", "complex floating".  ``ocean_ext`` registers the
extra dtypes (float16, complex32) through :func:`_register`; standard functions
only accept the dtypes in :data:`STANDARD_DTYPES`.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # numpy.typing costs ~2-4 ms of the package's import
    import numpy.typing as npt

__all__ = [
    "DType",
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float32",
    "float64",
    "complex64",
    "complex128",
]


class DType:
    """An array data type (see the standard's "Data Types" page)."""

    __slots__ = ("__weakref__", "_bits", "_kind", "_name", "_native", "_standard")
    _bits: int
    _kind: str
    _name: str
    _native: np.dtype
    _standard: builtins.bool

    def __new__(cls, *args: object, **kwargs: object) -> DType:
        msg = (
            "DType objects cannot be created; use the dtypes of the namespace, "
            "e.g. ocean_array_api.float64"
        )
        raise TypeError(msg)

    @classmethod
    def _make(
        cls, name: str, kind: str, native: np.dtype, *, standard: builtins.bool
    ) -> DType:
        self = object.__new__(cls)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_native", native)
        object.__setattr__(self, "_bits", 8 if name == "bool" else native.itemsize * 8)
        object.__setattr__(self, "_standard", standard)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        msg = "DType objects are immutable"
        raise AttributeError(msg)

    def __repr__(self) -> str:
        where = "ocean_array_api" if self._standard else "ocean_ext"
        return f"{where}.{self._name}"

    def __str__(self) -> str:
        return self._name

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (_by_name, (self._name,))

    def __copy__(self) -> DType:
        return self

    def __deepcopy__(self, memo: object) -> DType:
        return self

    # equality is identity (object's default), which keeps dict look-ups fast.
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    @property
    def name(self) -> str:
        """The dtype's name, e.g. ``"float64"``."""
        return self._name

    @property
    def kind(self) -> str:
        """One of the ``isdtype`` kinds."""
        return self._kind

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return int(self._native.itemsize)


_REGISTRY: dict[str, DType] = {}
# native (NumPy) dtype of *native byte order* -> our dtype
_FROM_NATIVE: dict[np.dtype, DType] = {}


def _by_name(name: str) -> DType:
    return _REGISTRY[name]


# (`builtins.bool` in annotations: the module-level name `bool` is the dtype.)
def _register(
    name: str, kind: str, native: npt.DTypeLike, *, standard: builtins.bool = False
) -> DType:
    """Create and register a dtype (used here and by ``ocean_ext``)."""
    dt = DType._make(name, kind, np.dtype(native), standard=standard)
    _REGISTRY[name] = dt
    _FROM_NATIVE.setdefault(np.dtype(native), dt)
    return dt


bool = _register("bool", "bool", np.bool_, standard=True)  # noqa: A001
int8 = _register("int8", "signed integer", np.int8, standard=True)
int16 = _register("int16", "signed integer", np.int16, standard=True)
int32 = _register("int32", "signed integer", np.int32, standard=True)
int64 = _register("int64", "signed integer", np.int64, standard=True)
uint8 = _register("uint8", "unsigned integer", np.uint8, standard=True)
uint16 = _register("uint16", "unsigned integer", np.uint16, standard=True)
uint32 = _register("uint32", "unsigned integer", np.uint32, standard=True)
uint64 = _register("uint64", "unsigned integer", np.uint64, standard=True)
float32 = _register("float32", "real floating", np.float32, standard=True)
float64 = _register("float64", "real floating", np.float64, standard=True)
complex64 = _register("complex64", "complex floating", np.complex64, standard=True)
complex128 = _register("complex128", "complex floating", np.complex128, standard=True)

STANDARD_DTYPES: tuple[DType, ...] = (
    bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float32, float64, complex64, complex128,
)  # fmt: skip

# --- dtype categories used to check arguments (sets of DType) -------------
# They are mutable so that ocean_ext can add its dtypes to the right kinds.
_boolean: set[DType] = {bool}
_signed: set[DType] = {int8, int16, int32, int64}
_unsigned: set[DType] = {uint8, uint16, uint32, uint64}
_integer: set[DType] = _signed | _unsigned
_real_floating: set[DType] = {float32, float64}
_complex_floating: set[DType] = {complex64, complex128}
_floating: set[DType] = _real_floating | _complex_floating
_real_numeric: set[DType] = _integer | _real_floating
_numeric: set[DType] = _integer | _floating
_integer_or_boolean: set[DType] = _integer | _boolean
_all: set[DType] = _numeric | _boolean
# Index-array dtypes a backend's getitem/setitem takes as they are; uint64
# values beyond intp go through the backend's "index_array" entry first
# (NumPy would wrap 2**64 - 1 around to -1).
_quick_index: set[DType] = _boolean | _signed | {uint8, uint16, uint32}

# Human words for error messages, keyed by the category's identity.
CATEGORY_NAMES: dict[int, str] = {
    id(_boolean): "a boolean",
    id(_integer): "an integer",
    id(_integer_or_boolean): "an integer or boolean",
    id(_real_floating): "a real floating-point",
    id(_complex_floating): "a complex floating-point",
    id(_floating): "a floating-point",
    id(_real_numeric): "a real numeric",
    id(_numeric): "a numeric",
    id(_all): "any",
}

KINDS = {
    "bool": _boolean,
    "signed integer": _signed,
    "unsigned integer": _unsigned,
    "integral": _integer,
    "real floating": _real_floating,
    "complex floating": _complex_floating,
    "numeric": _numeric,
}

# Defaults (the standard's "default data types").
DEFAULT_INT = int64
DEFAULT_FLOAT = float64
DEFAULT_COMPLEX = complex128
DEFAULT_INDEX = int64

# Real <-> complex companions.
COMPLEX_OF: dict[DType, DType] = {float32: complex64, float64: complex128}
REAL_OF: dict[DType, DType] = {complex64: float32, complex128: float64}

# --- the promotion lattice -------------------------------------------------
_PROMOTION: dict[tuple[DType, DType], DType] = {}


def _add_rule(a: DType, b: DType, r: DType) -> None:
    _PROMOTION[(a, b)] = r
    _PROMOTION[(b, a)] = r


for _group in ((int8, int16, int32, int64), (uint8, uint16, uint32, uint64),
               (float32, float64), (complex64, complex128)):  # fmt: skip
    for _i, _a in enumerate(_group):
        for _b in _group[_i:]:
            _add_rule(_a, _b, _b)
_add_rule(bool, bool, bool)
for _u, _row in (
    (uint8, (int16, int16, int32, int64)),
    (uint16, (int32, int32, int32, int64)),
    (uint32, (int64, int64, int64, int64)),
):
    for _s, _r in zip((int8, int16, int32, int64), _row, strict=True):
        _add_rule(_u, _s, _r)
_add_rule(float32, complex64, complex64)
_add_rule(float32, complex128, complex128)
_add_rule(float64, complex64, complex128)
_add_rule(float64, complex128, complex128)


def promote(d1: DType, d2: DType, where: str) -> DType:
    """The standard's promoted dtype of ``d1`` and ``d2``, or TypeError."""
    if d1 is d2:
        return d1
    try:
        return _PROMOTION[(d1, d2)]
    except KeyError:
        pass
    msg = (
        f"{where}: {d1} and {d2} cannot be promoted together under the Array API "
        f"standard (mixed kinds, or uint64 with a signed integer); convert one "
        f"operand with astype() first"
    )
    raise TypeError(msg) from None


def from_native(native: np.dtype) -> DType | None:
    """Our dtype for a NumPy dtype (any byte order), or None if there is none."""
    dt = _FROM_NATIVE.get(native)
    if dt is None and not native.isnative:
        dt = _FROM_NATIVE.get(native.newbyteorder("="))
    return dt


def check_dtype_arg(dtype: object, where: str, argname: str = "dtype") -> DType:
    """Validate a ``dtype=`` argument: a DType of ours, else TypeError.

    The standard dtypes, and the dtypes ``ocean_ext`` registers (float16,
    complex32): functions that cannot handle those reject them themselves.
    """
    if dtype.__class__ is DType:
        return dtype  # type: ignore[return-value]
    msg = (
        f"{where}: `{argname}` must be a dtype of this namespace (e.g. "
        f"ocean_array_api.float64), got {dtype!r} of type {type(dtype).__name__}"
    )
    raise TypeError(msg)
