"""Constants of the Array API standard."""

from __future__ import annotations

import math

__all__ = ["e", "inf", "nan", "newaxis", "pi"]

e = math.e
inf = math.inf
nan = math.nan
pi = math.pi
newaxis = None
