"""Integer arguments (``k``, ``n``, ``num``, ``offset``, ``repeats``, sizes, ...).

Every parameter the standard types as ``int`` takes any object with
``__index__`` (NumPy integers come out of shape arithmetic in downstream code)
but not bools, floats, strings or NumPy arrays; and a huge value (beyond a C
long) is either handled exactly or raises the standard's exception type with
the function's name, never NumPy's unnamed OverflowError, and never hangs.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import ocean_array_api as xp

from .helpers import host

HUGE = 2**70
X = xp.reshape(xp.arange(12.0), (3, 4))
V = xp.arange(5.0)

# name -> (call taking the integer argument, the argument's name)
CALLS = {
    "tril": (lambda k: xp.tril(X, k=k), "k"),
    "triu": (lambda k: xp.triu(X, k=k), "k"),
    "eye.k": (lambda k: xp.eye(3, 4, k=k), "k"),
    "eye.n_rows": (lambda n: xp.eye(n), "n_rows"),
    "eye.n_cols": (lambda n: xp.eye(2, n), "n_cols"),
    "linspace.num": (lambda n: xp.linspace(0.0, 1.0, n), "num"),
    "repeat": (lambda n: xp.repeat(V, n), "repeats"),
    "roll": (lambda n: xp.roll(V, n), "shift"),
    "diff.n": (lambda n: xp.diff(V, n=n), "n"),
    "linalg.diagonal": (lambda k: xp.linalg.diagonal(X, offset=k), "offset"),
    "linalg.trace": (lambda k: xp.linalg.trace(X, offset=k), "offset"),
    "linalg.matrix_power": (
        lambda n: xp.linalg.matrix_power(xp.eye(2), n),
        "n",
    ),
    "fft.fft.n": (lambda n: xp.fft.fft(xp.ones(4, dtype=xp.complex64), n=n), "n"),
    "fft.fftfreq": (lambda n: xp.fft.fftfreq(n), "n"),
    "zeros": (lambda n: xp.zeros((2, n)), "shape"),
    "full": (lambda n: xp.full(n, 1.0), "shape"),
    "tensordot.axes": (lambda n: xp.tensordot(X, xp.ones((3, 4)), axes=n), "axes"),
}


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize(
    "value", [np.int64(2), np.int32(2), np.uint8(2), np.intp(2)], ids=repr
)
def test_numpy_integers_are_accepted_as_ints(name, value):
    call, _ = CALLS[name]
    got = call(value)
    want = call(2)
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(host(got), host(want))


NOT_INTS = [True, np.True_, 2.0, "2", np.array(2), None]
NONE_IS_DEFAULT = {"eye.n_cols", "fft.fft.n"}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        (name, v)
        for name in CALLS
        for v in NOT_INTS
        if not (v is None and name in NONE_IS_DEFAULT)
    ],
    ids=repr,
)
def test_non_integers_are_type_errors_naming_the_argument(name, value):
    call, argname = CALLS[name]
    with pytest.raises(TypeError, match=rf"`{argname}`"):
        call(value)


# --- huge values ----------------------------------------------------------------
def test_huge_offsets_give_the_exact_result():
    # Beyond either corner the result no longer changes with k / offset.
    a = host(X)
    for k in (HUGE, -HUGE):
        assert np.array_equal(host(xp.tril(X, k=k)), np.tril(a, k=np.sign(k) * 10))
        assert np.array_equal(host(xp.triu(X, k=k)), np.triu(a, k=np.sign(k) * 10))
        assert np.array_equal(host(xp.eye(3, 4, k=k)), np.eye(3, 4, k=np.sign(k) * 10))
        d = xp.linalg.diagonal(X, offset=k)
        assert d.shape == (0,)
        assert float(xp.linalg.trace(X, offset=k)) == 0.0
    assert np.array_equal(host(xp.roll(V, HUGE)), np.roll(host(V), HUGE % 5))


@pytest.mark.parametrize("n", [5, 6, 1000, 2**70])
def test_diff_with_n_at_least_the_length_is_empty_and_returns(n):
    # n = 2**70 used to loop forever.
    res = xp.diff(V, n=n)
    assert res.shape == (0,)
    assert res.dtype == V.dtype


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: xp.repeat(V, HUGE), "repeat()"),
        (lambda: xp.tile(V, (HUGE,)), "tile()"),
        (lambda: xp.eye(HUGE), "eye()"),
        (lambda: xp.linspace(0, 1, HUGE), "linspace()"),
        (lambda: xp.arange(HUGE), "arange()"),
        (lambda: xp.arange(0.5, 1e300, 1e-300), "arange()"),
        (lambda: xp.zeros((HUGE,)), "zeros()"),
        (lambda: xp.ones((2**40, 2**40)), "ones()"),
        (lambda: xp.full(HUGE, 1.0), "full()"),
        (lambda: xp.empty(HUGE), "empty()"),
        (lambda: xp.broadcast_to(V, (HUGE, 5)), "broadcast_to()"),
        (lambda: xp.fft.fftfreq(HUGE), "fft.fftfreq()"),
        (lambda: xp.fft.rfftfreq(HUGE), "fft.rfftfreq()"),
    ],
)
def test_results_too_large_for_any_array_are_named_value_errors(call, where):
    with pytest.raises(ValueError, match="^" + re.escape(where)):
        call()


@pytest.mark.parametrize(
    ("call", "where"),
    [
        (lambda: xp.full(3, HUGE), "full()"),
        (lambda: xp.arange(HUGE, HUGE + 3), "arange()"),
        (lambda: xp.arange(0, 200, dtype=xp.int8), "arange()"),
        (lambda: xp.asarray(HUGE), "asarray()"),
    ],
)
def test_ints_beyond_the_dtype_are_named_overflow_errors(call, where):
    with pytest.raises(OverflowError, match="^" + re.escape(where)):
        call()


def test_arange_of_non_finite_bounds_is_a_value_error():
    with pytest.raises(ValueError, match=r"arange\(\): `start`, `stop` and `step`"):
        xp.arange(0, float("inf"))
    assert xp.arange(0.5, -1e300, 1e-300).shape == (0,)
