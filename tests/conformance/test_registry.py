"""The registry lists every name of every revision: nothing goes untested silently."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance._spec import generate
from conformance.registry import VERSIONS, build_registry, spec_names

from .conftest import ROOT, tool_env

# The spec's stubs (data-apis/array-api, src/array_api_stubs), e.g. from the
# array-api-tests checkout's submodule; the test that needs them skips without.
STUBS = Path(
    os.environ.get(
        "ARRAY_API_STUBS",
        ROOT.parent / "aat/array-api-tests/array-api/src/array_api_stubs",
    )
)

_OCEAN_NAMES = """
import json, ocean_array_api as xp
a = xp.asarray(1.0)
info = xp.__array_namespace_info__()
print(json.dumps({
    "top": sorted(xp.__all__),
    "linalg": sorted(xp.linalg.__all__),
    "fft": sorted(xp.fft.__all__),
    "array": sorted(n for n in dir(type(a))),
    "info": sorted(n for n in dir(info) if not n.startswith("_")),
}))
"""


@pytest.fixture(scope="module", params=VERSIONS)
def version(request):
    return request.param


@pytest.fixture(scope="module")
def ocean_names(version):
    """ocean_array_api's own public names at ``version`` (a fresh process)."""
    env = tool_env()
    env["OCEAN_ARRAY_API_VERSION"] = version
    out = subprocess.run(
        [sys.executable, "-c", _OCEAN_NAMES],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    return json.loads(out.stdout)


def test_registry_is_the_spec(version):
    reg = build_registry(version)
    assert set(reg) == set(spec_names(version))
    for name, entry in reg.items():
        assert version in entry.versions
        if entry.kind in ("function", "operator", "method", "info"):
            assert entry.params is not None, name


def test_spec_tables_match_ocean_array_api(version, ocean_names):
    """The spec tables and the reference agree, revision by revision."""
    names = spec_names(version)
    top = {n for n in names if "." not in n}
    assert top | {"linalg", "fft"} == set(ocean_names["top"])
    assert {n[7:] for n in names if n.startswith("linalg.")} == set(
        ocean_names["linalg"]
    )
    assert {n[4:] for n in names if n.startswith("fft.")} == set(ocean_names["fft"])
    assert {n[6:] for n in names if n.startswith("Array.")} <= set(ocean_names["array"])
    assert {n[5:] for n in names if n.startswith("info.")} == set(ocean_names["info"])


def test_every_kind_is_covered(version):
    kinds = {e.kind for e in build_registry(version).values()}
    assert kinds == {
        "function",
        "constant",
        "dtype",
        "operator",
        "method",
        "attribute",
        "info",
    }
    reg = build_registry(version)
    for op in (
        "__add__",
        "__radd__",
        "__iadd__",
        "__rshift__",
        "__rrshift__",
        "__irshift__",
    ):
        assert f"Array.{op}" in reg


@pytest.mark.skipif(not STUBS.is_dir(), reason="the spec's stubs are not checked out")
def test_spec_tables_are_generated_from_the_stubs(version):
    assert generate.build(STUBS, version) == spec_names(version)


def test_unknown_version():
    with pytest.raises(ValueError, match="unknown version"):
        spec_names("2022.12")
