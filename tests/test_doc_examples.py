"""Every Python block of the README and ``docs/`` runs and shows what it prints.

Each page runs in a fresh interpreter (``tests/doc_examples.py``, which says
how a page shows output, errors and warnings), from a scratch directory and
without the variables that change the module's defaults, as a reader would
paste it.  The tests of the checker itself come first: it must be able to fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from . import doc_examples
from .doc_examples import ROOT, ExampleFailure, matches, run_block, run_page

pytest.importorskip("sybil", reason="the doc examples need Sybil (the test extra)")

# --- the checker ---------------------------------------------------------------


def _run(source: str) -> dict:
    ns: dict = {}
    run_block(textwrap.dedent(source), ns, "page.md", 10)
    return ns


def test_matches_output_prose_and_wildcards():
    assert matches("Array([1, 2], dtype=int64)", "Array([1, 2], dtype=int64)")
    assert matches("Array([1,  2], ...): prose", "Array([1, 2], dtype=int64)")
    assert matches("'big'", "'big'")
    assert matches("True: on a little-endian machine", "True")
    assert not matches("True: prose", "False")
    assert not matches("Array([1, 2])", "Array([1, 2, 3])")
    assert not matches("(4,)", "(4, 5)")
    assert not matches("...", "anything")  # a bare wildcard shows nothing
    assert not matches("1.5, 2.5", "1.5", prose=False)


def test_shown_value_is_checked():
    _run("x = 1 + 1\nx  # 2\nprint(x, 'b')  # 2 b\n")
    with pytest.raises(ExampleFailure, match=r"page.md:11: x  # 3\s+shows '2'"):
        _run("x = 1 + 1\nx  # 3\n")
    with pytest.raises(ExampleFailure, match="shows '2 b'"):
        _run("print(2, 'b')  # 2 c\n")


def test_prose_on_expression_needs_the_value():
    with pytest.raises(ExampleFailure, match="shows '3'"):
        _run("1 + 2  # fine\n")
    _run("y = 1 + 2  # prose on an assignment\n")


def test_exceptions_must_be_shown_and_match():
    _run("int('x')  # ValueError: invalid literal ...\n")
    _run("int('x')  # ValueError\n")
    _run("d = {}\nd['k']  # LookupError: 'k'\n")  # a base class's name
    with pytest.raises(ExampleFailure, match="does not show"):
        _run("int('x')\n")
    with pytest.raises(ExampleFailure, match="another message"):
        _run("int('x')  # ValueError: a float\n")
    with pytest.raises(ExampleFailure, match="does not show"):
        _run("int('x')  # TypeError: invalid literal ...\n")
    with pytest.raises(ExampleFailure, match="nothing was raised"):
        _run("int('1')  # ValueError: ...\n")


def test_exception_shown_below_the_statement():
    _run(
        """\
        int('x')
        # ValueError: invalid literal for int()
        # with base 10: 'x'
        y = 1
        """
    )


def test_warnings_must_be_shown():
    src = "import warnings\n"
    _run(src + "warnings.warn('careful', UserWarning)  # UserWarning: careful\n")
    _run(src + "x = warnings.warn('careful')  # prose, then UserWarning\n")
    with pytest.raises(ExampleFailure, match="does not show"):
        _run(src + "warnings.warn('careful')\n")
    with pytest.raises(ExampleFailure, match="another message"):
        _run(src + "warnings.warn('careful')  # UserWarning: other\n")


def test_statements_in_blocks_are_checked():
    _run("for i in range(2):\n    i * 0  # 0\n")
    with pytest.raises(ExampleFailure, match="shows '1'"):
        _run("with open(__import__('os').devnull) as f:\n    1  # 2\n")


def test_page_runs_blocks_in_order_and_checks_output_blocks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        textwrap.dedent(
            """\
            # A page

            ```python
            x = 2
            print(x)
            ```

            ```text
            2
            ```

            % skip: next "needs a machine we do not have"

            ```python
            import nowhere
            ```

            ```python
            x + 1  # 3
            ```
            """
        )
    )
    statuses = [(r.line, r.status) for r in run_page(page)]
    assert statuses == [(3, "passed"), (14, "skipped"), (18, "passed")]
    page.write_text(page.read_text().replace("```text\n2", "```text\n5"))
    results = run_page(page)
    assert [r.status for r in results] == ["failed", "failed", "failed"]
    assert "the page shows\n5" in results[0].detail
    assert "earlier block failed" in results[2].detail


def test_skip_marker_needs_a_reason(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("% skip: next\n\n```python\nimport nowhere\n```\n")
    results = run_page(page)
    assert results[0].status == "failed"
    assert "without a reason" in results[0].detail


# --- the pages -----------------------------------------------------------------

_PAGES = doc_examples.pages()


def test_every_page_is_listed():
    names = {str(p.relative_to(ROOT)) for p in _PAGES}
    assert {"README.md", "docs/quickstart.md", "docs/dask.md"} <= names
    assert not any(n.startswith(("docs/_build", "docs/_static")) for n in names)


def _clean_env() -> dict[str, str]:
    """The environment a reader has: none of the variables that set defaults."""
    drop = {
        "OCEAN_ARRAY_API_DEFAULT_DEVICE",
        "OCEAN_ARRAY_API_VERSION",
        "OCEAN_TEST_SIMULATE_CUDA",
        "OCEAN_TEST_DASK",
        "SCIPY_ARRAY_API",
        "PYTHONWARNINGS",
    }
    env = {k: v for k, v in os.environ.items() if k not in drop}
    # the checkout's own copy, as the docs build documents it
    paths = [str(ROOT), str(ROOT / "backends")]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


@pytest.mark.parametrize("page", _PAGES, ids=[str(p.relative_to(ROOT)) for p in _PAGES])
def test_page_examples(page: Path, tmp_path: Path):
    report = tmp_path / "report.json"
    proc = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tests" / "doc_examples.py"),
            str(page),
            "--json",
            str(report),
        ],
        cwd=tmp_path,
        env=_clean_env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (results,) = json.loads(report.read_text()).values()
    for r in results:
        assert r["status"] in {"passed", "skipped"}, r
        if r["status"] == "skipped":
            assert r["detail"], f"{page}:{r['line']}: skipped without a reason"
