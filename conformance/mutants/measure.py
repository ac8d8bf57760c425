"""Measure the tool's catch rate on every mutant: ``python -m conformance.mutants.measure``.

A mutant is caught when the tool reports, in the function it breaks, a
deviation of one of the kinds the mutant lists.  The unmutated base is run the
same way first and must show no deviation there.
"""

from __future__ import annotations

import sys
import time

from conformance.mutants import MUTANTS
from conformance.runner import Options, run_entries


def caught(name: str, max_examples: int = 10, seed: int = 0) -> tuple[bool, list[str]]:
    """Run the tool on one mutant; return (caught, the deviations found)."""
    m = MUTANTS[name]
    opts = Options(
        target=f"conformance.mutants.{name}",
        quick=True,
        max_examples=max_examples,
        seed=seed,
        device=m.device,
        database=None,
    )
    records = run_entries([m.only], opts)
    found = [
        f"{r.kind}: {r.feature} {r.dtype}: {r.message}"
        for r in records
        if r.verdict in ("deviates", "crashes")
    ]
    hit = any(
        r.kind in m.kinds for r in records if r.verdict in ("deviates", "crashes")
    )
    return hit, found


def main() -> int:
    n = 0
    for name, m in MUTANTS.items():
        t0 = time.perf_counter()
        hit, found = caught(name)
        n += hit
        print(
            f"{'CAUGHT' if hit else 'missed'} {name:32} {m.only:20} {time.perf_counter() - t0:5.1f} s  {found[0][:90] if found else ''}"
        )
    print(f"catch rate: {n}/{len(MUTANTS)}")
    return 0 if n == len(MUTANTS) else 1


if __name__ == "__main__":
    sys.exit(main())
