"""Python operators of ``COO``, built from the module's functions.

Forward and reflected operators accept a COO, an ``ocean_array_api`` array or
a Python scalar and return ``NotImplemented`` for anything else.  In-place
operators (``s += t``) write the result through ``s[...] = ...``, so they
reach the base array and every view; like the standard's, they refuse to
change the dtype or the shape of ``s``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _elementwise as _ew
from ._common import Array
from ._coo import COO
from ._linalg import matmul

__all__: list[str] = []


def _forward(func: Any) -> Callable[..., Any]:
    apply = func._apply

    def op(self: COO, other: Any, /) -> Any:
        return apply(self, other)

    return op


def _reflected(func: Any) -> Callable[..., Any]:
    apply = func._apply

    def op(self: COO, other: Any, /) -> Any:
        return apply(other, self)

    return op


def _inplace(func: Any, name: str) -> Callable[..., Any]:
    apply = func._apply
    where = f"in-place {name}()"

    def op(self: COO, other: Any, /) -> Any:
        res = apply(self, other)
        if res is NotImplemented:
            return res
        return _store_inplace(self, res, where)

    return op


def _store_inplace(self: COO, res: Any, where: str) -> COO:
    """Write the result ``res`` of an in-place operation into ``self``."""
    self._check_writable(where)
    if res.dtype is not self.dtype:
        msg = (
            f"{where}: the result would have dtype {res.dtype}, but an in-place "
            f"operation cannot change the dtype {self.dtype} of `x1`"
        )
        raise TypeError(msg)
    if res.shape != self.shape:
        msg = (
            f"{where}: the result would have shape {res.shape}, but an in-place "
            f"operation cannot change the shape {self.shape} of `x1`"
        )
        raise ValueError(msg)
    self[...] = res
    return self


def _install() -> None:
    table = {
        "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
        "floordiv": "floor_divide", "mod": "remainder", "pow": "pow",
        "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
        "lshift": "bitwise_left_shift", "rshift": "bitwise_right_shift",
    }  # fmt: skip
    for short, name in table.items():
        func = getattr(_ew, name)
        setattr(COO, f"__{short}__", _forward(func))
        setattr(COO, f"__r{short}__", _reflected(func))
        setattr(COO, f"__i{short}__", _inplace(func, name))
    for short, name in {
        "eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
        "gt": "greater", "ge": "greater_equal",
    }.items():  # fmt: skip
        setattr(COO, f"__{short}__", _forward(getattr(_ew, name)))
    for short, name in {
        "neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert",
    }.items():  # fmt: skip
        func = getattr(_ew, name)
        setattr(COO, f"__{short}__", lambda self, _f=func: _f(self))

    def __matmul__(self: COO, other: Any, /) -> Any:
        if not isinstance(other, COO) and other.__class__ is not Array:
            return NotImplemented
        return matmul(self, other)

    def __rmatmul__(self: COO, other: Any, /) -> Any:
        if other.__class__ is not Array:
            return NotImplemented
        return matmul(other, self)

    def __imatmul__(self: COO, other: Any, /) -> Any:
        # in place, as the standard's @=: through self[...] (so the base array
        # and every view see it, and read-only arrays refuse it)
        if not isinstance(other, COO) and other.__class__ is not Array:
            return NotImplemented
        return _store_inplace(self, matmul(self, other), "in-place matmul() (@=)")

    setattr(COO, "__matmul__", __matmul__)  # noqa: B010
    setattr(COO, "__rmatmul__", __rmatmul__)  # noqa: B010
    setattr(COO, "__imatmul__", __imatmul__)  # noqa: B010


_install()
