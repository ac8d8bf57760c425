"""Fixtures shared by the dask device's test modules (which skip, with the
reason, where dask is not installed)."""

from __future__ import annotations

import pytest


@pytest.fixture
def runs():
    """Counts graph executions: each call of the scheduler is one run."""
    import dask

    count = {"n": 0}

    def counting_get(dsk, keys, **kwargs):
        count["n"] += 1
        return dask.get(dsk, keys, **kwargs)

    with dask.config.set(scheduler=counting_get):
        yield count
