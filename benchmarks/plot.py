#!/usr/bin/env python3
"""Plots and summary tables from a ``bench.py`` results file.

``bench.py --plots DIR`` runs the benchmark and calls :func:`write_all`; this
script redraws from a results file already written (no timing)::

    python3 benchmarks/plot.py docs/_static/benchmarks/results.json docs/_static/benchmarks

It writes, into the output folder:

- ``ratios_small.svg``, ``ratios_large.svg``: per-operation time ratios to the
  baseline (NumPy, or CuPy on a GPU), one panel per size, log scale, one bar
  per library;
- ``ratios_ext.svg``: the same for the ``ocean_ext`` cases (their baselines
  are named in the case list);
- ``scaling.svg``: time against size for a few representative operations;
- ``summary.md``: the machine, the targets with PASS/FAIL and the
  geometric means; ``cases.md``: the list of cases (both included by
  ``docs/benchmarks.md``).

The results of ``bench.py --threads`` (``meta.suite == "threads"``) give
instead ``ratios.svg`` (each operation's time over NumPy's for
ocean_array_api on 1, 2 and all threads and numexpr, one panel per size),
``threads.svg`` (the speed-up over NumPy against the thread count, 1e7
elements) and ``summary.md`` (the machine, the targets, the table at 1e7).

The plots need matplotlib (``pip install '.[bench]'``); the Markdown does not.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

# time against size: representative operations (drawn where measured)
SCALING_OPS = (
    "add",
    "sum_axis1",
    "index_bool",
    "setitem_ellipsis",
    "sort_f64",
    "slice",
)
COLORS = {
    "numpy": "#555555",
    "cupy": "#555555",
    "strict": "#e08a2c",
    "compat": "#4daf4a",
    "ocean": "#1f5fbf",
    "numexpr": "#9467bd",
    "ocean_1": "#a6c8ec",
    "ocean_2": "#5b8fd6",
}


# --- reading ---------------------------------------------------------------------------
def _values(payload: dict[str, Any]) -> dict[tuple[str, int, str], float]:
    """(op, size, library) -> the reported time in ns, for cells that ran."""
    out = {}
    stat = payload["meta"].get("stat", "median")
    for r in payload["results"]:
        if r["status"] != "ok":
            continue
        v = r.get("value_ns")
        if v is None:
            v = r["min_ns"] if stat == "min" else r["median_ns"]
        if v is not None:
            out[(r["op"], r["size"], r["library"])] = v
    return out


def _libraries(payload: dict[str, Any]) -> tuple[str, list[str]]:
    """(baseline, the others) in the run's order."""
    keys = list(payload["meta"]["libraries"])
    return keys[0], keys[1:]


def _label(payload: dict[str, Any], key: str) -> str:
    return payload["meta"].get("labels", {}).get(key, key)


def _fmt_size(n: int) -> str:
    if n >= 1_000_000 and n % 1_000_000 == 0:
        e = round(math.log10(n))
        return f"1e{e}" if n == 10**e else f"{n // 1_000_000}e6"
    return f"{n:,}"


# --- plots -----------------------------------------------------------------------------
def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: smaller files
    matplotlib.rcParams["svg.hashsalt"] = "ocean-bench"  # stable ids between runs
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, path: Path) -> Path:
    fig.savefig(path, metadata={"Date": None}, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path


def ratio_chart(
    payload: dict[str, Any],
    ops: list[str],
    sizes: list[int],
    path: Path,
    title: str,
    limit: float | None = None,
) -> Path | None:
    """Horizontal bars, one panel per size: each library's time over the
    baseline's, per operation, on a log scale."""
    values = _values(payload)
    base, others = _libraries(payload)
    sizes = [n for n in sizes if any((op, n, base) in values for op in ops)]
    ops = [op for op in ops if any((op, n, base) in values for n in sizes)]
    # libraries with no measured case here (array_api_compat on ocean_ext
    # dtypes) get no bar slot and no legend entry
    others = [
        lib for lib in others
        if any((op, n, lib) in values for op in ops for n in sizes)
    ]  # fmt: skip
    if not ops or not sizes:
        return None
    plt = _pyplot()
    height = 1.4 + 0.13 * len(ops) * max(1, len(others))
    fig, axes = plt.subplots(
        1, len(sizes), figsize=(3.6 * len(sizes) + 1.6, height), sharey=True,
        squeeze=False, layout="constrained",
    )  # fmt: skip
    groups = [payload.get("cases", {}).get(op, {}).get("group") for op in ops]
    bar = 0.8 / max(1, len(others))
    for ax, n in zip(axes[0], sizes, strict=True):
        lo, hi = 1.0, 1.0
        for j, lib in enumerate(others):
            ys, xs = [], []
            for i, op in enumerate(ops):
                b, v = values.get((op, n, base)), values.get((op, n, lib))
                if b is None or v is None or b <= 0:
                    continue
                ys.append(i - 0.4 + bar * (j + 0.5))
                xs.append(v / b)
            if xs:
                lo, hi = min(lo, *xs), max(hi, *xs)
            ax.barh(
                ys, xs, height=bar, left=0, color=COLORS.get(lib),
                label=_label(payload, lib) if n == sizes[0] else None,
            )  # fmt: skip
        ax.set_xscale("log")
        ax.set_xlim(max(lo / 1.6, 1e-3), hi * 1.6)
        ax.axvline(1.0, color="black", linewidth=0.8)
        if limit is not None:
            ax.axvline(limit, color="#b22222", linewidth=0.8, linestyle="--")
        ax.set_title(f"n = {_fmt_size(n)}")
        ax.set_xlabel(f"time / {_label(payload, base)} time")
        ax.grid(axis="x", which="major", linewidth=0.3)
        for i in range(1, len(ops)):
            if groups[i] != groups[i - 1]:  # a thin line between groups
                ax.axhline(i - 0.5, color="#999999", linewidth=0.4)
        ax.set_ylim(len(ops) - 0.5, -0.5)
    axes[0][0].set_yticks(range(len(ops)))
    axes[0][0].set_yticklabels(ops, fontsize=8)
    fig.suptitle(title)
    ncol = len(others) if len(sizes) > 1 else 1
    fig.legend(loc="outside lower center", ncol=ncol, fontsize=9)
    return _save(fig, path)


def scaling_chart(payload: dict[str, Any], path: Path) -> Path | None:
    """Time against size, log-log, for :data:`SCALING_OPS`."""
    values = _values(payload)
    base, others = _libraries(payload)
    libs = [base, *others]
    sizes = sorted({n for (_, n, _) in values})
    ops = [op for op in SCALING_OPS if any((op, n, base) in values for n in sizes)]
    if not ops or len(sizes) < 2:
        return None
    plt = _pyplot()
    cols = 3
    rows = math.ceil(len(ops) / cols)
    fig, axes = plt.subplots(
        rows, cols, figsize=(4.0 * cols, 3.2 * rows + 0.4), squeeze=False,
        layout="constrained",
    )  # fmt: skip
    docs = payload.get("cases", {})
    for k, op in enumerate(ops):
        ax = axes[k // cols][k % cols]
        for lib in libs:
            pts = [(n, values[(op, n, lib)]) for n in sizes if (op, n, lib) in values]
            if not pts:
                continue
            ax.plot(
                [p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3,
                color=COLORS.get(lib), label=_label(payload, lib) if k == 0 else None,
                linestyle="--" if lib == base else "-",
            )  # fmt: skip
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(docs.get(op, {}).get("doc") or op, fontsize=9)
        ax.set_xlabel("elements")
        ax.set_ylabel("time per call (ns)")
        ax.grid(which="major", linewidth=0.3)
    for k in range(len(ops), rows * cols):
        axes[k // cols][k % cols].set_visible(False)
    fig.legend(loc="outside lower center", ncol=len(libs), fontsize=9)
    return _save(fig, path)


# --- summary tables --------------------------------------------------------------------
def _fmt_value(t: dict[str, Any]) -> str:
    v = t["value"]
    if v is None:
        return "-"
    # three decimals for ratios: 1.10x must not read as meeting "at most 1.1x"
    return {"x": f"{v:.3f}x", "ns": f"{v:,.0f} ns"}.get(t["unit"], f"{v:.3f} s")


def _fmt_limit(t: dict[str, Any]) -> str:
    lim = t["limit"]
    return {"x": f"≤ {lim:g}x", "ns": f"< {lim:g} ns"}.get(t["unit"], f"< {lim:g} s")


def summary_markdown(payload: dict[str, Any]) -> str:
    """The machine, the targets and the geometric means, as MyST Markdown
    (headings start at level 2)."""
    meta = payload["meta"]
    summary = payload["summary"]
    base, others = _libraries(payload)
    fast = meta.get("fastpath")
    fast_text = {True: "on", False: "off", None: "not in this version"}[fast]
    libs = ", ".join(
        f"{_label(payload, k)} {v}".strip() for k, v in meta["libraries"].items()
    )
    load = meta.get("load_average")
    lines = [
        "## Machine",
        "",
        "| | |",
        "|---|---|",
        f"| date | {meta.get('date', '-')} |",
        f"| CPU | {meta.get('cpu', '-')}, {meta.get('cpus', '-')} cores |",
        f"| OS | {meta.get('os', '-')} |",
        f"| Python | {meta.get('python', '-')} |",
        f"| libraries | {libs} |",
        f"| device | {meta.get('device', '-')} |",
        *([f"| GPU | {meta['gpu']} |"] if meta.get("gpu") else []),
        f"| ocean_array_api commit | {meta.get('git_commit') or '-'} |",
        f"| compiled fast path | {fast_text} |",
        f"| statistic | {meta.get('stat', 'median')} of up to {meta.get('reps')} "
        f"interleaved samples of ≥ {meta.get('min_sample_ns', 0) / 1000:g} µs |",
    ]
    if load:
        lines.append(
            f"| load average at the end | {', '.join(f'{x:.2f}' for x in load)} |"
        )
    lines.append(f"| command | `{meta.get('command', '')}` |")
    if meta.get("note"):
        lines.append(f"| note | {meta['note']} |")
    lines.append("")
    targets = summary.get("targets") or []
    if targets:
        lines += [
            "## Targets",
            "",
            f"ocean_array_api against {_label(payload, base)}; "
            '"small" is 8 and 1,000 elements, "large" 1e6 and 1e7.',
            "",
            "| target | measured | limit | result | detail |",
            "|---|---:|---:|---|---|",
        ]
        for t in targets:
            verdict = {True: "PASS", False: "**FAIL**", None: "not measured"}[t["pass"]]
            lines.append(
                f"| {t['label']} | {_fmt_value(t)} | {_fmt_limit(t)} | {verdict} "
                f"| {t['detail']} |"
            )
        lines.append("")
    geo = summary.get("geomean", {})
    if geo:
        lines += [
            "## Geometric means",
            "",
            f"Time ratios to {_label(payload, base)}, lower is better (cells: "
            "operations times sizes that ran for both).",
            "",
            "| library | list, small | list, large (O(n)) | other operations | ocean_ext cases |",
            "|---|---:|---:|---:|---:|",
        ]

        def cell(g: dict[str, Any], key: str) -> str:
            r = g.get(key, {}).get("ratio")
            return "-" if r is None else f"{r:.2f}x ({g[key]['count']})"

        for lib in others:
            g = geo.get(lib, {})
            lines.append(
                f"| {_label(payload, lib)} | {cell(g, 'small')} | {cell(g, 'large')} "
                f"| {cell(g, 'other')} | {cell(g, 'ext')} |"
            )
        lines.append("")
    return "\n".join(lines)


def cases_markdown(payload: dict[str, Any]) -> str:
    """The list of cases with their statements and groups, as a Markdown table."""
    lines: list[str] = []
    cases = payload.get("cases", {})
    if cases:
        lines += [
            "Group: the operation group of the target list (counted in the "
            "targets), `other` (shown, not counted) or `ext` (`ocean_ext`, "
            "against the NumPy counterpart the statement names).",
            "",
            "| case | statement | group |",
            "|---|---|---|",
        ]
        for name, c in cases.items():
            doc = c["doc"].replace("|", "\\|").replace("*", "\\*")
            group = c["group"] + (", O(1)" if c.get("view") else "")
            lines.append(f"| `{name}` | {doc} | {group} |")
        lines.append("")
    return "\n".join(lines)


def threads_chart(payload: dict[str, Any], path: Path) -> Path | None:
    """Speed-up over NumPy against the thread count at the largest size: one
    line per operation for ocean_array_api (1, 2, all threads), numexpr (all
    threads) as a mark at the right."""
    values = _values(payload)
    sizes = sorted({n for (_, n, _) in values})
    if not sizes:
        return None
    n = sizes[-1]
    info = payload["meta"].get("threads") or {}
    every = int(info.get("ocean_default") or info.get("cores") or 2)
    counts = {"ocean_1": 1, "ocean_2": 2, "ocean": every}
    ops = [op for op in payload.get("cases", {}) if (op, n, "numpy") in values]
    if not ops:
        return None
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7.0, 4.2), layout="constrained")
    cmap = plt.get_cmap("tab20")
    for k, op in enumerate(ops):
        base = values[(op, n, "numpy")]
        pts = sorted(
            (t, base / values[(op, n, lib)])
            for lib, t in counts.items()
            if (op, n, lib) in values
        )
        if not pts:
            continue
        color = cmap(k % 20)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                markersize=3, color=color, label=op)  # fmt: skip
        if (op, n, "numexpr") in values:
            ax.plot([every + 0.15], [base / values[(op, n, "numexpr")]], marker="x",
                    color=color, linestyle="none")  # fmt: skip
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks(sorted(set(counts.values())))
    ax.set_xlabel("threads (x: numexpr on all threads)")
    ax.set_ylabel("speed-up over NumPy (its time / ours)")
    ax.set_title(f"n = {_fmt_size(n)}: ocean_array_api on 1, 2 and all threads")
    ax.grid(linewidth=0.3)
    fig.legend(loc="outside right center", fontsize=8)
    return _save(fig, path)


def threads_markdown(payload: dict[str, Any]) -> str:
    """The machine, the targets and the table at the largest size of a
    ``--threads`` run, as MyST Markdown (headings start at level 3)."""
    meta = payload["meta"]
    summary = payload["summary"]
    info = meta.get("threads") or {}
    load = meta.get("load_average")
    lines = [
        "| | |",
        "|---|---|",
        f"| date | {meta.get('date', '-')} |",
        f"| CPU | {meta.get('cpu', '-')}, {meta.get('cpus', '-')} cores "
        f"({info.get('cores', '-')} usable) |",
        "| libraries | "
        + ", ".join(
            f"{_label(payload, k)} {v}".strip() for k, v in meta["libraries"].items()
        )
        + " |",
        f"| ocean_array_api commit | {meta.get('git_commit') or '-'} |",
        f"| statistic | {meta.get('stat', 'median')} of up to {meta.get('reps')} "
        f"interleaved samples of ≥ {meta.get('min_sample_ns', 0) / 1000:g} µs |",
    ]
    if load:
        lines.append(
            f"| load average at the end | {', '.join(f'{x:.2f}' for x in load)} |"
        )
    lines += [f"| command | `{meta.get('command', '')}` |", ""]
    targets = summary.get("targets") or []
    if targets:
        lines += [
            "| target | measured | limit | result | detail |",
            "|---|---:|---:|---|---|",
        ]
        for t in targets:
            verdict = {True: "PASS", False: "**FAIL**", None: "not measured"}[t["pass"]]
            lines.append(
                f"| {t['label']} | {_fmt_value(t)} | {_fmt_limit(t)} | {verdict} "
                f"| {t['detail']} |"
            )
        lines.append("")
    values = _values(payload)
    sizes = sorted({n for (_, n, _) in values})
    if sizes:
        n = sizes[-1]
        libs = [k for k in meta["libraries"] if k != "numpy"]
        lines += [
            f"Times at n = {_fmt_size(n)} and their ratios to NumPy's:",
            "",
            "| operation | NumPy | "
            + " | ".join(_label(payload, k) for k in libs)
            + " | ocean / numexpr |",
            "|---|---:|" + "---:|" * (len(libs) + 1),
        ]
        for op in payload.get("cases", {}):
            base = values.get((op, n, "numpy"))
            if base is None:
                continue
            row = [f"`{op}`", f"{base / 1e6:.2f} ms"]
            for k in libs:
                v = values.get((op, n, k))
                row.append("-" if v is None else f"{v / 1e6:.2f} ms ({v / base:.2f}x)")
            ne, oc = values.get((op, n, "numexpr")), values.get((op, n, "ocean"))
            row.append("-" if ne is None or oc is None else f"{oc / ne:.2f}x")
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return "\n".join(lines)


def write_all(payload: dict[str, Any], outdir: Path) -> list[Path]:
    """Every plot and ``summary.md`` into ``outdir``; returns the paths written."""
    outdir.mkdir(parents=True, exist_ok=True)
    if payload["meta"].get("suite") == "threads":
        md = outdir / "summary.md"
        md.write_text(threads_markdown(payload) + "\n", encoding="utf-8")
        written = [md]
        sizes = sorted({r["size"] for r in payload["results"]})
        path = ratio_chart(
            payload, list(payload.get("cases", {})), sizes, outdir / "ratios.svg",
            "Large arrays on every core: time relative to NumPy (log scale)",
        )  # fmt: skip
        if path is not None:
            written.append(path)
        path = threads_chart(payload, outdir / "threads.svg")
        if path is not None:
            written.append(path)
        return written
    written = []
    md = outdir / "summary.md"
    md.write_text(summary_markdown(payload) + "\n", encoding="utf-8")
    written.append(md)
    md = outdir / "cases.md"
    md.write_text(cases_markdown(payload) + "\n", encoding="utf-8")
    written.append(md)
    small_limit = payload["meta"].get("small_limit", 100_000)
    sizes = sorted({r["size"] for r in payload["results"]})
    cases = payload.get("cases", {})
    std = [op for op, c in cases.items() if not c["ext"]]
    ext = [op for op, c in cases.items() if c["ext"]]
    charts = [
        ("ratios_small.svg", std, [n for n in sizes if n < small_limit],
         "Small arrays: time relative to the baseline (log scale; dashed: 2x)", 2.0),
        ("ratios_large.svg", std, [n for n in sizes if n >= small_limit],
         "Large arrays: time relative to the baseline (log scale; dashed: 1.1x)", 1.1),
        ("ratios_ext.svg", ext, sizes,
         "ocean_ext cases: time relative to the NumPy counterpart (log scale)", None),
    ]  # fmt: skip
    for name, ops, szs, title, limit in charts:
        path = ratio_chart(payload, ops, szs, outdir / name, title, limit)
        if path is not None:
            written.append(path)
    path = scaling_chart(payload, outdir / "scaling.svg")
    if path is not None:
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python3 benchmarks/plot.py RESULTS.json OUTDIR")
        return 2
    payload = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    for path in write_all(payload, Path(args[1])):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
