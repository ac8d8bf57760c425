"""``import ocean_array_api`` must not import CuPy (or other heavy libraries).

Checked in fresh interpreters, with an import hook that records every attempt
to import a forbidden module, even one whose ImportError is swallowed.
"""

from __future__ import annotations

import pytest

from .helpers import run_python

_HOOK = """
import sys

FORBIDDEN = {forbidden!r}
attempts = []


class Recorder:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in FORBIDDEN:
            attempts.append(name)
        return None


sys.meta_path.insert(0, Recorder())
"""


def _check(body, forbidden):
    code = (
        _HOOK.format(forbidden=set(forbidden))
        + body
        + """
loaded = sorted(m for m in sys.modules if m.partition(".")[0] in FORBIDDEN)
print("attempts:" + ",".join(attempts))
print("loaded:" + ",".join(loaded))
"""
    )
    proc = run_python(code)
    lines = dict(line.split(":", 1) for line in proc.stdout.splitlines() if ":" in line)
    return lines["attempts"], lines["loaded"]


def test_import_does_not_import_cupy():
    attempts, loaded = _check(
        "import ocean_array_api\n", {"cupy", "cupyx", "cupy_backends"}
    )
    assert attempts == ""
    assert loaded == ""


def test_cpu_work_does_not_import_cupy():
    body = """
import ocean_array_api as xp
x = xp.asarray([[1.0, 2.0], [3.0, 4.0]], device="cpu:1")
y = xp.linalg.inv(x) @ x + xp.real(xp.fft.ifft(xp.fft.fft(xp.astype(x, xp.complex128))))
xp.sum(xp.sort(y, axis=0))
x.to_device("cpu:0")
"""
    attempts, loaded = _check(body, {"cupy", "cupyx", "cupy_backends"})
    assert attempts == ""
    assert loaded == ""


@pytest.mark.parametrize(
    "module",
    [
        "scipy",
        "sklearn",
        "torch",
        "jax",
        "dask",
        "array_api_strict",
        "hypothesis",
        "pytest",
    ],
)
def test_import_stays_light(module):
    # No timing assertions: the import must simply not pull in heavy libraries.
    attempts, loaded = _check("import ocean_array_api\n", {module})
    assert loaded == ""
    assert attempts == ""


def test_import_is_warning_free():
    # run_python runs the child with -W error.
    proc = run_python(
        "import ocean_array_api; import ocean_array_api.linalg, ocean_array_api.fft"
    )
    assert proc.stderr == ""
