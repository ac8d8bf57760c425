"""``python -m conformance TARGET``: test an array namespace against the standard.

Exit status: 0 when the target conforms (advisories allowed), 1 when it
deviates, 2 when the tool could not run (with a one-line reason on stderr:
the target is not importable or not an array namespace, an unknown device,
``--only`` naming nothing), 130 when stopped with Ctrl-C (the reports then
hold the names that finished).
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import time

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ocean-conformance",
        description="Test an array library's namespace against the Python Array API "
        "standard, differentially, with ocean_array_api as the reference.",
    )
    p.add_argument(
        "target",
        help="importable namespace module (numpy, array_api_strict, array_api_compat.torch, ...)",
    )
    p.add_argument(
        "--version",
        default=None,
        choices=("2023.12", "2024.12", "2025.12"),
        help="revision of the standard (default: the one the target declares in"
        " __array_api_version__, else 2025.12)",
    )
    p.add_argument(
        "--device",
        help="a device of the target's __array_namespace_info__().devices(), e.g. cuda:0 or cpu:1",
    )
    p.add_argument(
        "--quick",
        action="store_true",
        help="8 calls per cell (besides the fixed edge cases) and one dtype per"
        " promotion group (bool, narrow and wide signed and unsigned integers,"
        " float32, float64, a complex)",
    )
    p.add_argument(
        "--max-examples",
        type=int,
        metavar="N",
        help="calls drawn per (name, feature, dtype) cell, four per Hypothesis"
        " example, besides the fixed edge cases (default 16, 8 with --quick)",
    )
    p.add_argument(
        "--max-side",
        type=int,
        metavar="N",
        help="largest side of drawn array shapes (default 4); a smaller one means "
        "fewer distinct shapes, for libraries that compile each new shape (jax.numpy)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed: the same seed gives the same verdicts (default 0)",
    )
    p.add_argument(
        "--only",
        metavar="NAME[,NAME...]",
        help="standard names (or prefixes: linalg, fft, Array) to test",
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="parallel worker processes",
    )
    p.add_argument("--json", metavar="PATH", help="write the JSON report")
    p.add_argument("--html", metavar="PATH", help="write a static HTML report")
    p.add_argument("--markdown", metavar="PATH", help="write a Markdown report")
    p.add_argument(
        "--xfails",
        metavar="PATH",
        help="write an array-api-tests xfails file for the deviations",
    )
    p.add_argument(
        "--database",
        default=".conformance-db",
        metavar="DIR",
        help="replay database of failing examples ('' to disable)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress line")
    p.add_argument(
        "--no-prove",
        action="store_true",
        help="print repros without running each in a fresh interpreter first",
    )
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = _parser().parse_args(argv)
    try:
        from .runner import Options, TargetError, run
    except Exception as e:  # pragma: no cover - broken installation
        print(f"ocean-conformance: cannot load the tool: {e}", file=sys.stderr)
        return 2
    if (
        args.jobs < 1
        or (args.max_examples is not None and args.max_examples < 1)
        or (args.max_side is not None and args.max_side < 1)
    ):
        print(
            "ocean-conformance: -j, --max-examples and --max-side must be positive",
            file=sys.stderr,
        )
        return 2

    def progress(done: int, total: int, name: str) -> None:
        sys.stderr.write(f"\r[{done}/{total}] {name[:40]:<40}")
        sys.stderr.flush()

    opts = Options(
        target=args.target,
        version=args.version,
        device=args.device,
        quick=args.quick,
        max_examples=args.max_examples,
        max_side=args.max_side,
        seed=args.seed,
        only=tuple(n.strip() for n in args.only.split(",") if n.strip())
        if args.only
        else (),
        jobs=args.jobs,
        database=args.database or None,
        progress=None if args.quiet or not sys.stderr.isatty() else progress,
        prove=not args.no_prove,
    )
    from . import report

    t0 = time.perf_counter()
    last = [0.0]

    def partial(records: list) -> None:
        # the JSON report as names finish (at most every two seconds: it is
        # rewritten whole): a stopped run still leaves one
        now = time.perf_counter()
        if args.json and now - last[0] >= 2.0:
            last[0] = now
            data = report.to_json(records, opts, time.perf_counter() - t0)
            data["complete"] = False
            with contextlib.suppress(OSError):
                report.write_json(args.json, data)

    def on_sigint(signum, frame):  # the first Ctrl-C stops at the next cell
        if opts.stop:
            raise KeyboardInterrupt
        opts.stop = True

    signal.signal(signal.SIGINT, on_sigint)
    try:
        records, seconds = run(opts, on_records=partial if args.json else None)
    except TargetError as e:
        print(f"ocean-conformance: {e}", file=sys.stderr)
        return 2
    if opts.progress is not None:
        sys.stderr.write("\n")
    print(report.summary(records, opts, seconds))
    try:
        if args.json:
            report.write_json(args.json, report.to_json(records, opts, seconds))
        if args.markdown:
            with open(args.markdown, "w") as f:
                f.write(report.to_markdown(records, opts, seconds))
        if args.html:
            with open(args.html, "w") as f:
                f.write(report.to_html(records, opts, seconds))
        if args.xfails:
            with open(args.xfails, "w") as f:
                f.write(report.to_xfails(records, opts))
    except OSError as e:
        print(f"ocean-conformance: cannot write a report: {e}", file=sys.stderr)
        return 2
    if opts.interrupted:
        print("ocean-conformance: interrupted", file=sys.stderr)
        return 130
    bad = any(r.verdict in ("deviates", "crashes", "missing") for r in records)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
