"""``hypothesis.strategies`` with the strategies the families build on every
draw cached: a new strategy object is validated on its first draw, and that
validation was a fifth of a run's time.  Everything else passes through."""

from __future__ import annotations

import functools
from typing import Any

from hypothesis import strategies as _st

__all__ = ["st"]


@functools.cache
def _integers(lo: Any, hi: Any) -> Any:
    return _st.integers(lo, hi)


@functools.cache
def _sampled(values: tuple) -> Any:
    return _st.sampled_from(values)


@functools.cache
def _lists(elements: Any, min_size: int, max_size: Any, unique: bool) -> Any:
    return _st.lists(elements, min_size=min_size, max_size=max_size, unique=unique)


@functools.cache
def _permutations(values: tuple) -> Any:
    return _st.permutations(values)


_BOOLEANS = _st.booleans()
_NONE = _st.none()


class _Strategies:
    def __getattr__(self, name: str) -> Any:
        return getattr(_st, name)

    @staticmethod
    def integers(min_value: Any = None, max_value: Any = None) -> Any:
        return _integers(min_value, max_value)

    @staticmethod
    def sampled_from(elements: Any) -> Any:
        try:
            return _sampled(tuple(elements))
        except TypeError:  # unhashable values
            return _st.sampled_from(elements)

    @staticmethod
    def booleans() -> Any:
        return _BOOLEANS

    @staticmethod
    def none() -> Any:
        return _NONE

    @staticmethod
    def lists(
        elements: Any, *, min_size: int = 0, max_size: Any = None, unique: bool = False
    ) -> Any:
        return _lists(elements, min_size, max_size, unique)

    @staticmethod
    def permutations(values: Any) -> Any:
        return _permutations(tuple(values))


st = _Strategies()
