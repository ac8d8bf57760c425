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
