"""Run array-api-tests on every mutant: ``python -m conformance.mutants.compare_aat AAT_DIR``.

For each mutant, runs the official suite's test file for the broken function
(plus ``test_special_cases.py`` for elementwise functions), selected with
``-k <function>``, and counts the mutant caught when a test fails.  Prints one
line per mutant with the wall time, then the catch rate.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from conformance.mutants import MUTANTS

ROOT = Path(__file__).resolve().parents[2]


def run_aat(aat: Path, name: str, max_examples: int = 100) -> tuple[bool, float, str]:
    """Return (caught, seconds, last line of pytest's output) for one mutant."""
    m = MUTANTS[name]
    file = m.aat_test.split("::")[0]
    fn = m.only.split(".")[-1]
    files = [file]
    if "operators_and_elementwise" in file:
        files.append("array_api_tests/test_special_cases.py")
    env = dict(os.environ)
    env["ARRAY_API_TESTS_MODULE"] = f"conformance.mutants.{name}"
    env["ARRAY_API_TESTS_VERSION"] = "2025.12"
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), str(ROOT / "backends"), env.get("PYTHONPATH", "")]
    )
    t0 = time.perf_counter()
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *files,
            "-k",
            fn,
            "-q",
            "-p",
            "no:cacheprovider",
            "--max-examples",
            str(max_examples),
            "--disable-warnings",
            "-x",
            "--hypothesis-disable-deadline",
        ],
        cwd=aat,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    tail = (r.stdout.strip().splitlines() or [""])[-1]
    return r.returncode == 1, time.perf_counter() - t0, tail


def main() -> int:
    aat = Path(sys.argv[1] if len(sys.argv) > 1 else "../array-api-tests")
    n = 0
    for name in MUTANTS:
        hit, secs, tail = run_aat(aat, name)
        n += hit
        print(
            f"{'CAUGHT' if hit else 'missed'} {name:32} {secs:6.1f} s  {tail[:80]}",
            flush=True,
        )
    print(f"array-api-tests catch rate: {n}/{len(MUTANTS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
