"""The command line: exit statuses, options and reports."""

from __future__ import annotations

import json
import subprocess
import sys

from conformance.calls import Arr, Call, render_repro
from conformance.runner import Options, run_entries
from tests.conformance.mutants import MUTANTS

from .conftest import ROOT, tool_env


def test_unimportable_target_exits_2(tool):
    r = tool("no_such_array_library", "--quick")
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1
    assert "cannot import 'no_such_array_library'" in r.stderr


def test_unknown_device_exits_2(tool):
    r = tool("ocean_array_api", "--device", "tpu:7", "--only", "sign")
    assert r.returncode == 2
    assert "unknown device 'tpu:7'" in r.stderr
    assert "cpu:1" in r.stderr  # lists the devices there are


def test_unknown_name_exits_2(tool):
    r = tool("ocean_array_api", "--only", "no_such_function")
    assert r.returncode == 2
    assert "not in the 2025.12 standard" in r.stderr


def test_reference_conforms_with_reports(tool, tmp_path):
    paths = {k: tmp_path / f"r.{k}" for k in ("json", "html", "markdown", "xfails")}
    r = tool(
        "ocean_array_api",
        "--quick",
        "--device",
        "cpu:1",
        "--only",
        "sign,add,Array.__iadd__,linalg.eigh,fft.fft,unique_all,pi,info.devices",
        "--database",
        str(tmp_path / "db"),
        *(a for k, p in paths.items() for a in (f"--{k}", str(p))),
    )
    assert r.returncode == 0, r.stdout + r.stderr
    data = json.loads(paths["json"].read_text())
    assert data["conforms"] is True
    assert data["device"] == "cpu:1"
    assert data["functions"]["linalg.eigh"]["verdict"] == "conforms"
    assert data["functions"]["linalg.eigh"]["deviations"] == []
    assert data["dashboard"]["schema"] == "v1"
    assert data["dashboard"]["results"]["fft.fft"] == "pass"
    assert "<table>" in paths["html"].read_text()
    md = paths["markdown"].read_text()
    assert "## Conforming (8 names)" in md
    assert "`sign`" in md
    # no empty sections: nothing deviates, so there is no Deviations heading
    assert "## Deviations" not in md
    assert "###" not in md
    assert "array_api_tests/" not in paths["xfails"].read_text()


def test_a_deviation_exits_1_with_a_runnable_repro(tool, tmp_path):
    out = tmp_path / "r.json"
    xf = tmp_path / "xfails.txt"
    r = tool(
        "tests.conformance.mutants.sign_negative_zero",
        "--quick",
        "--only",
        "sign",
        "--database",
        "",
        "--json",
        str(out),
        "--xfails",
        str(xf),
    )
    assert r.returncode == 1, r.stdout + r.stderr
    sign = json.loads(out.read_text())["functions"]["sign"]
    assert sign["verdict"] == "deviates"
    dev = sign["deviations"][0]
    assert set(dev) >= {"kind", "feature", "dtype", "device", "repro", "expected"}
    # the special-value grid always shows it; drawn inputs may show it too
    assert "special-case" in {d["kind"] for d in sign["deviations"]}
    assert "test_operators_and_elementwise_functions.py::test_sign" in xf.read_text()


def _run_repro(code: str) -> str:
    assert len(code.splitlines()) <= 5, code
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=tool_env(),
        cwd=ROOT,
        check=False,
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_repros_run_and_show_the_bug():
    # Each repro runs against the mutant alone and prints something else than
    # the same lines run against the unmutated array-api-strict.
    for name in (
        "sign_negative_zero",
        "add_int8_uint8_is_int8",
        "ones_like_default_device",
    ):
        m = MUTANTS[name]
        records = run_entries(
            [m.only],
            Options(
                f"tests.conformance.mutants.{name}",
                quick=True,
                device=m.device,
                database=None,
            ),
        )
        bad = [r for r in records if r.verdict == "deviates"]
        assert bad, name
        code = bad[0].repro
        assert code.splitlines()[-1].startswith("# expected: "), code
        out = _run_repro(code)
        base = _run_repro(
            code.replace(
                f"import tests.conformance.mutants.{name} as xp",
                "import array_api_strict as xp",
            )
        )
        assert out.strip(), name
        assert out != base, (name, code, out)


def test_repro_literals_survive_special_values():
    import ocean_array_api as xp

    x = xp.asarray([float("nan"), -0.0, float("-inf")], dtype=xp.float32)
    z = xp.asarray([complex(float("nan"), 1.0)], dtype=xp.complex64)
    code = render_repro(
        Call("add", (Arr(x, "x1"), Arr(z, "x2")), {}), "ocean_array_api", "x"
    )
    assert "float('nan')" in code
    assert "-0.0" in code
    assert "complex(float('nan'), 1.0)" in code
    _run_repro(code.replace("xp.add(x1, x2)", "x1, x2"))


def test_same_seed_same_verdicts():
    def verdicts(seed):
        opts = Options(
            "tests.conformance.mutants.hypot_overflows",
            quick=True,
            seed=seed,
            database=None,
        )
        return [
            (r.feature, r.dtype, r.verdict, r.message, r.repro)
            for r in run_entries(["hypot"], opts)
        ]

    assert verdicts(3) == verdicts(3)


def test_failing_examples_are_kept_for_replay(tmp_path):
    db = tmp_path / "db"
    opts = Options(
        "tests.conformance.mutants.searchsorted_ignores_side",
        quick=True,
        database=str(db),
    )

    def deviations():
        return {
            (r.feature, r.dtype): r.repro
            for r in run_entries(["searchsorted"], opts)
            if r.verdict == "deviates"
        }

    first = deviations()
    assert first
    assert any(db.rglob("*"))
    opts.seed = 12345  # another seed: the database still replays the same examples
    again = deviations()
    # (another seed may find more cells deviating; the ones found stay the same)
    assert {k: again.get(k) for k in first} == first


def test_parallel_matches_serial():
    only = ("sign", "add", "sum", "sort", "linalg.inv", "pi")
    serial = Options(
        "ocean_array_api", quick=True, only=only, database=None, max_examples=3
    )
    from conformance.runner import run

    a, _ = run(serial)
    b, _ = run(
        Options(
            "ocean_array_api",
            quick=True,
            only=only,
            database=None,
            max_examples=3,
            jobs=2,
        )
    )
    key = lambda r: (r.name, r.feature, r.dtype, r.verdict)  # noqa: E731
    assert sorted(map(key, a)) == sorted(map(key, b))


def test_max_side_must_be_positive(tool):
    r = tool("ocean_array_api", "--only", "sign", "--max-side", "0")
    assert r.returncode == 2
    assert "--max-side" in r.stderr


def test_max_side_caps_drawn_shapes():
    from conformance import families

    class _Ctx:
        opts = Options(target="numpy", max_side=2)

    assert families._cap(_Ctx(), 4) == 2
    assert families._cap(_Ctx(), 4, min_side=3) == 3  # never below min_side
    _Ctx.opts = Options(target="numpy")
    assert families._cap(_Ctx(), 4) == 4
    recs = run_entries(
        ["sum"], Options(target="ocean_array_api", max_side=1, database=None)
    )
    assert recs
    assert all(r.verdict == "conforms" for r in recs), recs


def test_table_keeps_rows_it_wrote():
    from conformance.table import parse_markdown, to_markdown

    rows = [
        {
            "library": "numpy",
            "version": "2.0",
            "api_version": "2024.12",
            "seconds": 12.3,
            "counts": {"conforms": 5, "deviates": 2},
            "kinds": {"dtype": 3, "special-case": 1},
            "advisories": {"optional": 2},
            "advisory_names": 1,
        },
        {"library": "jax.numpy", "seconds": 1.0, "error": "cannot import"},
    ]
    text = to_markdown(rows, [])
    kept = parse_markdown(text)
    assert list(kept) == ["numpy"]  # a row saying why it did not run is not kept
    k = kept["numpy"]
    assert k["counts"]["conforms"] == 5
    assert k["counts"]["deviates"] == 2
    assert k["kinds"] == {"dtype": 3, "special-case": 1}
    assert k["advisories"] == {"optional": 2}
    assert k["api_version"] == "2024.12"
    assert k["seconds"] == 12.0
    assert k["kept"]
    again = to_markdown([k], [])
    assert " * | 2024.12 | 5 | 2 | 0 |" in again
    assert "kept: `numpy`" in again
    # a key to every column, the advisories apart, the reference said
    for col in ("conforms", "untestable", "advisories", "special-case", "optional"):
        assert f"- **{col}**" in again
    assert "## Advisories by kind" in again
    assert "is the reference" in again


def test_table_keys_advisories_as_recommendations_and_says_its_settings():
    from conformance.table import to_markdown

    row = {
        "library": "numpy",
        "version": "2.0",
        "api_version": "2024.12",
        "seconds": 1.0,
        "counts": {"conforms": 5, "deviates": 1},
        "kinds": {"exception": 1},
        "advisories": {"exception": 2},
        "advisory_names": 1,
    }
    text = to_markdown([row], ["-j", "2"])
    deviations, advisories = text.split("## Advisories by kind")
    # the same kind is a MUST among deviations and a SHOULD among advisories
    assert "- **exception**: no error where the standard requires one" in deviations
    assert "- **exception**: an error the standard recommends" in advisories
    assert "at its default settings, 2 worker processes per library" in text
    assert "at its `--quick` settings" in to_markdown([row], ["--quick"])


def test_table_keeps_a_row_of_the_older_layout_without_inventing_figures():
    from conformance.table import parse_markdown, to_markdown

    old = "\n".join(
        [
            "Generated by `python -m conformance.table` (standard 2025.12, CPU).",
            "",
            "| library | conforms | deviates | crashes | missing | untestable"
            " | value dev. | crash dev. | wall time | CPU time |",
            "|---|---|---|---|---|---|---|---|---|---|",
            "| `numpy` 2.4.6 | 256 | 11 | 0 | 0 | 0 | 3 | 0 | 287 s | 58 s |",
        ]
    )
    (row,) = parse_markdown(old).values()
    assert row["api_version"] == "2025.12"  # the page's one revision
    assert row["kinds"] == {"value": 3}
    assert row["kind_columns"] == ["crash", "value"]  # others: unknown, left empty
    fresh = {**row, "library": "torch", "kept": False, "kinds": {"exception": 1}}
    del fresh["kind_columns"]
    kinds_table = to_markdown([row, fresh], []).split("## Deviations by kind")[1]
    assert "| `numpy` | 3 |  |" in kinds_table  # exception: not recorded then
    assert row["advisory_names"] is None  # not recorded then: unknown, not 0
    text = to_markdown([row], [])
    assert "| `numpy` 2.4.6 * | 2025.12 | 256 | 11 | 0 | 0 | 0 |  | 287 s | 58 s |" in (
        text
    )


def test_table_kept_rows_with_unrecorded_figures_round_trip():
    # a kept row whose run did not record advisories or some kinds has empty
    # cells: reading the page back leaves them unknown (None, not 0), and
    # rendering again leaves them empty
    from pathlib import Path

    from conformance.table import parse_markdown, to_markdown

    page = (
        Path(__file__).resolve().parents[2] / "docs" / "conformance_table.md"
    ).read_text()
    rows = parse_markdown(page)
    kept = [r for r in rows.values() if r.get("kept")]
    for r in kept:
        again = parse_markdown(to_markdown(list(rows.values()), []))[r["library"]]
        assert again.get("advisory_names") == r.get("advisory_names")
        assert again["kinds"] == r["kinds"]
    fresh = {**next(iter(rows.values())), "library": "x", "kept": True}
    fresh.update(advisory_names=None, advisories=None, kinds={"value": 3},
                 kind_columns=["value"])  # fmt: skip
    other = {**fresh, "library": "y", "kept": False, "kinds": {"dtype": 2}}
    other.update(advisory_names=0, advisories={})
    other.pop("kind_columns", None)
    back = parse_markdown(to_markdown([fresh, other], []))
    assert back["x"]["advisory_names"] is None
    assert back["x"]["kinds"] == {"value": 3}
    assert "dtype" not in back["x"]["kind_columns"]  # its dtype cell: empty
    assert back["y"]["kinds"] == {"dtype": 2}


def test_workers_are_spawned_where_a_loaded_library_runs_threads(monkeypatch):
    # A forked worker of a process running JAX's threads may wait forever on
    # a lock one of them held (a -j 2 run on jax.numpy hung so): spawn then.
    import sys
    import types

    from conformance import runner

    monkeypatch.delitem(sys.modules, "jax", raising=False)
    assert runner._start_method("numpy") == "fork"
    assert runner._start_method("jax.numpy") == "spawn"
    monkeypatch.setitem(sys.modules, "jax", types.ModuleType("jax"))
    assert runner._start_method("array_api_compat.jax") == "spawn"
    assert runner._start_method("numpy") == "spawn"


def test_spawned_workers_give_the_forked_workers_records(monkeypatch):
    from conformance import runner

    def records(method):
        monkeypatch.setattr(runner, "_start_method", lambda target: method)
        opts = runner.Options(
            target="array_api_strict", quick=True, jobs=2, only=("abs", "sum", "flip"),
            database=None, prove=False,
        )  # fmt: skip
        recs, _ = runner.run(opts)
        return sorted((r.name, r.feature, r.dtype, r.verdict) for r in recs)

    forked = records("fork")
    assert forked
    assert records("spawn") == forked


def test_repro_proofs_do_not_fork_once_a_threaded_runtime_is_loaded(monkeypatch):
    # the same predicate as -j: a wrapper (array_api_compat.jax) loads JAX
    # although its own name is not on the list
    import sys
    import types

    from conformance import prove

    monkeypatch.delitem(sys.modules, "jax", raising=False)
    assert prove.can_fork("array_api_compat.numpy") == hasattr(__import__("os"), "fork")
    monkeypatch.setitem(sys.modules, "jax", types.ModuleType("jax"))
    assert not prove.can_fork("array_api_compat.jax")
    # a harness told not to fork preloads nothing and runs one repro per process
    assert """fork = hasattr(os, "fork") and ''""" in prove._harness("m", False)
