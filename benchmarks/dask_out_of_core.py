#!/usr/bin/env python3
"""Out-of-core measurements of the ``dask`` device, next to plain dask.

Not run in CI (each case runs for minutes and uses both cores).  Each
measurement runs in a fresh child process; the parent samples the resident
memory of that process and all its descendants (psutil, every 50 ms) and
reports the peak above nothing, together with the child's wall time and CPU
time (``cpu_s``, user and system, all threads: on a shared machine it says
more about the work done than the wall time).

Cases (``--case``; ``--lib ocean`` or ``dask``):

- ``reduce``: ``mean``, ``sum`` and ``var`` of a float64 array of ``--gib``
  GiB (64 by default) built lazily, ``abs(arange(n) / n - 0.5)``, computed
  together in one pass (``ocean_ext.compute`` / ``dask.compute``); checked
  against the closed forms (mean 1/4, var 1/48).  ``--device dask:cuda:0``
  runs ours on CuPy chunks on a GPU (larger than its memory, with ``--gib``
  above it).
- ``matmul``: ``sum(A @ B)`` for ``--side`` x ``--side`` (16384) float64
  operands built lazily from two ``arange`` vectors in chunks of ``--block``
  (2048) elements and elementwise functions (``cos(i * a + j * b)``).
- ``sort``: ``sort`` of a float64 array of ``--sort-gib`` GiB (4) of
  pseudo-random values built lazily (a hash of ``arange``), in chunks of
  ``--sort-chunk-mib`` MiB; what is computed is the number of out-of-order
  neighbours (0 when sorted) and the sum (equal to the input's), so the
  sorted array itself is never brought back.  Plain dask has no chunked sort:
  its baseline is what ``array_api_compat.dask.array`` does (one chunk, then
  NumPy's sort).  Both build the input in chunks of that size directly
  (dask's ``array.chunk-size``).

``--max-rss-gib`` and ``--timeout-s`` stop a case (its whole process tree)
that passes them; the line printed for it then has ``"stopped"``.

Usage::

    nice -n 10 python3 benchmarks/dask_out_of_core.py --case reduce --gib 64
    nice -n 10 python3 benchmarks/dask_out_of_core.py --case matmul --side 16384 \\
        --block 4096 --max-rss-gib 10
    nice -n 10 python3 benchmarks/dask_out_of_core.py --case all
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
for _p in (str(_HERE.parent), str(_HERE.parent / "backends")):
    if _p not in sys.path:
        sys.path.insert(0, _p)

GIB = 1 << 30


# --- the computations (run in the child) ------------------------------------------
def _dask_device(xp: Any, name: str = "dask") -> Any:
    info = xp.__array_namespace_info__()
    found = [d for d in info.devices() if str(d) == name]
    if not found:
        have = ", ".join(str(d) for d in info.devices())
        raise SystemExit(f"dask_out_of_core.py: no device {name} here ({have})")
    return found[0]


def _gpu_memory(name: str) -> dict[str, Any]:
    """The GPU's memory, and the most CuPy's memory pool ever held (it keeps
    freed blocks), for a ``dask:cuda:<i>`` run."""
    import cupy as cp

    with cp.cuda.Device(int(name.rsplit(":", 1)[1])):
        _free, total = cp.cuda.runtime.memGetInfo()
        pool = cp.get_default_memory_pool()
        return {
            "gpu_total_gib": total / GIB,
            "gpu_pool_held_gib": pool.total_bytes() / GIB,
        }


def _reduce(lib: str, gib: float, device: str = "dask") -> dict[str, Any]:
    n = int(gib * GIB) // 8
    extra: dict[str, Any] = {}
    if lib == "ocean":
        import ocean_array_api as xp
        import ocean_ext

        with _dask_device(xp, device):
            x = xp.abs(xp.arange(n, dtype=xp.float64) / n - 0.5)
            out = ocean_ext.compute(xp.mean(x), xp.sum(x), xp.var(x))
        mean, total, var = (float(v) for v in out)
        if device.startswith("dask:cuda"):
            extra = _gpu_memory(device)
    else:
        import dask
        import dask.array as da

        x = abs(da.arange(n, dtype="float64") / n - 0.5)
        mean, total, var = (float(v) for v in dask.compute(x.mean(), x.sum(), x.var()))
    ok = abs(mean - 0.25) < 1e-6 and abs(var - 1 / 48) < 1e-6
    return {"mean": mean, "sum": total, "var": var, "ok": ok, "n": n, **extra}


def _matmul(lib: str, side: int, block: int) -> dict[str, Any]:
    a, b = 1e-3, 2e-3
    if lib == "ocean":
        import ocean_array_api as xp
        import ocean_ext

        with _dask_device(xp):
            i = ocean_ext.rechunk(xp.arange(side, dtype=xp.float64), block)
            A = xp.cos(i[:, None] * a + i[None, :] * b)
            B = xp.sin(i[:, None] * b - i[None, :] * a)
            (total,) = ocean_ext.compute(xp.sum(A @ B))
        total = float(total)
    else:
        import dask.array as da

        i = da.arange(side, dtype="float64", chunks=block)
        A = da.cos(i[:, None] * a + i[None, :] * b)
        B = da.sin(i[:, None] * b - i[None, :] * a)
        total = float((A @ B).sum().compute())
    return {"sum": total, "side": side, "block": block}


def _sort(lib: str, gib: float, chunk_mib: int) -> dict[str, Any]:
    import dask

    n = int(gib * GIB) // 8
    chunk = chunk_mib * (1 << 20) // 8
    # arrays are born in chunks of this size (ours too: no rechunk from
    # dask's default 128 MiB, which would keep those larger chunks alive)
    dask.config.set({"array.chunk-size": f"{chunk_mib}MiB"})

    def hashed(xp: Any, i: Any) -> Any:  # pseudo-random values in [0, 1)
        v = xp.sin(i * 12.9898) * 43758.5453
        return v - xp.floor(v)

    if lib == "ocean":
        import ocean_array_api as xp
        import ocean_ext

        with _dask_device(xp):
            i = ocean_ext.rechunk(xp.arange(n, dtype=xp.float64), chunk)
            x = hashed(xp, i)
            s = xp.sort(x)
            bad = xp.sum(xp.astype(s[1:] < s[:-1], xp.int64))
            out = ocean_ext.compute(bad, xp.sum(s), xp.sum(x))
        bad, total, total_in = int(out[0]), float(out[1]), float(out[2])
    else:
        import dask.array as da
        import numpy as np

        i = da.arange(n, dtype="float64", chunks=chunk)
        x = hashed(da, i)
        s = x.rechunk(-1).map_blocks(np.sort)  # array_api_compat's sort
        bad = (s[1:] < s[:-1]).astype("int64").sum()
        bad, total, total_in = dask.compute(bad, s.sum(), x.sum())
    ok = bad == 0 and abs(total - total_in) <= 1e-9 * abs(total_in)
    return {"out_of_order": int(bad), "sum": float(total), "ok": bool(ok), "n": n}


def child(args: argparse.Namespace) -> None:
    t0 = time.perf_counter()
    if args.case == "reduce":
        res = _reduce(args.lib, args.gib, args.device)
    elif args.case == "matmul":
        res = _matmul(args.lib, args.side, args.block)
    else:
        res = _sort(args.lib, args.sort_gib, args.sort_chunk_mib)
    res["wall_s"] = time.perf_counter() - t0
    print("RESULT " + json.dumps(res), flush=True)


# --- the parent: run a child, sample its memory ----------------------------------
def _tree_rss(proc: Any) -> int:
    import psutil

    total = 0
    try:
        procs = [proc, *proc.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    for p in procs:
        with contextlib.suppress(psutil.NoSuchProcess):
            total += p.memory_info().rss
    return total


def _kill_tree(proc: Any) -> None:
    import psutil

    with contextlib.suppress(psutil.NoSuchProcess):
        for p in [*proc.children(recursive=True), proc]:
            with contextlib.suppress(psutil.NoSuchProcess):
                p.kill()


def measure(
    case: str,
    lib: str,
    argv: list[str],
    max_rss: float = float("inf"),
    timeout_s: float = float("inf"),
) -> dict[str, Any]:
    """Run one case in a child process; stop it (and say so) once its
    processes hold more than ``max_rss`` bytes or it runs past ``timeout_s``."""
    import psutil

    cmd = [sys.executable, __file__, "--child", "--case", case, "--lib", lib, *argv]
    t0 = time.perf_counter()
    popen = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    proc = psutil.Process(popen.pid)
    peak = [0]
    stopped: list[str] = []
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss(proc))
            elapsed = time.perf_counter() - t0
            if not stopped and (peak[0] > max_rss or elapsed > timeout_s):
                what = "memory" if peak[0] > max_rss else "time"
                stopped.append(f"{what} limit, after {elapsed:.0f} s")
                _kill_tree(proc)
            time.sleep(0.05)

    t = threading.Thread(target=sample, daemon=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t.start()
    out, _ = popen.communicate()
    done.set()
    t.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    res: dict[str, Any] = {"case": case, "lib": lib, "rc": popen.returncode}
    # CPU seconds of the child (user + system, all its threads): less
    # sensitive than the wall time to other work on the machine
    res["cpu_s"] = round(
        after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1
    )
    for line in out.splitlines():
        if line.startswith("RESULT "):
            res.update(json.loads(line[7:]))
    res["peak_rss_mib"] = peak[0] / (1 << 20)
    if stopped:
        res["stopped"] = stopped[0]
    return res


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--case", default="all", choices=("reduce", "matmul", "sort", "all"))
    p.add_argument("--lib", default="both", choices=("ocean", "dask", "both"))
    p.add_argument("--gib", type=float, default=64.0)
    p.add_argument(
        "--device",
        default="dask",
        help="the device of --lib ocean's reduce: dask (NumPy chunks, the "
        "default) or dask:cuda:<i> (CuPy chunks; the result then also gives the "
        "GPU's memory and the most CuPy's memory pool held)",
    )
    p.add_argument("--side", type=int, default=16384)
    p.add_argument("--block", type=int, default=2048)
    p.add_argument("--sort-gib", type=float, default=4.0)
    p.add_argument("--sort-chunk-mib", type=int, default=128)
    p.add_argument(
        "--max-rss-gib",
        type=float,
        default=float("inf"),
        help="stop a case whose processes hold more (reported as stopped)",
    )
    p.add_argument(
        "--timeout-s",
        type=float,
        default=float("inf"),
        help="stop a case that runs longer (reported as stopped)",
    )
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        child(args)
        return 0
    passed = [
        f"--gib={args.gib}",
        f"--device={args.device}",
        f"--side={args.side}",
        f"--block={args.block}",
        f"--sort-gib={args.sort_gib}",
        f"--sort-chunk-mib={args.sort_chunk_mib}",
    ]
    cases = ("reduce", "matmul", "sort") if args.case == "all" else (args.case,)
    libs = ("ocean", "dask") if args.lib == "both" else (args.lib,)
    print(f"{os.cpu_count()} CPUs; {' '.join(passed)}", flush=True)
    for case in cases:
        for lib in libs:
            r = measure(case, lib, passed, args.max_rss_gib * GIB, args.timeout_s)
            print(json.dumps(r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
