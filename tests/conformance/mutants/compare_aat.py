"""Run array-api-tests on every mutant: ``python -m tests.conformance.mutants.compare_aat AAT_DIR``.

For each mutant, runs the official suite at its default settings (100
examples) on every test file that defines a test of the broken function (plus
``test_special_cases.py`` for elementwise functions), selected with ``-k
<function>``, first on the unmutated array-api-strict and then on the mutant.
The mutant is caught when a test fails that passes on the base.  Prints one
line per mutant with the wall time, then the catch rate; ``--json PATH`` keeps
the rows.  The suite is not part of this repository: clone it yourself (see
``docs/dev/conformance.md``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

from tests.conformance.mutants import MUTANTS, SETS, mutant_set

ROOT = Path(__file__).resolve().parents[3]
_BASE: dict[tuple, set[str]] = {}


def _pytest(aat: Path, module: str, files: list[str], k: str) -> tuple[set[str], str]:
    env = dict(os.environ)
    env["ARRAY_API_TESTS_MODULE"] = module
    env["ARRAY_API_TESTS_VERSION"] = "2025.12"
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(ROOT / "backends"), env.get("PYTHONPATH", "")]
    )
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *files,
            "-k",
            k,
            "-q",
            "-rf",
            "-p",
            "no:cacheprovider",
            "--disable-warnings",
            "--hypothesis-disable-deadline",
        ],
        cwd=aat,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    failed = set(re.findall(r"^FAILED (\S+)", r.stdout, re.MULTILINE))
    tail = (r.stdout.strip().splitlines() or [""])[-1]
    if r.returncode not in (0, 1):
        tail = f"pytest exited {r.returncode}: {tail}"
    return failed, tail


def run_aat(aat: Path, name: str) -> tuple[bool, float, str]:
    """Return (caught, seconds, last line of pytest's output) for one mutant."""
    m = MUTANTS[name]
    k = m.only.split(".")[-1]
    if m.only.startswith("Array.") and "::" in m.aat_test:
        # array methods: the suite's test of the operator (test_add covers
        # x += y, test_setitem x[key] = v)
        k = m.aat_test.split("::")[1]
    # every file of the suite with a test of this function (test_where is in
    # two files, test_clip among the elementwise functions, ...)
    files = sorted(
        str(f.relative_to(aat))
        for f in (aat / "array_api_tests").glob("test_*.py")
        if re.search(rf"^def test_{k}\b|^def test_{k}_", f.read_text(), re.MULTILINE)
    ) or [m.aat_test.split("::")[0]]
    if "array_api_tests/test_operators_and_elementwise_functions.py" in files:
        files.append("array_api_tests/test_special_cases.py")
    key = (tuple(files), k)
    if key not in _BASE:
        _BASE[key], _ = _pytest(aat, "array_api_strict", files, k)
    t0 = time.perf_counter()
    failed, tail = _pytest(aat, f"tests.conformance.mutants.{name}", files, k)
    return bool(failed - _BASE[key]), time.perf_counter() - t0, tail


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.conformance.mutants.compare_aat")
    p.add_argument("aat_dir", nargs="?", default="../array-api-tests")
    p.add_argument("names", nargs="*")
    p.add_argument("--json", metavar="PATH")
    p.add_argument(
        "--set",
        choices=("all", *SETS),
        default="all",
        help="the first 70 mutants, the second set (_extra.py), the third (_third.py), or all",
    )
    a = p.parse_args(argv)
    a.names = a.names or mutant_set(a.set)
    rows = []
    for name in a.names or list(MUTANTS):
        hit, secs, tail = run_aat(Path(a.aat_dir), name)
        rows.append(
            {
                "mutant": name,
                "category": MUTANTS[name].category,
                "caught": hit,
                "seconds": round(secs, 1),
                "pytest": tail,
            }
        )
        print(
            f"{'CAUGHT' if hit else 'missed'} {name:36} {secs:6.1f} s  {tail[:80]}",
            flush=True,
        )
    n = sum(r["caught"] for r in rows)
    print(f"array-api-tests catch rate: {n}/{len(rows)}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"caught": n, "total": len(rows), "mutants": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
