"""Which revision of the Array API standard this process serves.

The module ``ocean_array_api`` behaves as the revision named by the environment
variable ``OCEAN_ARRAY_API_VERSION`` (default: the newest).  Other revisions are
reached the standard way, through ``x.__array_namespace__(api_version=...)``,
which returns a namespace object built for that revision (see ``_namespace``).
"""

from __future__ import annotations

import os

SUPPORTED_VERSIONS: tuple[str, ...] = ("2023.12", "2024.12", "2025.12")
NEWEST_VERSION = "2025.12"


class VersionTypeError(TypeError, ValueError):
    """An API version that is not a string: a TypeError (the wrong kind of
    argument), and a ValueError as every unsupported version is (as NumPy's
    AxisError is both a ValueError and an IndexError)."""


def check_version(version: object, where: str) -> str:
    """Return ``version`` if this package implements it, else raise ValueError
    (TypeError for something other than a string)."""
    if version.__class__ is not str:  # (an object equal to everything passed)
        msg = (
            f"{where}: API version must be a string such as {NEWEST_VERSION!r}, "
            f"got {type(version).__name__} {version!r:.60}"
        )
        raise VersionTypeError(msg)
    if version not in SUPPORTED_VERSIONS:
        msg = (
            f"{where}: API version must be one of {', '.join(SUPPORTED_VERSIONS)}, "
            f"got {version!r}"
        )
        raise ValueError(msg)
    return version  # type: ignore[return-value]


API_VERSION: str = check_version(
    os.environ.get("OCEAN_ARRAY_API_VERSION", NEWEST_VERSION) or NEWEST_VERSION,
    "OCEAN_ARRAY_API_VERSION",
)


def at_least(version: str, wanted: str) -> bool:
    """True when revision ``version`` is ``wanted`` or newer ("YYYY.MM" sorts)."""
    return version >= wanted
