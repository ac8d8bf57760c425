"""Hooks through which ``ocean_ext`` extends the core without the core importing it.

The core calls these on its write paths; ``ocean_ext`` replaces the
implementations (read-only arrays).  Defaults cost one function call.
"""

from __future__ import annotations

from typing import Any


def _writable_default(x: Any, where: str) -> None:
    return None


_check = _writable_default


def check_writable(x: Any, where: str) -> None:
    """Raise if ``x`` must not be written (``ocean_ext.set_readonly``)."""
    _check(x, where)
