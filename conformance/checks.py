"""Checks: small functions comparing one target result with the reference's.

Every check returns a list of :class:`Finding` (empty when it passes).  A
finding's ``kind`` is one of :data:`KINDS`.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .calls import ComputeError, format_values, to_numpy

__all__ = [
    "KINDS",
    "Finding",
    "Where",
    "check_array",
    "check_mutation",
    "check_result",
    "check_signature",
    "describe",
    "describe_full",
    "values_close",
]

KINDS = (
    "signature",
    "dtype",
    "shape",
    "value",
    "special-case",
    "exception",
    "device",
    "mutation",
    "crash",
    "accuracy",  # advisories only: see Options.approximate
)


@dataclass
class Finding:
    """One deviation of the target from the reference.

    ``level`` follows the standard's words: ``"must"`` (a deviation, exit
    status 1) or ``"should"`` (an advisory: a SHOULD-level recommendation, or
    an optional feature the target declares it lacks; reported apart, never
    failing the run).
    """

    kind: str
    message: str
    index: tuple | None = None  # the first bad element of an array result
    level: str = "must"
    # (expression, what it prints): how a repro shows a deviation its printed
    # result cannot (an identity, shared memory); ``{expr}`` is the call and
    # ``{x}`` its first array
    show: tuple[str, str] | None = None


def _is_array(x: Any) -> bool:
    # array_api_compat namespaces return the library's own arrays (torch
    # tensors, dask arrays), which have no __array_namespace__ method
    return (
        hasattr(x, "shape")
        and hasattr(x, "dtype")
        and hasattr(x, "ndim")
        and not isinstance(x, (tuple, list))
    )


def describe(x: Any, limit: int = 200) -> str:
    """A short description of a result: dtype, shape and values of an array."""
    if isinstance(x, BaseException):
        return f"raises {type(x).__name__}"
    if isinstance(x, (tuple, list)) and not _is_array(x):
        inner = ", ".join(describe(a, limit // max(len(x), 1)) for a in x)
        return f"({inner})" if isinstance(x, tuple) else f"[{inner}]"
    if _is_array(x) or isinstance(x, np.ndarray):
        try:
            host = to_numpy(x)
            vals = format_values(host)
        except ComputeError as e:
            vals = f"<raises {type(e.__cause__).__name__} when computed>"
        except Exception:
            vals = "<values unreadable>"
        if len(vals) > limit:
            vals = vals[: limit - 3] + "..."
        dt = str(x.dtype).rsplit(".", 1)[-1]
        return f"{dt} {tuple(x.shape)} {vals}"
    return repr(x)


def describe_full(x: Any, values: bool = True) -> str:
    """Everything a repro's result shows: dtype, shape, all values, device.

    What :mod:`conformance.prove` compares between the run and a fresh
    interpreter; an exception is described by its type.  ``values=False``
    leaves the values out (``empty()``'s are anything).
    """
    if isinstance(x, BaseException):
        return f"raises {type(x).__name__}"
    if isinstance(x, (tuple, list)) and not _is_array(x):
        return "(" + ", ".join(describe_full(a, values) for a in x) + ")"
    if _is_array(x) or isinstance(x, np.ndarray):
        try:
            where = str(x.device)
        except Exception:
            where = "?"
        if not values:
            dt = str(x.dtype).rsplit(".", 1)[-1]
            return f"{dt} {tuple(x.shape)} on {where}"
        return f"{describe(x, 10**9)} on {where}"
    if isinstance(x, (bool, int, float, complex)):
        return f"{type(x).__name__} {x!r}"
    return repr(x)


# --- values ------------------------------------------------------------------

_EPS = {
    "float32": float(np.finfo(np.float32).eps),
    "float64": float(np.finfo(np.float64).eps),
    "complex64": float(np.finfo(np.float32).eps),
    "complex128": float(np.finfo(np.float64).eps),
}
_REAL = {"complex64": "float32", "complex128": "float64"}


def _real_close(
    ref: np.ndarray,
    got: np.ndarray,
    dtype: str,
    tol: tuple,
    signed_zero: bool,
    scale: float,
) -> np.ndarray:
    """Elementwise 'close' mask for real floating arrays of ``dtype``."""
    ref = ref.astype(np.float64)
    got = got.astype(np.float64)
    both_nan = np.isnan(ref) & np.isnan(got)
    same = (ref == got) | both_nan
    # -0.0 vs +0.0 (when the sign of zero matters): wrong at any tolerance
    bad_zero = np.zeros(ref.shape, dtype=bool)
    if signed_zero:
        bad_zero = (ref == 0) & (got == 0) & (np.signbit(ref) != np.signbit(got))
        same &= ~bad_zero
    if tol[0] == "exact":
        return same
    finite = np.isfinite(ref) & np.isfinite(got)
    diff = np.abs(ref - got)
    if tol[0] == "ulp":
        np_dt = np.dtype(_REAL.get(dtype, dtype))
        big = np.maximum(np.abs(ref), np.abs(got)).astype(np_dt)
        spacing = np.spacing(big).astype(np.float64)
        # below the smallest normal, allow the same absolute error as at it
        tiny = float(np.finfo(np_dt).smallest_normal) * float(np.finfo(np_dt).eps)
        ok = diff <= tol[1] * np.maximum(spacing, tiny)
    else:  # ("rel", k): k * eps relative to the element and the array's scale
        eps = _EPS[dtype]
        ok = diff <= tol[1] * eps * (np.abs(ref) + scale)
    return (same | (finite & ok)) & ~bad_zero


def _zero_sign_differs(ref: np.ndarray, got: np.ndarray, signed: bool) -> np.ndarray:
    """Where a zero part of complex ``ref`` has the other sign in ``got``."""
    bad = np.zeros(ref.shape, dtype=bool)
    if signed:
        for r, g in ((ref.real, got.real), (ref.imag, got.imag)):
            bad |= (r == 0) & (g == 0) & (np.signbit(r) != np.signbit(g))
    return bad


def values_close(
    ref: np.ndarray,
    got: np.ndarray,
    dtype: str,
    tol: tuple = ("exact",),
    signed_zero: bool = False,
    scale: float | None = None,
    complex_parts: bool = False,
) -> tuple[bool, int | None]:
    """Compare values; return ``(ok, flat index of the first bad element)``.

    Parameters
    ----------
    ref, got : numpy.ndarray
        Reference and target values, of the same shape.
    dtype : str
        The standard dtype name of the result.
    tol : tuple
        ``("exact",)``, ``("ulp", n)``, ``("ulp", n, m)`` (``n`` ULP for real
        dtypes, ``m`` for complex ones) or ``("rel", k)`` (``k`` machine epsilons,
        relative to each element plus ``scale``).  Integer and boolean results
        are always compared exactly.
    signed_zero : bool
        Whether ``-0.0`` and ``+0.0`` differ.
    scale : float, optional
        The magnitude errors are measured against for ``("rel", k)``; default
        the largest finite ``|ref|``.
    complex_parts : bool
        Compare a complex result's real and imaginary parts each on its own,
        as the standard's rules for complex ``add`` and ``subtract`` do: a NaN
        part must be NaN in the same part, and with ``signed_zero`` the sign of
        a zero part counts.  By default the sign of a zero part is free; a NaN
        part must be NaN in the same part either way.
    """
    ref = np.asarray(ref)
    got = np.asarray(got)
    if tol[0] == "ulp" and len(tol) == 3:
        # ("ulp", real, complex): correctly rounded real results (0 ULP), with
        # complex ones left to ``complex`` ULP (see CORRECTLY_ROUNDED)
        tol = ("ulp", tol[2] if dtype in _REAL else tol[1])
    if dtype not in _EPS:
        mask = ref == got
    else:
        if scale is None:
            fin = np.abs(ref[np.isfinite(ref)])
            scale = float(fin.max()) if fin.size else 0.0
        real = _REAL.get(dtype, dtype)
        if dtype in _REAL:
            # The complex special cases write zeros without a sign ("0 + 0j"):
            # the sign of a complex result's zero parts is not compared.
            if tol[0] == "ulp":
                # errors of complex arithmetic are relative to |z|, not to each
                # part, and the standard fixes no accuracy for it: each part of
                # a product or quotient takes several roundings (Smith's
                # division: 3 ulps of |z| seen), so four times the real bound
                mag = np.maximum(np.abs(ref), np.abs(got))
                mag = np.where(np.isfinite(mag), mag, 0.0)
                spacing = np.spacing(mag.astype(real)).astype(np.float64)
                ctol = 4 * tol[1]
                near = (np.abs(ref.real - got.real) <= ctol * spacing) & (
                    np.abs(ref.imag - got.imag) <= ctol * spacing
                )
            else:
                near = np.zeros(ref.shape, dtype=bool)
            sz = signed_zero and complex_parts
            mask = _real_close(ref.real, got.real, real, tol, sz, scale)
            mask &= _real_close(ref.imag, got.imag, real, tol, sz, scale)
            if complex_parts:
                # rounding relative to |z| still applies, but not to a zero's sign
                mask |= near & ~_zero_sign_differs(ref, got, sz)
            else:
                mask |= near
                # A NaN part is compared part by part: the special cases fix
                # the other part ("If a is -infinity and b is NaN, the result
                # is NaN + infinity j", sqrt; "If a is NaN and b is +0, the
                # result is NaN + 0j", exp), so NaN + NaN j is no match for
                # them.  The part by part comparison above already lets NaN
                # match NaN; the sign of an infinite part is compared there,
                # except where a feature's ``accept`` allows either sign ("the
                # sign of the imaginary component is unspecified").  Every
                # such unspecified sign is of a part beside a NaN part
                # ("NaN ± infinity j", "±infinity + NaN j", "NaN ± πj/2"):
                # there the other part is compared by its magnitude.
                nan_re = np.isnan(ref.real) & np.isnan(got.real)
                nan_im = np.isnan(ref.imag) & np.isnan(got.imag)
                mag_re = _real_close(
                    abs(ref.real), abs(got.real), real, tol, False, scale
                )
                mag_im = _real_close(
                    abs(ref.imag), abs(got.imag), real, tol, False, scale
                )
                mask |= (nan_re & mag_im) | (nan_im & mag_re)
        else:
            mask = _real_close(ref, got, real, tol, signed_zero, scale)
    mask = np.asarray(mask)
    if mask.all():
        return True, None
    return False, int(np.flatnonzero(~mask.reshape(-1))[0])


# --- arrays --------------------------------------------------------------------


@dataclass(frozen=True)
class Where:
    """Where the target's results must be: its device, and the DLPack device
    ``(type, id)`` of an array there (to place results without ``.device``)."""

    device: Any
    dlpack: tuple | None = None


def dlpack_device(x: Any) -> tuple | None:
    """``x.__dlpack_device__()`` as a pair of ints, or None."""
    try:
        t, i = x.__dlpack_device__()
        return (int(t), int(i))
    except Exception:
        return None


def where_differs(got: Any, want: Any) -> str:
    """Why ``got`` is not on ``want`` (a device or a :class:`Where`); "" if it is.

    An array without ``.device`` is placed by its DLPack device, as
    ``array_api_compat.device()`` places arrays of libraries without the
    attribute; the missing attribute itself is the one deviation of
    ``Array.device``.  Where neither tells, nothing is reported.
    """
    device = want.device if isinstance(want, Where) else want
    try:
        here = got.device
    except AttributeError:
        if not isinstance(want, Where) or want.dlpack is None:
            return ""
        dl = dlpack_device(got)
        if dl is None or dl == want.dlpack:
            return ""
        return f"result is on DLPack device {dl}, expected {want.dlpack}"
    except Exception as e:  # a property that raises
        return f"result.device raised {type(e).__name__}"
    try:
        same = bool(here == device)
    except Exception:
        same = False
    return "" if same else f"result is on {here!r}, expected {device!r}"


@dataclass
class Options:
    """How one feature compares results."""

    tol: tuple = ("exact",)
    signed_zero: bool = False
    value_kind: str = "value"  # "special-case" for the special-value features
    check_values: bool = True  # False for empty(), empty_like()
    scale: float | None = None
    # accept(inputs, ref, got) -> bool mask of results the standard also allows
    # (inputs: the call's array arguments broadcast to the result's shape)
    accept: Any = None
    complex_parts: bool = False  # see values_close
    # A function whose accuracy the standard does not define (accuracy.md:
    # "This specification does not precisely define the behavior of the
    # following functions ... except to require specific results for certain
    # argument values"): a value off at inputs that are no special case is an
    # "accuracy" advisory; the special cases stay deviations.
    approximate: bool = False


def not_special(
    inputs: list[np.ndarray], ref: np.ndarray, got: np.ndarray
) -> np.ndarray:
    """Where no special case of the standard can apply.

    Real: every input element finite and nonzero, both results finite, nonzero
    and of the same sign, and no result of +-1 from an input of +-1
    (``pow(1, y)``).  Complex: every part of the inputs and results finite, and
    no input zero.  The special cases of the approximated functions (exp, sin,
    pow, atan2, ...) are all at zeros, infinities or NaNs of their inputs (and
    ``pow``'s base 1), or give zero, infinite or NaN results.
    """
    ok = np.ones(ref.shape, dtype=bool)
    one_in = np.zeros(ref.shape, dtype=bool)
    for x in inputs:
        x = np.broadcast_to(np.asarray(x), ref.shape)
        if x.dtype.kind == "c":
            ok &= np.isfinite(x.real) & np.isfinite(x.imag) & (x != 0)
        elif x.dtype.kind == "f":
            ok &= np.isfinite(x) & (x != 0)
            one_in |= np.abs(x) == 1
    if ref.dtype.kind == "c":
        for part in (ref.real, ref.imag, got.real, got.imag):
            ok &= np.isfinite(part)
    else:
        ok &= np.isfinite(ref) & np.isfinite(got) & (ref != 0)
        ok &= (np.sign(ref) == np.sign(got)) & ~(one_in & (np.abs(ref) == 1))
    return ok


def _dtype_name(x: Any, target: Any) -> str | None:
    for name in (
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
    ):
        dt = getattr(target, name, None)
        if dt is not None:
            try:
                if x.dtype == dt:
                    return name
            except Exception:
                continue
    return None


def check_array(
    ref: Any,
    got: Any,
    target: Any,
    device: Any,
    opts: Options,
    where: str = "",
    inputs: list | None = None,
) -> list[Finding]:
    """Compare one target array with one reference array.

    Checks, in order: it is an array, its dtype, its shape, its device, then its
    values (when dtype and shape agree).
    """
    at = f" (output {where})" if where else ""
    if not _is_array(got):
        return [Finding("value", f"returned {type(got).__name__}, not an array{at}")]
    out: list[Finding] = []
    ref_dt = str(ref.dtype)
    got_dt = _dtype_name(got, target)
    if got_dt != ref_dt:
        out.append(
            Finding(
                "dtype", f"result dtype is {got_dt or got.dtype}, expected {ref_dt}{at}"
            )
        )
    got_shape, ref_shape = tuple(got.shape), tuple(ref.shape)
    # A dimension the library does not know before computing is None (the
    # standard: "None if and only if a dimension is unknown"; a lazy
    # library's data-dependent sizes): it matches any size here, and the
    # computed values' shape is compared below.  (NaN, as dask gives, is no
    # such marker.)
    unknown = len(got_shape) == len(ref_shape) and any(d is None for d in got_shape)
    if unknown:
        known_ok = all(
            g is None or g == r for g, r in zip(got_shape, ref_shape, strict=True)
        )
    else:
        known_ok = got_shape == ref_shape
    if not known_ok:
        out.append(
            Finding(
                "shape",
                f"result shape is {got_shape}, expected {ref_shape}{at}",
            )
        )
        return out
    if device is not None:
        bad = where_differs(got, device)
        if bad:
            out.append(Finding("device", f"{bad}{at}"))
    if not opts.check_values:
        return out
    try:
        got_np = to_numpy(got)
    except ComputeError as e:  # a lazy result that cannot be computed
        return [*out, Finding("crash", f"{e}{at}")]
    except Exception as e:
        return [*out, Finding("value", f"result values unreadable: {e}{at}")]
    ref_np = np.asarray(ref)
    if unknown and got_np.shape != ref_shape:
        return [
            *out,
            Finding(
                "shape",
                f"result shape is {got_np.shape} once computed (reported as "
                f"{got_shape}), expected {ref_shape}{at}",
            ),
        ]
    if got_dt != ref_dt and got_np.dtype.kind == "c" and ref_np.dtype.kind != "c":
        return out
    cmp = (opts.tol, opts.signed_zero, opts.scale, opts.complex_parts)
    ok, i = values_close(ref_np, got_np, ref_dt, *cmp)
    inexact = None  # first element off only in accuracy (opts.approximate)
    split = opts.approximate and inputs is not None
    if not ok and (opts.accept is not None or split) and inputs is not None:
        close = np.array(
            [
                values_close(r, g, ref_dt, *cmp)[0]
                for r, g in zip(ref_np.reshape(-1), got_np.reshape(-1), strict=True)
            ],
            dtype=bool,
        ).reshape(ref_np.shape)
        ins = [np.broadcast_to(a, ref_np.shape) for a in inputs]
        if opts.accept is not None:
            close |= opts.accept(ins, ref_np, got_np)
        bad = ~close
        if split:
            loose = not_special(ins, ref_np, got_np)
            if (bad & loose).any():
                inexact = int(np.flatnonzero((bad & loose).reshape(-1))[0])
            bad &= ~loose
        ok = not bad.any()
        i = int(np.flatnonzero(bad.reshape(-1))[0]) if not ok else None
    if inexact is not None:
        idx = np.unravel_index(inexact, ref_np.shape) if ref_np.ndim else ()
        r = format_values(ref_np[idx]) if ref_np.ndim else format_values(ref_np)
        g = format_values(got_np[idx]) if got_np.ndim else format_values(got_np)
        # "these functions should compute approximations to the results of
        # respective mathematical functions" (accuracy.md): an advisory
        out.append(
            Finding(
                "accuracy",
                f"value at index {tuple(map(int, idx))} is {g}, expected {r}{at}"
                f" (beyond {opts.tol[1]} ULP; the standard leaves the accuracy open)",
                tuple(map(int, idx)),
                level="should",
            )
        )
    if not ok:
        idx = np.unravel_index(i, ref_np.shape) if ref_np.ndim else ()
        r = format_values(ref_np[idx]) if ref_np.ndim else format_values(ref_np)
        g = format_values(got_np[idx]) if got_np.ndim else format_values(got_np)
        out.append(
            Finding(
                opts.value_kind,
                f"value at index {tuple(map(int, idx))} is {g}, expected {r}{at}",
                tuple(map(int, idx)),
            )
        )
    return out


def check_result(
    ref: Any,
    got: Any,
    target: Any,
    device: Any,
    opts: Options,
    inputs: list | None = None,
) -> list[Finding]:
    """Compare a whole result: an array, a tuple or list of arrays, or a scalar."""
    if _is_array(ref):
        return check_array(ref, got, target, device, opts, inputs=inputs)
    if isinstance(ref, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(ref):
            return [
                Finding(
                    "value", f"returned {describe(got)}, expected {len(ref)} outputs"
                )
            ]
        out: list[Finding] = []
        # a named result (unique_all, eigh, slogdet, ...): "must have the field
        # name values", ...
        lacks = [f for f in getattr(ref, "_fields", ()) if not hasattr(got, f)]
        if lacks:
            out.append(Finding("value", f"the result has no field {lacks[0]!r}"))
        for i, (r, g) in enumerate(zip(ref, got, strict=True)):
            out += (
                check_result(r, g, target, device, opts)
                if not _is_array(r)
                else check_array(r, g, target, device, opts, where=str(i))
            )
        return out
    # Python scalars (bool(x), int(x), ...), dtypes, ...
    if isinstance(ref, (bool, int, float, complex)):
        if type(got) is not type(ref):
            return [
                Finding(
                    "dtype",
                    f"returned {type(got).__name__}, expected {type(ref).__name__}",
                )
            ]
        same = got == ref or (
            isinstance(ref, (float, complex))
            and all(
                a == b or (math.isnan(a) and math.isnan(b))
                for a, b in (
                    (complex(ref).real, complex(got).real),
                    (complex(ref).imag, complex(got).imag),
                )
            )
        )
        return (
            []
            if same
            else [Finding(opts.value_kind, f"returned {got!r}, expected {ref!r}")]
        )
    return []


def check_mutation(
    before: list[tuple[int, np.ndarray]], after: list[np.ndarray]
) -> list[Finding]:
    """Inputs must be unchanged by the call (positions listed in ``before``)."""
    for (pos, b), a in zip(before, after, strict=True):
        if b.shape != a.shape or not np.array_equal(
            b, a, equal_nan=b.dtype.kind in "fc"
        ):
            return [
                Finding("mutation", f"input {pos} was modified by the call", (pos,))
            ]
    return []


# --- signatures ------------------------------------------------------------------


def check_signature(fn: Any, params: list[list]) -> tuple[str, list[Finding]]:
    """Compare a callable's signature with the standard's parameters.

    Returns ``("untestable: <reason>", [])`` when the callable has no
    introspectable signature, else ``("checked", findings)``.  Parameters may
    be more permissive than the standard (a positional-only parameter may also
    be passed by keyword), never less.
    """
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError) as e:
        return f"untestable: no introspectable signature ({e})", []
    got = dict(sig.parameters)
    P = inspect.Parameter
    findings: list[Finding] = []
    has_varargs = any(p.kind == P.VAR_POSITIONAL for p in got.values())
    has_varkw = any(p.kind == P.VAR_KEYWORD for p in got.values())
    # A positional-only parameter may have any name: map the target's
    # positional parameters onto the standard's by position.
    tpos = [
        q.name
        for q in got.values()
        if q.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
    ]
    alias: dict[str, str] = {}
    for i, (name, kind, _d) in enumerate(params):
        if kind == "positional-only" and name not in got and i < len(tpos):
            alias[tpos[i]] = name
    for name, kind, _default in params:
        if kind == "var-positional":
            if not has_varargs:
                findings.append(Finding("signature", f"no *{name} parameter"))
            continue
        p = got.get(name)
        if p is None:
            positional = [
                q
                for q in got.values()
                if q.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
            ]
            if kind == "positional-only" and (has_varargs or positional):
                continue  # named differently, still positional
            if kind == "keyword-only" and has_varkw:
                continue
            findings.append(Finding("signature", f"missing parameter {name!r}"))
            continue
        if kind == "positional-only" and p.kind not in (
            P.POSITIONAL_ONLY,
            P.POSITIONAL_OR_KEYWORD,
        ):
            findings.append(
                Finding("signature", f"{name!r} cannot be passed positionally")
            )
        if kind == "keyword-only" and p.kind not in (
            P.KEYWORD_ONLY,
            P.POSITIONAL_OR_KEYWORD,
        ):
            findings.append(
                Finding("signature", f"{name!r} cannot be passed by keyword")
            )
        if kind == "positional-or-keyword" and p.kind != P.POSITIONAL_OR_KEYWORD:
            findings.append(
                Finding(
                    "signature",
                    f"{name!r} must be positional-or-keyword, is {p.kind.description}",
                )
            )
    spec_names = {n for n, _, _ in params}
    for name, p in got.items():
        if (
            name in spec_names
            or name in alias
            or p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD)
        ):
            continue
        if p.default is P.empty and p.kind != P.POSITIONAL_ONLY:
            findings.append(Finding("signature", f"extra required parameter {name!r}"))
    return "checked", findings
