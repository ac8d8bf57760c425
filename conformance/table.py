"""The published conformance table: ``python -m conformance.table``.

Runs the tool (``python -m conformance LIB --json ...``, one subprocess per
library, default settings unless ``--quick``) on each library and writes a
Markdown table: names conforming, deviating, crashing, missing and untestable,
deviations by kind, and the wall time.  A library that is not installed (or
that the tool cannot run against: exit status 2) gets a row saying why, so
the table can be regenerated anywhere.  ``docs/conformance_table.md`` is its
output on the project's reference machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from .checks import KINDS

LIBRARIES = (
    "numpy",
    "array_api_strict",
    "array_api_compat.numpy",
    "array_api_compat.torch",
    "jax.numpy",
    "array_api_compat.dask.array",
    "ocean_array_api",
)
ROOT = Path(__file__).resolve().parent.parent
# jax.numpy has no float64 unless x64 is enabled; run every library on the CPU
ENV = {"JAX_ENABLE_X64": "1", "JAX_PLATFORMS": "cpu", "CUDA_VISIBLE_DEVICES": ""}
# Settings that differ from the defaults, per library, stated in the table.
# JAX compiles every new (function, shape, dtype), so nearly all of its run is
# compiling: fewer calls per cell, shapes with sides up to 2 and two workers
# keep it to about 20 minutes on two cores (18 minutes of CPU, 2026-11-28).
LIB_ARGS = {"jax.numpy": ["--max-examples", "4", "--max-side", "2", "-j", "2"]}


def run_one(lib: str, out: Path, extra: list[str]) -> dict:
    """Run the tool on ``lib``; return a row of the table."""
    env = {**os.environ, **ENV}
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(ROOT), str(ROOT / "backends"), env.get("PYTHONPATH")) if p
    )
    cmd = [sys.executable, "-m", "conformance", lib, "-q", "--database", ""]
    cmd += ["--json", str(out), *extra, *LIB_ARGS.get(lib, [])]
    t0 = time.perf_counter()
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - t0
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)
    row: dict = {"library": lib, "seconds": round(wall, 1), "exit": r.returncode}
    row["cpu_seconds"] = round(cpu, 1)
    if r.returncode not in (0, 1) or not out.exists():
        lines = (r.stderr or r.stdout).strip().splitlines()
        row["error"] = lines[-1] if lines else f"exit status {r.returncode}"
        return row
    data = json.loads(out.read_text())
    row["version"] = data["dashboard"].get("library_version", "")
    row["api_version"] = data.get("version", "")
    row["counts"] = data["counts"]
    kinds: Counter = Counter()
    advisory: Counter = Counter()
    adv_names = 0
    for f in data["functions"].values():
        for d in f["deviations"]:
            kinds[d["kind"]] += 1
        for a in f.get("advisories", []):
            advisory[a.get("kind") or "other"] += 1
        adv_names += bool(f.get("advisories"))
    row["kinds"] = dict(kinds)
    row["advisories"] = dict(advisory)
    row["advisory_names"] = adv_names
    return row


def _version(lib: str, fallback: str) -> str:
    """The installed version of the distribution providing ``lib``."""
    from importlib import metadata

    top = lib.split(".")[0]
    for dist in metadata.packages_distributions().get(top, []) or [top]:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            continue
    return fallback


_NAME_COLS = ("conforms", "deviates", "crashes", "missing", "untestable")
_KEY = {
    "library": "the namespace tested, with its version (an `array_api_compat` "
    "wrapper also names the library it wraps)",
    "revision": "the revision of the standard it was tested against: the one it "
    "declares in `__array_api_version__`",
    "conforms": "standard names whose every check passed (advisories allowed)",
    "deviates": "names with at least one departure from a MUST of the standard",
    "crashes": "names that raised on an input the standard allows",
    "missing": "names the library does not define",
    "untestable": "names with no value check that could run (only presence and "
    "signature, or an optional feature the library declares it lacks)",
    "advisories": "names with an advisory: a SHOULD of the standard not followed, "
    "or an optional feature declared absent; these never make a library fail",
    "wall, CPU": "the run's wall time and the CPU time of its processes",
}
_KIND_KEY = {
    "signature": "a parameter missing, or of the wrong kind (positional, keyword)",
    "dtype": "a result of the wrong dtype",
    "shape": "a result of the wrong shape",
    "value": "wrong values",
    "special-case": "a special case of the standard (NaN, infinities, signed "
    "zeros) answered otherwise",
    "exception": "no error where the standard requires one",
    "device": "a result on another device",
    "mutation": "an input changed by the call",
    "crash": "an error on an input the standard allows",
    "missing": "the name is missing (counted for each of its checks)",
    "optional": "an optional feature the library declares it lacks",
}
# The same kinds, when what the library departs from is a SHOULD of the standard.
_ADVISORY_KEY = {
    "exception": 'an error the standard recommends ("should raise") not raised, '
    "or of another type than the one it recommends, or (a lazy library) raised "
    "only when the result is computed",
    "value": "a result the standard recommends answered otherwise (a singular "
    "matrix's `slogdet`, NaNs kept apart by `unique_*`), or `x op= y` giving a "
    "new array instead of updating `x`, or a declared revision other than the "
    "one tested",
    "shape": "a result of another shape in a check of a recommendation (NaNs "
    "kept apart by `unique_*`); the same fault, where a MUST is checked, is also "
    "a deviation",
    "optional": "an optional feature the library declares it lacks (an in-place "
    "operator not defined, a `capabilities()` entry False); the calls that need "
    "it are not judged",
    "accuracy": "a function whose accuracy the standard leaves open (`exp`, `sin`, "
    "...) off beyond the tool's tolerance at inputs that are no special case",
    "crash": "an error on an input the standard only recommends supporting "
    "(`isin` of floats)",
}


def to_markdown(rows: list[dict], extra: list[str]) -> str:
    """The tables, with a key to every column and how they were made."""
    kinds = [k for k in KINDS if any(r.get("kinds", {}).get(k) for r in rows)]
    kinds += ["missing"] if any(r.get("kinds", {}).get("missing") for r in rows) else []
    akinds = sorted({k for r in rows for k in r.get("advisories") or {}})
    run = "python -m conformance.table" + (" " + " ".join(extra) if extra else "")
    out = [
        "# Conformance of array libraries to the Array API standard",
        "",
        f"Generated by `{run}` (the ocean-conformance tool at its"
        + (" `--quick` settings" if "--quick" in extra else " default settings")
        + (
            f", {extra[extra.index('-j') + 1]} worker processes per library"
            if "-j" in extra
            else ""
        )
        + f", on the CPU) on {time.strftime('%Y-%m-%d')}, Python "
        f"{platform.python_version()}, a {os.cpu_count()}-core machine shared with "
        "other work (wall times vary with its load; the CPU time of the tool's "
        "processes is steadier).  Each library is tested against the revision "
        "of the standard it declares"
        + (
            " (rows kept from an earlier run: see below)"
            if any(r.get("kept") for r in rows)
            else ""
        )
        + ".  `jax.numpy` runs with `JAX_ENABLE_X64=1`.  "
        "Run the tool on a library to get each deviation with its repro, every "
        "one of which the tool has run in a fresh interpreter.",
        "",
        "**`ocean_array_api` is the reference**: the tool compares every other "
        "library with it, so its own row shows that the reference agrees with "
        "itself on every input the tool draws (the tool's other checks, of "
        "signatures, special cases, errors and promotion, still apply to it).",
        *(
            [
                "",
                "Settings other than the defaults: "
                + "; ".join(
                    f"`{lib}`: `{' '.join(args)}`"
                    for lib, args in LIB_ARGS.items()
                    if any(r["library"] == lib for r in rows)
                )
                + " (JAX compiles each new function, shape and dtype, so nearly "
                "all of its run is compiling: with these settings it takes about "
                "20 minutes here).",
            ]
            if any(r["library"] in LIB_ARGS for r in rows)
            else []
        ),
        *(
            [
                "",
                "Rows marked * were measured by an earlier run of the tool, with the "
                "verdicts it gave then (see the history of docs/dev/conformance_tool.md), "
                "and kept: "
                + ", ".join(f"`{r['library']}`" for r in rows if r.get("kept"))
                + ".  They were tested at the revision shown; an empty cell is a "
                "figure that run did not record.",
            ]
            if any(r.get("kept") for r in rows)
            else []
        ),
        "",
        "## Standard names",
        "",
        *(f"- **{k}**: {v}" for k, v in _KEY.items()),
        "",
        "| library | revision | conforms | deviates | crashes | missing | untestable"
        " | advisories | wall | CPU |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    done = [r for r in rows if "error" not in r]
    for r in rows:
        if "error" in r:
            out.append(f"| `{r['library']}` | not run: {r['error']} |||||||||")
            continue
        c = r["counts"]
        lib = r["library"]
        ver = r["version"] if r.get("kept") else _version(lib, r.get("version", ""))
        if lib.startswith("array_api_compat.") and not r.get("kept"):
            wrapped = lib.split(".")[1]
            ver += f" ({wrapped} {_version(wrapped, '')})"
        cells = [f"`{lib}` {ver}" + (" *" if r.get("kept") else "")]
        cells.append(r.get("api_version", ""))
        cells += [str(c.get(v, 0)) for v in _NAME_COLS]
        adv = r.get("advisory_names", 0)
        cells.append("" if adv is None else str(adv))
        cells.append(f"{r['seconds']:.0f} s")
        cpu = r.get("cpu_seconds")
        cells.append(f"{cpu:.0f} s" if cpu is not None else "")
        out.append("| " + " | ".join(cells) + " |")
    if kinds and done:
        out += [
            "",
            "## Deviations by kind",
            "",
            "Checks (a name, a feature of it, a dtype) that deviate, by kind; one "
            "fault of a name often shows in several checks.",
            "",
            *(f"- **{k}**: {_KIND_KEY.get(k, k)}" for k in kinds),
            "",
            "| library | " + " | ".join(kinds) + " |",
            "|---|" + "--:|" * len(kinds),
        ]
        for r in done:
            out.append(
                f"| `{r['library']}` | "
                + " | ".join(
                    ""
                    if "kind_columns" in r and k not in r["kind_columns"]
                    else str(r["kinds"].get(k, 0))
                    for k in kinds
                )
                + " |"
            )
    if akinds and done:
        out += [
            "",
            "## Advisories by kind",
            "",
            "Advisories never make a library fail: they are SHOULD-level "
            "recommendations of the standard the library does not follow, and "
            "optional features it declares it lacks.",
            "",
            *(
                f"- **{k}**: "
                + _ADVISORY_KEY.get(
                    k, f"a SHOULD of the standard ({_KIND_KEY.get(k, k)})"
                )
                for k in akinds
            ),
            "",
            "| library | " + " | ".join(akinds) + " |",
            "|---|" + "--:|" * len(akinds),
        ]
        for r in done:
            out.append(
                f"| `{r['library']}` | "
                + " | ".join(
                    ""
                    if r.get("advisories") is None
                    else str(r["advisories"].get(k, 0))
                    for k in akinds
                )
                + " |"
            )
    return "\n".join(out) + "\n"


def parse_markdown(text: str) -> dict[str, dict]:
    """The rows of the tables this module wrote, by library (to keep some)."""
    rows: dict[str, dict] = {}
    head: list[str] = []
    section = ""
    # the older one-table layout said the one revision of every row in its header
    page_revision = re.search(r"standard (\d{4}\.\d{2})", text)
    for line in text.splitlines():
        if line.startswith("## "):
            section, head = line[3:].strip(), []
            continue
        if not line.startswith("| "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "library":
            head = cells
            continue
        if not head or len(cells) != len(head) or not cells[0].startswith("`"):
            continue
        lib, _, ver = cells[0][1:].partition("`")
        row = rows.setdefault(lib, {"library": lib, "kept": True})
        named = dict(zip(head, cells, strict=True))
        if "conforms" in named:  # the names (in an older layout, with kinds)
            row["version"] = ver.strip().rstrip("*").strip()
            row["api_version"] = named.get("revision") or (
                page_revision.group(1) if page_revision else ""
            )
            row["counts"] = {h: int(named[h]) for h in _NAME_COLS}
            if "advisories" in named and named["advisories"].strip():
                row["advisory_names"] = int(named["advisories"])
            else:  # a layout without advisories, or a kept row that did not
                # record them: unknown, not none
                row["advisory_names"] = row["advisories"] = None
            wall = named.get("wall") or named.get("wall time") or "0"
            row["seconds"] = float(wall.split()[0])
            cpu = named.get("CPU") or named.get("CPU time")
            if cpu:
                row["cpu_seconds"] = float(cpu.split()[0])
            old = {
                h[: -len(" dev.")]: int(c)
                for h, c in named.items()
                if h.endswith(" dev.")
            }
            if old:  # the kinds that layout had a column for, the others unknown
                row["kinds"] = {k: c for k, c in old.items() if c}
                row["kind_columns"] = sorted(old)
        else:
            cells = {h: c.strip() for h, c in named.items() if h != "library"}
            if cells and not any(cells.values()):
                continue  # a kept row whose run did not record these: unknown
            counts = {h: int(c) for h, c in cells.items() if c and int(c)}
            deviations = section.startswith("Deviations")
            row["kinds" if deviations else "advisories"] = counts
            if deviations and not all(cells.values()):  # some not recorded
                row["kind_columns"] = sorted(h for h, c in cells.items() if c)
    for row in rows.values():
        row.setdefault("kinds", {})
        row.setdefault("advisories", {})  # None (unknown) stays None
    return {k: v for k, v in rows.items() if "counts" in v}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m conformance.table")
    p.add_argument("libraries", nargs="*", default=list(LIBRARIES))
    p.add_argument("--out", default=str(ROOT / "docs" / "conformance_table.md"))
    p.add_argument("--json-dir", default=".conformance-table")
    p.add_argument("--quick", action="store_true")
    p.add_argument("-j", "--jobs", type=int, default=1, help="workers per library")
    p.add_argument(
        "--render-only",
        action="store_true",
        help="rewrite the table from the rows of the last run (JSON_DIR/rows.json)",
    )
    p.add_argument(
        "--keep",
        default="",
        metavar="LIB[,LIB...]",
        help="keep these libraries' rows from the existing table instead of running",
    )
    a = p.parse_args(argv)
    extra = ["--quick"] if a.quick else []
    if a.jobs > 1:
        extra += ["-j", str(a.jobs)]
    jdir = Path(a.json_dir)
    if a.render_only:
        Path(a.out).write_text(
            to_markdown(json.loads((jdir / "rows.json").read_text()), extra)
        )
        return 0
    jdir.mkdir(parents=True, exist_ok=True)
    keep = {k for k in a.keep.split(",") if k}
    old = parse_markdown(Path(a.out).read_text()) if Path(a.out).exists() else {}
    missing = keep - set(old)
    if missing:
        p.error(f"--keep: no row for {', '.join(sorted(missing))} in {a.out}")
    rows = []
    for lib in a.libraries:
        if lib in keep:
            rows.append(old[lib])
            continue
        row = run_one(lib, jdir / f"{lib}.json", extra)
        print(json.dumps(row), flush=True)
        rows.append(row)
    Path(a.out).write_text(to_markdown(rows, extra))
    (jdir / "rows.json").write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
