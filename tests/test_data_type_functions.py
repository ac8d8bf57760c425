"""Data types and the data type functions: promotion, casting, limits."""

from __future__ import annotations

import copy
import itertools
import pickle

import numpy as np
import pytest

import ocean_array_api as xp

from .helpers import (
    ALL_DTYPES,
    CPU0,
    CPU1,
    DTYPE_NAMES,
    FLOAT_DTYPES,
    INT_DTYPES,
    SPEC_COMPLEX,
    SPEC_REAL,
    SPEC_SIGNED,
    SPEC_UNSIGNED,
    assert_matches,
    np_dtype,
    spec_promote,
)

PAIRS = list(itertools.product(DTYPE_NAMES, repeat=2))


def test_spec_table_sanity():
    # A few entries straight from the standard's tables.
    assert spec_promote("uint8", "int8") == "int16"
    assert spec_promote("uint16", "int8") == "int32"
    assert spec_promote("uint32", "int64") == "int64"
    assert spec_promote("uint64", "int8") is None
    assert spec_promote("float32", "complex128") == "complex128"
    assert spec_promote("float64", "complex64") == "complex128"
    assert spec_promote("bool", "int8") is None
    assert spec_promote("int64", "float64") is None


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_result_type_matches_spec_table(a, b):
    d1, d2 = getattr(xp, a), getattr(xp, b)
    expected = spec_promote(a, b)
    if expected is None:
        with pytest.raises(TypeError):
            xp.result_type(d1, d2)
        with pytest.raises(TypeError):
            xp.result_type(xp.ones(1, dtype=d1), xp.ones(1, dtype=d2))
    else:
        assert xp.result_type(d1, d2) == getattr(xp, expected)
        assert xp.result_type(xp.ones(1, dtype=d1), d2) == getattr(xp, expected)


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_binary_operations_follow_promotion_table(a, b):
    d1, d2 = getattr(xp, a), getattr(xp, b)
    x, y = xp.ones(2, dtype=d1), xp.ones(2, dtype=d2)
    expected = spec_promote(a, b)
    func = xp.logical_and if a == "bool" else xp.multiply
    if expected is None:
        with pytest.raises(TypeError):
            func(x, y)
        with pytest.raises(TypeError):
            xp.equal(x, y)
    else:
        assert func(x, y).dtype == getattr(xp, expected)
        assert xp.equal(x, y).dtype == xp.bool


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_can_cast_matches_spec_table(a, b):
    d1, d2 = getattr(xp, a), getattr(xp, b)
    expected = spec_promote(a, b) == b
    assert xp.can_cast(d1, d2) is expected
    assert xp.can_cast(xp.ones(1, dtype=d1), d2) is expected


def test_result_type_many_arguments():
    assert xp.result_type(xp.int8, xp.int16, xp.int32) == xp.int32
    assert xp.result_type(xp.uint8, xp.int8, xp.int16) == xp.int16
    assert xp.result_type(xp.float32, xp.complex64, xp.float64) == xp.complex128
    assert xp.result_type(xp.int8) == xp.int8
    assert xp.result_type(xp.ones(2, dtype=xp.uint16)) == xp.uint16
    with pytest.raises(TypeError):
        xp.result_type(xp.int8, xp.uint8, xp.float32)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ((xp.float32, 1.0), xp.float32),
        ((1.0, xp.float32), xp.float32),
        ((xp.int8, 1), xp.int8),
        ((xp.uint8, 1), xp.uint8),
        ((xp.float64, 1), xp.float64),
        ((xp.float32, 1j), xp.complex64),
        ((xp.float64, 1j), xp.complex128),
        ((xp.complex64, 1.0), xp.complex64),
        ((xp.complex64, 1), xp.complex64),
        ((xp.bool, True), xp.bool),
        ((xp.int8, xp.uint8, 1), xp.int16),
        ((xp.int16, 1, 2), xp.int16),
    ],
)
def test_result_type_with_python_scalars(args, expected):
    assert xp.result_type(*args) == expected


@pytest.mark.parametrize(
    "args",
    [
        (xp.int8, 1.0),
        (xp.int32, 1j),
        (xp.bool, 1),
        (xp.bool, 1.0),
        (xp.int64, True),
        (xp.float32, True),
    ],
)
def test_result_type_with_incompatible_python_scalars(args):
    with pytest.raises(TypeError):
        xp.result_type(*args)


def test_result_type_needs_an_array_or_dtype():
    # ValueError in both cases, as array-api-strict raises (SciPy catches it).
    with pytest.raises(ValueError, match="at least one array or dtype"):
        xp.result_type()
    with pytest.raises(ValueError, match="besides Python scalars"):
        xp.result_type(1, 2.0)


@pytest.mark.parametrize(
    "bad", [np.float64, np.dtype("float64"), "float64", float, None, [xp.int8]]
)
def test_result_type_rejects_foreign_objects(bad):
    with pytest.raises(TypeError):
        xp.result_type(xp.int8, bad)


def test_can_cast_rejects_foreign_dtypes():
    with pytest.raises(TypeError):
        xp.can_cast(np.float32, xp.float64)
    with pytest.raises(TypeError):
        xp.can_cast(xp.float32, "float64")


# --- DType values --------------------------------------------------------------------


def test_dtypes_are_values():
    for name in DTYPE_NAMES:
        dt = getattr(xp, name)
        assert dt == getattr(xp, name)
        assert hash(dt) == hash(getattr(xp, name))
        assert str(dt) == name
        assert name in repr(dt)
        assert pickle.loads(pickle.dumps(dt)) == dt
        assert copy.deepcopy(dt) == dt
        assert copy.copy(dt) == dt


def test_dtypes_are_distinct():
    assert len({getattr(xp, n) for n in DTYPE_NAMES}) == len(DTYPE_NAMES)
    for a, b in itertools.combinations(ALL_DTYPES, 2):
        assert a != b


def test_dtypes_are_never_equal_to_numpy_or_strings():
    for name in DTYPE_NAMES:
        dt = getattr(xp, name)
        assert dt != np.dtype(name)
        assert np.dtype(name) != dt
        assert dt != name
        assert dt != getattr(np, "bool_" if name == "bool" else name)


def test_dtype_objects_cannot_be_created_or_mutated():
    with pytest.raises(TypeError):
        type(xp.float64)()
    with pytest.raises(TypeError):
        type(xp.float64)("float16", "real floating")
    with pytest.raises(AttributeError):
        xp.float64._name = "float32"
    assert str(xp.float64) == "float64"


def test_dtypes_usable_as_dict_keys():
    d = {xp.float32: 1, xp.int8: 2}
    assert d[xp.float32] == 1
    assert d[xp.asarray([1], dtype=xp.int8).dtype] == 2


# --- isdtype ----------------------------------------------------------------------------

KIND_MEMBERS = {
    "bool": {"bool"},
    "signed integer": set(SPEC_SIGNED),
    "unsigned integer": set(SPEC_UNSIGNED),
    "integral": set(SPEC_SIGNED) | set(SPEC_UNSIGNED),
    "real floating": set(SPEC_REAL),
    "complex floating": set(SPEC_COMPLEX),
    "numeric": set(SPEC_SIGNED)
    | set(SPEC_UNSIGNED)
    | set(SPEC_REAL)
    | set(SPEC_COMPLEX),
}


@pytest.mark.parametrize("kind", list(KIND_MEMBERS))
def test_isdtype_kinds(kind):
    for name in DTYPE_NAMES:
        assert xp.isdtype(getattr(xp, name), kind) is (name in KIND_MEMBERS[kind])


def test_isdtype_dtypes_and_tuples():
    assert xp.isdtype(xp.float32, xp.float32) is True
    assert xp.isdtype(xp.float32, xp.float64) is False
    assert xp.isdtype(xp.int8, ("real floating", xp.int8)) is True
    assert xp.isdtype(xp.uint8, ("signed integer", "real floating")) is False
    assert xp.isdtype(xp.complex64, ("bool", "complex floating")) is True
    assert xp.isdtype(xp.bool, ()) is False


def test_isdtype_errors():
    with pytest.raises(ValueError):
        xp.isdtype(xp.float32, "floating")
    with pytest.raises(TypeError):
        xp.isdtype(np.float32, "real floating")
    with pytest.raises(TypeError):
        xp.isdtype(xp.ones(2), "real floating")
    with pytest.raises(TypeError):
        xp.isdtype(xp.float32, np.float32)


# --- finfo, iinfo --------------------------------------------------------------------------


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=str)
def test_finfo(dt):
    real = {"complex64": xp.float32, "complex128": xp.float64}.get(str(dt), dt)
    ref = np.finfo(np_dtype(real))
    for arg in (dt, xp.ones(2, dtype=dt)):
        fi = xp.finfo(arg)
        assert fi.bits == ref.bits
        assert fi.eps == float(ref.eps)
        assert fi.max == float(ref.max)
        assert fi.min == float(ref.min)
        assert fi.smallest_normal == float(ref.smallest_normal)
        assert fi.dtype == real
        for attr in ("eps", "max", "min", "smallest_normal"):
            assert type(getattr(fi, attr)) is float
        assert type(fi.bits) is int


@pytest.mark.parametrize("dt", INT_DTYPES, ids=str)
def test_iinfo(dt):
    ref = np.iinfo(np_dtype(dt))
    for arg in (dt, xp.ones(2, dtype=dt)):
        ii = xp.iinfo(arg)
        assert (ii.bits, ii.min, ii.max) == (ref.bits, int(ref.min), int(ref.max))
        assert ii.dtype == dt
        assert type(ii.max) is int
        assert type(ii.min) is int


def test_finfo_iinfo_errors():
    for dt in (xp.bool, *INT_DTYPES):
        with pytest.raises(TypeError):
            xp.finfo(dt)
    for dt in (xp.bool, *FLOAT_DTYPES):
        with pytest.raises(TypeError):
            xp.iinfo(dt)
    with pytest.raises(TypeError):
        xp.finfo(np.float64)
    with pytest.raises(TypeError):
        xp.iinfo(int)


# --- astype -------------------------------------------------------------------------------------


def _castable_values(src):
    nd = np_dtype(src)
    if nd.kind == "b":
        return np.array([True, False, True])
    if nd.kind == "c":
        return np.array([0, 1 + 1j, 3 - 2j], dtype=nd)
    return np.array([0, 1, 5], dtype=nd)


@pytest.mark.parametrize(("a", "b"), PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_astype_all_pairs(a, b):
    src, dst = getattr(xp, a), getattr(xp, b)
    values = _castable_values(src)
    x = xp.asarray(values)
    if xp.isdtype(src, "complex floating") and not xp.isdtype(dst, "complex floating"):
        with pytest.raises(TypeError):
            xp.astype(x, dst)
        return
    y = xp.astype(x, dst)
    assert_matches(y, values.astype(np_dtype(dst)))


def test_astype_copy_semantics():
    x = xp.asarray([1.0, 2.0])
    assert xp.astype(x, xp.float64, copy=False) is x
    y = xp.astype(x, xp.float64)
    assert y is not x
    y[0] = 5.0
    assert float(x[0]) == 1.0
    z = xp.astype(x, xp.float32, copy=False)  # a dtype change always copies
    z[0] = 9.0
    assert float(x[0]) == 1.0


def test_astype_with_device():
    x = xp.asarray([1, 2])
    y = xp.astype(x, xp.float32, device=CPU1)
    assert_matches(y, np.array([1.0, 2.0], dtype=np.float32), device=CPU1)
    z = xp.astype(x, xp.int64, device="cpu:1", copy=False)
    assert_matches(z, np.array([1, 2]), device=CPU1)
    z[0] = 7
    assert int(x[0]) == 1
    assert xp.astype(x, xp.int64, device=CPU0).device == CPU0


def test_astype_errors():
    x = xp.asarray([1.0])
    with pytest.raises(TypeError):
        xp.astype(x, np.float32)
    with pytest.raises(TypeError):
        xp.astype(x, "float32")
    with pytest.raises(TypeError):
        xp.astype(np.ones(2), xp.float32)
    with pytest.raises(TypeError):
        xp.astype(x, xp.float32, copy=None)
    with pytest.raises(ValueError):
        xp.astype(x, xp.float32, device="cpu:9")
