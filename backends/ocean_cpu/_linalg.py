"""linalg.* entries of the CPU backend's function table (filled in below)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

OPS: dict[str, Callable[..., Any]] = {}
