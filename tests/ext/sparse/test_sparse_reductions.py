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


# --- prod: exact products ------------------------------------------------------
def _prod_both(s, **kw):
    return np.asarray(
        sparse.prod(s, **kw).todense()
        if kw.get("axis") is not None
        else sparse.prod(s, **kw)
    ), _dense_result("prod", s, **kw)


def test_prod_zero_beside_large_values_is_zero():
    """The reported NaN: 0 * 2**1100 (= 0 * inf when computed as stored product
    times fill ** missing)."""
    s = sparse.COO.from_dense(xp.asarray([0.0] + [2.0] * 1100), fill_value=2.0)
    got = sparse.prod(s)
    assert got.dtype == xp.float64
    assert float(got) == 0.0
    assert float(xp.prod(s.todense())) == 0.0
    s0 = sparse.COO.from_dense(xp.asarray([0.0] + [2.0] * 1100))  # fill 0
    assert float(sparse.prod(s0)) == 0.0


def test_prod_with_axis_zero_fill_many_large_values():
    a = np.full((2, 5000), 2.0)
    a[:, 7] = 0.0
    s = sparse.COO.from_dense(xp.asarray(a), fill_value=0.0)
    got, exp = _prod_both(s, axis=1)
    np.testing.assert_array_equal(got, [0.0, 0.0])
    np.testing.assert_array_equal(exp, [0.0, 0.0])
    s2 = sparse.COO.from_dense(xp.asarray(a), fill_value=2.0)  # zero stored
    got, _ = _prod_both(s2, axis=1)
    np.testing.assert_array_equal(got, [0.0, 0.0])
    got, _ = _prod_both(s2.T, axis=0)
    np.testing.assert_array_equal(got, [0.0, 0.0])


def test_prod_exact_where_fill_power_alone_overflows():
    """Two tiny stored values and a huge fill: the exact product is 1."""
    s = sparse.COO(
        xp.asarray([[0, 1]]), xp.asarray([1e-200, 1e-200]), (42,), fill_value=1e10
    )
    np.testing.assert_allclose(float(sparse.prod(s)), 1.0, rtol=1e-13)
    s2 = sparse.COO(
        xp.asarray([[0, 0], [0, 1]]),
        xp.asarray([1e-200, 1e-200]),
        (3, 42),
        fill_value=1e10,
    )
    got = np.asarray(sparse.prod(s2, axis=1).todense())
    np.testing.assert_allclose(got[0], 1.0, rtol=1e-13)
    assert np.isinf(got[1:]).all()  # 1e10 ** 42 overflows, as in dense
    assert np.isinf(_dense_result("prod", s2, axis=1)[1:]).all()


@pytest.mark.parametrize(
    ("values", "fill", "expected"),
    [
        ([0.0, np.inf], 2.0, np.nan),  # 0 * inf
        ([0.0, 3.0], np.inf, np.nan),  # a zero and an infinite fill
        ([np.inf, -2.0], 0.5, -np.inf),
        ([np.nan, 0.0], 1.0, np.nan),
        ([-2.0, 3.0], -1.0, -6.0),  # two fills
        ([2.0**600, 2.0**600], 2.0**-700, 2.0**-200),  # intermediates overflow
        ([2.0**-600, 2.0**-600], 2.0**700, 2.0**200),  # and underflow
    ],
)
def test_prod_special_values(values, fill, expected):
    n = len(values)  # and two fill values
    s = sparse.COO(
        xp.asarray([list(range(n))]), xp.asarray(values), (n + 2,), fill_value=fill
    )
    got = float(sparse.prod(s))
    if np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == expected
    # along an axis too
    s2 = sparse.stack([s, s])
    g2 = np.asarray(sparse.prod(s2, axis=1).todense())
    np.testing.assert_array_equal(g2, [expected, expected])


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_prod_matches_dense_without_intermediate_overflow(dtype):
    """Random arrays of factors whose partial products stay finite and normal in
    any order: the result equals dense prod up to rounding, with zeros, infs
    and NaNs exactly where dense has them."""
    rng = np.random.default_rng(5)
    pool = np.array([0.0, 0.5, -0.5, 1.5, -2.0, 2.0, np.inf, -np.inf, np.nan])
    fills = [0.0, 1.0, -0.5, 2.0, np.inf]
    if dtype.startswith("complex"):
        # a complex product with an infinite factor depends on the order of the
        # multiplications (inf * inf = inf + nanj), in dense prod as well
        pool, fills = pool[:6], fills[:4]
    for trial in range(60):
        shape = tuple(rng.integers(1, 7, rng.integers(1, 4)))
        probs = rng.dirichlet(np.ones(pool.size) * (0.3 if trial % 2 else 3.0))
        a = rng.choice(pool, size=shape, p=probs).astype(dtype)
        fill = float(rng.choice(fills))
        s = sparse.COO.from_dense(xp.asarray(a), fill_value=fill)
        views = [s, s[::-1]] + ([s.mT] if s.ndim >= 2 else [])
        for v in views:
            for axis in [None, *range(v.ndim)]:
                got = sparse.prod(v, axis=axis)
                got = np.asarray(got.todense() if isinstance(got, sparse.COO) else got)
                exp = _dense_result("prod", v, axis=axis)
                assert got.dtype == exp.dtype
                np.testing.assert_array_equal(np.isnan(got), np.isnan(exp))
                np.testing.assert_array_equal(got == 0, exp == 0)
                np.testing.assert_array_equal(np.isinf(got), np.isinf(exp))
                np.testing.assert_allclose(got, exp, rtol=1e-5, equal_nan=True)


def test_prod_keepdims_dtype_and_integers():
    s = sparse.COO.from_dense(
        xp.asarray([[0.0, 2.0], [3.0, 0.0]], dtype=xp.float32), fill_value=0.0
    )
    r = sparse.prod(s, keepdims=True)
    assert r.shape == (1, 1)
    assert r.dtype == xp.float32
    r = sparse.prod(s, axis=0, dtype=xp.float64)
    assert r.dtype == xp.float64
    si = sparse.COO.from_dense(
        xp.asarray([[3, 1], [1, 5]], dtype=xp.int64), fill_value=1
    )
    assert int(sparse.prod(si)) == 15
    # integer products wrap like dense ones
    big = sparse.COO.from_dense(xp.asarray([2**40, 2**40, 7]), fill_value=0)
    assert int(sparse.prod(big)) == int(xp.prod(big.todense()))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_count_nonzero_bool(axis):
    # a bool COO compares with False, not with the int 0 (a TypeError then)
    a = np.asarray([[True, False, True], [False, False, True]])
    s = sparse.COO.from_dense(xp.asarray(a))
    got = sparse.count_nonzero(s, axis=axis)
    got = got.todense() if isinstance(got, sparse.COO) else got
    assert got.dtype == xp.int64
    np.testing.assert_array_equal(np.asarray(got), np.count_nonzero(a, axis=axis))
