"""Differential features per standard name, one module per section of the standard.

Each feature draws a recorded :class:`~conformance.calls.Call` on the
reference with Hypothesis; the runner runs it on both namespaces and compares.
The modules follow the standard's sections (and the reference's own modules):
:mod:`.elementwise_functions` (values, special cases, promotion),
:mod:`.array_object` (operators, reflected and in-place, indexing,
conversions, DLPack), :mod:`.creation_functions`, :mod:`.data_type_functions`,
:mod:`.statistical_functions`, :mod:`.utility_functions`,
:mod:`.manipulation_functions`, :mod:`.indexing_functions`,
:mod:`.searching_functions`, :mod:`.sorting_functions`, :mod:`.set_functions`,
:mod:`.linear_algebra_functions`, :mod:`.linalg` and :mod:`.fft`; what they
share is in :mod:`._base`.  Names absent from :data:`FEATURES` get presence and
signature checks only.
"""

from __future__ import annotations

from . import (  # noqa: F401  (each module adds its features to FEATURES)
    array_object,
    creation_functions,
    data_type_functions,
    elementwise_functions,
    fft,
    indexing_functions,
    linalg,
    linear_algebra_functions,
    manipulation_functions,
    searching_functions,
    set_functions,
    sorting_functions,
    statistical_functions,
    utility_functions,
)
from ._base import FEATURES, KINDS, _cap, dtypes_of
from .aat import aat_test_id

__all__ = ["FEATURES", "KINDS", "_cap", "aat_test_id", "dtypes_of"]
