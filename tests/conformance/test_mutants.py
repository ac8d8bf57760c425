"""Bug-finding power: every mutant namespace is caught, for the right reason."""

from __future__ import annotations

import pytest

from conformance.mutants import MUTANTS
from conformance.mutants.measure import caught


def test_there_are_enough_mutants():
    assert len(MUTANTS) >= 15
    for named in (
        "var_ignores_correction",
        "fft_ortho_as_backward",
        "searchsorted_ignores_side",
        "hypot_overflows",
        "sign_negative_zero",
        "reshape_truncates",
        "add_int8_uint8_is_int8",
    ):
        assert named in MUTANTS


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_is_caught(name):
    hit, found = caught(name)
    assert hit, f"{name}: {MUTANTS[name].description}; found {found}"
