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
    """The check while nothing was made read-only through ``ocean_ext``: the
    memory's own flag (a read-only NumPy array, or a view of one).

    A write to such memory raises :class:`ReadOnlyError` before anything else
    is looked at, as it does with ``ocean_ext``'s checker installed: which
    error a write gives never depends on whether some other array was made
    read-only.  The quick write paths (the compiled ones, and
    ``Array.__setitem__``'s) skip this call while it is the default and let
    the backend refuse the write; the full path then calls it first.
    """
    flags = getattr(x._data, "flags", None)
    if flags is not None and not getattr(flags, "writeable", True):
        raise readonly_error(where)


_check = _writable_default

# False while an ``ocean_ext.instrument`` block is active: ``x[key] = value``
# then skips its quick attempt and takes the full path, whose every kernel
# call is the one the counts expect.
quick_setitem = True


def check_writable(x: Any, where: str) -> None:
    """Raise if ``x`` must not be written (``ocean_ext.set_readonly``)."""
    _check(x, where)


def readonly_error(where: str) -> ReadOnlyError:
    """The error for a write that the backend refused as read-only.

    NumPy raises a bare ``ValueError`` ("... is read-only") when the
    destination's writeable flag is off (arrays made from read-only NumPy
    arrays, views taken after ``set_readonly``); the core's write paths turn
    it into this one.
    """
    return ReadOnlyError(
        f"{where}: the array is read-only (or a view of read-only memory); "
        f"write to a copy instead (asarray(x, copy=True))"
    )


def is_readonly_failure(exc: BaseException) -> bool:
    """Whether a backend's ``ValueError`` says the destination is read-only."""
    return "read-only" in str(exc)


class _NoIndexType:
    """Stands for ``ocean_ext.Index`` until ``ocean_ext`` registers it."""


# The class of ``ocean_ext``'s index objects.  ``Array.__getitem__`` and
# ``__setitem__`` compare a key's class with it on their slow path only (after
# the int, slice and array fast paths) and then call ``key._getitem(x)`` /
# ``key._setitem(x, value)``.
index_type: type = _NoIndexType
