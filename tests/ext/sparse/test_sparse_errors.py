"""Every public function of ``ocean_ext.sparse`` refuses an argument of the
wrong kind with a TypeError naming the function and the argument (never an
AttributeError or KeyError from inside)."""

from __future__ import annotations

import re
from typing import Any

import pytest

import ocean_array_api as xp
from ocean_ext import sparse
from ocean_ext.sparse import _elementwise

# on the CPU explicitly: this module is imported (then skipped, see
# conftest.py) also when the default device is dask, which has no sparse arrays
S = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [0.0, 2.0]], device="cpu"))
D = xp.ones((2, 2), device="cpu")
WRONG = [None, "abc", {}, object()]
WRONG_ARRAYS = [*WRONG, [[1.0, 0.0]]]  # where arrays are needed, not array-likes


def _cases() -> list[tuple[str, str, Any, Any]]:
    """(public name, argument name, bad value, call) for every public name."""
    out: list[tuple[str, str, Any, Any]] = []

    def add(name, arg, bads, call):
        out.extend((name, arg, bad, call) for bad in bads)

    for name in _elementwise.UNARY:
        add(name, "x", WRONG_ARRAYS, lambda f, b: f(b))
    for name in (*_elementwise.BINARY, "matmul", "tensordot", "vecdot"):
        add(name, "x1", WRONG_ARRAYS, lambda f, b: f(b, S))
        add(name, "x2", WRONG_ARRAYS, lambda f, b: f(S, b))
    for name in ("sum", "prod", "max", "min", "mean", "all", "any", "count_nonzero"):
        add(name, "x", WRONG_ARRAYS, lambda f, b: f(b))
        add(name, "axis", ["a", 1.5, {}], lambda f, b: f(S, axis=b))
        add(name, "keepdims", [None, 1, "a"], lambda f, b: f(S, keepdims=b))
    for name in ("sum", "prod"):
        add(name, "dtype", ["float64", 1, object()], lambda f, b: f(S, dtype=b))
    for name in ("nonzero", "matrix_transpose", "unstack", "flip", "expand_dims"):
        add(name, "x", WRONG_ARRAYS, lambda f, b: f(b))
    add("clip", "x", WRONG_ARRAYS, lambda f, b: f(b))
    add("clip", "min", ["a", {}], lambda f, b: f(S, min=b))
    add("clip", "max", ["a", {}], lambda f, b: f(S, max=b))
    add("astype", "x", WRONG_ARRAYS, lambda f, b: f(b, xp.float32))
    add("astype", "dtype", [None, "float32", 1], lambda f, b: f(S, b))
    add("reshape", "x", WRONG_ARRAYS, lambda f, b: f(b, (4,)))
    add("reshape", "shape", [None, "ab", 1.5], lambda f, b: f(S, b))
    add("broadcast_to", "x", WRONG_ARRAYS, lambda f, b: f(b, (2, 2)))
    add("broadcast_to", "shape", [None, "ab", 1.5], lambda f, b: f(S, b))
    add("permute_dims", "x", WRONG_ARRAYS, lambda f, b: f(b, (1, 0)))
    add("permute_dims", "axes", [None, "ab", 1.5], lambda f, b: f(S, b))
    add("moveaxis", "x", WRONG_ARRAYS, lambda f, b: f(b, 0, 1))
    add("moveaxis", "source", [None, "a", 1.5], lambda f, b: f(S, b, 1))
    add("squeeze", "x", WRONG_ARRAYS, lambda f, b: f(b, 0))
    add("squeeze", "axis", [None, "a", 1.5], lambda f, b: f(S[None], b))
    for name in ("concat", "stack"):
        add(name, "arrays", [None, "ab", S], lambda f, b: f(b))
        add(name, r"arrays\[1\]", WRONG_ARRAYS, lambda f, b: f([S, b]))
    add("to_scipy_sparse", "s", [*WRONG_ARRAYS, D], lambda f, b: f(b))
    add("to_scipy_sparse", "format", [None, 1], lambda f, b: f(S, format=b))
    add("to_pydata", "s", [*WRONG_ARRAYS, D], lambda f, b: f(b))
    add("from_scipy_sparse", "m", [*WRONG_ARRAYS, D, S], lambda f, b: f(b))
    add("from_pydata", "p", [*WRONG_ARRAYS, D, S], lambda f, b: f(b))
    add("as_coo", "x", WRONG, lambda f, b: f(b))
    return out


CASES = _cases()


def test_every_public_name_is_covered():
    names = {c[0] for c in CASES}
    assert names == set(sparse.__all__) - {"COO"}


@pytest.mark.parametrize(
    ("name", "arg", "bad", "call"),
    CASES,
    ids=[f"{c[0]}-{c[1]}-{type(c[2]).__name__}" for c in CASES],
)
def test_wrong_kind_of_argument_is_a_type_error(name, arg, bad, call):
    if name == "to_pydata" or name == "from_pydata":
        pytest.importorskip("sparse")
    func = getattr(sparse, name)
    pattern = rf"{re.escape(name)}\(\).*`{arg}"
    with pytest.raises(TypeError, match=pattern):
        call(func, bad)


@pytest.mark.parametrize(
    ("call", "arg"),
    [
        (lambda b: sparse.COO(b, [1.0], (2,)), "coords"),
        (lambda b: sparse.COO([[0]], b, (2,)), "data"),
        (lambda b: sparse.COO([[0]], [1.0], b), "shape"),
        (lambda b: sparse.COO([[0]], [1.0], (2,), fill_value=b), "fill_value"),
        (lambda b: sparse.COO.from_dense(b), "x"),
        (lambda b: sparse.COO.from_dense(D, fill_value=b), "fill_value"),
    ],
)
@pytest.mark.parametrize("bad", [None, "abc", {}, object(), S])
def test_constructors_wrong_kind(call, arg, bad):
    if (arg == "x" and bad is S) or (arg in ("shape", "fill_value") and bad is None):
        return  # from_dense(COO) is a copy; None is the default shape / fill
    with pytest.raises(TypeError, match=rf"COO(\.from_dense)?\(\).*`{arg}"):
        call(bad)


def test_methods_name_themselves():
    with pytest.raises(TypeError, match=r"to_scipy_sparse\(\).*`format"):
        S.to_scipy_sparse(format=None)
    with pytest.raises(TypeError, match=r"astype\(\).*`dtype"):
        S.astype("float32")
