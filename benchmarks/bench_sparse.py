#!/usr/bin/env python3
"""Time ocean_ext.sparse against SciPy and pydata/sparse, in one run.

The sparse cases of ``bench.py`` live here, because their baselines
are SciPy's sparse formats, not NumPy: the timing method is ``bench.py``'s
(each statement compiled into its own loop, calibrated samples, libraries
interleaved in rotating order, median of the repetitions), reused from it.

Inputs (fixed seed): a 2-D array of shape (1e5, 1e5) with 1e6 random entries,
and a 3-D array of shape (1e3, 1e3, 1e3) with 1e6 entries (``--quick``: ten
times fewer entries and a side ten times smaller).  Each case names the
SciPy baseline its target refers to (CSR, or the n-d ``coo_array``) and the
target itself, a ratio ``ocean / scipy`` or an absolute time; the last column
says whether the run met it.  Nothing here asserts on speed.

With ``--device cuda:N`` the same cases run on a GPU: ours on ``cuda:N``
against ``cupyx.scipy.sparse`` (CSR for 2-D; it has no n-d format, so the 3-D
cases read ``n/a``), synchronised at the end of every sample; the target
column keeps the CPU targets, read against CuPy's CSR.

Usage::

    python3 benchmarks/bench_sparse.py              # every case (about a minute)
    python3 benchmarks/bench_sparse.py --quick      # smaller inputs (CI smoke)
    python3 benchmarks/bench_sparse.py --ops 'sum*' --json sparse.json
    python3 benchmarks/bench_sparse.py --device cuda:0   # against cupyx.scipy.sparse
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

_HERE = Path(__file__).resolve().parent
for _p in (str(_HERE), str(_HERE.parent)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import bench  # noqa: E402  (the timing machinery)
from bench import (  # noqa: E402
    Case,
    Cell,
    Library,
    NotApplicable,
    Timed,
    Unavailable,
)

# --- libraries -----------------------------------------------------------------
# The device of the run: "cpu", or "cuda:N" (--device), set once by main().
DEVICE = "cpu"


def _ocean() -> Library:
    import ocean_array_api as xp
    from ocean_ext import sparse

    if DEVICE == "cpu":
        return Library(
            "ocean", "ocean_ext.sparse", sparse, xp.asarray, version="(source)"
        )
    devices = {str(d): d for d in xp.__array_namespace_info__().devices()}
    dev = devices.get(DEVICE)
    if dev is None:
        raise Unavailable(f"no device {DEVICE} here (devices: {', '.join(devices)})")
    backend, index = dev._backend, dev.index

    def sync() -> None:  # the standard has none: look behind the curtain
        backend.synchronize(index)

    def put(a: Any) -> Any:
        return xp.asarray(a, device=dev)

    return Library(
        "ocean", "ocean_ext.sparse", sparse, put, sync, "(source)", device=DEVICE
    )


def _cupyx() -> Library:
    """cupyx.scipy.sparse on the GPU of ``DEVICE`` (the baseline of --device cuda:N)."""
    try:
        import cupy as cp
        import cupyx.scipy.sparse as csp
    except ImportError as exc:
        raise Unavailable(f"CuPy is not installed ({exc})") from None
    index = int(DEVICE.partition(":")[2] or 0)
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as exc:
        raise Unavailable(f"no CUDA device ({exc})") from None
    if index >= count:
        raise Unavailable(f"no CUDA device {index} ({count} present)")
    cp.cuda.Device(index).use()
    return Library(
        "cupyx",
        "cupyx.scipy.sparse",
        csp,
        cp.asarray,
        cp.cuda.get_current_stream().synchronize,
        cp.__version__,
        device=DEVICE,
    )


def _scipy() -> Library:
    try:
        import scipy
        import scipy.sparse as sps
    except ImportError as exc:
        raise Unavailable(f"SciPy is not installed ({exc})") from None
    return Library("scipy", "SciPy", sps, np.asarray, version=scipy.__version__)


def _pydata() -> Library:
    try:
        import sparse
    except ImportError as exc:
        raise Unavailable(f"pydata/sparse is not installed ({exc})") from None
    return Library(
        "pydata", "pydata/sparse", sparse, np.asarray, version=sparse.__version__
    )


LIBRARIES: dict[str, Callable[[], Library]] = {
    "ocean": _ocean,
    "scipy": _scipy,
    "pydata": _pydata,
}
# --device cuda:N: ours against CuPy's sparse formats (the baseline, first)
GPU_LIBRARIES: dict[str, Callable[[], Library]] = {
    "cupyx": _cupyx,
    "ocean": _ocean,
}


# --- inputs ----------------------------------------------------------------------
class SparseInputs:
    """The random sparse arrays of one run, made once, in every library's form."""

    def __init__(self, side2: int, side3: int, nnz: int, seed: int = 12345) -> None:
        self.side2 = side2
        self.side3 = side3
        self.nnz = nnz
        self.seed = seed
        self._cache: dict[str, Any] = {}

    def _get(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def coords2(self, which: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Unsorted (ndim, nnz) coordinates (with a few repeats) and values."""

        def make() -> tuple[np.ndarray, np.ndarray]:
            rng = np.random.default_rng(self.seed + which)
            c = rng.integers(0, self.side2, (2, self.nnz))
            return c, rng.random(self.nnz)

        return self._get(f"c2-{which}", make)  # type: ignore[no-any-return]

    def coords3(self) -> tuple[np.ndarray, np.ndarray]:
        def make() -> tuple[np.ndarray, np.ndarray]:
            rng = np.random.default_rng(self.seed + 7)
            c = rng.integers(0, self.side3, (3, self.nnz))
            return c, rng.random(self.nnz)

        return self._get("c3", make)  # type: ignore[no-any-return]

    def shape2(self) -> tuple[int, int]:
        return (self.side2, self.side2)

    def shape3(self) -> tuple[int, int, int]:
        return (self.side3,) * 3

    def array(self, lib: Library, name: str) -> Any:
        """Array ``name`` ("a", "b": another pattern, "a2": a's pattern with other
        values, "t": 3-D) in ``lib``'s format (SciPy: CSR for 2-D, n-d COO)."""

        def make() -> Any:
            if name == "t":
                c, d = self.coords3()
                shape: tuple[int, ...] = self.shape3()
            else:
                c, d = self.coords2(1 if name == "b" else 0)
                shape = self.shape2()
            if lib.key == "ocean":
                import ocean_array_api as xp

                coo = lib.xp.COO
                s = coo(lib.from_numpy(c), lib.from_numpy(d), shape)
                if name == "a2":
                    s = coo(s.coords, xp.multiply(s.data, 2.0), shape)
                return s
            if lib.key == "cupyx":
                if name == "t":
                    raise NotApplicable("cupyx.scipy.sparse has no n-d format")
                put = lib.from_numpy
                m = lib.xp.coo_matrix((put(d), (put(c[0]), put(c[1]))), shape=shape)
                m.sum_duplicates()
                m = m.tocsr()
                if name == "a2":
                    m = m.copy()
                    m.data *= 2.0
                return m
            if lib.key == "scipy":
                import scipy.sparse as sps

                m = sps.coo_array((d, tuple(c)), shape=shape)
                m.sum_duplicates()
                if name == "t":
                    return m
                m = m.tocsr()
                if name == "a2":
                    m = m.copy()
                    m.data *= 2.0
                return m
            p = lib.xp.COO(c, d, shape=shape)
            if name == "a2":
                p = lib.xp.COO(p.coords, p.data * 2.0, shape=shape)
            return p

        return self._get(f"{lib.key}-{name}", make)

    def vector(self, lib: Library) -> Any:
        def make() -> Any:
            x = np.random.default_rng(self.seed + 3).random(self.side2)
            if lib.key in ("ocean", "cupyx"):
                return lib.from_numpy(x)
            return x

        return self._get(f"{lib.key}-x", make)


# --- cases -----------------------------------------------------------------------
@dataclass
class Target:
    """What "done" means for a case: ``ocean / scipy <= ratio`` or ``ocean <= ns``."""

    baseline: str  # the SciPy format the ratio refers to
    ratio: float | None = None
    ns: float | None = None

    def describe(self) -> str:
        if self.ns is not None:
            return f"< {bench._fmt_ns(self.ns)}"
        return f"<= {self.ratio:g}x {self.baseline}"


SparseSetup = Callable[[Library, int, SparseInputs], Timed]
CASES: dict[str, tuple[Case, Target]] = {}


def case(
    name: str, *, doc: str, target: Target
) -> Callable[[SparseSetup], SparseSetup]:
    """Register a sparse case: ``setup(lib, n, inp) -> Timed`` as in bench.py."""

    def register(setup: SparseSetup) -> SparseSetup:
        CASES[name] = (Case(name, setup, doc), target)  # type: ignore[arg-type]
        return setup

    return register


@case(
    "construct",
    doc="COO(coords, data, shape) from unsorted 2-D coordinates; SciPy: COO to CSR",
    target=Target("csr", ratio=5.0),
)
def _(lib: Library, n: int, inp: SparseInputs) -> Timed:
    c, d = inp.coords2()
    shape = inp.shape2()
    if lib.key == "ocean":
        return Timed(
            "f(c, d, shape)",
            f=lib.xp.COO,
            c=lib.from_numpy(c),
            d=lib.from_numpy(d),
            shape=shape,
        )
    if lib.key == "scipy":
        m = lib.xp.coo_array((d, tuple(c)), shape=shape)
        # tocsr() sums duplicates and sorts: the canonical form ours builds
        return Timed("m.tocsr()", m=m)
    if lib.key == "cupyx":
        put = lib.from_numpy
        m = lib.xp.coo_matrix((put(d), (put(c[0]), put(c[1]))), shape=shape)
        # a fresh matrix per call: CuPy caches the canonical flag on the object
        return Timed("f((d, (r, c)), shape=shape).tocsr()", f=lib.xp.coo_matrix,
                     d=m.data, r=m.row, c=m.col, shape=shape)  # fmt: skip
    return Timed("f(c, d, shape=shape)", f=lib.xp.COO, c=c, d=d, shape=shape)


@case("matvec", doc="s @ x, x a dense vector", target=Target("csr", ratio=2.5))
def _(lib: Library, n: int, inp: SparseInputs) -> Timed:
    return Timed("s @ x", s=inp.array(lib, "a"), x=inp.vector(lib))


def _sum_case(axis: Any, name: str, arr: str, target: Target) -> None:
    @case(name, doc=f"sum over axis={axis}", target=target)
    def _(lib: Library, n: int, inp: SparseInputs) -> Timed:
        s = inp.array(lib, arr)
        if lib.key == "ocean":
            return Timed("f(s, axis=axis)", f=lib.xp.sum, s=s, axis=axis)
        return Timed("s.sum(axis=axis)", s=s, axis=axis)


_sum_case(0, "sum_axis0", "a", Target("csr", ratio=1.5))
_sum_case(1, "sum_axis1", "a", Target("csr", ratio=1.5))


@case(
    "row_block",
    doc="s[1000:2000], then its coords and data; SciPy: the CSR row slice",
    target=Target("csr", ratio=1.0),
)
def _(lib: Library, n: int, inp: SparseInputs) -> Timed:
    s = inp.array(lib, "a")
    lo, hi = inp.side2 // 100, inp.side2 // 50
    if lib.key in ("scipy", "cupyx"):
        return Timed("s[lo:hi]", s=s, lo=lo, hi=hi)
    return Timed("v = s[lo:hi]; v.coords; v.data", s=s, lo=lo, hi=hi)


@case("transpose", doc="s.T", target=Target("csr", ns=50_000))
def _(lib: Library, n: int, inp: SparseInputs) -> Timed:
    return Timed("s.T", s=inp.array(lib, "a"))


@case(
    "mul_same",
    doc="s * t, t with the same pattern as s (other arrays)",
    target=Target("csr", ratio=0.5),
)
def _(lib: Library, n: int, inp: SparseInputs) -> Timed:
    s, t = inp.array(lib, "a"), inp.array(lib, "a2")
    if lib.key in ("scipy", "cupyx"):
        return Timed("s.multiply(t)", s=s, t=t)
    return Timed("s * t", s=s, t=t)


@case(
    "mul_other",
    doc="s * t, t with another random pattern",
    target=Target("csr", ratio=7.0),
)
def _(lib: Library, n: int, inp: SparseInputs) -> Timed:
    s, t = inp.array(lib, "a"), inp.array(lib, "b")
    if lib.key in ("scipy", "cupyx"):
        return Timed("s.multiply(t)", s=s, t=t)
    return Timed("s * t", s=s, t=t)


for _axis in (0, 1, 2, (0, 1), (1, 2)):
    _name = "sum3d_axis" + (
        "".join(map(str, _axis)) if isinstance(_axis, tuple) else str(_axis)
    )
    _sum_case(_axis, _name, "t", Target("coo", ratio=2.0))


# --- running ---------------------------------------------------------------------
def _ratio(cells: dict[str, Cell], key: str, base: str = "scipy") -> float | None:
    a, b = cells.get(key), cells.get(base)
    if a is None or b is None or a.value_ns is None or b.value_ns is None:
        return None
    return a.value_ns / b.value_ns


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description="ocean_ext.sparse against SciPy and pydata/sparse."
    )
    p.add_argument(
        "--quick", action="store_true", help="inputs ten times smaller (CI smoke run)"
    )
    p.add_argument("--ops", help="comma-separated case names or glob patterns")
    p.add_argument(
        "--reps",
        type=int,
        help="maximum repetitions per cell (default 15; 3 with --quick)",
    )
    p.add_argument(
        "--budget-s", type=float, help="time budget per case, all libraries (default 3)"
    )
    p.add_argument("--stat", choices=("median", "min"), default="median")
    p.add_argument(
        "--json", metavar="PATH", help="also write the results as JSON to PATH"
    )
    p.add_argument(
        "--device",
        default="cpu",
        help="'cpu' (default: against SciPy and pydata/sparse) or 'cuda:N' "
        "(against cupyx.scipy.sparse)",
    )
    p.add_argument("--list", action="store_true", help="list the cases and exit")
    args = p.parse_args(argv)
    global DEVICE
    DEVICE = args.device.strip().lower()
    if DEVICE == "cpu:0":
        DEVICE = "cpu"
    if DEVICE != "cpu" and not DEVICE.startswith("cuda"):
        p.error(f"--device must be 'cpu' or 'cuda:N', got {args.device!r}")
    if DEVICE == "cuda":
        DEVICE = "cuda:0"
    makers = LIBRARIES if DEVICE == "cpu" else GPU_LIBRARIES
    base = "scipy" if DEVICE == "cpu" else "cupyx"

    if args.list:
        for c, t in CASES.values():
            print(f"{c.name:<14} {c.doc}  [target {t.describe()}]")
        return 0
    libs: list[Library] = []
    for key, make in makers.items():
        try:
            libs.append(make())
        except Unavailable as exc:
            if key != "pydata":
                print(f"bench_sparse.py: cannot run without {key}: {exc}")
                return 0
            print(f"bench_sparse.py: leaving out {key}: {exc}")
    selected = list(CASES.values())
    if args.ops:
        pats = [s.strip() for s in args.ops.split(",") if s.strip()]
        selected = [
            ct for ct in selected if any(fnmatch.fnmatch(ct[0].name, q) for q in pats)
        ]
    quick = args.quick
    inp = (
        SparseInputs(10_000, 100, 100_000)
        if quick
        else SparseInputs(100_000, 1_000, 1_000_000)
    )
    reps = args.reps or (3 if quick else 15)
    budget_ns = int((args.budget_s or (0.5 if quick else 3.0)) * 1e9)
    min_sample_ns = 50_000 if quick else 200_000

    print(
        f"Python {platform.python_version()} on {platform.machine()} "
        f"({os.cpu_count()} CPUs); device {DEVICE}; "
        + ", ".join(f"{lib.label} {lib.version}".strip() for lib in libs)
    )
    print(
        f"2-D: shape ({inp.side2:,}, {inp.side2:,}), {inp.nnz:,} random entries; "
        f"3-D: shape ({inp.side3:,},)*3, {inp.nnz:,} entries"
    )
    print(f"{args.stat} of up to {reps} interleaved samples; times are per call\n")

    t0 = time.perf_counter()
    rows = []
    for c, target in selected:
        cells = bench.run_case(
            c, 0, inp, libs,  # type: ignore[arg-type]
            reps=reps, min_reps=min(reps, 3), min_sample_ns=min_sample_ns,
            budget_ns=budget_ns, stat=args.stat,
        )  # fmt: skip
        rows.append((c, target, cells))
    elapsed = time.perf_counter() - t0

    keys = [lib.key for lib in libs]
    head = f"{'case':<14}" + "".join(f"{k:>12}" for k in keys)
    head += f"{'ocean/' + base:>13}"
    head += f"{'ocean/pydata':>14}  {'target':<16} met"
    print(head)
    print("-" * len(head))
    results = []
    for c, target, cells in rows:
        line = f"{c.name:<14}"
        for k in keys:
            cell = cells[k]
            text = bench._fmt_ns(cell.value_ns) if cell.status == "ok" else cell.status
            line += f"{text + ('~' if cell.status == 'ok' and cell.noisy else ''):>12}"
        r = _ratio(cells, "ocean", base)
        rp = None
        if "pydata" in cells and cells["pydata"].value_ns and cells["ocean"].value_ns:
            rp = cells["ocean"].value_ns / cells["pydata"].value_ns
        line += f"{(f'{r:.2f}x' if r else '-'):>13}{(f'{rp:.2f}x' if rp else '-'):>14}"
        own = cells["ocean"].value_ns
        if target.ns is not None:
            met = own is not None and own <= target.ns
        else:
            met = r is not None and target.ratio is not None and r <= target.ratio
        line += f"  {target.describe():<16} {'yes' if met else 'NO'}"
        print(line)
        for k in keys:
            if cells[k].status == "missing":
                print(f"    {k}: {cells[k].detail}")
        results.append(
            {
                "case": c.name,
                "doc": c.doc,
                "target": target.describe(),
                "met": met,
                "ratio_" + base: r,
                "ratio_pydata": rp,
                "ns": {k: cells[k].value_ns for k in keys},
            }
        )
    print(f"\n({elapsed:.0f} s; '~': a noisy cell, median > 1.25x the fastest sample)")
    if args.json:
        path = Path(args.json)
        path.write_text(
            json.dumps({"quick": quick, "device": DEVICE, "results": results}, indent=1)
        )
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
