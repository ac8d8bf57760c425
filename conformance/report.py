"""Reports: terminal summary, JSON, Markdown, static HTML, array-api-tests xfails."""

from __future__ import annotations

import html
import json
import os
import platform
import time
from collections import Counter, defaultdict
from typing import Any

from .runner import Options, Record

__all__ = [
    "name_verdicts",
    "summary",
    "to_html",
    "to_json",
    "to_markdown",
    "to_xfails",
    "write_json",
]

_ORDER = ("missing", "crashes", "deviates", "untestable", "advisory", "conforms")
_BAD = ("deviates", "crashes", "missing")


def name_verdicts(records: list[Record]) -> dict[str, str]:
    """The verdict of each name: its worst cell.

    A name ``conforms`` only when at least one value check ran and conformed
    (advisories allowed) and no cell deviated, crashed or found it missing; a
    name whose only passing checks are presence and signature, or whose calls
    all raised where the target declares the feature optional, is
    ``untestable``.  Advisories never make a name deviate.
    """
    by: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by[r.name].append(r)
    out = {}
    for name, rs in by.items():
        vs = {r.verdict for r in rs}
        for v in _BAD:
            if v in vs:
                out[name] = v
                break
        else:
            valued = [r for r in rs if r.feature not in ("presence", "signature")]
            tested = any(
                r.verdict == "conforms"
                or (r.verdict == "advisory" and r.kind != "optional")
                for r in valued
            )
            # a failure of the tool itself never lets a name pass
            broken = any(r.message.startswith("tool error") for r in rs)
            out[name] = "conforms" if tested and not broken else "untestable"
    return out


def _deviations(records: list[Record]) -> list[Record]:
    return [r for r in records if r.verdict in _BAD]


def _advisories(records: list[Record]) -> list[dict[str, Any]]:
    """Every advisory: of advisory cells, and those found beside a deviation."""
    out = []
    for r in records:
        if r.verdict == "advisory":
            out.append(
                {
                    "name": r.name,
                    "kind": r.kind,
                    "feature": r.feature,
                    "dtype": r.dtype,
                    "message": r.message,
                    "repro": r.repro,
                }
            )
        elif r.advisory:
            out.append(
                {"name": r.name, "feature": r.feature, "dtype": r.dtype, **r.advisory}
            )
    return out


def _header(opts: Options) -> str:
    note = f" ({opts.version_note})" if opts.version_note else ""
    head = (
        f"ocean-conformance {opts.target}: standard {opts.version}{note}, device "
        f"{opts.device or 'default'}, {opts.examples} calls per cell"
        f"{' (--quick)' if opts.quick else ''}, seed {opts.seed}"
    )
    if opts.interrupted:
        head += " -- INTERRUPTED: the names below finished, the others did not run"
    return head


def _groups(rs: list[Record]) -> list[tuple[tuple[str, str], list[Record]]]:
    """Deviations grouped by (name, kind), in the order they were found."""
    groups: dict[tuple[str, str], list[Record]] = {}
    for r in rs:
        groups.setdefault((r.name, r.kind or r.verdict), []).append(r)
    return list(groups.items())


def _cells(rs: list[Record]) -> str:
    feats = Counter(r.feature for r in rs)
    return "; ".join(f"{f} x{n}" if n > 1 else f for f, n in feats.items())


def summary(
    records: list[Record], opts: Options, seconds: float, repros: int = 3
) -> str:
    """A terminal summary: counts, deviations grouped by name and kind, the
    advisories apart, then the first repros."""
    verdicts = name_verdicts(records)
    counts = Counter(verdicts.values())
    devs = _deviations(records)
    advs = _advisories(records)
    lines = [
        _header(opts),
        f"{len(verdicts)} names, {len(records)} checks in {seconds:.1f} s: "
        + ", ".join(f"{counts[v]} {v}" for v in _ORDER if counts[v])
        + (
            f"; {len(advs)} advisories in {len({a['name'] for a in advs})} names"
            if advs
            else ""
        ),
    ]
    groups = _groups(devs)
    if groups:
        lines.append(
            f"deviations ({len(devs)} cells in {len(groups)} groups; exit status 1):"
        )
        for (name, kind), rs in groups[:25]:
            n = f"{len(rs)} cells" if len(rs) > 1 else "1 cell"
            lines.append(f"  {name}: {kind}, {n} [{_cells(rs)}]: {rs[0].message[:110]}")
        if len(groups) > 25:
            lines.append(f"  ... {len(groups) - 25} more groups (see the reports)")
    if advs:
        by: dict[tuple[str, str], list[dict]] = {}
        for a in advs:
            by.setdefault((a["name"], a["kind"] or ""), []).append(a)
        lines.append(
            f"advisories (SHOULD-level or optional; they never fail the run): "
            f"{len(by)} groups"
        )
        for (name, kind), items in list(by.items())[:10]:
            lines.append(f"  {name}: {kind}: {items[0]['message'][:110]}")
        if len(by) > 10:
            lines.append(f"  ... {len(by) - 10} more")
    shown = [rs[0] for _, rs in groups if rs[0].repro][:repros]
    if shown:
        lines.append("first repros (each was run in a fresh interpreter):")
        for r in shown:
            lines.append(f"  # {r.name} [{r.feature}, {r.dtype}] {r.kind}")
            lines += ["    " + ln for ln in (r.repro or "").splitlines()]
    unproven = sum(1 for r in devs if r.proof and not r.repro)
    if unproven:
        lines.append(
            f"{unproven} deviations have no standalone repro (the reports say why)"
        )
    return "\n".join(lines)


def coverage(records: list[Record]) -> dict[str, dict[str, int]]:
    """Per name: the input classes its calls exercised, with call counts."""
    out: dict[str, Counter] = defaultdict(Counter)
    for r in records:
        out[r.name].update(r.classes)
    return {n: dict(sorted(c.items())) for n, c in out.items() if c}


def to_json(records: list[Record], opts: Options, seconds: float) -> dict[str, Any]:
    """The JSON report.

    ``functions`` maps each standard name to ``{"verdict", "deviations": [...],
    "advisories": [...], "checks": [...]}``; ``coverage`` maps it to the input
    classes its calls exercised; ``dashboard`` is a top-level record for the
    data-apis compliance dashboard (see docs/dev/conformance_tool.md for the
    assumed ``v1`` layout).
    """
    verdicts = name_verdicts(records)
    functions: dict[str, Any] = {}
    for r in records:
        f = functions.setdefault(
            r.name,
            {
                "verdict": verdicts[r.name],
                "deviations": [],
                "advisories": [],
                "checks": [],
            },
        )
        f["checks"].append(
            {
                "feature": r.feature,
                "dtype": r.dtype,
                "device": r.device,
                "verdict": r.verdict,
                "message": r.message,
                "examples": r.examples,
                "seconds": round(r.seconds, 3),
                "advisories": r.advisories,
            }
        )
        if r.verdict in _BAD:
            f["deviations"].append(
                {
                    "kind": r.kind or r.verdict,
                    "feature": r.feature,
                    "dtype": r.dtype,
                    "device": r.device,
                    "message": r.message,
                    "repro": r.repro,
                    "expected": r.expected,
                    "repro_status": r.proof,
                }
            )
    for a in _advisories(records):
        functions[a["name"]]["advisories"].append(
            {k: v for k, v in a.items() if k != "name"}
        )
    counts = Counter(verdicts.values())
    try:
        mod = __import__(opts.target, fromlist=["_"])
        lib_version = str(getattr(mod, "__version__", "") or "")
    except Exception:
        lib_version = ""
    dashboard = {
        "schema": "v1",
        "library": opts.target,
        "library_version": lib_version,
        "api_version": opts.version,
        "device": opts.device or "default",
        "tool": "ocean-conformance",
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": platform.python_version(),
        "results": {
            name: (
                "pass" if v == "conforms" else "skip" if v == "untestable" else "fail"
            )
            for name, v in verdicts.items()
        },
        "summary": {
            "pass": counts["conforms"],
            "fail": counts["deviates"] + counts["crashes"] + counts["missing"],
            "skip": counts["untestable"],
        },
    }
    return {
        "target": opts.target,
        "version": opts.version,
        "version_source": opts.version_note,
        "device": opts.device or "default",
        "seed": opts.seed,
        "max_examples": opts.examples,
        "quick": opts.quick,
        "seconds": round(seconds, 2),
        "complete": not opts.interrupted,
        "conforms": not _deviations(records),
        "counts": dict(counts),
        "advisories": len(_advisories(records)),
        "functions": functions,
        "coverage": coverage(records),
        "dashboard": dashboard,
    }


def to_markdown(records: list[Record], opts: Options, seconds: float) -> str:
    """A Markdown report: counts, the names that deviate with every repro,
    the advisories, and the names that conform."""
    verdicts = name_verdicts(records)
    out = [
        f"# Conformance of `{opts.target}` to the Array API standard {opts.version}",
        "",
        _header(opts),
        "",
        summary(records, opts, seconds, repros=0).split("\n")[1],
    ]
    devs: dict[str, list[Record]] = defaultdict(list)
    for r in _deviations(records):
        devs[r.name].append(r)
    if devs:
        out += ["", "## Deviations", ""]
        out += ["| name | verdict | kinds | cells |", "|---|---|---|---|"]
        for name, rs in devs.items():
            kinds = ", ".join(sorted({r.kind or r.verdict for r in rs}))
            out.append(f"| `{name}` | {verdicts[name]} | {kinds} | {len(rs)} |")
        for name, rs in devs.items():
            out += ["", f"### `{name}`", ""]
            for r in rs:
                out.append(
                    f"- **{r.kind or r.verdict}** ({r.feature}, {r.dtype}, "
                    f"{r.device}): {r.message}"
                )
                if r.repro:
                    out += [
                        "",
                        "  ```python",
                        *("  " + line for line in r.repro.splitlines()),
                        "  ```",
                        "",
                    ]
                elif r.proof:
                    out.append(f"  ({r.proof})")
    advs = _advisories(records)
    if advs:
        out += [
            "",
            "## Advisories",
            "",
            "SHOULD-level recommendations and optional features; they never fail"
            " the run.",
            "",
        ]
        for a in advs:
            out.append(
                f"- `{a['name']}` **{a['kind']}** ({a['feature']}, {a['dtype']}):"
                f" {a['message']}"
            )
    rest = {v: [n for n, w in verdicts.items() if w == v] for v in ("untestable",)}
    if rest["untestable"]:
        out += ["", "## Untestable", ""]
        out.append(", ".join(f"`{n}`" for n in rest["untestable"]))
    good = [n for n, v in verdicts.items() if v == "conforms"]
    if good:
        out += ["", f"## Conforming ({len(good)} names)", ""]
        out.append(", ".join(f"`{n}`" for n in good))
    return "\n".join(out) + "\n"


_COLOURS = {
    "conforms": "#c8e6c9",
    "advisory": "#e1f5fe",
    "deviates": "#ffcdd2",
    "crashes": "#ffab91",
    "missing": "#e0e0e0",
    "untestable": "#fff9c4",
}


def to_html(records: list[Record], opts: Options, seconds: float) -> str:
    """A static HTML page: names by feature, coloured; a cell opens its repro."""
    verdicts = name_verdicts(records)
    by: dict[str, dict[str, list[Record]]] = defaultdict(lambda: defaultdict(list))
    features: list[str] = []
    for r in records:
        by[r.name][r.feature].append(r)
        if r.feature not in features:
            features.append(r.feature)
    esc = html.escape
    rows = []
    for name, v in verdicts.items():
        cells = [f'<th style="background:{_COLOURS[v]}">{esc(name)}</th>']
        for f in features:
            rs = by[name].get(f)
            if not rs:
                cells.append("<td></td>")
                continue
            worst = min((r.verdict for r in rs), key=_ORDER.index)
            bad = [r for r in rs if r.verdict != "conforms"]
            body = ""
            if bad:
                items = "".join(
                    f"<p>{esc(r.dtype)}: {esc(r.verdict)} {esc(r.kind or '')} {esc(r.message)}</p>"
                    + (f"<pre>{esc(r.repro)}</pre>" if r.repro else "")
                    + (
                        f"<p><i>{esc(r.proof)}</i></p>"
                        if r.proof and not r.repro
                        else ""
                    )
                    for r in bad
                )
                body = f"<details><summary>{esc(worst)}</summary>{items}</details>"
            else:
                body = esc(worst)
            cells.append(f'<td style="background:{_COLOURS[worst]}">{body}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(f"<th>{esc(f)}</th>" for f in features)
    title = f"Conformance of {esc(opts.target)} to the Array API standard {esc(opts.version)}"
    text = esc(summary(records, opts, seconds, repros=0))
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>body{{font-family:sans-serif}}table{{border-collapse:collapse;font-size:12px}}"
        "td,th{border:1px solid #ccc;padding:2px 4px;vertical-align:top;text-align:left}pre{background:#f5f5f5;padding:4px}</style>"
        f"</head><body><h1>{title}</h1><pre>{text}</pre>"
        f"<table><tr><th>name</th>{head}</tr>{''.join(rows)}</table></body></html>\n"
    )


def _aat_signature_test(name: str) -> str:
    """array-api-tests' signature test id for a standard name."""
    f = "array_api_tests/test_signatures.py"
    head, _, rest = name.partition(".")
    if head in ("linalg", "fft"):
        return f"{f}::test_extension_func_signature[{name}]"
    if head == "Array":
        return f"{f}::test_array_method_signature[{rest}]"
    if head == "info":
        return f"{f}::test_info_func_signature[{rest}]"
    return f"{f}::test_func_signature[{name}]"


def to_xfails(records: list[Record], opts: Options) -> str:
    """An array-api-tests ``--xfails-file`` for the deviations found.

    One test id per line, exactly as the suite matches them; the deviation
    each id stands for is on a comment line above it (the suite reads a
    comment only at the start of a line: one after an id would become part
    of it).
    """
    from .registry import build_registry

    reg = build_registry(opts.version or "2025.12")
    ids: dict[str, list[str]] = defaultdict(list)
    for r in _deviations(records):
        test = reg[r.name].aat_test
        if r.kind == "signature" and r.feature == "signature":
            test = _aat_signature_test(r.name)
        if test:
            ids[test].append(f"{r.name} {r.kind or r.verdict} ({r.feature}, {r.dtype})")
    out = [
        f"# array-api-tests xfails for {opts.target} at {opts.version}, "
        "written by ocean-conformance.",
        "# Pass it as: pytest array_api_tests --xfails-file THIS_FILE",
    ]
    for test, why in sorted(ids.items()):
        out.append(f"# {'; '.join(sorted(set(why))[:3])}")
        out.append(test)
    return "\n".join(out) + "\n"


def write_json(path: str, data: dict) -> None:
    """Write the JSON report atomically (a reader never sees half a file)."""
    tmp = f"{path}.part"
    with open(tmp, "w") as f:
        json.dump(data, f, indent=1, default=str)
        f.write("\n")
    os.replace(tmp, path)
