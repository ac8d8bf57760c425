#!/usr/bin/env python3
"""The figures that the README and the docs quote, from the published results.

Prose that quotes a speed (``0.97x`` of NumPy, views in ``90 to 114 ns``, the
gain of an index object) must say what the published benchmark run measured,
on the machine it names: ``docs/_static/benchmarks/results.json``, written by
``python3 benchmarks/bench.py --stat min --plots docs/_static/benchmarks``.
This module computes each quoted figure from that file, formatted as the
pages print it, and lists the phrases of the pages that quote them;
``tests/test_doc_figures.py`` checks that every phrase is on its page.  After
a new benchmark run, ``python3 benchmarks/figures.py`` prints the phrases
whose figures changed, to paste into the pages.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "_static" / "benchmarks" / "results.json"

SMALL = (8, 1000)
LARGE = (1_000_000, 10_000_000)
_WORDS = dict(
    enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
)


def _ratio(value: float) -> str:
    """A time ratio as the pages print it: two decimals below 10, else one."""
    return f"{value:.2f}x" if value < 10 else f"{value:.1f}x"


def _range(values: Iterable[float], fmt: Any = _ratio) -> str:
    vs = sorted(values)
    lo, hi = fmt(vs[0]), fmt(vs[-1])
    return lo if lo == hi else f"{lo.removesuffix('x')}-{hi}"


def _times(results: dict[str, Any]) -> dict[tuple[str, int, str], float]:
    return {
        (r["op"], r["size"], r["library"]): r["value_ns"]
        for r in results["results"]
        if r["status"] == "ok"
    }


def figures(results: dict[str, Any]) -> dict[str, str]:
    """Every quoted figure, by name, formatted as the pages print it."""
    s = results["summary"]
    meta = results["meta"]
    t = _times(results)
    geo = s["geomean"]
    views = s["views_ns"]
    out: dict[str, str] = {}
    out["machine"] = f"{meta['cpus']}-core {meta['cpu']}"
    out["small_geomean"] = f"{geo['ocean']['small']['ratio']:.2f}x"
    out["small_cells"] = str(geo["ocean"]["small"]["count"])
    out["large_geomean"] = f"{geo['ocean']['large']['ratio']:.2f}x"
    out["strict_small_geomean"] = f"{geo['strict']['small']['ratio']:.1f}x"
    out["compat_small_geomean"] = f"{geo['compat']['small']['ratio']:.2f}x"
    view_ns = [
        views[op][str(n)]["ocean"] for op in ("slice", "reshape", "mT") for n in SMALL
    ]
    out["views_ns"] = f"{min(view_ns):.0f} to {max(view_ns):.0f} ns"
    minutes = round(meta["seconds"] / 60)
    out["bench_minutes"] = f"about {_WORDS.get(minutes, str(minutes))} minutes"

    def ratio(op: str, n: int) -> float:
        return t[(op, n, "ocean")] / t[(op, n, "numpy")]

    arith = ("c32_add", "c32_multiply")
    out["c32_large"] = _range(ratio(op, n) for op in arith for n in LARGE)
    out["c32_small"] = _range(ratio(op, n) for op in arith for n in SMALL)
    for op in ("abs", "sum", "exp"):
        out[f"c32_{op}_large"] = _range(ratio(f"c32_{op}", n) for n in LARGE)
    for key in ("mask", "rows_cols", "int32"):
        for n in (*SMALL, *LARGE):
            reindex = t[(f"idxobj_{key}_reindex", n, "ocean")]
            bound = t[(f"idxobj_{key}_bound", n, "ocean")]
            out[f"idx_{key}_{n}"] = _ratio(reindex / bound)
    return out


# (page, phrase): every phrase that quotes a figure, with the figure's name
# in braces.  A phrase not found on its page fails tests/test_doc_figures.py.
PHRASES: list[tuple[str, str]] = [
    (
        "README.md",
        "small-array operations take {small_geomean} the time of raw NumPy",
    ),
    (
        "README.md",
        "over {small_cells} cases at 8 and 1,000 elements; array-api-strict: "
        "{strict_small_geomean})",
    ),
    ("README.md", "large arrays {large_geomean}"),
    ("README.md", "views (`x[2:-2]`, `reshape`, `.mT`) take {views_ns}"),
    ("README.md", "on the {machine} machine of the published run"),
    ("README.md", "# 8 to 1e7 elements, {bench_minutes} on two cores"),
    ("README.md", "complex32 arithmetic takes {c32_large} the time"),
    ("README.md", "at 8 and 1,000 elements it is {c32_small} slower"),
    ("docs/benchmarks.md", "elements ({bench_minutes} on\ntwo cores)"),
    ("docs/dev/benchmarks.md", "8 to 1e7 elements ({bench_minutes})"),
    (
        "docs/ext/complex32.md",
        "complex32 `*` and `+` take {c32_large} of the time, `abs` "
        "{c32_abs_large}, `sum` {c32_sum_large} and `exp` {c32_exp_large}",
    ),
    ("docs/ext/complex32.md", "`+` and `*` take {c32_small} the time"),
    *(
        (
            "docs/ext/index_objects.md",
            f"| {{idx_{key}_8}} | {{idx_{key}_1000}} | {{idx_{key}_1000000}} "
            f"| {{idx_{key}_10000000}} |",
        )
        for key in ("mask", "rows_cols", "int32")
    ),
]


def phrases(results: dict[str, Any]) -> list[tuple[str, str]]:
    """``PHRASES`` with the figures of ``results`` filled in."""
    figs = figures(results)
    return [(page, phrase.format(**figs)) for page, phrase in PHRASES]


def load(path: Path = RESULTS) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else RESULTS
    missing = 0
    for page, phrase in phrases(load(path)):
        text = (ROOT / page).read_text(encoding="utf-8")
        if " ".join(phrase.split()) in " ".join(text.split()):
            continue
        missing += 1
        print(f"{page}: not found, write:\n    {phrase}")
    print(f"{len(PHRASES) - missing} of {len(PHRASES)} phrases current")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
