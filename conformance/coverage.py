"""What a verdict rests on: the input classes each call exercised.

:func:`classes_of` reads a recorded call (its arrays, keywords and the
feature it belongs to) and names the input classes it exercises: special
values, empty and zero-dimensional arrays, each form of ``axis``,
``keepdims``, every keyword passed, broadcasting of a 0-length dimension
against a 1-length one, mixed dtypes, Python scalars, stacks of matrices,
required errors, and the classes a feature declares for what the values
alone do not show (``"singular matrices"``).  The runner counts them per
cell; the JSON report's ``coverage`` section lists them per name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .calls import Arr, Call

__all__ = ["classes_of"]

_INT_EXTREMES: dict[str, tuple[int, int]] = {}


def _extremes(dt: np.dtype) -> tuple[int, int]:
    key = dt.str
    if key not in _INT_EXTREMES:
        ii = np.iinfo(dt)
        _INT_EXTREMES[key] = (int(ii.min), int(ii.max))
    return _INT_EXTREMES[key]


def _values(a: np.ndarray, out: set[str]) -> None:
    if a.size == 0:
        out.add("empty array")
        return
    kind = a.dtype.kind
    if kind in "fc":
        parts = (a.real, a.imag) if kind == "c" else (a,)
        fi = np.finfo(a.real.dtype)
        for p in parts:
            if np.isnan(p).any():
                out.add("NaN")
            if np.isinf(p).any():
                out.add("infinity")
            zero = p == 0
            if zero.any() and np.signbit(p[zero]).any():
                out.add("signed zero")
            mag = np.abs(p[np.isfinite(p)])
            if ((mag > 0) & (mag < fi.smallest_normal)).any():
                out.add("subnormal")
            if (mag >= fi.max / 2).any():
                out.add("dtype extremes")
    elif kind in "iu":
        lo, hi = _extremes(a.dtype)
        if (a == lo).any() or (a == hi).any():
            out.add("dtype extremes")


def _axis(v: Any, out: set[str]) -> None:
    if v is None:
        out.add("axis=None")
    elif isinstance(v, tuple):
        if not v:
            out.add("axis=()")
        else:
            out.add("axis tuple")
            if any(isinstance(a, int) and a < 0 for a in v):
                out.add("negative axis")
    elif isinstance(v, int) and v < 0:
        out.add("negative axis")
    else:
        out.add("axis int")


def _broadcast_edge(shapes: list[tuple], out: set[str]) -> None:
    nd = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (nd - len(s)) + tuple(s) for s in shapes]
    for dims in zip(*padded, strict=True):
        if 0 in dims and 1 in dims:
            out.add("0 against 1 broadcast")
            return


# functions whose positional numbers are parameters, not operands
_SCALAR_PARAMS = frozenset(
    {"linalg.matrix_power", "roll", "repeat", "full", "full_like", "arange"}
)


def classes_of(call: Call, feature: Any) -> set[str]:
    """The input classes ``call`` (drawn for ``feature``) exercises."""
    out: set[str] = set(feature.classes)
    arrays = call.arrays()
    for a in arrays:
        v = a.numpy()
        if v.ndim == 0:
            out.add("zero-dimensional")
        _values(v, out)
    if feature.expect_raise:
        out.add("required error" if feature.level == "must" else "recommended error")
    dts = {a.dtype_name for a in arrays}
    if len(dts) > 1 and not call.name.startswith("linalg."):
        out.add("mixed dtypes")
    scalars = any(isinstance(v, (bool, int, float, complex)) for v in call.args)
    if scalars and arrays and call.name not in _SCALAR_PARAMS:
        out.add("python scalar")
    shapes = [tuple(a.value.shape) for a in arrays]
    if len(shapes) > 1:
        _broadcast_edge(shapes, out)
    if call.name.startswith("linalg.") and any(len(s) > 2 for s in shapes):
        out.add("stacked matrices")
    for k, v in call.kwargs.items():
        if k in ("axis", "axes"):
            _axis(v, out)
        elif k == "keepdims":
            out.add(f"keepdims={bool(v)}")
        elif k != "device":
            out.add(f"{k}=" + ("array" if isinstance(v, Arr) else "given"))
    out.update(call.tags)
    return out
