"""The examples the README and the quick start point to run and say what they
promise (each in a fresh interpreter, as a reader runs it)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_DROP = ("OCEAN_ARRAY_API_DEFAULT_DEVICE", "OCEAN_ARRAY_API_VERSION")


def _run(*args: str, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in _DROP}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "backends")])
    proc = subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not proc.stderr, proc.stderr  # no warnings either
    return proc.stdout


def test_gram_schmidt(tmp_path):
    out = _run(str(ROOT / "examples" / "gram_schmidt.py"), cwd=tmp_path)
    swapped = "big" if sys.byteorder == "little" else "little"
    assert f"Q: float64 ({swapped}-endian) on cpu:0" in out
    assert re.search(r"^R: float32 on (cuda:0|cpu:1)$", out, re.M)
    assert re.search(r"^50 columns in [\d.]+ ms", out, re.M)
    orth = float(re.search(r"\|\|Q\^T Q - I\|\|_F += (\S+)", out)[1])
    resid = float(re.search(r"\|\|Q R - A\|\|_F / \|\|A\|\|_F = (\S+)", out)[1])
    assert orth < 1e-13  # Q is float64
    assert 1e-9 < resid < 2e-7  # R is float32: its precision, not better
    assert re.search(
        r"^refused: multiply\(\): `x1` is on Device\('cpu', 0\) and `x2` on "
        r"Device\('(cuda', 0|cpu', 1)\); move one with to_device\(\)$",
        out,
        re.M,
    )
    assert re.search(r"little-endian, values equal: True$", out, re.M)


@pytest.mark.skipif(
    importlib.util.find_spec("dask") is None,
    reason="the dask device needs dask (the test extra installs it)",
)
def test_dask_out_of_core_small(tmp_path):
    # 16 MiB in chunks of 1 MiB: the same code path as the page's 2 GiB run
    out = _run(
        str(ROOT / "examples" / "dask_out_of_core.py"),
        "--gib",
        str(16 / 1024),
        "--chunk-mib",
        "1",
        "--dir",
        str(tmp_path),
        cwd=tmp_path,
    )
    assert "2,097,152 values" in out
    m = re.search(r"mean ([\d.]+), std ([\d.]+)", out)
    assert abs(float(m[1]) - 1.0) < 0.01
    assert abs(float(m[2]) - 2.0) < 0.01
