#!/usr/bin/env python3
"""Where threads start to pay: the size thresholds of ``ocean_cpu._parallel``.

For each kind of work (``copy``: memory-bound elementwise work, copies and
casts; ``math``: exp, sin, log...; ``reduce``: reductions) and a few
operations of each, this times the CPU table's entry on float64 arrays of
sizes 2**12 to 2**22, the one-call path (the threshold out of reach) against
the parallel strategy (threshold 0) on all threads, interleaved, and prints
the ratio parallel / one call, then per kind the smallest size from which
every operation of the kind is at least ``--gain`` faster on threads: the
threshold to put in ``_parallel.LIMITS``.  A measurement, not a test::

    python3 benchmarks/bench_threshold.py            # about a minute
    python3 benchmarks/bench_threshold.py --reps 31 --gain 0.9
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

_ROOT = Path(__file__).resolve().parent.parent
for _p in (_ROOT, _ROOT / "backends"):
    if str(_p) not in sys.path:
        sys.path.insert(0, str(_p))

from ocean_cpu import _parallel  # noqa: E402
from ocean_cpu import backend as _cpu  # noqa: E402

OPS = _cpu.ops
F64 = np.dtype(np.float64)

# kind -> {label: (entry, arguments made from x, y)}
CASES: dict[str, dict[str, Any]] = {
    "copy": {
        "x + y": lambda x, y: (OPS["add"], (x, y)),
        "x * 2.5": lambda x, y: (OPS["multiply"], (x, 2.5)),
        "x < y": lambda x, y: (OPS["less"], (x, y)),
        "astype f32": lambda x, y: (OPS["astype"], (x, np.dtype(np.float32), True)),
        "where": lambda x, y: (OPS["where"], (x < 0.5, x, y)),
    },
    "math": {
        "exp": lambda x, y: (OPS["exp"], (x,)),
        "sin": lambda x, y: (OPS["sin"], (x,)),
        "log": lambda x, y: (OPS["log"], (x,)),
        "x / y": lambda x, y: (OPS["divide"], (x, y)),
        "sqrt": lambda x, y: (OPS["sqrt"], (x,)),
    },
    "reduce": {
        "sum": lambda x, y: (OPS["sum"], (x, None, F64, False)),
        "max": lambda x, y: (OPS["max"], (x, None, False)),
        "mean": lambda x, y: (OPS["mean"], (x, None, False)),
    },
}
# which threshold an operation's entry uses (``x / y`` and ``sqrt`` are
# memory-bound entries in the table, measured here beside the math ones)
KIND_OF = {"x / y": "copy", "sqrt": "copy"}


def _time(func: Any, args: tuple[Any, ...], min_ns: int) -> float:
    """ns per call over a loop of at least ``min_ns``."""
    number = 1
    while True:
        gc.disable()
        t0 = time.perf_counter_ns()
        for _ in range(number):
            func(*args)
        ns = time.perf_counter_ns() - t0
        gc.enable()
        if ns >= min_ns:
            return ns / number
        number *= 2


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=11, help="interleaved samples")
    p.add_argument(
        "--gain", type=float, default=0.95, help="ratio that counts as a win"
    )
    p.add_argument("--min-sample-us", type=float, default=2000.0)
    p.add_argument("--max-log2", type=int, default=22)
    args = p.parse_args(argv)
    big = 1 << 60
    sizes = [1 << k for k in range(12, args.max_log2 + 1)]
    rng = np.random.default_rng(1)
    threads = _parallel.current_threads()
    print(f"{threads} threads; ratio = parallel strategy / one call (median of "
          f"{args.reps}); NumPy {np.__version__}")  # fmt: skip
    found: dict[str, int | None] = {}
    for kind, cases in CASES.items():
        print(f"\n{kind}:")
        print("  size     " + "".join(f"{label:>12}" for label in cases))
        wins: dict[str, list[bool]] = {label: [] for label in cases}
        for n in sizes:
            x = rng.random(n) + 0.5
            y = rng.random(n) + 0.5
            row = []
            for label, make in cases.items():
                func, fargs = make(x, y)
                samples: dict[str, list[float]] = {"one": [], "par": []}
                for r in range(args.reps):
                    order = ("one", "par") if r % 2 else ("par", "one")
                    for which in order:
                        sizes_kw = dict.fromkeys(
                            _parallel.LIMITS, big if which == "one" else 0
                        )
                        with _parallel.limits(**sizes_kw):
                            samples[which].append(
                                _time(func, fargs, int(args.min_sample_us * 1000))
                            )
                ratio = statistics.median(samples["par"]) / statistics.median(
                    samples["one"]
                )
                wins[label].append(ratio <= args.gain)
                row.append(f"{ratio:12.2f}")
            print(f"  2**{n.bit_length() - 1:<5}" + "".join(row))
        for label in cases:
            k = KIND_OF.get(label, kind)
            # the smallest size from which this operation always wins
            first = None
            for i in range(len(sizes) - 1, -1, -1):
                if not wins[label][i]:
                    break
                first = sizes[i]
            prev = found.get(k, 0)
            if first is None or prev is None:
                found[k] = None
            else:
                found[k] = max(prev, first)
    print("\nthresholds (every operation of the kind wins from there on):")
    for kind, n in found.items():
        current = _parallel.LIMITS[kind][1]
        text = (
            "never within the sizes measured"
            if n is None
            else f"2**{n.bit_length() - 1}"
        )
        print(f"  {kind:<7} {text}   (now 2**{current.bit_length() - 1})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
