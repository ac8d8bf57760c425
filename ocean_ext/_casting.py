"""ensure and cast: dtype/device conversion that copies only when needed, or always."""

from __future__ import annotations

__all__: list[str] = []
