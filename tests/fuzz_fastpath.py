"""Differential fuzz of the compiled fast path against the pure Python front end.

Random programs -- operators forward, reflected and in-place, indexing and
assignment with every kind of key, the compiled namespace functions, odd
operands (huge ints, int/float subclasses, NumPy scalars and arrays,
byte-swapped, read-only, strided and ``cpu:1`` arrays, 0-d arrays) -- run in
two fresh interpreters, one with ``OCEAN_ARRAY_API_FASTPATH=1`` and one with
``=0``.  After every step each records what the step did (its result, bit for
bit, or its exception's type and message), the warnings it raised, and the
state of every live array (dtype, device, shape, the native data's byte
order, strides and writeable flag, and its bytes).  The two records must be
equal step by step.

A program is a list of Python statements over the names ``a0`` ... ``a7``
(drawn once from the seed, before anything runs, so both interpreters run
the same text), which makes a difference easy to replay: the report prints
the program up to the differing step as a script.

Usage (from the repository root)::

    python -m tests.fuzz_fastpath --programs 20000 --seed 7   # a long run
    python -m tests.fuzz_fastpath --show 3 --seed 7           # print program 3

``tests/test_fastpath_fuzz.py`` runs a bounded, seeded run in the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

N_SLOTS = 8
DTYPES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float32", "float64", "complex64", "complex128",
)  # fmt: skip
INTEGER = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
FLOATING = {"float32", "float64", "complex64", "complex128"}
COMPLEX = {"complex64", "complex128"}
MULTIBYTE = set(DTYPES) - {"bool", "int8", "uint8"}

BINARY_OPS = ("+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>")
COMPARE_OPS = ("<", "<=", "==", "!=", ">", ">=")
UNARY_OPS = ("-", "+", "abs", "~")
BINARY_FUNCS = (
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "pow",
    "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
    "bitwise_right_shift", "logical_and", "logical_or", "maximum", "minimum",
    "atan2", "hypot", "copysign", "nextafter", "logaddexp",
)  # fmt: skip
UNARY_FUNCS = (
    "abs", "negative", "positive", "exp", "log", "sqrt", "sin", "floor", "ceil",
    "round", "trunc", "sign", "isnan", "isinf", "isfinite", "real", "imag",
    "conj", "square", "bitwise_invert", "logical_not", "signbit", "expm1",
    "log1p", "reciprocal",
)  # fmt: skip

# Scalars that are odd for some dtype: huge ints, int/float subclasses,
# NumPy scalars, and things that are no scalar at all.
ODD_SCALARS = (
    "2**63", "2**64 - 1", "-(2**63) - 1", "2**70", "-(2**70)", "10**400",
    "MyInt(3)", "MyInt(-1)", "MyFloat(2.5)", "MyFloat(-0.0)", "True", "False",
    "1j", "complex(0, -0.0)", "np.float64(2.0)", "np.int64(3)", "np.float32(1.5)",
    "np.uint8(7)", "np.bool_(True)", "np.complex128(1j)", "None", "'s'",
    "[1, 2]", "(1,)", "np.ones(3)", "np.arange(4)", "float('nan')",
    "float('inf')", "-float('inf')", "1e308", "-0.0", "255", "256", "-129",
    "128", "65535", "-1", "0", "Hostile()",
)  # fmt: skip

PRELUDE = """\
import gc

import numpy as np
import ocean_array_api as xp
import ocean_ext
from ocean_array_api._devices import Device

CPU1 = Device("cpu", 1)


class MyInt(int):
    pass


class MyFloat(float):
    pass


class Hostile:
    # runs the collector in every conversion the front end may try
    def __index__(self):
        gc.collect()
        return 1

    def __float__(self):
        gc.collect()
        return 1.0

    def __bool__(self):
        gc.collect()
        raise RuntimeError("Hostile.__bool__")

    def __eq__(self, other):
        gc.collect()
        return NotImplemented

    __hash__ = None


def _ro(a):
    a.flags.writeable = False
    return a


def _swapped(a):
    return ocean_ext.asarray(a.astype(a.dtype.newbyteorder()))
"""


# --- drawing programs -----------------------------------------------------------
@dataclass
class Meta:
    """What the generator expects a slot to hold (it may be wrong: a step
    that failed left the slot as it was, or empty)."""

    dtype: str | None
    shape: tuple[int, ...] | None


@dataclass
class Gen:
    rng: random.Random
    slots: list[Meta | None] = field(default_factory=lambda: [None] * N_SLOTS)

    # -- helpers --
    def pick(self, seq: Any) -> Any:
        return seq[self.rng.randrange(len(seq))]

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def live(self) -> list[int]:
        return [i for i, m in enumerate(self.slots) if m is not None]

    def slot(self) -> int:
        live = self.live()
        if live and self.chance(0.97):
            return self.pick(live)
        return self.rng.randrange(N_SLOTS)

    def partner(self, i: int) -> int:
        """A slot for a second operand, usually of i's dtype."""
        m = self.slots[i]
        same = [
            j for j in self.live() if m is not None and self.slots[j] == m and j != i
        ]
        if same and self.chance(0.6):
            return self.pick(same)
        if m is not None and self.chance(0.15):
            return i
        live = self.live()
        return self.pick(live) if live else self.slot()

    def value(self, dtype: str) -> str:
        r = self.rng
        if dtype == "bool":
            return self.pick(("True", "False"))
        if dtype in INTEGER:
            bits = int(re.sub(r"\D", "", dtype))
            lo, hi = (
                (0, 2**bits - 1)
                if dtype[0] == "u"
                else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
            )
            v = self.pick((0, 1, 2, 3, -1, -3, 7, lo, hi, r.randint(-50, 50)))
            return str(abs(v) if lo == 0 else v)
        specials = ("0.0", "-0.0", "1.5", "-2.25", "3.0", "float('nan')",
                    "float('inf')", "-float('inf')", "1e300", "1e-300", "0.5",
                    "-7.0")  # fmt: skip
        if dtype in COMPLEX:
            return f"complex({self.pick(specials)}, {self.pick(specials)})"
        return self.pick(specials)

    def shape(self) -> tuple[int, ...]:
        return self.pick(((), (1,), (3,), (4,), (5,), (2, 3), (3, 2), (2, 2), (0,),
                          (1, 4), (4,), (4,), (3, 3)))  # fmt: skip

    def literal(self, dtype: str, shape: tuple[int, ...]) -> str:
        n = 1
        for s in shape:
            n *= s
        vals = ", ".join(self.value(dtype) for _ in range(n))
        src = f"np.array([{vals}], dtype={dtype!r})"
        return f"{src}.reshape({shape!r})"

    def scalar(self, dtype: str | None) -> str:
        """A Python scalar, usually one that dtype takes."""
        if dtype is None or self.chance(0.25):
            return self.pick(ODD_SCALARS)
        if dtype == "bool":
            return self.pick(("True", "False", "1"))
        if dtype in INTEGER:
            return self.pick(("0", "1", "2", "3", "-1", "5", "-2", "100", "127", "7"))
        return self.pick(("1.5", "2", "-0.0", "0.0", "0.5", "3", "float('nan')",
                          "-1", "2.0", "1j" if dtype in COMPLEX else "0.25"))  # fmt: skip

    def operand(self, i: int) -> str:
        m = self.slots[i]
        if self.chance(0.55):
            return f"a{self.partner(i)}"
        return self.scalar(m.dtype if m else None)

    # -- steps --
    def create(self) -> str:
        i = self.rng.randrange(N_SLOTS)
        dtype = self.pick(DTYPES)
        shape = self.shape()
        lit = self.literal(dtype, shape)
        kind = self.rng.random()
        meta = Meta(dtype, shape)
        if kind < 0.45:
            expr = f"xp.asarray({lit})"
        elif kind < 0.55:
            expr = f"xp.asarray({lit}, device=CPU1)"
        elif kind < 0.65:
            expr = f"_swapped({lit})"
        elif kind < 0.72:
            expr = f"xp.asarray(_ro({lit}))"
        elif kind < 0.82 and shape and shape[-1] > 0:
            # strided: every other element of a twice as long array
            wide = (*shape[:-1], 2 * shape[-1])
            expr = f"xp.asarray({self.literal(dtype, wide)})[..., ::2]"
        elif kind < 0.88:
            expr = f"xp.full({shape!r}, {self.value(dtype)}, dtype=xp.{dtype})"
        elif kind < 0.94 and shape and 0 not in shape:
            expr = f"xp.flip(xp.asarray({lit}))"
        else:
            expr = f"xp.asarray({lit}, copy=True)"
        self.slots[i] = meta
        return f"a{i} = {expr}"

    def view(self) -> str:
        j = self.slot()
        i = self.rng.randrange(N_SLOTS)
        m = self.slots[j]
        nd = len(m.shape) if m and m.shape is not None else None
        forms = ["a{j}", "a{j}[...]", "xp.reshape(a{j}, (-1,))", "a{j}.T"]
        if nd is None or nd >= 1:
            forms += ["a{j}[1:]", "a{j}[::-1]", "a{j}[::2]", "a{j}[0]"]
        if nd is None or nd >= 2:
            forms += ["a{j}.mT", "a{j}[:, 1:]", "xp.permute_dims(a{j}, (1, 0))"]
        expr = self.pick(forms).format(j=j)
        self.slots[i] = Meta(m.dtype, None) if m else None
        return f"a{i} = {expr}"

    def binary(self) -> str:
        i = self.slot()
        op = self.pick(BINARY_OPS + COMPARE_OPS)
        other = self.operand(i)
        form = self.rng.random()
        if form < 0.5:
            return f"r = a{i} {op} {other}"
        if form < 0.75:
            return f"r = {other} {op} a{i}"
        if op in COMPARE_OPS:
            return f"r = a{i} {op} {other}"
        return f"a{i} {op}= {other}"

    def unary(self) -> str:
        i = self.slot()
        op = self.pick(UNARY_OPS)
        return f"r = abs(a{i})" if op == "abs" else f"r = {op}a{i}"

    def function(self) -> str:
        i = self.slot()
        m = self.slots[i]
        dtype = m.dtype if m else None
        k = self.rng.random()
        if k < 0.3:
            f = self.pick(BINARY_FUNCS)
            a, b = f"a{i}", self.operand(i)
            if self.chance(0.2):
                a, b = b, a
            return f"r = xp.{f}({a}, {b})"
        if k < 0.5:
            return f"r = xp.{self.pick(UNARY_FUNCS)}(a{i})"
        if k < 0.6:
            shape = self.pick(((-1,), (2, -1), (-1, 2), (1, -1), (), (4,), (6,),
                               (2, 3), [4], (2**70,), (-1, -1), (0, -1),
                               (3.0,), (True, -1)))  # fmt: skip
            copy = self.pick(("", ", copy=None", ", copy=True", ", copy=False"))
            return f"r = xp.reshape(a{i}, {shape!r}{copy})"
        if k < 0.67:
            axes = self.pick(((1, 0), (0, 1), (0,), (), (-1, 0), (0, 0), [1, 0]))
            return f"r = xp.permute_dims(a{i}, {axes!r})"
        if k < 0.77:
            parts = [f"a{i}"] + [
                f"a{self.partner(i)}" for _ in range(self.rng.randrange(0, 3))
            ]
            seq = (
                f"[{', '.join(parts)}]"
                if self.chance(0.6)
                else f"({', '.join(parts)},)"
            )
            axis = self.pick(("", ", axis=0", ", axis=-1", ", axis=1", ", axis=None",
                              ", axis=2", ", axis=1.0", ", axis=True"))  # fmt: skip
            return f"r = xp.concat({seq}{axis})"
        if k < 0.87:
            c = self.slot()
            x1 = self.operand(i) if self.chance(0.3) else f"a{i}"
            x2 = self.operand(i)
            cond = f"a{c}" if self.chance(0.5) else f"(a{i} == a{i})"
            return f"r = xp.where({cond}, {x1}, {x2})"
        if k < 0.95:
            target = self.pick(DTYPES)
            copy = self.pick(("", ", copy=True", ", copy=False", ", copy=None"))
            dev = ", device=CPU1" if self.chance(0.1) else ""
            return f"r = xp.astype(a{i}, xp.{target}{copy}{dev})"
        src = self.literal(dtype or "float64", self.shape())
        return f"r = xp.asarray({src})"

    def key(self, i: int) -> str:
        m = self.slots[i]
        nd = len(m.shape) if m and m.shape is not None else 1
        r = self.rng.random()
        ints = ("0", "1", "-1", "2", "-3", "3", "5", "-6", "2**70", "-(2**70)",
                "MyInt(1)", "np.int64(1)", "True", "Hostile()")  # fmt: skip
        slices = ("slice(None)", "slice(1, None)", "slice(None, -1)",
                  "slice(None, None, -1)", "slice(None, None, 2)",
                  "slice(1, 3)", "slice(None, None, 0)", "slice(-10, 10)",
                  "slice(2**70, None)", "slice(1.0, None)",
                  "slice(np.int64(1), None)", "slice(None, None, -2)")  # fmt: skip
        if r < 0.2:
            return self.pick(ints)
        if r < 0.4:
            return self.pick(slices)
        if r < 0.45:
            return self.pick(("...", "()", "None", "(..., None)", "1.0", "'a'"))
        if r < 0.65:
            parts = []
            for _ in range(self.rng.randrange(1, nd + 2)):
                parts.append(self.pick(ints + slices + ("...",)))
            return f"({', '.join(parts)},)"
        if r < 0.78:
            idx = self.pick(("[0, 1]", "[-1, 0, 2]", "[0, 9]", "[]", "[1]", "[-5]"))
            dt = self.pick(("int64", "int32", "uint8", "int8", "int16"))
            dev = ", device=CPU1" if self.chance(0.05) else ""
            return f"xp.asarray({idx}, dtype=xp.{dt}{dev})"
        if r < 0.88:
            # a boolean mask, usually of the right shape
            shape = m.shape if m and m.shape is not None and self.chance(0.7) else (3,)
            return f"xp.asarray({self.literal('bool', shape)})"
        if r < 0.92:
            return f"a{self.slot()}"
        if r < 0.96:
            return self.pick(("[0, 1]", "np.array([0, 1])", "xp.asarray(1)",
                              "xp.asarray(1.0)", "xp.asarray(True)"))  # fmt: skip
        inner = self.pick(("0", "1:", "::-1", "[0, -1]", "...", "-1, ..."))
        return f"ocean_ext.index[{inner}]"

    def getitem(self) -> str:
        i = self.slot()
        return f"r = a{i}[{self.key(i)}]"

    def setitem(self) -> str:
        i = self.slot()
        m = self.slots[i]
        key = self.key(i)
        r = self.rng.random()
        if r < 0.35:
            value = self.scalar(m.dtype if m else None)
        elif r < 0.55:
            # an overlapping view of the target itself
            value = self.pick((f"a{i}[::-1]", f"a{i}", f"a{i}[...]", f"a{i}[:1]",
                               f"a{i}[1:]", f"a{i}.mT"))  # fmt: skip
        else:
            value = f"a{self.partner(i)}"
        return f"a{i}[{key}] = {value}"

    def misc(self) -> str:
        i = self.slot()
        r = self.rng.random()
        if r < 0.25:
            return f"r = a{i}.{self.pick(('shape', 'dtype', 'device', 'ndim', 'size'))}"
        if r < 0.4:
            return f"del a{i}"
        if r < 0.55:
            return f"ocean_ext.set_readonly(a{i})"
        if r < 0.6:
            return f"ocean_ext.set_readonly(a{i}, False)"
        if r < 0.7:
            return f"r = a{i}.mT"
        if r < 0.8:
            return f"r = bool(a{i})" if self.chance(0.5) else f"r = int(a{i})"
        if r < 0.9:
            return f"r = float(a{i})" if self.chance(0.5) else f"r = a{i}.T"
        # a step inside an instrument() block: the compiled path steps aside
        inner = self.pick((self.binary, self.getitem, self.setitem, self.function))()
        return f"with ocean_ext.instrument():\n    {inner}"

    def step(self) -> str:
        if not self.live():
            return self.create()
        r = self.rng.random()
        for p, make in (
            (0.12, self.create),
            (0.2, self.view),
            (0.42, self.binary),
            (0.48, self.unary),
            (0.63, self.function),
            (0.77, self.getitem),
            (0.92, self.setitem),
        ):
            if r < p:
                s = make()
                if s.startswith("del "):
                    self.slots[int(s[5:])] = None
                return s
        s = self.misc()
        if s.startswith("del "):
            self.slots[int(s[5:])] = None
        return s


def draw_program(seed: int, index: int, n_steps: int) -> list[str]:
    """Program ``index`` of the run with ``seed``: its statements."""
    gen = Gen(random.Random(seed * 1_000_003 + index))
    steps = [gen.create() for _ in range(3)]
    steps += [gen.step() for _ in range(n_steps - 3)]
    return steps


def program_text(steps: list[str]) -> str:
    """A program as a script (the prelude, then its statements)."""
    return PRELUDE + "\n" + "\n".join(steps) + "\n"


# --- running them (in a worker interpreter) ----------------------------------------
_ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


def _scrub(text: str) -> str:
    return _ADDRESS.sub("0x?", text)[:300]


def _describe(value: Any, xp: Any, np: Any) -> Any:
    """A value as plain data; arrays bit for bit."""
    if type(value) is xp.Array:
        try:
            h = np.asarray(value)
        except Exception as exc:  # an array whose values cannot be read
            return ["array?", type(exc).__name__, _scrub(str(exc))]
        return [
            "array",
            str(value.dtype),
            str(value.device),
            list(value.shape),
            h.dtype.str,
            list(h.strides),
            bool(h.flags.writeable),
            h.tobytes().hex(),
        ]
    if isinstance(value, (bool, int, float, complex, str, type(None))):
        return [type(value).__name__, repr(value)]
    if isinstance(value, tuple) and all(isinstance(v, int | None) for v in value):
        return ["tuple", repr(value)]
    return [type(value).__name__, _scrub(repr(value))]


def run_program(steps: list[str], plant: int | None = None) -> list[Any]:
    """Run one program; per step: [outcome, warnings, state of the slots].

    ``plant``: record a made-up warning at that step (the fuzz's own test
    that a difference is found and reported)."""
    import numpy as np

    import ocean_array_api as xp

    ns: dict[str, Any] = {}
    exec(compile(PRELUDE, "<prelude>", "exec"), ns)
    names = [f"a{i}" for i in range(N_SLOTS)]
    records: list[Any] = []
    for n, text in enumerate(steps):
        code = compile(text, f"<step {n}>", "exec")
        ns.pop("r", None)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with np.errstate(all="warn"):
                    exec(code, ns)
            except Exception as exc:
                outcome: Any = ["raised", type(exc).__name__, _scrub(str(exc))]
            else:
                outcome = ["ok", _describe(ns["r"], xp, np)] if "r" in ns else ["ok"]
        warned = [[w.category.__name__, _scrub(str(w.message))] for w in caught]
        if n == plant:
            warned.append(["PlantedWarning", "planted by the fuzz's self-test"])
        state = {k: _describe(ns[k], xp, np) for k in names if k in ns}
        records.append([outcome, warned, state])
    return records


def worker(seed: int, start: int, count: int, n_steps: int) -> None:
    """Run programs start .. start+count-1 and print one JSON line each."""
    out = sys.stdout
    plant = os.environ.get("OCEAN_FASTPATH_FUZZ_PLANT")
    for index in range(start, start + count):
        steps = draw_program(seed, index, n_steps)
        records = run_program(steps, int(plant) if plant else None)
        out.write(json.dumps([index, records]) + "\n")
    out.flush()


# --- comparing the two interpreters ------------------------------------------------
@dataclass
class Difference:
    seed: int
    program: int
    step: int
    steps: list[str]
    fast: Any
    slow: Any

    def report(self) -> str:
        lines = [
            f"program {self.program} of seed {self.seed}, step {self.step}: "
            f"{self.steps[self.step]!r}",
            f"  compiled path:    {json.dumps(self.fast)[:2000]}",
            f"  pure Python path: {json.dumps(self.slow)[:2000]}",
            "replay (python -m tests.fuzz_fastpath --show "
            f"{self.program} --seed {self.seed} --steps {len(self.steps)}):",
            program_text(self.steps[: self.step + 1]),
        ]
        return "\n".join(lines)


@dataclass
class Result:
    programs: int = 0
    steps: int = 0
    differences: list[Difference] = field(default_factory=list)
    seconds: float = 0.0
    outcomes: dict[str, int] = field(default_factory=dict)


def _worker_env(fastpath: str, plant: int | None) -> dict[str, str]:
    env = dict(os.environ, OCEAN_ARRAY_API_FASTPATH=fastpath)
    env.pop("OCEAN_ARRAY_API_DEFAULT_DEVICE", None)  # CPU arrays
    env.pop("OCEAN_FASTPATH_FUZZ_PLANT", None)
    if plant is not None and fastpath == "1":
        env["OCEAN_FASTPATH_FUZZ_PLANT"] = str(plant)
    env["PYTHONHASHSEED"] = "0"
    return env


def _spawn(
    fastpath: str, seed: int, start: int, count: int, n_steps: int, plant: int | None
) -> Any:
    cmd = [
        sys.executable, "-m", "tests.fuzz_fastpath", "--worker",
        "--seed", str(seed), "--start", str(start), "--programs", str(count),
        "--steps", str(n_steps),
    ]  # fmt: skip
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=_worker_env(fastpath, plant),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _lines(proc: Any) -> Iterator[Any]:
    for line in proc.stdout:
        yield json.loads(line)


def run(
    seed: int,
    programs: int,
    n_steps: int = 25,
    chunk: int = 200,
    limit: int = 5,
    plant: int | None = None,
) -> Result:
    """Run ``programs`` programs in both modes, ``chunk`` programs per pair
    of worker interpreters; stop after ``limit`` differing programs.
    ``plant``: a step at which the compiled worker records a made-up
    warning (the fuzz's own test)."""
    res = Result()
    t0 = time.perf_counter()
    for start in range(0, programs, chunk):
        count = min(chunk, programs - start)
        fast = _spawn("1", seed, start, count, n_steps, plant)
        slow = _spawn("0", seed, start, count, n_steps, plant)
        try:
            pairs = zip(_lines(fast), _lines(slow), strict=False)
            for (i, rf), (j, rs) in pairs:
                assert i == j
                res.programs += 1
                res.steps += len(rf)
                for rec in rf:
                    key = rec[0][0] if rec[0][0] == "ok" else f"raised {rec[0][1]}"
                    res.outcomes[key] = res.outcomes.get(key, 0) + 1
                if rf != rs:
                    step = next(
                        k for k, (a, b) in enumerate(zip(rf, rs, strict=True)) if a != b
                    )
                    steps = draw_program(seed, i, n_steps)
                    res.differences.append(
                        Difference(seed, i, step, steps, rf[step], rs[step])
                    )
            for proc, name in ((fast, "compiled"), (slow, "pure Python")):
                _, err = proc.communicate()
                if proc.returncode != 0:
                    msg = (
                        f"the {name} worker (programs {start}..{start + count - 1})"
                        f" exited with status {proc.returncode}:\n{err[-3000:]}"
                    )
                    raise RuntimeError(msg)
        finally:
            for proc in (fast, slow):
                if proc.poll() is None:
                    proc.kill()
                proc.communicate()
        if len(res.differences) >= limit:
            break
    res.seconds = time.perf_counter() - t0
    return res


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=20251201)
    p.add_argument("--programs", type=int, default=300)
    p.add_argument("--steps", type=int, default=25)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--chunk", type=int, default=200)
    p.add_argument("--show", type=int, default=None, help="print program N")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker(args.seed, args.start, args.programs, args.steps)
        return 0
    if args.show is not None:
        print(program_text(draw_program(args.seed, args.show, args.steps)))
        return 0
    res = run(args.seed, args.programs, args.steps, args.chunk, limit=20)
    for d in res.differences:
        print(d.report(), end="\n\n")
    print(
        f"{res.programs} programs, {res.steps} steps in {res.seconds:.1f} s, "
        f"{len(res.differences)} differing programs; outcomes: "
        + ", ".join(f"{k}: {v}" for k, v in sorted(res.outcomes.items()))
    )
    return 1 if res.differences else 0


if __name__ == "__main__":
    sys.exit(main())
