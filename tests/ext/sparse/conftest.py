"""ocean_ext.sparse's tests make their arrays on the default device."""

from __future__ import annotations

import pytest

from ...helpers import LAZY_DEFAULT


def pytest_collection_modifyitems(
    config: pytest.Config, items: list[pytest.Item]
) -> None:
    # ocean_ext.sparse runs eager index kernels through the backend's array
    # module; the lazy dask device has none and refuses sparse arrays with a
    # NotImplementedError (tests/backends/test_dask_backend.py checks it).
    if not LAZY_DEFAULT:
        return
    skip = pytest.mark.skip(reason="ocean_ext.sparse is not offered on the dask device")
    for item in items:
        if "tests/ext/sparse/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(skip)
