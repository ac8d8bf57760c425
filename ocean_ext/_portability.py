"""The portability report: run non-portable code, and list what makes it so.

``with ocean_ext.portability_report() as report:`` lets code that relies on
NumPy's leniency run on ``ocean_array_api``, and records every place where it
does.  Inside the block, a call that the strict namespace refuses is retried
once with its arguments made standard the way NumPy would read them:

- a NumPy array, a NumPy scalar, a Python scalar or a list where the standard
  requires an array of this namespace becomes one (``asarray``, on the device
  of the call's other arrays);
- a Python type, a NumPy dtype or scalar type, or a dtype name where the
  standard requires a dtype becomes this namespace's dtype (``float`` is
  ``float64``, as in NumPy);
- a 0-d NumPy array where the standard requires a Python scalar becomes that
  scalar (``full`` then keeps the array's dtype and ``linspace`` promotes as
  NumPy does); a 0-d array of this namespace is accepted by the strict
  namespace itself for ``linspace``/``arange`` bounds and ``full`` fill values;
- a NumPy array or an integer array where a shape is required becomes a tuple;
- arguments the standard makes keyword-only, passed by position, are moved to
  their keywords;
- operands of mixed kinds (``int64`` with ``float32``, an integer array with a
  Python float) are promoted as NumPy promotes them;
- NumPy index arrays become arrays of this namespace, and an index the standard
  does not allow (a boolean mask after ``...``, several boolean masks) is
  computed by the device's native array library, as NumPy computes it.

Each violation is recorded once per call site: the function, the argument, the
rule of the standard, and the ``file:line`` of the first caller outside
``ocean_array_api``, ``ocean_ext`` and array-api-compat.

How: while at least one block is open anywhere in the process, the public
functions of the namespaces (``ocean_array_api``, its ``linalg`` and ``fft``,
the namespaces of other revisions already made) and the operators of ``Array``
are replaced by thin wrappers, as :func:`ocean_ext.instrument` wraps the kernel
tables.  A wrapper calls the strict function first and only when it raises, and
a report is active in the caller's context (a :class:`contextvars.ContextVar`,
so per thread and per asyncio task), does it convert and retry.  Outside every
block nothing is wrapped: the namespace is exactly as strict and as fast as
without ``ocean_ext``.  While another thread has a block open, calls elsewhere
are still strict (the same exceptions), one wrapper call slower.
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from types import ModuleType
from typing import Any

import numpy as np

import ocean_array_api
from ocean_array_api import _dtypes as _dt
from ocean_array_api._array_object import Array, _wrap

__all__ = ["portability_report"]

# PortabilityReport and Violation are documented return types, reached through
# portability_report(); they are not separate public names (as instrument()'s).


@dataclass(frozen=True)
class Violation:
    """One non-portable usage, at one call site.

    Attributes
    ----------
    function : str
        The standard's name of what was called: ``"full"``, ``"linalg.solve"``,
        ``"Array.__add__"``, ``"Array.__getitem__"``.
    argument : str
        The parameter that broke the rule (``"fill_value"``, ``"key"``).
    rule : str
        What the standard says, in one line.
    location : str
        ``"file:line"`` of the first caller outside ``ocean_array_api``,
        ``ocean_ext`` and array-api-compat.
    found : str
        What was passed instead (``"numpy.ndarray"``, ``"0-d Array"``, ...).
    """

    function: str
    argument: str
    rule: str
    location: str
    found: str


class PortabilityReport:
    """The violations one :func:`portability_report` block recorded.

    ``report.violations`` lists them in the order first seen, each once per
    call site (``report.count(v)`` says how many calls made it);
    ``str(report)`` groups them by function; ``report.to_json()`` is the same
    as JSON.  A report is live while its block runs and keeps its contents
    after.
    """

    def __init__(self) -> None:
        self._counts: dict[Violation, int] = {}
        self._lock = threading.Lock()

    def _record(self, violation: Violation) -> None:
        with self._lock:
            self._counts[violation] = self._counts.get(violation, 0) + 1

    @property
    def violations(self) -> list[Violation]:
        """Every violation recorded, once per call site, in the order first seen."""
        with self._lock:
            return list(self._counts)

    def count(self, violation: Violation) -> int:
        """How many calls made ``violation`` (0 for one never recorded)."""
        with self._lock:
            return self._counts.get(violation, 0)

    def __len__(self) -> int:
        with self._lock:
            return len(self._counts)

    def __iter__(self) -> Iterator[Violation]:
        return iter(self.violations)

    def __bool__(self) -> bool:
        return len(self) > 0

    def to_json(self, **kwargs: Any) -> str:
        """The report as JSON: ``{"violations": [{function, argument, rule,
        location, found, count}, ...]}``; ``kwargs`` go to :func:`json.dumps`."""
        with self._lock:
            rows = [{**asdict(v), "count": n} for v, n in self._counts.items()]
        return json.dumps({"violations": rows}, **kwargs)

    def __str__(self) -> str:
        with self._lock:
            items = list(self._counts.items())
        if not items:
            return "portability report: no violations"
        sites = len({v.location for v, _ in items})
        lines = [
            f"portability report: {len(items)} violation(s) at {sites} call site(s)"
        ]
        groups: dict[tuple[str, str, str], list[tuple[Violation, int]]] = {}
        for v, n in items:
            groups.setdefault((v.function, v.argument, v.rule), []).append((v, n))
        for (function, argument, rule), entries in sorted(groups.items()):
            found = sorted({v.found for v, _ in entries})
            lines.append(f"{function}() `{argument}` ({', '.join(found)}): {rule}")
            for v, n in entries:
                lines.append(f"    {v.location}  ({n} call{'s' if n != 1 else ''})")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<PortabilityReport: {len(self)} violation(s)>"


# --- which reports are active (per thread / asyncio task) -------------------

_active: ContextVar[tuple[PortabilityReport, ...]] = ContextVar(
    "ocean_ext.portability_report", default=()
)


class _ReportBlock:
    """The context manager :func:`portability_report` returns: reusable and
    reentrant, each entry recording into a new report.

    Safe against an interrupt (Ctrl-C) anywhere in its entry and exit: each
    undoes or finishes its change before the interrupt propagates."""

    __slots__ = ()

    def __enter__(self) -> PortabilityReport:
        report = PortabilityReport()
        old = _active.get()
        try:
            _locked(_install, report)
            _active.set((*old, report))
            return report
        except BaseException:
            _active.set(old)
            _locked(_uninstall, report)
            raise

    def __exit__(self, *exc: object) -> None:
        # The innermost report of this context is this block's.  The global
        # part goes first and is idempotent; the context's stack changes
        # last, so a second try (after an interrupt) finds the same report.
        try:
            _locked(_uninstall, _active.get()[-1])
            _active.set(_active.get()[:-1])
        except BaseException:
            stack = _active.get()
            _locked(_uninstall, stack[-1])
            _active.set(stack[:-1])
            raise


def portability_report() -> AbstractContextManager[PortabilityReport]:
    """Accept NumPy's common non-portable usages inside the block, and list them.

    Inside the block, ``ocean_array_api`` accepts what NumPy accepts where the
    standard is stricter: NumPy arrays, NumPy scalars and Python scalars or
    lists where arrays of this namespace are required; Python types, NumPy
    dtypes and dtype names where a dtype is required; 0-d arrays where a Python
    scalar is required; positional arguments the standard makes keyword-only;
    operands of mixed kinds; NumPy-style indices.  It computes what NumPy
    would (the results are still arrays of this namespace, on the same device)
    and records each violation once per call site.  Outside the block nothing
    changes: strict as before, at the same speed.

    Blocks nest: a call inside an inner block is recorded in every report
    active in its context.  The active reports live in a
    :class:`contextvars.ContextVar`, so a block covers its own thread or
    asyncio task (and the tasks it creates), not other threads.

    The lenient behaviour applies to calls through the namespaces
    (``xp.full(...)``, ``xp.linalg.solve(...)``, operators and indexing of
    arrays), the way array-API code calls them; a function imported by name
    before the block (``from ocean_array_api import full``) stays strict.

    Returns
    -------
    contextlib.AbstractContextManager
        ``with ... as report`` binds a new :class:`PortabilityReport`.

    Examples
    --------
    >>> import numpy as np
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> with ocean_ext.portability_report() as report:
    ...     y = xp.full((2,), fill_value=np.asarray(1.5, dtype=np.float32))
    ...     z = xp.sum(np.asarray([1.0, 2.0]))
    >>> y.dtype, float(z)
    (ocean_array_api.float32, 3.0)
    >>> [(v.function, v.argument) for v in report.violations]
    [('full', 'fill_value'), ('sum', 'x')]
    """
    return _ReportBlock()


# --- installing the wrappers -------------------------------------------------

_lock = threading.Lock()
# The reports of the blocks entered (in every thread); wrappers are installed
# while there is one.
_holders: list[PortabilityReport] = []
_slots_touched = False  # Array's operators were replaced since the last restore
# (owner, name) -> the original attribute, for every wrapper installed.
_originals: dict[tuple[Any, str], Any] = {}

# Operators and indexing of Array that take an operand or a key.
_ARRAY_METHODS = (
    "__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
    "__pow__", "__matmul__", "__and__", "__or__", "__xor__", "__lshift__",
    "__rshift__", "__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__",
    "__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__",
    "__rmod__", "__rpow__", "__rmatmul__", "__rand__", "__ror__", "__rxor__",
    "__rlshift__", "__rrshift__",
    "__iadd__", "__isub__", "__imul__", "__itruediv__", "__ifloordiv__",
    "__imod__", "__ipow__", "__imatmul__", "__iand__", "__ior__", "__ixor__",
    "__ilshift__", "__irshift__",
    "__getitem__", "__setitem__",
)  # fmt: skip


def _namespaces() -> list[tuple[ModuleType, str]]:
    """Every namespace module made so far, with the prefix of its names."""
    from ocean_array_api import _namespace

    out: list[tuple[ModuleType, str]] = []
    for mod in (ocean_array_api, *_namespace._cache.values()):
        out.append((mod, ""))
        for sub in ("linalg", "fft"):
            submodule = mod.__dict__.get(sub)
            if isinstance(submodule, ModuleType):
                out.append((submodule, sub + "."))
    return out


def _locked(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` under ``_lock``.  On one line on purpose: a ``with`` on
    two lines runs its exit on its own line, where a trace function (and so
    an interrupt injected by one) can stop it before the lock is released."""
    with _lock: return fn(*args)  # noqa: E701  # fmt: skip


def _install(report: PortabilityReport) -> None:
    """Count ``report`` among the active ones; the first installs the
    wrappers (under _lock; on any exception nothing has changed)."""
    try:
        if not _holders:
            _install_wrappers()
        _holders.append(report)
    except BaseException:
        _uninstall(report)
        raise


def _install_wrappers() -> None:
    global _slots_touched
    seen: set[int] = set()
    for mod, prefix in _namespaces():
        if id(mod) in seen:
            continue
        seen.add(id(mod))
        for name, value in list(vars(mod).items()):
            if name.startswith("_") or not _is_function(value) or name in _SKIP:
                continue
            _originals[(mod, name)] = value
            setattr(mod, name, _lenient(value, prefix + name))
    _slots_touched = True
    for name in _ARRAY_METHODS:
        value = Array.__dict__.get(name)
        if value is not None:
            _originals[(Array, name)] = value
            setattr(Array, name, _lenient(value, "Array." + name, method=True))


def _is_function(value: Any) -> bool:
    """A Python function, or one with the compiled fast path in front
    (``ocean_array_api._fastpath.FastOp``, which calls it as ``__wrapped__``)."""
    return inspect.isfunction(value) or (
        type(value).__name__ == "FastOp"
        and type(value).__module__ == "ocean_array_api._fastpath"
    )


def _uninstall(report: PortabilityReport) -> None:
    """Undo ``_install(report)``, as far as it got: idempotent (under _lock).
    The last report out restores the originals."""
    global _slots_touched
    for i, r in enumerate(_holders):
        if r is report:
            del _holders[i]
            break
    if _holders:
        return
    for (owner, name), value in list(_originals.items()):
        setattr(owner, name, value)
        del _originals[(owner, name)]
    if _slots_touched:
        # setattr on Array made CPython reset its operator slots to the
        # generic ones: put the compiled fast path back (docs/dev/fastpath.md)
        _restore_fast_slots()
        _slots_touched = False


def _restore_fast_slots() -> None:
    from ocean_array_api import _array_object

    if _array_object._FASTPATH:
        _array_object._fp._install_slots()


# Functions whose arguments are anything by design.
_SKIP: frozenset[str] = frozenset()

_FAILED = object()


def _lenient(fn: Callable[..., Any], name: str, *, method: bool = False) -> Any:
    get = _active.get

    @functools.wraps(fn)
    def lenient(*args: Any, **kwargs: Any) -> Any:
        try:
            result = fn(*args, **kwargs)
        except (TypeError, ValueError, IndexError):
            reports = get()
            if not reports:
                raise
            try:
                result = _retry(fn, name, method, args, kwargs, reports)
            except Exception:  # a conversion that cannot apply: the strict error
                result = _FAILED
            if result is _FAILED:
                raise
            return result
        if result is NotImplemented and method:
            reports = get()
            if reports:
                try:
                    retried = _retry(fn, name, method, args, kwargs, reports)
                except Exception:  # as above: the operator's NotImplemented
                    retried = _FAILED
                if retried is not _FAILED:
                    return retried
        return result

    return lenient


# --- the rules ---------------------------------------------------------------

_R_ARRAY = (
    "an array argument must be an array of this namespace (convert with asarray())"
)
_R_SCALAR_OR_ARRAY = (
    "an operand is an array of this namespace or a Python bool, int, float or complex"
)
_R_DTYPE = "a dtype is one of the namespace's dtype objects (xp.float64, ...)"
_R_PYSCALAR = (
    "this argument is a Python scalar; a 0-d array is not one (convert with "
    "int(), float(), complex() or bool())"
)
_R_SHAPE = "a shape or an axis list is a tuple of Python ints"
_R_KWONLY = "this parameter is keyword-only: pass it by name"
_R_PROMOTION = (
    "the standard defines no promotion between these dtypes (mixed kinds); "
    "cast one with astype()"
)
_R_WHERE = (
    "where() takes condition, x1 and x2; the indices of nonzero elements are nonzero()"
)
_R_INDEX = "index arrays must be arrays of this namespace"
_R_INDEX_FORM = (
    "an index is ints, slices, ..., None and integer arrays, or one boolean "
    "array alone (here computed as NumPy indexes)"
)


def _found(value: Any) -> str:
    if isinstance(value, Array):
        return f"{value.ndim}-d Array"
    cls = type(value)
    if isinstance(value, type):
        return f"type {value.__module__}.{value.__qualname__}".replace("builtins.", "")
    mod = cls.__module__
    return (
        cls.__qualname__
        if mod == "builtins"
        else f"{mod.split('.')[0]}.{cls.__qualname__}"
    )


def _location() -> str:
    """``file:line`` of the first frame outside ocean and array-api-compat."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not (
            filename.startswith(_OURS)
            or f"array_api_compat{os.sep}" in filename
            or filename.startswith("<frozen")
            or filename == functools.__file__
        ):
            return f"{filename}:{frame.f_lineno}"
        frame = frame.f_back
    return "<unknown>:0"


_OURS = tuple(
    os.path.dirname(m.__file__) + os.sep
    for m in (ocean_array_api, sys.modules[__name__.rsplit(".", 1)[0]])
    if m.__file__
)


# --- converting arguments ----------------------------------------------------

_PY_SCALAR = (bool, int, float, complex)
_INTEGRAL = ("signed integer", "unsigned integer")


def _role(param: inspect.Parameter) -> str:
    """What the standard requires of ``param``, from its annotation."""
    ann = param.annotation if isinstance(param.annotation, str) else ""
    if param.name == "key":
        return "key"
    if param.name == "arrays_and_dtypes":
        return "arrays_and_dtypes"
    if ann == "Any":
        return "operand" if param.name in ("x1", "x2", "other", "value") else ""
    if "tuple[Array" in ann or (ann == "Array" and param.kind is param.VAR_POSITIONAL):
        return "arrays"
    if "DType" in ann:
        return "dtype_kind" if "str" in ann else "dtype"
    if "Array" in ann:
        return "operand" if ("int" in ann or "float" in ann) else "array"
    if "tuple[int" in ann or "Sequence[int]" in ann:
        return "shape"
    tokens = {t.strip() for t in ann.split("|")}
    if tokens and tokens <= {"int", "float", "complex", "bool", "None"}:
        return "scalar"
    return ""


# The standard's names whose NumPy function has another name.
_NUMPY_NAMES = {"concat": "concatenate", "permute_dims": "transpose", "pow": "power"}


@functools.cache
def _numpy_positional_names(name: str, count: int) -> list[str] | None:
    """The names NumPy's function of the standard's ``name`` gives its first
    ``count`` positional parameters, or None when NumPy has no such function."""
    module: Any = np
    *prefix, base = name.split(".")
    if prefix == ["Array"]:
        return None
    if prefix:
        module = getattr(np, prefix[0], None)
    fn = getattr(module, _NUMPY_NAMES.get(base, base), None)
    if fn is None:
        return None
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    positional = [
        p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return positional[:count] if len(positional) >= count else None


@functools.cache
def _signature(
    fn: Callable[..., Any],
) -> tuple[inspect.Signature, dict[str, str]] | None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    return sig, {p.name: _role(p) for p in sig.parameters.values()}


def _np_dtype_to_ours(npdt: np.dtype[Any]) -> Any:
    return getattr(_dt, npdt.name) if npdt.name in _STANDARD_NAMES else None


_STANDARD_NAMES = frozenset(
    ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
     "uint64", "float32", "float64", "complex64", "complex128")
)  # fmt: skip


def _as_dtype(value: Any) -> Any:
    """Our dtype for a Python type, NumPy dtype/scalar type or name; None if not."""
    if isinstance(value, _dt.DType) or value is None:
        return None
    if isinstance(value, (type, np.dtype, str)):
        try:
            return _np_dtype_to_ours(np.dtype(value))
        except TypeError:
            return None
    return None


def _numpy_dtype(value: Any) -> np.dtype[Any]:
    """NumPy's dtype of one of our arrays or a NumPy object."""
    if isinstance(value, Array):
        return np.dtype(value.dtype._native)
    return np.asarray(value).dtype


def _to_python(value: Any) -> Any:
    """The Python scalar a 0-d array (ours or NumPy's) holds."""
    if isinstance(value, Array):
        kind = value.dtype._kind
        if kind == "bool":
            return bool(value)
        if kind in _INTEGRAL:
            return int(value)
        if kind == "complex floating":
            return complex(value)
        return float(value)
    return value.item()


class _Converter:
    """Makes one call's arguments standard, noting each change."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self.notes: list[tuple[str, str, str]] = []
        self.scalar_dtypes: dict[str, np.dtype[Any]] = {}

    def note(self, arg: str, rule: str, value: Any) -> None:
        self.notes.append((arg, rule, _found(value)))

    def array(self, arg: str, value: Any, rule: str = _R_ARRAY) -> Any:
        if isinstance(value, Array):
            return value
        if isinstance(value, (np.ndarray, np.generic, list, tuple, *_PY_SCALAR)):
            try:
                out = ocean_array_api.asarray(value, device=self.device)
            except (TypeError, ValueError):
                return value
            self.note(arg, rule, value)
            return out
        return value

    def operand(self, arg: str, value: Any) -> Any:
        if isinstance(value, Array) or (
            isinstance(value, _PY_SCALAR) and not isinstance(value, np.generic)
        ):
            return value
        if isinstance(value, float | complex) and type(value) in (
            np.float64,
            np.complex128,
        ):
            return value
        return self.array(arg, value, _R_SCALAR_OR_ARRAY)

    def dtype(self, arg: str, value: Any) -> Any:
        ours = _as_dtype(value)
        if ours is None:
            return value
        self.note(arg, _R_DTYPE, value)
        return ours

    def dtype_kind(self, arg: str, value: Any) -> Any:
        if isinstance(value, tuple):
            return tuple(v if isinstance(v, str) else self.dtype(arg, v) for v in value)
        return value if isinstance(value, str) else self.dtype(arg, value)

    def scalar(self, arg: str, value: Any) -> Any:
        zero_d = (isinstance(value, Array) and value.ndim == 0) or (
            isinstance(value, np.ndarray) and value.ndim == 0
        )
        if zero_d or (
            isinstance(value, np.generic)
            and not isinstance(value, (int, float, complex))
            and not isinstance(value, np.integer)
        ):
            self.scalar_dtypes[arg] = _numpy_dtype(value)
            self.note(arg, _R_PYSCALAR, value)
            return _to_python(value)
        return value

    def shape(self, arg: str, value: Any) -> Any:
        if isinstance(value, (np.ndarray, Array)) and value.ndim <= 1:
            if isinstance(value, Array):
                if value.dtype._kind not in _INTEGRAL:
                    return value
                host = np.asarray(
                    [int(value[i]) for i in range(value.shape[0] or 0)]
                    if value.ndim
                    else int(value)
                )
            else:
                host = value
                if host.dtype.kind not in "iu":
                    return value
            self.note(arg, _R_SHAPE, value)
            return int(host) if host.ndim == 0 else tuple(int(v) for v in host)
        if isinstance(value, list):
            self.note(arg, _R_SHAPE, value)
            value = tuple(value)
        if isinstance(value, tuple):
            items = []
            for v in value:
                if isinstance(v, (Array, np.ndarray)) and v.ndim == 0:
                    self.note(arg, _R_SHAPE, v)
                    v = int(v)
                items.append(v)
            return tuple(items)
        return value

    def key(self, arg: str, value: Any) -> Any:
        if isinstance(value, tuple):
            return tuple(self._key_part(arg, v) for v in value)
        return self._key_part(arg, value)

    def _key_part(self, arg: str, value: Any) -> Any:
        if isinstance(value, (np.ndarray, list)):
            return self.array(arg, value, _R_INDEX)
        return value


def _first_device(values: Any) -> Any:
    for v in values:
        if isinstance(v, Array):
            return v.device
        if isinstance(v, (tuple, list)):
            for w in v:
                if isinstance(w, Array):
                    return w.device
    return None


def _retry(
    fn: Callable[..., Any],
    name: str,
    method: bool,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    reports: tuple[PortabilityReport, ...],
) -> Any:
    info = _signature(fn)
    if info is None:
        return _FAILED
    sig, roles = info
    params = list(sig.parameters.values())
    conv = _Converter(_first_device([*args, *kwargs.values()]))

    # Arguments the standard makes keyword-only, passed by position: they
    # mean what they mean to NumPy's function of the same name.
    positional = [
        p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    if len(args) > len(positional) and not any(
        p.kind is p.VAR_POSITIONAL for p in params
    ):
        names = _numpy_positional_names(name, len(args))
        keyword_only = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
        if names is None:
            names = [p.name for p in positional] + keyword_only
        extra = list(
            zip(names[len(positional) :], args[len(positional) :], strict=False)
        )
        if len(extra) < len(args) - len(positional):
            return _FAILED
        kwargs = dict(kwargs)
        for pname, value in extra:
            if pname not in keyword_only or pname in kwargs:
                return _FAILED
            kwargs[pname] = value
            conv.notes.append((pname, _R_KWONLY, "passed by position"))
        args = args[: len(positional)]
    if name == "where" and len(args) == 1 and not kwargs:
        # NumPy's one-argument where() is nonzero().
        conv.notes.append(("x1", _R_WHERE, "where(condition)"))
        return _record(name, conv, method, params, reports, _nonzero(args[0], conv))
    try:
        bound = sig.bind(*args, **kwargs)
    except TypeError:
        return _FAILED

    for pname, value in list(bound.arguments.items()):
        role = roles.get(pname, "")
        if method and pname == "self":
            continue
        if role == "arrays_and_dtypes":
            bound.arguments[pname] = tuple(
                conv.array(pname, v)
                if isinstance(v, (np.ndarray, np.generic))
                else conv.dtype(pname, v)
                for v in value
            )
        elif sig.parameters[pname].kind is inspect.Parameter.VAR_POSITIONAL or (
            role == "arrays" and isinstance(value, (tuple, list))
        ):
            bound.arguments[pname] = tuple(conv.array(pname, v) for v in value)
        elif role == "array":
            bound.arguments[pname] = conv.array(pname, value)
        elif role == "operand":
            bound.arguments[pname] = conv.operand(pname, value)
        elif role == "dtype":
            bound.arguments[pname] = (
                value if isinstance(value, Array) else conv.dtype(pname, value)
            )
        elif role == "dtype_kind":
            bound.arguments[pname] = conv.dtype_kind(pname, value)
        elif role == "scalar":
            bound.arguments[pname] = conv.scalar(pname, value)
        elif role == "shape":
            bound.arguments[pname] = conv.shape(pname, value)
        elif role == "key":
            bound.arguments[pname] = conv.key(pname, value)
    _numpy_dtype_rules(name, bound, conv)

    result: Any = _FAILED
    if conv.notes:
        try:
            result = fn(*bound.args, **bound.kwargs)
        except (TypeError, ValueError, IndexError):
            result = _FAILED
        if result is NotImplemented:
            result = _FAILED
    if result is _FAILED:
        result = _promoted(fn, name, bound, roles, conv)
    if result is _FAILED:
        result = _numpy_input_dtypes(fn, name, bound, roles, conv)
    if result is _FAILED and name == "Array.__getitem__":
        result = _native_getitem(bound, conv)
    return _record(name, conv, method, params, reports, result)


def _nonzero(condition: Any, conv: _Converter) -> Any:
    condition = conv.array("condition", condition)
    if not isinstance(condition, Array):
        return _FAILED
    try:
        return ocean_array_api.nonzero(condition)
    except (TypeError, ValueError):
        return _FAILED


def _record(
    name: str,
    conv: _Converter,
    method: bool,
    params: list[inspect.Parameter],
    reports: tuple[PortabilityReport, ...],
    result: Any,
) -> Any:
    if result is _FAILED:
        return _FAILED
    location = _location()
    if method and not name.endswith("item__"):
        # Operators are implemented by the binary functions: name their
        # operands as Python does.
        first = [p.name for p in params[:2]]
        rename = dict(zip(first, ("self", "other"), strict=False))
        conv.notes = [(rename.get(a, a), r, f) for a, r, f in conv.notes]
    for arg, rule, found in dict.fromkeys(conv.notes):
        violation = Violation(name, arg, rule, location, found)
        for report in reports:
            report._record(violation)
    return result


def _numpy_dtype_rules(
    name: str, bound: inspect.BoundArguments, conv: _Converter
) -> None:
    """The result dtype NumPy gives where 0-d arrays stood for scalars."""
    args = bound.arguments
    if not conv.scalar_dtypes or args.get("dtype") is not None:
        return
    if name.endswith("full") and "fill_value" in conv.scalar_dtypes:
        # NumPy's full() keeps the dtype of an array fill value.
        args["dtype"] = _np_dtype_to_ours(conv.scalar_dtypes["fill_value"])
    elif name.endswith("linspace"):
        parts: list[Any] = []
        for p in ("start", "stop"):
            if p in conv.scalar_dtypes:
                parts.append(conv.scalar_dtypes[p])
            else:
                parts.append(args.get(p))
        args["dtype"] = _np_dtype_to_ours(np.result_type(*parts, 1.0))


def _promoted(
    fn: Callable[..., Any],
    name: str,
    bound: inspect.BoundArguments,
    roles: dict[str, str],
    conv: _Converter,
) -> Any:
    """Retry with mixed-kind operands promoted as NumPy promotes them."""
    operands = [
        p
        for p, r in roles.items()
        if r in ("operand", "array")
        and isinstance(bound.arguments.get(p), (Array, *_PY_SCALAR))
    ]
    arrays = [p for p in operands if isinstance(bound.arguments[p], Array)]
    if len(operands) < 2 or not arrays or name.endswith(("__setitem__", "__getitem__")):
        return _FAILED
    if not all(bound.arguments[p].dtype._standard for p in arrays):
        return _FAILED
    parts = [
        _numpy_dtype(bound.arguments[p]) if p in arrays else bound.arguments[p]
        for p in operands
    ]
    try:
        target = _np_dtype_to_ours(np.result_type(*parts))
    except TypeError:
        return _FAILED
    if target is None:
        return _FAILED
    changed = []
    for p in operands:
        value = bound.arguments[p]
        if isinstance(value, Array) and value.dtype != target:
            # In-place operators may not change their own array's dtype.
            if p == "self" and name.startswith("Array.__i"):
                return _FAILED
            bound.arguments[p] = ocean_array_api.astype(value, target)
            changed.append((p, value))
        elif not isinstance(value, Array):
            kind_ok = (
                isinstance(value, bool)
                or (isinstance(value, int) and target._kind != "bool")
                or (isinstance(value, float) and "floating" in target._kind)
            )
            if not kind_ok and not isinstance(value, complex):
                bound.arguments[p] = ocean_array_api.asarray(
                    value, dtype=target, device=conv.device
                )
                changed.append((p, value))
    if not changed:
        return _FAILED
    try:
        result = fn(*bound.args, **bound.kwargs)
    except (TypeError, ValueError, IndexError):
        return _FAILED
    if result is NotImplemented:
        return _FAILED
    mix = " with ".join(
        str(v.dtype) if isinstance(v, Array) else type(v).__name__
        for v in (
            bound.arguments[p] if p not in dict(changed) else dict(changed)[p]
            for p in operands
        )
    )
    for p, _ in changed:
        conv.notes.append((p, _R_PROMOTION, mix))
    return result


_R_INPUT_DTYPE = (
    "the standard requires another dtype category for this input (a boolean "
    "array for logical functions, a floating-point array for this function); "
    "cast with astype()"
)


def _numpy_input_dtypes(
    fn: Callable[..., Any],
    name: str,
    bound: inspect.BoundArguments,
    roles: dict[str, str],
    conv: _Converter,
) -> Any:
    """Retry a function refusing its inputs' dtype category with the inputs
    cast as NumPy's function of the same name casts them (``logical_or`` of
    floats compares them with zero, ``sqrt`` or ``mean`` of integers computes
    in float64)."""
    base = name.rsplit(".", 1)[-1]
    np_fn = getattr(np, _NUMPY_NAMES.get(base, base), None)
    if np_fn is None or name.startswith("Array.") or "." in name:
        return _FAILED
    arrays = [
        p for p, r in roles.items()
        if r in ("operand", "array") and isinstance(bound.arguments.get(p), Array)
    ]  # fmt: skip
    if not arrays or not all(bound.arguments[p].dtype._standard for p in arrays):
        return _FAILED
    samples = [np.ones((1,), dtype=bound.arguments[p].dtype._native) for p in arrays]
    try:
        with np.errstate(all="ignore"):
            out = np.asarray(np_fn(*samples))
    except (TypeError, ValueError):
        return _FAILED
    if base.startswith("logical_"):
        target = _dt.bool
    elif out.dtype.kind in "fc":
        target = _np_dtype_to_ours(out.dtype)
    else:
        return _FAILED
    if target is None:
        return _FAILED
    changed = []
    for p in arrays:
        value = bound.arguments[p]
        # Logical functions take every input as bool; the others cast integer
        # and boolean input to NumPy's floating-point result dtype.
        floating = value.dtype._kind in ("real floating", "complex floating")
        if value.dtype != target and (target is _dt.bool or not floating):
            bound.arguments[p] = ocean_array_api.astype(value, target)
            changed.append((p, value))
    if not changed:
        return _FAILED
    try:
        result = fn(*bound.args, **bound.kwargs)
    except (TypeError, ValueError, IndexError):
        return _FAILED
    for p, value in changed:
        conv.notes.append((p, _R_INPUT_DTYPE, f"{value.dtype} array"))
    return result


def _native_getitem(bound: inspect.BoundArguments, conv: _Converter) -> Any:
    """``x[key]`` as the device's native array library computes it."""
    x = bound.arguments.get("self")
    key = bound.arguments.get("key")
    if not isinstance(x, Array) or not x.dtype._standard:
        return _FAILED

    def native(part: Any) -> Any:
        if isinstance(part, Array):
            if part.device != x.device:
                raise ValueError
            return part._data
        return part

    try:
        nkey = tuple(native(k) for k in key) if isinstance(key, tuple) else native(key)
        data = x._data[nkey]
    except (TypeError, ValueError, IndexError):
        return _FAILED
    if isinstance(data, np.generic):
        data = np.asarray(data)
    if getattr(getattr(data, "dtype", None), "name", None) != x.dtype._name:
        return _FAILED
    conv.notes.append(("key", _R_INDEX_FORM, "NumPy-style index"))
    return _wrap(data, x._dtype, x._device)
