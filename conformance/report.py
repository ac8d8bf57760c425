"""Reports: terminal summary, JSON, Markdown, static HTML, array-api-tests xfails."""

from __future__ import annotations

import html
import json
import platform
import time
from collections import Counter, defaultdict
from typing import Any

from .runner import Options, Record

__all__ = ["name_verdicts", "summary", "to_html", "to_json", "to_markdown", "to_xfails"]

_ORDER = ("missing", "crashes", "deviates", "untestable", "conforms")


def name_verdicts(records: list[Record]) -> dict[str, str]:
    """The verdict of each name: its worst cell.

    A name ``conforms`` only when at least one value check ran and conformed
    and no cell deviated, crashed or found it missing; a name whose only
    passing checks are presence and signature is ``untestable``.
    """
    by: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by[r.name].append(r)
    out = {}
    for name, rs in by.items():
        vs = {r.verdict for r in rs}
        for v in ("missing", "crashes", "deviates"):
            if v in vs:
                out[name] = v
                break
        else:
            valued = [r for r in rs if r.feature not in ("presence", "signature")]
            tested = any(r.verdict == "conforms" for r in valued)
            # a failure of the tool itself never lets a name pass
            broken = any(r.message.startswith("tool error") for r in rs)
            out[name] = "conforms" if tested and not broken else "untestable"
    return out


def _deviations(records: list[Record]) -> list[Record]:
    return [r for r in records if r.verdict in ("deviates", "crashes", "missing")]


def summary(records: list[Record], opts: Options, seconds: float) -> str:
    """A terminal summary: counts per verdict and per deviation kind, worst first."""
    verdicts = name_verdicts(records)
    counts = Counter(verdicts.values())
    kinds = Counter(r.kind or r.verdict for r in _deviations(records))
    lines = [
        f"ocean-conformance {opts.target} (standard {opts.version}, device {opts.device or 'default'}, "
        f"{opts.examples} calls per cell, seed {opts.seed})",
        f"{len(verdicts)} names, {len(records)} checks in {seconds:.1f} s: "
        + ", ".join(f"{counts[v]} {v}" for v in _ORDER if counts[v]),
    ]
    if kinds:
        lines.append(
            "deviations by kind: "
            + ", ".join(f"{k} {n}" for k, n in kinds.most_common())
        )
        devs = _deviations(records)
        for r in devs[:15]:
            lines.append(
                f"  {r.name} [{r.feature}, {r.dtype}] {r.kind or r.verdict}: {r.message[:120]}"
            )
        if len(devs) > 15:
            lines.append(f"... {len(devs) - 15} more (see --json/--html/--markdown)")
    return "\n".join(lines)


def to_json(records: list[Record], opts: Options, seconds: float) -> dict[str, Any]:
    """The JSON report.

    ``functions`` maps each standard name to ``{"verdict", "deviations": [...],
    "checks": [...]}``; ``dashboard`` is a top-level record for the data-apis
    compliance dashboard (see docs/dev/conformance_tool.md for the assumed
    ``v1`` layout).
    """
    verdicts = name_verdicts(records)
    functions: dict[str, Any] = {}
    for r in records:
        f = functions.setdefault(
            r.name, {"verdict": verdicts[r.name], "deviations": [], "checks": []}
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
            }
        )
        if r.verdict in ("deviates", "crashes", "missing"):
            f["deviations"].append(
                {
                    "kind": r.kind or r.verdict,
                    "feature": r.feature,
                    "dtype": r.dtype,
                    "device": r.device,
                    "message": r.message,
                    "repro": r.repro,
                    "expected": r.expected,
                }
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
        "device": opts.device or "default",
        "seed": opts.seed,
        "max_examples": opts.examples,
        "seconds": round(seconds, 2),
        "conforms": not _deviations(records),
        "counts": dict(counts),
        "functions": functions,
        "dashboard": dashboard,
    }


def to_markdown(records: list[Record], opts: Options, seconds: float) -> str:
    """A Markdown report: a table of names, then every deviation with its repro."""
    verdicts = name_verdicts(records)
    out = [
        f"# Conformance of `{opts.target}` to the Array API standard {opts.version}",
        "",
    ]
    out.append(summary(records, opts, seconds).split("\n")[1])
    out += ["", "| name | verdict | deviations |", "|---|---|---|"]
    devs = defaultdict(list)
    for r in _deviations(records):
        devs[r.name].append(r)
    for name, v in verdicts.items():
        kinds = ", ".join(sorted({r.kind or r.verdict for r in devs[name]}))
        out.append(f"| `{name}` | {v} | {kinds} |")
    for name, rs in devs.items():
        out += ["", f"## `{name}`", ""]
        for r in rs:
            out.append(
                f"- **{r.kind or r.verdict}** ({r.feature}, {r.dtype}, {r.device}): {r.message}"
            )
            if r.repro:
                out += [
                    "",
                    "  ```python",
                    *("  " + line for line in r.repro.splitlines()),
                    "  ```",
                    "",
                ]
    return "\n".join(out) + "\n"


_COLOURS = {
    "conforms": "#c8e6c9",
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
                    for r in bad
                )
                body = f"<details><summary>{esc(worst)}</summary>{items}</details>"
            else:
                body = esc(worst)
            cells.append(f'<td style="background:{_COLOURS[worst]}">{body}</td>')
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = "".join(f"<th>{esc(f)}</th>" for f in features)
    title = f"Conformance of {esc(opts.target)} to the Array API standard {esc(opts.version)}"
    return (
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        f"<title>{title}</title><style>body{{font-family:sans-serif}}table{{border-collapse:collapse;font-size:12px}}"
        "td,th{border:1px solid #ccc;padding:2px 4px;vertical-align:top;text-align:left}pre{background:#f5f5f5;padding:4px}</style>"
        f"</head><body><h1>{title}</h1><p>{esc(summary(records, opts, seconds)).replace(chr(10), '<br>')}</p>"
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
    """An array-api-tests ``--xfails-file`` for the deviations found (best effort)."""
    from .registry import build_registry

    reg = build_registry(opts.version)
    ids: dict[str, list[str]] = defaultdict(list)
    for r in _deviations(records):
        test = reg[r.name].aat_test
        if r.kind == "signature" and r.feature == "signature":
            test = _aat_signature_test(r.name)
        if test:
            ids[test].append(f"{r.name} {r.kind or r.verdict} ({r.feature}, {r.dtype})")
    out = [
        f"# array-api-tests xfails for {opts.target} at {opts.version}, written by ocean-conformance.",
        "# One test id per line; the comment says which deviation it stands for.",
    ]
    for test, why in sorted(ids.items()):
        out.append(f"{test}  # {'; '.join(sorted(set(why))[:3])}")
    return "\n".join(out) + "\n"


def write_json(path: str, data: dict) -> None:
    with open(path, "w") as f:
        json.dump(data, f, indent=1, default=str)
        f.write("\n")
