"""Read-only sparse arrays follow ``ocean_ext.set_readonly``'s dense semantics:
the same sequence of views, set_readonly calls and writes on a dense array and
on a COO gives the same successes, the same errors and the same values."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ocean_array_api as xp
import ocean_ext
from ocean_ext import ReadOnlyError, sparse

from .strategies import basic_keys, dense


def _pair(shape=(3, 4)):
    a = np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape)
    a[0, 1] = 0.0
    # copy=True: an array owning its memory (NumPy's flag rules look at the owner)
    return xp.asarray(a, copy=True), sparse.COO.from_dense(xp.asarray(a))


def test_write_through_base_to_a_read_only_view_raises():
    """The report: a read-only row, then a write through the base."""
    s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [0.0, 2.0]]))
    row = s[0]
    ocean_ext.set_readonly(row)
    with pytest.raises(ReadOnlyError):
        s[0, 0] = 99.0
    with pytest.raises(ReadOnlyError):
        s[1, 1] = 99.0  # per array, as dense: any write through s
    assert float(row.todense()[0]) == 1.0
    assert dense(s)[1, 1] == 2.0
    s[1][1] = 5.0  # a view not meeting the read-only row is writable
    assert dense(s)[1, 1] == 5.0
    assert ocean_ext.is_readonly(s)
    assert not ocean_ext.is_readonly(s[1])


def test_read_only_transpose_is_a_region_not_an_object():
    s = sparse.COO.from_dense(xp.asarray([[1.0, 0.0], [0.0, 2.0]]))
    ocean_ext.set_readonly(s.T)
    with pytest.raises(ReadOnlyError):
        s.T[0, 0] = 5.0
    with pytest.raises(ReadOnlyError):
        s[0, 0] = 5.0
    with pytest.raises(ReadOnlyError):
        s.mT[...] += 1.0
    ocean_ext.set_readonly(s.T, False)  # a new .T covers the region whole
    s.T[0, 0] = 5.0
    assert dense(s)[0, 0] == 5.0


def test_release_of_the_base_releases_views_made_read_only():
    x, s = _pair()
    for a in (x, s):
        v = a[1:, ::2]
        ocean_ext.set_readonly(v)
        ocean_ext.set_readonly(a, False)
        v[0, 0] = 7.0
        a[0, 0] = 8.0
        assert not ocean_ext.is_readonly(v)
    np.testing.assert_array_equal(dense(x), dense(s))


def test_release_of_a_view_of_read_only_memory_raises():
    for a in _pair():
        ocean_ext.set_readonly(a)
        with pytest.raises(ValueError, match="view of read-only memory"):
            ocean_ext.set_readonly(a[0], False)
        ocean_ext.set_readonly(a, False)


@pytest.mark.parametrize(
    "make",
    [
        lambda s: s[1],
        lambda s: s[:, 2],
        lambda s: s[::2],
        lambda s: s[::-1, 1::2],
        lambda s: s.T,
        lambda s: s.mT[1:],
        lambda s: sparse.permute_dims(s, (1, 0)),
        lambda s: sparse.flip(s, axis=0),
        lambda s: sparse.expand_dims(s, axis=0),
        lambda s: sparse.squeeze(s[None], axis=0),
        lambda s: sparse.reshape(s, s.shape),
        lambda s: s[None, ..., 1:3],
    ],
)
def test_every_write_path_checks_every_view_kind(make):
    s = sparse.COO.from_dense(xp.reshape(xp.arange(12.0), (3, 4)))
    v = make(s)
    ocean_ext.set_readonly(v)
    before = dense(s).copy()
    writes = [
        lambda: v.__setitem__((0,) * v.ndim, 1.0),
        lambda: v.__setitem__(..., 0.0),
        lambda: v.__setitem__(..., xp.ones(v.shape)),
        lambda: v.__setitem__(..., sparse.COO.from_dense(xp.ones(v.shape))),
        lambda: v.__setitem__(xp.asarray([0]), 3.0),
        lambda: v.__setitem__(xp.ones(v.shape, dtype=xp.bool), 3.0),
        lambda: s.__setitem__((0, 0), 1.0),
        lambda: s.__setitem__(xp.asarray([2, 1]), 1.0),
    ]
    for op in ("__iadd__", "__isub__", "__imul__", "__itruediv__", "__ipow__"):
        writes.append(lambda op=op: getattr(v, op)(2.0))
    if v.ndim == 2:
        writes.append(lambda: v.__imatmul__(sparse.COO.from_dense(xp.eye(v.shape[1]))))
    for w in writes:
        with pytest.raises(ReadOnlyError):
            w()
    np.testing.assert_array_equal(dense(s), before)
    assert sparse.astype(v, v.dtype, copy=False) is v  # no write: nothing to refuse
    t = s.copy()
    t[0, 0] = -1.0  # a copy is independent
    assert not ocean_ext.is_readonly(t)


def test_imatmul_writes_in_place_through_views():
    s = sparse.COO.from_dense(xp.asarray([[1.0, 2.0], [0.0, 3.0]]))
    v = s[:, :]
    v @= sparse.COO.from_dense(xp.asarray([[0.0, 1.0], [1.0, 0.0]]))
    np.testing.assert_array_equal(dense(s), [[2.0, 1.0], [3.0, 0.0]])
    v @= xp.eye(2)  # dense operand: a dense result written back
    np.testing.assert_array_equal(dense(s), [[2.0, 1.0], [3.0, 0.0]])
    with pytest.raises(ValueError, match="shape"):
        v @= xp.ones((2, 3))


def test_release_of_a_strided_view_spanning_the_read_only_region_matches_dense():
    # flip(x) read-only, then v = flip(x)[None, ::3, None] reaches base
    # positions 3 and 0 only, but spans all four: dense releases (its rule is
    # the byte span), so sparse must too (it once compared exact positions)
    x = xp.asarray(np.arange(1.0, 5.0), copy=True)
    s = sparse.COO.from_dense(xp.asarray(np.arange(1.0, 5.0)))
    fx, fs = xp.flip(x), sparse.flip(s)
    ocean_ext.set_readonly(fx)
    ocean_ext.set_readonly(fs)
    vx, vs = fx[None, ::3, None], fs[None, ::3, None]
    ocean_ext.set_readonly(vx, False)
    ocean_ext.set_readonly(vs, False)
    assert ocean_ext.is_readonly(vx) == ocean_ext.is_readonly(vs)
    assert ocean_ext.is_readonly(x) == ocean_ext.is_readonly(s)


# --- the property: sparse does what dense does ---------------------------------
def _outcome(f: Any) -> Any:
    try:
        f()
    except ReadOnlyError:
        return "ReadOnlyError"
    except ValueError as e:
        return f"ValueError({str(e)[:20]})"
    return None


@st.composite
def _view_step(draw: Any, shape: tuple[int, ...]) -> Any:
    kind = draw(st.sampled_from(["key", "key", "T", "mT", "permute", "flip"]))
    nd = len(shape)
    if kind == "key":
        return ("key", draw(basic_keys(shape)))
    if kind == "T" and nd == 2:  # the standard: .T is for two dimensions only
        return ("T",)
    if kind == "mT" and nd >= 2:
        return ("mT",)
    if kind == "permute":
        return ("permute", tuple(draw(st.permutations(range(nd)))))
    return ("flip",)


def _apply_view(a: Any, step: Any, ns: Any) -> Any:
    if step[0] == "key":
        return a[step[1]]
    if step[0] == "T":
        return a.T
    if step[0] == "mT":
        return a.mT
    if step[0] == "permute":
        return ns.permute_dims(a, step[1])
    return ns.flip(a)


@settings(max_examples=150)
@given(data=st.data())
def test_view_chains_readonly_and_writes_match_dense(data):
    shape = data.draw(st.sampled_from([(4,), (3, 4), (2, 3, 4)]), label="shape")
    a = np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape)
    x = xp.asarray(a, copy=True)  # owning its memory, as a COO owns its store
    s = sparse.COO.from_dense(xp.asarray(a))
    handles = [(x, s)]
    for _ in range(data.draw(st.integers(1, 12), label="steps")):
        i = data.draw(st.integers(0, len(handles) - 1), label="handle")
        hx, hs = handles[i]
        action = data.draw(
            st.sampled_from(["view", "view", "ro", "release", "write", "iadd"])
        )
        if action == "view":
            step = data.draw(_view_step(hx.shape), label="view")
            vx = _apply_view(hx, step, xp)
            vs = _apply_view(hs, step, sparse)
            assert vx.shape == vs.shape
            # a 0-d result of integer keys is a copy in dense, a view in sparse;
            # writes to empty arrays touch nothing: keep neither
            if vx.ndim and vx.size:
                handles.append((vx, vs))
        elif action == "ro":
            ocean_ext.set_readonly(hx)
            ocean_ext.set_readonly(hs)
        elif action == "release":
            ox = _outcome(lambda hx=hx: ocean_ext.set_readonly(hx, False))
            os_ = _outcome(lambda hs=hs: ocean_ext.set_readonly(hs, False))
            assert (ox is None) == (os_ is None), (ox, os_)
        elif action == "write":
            value = float(data.draw(st.integers(-3, 3), label="value"))
            ox = _outcome(lambda hx=hx, v=value: hx.__setitem__(..., v))
            os_ = _outcome(lambda hs=hs, v=value: hs.__setitem__(..., v))
            assert ox == os_
        else:
            ox = _outcome(lambda hx=hx: hx.__iadd__(1.0))
            os_ = _outcome(lambda hs=hs: hs.__iadd__(1.0))
            assert ox == os_
        for hx2, hs2 in handles:
            assert ocean_ext.is_readonly(hx2) == ocean_ext.is_readonly(hs2)
        np.testing.assert_array_equal(dense(x), dense(s))
