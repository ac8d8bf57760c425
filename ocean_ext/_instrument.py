"""Call instrumentation: count kernel calls and time them, per device kind.

``with ocean_ext.instrument() as stats:`` wraps every entry of the function
tables of the loaded backends (the tables are plain dicts looked up at each
call, so wrapping an entry is seen by every caller) and restores them on exit.
Outside such a block nothing is wrapped, so instrumentation costs nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from ocean_array_api import _array_object, _backend, _ext_hooks

__all__ = ["instrument"]

# KernelStats and InstrumentStats are documented return types, reached through
# instrument(); they are not separate public names.


@dataclass
class KernelStats:
    """Calls of one kernel: how many, and their total wall-clock time."""

    count: int = 0
    total_seconds: float = 0.0

    @property
    def mean_seconds(self) -> float:
        """Average time per call (0.0 when never called)."""
        return self.total_seconds / self.count if self.count else 0.0


class InstrumentStats(Mapping[str, KernelStats]):
    """What an :func:`instrument` block recorded.

    ``stats[name]`` sums a kernel over device kinds (a kernel never called
    reads as zero calls, like :class:`collections.Counter`);
    ``stats.device(kind)[name]`` is one device kind's share.  Iteration yields
    the names of the kernels that were called.
    """

    def __init__(self) -> None:
        self._by_kind: dict[str, dict[str, KernelStats]] = {}
        self._lock = threading.Lock()

    def _record(self, kind: str, name: str, seconds: float) -> None:
        with self._lock:
            table = self._by_kind.setdefault(kind, {})
            entry = table.get(name)
            if entry is None:
                entry = table[name] = KernelStats()
            entry.count += 1
            entry.total_seconds += seconds

    def __getitem__(self, name: str) -> KernelStats:
        total = KernelStats()
        for table in self._by_kind.values():
            entry = table.get(name)
            if entry is not None:
                total.count += entry.count
                total.total_seconds += entry.total_seconds
        return total

    def __iter__(self) -> Iterator[str]:
        seen: dict[str, None] = {}
        for table in self._by_kind.values():
            seen.update(dict.fromkeys(table))
        return iter(seen)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, name: object) -> bool:
        return any(name in table for table in self._by_kind.values())

    def device(self, kind: str) -> Mapping[str, KernelStats]:
        """The kernels called on devices of ``kind`` (e.g. ``"cpu"``)."""
        return dict(self._by_kind.get(kind, {}))

    @property
    def kinds(self) -> tuple[str, ...]:
        """Device kinds on which some kernel was called."""
        return tuple(self._by_kind)

    def __repr__(self) -> str:
        rows = sorted(
            (
                (kind, name, s)
                for kind, t in self._by_kind.items()
                for name, s in t.items()
            ),
            key=lambda r: -r[2].total_seconds,
        )
        lines = [f"{'kernel':<24} {'device':<8} {'calls':>8} {'total':>12}"]
        lines += [
            f"{name:<24} {kind:<8} {s.count:>8} {s.total_seconds * 1e3:>10.3f}ms"
            for kind, name, s in rows
        ]
        return "\n".join(lines)


# Process-wide state: the tables are shared by all threads, so one set of
# wrappers serves every active block; each call is recorded in all of them.
_lock = threading.Lock()
_active: list[InstrumentStats] = []
_originals: dict[tuple[str, str], Callable[..., Any]] = {}


def _timed(fn: Callable[..., Any], name: str, kind: str) -> Callable[..., Any]:
    clock = time.perf_counter

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            elapsed = clock() - start
            for stats in tuple(_active):
                stats._record(kind, name, elapsed)

    timed.__name__ = getattr(fn, "__name__", name)
    timed.__wrapped__ = fn  # type: ignore[attr-defined]
    # a backend that keeps entries of another table as its own kernels (the
    # dask backend's per-chunk CPU kernels) recognises and unwraps this
    timed._ocean_instrumented = True  # type: ignore[attr-defined]
    return timed


def _wrap_tables() -> None:
    for kind, backend in list(_backend._loaded.items()):
        if backend is None:
            continue
        ops = backend.ops
        for name, fn in list(ops.items()):
            _originals[(kind, name)] = fn
            ops[name] = _timed(fn, name, kind)


def _unwrap_tables() -> None:
    for (kind, name), fn in _originals.items():
        backend = _backend._loaded.get(kind)
        if backend is not None:
            backend.ops[name] = fn
    _originals.clear()


# While a block is active the compiled fast path steps aside, and so does the
# Python front end's quick attempt at ``x[key] = value``, so every call takes
# the full Python front end and the counts are exactly its counts.  (The
# compiled path runs a read's kernel again in Python after an error: counted
# twice; and a quick attempt runs the kernel where the full path's checks
# would refuse the call first.)  Restored with the last block.
_fastpath_state: list[bool] = []


def _step_aside_quick_paths() -> None:
    _ext_hooks.quick_setitem = False  # the Python front end's own quick path
    fp = getattr(_array_object, "_fp", None)
    if _array_object._FASTPATH and fp is not None:
        _fastpath_state.append(bool(fp._set_enabled(False)))


def _restore_quick_paths() -> None:
    _ext_hooks.quick_setitem = True
    if _fastpath_state:
        _array_object._fp._set_enabled(_fastpath_state.pop())


def _locked(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` under ``_lock``.  On one line on purpose: a ``with`` on
    two lines runs its exit on its own line, where a trace function (and so
    an interrupt injected by one) can stop it before the lock is released."""
    with _lock: return fn(*args)  # noqa: E701  # fmt: skip


def _settle() -> None:
    """Make the tables and quick paths agree with ``_active`` again (after an
    interrupt split a change): idempotent."""
    if not _active:
        _unwrap_tables()
        _restore_quick_paths()


def _join(stats: InstrumentStats) -> None:
    # under _lock; on any exception (an interrupt) nothing has changed
    try:
        if not _active:
            _wrap_tables()
            _step_aside_quick_paths()
        _active.append(stats)
    except BaseException:
        _drop(stats)
        raise


def _drop(stats: InstrumentStats) -> None:
    """Undo ``_join(stats)``, as far as it got: idempotent (under _lock)."""
    # By identity: stats are Mappings, and equal contents compare equal.
    for i, s in enumerate(_active):
        if s is stats:
            del _active[i]
            break
    _settle()


class _Instrument:
    """The context manager :func:`instrument` returns: reusable and reentrant.

    Safe against an interrupt (Ctrl-C) anywhere in its entry and exit: each
    undoes or finishes its change before the interrupt propagates (the
    global part is idempotent; ``_entered`` changes last)."""

    __slots__ = ("_entered",)

    def __init__(self) -> None:
        self._entered: list[InstrumentStats] = []

    def __enter__(self) -> InstrumentStats:
        stats = InstrumentStats()
        try:
            _locked(_join, stats)
            self._entered.append(stats)
            return stats
        except BaseException:
            _locked(_drop, stats)
            if self._entered and self._entered[-1] is stats:
                self._entered.pop()
            raise

    def __exit__(self, *exc: object) -> None:
        try:
            _locked(_drop, self._entered[-1])
            self._entered.pop()
        except BaseException:  # an interrupt stopped it: finish it
            _locked(_drop, self._entered[-1])
            self._entered.pop()
            raise


def instrument() -> AbstractContextManager[InstrumentStats]:
    """Count calls and time of every backend kernel run inside the block.

    Covers calls from both ``ocean_array_api`` and ``ocean_ext``, on every
    device kind whose backend is loaded when the block starts.  Blocks may nest
    or run in several threads at once: each records every kernel call made
    anywhere in the process while it is active.  Views taken without a kernel
    (``x[1:5]``, ``x[i]``) are not counted.  On asynchronous devices (CUDA) the
    time is that of launching the kernel, not of running it.  While a block
    is active, calls take the Python front end (the compiled fast path steps
    aside), so each kernel call is counted as the front end makes it.

    Returns
    -------
    contextlib.AbstractContextManager
        ``with ... as stats`` binds a new :class:`InstrumentStats` for the block:
        ``stats["add"].count``, ``stats["add"].total_seconds``, and
        ``stats.device("cpu")`` for one device kind.  The same object may be
        entered again, also while it is active; each entry records into new
        stats.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.ones(1000)
    >>> with ocean_ext.instrument() as stats:
    ...     y = xp.exp(x) + x
    >>> stats["exp"].count, stats["add"].count
    (1, 1)
    >>> stats.device("cpu")["exp"].count
    1
    """
    return _Instrument()
