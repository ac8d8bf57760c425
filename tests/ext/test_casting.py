"""ocean_ext.ensure and ocean_ext.cast: NumPy's astype as the oracle."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext

from ..helpers import (
    ALL_DTYPES,
    COMPLEX_DTYPES,
    CPU0,
    CPU1,
    assert_matches,
    host,
    np_dtype,
)

DEVICES = tuple(xp.__array_namespace_info__().devices())


@st.composite
def arrays(draw, dtypes=ALL_DTYPES):
    dt = draw(st.sampled_from(dtypes))
    a = draw(
        hnp.arrays(
            np_dtype(dt),
            hnp.array_shapes(min_dims=0, max_dims=3, max_side=4),
            elements={"allow_nan": False} if np_dtype(dt).kind in "fc" else None,
        )
    )
    return a, xp.asarray(a, device=draw(st.sampled_from(DEVICES)))


def _convertible(src, dst):
    # complex -> real is refused (it would drop the imaginary part)
    return not (src in COMPLEX_DTYPES and dst not in COMPLEX_DTYPES)


def _expected(a, dt):
    with np.errstate(all="ignore"):
        return a.astype(np_dtype(dt))


def _assert_cast(y, a, dt, dev):
    """``y`` is ``a`` cast to ``dt`` on ``dev``, where the standard specifies
    the cast: a floating-point value outside an integer dtype's range has no
    specified integer (NumPy and CUDA give different bits), so such elements
    are not compared."""
    want = _expected(a, dt)
    nd = np_dtype(dt)
    if nd.kind in "iu" and a.dtype.kind == "f":
        info = np.iinfo(nd)
        with np.errstate(invalid="ignore"):
            specified = np.isfinite(a) & (a >= info.min) & (a < info.max + 1.0)
        if not specified.all():
            assert y.dtype == dt
            assert y.shape == a.shape
            assert y.device == dev
            got = host(y)
            np.testing.assert_array_equal(got[specified], want[specified])
            return
    assert_matches(y, want, device=dev)


@given(
    arrays(), st.sampled_from([None, *ALL_DTYPES]), st.sampled_from([None, *DEVICES])
)
def test_ensure_returns_x_itself_when_nothing_changes(ax, dtype, device):
    a, x = ax
    dt = x.dtype if dtype is None else dtype
    dev = x.device if device is None else device
    if not _convertible(x.dtype, dt):
        with pytest.raises(TypeError, match=r"ensure\(\): converting complex"):
            ocean_ext.ensure(x, dtype, device)
        return
    y = ocean_ext.ensure(x, dtype, device)
    if dt == x.dtype and dev == x.device:
        assert y is x
        return
    assert y is not x
    assert not ocean_ext.shares_memory(y, x)
    _assert_cast(y, a, dt, dev)


@given(
    arrays(), st.sampled_from([None, *ALL_DTYPES]), st.sampled_from([None, *DEVICES])
)
def test_cast_always_returns_a_new_array(ax, dtype, device):
    a, x = ax
    dt = x.dtype if dtype is None else dtype
    dev = x.device if device is None else device
    if not _convertible(x.dtype, dt):
        with pytest.raises(TypeError, match=r"cast\(\): converting complex"):
            ocean_ext.cast(x, dtype, device)
        return
    y = ocean_ext.cast(x, dtype, device)
    assert y is not x
    if x.size:
        assert not ocean_ext.shares_memory(y, x)
    _assert_cast(y, a, dt, dev)
    if y.size:
        y[...] = xp.zeros_like(y)  # the caller may write to it without touching x
        np.testing.assert_array_equal(host(x), a)


def test_positional_and_keyword_arguments():
    x = xp.ones(2, dtype=xp.int32, device=CPU0)
    assert ocean_ext.ensure(x, xp.int32, CPU0) is x
    assert ocean_ext.ensure(x, dtype=xp.int32, device="cpu") is x
    assert ocean_ext.ensure(x, device="cpu:1").device == CPU1
    assert ocean_ext.cast(x, device=CPU1, dtype=xp.float32).dtype == xp.float32


def test_device_strings_and_the_device_fixture(device):
    x = xp.asarray([1.0, 2.0])
    y = ocean_ext.ensure(x, device=device)
    assert y.device == device
    assert (y is x) == (device == x.device)
    z = ocean_ext.cast(x, device=str(device))
    assert z.device == device
    assert z is not x


@pytest.mark.parametrize("func", [ocean_ext.ensure, ocean_ext.cast])
def test_validation(func):
    where = re.escape(f"{func.__name__}()")
    x = xp.zeros(2)
    with pytest.raises(TypeError, match=rf"{where}: `x` must be an array"):
        func(np.zeros(2))
    with pytest.raises(TypeError, match=rf"{where}: `x` must be an array"):
        func([1.0])
    with pytest.raises(TypeError, match=rf"{where}: `dtype` must be a dtype"):
        func(x, "float32")
    with pytest.raises(TypeError, match=rf"{where}: `dtype` must be a dtype"):
        func(x, np.float32)
    with pytest.raises(TypeError, match=rf"{where}: `device`"):
        func(x, device=0)
    with pytest.raises(ValueError, match=rf"{where}: cannot read device"):
        func(x, device="cpu:x")
    with pytest.raises(ValueError, match="no device cpu:7"):
        func(x, device="cpu:7")
    with pytest.raises(TypeError, match=rf"{where}: converting complex"):
        func(xp.zeros(2, dtype=xp.complex64), xp.float32)


def test_byteswapped_input():
    # byte-swapped arrays exist on the CPU only (explicitly, for a suite run
    # with another default device)
    s = ocean_ext.byteswap(xp.arange(4.0, device=CPU0))
    assert ocean_ext.ensure(s) is s
    assert ocean_ext.ensure(s, xp.float64) is s
    for y in (
        ocean_ext.ensure(s, xp.float32),
        ocean_ext.cast(s),
        ocean_ext.ensure(s, device=CPU1),
    ):
        assert not ocean_ext.is_byteswapped(y)
        np.testing.assert_array_equal(host(y), np.arange(4.0))


def test_read_only_input():
    x = xp.arange(3.0)
    ocean_ext.set_readonly(x)
    assert ocean_ext.ensure(x) is x
    y = ocean_ext.cast(x)
    assert not ocean_ext.is_readonly(y)
    y[0] = 5.0
    assert float(x[0]) == 0.0


@pytest.mark.parametrize("name", ["float16", "complex32"])
def test_dtypes_beyond_the_standard(name):
    ext = getattr(ocean_ext, name, None)
    if ext is None:
        pytest.skip(f"ocean_ext.{name} is not available")
    x = xp.asarray([1.5, -2.25])
    h = ocean_ext.ensure(x, ext)
    assert h.dtype == ext
    assert ocean_ext.ensure(h, ext) is h
    c = ocean_ext.cast(h)
    assert c is not h
    assert c.dtype == ext
    wide = xp.complex128 if name == "complex32" else xp.float64
    for y in (ocean_ext.cast(h, wide), ocean_ext.ensure(c, wide, device=CPU1)):
        np.testing.assert_array_equal(
            host(y), np.asarray([1.5, -2.25]).astype(np_dtype(wide))
        )
    if name == "complex32":
        with pytest.raises(TypeError, match="imaginary"):
            ocean_ext.cast(h, xp.float64)
