"""utility_functions of the Array API standard (being written)."""

from __future__ import annotations

__all__: list[str] = []
