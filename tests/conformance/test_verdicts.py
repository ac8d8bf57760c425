"""Verdicts that follow the standard's words, repros that run, usable outputs."""

from __future__ import annotations

import json

import numpy as np
import pytest

from conformance import report
from conformance.calls import DEV, Arr, Call, render_repro
from conformance.checks import Where, where_differs
from conformance.prove import PROVEN
from conformance.runner import Options, _quick_pick, run, run_entries

from .conftest import ROOT


def _bad(records):
    return [r for r in records if r.verdict in ("deviates", "crashes", "missing")]


@pytest.mark.parametrize(
    ("variant", "names"),
    [
        ("no_data_dependent_shapes", ["unique_values", "unique_all", "nonzero"]),
        ("no_boolean_indexing", ["Array.__getitem__"]),
        ("flushes_subnormals", ["multiply", "sqrt"]),
        ("recommended_errors_not_raised", ["squeeze", "matmul"]),
        ("inplace_without_mutation", ["Array.__iadd__"]),
        ("signed_zero_order_swapped", ["minimum", "maximum"]),
    ],
)
def test_what_the_standard_allows_is_never_a_deviation(variant, names):
    records = run_entries(
        names,
        Options(f"tests.conformance.mutants.{variant}", quick=True, database=None),
    )
    assert not _bad(records), [(r.name, r.feature, r.message) for r in _bad(records)]
    if variant not in ("flushes_subnormals", "signed_zero_order_swapped"):
        # FTZ and the order of signed zeros are implementation-defined: silent
        assert any(r.verdict == "advisory" for r in records)
    verdicts = report.name_verdicts(records)
    assert "deviates" not in verdicts.values()


def test_a_should_level_departure_is_an_advisory_not_a_deviation():
    # "nan values should be considered distinct"
    records = run_entries(
        ["unique_values"],
        Options(
            "tests.conformance.mutants.unique_values_merges_nans",
            quick=True,
            database=None,
        ),
    )
    assert not _bad(records)
    adv = [r for r in records if r.verdict == "advisory"]
    assert {r.feature for r in adv} == {"nan,signed-zero"}


def test_the_declared_revision_is_the_default():
    opts = Options("tests.conformance.mutants.declares_2023_12", database=None)
    records = run_entries(["__array_api_version__"], opts)
    assert opts.version == "2023.12"
    assert "declared by" in opts.version_note
    assert all(r.verdict == "conforms" for r in records)
    # --version overrides; the declaration then differs, which is no deviation
    opts = Options(
        "tests.conformance.mutants.declares_2023_12", version="2025.12", database=None
    )
    records = run_entries(["__array_api_version__"], opts)
    assert [r.verdict for r in records if r.feature == "value"] == ["advisory"]


def test_a_missing_in_place_operator_is_an_advisory():
    from conformance.registry import build_registry
    from conformance.runner import make_context
    from conformance.static import check_static

    ctx = make_context(Options("array_api_strict", database=None))

    class NoInPlace:  # an array type of a library without mutation
        pass

    ctx.target_array = lambda: NoInPlace()
    entry = build_registry(ctx.version)["Array.__iadd__"]
    (rec,) = check_static(entry, ctx)
    assert rec.verdict == "advisory"
    assert "falls back to __add__" in rec.message


def test_a_result_without_device_is_placed_by_dlpack():
    class NoDevice:
        def __init__(self, where):
            self.where = where

        def __dlpack_device__(self):
            return self.where

    assert where_differs(NoDevice((1, 0)), Where("cpu", (1, 0))) == ""
    assert "DLPack device (2, 0)" in where_differs(
        NoDevice((2, 0)), Where("cpu", (1, 0))
    )
    # nothing tells where it is: nothing reported (Array.device reports it once)
    assert where_differs(object(), Where("cpu", (1, 0))) == ""
    assert where_differs(object(), "cpu") == ""


def test_quick_keeps_one_dtype_per_promotion_group_and_takes_turns():
    names = (
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "complex64",
        "complex128",
    )
    first, second = _quick_pick(names, 0), _quick_pick(names, 1)
    assert {"float32", "float64", "bool"} <= set(first)
    # a narrow and a wide integer of each signedness in every pick
    for pick in (first, second):
        assert len({d for d in pick if d.startswith("int")}) == 2
        assert len({d for d in pick if d.startswith("uint")}) == 2
    # over two features, every dtype runs
    assert set(first) | set(second) == set(names)


def test_every_deviation_repro_was_run_and_shows_it():
    opts = Options(
        "tests.conformance.mutants.add_int8_uint8_is_int8",
        quick=True,
        only=("add", "clip"),
        database=None,
    )
    records, _ = run(opts)
    bad = _bad(records)
    assert bad
    for r in bad:
        assert r.proof == PROVEN, (r.feature, r.proof)
        assert r.repro


def test_a_repro_that_does_not_reproduce_is_dropped():
    from conformance.prove import prove
    from conformance.runner import Record

    r = Record("sign", "default", "float32", "default", "deviates", "value")
    r.repro = "import numpy as xp\nprint(xp.sign(xp.asarray([1.0])))"
    r.proof_spec = {
        "setup": ["import numpy as xp"],
        "expr": "xp.sign(xp.asarray([1.0]))",
        "got": "float64 (1,) [-1.0] on cpu",  # not what numpy gives
        "want": "float64 (1,) [1.0]",
    }
    broken = Record("sign", "default", "float64", "default", "deviates", "value")
    broken.repro = "x"
    broken.proof_spec = {"setup": ["import numpy as xp", "y = undefined"], "expr": "y"}
    broken.proof_spec["got"] = ""
    prove([r, broken], Options("numpy"))
    assert r.repro is None
    assert r.proof.startswith("no standalone repro: run alone, the call gives")
    assert broken.repro is None
    assert "NameError" in broken.proof


def test_repros_keep_zero_length_dimensions_and_define_the_device():
    import ocean_array_api as xp

    x = xp.zeros((0, 3), dtype=xp.float32)
    code = render_repro(Call("ones_like", (Arr(x),), {"device": DEV}), "numpy", "e")
    assert "xp.zeros((0, 3), dtype=xp.float32)" in code
    assert "DEV = xp.__array_namespace_info__().default_device()" in code
    setitem = Call(
        "Array.__setitem__", (Arr(xp.asarray([1.0, 2.0])), slice(None, None, -1), 3.0)
    )
    lines = render_repro(setitem, "numpy", "e").splitlines()
    assert lines[-3:-1] == ["x[::-1] = 3.0", "print(x)"]
    lazy = render_repro(Call("sin", (Arr(x),)), "dask.array", "e", lazy=True)
    assert "print(xp.sin(x).compute())" in lazy
    # an operator's result is computed, not its right operand
    y = xp.asarray(0.5)
    power = Call("Array.__pow__", (Arr(x), Arr(y)))
    lazy = render_repro(power, "dask.array", "e", lazy=True)
    assert lazy.splitlines()[-2] == "print((x ** x_).compute())"


def test_signature_deviations_get_an_inspect_repro():
    opts = Options("numpy", quick=True, only=("argsort",), database=None)
    records, _ = run(opts)
    (sig,) = [r for r in records if r.feature == "signature"]
    assert sig.verdict == "deviates"
    assert "print(inspect.signature(xp.argsort))" in sig.repro
    assert sig.proof == PROVEN
    # the cells that pass the missing keyword are one group in the summary
    text = report.summary(records, opts, 1.0)
    assert (
        sum(line.startswith("  argsort: signature") for line in text.splitlines()) == 1
    )


def test_xfails_file_holds_plain_ids_with_comments_on_their_own_lines():
    opts = Options("numpy", quick=True, only=("argsort", "can_cast"), database=None)
    records, _ = run(opts)
    text = report.to_xfails(records, opts)
    ids = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    assert "array_api_tests/test_signatures.py::test_func_signature[argsort]" in ids
    assert all("#" not in i and " " not in i for i in ids)


def test_reports_are_written_as_names_finish_and_on_ctrl_c(tmp_path):
    seen = []
    calls = [0]

    def progress(done, total, name):
        calls[0] += 1
        if calls[0] == 2:
            raise KeyboardInterrupt

    opts = Options(
        "ocean_array_api",
        quick=True,
        only=("sign", "add", "sum"),
        database=None,
        progress=progress,
    )
    records, secs = run(opts, on_records=lambda rs: seen.append(len(rs)))
    assert opts.interrupted
    assert seen  # the first name's records were handed over as it finished
    assert {r.name for r in records} < {"sign", "add", "sum"}
    data = report.to_json(records, opts, secs)
    assert data["complete"] is False
    json.dumps(data)


def test_json_has_coverage_and_advisories(tmp_path, tool):
    out = tmp_path / "r.json"
    r = tool(
        "tests.conformance.mutants.recommended_errors_not_raised",
        "--quick",
        "--only",
        "sum,squeeze",
        "--database",
        "",
        "--json",
        str(out),
    )
    data = json.loads(out.read_text())
    assert r.returncode == 1  # array-api-strict: sum over axis 0 of a 0-d array
    cov = data["coverage"]["sum"]
    for cls in ("NaN", "empty array", "axis=()", "axis tuple", "negative axis"):
        assert cls in cov, cls
    assert cov["keepdims=True"] > 0
    assert data["advisories"] >= 1
    assert data["functions"]["squeeze"]["advisories"]
    assert data["functions"]["squeeze"]["verdict"] == "conforms"
    assert data["complete"] is True


def test_a_module_that_is_not_an_array_namespace_exits_2(tool):
    r = tool("json", "--quick")
    assert r.returncode == 2
    assert "not an array namespace" in r.stderr


def test_the_tool_finds_nothing_in_the_reference_across_special_inputs():
    names = ["sum", "var", "max", "argmax", "linalg.pinv", "linalg.matrix_rank"]
    names += ["linalg.slogdet", "where", "repeat", "copysign", "expand_dims"]
    records = run_entries(names, Options("ocean_array_api", quick=True, database=None))
    assert not _bad(records), [(r.name, r.feature, r.message) for r in _bad(records)]
    assert np.all(
        [r.verdict != "untestable" for r in records if r.feature != "presence"]
    )
    assert ROOT.exists()


def test_ctrl_c_leaves_a_partial_json_report_and_exits_130(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    from .conftest import tool_env

    out = tmp_path / "r.json"
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "conformance",
            "ocean_array_api",
            "--quick",
            "--database",
            "",
            "--no-prove",
            "--json",
            str(out),
        ],
        env=tool_env(),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(3000):  # until the first name's report is written
            if out.exists() or p.poll() is not None:
                break
            time.sleep(0.05)
        assert out.exists(), "no report was written as names finished"
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, err
    data = json.loads(out.read_text())
    assert data["complete"] is False
    assert 0 < len(data["functions"]) < 267


def test_a_keyword_error_from_inside_the_target_is_a_crash(monkeypatch):
    # matrix_rank calling its own svd with a keyword svd lacks: the call passed
    # no such keyword, so matrix_rank crashes; its signature is not at fault
    import sys

    from tests.conformance.mutants import MUTANTS, Mutant, _wrap

    def patch(m, xp):
        def svd(a, /):
            return xp.linalg.svd(a)

        @_wrap(xp.linalg.matrix_rank)
        def matrix_rank(x, /, *, rtol=None):
            return svd(x, compute_uv=False)

        return {"linalg.matrix_rank": matrix_rank}

    name = "matrix_rank_inner_keyword"
    module = f"tests.conformance.mutants.{name}"
    desc = "matrix_rank() calls svd() with a keyword it lacks"
    monkeypatch.setitem(
        MUTANTS, name, Mutant(name, desc, "linalg.matrix_rank", ("crash",), patch)
    )
    try:
        records = run_entries(
            ["linalg.matrix_rank"], Options(module, quick=True, database=None)
        )
    finally:
        sys.modules.pop(module, None)
    bad = _bad(records)
    assert bad
    assert {r.verdict for r in bad} == {"crashes"}
    assert {r.kind for r in bad} == {"crash"}
    assert "compute_uv" in bad[0].message
    # a keyword the call itself passes and the target lacks stays a signature fault
    records = run_entries(
        ["argsort"], Options("numpy", quick=True, only=("argsort",), database=None)
    )
    assert "signature" in {r.kind for r in _bad(records) if r.feature == "descending"}


def test_a_lazy_result_that_fails_when_computed_is_a_crash():
    dask = pytest.importorskip("dask")
    da = pytest.importorskip("dask.array")
    from conformance.calls import ComputeError, to_numpy
    from conformance.checks import Options as CheckOptions
    from conformance.checks import check_array, describe

    def fail():
        msg = "zero-size array to reduction operation maximum which has no identity"
        raise ValueError(msg)

    got = da.from_delayed(dask.delayed(fail)(), shape=(0,), dtype=np.int8)
    with pytest.raises(ComputeError) as info:
        to_numpy(got)
    assert isinstance(info.value.__cause__, ValueError)
    assert describe(got) == "int8 (0,) <raises ValueError when computed>"
    findings = check_array(np.zeros((0,), np.int8), got, da, None, CheckOptions())
    assert [f.kind for f in findings] == ["crash"]
    assert findings[0].message.startswith("raised ValueError when computed: zero-size")


def test_an_advisory_repro_computes_a_lazy_tuple_array_by_array():
    pytest.importorskip("dask.array")
    pytest.importorskip("array_api_compat")
    from conformance.checks import Finding
    from conformance.runner import Record, _advisory, _Collector, make_context

    ctx = make_context(Options("array_api_compat.dask.array", database=None))
    ref = ctx.ref.module
    call = Call("unique_all", (Arr(ref.zeros((0,), dtype=ref.float32)),))
    col = _Collector()
    col.advise(call, [Finding("shape", "result shape is (nan,)", level="should")], "")
    rec = Record("unique_all", "nan,signed-zero", "float32", "default", "conforms")
    _advisory(rec, col, ctx)
    assert "print([a.compute() for a in xp.unique_all(x)])" in rec.repro


def test_a_crashing_item_assignment_repro_is_proven():
    # x[i] = v runs as a statement before the print: what it raises is the proof
    from conformance.calls import runs_as_statement
    from conformance.checks import describe_full
    from conformance.prove import _run, _verdict

    x = np.zeros(2)
    assert runs_as_statement(Call("Array.__setitem__", (Arr(x), 0, 1.0)))
    assert not runs_as_statement(Call("Array.__getitem__", (Arr(x), 0)))
    assert not runs_as_statement(Call("sin", (Arr(x),)))
    setup = ["import numpy as xp", "x = xp.zeros(2)", "x[0] = xp.zeros(3)"]
    spec = {"setup": setup, "expr": "x", "got": describe_full(ValueError())}
    (answer,) = _run([{**spec, "call_last": True}], "numpy")
    assert _verdict(answer, spec) == PROVEN


def test_the_default_dtypes_are_the_ones_the_target_declares():
    # PyTorch declares float32 the default floating dtype: asarray(0.5) is float32
    pytest.importorskip("torch")
    pytest.importorskip("array_api_compat")
    opts = Options("array_api_compat.torch", quick=True, database=None)
    records = run_entries(["asarray", "ones", "arange"], opts)
    checked = [r for r in records if "default-dtype" in r.feature]
    assert checked
    assert all(r.verdict == "conforms" for r in checked), [
        (r.name, r.message) for r in checked if r.verdict != "conforms"
    ]


def test_an_unknown_dimension_reported_as_none_is_checked_once_computed():
    # The standard: a dimension is None if and only if it is unknown (a lazy
    # library's data-dependent size).  None matches any size before computing;
    # the computed values' shape must then be right.  (dask's NaN is no such
    # marker, and stays a shape deviation.)
    pytest.importorskip("dask.array")
    import ocean_array_api as xp
    from conformance.checks import Options as CheckOptions
    from conformance.checks import check_array

    x = xp.arange(10, device="dask")
    got = x[x > 4]
    assert got.shape == (None,)
    assert check_array(np.arange(5, 10), got, xp, None, CheckOptions()) == []
    wrong = check_array(np.arange(5, 9), got, xp, None, CheckOptions())
    assert [f.kind for f in wrong] == ["shape"]
    assert "once computed" in wrong[0].message
    assert [
        f.kind
        for f in check_array(np.zeros((5, 2), np.int64), got, xp, None, CheckOptions())
    ] == ["shape"]  # another number of dimensions
    da = pytest.importorskip("dask.array")
    d = da.arange(10)
    nan_sized = d[d > 4]
    kinds = [
        f.kind
        for f in check_array(np.arange(5, 10), nan_sized, da, None, CheckOptions())
    ]
    assert "shape" in kinds


@pytest.mark.parametrize(
    ("variant", "names", "version"),
    [
        # "If provided an invalid axis, the function must raise": 2025.12 only
        ("invalid_axis_unchecked", ["sum", "argmax"], "2024.12"),
        ("invalid_axis_unchecked", ["sum", "argmax"], "2023.12"),
        # "x1: Should have an integer data type"
        ("isin_integers_only", ["isin"], "2025.12"),
        # accuracy.md: exp and sin are not precisely defined
        ("approximate_sin_exp", ["sin", "exp"], "2025.12"),
        # mixed-kind promotion is unspecified
        ("can_cast_mixed_kinds", ["can_cast"], "2025.12"),
        # "must not change the data type or shape": casting or raising is fine
        ("inplace_casts_to_x", ["Array.__iadd__"], "2025.12"),
        # the order of unique values is unspecified; indices are first occurrences
        ("unique_all_reversed", ["unique_all"], "2024.12"),
        # matmul's Raises names no exception type ("should be raised", 2025.12)
        ("matmul_mismatch_type_error", ["matmul"], "2025.12"),
        ("matmul_mismatch_type_error", ["matmul"], "2023.12"),
        # argmin and argmax say nothing about NaN
        # (at 2024.12 and 2023.12: array-api-strict's argmin(x_0d, axis=0)
        # answers, which 2025.12 requires to raise)
        ("argmin_argmax_skip_nan", ["argmin", "argmax"], "2024.12"),
        ("argmin_argmax_skip_nan", ["argmin", "argmax"], "2023.12"),
        # whether a result is a view is unspecified: a library whose views are
        # copies may reshape its (contiguous) x with copy=False
        ("views_are_copies", ["reshape", "permute_dims"], "2025.12"),
    ],
)
def test_audit_allowed_variants_are_no_deviation(variant, names, version):
    records = run_entries(
        names,
        Options(
            f"tests.conformance.mutants.{variant}",
            version=version,
            quick=True,
            database=None,
        ),
    )
    assert not _bad(records), [(r.name, r.feature, r.message) for r in _bad(records)]
    if variant in ("isin_integers_only", "approximate_sin_exp"):
        kinds = {r.kind for r in records if r.verdict == "advisory"}
        assert kinds & {"crash", "accuracy"}, kinds


def test_invalid_axis_features_follow_the_standards_text():
    from conformance.registry import build_registry, spec_names

    for v in ("2023.12", "2024.12", "2025.12"):
        table = spec_names(v)
        for name, entry in build_registry(v).items():
            feats = [f for f in entry.features if f.name == "invalid-axis"]
            level = table[name].get("invalid_axis")
            if level is None:
                assert not feats, (v, name)
            else:
                assert all(f.level == level for f in feats), (v, name)
    reg = build_registry("2025.12")
    assert [f.level for f in reg["sum"].features if f.name == "invalid-axis"] == [
        "must"
    ]
    # the same namespace deviates where the text requires the exception
    records = run_entries(
        ["sum"],
        Options(
            "tests.conformance.mutants.invalid_axis_unchecked",
            version="2025.12",
            quick=True,
            database=None,
        ),
    )
    assert {r.feature for r in _bad(records)} == {"invalid-axis"}


def test_complex_nan_parts_are_compared_part_by_part():
    from conformance.checks import values_close

    inf, nan = np.inf, np.nan
    # sqrt(+inf + NaN j) must be +inf + NaN j: NaN + NaN j is wrong
    assert not values_close(
        np.array([complex(inf, nan)]), np.array([complex(nan, nan)]), "complex128"
    )[0]
    assert not values_close(
        np.array([complex(inf, nan)]), np.array([complex(nan, 5.0)]), "complex128"
    )[0]
    # "NaN ± infinity j (sign of the imaginary component is unspecified)"
    assert values_close(
        np.array([complex(nan, inf)]), np.array([complex(nan, -inf)]), "complex128"
    )[0]
    assert values_close(
        np.array([complex(nan, nan)]), np.array([complex(nan, nan)]), "complex128"
    )[0]


def test_correct_rounding_is_zero_ulp_for_real_dtypes_only():
    from conformance.checks import values_close

    cr = ("ulp", 0, 2)
    one = np.array([1.0])
    assert not values_close(one, np.nextafter(one, 2), "float64", cr)[0]
    z = np.array([1 + 1j])
    assert values_close(z, z + np.spacing(1.0), "complex128", cr)[0]
