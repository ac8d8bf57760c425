"""Call instrumentation: instrument() counts calls and time per kernel and device kind."""

from __future__ import annotations

__all__: list[str] = []
