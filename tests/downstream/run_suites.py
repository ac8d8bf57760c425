"""Run SciPy's and scikit-learn's own array-API tests on our namespace and on
array-api-strict, and compare them test by test.

The tests are those shipped in the installed wheels; nothing installed is
edited: ``ocean_suites_plugin`` (loaded with ``-p``) swaps the libraries'
backend lists in memory.  Each (library, backend) pair runs in its own pytest
process from a scratch directory, with ``downstream.ini`` as configuration;
outcomes go to ``<out>/<library>-<backend>.json`` and the comparison to
``<out>/<library>-comparison.json``, also printed as a summary::

    python tests/downstream/run_suites.py --library scipy --paths scipy.special
    python tests/downstream/run_suites.py --library sklearn -n 2 -k "pca or ridge"

Test ids are compared with the backend's name replaced by ``{xp}``.  A
*regression* is a test that passed on array-api-strict and did not pass on
ours.  Exit status: 0, or 1 when there are regressions outside ``--allow``.

API versions: SciPy pins array-api-strict to 2024.12 (``scipy/conftest.py``),
so ours runs at 2024.12 there; scikit-learn sets array-api-strict to 2025.12
(``sklearn.utils._array_api.get_namespace``), so ours runs at 2025.12 there.
``--api-version`` overrides ours.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
OURS = "ocean_array_api"
STRICT = "array_api_strict"
BACKENDS = (STRICT, OURS)
API_VERSION = {"scipy": "2024.12", "sklearn": "2025.12"}
PASSING = {"passed", "xpassed"}

# SciPy: the subpackages whose tests use the ``xp`` fixture.
SCIPY_PATHS = [
    "scipy._lib",
    "scipy.cluster",
    "scipy.constants",
    # (not scipy.datasets: its tests need pooch and the network)
    "scipy.differentiate",
    "scipy.fft",
    "scipy.integrate",
    "scipy.interpolate",
    "scipy.io",
    "scipy.linalg",
    "scipy.ndimage",
    "scipy.optimize",
    "scipy.signal",
    "scipy.sparse",
    "scipy.spatial",
    "scipy.special",
    "scipy.stats",
]


def sklearn_paths() -> list[str]:
    """scikit-learn's test files that are parametrised over array namespaces
    (plus ``sklearn/tests/test_common.py``, whose estimator checks are)."""
    import importlib.util

    spec = importlib.util.find_spec("sklearn")
    if spec is None or spec.origin is None:
        return []
    root = Path(spec.origin).parent
    found = []
    for path in sorted(root.rglob("tests/test_*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        top_common = path.name == "test_common.py" and path.parent.parent == root
        if "yield_namespace" in text or top_common:
            found.append(str(path))
    return found


def normalise(nodeid: str) -> str:
    return nodeid.replace(OURS, "{xp}").replace(STRICT, "{xp}")


def run_one(
    library: str,
    backend: str,
    paths: list[str],
    out: Path,
    *,
    keyword: str | None,
    workers: int,
    api_version: str | None,
    mirror_marks: bool,
    extra: list[str],
    mirror_names: bool = False,
) -> Path:
    """One pytest process; returns the path of its JSON outcomes."""
    result = out / f"{library}-{backend}.json"
    result.unlink(missing_ok=True)
    env = dict(os.environ)
    env.pop("OCEAN_ARRAY_API_VERSION", None)
    env.update(
        {
            # Our checkout (and its backends) first, then this directory for
            # the plugin: the children must not import another install.
            "PYTHONPATH": os.pathsep.join(
                [str(REPO_ROOT), str(REPO_ROOT / "backends"), str(HERE)]
                + [p for p in [os.environ.get("PYTHONPATH")] if p]
            ),
            "SCIPY_ARRAY_API": "1",
            "OCEAN_SUITES_BACKEND": backend,
            "OCEAN_SUITES_OUT": str(result),
            "OCEAN_SUITES_MIRROR_MARKS": "1" if mirror_marks else "0",
            "OCEAN_SUITES_MIRROR_NAMES": "1" if mirror_names else "0",
        }
    )
    if backend == OURS:
        env["OCEAN_ARRAY_API_VERSION"] = api_version or API_VERSION[library]
    site = sysconfig.get_paths()["purelib"]
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-c",
        str(HERE / "downstream.ini"),
        "--rootdir",
        site,
        "-p",
        "ocean_suites_plugin",
        "--disable-warnings",
    ]
    if workers > 1:
        cmd += ["-n", str(workers)]
    if keyword:
        cmd += ["-k", keyword]
    cmd += extra
    if any("/" not in p for p in paths):
        cmd.append("--pyargs")
    cmd += paths
    with tempfile.TemporaryDirectory(prefix="ocean-suites-") as scratch:
        start = time.monotonic()
        proc = subprocess.run(
            cmd, env=env, cwd=scratch, capture_output=True, text=True, check=False
        )
        elapsed = time.monotonic() - start
    tail = "\n".join(proc.stdout.strip().splitlines()[-1:])
    print(f"[{library} / {backend}] exit {proc.returncode} in {elapsed:.0f}s: {tail}")
    if not result.exists():
        sys.stderr.write(proc.stdout[-5000:] + proc.stderr[-5000:])
        raise SystemExit(f"{library} / {backend}: pytest wrote no outcomes")
    data = json.loads(result.read_text())
    data["seconds"] = elapsed
    result.write_text(json.dumps(data, indent=1, sort_keys=True))
    return result


def _ids(run: dict) -> dict[str, dict]:
    aliases = run.get("device_aliases", {})
    out = {}
    for test, outcome in run["tests"].items():
        for ours, theirs in aliases.items():
            test = test.replace(ours, theirs)
        out[normalise(test)] = outcome
    return out


def compare(strict: dict, ours: dict) -> dict:
    """Per normalised test id: the counts and the regressions."""
    s, o = _ids(strict), _ids(ours)
    # Tests that name array_api_strict themselves (not through the patched
    # backend lists) run on strict in both runs: ours deselects them.  They
    # are listed apart, not as regressions; ours' collection errors are
    # regressions (their ids are module ids, in both runs' terms).
    regressions = {
        test: {"ours": o[test]["outcome"], "message": o[test]["message"]}
        for test, v in sorted(s.items())
        if v["outcome"] in PASSING and test in o and o[test]["outcome"] not in PASSING
    }
    regressions.update(
        {
            test: {"ours": v["outcome"], "message": v["message"]}
            for test, v in sorted(o.items())
            if v["outcome"] == "collect-error"
            and s.get(test, {}).get("outcome") != "collect-error"
        }
    )
    return {
        "selected_strict": len(s),
        "selected_ours": len(o),
        "passed_strict": sum(v["outcome"] in PASSING for v in s.values()),
        "passed_ours": sum(v["outcome"] in PASSING for v in o.values()),
        "passed_both": sum(
            v["outcome"] in PASSING and o.get(t, {}).get("outcome") in PASSING
            for t, v in s.items()
        ),
        "passed_ours_only": sorted(
            t
            for t, v in o.items()
            if v["outcome"] in PASSING and s.get(t, {}).get("outcome") not in PASSING
        ),
        "regressions": regressions,
        "only_strict": sorted(set(s) - set(o)),
    }


def allowed(test: str, allow: list[str]) -> bool:
    return any(re.search(pattern, test) for pattern in allow)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--library", choices=["scipy", "sklearn", "both"], default="both"
    )
    parser.add_argument(
        "--backend",
        choices=[*BACKENDS, "both"],
        default="both",
        help="run only one backend (the comparison needs both)",
    )
    parser.add_argument(
        "--paths",
        nargs="+",
        help="test modules or files (default: every array-API module)",
    )
    parser.add_argument("-k", dest="keyword", help="pytest -k expression")
    parser.add_argument("-n", dest="workers", type=int, default=1, help="xdist")
    parser.add_argument(
        "--api-version", help="ours: OCEAN_ARRAY_API_VERSION (default as above)"
    )
    parser.add_argument(
        "--no-mirror-marks",
        action="store_true",
        help="run ours on tests SciPy skips/xfails for array_api_strict",
    )
    parser.add_argument(
        "--mirror-name-checks",
        action="store_true",
        help="SciPy's tests' own is_array_api_strict(xp) calls say True for ours",
    )
    parser.add_argument(
        "--out", type=Path, default=Path("downstream-results"), help="directory"
    )
    parser.add_argument(
        "--allow",
        action="append",
        default=[],
        help="regex on normalised test ids: an accepted regression (repeatable)",
    )
    parser.add_argument(
        "pytest_args", nargs="*", help="after --: more pytest arguments"
    )
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    libraries = ["scipy", "sklearn"] if args.library == "both" else [args.library]
    backends = BACKENDS if args.backend == "both" else (args.backend,)
    status = 0
    for library in libraries:
        paths = args.paths or (SCIPY_PATHS if library == "scipy" else sklearn_paths())
        files = {
            backend: run_one(
                library,
                backend,
                paths,
                args.out,
                keyword=args.keyword,
                workers=args.workers,
                api_version=args.api_version,
                mirror_marks=not args.no_mirror_marks,
                extra=args.pytest_args,
                mirror_names=args.mirror_name_checks,
            )
            for backend in backends
        }
        if len(files) < 2:
            continue
        report = compare(
            json.loads(files[STRICT].read_text()), json.loads(files[OURS].read_text())
        )
        report["library"] = library
        report["unexpected"] = sorted(
            t for t in report["regressions"] if not allowed(t, args.allow)
        )
        (args.out / f"{library}-comparison.json").write_text(
            json.dumps(report, indent=1, sort_keys=True)
        )
        print(
            f"{library}: selected {report['selected_strict']} (strict) / "
            f"{report['selected_ours']} (ours); passed {report['passed_strict']} "
            f"(strict) / {report['passed_ours']} (ours); pass on strict, not on "
            f"ours: {len(report['regressions'])} "
            f"({len(report['unexpected'])} not allowed)"
        )
        for test in report["unexpected"]:
            entry = report["regressions"][test]
            message = entry["message"].strip().splitlines()
            print(f"  {test}: {entry['ours']}: {message[0][:200] if message else ''}")
        if report["unexpected"]:
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(main())
