"""The registry: one entry per name of the standard, for each revision.

The names, kinds and signatures come from the standard's stubs (the tables in
``conformance/_spec``, see :mod:`conformance._spec.generate`).  Differential
checks (:class:`Feature`) are attached by :mod:`conformance.families`; a name
with none still gets its presence and signature checked, and its values are
reported ``untestable`` ("no value check yet"), never ``conforms``.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from .checks import Options

__all__ = ["VERSIONS", "Entry", "Feature", "build_registry", "spec_names"]

VERSIONS = ("2023.12", "2024.12", "2025.12")
_SPEC = Path(__file__).resolve().parent / "_spec"


@cache
def spec_names(version: str) -> dict[str, dict]:
    """Return the standard's names for ``version``: ``{name: {"kind", "params"}}``."""
    if version not in VERSIONS:
        msg = f"unknown version {version!r}; expected one of {VERSIONS}"
        raise ValueError(msg)
    return json.loads((_SPEC / f"names_{version}.json").read_text())


@dataclass
class Feature:
    """One differential check of a name: a keyword, a mode, or an input class.

    Parameters
    ----------
    name : str
        What is exercised: ``"default"``, ``"axis"``, ``"keepdims"``,
        ``"norm=ortho"``, ``"special-cases"``, ``"promotion"``, ...
    dtypes : str or tuple of str
        An ``isdtype`` kind (``"real floating"``, ``"numeric"``, ...), a tuple of
        dtype names, ``"mixed:<kind>"`` (pairs of different dtypes of that kind;
        the strategy then gets the pair), or ``"none"`` (no dtype dimension).
    build : callable
        ``build(ctx, dtype) -> SearchStrategy[Call]``: draws a recorded call.
    opts : Options
        Tolerances and what a value mismatch is called.
    compare : callable, optional
        ``compare(ref_out, tgt_out, call, ctx) -> list[Finding]`` replacing the
        default comparison (linalg decompositions, set functions, ...).
    expect_raise : bool
        The drawn inputs are invalid and the standard requires an exception.
    versions : tuple of str
        Revisions where the feature exists (default: all where the name does).
    scale_from : callable, optional
        ``scale_from(call) -> float``: the magnitude ``("rel", k)`` tolerances
        are measured against (sums, norms).
    elementwise : bool
        Results are elementwise: a deviation is reduced to the one failing
        element before it is rendered as a repro.
    explicit : callable, optional
        ``explicit(ctx, dtype) -> list[Call]``: calls run before any drawn one
        (the grid of special values of the special-case features).
    table : callable, optional
        ``table(ctx) -> list[Call]`` (``table(ctx, dtype)`` for a feature with
        dtypes): a deterministic table of calls run instead of drawing (the
        promotion table of binary functions, empty arrays, invalid axes).
    result_arg : int, optional
        Compare this argument, as it is after the call, instead of the return
        value (``__setitem__`` returns None and changes ``self``).
    identity : callable, optional
        ``identity(tgt_out, tgt_args, tgt_kwargs) -> list[Finding]``: an extra check of the
        result against the target's own inputs (``self`` first for methods) (``astype(x, x.dtype,
        copy=False)`` must return ``x`` itself; ``copy=True`` must not).
    level : str
        ``"must"``, or ``"should"`` where the standard only recommends what
        the feature checks (``squeeze`` of a non-singleton axis "should"
        raise): its findings are advisories.
    exc_types : tuple of exception types
        With ``expect_raise``: the type the standard names; another type is
        reported at ``exc_level`` (the standard names most with "should").
    capability : str, optional
        The ``capabilities()`` key of an optional feature (``"data-dependent
        shapes"``, ``"boolean indexing"``): a target declaring it ``False``
        may raise instead of answering (an advisory, not a crash).
    classes : tuple of str
        Input classes the feature draws that the calls themselves do not show
        (``"singular matrices"``), for the coverage report.
    inplace : bool
        An in-place operator: ``x op= y`` is compared by what it returns (what
        ``x`` is then bound to); updating ``x`` itself is an advisory, since
        the standard does not guarantee in-place mutation.
    may_answer : callable, optional
        With ``expect_raise``: ``may_answer(tgt_out, tgt_args, tgt_kwargs)``
        says whether the target's answer is allowed after all, judged by the
        target's own inputs (``reshape(x, s, copy=False)`` of a strided view
        must raise, but a library whose views are copies has a contiguous
        ``x``, which it may reshape without copying).
    """

    name: str
    dtypes: Any
    build: Callable
    opts: Options = field(default_factory=Options)
    compare: Callable | None = None
    expect_raise: bool = False
    versions: tuple[str, ...] = VERSIONS
    scale_from: Callable | None = None
    elementwise: bool = False  # a failing element can be isolated for the repro
    explicit: Callable | None = None  # explicit(ctx, dtype) -> list[Call], run first
    table: Callable | None = None  # table(ctx[, dtype]) -> list[Call]: no drawing
    result_arg: int | None = None  # compare this argument after the call (setitem)
    identity: Callable | None = None  # identity(tgt_out, args, kwargs) -> findings
    level: str = "must"
    exc_types: tuple = ()
    exc_level: str = "should"
    capability: str | None = None
    classes: tuple[str, ...] = ()
    inplace: bool = False  # x op= y: the result is what x is bound to
    may_answer: Callable | None = None  # with expect_raise: the answer is allowed


@dataclass
class Entry:
    """One standard name in one revision."""

    name: str
    kind: str  # function, constant, dtype, operator, method, attribute, info
    params: list | None
    versions: tuple[str, ...]
    features: list[Feature] = field(default_factory=list)
    aat_test: str | None = None  # the array-api-tests test id (for --xfails)

    @property
    def qualname(self) -> str:
        return self.name


def build_registry(version: str) -> dict[str, Entry]:
    """Return ``{standard name: Entry}`` for every name of ``version``.

    Every name of the revision is present, whether or not it has differential
    checks; ``tests/conformance/test_registry.py`` holds this to the spec.
    """
    from .families import FEATURES, aat_test_id

    names = spec_names(version)
    present_in = {v: spec_names(v) for v in VERSIONS}
    reg: dict[str, Entry] = {}
    for name, rec in names.items():
        versions = tuple(v for v in VERSIONS if name in present_in[v])
        feats = []
        for f in FEATURES.get(name, ()):
            if version not in f.versions:
                continue
            if f.name == "invalid-axis":
                # The standard's own text decides, per function and revision:
                # "If provided an invalid axis, the function must raise an
                # exception" (2025.12 sum, ...) is absent from older revisions,
                # which leave the behaviour open (design_topics/exceptions.md:
                # "libraries may emit warnings, raise exceptions, or misbehave").
                level = rec.get("invalid_axis")
                if level is None:
                    continue
                if level != f.level:
                    f = dataclasses.replace(f, level=level)
            feats.append(f)
        reg[name] = Entry(
            name=name,
            kind=rec["kind"],
            params=rec.get("params"),
            versions=versions,
            features=feats,
            aat_test=aat_test_id(name, rec["kind"]),
        )
    return reg
