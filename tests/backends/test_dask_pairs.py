"""Two operands of data-dependent size on the dask device: every function
that pairs their elements gives ``cpu:0``'s result, or its error.

Operands masked by different masks have lengths of ``None`` that the graph
alone knows: equal (paired element by element when computed) or not (the
CPU's ValueError, when computed, never a result).  Generated over shapes,
masks and chunkings, for elementwise functions, ``where``, ``clip``,
joins, ``broadcast_arrays`` and the products.  (Found: ``stack``/``concat``
put a chunk of one row in place of a longer one, ``broadcast_arrays``
returned operands of different lengths unchecked, ``linalg.cross`` raised
dask's own errors.)
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("dask.array", reason="dask is not installed (.[dask])")

import dask.array as da

import ocean_array_api as xp
import ocean_ext

from . import dask_programs as dp

TRIALS = 16


def _masked(a: np.ndarray, keep: np.ndarray, rows: int) -> xp.Array:
    chunks = (rows, *a.shape[1:])
    x = ocean_ext.from_dask(da.from_array(a, chunks=chunks))
    return x[ocean_ext.from_dask(da.from_array(keep, chunks=(rows,)))]


def _cross(a, b):
    if a.ndim == 1:
        a = xp.stack([a, a + 1.0, a * 2.0], axis=-1)
        b = xp.stack([b, b - 1.0, b * 3.0], axis=-1)
    return xp.linalg.cross(a, b)


FUNCS = {
    "add": lambda a, b: a + b,
    "multiply": xp.multiply,
    "maximum": xp.maximum,
    "atan2": xp.atan2,
    "equal": xp.equal,
    "hypot": xp.hypot,
    "where": lambda a, b: xp.where(a > 0, a, b),
    "clip": lambda a, b: xp.clip(a, b, None),
    "vecdot": lambda a, b: xp.vecdot(a, b, axis=-a.ndim),
    "linalg.vecdot": lambda a, b: xp.linalg.vecdot(a, b, axis=-a.ndim),
    "tensordot": lambda a, b: xp.tensordot(a, b, axes=([0], [0])),
    "matmul": lambda a, b: a @ b if a.ndim == 1 else xp.matrix_transpose(a) @ b,
    "stack": lambda a, b: xp.stack([a, b]),
    "concat": lambda a, b: xp.concat([a, b], axis=-1),
    "broadcast_arrays": lambda a, b: xp.broadcast_arrays(a, b)[0],
    "broadcast_arrays[1]": lambda a, b: xp.broadcast_arrays(a, b)[1],
    "linalg.cross": _cross,
}


@pytest.mark.parametrize("name", list(FUNCS))
def test_operands_of_data_dependent_size_meet_as_on_cpu(name):
    f = FUNCS[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    checked = {"values": 0, "errors": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for _ in range(TRIALS):
            n = int(rng.integers(2, 10))
            shape = (n,) if rng.random() < 0.5 else (n, 3)
            a = rng.standard_normal(shape)
            b = rng.standard_normal(shape)
            k1 = rng.random(n) < 0.7
            k2 = rng.permutation(k1) if rng.random() < 0.6 else rng.random(n) < 0.7
            try:
                want = np.asarray(
                    f(
                        xp.asarray(a[k1], device=dp.CPU),
                        xp.asarray(b[k2], device=dp.CPU),
                    )
                )
                err = None
            except ValueError as exc:
                want, err = None, exc
            x = _masked(a, k1, int(rng.integers(1, n + 1)))
            y = _masked(b, k2, int(rng.integers(1, n + 1)))
            if err is not None:
                with pytest.raises(ValueError):
                    ocean_ext.compute(f(x, y))
                checked["errors"] += 1
                continue
            (got,) = ocean_ext.compute(f(x, y))
            got = np.asarray(got.to_device(dp.CPU))
            assert got.shape == want.shape, (name, n, k1, k2)
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
            checked["values"] += 1
    assert checked["values"] > 0


def test_a_data_dependent_length_broadcast_to_a_known_one():
    # declared lengths are checked when the graph runs, never assumed: the
    # CPU's ValueError for 5 against 6, a length of 1 broadcast
    x = xp.arange(10.0, device=dp.DASK)
    five = x[x > 4]
    one = x[x > 8]
    with pytest.raises(ValueError):
        ocean_ext.compute(xp.broadcast_to(five, (6,)))
    with pytest.raises(ValueError):
        ocean_ext.compute(xp.broadcast_arrays(five, xp.ones(6, device=dp.DASK))[0])
    (got,) = ocean_ext.compute(xp.broadcast_to(one, (2, 4)))
    np.testing.assert_array_equal(
        np.asarray(got.to_device(dp.CPU)), np.full((2, 4), 9.0)
    )
    (got,) = ocean_ext.compute(xp.broadcast_to(five, (2, 5)))
    assert float(xp.sum(got)) == 2 * (5 + 6 + 7 + 8 + 9)
