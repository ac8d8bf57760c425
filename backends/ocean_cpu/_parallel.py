"""Large CPU operations on several threads.

NumPy runs every ufunc loop on one thread, but releases the GIL inside the
loop, so slices of one operation can run at once on a pool of threads, each
calling the same loop on its part.  This module holds that pool, the thread
count (``threads``, ``OCEAN_NUM_THREADS``, the cores the process may use), and
one *strategy* per kind of table entry that splits a large call into parts.

How an entry becomes parallel: :func:`wrap` replaces it in the backend's table
by a ``Parallel`` object (``ocean_cpu._parallel_c``, compiled; its twin is
:class:`ParallelPy`).  A call whose arrays are all below the entry's size
threshold goes straight to the wrapped function (a few nanoseconds), so small
arrays keep their speed; a larger one calls the strategy,
``strategy(func, *args, **kwargs)``.

Results never depend on the number of threads.  A large call is cut into
parts that depend on its shape only, and one thread runs the same parts in
turn, so every bit is the same on 1 or 16 threads:

- elementwise results (functions, operators, in place or not, ``where``,
  ``astype``, ``clip``, copies) are the wrapped function's values: every
  element is computed by the same NumPy loop, only the slices differ (NumPy
  may give a NaN another sign or payload on a slice that starts or ends
  elsewhere, SIMD body or scalar tail: the reason the parts are fixed);
- a reduction along some axes with a kept axis of four or more elements is
  split along a kept axis, so each result element is computed by NumPy over
  the same data as in one call: NumPy's values;
- a reduction over every element (or whose kept axes are all of one element)
  reduces fixed blocks of :data:`CHUNK` elements, each with NumPy's
  reduction, and combines the block results in a fixed order.  Sums of
  floating-point blocks are combined exactly (``math.fsum``, correctly
  rounded), so the error is that of NumPy's pairwise sum over one block plus
  one rounding, within the bound of NumPy's pairwise sum over the whole,
  though the last bits may differ from NumPy's.

Floating-point errors (``numpy.errstate``) follow the caller's policy, and a
warning is given once per call, as one NumPy call gives it: the parts run
with NumPy's ``call`` handler collecting the errors, which are then reported
in the calling thread in NumPy's order.

No oversubscription: a call made in any thread but the main thread (a dask
task, a thread pool's worker) uses one thread unless a ``threads(n)`` block in
that thread says otherwise; while one operation uses the pool, another that
comes from a second thread runs alone in its own thread; BLAS is left alone
(``matmul`` and ``linalg`` are not wrapped).
"""

from __future__ import annotations

import _queue
import _thread
import contextlib
import contextvars
import itertools
import math
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import _pool as _mem

ndarray = np.ndarray

try:  # compiled by setup.py; absent in a source checkout that was not built
    from . import _parallel_c  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - depends on the build
    _parallel_c = None

__all__ = [
    "CHUNK",
    "LIMITS",
    "Elementwise",
    "ParallelPy",
    "current_threads",
    "default_threads",
    "limits",
    "threads",
    "usable_cores",
    "wrap",
]

# --- thresholds --------------------------------------------------------------
# Which operands count, for the size test (see src/parallel.c).
M_ALL, M_FIRST, M_SEQUENCE, M_THIRD = 0, 1, 2, 3

# Thresholds, in elements, by kind of work: from what size a call takes the
# parallel strategy.  Measured with benchmarks/bench_threshold.py (three runs
# on a quiet 2-core virtual machine, 2026-11-28): the sizes from which every
# operation of the kind ran faster on two threads than in one call in every
# run (but ``exp`` at 2**19 in one run: 1.04x; 0.57x to 0.81x for the others
# and in the other runs).  Below them a second thread does not win back what
# handing it the work costs, mostly the wake-up of an idle core (the
# worker's, and those of the GIL's hand-overs between the threads); earlier
# thresholds (2**17, 2**14, 2**17), measured on a loaded machine whose cores
# never slept, made copies and reductions 1.3 to 5x slower than one call from
# 2**17 to 2**20 elements.
COPY, MATH, REDUCE = 0, 1, 2
LIMITS: dict[str, tuple[int, int]] = {
    # name: (index, elements)
    "copy": (COPY, 1 << 22),  # memory-bound: copies, casts, + * < ...
    "math": (MATH, 1 << 19),  # exp, sin, log, ...: compute-bound
    "reduce": (REDUCE, 1 << 22),  # sum, max, ...
}

_py_limits = [sys.maxsize] * 8


def _set_limit(index: int, value: int) -> int:
    old = _py_limits[index]
    _py_limits[index] = value
    if _parallel_c is not None:
        _parallel_c.set_limit(index, value)
    return old


for _index, _value in LIMITS.values():
    _set_limit(_index, _value)


def _put_limits(values: Sequence[int]) -> None:
    """Set every threshold to its value in ``values`` (``_py_limits``'s
    layout): idempotent, so that an interrupted restore can run again."""
    for index, _ in LIMITS.values():
        _set_limit(index, values[index])


def limits(**sizes: int) -> _Limits:
    """Change thresholds in a ``with`` block (``copy=``, ``math=``, ``reduce=``;
    process-wide, for tests and measurements)."""
    return _Limits(sizes)


class _Limits(contextlib.ContextDecorator):
    """The context manager :func:`limits` returns: reusable and reentrant.

    Safe against an interrupt (Ctrl-C) anywhere in its entry and exit:
    ``__enter__`` restores the thresholds when it raises (``with`` then calls
    no ``__exit__``), and ``__exit__`` finishes an interrupted restore in its
    ``except`` clause (the restore is idempotent)."""

    __slots__ = ("_saved", "_sizes")

    def __init__(self, sizes: dict[str, int]) -> None:
        self._sizes = sizes
        self._saved: list[list[int]] = []  # the thresholds replaced, innermost last

    def __enter__(self) -> None:
        new = [(LIMITS[name][0], int(value)) for name, value in self._sizes.items()]
        old = _py_limits[:]
        saved = self._saved
        try:
            saved.append(old)
            for index, value in new:
                _set_limit(index, value)
        except BaseException:
            _put_limits(old)
            if saved and saved[-1] is old:
                saved.pop()
            raise

    def __exit__(self, *exc: object) -> None:
        try:
            _put_limits(self._saved[-1])
            self._saved.pop()
        except BaseException:  # an interrupt stopped it: finish it
            _put_limits(self._saved[-1])
            self._saved.pop()
            raise


# --- the thread count --------------------------------------------------------
def usable_cores() -> int:
    """The cores this process may use: its CPU affinity, capped by a cgroup's
    CPU quota (``cpu.max``, rounded up) where one is set."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        n = os.cpu_count() or 1
    quota = _cgroup_quota()
    if quota is not None:
        n = min(n, quota)
    return max(1, n)


def _cgroup_quota(
    root: str = "/sys/fs/cgroup", proc: str = "/proc/self/cgroup"
) -> int | None:
    """The CPU quota of this process's cgroup and its parents (cgroup v2
    ``cpu.max``; v1 ``cpu.cfs_quota_us``), in whole CPUs, or None."""
    best: int | None = None

    def take(quota: float, period: float) -> None:
        nonlocal best
        if quota > 0 and period > 0:
            q = max(1, math.ceil(quota / period))
            best = q if best is None else min(best, q)

    paths = [f"{root}/cpu.max"]
    try:
        with open(proc) as f:
            for line in f:
                if line.startswith("0::"):
                    rel = line[3:].strip().strip("/")
                    parts = rel.split("/") if rel else []
                    for i in range(len(parts), 0, -1):
                        paths.append(f"{root}/{'/'.join(parts[:i])}/cpu.max")
    except OSError:
        pass
    for path in paths:
        try:
            with open(path) as f:
                fields = f.read().split()
        except OSError:
            continue
        if len(fields) == 2 and fields[0] != "max":
            with contextlib.suppress(ValueError):
                take(float(fields[0]), float(fields[1]))
    try:
        with open(f"{root}/cpu/cpu.cfs_quota_us") as f:
            q = float(f.read())
        with open(f"{root}/cpu/cpu.cfs_period_us") as f:
            take(q, float(f.read()))
    except (OSError, ValueError):
        pass
    return best


ENV = "OCEAN_NUM_THREADS"


def default_threads() -> int:
    """``OCEAN_NUM_THREADS`` if set (a positive integer), else the usable cores."""
    value = os.environ.get(ENV, "").strip()
    if value:
        try:
            n = int(value)
        except ValueError:
            n = 0
        if n >= 1:
            return n
        warnings.warn(
            f"{ENV}={value!r} is not a positive integer; using the "
            f"{usable_cores()} cores this process may use",
            RuntimeWarning,
            stacklevel=2,
        )
    return usable_cores()


_default = default_threads()
_var: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "ocean_cpu.threads", default=None
)
_get = _var.get
# (threading is not imported here: ``import ocean_array_api`` stays cheap; a
# process that runs threads has imported it, and until then the thread that
# imported this module is taken for the main thread)
_import_ident = _thread.get_ident()


def _main_ident() -> int | None:
    threading = sys.modules.get("threading")
    if threading is None:
        return _import_ident
    return threading.main_thread().ident  # type: ignore[no-any-return]


def current_threads() -> int:
    """How many threads a large operation started here may use now."""
    n = _get()
    if n is not None:
        return n
    if _thread.get_ident() != _main_ident():
        return 1  # a dask task, a pool's worker: never oversubscribe
    return _default


def threads(n: int | None) -> _Threads:
    """Let large operations started in this block (this thread, this asyncio
    task) use ``n`` threads (None: the default); ``as`` gives the count in
    effect."""
    return _Threads(n)


class _Threads(contextlib.ContextDecorator):
    """The context manager :func:`threads` returns: reusable and reentrant.

    Safe against an interrupt (Ctrl-C) anywhere inside: ``__enter__`` undoes
    its change when it raises (``with`` then calls no ``__exit__``), and
    ``__exit__`` is one line of C calls."""

    __slots__ = ("_n", "_tokens")

    def __init__(self, n: int | None) -> None:
        self._n = n
        self._tokens: list[contextvars.Token[int | None]] = []  # innermost last

    def __enter__(self) -> int:
        tokens = self._tokens
        depth = len(tokens)
        try:
            tokens.append(_var.set(self._n))
            return current_threads()
        except BaseException:
            if len(tokens) > depth:
                _var.reset(tokens.pop())
            raise

    def __exit__(self, *exc: object) -> None:
        _var.reset(self._tokens.pop())


def _reload_default() -> int:
    """Read ``OCEAN_NUM_THREADS`` and the usable cores again (for tests)."""
    global _default
    _default = default_threads()
    return _default


# --- the pool -------------------------------------------------------------------
# Interrupts (KeyboardInterrupt, an exception from a signal handler) arrive in
# the main thread only, between bytecodes, so the calling thread must never
# hold a piece of the job's bookkeeping that an interrupt could split.  The
# workers keep it all: ``active`` counts the workers inside an item (changed
# under the job's lock, by workers only), and a worker puts a token into
# ``idle`` each time ``active`` falls to 0.  The caller only takes items
# (``next``, one C call), sets ``stop`` (one store) and waits with
# ``while job.active: idle.get()``, a loop that a lost token or an interrupt
# cannot break: it tests the workers' state, not what it was told.
class _Job:
    """``fn(i)`` for ``i`` in ``range(n)``, items taken in turn by the caller
    (:meth:`work`) and every worker given the job (:meth:`run_in_worker`);
    after the first exception (or ``stop``) the remaining items are skipped.
    The caller waits (:meth:`settle`) for the items the workers started, not
    for the workers: a worker that the operating system wakes late finds no
    item left and touches nothing."""

    __slots__ = ("active", "ctx", "error", "fn", "idle", "lock", "n", "next", "stop")

    def __init__(self, fn: Callable[[int], None], n: int) -> None:
        self.fn = fn
        self.n = n
        self.next = itertools.count().__next__  # atomic under the GIL
        self.lock = _thread.allocate_lock()
        self.idle: _queue.SimpleQueue[None] = _queue.SimpleQueue()
        self.active = 0  # workers inside an item (workers' bookkeeping)
        self.stop = False
        self.error: BaseException | None = None
        self.ctx = contextvars.copy_context()

    def work(self) -> None:
        """The caller's share: items until none is left (an exception of
        ``fn`` propagates; the caller then stops the job)."""
        fn, n, take = self.fn, self.n, self.next
        while not self.stop:
            i = take()
            if i >= n:
                return
            fn(i)

    def _work_in_worker(self) -> None:
        fn, n, take, lock, idle = self.fn, self.n, self.next, self.lock, self.idle
        while True:
            with lock:
                self.active += 1  # before the item is taken: see settle
            i = take()
            if i < n and not self.stop:
                try:
                    fn(i)
                except BaseException as exc:  # re-raised by the caller
                    if self.error is None:
                        self.error = exc
                    self.stop = True
            with lock:
                self.active -= 1
                quiet = self.active == 0
            if quiet:
                idle.put(None)
            if i >= n or self.stop:
                return

    def run_in_worker(self) -> None:
        # the caller's context (NumPy's errstate, our thread count), one copy
        # per thread (a context is entered by one thread at a time)
        self.ctx.copy().run(self._work_in_worker)

    def settle(self) -> BaseException | None:
        """Wait until no worker is inside an item and none will start one;
        called once every item is taken or ``stop`` is set.  A worker counts
        itself active before it takes an item and tests ``stop`` after, so
        ``active == 0`` then means that no worker touches the operands any
        more.  An exception raised while waiting (an interrupt) stops the job
        and is returned, once the wait is over, for the caller to raise."""
        caught: BaseException | None = None
        get = self.idle.get
        while True:
            try:
                while self.active:
                    get()
                return caught
            except BaseException as exc:
                self.stop = True
                if caught is None:
                    caught = exc


class _Pool:
    """Worker threads, started when first needed and kept (daemons)."""

    def __init__(self) -> None:
        # held by the one operation running.  Re-entrant: were an interrupt to
        # land between its acquire and the ``try`` that releases it, the main
        # thread would still take it later (others then run alone, as they
        # do while an operation runs), not lose the pool for good
        self.lock = _thread.RLock()
        self.queues: list[_queue.SimpleQueue[_Job]] = []

    def _grow(self, n: int) -> None:
        import threading  # on first use only

        while len(self.queues) < n:
            q: _queue.SimpleQueue[_Job] = _queue.SimpleQueue()
            t = threading.Thread(
                target=_worker, args=(q,), name=f"ocean-cpu-{len(self.queues)}",
                daemon=True,
            )  # fmt: skip
            t.start()
            self.queues.append(q)

    def run(self, fn: Callable[[int], None], n: int, nthreads: int) -> None:
        """``fn(i)`` for ``i`` in ``range(n)`` on up to ``nthreads`` threads.
        When it returns or raises, no worker runs ``fn`` any more: an
        exception (of a part, or an interrupt of the caller) stops the items
        not yet started and waits for those that are."""
        nthreads = min(nthreads, n)
        if nthreads <= 1 or not self.lock.acquire(blocking=False):
            for i in range(n):
                fn(i)
            return
        try:
            self._grow(nthreads - 1)
            job = _Job(fn, n)
            try:
                for q in self.queues[: nthreads - 1]:
                    q.put(job)
                job.work()
                error = job.settle()
            except BaseException:
                # the caller's own exception (a part, an interrupt): stop the
                # job, wait for the items the workers started, then raise it
                job.stop = True
                job.settle()
                raise
            finally:
                # a worker woken late finds no item, and must not keep fn
                # (and the result it writes) alive until it wakes
                job.fn = _no_item
        finally:
            self.lock.release()
        if error is None:
            error = job.error
        if error is not None:
            raise error


def _no_item(i: int) -> None:  # pragma: no cover - never called
    """What a finished job holds instead of its function (nothing to keep)."""


def _worker(q: _queue.SimpleQueue[_Job]) -> None:
    get = q.get
    while True:
        get().run_in_worker()


_pool = _Pool()


def _after_fork() -> None:  # the child has none of the parent's threads
    global _pool
    _pool = _Pool()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork)


# --- floating-point errors ----------------------------------------------------------
_KINDS = (
    ("divide", "divide by zero"),
    ("over", "overflow"),
    ("under", "underflow"),
    ("invalid", "invalid value"),
)
_OUR_PACKAGES = ("ocean_cpu", "ocean_array_api", "ocean_ext")


class _Collect:
    """A ``numpy.seterrcall`` handler that records the errors of the parts."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    def __call__(self, errtype: str, flag: int) -> None:
        self.seen.setdefault(errtype, flag)


def _stacklevel() -> int:
    """The warnings stack level of the first frame outside our packages."""
    level = 1
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if not name.startswith(_OUR_PACKAGES):
            return level
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def _report(seen: dict[str, int], policy: Any, name: str) -> None:
    """Report the collected errors as one NumPy call named ``name`` would."""
    for key, errtype in _KINDS:
        if errtype not in seen:
            continue
        action = policy[key]
        msg = f"{errtype} encountered in {name}"
        if action == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=_stacklevel())
        elif action == "raise":
            raise FloatingPointError(msg)
        elif action == "call":
            handler: Any = np.geterrcall()
            if handler is not None:
                handler(errtype, seen[errtype])
        elif action == "print":
            print(f"Warning: {msg}", file=sys.stderr)
        elif action == "log":
            handler = np.geterrcall()
            if handler is not None:  # an object with a write method
                handler.write(f"Warning: {msg}\n")


def _run(fn: Callable[[int], None], n: int, nthreads: int, name: str) -> None:
    """``fn(i)`` for every ``i`` in ``range(n)`` on up to ``nthreads`` threads,
    floating-point errors reported once, as NumPy's ``name`` reports them."""
    if n == 1:
        fn(0)
        return
    collect = _Collect()
    # NumPy's error state is a context variable: set in a copy of the
    # caller's context, it can never stay set in the caller's own, even when
    # an interrupt lands inside ``errstate``'s enter or exit
    contextvars.copy_context().run(_run_collecting, fn, n, nthreads, collect)
    if collect.seen:  # what the caller's policy says of them
        _report(collect.seen, np.geterr(), name)


def _run_collecting(
    fn: Callable[[int], None], n: int, nthreads: int, collect: _Collect
) -> None:
    """:meth:`_Pool.run` with every floating-point error going to ``collect``
    (in a copied context: see :func:`_run`)."""
    np.seterrcall(collect)
    np.seterr(all="call")
    _pool.run(fn, n, nthreads)


# --- layout helpers ------------------------------------------------------------------
def _outer_axis(a: ndarray) -> int | None:
    """The axis of ``a`` with the largest stride among those of two elements
    or more (slices along it are the largest contiguous pieces), or None."""
    if a.ndim == 1:
        return 0 if a.shape[0] >= 2 else None
    best, stride = None, -1
    for i, (n, s) in enumerate(zip(a.shape, a.strides, strict=True)):
        if n >= 2 and abs(s) > stride:
            best, stride = i, abs(s)
    return best


def _bounds(extent: int, n: int) -> list[int]:
    return [extent * i // n for i in range(n + 1)]


# The partition of a large call depends on its shape only, never on the
# thread count, and one thread runs the same parts in turn: NumPy's loops may
# give a NaN another sign or payload depending on where a slice starts and
# how long it is (SIMD body or scalar tail), so the same parts on every
# thread count is what keeps every bit the same.
_PART = 1 << 17  # elements per part, about (memory-bound work) ...
_MATH_PART = 1 << 13  # ... and for work that computes more than it moves
_MIN_PARTS = 2  # at least (so that two threads share the work) ...
_MAX_PARTS = 64  # ... and at most (each part costs a call, about 1 us)


def _n_items(size: int, extent: int, part_size: int = _PART) -> int:
    """How many parts to cut an axis of ``extent`` into (``size`` elements
    in all, parts of about ``part_size``).  Every part keeps two elements or
    more along it: NumPy takes other loops for an operand of one element
    (``power`` with an exponent of 0.5 becomes ``sqrt``), and drops an axis
    of one element from a reduction's iteration, which changes the order of
    its sums."""
    want = min(_MAX_PARTS, max(_MIN_PARTS, size // part_size))
    return max(1, min(extent // 2, want))


def _axis_order(a: ndarray) -> tuple[int, ...]:
    """``a``'s axes from the largest stride to the smallest."""
    return tuple(sorted(range(a.ndim), key=lambda i: -abs(a.strides[i])))


def _empty_like_operands(
    shape: tuple[int, ...], dtype: np.dtype, arrays: Sequence[ndarray]
) -> ndarray:
    """A result array laid out as NumPy lays out a ufunc's result: like the
    full-shape operand (in its memory order, NumPy's ``order="K"``) when there
    is one or when all have their axes in the same memory order, in C or
    Fortran order when all full-shape operands agree on it, else in C
    order."""
    full = [a for a in arrays if a.shape == shape]
    if len(full) == 1:
        a = full[0]
        if 0 not in a.strides:
            return _mem.empty_like(a, dtype)
    elif full:
        a = full[0]
        if all(0 not in b.strides for b in full):
            order = _axis_order(a)
            if all(_axis_order(b) == order for b in full[1:]):
                return _mem.empty_like(a, dtype)  # one memory order: NumPy's "K"
        if all(a.flags.c_contiguous for a in full):
            return _mem.empty(shape, dtype)
        if all(a.flags.f_contiguous for a in full):
            return _mem.empty(shape, dtype, order="F")
    return _mem.empty(shape, dtype)


_dtypes: dict[tuple[Any, ...], np.dtype] = {}


def _result_dtype(func: Callable[..., Any], args: Sequence[Any]) -> np.dtype | None:
    """The dtype of ``func(*args)``, found once per function and operand
    dtypes (Python scalars by type: NumPy 2 resolves dtypes from those only)
    by calling ``func`` on one element of each operand; None for a result
    that is no single array."""
    key = (
        func.func if func.__class__ is _NameAs else func,  # type: ignore[attr-defined]
        *[a.dtype if a.__class__ is ndarray else a.__class__ for a in args],
    )
    dt = _dtypes.get(key)
    if dt is None:
        with np.errstate(all="ignore"):
            probe = func(*[_first(a) for a in args])
        if isinstance(probe, tuple):
            return None
        dt = np.asarray(probe).dtype
        if len(_dtypes) > 4096:
            _dtypes.clear()
        _dtypes[key] = dt
    return dt


def _first(a: Any) -> Any:
    """One element of ``a`` (an array keeps its dimensions), for probes."""
    if a.__class__ is ndarray and a.ndim:
        return a[(slice(0, 1),) * a.ndim]
    return a


def _cutter(a: Any, axis: int, ndim: int) -> Callable[[slice], Any]:
    """The part of operand ``a`` (broadcast against ``ndim`` dimensions) for a
    slice along ``axis`` of the result."""
    if not isinstance(a, ndarray):
        return lambda sl: a
    ax = axis - (ndim - a.ndim)
    if ax < 0 or a.shape[ax] == 1:
        return lambda sl: a
    head = (slice(None),) * ax
    return lambda sl: a[_key(head, sl)]


_CACHE_ELEMENTS = 1 << 15  # a piece of two-pass work that stays in the L2 cache


def _cache_step(size: int, extent: int) -> int:
    """Rows (along an axis of ``extent``, ``size`` elements in all) per piece
    of two-pass work: fixed by the shape, as the parts are."""
    per_row = max(1, size // max(extent, 1))
    return max(1, _CACHE_ELEMENTS // per_row)


def _key(head: tuple[Any, ...], last: Any) -> tuple[Any, ...]:
    """``head`` and then ``last``: an index of a part."""
    return (*head, last)


# --- strategies: elementwise ---------------------------------------------------------
def _elementwise(
    func: Callable[..., Any],
    part_size: int,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> Any:
    """A large elementwise call: the result's outermost axis cut in parts of
    about ``part_size`` elements, each computed by ``func`` into its slice of
    the result (``out=``)."""
    out = kwargs.get("out")
    if kwargs and (len(kwargs) > 1 or "out" not in kwargs):
        return func(*args, **kwargs)
    arrays = [a for a in args if a.__class__ is ndarray]
    if not arrays:
        return func(*args, **kwargs)
    if out is not None:
        if out.__class__ is not ndarray:
            return func(*args, **kwargs)
        shape = out.shape
        for a in arrays:
            if a is not out and np.may_share_memory(a, out):
                return func(*args, **kwargs)  # NumPy buffers overlapping operands
        try:
            if np.broadcast(out, *arrays).shape != shape:
                return func(*args, **kwargs)
        except ValueError:
            return func(*args, **kwargs)
        res = out
    else:
        if len(arrays) == 1:
            shape = arrays[0].shape
        else:
            try:
                shape = np.broadcast(*arrays).shape
            except ValueError:
                return func(*args, **kwargs)  # raises as NumPy does
        dt = _result_dtype(func, args)
        if dt is None:
            return func(*args, **kwargs)
        res = _empty_like_operands(shape, dt, arrays)
    ndim = len(shape)
    axis = _outer_axis(res)
    if axis is None:
        return func(*args, **kwargs)
    extent = shape[axis]
    n = _n_items(res.size, extent, part_size)
    if n < 2:
        return func(*args, **kwargs) if out is None else func(*args, out=out)
    bounds = _bounds(extent, n)
    # a ufunc takes its output as a positional argument (cheaper to pass)
    positional = isinstance(func, np.ufunc) and func.nin == len(args)
    if ndim == 1:
        part = _part_1d(func, args, res, bounds, positional)
    else:
        cuts = [_cutter(a, axis, ndim) for a in args]
        head = (slice(None),) * axis

        def part(i: int) -> None:
            sl = slice(bounds[i], bounds[i + 1])
            func(*[c(sl) for c in cuts], out=res[_key(head, sl)])

    _run(part, n, current_threads(), getattr(func, "__name__", "ufunc"))
    return res


def _part_1d(
    func: Callable[..., Any],
    args: tuple[Any, ...],
    res: ndarray,
    bounds: list[int],
    positional: bool,
) -> Callable[[int], None]:
    """The part function of a 1-D elementwise call (the common case, without
    the generic path's per-part list: each part costs about a microsecond)."""
    # the operands that vary along the axis (one of one element, or 0-d,
    # broadcasts whole)
    cut = [a.__class__ is ndarray and a.ndim == 1 and a.shape[0] != 1 for a in args]
    if positional and len(args) == 1 and cut[0]:
        (a,) = args

        def unary(i: int) -> None:
            lo, hi = bounds[i], bounds[i + 1]
            func(a[lo:hi], res[lo:hi])

        return unary
    if positional and len(args) == 2 and cut[0]:
        a, b = args
        if cut[1]:

            def binary(i: int) -> None:
                lo, hi = bounds[i], bounds[i + 1]
                func(a[lo:hi], b[lo:hi], res[lo:hi])

            return binary

        def left(i: int) -> None:
            lo, hi = bounds[i], bounds[i + 1]
            func(a[lo:hi], b, res[lo:hi])

        return left

    def part(i: int) -> None:
        lo, hi = bounds[i], bounds[i + 1]
        ops = [a[lo:hi] if c else a for a, c in zip(args, cut, strict=True)]
        if positional:
            func(*ops, res[lo:hi])
        else:
            func(*ops, out=res[lo:hi])

    return part


class Elementwise:
    """The strategy of elementwise entries: parts of about :data:`_PART`
    elements, or :data:`_MATH_PART` for work that computes more than it moves
    (``math``); ``name``: NumPy's name of the operation, for the messages of
    floating-point errors (None: the function's own ``__name__``)."""

    __slots__ = ("math", "name")

    def __init__(self, math: bool, name: str | None = None) -> None:
        self.math = math
        self.name = name

    def __call__(self, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if self.name is not None:
            func = _NameAs(func, self.name)
        return _elementwise(func, _MATH_PART if self.math else _PART, args, kwargs)

    def __reduce__(self) -> Any:
        return (Elementwise, (self.math, self.name))


class _NameAs:
    """``func`` under NumPy's name for it (for error messages)."""

    __slots__ = ("__name__", "func")

    def __init__(self, func: Callable[..., Any], name: str) -> None:
        self.func = func
        self.__name__ = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*args, **kwargs)


# --- strategies: where, astype, copy, clip ---------------------------------------------
def where(func: Callable[..., Any], cond: Any, x1: Any, x2: Any) -> Any:
    """``where``: each part, in pieces that stay in the cache, is ``func``'s
    selection of the piece copied into the result (a selection copies bits,
    so the parts never change a value).  Two passes instead (``x2``, then
    ``x1`` where ``cond``, with ``copyto``) took 1.3x NumPy's time on one
    thread."""
    nthreads = current_threads()
    arrays = [a for a in (cond, x1, x2) if isinstance(a, ndarray)]
    if not arrays:
        return func(cond, x1, x2)
    try:
        shape = np.broadcast(*arrays).shape
    except ValueError:
        return func(cond, x1, x2)
    dt = _result_dtype(func, (cond, x1, x2))
    if dt is None:
        return func(cond, x1, x2)
    res = _empty_like_operands(shape, dt, arrays)
    axis = _outer_axis(res)
    if axis is None:
        return func(cond, x1, x2)
    extent = shape[axis]
    n = _n_items(res.size, extent)
    bounds = _bounds(extent, n)
    cc, c1, c2 = (_cutter(a, axis, len(shape)) for a in (cond, x1, x2))
    head = (slice(None),) * axis
    step = _cache_step(res.size, extent)

    def part(i: int) -> None:
        for lo in range(bounds[i], bounds[i + 1], step):
            sl = slice(lo, min(lo + step, bounds[i + 1]))
            res[_key(head, sl)] = func(cc(sl), c1(sl), c2(sl))

    _run(part, n, nthreads, "where")
    return res


def _copy_parts(res: ndarray, src: ndarray, nthreads: int) -> ndarray:
    """Copy ``src`` (broadcast to ``res``'s shape) into ``res`` in parts."""
    axis = _outer_axis(res)
    if axis is None:
        np.copyto(res, src, casting="unsafe")
        return res
    extent = res.shape[axis]
    n = _n_items(res.size, extent)
    bounds = _bounds(extent, n)
    cut = _cutter(src, axis, res.ndim)
    head = (slice(None),) * axis
    copyto = np.copyto

    def part(i: int) -> None:
        sl = slice(bounds[i], bounds[i + 1])
        copyto(res[_key(head, sl)], cut(sl), casting="unsafe")

    _run(part, n, nthreads, "cast")
    return res


def astype(func: Callable[..., Any], x: Any, dtype: Any, copy: bool) -> Any:
    """``astype``: a result laid out as ``x`` (NumPy's ``order="K"``), filled
    in parts by NumPy's casts."""
    nthreads = current_threads()
    if not isinstance(x, ndarray) or (not copy and x.dtype == dtype):
        return func(x, dtype, copy)
    return _copy_parts(_mem.empty_like(x, dtype), x, nthreads)


def copy(func: Callable[..., Any], x: Any) -> Any:
    """``copy``: a native copy (C order as ``ndarray.copy``; a byte-swapped
    ``x`` keeps its layout, as its ``astype`` does)."""
    nthreads = current_threads()
    if nthreads <= 1 or not isinstance(x, ndarray):
        return func(x)
    if x.dtype.isnative:
        res = _mem.empty(x.shape, x.dtype)
    else:
        res = _mem.empty_like(x, x.dtype.newbyteorder("="))
    return _copy_parts(res, x, nthreads)


def clip(func: Callable[..., Any], x: Any, lo: Any, hi: Any) -> Any:
    """``clip``: ``maximum`` then ``minimum`` per part, into the result."""
    nthreads = current_threads()
    if not isinstance(x, ndarray):
        return func(x, lo, hi)
    native = x.dtype.newbyteorder("=")
    for b in (lo, hi):
        if isinstance(b, ndarray):
            if b.dtype != x.dtype:
                return func(x, lo, hi)
            try:
                if np.broadcast(x, b).shape != x.shape:
                    return func(x, lo, hi)
            except ValueError:
                return func(x, lo, hi)
        elif b is not None and b.__class__ not in (int, float, bool):
            return func(x, lo, hi)
    if _result_dtype(func, (x, lo, hi)) != native:
        return func(x, lo, hi)
    res = _mem.empty_like(x, native)
    axis = _outer_axis(res)
    if axis is None:
        return func(x, lo, hi)
    extent = x.shape[axis]
    n = _n_items(res.size, extent)
    bounds = _bounds(extent, n)
    cx, cl, ch = (_cutter(a, axis, x.ndim) for a in (x, lo, hi))
    head = (slice(None),) * axis
    step = _cache_step(res.size, extent)

    def part(i: int) -> None:
        # in pieces that stay in the cache between the two passes
        for start in range(bounds[i], bounds[i + 1], step):
            sl = slice(start, min(start + step, bounds[i + 1]))
            r = res[_key(head, sl)]
            src = cx(sl)
            if lo is not None:
                np.maximum(src, cl(sl), out=r)
                src = r
            if hi is not None:
                np.minimum(src, ch(sl), out=r)
                src = r
            if src is not r:
                np.copyto(r, src, casting="unsafe")

    _run(part, n, nthreads, "clip")
    return res


# --- strategies: copies behind setitem, concat, stack -----------------------------------
def _basic_key(key: Any) -> bool:
    items = key if key.__class__ is tuple else (key,)
    for k in items:
        t = k.__class__
        basic = t is int or t is slice or k is Ellipsis or k is None
        if not basic and not isinstance(k, np.integer):
            return False
    return True


def setitem(func: Callable[..., Any], x: Any, key: Any, value: Any) -> Any:
    """``x[key] = value`` for a basic key and a large array ``value``: the
    view ``x[key]`` filled in parts (NumPy's casts)."""
    nthreads = current_threads()
    if nthreads <= 1 or not isinstance(x, ndarray) or not _basic_key(key):
        return func(x, key, value)
    try:
        view = x[key]
    except (IndexError, TypeError, ValueError):
        return func(x, key, value)  # raises as NumPy does
    if not isinstance(view, ndarray) or np.may_share_memory(view, value):
        return func(x, key, value)
    if not view.flags.writeable:
        return func(x, key, value)
    try:
        src = np.broadcast_to(value, view.shape)
    except ValueError:
        return func(x, key, value)
    _copy_parts(view, src, nthreads)
    return None


def _concatenate(arrays: Sequence[Any], axis: int | None, dtype: Any = None) -> Any:
    """``numpy.concatenate(arrays, axis, dtype=dtype)``, with the copies in
    parts when every input is a C-contiguous NumPy array (the result is then
    C-contiguous, as NumPy makes it)."""
    nthreads = current_threads()
    if (
        nthreads <= 1
        or not arrays
        or not all(a.__class__ is ndarray and a.flags.c_contiguous for a in arrays)
    ):
        return np.concatenate(arrays, axis, dtype=dtype)
    a0 = arrays[0]
    if axis is None:
        parts = [a.reshape(-1) for a in arrays]
        ax = 0
    else:
        parts = list(arrays)
        ax = axis
        if a0.ndim == 0 or any(a.ndim != a0.ndim for a in arrays):
            return np.concatenate(arrays, axis, dtype=dtype)
        rest = [s for i, s in enumerate(a0.shape) if i != ax]
        for a in arrays:
            if [s for i, s in enumerate(a.shape) if i != ax] != rest:
                return np.concatenate(arrays, axis, dtype=dtype)
    probe = np.concatenate([_first(p) for p in parts], ax, dtype=dtype)
    shape = list(parts[0].shape)
    shape[ax] = sum(p.shape[ax] for p in parts)
    res = _mem.empty(tuple(shape), probe.dtype)
    # pieces: (destination, source) pairs, each input cut along its first
    # axis into pieces of about 2 * _PART elements
    pieces: list[tuple[ndarray, ndarray]] = []
    head = (slice(None),) * ax
    offset = 0
    for p in parts:
        k = p.shape[ax]
        dst = res[_key(head, slice(offset, offset + k))]
        offset += k
        if p.size == 0:
            continue
        rows = p.shape[0]
        npieces = max(1, min(rows, p.size // (_PART * 2)))
        b = _bounds(rows, npieces)
        for j in range(npieces):
            sl = slice(b[j], b[j + 1])
            pieces.append((dst[sl], p[sl]))
    copyto = np.copyto

    def part(i: int) -> None:
        d, s = pieces[i]
        copyto(d, s, casting="unsafe")

    _run(part, len(pieces), nthreads, "concatenate")
    return res


def concat(
    func: Callable[..., Any], arrays: Sequence[Any], axis: int | None, dtype: Any
) -> Any:
    """``concat`` (the entry's arguments) through :func:`_concatenate`."""
    if current_threads() <= 1:
        return func(arrays, axis, dtype)
    return _concatenate(arrays, axis, dtype)


def stack(
    func: Callable[..., Any], arrays: Sequence[Any], axis: int, dtype: Any
) -> Any:
    """``stack``: views with a new axis, concatenated by :func:`_concatenate`."""
    if current_threads() <= 1:
        return func(arrays, axis, dtype)
    key = (slice(None),) * axis + (None,)
    return _concatenate([a[key] for a in arrays], axis, dtype)


# --- strategies: reductions -------------------------------------------------------------
CHUNK = 1 << 16
"""Elements per block of a reduction over every element: the fixed partition."""


def _axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    if axis.__class__ is int or isinstance(axis, np.integer):
        return (int(axis),)
    return tuple(int(a) for a in axis)


def _reduced_shape(
    shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool
) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if i in axes else n for i, n in enumerate(shape))
    return tuple(n for i, n in enumerate(shape) if i not in axes)


def _reduced_like(
    x: ndarray, axes: tuple[int, ...], keepdims: bool, dtype: np.dtype
) -> ndarray:
    """The result of a reduction of ``x`` over ``axes``, laid out as NumPy
    lays it out: its kept axes in ``x``'s memory order (``order="K"``), not
    in C order.  The layout decides the bits of later reductions over the
    result (NumPy sums a contiguous axis pairwise), so a result split over
    threads must keep the layout NumPy's one call gives."""
    drop = slice(0, 1) if keepdims else 0
    proto = x[tuple(drop if i in axes else slice(None) for i in range(x.ndim))]
    if 0 in proto.strides and proto.size > 1:  # a broadcast x: C order
        return np.empty(_reduced_shape(x.shape, axes, keepdims), dtype)
    return _mem.empty_like(proto, dtype)


def _along_kept(
    call: Callable[[ndarray], Any],
    x: ndarray,
    axes: tuple[int, ...],
    keepdims: bool,
    nthreads: int,
    name: str,
    dtype: np.dtype | None = None,
) -> Any:
    """The reduction ``call`` (over ``axes``) split along a kept axis of four
    elements or more, each part into its slice of the result (of ``dtype``;
    None: as ``call`` gives it on one element): NumPy's bits.
    NotImplemented when no kept axis has four elements."""
    best, stride = None, -1
    for i, (n, s) in enumerate(zip(x.shape, x.strides, strict=True)):
        if i not in axes and n >= 4 and abs(s) > stride:
            best, stride = i, abs(s)
    if best is None:
        return NotImplemented
    k = best
    if dtype is None:
        dtype = _probe(call, x)
    if name.startswith("arg"):  # NumPy's argmax/argmin: a C-order result
        res = np.empty(_reduced_shape(x.shape, axes, keepdims), dtype)
    else:  # a ufunc's reduce: the kept axes in x's memory order
        res = _reduced_like(x, axes, keepdims, dtype)
    rk = k if keepdims else k - sum(1 for a in axes if a < k)
    extent = x.shape[k]
    n = _n_items(x.size, extent)
    bounds = _bounds(extent, n)
    xhead = (slice(None),) * k
    rhead = (slice(None),) * rk

    def part(i: int) -> None:
        sl = slice(bounds[i], bounds[i + 1])
        res[_key(rhead, sl)] = call(x[_key(xhead, sl)])

    _run(part, n, nthreads, name)
    return res


def _blocks(x: ndarray, order_free: bool) -> tuple[ndarray, int, int] | None:
    """The fixed partition of ``x``'s elements for a full reduction:
    ``(rows, block, count)``, ``rows`` a 1-D view or an array cut along its
    first axis, ``block`` rows per block and ``count`` blocks; None when
    ``x`` makes one block.  ``order_free``: the element order does not matter
    (anything but argmax/argmin), so a Fortran-ordered ``x`` is read in memory
    order."""
    if x.flags.c_contiguous:
        rows = x.reshape(-1)
    elif order_free and x.flags.f_contiguous:
        rows = x.T.reshape(-1)
    else:
        rows = x
        while rows.ndim > 1 and rows.shape[0] == 1:
            rows = rows[0]
    if rows.ndim == 0:
        return None
    per_row = rows.size // rows.shape[0] if rows.shape[0] else 1
    block = max(1, CHUNK // max(per_row, 1))
    count = -(-rows.shape[0] // block)
    if count < 2:
        return None
    return rows, block, count


def _partials(
    reduce_block: Callable[[ndarray], Any],
    rows: ndarray,
    block: int,
    count: int,
    dtype: np.dtype,
    nthreads: int,
    name: str,
    per_block: Callable[[ndarray, ndarray], None] | None = None,
) -> ndarray:
    """One value per block (``reduce_block(rows[a:b])``), in a fixed-size
    array; blocks grouped in parts for the threads (the grouping never
    changes a block's value).  ``per_block(group, out)``: reduce a
    ``(k, block)`` 1-D group in one NumPy call, one value per row."""
    out = np.empty(count, dtype)
    # groups of blocks, one NumPy call each where they are rows of one array;
    # fixed by the shape, though the blocks' values never depend on them
    n = min(count, max(_MIN_PARTS, min(_MAX_PARTS, rows.size // _PART)))
    bounds = _bounds(count, n)
    full = rows.shape[0] // block  # complete blocks

    def part(i: int) -> None:
        b0, b1 = bounds[i], bounds[i + 1]
        if per_block is not None and rows.ndim == 1:
            whole = min(b1, full)
            if whole > b0:
                group = rows[b0 * block : whole * block].reshape(whole - b0, block)
                per_block(group, out[b0:whole])
                b0 = whole
        for b in range(b0, b1):
            out[b] = reduce_block(rows[b * block : (b + 1) * block])

    _run(part, n, nthreads, name)
    return out


def _exact_sum(p: ndarray) -> Any:
    """The sum of the block sums ``p``, correctly rounded (``math.fsum``),
    or NumPy's sum where that overflows or meets inf - inf."""
    if p.dtype.kind == "c":
        re = _exact_sum(np.ascontiguousarray(p.real))
        im = _exact_sum(np.ascontiguousarray(p.imag))
        res = np.empty((), p.dtype)
        res.real = re
        res.imag = im
        return res[()]
    if p.dtype.kind != "f":
        return np.add.reduce(p)
    try:
        total = math.fsum(p.tolist())
    except (OverflowError, ValueError):
        return np.add.reduce(p)
    with np.errstate(over="ignore"):
        value = p.dtype.type(total)
    if np.isinf(value):  # a finite sum beyond the dtype: NumPy's reduce overflows
        _report({"overflow": 1}, np.geterr(), "reduce")
    return value


def _full_shape(value: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    if shape == ():
        return value
    return np.asarray(value, dtype=dtype).reshape(shape)


def _has_kept(x: ndarray, axes: tuple[int, ...]) -> bool:
    return any(n >= 2 for i, n in enumerate(x.shape) if i not in axes)


def _split_or_full(
    call: Callable[[ndarray], Any],
    x: ndarray,
    axes: tuple[int, ...],
    keepdims: bool,
    nthreads: int,
    name: str,
    dtype: np.dtype | None = None,
) -> Any:
    """The result of a reduction with a kept axis of two elements or more:
    split along it (NumPy's bits) or, when it is too short, ``call(x)``.
    NotImplemented when every kept axis has one element (the caller then
    reduces fixed blocks)."""
    if not _has_kept(x, axes):
        return NotImplemented
    res = _along_kept(call, x, axes, keepdims, nthreads, name, dtype)
    return call(x) if res is NotImplemented else res


def _probe(call: Callable[[ndarray], Any], x: ndarray, *key: Any) -> np.dtype:
    """The dtype of the reduction ``call`` (on one element of ``x``), found
    once per ``key`` (the entry, ``x``'s dtype and what else decides it)."""
    dt = _dtypes.get(key) if key else None
    if dt is None:
        with np.errstate(all="ignore"):
            dt = np.asarray(call(x[(slice(0, 1),) * x.ndim])).dtype
        if key:
            if len(_dtypes) > 4096:
                _dtypes.clear()
            _dtypes[key] = dt
    return dt


def _reduction_strategy(
    name: str, ufunc: Any, combine: Callable[[ndarray], Any], blocks_fc: bool = True
) -> Callable[..., Any]:
    """Strategy of ``sum``/``prod`` (``x, axis, dtype, keepdims``);
    ``blocks_fc``: whether a floating-point reduction over every element may
    reduce fixed blocks (False: one call, see :data:`prod`)."""
    reduce = ufunc.reduce

    def strategy(
        func: Callable[..., Any], x: Any, axis: Any, dtype: Any, keepdims: bool
    ) -> Any:
        if not isinstance(x, ndarray) or x.size == 0:
            return func(x, axis, dtype, keepdims)
        nthreads = current_threads()
        axes = _axes(axis, x.ndim)

        def call(p: ndarray) -> Any:
            return func(p, axis, dtype, keepdims)

        res = _split_or_full(call, x, axes, keepdims, nthreads, "reduce", dtype)
        if res is not NotImplemented:
            return res
        parts = _blocks(x, True)
        if parts is None:
            return call(x)
        rows, block, count = parts
        dt = _probe(call, x) if dtype is None else np.dtype(dtype)
        if not blocks_fc and dt.kind in "fc":
            return call(x)

        def one(b: ndarray) -> Any:
            return reduce(b, axis=None, dtype=dtype)

        def group(g: ndarray, out: ndarray) -> None:
            reduce(g, axis=1, dtype=dtype, out=out)

        p = _partials(one, rows, block, count, dt, nthreads, "reduce", group)
        return _full_shape(combine(p), _reduced_shape(x.shape, axes, keepdims), dt)

    strategy.__name__ = strategy.__qualname__ = name
    return strategy


def _product(p: ndarray) -> Any:
    return np.multiply.reduce(p)


sum_ = _reduction_strategy("sum_", np.add, _exact_sum)
# A floating-point product over every element is one NumPy call: the
# product of block products is not NumPy's value (a block's product can
# underflow to 0, or overflow to inf, where the whole product is
# representable: 1e200 in one block, 1e-200 * 1e-200 in another).  Integer
# products wrap exactly, whatever the grouping: their blocks stay.
prod = _reduction_strategy("prod", np.multiply, _product, blocks_fc=False)


def _simple_strategy(name: str, ufunc: Any) -> Callable[..., Any]:
    """Strategy of ``max``/``min``/``all``/``any``/``count_nonzero``
    (``x, axis, keepdims``): exact whatever the partition."""
    if ufunc is None:  # count_nonzero

        def one(b: ndarray) -> Any:
            return np.count_nonzero(b)

        def group(g: ndarray, out: ndarray) -> None:
            out[...] = np.count_nonzero(g, axis=1)

        def combine(p: ndarray) -> Any:
            return np.add.reduce(p)

    else:
        reduce = ufunc.reduce

        def one(b: ndarray) -> Any:
            return reduce(b, axis=None)

        def group(g: ndarray, out: ndarray) -> None:
            reduce(g, axis=1, out=out)

        def combine(p: ndarray) -> Any:
            return reduce(p)

    def strategy(func: Callable[..., Any], x: Any, axis: Any, keepdims: bool) -> Any:
        nthreads = current_threads()
        if not isinstance(x, ndarray) or x.size == 0:
            return func(x, axis, keepdims)
        axes = _axes(axis, x.ndim)

        def call(p: ndarray) -> Any:
            return func(p, axis, keepdims)

        dt = _probe(call, x, name, func, x.dtype)
        res = _split_or_full(call, x, axes, keepdims, nthreads, "reduce", dt)
        if res is not NotImplemented:
            return res
        parts = _blocks(x, True)
        if parts is None:
            return call(x)
        rows, block, count = parts
        p = _partials(one, rows, block, count, dt, nthreads, "reduce", group)
        return _full_shape(combine(p), _reduced_shape(x.shape, axes, keepdims), dt)

    strategy.__name__ = strategy.__qualname__ = name
    return strategy


max_ = _simple_strategy("max_", np.maximum)
min_ = _simple_strategy("min_", np.minimum)
all_ = _simple_strategy("all_", np.logical_and)
any_ = _simple_strategy("any_", np.logical_or)
count_nonzero = _simple_strategy("count_nonzero", None)


def _arg_strategy(name: str, arg: Callable[..., Any]) -> Callable[..., Any]:
    """Strategy of ``argmax``/``argmin`` (``x, axis, keepdims``): the first
    index of the extreme (or of the first NaN), as NumPy gives it."""

    def strategy(func: Callable[..., Any], x: Any, axis: Any, keepdims: bool) -> Any:
        nthreads = current_threads()
        if not isinstance(x, ndarray) or x.size == 0:
            return func(x, axis, keepdims)
        axes = _axes(axis, x.ndim)

        def call(p: ndarray) -> Any:
            return func(p, axis, keepdims)

        dt = np.dtype(np.intp)
        res = _split_or_full(call, x, axes, keepdims, nthreads, name, dt)
        if res is not NotImplemented:
            return res
        # every kept axis has one element: the index along ``axis`` is the
        # index in the C-order flattening, which blocks of rows keep
        parts = _blocks(x, False)
        if parts is None:
            return call(x)
        rows, block, count = parts
        per_row = rows.size // rows.shape[0]
        idx = _partials(arg, rows, block, count, np.dtype(np.intp), nthreads, name)
        values = np.empty(count, x.dtype)
        for b in range(count):
            values[b] = rows[b * block : (b + 1) * block].flat[idx[b]]
        best = int(arg(values))
        value = best * block * per_row + int(idx[best])
        shape = _reduced_shape(x.shape, axes, keepdims)
        return _full_shape(np.intp(value), shape, np.dtype(np.intp))

    strategy.__name__ = strategy.__qualname__ = name
    return strategy


argmax = _arg_strategy("argmax", np.argmax)
argmin = _arg_strategy("argmin", np.argmin)


def _block_sums(
    x: ndarray, rows: ndarray, block: int, count: int, nthreads: int
) -> Any:
    """The exact sum of the blocks' NumPy sums (x's native dtype)."""
    dt = x.dtype.newbyteorder("=")
    reduce = np.add.reduce

    def one(b: ndarray) -> Any:
        return reduce(b, axis=None)

    def group(g: ndarray, out: ndarray) -> None:
        reduce(g, axis=1, out=out)

    p = _partials(one, rows, block, count, dt, nthreads, "reduce", group)
    return _exact_sum(p)


def mean(func: Callable[..., Any], x: Any, axis: Any, keepdims: bool) -> Any:
    """``mean``: along a kept axis, or the fixed blocks' exact sum over the count."""
    if not isinstance(x, ndarray) or x.size == 0 or x.dtype.kind not in "fc":
        return func(x, axis, keepdims)
    nthreads = current_threads()
    axes = _axes(axis, x.ndim)

    def call(p: ndarray) -> Any:
        return func(p, axis, keepdims)

    dt = _probe(call, x, "mean", func, x.dtype)
    res = _split_or_full(call, x, axes, keepdims, nthreads, "reduce", dt)
    if res is not NotImplemented:
        return res
    parts = _blocks(x, True)
    if parts is None:
        return call(x)
    dt = x.dtype.newbyteorder("=")
    total = _block_sums(x, *parts, nthreads)
    count = math.prod(x.shape[i] for i in axes)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = dt.type(total / count)
    return _full_shape(value, _reduced_shape(x.shape, axes, keepdims), dt)


def _spread(name: str, root: bool) -> Callable[..., Any]:
    """Strategy of ``var``/``std`` (``x, axis, correction, keepdims``): two
    passes over the fixed blocks (the mean, then the squared deviations)."""

    def strategy(
        func: Callable[..., Any], x: Any, axis: Any, correction: Any, keepdims: bool
    ) -> Any:
        if not isinstance(x, ndarray) or x.size == 0 or x.dtype.kind not in "fc":
            return func(x, axis, correction, keepdims)
        nthreads = current_threads()
        axes = _axes(axis, x.ndim)

        def call(p: ndarray) -> Any:
            return func(p, axis, correction, keepdims)

        count = math.prod(x.shape[i] for i in axes)
        if count - correction <= 0:
            return call(x)  # NaN, as the entry gives it
        dt = x.dtype.newbyteorder("=")
        real = np.empty(0, dt).real.dtype
        # NumPy's name for the squares of the deviations (where they overflow)
        square = "multiply" if dt.kind == "c" else "square"
        res = _split_or_full(call, x, axes, keepdims, nthreads, square, real)
        if res is not NotImplemented:
            return res
        parts = _blocks(x, True)
        if parts is None:
            return call(x)
        rows, block, n = parts
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            mu = dt.type(_block_sums(x, rows, block, n, nthreads) / count)
        reduce = np.add.reduce

        def deviations(b: ndarray) -> Any:
            d = np.subtract(b, mu)
            if d.dtype.kind == "c":
                sq = np.multiply(d.real, d.real)
                sq += np.multiply(d.imag, d.imag)
            else:
                sq = np.multiply(d, d, out=d)
            return reduce(sq, axis=None)

        q = _partials(deviations, rows, block, n, real, nthreads, square)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = real.type(_exact_sum(q) / (count - correction))
            if root:
                value = np.sqrt(value)
        return _full_shape(value, _reduced_shape(x.shape, axes, keepdims), real)

    strategy.__name__ = strategy.__qualname__ = name
    return strategy


var = _spread("var", False)
std = _spread("std", True)


def _ext_strategy(
    name: str, combine: Callable[[ndarray], Any], blocks: bool = True
) -> Callable[..., Any]:
    """Strategy of the float16/complex32 ``sum``/``prod`` entries (``x,
    axis, keepdims``; they give the float64 or complex128 accumulator's
    value): along a kept axis, or fixed blocks combined by ``combine``
    (``blocks`` False: one call over every element, as for ``prod``)."""

    def strategy(func: Callable[..., Any], x: Any, axis: Any, keepdims: bool) -> Any:
        if not isinstance(x, ndarray) or x.size == 0:
            return func(x, axis, keepdims)
        nthreads = current_threads()
        axes = _axes(axis, x.ndim)

        def call(p: ndarray) -> Any:
            return func(p, axis, keepdims)

        dt = _probe(call, x, name, func, x.dtype)
        res = _split_or_full(call, x, axes, keepdims, nthreads, "reduce", dt)
        if res is not NotImplemented:
            return res
        parts = _blocks(x, True)
        if parts is None or not blocks:
            return call(x)
        rows, block, count = parts

        def one(b: ndarray) -> Any:
            return func(b, None, False)

        p = _partials(one, rows, block, count, dt, nthreads, "reduce")
        value = combine(p)
        return np.asarray(
            _full_shape(value, _reduced_shape(x.shape, axes, keepdims), dt)
        )

    strategy.__name__ = strategy.__qualname__ = name
    return strategy


ext_sum = _ext_strategy("ext_sum", _exact_sum)
ext_prod = _ext_strategy("ext_prod", _product, blocks=False)  # see prod


def pow_(func: Callable[..., Any], x1: Any, x2: Any, **kwargs: Any) -> Any:
    """``pow``: the kernel the entry would choose for the whole call (square,
    NumPy's power, or the entry itself for an exponent of 0.5), in parts."""
    t2 = x2.__class__
    if t2 is int:
        if x2 == 2 and isinstance(x1, ndarray) and x1.dtype.kind in "iuf":
            return _elementwise(np.square, _PART, (x1,), kwargs)
        return _elementwise(np.power, _MATH_PART, (x1, x2), kwargs)
    if t2 is float or np.size(x2) == 1:
        return _elementwise(_NameAs(func, "power"), _MATH_PART, (x1, x2), kwargs)
    return _elementwise(np.power, _MATH_PART, (x1, x2), kwargs)


# --- the Python twin of the compiled wrapper ---------------------------------------------
def _check_quick(quick: Any, layout: Any, keywords: Any) -> int:
    """The compiled wrapper's checks of ``quick``, ``layout`` and
    ``keywords`` (same exceptions); the number of positional arguments a
    quick call has."""
    if not callable(quick):
        msg = "Parallel(): quick must be callable or None"
        raise TypeError(msg)
    if not isinstance(layout, tuple) or not isinstance(keywords, tuple):
        msg = "Parallel(): layout and keywords must be tuples"
        raise TypeError(msg)
    pairs = []
    for pair in keywords:
        if (
            not isinstance(pair, tuple)
            or len(pair) != 2
            or not isinstance(pair[0], str)
        ):
            msg = "Parallel(): keywords must be (name, index) pairs"
            raise TypeError(msg)
        pairs.append(pair)
    if not layout or len(layout) + len(pairs) > 8:
        msg = "Parallel(): quick needs a layout of 1 to 8 arguments"
        raise ValueError(msg)
    indices = [*layout, *(i for _, i in pairs)]
    if (
        not all(isinstance(i, int) for i in indices)
        or not all(-1 <= i < 8 for i in layout)
        or not all(0 <= i < 8 for _, i in pairs)
    ):
        msg = (
            "Parallel(): a layout index must be -1 (None) or an argument index "
            "below 8 (keywords: not -1)"
        )
        raise ValueError(msg)
    if len({name for name, _ in pairs}) != len(pairs):
        msg = "Parallel(): a keyword of quick named twice"
        raise ValueError(msg)
    return max(indices) + 1


class ParallelPy:
    """The pure Python twin of ``ocean_cpu._parallel_c.Parallel``."""

    def __init__(
        self,
        func: Callable[..., Any],
        strategy: Callable[..., Any],
        mode: int = M_ALL,
        limit: int = COPY,
        quick: Callable[..., Any] | None = None,
        layout: tuple[int, ...] = (),
        keywords: tuple[tuple[str, int], ...] = (),
    ) -> None:
        self.__wrapped__ = func
        self.strategy = strategy
        self.mode = mode
        self.limit = limit
        self.quick = quick
        self.layout = layout if quick is not None else ()
        self.keywords = keywords if quick is not None else ()
        self._nin = _check_quick(quick, layout, keywords) if quick is not None else 0

    def _size(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int:
        mode = self.mode
        if mode == M_ALL:
            sizes = [a.size for a in args if isinstance(a, ndarray)]
            out = kwargs.get("out")
            if isinstance(out, ndarray):
                sizes.append(out.size)
            return max(sizes, default=0)
        if mode == M_FIRST:
            return args[0].size if args and isinstance(args[0], ndarray) else 0
        if mode == M_SEQUENCE:
            seq = args[0] if args else ()
            if seq.__class__ not in (list, tuple):
                return 0
            return sum(a.size for a in seq if isinstance(a, ndarray))
        return args[2].size if len(args) >= 3 and isinstance(args[2], ndarray) else 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        size = self._size(args, kwargs)
        if size < _py_limits[self.limit]:
            if (
                self.quick is not None
                and size > 0
                and not kwargs
                and len(args) == self._nin
                and args[0].__class__ is ndarray
            ):
                pos = [None if i < 0 else args[i] for i in self.layout]
                return self.quick(*pos, **{k: args[i] for k, i in self.keywords})
            return self.__wrapped__(*args, **kwargs)
        return self.strategy(self.__wrapped__, *args, **kwargs)

    def __reduce__(self) -> Any:
        state = dict(self.__dict__)
        for key in ("__wrapped__", "strategy", "mode", "limit", "quick", "layout",
                    "keywords", "_nin"):  # fmt: skip
            state.pop(key, None)
        args = (self.__wrapped__, self.strategy, self.mode, self.limit)
        if self.quick is not None:
            args += (self.quick, self.layout, self.keywords)
        return (ParallelPy, args, state)


_Parallel: Any = ParallelPy if _parallel_c is None else _parallel_c.Parallel


def _entry(
    func: Callable[..., Any],
    strategy: Callable[..., Any],
    mode: int,
    limit: int,
    quick: tuple[Any, ...] | None = None,
) -> Any:
    """``func`` behind the size test, looking like ``func`` (name, qualified
    name, module, docstring: the compiled fast path recognises the backend's
    own functions by them); ``quick``: ``(callable, layout, keywords)``, the
    C function small calls go to (see ``Parallel``)."""
    entry = _Parallel(func, strategy, mode, limit, *(quick or ()))
    for attr in ("__name__", "__qualname__", "__module__", "__doc__"):
        value = getattr(func, attr, None)
        if value is not None:
            with contextlib.suppress(AttributeError, TypeError):
                setattr(entry, attr, value)
    return entry


# elementwise entries that compute more than they move: a lower threshold
_MATH = frozenset(
    {
        "acos", "acosh", "asin", "asinh", "atan", "atanh", "atan2", "cos", "cosh",
        "exp", "expm1", "log", "log1p", "log2", "log10", "logaddexp", "pow", "sin",
        "sinh", "tan", "tanh", "hypot", "floor_divide", "remainder", "nextafter",
    }
)  # fmt: skip
# not elementwise kernels of this module's kind (BLAS, views, properties)
_NOT_ELEMENTWISE = frozenset({"matmul", "real", "imag"})


def _accepts_out(func: Any) -> bool:
    """Whether ``func`` (a ufunc or a Python function) takes ``out=``."""
    if isinstance(func, np.ufunc):
        return True
    code = getattr(func, "__code__", None)
    if code is None:
        return False
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    return "out" in names or bool(code.co_flags & 0x08)  # CO_VARKEYWORDS


def wrap(
    ops: dict[str, Callable[..., Any]],
    elementwise_names: Sequence[str],
    ufunc_names: dict[str, str],
    quick: dict[str, tuple[Any, ...]] | None = None,
) -> None:
    """Put the parallel entries into the CPU table ``ops``, in place.

    ``quick``: by entry name, ``(callable, layout, keywords)`` of the C
    function that the entry's Python function calls (see ``Parallel``): a
    small call goes there directly.
    """
    quick = quick or {}
    ext = [n for n in ops if n.partition(".")[2] in ("float16", "complex32")]
    for name in (*elementwise_names, *ext):
        base = name.partition(".")[0]
        if base in _NOT_ELEMENTWISE or base not in elementwise_names:
            continue
        func = ops.get(name)
        if func is None or not _accepts_out(func):
            continue
        math_like = base in _MATH or "." in name
        limit = MATH if math_like else COPY
        strategy: Callable[..., Any]
        if name == "pow":
            strategy = pow_
        elif isinstance(func, np.ufunc):
            strategy = Elementwise(math_like)
        else:
            strategy = Elementwise(math_like, ufunc_names.get(base, base))
        ops[name] = _entry(func, strategy, M_ALL, limit)
    table: dict[str, tuple[Callable[..., Any], int, int]] = {
        "where": (where, M_ALL, COPY),
        "astype": (astype, M_FIRST, COPY),
        "copy": (copy, M_FIRST, COPY),
        "clip": (clip, M_FIRST, COPY),
        "setitem": (setitem, M_THIRD, COPY),
        "concat": (concat, M_SEQUENCE, COPY),
        "stack": (stack, M_SEQUENCE, COPY),
        "sum": (sum_, M_FIRST, REDUCE),
        "prod": (prod, M_FIRST, REDUCE),
        "max": (max_, M_FIRST, REDUCE),
        "min": (min_, M_FIRST, REDUCE),
        "all": (all_, M_FIRST, REDUCE),
        "any": (any_, M_FIRST, REDUCE),
        "count_nonzero": (count_nonzero, M_FIRST, REDUCE),
        "argmax": (argmax, M_FIRST, REDUCE),
        "argmin": (argmin, M_FIRST, REDUCE),
        "mean": (mean, M_FIRST, REDUCE),
        "var": (var, M_FIRST, REDUCE),
        "std": (std, M_FIRST, REDUCE),
        # the ocean_ext dtypes' reductions (their accumulator's value)
        "sum.float16": (ext_sum, M_FIRST, REDUCE),
        "sum.complex32": (ext_sum, M_FIRST, REDUCE),
        "prod.float16": (ext_prod, M_FIRST, REDUCE),
        "prod.complex32": (ext_prod, M_FIRST, REDUCE),
    }
    for name, (strategy, mode, limit) in table.items():
        func = ops.get(name)
        if func is not None:
            ops[name] = _entry(func, strategy, mode, limit, quick.get(name))


def unwrap(func: Any) -> Any:
    """The function a parallel entry stands for (``func`` itself otherwise)."""
    if isinstance(func, ParallelPy) or (
        _parallel_c is not None and isinstance(func, _parallel_c.Parallel)
    ):
        return func.__wrapped__
    return func
