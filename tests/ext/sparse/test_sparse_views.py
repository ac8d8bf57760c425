"""Views: basic indexing shares storage, writes go through to every view.

NumPy's basic indexing makes views too, so the oracle is a NumPy array with
the same chain of views and the same writes.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import ocean_array_api as xp
from ocean_array_api._ext_hooks import ReadOnlyError  # ReadOnlyError
from ocean_ext import sparse

from .strategies import (
    assert_dense_equal,
    basic_keys,
    check_canonical,
    coo_of,
    dense,
    dense_arrays,
)

FILLS = (0, 0.0, 1.5, float("nan"))


@given(st.data())
def test_getitem_basic_matches_numpy(data):
    a, fill = data.draw(dense_arrays(fills=FILLS))
    s = coo_of(a, fill)
    key = data.draw(basic_keys(a.shape))
    v = s[key]
    expected = a[key]
    assert v.shape == expected.shape
    assert v.fill_value == s.fill_value or fill != fill
    assert_dense_equal(v, np.asarray(expected), exact=True)
    check_canonical(v)
    assert v.nnz == int(np.count_nonzero(~_is_fill(np.asarray(expected), fill)))


def _np_view(e, key):
    """``e[key]`` as a NumPy *view* (a key of ints alone gives a scalar)."""
    k = key if isinstance(key, tuple) else (key,)
    if not any(item is Ellipsis for item in k):
        k = (*k, Ellipsis)
    return e[k]


def _is_fill(a, fill):
    return np.isnan(a) if fill != fill else a == fill


@given(st.data())
def test_views_of_views_compose(data):
    a, fill = data.draw(dense_arrays(fills=(0, 2.0)))
    s = coo_of(a, fill)
    v, e = s, a
    for _ in range(data.draw(st.integers(1, 4))):
        key = data.draw(basic_keys(e.shape))
        v, e = v[key], _np_view(e, key)
        assert v.shape == e.shape
        assert_dense_equal(v, np.asarray(e), exact=True)
    assert v.base is s


def _value(data, shape, fill, dtype, kind):
    if kind == "fill":
        return fill, fill
    if kind == "scalar":
        x = data.draw(st.sampled_from((3.0, -1.0, 0.0)))
        return x, x
    vshape = shape[data.draw(st.integers(0, len(shape))) :]
    if vshape and data.draw(st.booleans()):
        vshape = tuple(1 if data.draw(st.booleans()) else n for n in vshape)
    arr, _ = data.draw(dense_arrays(shape=vshape, fills=(fill,)))
    arr = arr.astype(dtype)
    if kind == "dense":
        return xp.asarray(arr), arr
    vfill = fill if data.draw(st.integers(0, 3)) else 7.0
    return coo_of(arr, vfill), arr


@settings(max_examples=150)
@given(st.data())
def test_write_through_many_views(data):
    a, fill = data.draw(
        dense_arrays(fills=(0.0, 1.5, float("nan")), min_dims=1, max_dims=3)
    )
    s = coo_of(a, fill)
    oracle = a.copy()
    views = [(s, oracle)]
    for _ in range(data.draw(st.integers(1, 4))):
        src, e = views[data.draw(st.integers(0, len(views) - 1))]
        key = data.draw(basic_keys(e.shape))
        views.append((src[key], _np_view(e, key)))
    for _ in range(data.draw(st.integers(1, 4))):
        v, e = views[data.draw(st.integers(0, len(views) - 1))]
        key = data.draw(basic_keys(e.shape))
        target = _np_view(e, key)
        kind = data.draw(st.sampled_from(("fill", "scalar", "dense", "coo")))
        value, expected = _value(data, np.shape(target), fill, a.dtype, kind)
        v[key] = value
        target[...] = expected
        for vv, ee in views:
            assert_dense_equal(vv, np.asarray(ee), exact=True)
            check_canonical(vv)
    # every view's base and storage is the one array
    assert all(v.base is s for v, _ in views[1:])


def test_write_through_example():
    s = sparse.COO.from_dense(xp.zeros((4, 5)))
    rows = s[1:3]
    col = s[:, 2]
    block = rows[:, ::2]
    t = s.T
    block[...] = 1.0  # rows 1-2, columns 0, 2, 4
    assert s.nnz == 6
    assert dense(col).tolist() == [0, 1, 1, 0]
    assert dense(t)[4].tolist() == [0, 1, 1, 0]
    col[1] = 0.0  # removes an entry, seen by every view
    assert s.nnz == 5
    assert dense(block).tolist() == [[1, 0, 1], [1, 1, 1]]
    t[0, 3] = 9.0  # grows the store: existing views still work
    assert dense(s)[3, 0] == 9.0
    assert dense(rows).tolist() == [[1, 0, 0, 0, 1], [1, 0, 1, 0, 1]]


def test_view_creation_costs_no_copy():
    s = sparse.COO.from_dense(xp.reshape(xp.arange(20.0), (4, 5)))
    v = s[1:3]
    assert v._store is s._store
    # a slice of the same storage
    assert np.shares_memory(np.asarray(v.data), np.asarray(s.data))
    assert s.T._store is s._store
    assert s[None, ..., ::-1]._store is s._store


def test_overlapping_self_assignment():
    a = np.array([0.0, 1.0, 0.0, 2.0, 3.0, 0.0])
    s = coo_of(a, 0.0)
    s[1:] = s[:-1]
    a[1:] = a[:-1].copy()
    assert_dense_equal(s, a)
    s[::-1] = s
    a[::-1] = a.copy()
    assert_dense_equal(s, a)
    check_canonical(s)


def test_setitem_dtype_and_shape_errors():
    s = sparse.COO.from_dense(xp.zeros((2, 3), dtype=xp.int32))
    with pytest.raises(TypeError, match="float"):
        s[0, 0] = 1.5
    with pytest.raises(TypeError, match="dtype"):
        s[0] = xp.asarray([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="dtype"):
        s[0] = sparse.COO.from_dense(xp.asarray([1, 2, 3], dtype=xp.int64))
    with pytest.raises(ValueError, match="broadcast"):
        s[0] = xp.asarray([1, 2], dtype=xp.int32)
    with pytest.raises(ValueError, match="broadcast"):
        s[0] = sparse.COO.from_dense(xp.asarray([1, 2], dtype=xp.int32))
    s[0] = xp.asarray([1, 2, 3], dtype=xp.int8)  # promotes to int32: fine
    assert dense(s)[0].tolist() == [1, 2, 3]


@pytest.mark.parametrize(
    ("key", "exc"),
    [
        ((0, 0, 0), IndexError),
        (5, IndexError),
        (-6, IndexError),
        ((Ellipsis, Ellipsis), IndexError),
        (slice(0, 3, 0), ValueError),
        (1.5, IndexError),
        ([0, 1], IndexError),
        (slice(0.5, 2), IndexError),
    ],
)
def test_getitem_errors(key, exc):
    s = sparse.COO.from_dense(xp.zeros((5, 3)))
    with pytest.raises(exc):
        s[key]
    with pytest.raises(exc):
        s[key] = 1.0


@given(st.data())
def test_advanced_getitem_matches_numpy(data):
    a, fill = data.draw(dense_arrays(fills=(0, 2.0), min_dims=1, max_dims=3))
    s = coo_of(a, fill)
    nd = a.ndim
    key: list = []
    for axis in range(data.draw(st.integers(1, nd))):
        n = a.shape[axis]
        kind = data.draw(st.sampled_from(("array", "slice", "int")))
        if kind == "array" and n:
            idx = data.draw(st.lists(st.integers(-n, n - 1), min_size=0, max_size=4))
            key.append(np.asarray(idx, dtype=np.int64))
        elif kind == "int" and n:
            key.append(data.draw(st.integers(-n, n - 1)))
        else:
            key.append(slice(None, None, data.draw(st.sampled_from((1, -1, 2)))))
    if not any(isinstance(k, np.ndarray) for k in key):
        key[0] = np.arange(a.shape[0])
    try:
        expected = a[tuple(key)]
    except IndexError:
        assume(False)
    xkey = tuple(xp.asarray(k) if isinstance(k, np.ndarray) else k for k in key)
    got = s[xkey]
    assert got._store is not s._store  # independent
    assert_dense_equal(got, np.asarray(expected), exact=True)
    check_canonical(got)


@given(dense_arrays(fills=(0, 1.0), min_dims=1, max_dims=3), st.data())
def test_mask_getitem_and_setitem(case, data):
    a, fill = case
    s = coo_of(a, fill)
    m = a > 0.5
    got = s[xp.asarray(m)]
    assert_dense_equal(got, a[m], exact=True)
    got = s[sparse.COO.from_dense(xp.asarray(m))]
    assert_dense_equal(got, a[m], exact=True)
    value = data.draw(st.sampled_from((fill, 4.0)))
    s[xp.asarray(m)] = value
    a[m] = value
    assert_dense_equal(s, a, exact=True)
    check_canonical(s)


@given(st.data())
def test_advanced_setitem_matches_numpy(data):
    a, fill = data.draw(dense_arrays(fills=(0.0, 1.5), min_dims=1, max_dims=3))
    assume(a.shape[0] > 0)
    s = coo_of(a, fill)
    view_key = data.draw(basic_keys(a.shape, allow_none=False))
    v, e = s[view_key], _np_view(a, view_key)
    assume(e.ndim >= 1 and e.shape[0] > 0)
    n = e.shape[0]
    idx = np.asarray(
        data.draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=5))
    )
    target_shape = e[idx].shape
    kind = data.draw(st.sampled_from(("scalar", "fill", "dense", "coo")))
    if kind in ("scalar", "fill"):
        value = expected = 3.0 if kind == "scalar" else fill
    else:
        arr, _ = data.draw(dense_arrays(shape=target_shape, fills=(fill,)))
        expected = arr
        value = xp.asarray(arr) if kind == "dense" else coo_of(arr, fill)
    # repeated indices: NumPy keeps the last write; so do we
    v[xp.asarray(idx)] = value
    e[idx] = expected
    assert_dense_equal(s, a, exact=True)
    assert_dense_equal(v, np.asarray(e), exact=True)
    check_canonical(s)


def test_transpose_views():
    a = np.arange(24.0).reshape(2, 3, 4) * (np.arange(24).reshape(2, 3, 4) % 3 == 0)
    s = coo_of(a, 0.0)
    assert_dense_equal(s.mT, np.swapaxes(a, -1, -2))
    assert_dense_equal(sparse.permute_dims(s, (2, 0, 1)), np.transpose(a, (2, 0, 1)))
    assert_dense_equal(sparse.matrix_transpose(s), np.swapaxes(a, -1, -2))
    m = s[0]
    assert_dense_equal(m.T, a[0].T)
    check_canonical(m.T)
    with pytest.raises(ValueError, match="mT"):
        _ = s.T
    with pytest.raises(ValueError, match="permutation"):
        sparse.permute_dims(s, (0, 0, 1))
    # a transposed view writes through
    m.T[3, 1] = -1.0
    a[0].T[3, 1] = -1.0
    assert_dense_equal(s, a)


def test_expand_squeeze_flip_views():
    a = np.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    s = coo_of(a, 0.0)
    e = sparse.expand_dims(s, axis=1)
    assert e.shape == (2, 1, 3)
    assert e._store is s._store
    assert_dense_equal(e, a[:, None])
    assert_dense_equal(sparse.expand_dims(s, axis=(0, -1)), a[None, :, :, None])
    q = sparse.squeeze(e, axis=1)
    assert_dense_equal(q, a)
    with pytest.raises(ValueError, match="squeeze"):
        sparse.squeeze(s, axis=0)
    f = sparse.flip(s, axis=1)
    assert_dense_equal(f, a[:, ::-1])
    assert_dense_equal(sparse.flip(s), a[::-1, ::-1])
    f[0, 0] = 5.0
    assert dense(s)[0, 2] == 5.0


def test_read_only():
    s = sparse.COO.from_dense(xp.asarray([[0.0, 1.0], [2.0, 0.0]]))
    v = s[0]
    s._set_readonly(True)
    assert s._is_readonly()
    assert v._is_readonly()
    for target in (s, v, s.T, v[1:]):
        with pytest.raises(ReadOnlyError):
            target[0] = 3.0
        with pytest.raises(ValueError):  # ReadOnlyError is a ValueError
            target += 1.0
    s._set_readonly(False)
    v[0] = 3.0
    assert dense(s)[0, 0] == 3.0
    v._set_readonly(True)
    s[1][1] = 4.0  # a view not meeting the read-only one stays writable
    with pytest.raises(ReadOnlyError):
        v[1] = 0.0
    with pytest.raises(ReadOnlyError):
        s[1, 1] = 5.0  # as dense: the base shares the read-only view's entries


def test_views_see_growth_and_shrinking():
    s = sparse.COO.from_dense(xp.zeros((3, 3)))
    views = [s[1], s[:, 1], s[1:, 1:], s.T[::-1]]
    for i in range(3):
        for j in range(3):
            s[i, j] = float(i * 3 + j + 1)
    full = np.arange(1.0, 10.0).reshape(3, 3)
    for v, e in zip(
        views, [full[1], full[:, 1], full[1:, 1:], full.T[::-1]], strict=True
    ):
        assert_dense_equal(v, e)
    s[...] = 0.0
    assert s.nnz == 0
    assert all(v.nnz == 0 for v in views)


def test_read_only_memory_of_the_values():
    """``ocean_ext.set_readonly(s.data)`` protects the array (the core's hook)."""
    import ocean_ext

    if not hasattr(ocean_ext, "set_readonly"):
        pytest.skip("ocean_ext.set_readonly is not available")
    s = sparse.COO.from_dense(xp.asarray([[0.0, 1.0], [2.0, 0.0]]))
    v = s[1]
    ocean_ext.set_readonly(s.data)
    with pytest.raises(ReadOnlyError):
        v[0] = 5.0
    with pytest.raises(ReadOnlyError):
        s[0, 0] = 5.0
    t = s.copy()
    t[0, 0] = 5.0  # a copy is writable
    assert dense(t)[0, 0] == 5.0


def test_sparse_is_an_attribute_of_ocean_ext():
    import ocean_ext

    assert ocean_ext.sparse is sparse
    assert ocean_ext.sparse.COO is sparse.COO
