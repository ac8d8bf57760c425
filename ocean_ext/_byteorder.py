"""Byte order: byteorder, is_byteswapped, byteswap, reinterpret_byteorder, asarray."""

from __future__ import annotations

__all__: list[str] = []
