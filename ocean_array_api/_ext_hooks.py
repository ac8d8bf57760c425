"""Hooks through which ``ocean_ext`` extends the core without the core importing it.

The core calls these on its write paths; ``ocean_ext`` replaces the
implementations (read-only arrays).  Defaults cost one function call.
"""

from __future__ import annotations

from typing import Any


class ReadOnlyError(ValueError):
    """A write to a read-only array, or to a view of one.

    Public as ``ocean_ext.ReadOnlyError``; defined here so that the core's
    write paths can raise it without importing ``ocean_ext``.
    """


def _writable_default(x: Any, where: str) -> None:
    return None


_check = _writable_default


def check_writable(x: Any, where: str) -> None:
    """Raise if ``x`` must not be written (``ocean_ext.set_readonly``)."""
    _check(x, where)
