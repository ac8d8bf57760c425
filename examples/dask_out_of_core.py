"""Standard code on an array bigger than the memory it may use: the dask device.

The data is float64 on disk, a stack of .npy files, one per chunk (written
here chunk by chunk, a stand-in for zarr/HDF5 data).  dask reads it lazily, ``ocean_ext.from_dask`` makes
it an array of ``ocean_array_api`` without reading anything, and the analysis
below is plain standard code: it runs chunk by chunk when a value is asked for.

    python examples/dask_out_of_core.py [--gib 2] [--chunk-mib 64] [--dir /tmp]
    python examples/dask_out_of_core.py --scheduler tcp://scheduler:8786

Prints the results, the time taken and the peak memory of this process during
the analysis (sampled), which stays near a few chunks per thread whatever the
size of the data.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / p) for p in ("", "backends")]

import dask.array as da  # noqa: E402

import ocean_array_api as xp  # noqa: E402
import ocean_ext  # noqa: E402


def write_data(path: Path, n: int, chunk: int) -> None:
    """n normal values as a .npy stack, computed and written chunk by chunk."""
    rng = da.random.default_rng(0)
    da.to_npy_stack(path, rng.standard_normal(n, chunks=chunk) * 2.0 + 1.0)


class PeakMemory(threading.Thread):
    """Samples this process's resident memory every 10 ms (psutil)."""

    def __init__(self) -> None:
        import psutil

        super().__init__(daemon=True)
        self.proc = psutil.Process()
        self.peak = self.proc.memory_info().rss
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.01):
            self.peak = max(self.peak, self.proc.memory_info().rss)


def moments(x):
    """Plain Array API code: works on any device, here lazily on dask."""
    return xp.mean(x), xp.std(x)


def outliers(x, mean, std):
    tail = xp.sum(xp.astype(x > mean + 3 * std, xp.int64))  # 3-sigma outliers
    big = x[x > 8.0]  # data-dependent size: None until computed
    return tail, big


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--gib", type=float, default=2.0, help="size of the data (GiB)")
    p.add_argument("--chunk-mib", type=float, default=64.0, help="chunk size (MiB)")
    p.add_argument("--dir", default=tempfile.gettempdir(), help="where the file goes")
    p.add_argument("--scheduler", help="a dask.distributed scheduler address")
    args = p.parse_args()
    if args.scheduler:
        from distributed import Client

        Client(args.scheduler)  # becomes dask's default scheduler
    n = int(args.gib * 2**30 / 8)
    chunk = int(args.chunk_mib * 2**20 / 8)
    path = Path(args.dir) / "ocean_dask_example"
    write_data(path, n, chunk)
    try:
        meter = PeakMemory()
        start_rss = meter.peak
        meter.start()
        t0 = time.perf_counter()
        # mmap_mode=None: chunks are read into memory (mapped pages would count
        # in the resident memory measured here)
        x = ocean_ext.from_dask(da.from_npy_stack(path, mmap_mode=None))
        mean, std = moments(x)
        print("lazy:", mean)
        # Pass 1 reads the data once.  Asking for the outliers in the same
        # compute would keep every chunk in memory until mean and std are
        # known (they all feed the second use): out of core, pass by pass.
        mean, std = ocean_ext.compute(mean, std)
        tail, big = outliers(x, mean, std)
        print("lazy:", big.shape)
        tail, big = ocean_ext.compute(tail, big)  # pass 2
        elapsed = time.perf_counter() - t0
        meter.stop.set()
        meter.join()
        print(f"{n:,} values ({args.gib:g} GiB) in chunks of {args.chunk_mib:g} MiB")
        print(f"mean {float(mean):.4f}, std {float(std):.4f}, 3-sigma tail {int(tail)}")
        print(f"values above 8: {big.shape[0]} (largest {float(xp.max(big)):.3f})")
        print(
            f"{elapsed:.1f} s; peak memory {meter.peak / 2**20:.0f} MiB "
            f"(at the start: {start_rss / 2**20:.0f} MiB)"
        )
    finally:
        shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    main()
