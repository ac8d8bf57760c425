"""The benchmark script still runs and writes what the docs show.

``benchmarks/bench.py`` is a measurement, not a test: nothing here looks at a
time (the machine is shared and noisy).  A tiny run checks that the results
file is valid and carries the machine and every target with a
verdict, and that ``--plots`` writes the plots and the tables that
``docs/benchmarks.md`` includes.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

BENCH_DIR = Path(__file__).resolve().parent.parent / "benchmarks"

TARGET_KEYS = [
    "small_geomean",
    "small_max",
    "setitem_ellipsis",
    "view_slice_ns",
    "view_reshape_ns",
    "view_mT_ns",
    "asarray_ndarray_ns",
    "large_geomean",
    "sort_i64_1e6",
    "sort_i64_1e7",
    "sort_f64_1e6",
    "sort_f64_1e7",
    "import_s",
]
OPS = "add,slice,reshape,mT,setitem_ellipsis,asarray_ndarray,sort_*,sum_axis1,f16_add"
TINY = [
    "--ops", OPS, "--sizes", "8,1000", "--reps", "2", "--min-sample-us", "5",
    "--budget-s", "0.05", "--import-runs", "1",
]  # fmt: skip


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(BENCH_DIR))
    import bench

    return bench


def test_cases_cover_the_issue_list(bench: Any) -> None:
    groups = {c.group for c in bench.CASES.values()}
    assert set(bench.TARGET_GROUPS) <= groups
    # the targets name these cases: renaming one would silently drop a target
    for name in ("slice", "reshape", "mT", "setitem_ellipsis", "asarray_ndarray",
                 "sort_i64", "sort_f64"):  # fmt: skip
        assert name in bench.CASES


def test_json_has_machine_results_and_targets(
    bench: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.json"
    assert bench.main([*TINY, "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "The targets" in text
    payload = json.loads(out.read_text())
    meta = payload["meta"]
    for key in ("date", "cpu", "cpus", "os", "python", "numpy", "fastpath", "command"):
        assert key in meta
    assert next(iter(meta["libraries"])) == "numpy"
    assert {"numpy", "strict", "compat", "ocean"} <= set(meta["libraries"])
    targets = payload["summary"]["targets"]
    assert [t["key"] for t in targets] == TARGET_KEYS
    for t in targets:
        # a verdict exactly when something was measured, and the right one
        if t["value"] is None:
            assert t["pass"] is None
        else:
            assert t["pass"] is (t["value"] <= t["limit"])
    by_key = {t["key"]: t for t in targets}
    assert by_key["sort_f64_1e6"]["value"] is None  # not a size of this run
    assert by_key["small_geomean"]["value"] > 0
    assert by_key["import_s"]["value"] > 0
    ran = {(r["op"], r["size"], r["library"]): r for r in payload["results"]}
    for op in ("add", "slice", "mT", "setitem_ellipsis", "sort_f64", "sum_axis1"):
        for n in (8, 1000):
            for lib in ("numpy", "compat", "ocean"):
                cell = ran[(op, n, lib)]
                assert cell["status"] == "ok", cell
                assert math.isfinite(cell["value_ns"])
                assert cell["value_ns"] > 0
    # float16 is an ocean_ext dtype: array-api-strict has none
    assert ran[("f16_add", 8, "strict")]["status"] == "n/a"


def test_plots_and_tables(
    bench: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # matplotlib is optional (the `bench` extra): the docs show committed plots,
    # so neither CI's docs build nor the package needs it.
    pytest.importorskip("matplotlib")
    assert bench.main([*TINY, "--plots", str(tmp_path)]) == 0
    capsys.readouterr()
    for name in ("results.json", "summary.md", "cases.md", "ratios_small.svg",
                 "ratios_ext.svg", "scaling.svg"):  # fmt: skip
        assert (tmp_path / name).stat().st_size > 0, name
    assert (tmp_path / "ratios_small.svg").read_text().lstrip().startswith("<?xml")
    summary = (tmp_path / "summary.md").read_text()
    assert "## Targets" in summary
    assert "| `import ocean_array_api`" in summary
    assert "`setitem_ellipsis`" in (tmp_path / "cases.md").read_text()
    # no large size in this run: no large-array chart
    assert not (tmp_path / "ratios_large.svg").exists()

    # benchmarks/plot.py redraws from the results file alone
    import plot

    redraw = tmp_path / "redraw"
    assert plot.main([str(tmp_path / "results.json"), str(redraw)]) == 0
    assert (redraw / "scaling.svg").stat().st_size > 0


THREAD_TARGET_KEYS = ["threads_geomean", "threads_max", "threads_numexpr"]


def test_threads_suite(
    bench: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # --threads: NumPy, numexpr (when installed) and ocean on 1, 2 and all
    # threads, in one run, with its own targets (at 1e7 elements: not
    # measured by this tiny run)
    out = tmp_path / "t.json"
    args = ["--threads", "--ops", "exp,add,sum", "--sizes", "5000", "--reps", "2",
            "--min-sample-us", "5", "--budget-s", "0.05", "--json", str(out)]  # fmt: skip
    assert bench.main(args) == 0
    assert "The targets" in capsys.readouterr().out
    payload = json.loads(out.read_text())
    assert payload["meta"]["suite"] == "threads"
    libs = list(payload["meta"]["libraries"])
    assert libs[0] == "numpy"
    assert {"ocean_1", "ocean_2", "ocean"} <= set(libs)
    targets = payload["summary"]["targets"]
    assert [t["key"] for t in targets] == THREAD_TARGET_KEYS
    assert all(t["value"] is None and t["pass"] is None for t in targets)
    ran = {(r["op"], r["library"]): r for r in payload["results"]}
    for op in ("exp", "add", "sum"):
        for lib in ("numpy", "ocean_1", "ocean_2", "ocean"):
            assert ran[(op, lib)]["status"] == "ok", ran[(op, lib)]
    # the thread counts the run used
    assert payload["meta"]["threads"]["cores"] >= 1
    if "numexpr" in libs:
        assert ran[("exp", "numexpr")]["status"] == "ok"
        assert payload["meta"]["threads"]["numexpr"] >= 1


def test_threads_targets_verdicts(bench: Any) -> None:
    # the targets read the 1e7 cells: a made-up run at that size
    libs = [bench.Library(k, k, None, lambda a: a) for k in bench.THREAD_LIBRARIES]
    results = []
    for op in bench.THREAD_TARGET_OPS:
        cells = {}
        for lib, ns in (("numpy", 10.0), ("numexpr", 7.0), ("ocean_1", 10.0),
                        ("ocean_2", 6.0), ("ocean", 6.0)):  # fmt: skip
            cells[lib] = bench.Cell(samples_ns=[ns])
        if op == "sum":
            cells["ocean"] = bench.Cell(samples_ns=[11.0])  # above NumPy
        results.append((bench.CASES[op], bench.THREAD_SIZE, cells))
    targets = {t["key"]: t for t in bench.summarize_threads(results, libs)["targets"]}
    assert targets["threads_geomean"]["pass"] is True
    assert targets["threads_max"]["pass"] is False
    assert "sum" in targets["threads_max"]["detail"]
    assert targets["threads_numexpr"]["pass"] is False  # sum: 11 against 7


def test_threads_plots(
    bench: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    args = ["--threads", "--ops", "exp,add", "--sizes", "5000,10000", "--reps", "2",
            "--min-sample-us", "5", "--budget-s", "0.05", "--plots", str(tmp_path)]  # fmt: skip
    assert bench.main(args) == 0
    capsys.readouterr()
    out = tmp_path / "threads"
    for name in ("results.json", "summary.md", "ratios.svg", "threads.svg"):
        assert (out / name).stat().st_size > 0, name
    summary = (out / "summary.md").read_text()
    assert "| `exp` |" in summary
    assert "geometric mean" in summary
