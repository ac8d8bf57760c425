"""Every ocean_ext docstring's Examples section runs and shows what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ocean_array_api as xp
import ocean_ext

# With the lazy dask device as the default (the separate whole-suite run),
# this module tests eager behaviour; the dask tests cover the lazy side
# (tests/backends/test_dask_backend.py).
pytestmark = pytest.mark.skipif(
    xp.__array_namespace_info__().default_device().kind == "dask",
    reason="the examples show values in reprs; the repr of a lazy array shows none",
)


def _modules():
    yield "ocean_ext"
    for info in pkgutil.walk_packages(ocean_ext.__path__, "ocean_ext."):
        yield info.name


@pytest.mark.parametrize("name", sorted(_modules()))
def test_examples_run(name):
    module = importlib.import_module(name)
    result = doctest.testmod(
        module,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
        verbose=False,
    )
    assert result.failed == 0, f"{result.failed} failing example(s) in {name}"
