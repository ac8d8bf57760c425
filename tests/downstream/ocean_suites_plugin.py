"""pytest plugin: SciPy's or scikit-learn's own test suite on one array backend.

Loaded with ``-p ocean_suites_plugin`` (``tests/downstream`` on ``sys.path``)
by ``run_suites.py``; nothing installed is edited, the plugin swaps the
libraries' backend lists in memory while pytest starts.  Environment:

``OCEAN_SUITES_BACKEND``
    ``ocean_array_api`` or ``array_api_strict``: the one array namespace the
    suite's namespace-parametrised tests run on (NumPy, torch, ... dropped).
``OCEAN_SUITES_OUT``
    a path: per-test outcomes are written there as JSON at the end of the run.
``OCEAN_SUITES_MIRROR_MARKS``
    ``1`` (default): SciPy's ``skip_xp_backends("array_api_strict")`` and
    ``xfail_xp_backends("array_api_strict")`` apply to ``ocean_array_api``
    too, so both backends run the same tests; ``0`` runs ours on them.
``OCEAN_SUITES_MIRROR_NAMES``
    ``1``: SciPy's tests that call ``is_array_api_strict(xp)`` themselves (to
    leave out a part that needs more than the standard, such as
    ``x[..., mask]``) see ``True`` for ``ocean_array_api`` too, so both
    backends run the same part; default ``0``: ours runs the part SciPy keeps
    from array-api-strict.  Only the tests' own calls change; SciPy's library
    code still sees ours as ours.
``OCEAN_SUITES_ALL_TESTS``
    ``1``: keep tests that are not parametrised over array namespaces
    (default ``0``: they are deselected, they do not touch the backend).

SciPy (``SCIPY_ARRAY_API=1``): its ``scipy/conftest.py`` builds the ``xp``
fixture from a fixed list of known backends.  When pytest registers that
conftest (its fixtures are parsed later, when its directory is collected) the
plugin replaces the ``xp`` fixture with one whose only parameter is the chosen
backend, and adds ``ocean_array_api`` to the known backends so that
``np_only=True`` markers skip it as they skip every non-NumPy backend.

scikit-learn: its tests are parametrised from
``sklearn.utils._array_api.yield_namespace_device_dtype_combinations`` (and
``yield_namespaces``) and build arrays with
``sklearn.utils._testing._array_api_for_tests``.  The plugin replaces those
three functions (in their modules and wherever they were imported by name)
before the test modules are imported.  Ours runs under the same device names
as array-api-strict: ``CPU_DEVICE`` becomes our default device ``cpu:0`` and
``device1`` our second logical CPU ``cpu:1`` (names that scikit-learn passes
to the library as they are); the comparison maps the ids back.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any

import pytest

OURS = "ocean_array_api"
STRICT = "array_api_strict"
BACKEND = os.environ.get("OCEAN_SUITES_BACKEND", "")
if BACKEND not in {OURS, STRICT}:
    raise RuntimeError(
        f"OCEAN_SUITES_BACKEND must be {OURS!r} or {STRICT!r}, got {BACKEND!r}"
    )
MIRROR_MARKS = os.environ.get("OCEAN_SUITES_MIRROR_MARKS", "1") == "1"
ALL_TESTS = os.environ.get("OCEAN_SUITES_ALL_TESTS", "0") == "1"
MIRROR_NAMES = os.environ.get("OCEAN_SUITES_MIRROR_NAMES", "0") == "1"

_outcomes: dict[str, dict[str, Any]] = {}


# ---------------------------------------------------------------- scikit-learn


def _rebind(original: object, replacement: object) -> None:
    """Point every already-imported sklearn module's name for ``original``
    (``from ... import f`` copies) at ``replacement``."""
    for name, module in list(sys.modules.items()):
        if not name.startswith("sklearn") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if value is original:
                setattr(module, attr, replacement)


# array-api-strict's device names in scikit-learn's parameter lists -> ours.
# scikit-learn passes the name itself to the library too (for instance to
# ``__array_namespace_info__().dtypes(device=...)``), so ours gets names it
# parses; the comparison maps them back (``DEVICE_ALIASES`` in the JSON).
DEVICE_NAMES = {"CPU_DEVICE": "cpu:0", "device1": "cpu:1"}


def _patch_sklearn() -> None:
    try:
        from sklearn.utils import _array_api, _testing
    except ImportError:
        return
    orig_combos = _array_api.yield_namespace_device_dtype_combinations
    orig_namespaces = _array_api.yield_namespaces
    orig_for_tests = _testing._array_api_for_tests

    inside_combos = []  # non-empty while the original combinations run

    def yield_namespace_device_dtype_combinations(include_numpy_namespaces=True):
        # The original calls yield_namespaces (ours, once patched) through its
        # module: it must see the original list, array_api_strict included.
        inside_combos.append(True)
        try:
            combos = list(orig_combos(include_numpy_namespaces))
        finally:
            inside_combos.pop()
        for namespace, device_name, dtype_name in combos:
            if namespace == STRICT and BACKEND == OURS:
                yield OURS, DEVICE_NAMES.get(device_name, device_name), dtype_name
            elif namespace == STRICT:
                yield STRICT, device_name, dtype_name

    def yield_namespaces(include_numpy_namespaces=True):
        for namespace in orig_namespaces(include_numpy_namespaces):
            if inside_combos:
                yield namespace
            elif namespace == STRICT:
                yield BACKEND

    def _array_api_for_tests(array_namespace, device_name=None, dtype_name=None):
        if array_namespace != OURS:
            return orig_for_tests(array_namespace, device_name, dtype_name)
        # The same route as sklearn's for an unknown library: the namespace
        # of an array, as array_api_compat sees it, and a device object.
        from sklearn.externals.array_api_compat import get_namespace

        import ocean_array_api

        xp = get_namespace(ocean_array_api.asarray(1))
        if device_name is None:
            return xp, None
        return xp, ocean_array_api.asarray(0, device=device_name).device

    for orig, new in (
        (orig_combos, yield_namespace_device_dtype_combinations),
        (orig_namespaces, yield_namespaces),
        (orig_for_tests, _array_api_for_tests),
    ):
        _rebind(orig, new)


# ----------------------------------------------------------------------- SciPy


def _patch_scipy_conftest(conftest: Any) -> None:
    backend = importlib.import_module(BACKEND)
    conftest.xp_known_backends.add(OURS)
    func = conftest.xp.__wrapped__  # the generator behind @pytest.fixture
    conftest.xp = pytest.fixture(
        params=[
            pytest.param(backend, id=BACKEND, marks=pytest.mark.array_api_backends)
        ],
        name="xp",
    )(func)

    if MIRROR_MARKS:
        original = conftest._backends_kwargs_from_request

        def _backends_kwargs_from_request(request, skip_or_xfail):
            reasons = original(request, skip_or_xfail)
            if STRICT in reasons and OURS not in reasons:
                reasons[OURS] = reasons[STRICT] + " (mirrored from array_api_strict)"
            return reasons

        conftest._backends_kwargs_from_request = _backends_kwargs_from_request


def _mirror_scipy_name_checks() -> None:
    """In SciPy's imported test modules (only there), ``is_array_api_strict``
    answers ``True`` for ``ocean_array_api`` as well."""
    try:
        from scipy._lib import _array_api
    except ImportError:
        return
    original = _array_api.is_array_api_strict

    def is_array_api_strict(xp: Any) -> bool:
        return bool(original(xp)) or getattr(xp, "__name__", None) == OURS

    for name, module in list(sys.modules.items()):
        if not name.startswith("scipy.") or ".tests." not in name or module is None:
            continue
        if vars(module).get("is_array_api_strict") is original:
            module.is_array_api_strict = is_array_api_strict  # type: ignore[attr-defined]


# ------------------------------------------------------------------- the hooks


def pytest_plugin_registered(plugin: Any, plugin_name: str) -> None:
    if getattr(plugin, "__name__", None) == "scipy.conftest":
        _patch_scipy_conftest(plugin)


def pytest_configure(config: pytest.Config) -> None:
    _patch_sklearn()


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    if MIRROR_NAMES and BACKEND == OURS:  # the test modules are imported by now
        _mirror_scipy_name_checks()
    if ALL_TESTS:
        return
    keep, drop = [], []
    for item in items:
        on_backend = BACKEND in item.nodeid or (
            item.get_closest_marker("array_api_backends") is not None
        )
        (keep if on_backend else drop).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def _message(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if longrepr is None:
        return ""
    if isinstance(longrepr, tuple):  # a skip: (path, line, reason)
        return str(longrepr[2])
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message
    return str(longrepr)[-2000:]


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    entry = _outcomes.setdefault(report.nodeid, {"outcome": "passed", "message": ""})
    if hasattr(report, "wasxfail"):
        outcome = "xfailed" if report.skipped else "xpassed"
    elif report.failed:
        outcome = "failed" if report.when == "call" else "error"
    elif report.skipped:
        outcome = "skipped"
    else:
        return
    if entry["outcome"] in {"failed", "error"}:
        return  # a teardown after a failure does not hide the failure
    entry["outcome"] = outcome
    entry["message"] = _message(report)[:4000]
    entry["when"] = report.when


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:  # a module that cannot be imported or parametrised
        _outcomes[report.nodeid] = {
            "outcome": "collect-error",
            "message": _message(report)[:4000],  # type: ignore[arg-type]
            "when": "collect",
        }


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if hasattr(session.config, "workerinput"):
        return  # xdist worker: the controller receives and writes every report
    out = os.environ.get("OCEAN_SUITES_OUT")
    if out:
        with open(out, "w") as f:
            json.dump(
                {
                    "backend": BACKEND,
                    "exitstatus": int(exitstatus),
                    "tests": _outcomes,
                    # test-id fragments of this run -> array-api-strict's
                    "device_aliases": {v: k for k, v in DEVICE_NAMES.items()}
                    if BACKEND == OURS
                    else {},
                },
                f,
                indent=1,
                sort_keys=True,
            )
