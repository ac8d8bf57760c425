"""Random standard programs, replayed on ``cpu:0`` and on the dask device.

A *program* is a list of steps over a pool of arrays: each step calls one
standard function (or indexes, or assigns) on arrays of the pool and adds
its results to the pool.  Programs are generated on ``cpu:0`` (every choice
is made from the CPU arrays' shapes and dtypes, with a seeded generator), so
the same program replays on the dask device, where data-dependent sizes are
``None`` and values come only when computed.

:func:`replay` runs a program on the dask device with the initial arrays in
a given *chunking* (``"one"``: one chunk; ``"unit"``: chunks of one element
along every axis; ``"uneven"``: random chunk boundaries) and, if ``masked``,
each initial array passed through a mask that keeps every row (so that every
step sees arrays of data-dependent size).  After each step it computes the
step's results and compares them with the CPU's:

- integers and booleans: the same dtype, shape and values, bit for bit;
- floating point: the same dtype and shape, NaN and infinities at the same
  places, and finite values within ``RTOL`` relative to the largest
  magnitude in the CPU's result (chunked reductions, cumulative sums and
  matrix products add in another order than NumPy; float32 ``RTOL32``);
- a CPU error of type E: the dask device raises E too, when the step is
  called or when its result is computed (checks of values run with the
  graph);
- ``NotImplementedError`` on the dask device where the CPU gives a result
  is a *refusal*; only those of :data:`REFUSALS` are accepted (each needs
  the values to know how many arrays to return, or where the elements of an
  array value go in an axis of data-dependent length).

Every other outcome is a *difference*, reported with the program's seed and
the step (:class:`Difference`).
"""

from __future__ import annotations

import itertools
import math
import traceback
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import ocean_array_api as xp
import ocean_ext

CPU = xp.__array_namespace_info__().devices()[0]
DASK = next(d for d in xp.__array_namespace_info__().devices() if d.kind == "dask")

RTOL = 1e-9  # float64 and complex128, relative to the result's magnitude
RTOL32 = 2e-4  # float32 and complex64

# the dask device's refusals by design: the values decide how many arrays a
# function returns, or where the elements of an array value go
REFUSALS = {
    "unstack": "the number of arrays is data-dependent",
    "setitem": "an array value assigned into a slice of data-dependent length",
    "view_write": "a view written back into a slice of data-dependent length",
}

# "empty": uneven chunks with empty (0-length) chunks among them, made as a
# mask that drops whole chunks does under ocean_ext.known_sizes() (axis 0)
# and as from_dask takes them (other axes); a length-1 axis is cut (0, 1)
CHUNKINGS = ("one", "unit", "uneven", "empty")

# steps that write into their first argument (the first result is that array)
WRITES = ("setitem", "inplace", "view_write")
SHOW_REFUSALS = False

_DTYPES = (
    "bool", "int8", "int32", "int64", "uint8", "float32", "float64",
    "complex64", "complex128",
)  # fmt: skip


@dataclass
class Ref:
    """An array of the pool, by its index."""

    i: int


@dataclass
class Lit:
    """A NumPy array turned into an array of the run's device at the call."""

    value: np.ndarray


@dataclass
class Step:
    op: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        def show(a: Any) -> str:
            if isinstance(a, Ref):
                return f"a{a.i}"
            if isinstance(a, Lit):
                return f"asarray({a.value.tolist()!r}, dtype={a.value.dtype})"
            if isinstance(a, tuple):
                return (
                    "("
                    + ", ".join(show(b) for b in a)
                    + ("," if len(a) == 1 else "")
                    + ")"
                )
            if isinstance(a, list):
                return "[" + ", ".join(show(b) for b in a) + "]"
            return repr(a)

        args = ", ".join(show(a) for a in self.args)
        kw = "".join(f", {k}={show(v)}" for k, v in self.kwargs.items())
        return f"{self.op}({args}{kw})"


@dataclass
class Program:
    seed: int
    inputs: list[np.ndarray]
    steps: list[Step]

    def __str__(self) -> str:
        lines = [f"# program seed {self.seed}"]
        for i, a in enumerate(self.inputs):
            lines.append(f"a{i} = asarray({a.tolist()!r}, dtype={a.dtype})")
        lines.extend(str(s) for s in self.steps)
        return "\n".join(lines)


# --- running one step ---------------------------------------------------------
def _resolve(a: Any, pool: list[Any], dev: Any) -> Any:
    if isinstance(a, Ref):
        return pool[a.i]
    if isinstance(a, Lit):
        return xp.asarray(a.value, device=dev)
    if isinstance(a, tuple):
        return tuple(_resolve(b, pool, dev) for b in a)
    if isinstance(a, list):
        return [_resolve(b, pool, dev) for b in a]
    return a


def _getattr_path(name: str) -> Any:
    obj: Any = xp
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def call(step: Step, pool: list[Any], dev: Any) -> list[Any]:
    """Run ``step`` on ``pool`` (arrays of device ``dev``): the new arrays (for
    ``setitem``: the target, written in place)."""
    args = [_resolve(a, pool, dev) for a in step.args]
    kwargs = {k: _resolve(v, pool, dev) for k, v in step.kwargs.items()}
    op = step.op
    if op in ("getitem", "getitem_arrays"):
        return [args[0][args[1]]]
    if op == "setitem":
        args[0][args[1]] = args[2]
        return [args[0]]
    if op == "view_write":  # views of basic indexing share writes (NumPy's)
        a, k1, where, k2, v = args
        view = a[k1]
        if where == "view":
            view[k2] = v
        elif where == "view+=":
            view += v
        elif where == "nested":  # a view of the view
            inner = view[k2]
            inner[...] = v
            return [a, view, inner]
        else:
            a[k2] = v
        return [a, view]
    if op == "mask":  # x[x > t] or x[x != t]: a data-dependent size
        x, t = args
        return [x[(x > t) if x.dtype != xp.bool else x]]
    if op == "inplace":
        x, o, v = args
        if o == "+=":
            x += v
        elif o == "*=":
            x *= v
        else:
            x -= v
        return [x]
    if op == "sorted_search":
        return [_sorted_search(*args, **kwargs)]
    if op == "operator":
        o, a, b = args
        return [eval(f"a {o} b", {}, {"a": a, "b": b})]
    res = _getattr_path(op)(*args, **kwargs)
    if isinstance(res, (tuple, list)):
        return list(res)
    return [res]


# --- generating programs ---------------------------------------------------------
class Gen:
    """Chooses steps from the CPU arrays of the pool."""

    def __init__(self, rng: np.random.Generator, pool: list[np.ndarray]) -> None:
        self.rng = rng
        self.pool = pool

    def pick(self, pred: Any = None) -> int | None:
        ok = [i for i, a in enumerate(self.pool) if pred is None or pred(a)]
        if not ok:
            return None
        return int(self.rng.choice(ok))

    def coin(self, p: float = 0.5) -> bool:
        return bool(self.rng.random() < p)

    def axis_form(
        self, ndim: int, *, allow_none: bool = True, allow_tuple: bool = True
    ) -> Any:
        forms = []
        if allow_none:
            forms.append(None)
        if ndim:
            ax = int(self.rng.integers(-ndim, ndim))
            forms.append(ax)
        if allow_tuple:
            forms.append(())
            if ndim:
                k = int(self.rng.integers(1, ndim + 1))
                axes = self.rng.permutation(ndim)[:k]
                forms.append(tuple(int(a) - (ndim if self.coin() else 0) for a in axes))
        return forms[int(self.rng.integers(len(forms)))]

    def slice_for(self, n: int) -> slice:
        def bound() -> Any:
            if self.coin(0.2):
                return None
            return int(self.rng.integers(-n - 3, n + 4))

        step = None if self.coin(0.3) else int(self.rng.choice([-3, -2, -1, 1, 2, 3]))
        return slice(bound(), bound(), step)

    def basic_key(self, shape: tuple[int, ...]) -> Any:
        items: list[Any] = []
        ellipsis = False
        axis = 0
        while axis < len(shape):
            r = self.rng.random()
            if r < 0.1:
                items.append(None)
                continue
            if r < 0.2 and not ellipsis and self.coin(0.5):
                items.append(Ellipsis)
                ellipsis = True
                axis = len(shape)  # the ellipsis takes the rest
                break
            n = shape[axis]
            if r < 0.45 and n:
                items.append(int(self.rng.integers(-n, n)))
            else:
                items.append(self.slice_for(n))
            axis += 1
            if self.coin(0.2):
                break  # fewer items than axes
        if len(items) == 1 and self.coin():
            return items[0]
        return tuple(items)


def _is(kind: str) -> Any:
    def pred(a: np.ndarray) -> bool:
        k = a.dtype.kind
        return {
            "bool": k == "b",
            "int": k in "iu",
            "real": k in "iuf",
            "float": k == "f",
            "complex": k == "c",
            "inexact": k in "fc",
            "numeric": k in "iufc",
            "any": True,
        }[kind]

    return pred


def _nd(pred: Any, lo: int, hi: int = 99) -> Any:
    return lambda a: pred(a) and lo <= a.ndim <= hi


_UNARY = {
    "abs": "numeric", "negative": "numeric", "positive": "numeric",
    "square": "numeric", "sqrt": "inexact", "exp": "inexact", "log": "inexact",
    "sin": "inexact", "tanh": "inexact", "floor": "real", "ceil": "real",
    "round": "numeric", "trunc": "real", "sign": "numeric", "isnan": "numeric",
    "isfinite": "numeric", "logical_not": "bool", "bitwise_invert": "int",
    "conj": "numeric", "real": "complex", "imag": "complex", "signbit": "float",
    "reciprocal": "inexact", "expm1": "inexact", "log1p": "inexact",
}  # fmt: skip
_BINARY = {
    "add": "numeric", "subtract": "numeric", "multiply": "numeric",
    "divide": "numeric", "pow": "numeric", "maximum": "real", "minimum": "real",
    "equal": "any", "not_equal": "any", "less": "real", "greater_equal": "real",
    "logical_and": "bool", "logical_xor": "bool", "bitwise_and": "int",
    "bitwise_xor": "int", "remainder": "real", "floor_divide": "real",
    "atan2": "float", "hypot": "float", "copysign": "float",
    "bitwise_left_shift": "int", "nextafter": "float",
}  # fmt: skip
_REDUCTIONS = {
    "sum": "numeric", "prod": "numeric", "max": "real", "min": "real",
    "mean": "inexact", "var": "float", "std": "float", "all": "any",
    "any": "any", "count_nonzero": "any",
}  # fmt: skip


def _scalar_for(g: Gen, a: np.ndarray) -> Any:
    k = a.dtype.kind
    if k == "b":
        return bool(g.coin())
    if k in "iu":
        return int(g.rng.integers(0, 4))
    if k == "f":
        return float(g.rng.choice([0.5, -1.5, 2.0, 0.0]))
    return complex(float(g.rng.integers(-2, 3)), 1.0)


def _partner(g: Gen, i: int, kind: str) -> Any:
    """A second operand for ``pool[i]``: an array of the same shape (or one
    that broadcasts with it) of a kind that promotes, or a Python scalar."""
    a = g.pool[i]
    if g.coin(0.3):
        return _scalar_for(g, a)

    def ok(b: np.ndarray) -> bool:
        if not _is(kind)(b):
            return False
        try:
            np.broadcast_shapes(a.shape, b.shape)
        except ValueError:
            return False
        same = (a.dtype.kind in "iu") == (b.dtype.kind in "iu") or (
            a.dtype.kind in "fc" and b.dtype.kind in "fc"
        )
        return (a.dtype.kind == "b") == (b.dtype.kind == "b") and same

    j = g.pick(ok)
    return Ref(j) if j is not None else _scalar_for(g, a)


def gen_step(g: Gen, r: float | None = None) -> Step | None:
    """A step of any kind (``r``, if given, picks the kind instead of a
    draw: see the thresholds below)."""
    r = g.rng.random() if r is None else r
    pool = g.pool
    if r < 0.14:
        name = str(g.rng.choice(list(_UNARY)))
        i = g.pick(_is(_UNARY[name]))
        if i is None:
            return None
        return Step(name, (Ref(i),))
    if r < 0.27:
        name = str(g.rng.choice(list(_BINARY)))
        i = g.pick(_is(_BINARY[name]))
        if i is None:
            return None
        other = _partner(g, i, _BINARY[name])
        if name == "pow" and pool[i].dtype.kind in "iu" and not isinstance(other, Ref):
            other = abs(other) if not g.coin(0.1) else -1  # an error, sometimes
        if name == "bitwise_left_shift" and not isinstance(other, Ref):
            other = abs(int(other))
        if name == "bitwise_left_shift" and isinstance(other, Ref):
            return None
        if g.coin(0.15) and name in ("add", "multiply", "subtract", "less", "equal"):
            o = {
                "add": "+",
                "multiply": "*",
                "subtract": "-",
                "less": "<",
                "equal": "==",
            }[name]
            return Step("operator", (o, Ref(i), other))
        return Step(name, (Ref(i), other))
    if r < 0.40:
        name = str(g.rng.choice(list(_REDUCTIONS)))
        i = g.pick(_is(_REDUCTIONS[name]))
        if i is None:
            return None
        a = pool[i]
        kw: dict[str, Any] = {"axis": g.axis_form(a.ndim), "keepdims": g.coin()}
        if name in ("var", "std") and g.coin(0.4):
            kw["correction"] = float(g.rng.choice([0, 1, 2]))
        return Step(name, (Ref(i),), kw)
    if r < 0.45:
        name = str(g.rng.choice(["argmax", "argmin"]))
        i = g.pick(_is("real"))
        if i is None:
            return None
        a = pool[i]
        axis = (
            None if not a.ndim or g.coin(0.3) else int(g.rng.integers(-a.ndim, a.ndim))
        )
        return Step(name, (Ref(i),), {"axis": axis, "keepdims": g.coin()})
    if r < 0.50:
        name = str(g.rng.choice(["cumulative_sum", "cumulative_prod", "diff"]))
        i = g.pick(_nd(_is("numeric"), 1))
        if i is None:
            return None
        a = pool[i]
        axis = int(g.rng.integers(-a.ndim, a.ndim))
        if name == "diff":
            return Step(name, (Ref(i),), {"axis": axis, "n": int(g.rng.integers(0, 3))})
        kw = {"axis": axis if a.ndim > 1 or g.coin() else None}
        if g.coin(0.3):
            kw["include_initial"] = True
        return Step(name, (Ref(i),), kw)
    if r < 0.58:  # masks: data-dependent sizes
        i = g.pick(_nd(_is("real"), 1))
        if i is None:
            return None
        a = pool[i]
        if a.dtype.kind == "b":
            return Step("mask", (Ref(i), None))
        vals = a.reshape(-1)
        t = vals[int(g.rng.integers(len(vals)))].item() if len(vals) else 0
        if a.dtype.kind == "f" and not math.isfinite(t):
            t = 0.0
        if a.dtype.kind == "f" and len(vals):
            # halfway to the next larger value: x > t selects the same
            # elements, but a value computed with another rounding on the
            # dask device (a chunked var) no longer sits on the threshold
            above = vals[vals > t]
            t = (t + float(above.min())) / 2 if above.size else t + 1.0
        return Step("mask", (Ref(i), t))
    if r < 0.66:  # basic indexing
        i = g.pick(_nd(_is("any"), 1))
        if i is None:
            return None
        return Step("getitem", (Ref(i), g.basic_key(pool[i].shape)))
    if r < 0.70:  # index arrays
        i = g.pick(_nd(_is("any"), 1))
        if i is None:
            return None
        a = pool[i]
        n = a.shape[0]
        k = int(g.rng.integers(0, 5))
        idx = g.rng.integers(-n, n, size=k) if n else np.zeros(0, dtype=np.int64)
        if g.coin(0.05):
            idx = np.asarray([n + 1])  # out of bounds: an error when computed
        if a.ndim > 1 and g.coin(0.5):
            m = a.shape[1]
            idx2 = g.rng.integers(-m, m, size=k) if m else np.zeros(0, dtype=np.int64)
            return Step("getitem_arrays", (Ref(i), (Lit(idx), Lit(idx2))))
        if g.coin(0.3):
            return Step("take", (Ref(i), Lit(idx)), {"axis": 0})
        return Step("getitem", (Ref(i), Lit(idx)))
    if r < 0.77:  # assignment
        i = g.pick(_nd(_is("any"), 1))
        if i is None:
            return None
        a = pool[i]
        kind = g.rng.random()
        value: Any = _scalar_for(g, a)
        if kind < 0.45:
            key: Any = g.basic_key(a.shape)
            sel = a[key].shape
            if g.coin(0.5) and sel:
                value = Lit(g.rng.integers(0, 5, size=sel[-1:]).astype(a.dtype))
            return Step("setitem", (Ref(i), key, value))
        if kind < 0.75:
            if a.dtype.kind == "b":
                return Step("setitem", (Ref(i), Ref(i), value))
            j = g.pick(
                lambda b: (
                    b.dtype.kind == "b" and b.shape == a.shape[: b.ndim] and b.ndim >= 1
                )
            )
            if j is None:
                return None
            if g.coin(0.3):
                cnt = int(pool[j].sum())
                rows = cnt if g.coin(0.8) else cnt + 1
                value = Lit(
                    g.rng.integers(0, 5, size=(rows, *a.shape[pool[j].ndim :])).astype(
                        a.dtype
                    )
                )
            return Step("setitem", (Ref(i), Ref(j), value))
        n = a.shape[0]
        idx = (
            g.rng.integers(-n, n, size=int(g.rng.integers(0, 4)))
            if n
            else np.zeros(0, dtype=np.int64)
        )
        return Step("setitem", (Ref(i), Lit(idx), value))
    if r < 0.785:  # a write into a view, or into the base of a view
        i = g.pick(_nd(_is("numeric"), 1))
        if i is None:
            return None
        a = pool[i]
        k1 = g.basic_key(a.shape)
        where = str(g.rng.choice(["view", "view+=", "nested", "base"]))
        k2 = g.basic_key(a[k1].shape if where != "base" else a.shape)
        if where != "base" and not a[k1].ndim:
            k2 = ()
        return Step("view_write", (Ref(i), k1, where, k2, _scalar_for(g, a)))
    if r < 0.80:  # in-place operators
        i = g.pick(_is("numeric"))
        if i is None:
            return None
        a = pool[i]
        return Step(
            "inplace",
            (
                Ref(i),
                str(g.rng.choice(["+=", "*=", "-="])),
                _scalar_for(g, a) if a.dtype.kind != "b" else 1,
            ),
        )
    if r < 0.88:  # manipulation
        name = str(g.rng.choice([
            "reshape", "flip", "roll", "concat", "stack", "expand_dims", "squeeze",
            "permute_dims", "repeat", "tile", "broadcast_to", "moveaxis", "unstack",
            "where", "clip", "astype", "zeros_like", "full_like", "broadcast_arrays",
            "meshgrid",
        ]))  # fmt: skip
        i = g.pick(_is("any"))
        if i is None:
            return None
        a = pool[i]
        nd = a.ndim
        if name == "reshape":
            n = a.size
            divs = [d for d in range(1, n + 1) if n % d == 0] or [1]
            d = int(g.rng.choice(divs)) if n else 0
            shapes = [(-1,), (d, -1) if d else (0, 3), (-1, 1), (n,)]
            shape = shapes[int(g.rng.integers(len(shapes)))]
            return Step(name, (Ref(i), tuple(int(s) for s in shape)))
        if name == "flip":
            return Step(name, (Ref(i),), {"axis": g.axis_form(nd)})
        if name == "roll":
            if nd == 0:
                return None
            axis = None if g.coin(0.3) else int(g.rng.integers(-nd, nd))
            return Step(name, (Ref(i), int(g.rng.integers(-5, 6))), {"axis": axis})
        if name in ("concat", "stack"):
            j = g.pick(
                lambda b: (
                    b.shape == a.shape
                    and (b.dtype.kind == "b") == (a.dtype.kind == "b")
                )
            )
            axis = (
                None
                if name == "concat" and g.coin(0.3)
                else int(g.rng.integers(-max(nd, 1), max(nd, 1)))
            )
            if name == "concat" and nd == 0:
                axis = None
            return Step(name, ([Ref(i), Ref(j)],), {"axis": axis})
        if name == "expand_dims":
            return Step(name, (Ref(i),), {"axis": int(g.rng.integers(-nd - 1, nd + 1))})
        if name == "squeeze":
            ones = tuple(k for k, s in enumerate(a.shape) if s == 1)
            return Step(name, (Ref(i),), {"axis": ones if ones else 0 if nd else ()})
        if name == "permute_dims":
            return Step(name, (Ref(i), tuple(int(v) for v in g.rng.permutation(nd))))
        if name == "repeat":
            if g.coin(0.3) and nd:
                n = a.shape[0]
                return Step(
                    name, (Ref(i), Lit(g.rng.integers(0, 3, size=n))), {"axis": 0}
                )
            return Step(
                name,
                (Ref(i), int(g.rng.integers(0, 3))),
                {"axis": None if g.coin() or not nd else int(g.rng.integers(-nd, nd))},
            )
        if name == "tile":
            return Step(
                name,
                (
                    Ref(i),
                    tuple(
                        int(v)
                        for v in g.rng.integers(0, 3, size=int(g.rng.integers(1, 3)))
                    ),
                ),
            )
        if name == "broadcast_to":
            return Step(name, (Ref(i), (2, *a.shape)))
        if name == "moveaxis":
            if nd == 0:
                return None
            return Step(
                name,
                (Ref(i), int(g.rng.integers(-nd, nd)), int(g.rng.integers(-nd, nd))),
            )
        if name == "unstack":
            if nd == 0:
                return None
            return Step(name, (Ref(i),), {"axis": int(g.rng.integers(-nd, nd))})
        if name == "where":
            j = g.pick(lambda b: b.dtype.kind == "b")
            k = g.pick(
                lambda b: (
                    (b.dtype.kind in "iu") == (a.dtype.kind in "iu")
                    and (b.dtype.kind == "b") == (a.dtype.kind == "b")
                )
            )
            if j is None or k is None:
                return None
            try:
                np.broadcast_shapes(pool[j].shape, a.shape, pool[k].shape)
            except ValueError:
                return None
            return Step(name, (Ref(j), Ref(i), Ref(k)))
        if name == "clip":
            if a.dtype.kind not in "iuf":
                return None
            return Step(name, (Ref(i),), {"min": 1, "max": 3})
        if name == "astype":
            return Step(name, (Ref(i), getattr(xp, str(g.rng.choice(_DTYPES)))))
        if name == "zeros_like":
            return Step(name, (Ref(i),))
        if name == "full_like":
            return Step(name, (Ref(i), _scalar_for(g, a)))
        if name == "broadcast_arrays":
            j = g.pick(lambda b: b.shape in ((), a.shape))
            return Step(name, (Ref(i), Ref(j)))
        if name == "meshgrid":
            j = g.pick(lambda b: b.ndim == 1 and b.dtype == a.dtype)
            if nd != 1 or j is None:
                return None
            return Step(
                name, (Ref(i), Ref(j)), {"indexing": str(g.rng.choice(["xy", "ij"]))}
            )
        return None
    if r < 0.93:  # sorting, sets, searching
        name = str(g.rng.choice([
            "sort", "argsort", "unique_values", "unique_counts", "unique_inverse",
            "unique_all", "searchsorted", "nonzero", "isin",
        ]))  # fmt: skip
        i = g.pick(_is("real"))
        if i is None:
            return None
        a = pool[i]
        if name in ("sort", "argsort"):
            if a.ndim == 0:
                return None
            return Step(
                name,
                (Ref(i),),
                {
                    "axis": int(g.rng.integers(-a.ndim, a.ndim)),
                    "descending": g.coin(),
                    "stable": True,
                },
            )
        if name == "searchsorted":
            j = g.pick(
                lambda b: (
                    b.ndim == 1
                    and b.dtype.kind in "iuf"
                    and (b.dtype.kind in "iu") == (a.dtype.kind in "iu")
                )
            )
            if j is None or a.dtype.kind == "b":
                return None
            return Step(
                "sorted_search",
                (Ref(j), Ref(i)),
                {"side": str(g.rng.choice(["left", "right"]))},
            )
        if name == "nonzero":
            if a.ndim == 0:
                return None
            return Step(name, (Ref(i),))
        if name == "isin":
            j = g.pick(
                lambda b: (
                    (b.dtype.kind in "iu") == (a.dtype.kind in "iu")
                    and (b.dtype.kind == "b") == (a.dtype.kind == "b")
                )
            )
            return Step(name, (Ref(i), Ref(j)))
        return Step(name, (Ref(i),))
    if r < 0.97:  # linear algebra
        name = str(
            g.rng.choice(
                [
                    "matmul",
                    "vecdot",
                    "tensordot",
                    "linalg.inv",
                    "linalg.det",
                    "linalg.qr",
                    "linalg.svdvals",
                    "linalg.vector_norm",
                    "linalg.matrix_norm",
                ]
            )
        )
        i = g.pick(_nd(_is("inexact"), 1))
        if i is None:
            return None
        a = pool[i]
        if name in ("matmul", "vecdot", "tensordot"):
            n = a.shape[-1]
            j = (
                g.pick(
                    lambda b: b.ndim >= 1 and b.dtype.kind in "fc" and b.shape[0] == n
                )
                if name != "vecdot"
                else g.pick(lambda b: b.shape == a.shape and b.dtype.kind in "fc")
            )
            if j is None:
                return None
            if name == "tensordot":
                return Step(name, (Ref(i), Ref(j)), {"axes": 1})
            return Step(name, (Ref(i), Ref(j)))
        if name == "linalg.vector_norm":
            return Step(
                name,
                (Ref(i),),
                {
                    "axis": g.axis_form(a.ndim, allow_tuple=a.ndim <= 2),
                    "ord": float(g.rng.choice([1, 2, math.inf])),
                },
            )
        if a.ndim < 2:
            return None
        if name in ("linalg.inv", "linalg.det") and a.shape[-1] != a.shape[-2]:
            return None
        if name == "linalg.matrix_norm":
            return Step(
                name,
                (Ref(i),),
                {"ord": str(g.rng.choice(["fro", "nuc"])) if g.coin() else 1},
            )
        return Step(name, (Ref(i),))
    # fft
    name = str(
        g.rng.choice(["fft.fft", "fft.ifft", "fft.rfft", "fft.fftn", "fft.fftshift"])
    )
    if name == "fft.rfft":
        i = g.pick(_nd(_is("float"), 1))
    elif name == "fft.fftshift":
        i = g.pick(_nd(_is("numeric"), 1))
    else:
        i = g.pick(_nd(_is("complex"), 1))
    if i is None:
        return None
    a = pool[i]
    if name == "fft.fftn":
        return Step(name, (Ref(i),))
    if name == "fft.fftshift":
        return Step(name, (Ref(i),))
    kw = {"axis": int(g.rng.integers(-a.ndim, a.ndim))}
    if g.coin(0.3):
        kw["n"] = int(g.rng.integers(1, 6))
    return Step(name, (Ref(i),), kw)


# --- programs about data-dependent sizes ----------------------------------------
# Programs of FOCUS "sizes" make arrays of data-dependent size in several ways
# (masks that keep every row or some, unique_values of distinct values,
# nonzero), which are cut differently on the dask device but have the same
# length on the CPU, and then index them with each other's masks, 0-d and 1-d
# index arrays and slices of every step, assign through those keys, and
# combine them elementwise and in reductions.  gen_step's kinds, by ``r``:
_KIND = {"unary": 0.1, "binary": 0.2, "reduction": 0.3, "mask": 0.5,
         "basic": 0.6, "arrays": 0.68, "setitem": 0.72}  # fmt: skip


def _index_0d(g: Gen, n: int) -> Lit:
    """A 0-d integer index array for an axis of length ``n`` (out of
    bounds now and then: an IndexError, when computed on the dask device)."""
    k = int(g.rng.integers(-n, n)) if n and not g.coin(0.1) else n + 1
    dtype = np.uint8 if k >= 0 and g.coin(0.2) else np.int64
    return Lit(np.asarray(k, dtype=dtype))


def _mask_for(g: Gen, a: np.ndarray) -> int | None:
    """A boolean array of the pool that fits ``a``'s leading axes (on the
    CPU; on the dask device its lengths may be data-dependent and cut
    otherwise), or, now and then, one that does not fit (IndexError)."""
    fits = g.pick(
        lambda b: b.dtype.kind == "b" and b.ndim >= 1 and b.shape == a.shape[: b.ndim]
    )
    if fits is None or g.coin(0.1):
        return g.pick(
            lambda b: (
                b.dtype.kind == "b"
                and 1 <= b.ndim <= a.ndim
                and b.shape != a.shape[: b.ndim]
                and 0 not in b.shape
            )
        )
    return fits


def gen_sizes_step(g: Gen) -> Step | None:
    """A step of a FOCUS "sizes" program."""
    r = g.rng.random()
    pool = g.pool
    if r < 0.10:  # a mask, keeping every row now and then (cut otherwise)
        i = g.pick(_nd(_is("real"), 1))
        if i is None:
            return None
        a = pool[i]
        if g.coin(0.3) and a.dtype.kind in "iuf" and a.size:
            low = np.nanmin(a) if a.dtype.kind == "f" else int(a.min())
            if a.dtype.kind == "f" or low > np.iinfo(a.dtype).min:
                t = float(low) - 1.0 if a.dtype.kind == "f" else int(low) - 1
                return Step("mask", (Ref(i), t))
        return gen_step(g, _KIND["mask"])
    if r < 0.16:  # other makers of data-dependent sizes
        name = str(g.rng.choice(["unique_values", "nonzero"]))
        i = g.pick(_nd(_is("real" if name == "unique_values" else "any"), 1, 2))
        if i is None:
            return None
        return Step(name, (Ref(i),))
    if r < 0.22:  # masks from comparisons (on the dask device: cut as x)
        i = g.pick(_nd(_is("real"), 1))
        if i is None:
            return None
        a = pool[i]
        name = str(g.rng.choice(["greater", "less_equal", "not_equal"]))
        return Step(name, (Ref(i), _scalar_for(g, a)))
    if r < 0.36:  # x[mask], the mask of another array
        i = g.pick(_nd(_is("any"), 1))
        if i is None:
            return None
        j = _mask_for(g, pool[i])
        if j is None:
            return None
        return Step("getitem", (Ref(i), Ref(j)))
    if r < 0.46:  # 0-d index arrays, alone or with slices of any step
        i = g.pick(_nd(_is("any"), 1))
        if i is None:
            return None
        a = pool[i]
        key: Any = _index_0d(g, a.shape[0])
        if a.ndim > 1 and g.coin():
            key = (key, g.slice_for(a.shape[1]))
        elif a.ndim > 1 and g.coin():
            key = (g.slice_for(a.shape[0]), _index_0d(g, a.shape[1]))
        return Step("getitem", (Ref(i), key))
    if r < 0.54:  # slices (negative steps among them), integers, None, ...
        return gen_step(g, _KIND["basic"])
    if r < 0.58:
        return gen_step(g, _KIND["arrays"])
    if r < 0.72:  # assignments through those keys
        i = g.pick(_nd(_is("any"), 1))
        if i is None:
            return None
        a = pool[i]
        value: Any = _scalar_for(g, a)
        kind = g.rng.random()
        if kind < 0.5:
            j = _mask_for(g, a)
            if j is None:
                return None
            m = pool[j]
            if g.coin(0.4) and m.shape == a.shape[: m.ndim]:
                cnt = int(m.sum())
                rows = cnt if g.coin(0.85) else cnt + 1  # (ValueError)
                value = Lit(
                    g.rng.integers(0, 5, size=(rows, *a.shape[m.ndim :])).astype(
                        a.dtype
                    )
                )
            return Step("setitem", (Ref(i), Ref(j), value))
        if kind < 0.8:
            key = _index_0d(g, a.shape[0])
            sel = a.shape[1:]
            if g.coin(0.3):
                # a 0-d value, a row, or (one element) an array of one
                # element, which NumPy refuses
                shape = sel[-1:] if sel else (1,) if g.coin(0.3) else ()
                value = Lit(np.asarray(g.rng.integers(0, 5, size=shape), a.dtype))
            return Step("setitem", (Ref(i), key, value))
        if g.coin():  # gen_step's: basic keys with array values too
            return gen_step(g, _KIND["setitem"])
        return Step("setitem", (Ref(i), g.basic_key(a.shape), value))
    if r < 0.86:  # elementwise, operands cut otherwise
        return gen_step(g, _KIND["binary" if g.coin(0.7) else "unary"])
    return gen_step(g, _KIND["reduction"])


def _initial_sizes(rng: np.random.Generator) -> list[np.ndarray]:
    """Inputs of a FOCUS "sizes" program: arrays whose first axes have one
    length ``n`` (so that masks of one fit the others), with distinct
    values in the integer ones (unique_values keeps their length)."""
    n = int(rng.integers(1, 7))
    out = []
    for _ in range(int(rng.integers(3, 6))):
        shape = (n,) if rng.random() < 0.6 else (n, int(rng.integers(1, 4)))
        size = math.prod(shape)
        dtype = np.dtype(str(rng.choice(["bool", "int8", "int64", "float64",
                                         "float32", "complex128"])))  # fmt: skip
        if dtype.kind == "b":
            a = rng.random(size) < 0.6
        elif dtype.kind in "iu":
            a = rng.permutation(size) - size // 3
        else:
            a = rng.integers(-6, 7, size=size) / 2.0
            if dtype.kind == "c":
                a = a + 1j * rng.integers(-3, 4, size=size)
        out.append(np.asarray(a).astype(dtype).reshape(shape))
    return out


def _initial(rng: np.random.Generator) -> list[np.ndarray]:
    out = []
    for _ in range(int(rng.integers(3, 6))):
        nd = int(rng.choice([1, 1, 2, 2, 3]))
        shape = tuple(int(s) for s in rng.integers(0, 6, size=nd))
        if rng.random() < 0.7:
            shape = tuple(max(s, 1) for s in shape)  # mostly non-empty
        if nd == 2 and rng.random() < 0.3:
            shape = (shape[0], shape[0])  # square matrices for linalg
        dtype = np.dtype(str(rng.choice(_DTYPES)))
        size = math.prod(shape)
        if dtype.kind == "b":
            a = rng.random(size) < 0.5
        elif dtype.kind in "iu":
            a = rng.integers(0, 8, size=size)
        else:
            a = rng.integers(-6, 7, size=size) / 2.0
            if dtype.kind == "c":
                a = a + 1j * rng.integers(-3, 4, size=size)
            if size and rng.random() < 0.2:
                # (no infinities in complex data: complex products of them
                # give NaN or infinite parts depending on the order of the
                # operations, which chunked reductions change)
                special = (
                    [np.nan, -0.0] if dtype.kind == "c" else [np.nan, np.inf, -0.0]
                )
                a[int(rng.integers(size))] = rng.choice(special)
        out.append(np.asarray(a).astype(dtype).reshape(shape))
    return out


def _sorted_search(x1: Any, x2: Any, side: str) -> Any:
    return xp.searchsorted(xp.sort(x1), x2, side=side)


def generate(
    seed: int, n_steps: int, focus: str = "all"
) -> tuple[Program, list[tuple[list[Any] | None, BaseException | None]]]:
    """A program of ``n_steps`` steps from ``seed`` and its CPU outcomes:
    for each step, the results (NumPy arrays) or the exception raised.
    ``focus``: "all" (steps of every kind) or "sizes" (data-dependent sizes
    met by indexing, assignment, elementwise functions and reductions: see
    gen_sizes_step)."""
    rng = np.random.default_rng(seed)
    inputs = _initial(rng) if focus == "all" else _initial_sizes(rng)
    step_of = gen_step if focus == "all" else gen_sizes_step
    pool = [xp.asarray(a, device=CPU, copy=True) for a in inputs]
    host = [a.copy() for a in inputs]
    steps: list[Step] = []
    outcomes: list[tuple[list[Any] | None, BaseException | None]] = []
    tries = 0
    while len(steps) < n_steps and tries < n_steps * 20:
        tries += 1
        g = Gen(rng, host)
        step = step_of(g)
        if step is None:
            continue
        try:
            with np.errstate(all="ignore"):
                res = call(step, pool, CPU)
        except (
            ValueError,
            TypeError,
            IndexError,
            OverflowError,
            ZeroDivisionError,
        ) as exc:
            steps.append(step)
            outcomes.append((None, exc))
            continue
        vals = [np.array(r, copy=True) for r in res]  # never a view of the pool
        steps.append(step)
        outcomes.append((vals, None))
        if step.op in WRITES:
            t = step.args[0].i
            host[t] = vals[0].copy()
            continue
        for r, v in zip(res, vals, strict=True):
            if v.size <= 400 and v.dtype.name in _DTYPES:
                # a copy: CPU results may be views of pool arrays, which a
                # later assignment would change (dask results never are)
                pool.append(xp.asarray(r, copy=True))
                host.append(v.copy())
    return Program(seed, inputs, steps), outcomes


# --- replaying on the dask device ----------------------------------------------------
def _chunks(shape: tuple[int, ...], chunking: str, rng: np.random.Generator) -> Any:
    if chunking == "one":
        return tuple(max(s, 1) for s in shape) if shape else ()
    if chunking == "unit":
        return tuple(1 for _ in shape)
    out = []
    for s in shape:
        if s <= 1:
            out.append((s,))
            continue
        cuts = sorted(
            {int(c) for c in rng.integers(1, s, size=int(rng.integers(1, s)))}
        )
        edges = [0, *cuts, s]
        out.append(tuple(b - a for a, b in itertools.pairwise(edges)))
    if chunking == "empty":
        return tuple(_with_empty(c, rng) for c in out)
    return tuple(out)


def _with_empty(sizes: tuple[int, ...], rng: np.random.Generator) -> tuple[int, ...]:
    """``sizes`` with one or two empty chunks inserted (first, last, inside)."""
    out = list(sizes)
    for _ in range(int(rng.integers(1, 3))):
        out.insert(int(rng.integers(0, len(out) + 1)), 0)
    return tuple(out)


def _through_dropped_rows(a: np.ndarray, chunks: Any) -> Any:
    """``a`` on the dask device as the result of a mask that drops whole
    chunks, sizes made known (``ocean_ext.known_sizes()``): each empty chunk
    of ``chunks[0]`` is a chunk of one row there, masked out."""
    import dask.array as da

    rows, keep, sizes, start = [], [], [], 0
    for n in chunks[0]:
        if n:
            rows.append(a[start : start + n])
            keep.append(np.ones(n, dtype=bool))
            start += n
        else:
            rows.append(np.zeros((1, *a.shape[1:]), dtype=a.dtype))
            keep.append(np.zeros(1, dtype=bool))
        sizes.append(max(n, 1))
    padded = np.concatenate(rows)
    x = ocean_ext.from_dask(da.from_array(padded, chunks=((*sizes,), *chunks[1:])))
    k = ocean_ext.from_dask(da.from_array(np.concatenate(keep), chunks=(tuple(sizes),)))
    with ocean_ext.known_sizes():
        return x[k]


def on_dask(a: np.ndarray, chunks: Any, masked: bool) -> Any:
    """``a`` on the dask device in ``chunks``; if ``masked``, through a mask
    that keeps every row (its first axis then has a data-dependent length,
    None, with the same chunks)."""
    import dask.array as da

    if a.ndim and isinstance(chunks[0], tuple) and 0 in chunks[0] and a.shape[0]:
        x = _through_dropped_rows(a, chunks)
        d = ocean_ext.to_dask(x)
    else:
        d = da.from_array(a, chunks=chunks)
        x = ocean_ext.from_dask(d)
    if masked and a.ndim:
        keep = xp.asarray(np.ones(a.shape[0], dtype=bool), device=DASK)
        if a.shape[0]:
            keep = ocean_ext.from_dask(
                da.from_array(np.ones(a.shape[0], dtype=bool), chunks=(d.chunks[0],))
            )
        x = x[keep]
    return x


@dataclass
class Difference:
    seed: int
    chunking: str
    masked: bool
    step: int
    what: str
    program: str

    def __str__(self) -> str:
        return (
            f"seed {self.seed}, {self.chunking} chunks{', masked' if self.masked else ''}, "
            f"step {self.step}: {self.what}\n{self.program}"
        )


def _close(got: np.ndarray, want: np.ndarray) -> str | None:
    if got.dtype != want.dtype:
        return f"dtype {got.dtype}, cpu:0 {want.dtype}"
    if got.shape != want.shape:
        return f"shape {got.shape}, cpu:0 {want.shape}"
    if want.dtype.kind in "biu":
        if not np.array_equal(got, want):
            return f"values {got.tolist()}, cpu:0 {want.tolist()}"
        return None
    rtol = RTOL32 if want.dtype in (np.float32, np.complex64) else RTOL
    g = np.asarray(got, dtype=np.complex128).reshape(-1)
    w = np.asarray(want, dtype=np.complex128).reshape(-1)
    for part in ("real", "imag"):
        gp, wp = getattr(g, part), getattr(w, part)
        if not np.array_equal(np.isnan(gp), np.isnan(wp)):
            return f"NaNs at other places: {got.tolist()}, cpu:0 {want.tolist()}"
        inf = np.isinf(wp)
        if not np.array_equal(np.isinf(gp), inf) or not np.array_equal(
            gp[inf], wp[inf]
        ):
            return f"infinities differ: {got.tolist()}, cpu:0 {want.tolist()}"
        fin = np.isfinite(wp)
        if fin.any():
            scale = max(1.0, float(np.max(np.abs(wp[fin]))))
            err = float(np.max(np.abs(gp[fin] - wp[fin])))
            if err > rtol * scale:
                return f"values differ by {err:.3g} (scale {scale:.3g}): {got.tolist()}, cpu:0 {want.tolist()}"
    return None


def _array_into_part(step: Step) -> bool:
    """Whether assignment ``step`` writes an array value into a slice or
    through index arrays of one dimension or more (what the dask device
    refuses on an axis of data-dependent length; see REFUSALS)."""
    _, key, value = step.args
    if not (isinstance(value, Ref) or (isinstance(value, Lit) and value.value.ndim)):
        return False
    items = key if isinstance(key, tuple) else (key,)
    return any(
        (isinstance(k, slice) and k != slice(None))
        or (isinstance(k, Lit) and k.value.ndim)
        for k in items
    )


@dataclass
class Tally:
    programs: int = 0
    steps: int = 0
    compared: int = 0
    errors_matched: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    differences: list[Difference] = field(default_factory=list)


def replay(
    program: Program,
    outcomes: list[tuple[list[Any] | None, BaseException | None]],
    chunking: str,
    masked: bool,
    tally: Tally,
) -> None:
    """Run ``program`` on the dask device and compare each step with its CPU
    outcome; differences go to ``tally``."""
    rng = np.random.default_rng(program.seed + 7919)
    # arrays of one shape get the same chunks (as arrays of one dataset do;
    # masked alike, they are then cut alike)
    by_shape: dict[tuple[int, ...], Any] = {}
    pool: list[Any] = []
    for a in program.inputs:
        chunks = by_shape.setdefault(a.shape, _chunks(a.shape, chunking, rng))
        pool.append(on_dask(a, chunks, masked))
    listing = str(program)

    def differ(k: int, what: str) -> None:
        tally.differences.append(
            Difference(program.seed, chunking, masked, k, what, listing)
        )

    tally.programs += 1
    for k, (step, (want, cpu_exc)) in enumerate(
        zip(program.steps, outcomes, strict=True)
    ):
        tally.steps += 1
        try:
            with np.errstate(all="ignore"):
                res = call(step, pool, DASK)
            computed = ocean_ext.compute(*res) if res else ()
            got = [np.asarray(r.to_device(CPU)) for r in computed]
        except NotImplementedError as exc:
            if cpu_exc is not None:
                tally.errors_matched += 1
                return  # the rest of the program depends on this step
            reason = step.op if step.op in REFUSALS else None
            if reason == "setitem" and not _array_into_part(step):
                reason = None  # (scalars, masks, 0-d indices: never refused)
            if reason is not None and SHOW_REFUSALS:
                print(f"refused: {step}: {exc}")
            if reason is None or "dask" not in str(exc):
                differ(k, f"NotImplementedError: {exc}")
            else:
                tally.refused[reason] = tally.refused.get(reason, 0) + 1
            return
        except Exception as exc:
            if cpu_exc is not None and isinstance(exc, type(cpu_exc)):
                tally.errors_matched += 1
                if step.op in WRITES:
                    return  # the target's state differs now: stop here
                continue
            if cpu_exc is not None:
                differ(
                    k,
                    f"{type(exc).__name__} where cpu:0 raised {type(cpu_exc).__name__}: {exc}",
                )
            else:
                tb = "".join(traceback.format_exception(exc, limit=-3))
                differ(k, f"{type(exc).__name__}: {exc}\n{tb}")
            return
        if cpu_exc is not None:
            differ(
                k, f"no error where cpu:0 raised {type(cpu_exc).__name__}: {cpu_exc}"
            )
            return
        assert want is not None
        if len(got) != len(want):
            differ(k, f"{len(got)} results, cpu:0 {len(want)}")
            return
        for r, gv, wv in zip(res, got, want, strict=True):
            tally.compared += 1
            bad = _close(gv, wv)
            if bad is not None:
                differ(k, bad)
                return
            if r.device != DASK:
                differ(k, f"result on {r.device}")
                return
        if step.op in WRITES:
            continue
        for r, wv in zip(res, want, strict=True):
            if wv.size <= 400 and wv.dtype.name in _DTYPES:
                # a copy, as generate() copies every CPU result: results
                # of basic indexing are views (a later write into the pool
                # would reach them), and a result may be an operand itself
                # (broadcast_arrays of an array of the result shape)
                pool.append(xp.asarray(r, copy=True))
