"""The inspection API: ``__array_namespace_info__()``."""

from __future__ import annotations

import numpy as np
import pytest

import ocean_array_api as xp

from .helpers import ALL_DTYPES, CPU0, CPU1, DTYPE_NAMES, assert_matches

DEFAULT = xp.__array_namespace_info__().default_device()

info = xp.__array_namespace_info__()


def test_info_has_the_standard_methods():
    for name in (
        "capabilities",
        "default_device",
        "default_dtypes",
        "devices",
        "dtypes",
    ):
        assert callable(getattr(info, name)), name


def test_capabilities():
    caps = info.capabilities()
    assert isinstance(caps, dict)
    assert set(caps) == {"boolean indexing", "data-dependent shapes", "max dimensions"}
    assert type(caps["boolean indexing"]) is bool
    assert type(caps["data-dependent shapes"]) is bool
    md = caps["max dimensions"]
    assert md is None or (type(md) is int and md >= 1)


def test_capabilities_are_true_to_behaviour():
    caps = info.capabilities()
    x = xp.asarray([1.0, -1.0, 2.0])
    if caps["boolean indexing"]:
        assert_matches(x[x > 0], np.array([1.0, 2.0]))
    if caps["data-dependent shapes"]:
        # sizes known, or None on a lazy device (known once computed)
        assert xp.unique_values(x).shape in ((3,), (None,))
        assert np.asarray(xp.unique_values(x).to_device(CPU0)).shape == (3,)
        assert np.asarray(xp.nonzero(x > 0)[0].to_device(CPU0)).shape == (2,)
    md = caps["max dimensions"]
    if md is not None:
        assert xp.zeros((1,) * md).ndim == md
        with pytest.raises(ValueError):
            xp.zeros((1,) * (md + 1))


def test_default_device():
    # CPU unless OCEAN_ARRAY_API_DEFAULT_DEVICE says otherwise (the dask run)
    assert info.default_device() == DEFAULT
    with CPU1:
        assert info.default_device() == CPU1
        assert xp.__array_namespace_info__().default_device() == CPU1


def test_devices():
    devs = info.devices()
    assert type(devs) is tuple  # 2025.12 (a list before)
    assert devs[:2] == (CPU0, CPU1)
    for d in devs:
        assert xp.zeros(1, device=d).device == d


@pytest.mark.parametrize("device", [None, CPU0, CPU1, "cpu:1"])
def test_default_dtypes(device):
    d = info.default_dtypes(device=device)
    assert d == {
        "real floating": xp.float64,
        "complex floating": xp.complex128,
        "integral": xp.int64,
        "indexing": xp.int64,
    }


def test_default_dtypes_agree_with_creation():
    d = info.default_dtypes()
    assert xp.asarray(1.0).dtype == d["real floating"]
    assert xp.asarray(1j).dtype == d["complex floating"]
    assert xp.asarray(1).dtype == d["integral"]
    assert xp.arange(3).dtype == d["integral"]
    assert xp.argmax(xp.ones(3)).dtype == d["indexing"]
    assert xp.nonzero(xp.ones(3))[0].dtype == d["indexing"]


def test_dtypes_all():
    d = info.dtypes()
    assert list(d) == list(DTYPE_NAMES)
    assert list(d.values()) == list(ALL_DTYPES)
    assert info.dtypes(device=CPU1) == d


@pytest.mark.parametrize(
    ("kind", "names"),
    [
        ("bool", ["bool"]),
        ("signed integer", ["int8", "int16", "int32", "int64"]),
        ("unsigned integer", ["uint8", "uint16", "uint32", "uint64"]),
        (
            "integral",
            ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"],
        ),
        ("real floating", ["float32", "float64"]),
        ("complex floating", ["complex64", "complex128"]),
        ("numeric", [n for n in DTYPE_NAMES if n != "bool"]),
        (("bool", "real floating"), ["bool", "float32", "float64"]),
        ((), []),
    ],
)
def test_dtypes_by_kind(kind, names):
    d = info.dtypes(kind=kind)
    assert sorted(d) == sorted(names)
    for n, dt in d.items():
        assert dt == getattr(xp, n)
        assert xp.isdtype(dt, kind) if kind != () else True


def test_dtypes_errors():
    with pytest.raises(ValueError):
        info.dtypes(kind="floating")
    with pytest.raises((TypeError, ValueError)):
        info.dtypes(kind=xp.float32)
    with pytest.raises(ValueError):
        info.dtypes(device="cpu:5")
    with pytest.raises(ValueError):
        info.default_dtypes(device="cpu:5")


def test_info_is_keyword_only():
    with pytest.raises(TypeError):
        info.dtypes(CPU0)
    with pytest.raises(TypeError):
        info.default_dtypes(CPU0)
