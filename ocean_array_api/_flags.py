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


def check_version(version: object, where: str) -> str:
    """Return ``version`` if this package implements it, else raise ValueError."""
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
