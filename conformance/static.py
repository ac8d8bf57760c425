"""Checks that need no drawn input: presence, signatures, constants, attributes, info.

:func:`check_static` returns the records of one registry entry; each
deviation carries a repro and what the prover must see when it runs it
(:mod:`conformance.prove`).
"""

from __future__ import annotations

import inspect
import math
from typing import Any

import numpy as np

from .calls import Arr, to_numpy
from .checks import check_signature
from .families import KINDS
from .registry import VERSIONS, Entry

__all__ = ["check_static", "spec_signature"]

CONSTANTS = {"e": math.e, "pi": math.pi, "inf": math.inf, "nan": math.nan}
INPLACE = frozenset(
    f"Array.__i{op}__"
    for op in (
        [
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
    )
)


def spec_signature(params: list) -> str:
    """The standard's signature as ``inspect.signature`` prints one."""
    out: list[str] = []
    star = False
    for i, (name, kind, default) in enumerate(params):
        if kind == "var-positional":
            out.append(f"*{name}")
            star = True
        elif kind == "keyword-only" and not star:
            out.append("*")
            star = True
        out.append(name if default is None else f"{name}={default}")
        nxt = params[i + 1][1] if i + 1 < len(params) else None
        if kind == "positional-only" and nxt != "positional-only":
            out.append("/")
    return "(" + ", ".join(out) + ")"


def _object_expr(name: str) -> str:
    """How a repro reaches the object a standard name stands for."""
    head, _, rest = name.partition(".")
    if head == "Array":
        return (
            f"xp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=xp.float32).{rest}"
        )
    if head == "dtype":
        return f"xp.float32.{rest}"
    if head == "info":
        return f"xp.__array_namespace_info__().{rest}"
    return f"xp.{name}"


class _Rec:
    """Builds the records of one entry."""

    def __init__(self, entry: Entry, ctx: Any) -> None:
        self.entry, self.ctx = entry, ctx
        self.dev = ctx.device_label or "default"
        self.imp = f"import {ctx.target_name} as xp"
        self.out: list = []

    def add(
        self,
        feature: str,
        verdict: str,
        kind: str | None = None,
        message: str = "",
        repro: str | None = None,
        expected: str | None = None,
        proof: dict | None = None,
    ) -> Any:
        from .runner import Record

        r = Record(
            self.entry.name,
            feature,
            "-",
            self.dev,
            verdict,
            kind,
            message,
            repro,
            expected,
        )
        r.proof_spec = proof
        self.out.append(r)
        return r

    def printed(self, feature, kind, message, expr, got, want, level="must"):
        """A deviation shown by printing ``expr`` (``got`` is what it prints)."""
        code = f"{self.imp}\nprint({expr})"
        self.add(
            feature,
            "deviates" if level == "must" else "advisory",
            kind,
            message,
            f"{code}\n# expected: {want}",
            want,
            {"code": code, "got": got},
        )


def check_static(entry: Entry, ctx: Any) -> list:
    """Presence, signature and the checks needing no drawn input."""
    t = ctx.tgt.module
    r = _Rec(entry, ctx)
    name = entry.name
    try:
        if name.startswith("Array."):
            obj = getattr(ctx.target_array(), name.split(".", 1)[1])
        elif name.startswith("dtype."):
            obj = getattr(t.float32, name.split(".", 1)[1])
        else:
            obj = ctx.tgt.resolve(name)
    except AttributeError:
        if name in INPLACE:
            # "conforming array libraries which do not support array mutation
            # may choose to not explicitly implement in-place Python operators"
            r.add(
                "presence",
                "advisory",
                "optional",
                f"{name} is not defined: Python falls back to "
                f"__{name[9:-2]}__, as the standard allows a library without "
                "mutation",
            )
            return r.out
        owner, _, attr = _object_expr(name).rpartition(".")
        code = f"{r.imp}\nprint(hasattr({owner}, {attr!r}))"
        r.add(
            "presence",
            "missing",
            message=f"{name} is not defined",
            repro=f"{code}\n# expected: True",
            expected="True",
            proof={"code": code, "got": "False"},
        )
        return r.out
    except Exception as e:
        r.add(
            "presence",
            "crashes",
            "crash",
            f"looking {name} up raised {type(e).__name__}: {e}",
        )
        return r.out
    r.add("presence", "conforms")
    if entry.params is not None:
        _signature(entry, obj, r)
    if name in CONSTANTS:
        want = CONSTANTS[name]
        ok = isinstance(obj, float) and (
            obj == want or (math.isnan(want) and math.isnan(obj))
        )
        if ok:
            r.add("value", "conforms")
        else:
            r.printed(
                "value",
                "value",
                f"{name} is {obj!r}",
                f"xp.{name}",
                str(obj),
                repr(want),
            )
    elif name == "newaxis":
        if obj is None:
            r.add("value", "conforms")
        else:
            r.printed(
                "value", "value", f"newaxis is {obj!r}", "xp.newaxis", str(obj), "None"
            )
    elif name == "__array_api_version__":
        _version(obj, r)
    elif entry.kind == "dtype":
        others = [getattr(t, d, None) for d in KINDS["any"] if d != name]
        same = [d for d in KINDS["any"] if d != name and obj == getattr(t, d, None)]
        ok = obj == getattr(t, name) and not any(
            obj == o for o in others if o is not None
        )
        if ok:
            r.add("value", "conforms")
        else:
            other = same[0] if same else name
            r.printed(
                "value",
                "value",
                f"{name} compares equal to {other}",
                f"xp.{name} == xp.{other}",
                "True",
                str(other == name),
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
        _attribute(entry, obj, ctx, r)
    elif name.startswith("info."):
        _info(entry, obj, ctx, r)
    elif name == "dtype.__eq__":
        dts = {d: getattr(t, d) for d in KINDS["any"] if hasattr(t, d)}
        wrong = [(a, b) for a in dts for b in dts if bool(dts[a] == dts[b]) != (a == b)]
        if not wrong:
            r.add("value", "conforms")
        else:
            a, b = wrong[0]
            r.printed(
                "value",
                "value",
                f"xp.{a} == xp.{b} is {a != b}",
                f"xp.{a} == xp.{b}",
                str(a != b),
                str(a == b),
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
        if msg:
            r.add("value", "deviates", "value", f"__array_namespace_info__(): {msg}")
        else:
            r.add("value", "conforms")
    elif not entry.features and entry.kind != "constant":
        r.add("value", "untestable", message="no value check yet")
    return r.out


def _signature(entry: Entry, obj: Any, r: _Rec) -> None:
    status, findings = check_signature(obj, entry.params)
    if status != "checked":
        r.add("signature", "untestable", message=status.split(": ", 1)[1])
        return
    if not findings:
        r.add("signature", "conforms")
        return
    expr = _object_expr(entry.name)
    code = f"import inspect\n{r.imp}\nprint(inspect.signature({expr}))"
    want = spec_signature(entry.params)
    r.add(
        "signature",
        "deviates",
        "signature",
        "; ".join(f.message for f in findings),
        f"{code}\n# expected: {want}",
        want,
        {"code": code, "got": str(inspect.signature(obj))},
    )


def _version(obj: Any, r: _Rec) -> None:
    tested = r.ctx.version
    if obj == tested:
        r.add("value", "conforms")
    elif obj in VERSIONS:
        # a revision the library declares, tested against another one on request
        r.printed(
            "value",
            "value",
            f"declares {obj!r}; tested against {tested} (--version)",
            "xp.__array_api_version__",
            str(obj),
            repr(tested),
            level="should",
        )
    else:
        r.printed(
            "value",
            "value",
            f"declares {obj!r}, which is no revision of the standard",
            "xp.__array_api_version__",
            str(obj),
            repr(tested),
        )


def _attribute(entry: Entry, obj: Any, ctx: Any, r: _Rec) -> None:
    attr = entry.name.split(".", 1)[1]
    expr = f"{_object_expr('Array.' + attr)}"
    want = {"shape": (2, 3), "ndim": 2, "size": 6}
    if attr in want:
        ok = tuple(obj) == want[attr] if attr == "shape" else obj == want[attr]
        if ok:
            r.add("value", "conforms")
        else:
            r.printed(
                "value",
                "value",
                f".{attr} is {obj!r}, expected {want[attr]!r}",
                expr,
                str(obj),
                repr(want[attr]),
            )
        return
    if attr == "dtype":
        if obj == ctx.tgt.module.float32:
            r.add("value", "conforms")
        else:
            r.printed("value", "dtype", f".dtype is {obj!r}", expr, str(obj), "float32")
        return
    if attr == "device":
        if ctx.expected_device is None:
            r.add(
                "value",
                "untestable",
                message="the target has no default device to compare with",
            )
        elif obj == ctx.expected_device:
            r.add("value", "conforms")
        else:
            r.printed(
                "value",
                "device",
                f".device is {obj!r}, expected {ctx.expected_device!r}",
                expr,
                str(obj),
                str(ctx.expected_device),
            )
        return
    host = to_numpy(obj)
    ok = host.shape == (3, 2) and np.array_equal(host, [[1, 4], [2, 5], [3, 6]])
    if ok:
        r.add("value", "conforms")
    else:
        r.add("value", "deviates", "value", f".{attr} is {host.tolist()}")
    if attr == "mT":
        _stacked_mT(ctx, r)


def _stacked_mT(ctx: Any, r: _Rec) -> None:
    """``x.mT`` of stacks of matrices: the last two axes swapped, and only those."""
    ref = ctx.ref.module
    for shape in ((2, 3, 4), (2, 1, 3, 2)):
        a = np.arange(1, 1 + math.prod(shape), dtype=np.float32).reshape(shape)
        want = np.swapaxes(a, -1, -2)
        expr = f"xp.asarray({a.tolist()}, dtype=xp.float32).mT"
        try:
            x = ctx.tgt.array(Arr(ref.asarray(a.tolist(), dtype=ref.float32)))
            out = x.mT
            host = to_numpy(out)
        except Exception as e:
            r.add("stack", "crashes", "crash", f"raised {type(e).__name__}: {e}")
            return
        if host.shape != want.shape or not np.array_equal(host, want):
            r.printed(
                "stack",
                "shape" if host.shape != want.shape else "value",
                f"x.mT of a {shape} array is {host.shape} {host.tolist()},"
                f" expected {want.shape} (the last two axes swapped)",
                expr,
                str(out),
                f"{want.shape} {want.tolist()}",
            )
            return
    r.add("stack", "conforms")


def _info(entry: Entry, obj: Any, ctx: Any, r: _Rec) -> None:
    what = entry.name.split(".", 1)[1]
    dev = {"device": ctx.tgt.device} if ctx.tgt.device is not None else {}
    try:
        res = obj(**dev) if what in ("dtypes", "default_dtypes") else obj()
    except Exception as e:
        r.add("value", "crashes", "crash", f"raised {type(e).__name__}: {e}")
        return
    t = ctx.tgt.module
    msg = ""
    if what == "devices":
        if not (isinstance(res, (list, tuple)) and len(res) > 0):
            msg = f"devices() returned {res!r}"
        elif ctx.expected_device is not None and ctx.expected_device not in res:
            msg = f"devices() does not list the default device {ctx.expected_device!r}"
    elif what == "default_device":
        msg = "" if res is not None else "default_device() returned None"
    elif what == "default_dtypes":
        msg = _default_dtypes(res, t, ctx)
    elif what == "dtypes":
        msg = _dtypes(obj, res, t, dev)
    else:  # capabilities
        keys = {"boolean indexing", "data-dependent shapes"}
        if ctx.version != "2023.12":
            keys.add("max dimensions")
        if not isinstance(res, dict) or not keys <= set(res):
            msg = f"capabilities() returned {res!r}, without {sorted(keys)}"
        elif not all(isinstance(res[k], bool) for k in keys - {"max dimensions"}):
            msg = f"capabilities() values must be bools: {res!r}"
        elif "max dimensions" in keys and not (
            res["max dimensions"] is None
            or (isinstance(res["max dimensions"], int) and res["max dimensions"] > 0)
        ):
            msg = f"capabilities()['max dimensions'] is {res['max dimensions']!r}"
    if msg:
        r.add("value", "deviates", "value", msg)
    else:
        r.add("value", "conforms")


def _default_dtypes(res: Any, t: Any, ctx: Any) -> str:
    """default_dtypes(): the four keys, and the dtypes creation functions make."""
    keys = {"real floating", "complex floating", "integral", "indexing"}
    if not isinstance(res, dict) or set(res) != keys:
        return f"default_dtypes() returned {res!r}"
    names = {}
    for k, v in res.items():
        match = [d for d in KINDS["any"] if hasattr(t, d) and v == getattr(t, d)]
        if not match:
            return f"default_dtypes()[{k!r}] is {v!r}, not a dtype of the namespace"
        names[k] = match[0]
    made = {}
    kw = {"device": ctx.tgt.device} if ctx.tgt.device is not None else {}
    try:
        made["real floating"] = t.asarray(1.0, **kw).dtype
        made["integral"] = t.asarray(1, **kw).dtype
        made["complex floating"] = t.asarray(1j, **kw).dtype
        made["indexing"] = t.argmax(t.asarray([1, 2], **kw)).dtype
    except Exception:
        return ""  # creation functions are checked on their own
    for k, dt in made.items():
        if dt != res[k]:
            return (
                f"default_dtypes()[{k!r}] is {names[k]}, but the namespace makes "
                f"{dt} (asarray of a Python scalar, argmax)"
            )
    return ""


def _dtypes(fn: Any, res: Any, t: Any, dev: dict) -> str:
    """dtypes(): names to the namespace's dtypes, and every ``kind`` filter."""
    if not (
        isinstance(res, dict)
        and set(res) <= set(KINDS["any"])
        and all(v == getattr(t, k) for k, v in res.items())
    ):
        return f"dtypes() returned {res!r}"
    for kind in (
        "bool",
        "signed integer",
        "unsigned integer",
        "integral",
        "real floating",
        "complex floating",
        "numeric",
        ("signed integer", "real floating"),
    ):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        want = {d for d in res if any(d in KINDS[k] for k in kinds)}
        try:
            got = fn(kind=kind, **dev)
        except Exception as e:
            return f"dtypes(kind={kind!r}) raised {type(e).__name__}: {e}"
        if not isinstance(got, dict) or set(got) != want:
            return (
                f"dtypes(kind={kind!r}) returned {sorted(got)}, expected {sorted(want)}"
            )
    return ""


def target_array(ctx: Any) -> Any:
    """A 2x3 float32 array of the target, for attributes and methods."""
    ref = ctx.ref.module
    return ctx.tgt.array(
        Arr(ref.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=ref.float32))
    )
