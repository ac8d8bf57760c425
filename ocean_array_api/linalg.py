"""The ``linalg`` extension of the Array API standard (being written)."""

from __future__ import annotations

__all__: list[str] = []
