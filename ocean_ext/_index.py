"""Reusable index objects: index[...], bind(shape), bind(array)."""

from __future__ import annotations

__all__: list[str] = []
