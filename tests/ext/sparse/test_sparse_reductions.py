"""Reductions of COO arrays on inputs that take every code path (wide outputs,
non-trailing axes, views), the exactness of ``prod``, and the builtin
shadowing that broke them."""

from __future__ import annotations

import ast
import builtins
import pathlib
import warnings

import numpy as np
import pytest

import ocean_array_api as xp
from ocean_ext import sparse

from .strategies import assert_dense_equal

REDUCTIONS = ("sum", "prod", "max", "min", "mean", "any", "all", "count_nonzero")
SPARSE_DIR = pathlib.Path(sparse.__file__).parent


def _dense_result(name, s, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.asarray(getattr(xp, name)(s.todense(), **kw))


def _check(name, s, **kw):
    got = getattr(sparse, name)(s, **kw)
    assert_dense_equal(got, _dense_result(name, s, **kw))


def _wide(fill=0.0):
    """(2, 100_000) with two entries: reducing axis 0 gives a 100_000-cell output
    far larger than the entries (the sort path, not the dense accumulator)."""
    return sparse.COO(
        xp.asarray([[0, 1, 1], [5, 7, 99_999]]),
        xp.asarray([1.0, 2.0, -3.0]),
        (2, 100_000),
        fill_value=fill,
    )


@pytest.mark.parametrize("fill", [0.0, 1.5])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_wide_output_non_trailing_axis(name, fill):
    """The reported crash: ``builtins.max`` shadowed by the module's ``max``."""
    s = _wide(fill)
    _check(name, s, axis=0)
    _check(name, s, axis=0, keepdims=True)
    _check(name, s, axis=1)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_wide_output_of_views(name):
    s = _wide(0.5)
    for view in (s.T, s[::-1], s[:, ::3], s[:, 1:][::-1, ::-2], s[None].mT):
        for axis in range(view.ndim):
            _check(name, view, axis=axis)
        _check(name, view)


@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_3d_middle_axes_of_views(name):
    rng = np.random.default_rng(1)
    a = np.where(rng.random((7, 300, 40)) < 0.01, rng.integers(1, 4, (7, 300, 40)), 0)
    s = sparse.COO.from_dense(xp.asarray(a.astype(np.float64)))
    for view in (s, sparse.permute_dims(s, (2, 0, 1)), s[:, ::-7, 1:]):
        for axis in (0, 1, 2, (0, 2), (1, 2), (0, 1)):
            _check(name, view, axis=axis)


def _module_level_builtins(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                names.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return {n for n in names if hasattr(builtins, n)}


@pytest.mark.parametrize("path", sorted(SPARSE_DIR.glob("*.py")), ids=lambda p: p.name)
def test_no_use_of_shadowed_builtin_names(path):
    """A module that defines a standard name shadowing a builtin (``max``,
    ``sum``, ``abs``, ...) must not use that name: ``max(a, b)`` written for the
    builtin would call the sparse function.  Use ``builtins.max`` or a private
    alias of the sparse function (``_sum``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    shadowed = _module_level_builtins(tree)
    uses = [
        f"{path.name}:{n.lineno}: {n.id}"
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in shadowed
    ]
    assert not uses, uses
