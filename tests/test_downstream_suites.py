"""SciPy's and scikit-learn's own array-API tests: what passes on
array-api-strict passes on ours.

``tests/downstream/run_suites.py`` runs the libraries' installed tests on each
backend (see docs/dev/downstream_suites.md); the tests here run a small subset
of them, chosen to finish in about three minutes on two cores.  They carry the
``downstream_suites`` marker and are deselected unless
``OCEAN_DOWNSTREAM_SUITES=1`` is set or ``-m downstream_suites`` is given
(``.ci/run`` does so); the default ``python -m pytest`` does not run them.
The helpers' own tests at the end run always.
"""

from __future__ import annotations

import importlib.util
import json
import re

import pytest

from .helpers import REPO_ROOT

# The script, loaded from its path (tests/downstream is not a package).
_spec = importlib.util.spec_from_file_location(
    "run_suites", REPO_ROOT / "tests" / "downstream" / "run_suites.py"
)
assert _spec is not None
assert _spec.loader is not None
run_suites = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_suites)

# The CI subset: modules whose namespace-parametrised tests run on both
# backends.  Module names (pytest --pyargs) and -k expressions.
SUBSETS: dict[str, dict[str, object]] = {
    "scipy": {
        "paths": [
            "scipy.fft",
            "scipy.special",
            "scipy.cluster",
            "scipy.integrate",
            "scipy.signal.tests.test_windows",
            "scipy._lib.tests.test_array_api",
        ],
        "keyword": None,
    },
    "sklearn": {
        "paths": [
            "sklearn.decomposition.tests.test_pca",
            "sklearn.preprocessing.tests.test_label",
            "sklearn.preprocessing.tests.test_data",
            "sklearn.linear_model.tests.test_ridge",
            "sklearn.metrics.tests.test_pairwise",
            "sklearn.utils.tests.test_extmath",
        ],
        "keyword": None,
    },
}

# Accepted differences: regular expressions on test ids (the backend's name
# replaced by "{xp}") -> why the test passes on array-api-strict and not on
# ours although ours follows the standard.  Each entry must still match a
# difference (a stale entry fails, as xfail_strict does for xfails).
ALLOWED: dict[str, dict[str, str]] = {
    "scipy": {
        # The test computes the expected dtype with a special case for
        # array_api_strict by name, and for any other library with
        # result_type(int, float): a mixed-kind promotion that the standard
        # leaves unspecified ("Mixed integer and floating-point type
        # promotion rules are not specified"); ours raises TypeError, as
        # array-api-strict does.  SciPy's.
        r"special/tests/test_logsumexp\.py::TestLogSumExp::test_dtypes_ab\[\{xp\}-"
        r"(\w+-u?int\d+|u?int\d+-\w+)\]": "SciPy special-cases array_api_strict",
        # dendrogram's plot gives matplotlib a 0-d array of ours as an axis
        # limit and matplotlib calls numpy.isfinite on it: our
        # __array_ufunc__ refuses NumPy's ufuncs with a TypeError naming the
        # namespace function (a documented choice, tests/test_hints.py), where
        # array-api-strict's arrays convert through __array__.  The standard
        # defines no interaction with another library's functions.
        r"cluster/tests/test_hierarchy\.py::TestDendrogram::test_dendrogram_"
        r"(plot\[\{xp\}-\w+\]|truncate_mode\[\{xp\}\])": "NumPy ufuncs on our arrays",
    },
    "sklearn": {
        # The test skips its integer-input part for "array_api_strict" and
        # "torch" by name; it needs int64 @ float64, a mixed-kind promotion
        # the standard leaves unspecified (ours raises TypeError, as
        # array-api-strict would).  scikit-learn's.
        r"utils/tests/test_extmath\.py::test_randomized_range_finder_array_api_"
        r"compliance\[\{xp\}-CPU_DEVICE-float64\]": "sklearn special-cases strict",
    },
}

# Entries whose tests run only when an optional package is installed (they
# skip on both backends without it): such an entry is stale only where the
# package is there.  matplotlib is in the "bench" extra, not in "test".
NEEDS: dict[str, str] = {
    r"cluster/tests/test_hierarchy\.py::TestDendrogram::test_dendrogram_"
    r"(plot\[\{xp\}-\w+\]|truncate_mode\[\{xp\}\])": "matplotlib",
}

MIN_PASSED = {"scipy": 300, "sklearn": 20}  # a broken setup runs next to nothing


def _missing(*modules: str) -> list[str]:
    return [m for m in modules if importlib.util.find_spec(m) is None]


@pytest.mark.downstream_suites
@pytest.mark.parametrize("library", ["scipy", "sklearn"])
def test_passes_where_array_api_strict_passes(library, tmp_path):
    missing = _missing(library, "array_api_strict", "scipy")
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")
    subset = SUBSETS[library]
    argv = ["--library", library, "--out", str(tmp_path)]
    argv += ["--paths", *subset["paths"]]  # type: ignore[list-item]
    if subset["keyword"]:
        argv += ["-k", str(subset["keyword"])]
    run_suites.main(argv)
    report = json.loads((tmp_path / f"{library}-comparison.json").read_text())

    assert report["passed_strict"] >= MIN_PASSED[library], report
    # Both runs selected the same tests (the subset names no test that
    # hard-codes array_api_strict).
    assert report["only_strict"] == []
    assert report["selected_strict"] == report["selected_ours"]

    allowed = ALLOWED[library]
    unexpected = {
        test: entry
        for test, entry in report["regressions"].items()
        if not any(re.search(p, test) for p in allowed)
    }
    assert not unexpected, "\n".join(
        f"{test}: {e['ours']}: {e['message'][:300]}" for test, e in unexpected.items()
    )
    stale = [
        p
        for p in allowed
        if not any(re.search(p, t) for t in report["regressions"])
        and not (p in NEEDS and _missing(NEEDS[p]))
    ]
    assert not stale, f"allow-list entries that no longer match a difference: {stale}"


# ------------------------------------------------ the comparison's own tests


def _run(tests: dict[str, str]) -> dict:
    return {"tests": {k: {"outcome": v, "message": v} for k, v in tests.items()}}


def test_compare_matches_tests_by_normalised_id():
    strict = _run(
        {
            "m.py::t[array_api_strict]": "passed",
            "m.py::u[array_api_strict-float32]": "passed",
            "m.py::v[array_api_strict]": "failed",
            "m.py::w[array_api_strict]": "passed",
            "m.py::hard_coded[array_api_strict]": "passed",
        }
    )
    ours = _run(
        {
            "m.py::t[ocean_array_api]": "passed",
            "m.py::u[ocean_array_api-float32]": "failed",
            "m.py::v[ocean_array_api]": "passed",
            "m.py::w[ocean_array_api]": "skipped",
            "n.py": "collect-error",
        }
    )
    report = run_suites.compare(strict, ours)
    assert sorted(report["regressions"]) == [
        "m.py::u[{xp}-float32]",
        "m.py::w[{xp}]",
        "n.py",
    ]
    assert report["passed_strict"] == 4
    assert report["passed_ours"] == 2
    assert report["passed_both"] == 1
    assert report["passed_ours_only"] == ["m.py::v[{xp}]"]
    assert report["only_strict"] == ["m.py::hard_coded[{xp}]"]


def test_plugin_refuses_an_unknown_backend():
    from .helpers import run_python

    proc = run_python(
        "import ocean_suites_plugin",
        {
            "OCEAN_SUITES_BACKEND": "numpy",
            "PYTHONPATH": str(REPO_ROOT / "tests" / "downstream"),
        },
        check=False,
    )
    assert proc.returncode != 0
    assert "OCEAN_SUITES_BACKEND must be" in proc.stderr


def test_optional_package_entries_are_allow_list_entries():
    # A NEEDS key that is not in ALLOWED would never be consulted.
    every = {p for entries in ALLOWED.values() for p in entries}
    assert set(NEEDS) <= every
