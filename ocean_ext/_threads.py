"""How many threads large CPU operations may use: ``ocean_ext.threads(n)``.

The CPU backend splits large operations (elementwise functions and operators,
``where``, ``astype``, ``clip``, reductions, the copies behind ``concat``,
``stack`` and assignments) across a pool of threads; small ones run as they
are.  The count lives in a :class:`contextvars.ContextVar` owned by the CPU
backend, so a ``with`` block affects only its own thread and asyncio task.
"""

from __future__ import annotations

import contextlib
import operator
from contextlib import AbstractContextManager

from ocean_array_api import _backend

__all__ = ["threads"]


def threads(n: int | None) -> AbstractContextManager[int]:
    """Set how many threads large CPU operations may use, in a ``with`` block.

    Parameters
    ----------
    n : int or None
        A positive number of threads; ``None`` restores the default: the
        environment variable ``OCEAN_NUM_THREADS`` if set, else the cores
        the process may use (its CPU affinity, capped by a cgroup CPU quota).

    Returns
    -------
    context manager
        Its ``with ... as count`` value is the number of threads in effect.

    Raises
    ------
    TypeError
        If ``n`` is not an int (or None).
    ValueError
        If ``n`` is below 1.

    Notes
    -----
    Results never depend on the number of threads: elementwise results are
    bit for bit those of one thread, reductions over some axes equal
    NumPy's, and reductions over every element reduce fixed blocks whose
    results are combined in a fixed order (see the benchmarks page of the
    documentation for how they compare with NumPy's pairwise sum).

    The count is held in a :class:`contextvars.ContextVar`: a block affects
    only the thread and the asyncio task that run it, blocks nest, and code
    running in another thread than the main thread (a dask task, a thread
    pool's worker) uses one thread unless a block in that thread says
    otherwise, so that pools never multiply.  BLAS (``matmul``, ``linalg``)
    keeps its own threads.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.linspace(0.0, 1.0, 1_000_000)
    >>> with ocean_ext.threads(1):
    ...     one = xp.sum(xp.sin(x))
    >>> with ocean_ext.threads(4) as count:
    ...     four = xp.sum(xp.sin(x))
    >>> count
    4
    >>> bool(one == four)
    True
    """
    if n is not None:
        if isinstance(n, bool):
            msg = "threads(): `n` must be an int or None, got bool"
            raise TypeError(msg)
        try:
            n = operator.index(n)
        except TypeError:
            msg = f"threads(): `n` must be an int or None, got {type(n).__name__}"
            raise TypeError(msg) from None
        if n < 1:
            msg = f"threads(): `n` must be at least 1, got {n}"
            raise ValueError(msg)
    return _threads(n)


def _threads(n: int | None) -> AbstractContextManager[int]:
    # The CPU backend's own context manager, returned as it is (not wrapped
    # in another): it is safe against an interrupt anywhere in its entry and
    # exit, which a wrapper's extra lines would not be.
    scope = getattr(_backend.get_backend("cpu"), "threads", None)
    if scope is None:  # a CPU backend without threads: nothing to set
        return _OneThread()
    return scope(n)  # type: ignore[no-any-return]


class _OneThread(contextlib.ContextDecorator):
    """A block that sets nothing; ``as`` gives 1."""

    __slots__ = ()

    def __enter__(self) -> int:
        return 1

    def __exit__(self, *exc: object) -> None:
        return None
