"""The compiled parts are optional: what is missing is said once, at import
(ocean_array_api/_compiled.py; setup.py makes every extension optional)."""

from __future__ import annotations

import warnings

import pytest

from ocean_array_api import _compiled


def test_a_missing_part_is_named_with_what_it_costs(monkeypatch):
    parts = dict(_compiled.PARTS)
    parts["ocean_array_api._no_such_part"] = (
        "ocean_array_api",
        "_no_such_part",
        "something slower",
    )
    monkeypatch.setattr(_compiled, "PARTS", parts)
    monkeypatch.delenv("OCEAN_ARRAY_API_COMPILED_WARNING", raising=False)
    assert "ocean_array_api._no_such_part" in _compiled.missing()
    with pytest.warns(_compiled.NotCompiledWarning) as record:
        _compiled.warn_if_missing()
    assert len(record) == 1
    msg = str(record[0].message)
    assert "ocean_array_api._no_such_part" in msg
    assert "something slower" in msg
    assert "C compiler" in msg
    assert issubclass(_compiled.NotCompiledWarning, RuntimeWarning)


def test_the_warning_can_be_silenced(monkeypatch):
    parts = {"x._none": ("ocean_array_api", "_none", "slower")}
    monkeypatch.setattr(_compiled, "PARTS", parts)
    monkeypatch.setenv("OCEAN_ARRAY_API_COMPILED_WARNING", "0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _compiled.warn_if_missing()


def test_built_parts_are_found():
    # the fast path's file is where _array_object imported it from
    from ocean_array_api import _array_object

    if not _array_object._FASTPATH:
        pytest.skip("the compiled fast path is not built or is turned off here")
    assert "ocean_array_api._fastpath" not in _compiled.missing()
