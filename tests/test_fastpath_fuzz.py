"""The differential fuzz of the compiled fast path (``tests/fuzz_fastpath.py``):
a seeded, bounded run in the suite; a longer one is opt-in::

    OCEAN_FASTPATH_FUZZ_PROGRAMS=20000 python -m pytest tests/test_fastpath_fuzz.py
    python -m tests.fuzz_fastpath --programs 20000 --seed 7
"""

from __future__ import annotations

import importlib.util
import os

import pytest

from . import fuzz_fastpath as fuzz

BUILT = importlib.util.find_spec("ocean_array_api._fastpath") is not None
# Each run starts its own interpreters with the compiled path on and off:
# the suite's run without it (OCEAN_ARRAY_API_FASTPATH=0) would only repeat
# the one with it.
pytestmark = pytest.mark.skipif(
    not BUILT or os.environ.get("OCEAN_ARRAY_API_FASTPATH", "1").strip() == "0",
    reason="compares the compiled path with the Python one: needs it built, "
    "and runs in the suite's run with it",
)

PROGRAMS = int(os.environ.get("OCEAN_FASTPATH_FUZZ_PROGRAMS", "300"))
SEED = int(os.environ.get("OCEAN_FASTPATH_FUZZ_SEED", "20251201"))


def test_compiled_and_python_front_ends_agree_on_random_programs() -> None:
    res = fuzz.run(SEED, PROGRAMS, n_steps=25)
    assert not res.differences, "\n\n".join(d.report() for d in res.differences)
    assert res.programs == PROGRAMS
    assert res.steps == 25 * PROGRAMS
    # the programs exercise results, not only errors
    assert res.outcomes.get("ok", 0) > res.steps // 2, res.outcomes


def test_the_fuzz_finds_and_reports_a_difference() -> None:
    res = fuzz.run(SEED, 2, n_steps=12, plant=7)
    assert [(d.program, d.step) for d in res.differences] == [(0, 7), (1, 7)]
    report = res.differences[0].report()
    assert "PlantedWarning" in report
    assert "import ocean_array_api as xp" in report  # a script to replay
    assert fuzz.draw_program(SEED, 0, 12)[7] in report
