"""What to write instead: the hints of errors that NumPy habits cause.

Code written for NumPy meets a strict namespace with habits the standard does
not share: ``xp.array(...)``, array methods (``x.sum()``, ``x.astype(...)``),
keyword-only arguments passed by position (``xp.sum(x, 0)``), ``concat(x, y)``,
one-argument ``where(mask)``, NumPy ufuncs on our arrays (``np.exp(x)``).  The
errors stay those Python and the standard give (``AttributeError`` for a
missing attribute, ``TypeError`` for a call that does not fit); their messages
say what to write instead.

None of this costs anything on a call that works: the hints are computed only
after a failure (a missing module attribute reaches the module's
``__getattr__``; a missing array attribute, one of the descriptors below; a
call whose arguments do not bind, the compiled fast path's fallback or the
pure Python twin of it, :func:`guard`).
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

# --- module attributes ----------------------------------------------------------

_USE = "the standard's function is"

# NumPy's (and other libraries') names for which the standard has another.
MODULE_HINTS: dict[str, str] = {
    "array": "arrays are made with asarray(obj, dtype=..., device=...)",
    "asanyarray": "arrays are made with asarray(obj)",
    "ascontiguousarray": "arrays are made with asarray(obj)",
    "tensor": "arrays are made with asarray(obj)",
    "concatenate": f"{_USE} concat(arrays, axis=0)",
    "hstack": "use concat(arrays, axis=-1) (or axis=0 for 1-d arrays)",
    "vstack": "use concat(arrays, axis=0) (stack() for 1-d arrays)",
    "append": "use concat((x, values))",
    "transpose": "use permute_dims(x, axes), or x.mT for the last two axes",
    "swapaxes": "use permute_dims(x, axes), or x.mT for the last two axes",
    "moveaxis": "use permute_dims(x, axes)",
    "ravel": "use reshape(x, (-1,))",
    "flatten": "use reshape(x, (-1,))",
    "power": f"{_USE} pow(x1, x2)",
    "absolute": f"{_USE} abs(x)",
    "arccos": f"{_USE} acos(x)",
    "arcsin": f"{_USE} asin(x)",
    "arctan": f"{_USE} atan(x)",
    "arctan2": f"{_USE} atan2(x1, x2)",
    "arccosh": f"{_USE} acosh(x)",
    "arcsinh": f"{_USE} asinh(x)",
    "arctanh": f"{_USE} atanh(x)",
    "conjugate": f"{_USE} conj(x)",
    "invert": f"{_USE} bitwise_invert(x)",
    "bitwise_not": f"{_USE} bitwise_invert(x)",
    "left_shift": f"{_USE} bitwise_left_shift(x1, x2)",
    "right_shift": f"{_USE} bitwise_right_shift(x1, x2)",
    "true_divide": f"{_USE} divide(x1, x2)",
    "mod": f"{_USE} remainder(x1, x2)",
    "fmod": "use remainder(x1, x2) (the sign of x2), or x1 - x2 * trunc(x1 / x2)",
    "amax": f"{_USE} max(x, axis=...)",
    "amin": f"{_USE} min(x, axis=...)",
    "nanmax": "use max(x[~isnan(x)]) (the standard has no nan-functions)",
    "nanmin": "use min(x[~isnan(x)]) (the standard has no nan-functions)",
    "nansum": "use sum(where(isnan(x), 0, x), axis=...)",
    "nanmean": "use mean(x[~isnan(x)]) (the standard has no nan-functions)",
    "cumsum": f"{_USE} cumulative_sum(x, axis=...)",
    "cumprod": f"{_USE} cumulative_prod(x, axis=...)",
    "dot": "use matmul(x1, x2) (or x1 @ x2), vecdot() or tensordot()",
    "inner": "use vecdot(x1, x2)",
    "identity": f"{_USE} eye(n)",
    "copy": "use asarray(x, copy=True)",
    "array_equal": "use bool(all(x1 == x2)) (same shapes)",
    "allclose": "use bool(all(abs(x1 - x2) <= atol + rtol * abs(x2)))",
    "isclose": "use abs(x1 - x2) <= atol + rtol * abs(x2)",
    "unique": (
        "the standard's functions are unique_values(), unique_counts(), "
        "unique_inverse() and unique_all()"
    ),
    "atleast_1d": "use reshape(x, (-1,)) for a 0-d array",
    "diag": "use linalg.diagonal(x) to read a diagonal",
    "trace": "use linalg.trace(x)",
    "norm": "use linalg.vector_norm(x) or linalg.matrix_norm(x)",
    "float_": "the dtype is float64",
    "int_": "the dtype is int64",
    "bool_": "the dtype is bool",
    "float": "the dtypes are float32 and float64",
    "int": "the dtypes are int8, int16, int32 and int64",
    "complex": "the dtypes are complex64 and complex128",
    "float16": "ocean_ext.float16 adds it (not a standard dtype)",
    "complex32": "ocean_ext.complex32 adds it (not a standard dtype)",
    "random": (
        "the standard has no random numbers: draw them with NumPy and convert "
        "with asarray()"
    ),
    "ndarray": "the array type is type(x) (ocean_array_api.Array)",
    "ufunc": "the standard's functions are plain functions",
}

LINALG_HINTS: dict[str, str] = {
    "norm": "use vector_norm(x) or matrix_norm(x)",
    "lstsq": "the standard has no lstsq: use pinv(a) @ b, or solve() on the normal equations",
    "multi_dot": "chain matmul() (or @)",
    "matrix_exp": "the standard has no matrix exponential",
}


def missing_module_attribute_error(
    module: str, name: str, names: list[str] | None = None, version: str | None = None
) -> AttributeError:
    """The AttributeError for ``module.name``, a name the module lacks.

    ``names`` are the module's public names (default: its ``__all__``) and
    ``version`` its revision of the standard (default: the process's).
    """
    msg = f"module {module!r} has no attribute {name!r}"
    if name.startswith("_"):  # private and special names: Python's own message
        return AttributeError(msg, name=name)
    import sys

    from . import _flags, _namespace

    mod = sys.modules.get(module)
    if names is None:
        names = list(getattr(mod, "__all__", ()))
    version = version or _flags.API_VERSION
    sub = module.rpartition(".")[2] if module.count(".") else ""
    added = _namespace.LINALG_ADDED if sub == "linalg" else _namespace.ADDED
    since = (
        next((v for v, new in added.items() if name in new), None)
        if sub != "fft"
        else None
    )
    if since is not None and not _flags.at_least(version, since):
        hint: str | None = (
            f"{name}() is new in revision {since} of the standard and this namespace "
            f"is {version}: ask for x.__array_namespace__(api_version={since!r})"
        )
    else:
        table = (
            LINALG_HINTS if sub == "linalg" else {} if sub == "fft" else MODULE_HINTS
        )
        hint = table.get(name) or _close(name, names)
    return AttributeError(f"{msg}; {hint}" if hint else msg, name=name)


def _close(name: str, names: list[str]) -> str | None:
    near = difflib.get_close_matches(name, names, n=1, cutoff=0.8)
    return f"did you mean {near[0]!r}?" if near else None


# --- Array attributes -----------------------------------------------------------

_NS = "with xp = x.__array_namespace__()"


def _fn(call: str) -> str:
    return f"the standard has no such method; call the namespace's function: xp.{call} ({_NS})"


ARRAY_HINTS: dict[str, str] = {
    **{
        name: _fn(f"{name}(x, axis=...)")
        for name in ("sum", "prod", "mean", "std", "var", "max", "min", "any", "all")
    },
    "argmax": _fn("argmax(x, axis=...)"),
    "argmin": _fn("argmin(x, axis=...)"),
    "cumsum": _fn("cumulative_sum(x, axis=...)"),
    "cumprod": _fn("cumulative_prod(x, axis=...)"),
    "astype": _fn("astype(x, dtype)"),
    "reshape": _fn("reshape(x, shape)"),
    "transpose": _fn("permute_dims(x, axes)") + ", or x.mT for the last two axes",
    "swapaxes": _fn("permute_dims(x, axes)") + ", or x.mT for the last two axes",
    "flatten": _fn("reshape(x, (-1,))"),
    "ravel": _fn("reshape(x, (-1,))"),
    "squeeze": _fn("squeeze(x, axis)"),
    "clip": _fn("clip(x, min, max)"),
    "round": _fn("round(x)"),
    "conj": _fn("conj(x)"),
    "conjugate": _fn("conj(x)"),
    "real": _fn("real(x)"),
    "imag": _fn("imag(x)"),
    "nonzero": _fn("nonzero(x)"),
    "sort": _fn("sort(x, axis=...)") + " (a new array: nothing sorts in place)",
    "argsort": _fn("argsort(x, axis=...)"),
    "dot": "the standard has no such method; use x @ y (matmul), or xp.vecdot(x, y)",
    "diagonal": _fn("linalg.diagonal(x)"),
    "trace": _fn("linalg.trace(x)"),
    "repeat": _fn("repeat(x, repeats, axis=...)"),
    "take": _fn("take(x, indices, axis=...)"),
    "flip": _fn("flip(x, axis=...)"),
    "copy": "the standard has no such method; copy with xp.asarray(x, copy=True) "
    f"({_NS})",
    "fill": "the standard has no such method; assign to every element: x[...] = value",
    "item": "the standard has no such method; convert a 0-d array with float(x), "
    "int(x), complex(x) or bool(x)",
    "tolist": "the standard has no such method; on the CPU, numpy.asarray(x).tolist()",
    "numpy": "the standard has no such method; on the CPU, numpy.asarray(x) "
    "(from another device, x.to_device('cpu') first)",
    "get": "the standard has no such method; x.to_device('cpu'), then numpy.asarray()",
    "cpu": "the standard has no such method; use x.to_device('cpu')",
    "cuda": "the standard has no such method; use x.to_device('cuda:0')",
    "itemsize": "the standard has no such attribute; use "
    "xp.finfo(x.dtype).bits // 8 or xp.iinfo(x.dtype).bits // 8",
    "nbytes": "the standard has no such attribute; use x.size times the item "
    "size (xp.finfo(x.dtype).bits // 8, or iinfo for integers)",
    "flat": "the standard has no such attribute; use xp.reshape(x, (-1,))",
    "strides": "the standard has no such attribute (memory layout is not part of it)",
    "data": "the standard has no such attribute; export with DLPack "
    "(from_dlpack) or numpy.asarray(x) on the CPU",
}


class _Hint:
    """A class attribute that is not there: getting it raises AttributeError
    with a hint.  Costs nothing on other attributes (a ``__getattr__`` on the
    class would slow every attribute access down)."""

    __slots__ = ("hint", "name")

    def __init__(self, name: str, hint: str) -> None:
        self.name = name
        self.hint = hint

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        what = (
            f"'{owner.__name__}' object"
            if obj is not None
            else f"type object '{owner.__name__}'"
        )
        msg = f"{what} has no attribute {self.name!r}; {self.hint}"
        raise AttributeError(msg, name=self.name, obj=obj if obj is not None else owner)


def install_array_hints(cls: type) -> None:
    """Put the :data:`ARRAY_HINTS` descriptors on ``cls`` (the ``Array`` class)."""
    for name, hint in ARRAY_HINTS.items():
        if name in cls.__dict__:
            continue
        setattr(cls, name, _Hint(name, hint))


def array_dir(obj: Any) -> list[str]:
    """``dir()`` of an array: without the names that are only hints."""
    return [n for n in object.__dir__(obj) if n not in ARRAY_HINTS]


# --- calls whose arguments do not bind ------------------------------------------


def _public_name(func: Callable[..., Any]) -> str:
    module = getattr(func, "__module__", "") or ""
    name = getattr(func, "__name__", "?")
    for sub in ("linalg", "fft"):
        if module.endswith("." + sub):
            return f"{sub}.{name}"
    return name


@functools.cache
def _signature(func: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(func)
    except (TypeError, ValueError):
        return None


# NumPy's names of the standard's functions, where they differ.
_NUMPY_NAMES = {
    "concat": "concatenate",
    "permute_dims": "transpose",
    "pow": "power",
    "acos": "arccos",
    "asin": "arcsin",
    "atan": "arctan",
    "atan2": "arctan2",
    "cumulative_sum": "cumsum",
    "cumulative_prod": "cumprod",
}


@functools.cache
def numpy_positional_names(name: str) -> tuple[str, ...]:
    """The names NumPy's function for the standard's ``name`` gives its
    positional parameters (empty when NumPy has none)."""
    module: Any = np
    *prefix, base = name.split(".")
    if prefix:
        module = getattr(np, prefix[0], None)
    fn = getattr(module, _NUMPY_NAMES.get(base, base), None)
    sig = _signature(fn) if fn is not None else None
    if sig is None:
        return ()
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return tuple(p.name for p in sig.parameters.values() if p.kind in kinds)


def _plain(sig: inspect.Signature) -> str:
    """``sig`` without annotations: ``(x, /, *, axis=None)``."""
    empty = inspect.Parameter.empty
    params = [p.replace(annotation=empty) for p in sig.parameters.values()]
    return str(sig.replace(parameters=params, return_annotation=empty))


def _by_type(value: Any, numpy_name: str, keyword_only: list[str]) -> str:
    """Which keyword a positional ``value`` was meant for: ``dtype`` for a
    dtype, ``device`` for a device, else NumPy's name for that position."""
    from ._devices import Device
    from ._dtypes import DType

    if isinstance(value, DType) and "dtype" in keyword_only:
        return "dtype"
    if isinstance(value, Device) and "device" in keyword_only:
        return "device"
    return numpy_name


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 30 else "..."


def _is_array(value: Any) -> bool:
    from ._array_object import Array

    return isinstance(value, Array)


def keyword_only(func: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator of a function written with a ``*_positional`` parameter.

    The parameter only catches arguments passed by position where the
    standard's signature has none (a NumPy habit: ``sum(x, 0)``), so that the
    function can say which keyword they belong to (:func:`positional_error`);
    a call that passes none costs a few nanoseconds.  The signature shown
    (``inspect.signature``, the docs, the conformance tool) is the standard's,
    without it.
    """
    sig = inspect.signature(func)
    kinds = (inspect.Parameter.VAR_POSITIONAL,)
    params = [p for p in sig.parameters.values() if p.kind not in kinds]
    func.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    return func


class _Missing:
    """The default of a required parameter that is given one only to say, when
    it is left out, what to write instead (see :func:`required`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<required>"


MISSING: Any = _Missing()


def required(count: int) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: the last ``count`` positional parameters of the function,
    written with the default :data:`MISSING`, are shown as required (the
    function checks for :data:`MISSING` itself)."""

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        sig = inspect.signature(func)
        params = list(sig.parameters.values())
        empty = inspect.Parameter.empty
        for i in range(len(params) - count, len(params)):
            params[i] = params[i].replace(default=empty)
        func.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
        return func

    return decorate


def positional_error(func: Callable[..., Any], args: tuple[Any, ...]) -> TypeError:
    """The TypeError of a call of ``func`` (decorated with :func:`keyword_only`)
    with the positional arguments ``args``, more than its signature takes."""
    err = call_error(func, args, {})
    assert err is not None  # more positional arguments than the signature has
    return err


def call_error(
    func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> TypeError | None:
    """A TypeError saying what to write for a call of ``func`` that does not
    fit its signature, or None when there is nothing to add."""
    sig = _signature(func)
    if sig is None:
        return None
    name = _public_name(func)
    params = list(sig.parameters.values())
    P = inspect.Parameter
    positional = [
        p for p in params if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
    ]
    keyword_only = [p.name for p in params if p.kind is P.KEYWORD_ONLY]

    if name == "where" and len(args) < 3 and not kwargs:
        if len(args) == 1:
            msg = (
                "where(): takes `condition`, `x1` and `x2` and chooses between x1 "
                "and x2; for the indices where `condition` is true (NumPy's "
                "one-argument where), use nonzero(condition)"
            )
        else:
            msg = (
                "where(): `x2` is missing: where(condition, x1, x2) takes the "
                "elements of x1 where condition is true and of x2 elsewhere"
            )
        return TypeError(msg)
    if (
        name in ("concat", "stack")
        and len(args) >= 2
        and _is_array(args[0])
        and _is_array(args[1])
    ):
        arrays = [a for a in args if _is_array(a)]
        listed = ", ".join(f"x{i + 1}" for i in range(len(arrays)))
        rest = args[len(arrays) :]
        axis = f", axis={_short(rest[0])}" if rest else ""
        msg = (
            f"{name}(): `arrays` is one list or tuple of arrays: write "
            f"{name}([{listed}]{axis}), not {name}({listed}{', ...' if rest else ''})"
        )
        return TypeError(msg)
    if len(args) > len(positional):
        extra = args[len(positional) :]
        numpy_names = numpy_positional_names(name)[len(positional) :]
        names = [
            _by_type(v, n, keyword_only)
            for v, n in zip(extra, numpy_names, strict=False)
        ]
        if len(names) == len(extra) and all(n in keyword_only for n in names):
            shown = [p.name for p in positional] + [
                f"{n}={_short(v)}" for n, v in zip(names, extra, strict=True)
            ]
            quoted = ", ".join(f"`{n}`" for n in names)
            verb = "is" if len(names) == 1 else "are"
            msg = (
                f"{name}(): {quoted} {verb} keyword-only: pass "
                f"{'it' if len(names) == 1 else 'them'} by name, as in "
                f"{name}({', '.join(shown)})"
            )
            return TypeError(msg)
        takes = ", ".join(p.name for p in positional)
        keywords = ", ".join(f"{n}=..." for n in keyword_only)
        msg = (
            f"{name}(): takes {len(positional)} positional argument(s) ({takes}), "
            f"got {len(args)}"
        )
        if keywords:
            msg += f"; pass the others by name ({keywords})"
        return TypeError(msg)
    return None


# --- NumPy ufuncs on our arrays ---------------------------------------------------

# NumPy ufuncs that Python operators call, with the reflected operator of ours.
_REFLECTED = {
    "add": "__radd__",
    "subtract": "__rsub__",
    "multiply": "__rmul__",
    "divide": "__rtruediv__",
    "true_divide": "__rtruediv__",
    "floor_divide": "__rfloordiv__",
    "remainder": "__rmod__",
    "power": "__rpow__",
    "matmul": "__rmatmul__",
    "bitwise_and": "__rand__",
    "bitwise_or": "__ror__",
    "bitwise_xor": "__rxor__",
    "left_shift": "__rlshift__",
    "right_shift": "__rrshift__",
    "less": "__gt__",
    "less_equal": "__ge__",
    "greater": "__lt__",
    "greater_equal": "__le__",
    "equal": "__eq__",
    "not_equal": "__ne__",
}

# ufunc name -> the standard's name, where they differ.
_STANDARD_NAMES = {
    "absolute": "abs", "arccos": "acos", "arcsin": "asin", "arctan": "atan",
    "arctan2": "atan2", "arccosh": "acosh", "arcsinh": "asinh", "arctanh": "atanh",
    "true_divide": "divide", "power": "pow", "invert": "bitwise_invert",
    "left_shift": "bitwise_left_shift", "right_shift": "bitwise_right_shift",
    "conjugate": "conj", "rint": "round", "fmod": "remainder", "mod": "remainder",
}  # fmt: skip
_REDUCTIONS = {
    ("add", "reduce"): "sum",
    ("multiply", "reduce"): "prod",
    ("maximum", "reduce"): "max",
    ("minimum", "reduce"): "min",
    ("logical_and", "reduce"): "all",
    ("logical_or", "reduce"): "any",
    ("add", "accumulate"): "cumulative_sum",
    ("multiply", "accumulate"): "cumulative_prod",
}


def array_ufunc(self: Any, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
    """``Array.__array_ufunc__``: NumPy's operators defer to ours, and a NumPy
    function called on our arrays raises a TypeError saying what to call."""
    name = getattr(ufunc, "__name__", str(ufunc))
    if (
        method == "__call__"
        and not kwargs
        and len(inputs) == 2
        and inputs[1] is self
        and not _is_array(inputs[0])
        and name in _REFLECTED
    ):
        # ``ndarray + x``, ``numpy.float64(2) * x``: the operator is ours
        return getattr(self, _REFLECTED[name])(inputs[0])
    if method == "__call__":
        called = f"numpy.{name}()"
        std = _STANDARD_NAMES.get(name, name)
    else:
        called = f"numpy.{name}.{method}()"
        std = _REDUCTIONS.get((name, method))
    import ocean_array_api

    instead = (
        f"call the namespace's function, xp.{std}(...) ({_NS}), or "
        if std is not None and hasattr(ocean_array_api, std)
        else ""
    )
    msg = (
        f"{called} does not take ocean_array_api arrays: {instead}convert to NumPy "
        f"first with numpy.asarray(x) (CPU arrays)"
    )
    raise TypeError(msg)
