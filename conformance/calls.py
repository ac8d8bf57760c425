"""Recorded calls: one description drives the reference, the target and the repro.

A :class:`Call` names a standard function (``"sign"``, ``"linalg.eigh"``,
``"Array.__add__"``) and holds its arguments as drawn on the reference.  Arrays
are wrapped in :class:`Arr`, dtypes in :class:`DT` and the device in :data:`DEV`,
so the same call can be *materialised* on either namespace and *rendered* as a
few lines of plain Python against the target alone.
"""

from __future__ import annotations

import ast
import math
import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = [
    "DEV",
    "DT",
    "Arr",
    "Call",
    "ComputeError",
    "Namespace",
    "render_repro",
    "repro_names",
    "repro_parts",
    "runs_as_statement",
    "show",
    "to_numpy",
]


@dataclass(frozen=True)
class DT:
    """A dtype argument, by its standard name (``DT("float32")``)."""

    name: str


class _Dev:
    """The device argument: the reference's default or the target's ``--device``."""

    def __repr__(self) -> str:
        return "DEV"


DEV = _Dev()


# How an array lies in memory on both namespaces: "" (contiguous), "T" (the
# axes of a contiguous array reversed: a transposed view) or "step" (every
# other element of a contiguous array of twice the sides).  Values and results
# must not depend on it; a kernel that ignores strides shows.
LAYOUTS = ("", "T", "step")
_LAYOUT_OF: dict[int, tuple[Any, str]] = {}


def set_layout(x: Any, layout: str) -> Any:
    """Mark the reference array ``x`` to be laid out as ``layout`` (see
    :data:`LAYOUTS`) wherever an :class:`Arr` wraps it; return ``x``."""
    key = id(x)
    if layout:
        ref = weakref.ref(x, lambda _, k=key: _LAYOUT_OF.pop(k, None))
        _LAYOUT_OF[key] = (ref, layout)
    return x


def layout_of(x: Any) -> str:
    """The layout :func:`set_layout` gave ``x`` ("" if none)."""
    entry = _LAYOUT_OF.get(id(x))
    return entry[1] if entry is not None and entry[0]() is x else ""


def fit_layout(layout: str, shape: tuple) -> str:
    """``layout`` where it makes ``shape`` non-contiguous, else ""."""
    if math.prod(shape) < 2 or not shape:
        return ""
    if layout == "T" and sum(n > 1 for n in shape) < 2:
        return "step"  # a transposed vector is still contiguous
    return layout


@dataclass(eq=False)
class Arr:
    """An array argument, drawn on the reference; ``name`` is used in repros.

    ``layout`` (see :data:`LAYOUTS`) is how both namespaces get it in memory;
    None takes the one the drawing gave ``value`` (:func:`set_layout`).
    """

    value: Any  # an ocean_array_api array
    name: str = "x"
    layout: str | None = None

    def __post_init__(self) -> None:
        if self.layout is None:
            self.layout = layout_of(self.value)
        self.layout = fit_layout(self.layout, tuple(self.value.shape))

    def numpy(self) -> np.ndarray:
        return np.asarray(self.value)

    def __repr__(self) -> str:  # short: Hypothesis prints explicit examples
        return f"Arr({self.name}: {self.dtype_name}{tuple(self.value.shape)})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    @property
    def dtype_name(self) -> str:
        return str(self.value.dtype)


@dataclass(eq=False)
class Call:
    """One call of a standard function with recorded arguments."""

    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    # argument positions an in-place operation may modify (``__iadd__``'s self)
    mutates: tuple[int, ...] = ()
    # input classes the values do not show ("singular matrices"): coverage
    tags: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Call({self.name}, {len(self.args)} args, {sorted(self.kwargs)})"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(repr(self))

    def arrays(self) -> list[Arr]:
        out = [a for a in self.args if isinstance(a, Arr)]
        out += [v for v in self.kwargs.values() if isinstance(v, Arr)]
        for a in self.args:
            if isinstance(a, (list, tuple)):
                out += [b for b in a if isinstance(b, Arr)]
        return out


class Namespace:
    """A namespace (reference or target) with the device its arrays live on.

    Parameters
    ----------
    module : module
        The array namespace.
    device : object or None
        The device object of ``module`` to put every input on (``None``: default).
    device_label : str
        How the user named the device (``"cpu:1"``), for repros.
    """

    def __init__(self, module: Any, device: Any = None, device_label: str = "") -> None:
        self.module = module
        self.device = device
        self.device_label = device_label

    def resolve(self, name: str) -> Any:
        """Return the callable for a standard name (``linalg.eigh``, ``info.dtypes``)."""
        obj = self.module
        head, _, rest = name.partition(".")
        if head == "info":
            return getattr(self.module.__array_namespace_info__(), rest)
        for part in name.split("."):
            obj = getattr(obj, part)
        return obj

    def array(self, arr: Arr) -> Any:
        """Put a fresh copy of a reference array on this namespace's device,
        laid out in memory as ``arr.layout`` says (through this namespace's
        own ``permute_dims`` or step slicing, so a view where it has views)."""
        host = np.array(np.asarray(arr.value), copy=True)
        if arr.layout == "T":
            back = tuple(range(host.ndim))[::-1]
            base = self._put(np.ascontiguousarray(host.transpose()), str(host.dtype))
            return self.module.permute_dims(base, back)
        if arr.layout == "step":
            big = np.zeros(tuple(2 * n for n in host.shape), dtype=host.dtype)
            every = (slice(None, None, 2),) * host.ndim
            big[every] = host
            return self._put(big, str(host.dtype))[every]
        return self._put(host, str(arr.value.dtype))

    def _put(self, host: np.ndarray, dtype_name: str) -> Any:
        xp = self.module
        kw = {} if self.device is None else {"device": self.device}
        try:
            out = xp.from_dlpack(host, **kw)
            if out.shape != host.shape:  # pragma: no cover - defensive
                raise ValueError
            return out
        except Exception:
            pass
        dtype = getattr(xp, dtype_name)
        if host.size == 0:  # a nested list loses zero-length dimensions
            return xp.zeros(host.shape, dtype=dtype, **kw)
        return xp.asarray(
            host.tolist() if host.ndim else host.item(), dtype=dtype, **kw
        )

    def value(self, v: Any) -> Any:
        if isinstance(v, Arr):
            return self.array(v)
        if isinstance(v, DT):
            return getattr(self.module, v.name)
        if v is DEV:
            if self.device is None:
                try:  # to_device(DEV) needs a device: the namespace's default
                    return self.module.__array_namespace_info__().default_device()
                except Exception:
                    return None
            return self.device
        if isinstance(v, list):
            return [self.value(a) for a in v]
        if isinstance(v, tuple):
            return tuple(self.value(a) for a in v)
        return v

    def materialize(self, call: Call) -> tuple[Any, tuple, dict]:
        """Return ``(function, args, kwargs)`` ready to run on this namespace."""
        args = tuple(self.value(a) for a in call.args)
        kwargs = {k: self.value(v) for k, v in call.kwargs.items()}
        if call.name.startswith("Array."):
            method = call.name.split(".", 1)[1]
            fn = getattr(args[0], method)
            return fn, args[1:], kwargs
        if call.name.startswith("dtype."):
            return getattr(args[0], call.name.split(".", 1)[1]), args[1:], kwargs
        return self.resolve(call.name), args, kwargs


class ComputeError(Exception):
    """A lazy array (dask) raised when its values were computed (``__cause__``)."""


def to_numpy(x: Any) -> np.ndarray:
    """Return the host values of an array of any namespace.

    A lazy array is computed first; if that raises, :class:`ComputeError` says
    so (the library failed, not the reading of its values).
    """
    compute = getattr(x, "compute", None)
    if callable(compute) and not isinstance(x, np.ndarray):
        try:
            x = compute()
        except Exception as e:
            msg = f"raised {type(e).__name__} when computed: {str(e)[:160]}"
            raise ComputeError(msg) from e
    try:
        return np.asarray(x)
    except Exception:
        pass
    try:
        return np.from_dlpack(x)
    except Exception:
        pass
    try:  # another device: ask the array to copy itself to the host
        return np.from_dlpack(x, device="cpu")
    except Exception:
        pass
    lazy_conj = getattr(x, "is_conj", None)  # PyTorch: a lazily conjugated view
    if callable(lazy_conj) and lazy_conj():  # exports nothing until resolved
        return to_numpy(x.resolve_conj())
    for name in ("get", "numpy", "cpu"):
        if hasattr(x, name):
            return np.asarray(getattr(x, name)())
    msg = f"cannot read the values of {type(x).__name__} on the host"
    raise TypeError(msg)


# --- repros ------------------------------------------------------------------


def _lit(v: Any) -> str:
    """A Python literal for a scalar, valid for NaN, infinities and -0.0."""
    if isinstance(v, bool) or v is None:
        return repr(v)
    if isinstance(v, complex):
        return f"complex({_lit(v.real)}, {_lit(v.imag)})"
    if isinstance(v, float):
        if math.isnan(v):
            return "float('nan')"
        if math.isinf(v):
            return "float('inf')" if v > 0 else "-float('inf')"
        return repr(v)
    return repr(v)


def _nested(v: Any) -> str:
    if isinstance(v, list):
        return "[" + ", ".join(_nested(a) for a in v) + "]"
    return _lit(v)


def format_values(a: np.ndarray) -> str:
    """Values as a nested Python list (``nan``/``inf`` spelled as literals)."""
    a = np.asarray(a)
    return _nested(a.tolist()) if a.ndim else _lit(a.item())


def _array_expr(arr: Arr, xp: str, device: bool) -> str:
    host = arr.numpy()
    dev = ", device=DEV" if device else ""
    if host.size == 0:  # a nested list would lose the zero-length dimensions
        return f"{xp}.zeros({host.shape!r}, dtype={xp}.{arr.dtype_name}{dev})"
    if arr.layout == "T":  # a transposed view, as the run made it
        back = tuple(range(host.ndim))[::-1]
        inner = format_values(np.ascontiguousarray(host.transpose()))
        new = f"{xp}.asarray({inner}, dtype={xp}.{arr.dtype_name}{dev})"
        return f"{xp}.permute_dims({new}, {back!r})"
    if arr.layout == "step":  # every other element of a larger array
        big = np.zeros(tuple(2 * n for n in host.shape), dtype=host.dtype)
        big[(slice(None, None, 2),) * host.ndim] = host
        new = f"{xp}.asarray({format_values(big)}, dtype={xp}.{arr.dtype_name}{dev})"
        return f"{new}[{', '.join(['::2'] * host.ndim)}]"
    return f"{xp}.asarray({format_values(host)}, dtype={xp}.{arr.dtype_name}{dev})"


def _expr(v: Any, xp: str, names: dict[int, str], device: bool) -> str:
    if isinstance(v, Arr):
        return names.get(id(v)) or _array_expr(v, xp, device)
    if isinstance(v, DT):
        return f"{xp}.{v.name}"
    if v is DEV:
        return "DEV"
    if isinstance(v, slice):
        return f"slice({v.start!r}, {v.stop!r}, {v.step!r})"
    if v is Ellipsis:
        return "..."
    if isinstance(v, list):
        return "[" + ", ".join(_expr(a, xp, names, device) for a in v) + "]"
    if isinstance(v, tuple):
        inner = ", ".join(_expr(a, xp, names, device) for a in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    return _lit(v)


def _key(v: Any, xp: str, names: dict[int, str], device: bool) -> str:
    """An index as written between brackets: ``1:3, None, ...``."""

    def one(k: Any) -> str:
        if isinstance(k, slice):
            a = "" if k.start is None else repr(k.start)
            b = "" if k.stop is None else repr(k.stop)
            return f"{a}:{b}" + ("" if k.step is None else f":{k.step!r}")
        return _expr(k, xp, names, device)

    if isinstance(v, tuple):
        if not v:
            return "()"
        return ", ".join(one(k) for k in v) + ("," if len(v) == 1 else "")
    return one(v)


_BINARY_OPS = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "truediv": "/",
    "floordiv": "//",
    "mod": "%",
    "pow": "**",
    "matmul": "@",
    "and": "&",
    "or": "|",
    "xor": "^",
    "lshift": "<<",
    "rshift": ">>",
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
}
_UNARY_OPS = {"neg": "-", "pos": "+", "invert": "~", "abs": "abs"}
_CONVERT = {"bool": "bool", "int": "int", "float": "float", "complex": "complex"}


def runs_as_statement(call: Call) -> bool:
    """Whether a repro runs ``call`` as a statement (the last line before the print)."""
    if call.name in ("Array.__setitem__", "Array.__getitem__"):
        return call.name == "Array.__setitem__"
    args = [f"a{i}" for i in range(len(call.args))]
    return bool(_statement(call, args, [f"{k}=v" for k in call.kwargs])[0])


def _statement(call: Call, args: list[str], kwargs: list[str]) -> tuple[str, str]:
    """``(statement, expression)``: what the repro runs, and what it shows.

    The statement is empty when the expression is the call itself; an
    in-place operator or an item assignment runs as a statement and shows
    the array it changed.
    """
    if not call.name.startswith(("Array.", "dtype.")):
        return "", f"xp.{call.name}({', '.join(args + kwargs)})"
    method = call.name.split(".", 1)[1]
    stem = method.strip("_")
    if call.name.startswith("Array.") and not kwargs:
        if stem in _BINARY_OPS and len(args) == 2:
            return "", f"{args[0]} {_BINARY_OPS[stem]} {args[1]}"
        if stem[1:] in _BINARY_OPS and stem[0] == "r" and len(args) == 2:
            return "", f"{args[1]} {_BINARY_OPS[stem[1:]]} {args[0]}"
        if stem[1:] in _BINARY_OPS and stem[0] == "i" and len(args) == 2:
            return f"{args[0]} {_BINARY_OPS[stem[1:]]}= {args[1]}", args[0]
        if stem in _UNARY_OPS and len(args) == 1:
            op = _UNARY_OPS[stem]
            return "", f"abs({args[0]})" if op == "abs" else f"{op}{args[0]}"
        if stem in _CONVERT and len(args) == 1:
            return "", f"{_CONVERT[stem]}({args[0]})"
    return "", f"{args[0]}.{method}({', '.join(args[1:] + kwargs)})"


def repro_parts(
    call: Call, module_name: str, device_label: str = ""
) -> tuple[list[str], str]:
    """The lines a repro runs before its last one, and the expression it shows.

    Parameters
    ----------
    call : Call
        The recorded call.
    module_name : str
        The importable target (``"numpy"``, ``"array_api_compat.torch"``).
    device_label : str
        The device inputs are put on; empty for the target's default device.
    """
    device = bool(device_label)
    first = f"import {module_name} as xp"
    if device:
        first += (
            "; DEV = next(d for d in xp.__array_namespace_info__().devices()"
            f" if str(d) == {device_label!r})"
        )
    elif _uses_dev(call):  # to_device(DEV), device=DEV: the default device
        first += "; DEV = xp.__array_namespace_info__().default_device()"
    lines = [first]
    names = repro_names(call)
    for arr in call.arrays()[:2]:
        lines.append(f"{names[id(arr)]} = {_array_expr(arr, 'xp', device)}")
    args = [_expr(a, "xp", names, device) for a in call.args]
    kwargs = [f"{k}={_expr(v, 'xp', names, device)}" for k, v in call.kwargs.items()]
    if call.name == "Array.__getitem__":
        return lines, f"{args[0]}[{_key(call.args[1], 'xp', names, device)}]"
    if call.name == "Array.__setitem__":
        key = _key(call.args[1], "xp", names, device)
        lines.append(f"{args[0]}[{key}] = {args[2]}")
        return lines, args[0]
    stmt, expr = _statement(call, args, kwargs)
    if stmt:
        lines.append(stmt)
    return lines, expr


def repro_names(call: Call) -> dict[int, str]:
    """The names a repro gives the call's arrays (``id(Arr)`` to name).

    Up to two arrays get their own line; further ones are written inline.
    """
    names: dict[int, str] = {}
    for arr in call.arrays()[:2]:
        name = arr.name if arr.name not in names.values() else arr.name + "_"
        names[id(arr)] = name
    return names


def _uses_dev(call: Call) -> bool:
    def has(v: Any) -> bool:
        if v is DEV:
            return True
        if isinstance(v, (list, tuple)):
            return any(has(a) for a in v)
        return False

    return has(call.args) or has(tuple(call.kwargs.values()))


def show(expr: str, lazy: bool = False, several: bool = False) -> str:
    """The repro's last line: print ``expr``, computing a lazy result first."""
    if not lazy:
        return f"print({expr})"
    if several:
        return f"print([a.compute() for a in {expr}])"
    try:
        top = ast.parse(expr, mode="eval").body
    except SyntaxError:
        top = None
    if not isinstance(top, (ast.Call, ast.Name, ast.Attribute, ast.Subscript)):
        expr = f"({expr})"  # x ** y: compute the result, not y
    return f"print({expr}.compute())"


def render_repro(
    call: Call,
    module_name: str,
    expected: str,
    device_label: str = "",
    *,
    lazy: bool = False,
    several: bool = False,
) -> str:
    """Render a call as a few lines of plain Python against the target.

    Parameters
    ----------
    call : Call
        The recorded call.
    module_name : str
        The importable target (``"numpy"``, ``"array_api_compat.torch"``).
    expected : str
        What the reference returned (or raised), as a comment.
    device_label : str
        The device inputs are put on; empty for the target's default device.
    lazy : bool
        The target's results are lazy (dask): the repro computes what it shows.
    several : bool
        The result is a tuple of arrays (computed one by one when lazy).

    Returns
    -------
    str
        The repro, lines separated by newlines; the last one is the expected
        result as a comment.
    """
    lines, expr = repro_parts(call, module_name, device_label)
    lines.append(show(expr, lazy, several))
    lines.append("# expected: " + expected.replace("\n", " "))
    return "\n".join(lines)
