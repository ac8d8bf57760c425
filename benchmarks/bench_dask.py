#!/usr/bin/env python3
"""Time ocean_array_api on the ``dask`` device against dask itself and
array_api_compat.dask.array, in one run.

The timing method is ``bench.py``'s (each statement compiled into its own
loop, calibrated samples, libraries interleaved in rotating order, median of
the repetitions), reused from it.  Every statement builds the graph *and* runs
it (``.compute()`` on the dask array; ocean's result goes through
``ocean_ext.to_dask``, the same final step), on dask's default (threaded)
scheduler, except the ``build_*`` cases, which time graph construction alone
(the per-call overhead of a lazy library).

Inputs (fixed seed): float64 vectors of ``--size`` elements (1e6; 1e5 with
``--quick``) in ``--chunks`` chunks (8), and square matrices of side
sqrt(size) in 2 x 2 blocks.  Where dask has no function of its own, the
baseline is what array_api_compat does (``sort``: one chunk, then NumPy's
sort per chunk); ocean's ``sort``/``argsort``/``unique_*`` keep the chunks
(a sample sort, see ``backends/ocean_dask/_sort.py``).  The last
columns are the ratios ocean / dask and ocean / compat.  Nothing here asserts
on speed.

Usage::

    python3 benchmarks/bench_dask.py                 # every case (a minute or two)
    python3 benchmarks/bench_dask.py --quick         # smaller inputs (CI smoke)
    python3 benchmarks/bench_dask.py --ops 'sort*,unique*' --size 4e6 --chunks 16
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

_HERE = Path(__file__).resolve().parent
for _p in (str(_HERE), str(_HERE.parent), str(_HERE.parent / "backends")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import bench  # noqa: E402  (the timing machinery)
from bench import Case, Cell, Library, Timed, Unavailable  # noqa: E402


# --- libraries -----------------------------------------------------------------
def _dask() -> Library:
    try:
        import dask
        import dask.array as da
    except ImportError as exc:
        raise Unavailable(f"dask is not installed ({exc})") from None
    return Library("dask", "dask.array", da, np.asarray, version=dask.__version__)


def _compat() -> Library:
    try:
        import array_api_compat
        import array_api_compat.dask.array as cxp
    except ImportError as exc:
        raise Unavailable(f"array_api_compat is not installed ({exc})") from None
    return Library(
        "compat",
        "array_api_compat.dask.array",
        cxp,
        np.asarray,
        version=array_api_compat.__version__,
    )


def _ocean() -> Library:
    import ocean_array_api as xp

    if "dask" not in {d.kind for d in xp.__array_namespace_info__().devices()}:
        raise Unavailable("ocean_array_api has no dask device (install dask)")
    return Library(
        "ocean", "ocean_array_api (device dask)", xp, np.asarray, version="(source)"
    )


# baseline first
LIBRARIES: dict[str, Callable[[], Library]] = {
    "dask": _dask,
    "compat": _compat,
    "ocean": _ocean,
}


# --- inputs ----------------------------------------------------------------------
class DaskInputs:
    """Chunked inputs of one run, in every library's form (made once)."""

    def __init__(self, n: int, chunks: int, seed: int = 12345) -> None:
        rng = np.random.default_rng(seed)
        self.n = n
        self.chunks = chunks
        self.x = rng.random(n)
        self.y = rng.random(n)
        self.ints = rng.integers(0, max(n // 100, 2), n)
        side = math.isqrt(n)
        self.a = rng.random((side, side))
        self.b = rng.random((side, side))
        self._cache: dict[tuple[str, str], Any] = {}

    def get(self, lib: Library, name: str) -> Any:
        """Input ``name`` (x, y, ints, a, b) as a dask array (dask, compat) or
        an ocean array on the dask device; the same chunks for all."""
        key = (lib.key, name)
        if key not in self._cache:
            import dask.array as da

            data = getattr(self, name)
            if data.ndim == 1:
                chunks: Any = -(-data.shape[0] // self.chunks)
            else:
                chunks = tuple(-(-s // 2) for s in data.shape)
            d = da.from_array(data, chunks=chunks)
            # keep the inputs in the graph as chunks (no from_array getter
            # per compute): persist them once, for every library alike
            d = d.persist()
            if lib.key == "ocean":
                import ocean_ext

                d = ocean_ext.from_dask(d)
            self._cache[key] = d
        return self._cache[key]


# --- cases -----------------------------------------------------------------------
DaskSetup = Callable[[Library, int, DaskInputs], Timed]
CASES: dict[str, Case] = {}


def case(name: str, *, doc: str) -> Callable[[DaskSetup], DaskSetup]:
    def register(setup: DaskSetup) -> DaskSetup:
        CASES[name] = Case(name, setup, doc)  # type: ignore[arg-type]
        return setup

    return register


def _run(lib: Library, expr: str, **names: Any) -> Timed:
    """``expr`` (in terms of ``xp`` and the inputs) built and computed."""
    if lib.key == "ocean":
        import ocean_ext

        return Timed(
            f"to_dask({expr}).compute()", xp=lib.xp, to_dask=ocean_ext.to_dask, **names
        )
    return Timed(f"({expr}).compute()", xp=lib.xp, **names)


@case("sum_add", doc="sum(x + y)")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    return _run(lib, "xp.sum(x + y)", x=inp.get(lib, "x"), y=inp.get(lib, "y"))


@case("std", doc="std(x)")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    return _run(lib, "xp.std(x)", x=inp.get(lib, "x"))


@case("elementwise", doc="sin(x) * 2 + y ** 2 (whole array computed)")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    return _run(lib, "xp.sin(x) * 2 + y ** 2", x=inp.get(lib, "x"), y=inp.get(lib, "y"))


@case("mask_sum", doc="sum(x[x > 0.5])")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    return _run(lib, "xp.sum(x[x > 0.5])", x=inp.get(lib, "x"))


@case("matmul", doc="a @ b (square, 2 x 2 blocks)")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    return _run(lib, "a @ b", a=inp.get(lib, "a"), b=inp.get(lib, "b"))


@case("sort", doc="sort(x); dask: one chunk, then np.sort (what compat does)")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    x = inp.get(lib, "x")
    if lib.key == "dask":
        return Timed("x.rechunk(-1).map_blocks(np.sort).compute()", x=x, np=np)
    return _run(lib, "xp.sort(x)", x=x)


@case("argsort", doc="argsort(x); dask: one chunk, then np.argsort")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    x = inp.get(lib, "x")
    if lib.key == "dask":
        return Timed("x.rechunk(-1).map_blocks(np.argsort).compute()", x=x, np=np)
    return _run(lib, "xp.argsort(x)", x=x)


@case("unique_values", doc="unique_values(ints), about n/100 distinct; dask: da.unique")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    x = inp.get(lib, "ints")
    if lib.key == "dask":
        return Timed("xp.unique(x).compute()", xp=lib.xp, x=x)
    return _run(lib, "xp.unique_values(x)", x=x)


@case("unique_counts", doc="unique_counts(ints); dask: da.unique(return_counts=True)")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    x = inp.get(lib, "ints")
    if lib.key == "dask":
        import dask

        return Timed(
            "dask.compute(*xp.unique(x, return_counts=True))", dask=dask, xp=lib.xp, x=x
        )
    if lib.key == "ocean":
        import ocean_ext

        return Timed(
            "u = xp.unique_counts(x); compute(u.values, u.counts)",
            xp=lib.xp, x=x, compute=ocean_ext.compute,
        )  # fmt: skip
    import dask

    return Timed(
        "u = xp.unique_counts(x); dask.compute(u.values, u.counts)",
        xp=lib.xp, x=x, dask=dask,
    )  # fmt: skip


# --- graph construction alone (per-operation overhead of a lazy library) ----------
# One statement per operation; where dask spells it differently from the
# standard, the dask column uses dask's own spelling.
_BUILD: dict[str, tuple[str, str, str]] = {
    # name: (standard expression, dask expression, inputs)
    "add": ("x + y", "x + y", "xy"),
    "sin": ("xp.sin(x)", "xp.sin(x)", "x"),
    "astype": ("xp.astype(x, xp.float32)", "x.astype(np.float32)", "x"),
    "sum": ("xp.sum(x)", "xp.sum(x)", "x"),
    "mean_axis": ("xp.mean(a, axis=0)", "xp.mean(a, axis=0)", "a"),
    "std": ("xp.std(x)", "xp.std(x)", "x"),
    "max": ("xp.max(a, axis=1)", "xp.max(a, axis=1)", "a"),
    "slice": ("x[10:-10]", "x[10:-10]", "x"),
    "int_index": ("a[3]", "a[3]", "a"),
    "matmul": ("a @ b", "a @ b", "ab"),
    "reshape": ("xp.reshape(a, (-1,))", "xp.reshape(a, (-1,))", "a"),
    "permute": ("xp.permute_dims(a, (1, 0))", "xp.transpose(a, (1, 0))", "a"),
    "concat": ("xp.concat([x, y])", "xp.concatenate([x, y])", "xy"),
    "stack": ("xp.stack([x, y])", "xp.stack([x, y])", "xy"),
    "where": ("xp.where(x > 0.5, x, y)", "xp.where(x > 0.5, x, y)", "xy"),
    "compare": ("x < y", "x < y", "xy"),
}


def _build_case(op: str, std: str, plain: str, names: str) -> None:
    @case(f"build_{op}", doc=f"graph only: {std}, no compute")
    def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
        bound = {"x": "x", "y": "y", "a": "a", "b": "b"}
        env = {v: inp.get(lib, v) for k, v in bound.items() if k in names}
        return Timed(plain if lib.key == "dask" else std, xp=lib.xp, np=np, **env)


for _op, (_std, _plain, _names) in _BUILD.items():
    _build_case(_op, _std, _plain, _names)


@case("build_chain", doc="graph only: 10 elementwise operations, no compute")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    stmt = "x"
    for _ in range(10):
        stmt = f"(({stmt}) * 1.5 + 1.0)"
    return Timed(stmt, xp=lib.xp, x=inp.get(lib, "x"))


@case("build_reduce", doc="graph only: mean(x, axis=0) of a matrix, no compute")
def _(lib: Library, n: int, inp: DaskInputs) -> Timed:
    return Timed("xp.mean(a, axis=0)", xp=lib.xp, a=inp.get(lib, "a"))


# --- running ---------------------------------------------------------------------
def _ratio(cells: dict[str, Cell], key: str, base: str) -> float | None:
    a, b = cells.get(key), cells.get(base)
    if a is None or b is None or a.value_ns is None or b.value_ns is None:
        return None
    return a.value_ns / b.value_ns


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description="ocean_array_api (device dask) against dask and array_api_compat."
    )
    p.add_argument("--quick", action="store_true", help="1e5 elements (CI smoke run)")
    p.add_argument("--size", type=float, help="elements per vector (default 1e6)")
    p.add_argument("--chunks", type=int, default=8, help="chunks per vector (8)")
    p.add_argument("--ops", help="comma-separated case names or glob patterns")
    p.add_argument("--reps", type=int, help="maximum repetitions (default 11; 3 quick)")
    p.add_argument("--budget-s", type=float, help="time budget per case (default 4)")
    p.add_argument("--stat", choices=("median", "min"), default="median")
    p.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    args = p.parse_args(argv)

    if args.list:
        for c in CASES.values():
            print(f"{c.name:<14} {c.doc}")
        return 0
    libs: list[Library] = []
    for key, make in LIBRARIES.items():
        try:
            libs.append(make())
        except Unavailable as exc:
            if key in ("dask", "ocean"):
                print(f"bench_dask.py: cannot run without {key}: {exc}")
                return 0
            print(f"bench_dask.py: leaving out {key}: {exc}")
    selected = list(CASES.values())
    if args.ops:
        pats = [s.strip() for s in args.ops.split(",") if s.strip()]
        selected = [
            c for c in selected if any(fnmatch.fnmatch(c.name, q) for q in pats)
        ]
    quick = args.quick
    n = int(args.size or (1e5 if quick else 1e6))
    inp = DaskInputs(n, args.chunks)
    reps = args.reps or (3 if quick else 11)
    budget_ns = int((args.budget_s or (0.5 if quick else 4.0)) * 1e9)
    min_sample_ns = 200_000 if quick else 1_000_000

    import dask

    print(
        f"Python {platform.python_version()} on {platform.machine()} ({os.cpu_count()} CPUs); "
        + ", ".join(f"{lib.label} {lib.version}".strip() for lib in libs)
    )
    print(
        f"vectors of {n:,} float64 in {args.chunks} chunks; matrices "
        f"{math.isqrt(n)} x {math.isqrt(n)} in 2 x 2 blocks; scheduler: "
        f"{dask.config.get('scheduler', 'threads')}"
    )
    print(f"{args.stat} of up to {reps} interleaved samples; times are per call\n")

    t0 = time.perf_counter()
    rows = []
    for c in selected:
        cells = bench.run_case(
            c, n, inp, libs,  # type: ignore[arg-type]
            reps=reps, min_reps=min(reps, 3), min_sample_ns=min_sample_ns,
            budget_ns=budget_ns, stat=args.stat,
        )  # fmt: skip
        rows.append((c, cells))
    elapsed = time.perf_counter() - t0

    keys = [lib.key for lib in libs]
    has_compat = "compat" in keys
    head = f"{'case':<15}" + "".join(f"{k:>12}" for k in keys) + f"{'ocean/dask':>12}"
    head += f"{'ocean/compat':>14}" if has_compat else ""
    print(head)
    print("-" * len(head))
    results = []
    vs_dask: list[float] = []
    vs_compat: list[float] = []
    for c, cells in rows:
        line = f"{c.name:<15}"
        for k in keys:
            cell = cells[k]
            text = bench._fmt_ns(cell.value_ns) if cell.status == "ok" else cell.status
            line += f"{text + ('~' if cell.status == 'ok' and cell.noisy else ''):>12}"
        rd = _ratio(cells, "ocean", "dask")
        rc = _ratio(cells, "ocean", "compat") if has_compat else None
        line += f"{(f'{rd:.2f}x' if rd else '-'):>12}"
        if has_compat:
            line += f"{(f'{rc:.2f}x' if rc else '-'):>14}"
        print(line)
        for k in keys:
            if cells[k].status == "missing":
                print(f"    {k}: {cells[k].detail}")
        if rd:
            vs_dask.append(rd)
        if rc:
            vs_compat.append(rc)
        results.append(
            {
                "case": c.name,
                "doc": c.doc,
                "ratio_dask": rd,
                "ratio_compat": rc,
                "ns": {k: cells[k].value_ns for k in keys},
            }
        )
    build = [r for r in results if r["case"].startswith("build_")]
    for key, label in (("ratio_dask", "dask"), ("ratio_compat", "compat")):
        rs = [r[key] for r in build if r[key]]
        if rs:
            print(
                f"\ngraph construction, ocean/{label}: geometric mean "
                f"{statistics.geometric_mean(rs):.2f}x, worst {max(rs):.2f}x "
                f"({len(rs)} cases)",
                end="",
            )
    if build:
        print()
    if vs_dask:
        print(
            f"\ngeometric mean ocean/dask:   {statistics.geometric_mean(vs_dask):.2f}x"
        )
    if vs_compat:
        print(
            f"geometric mean ocean/compat: {statistics.geometric_mean(vs_compat):.2f}x"
        )
    print(f"({elapsed:.0f} s; '~': a noisy cell, median > 1.25x the fastest sample)")
    if args.json:
        path = Path(args.json)
        path.write_text(
            json.dumps({"n": n, "chunks": args.chunks, "results": results}, indent=1)
        )
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
