"""Compute modes for out-of-domain input: compute_mode, DomainWarning, DomainError and the mode-aware functions."""

from __future__ import annotations

__all__: list[str] = []
