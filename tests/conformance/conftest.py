"""Helpers for the tests of the conformance tool (``conformance/``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tool_env() -> dict[str, str]:
    """The environment for a subprocess that imports this checkout."""
    env = dict(os.environ)
    paths = [str(ROOT), str(ROOT / "backends")]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env.pop("OCEAN_ARRAY_API_VERSION", None)
    return env


def run_tool(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run ``python -m conformance ARGS`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "conformance", *args],
        capture_output=True,
        text=True,
        env=tool_env(),
        cwd=ROOT,
        timeout=timeout,
        check=False,
    )


@pytest.fixture
def tool():
    return run_tool


def pytest_collection_modifyitems(config, items):
    # every mutant at default settings takes minutes: opt-in only
    if os.environ.get("OCEAN_CONFORMANCE_MUTANTS") == "1" or (
        "conformance_mutants" in (config.option.markexpr or "")
    ):
        return
    skipped = [i for i in items if i.get_closest_marker("conformance_mutants")]
    if skipped:
        config.hook.pytest_deselected(items=skipped)
        items[:] = [i for i in items if not i.get_closest_marker("conformance_mutants")]
