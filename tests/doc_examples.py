"""Run the Python blocks of the README and ``docs/`` and check what they show.

The pages are parsed with Sybil (fenced blocks in Markdown/MyST, ``code-block``
directives in reST); every block whose language is ``python`` runs, in page
order, in one namespace per page, in a fresh process started from a scratch
directory (``tests/test_doc_examples.py`` starts one per page), so that a page
is checked as a reader who pastes it into a new interpreter would see it.

What a page shows is checked, statement by statement:

- ``expr  # SHOWN``: an expression statement with a comment on its last line
  shows its result: the text ``print(...)`` wrote, or else ``repr`` of the
  value (a value of ``None`` with nothing printed shows nothing, so its
  comment is prose).  The comment must begin with that output: in full, or
  followed by prose after ``": "``, ``"; "``, ``", "``, ``" ("`` or ``" -- "``.
  ``...`` in the comment matches any text, and runs of white space compare
  equal.
- ``stmt  # SomeError: message``: the statement must raise ``SomeError`` (or
  an exception derived from a class of that name) whose message matches the
  rest of the comment (as above: a prefix up to a separator, ``...`` a
  wildcard).  When the statement has no comment of its own, full-line
  comments right below it that begin with ``SomeError:`` are its comment.  A
  statement that raises with no such comment fails the page, and so does a
  comment naming an exception for a statement that raises none.
- Warnings: every warning a statement emits must be named (by its category,
  ``RuntimeWarning``, ``ocean_ext.DomainWarning``, ...) in the statement's
  comment; a page that omits the warnings its code prints fails.  A name
  followed by ``": "`` is also matched against the warning's message.
- A fenced ``text`` block right after a Python block (nothing but blank lines
  between) shows what the block printed: its whole standard output must match
  it (``...`` a wildcard, white space compared loosely).

Comments on assignments and other statements are prose unless they name an
exception or the statement raises or warns.  Statements inside ``with``,
``for``, ``if``, ``while`` and ``try`` bodies are checked the same way;
function and class bodies run when called, as part of the calling statement.

A block that cannot run everywhere says why in the page and carries a Sybil
skip marker with the reason, invisible in the rendered page:
``% skip: next "needs a GPU"`` (MyST) or ``<!--- skip: next "needs a GPU" -->``
(plain Markdown, as GitHub renders the README).  A skip marker without a
reason is an error.

Command line (what the test runs; also handy while writing a page)::

    python tests/doc_examples.py docs/ext/modes.md [--json report.json]
    python tests/doc_examples.py            # every page, one process each

exits 0 when every block ran as shown, 1 otherwise, and prints one line per
block.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import contextlib
import io
import json
import re
import sys
import time
import tokenize
import traceback
import unittest
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# Separators after which a comment's remaining text is prose.
_SEPARATORS = (": ", "; ", ", ", " (", " -- ", "\n")
_EXC_COMMENT = re.compile(r"^(?P<name>[A-Za-z_][\w.]*(?:Error|Exception|Warning))\b:?")
_NAMED = re.compile(
    r"(?P<name>[A-Za-z_][\w.]*(?:Error|Exception|Warning))(?P<colon>: )?"
)
_SKIP = re.compile(r"skip:\s*(?P<action>\w+)(?P<rest>[^\n]*)")
_CHECK = "__doc_example_check__"
_SLOTS = "__doc_example_slot__"


def pages(root: Path = ROOT) -> list[Path]:
    """The pages whose examples run: the README and every page of ``docs/``."""
    out = [root / "README.md"]
    for pattern in ("*.md", "*.rst"):
        for path in sorted((root / "docs").rglob(pattern)):
            rel = path.relative_to(root / "docs").parts
            if rel[0] not in {"_build", "_static"}:
                out.append(path)
    return sorted(out)


# --- matching shown text -------------------------------------------------------


def _pattern(shown: str) -> re.Pattern[str]:
    parts = [re.escape(_normal(piece)) for piece in shown.split("...")]
    return re.compile(".*?".join(parts), re.DOTALL)


def _normal(text: str) -> str:
    # white space is layout (NumPy pads reprs to align columns): ignored
    return "".join(text.split())


def matches(shown: str, actual: str, *, prose: bool = True) -> bool:
    """Whether ``shown`` (a comment) begins with ``actual``.

    ``...`` in ``shown`` is a wildcard; white space is ignored; with
    ``prose``, text after a separator (``": "``, ``", "``, a line break, ...)
    may follow.  A comment that is only a wildcard shows nothing and matches
    nothing.
    """
    shown = shown.strip()
    actual = _normal(actual)
    candidates = [shown]
    if prose:
        for sep in _SEPARATORS:
            start = 0
            while (i := shown.find(sep, start)) >= 0:
                candidates.append(shown[:i])
                start = i + 1
    for cand in candidates:
        if not cand.replace(".", "").strip():
            continue  # only a wildcard: shows nothing
        if _pattern(cand).fullmatch(actual):
            return True
    return False


def _class_names(obj: type) -> set[str]:
    names = set()
    for klass in obj.__mro__:
        names.add(klass.__name__)
        names.add(f"{klass.__module__}.{klass.__qualname__}")
        names.add(f"{klass.__module__.split('.')[0]}.{klass.__qualname__}")
    return names


def _names_class(text: str, klass: type) -> list[re.Match[str]]:
    """Every ``Name`` or ``Name:`` in ``text`` that names ``klass``."""
    names = _class_names(klass)
    return [m for m in _NAMED.finditer(text) if m.group("name") in names]


# --- one checked statement -----------------------------------------------------


class ExampleFailure(AssertionError):
    """A statement of a page did not do what the page shows."""


@dataclass
class _Check:
    """Runs one statement: captures its output and warnings, then checks them."""

    where: str
    source: str
    shown: str | None
    value: Any = None
    has_value: bool = False
    _out: io.StringIO = field(default_factory=io.StringIO)

    def __enter__(self) -> _Check:
        self._redirect = contextlib.redirect_stdout(self._out)
        self._redirect.__enter__()
        self._warnings = warnings.catch_warnings(record=True)
        self._caught = self._warnings.__enter__()
        warnings.simplefilter("always")
        return self

    def set(self, value: Any) -> None:
        self.value = value
        self.has_value = True

    def _fail(self, message: str) -> None:
        shown = f"\n  shown: # {self.shown}" if self.shown is not None else ""
        msg = f"{self.where}: {self.source.strip()}\n  {message}{shown}"
        raise ExampleFailure(msg)

    def __exit__(self, etype: Any, exc: BaseException | None, tb: Any) -> bool:
        self._warnings.__exit__(None, None, None)
        self._redirect.__exit__(None, None, None)
        printed = self._out.getvalue()
        # what the statement printed reaches the block's output as well
        sys.stdout.write(printed)
        if isinstance(exc, ExampleFailure):
            return False  # an inner statement's check failed: pass it on
        shown = self.shown
        named = _EXC_COMMENT.match(shown) if shown else None
        if exc is not None:
            if not isinstance(exc, Exception):
                return False  # KeyboardInterrupt, SystemExit
            kind = f"{type(exc).__name__}: {exc}"
            if named is None or named.group("name") not in _class_names(type(exc)):
                detail = "".join(traceback.format_exception(etype, exc, tb)[-3:])
                self._fail(f"raised {kind}, which the page does not show\n{detail}")
            message = shown[named.end() :].strip()
            if message and not matches(message, str(exc)):
                self._fail(f"raised {kind}; the page shows another message")
            self._check_warnings(shown)
            return True  # the error the page shows
        if named is not None and not named.group("name").endswith("Warning"):
            self._fail(f"the page shows {named.group('name')}, but nothing was raised")
        self._check_warnings(shown or "")
        if shown is None or named is not None:
            return False
        if self.has_value and (self.value is not None or printed):
            actual = printed.rstrip("\n") if printed else repr(self.value)
            if not matches(shown, actual):
                self._fail(f"shows {actual!r}")
        return False

    def _check_warnings(self, shown: str) -> None:
        for w in self._caught:
            mentions = _names_class(shown, w.category)
            kind = f"{w.category.__name__}: {w.message}"
            if not mentions:
                self._fail(f"warned {kind}, which the page does not show")
            if not any(
                not m.group("colon") or matches(shown[m.end() :], str(w.message))
                for m in mentions
            ):
                self._fail(f"warned {kind}; the page shows another message")


# --- one block -----------------------------------------------------------------

_COMPOUND = (
    ast.With,
    ast.AsyncWith,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.If,
    ast.Try,
)
_OPAQUE = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _comments(source: str) -> tuple[dict[int, str], dict[int, str]]:
    """Trailing comments and full-line comments of ``source``, by line."""
    trailing: dict[int, str] = {}
    full: dict[int, str] = {}
    lines = source.splitlines()
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for tok in tokens:
        if tok.type != tokenize.COMMENT:
            continue
        row, col = tok.start
        text = tok.string[1:].strip()
        if lines[row - 1][:col].strip():
            trailing[row] = text
        else:
            full[row] = text
    return trailing, full


def _shown(
    stmt: ast.stmt, trailing: dict[int, str], full: dict[int, str]
) -> str | None:
    """What the page shows for ``stmt``: the comment on its last line, and the
    full-line comments right below it when the first begins with an
    exception's or a warning's name (``# RuntimeWarning: ...``)."""
    end = stmt.end_lineno or stmt.lineno
    text = [trailing[end]] if end in trailing else []
    if end + 1 in full and _EXC_COMMENT.match(full[end + 1]):
        row = end + 1
        while row in full:
            text.append(full[row])
            row += 1
    return "\n".join(text) if text else None


class _Instrument(ast.NodeTransformer):
    """Wraps every simple statement in a ``with _Check(...)`` block."""

    def __init__(self, source: str, path: str, first_line: int) -> None:
        self.lines = source.splitlines()
        self.trailing, self.full = _comments(source)
        self.path = path
        self.first_line = first_line
        self.checks: list[tuple[str, str, str | None]] = []

    def _body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        return [self._wrap(stmt) for stmt in body]

    def _wrap(self, stmt: ast.stmt) -> ast.stmt:
        if isinstance(stmt, _COMPOUND):
            for name in ("body", "orelse", "finalbody"):
                if getattr(stmt, name, None):
                    setattr(stmt, name, self._body(getattr(stmt, name)))
            if isinstance(stmt, ast.Try):
                for handler in stmt.handlers:
                    handler.body = self._body(handler.body)
            return stmt
        start, end = stmt.lineno, stmt.end_lineno or stmt.lineno
        where = f"{self.path}:{self.first_line + start - 1}"
        source = "\n".join(self.lines[start - 1 : end])
        shown = (
            None
            if isinstance(stmt, _OPAQUE)
            else _shown(stmt, self.trailing, self.full)
        )
        index = len(self.checks)
        self.checks.append((where, source, shown))
        # with __doc_example_check__(index) as __doc_example_slot__:
        #     __doc_example_slot__.set(<expr>)      (expression statements)
        #     <stmt>                                (the others)
        slot = ast.Name(id=_SLOTS, ctx=ast.Load())
        if isinstance(stmt, ast.Expr):
            inner: ast.stmt = ast.Expr(
                ast.Call(
                    ast.Attribute(slot, "set", ast.Load()),
                    [stmt.value],
                    [],
                )
            )
        else:
            inner = stmt
        node = ast.With(
            items=[
                ast.withitem(
                    ast.Call(
                        ast.Name(id=_CHECK, ctx=ast.Load()),
                        [ast.Constant(index)],
                        [],
                    ),
                    ast.Name(id=_SLOTS, ctx=ast.Store()),
                )
            ],
            body=[inner],
        )
        ast.copy_location(node, stmt)
        return ast.fix_missing_locations(node)


def run_block(
    source: str, namespace: dict[str, Any], path: str, first_line: int
) -> None:
    """Run one block's ``source`` in ``namespace``, checking what it shows."""
    tree = ast.parse(source, filename=path)
    tool = _Instrument(source, path, first_line)
    tree.body = tool._body(tree.body)
    ast.increment_lineno(tree, first_line - 1)
    code = compile(tree, path, "exec")

    def check(index: int) -> _Check:
        where, src, shown = tool.checks[index]
        return _Check(where, src, shown)

    namespace.setdefault("__name__", "__main__")
    namespace.setdefault("__builtins__", builtins)
    namespace[_CHECK] = check
    try:
        exec(code, namespace)
    except SystemExit as exc:
        # ``sys.exit(0)`` ends a script successfully: the rest is not run
        if exc.code not in (0, None):
            msg = f"{path}: the block exited with status {exc.code!r}"
            raise ExampleFailure(msg) from None
    finally:
        namespace.pop(_CHECK, None)
        namespace.pop(_SLOTS, None)


# --- pages ---------------------------------------------------------------------


@dataclass
class BlockResult:
    line: int
    status: str  # "passed", "failed", "skipped"
    detail: str = ""
    seconds: float = 0.0


def _parsers(path: Path) -> list[Any]:
    from sybil.parsers import markdown, myst, rest

    if path.suffix == ".rst":
        return [
            rest.SkipParser(),
            rest.CodeBlockParser(language="python", evaluator=_evaluate),
        ]
    if path.name == "README.md":
        return [
            markdown.SkipParser(),
            markdown.CodeBlockParser(language="python", evaluator=_evaluate),
        ]
    return [
        myst.SkipParser(),
        myst.CodeBlockParser(language="python", evaluator=_evaluate),
    ]


def _evaluate(example: Any) -> None:
    """Sybil evaluator: the block, then the ``text`` block after it, if any."""
    source = example.parsed
    if isinstance(source, str) is False:  # a Sybil Lexeme is a str subclass
        source = str(source)
    text = example.document.text
    first_line = example.line + 1  # the line after the opening fence
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run_block(source, example.namespace, example.path, first_line)
    expected = _output_block(text, example.end)
    if expected is not None and not matches(expected, out.getvalue(), prose=False):
        got = out.getvalue()
        msg = (
            f"{example.path}:{example.line}: the block printed\n{got}\n"
            f"but the page shows\n{expected}"
        )
        raise ExampleFailure(msg)


_TEXT_FENCE = re.compile(
    r"[ \t]*\n\s*^(?P<indent>[ \t]*)```text[ \t]*\n(?P<body>.*?)^[ \t]*```", re.S | re.M
)


def _output_block(text: str, end: int) -> str | None:
    m = _TEXT_FENCE.match(text, end)
    return None if m is None else m.group("body")


def _check_skip_reasons(path: Path, text: str) -> list[str]:
    problems = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not (stripped.startswith(("%", "<!--", "..")) and "skip:" in stripped):
            continue
        m = _SKIP.search(stripped)
        if m and m.group("action") in {"next", "start"}:
            rest = m.group("rest").strip().removesuffix("-->").strip()
            if not rest:
                problems.append(f"{path}:{number}: a skip marker without a reason")
    return problems


def run_page(path: Path) -> list[BlockResult]:
    """Run every Python block of ``path`` in order; one result per block."""
    from sybil import Document

    text = path.read_text(encoding="utf-8")
    results: list[BlockResult] = [
        BlockResult(0, "failed", p) for p in _check_skip_reasons(path, text)
    ]
    document = Document.parse(str(path), *_parsers(path))
    failed = False
    for example in document:
        if example.region.evaluator is not _evaluate:
            example.evaluate()  # skip markers
            continue
        line = example.line
        if failed:
            results.append(
                BlockResult(line, "failed", "not run: an earlier block failed")
            )
            continue
        start = time.perf_counter()
        try:
            example.evaluate()
        except unittest.SkipTest as exc:
            results.append(BlockResult(line, "skipped", str(exc)))
        except ExampleFailure as exc:
            failed = True
            results.append(BlockResult(line, "failed", str(exc)))
        except Exception:
            failed = True
            results.append(BlockResult(line, "failed", traceback.format_exc(limit=-4)))
        else:
            results.append(
                BlockResult(line, "passed", seconds=time.perf_counter() - start)
            )
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pages", nargs="*", type=Path, help="default: every page")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args(argv)
    todo = args.pages or pages()
    if len(todo) > 1:  # one fresh interpreter per page, as the test runs them
        import subprocess

        status = 0
        for path in todo:
            cmd = [sys.executable, __file__, str(path)]
            status |= subprocess.run(cmd, check=False).returncode
        return status
    report: dict[str, list[dict[str, Any]]] = {}
    ok = True
    for path in todo:
        path = path.resolve()
        results = run_page(path)
        try:
            name = str(path.relative_to(ROOT))
        except ValueError:
            name = str(path)
        report[name] = [r.__dict__ for r in results]
        for r in results:
            ok &= r.status != "failed"
            tail = f" ({r.detail})" if r.status == "skipped" else ""
            print(f"{name}:{r.line}: {r.status}{tail}", file=sys.__stdout__)
            if r.status == "failed":
                print(r.detail, file=sys.__stdout__)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    # the checkout, as from the repository root (where the pages' commands run)
    sys.path[:0] = [str(ROOT), str(ROOT / "backends")]
    sys.exit(main())
