"""The runner: draw on the reference, run on both namespaces, compare, judge.

For every registry entry it checks presence and signature, then runs each
differential :class:`~conformance.registry.Feature` for each dtype as one
Hypothesis test (seeded, with a replay database).  A deviation raises inside
the test, so Hypothesis shrinks it; the shrunk call becomes the repro.
"""

from __future__ import annotations

import importlib
import math
import multiprocessing
import os
import re
import time
import warnings
import zlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, example, given, reject, settings
from hypothesis import strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.errors import FailedHealthCheck, Unsatisfiable
from hypothesis.extra.array_api import make_strategies_namespace

from .calls import Arr, Call, Namespace, render_repro, to_numpy
from .checks import Finding, check_mutation, check_result, check_signature, describe
from .families import KINDS, dtypes_of
from .registry import Entry, build_registry

__all__ = ["Options", "Record", "TargetError", "run"]

QUICK_DTYPES = ("bool", "int8", "int64", "uint8", "float32", "float64", "complex128")


class TargetError(Exception):
    """The tool cannot run against the target (exit status 2)."""


@dataclass
class Options:
    """What to run (the command line, as data)."""

    target: str
    version: str = "2025.12"
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

    @property
    def examples(self) -> int:
        if self.max_examples is not None:
            return self.max_examples
        return 12 if self.quick else 16


@dataclass
class Record:
    """One verdict for (name, feature, dtype, device)."""

    name: str
    feature: str
    dtype: str
    device: str
    verdict: str  # conforms, deviates, missing, crashes, untestable
    kind: str | None = None
    message: str = ""
    repro: str | None = None
    expected: str | None = None
    examples: int = 0
    seconds: float = 0.0


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
    records: list[Record] = field(default_factory=list)

    @property
    def refmod(self) -> Any:
        """The reference module (``ocean_array_api`` at the tested version)."""
        return self.ref.module


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


def make_context(opts: Options) -> Ctx:
    """Import the reference and the target and resolve the device."""
    ref = _import_reference(opts.version)
    try:
        target = importlib.import_module(opts.target)
    except Exception as e:
        msg = f"cannot import {opts.target!r}: {type(e).__name__}: {e}"
        raise TargetError(msg) from None
    device = _find_device(target, opts.device) if opts.device else None
    try:
        expected = (
            device
            if device is not None
            else target.__array_namespace_info__().default_device()
        )
    except Exception:
        expected = None
    try:
        tdt = set(
            target.__array_namespace_info__().dtypes(
                **({"device": device} if device is not None else {})
            )
        )
    except Exception:
        tdt = {n for n in KINDS["any"] if hasattr(target, n)}
    return Ctx(
        ref=Namespace(ref),
        # repros find the device by its str(), which may differ from the label
        tgt=Namespace(target, device, str(device) if device is not None else ""),
        target_name=opts.target,
        version=opts.version,
        xps=make_strategies_namespace(ref, api_version=opts.version),
        opts=opts,
        expected_device=expected,
        target_dtypes=tdt,
        db=DirectoryBasedExampleDatabase(opts.database) if opts.database else None,
        device_label=opts.device or "",
    )


# --- executing one call ----------------------------------------------------------------


class _Deviation(AssertionError):
    def __init__(self, call: Call, findings: list[Finding], expected: str) -> None:
        super().__init__(findings[0].message)
        self.call = call
        self.findings = findings
        self.expected = expected


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
    )
}


def _invoke(ns: Namespace, call: Call) -> tuple[Any, list, dict, list]:
    """Return ``(function, args, kwargs, all argument values)`` on ``ns``."""
    args = [ns.value(a) for a in call.args]
    kwargs = {k: ns.value(v) for k, v in call.kwargs.items()}
    if call.name.startswith(("Array.", "dtype.")):
        return getattr(args[0], call.name.split(".", 1)[1]), args[1:], kwargs, args
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


def execute(entry: Entry, feature: Any, call: Call, ctx: Ctx) -> None:
    """Run one call on both namespaces; raise a deviation if they disagree."""
    rfn, rargs, rkw, rall = _invoke(ctx.ref, call)
    try:
        ref_out = rfn(*rargs, **rkw)
        ref_exc = None
    except Exception as e:
        ref_out, ref_exc = None, e
    if feature.result_arg is not None and ref_exc is None:
        ref_out = rall[feature.result_arg]
    if (ref_exc is None) == feature.expect_raise:
        raise _OutOfDomain  # the strategy drew an input outside the feature's domain
    expected = describe(ref_exc if ref_exc is not None else ref_out)
    try:
        tfn, targs, tkw, tall = _invoke(ctx.tgt, call)
        before = _host_inputs(call, tall)
    except Exception as e:
        msg = f"could not put the inputs on the target: {type(e).__name__}: {e}"
        raise _Untestable(msg) from None
    findings: list[Finding] = []
    try:
        tgt_out = tfn(*targs, **tkw)
        tgt_exc = None
    except Exception as e:
        tgt_out, tgt_exc = None, e
    if feature.expect_raise:
        if tgt_exc is None:
            findings.append(
                Finding(
                    "exception", f"returned {describe(tgt_out, 80)} instead of raising"
                )
            )
    elif isinstance(tgt_exc, TypeError) and "unexpected keyword" in str(tgt_exc):
        findings.append(Finding("signature", f"raised TypeError: {str(tgt_exc)[:160]}"))
    elif tgt_exc is not None:
        findings.append(
            Finding("crash", f"raised {type(tgt_exc).__name__}: {str(tgt_exc)[:160]}")
        )
    else:
        if feature.result_arg is not None:
            tgt_out = tall[feature.result_arg]
        if feature.compare is not None:
            findings += feature.compare(ref_out, tgt_out, call, ctx)
        else:
            opts = feature.opts
            if feature.scale_from is not None:
                opts = type(opts)(
                    **{**opts.__dict__, "scale": feature.scale_from(call)}
                )
            inputs = [a.numpy() for a in call.args if isinstance(a, Arr)]
            findings += check_result(
                ref_out, tgt_out, ctx.tgt.module, ctx.expected_device, opts, inputs
            )
        if feature.identity is not None:
            findings += feature.identity(tgt_out, tall, tkw)
        keep = [(i, b) for i, b in before if i not in call.mutates]
        try:
            after = [a for i, a in _host_inputs(call, tall) if i not in call.mutates]
        except Exception as e:
            msg = f"could not read the inputs back: {type(e).__name__}: {e}"
            raise _Untestable(msg) from None
        findings += check_mutation(keep, after)
    if findings:
        raise _DEVIATION_CLASSES[findings[0].kind](call, findings, expected)


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


def _dtype_cells(entry: Entry, feature: Any, ctx: Ctx) -> list[tuple[str, Any]]:
    """The (label, argument) pairs a feature runs for: one per dtype or pair."""
    if feature.dtypes == "none":
        return [("-", None)]
    if isinstance(feature.dtypes, str) and feature.dtypes.startswith("mixed:"):
        kind = feature.dtypes.split(":", 1)[1]
        names = [d for d in dtypes_of(kind) if d in ctx.target_dtypes]
        ref = ctx.ref.module
        pairs = []
        for a in names:
            for b in names:
                if a == b:
                    continue
                try:
                    ref.result_type(getattr(ref, a), getattr(ref, b))
                except TypeError:
                    continue
                pairs.append((a, b))
        return [("mixed", pairs)] if pairs else []
    names = dtypes_of(feature.dtypes)
    # Operators and methods share their function's implementation in every
    # library we know: they run on one dtype per size class, the functions on all.
    if ctx.opts.quick or entry.name.startswith("Array.__"):
        q = [d for d in names if d in QUICK_DTYPES]
        names = tuple(q or names[:1])
    return [(d, d) for d in names]


def run_feature(entry: Entry, feature: Any, label: str, arg: Any, ctx: Ctx) -> Record:
    """Run one (entry, feature, dtype) cell as a seeded Hypothesis test."""
    t0 = time.perf_counter()
    rec = _run_feature(entry, feature, label, arg, ctx)
    rec.seconds = time.perf_counter() - t0
    return rec


def _run_feature(entry: Entry, feature: Any, label: str, arg: Any, ctx: Ctx) -> Record:
    dev = ctx.device_label or "default"
    rec = Record(entry.name, feature.name, label, dev, "conforms")
    if label not in ("-", "mixed") and label not in ctx.target_dtypes:
        rec.verdict, rec.message = (
            "untestable",
            f"the target has no {label} on this device",
        )
        return rec
    if feature.table is not None:
        return _run_table(entry, feature, ctx, rec)
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

    def body(calls: list[Call]) -> None:
        ran = 0
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            for call in calls:
                try:
                    execute(entry, feature, call, ctx)
                except _OutOfDomain:
                    continue
                finally:
                    count[0] += 1
                ran += 1
        if not ran:
            reject()

    # the replay database is keyed by the body's digest plus this key
    body._hypothesis_internal_add_digest = key.encode()  # type: ignore[attr-defined]
    test = given(st.lists(strategy, min_size=BATCH, max_size=BATCH))(body)
    if feature.explicit is not None:
        for call in feature.explicit(ctx, arg):
            test = example([call])(test)
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
    try:
        test()
    except _Deviation as d:
        if feature.elementwise:
            d = _reduce(entry, feature, d, ctx)
        f = d.findings[0]
        rec.verdict = "crashes" if f.kind == "crash" else "deviates"
        rec.kind = f.kind
        rec.message = "; ".join(x.message for x in d.findings[:3])
        rec.expected = d.expected
        rec.repro = render_repro(
            d.call, ctx.target_name, d.expected, ctx.tgt.device_label
        )
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
    rec.examples = count[0]
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


def _run_table(entry: Entry, feature: Any, ctx: Ctx, rec: Record) -> Record:
    """Run a deterministic table of calls (no drawing); report the first failure."""
    failures: list[_Deviation] = []
    calls = feature.table(ctx)
    for call in calls:
        dts = [a.dtype_name for a in call.arrays()]
        if any(d not in ctx.target_dtypes for d in dts):
            continue
        rec.examples += 1
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                execute(entry, feature, call, ctx)
        except _Deviation as d:
            failures.append(d)
        except Exception:
            continue
    if failures:
        d = failures[0]
        f = d.findings[0]
        rec.verdict = "crashes" if f.kind == "crash" else "deviates"
        rec.kind = f.kind
        rec.dtype = ",".join(a.dtype_name for a in d.call.arrays())
        rec.message = f"{f.message} ({len(failures)} of {rec.examples} dtype pairs)"
        rec.expected = d.expected
        rec.repro = render_repro(
            d.call, ctx.target_name, d.expected, ctx.tgt.device_label
        )
    return rec


# --- presence, signature, constants --------------------------------------------------------


def _target_array(ctx: Ctx) -> Any:
    return ctx.tgt.array(
        Arr(
            ctx.ref.module.asarray(
                [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=ctx.ref.module.float32
            )
        )
    )


CONSTANTS = {"e": math.e, "pi": math.pi, "inf": math.inf, "nan": math.nan}


def check_static(entry: Entry, ctx: Ctx) -> list[Record]:
    """Presence, signature and the checks needing no drawn input."""
    dev = ctx.device_label or "default"
    t = ctx.tgt.module

    def rec(feature, verdict, kind=None, message="", repro=None, expected=None):
        return Record(
            entry.name, feature, "-", dev, verdict, kind, message, repro, expected
        )

    name = entry.name
    try:
        if name.startswith("Array."):
            arr = _target_array(ctx)
            obj = getattr(arr, name.split(".", 1)[1])
        elif name.startswith("dtype."):
            obj = getattr(t.float32, name.split(".", 1)[1])
        else:
            obj = ctx.tgt.resolve(name)
    except AttributeError:
        return [rec("presence", "missing", message=f"{name} is not defined")]
    except Exception as e:
        return [
            rec(
                "presence",
                "crashes",
                "crash",
                f"looking {name} up raised {type(e).__name__}: {e}",
            )
        ]
    out = [rec("presence", "conforms")]
    if entry.params is not None:
        status, findings = check_signature(obj, entry.params)
        if status != "checked":
            out.append(rec("signature", "untestable", message=status.split(": ", 1)[1]))
        elif findings:
            out.append(
                rec(
                    "signature",
                    "deviates",
                    "signature",
                    "; ".join(f.message for f in findings),
                )
            )
        else:
            out.append(rec("signature", "conforms"))
    # values that need no drawing
    imp = f"import {ctx.target_name} as xp"
    if name in CONSTANTS:
        want = CONSTANTS[name]
        ok = isinstance(obj, float) and (
            obj == want or (math.isnan(want) and math.isnan(obj))
        )
        out.append(
            rec("value", "conforms")
            if ok
            else rec(
                "value",
                "deviates",
                "value",
                f"{name} is {obj!r}",
                f"{imp}\nprint(xp.{name})\n# expected: {want!r}",
                repr(want),
            )
        )
    elif name == "newaxis":
        out.append(
            rec("value", "conforms")
            if obj is None
            else rec(
                "value",
                "deviates",
                "value",
                f"newaxis is {obj!r}",
                f"{imp}\nprint(xp.newaxis)\n# expected: None",
                "None",
            )
        )
    elif name == "__array_api_version__":
        ok = obj == ctx.version
        out.append(
            rec("value", "conforms")
            if ok
            else rec(
                "value",
                "deviates",
                "value",
                f"reports {obj!r}, tested against {ctx.version}",
                f"{imp}\nprint(xp.__array_api_version__)\n# expected: {ctx.version!r}",
                repr(ctx.version),
            )
        )
    elif entry.kind == "dtype":
        others = [getattr(t, d, None) for d in KINDS["any"] if d != name]
        ok = obj == getattr(t, name) and not any(
            obj == o for o in others if o is not None
        )
        out.append(
            rec("value", "conforms")
            if ok
            else rec(
                "value", "deviates", "value", f"{name} compares equal to another dtype"
            )
        )
    elif name in (
        "Array.shape",
        "Array.ndim",
        "Array.size",
        "Array.dtype",
        "Array.device",
        "Array.T",
        "Array.mT",
    ):
        out.append(_attribute(entry, obj, ctx, rec))
    elif name.startswith("info."):
        out.append(_info(entry, obj, ctx, rec))
    elif name == "dtype.__eq__":
        dts = {d: getattr(t, d) for d in KINDS["any"] if hasattr(t, d)}
        wrong = [(a, b) for a in dts for b in dts if bool(dts[a] == dts[b]) != (a == b)]
        out.append(
            rec("value", "conforms")
            if not wrong
            else rec(
                "value",
                "deviates",
                "value",
                f"xp.{wrong[0][0]} == xp.{wrong[0][1]} is {wrong[0][0] != wrong[0][1]}",
                f"{imp}\nprint(xp.{wrong[0][0]} == xp.{wrong[0][1]})\n"
                f"# expected: {wrong[0][0] == wrong[0][1]}",
                str(wrong[0][0] == wrong[0][1]),
            )
        )
    elif name == "__array_namespace_info__":
        methods = (
            "capabilities",
            "default_device",
            "default_dtypes",
            "devices",
            "dtypes",
        )
        try:
            info = obj()
            lacks = [m for m in methods if not callable(getattr(info, m, None))]
            msg = f"its result has no {', '.join(lacks)}" if lacks else ""
        except Exception as e:
            msg = f"raised {type(e).__name__}: {e}"
        out.append(
            rec("value", "conforms")
            if not msg
            else rec("value", "deviates", "value", f"__array_namespace_info__(): {msg}")
        )
    elif not entry.features and entry.kind != "constant":
        out.append(rec("value", "untestable", message="no value check yet"))
    return out


def _attribute(entry, obj, ctx, rec):
    attr = entry.name.split(".", 1)[1]
    want = {"shape": (2, 3), "ndim": 2, "size": 6}
    if attr in want:
        ok = tuple(obj) == want[attr] if attr == "shape" else obj == want[attr]
        return (
            rec("value", "conforms")
            if ok
            else rec(
                "value",
                "deviates",
                "value",
                f".{attr} is {obj!r}, expected {want[attr]!r}",
            )
        )
    if attr == "dtype":
        return (
            rec("value", "conforms")
            if obj == ctx.tgt.module.float32
            else rec("value", "deviates", "dtype", f".dtype is {obj!r}")
        )
    if attr == "device":
        if ctx.expected_device is None:
            return rec(
                "value",
                "untestable",
                message="the target has no default device to compare with",
            )
        return (
            rec("value", "conforms")
            if obj == ctx.expected_device
            else rec(
                "value",
                "deviates",
                "device",
                f".device is {obj!r}, expected {ctx.expected_device!r}",
            )
        )
    host = to_numpy(obj)
    ok = host.shape == (3, 2) and np.array_equal(host, [[1, 4], [2, 5], [3, 6]])
    return (
        rec("value", "conforms")
        if ok
        else rec("value", "deviates", "value", f".{attr} is {host.tolist()}")
    )


def _info(entry, obj, ctx, rec):
    what = entry.name.split(".", 1)[1]
    try:
        res = (
            obj(device=ctx.tgt.device)
            if what in ("dtypes", "default_dtypes") and ctx.tgt.device is not None
            else obj()
        )
    except Exception as e:
        return rec("value", "crashes", "crash", f"raised {type(e).__name__}: {e}")
    t = ctx.tgt.module
    if what == "devices":
        ok = (
            isinstance(res, (list, tuple))
            and len(res) > 0
            and (ctx.expected_device is None or ctx.expected_device in res)
        )
    elif what == "default_device":
        ok = res is not None
    elif what == "default_dtypes":
        keys = {"real floating", "complex floating", "integral", "indexing"}
        ok = (
            isinstance(res, dict)
            and set(res) == keys
            and all(v in [getattr(t, d) for d in KINDS["any"]] for v in res.values())
        )
    elif what == "dtypes":
        ok = (
            isinstance(res, dict)
            and set(res) <= set(KINDS["any"])
            and all(v == getattr(t, k) for k, v in res.items())
        )
    else:  # capabilities
        keys = {"boolean indexing", "data-dependent shapes"}
        if ctx.version != "2023.12":
            keys.add("max dimensions")
        ok = isinstance(res, dict) and keys <= set(res)
    return (
        rec("value", "conforms")
        if ok
        else rec("value", "deviates", "value", f"{what}() returned {res!r}")
    )


# --- the whole run ---------------------------------------------------------------------------


def run_entries(names: list[str], opts: Options) -> list[Record]:
    """Run the named registry entries in this process."""
    warnings.simplefilter("ignore")
    ctx = make_context(opts)
    reg = build_registry(opts.version)
    out: list[Record] = []
    for i, name in enumerate(names):
        entry = reg[name]
        static = check_static(entry, ctx)
        out += static
        if static[0].verdict != "conforms":
            out += [
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
            for feature in entry.features:
                for label, arg in _dtype_cells(entry, feature, ctx):
                    out.append(run_feature(entry, feature, label, arg, ctx))
        if opts.progress is not None:
            opts.progress(i + 1, len(names), name)
    return out


def _worker(args: tuple[list[str], Options]) -> list[Record]:
    names, opts = args
    opts.progress = None
    return run_entries(names, opts)


def select(opts: Options) -> list[str]:
    """The registry names to run (``--only`` filters by exact name or prefix)."""
    reg = build_registry(opts.version)
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


def run(opts: Options) -> tuple[list[Record], float]:
    """Run the tool; return the records and the wall time in seconds."""
    t0 = time.perf_counter()
    names = select(opts)
    make_context(opts)  # fail early (exit 2) on an unimportable target or bad device
    if opts.jobs <= 1 or len(names) < 2:
        records = run_entries(names, opts)
    else:
        reg = build_registry(opts.version)
        # spread the costly entries: sort by feature count, deal round-robin
        ordered = sorted(names, key=lambda n: -len(reg[n].features))
        chunks = [ordered[i :: opts.jobs * 4] for i in range(opts.jobs * 4)]
        progress, opts.progress = opts.progress, None
        ctx = multiprocessing.get_context("fork")
        records = []
        with ctx.Pool(opts.jobs) as pool:
            done = 0
            for part in pool.imap_unordered(_worker, [(c, opts) for c in chunks if c]):
                records += part
                done += len({r.name for r in part})
                if progress is not None:
                    progress(done, len(names), part[-1].name if part else "")
        order = {n: i for i, n in enumerate(names)}
        records.sort(key=lambda r: order[r.name])
        opts.progress = progress
    return records, time.perf_counter() - t0
