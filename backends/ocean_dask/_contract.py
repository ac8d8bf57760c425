"""``matmul`` and ``tensordot`` on chunked arrays, in bounded memory.

dask's own products compute every partial product ``A[i, k] @ B[k, j]`` as a
task of its own and sum them per output block afterwards.  The scheduler is
free to make the partial products long before their sum (a wave across all
output blocks at once): at 16384 x 16384 that held several GiB and grew.
Here each output block is one *chain* of tasks that adds the partial products
to a running total, ``C = ((A0 @ B0) + A1 @ B1) + ...``, so an output block
in progress holds its total and the two operand blocks of the current step.

Two more things keep the chains from advancing side by side:

- Operand blocks are *recomputed* in the step that needs them when the
  operand's graph ends in ``Blockwise`` layers (creation and elementwise
  functions, ``map_blocks``, reads with ``from_array``/``from_zarr``): the
  block's task (dask's blockwise fusion of those layers) is nested into the
  step, exactly the recomputation dask's own ``matmul`` does by fusing its
  operands into the partial products.  Operand blocks of other graphs
  (persisted data, rechunks, results of reductions) are computed once and
  referenced.
- A chain starts only once everything its steps depend on from outside
  exists (a small token task per such key, returning ``None``, so no data
  moves for it on a cluster): once started, each step is ready as soon as the
  one before it is done, and the scheduler (dask's ordering, and the threaded
  scheduler's last-in-first-out choice of ready tasks) finishes the chain
  before it starts many others.

When there are fewer output blocks than the local scheduler has threads
(dask's ``num_workers`` setting, else the number of CPUs, where the graph is
built), the sum over the contracted blocks is cut into a few chains per
output block (added at the end), so that the threads have work.

The graph is a ``Layer`` that writes its tasks only when the graph is run (or
culled): building a product costs the same for any number of chunks.  With a
dask too old for its task specification (``dask._task_spec``), dask's own
products are used.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import dask
import dask.array as da
import numpy as np
from dask.array.core import unify_chunks
from dask.base import tokenize
from dask.highlevelgraph import HighLevelGraph, Layer, MaterializedLayer
from dask.system import CPU_COUNT

try:
    from dask._task_spec import Task, TaskRef
    from dask.blockwise import Blockwise, optimize_blockwise
except ImportError:  # pragma: no cover - dask before the task specification
    Task = TaskRef = None  # type: ignore[assignment,misc]

__all__ = ["matmul", "tensordot"]


def _threads() -> int:
    """How many chains should be able to run at once."""
    n = dask.config.get("num_workers", None)
    return int(n) if n else CPU_COUNT


# --- what the tasks run -----------------------------------------------------------
def _array(r: Any) -> Any:
    # Note: NumPy gives a scalar (np.float64) for a 0-d product; chunks of a
    # dask array are arrays.
    return np.asarray(r) if isinstance(r, np.generic) else r


def _product(f: Callable[[Any, Any], Any], a: Any, b: Any, *ready: None) -> Any:
    """The first partial product of a chain (``ready``: the tokens it waits
    for, ignored)."""
    return _array(f(a, b))


def _accumulate(total: Any, f: Callable[[Any, Any], Any], a: Any, b: Any) -> Any:
    """``total + f(a, b)``, adding into the fresh product where it may."""
    r = f(a, b)
    if isinstance(r, np.ndarray) and r.base is None and r.flags.writeable:
        # r is this step's own new array (never the total of the step before,
        # which stays intact, as a retried task on a cluster needs it)
        np.add(total, r, out=r)
        return r
    return _array(total + r)


def _sum(*totals: Any) -> Any:
    return _array(functools.reduce(lambda x, y: x + y, totals))


def _done(_: Any) -> None:
    """A token: its key exists once the key it depends on does."""


# --- operands -------------------------------------------------------------------
class _Operand:
    """One operand: how a step gets its block ``idx``, and the graph layers
    those tasks depend on."""

    __slots__ = ("fused", "layers", "name", "numblocks")

    def __init__(self, x: Any) -> None:
        self.name = x.name
        self.numblocks = x.numblocks
        graph = x.__dask_graph__()
        self.fused: Any = None
        self.layers: set[str] = {x.name}
        if isinstance(graph.layers.get(x.name), Blockwise):
            g = optimize_blockwise(graph, keys=[x.name])
            layer = g.layers.get(x.name)
            deps = set(g.dependencies.get(x.name, ()))
            # what the fused tasks read must be layers of the graph as it is
            if isinstance(layer, Blockwise) and deps <= graph.layers.keys():
                # (x's own layer stays a dependency: a block whose fused task
                # is not a plain Task is referenced)
                self.fused, self.layers = layer, deps | {x.name}

    def block(self, idx: tuple[int, ...]) -> Any:
        """A nested task recomputing block ``idx``, or a reference to it."""
        key = (self.name, *idx)
        if self.fused is not None:
            task = self.fused[key]
            if task.__class__ is Task:
                return Task(None, task.func, *task.args, **task.kwargs)
        return TaskRef(key)


def _external(arg: Any) -> frozenset[Any]:
    return frozenset([arg.key]) if isinstance(arg, TaskRef) else arg.dependencies


# --- the layer ------------------------------------------------------------------
class _Chains(Layer):
    """The tasks of one product, written when first asked for."""

    def __init__(
        self,
        name: str,
        func: Callable[[Any, Any], Any],
        operands: tuple[tuple[_Operand, Sequence[int]], ...],
        out_ind: Sequence[int],
        sum_ind: Sequence[int],
        numblocks: dict[int, int],
    ) -> None:
        super().__init__()
        self.name = name
        self.func = func
        self.operands = operands
        self.out_ind = tuple(out_ind)
        self.sum_ind = tuple(sum_ind)
        self.numblocks = numblocks
        n_out = math.prod(numblocks[i] for i in out_ind)
        n_sum = math.prod(numblocks[i] for i in sum_ind)
        self.n_chains = max(1, min(n_sum, _threads() // max(n_out, 1)))
        self._tasks: dict[Any, Any] | None = None

    # the Layer protocol
    def is_materialized(self) -> bool:
        return self._tasks is not None

    def get_output_keys(self) -> set[Any]:
        return {(self.name, *o) for o in self._out_blocks()}

    def __getitem__(self, key: Any) -> Any:
        return self._dict[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._dict)

    def __len__(self) -> int:
        return len(self._dict)

    def __contains__(self, key: object) -> bool:
        return key in self._dict

    @property
    def _dict(self) -> dict[Any, Any]:
        if self._tasks is None:
            tasks: dict[Any, Any] = {}
            for out in self._out_blocks():
                self._write(out, tasks)
            self._tasks = tasks
        return self._tasks

    def cull(
        self, keys: set[Any], all_hlg_keys: Any
    ) -> tuple[Layer, dict[Any, set[Any]]]:
        n = len(self.out_ind)
        tasks: dict[Any, Any] = {}
        for k in keys:
            if k.__class__ is tuple and len(k) == n + 1 and k[0] == self.name:
                self._write(k[1:], tasks)
        deps = {k: set(t.dependencies) for k, t in tasks.items()}
        return MaterializedLayer(tasks, annotations=self.annotations), deps

    # the tasks
    def _out_blocks(self) -> Iterator[tuple[int, ...]]:
        return itertools.product(*(range(self.numblocks[i]) for i in self.out_ind))

    def _write(self, out: tuple[int, ...], tasks: dict[Any, Any]) -> None:
        """Write the tasks of output block ``out`` into ``tasks``."""
        pos = dict(zip(self.out_ind, out, strict=True))
        steps = list(
            itertools.product(*(range(self.numblocks[i]) for i in self.sum_ind))
        )
        per = -(-len(steps) // self.n_chains)
        chains = [steps[s : s + per] for s in range(0, len(steps), per)]
        name, f = self.name, self.func
        ends: list[Any] = []
        for c, chain in enumerate(chains):
            args = []
            for kidx in chain:
                pos.update(zip(self.sum_ind, kidx, strict=True))
                args.append(
                    [
                        op.block(
                            tuple(
                                pos[i] if nb > 1 else 0
                                for i, nb in zip(ind, op.numblocks, strict=True)
                            )
                        )
                        for op, ind in self.operands
                    ]
                )
            last = len(chain) - 1
            prev: Any = None
            for s, (a, b) in enumerate(args):
                key: Any = (
                    (name, *out)
                    if s == last and len(chains) == 1
                    else (f"{name}-chain", *out, c, s)
                )
                if prev is None:
                    ready = []
                    if last:
                        outside = set().union(
                            *(_external(x) for ab in args for x in ab)
                        )
                        for dep in sorted(outside, key=str):
                            token = (f"{name}-ready", dep)
                            if token not in tasks:
                                tasks[token] = Task(token, _done, TaskRef(dep))
                            ready.append(TaskRef(token))
                    tasks[key] = Task(key, _product, f, a, b, *ready)
                else:
                    tasks[key] = Task(key, _accumulate, TaskRef(prev), f, a, b)
                prev = key
            ends.append(prev)
        if len(chains) > 1:
            total = (name, *out)
            tasks[total] = Task(total, _sum, *(TaskRef(e) for e in ends))


# --- the products ------------------------------------------------------------------
def _contract(
    kind: str,
    func: Callable[[Any, Any], Any],
    a: Any,
    a_ind: tuple[int, ...],
    b: Any,
    b_ind: tuple[int, ...],
    out_ind: tuple[int, ...],
) -> Any:
    """The blocked product of ``a`` and ``b`` (dask arrays) with blocks
    combined by ``func``, which contracts the labels (ints, one per axis, as
    in ``blockwise``) of ``a_ind``/``b_ind`` that are not in ``out_ind``; an
    operand with one block along a label is broadcast along it."""
    # (warn=False: dask counts the blocks over all labels, the contracted one
    # too, and warns about the product's own size)
    from . import _sizes

    a, b = _sizes.align_labels(a, a_ind, b, b_ind, out_ind)  # data-dependent sizes
    chunkss, (a, b) = unify_chunks(a, a_ind, b, b_ind, warn=False)
    sum_ind = tuple(sorted({*a_ind, *b_ind} - {*out_ind}))
    numblocks = {i: len(c) for i, c in chunkss.items()}
    dtype = np.result_type(a.dtype, b.dtype)
    name = f"{kind}-{tokenize(a.name, b.name, a_ind, b_ind, out_ind, func)}"
    ops = (_Operand(a), _Operand(b))
    layer = _Chains(
        name, func, ((ops[0], a_ind), (ops[1], b_ind)), out_ind, sum_ind, numblocks
    )
    ga, gb = a.__dask_graph__(), b.__dask_graph__()
    graph = HighLevelGraph(
        {**ga.layers, **gb.layers, name: layer},
        {**ga.dependencies, **gb.dependencies, name: ops[0].layers | ops[1].layers},
    )
    meta = da.utils.meta_from_array(a, ndim=len(out_ind), dtype=dtype)
    return da.Array(graph, name, chunks=tuple(chunkss[i] for i in out_ind), meta=meta)


def matmul(x1: Any, x2: Any, func: Callable[[Any, Any], Any]) -> Any:
    """``x1 @ x2`` of dask arrays (``func``: ``matmul`` of two blocks, which
    also takes 1-d blocks and broadcasts stacks, as NumPy's does)."""
    if Task is None:  # pragma: no cover
        return da.matmul(x1, x2)
    n = max(x1.ndim, x2.ndim, 2) - 2  # stack (batch) dimensions
    i, k, j = n, n + 1, n + 2
    batch = tuple(range(n))

    def labels(x: Any, core: tuple[int, int]) -> tuple[int, ...]:
        return (k,) if x.ndim == 1 else batch[n - (x.ndim - 2) :] + core

    out_ind = batch + (i,) * (x1.ndim > 1) + (j,) * (x2.ndim > 1)
    return _contract(
        "matmul", func, x1, labels(x1, (i, k)), x2, labels(x2, (k, j)), out_ind
    )


def tensordot(
    x1: Any,
    x2: Any,
    axes: tuple[Sequence[int], Sequence[int]],
    func: Callable[..., Any],
) -> Any:
    """``tensordot`` of dask arrays over ``axes`` (two sequences of
    non-negative axes; ``func(a, b, axes=)``: the CPU entry, on blocks)."""
    ax1, ax2 = (tuple(ax) for ax in axes)
    if Task is None:  # pragma: no cover
        return da.tensordot(x1, x2, axes=(ax1, ax2))
    a_ind = list(range(x1.ndim))
    b_ind = list(range(x1.ndim, x1.ndim + x2.ndim))
    for d1, d2 in zip(ax1, ax2, strict=True):
        b_ind[d2] = a_ind[d1]
    out_ind = [c for d, c in enumerate(a_ind) if d not in ax1]
    out_ind += [c for d, c in enumerate(b_ind) if d not in ax2]
    f = functools.partial(func, axes=(ax1, ax2))
    return _contract("tensordot", f, x1, tuple(a_ind), x2, tuple(b_ind), tuple(out_ind))
