"""Downstream libraries on our arrays: scikit-learn and SciPy agree with NumPy.

Both need ``SCIPY_ARRAY_API=1`` before SciPy is first imported, so each library
runs in one child interpreter (``tests/downstream/*_cases.py``) that reports
every case as JSON; the tests below check one case each.
"""

from __future__ import annotations

import ast
import importlib.util
import json

import pytest

from .helpers import REPO_ROOT, run_python

_DIR = REPO_ROOT / "tests" / "downstream"


def _case_names(script: str) -> list[str]:
    """The keys of the script's CASES dict, read without importing it (the
    parent must not import SciPy: SCIPY_ARRAY_API is read at its import)."""
    tree = ast.parse((_DIR / script).read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "CASES" for t in node.targets
        ):
            return [k.value for k in node.value.keys]
    raise AssertionError(f"no CASES in {script}")


def _skip_without(module: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(
        importlib.util.find_spec(module) is None, reason=f"{module} is not installed"
    )


def _run_cases(script: str) -> dict[str, dict[str, object]]:
    path = _DIR / script
    code = f"import runpy; runpy.run_path({str(path)!r}, run_name='__main__')"
    proc = run_python(code, {"SCIPY_ARRAY_API": "1"}, warnings_as_errors=False)
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def sklearn_results():
    return _run_cases("sklearn_cases.py")


@pytest.fixture(scope="module")
def scipy_results():
    return _run_cases("scipy_cases.py")


@_skip_without("sklearn")
@pytest.mark.parametrize("case", _case_names("sklearn_cases.py"))
def test_sklearn(case, sklearn_results):
    result = sklearn_results[case]
    assert result["ok"], result["detail"]


@_skip_without("scipy")
@pytest.mark.parametrize("case", _case_names("scipy_cases.py"))
def test_scipy(case, scipy_results):
    result = scipy_results[case]
    assert result["ok"], result["detail"]
