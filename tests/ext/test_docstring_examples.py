"""Every ocean_ext docstring's Examples section runs and shows what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ocean_ext


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
