"""What the README and the docs state that can go stale: the figures (from the
published benchmark results), the extras, the install commands, and no
internal issue numbers in anything a user reads."""

from __future__ import annotations

import re
import sys
from importlib.metadata import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import figures  # noqa: E402

DOC_PAGES = [ROOT / "README.md"] + [
    p
    for p in sorted((ROOT / "docs").rglob("*"))
    if p.suffix in {".md", ".rst"} and "_build" not in p.parts
]


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    ("page", "phrase"),
    figures.phrases(figures.load()),
    ids=[f"{p}:{i}" for i, (p, _) in enumerate(figures.PHRASES)],
)
def test_quoted_figures_are_the_published_ones(page, phrase):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert _flat(phrase) in _flat(text), (
        f"{page} should say, from docs/_static/benchmarks/results.json:\n  {phrase}\n"
        "(python3 benchmarks/figures.py lists every stale phrase)"
    )


def test_figures_follow_the_results():
    # the figures are computed, not copied: other results give other phrases
    results = figures.load()
    results["summary"]["geomean"]["ocean"]["small"]["ratio"] = 1.234
    results["meta"]["seconds"] = 600
    figs = figures.figures(results)
    assert figs["small_geomean"] == "1.23x"
    assert figs["bench_minutes"] == "about ten minutes"


def test_quickstart_lists_every_extra():
    extras = set(metadata("ocean-array-api").get_all("Provides-Extra") or [])
    assert "test" in extras
    text = (ROOT / "docs" / "quickstart.md").read_text()
    section = text[text.index("The optional extras") :]
    section = section[: section.index("\n\n")]
    named = set(re.findall(r"`([a-z0-9-]+)`", section))
    assert named == extras, f"docs/quickstart.md names {named}, pyproject has {extras}"


# ``pip install "ocean-array-api[...]"`` needs an index that serves the
# package; until it is published, the pages install from a checkout.
_FROM_INDEX = re.compile(r"pip install (-\S+ )*[\"']?ocean-array-api")


@pytest.mark.parametrize("page", DOC_PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_install_commands_work_from_a_checkout(page):
    text = page.read_text(encoding="utf-8")
    for m in _FROM_INDEX.finditer(text):
        before = _flat(text[max(0, m.start() - 60) : m.start()])
        assert "once published" in before, (
            f"{page.relative_to(ROOT)}: {text[m.start() : m.end() + 20]!r} installs "
            "from an index that does not serve the package yet: install from a "
            "checkout (pip install '.[extra]'), or say 'once published'"
        )


# An internal issue number ("issue 16") means nothing to a reader; other
# projects' issues (CuPy issue 9370) are links a reader can follow.
_ISSUE = re.compile(r"(?<!CuPy )(?<!NumPy )(?<!SciPy )\b[Ii]ssues? #?\d+")
_READ = ["README.md", "docs", "examples", "benchmarks", "ocean_array_api",
         "ocean_ext", "backends", "conformance"]  # fmt: skip


def _read_files():
    for name in _READ:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for f in files:
            if "_build" in f.parts or f.suffix not in {
                ".md",
                ".rst",
                ".py",
                ".txt",
                ".c",
            }:
                continue
            yield f


def test_no_internal_issue_numbers():
    found = [
        f"{f.relative_to(ROOT)}:{n}: {line.strip()}"
        for f in _read_files()
        for n, line in enumerate(f.read_text(encoding="utf-8").splitlines(), 1)
        if _ISSUE.search(line)
    ]
    assert not found, "internal issue numbers:\n" + "\n".join(found)
