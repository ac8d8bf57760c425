"""Measure the tool's catch rate on every mutant: ``python -m tests.conformance.mutants.measure``.

The tool runs at its default settings on the name each mutant breaks (as
``--only NAME`` would), on the unmutated array-api-strict first and then on the
mutant.  A mutant is caught when the mutant shows a deviation (or crash) that
the base does not: same name, feature, dtype and kind, or, in a cell where
the base deviates too (array-api-strict's own bugs: ``x ** 0.5`` at -0.0),
another first failure (the runs are seeded alike, so a mutant that changes
nothing there fails the same way).  Options: ``--quick``,
``--max-examples N``, ``--seed N``, ``--json PATH``, and mutant names to run
only those.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import sys
import time

from conformance.runner import Options, run_entries
from tests.conformance.mutants import MUTANTS, SETS, mutant_set

_BASE: dict[tuple, dict] = {}


def _deviations(records) -> set[tuple[str, str, str, str, bool]]:
    """What a run found: deviations, and advisories (the last field True)."""
    out = {
        (r.name, r.feature, r.dtype, r.kind or r.verdict, False)
        for r in records
        if r.verdict in ("deviates", "crashes", "missing")
    }
    out |= {
        (r.name, r.feature, r.dtype, r.kind or "", True)
        for r in records
        if r.verdict == "advisory"
    }
    out |= {
        (r.name, r.feature, r.dtype, r.advisory["kind"], True)
        for r in records
        if r.advisory
    }
    return out


def _messages(records) -> dict[tuple, str]:
    """What each deviation's first failure said, by :func:`_deviations`' keys."""
    return {
        (r.name, r.feature, r.dtype, r.kind or r.verdict, False): r.message
        for r in records
        if r.verdict in ("deviates", "crashes", "missing")
    }


def _opts(target: str, m, quick: bool, max_examples: int | None, seed: int) -> Options:
    return Options(
        target=target,
        quick=quick,
        max_examples=max_examples,
        seed=seed,
        device=m.device,
        database=None,
    )


def caught(
    name: str, *, quick: bool = False, max_examples: int | None = None, seed: int = 0
) -> tuple[bool, list[str], float]:
    """Run the tool on one mutant; return (caught, what it found, seconds).

    A mutant is caught by a deviation the base does not show or, for a bug
    the standard words with "should", by an advisory; advisories are marked
    so in what is returned.
    """
    m = MUTANTS[name]
    key = (m.only, m.device, quick, max_examples, seed)
    if key not in _BASE:
        base = run_entries(
            [m.only], _opts("array_api_strict", m, quick, max_examples, seed)
        )
        _BASE[key] = {"found": _deviations(base), "said": _messages(base)}
    t0 = time.perf_counter()
    records = run_entries(
        [m.only],
        _opts(f"tests.conformance.mutants.{name}", m, quick, max_examples, seed),
    )
    secs = time.perf_counter() - t0
    said = _BASE[key]["said"]
    new = _deviations(records) - _BASE[key]["found"]
    new |= {k for k, msg in _messages(records).items() if k in said and said[k] != msg}
    found = []
    for n, feature, dtype, kind, advisory in sorted(new, key=lambda t: t[4]):
        r = next(
            r for r in records if (r.name, r.feature, r.dtype) == (n, feature, dtype)
        )
        msg = r.advisory["message"] if advisory and r.advisory else r.message
        found.append(
            f"{kind}: {feature} {dtype}: {msg}" + (" (advisory)" if advisory else "")
        )
    return bool(new), found, secs


def _one(name: str, **kw) -> tuple[bool, list[str], float]:
    return caught(name, **kw)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.conformance.mutants.measure")
    p.add_argument("names", nargs="*")
    p.add_argument("--quick", action="store_true")
    p.add_argument("--max-examples", type=int)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="PATH")
    p.add_argument(
        "--set",
        choices=("all", *SETS),
        default="all",
        help="the first 70 mutants, the second set (_extra.py), the third (_third.py), or all",
    )
    p.add_argument("-j", "--jobs", type=int, default=1, help="worker processes")
    a = p.parse_args(argv)
    a.names = a.names or mutant_set(a.set)
    names = a.names or list(MUTANTS)
    rows = []
    job = functools.partial(
        _one, quick=a.quick, max_examples=a.max_examples, seed=a.seed
    )
    if a.jobs > 1:
        pool = multiprocessing.get_context("fork").Pool(a.jobs)
        results = pool.imap(job, names)
    else:
        pool, results = None, map(job, names)
    for name, (hit, found, secs) in zip(names, results, strict=True):
        m = MUTANTS[name]
        rows.append(
            {
                "mutant": name,
                "category": m.category,
                "function": m.only,
                "caught": hit,
                "seconds": round(secs, 2),
                "first": found[0] if found else "",
                "how": (
                    ""
                    if not hit
                    else "advisory"
                    if all(f.endswith("(advisory)") for f in found)
                    else "deviation"
                ),
            }
        )
        print(
            f"{'CAUGHT' if hit else 'missed'} {name:36} {m.only:20} {secs:5.1f} s  "
            f"{found[0][:80] if found else ''}",
            flush=True,
        )
    if pool is not None:
        pool.close()
        pool.join()
    n = sum(r["caught"] for r in rows)
    print(f"catch rate: {n}/{len(rows)}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"caught": n, "total": len(rows), "mutants": rows}, f, indent=1)
    return 0 if n == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
