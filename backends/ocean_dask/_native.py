"""``LazyArray``: the native array of the ``dask`` device kind.

The front end reads a few attributes of every native array (``shape``,
``ndim``, ``size``, ``dtype``, ``base``, ``T``, ``x[key]``).  A
``dask.array.Array`` has them, but writes a data-dependent size as ``nan``
where the standard says ``None``, and its ``__setitem__`` rewrites the dask
array object in place (every holder of that object would see the write).
``LazyArray`` is a small handle around one dask array that answers those
attributes the standard's way; ``setitem`` and the in-place operators rebind
the handle to a new dask array, so no dask array is ever mutated.

Views: the result of basic indexing (integers, slices, ``...``, ``None``) is
a handle linked to the indexed one (``parent`` and ``key``), as NumPy's
result is a view of its memory.  A write into either is a write into both:
a rebound view writes its new graph into its parent (and so on up,
``_ops.rebind``), and a view whose parent's graph is no longer the one it
was derived from derives its graph again when it is next read (``arr``), so
``_add_to_diagonal(covariances[k], ...)``-style code gives NumPy's values
and a write costs the same however many views are alive.

A handle also says where its chunks live: ``gpu`` is None for NumPy chunks
(the device ``dask``) and the CUDA device number for CuPy chunks (the device
``dask:cuda:<gpu>``, see ``_chunks``).

This module imports neither dask nor NumPy at import time: the backend is
registered and enumerated without dask being imported.
"""

from __future__ import annotations

import contextvars
import math
from typing import Any

__all__ = ["KNOWN", "LazyArray", "unwrap", "wrap"]

# Set by ocean_ext.known_sizes(): data-dependent sizes are computed when a
# result is made (``_sizes.settle``).  Here, where nothing imports dask.
KNOWN: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "ocean_dask_known_sizes", default=False
)


def _ascending(r: range) -> range:
    return r if r.step > 0 else r[::-1]


def meet(a: range, b: range) -> bool:
    """Whether two ranges share an element (one of step 1: by arithmetic)."""
    if not a or not b:
        return False
    a, b = _ascending(a), _ascending(b)
    lo, hi = max(a[0], b[0]), min(a[-1], b[-1])
    if lo > hi:
        return False
    if a.step != 1 and b.step == 1:
        a, b = b, a
    if a.step == 1:  # does b have an element in [lo, hi]?
        first = b[0] + -(-(lo - b[0]) // b.step) * b.step
        return first <= hi
    small, big = (a, b) if len(a) <= len(b) else (b, a)
    return any(i in big for i in small)


def _nonempty(arr: Any) -> Any:
    """``arr`` (a dask array) without empty chunks next to others
    (``_sizes.drop_empty``: dask gives wrong values on them), whatever made
    it: the table, ``persist``, ``known_sizes()``, ``from_dask``,
    ``rechunk``."""
    chunks = getattr(arr, "chunks", None)
    if chunks is None or not hasattr(arr, "dask"):
        return arr
    for dim in chunks:
        if len(dim) > 1 and 0 in dim:
            from ._sizes import drop_empty

            return drop_empty(arr)
    return arr


class Flags:
    """``LazyArray.flags``: only ``writeable`` (``ocean_ext.set_readonly``).

    Read-only is a flag of one handle (``own``), which reaches every handle of
    its family (the root and its views, see ``LazyArray``) whose elements
    overlap it, as read-only memory does on the CPU: ``writeable`` says
    whether a write into this handle is allowed.  Setting it True releases
    this handle and its views (``LazyArray.release``)."""

    __slots__ = ("handle", "own")

    def __init__(self, handle: LazyArray) -> None:
        self.handle = handle
        self.own = True

    @property
    def writeable(self) -> bool:
        return self.handle.blocker() is None

    @writeable.setter
    def writeable(self, flag: bool) -> None:
        if flag:
            self.handle.release()
        else:
            self.own = False
            self.handle.root().ro = True


class LazyArray:
    """A handle to one ``dask.array.Array`` (attribute ``arr``) whose chunks
    are NumPy arrays (``gpu`` None) or CuPy arrays on CUDA device ``gpu``.

    Sizes the graph cannot know before it runs (after a boolean mask,
    ``unique_*``, ``nonzero``) are ``None`` in ``shape``, and ``size`` is then
    ``None`` too.
    """

    __slots__ = (
        "__weakref__", "_arr", "_flags", "_src", "gpu", "key", "parent", "ro",
        "value", "value_of", "views",
    )  # fmt: skip
    base = None  # never a view of another handle's memory (graphs are values)

    def __init__(self, arr: Any, gpu: int | None = None) -> None:
        self._arr = _nonempty(arr)
        self.gpu = gpu
        self._flags: Flags | None = None
        # the computed values of ``value_of`` (a dask array), when known: a
        # handle rebound to another graph (setitem) no longer has them
        self.value: Any = None
        self.value_of: Any = None
        # a view: the handle it was indexed from, the (basic) key, and the
        # parent's dask array that ``_arr`` was derived from
        self.parent: LazyArray | None = None
        self.key: Any = None
        self._src: Any = None
        # the live views of this handle (a weakref.WeakSet, made on demand),
        # and, on a root, whether a handle of its family was made read-only
        self.views: Any = None
        self.ro = False

    @property
    def arr(self) -> Any:
        """The dask array; a view's is derived again from its parent's when
        that has been rebound (a write into the parent or another view).

        A walk up to the root and back down, not a recursion: a chain of
        views (``for _ in range(n): x = x[1:]``) may be deeper than Python's
        recursion limit, as it may on the CPU."""
        if self.parent is None:
            return self._arr
        h, chain = self.lineage()
        src = h._arr
        for v in reversed(chain):
            if src is not v._src:
                from ._ops import derive

                v._arr = _nonempty(derive(h, v.key, src))
                v._src = src
            src = v._arr
            h = v
        return src

    @arr.setter
    def arr(self, arr: Any) -> None:
        self._arr = _nonempty(arr)

    def known(self) -> Any:
        """The values of this handle if they are in memory (computed), else
        None; never computes."""
        if self.value is not None and self.value_of is self.arr:
            return self.value
        return None

    @property
    def flags(self) -> Flags:
        """Read-only flags (see ``Flags``)."""
        if self._flags is None:
            self._flags = Flags(self)
        return self._flags

    def check_writeable(self) -> None:
        """Raise NumPy's ValueError for a write into elements that a
        read-only handle of the family holds (see ``Flags``)."""
        if self.blocker() is not None:
            msg = "assignment destination is read-only"
            raise ValueError(msg)

    # --- the family: a root and its views (read-only, shared elements) -----
    def root(self) -> LazyArray:
        return self.lineage()[0]

    def lineage(self) -> tuple[LazyArray, list[LazyArray]]:
        """The root of this handle's family and the views from this handle up
        to it, this handle first (none for a root): a walk, not a recursion,
        since a chain of views may be deeper than the recursion limit."""
        chain = []
        h = self
        while h.parent is not None:
            chain.append(h)
            h = h.parent
        return h, chain

    def descendants(self) -> list[LazyArray]:
        """This handle and all its live views, theirs too."""
        out = [self]
        for h in out:
            if h.views:
                out.extend(h.views)
        return out

    def family(self) -> list[LazyArray]:
        """The root of this handle and all its live views, theirs too."""
        return self.root().descendants()

    def _readonly_own(self) -> bool:
        return self._flags is not None and not self._flags.own

    def blocker(self) -> LazyArray | None:
        """A read-only handle of the family whose elements this one's
        overlap, or None: what a write here would reach.  This handle and
        those it is a view of block it whatever it holds (an empty view of
        a read-only array is read-only, as NumPy's flag makes it)."""
        h: LazyArray | None = self
        while h is not None:
            if h._readonly_own():
                return h
            h = h.parent
        root = self.root()
        if not root.ro:
            return None
        for h in root.family():
            if h._readonly_own() and self.overlaps(h):
                return h
        return None

    def release(self) -> None:
        """Make this handle and its views writable again; ValueError if a
        read-only handle that is not one of them holds some of its elements
        (release that one instead, as on the CPU)."""
        mine = self.descendants()
        ids = {id(h) for h in mine}
        root = self.root()
        if root.ro:
            for h in root.family():
                if id(h) not in ids and h._readonly_own() and self.overlaps(h):
                    msg = (
                        "set_readonly(): `x` is a view of a read-only array (an "
                        "array it shares elements with was made read-only); call "
                        "set_readonly(base, False) on that array instead"
                    )
                    raise ValueError(msg)
        for h in mine:
            if h._flags is not None:
                h._flags.own = True

    def region(self) -> list[range] | None:
        """The indices of the root that this handle's elements are, one range
        per axis of the root (None where sizes are data-dependent)."""
        h, chain = self.lineage()
        shape = h.shape
        if None in shape:
            return None
        ranges = [range(n) for n in shape]  # type: ignore[arg-type]
        axes: list[int | None] = list(range(len(shape)))  # view axis -> root axis
        for v in reversed(chain):
            keys = v.key if v.key.__class__ is tuple else (v.key,)
            used = sum(1 for k in keys if k is not None and k is not Ellipsis)
            new_axes: list[int | None] = []
            va = 0
            for k in keys:
                if k is Ellipsis:
                    rest = len(axes) - used
                    new_axes.extend(axes[va : va + rest])
                    va += rest
                elif k is None:
                    new_axes.append(None)
                else:
                    ra = axes[va]
                    va += 1
                    if ra is None:  # a new axis (length 1) indexed
                        if k.__class__ is slice and not range(1)[k]:
                            return [range(0) for _ in ranges]
                        if k.__class__ is slice:
                            new_axes.append(None)
                        continue
                    r = ranges[ra]
                    if k.__class__ is slice:
                        ranges[ra] = r[k]
                        new_axes.append(ra)
                    else:
                        i = int(k)
                        ranges[ra] = r[i : i + 1 or None]
            new_axes.extend(axes[va:])
            axes = new_axes
        return ranges

    def overlaps(self, other: LazyArray) -> bool:
        """Whether the two handles (of one family) share some element; True
        where that cannot be told (data-dependent sizes)."""
        if other is self:
            return True
        if self.root() is not other.root():
            return False
        a, b = self.region(), other.region()
        if a is None or b is None:
            return True
        return all(meet(ra, rb) for ra, rb in zip(a, b, strict=True))

    @property
    def shape(self) -> tuple[int | None, ...]:
        return tuple([None if math.isnan(s) else int(s) for s in self.arr.shape])

    @property
    def ndim(self) -> int:
        return self.arr.ndim  # type: ignore[no-any-return]

    @property
    def size(self) -> int | None:
        n = 1
        for s in self.shape:
            if s is None:
                return None
            n *= s
        return n

    @property
    def dtype(self) -> Any:
        return self.arr.dtype

    @property
    def chunks(self) -> tuple[tuple[int | None, ...], ...]:
        """The chunk sizes along each axis (None where unknown)."""
        return tuple(
            tuple(None if math.isnan(c) else int(c) for c in dim)
            for dim in self.arr.chunks
        )

    @property
    def T(self) -> LazyArray:
        return LazyArray(self.arr.T, self.gpu)

    def __getitem__(self, key: Any) -> LazyArray:
        from ._ops import index  # the table's getitem, with its checks

        return index(self, key)  # type: ignore[no-any-return]

    def __len__(self) -> int:
        if not self.ndim:
            msg = "len() of unsized object"  # as NumPy for 0-d arrays
            raise TypeError(msg)
        n = self.shape[0]
        if n is None:
            msg = "len() of a lazy array whose first dimension is unknown (None)"
            raise TypeError(msg)
        return n

    def __repr__(self) -> str:
        shape = (
            "("
            + ", ".join(str(s) for s in self.shape)
            + (",)" if self.ndim == 1 else ")")
        )
        return f"<LazyArray shape={shape} dtype={self.arr.dtype} chunks={self.arr.chunksize} name={self.arr.name[:24]}>"

    def __reduce__(self) -> tuple[Any, tuple[Any]]:
        # The graph holds closures (the table's per-chunk functions), which the
        # standard pickle cannot serialise; cloudpickle (a dependency of dask,
        # and what dask.distributed ships tasks with) can.
        import cloudpickle

        return (_from_cloudpickle, (cloudpickle.dumps(self.arr), self.gpu))


def _from_cloudpickle(payload: bytes, gpu: int | None = None) -> LazyArray:
    import pickle

    return LazyArray(pickle.loads(payload), gpu)


def unwrap(obj: Any) -> Any:
    """``obj`` with every ``LazyArray`` (also inside tuples/lists) replaced by
    its dask array."""
    c = obj.__class__
    if c is LazyArray:
        return obj.arr
    if c is tuple or c is list:
        return c([unwrap(o) for o in obj])
    return obj


def wrap(obj: Any, array_type: type) -> Any:
    """``obj`` with every ``array_type`` (a dask array, also inside tuples and
    lists) wrapped in a ``LazyArray``."""
    if isinstance(obj, array_type):
        return LazyArray(obj)
    c = obj.__class__
    if c is tuple or c is list:
        return tuple([wrap(o, array_type) for o in obj])
    return obj
