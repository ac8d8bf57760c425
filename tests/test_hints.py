"""NumPy habits get a hint: the exception Python or the standard gives, with a
message that says what to write instead (ocean_array_api/_hints.py)."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import ocean_array_api as xp


@pytest.fixture
def x():
    return xp.asarray([[1.0, 2.0], [3.0, 4.0]])


# --- module attributes ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("array", "asarray"),
        ("concatenate", "concat"),
        ("transpose", "permute_dims"),
        ("power", "pow"),
        ("arccos", "acos"),
        ("float_", "float64"),
        ("random", "NumPy"),
        ("cumsum", "cumulative_sum"),
    ],
)
def test_numpy_names_on_the_module(name, hint):
    with pytest.raises(AttributeError, match=hint) as info:
        getattr(xp, name)
    assert f"has no attribute '{name}'" in str(info.value)
    assert not hasattr(xp, name)


def test_misspelt_name_gets_the_closest():
    with pytest.raises(AttributeError, match="did you mean 'linspace'"):
        _ = xp.linspce


def test_private_names_keep_pythons_message():
    with pytest.raises(AttributeError) as info:
        _ = xp._no_such_thing
    assert (
        str(info.value) == "module 'ocean_array_api' has no attribute '_no_such_thing'"
    )


def test_linalg_and_fft_modules():
    with pytest.raises(AttributeError, match="vector_norm"):
        _ = xp.linalg.norm
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        _ = xp.fft.nope


def test_name_of_a_newer_revision_says_which():
    ns = xp.asarray(1).__array_namespace__(api_version="2023.12")
    with pytest.raises(AttributeError, match=r"new in revision 2024\.12"):
        _ = ns.count_nonzero
    with pytest.raises(AttributeError, match="asarray"):
        _ = ns.array
    ns24 = xp.asarray(1).__array_namespace__(api_version="2024.12")
    with pytest.raises(AttributeError, match=r"new in revision 2025\.12"):
        _ = ns24.linalg.eig


# --- array attributes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("sum", "xp.sum(x"),
        ("mean", "xp.mean(x"),
        ("astype", "xp.astype(x, dtype)"),
        ("reshape", "xp.reshape(x, shape)"),
        ("transpose", "permute_dims"),
        ("flatten", "reshape(x, (-1,))"),
        ("copy", "asarray(x, copy=True)"),
        ("item", "float(x)"),
        ("tolist", "numpy.asarray(x).tolist()"),
        ("cumsum", "cumulative_sum"),
    ],
)
def test_numpy_methods_on_arrays(x, name, call):
    with pytest.raises(AttributeError) as info:
        getattr(x, name)
    msg = str(info.value)
    assert msg.startswith(f"'Array' object has no attribute '{name}'")
    assert call in msg
    assert info.value.name == name
    assert not hasattr(x, name)
    assert name not in dir(x)


def test_method_hint_on_the_class():
    with pytest.raises(AttributeError, match=r"xp\.sum"):
        _ = xp.Array.sum
    assert not hasattr(xp.Array, "astype")


def test_real_attributes_unchanged(x):
    assert x.shape == (2, 2)
    assert x.mT.shape == (2, 2)
    assert "shape" in dir(x)
    assert "to_device" in dir(x)


# --- calls ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda x: xp.sum(x, 0), r"sum\(\): `axis` is keyword-only.*sum\(x, axis=0\)"),
        (lambda x: xp.mean(x, 1), r"mean\(\): `axis` is keyword-only"),
        (lambda x: xp.max(x, 0), r"`axis` is keyword-only"),
        (lambda x: xp.std(x, 0), r"`axis` is keyword-only"),
        (lambda x: xp.argmax(x, 0), r"`axis` is keyword-only"),
        (lambda x: xp.cumulative_sum(x, 0), r"`axis` is keyword-only"),
        (lambda x: xp.sort(x, 0), r"`axis` is keyword-only"),
        (lambda x: xp.flip(x, 0), r"`axis` is keyword-only"),
        (lambda x: xp.zeros(3, xp.float32), r"zeros\(\): `dtype` is keyword-only"),
        (lambda x: xp.ones((2,), xp.int8), r"`dtype` is keyword-only"),
        (lambda x: xp.full((2,), 1.0, xp.float32), r"`dtype` is keyword-only"),
        (lambda x: xp.eye(3, 3, 1), r"eye\(\): `k` is keyword-only"),
        (lambda x: xp.linspace(0, 1, 5, False), r"`endpoint` is keyword-only"),
        (lambda x: xp.take(x, xp.asarray([0]), 0), r"take\(\): `axis`"),
        (lambda x: xp.fft.fft(x, 4), r"fft.fft\(\): `n` is keyword-only"),
        (lambda x: xp.linalg.vector_norm(x, 2), r"linalg.vector_norm\(\): .*by name"),
        (lambda x: xp.concat(x, x), r"concat\(\): `arrays` is one list or tuple"),
        (lambda x: xp.concat([x, x], 1), r"concat\(\): `axis` is keyword-only"),
        (lambda x: xp.stack(x, x), r"stack\(\): `arrays` is one list"),
        (lambda x: xp.where(x > 2), r"where\(\):.*nonzero\(condition\)"),
        (lambda x: xp.where(x > 2, x), r"where\(\): `x2` is missing"),
    ],
)
def test_calls_with_numpy_positional_arguments(x, call, expected):
    with pytest.raises(TypeError, match=expected):
        call(x)


def test_the_right_calls_work(x):
    assert float(xp.sum(x, axis=0)[0]) == 4.0
    assert xp.concat([x, x], axis=1).shape == (2, 4)
    (rows, _cols) = xp.nonzero(x > 2)
    assert rows.shape == (2,)
    assert xp.where(x > 2, x, 0.0).shape == (2, 2)


@pytest.mark.parametrize(
    "func",
    [xp.sum, xp.mean, xp.zeros, xp.concat, xp.where, xp.fft.fft, xp.linalg.vector_norm],
)
def test_signatures_are_the_standards(func):
    sig = inspect.signature(func)
    assert not any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values())
    if func is xp.where:
        assert all(p.default is p.empty for p in sig.parameters.values())


# --- NumPy functions on our arrays ---------------------------------------------------


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (
            lambda x: np.exp(x),
            r"numpy.exp\(\) does not take .*xp.exp\(.*numpy.asarray\(x\)",
        ),
        (lambda x: np.arccos(x), r"xp.acos\("),
        (lambda x: np.add(x, 1), r"numpy.add\(\)"),
        (lambda x: np.sum(x), r"numpy.add.reduce\(\) .*xp.sum\("),
        (lambda x: np.exp(x, out=np.empty((2, 2))), r"numpy.exp\(\)"),
    ],
)
def test_numpy_ufuncs_say_what_to_call(x, call, expected):
    with pytest.raises(TypeError, match=expected):
        call(x)


def test_numpy_operators_stay_ours(x):
    # ndarray + x: our reflected operator, which refuses NumPy arrays
    with pytest.raises(TypeError, match="asarray"):
        _ = np.ones((2, 2)) + x
    with pytest.raises(TypeError, match="asarray"):
        _ = np.ones((2, 2)) < x
    # NumPy scalars are Python scalars to us
    y = np.float64(2.0) * x
    assert type(y) is xp.Array
    assert float(y[1, 1]) == 8.0
    assert np.asarray(x).sum() == 10.0  # conversion first: fine
