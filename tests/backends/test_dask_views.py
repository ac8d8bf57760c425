"""Views on the dask device: basic indexing shares writes, as on ``cpu:0``.

A differential test over generated programs: an array, views of it and of
its views (random basic keys: integers, slices of every step, ``...``,
``None``), and writes into any of them (assignment with a basic key, an
in-place operator), in random order; after every step each array, base and
views alike, must hold on the dask device (under each chunking) what it
holds on ``cpu:0``, where NumPy's views share memory.  Then the regressions
of the rules themselves: integers on every axis give a copy (NumPy's
scalar), other results are arrays of their own, read-only reaches views, and
a failed write changes nothing.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

pytest.importorskip("dask.array", reason="dask is not installed (.[dask])")

import ocean_array_api as xp
import ocean_ext

from . import dask_programs as dp

# OCEAN_DASK_VIEW_PROGRAMS: a longer run (default 60 per chunking, seconds)
PROGRAMS = int(os.environ.get("OCEAN_DASK_VIEW_PROGRAMS", "60"))
STEPS = 8


def _program(seed: int) -> tuple[np.ndarray, list[tuple]]:
    """An initial array and steps over a list of arrays (0 is the base):
    ("view", i, key): index array i; ("set", i, key, value): assign into
    array i; ("iadd", i, value): ``+=`` into array i; ("iadd_item", i, key,
    value): ``x[key] += value`` into array i."""
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(0, 5, size=int(rng.integers(1, 4))))
    base = rng.integers(-9, 9, size=shape).astype(np.int64)
    g = dp.Gen(rng, [])
    shapes = [shape]
    steps: list[tuple] = []
    while len(steps) < STEPS:
        i = int(rng.integers(len(shapes)))
        r = rng.random()
        if r < 0.4:
            key = g.basic_key(shapes[i])
            try:
                sub = np.empty(shapes[i])[key]
            except IndexError:
                continue  # an integer out of range: no array to write into
            if np.ndim(sub) == 0 and not _has_ellipsis(key):
                key = (*key, Ellipsis) if isinstance(key, tuple) else (key, Ellipsis)
                sub = np.empty(shapes[i])[key]
            steps.append(("view", i, key))
            shapes.append(sub.shape)
        elif r < 0.8:
            key = g.basic_key(shapes[i]) if shapes[i] else Ellipsis
            steps.append(("set", i, key, int(rng.integers(-50, 50))))
        elif r < 0.9:
            steps.append(("iadd", i, int(rng.integers(1, 9))))
        else:  # x[key] += v: a view written in place, then assigned back
            key = g.basic_key(shapes[i]) if shapes[i] else Ellipsis
            steps.append(("iadd_item", i, key, int(rng.integers(1, 9))))
    return base, steps


def _has_ellipsis(key) -> bool:
    return any(k is Ellipsis for k in (key if isinstance(key, tuple) else (key,)))


def _run(base: np.ndarray, steps: list[tuple], device, chunks=None) -> list:
    """The arrays' values after each step (None: the step raised)."""
    x = xp.asarray(base, device=device, copy=True)
    if chunks is not None:
        x = ocean_ext.from_dask(ocean_ext.to_dask(x).rechunk(chunks))
    arrays = [x]
    seen = []
    for step in steps:
        try:
            if step[0] == "view":
                arrays.append(arrays[step[1]][step[2]])
            elif step[0] == "set":
                arrays[step[1]][step[2]] = step[3]
            elif step[0] == "iadd":
                a = arrays[step[1]]
                a += step[2]
            else:
                a = arrays[step[1]]
                a[step[2]] += step[3]
        except IndexError:
            seen.append(None)
            if step[0] == "view":
                arrays.append(None)
            continue
        live = [a for a in arrays if a is not None]
        seen.append(
            [np.array(a.to_device(dp.CPU), copy=True) for a in ocean_ext.compute(*live)]
        )
    return seen


@pytest.mark.parametrize("chunking", dp.CHUNKINGS)
def test_views_share_writes_as_on_cpu(chunking):
    compared = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for seed in range(PROGRAMS):
            base, steps = _program(seed)
            want = _run(base, steps, dp.CPU)
            chunks = dp._chunks(base.shape, chunking, np.random.default_rng(seed))
            got = _run(base, steps, dp.DASK, chunks)
            for k, (w, g) in enumerate(zip(want, got, strict=True)):
                assert (w is None) == (g is None), (seed, k, steps[: k + 1])
                if w is None:
                    continue
                for j, (a, b) in enumerate(zip(w, g, strict=True)):
                    compared += 1
                    np.testing.assert_array_equal(
                        b, a, err_msg=f"seed {seed}, step {k} {steps[k]}, array {j}"
                    )
    assert compared > PROGRAMS * STEPS  # the programs did run


def test_a_write_into_a_view_reaches_the_base_and_back():
    x = xp.zeros((3, 3), device=dp.DASK)
    row = x[1, :]
    row[0] = 1.0
    x[1, 2] = 2.0
    inner = row[1:]
    inner += 5.0
    got = [np.asarray(a.to_device(dp.CPU)) for a in ocean_ext.compute(x, row, inner)]
    np.testing.assert_array_equal(got[0][1], [1.0, 5.0, 7.0])
    np.testing.assert_array_equal(got[1], [1.0, 5.0, 7.0])
    np.testing.assert_array_equal(got[2], [5.0, 7.0])
    assert float(xp.sum(x)) == 13.0


def test_augmented_item_assignment_adds_once():
    # x[i] += v is t = x[i]; t += v; x[i] = t: the view's write goes through,
    # and the assignment back must neither skip it nor add again
    x = xp.zeros((3, 2), device=dp.DASK)
    for i in range(3):
        x[i] += 1.0
    x[1:, 0] += 2.0
    want = np.asarray([[1.0, 1.0], [3.0, 1.0], [3.0, 1.0]])
    np.testing.assert_array_equal(np.asarray(x.to_device(dp.CPU)), want)


def test_integers_on_every_axis_give_a_copy_as_numpy():
    x = xp.zeros((2, 2), device=dp.DASK)
    s = x[0, 1]  # NumPy's scalar: a copy
    s[...] = 4.0
    v = x[0, 1, ...]  # with an ellipsis: a 0-d view
    v[...] = 3.0
    assert float(x[0, 1]) == 3.0
    assert float(s) == 4.0


@pytest.mark.parametrize(
    "make",
    [
        lambda x: x[xp.asarray([0, 1], device=dp.DASK)],  # advanced indexing
        lambda x: xp.reshape(x, (4,)),
        lambda x: xp.permute_dims(x, (1, 0)),
        lambda x: x.mT,
    ],
    ids=["index-array", "reshape", "permute_dims", "mT"],
)
def test_other_results_are_arrays_of_their_own(make):
    x = xp.zeros((2, 2), device=dp.DASK)
    y = make(x)
    y[...] = 1.0
    assert float(xp.sum(x)) == 0.0
    x[...] = 2.0
    assert float(xp.sum(y)) == 4.0


def test_read_only_reaches_views():
    x = xp.zeros((2, 2), device=dp.DASK)
    before = x[0]
    ocean_ext.set_readonly(x)
    after = x[0]
    for v in (before, after):
        with pytest.raises(ValueError, match="read-only"):
            v[0] = 1.0
        with pytest.raises(ValueError, match="read-only"):
            v += 1.0
    assert float(xp.sum(x)) == 0.0


def test_a_refused_write_through_changes_nothing():
    # a view of a slice along a data-dependent axis cannot be written back
    # element by element (NotImplementedError): view and base stay as they were
    m = xp.asarray([True, True, False, True], device=dp.DASK)
    x = xp.reshape(xp.arange(8.0, device=dp.DASK), (4, 2))[m]
    v = x[1:]
    with pytest.raises(NotImplementedError, match="dask"):
        v[0, 0] = -1.0
    got = [np.asarray(a.to_device(dp.CPU)) for a in ocean_ext.compute(x, v)]
    np.testing.assert_array_equal(got[0], [[0, 1], [2, 3], [6, 7]])
    np.testing.assert_array_equal(got[1], [[2, 3], [6, 7]])


def _readonly_story(dev):
    """Writes, releases and questions around read-only views, as outcomes."""
    cpu = dp.CPU
    out = []

    def t(name, f):
        try:
            res = f()
            out.append((name, "ok", None if isinstance(res, xp.Array) else res))
        except Exception as exc:  # the type is the outcome compared
            out.append((name, type(exc).__name__))

    e = xp.arange(6, device=dev)
    empty = e[5:5]
    new_axis_empty = e[None][1:]
    ocean_ext.set_readonly(e)
    for name, a in (
        ("empty", empty),
        ("new axis, empty", new_axis_empty),
        ("after", e[5:5]),
    ):
        # a view of a read-only array is read-only, empty or not
        t(f"{name} view of a read-only array: write", lambda a=a: a.__setitem__(..., 1))
        t(f"{name}: is_readonly", lambda a=a: ocean_ext.is_readonly(a))
    x = xp.arange(6, device=dev)
    v = x[:2]
    ocean_ext.set_readonly(v)
    w = x[0:3]
    far = x[3:]
    t("x[0] = 9", lambda: x.__setitem__(0, 9))
    t("x[5] = 9 (x overlaps v)", lambda: x.__setitem__(5, 9))
    t("x += 1", lambda: x.__iadd__(1))
    t("w[2] = 9 (w overlaps v)", lambda: w.__setitem__(2, 9))
    t("x[3:] = v", lambda: x.__setitem__(slice(3, None), v))
    t("far[0] = 7 (apart from v)", lambda: far.__setitem__(0, 7))
    t("far += 1", lambda: far.__iadd__(1))
    t("x[4:][0] = 8", lambda: x[4:].__setitem__(0, 8))
    t("values", lambda: np.asarray(x.to_device(cpu)).tolist())
    t("is_readonly", lambda: [ocean_ext.is_readonly(a) for a in (x, v, w, far, x[4:])])
    y = xp.arange(6, device=dev)
    u = y[1:]
    ocean_ext.set_readonly(y)
    t("is_readonly(view made before)", lambda: ocean_ext.is_readonly(u))
    t("release the view of a read-only base", lambda: ocean_ext.set_readonly(u, False))
    t("u[0] = 1", lambda: u.__setitem__(0, 1))
    ocean_ext.set_readonly(y, False)
    t("u[0] = 1 after the base's release", lambda: u.__setitem__(0, 1))
    z = xp.arange(6, device=dev)
    r = z[1:]
    ocean_ext.set_readonly(r)
    ocean_ext.set_readonly(z, False)  # releases its views too
    t("r[0] = 2 after releasing the base", lambda: r.__setitem__(0, 2))
    t("shares_memory", lambda: [
        ocean_ext.shares_memory(z, z[1:]),
        ocean_ext.shares_memory(z[:2], z[3:]),
        ocean_ext.shares_memory(z[::2], z[1::2]),
        ocean_ext.shares_memory(z, z + 0),
    ])  # fmt: skip
    t("values", lambda: [np.asarray(a.to_device(cpu)).tolist() for a in (y, z)])
    return out


def test_read_only_views_as_on_cpu():
    # read-only reaches every array of the family whose elements overlap
    # (per array, as for read-only memory on the CPU), and a release frees
    # the array and its views; writes apart from the read-only elements pass
    for got, want in zip(
        _readonly_story(dp.DASK), _readonly_story(dp.CPU), strict=True
    ):
        assert got == want


def test_too_many_indices_on_a_view_raise_and_write_nothing():
    for dev in (dp.CPU, dp.DASK):
        x = xp.arange(3, device=dev)
        v = x[1, ...]  # 0-d view
        for key in (0, -1, slice(None), (0,)):
            with pytest.raises(IndexError):
                v[key] = 9
        y = xp.zeros((2, 2), device=dev)
        w = y[None][0, :, 1]
        with pytest.raises(IndexError):
            w[0, 0] = 1.0
        w[...] = 5.0  # through a new axis, to the column
        assert np.asarray(x.to_device(dp.CPU)).tolist() == [0, 1, 2]
        assert np.asarray(y.to_device(dp.CPU)).tolist() == [[0.0, 5.0], [0.0, 5.0]]


def test_ranges_meet_as_their_elements_do():
    from ocean_dask._native import meet

    rng = np.random.default_rng(5)
    for _ in range(3000):
        a, b = (
            range(*rng.integers(-3, 30, size=2), int(rng.choice([-3, -2, -1, 1, 2, 3])))
            for _ in range(2)
        )
        assert meet(a, b) == bool(set(a) & set(b)), (a, b)


def test_a_chain_of_views_deeper_than_the_recursion_limit_works_as_on_cpu():
    # a view reads its parent's graph by a walk up to the root, not a
    # recursion: the chain below is deeper than the recursion limit allows
    # (lowered, so that the test stays fast; 3000 views at the default one)
    import inspect
    import sys

    n = 300
    got = {}
    for dev in (dp.CPU, dp.DASK):
        x = base = xp.arange(float(n + 4), device=dev)
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(len(inspect.stack(0)) + n // 2)
        try:
            for _ in range(n):
                x = x[1:]
            base[n + 1] = -1.0  # every view of the chain derives again
            x[0] = -2.0  # through the chain, into the base
            got[dev] = (
                np.asarray(x.to_device(dp.CPU)).tolist(),
                np.asarray(base.to_device(dp.CPU))[n - 1 :].tolist(),
            )
        finally:
            sys.setrecursionlimit(limit)
    want = ([-2.0, -1.0, 302.0, 303.0], [299.0, -2.0, -1.0, 302.0, 303.0])
    assert got[dp.DASK] == got[dp.CPU] == want
