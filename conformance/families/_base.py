"""What every family shares: dtype kinds, element and array strategies, the table."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np
from hypothesis.strategies import SearchStrategy

from ..calls import LAYOUTS, Arr, set_layout
from ..checks import Finding, Options, check_array, values_close
from ..registry import Feature
from ._st import st

V24 = ("2024.12", "2025.12")
V25 = ("2025.12",)

KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
KINDS["integral"] = KINDS["signed integer"] + KINDS["unsigned integer"]
KINDS["integer"] = KINDS["integral"]
KINDS["real numeric"] = KINDS["integral"] + KINDS["real floating"]
KINDS["floating"] = KINDS["real floating"] + KINDS["complex floating"]
KINDS["numeric"] = KINDS["real numeric"] + KINDS["complex floating"]
KINDS["integer or boolean"] = KINDS["bool"] + KINDS["integral"]
KINDS["any"] = KINDS["bool"] + KINDS["numeric"]


def dtypes_of(kind: Any) -> tuple[str, ...]:
    """The dtype names of an ``isdtype`` kind (or a tuple of names)."""
    return tuple(kind) if isinstance(kind, tuple) else KINDS[kind]


# --- element and array strategies -----------------------------------------------


def _finfo(dt: str) -> np.finfo:
    return np.finfo({"complex64": np.float32, "complex128": np.float64}.get(dt, dt))


def specials(dt: str) -> list:
    """The special values drawn for special-case features of a float dtype."""
    fi = _finfo(dt)
    vals: list[float] = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.5]
    vals += [-0.5, 2.0, -2.0]
    vals += [3.0, -3.0, math.pi, -math.pi, float(fi.max), -float(fi.max)]
    vals += [
        float(fi.smallest_normal),
        -float(fi.smallest_normal),
        float(fi.max) ** 0.5 * 4,
        float(fi.smallest_subnormal),  # subnormals: gradual underflow
        -float(fi.smallest_normal) / 4,
    ]
    # only values the dtype holds exactly (float32 has no float64 pi)
    real = np.float32 if dt in ("float32", "complex64") else np.float64
    kept = [float(real(v)) for v in vals if not math.isfinite(v) or abs(v) <= fi.max]
    vals = list({repr(v): v for v in kept}.values())  # -0.0 and 0.0 both stay
    if dt.startswith("complex"):
        return [complex(a, b) for a in vals[:8] for b in vals[:8]]
    return vals


def int_extremes(dt: str) -> list[int]:
    """The extremes of an integer dtype and their neighbours, with 0 and +-1."""
    ii = np.iinfo(dt)
    lo, hi = int(ii.min), int(ii.max)
    vals = [lo, lo + 1, -1, 0, 1, hi - 1, hi] if lo else [0, 1, hi - 1, hi]
    return sorted(set(vals))


def pool(dt: str, kind: str) -> list:
    """A fixed pool of element values (explicit examples draw from it),
    within ``kind``'s domain (``shift`` counts, ``nonzero`` divisors, ...)."""
    if dt == "bool":
        return [False, True]
    if dt.startswith(("int", "uint")):
        ii = np.iinfo(dt)
        if kind.endswith("special"):
            return int_extremes(dt)
        lo, hi = _INT_BOUNDS.get(kind, _INT_FINITE)(int(ii.min), int(ii.max), ii.bits)
        ints = [v for v in (-3, -2, -1, 0, 1, 2, 3, 5) if lo <= v <= hi]
        if kind in ("nonzero", "positive"):
            ints = [v for v in ints if v]
        return ints or [lo]
    vals: list
    if kind in SPECIAL_POOLS:
        vals = SPECIAL_POOLS[kind](dt)
    elif kind == "positive":
        vals = [0.25, 0.5, 1.0, 1.5, 3.0]
    elif kind == "nonzero":
        vals = [-2.5, -1.0, -0.5, 0.25, 1.0, 1.5, 3.0]
    elif kind == "unit":
        vals = [-1.0, -0.5, 0.0, 0.25, 0.5, 1.0]
    else:
        vals = [-2.5, -1.0, -0.5, 0.0, 0.25, 1.0, 1.5, 3.0]
    if dt.startswith("complex"):
        return [complex(a, b) for a in vals for b in vals[:4]]
    return vals


def _sum_specials(dt: str) -> list[float]:
    # special values whose sums do not depend on the order of summation
    fi = _finfo(dt)
    return [
        math.nan,
        math.inf,
        -math.inf,
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        2.0,
        float(fi.smallest_subnormal),
    ]


def _prod_specials(dt: str) -> list[float]:
    # ... nor the order of multiplication (powers of two: exact, no underflow)
    return [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0]


def _order_specials(dt: str) -> list[float]:
    # for max, min, argmax: extremes and infinities, no NaN where unspecified
    fi = _finfo(dt)
    big = float(fi.max)
    return [
        math.inf,
        -math.inf,
        big,
        -big,
        0.0,
        1.0,
        -1.0,
        float(fi.smallest_subnormal),
    ]


SPECIAL_POOLS = {
    "special": lambda dt: specials(dt)[:22],
    "minmax-special": lambda dt: [*_order_specials(dt), math.nan],
    "sum-special": _sum_specials,
    "prod-special": _prod_specials,
    "order-special": _order_specials,
}


def fixed(ctx: Any, dt: str, shape: tuple, kind: str = "finite", seed: int = 0) -> Any:
    """A fixed array (no drawing) of dtype ``dt`` and ``shape`` from ``pool``."""
    rng = np.random.default_rng(seed + 7919 * len(shape) + sum(shape))
    vals = pool(dt, kind)
    n = math.prod(shape)
    idx = rng.integers(0, len(vals), size=n) if n else np.zeros(0, dtype=int)
    host = np.asarray([vals[i] for i in idx], dtype=_NP.get(dt, dt)).reshape(shape)
    return ctx.refmod.asarray(host, dtype=getattr(ctx.refmod, dt))


_NP = {"bool": np.bool_}


def axis_forms(
    draw: Any, ndim: int, *, tuples: bool = True, none: bool = True, empty: bool = True
) -> Any:
    """Every form of ``axis``: None, an int (negative too), a tuple of distinct
    axes mixing negative and non-negative ones, and the empty tuple."""
    forms = ["int"]
    if none:
        forms.append("none")
    if tuples:
        forms += ["tuple", "tuple"] + (["empty"] if empty else [])
    form = draw(st.sampled_from(forms)) if ndim else ("none" if none else "empty")
    if form == "none":
        return None
    if form == "empty" or not ndim:
        return ()
    if form == "int":
        return draw(st.integers(-ndim, ndim - 1))
    axes = draw(
        st.lists(st.integers(0, ndim - 1), unique=True, min_size=1, max_size=ndim)
    )
    signs = draw(st.lists(st.booleans(), min_size=len(axes), max_size=len(axes)))
    return tuple(a - ndim if neg else a for a, neg in zip(axes, signs, strict=True))


def axis_examples(ndim: int, tuples: bool = True) -> list:
    """Fixed axis values covering every form for an array of ``ndim`` dims."""
    if ndim == 0:
        return [None, ()] if tuples else [None]
    out: list = [None, 0, -1, ndim - 1]
    if tuples:
        out += [(), (-1,), tuple(range(ndim)), (-1, 0)]
        if ndim > 2:
            out += [(0, -1), (-ndim, -1), (1, -1)]
    return list(dict.fromkeys(out))


def invalid_axes(ndim: int, tuples: bool = True) -> list:
    """Axis values outside ``[-ndim, ndim)`` (the standard requires an error)."""
    out: list = [ndim, -ndim - 1]
    if tuples:
        out.append((0, ndim))
    return out


@functools.cache
def elements(dt: str, kind: str = "finite") -> SearchStrategy:
    """Element values of dtype ``dt``; ``kind`` picks a domain."""
    if dt == "bool":
        return st.booleans()
    if dt.startswith(("int", "uint")):
        ii = np.iinfo(dt)
        lo, hi = int(ii.min), int(ii.max)
        if kind.endswith("special"):  # the dtype's extremes, often
            return st.sampled_from(int_extremes(dt)) | st.integers(lo, hi)
        bounds = {
            "finite": (max(lo, -10), min(hi, 20)),
            "full": (lo, hi),
            "shift": (0, ii.bits - 1),
            "nonzero": (max(lo, -10), min(hi, 20)),
            "base": (max(lo, -3), 3),
            "exponent": (0, 4),
            "unit": (max(lo, -3), 3),
            "special": (lo, hi),
            "positive": (1, 10),
        }[kind]
        s = st.integers(*bounds)
        if kind == "special":  # the dtype's extremes, often
            return st.sampled_from(int_extremes(dt)) | s
        return s.filter(bool) if kind == "nonzero" else s
    width = {"float32": 32, "float64": 64, "complex64": 32, "complex128": 64}[dt]
    if kind == "special":
        return st.sampled_from(specials(dt))
    if kind in SPECIAL_POOLS:
        return st.sampled_from(pool(dt, kind))
    lim = {"unit": 1.0, "positive": 100.0}.get(kind, 1e4)
    lo: float = 1e-3 if kind == "positive" else -lim
    real = st.floats(lo, lim, width=width, allow_subnormal=False)
    if kind == "unit":  # linalg, norms: no underflow questions the spec leaves open
        real = real.map(lambda v: 0.0 if abs(v) < 1e-6 else v)
    if kind == "nonzero":
        real = real.filter(bool)
    if dt.startswith("complex"):
        return st.builds(complex, real, real)
    return real


def _cached(ctx: Any, key: tuple, make: Any) -> SearchStrategy:
    # Strategies are immutable: building (and validating) one per draw was a
    # third of the drawing time, so each is built once per run.
    cache = ctx.__dict__.setdefault("_strategies", {})
    s = cache.get(key)
    if s is None:
        s = cache[key] = make()
    return s


def arr(ctx: Any, dt: str, shape: Any, kind: str = "finite") -> SearchStrategy:
    """Arrays of dtype ``dt`` drawn on the reference.

    The shape is drawn by Hypothesis; the values come from one drawn seed
    (seed 0: the simplest array), which costs the engine one choice instead
    of one per element: drawing was half the time of a run.
    """
    # a shape strategy in the key keeps it alive: its id is not reused
    return _cached(ctx, ("arr", dt, shape, kind), lambda: _arrays(ctx, dt, shape, kind))


_SEEDS = st.integers(0, 2**32 - 1)
_LAYOUT_BY_SEED = (LAYOUTS[0], LAYOUTS[0], *LAYOUTS[1:])  # seed 0: contiguous


def _arrays(ctx: Any, dt: str, shape: Any, kind: str) -> SearchStrategy:
    make = functools.partial(_host_values, dt, kind)
    rdt = getattr(ctx.refmod, dt)

    def build(shp: tuple, seed: int) -> Any:
        x = ctx.refmod.asarray(make(tuple(shp), seed), dtype=rdt)
        # half the drawn arrays reach both namespaces as strided views (a
        # transposed or stepped one): results must not depend on the layout
        return set_layout(x, _LAYOUT_BY_SEED[seed % 4])

    shapes_ = st.just(shape) if isinstance(shape, tuple) else shape
    return st.builds(build, shapes_, _SEEDS)


_NP_DT = {"bool": np.bool_}


def _host_values(dt: str, kind: str, shape: tuple, seed: int) -> np.ndarray:
    """The values of an array of ``shape``, from ``seed``, in ``kind``'s domain."""
    npdt = np.dtype(_NP_DT.get(dt, dt))
    n = math.prod(shape)
    if seed == 0:  # the simplest array: what shrinking goes to
        simple = 1 if kind in ("nonzero", "positive") else 0
        if kind in SPECIAL_POOLS and dt[0] in "fc":
            simple = pool(dt, kind)[0]
        return np.full(shape, simple, dtype=npdt)
    rng = np.random.default_rng(seed)
    if dt == "bool":
        return rng.integers(0, 2, size=shape).astype(bool)
    if npdt.kind in "iu":
        ii = np.iinfo(npdt)
        lo, hi = int(ii.min), int(ii.max)
        if kind.endswith("special"):
            ext = np.asarray(int_extremes(dt), dtype=npdt)
            pick = rng.integers(0, len(ext), size=n)
            full = rng.integers(lo, hi, size=n, dtype=npdt, endpoint=True)
            return np.where(rng.random(n) < 0.6, ext[pick], full).reshape(shape)
        bounds = _INT_BOUNDS.get(kind, _INT_FINITE)
        lo_, hi_ = bounds(lo, hi, ii.bits)
        v = rng.integers(lo_, hi_, size=n, dtype=npdt, endpoint=True)
        if kind == "nonzero":
            v[v == 0] = 1
        return v.reshape(shape)
    real = np.dtype(npdt.char.lower() if npdt.kind == "c" else npdt)
    real = (
        np.dtype(np.float32)
        if npdt in (np.complex64, np.float32)
        else np.dtype(np.float64)
    )

    def reals() -> np.ndarray:
        if kind in SPECIAL_POOLS or kind == "special":
            vals = (
                specials(
                    dt.replace("complex64", "float32").replace("complex128", "float64")
                )
                if kind == "special"
                else pool(real.name, kind)
            )
            return np.asarray(vals, dtype=np.float64)[
                rng.integers(0, len(vals), size=n)
            ]
        lim = {"unit": 1.0, "positive": 100.0}.get(kind, 1e4)
        lo = 1e-3 if kind == "positive" else -lim
        v = rng.uniform(lo, lim, size=n)
        # exact small values often: halves and quarters, zeros of both signs
        r = rng.random(n)
        nice = rng.integers(-12, 13, size=n) / (4.0 if kind == "unit" else 2.0)
        if kind == "positive":
            nice = np.abs(nice) + 0.5
        v = np.where(r < 0.35, nice if kind != "unit" else np.clip(nice, -1, 1), v)
        if kind not in ("positive", "nonzero"):
            v = np.where(r > 0.93, np.copysign(0.0, rng.uniform(-1, 1, size=n)), v)
        if kind == "unit":
            v = np.where(np.abs(v) < 1e-6, 0.0, v)
        if kind == "nonzero":
            v[v == 0] = 1.0
        return v

    if npdt.kind == "c":
        if kind == "special":
            vals = specials(dt)
            return np.asarray(vals, dtype=npdt)[
                rng.integers(0, len(vals), size=n)
            ].reshape(shape)
        return (reals() + 1j * reals()).astype(npdt).reshape(shape)
    return reals().astype(npdt).reshape(shape)


def _INT_FINITE(lo: int, hi: int, bits: int) -> tuple[int, int]:
    return max(lo, -10), min(hi, 20)


_INT_BOUNDS = {
    "full": lambda lo, hi, b: (lo, hi),
    "shift": lambda lo, hi, b: (0, b - 1),
    "base": lambda lo, hi, b: (max(lo, -3), 3),
    "exponent": lambda lo, hi, b: (0, 4),
    "unit": lambda lo, hi, b: (max(lo, -3), 3),
    "positive": lambda lo, hi, b: (1, 10),
}


def _cap(ctx: Any, max_side: int, min_side: int = 0) -> int:
    """``max_side``, capped by ``--max-side`` (never below ``min_side``)."""
    cap = getattr(getattr(ctx, "opts", None), "max_side", None)
    return max_side if cap is None else max(min_side, min(max_side, cap))


def shapes(
    ctx: Any, min_dims: int = 0, max_dims: int = 3, min_side: int = 0, max_side: int = 4
):
    max_side = _cap(ctx, max_side, min_side)
    cap = getattr(ctx, "max_dims", None)  # capabilities()["max dimensions"]
    if cap is not None:
        max_dims = max(min(max_dims, cap), min_dims)
    return _cached(
        ctx,
        ("shapes", min_dims, max_dims, min_side, max_side),
        lambda: ctx.xps.array_shapes(
            min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
        ),
    )


def _mbs(ctx: Any, n: int, max_side: int, min_side: int = 1) -> SearchStrategy:
    max_side = _cap(ctx, max_side, 1)
    cap = getattr(ctx, "max_dims", None)
    max_dims = 2 if cap is None else min(2, cap)
    return _cached(
        ctx,
        ("mbs", n, max_side, min_side, max_dims),
        lambda: ctx.xps.mutually_broadcastable_shapes(
            n, min_side=min_side, max_side=max_side, max_dims=max_dims
        ),
    )


def from_numpy(ctx: Any, a: np.ndarray, dt: str) -> Any:
    return ctx.refmod.asarray(a, dtype=getattr(ctx.refmod, dt))


def omit_some(draw: Any, kw: dict, names: tuple[str, ...]) -> dict:
    """``kw`` with each of ``names`` left out a third of the time.

    The call then takes the default of the standard's signature on the
    reference and the target's own on the target (``vector_norm`` without
    ``ord`` must be the 2-norm, ``sort`` without ``axis`` sorts the last).
    """
    return {k: v for k, v in kw.items() if k not in names or draw(st.integers(0, 2))}


def _scalar_for(dt: str, kind: str) -> SearchStrategy:
    """A Python scalar of the kind matching ``dt`` (bool, int, float, complex)."""
    if dt == "bool":
        return st.booleans()
    if dt.startswith(("int", "uint")):
        return elements(dt, kind)
    if kind == "special":
        return st.sampled_from([v for v in specials(dt) if abs(v) < 1e30 or v != v])
    return elements(
        "complex128" if dt.startswith("complex") else "float64", kind
    ).filter(lambda v: abs(v) < 1e4)


# --- the table ---------------------------------------------------------------------

FEATURES: dict[str, list[Feature]] = {}


def _add(name: str, *features: Feature) -> None:
    FEATURES.setdefault(name, []).extend(features)


def _feature(name, fn_name, kind="any", opts=None, **kw):
    def deco(body):
        s = st.composite(body)
        _add(
            fn_name,
            Feature(name, kind, lambda ctx, dt: s(ctx, dt), opts or Options(), **kw),
        )
        return body

    return deco


def _outs(tgt_out, n):
    if not isinstance(tgt_out, (tuple, list)) or len(tgt_out) != n:
        return None
    return list(tgt_out)


def _meta(ref_out, tgt_out, ctx) -> list[Finding]:
    """dtype, shape and device of every output, values unchecked."""
    out = []
    for r, g in zip(ref_out, tgt_out, strict=True):
        out += check_array(r, g, ctx.tgt.module, ctx.where, Options(check_values=False))
    return out


def _rel_ok(a, b, dt, k, scale):
    return values_close(np.asarray(b), np.asarray(a), dt, ("rel", k), False, scale)[0]


def _promotes(ctx, a, b):
    try:
        ctx.refmod.result_type(getattr(ctx.refmod, a), getattr(ctx.refmod, b))
        return True
    except TypeError:
        return False


def _host_view(a):
    """A NumPy view of ``a``'s memory through DLPack, or None if there is none."""
    try:
        return np.from_dlpack(a)
    except Exception:
        return None


def _axis_for(draw, ndim, tuples=True):
    return axis_forms(draw, ndim, tuples=tuples)


ULP = ("ulp", 4)
EXACT = ("exact",)


def invalid_axis(
    fn_name: str, make: Any, shapes_=((2, 3),), axes: Any = None
) -> Feature:
    """A table feature: ``make(x, axis)`` for axes outside ``[-N, N)`` must raise.

    ``axes(ndim)`` gives the invalid axes (default :func:`invalid_axes`
    without tuples).  Like every ``invalid-axis`` feature it runs only at the
    revisions whose text for ``fn_name`` says an invalid axis raises (the
    ``invalid_axis`` field of the spec tables), at that text's level: see
    :func:`conformance.registry.build_registry`.
    """

    def table(ctx, dt):
        calls = []
        for shape in shapes_:
            x = fixed(ctx, dt, shape)
            bad = axes(len(shape)) if axes else invalid_axes(len(shape), False)
            calls += [make(Arr(x), a) for a in bad]
        return calls

    return Feature(
        "invalid-axis",
        ("float64",),
        lambda ctx, dt: None,
        table=table,
        expect_raise=True,
    )
