"""Read-only arrays and memory overlap: set_readonly, is_readonly, ReadOnlyError, shares_memory."""

from __future__ import annotations

__all__: list[str] = []
