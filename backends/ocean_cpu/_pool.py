"""Reuse of the memory of large results (a caching allocator, as CuPy's pool).

A large NumPy result costs more than its loop: memory of more than a few
MiB comes from the operating system (``mmap``) and goes back to it when the
array dies, and every page of a fresh block is faulted in on its first
write.  On 1e7 float64 elements that is a third of ``x + y``'s time.  The
parallel strategies of :mod:`ocean_cpu._parallel` take their results from
this pool instead: a block freed by a dead result is kept and handed to the
next result of the same byte size, already faulted in.  A loop computing
``y = x * 2.5`` repeatedly then writes into warm memory.

How a block comes back: a result is a NumPy view of the block (a ``uint8``
array) made by ``numpy.frombuffer``, whose base is a ``memoryview`` that
NumPy takes of the block; every view of the result keeps that memoryview
alive (NumPy's base chain ends at it), so a finaliser on it runs exactly
when the last array using the block dies, and returns the block.  Nothing
else holds that memoryview, so a block is never handed out while in use
(the tests check this, and that a block is handed out again).

Bounded: the pool keeps at most :func:`limit` bytes of free blocks (by
default an eighth of the memory the process may use, at most 512 MiB;
``OCEAN_CPU_POOL_BYTES`` sets it, ``0`` turns the pool off), blocks of
:data:`MIN_BYTES` or more only; a block that does not fit is freed at once.
:func:`clear` frees every kept block (``ocean_cpu._pool.clear()``).
"""

from __future__ import annotations

import _thread
import os
import weakref
from typing import Any

import numpy as np

__all__ = ["MIN_BYTES", "clear", "empty", "held", "limit"]

MIN_BYTES = 1 << 22  # 4 MiB: smaller blocks come from malloc's own free lists

_free: dict[int, list[np.ndarray]] = {}
_held = 0
# re-entrant: a finaliser (a block coming back) may run inside a critical
# section of the same thread, when an allocation there starts the GC
# (_thread's: ``threading`` is not loaded at import, see _parallel)
_lock = _thread.RLock()


def _default_limit() -> int:
    env = os.environ.get("OCEAN_CPU_POOL_BYTES", "").strip()
    if env:
        try:
            return max(0, int(float(env)))
        except ValueError:
            return 0
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not POSIX
        total = 8 << 30
    return int(min(512 << 20, total // 8))


_limit = _default_limit()


def limit() -> int:
    """The most bytes of free blocks the pool keeps (0: no pool)."""
    return _limit


def held() -> int:
    """The bytes of free blocks the pool keeps now."""
    return _held


def clear() -> None:
    """Free every block the pool keeps."""
    global _held
    with _lock:
        _free.clear()
        _held = 0


def _give_back(raw: np.ndarray) -> None:
    global _held
    nbytes = raw.nbytes
    with _lock:
        if _held + nbytes > _limit:
            return  # freed with raw
        _free.setdefault(nbytes, []).append(raw)
        _held += nbytes


def _after_fork() -> None:
    """In a forked child: a new lock and no free blocks.  The parent's lock
    may have been copied held by a thread the child does not have (one that
    was taking or giving back a block), and would then never be released."""
    global _lock, _held
    _lock = _thread.RLock()
    _free.clear()
    _held = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


def empty(shape: tuple[int, ...], dtype: Any, order: str = "C") -> np.ndarray:
    """``numpy.empty(shape, dtype, order=order)``, from the pool when large."""
    dt = np.dtype(dtype)
    count = 1
    for s in shape:
        count *= s
    nbytes = count * dt.itemsize
    if nbytes < MIN_BYTES or _limit == 0 or dt.hasobject:
        return np.empty(shape, dt, order=order)  # type: ignore[call-overload, no-any-return]
    global _held
    raw = None
    with _lock:
        blocks = _free.get(nbytes)
        if blocks:
            raw = blocks.pop()
            _held -= nbytes
    if raw is None:
        raw = np.empty(nbytes, np.uint8)
    # (through a memoryview: given raw itself, NumPy would make raw the base)
    flat = np.frombuffer(memoryview(raw), dtype=dt, count=count)  # type: ignore[arg-type]
    # the end of the result's base chain: the memoryview NumPy took, which
    # every view of the result keeps alive (and nothing else holds)
    holder = flat.base
    if not isinstance(holder, memoryview) or holder.obj is not raw:
        return flat.reshape(
            shape, order="F" if order == "F" else "C"
        )  # pragma: no cover
    weakref.finalize(holder, _give_back, raw).atexit = False
    return flat.reshape(shape, order="F" if order == "F" else "C")


def empty_like(a: np.ndarray, dtype: Any) -> np.ndarray:
    """``numpy.empty_like(a, dtype=dtype)`` (NumPy's ``order="K"``), from
    the pool when large and ``a`` is C or Fortran contiguous."""
    if a.flags.c_contiguous:
        return empty(a.shape, dtype)
    if a.flags.f_contiguous:
        return empty(a.shape, dtype, order="F")
    return np.empty_like(a, dtype=dtype)
