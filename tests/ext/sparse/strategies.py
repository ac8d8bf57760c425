"""Hypothesis strategies and the dense oracle for the sparse tests.

A drawn sparse case is a NumPy array (the oracle) plus the fill value; the
COO is built from it, and every result is compared with NumPy's on the dense
array.  ``check_canonical`` asserts the invariants every COO keeps: sorted,
unique row-major coordinates in range, and no stored fill value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

import ocean_array_api as xp
from ocean_ext import sparse

FLOAT_DTYPES = ("float64", "float32")
INT_DTYPES = ("int64", "int32", "int8", "uint8")


def dense(s: Any) -> np.ndarray:
    """The values of a COO (or dense Array) as a NumPy array."""
    if isinstance(s, sparse.COO):
        s = s.todense()
    return np.asarray(s.to_device("cpu"))


def check_canonical(s: sparse.COO) -> None:
    c = np.asarray(s.coords.to_device("cpu"))
    d = np.asarray(s.data.to_device("cpu"))
    assert c.shape == (s.ndim, s.nnz)
    assert d.shape == (s.nnz,)
    assert c.dtype == np.int64
    assert s.data.dtype == s.dtype
    if s.nnz:
        for axis, n in enumerate(s.shape):
            assert c[axis].min() >= 0
            assert c[axis].max() < n
        keys = (
            np.ravel_multi_index(tuple(c), s.shape) if s.ndim else np.zeros(s.nnz, int)
        )
        assert (np.diff(keys) > 0).all(), "coords not sorted and unique"
        fill = s.fill_value
        if fill != fill:
            assert not np.isnan(d).any()
        else:
            assert not (d == fill).any(), "a stored value equals the fill value"


def assert_dense_equal(got: Any, expected: np.ndarray, *, exact: bool = False) -> None:
    g = dense(got)
    assert g.shape == expected.shape, (g.shape, expected.shape)
    assert g.dtype == expected.dtype, (g.dtype, expected.dtype)
    if exact or g.dtype.kind in "biub":
        np.testing.assert_array_equal(g, expected)
    else:
        rtol = 1e-4 if g.dtype in (np.float32, np.complex64) else 1e-10
        np.testing.assert_allclose(g, expected, rtol=rtol, atol=rtol, equal_nan=True)


@st.composite
def shapes(
    draw: Any, min_dims: int = 0, max_dims: int = 4, max_side: int = 6
) -> tuple[int, ...]:
    nd = draw(st.integers(min_dims, max_dims))
    return tuple(draw(st.integers(0, max_side)) for _ in range(nd))


@st.composite
def dense_arrays(
    draw: Any,
    shape: Any = None,
    dtypes: tuple[str, ...] = ("float64",),
    fills: tuple[Any, ...] = (0,),
    min_dims: int = 0,
    max_dims: int = 4,
) -> tuple[np.ndarray, Any]:
    """A NumPy array with about ``density`` of its elements not the fill value,
    and that fill value."""
    if shape is None:
        shape = draw(shapes(min_dims=min_dims, max_dims=max_dims))
    dt = np.dtype(draw(st.sampled_from(dtypes)))
    fill = draw(st.sampled_from(fills))
    if dt.kind in "iu":
        fill = int(fill) if float(fill) == int(fill) else 0
        if dt.kind == "u":
            fill = abs(fill)
    fill = dt.type(fill).item()
    density = draw(st.sampled_from((0.0, 0.1, 0.3, 0.7, 1.0)))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape))
    mask = rng.random(size) < density
    if dt.kind == "f":
        vals = rng.integers(-5, 6, size).astype(dt) / 2
    elif dt.kind == "b":
        vals = rng.random(size) < 0.5
    else:
        lo = 0 if dt.kind == "u" else -5
        vals = rng.integers(lo, 6, size).astype(dt)
    out = np.where(mask, vals, np.asarray(fill, dtype=dt)).astype(dt).reshape(shape)
    return out, fill


def coo_of(a: np.ndarray, fill: Any, device: Any = None) -> sparse.COO:
    x = xp.asarray(a) if device is None else xp.asarray(a, device=device)
    return sparse.COO.from_dense(x, fill_value=fill)


def _axis_item(draw: Any, n: int) -> Any:
    kind = draw(st.sampled_from(("int", "slice", "slice", "full")))
    if kind == "int" and n > 0:
        return draw(st.integers(-n, n - 1))
    if kind == "full":
        return slice(None)
    start = draw(st.none() | st.integers(-n - 2, n + 2))
    stop = draw(st.none() | st.integers(-n - 2, n + 2))
    step = draw(st.none() | st.sampled_from((1, 2, 3, -1, -2, -3)))
    return slice(start, stop, step)


@st.composite
def basic_keys(draw: Any, shape: tuple[int, ...], allow_none: bool = True) -> Any:
    """A basic index (ints, slices with any step, None, ...) valid for ``shape``:
    items for some leading axes, maybe ``...``, items for some trailing axes."""
    nd = len(shape)
    lead = draw(st.integers(0, nd))
    use_ellipsis = draw(st.booleans())
    trail = draw(st.integers(0, nd - lead)) if use_ellipsis else 0

    def maybe_none(items: list[Any]) -> None:
        if allow_none and draw(st.integers(0, 5)) == 0:
            items.append(None)

    items: list[Any] = []
    maybe_none(items)
    for axis in range(lead):
        items.append(_axis_item(draw, shape[axis]))
        maybe_none(items)
    if use_ellipsis:
        items.append(Ellipsis)
        maybe_none(items)
        for axis in range(nd - trail, nd):
            items.append(_axis_item(draw, shape[axis]))
            maybe_none(items)
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)
