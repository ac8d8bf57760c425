"""Manipulation functions against NumPy."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp

from .helpers import (
    ALL_DTYPES,
    CPU1,
    LAZY_DEFAULT,
    assert_matches,
    host,
    np_dtype,
    rng_array,
)

_shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)


def _arange(shape, dtype=np.int64):
    return np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)


# --- broadcasting ----------------------------------------------------------------------


@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=4))
def test_broadcast_arrays(shapes):
    arrays = [_arange(s) for s in shapes.input_shapes]
    got = xp.broadcast_arrays(*[xp.asarray(a) for a in arrays])
    assert type(got) is tuple
    for g, e in zip(got, np.broadcast_arrays(*arrays), strict=True):
        assert_matches(g, e)
    assert xp.broadcast_shapes(*shapes.input_shapes) == shapes.result_shape


def test_broadcast_shapes():
    assert xp.broadcast_shapes((2, 1), (3,)) == (2, 3)
    assert xp.broadcast_shapes((), (4, 1)) == (4, 1)
    assert xp.broadcast_shapes((0, 1), (1, 5)) == (0, 5)
    assert xp.broadcast_shapes((2, 3)) == (2, 3)
    assert type(xp.broadcast_shapes((2, 1), (1, 2))) is tuple
    with pytest.raises(ValueError):
        xp.broadcast_shapes((2,), (3,))


def test_broadcast_arrays_errors(other_device):
    with pytest.raises(ValueError):
        xp.broadcast_arrays(xp.ones(2), xp.ones(3))
    with pytest.raises(ValueError, match="broadcast_arrays"):
        xp.broadcast_arrays(xp.ones(2), xp.ones(2, device=other_device))
    assert xp.broadcast_arrays() == ()


def test_broadcast_arrays_keep_dtypes():
    a, b = xp.broadcast_arrays(
        xp.ones(3, dtype=xp.int8), xp.ones((2, 1), dtype=xp.float32)
    )
    assert (a.dtype, b.dtype) == (xp.int8, xp.float32)
    assert a.shape == b.shape == (2, 3)


@given(data=st.data(), shape=_shapes)
def test_broadcast_to(data, shape):
    target = data.draw(
        hnp.broadcastable_shapes(shape, min_side=0).map(
            lambda s: np.broadcast_shapes(s, shape)
        ),
        label="target",
    )
    a = _arange(shape)
    assert_matches(xp.broadcast_to(xp.asarray(a), target), np.broadcast_to(a, target))


def test_broadcast_to_errors():
    with pytest.raises(ValueError):
        xp.broadcast_to(xp.ones(3), (2, 4))
    with pytest.raises(ValueError):
        xp.broadcast_to(xp.ones((2, 3)), (3,))
    with pytest.raises(TypeError):
        xp.broadcast_to(np.ones(3), (3,))


# --- concat, stack, unstack -------------------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, -1, -2])
def test_concat(axis, device):
    a = _arange((2, 3))
    b = _arange((2, 3)) + 10
    c = _arange((1, 3)) if axis in (0, -2) else _arange((2, 1))
    res = xp.concat([xp.asarray(v, device=device) for v in (a, b, c)], axis=axis)
    assert_matches(res, np.concatenate([a, b, c], axis=axis), device=device)
    res_t = xp.concat(
        (xp.asarray(a, device=device), xp.asarray(b, device=device)), axis=axis
    )
    assert_matches(res_t, np.concatenate([a, b], axis=axis))


def test_concat_axis_none_flattens():
    a, b = _arange((2, 2)), _arange((3,))
    assert_matches(
        xp.concat([xp.asarray(a), xp.asarray(b)], axis=None),
        np.concatenate([a.ravel(), b]),
    )


def test_concat_promotes():
    res = xp.concat([xp.ones(2, dtype=xp.int8), xp.ones(1, dtype=xp.uint8)])
    assert_matches(res, np.ones(3, dtype=np.int16))
    res = xp.concat([xp.ones(2, dtype=xp.float32), xp.ones(1, dtype=xp.complex64)])
    assert res.dtype == xp.complex64


def test_concat_errors():
    with pytest.raises(TypeError):
        xp.concat([xp.ones(2), xp.ones(2, dtype=xp.int64)])
    with pytest.raises(ValueError):
        xp.concat([xp.ones((2, 2)), xp.ones((2, 3))], axis=0)
    with pytest.raises(IndexError):
        xp.concat([xp.ones(2), xp.ones(2)], axis=1)
    with pytest.raises((ValueError, IndexError)):
        xp.concat([xp.ones(()), xp.ones(())])
    with pytest.raises(ValueError):
        xp.concat([])
    with pytest.raises(TypeError):
        xp.concat(xp.ones((2, 2)))
    with pytest.raises(TypeError):
        xp.concat([np.ones(2), xp.ones(2)])


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_stack(axis):
    arrays = [_arange((2, 3)) + i for i in range(4)]
    res = xp.stack([xp.asarray(a) for a in arrays], axis=axis)
    assert_matches(res, np.stack(arrays, axis=axis))


def test_stack_and_concat_take_tuple_and_list_subclasses():
    # Tuple[array, ...] includes a namedtuple (SciPy stacks its result objects).
    from collections import namedtuple

    pair = namedtuple("pair", "low high")(xp.zeros(2), xp.ones(2))
    assert_matches(xp.stack(pair), np.stack([np.zeros(2), np.ones(2)]))
    assert_matches(xp.concat(pair), np.concatenate([np.zeros(2), np.ones(2)]))

    class Arrays(list):
        pass

    assert_matches(xp.stack(Arrays([xp.ones(2)]), axis=1), np.ones((2, 1)))


def test_stack_errors_and_promotion():
    assert (
        xp.stack([xp.ones(2, dtype=xp.int8), xp.ones(2, dtype=xp.int16)]).dtype
        == xp.int16
    )
    with pytest.raises(ValueError):
        xp.stack([xp.ones(2), xp.ones(3)])
    with pytest.raises(IndexError):
        xp.stack([xp.ones(2), xp.ones(2)], axis=3)
    with pytest.raises(TypeError):
        xp.stack([xp.ones(2), xp.ones(2, dtype=xp.bool)])


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_unstack(axis):
    a = _arange((2, 3, 4))
    got = xp.unstack(xp.asarray(a), axis=axis)
    assert type(got) is tuple
    expected = [np.take(a, i, axis=axis) for i in range(a.shape[axis])]
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert_matches(g, e)


def test_unstack_errors():
    with pytest.raises(IndexError):
        xp.unstack(xp.ones((2, 3)), axis=2)
    with pytest.raises((ValueError, IndexError)):
        xp.unstack(xp.asarray(1.0))


# --- reshape, squeeze, expand_dims, permute_dims, moveaxis ---------------------------------------


@given(data=st.data(), shape=_shapes)
def test_reshape(data, shape):
    a = _arange(shape)
    perm = data.draw(st.permutations(list(shape)), label="new shape")
    new = tuple(perm)
    assert_matches(xp.reshape(xp.asarray(a), new), a.reshape(new))
    if a.size:
        assert_matches(xp.reshape(xp.asarray(a), (-1,)), a.reshape(-1))


@pytest.mark.skipif(
    LAZY_DEFAULT,
    reason="a reshaped lazy array is another graph: writes do not reach its base",
)
def test_reshape_copy_semantics():
    a = _arange((2, 3), np.float64)
    x = xp.asarray(a.copy())
    v = xp.reshape(x, (3, 2), copy=False)
    v[0, 0] = 100.0
    assert float(x[0, 0]) == 100.0
    c = xp.reshape(x, (6,), copy=True)
    c[1] = -1.0
    assert float(x[0, 1]) == 1.0
    with pytest.raises(ValueError):
        xp.reshape(x.mT, (6,), copy=False)
    assert_matches(xp.reshape(x.mT, (6,)), np.array([100.0, 3, 1, 4, 2, 5]))


def test_reshape_errors():
    x = xp.ones((2, 3))
    with pytest.raises(ValueError):
        xp.reshape(x, (4, 2))
    with pytest.raises(ValueError):
        xp.reshape(x, (-1, -1))
    with pytest.raises(TypeError):
        xp.reshape(x, (2.0, 3))
    with pytest.raises(TypeError):
        xp.reshape(x, (6,), copy="no")


@pytest.mark.parametrize(
    ("shape", "axis"),
    [((1, 3), 0), ((3, 1), -1), ((1, 1, 2), (0, 1)), ((2, 1, 1), (1, -1)), ((1,), 0)],
)
def test_squeeze(shape, axis):
    a = _arange(shape)
    assert_matches(xp.squeeze(xp.asarray(a), axis=axis), np.squeeze(a, axis=axis))


def test_squeeze_errors():
    with pytest.raises(ValueError):
        xp.squeeze(xp.ones((2, 3)), axis=0)
    with pytest.raises(IndexError):
        xp.squeeze(xp.ones((1, 3)), axis=2)
    with pytest.raises(ValueError):
        xp.squeeze(xp.ones((1, 1)), axis=(0, 0))


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_expand_dims(axis):
    a = _arange((2, 3))
    assert_matches(xp.expand_dims(xp.asarray(a), axis=axis), np.expand_dims(a, axis))


def test_expand_dims_errors():
    with pytest.raises(IndexError):
        xp.expand_dims(xp.ones((2, 3)), axis=3)
    with pytest.raises(IndexError):
        xp.expand_dims(xp.ones((2, 3)), axis=-4)


@given(data=st.data(), shape=_shapes)
def test_permute_dims(data, shape):
    a = _arange(shape)
    axes = tuple(data.draw(st.permutations(range(len(shape))), label="axes"))
    assert_matches(xp.permute_dims(xp.asarray(a), axes), np.transpose(a, axes))


def test_permute_dims_errors():
    with pytest.raises((ValueError, IndexError)):
        xp.permute_dims(xp.ones((2, 3)), (0,))
    with pytest.raises((ValueError, IndexError)):
        xp.permute_dims(xp.ones((2, 3)), (0, 0))
    with pytest.raises((ValueError, IndexError)):
        xp.permute_dims(xp.ones((2, 3)), (0, 2))


@pytest.mark.parametrize(("src", "dst"), [(0, 2), (-1, 0), ((0, 1), (2, 0)), (1, 1)])
def test_moveaxis(src, dst):
    a = _arange((2, 3, 4))
    assert_matches(xp.moveaxis(xp.asarray(a), src, dst), np.moveaxis(a, src, dst))


def test_moveaxis_errors():
    with pytest.raises(IndexError):
        xp.moveaxis(xp.ones((2, 3)), 2, 0)
    with pytest.raises(ValueError):
        xp.moveaxis(xp.ones((2, 3)), (0, 1), (0,))


# --- flip, roll, repeat, tile ------------------------------------------------------------------------


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), ()])
def test_flip(axis):
    a = _arange((2, 3, 4))
    assert_matches(xp.flip(xp.asarray(a), axis=axis), np.flip(a, axis=axis))


@pytest.mark.parametrize(
    ("shift", "axis"),
    [(1, None), (-2, None), (1, 0), (5, 1), ((1, 2), (0, 1)), (3, -1), (0, None)],
)
def test_roll(shift, axis):
    a = _arange((3, 4))
    assert_matches(
        xp.roll(xp.asarray(a), shift, axis=axis), np.roll(a, shift, axis=axis)
    )


def test_roll_errors():
    with pytest.raises(ValueError):
        xp.roll(xp.ones((2, 3)), (1, 2), axis=0)
    with pytest.raises(IndexError):
        xp.roll(xp.ones((2, 3)), 1, axis=2)
    with pytest.raises(TypeError):
        xp.roll(xp.ones((2, 3)), 1.5)


@pytest.mark.parametrize(
    ("repeats", "axis"), [(2, None), (3, 0), (0, 1), ([1, 0, 2], 1), ([2, 1], 0)]
)
def test_repeat(repeats, axis):
    a = _arange((2, 3))
    r = xp.asarray(repeats) if isinstance(repeats, list) else repeats
    assert_matches(
        xp.repeat(xp.asarray(a), r, axis=axis), np.repeat(a, repeats, axis=axis)
    )


def test_repeat_errors():
    x = xp.ones((2, 3))
    with pytest.raises(ValueError):
        xp.repeat(x, -1)
    with pytest.raises(ValueError):
        xp.repeat(x, xp.asarray([1, 2]), axis=1)
    with pytest.raises(TypeError):
        xp.repeat(x, xp.asarray([1.0, 2.0]), axis=0)
    with pytest.raises(TypeError):
        xp.repeat(x, 1.5)


@pytest.mark.parametrize("reps", [(2,), (2, 1), (1, 3), (2, 2, 2), (0, 1)])
def test_tile(reps):
    a = _arange((2, 3))
    assert_matches(xp.tile(xp.asarray(a), reps), np.tile(a, reps))


def test_tile_errors():
    with pytest.raises(TypeError):
        xp.tile(xp.ones(2), 2.0)
    with pytest.raises((TypeError, ValueError)):
        xp.tile(xp.ones(2), (-1,))


# --- general properties --------------------------------------------------------------------------------


@pytest.mark.parametrize("dt", ALL_DTYPES, ids=str)
def test_manipulations_keep_dtype_and_device(dt):
    a = rng_array((2, 3), dt)
    x = xp.asarray(a, device=CPU1)
    results = [
        xp.reshape(x, (3, 2)), xp.flip(x), xp.roll(x, 1), xp.permute_dims(x, (1, 0)),
        xp.expand_dims(x, axis=0), xp.squeeze(xp.expand_dims(x, axis=0), axis=0),
        xp.concat([x, x]), xp.stack([x, x]), xp.tile(x, (2,)), xp.repeat(x, 2),
        xp.broadcast_to(x, (4, 2, 3)), xp.moveaxis(x, 0, 1), *xp.unstack(x),
    ]  # fmt: skip
    for r in results:
        assert r.dtype == dt
        assert r.device == CPU1
    np.testing.assert_array_equal(host(xp.flip(x)), np.flip(a))
    assert np_dtype(dt) == host(x).dtype


def test_manipulation_functions_reject_non_arrays():
    for f in (
        lambda: xp.reshape(np.ones(2), (2,)),
        lambda: xp.flip([1, 2]),
        lambda: xp.roll(np.ones(2), 1),
        lambda: xp.permute_dims(np.ones((2, 2)), (1, 0)),
        lambda: xp.expand_dims(np.ones(2), axis=0),
        lambda: xp.squeeze(np.ones((1, 2)), axis=0),
        lambda: xp.tile(np.ones(2), (2,)),
        lambda: xp.repeat(np.ones(2), 2),
        lambda: xp.stack([np.ones(2)]),
    ):
        with pytest.raises(TypeError):
            f()


def test_sequences_of_arrays_may_be_namedtuples():
    # A namedtuple is a tuple; stack()/concat() refused it.
    from collections import namedtuple

    pair = namedtuple("pair", "a b")(xp.ones(2), xp.zeros(2))
    assert_matches(xp.stack(pair), np.array([[1.0, 1.0], [0.0, 0.0]]))
    assert_matches(xp.concat(pair), np.array([1.0, 1.0, 0.0, 0.0]))


def test_moveaxis_takes_lists_as_tuples():
    x = xp.ones((2, 3, 4))
    assert xp.moveaxis(x, [0, 1], [1, 2]).shape == (4, 2, 3)
    assert xp.moveaxis(x, [0], (2,)).shape == (3, 4, 2)


def test_tile_past_64_dimensions_names_itself():
    # NumPy's "ndmin must be <= ndmax (64)" named neither function nor argument
    assert xp.tile(xp.ones(1), (1,) * 64).ndim == 64
    with pytest.raises(ValueError, match=r"^tile\(\): .*65 dimensions"):
        xp.tile(xp.ones(1), (1,) * 65)
