"""Every operator (forward, reflected, in-place) on the ocean_ext dtypes.

float16 and complex32 compute as float32 and complex64 and round once, so
each operator's result must be its float32/complex64 result rounded to the
extension dtype; an in-place operator whose result would be wider raises
TypeError, as for standard dtypes.  (Issue 12 item 8: ``a @= a`` raised for
both dtypes though ``a @ a`` worked.)
"""

from __future__ import annotations

import operator

import numpy as np
import pytest

import ocean_array_api as xp
import ocean_ext

from ..helpers import CPU0, host

EXT = {
    "float16": (ocean_ext.float16, xp.float32),
    "complex32": (ocean_ext.complex32, xp.complex64),
}
ARITH = ["add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul"]
COMPARE = ["eq", "ne", "lt", "le", "gt", "ge"]
REAL_ONLY = {"floordiv", "mod", "lt", "le", "gt", "ge"}


def _operands(kind: str, dt, proxy):
    a = xp.asarray([[1.5, 2.0], [3.0, -4.0]], dtype=dt)
    if kind == "array":
        b = xp.asarray([[2.0, 0.5], [1.0, 3.0]], dtype=dt)
        return a, b, xp.astype(b, proxy)
    value = {"int": 2, "float": 0.5}[kind]
    return a, value, value


def _rounded(want, dt):
    """The float32/complex64 result rounded to the extension dtype, on the host."""
    if want.dtype == xp.bool:
        return host(want)
    return host(xp.astype(xp.astype(want, dt), want.dtype))


def _cases():
    for ext in EXT:
        for name in ARITH + COMPARE:
            if ext == "complex32" and name in REAL_ONLY:
                continue
            for kind in ("array", "int", "float"):
                if name == "matmul" and kind != "array":
                    continue
                prefixes = [""] if name in COMPARE else ["", "r", "i"]
                for prefix in prefixes:
                    yield ext, f"__{prefix}{name}__", kind


@pytest.mark.parametrize(("ext", "method", "kind"), list(_cases()))
def test_operator_matches_the_proxy_result_rounded(ext, method, kind):
    dt, proxy = EXT[ext]
    a, b, pb = _operands(kind, dt, proxy)
    want = getattr(xp.astype(a, proxy), method)(pb)
    got = getattr(a, method)(b)
    assert got is not NotImplemented
    if method.startswith("__i"):
        assert got is a  # in place
    assert got.dtype == (xp.bool if want.dtype == xp.bool else dt)
    assert got.shape == want.shape
    np.testing.assert_array_equal(
        host(xp.astype(got, want.dtype)) if got.dtype != xp.bool else host(got),
        _rounded(want, dt),
    )


@pytest.mark.parametrize("ext", EXT)
@pytest.mark.parametrize(
    "name", ["iadd", "isub", "imul", "itruediv", "ipow", "imatmul"]
)
def test_in_place_operator_with_a_wider_operand_is_a_type_error(ext, name):
    dt, proxy = EXT[ext]
    a = xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=dt)
    before = host(xp.astype(a, proxy))
    with pytest.raises(TypeError, match="cannot change the dtype"):
        getattr(operator, name)(a, xp.ones((2, 2), dtype=proxy))
    np.testing.assert_array_equal(host(xp.astype(a, proxy)), before)


@pytest.mark.parametrize("ext", EXT)
def test_in_place_matmul_checks_read_only_and_shape(ext):
    dt, _ = EXT[ext]
    a = xp.ones((2, 3), dtype=dt)
    with pytest.raises(ValueError, match="cannot change the shape"):
        a @= xp.ones((3, 3), dtype=dt)[:, :2]
    b = xp.ones((2, 2), dtype=dt)
    ocean_ext.set_readonly(b)
    with pytest.raises(ocean_ext.ReadOnlyError):
        b @= b


@pytest.mark.parametrize("ext", EXT)
def test_in_place_matmul_into_memory_read_only_at_the_source(ext):
    # Memory that came in read-only (a read-only NumPy array: no set_readonly
    # region, the backend refuses the write) made `@=` raise NumPy's bare
    # ValueError instead of ReadOnlyError.  The CPU explicitly: only it shares
    # memory with NumPy arrays.
    dt, proxy = EXT[ext]
    a = np.ones((2, 2) if ext == "float16" else (2, 2, 2), dtype=np.float16)
    a.flags.writeable = False
    if ext == "float16":
        x = xp.asarray(a, dtype=dt, device=CPU0)
    else:
        x = ocean_ext.view_as_complex(a)  # the same memory, as complex32
    assert x.device == CPU0
    assert ocean_ext.is_readonly(x)
    with pytest.raises(ocean_ext.ReadOnlyError, match=r"matmul\(\) \(@=\)"):
        x @= x
    want = np.ones((2, 2)) if ext == "float16" else np.full((2, 2), 1 + 1j)
    np.testing.assert_array_equal(host(xp.astype(x, proxy)), want)
