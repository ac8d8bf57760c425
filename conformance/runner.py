"""The runner: draw on the reference, run on both namespaces, compare, judge.

For every registry entry it checks presence and signature
(:mod:`conformance.static`), then runs each differential
:class:`~conformance.registry.Feature` for each dtype as one Hypothesis test
(seeded, with a replay database).  A deviation (a MUST-level finding) raises
inside the test, so Hypothesis shrinks it; the shrunk call becomes the repro.
Advisories (SHOULD-level findings, optional features the target declares it
lacks) are collected without stopping the search and never fail the run.
"""

from __future__ import annotations

import hashlib
import importlib
import multiprocessing
import operator
import os
import re
import time
import warnings
import zlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, example, given, reject, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import FailedHealthCheck, Unsatisfiable
from hypothesis.extra.array_api import make_strategies_namespace

from .calls import (
    DT,
    Arr,
    Call,
    ComputeError,
    Namespace,
    render_repro,
    repro_names,
    repro_parts,
    runs_as_statement,
    show,
    to_numpy,
)
from .checks import (
    Finding,
    Where,
    _dtype_name,
    check_mutation,
    check_result,
    describe,
    describe_full,
    dlpack_device,
    values_close,
)
from .coverage import classes_of
from .families import KINDS, dtypes_of
from .registry import VERSIONS, Entry, build_registry

__all__ = ["Options", "Record", "TargetError", "run"]

LATEST = VERSIONS[-1]
# --quick runs one dtype per promotion and accumulation rule: bool, a narrow
# and a wide signed integer, a narrow and a wide unsigned one, both float
# widths, a complex width.  Within a group, features take turns, so that
# every dtype runs for some feature of each name.
QUICK_GROUPS = (
    ("bool",),
    ("int8", "int16"),
    ("int64", "int32"),
    ("uint8", "uint16"),
    ("uint64", "uint32"),
    ("float32",),
    ("float64",),
    ("complex128", "complex64"),
)
QUICK_DTYPES = tuple(g[0] for g in QUICK_GROUPS)
_INPLACE = {
    f"__i{op}__": getattr(operator, f"i{op}")
    for op in [
        "add",
        "sub",
        "mul",
        "truediv",
        "floordiv",
        "mod",
        "pow",
        "matmul",
        "and",
        "or",
        "xor",
        "lshift",
        "rshift",
    ]
}


class TargetError(Exception):
    """The tool cannot run against the target (exit status 2)."""


@dataclass
class Options:
    """What to run (the command line, as data)."""

    target: str
    # None: the revision the target declares (__array_api_version__)
    version: str | None = None
    device: str | None = None
    quick: bool = False
    max_examples: int | None = None
    seed: int = 0
    only: tuple[str, ...] = ()
    jobs: int = 1
    database: str | None = ".conformance-db"
    # cap on the side of drawn array shapes (default 4): fewer distinct shapes
    # for libraries that compile each new shape (jax.numpy)
    max_side: int | None = None
    progress: Any = None  # callable(done, total, name) or None
    prove: bool = True  # run every repro in a fresh interpreter before printing it
    version_note: str = ""  # where the revision came from, for the header
    interrupted: bool = False  # set when a run was stopped before its end
    stop: bool = False  # set by a Ctrl-C handler: stop at the next cell

    @property
    def examples(self) -> int:
        if self.max_examples is not None:
            return self.max_examples
        return 8 if self.quick else 16


@dataclass
class Record:
    """One verdict for (name, feature, dtype, device)."""

    name: str
    feature: str
    dtype: str
    device: str
    verdict: str  # conforms, deviates, missing, crashes, untestable, advisory
    kind: str | None = None
    message: str = ""
    repro: str | None = None
    expected: str | None = None
    examples: int = 0
    seconds: float = 0.0
    advisories: int = 0  # calls with an advisory finding (the first is kept)
    advisory: dict | None = None  # {"kind", "message", "repro"} of a deviating cell
    classes: dict = field(default_factory=dict)  # input class -> calls
    proof: str = ""  # what running the repro in a fresh interpreter showed
    proof_spec: dict | None = None  # how to run it (see conformance.prove)


@dataclass
class Ctx:
    ref: Namespace
    tgt: Namespace
    target_name: str
    version: str
    xps: Any
    opts: Options
    expected_device: Any
    target_dtypes: set[str]
    db: Any = None
    device_label: str = ""
    where: Any = None  # a Where: the device results must be on
    capabilities: dict = field(default_factory=dict)
    max_dims: int | None = None
    lazy: bool = False  # the target's results are lazy (dask): repros compute
    # the reference's default dtypes to the target's ("float64" -> "float32"):
    # which floating and integer dtypes are the defaults is the library's choice
    default_map: dict = field(default_factory=dict)
    records: list[Record] = field(default_factory=list)

    @property
    def refmod(self) -> Any:
        """The reference module (``ocean_array_api`` at the tested version)."""
        return self.ref.module

    def target_array(self) -> Any:
        from .static import target_array

        return target_array(self)


# --- setting up ------------------------------------------------------------------


def _import_reference(version: str) -> Any:
    os.environ.setdefault("OCEAN_ARRAY_API_VERSION", version)
    import ocean_array_api

    ref = ocean_array_api
    if ref.__array_api_version__ != version:
        ref = ref.asarray(0).__array_namespace__(api_version=version)
    return ref


def _find_device(module: Any, label: str) -> Any:
    try:
        devices = list(module.__array_namespace_info__().devices())
    except Exception as e:
        msg = f"cannot list the devices of {module.__name__}: {e}"
        raise TargetError(msg) from None
    for d in devices:
        names = {str(d), repr(d)}
        # array_api_strict.Device('device1') answers to device1 as well
        names |= set(re.findall(r"'([^']+)'", str(d)))
        if str(d) in ("cpu", "CPU") or getattr(d, "platform", None) == "cpu":
            names |= {"cpu", "cpu:0"}
        if label in names or label.replace(":", "") in {
            n.replace(":", "") for n in names
        }:
            return d
    shown = ", ".join(str(d) for d in devices)
    msg = f"unknown device {label!r} for {module.__name__}; it has: {shown}"
    raise TargetError(msg)


def import_target(name: str) -> Any:
    """Import the target; raise :class:`TargetError` unless it is an array namespace."""
    try:
        target = importlib.import_module(name)
    except Exception as e:
        msg = f"cannot import {name!r}: {type(e).__name__}: {e}"
        raise TargetError(msg) from None
    core = ("asarray", "__array_namespace_info__", "add", "float64")
    if not any(hasattr(target, n) for n in core):
        msg = f"{name!r} is not an array namespace: it has none of {', '.join(core)}"
        raise TargetError(msg)
    return target


def resolve_version(opts: Options) -> str:
    """Fill in ``opts.version`` (the one asked for, else the target's own) and
    return it."""
    if opts.version is not None:
        opts.version_note = opts.version_note or "--version"
        return opts.version
    declared = getattr(import_target(opts.target), "__array_api_version__", None)
    if declared in VERSIONS:
        opts.version, opts.version_note = declared, f"declared by {opts.target}"
    else:
        opts.version = LATEST
        opts.version_note = f"the latest: {opts.target} declares " + (
            "no revision" if declared is None else f"{declared!r}"
        )
    return opts.version


def make_context(opts: Options) -> Ctx:
    """Import the reference and the target and resolve the device."""
    version = resolve_version(opts)
    ref = _import_reference(version)
    target = import_target(opts.target)
    device = _find_device(target, opts.device) if opts.device else None
    try:
        info = target.__array_namespace_info__()
    except Exception:
        info = None
    try:
        expected = device if device is not None else info.default_device()
    except Exception:
        expected = None
    kw = {"device": device} if device is not None else {}
    try:
        tdt = set(info.dtypes(**kw))
    except Exception:
        tdt = {n for n in KINDS["any"] if hasattr(target, n)}
    try:
        caps = dict(info.capabilities())
    except Exception:
        caps = {}
    max_dims = caps.get("max dimensions")
    default_map = _default_map(ref, target, info, kw)
    try:
        probe = target.asarray([0.0], **kw)
        lazy = callable(getattr(probe, "compute", None))
        dl = dlpack_device(probe)
    except Exception:
        lazy, dl = False, None
    return Ctx(
        ref=Namespace(ref),
        # repros find the device by its str(), which may differ from the label
        tgt=Namespace(target, device, str(device) if device is not None else ""),
        target_name=opts.target,
        version=version,
        xps=make_strategies_namespace(ref, api_version=version),  # type: ignore[arg-type]
        opts=opts,
        expected_device=expected,
        target_dtypes=tdt,
        db=DirectoryBasedExampleDatabase(opts.database) if opts.database else None,
        device_label=opts.device or "",
        where=Where(expected, dl) if expected is not None else None,
        capabilities=caps,
        max_dims=max_dims if isinstance(max_dims, int) and max_dims > 0 else None,
        lazy=lazy,
        default_map=default_map,
    )


def _default_map(ref: Any, target: Any, info: Any, kw: dict) -> dict:
    """The reference's default dtype of each kind to the target's declared one."""
    out = {}
    try:
        rd = ref.__array_namespace_info__().default_dtypes()
        td = info.default_dtypes(**kw)
        for k in ("real floating", "complex floating", "integral"):
            names = [d for d in KINDS["any"] if getattr(target, d, None) == td[k]]
            if names:
                out[str(rd[k])] = names[0]
    except Exception:
        return {}  # default_dtypes() is checked on its own
    return out


def _as_target_default(out: Any, ctx: Ctx) -> Any:
    """The reference's result in the target's default dtype of its kind."""
    if isinstance(out, (tuple, list)):
        return type(out)(_as_target_default(o, ctx) for o in out)
    dt = str(getattr(out, "dtype", ""))
    to = ctx.default_map.get(dt)
    if to is None or to == dt:
        return out
    ref = ctx.ref.module
    return ref.astype(out, getattr(ref, to))


# --- executing one call ----------------------------------------------------------------


class _Deviation(AssertionError):
    def __init__(
        self, call: Call, findings: list[Finding], expected: str, got: str = ""
    ) -> None:
        super().__init__(findings[0].message)
        self.call = call
        self.findings = findings
        self.expected = expected
        self.got = got  # the target's full result, described (for the proof)
        self.several = False  # the result is a tuple of arrays
        self.after: int | None = None  # a mutation: the argument it changed


_DEVIATION_CLASSES = {
    k: type(f"Deviation_{k.replace('-', '_')}", (_Deviation,), {})
    for k in (
        "signature",
        "dtype",
        "shape",
        "value",
        "special-case",
        "exception",
        "device",
        "mutation",
        "crash",
        "optional",
    )
}


class _InPlace:
    """``x op= y`` as Python runs it, noting whether it fell back to ``x op y``.

    Python falls back to ``__add__`` where ``__iadd__`` is not defined or
    returns NotImplemented, as the standard allows a library without mutation.
    """

    def __init__(self, x: Any, method: str) -> None:
        self.x, self.method, self.fell_back = x, method, False

    def __call__(self, *a: Any) -> Any:
        own = getattr(type(self.x), self.method, None)
        if own is not None:
            out = own(self.x, *a)
            if out is not NotImplemented:
                return out
        self.fell_back = True
        return _INPLACE[self.method](self.x, *a)


def _invoke(ns: Namespace, call: Call) -> tuple[Any, list, dict, list]:
    """Return ``(function, args, kwargs, all argument values)`` on ``ns``."""
    args = [ns.value(a) for a in call.args]
    kwargs = {k: ns.value(v) for k, v in call.kwargs.items()}
    if call.name.startswith(("Array.", "dtype.")):
        method = call.name.split(".", 1)[1]
        if method in _INPLACE:
            return _InPlace(args[0], method), args[1:], kwargs, args
        return getattr(args[0], method), args[1:], kwargs, args
    return ns.resolve(call.name), args, kwargs, args


def _host_inputs(call: Call, args: list) -> list[tuple[int, np.ndarray]]:
    out = []
    for i, (rec, val) in enumerate(zip(call.args, args, strict=True)):
        if isinstance(rec, Arr):
            out.append((i, to_numpy(val).copy()))
        elif isinstance(rec, list):
            out += [
                (i, to_numpy(v).copy())
                for r, v in zip(rec, val, strict=True)
                if isinstance(r, Arr)
            ]
    return out


def _exc_names(types: tuple) -> str:
    return " or ".join(t.__name__ for t in types)


def _subnormal(a: np.ndarray) -> bool:
    if a.dtype.kind not in "fc" or not a.size:
        return False
    fi = np.finfo(a.real.dtype)
    for p in (a.real, a.imag) if a.dtype.kind == "c" else (a,):
        mag = np.abs(p)
        if ((mag > 0) & (mag < fi.smallest_normal)).any():
            return True
    return False


def _flush(a: np.ndarray) -> np.ndarray:
    """Subnormal values replaced by zeros of their sign (FTZ, DAZ)."""
    a = np.array(a, copy=True)
    if a.dtype.kind not in "fc":
        return a
    fi = np.finfo(a.real.dtype)
    parts = (a.real, a.imag) if a.dtype.kind == "c" else (a,)
    for p in parts:
        tiny = (np.abs(p) < fi.smallest_normal) & (p != 0)
        p[tiny] = np.copysign(0.0, p[tiny])
    return a


def _outputs(x: Any) -> list:
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _flush_tolerated(
    call: Call, feature: Any, ref_out: Any, tgt_out: Any, ctx: Ctx
) -> bool:
    """Whether the target's result is the reference's with subnormals flushed.

    The standard leaves subnormal behaviour implementation-defined (many
    platforms flush to zero, FTZ, or read subnormal inputs as zero, DAZ): a
    result differing from the reference only so is not a deviation.
    """
    ins = [a.numpy() for a in call.arrays()]
    try:
        refs = [np.asarray(r) for r in _outputs(ref_out)]
        gots = [to_numpy(g) for g in _outputs(tgt_out)]
    except Exception:
        return False
    if not (any(_subnormal(a) for a in ins) or any(_subnormal(r) for r in refs)):
        return False
    variants = [[_flush(r) for r in refs]]
    if any(_subnormal(a) for a in ins):
        flushed = Call(
            call.name,
            tuple(
                Arr(ctx.refmod.asarray(_flush(a.numpy()), dtype=a.value.dtype), a.name)
                if isinstance(a, Arr)
                else a
                for a in call.args
            ),
            dict(call.kwargs),
        )
        try:
            fn, args, kw, _ = _invoke(ctx.ref, flushed)
            variants.append([_flush(np.asarray(r)) for r in _outputs(fn(*args, **kw))])
        except Exception:
            pass
    opts = feature.opts
    for want in variants:
        if len(want) != len(gots):
            continue
        ok = True
        for w, g in zip(want, gots, strict=True):
            g = _flush(g)
            if w.shape != g.shape:
                ok = False
                break
            dt = str(w.dtype)
            ok = values_close(w, g, dt, opts.tol, opts.signed_zero, opts.scale)[0]
            if not ok:
                break
        if ok:
            return True
    return False


_LAZY_CONVERSIONS = frozenset(
    f"Array.__{m}__" for m in ("bool", "int", "float", "complex", "index")
)


def _declared_optional(feature: Any, call: Call, ref_out: Any, ctx: Ctx) -> str:
    """Why the target may raise here: an optional feature it declares it lacks."""
    if ctx.lazy and call.name in _LAZY_CONVERSIONS:
        # "an implementation [...] 100% lazy [...] has no choice but to raise"
        return "a lazy library may raise instead of computing a Python scalar"
    cap = feature.capability
    if cap and ctx.capabilities.get(cap) is False:
        return f"capabilities() says {cap!r}: False"
    if ctx.max_dims is not None:
        dims = [a.value.ndim for a in call.arrays()]
        dims += [getattr(r, "ndim", 0) for r in _outputs(ref_out)]
        if max(dims, default=0) > ctx.max_dims:
            return f"capabilities() says 'max dimensions': {ctx.max_dims}"
    return ""


_UNEXPECTED_KEYWORD = re.compile(r"unexpected keyword argument '(\w+)'")


def _rejects_keyword(exc: BaseException | None, kwargs: dict) -> bool:
    """Whether ``exc`` says the target lacks a keyword the call passed to it.

    A TypeError about a keyword the call did not pass comes from inside the
    target (``matrix_rank`` calling its own ``svd`` with ``compute_uv``): a crash.
    """
    if not isinstance(exc, TypeError) or "unexpected keyword" not in str(exc):
        return False
    m = _UNEXPECTED_KEYWORD.search(str(exc))
    return m is None or m.group(1) in kwargs


def execute(entry: Entry, feature: Any, call: Call, ctx: Ctx) -> list[Finding]:
    """Run one call on both namespaces.

    Raise a deviation if the target departs from a MUST-level requirement;
    return the advisory (SHOULD-level) findings.
    """
    rfn, rargs, rkw, rall = _invoke(ctx.ref, call)
    try:
        ref_out = rfn(*rargs, **rkw)
        ref_exc = None
    except Exception as e:
        ref_out, ref_exc = None, e
    if feature.result_arg is not None and ref_exc is None:
        ref_out = rall[feature.result_arg]
    if ref_exc is None and "default-dtype" in feature.name and ctx.default_map:
        ref_out = _as_target_default(ref_out, ctx)
    if (ref_exc is None) == feature.expect_raise:
        raise _OutOfDomain  # the strategy drew an input outside the feature's domain
    try:
        tfn, targs, tkw, tall = _invoke(ctx.tgt, call)
        before = _host_inputs(call, tall)
    except Exception as e:
        msg = f"could not put the inputs on the target: {type(e).__name__}: {e}"
        raise _Untestable(msg) from None
    findings: list[Finding] = []
    # "An in-place operation must not change the data type or shape of the
    # in-place array as a result of type promotion or broadcasting."
    x_was = _shape_and_dtype(tall[0], ctx) if feature.inplace else None
    try:
        tgt_out = tfn(*targs, **tkw)
        tgt_exc = None
    except Exception as e:
        tgt_out, tgt_exc = None, e
    if feature.expect_raise and tgt_exc is None and ctx.lazy:
        # a lazy library may find the error only when the result is computed
        try:
            for out in _outputs(tgt_out):
                to_numpy(out)
        except ComputeError as e:
            tgt_exc = e.__cause__ or e
        except Exception as e:
            tgt_exc = e
            findings.append(
                Finding(
                    "exception",
                    f"raised {type(e).__name__} only when the result was computed",
                    level="should",
                )
            )
    if feature.expect_raise:
        if tgt_exc is None and feature.inplace:
            # x op= y where promotion or broadcasting would change x: raising
            # conforms, and so does keeping x's dtype and shape
            findings += _keeps_x(tgt_out, x_was, ctx, tfn)
        elif tgt_exc is None and not (
            feature.may_answer is not None and feature.may_answer(tgt_out, tall, tkw)
        ):
            findings.append(
                Finding(
                    "exception",
                    f"returned {describe(tgt_out, 80)} instead of raising",
                    level=feature.level,
                )
            )
        elif feature.exc_types and not isinstance(tgt_exc, feature.exc_types):
            findings.append(
                Finding(
                    "exception",
                    f"raised {type(tgt_exc).__name__}, the standard names "
                    f"{_exc_names(feature.exc_types)}",
                    level=feature.exc_level,
                )
            )
    elif _rejects_keyword(tgt_exc, tkw):
        findings.append(Finding("signature", f"raised TypeError: {str(tgt_exc)[:160]}"))
    elif tgt_exc is not None:
        why = _declared_optional(feature, call, ref_out, ctx)
        msg = f"raised {type(tgt_exc).__name__}: {str(tgt_exc)[:160]}"
        if why:
            findings.append(Finding("optional", f"{msg} ({why})", level="should"))
        else:
            # a feature the standard only recommends ("x1: Should have an
            # integer data type", isin of floats) may be refused: an advisory
            findings.append(Finding("crash", msg, level=feature.level))
    else:
        if feature.result_arg is not None:
            tgt_out = tall[feature.result_arg]
        if feature.compare is not None:
            found = feature.compare(ref_out, tgt_out, call, ctx)
            # named results: "must have the field name values", ...
            lacks = [
                f for f in getattr(ref_out, "_fields", ()) if not hasattr(tgt_out, f)
            ]
            if lacks:
                found.append(Finding("value", f"the result has no field {lacks[0]!r}"))
        else:
            opts = feature.opts
            if feature.scale_from is not None:
                opts = type(opts)(
                    **{**opts.__dict__, "scale": feature.scale_from(call)}
                )
            inputs = [a.numpy() for a in call.args if isinstance(a, Arr)]
            found = check_result(
                ref_out, tgt_out, ctx.tgt.module, ctx.where, opts, inputs
            )
        numeric = found and all(
            f.kind in ("value", "special-case", "accuracy") for f in found
        )
        if numeric and _flush_tolerated(call, feature, ref_out, tgt_out, ctx):
            found = []
        if feature.level != "must":
            for f in found:
                f.level = feature.level
        findings += found
        if feature.identity is not None:
            findings += feature.identity(tgt_out, tall, tkw)
        if feature.inplace and tgt_out is not tall[0]:
            have = {f.kind for f in findings}
            findings += [
                f for f in _keeps_x(tgt_out, x_was, ctx, tfn) if f.kind not in have
            ]
            findings.append(
                Finding(
                    "value",
                    "x op= y returned a new array instead of updating x (allowed:"
                    " in-place operators do not guarantee mutation)",
                    level="should",
                )
            )
        keep = [(i, b) for i, b in before if i not in call.mutates]
        try:
            after = [a for i, a in _host_inputs(call, tall) if i not in call.mutates]
        except Exception as e:
            msg = f"could not read the inputs back: {type(e).__name__}: {e}"
            raise _Untestable(msg) from None
        findings += check_mutation(keep, after)
    must = [f for f in findings if f.level == "must"]
    if must:
        out = tgt_exc if tgt_exc is not None else tgt_out
        got = describe_full(out, feature.opts.check_values)
        after: int | None = None
        if must[0].kind == "mutation" and must[0].index:
            after = must[0].index[0]
            got = describe_full(tall[after])
        expected = describe(ref_exc if ref_exc is not None else ref_out)
        if feature.inplace and feature.expect_raise and x_was is not None:
            dt, shape = x_was
            expected = f"an exception, or x kept as {dt} {shape}"
        d = _DEVIATION_CLASSES[must[0].kind](call, must, expected, got)
        d.several = isinstance(ref_out, (tuple, list))
        d.after = after
        raise d
    return findings


def _shape_and_dtype(x: Any, ctx: Ctx) -> tuple[str, tuple] | None:
    """``x``'s dtype name and shape, or None where it has neither."""
    try:
        dt = _dtype_name(x, ctx.tgt.module) or str(x.dtype)
        return dt, tuple(x.shape)
    except Exception:
        return None


def _keeps_x(
    out: Any, x_was: tuple[str, tuple] | None, ctx: Ctx, fn: Any
) -> list[Finding]:
    """Findings where ``x op= y`` bound ``x`` to another dtype or shape.

    Where the operator is not implemented and Python fell back to ``x = x op
    y`` (which the standard allows a library without mutation), an advisory.
    """
    now = _shape_and_dtype(out, ctx)
    if x_was is None or now is None:
        return []
    found = []
    if now[0] != x_was[0]:
        found.append(
            Finding(
                "dtype",
                f"x op= y changed x's dtype from {x_was[0]} to {now[0]} (an in-place"
                " operation must not change the data type of the in-place array)",
            )
        )
    if now[1] != x_was[1]:
        found.append(
            Finding(
                "shape",
                f"x op= y changed x's shape from {x_was[1]} to {now[1]} (an in-place"
                " operation must not change the shape of the in-place array)",
            )
        )
    if getattr(fn, "fell_back", False):
        for f in found:
            f.level = "should"
            f.message += (
                f"; {fn.method} is not implemented and Python fell back to"
                " x = x op y, as the standard allows a library without mutation"
            )
    return found


class _Untestable(Exception):
    pass


class _OutOfDomain(Exception):
    pass


# Calls drawn per Hypothesis example.  Hypothesis spends about as long on the
# engine's bookkeeping for one example as on drawing a few arrays, so drawing a
# small batch of independent calls per example halves the cost of a call; the
# first failing call of a batch is the counter-example, and shrinking still
# works (the other calls of the batch shrink to trivial ones).
BATCH = 4


# --- running a feature ---------------------------------------------------------------------


def _quick_pick(names: tuple[str, ...], turn: int) -> tuple[str, ...]:
    """One dtype of each quick group present in ``names``, taking turns."""
    out = []
    for group in QUICK_GROUPS:
        have = [d for d in group if d in names]
        if have:
            out.append(have[turn % len(have)])
    return tuple(out) or names[:1]


# Features about shapes and axes rather than values: in --quick they run on
# an integer and a floating dtype (taking turns across features), as do the
# operators, whose values their functions' full runs already cover.
SHAPE_FEATURES = frozenset(
    {
        "axis",
        "keepdims",
        "empty",
        "invalid-axis",
        "broadcasting",
        "incompatible-shapes",
        "incompatible-shape",
        "non-unit-axis",
        "axis=None",
        "shape",
        "axes",
        "repetitions",
        "repeats,axis",
        "repeats-array",
        "shift,axis",
        "source,destination",
        "indices,axis",
        "negative-indices",
        "default-axis",
        "descending",
        "descending,stable",
        "copy",
        "mismatched-shapes",
        "size-not-3",
        "tuple",
        "capsule",
        "namespace",
        "device",
        "basic",
        "boolean-mask",
        "integer-array",
    }
)
_LIGHT = (
    ("int8", "int64", "uint16", "int32", "uint8", "int16", "uint64", "uint32"),
    ("float32", "float64"),
    ("bool", "complex128", "complex64"),
)


def _light_pick(names: tuple[str, ...], turn: int) -> tuple[str, ...]:
    """An integer, a floating and one other dtype of ``names``, taking turns."""
    out = []
    for group in _LIGHT:
        have = [d for d in group if d in names]
        if have:
            out.append(have[turn % len(have)])
    return tuple(out[:2] if len(out) > 2 and turn % 2 else out) or names[:1]


def _dtype_cells(
    entry: Entry, feature: Any, ctx: Ctx, turn: int = 0
) -> list[tuple[str, Any]]:
    """The (label, argument) pairs a feature runs for: one per dtype or pair."""
    if feature.dtypes == "none":
        return [("-", None)]
    if isinstance(feature.dtypes, str) and feature.dtypes.startswith("mixed:"):
        kind = feature.dtypes.split(":", 1)[1]
        mixed = [d for d in dtypes_of(kind) if d in ctx.target_dtypes]
        ref = ctx.ref.module
        pairs = []
        for a in mixed:
            for b in mixed:
                if a == b:
                    continue
                try:
                    ref.result_type(getattr(ref, a), getattr(ref, b))
                except TypeError:
                    continue
                pairs.append((a, b))
        return [("mixed", pairs)] if pairs else []
    names = tuple(dtypes_of(feature.dtypes))
    # Operators and methods share their function's implementation in every
    # library we know: they run on one dtype per group, the functions on all.
    operator_ = entry.name.startswith("Array.__")
    if ctx.opts.quick and (operator_ or feature.name in SHAPE_FEATURES):
        names = _light_pick(names, turn)
    elif ctx.opts.quick or operator_:
        names = _quick_pick(names, turn)
    return [(d, d) for d in names]


def _left_out(entry: Entry, cells: list, ctx: Ctx) -> list:
    """In --quick, a cell for each dtype of a function that no feature took
    its turn on (``abs`` has one feature for integers: int16 and int32 were
    never run), on the first feature about values that has it."""
    if not ctx.opts.quick or entry.name.startswith("Array.__"):
        return []
    ran = {label for _, (label, _) in cells}
    out = []
    for feature in entry.features:
        if feature.name in SHAPE_FEATURES or not isinstance(feature.dtypes, str):
            continue
        if feature.dtypes == "none" or feature.dtypes.startswith("mixed:"):
            continue
        if feature.table is not None or feature.expect_raise:
            continue
        for d in dtypes_of(feature.dtypes):
            if d not in ran:
                ran.add(d)
                out.append((feature, (d, d)))
    return out


def run_feature(entry: Entry, feature: Any, label: str, arg: Any, ctx: Ctx) -> Record:
    """Run one (entry, feature, dtype) cell as a seeded Hypothesis test."""
    t0 = time.perf_counter()
    rec = _run_feature(entry, feature, label, arg, ctx)
    rec.seconds = time.perf_counter() - t0
    return rec


def _judge(rec: Record, d: _Deviation, ctx: Ctx, feature_values: bool = True) -> None:
    """Fill a record from a deviation: verdict, message, repro and its proof."""
    f = d.findings[0]
    rec.verdict = "crashes" if f.kind == "crash" else "deviates"
    rec.kind = f.kind
    rec.message = "; ".join(x.message for x in d.findings[:3])
    rec.expected = d.expected
    call = d.call
    lines, expr = repro_parts(call, ctx.target_name, ctx.tgt.device_label)
    names = repro_names(call)
    arrays = call.arrays()
    first = names.get(id(arrays[0]), "x") if arrays else "x"
    if f.show is not None:
        # an identity or shared memory: printing the result cannot show it
        shown = f.show[0].format(expr=expr, x=first)
        code = "\n".join([*lines, f"print({shown})"])
        rec.repro = f"{code}\n# expected: {f.show[2]}"
        rec.expected = f.show[2]
        rec.proof_spec = {"code": code, "got": f.show[1]}
        return
    if d.after is not None:
        arg = call.args[d.after]
        name = names.get(id(arg)) if isinstance(arg, Arr) else None
        if name is None:
            rec.repro = None
            rec.proof_spec = None
            return
        before = describe(arg.value)
        code = [*lines, f"out = {expr}", show(name, ctx.lazy)]
        rec.repro = "\n".join([*code, f"# expected: {name} unchanged, {before}"])
        rec.proof_spec = {
            "setup": [*lines, f"out = {expr}"],
            "expr": name,
            "got": d.got,
            "want": before,
        }
        return
    if f.kind == "device" and not d.several:
        last = f"print(({expr}).device)"
        want = str(getattr(ctx.where, "device", ""))
        rec.repro = "\n".join([*lines, last, f"# expected: {want}"])
    else:
        rec.repro = render_repro(
            call,
            ctx.target_name,
            d.expected,
            ctx.tgt.device_label,
            lazy=ctx.lazy,
            several=d.several,
        )
    rec.proof_spec = {"setup": lines, "expr": expr, "got": d.got, "want": d.expected}
    if runs_as_statement(call):
        rec.proof_spec["call_last"] = True
    if not feature_values:
        rec.proof_spec["novalues"] = True


class _Collector:
    """What the calls of one cell showed besides a deviation."""

    def __init__(self) -> None:
        self.classes: Counter = Counter()
        self.advisories = 0
        self.first: tuple[Any, Any, Any] | None = None  # (call, finding, expected)

    def advise(self, call: Call, findings: list[Finding], expected: str) -> None:
        self.advisories += 1
        if self.first is None:
            self.first = (call, findings[0], expected)


def _advisory(rec: Record, col: _Collector, ctx: Ctx) -> None:
    """Record the cell's advisories (its verdict too, when nothing deviated)."""
    rec.advisories = col.advisories
    if col.first is None:
        return
    call, f, _ = col.first
    several = False  # a tuple of arrays: a lazy one is computed array by array
    try:  # the reference's result, for the advisory's repro
        fn, args, kw, _ = _invoke(ctx.ref, call)
        ref_out = fn(*args, **kw)
        expected = describe(ref_out)
        several = isinstance(ref_out, (tuple, list))
    except Exception as e:
        expected = describe(e)
    repro = render_repro(
        call,
        ctx.target_name,
        expected,
        ctx.tgt.device_label,
        lazy=ctx.lazy,
        several=several,
    )
    more = f" ({col.advisories} calls)" if col.advisories > 1 else ""
    info = {"kind": f.kind, "message": f.message + more, "repro": repro}
    if rec.verdict == "conforms":
        rec.verdict, rec.kind, rec.message = "advisory", f.kind, info["message"]
        rec.repro, rec.expected = repro, expected
    else:
        rec.advisory = info


def _run_feature(entry: Entry, feature: Any, label: str, arg: Any, ctx: Ctx) -> Record:
    dev = ctx.device_label or "default"
    rec = Record(entry.name, feature.name, label, dev, "conforms")
    if label not in ("-", "mixed") and label not in ctx.target_dtypes:
        rec.verdict, rec.message = (
            "untestable",
            f"the target has no {label} on this device",
        )
        return rec
    col = _Collector()
    if feature.table is not None:
        _run_table(entry, feature, ctx, rec, col, arg)
        _advisory(rec, col, ctx)
        rec.classes = dict(col.classes)
        return rec
    try:
        strategy = feature.build(ctx, arg)
    except Exception as e:
        rec.verdict, rec.message = (
            "untestable",
            f"tool error building inputs: {type(e).__name__}: {e}",
        )
        return rec
    count = [0]
    key = f"{ctx.target_name}|{ctx.version}|{dev}|{entry.name}|{feature.name}|{label}"
    seen_ids: set[int] = set()

    stash: list[_Deviation] = []  # a keyword the target lacks: no shrinking

    def body(calls: list[Call]) -> None:
        ran = 0
        if stash:
            return
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            for call in calls:
                try:
                    adv = execute(entry, feature, call, ctx)
                except _OutOfDomain:
                    continue
                except _Deviation as d:
                    if d.findings[0].kind != "signature":
                        raise
                    stash.append(d)
                    return
                finally:
                    count[0] += 1
                ran += 1
                if id(call) not in seen_ids:  # shrinking replays calls
                    seen_ids.add(id(call))
                    col.classes.update(classes_of(call, feature))
                if adv:
                    col.advise(call, adv, "")
        if not ran:
            reject()

    test = given(st.lists(strategy, min_size=BATCH, max_size=BATCH))(body)
    if feature.explicit is not None:
        explicit = feature.explicit(ctx, arg)
        # one example per batch of explicit calls (each costs the engine a turn),
        # applied last to first: Hypothesis runs the last applied first, and
        # the first failure is the one reported (the whole special-value grid
        # before its 0-d variants)
        for i in reversed(range(0, len(explicit), 8)):
            test = example(explicit[i : i + 8])(test)
    test = settings(
        max_examples=max(1, -(-ctx.opts.examples // BATCH)),
        deadline=None,
        database=ctx.db,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
        report_multiple_bugs=False,
        print_blob=False,
    )(test)
    # As @seed does, but @seed also turns the example database off; keep it on,
    # keyed without the seed, so a rerun (with any seed) replays failures first.
    test._hypothesis_internal_use_seed = zlib.crc32(f"{ctx.opts.seed}|{key}".encode())  # type: ignore[attr-defined]
    # the replay database is keyed by the cell (Hypothesis would digest the
    # body's source for every cell: a tenth of a quick run)
    test._hypothesis_internal_database_key = hashlib.sha384(key.encode()).digest()  # type: ignore[attr-defined]
    try:
        test()
        if stash:
            _judge(rec, stash[0], ctx, feature.opts.check_values)
    except _Deviation as d:
        if feature.elementwise:
            d = _reduce(entry, feature, d, ctx)
        _judge(rec, d, ctx, feature.opts.check_values)
    except _Untestable as e:
        rec.verdict, rec.message = "untestable", str(e)
    except (Unsatisfiable, FailedHealthCheck) as e:
        rec.verdict, rec.message = (
            "untestable",
            f"no valid input drawn: {type(e).__name__}",
        )
    except Exception as e:  # a bug of the tool, reported, never a pass
        rec.verdict = "untestable"
        rec.message = f"tool error: {type(e).__name__}: {str(e)[:200]}"
    _advisory(rec, col, ctx)
    rec.examples = count[0]
    rec.classes = dict(col.classes)
    return rec


def _reduce(entry: Entry, feature: Any, dev: _Deviation, ctx: Ctx) -> _Deviation:
    """Isolate the first failing element of an elementwise deviation.

    Every array argument is broadcast to the result's shape and replaced by the
    one element at the failing index; if that smaller call still deviates, it
    becomes the counter-example.
    """
    idx = dev.findings[0].index
    if idx is None:
        return dev
    call = dev.call
    arrays = [a for a in call.args if isinstance(a, Arr)]
    try:
        shape = np.broadcast_shapes(*(tuple(a.value.shape) for a in arrays))
        ref = ctx.refmod
        args = []
        for a in call.args:
            if isinstance(a, Arr):
                v = np.broadcast_to(a.numpy(), shape)[idx]
                args.append(
                    Arr(ref.asarray(np.asarray([v]), dtype=a.value.dtype), a.name)
                )
            else:
                args.append(a)
        small = Call(call.name, tuple(args), dict(call.kwargs), call.mutates)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            execute(entry, feature, small, ctx)
    except _Deviation as d2:
        return d2
    except Exception:
        return dev
    return dev


def _run_table(
    entry: Entry, feature: Any, ctx: Ctx, rec: Record, col: _Collector, arg: Any = None
) -> None:
    """Run a deterministic table of calls (no drawing); report the first failure."""
    failures: list[_Deviation] = []
    calls = feature.table(ctx) if feature.dtypes == "none" else feature.table(ctx, arg)
    for call in calls:
        dts = [a.dtype_name for a in call.arrays()]
        dts += [a.name for a in call.args if isinstance(a, DT)]
        if any(d not in ctx.target_dtypes for d in dts):
            continue
        rec.examples += 1
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                adv = execute(entry, feature, call, ctx)
        except _Deviation as d:
            failures.append(d)
            continue
        except Exception:
            continue
        col.classes.update(classes_of(call, feature))
        if adv:
            col.advise(call, adv, "")
    if failures:
        first = failures[0]
        _judge(rec, first, ctx, feature.opts.check_values)
        rec.dtype = ",".join(a.dtype_name for a in first.call.arrays()) or rec.dtype
        rec.message = f"{rec.message} ({len(failures)} of {rec.examples} table entries)"


# --- the whole run ---------------------------------------------------------------------------


def run_entries(names: list[str], opts: Options, on_name: Any = None) -> list[Record]:
    """Run the named registry entries in this process.

    ``on_name(records)`` is called with each name's records as it finishes.
    """
    from .static import check_static

    warnings.simplefilter("ignore")
    ctx = make_context(opts)
    reg = build_registry(ctx.version)
    out: list[Record] = []
    for i, name in enumerate(names):
        if opts.stop:
            opts.interrupted = True
            break
        entry = reg[name]
        static = check_static(entry, ctx)
        mine = list(static)
        if static[0].verdict not in ("conforms", "advisory"):
            mine += [
                Record(
                    name,
                    f.name,
                    "-",
                    static[0].device,
                    static[0].verdict,
                    message="name missing",
                )
                for f in entry.features
            ]
        else:
            start = zlib.crc32(name.encode())
            cells = [
                (feature, cell)
                for turn, feature in enumerate(entry.features)
                for cell in _dtype_cells(entry, feature, ctx, turn + start)
            ]
            cells += _left_out(entry, cells, ctx)
            for feature, (label, arg) in cells:
                if opts.stop:
                    break
                mine.append(run_feature(entry, feature, label, arg, ctx))
        if opts.stop:  # a name cut short is left out: its verdict would lie
            opts.interrupted = True
            break
        out += mine
        if on_name is not None:
            on_name(mine)
        if opts.progress is not None:
            opts.progress(i + 1, len(names), name)
    return out


def _start_method(target: str) -> str:
    """How ``-j`` starts its workers: fork (cheap: the target is imported
    once) where the process may fork (``prove.can_fork``: a ``-j 2`` run on
    jax.numpy hung with both forked workers idle), else spawn (each worker
    imports the target itself)."""
    from .prove import can_fork

    return "fork" if can_fork(target) else "spawn"


def _worker(args: tuple[list[str], Options]) -> list[Record]:
    names, opts = args
    opts.progress = None
    try:
        return run_entries(names, opts)
    except KeyboardInterrupt:
        return []


def select(opts: Options) -> list[str]:
    """The registry names to run (``--only`` filters by exact name or prefix)."""
    reg = build_registry(resolve_version(opts))
    names = list(reg)
    if opts.only:
        unknown = [
            n
            for n in opts.only
            if n not in reg and not any(k.startswith(n + ".") for k in reg)
        ]
        if unknown:
            msg = f"--only: {', '.join(unknown)} not in the {opts.version} standard"
            raise TargetError(msg)
        names = [
            n
            for n in names
            if n in opts.only or any(n.startswith(o + ".") for o in opts.only)
        ]
    return names


def run(opts: Options, on_records: Any = None) -> tuple[list[Record], float]:
    """Run the tool; return the records and the wall time in seconds.

    ``on_records(records)`` is called with all records so far each time a
    name (or, with ``-j``, a chunk of names) finishes, so that a report can be
    written as the run goes.  Ctrl-C stops the run: what finished is
    returned, with ``opts.interrupted`` set.
    """
    t0 = time.perf_counter()
    names = select(opts)
    make_context(opts)  # fail early (exit 2) on an unimportable target or bad device
    records: list[Record] = []

    def finished(part: list[Record]) -> None:
        records.extend(part)
        if on_records is not None:
            on_records(records)

    try:
        if opts.jobs <= 1 or len(names) < 2:
            run_entries(names, opts, on_name=finished)
            if opts.stop:
                opts.interrupted = True
        else:
            reg = build_registry(resolve_version(opts))
            # spread the costly entries: sort by feature count, deal round-robin
            ordered = sorted(names, key=lambda n: -len(reg[n].features))
            chunks = [ordered[i :: opts.jobs * 4] for i in range(opts.jobs * 4)]
            progress, opts.progress = opts.progress, None
            mp = multiprocessing.get_context(_start_method(opts.target))
            pool = mp.Pool(opts.jobs)
            try:
                done = 0
                for part in pool.imap_unordered(
                    _worker, [(c, opts) for c in chunks if c]
                ):
                    finished(part)
                    if opts.stop:
                        opts.interrupted = True
                        break
                    done += len({r.name for r in part})
                    if progress is not None:
                        progress(done, len(names), part[-1].name if part else "")
                pool.close()
            finally:
                pool.terminate()
                pool.join()
                opts.progress = progress
    except KeyboardInterrupt:
        opts.interrupted = True
    order = {n: i for i, n in enumerate(names)}
    records.sort(key=lambda r: order[r.name])
    if opts.prove and not opts.interrupted:
        from .prove import prove

        try:
            prove(records, opts)
        except KeyboardInterrupt:
            opts.interrupted = True
    return records, time.perf_counter() - t0
