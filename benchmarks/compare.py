#!/usr/bin/env python3
"""Compare two builds of ocean_array_api with ``bench.py``, interleaved.

Two checkouts (each built in place: ``python setup.py build_ext --inplace``)
cannot be imported by one interpreter, so this runs ``bench.py`` of each in
turn, ``--rounds`` times (A, B, A, B, ...), each time against NumPy in the
same process, and compares the ratios to NumPy: per operation the median
over the rounds, then the geometric mean over the small sizes (below
100,000 elements, as ``bench.py``'s summary) of each build, and their
quotient.  Interleaving the runs lets a noisy neighbour slow both builds
alike; the ratio to NumPy, timed in the same run, cancels what remains.

Usage::

    python benchmarks/compare.py --base ../ocean-be0600e --rounds 4 \\
        -- --sizes 8,1000 --stat min

Everything after ``--`` goes to ``bench.py``; ``--json`` and
``--import-runs 0`` are added.  The current checkout is B unless ``--new``
names another.  Not a test: nothing here asserts on speed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
SMALL_LIMIT = 100_000


def ratios(path: Path) -> dict[tuple[str, int], float]:
    """(op, size) -> ocean time / NumPy time, from a bench.py --json file."""
    cells: dict[tuple[str, int], dict[str, float]] = {}
    for r in json.loads(path.read_text())["results"]:
        if r["status"] == "ok" and r.get("value_ns"):
            cells.setdefault((r["op"], r["size"]), {})[r["library"]] = r["value_ns"]
    return {
        k: v["ocean"] / v["numpy"]
        for k, v in cells.items()
        if "ocean" in v and "numpy" in v
    }


def run_bench(root: Path, args: list[str], out: Path) -> None:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "backends")])
    cmd = [sys.executable, str(root / "benchmarks" / "bench.py"), *args]
    cmd += ["--json", str(out), "--import-runs", "0"]
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, cwd=root)


def geomean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    bench_args: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, bench_args = argv[:i], argv[i + 1 :]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--base", required=True, type=Path, help="checkout A (built)")
    p.add_argument("--new", default=HERE, type=Path, help="checkout B (built)")
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--show", type=int, default=12, help="operations listed")
    args = p.parse_args(argv)
    runs: dict[str, list[dict[tuple[str, int], float]]] = {"A": [], "B": []}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for name, root in (("A", args.base), ("B", args.new)):
                out = Path(tmp) / f"{name}{r}.json"
                run_bench(root.resolve(), bench_args, out)
                runs[name].append(ratios(out))
                print(f"round {r + 1}/{args.rounds}: {name} done", file=sys.stderr)
    keys = sorted(set.intersection(*(set(d) for d in runs["A"] + runs["B"])))
    small = [k for k in keys if k[1] < SMALL_LIMIT]
    med = {
        name: {k: statistics.median(d[k] for d in runs[name]) for k in keys}
        for name in runs
    }
    ga = geomean([med["A"][k] for k in small])
    gb = geomean([med["B"][k] for k in small])
    print(f"A: {args.base}\nB: {args.new}")
    print(f"{args.rounds} interleaved rounds of bench.py {' '.join(bench_args)}")
    for r in range(args.rounds):
        a = geomean([runs["A"][r][k] for k in small])
        b = geomean([runs["B"][r][k] for k in small])
        print(f"  round {r + 1}: A {a:.4f}x NumPy, B {b:.4f}x NumPy, B/A {b / a:.4f}")
    print(
        f"small arrays ({len(small)} cells), geometric mean of the per-cell "
        f"median ratios to NumPy: A {ga:.4f}x, B {gb:.4f}x; B/A {gb / ga:.4f}"
    )
    rows = sorted(small, key=lambda k: med["B"][k] / med["A"][k])
    for label, part in (
        ("B slower", rows[::-1][: args.show]),
        ("B faster", rows[: args.show]),
    ):
        print(f"{label}:")
        for k in part:
            q = med["B"][k] / med["A"][k]
            print(
                f"  {k[0]:<26} {k[1]:>6}  B/A {q:.3f}  (A {med['A'][k]:.3f}x, B {med['B'][k]:.3f}x)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
