"""Index kernels on native arrays, one set per device kind.

Coordinates, linear keys and segment ids are native ``int64`` arrays
(``numpy.ndarray`` on the CPU, ``cupy.ndarray`` on CUDA).  The structural work
of sparse arrays (sorting keys, searching ranges, summing duplicates, segment
reductions) runs here; the *values* go through ``ocean_array_api`` functions,
so that dtypes, promotion and errors are those of the standard namespace.

:class:`Kernels` is written against the part of the NumPy API that CuPy
shares (``argsort``, ``searchsorted``, ``cumsum``, ``bincount``, ``nonzero``,
fancy indexing, ...), and works with either module.  The NumPy and CuPy
subclasses replace a few methods with faster native ones (``ufunc.at``,
``repeat``, a packed-key sort; ``cupyx.scatter_add``).  A device kind with no
kernels raises ``NotImplementedError`` naming it.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

import numpy as np

__all__ = ["Kernels", "kernels_for"]

# Reduction operators: name -> (ufunc name, identity for the dense accumulator)
_OPS = ("add", "multiply", "maximum", "minimum")


class Kernels:
    """Structural kernels for one native array module (NumPy or CuPy).

    Every method takes and returns native arrays of module ``nx``; index
    arrays are ``int64``.  Only the NumPy API shared by CuPy is used here.
    """

    kind = "portable"

    def __init__(self, nx: Any) -> None:
        self.nx = nx
        self.int64 = nx.int64

    # --- construction helpers -------------------------------------------------
    def arange(self, n: int) -> Any:
        return self.nx.arange(n, dtype=self.int64)

    def empty_index(self) -> Any:
        return self.nx.empty(0, dtype=self.int64)

    # --- sorting and searching ------------------------------------------------
    def sort_perm(self, keys: Any, max_key: int) -> tuple[Any, Any]:
        """``(keys[perm], perm)`` with ``perm`` a stable sorting permutation.

        ``max_key`` bounds the keys (``0 <= keys <= max_key``).
        """
        perm = self.nx.argsort(keys, kind="stable")
        return keys[perm], perm

    def merge_sorted(self, ka: Any, kb: Any, max_key: int) -> tuple[Any, Any]:
        """Merge two ascending key lists: ``(keys, from_a)``, with a key present
        in both appearing twice, ``a``'s first."""
        nx = self.nx
        sk, perm = self.sort_perm(nx.concatenate((ka, kb)), max_key)
        return sk, perm < ka.shape[0]

    def is_sorted(self, keys: Any, *, strict: bool) -> bool:
        """Whether ``keys`` is ascending (strictly: also unique)."""
        if keys.shape[0] < 2:
            return True
        d = keys[1:] - keys[:-1]
        return bool((d > 0).all() if strict else (d >= 0).all())

    def group_starts(self, sorted_keys: Any) -> Any:
        """Start positions of the runs of equal values of ``sorted_keys``."""
        n = sorted_keys.shape[0]
        if n == 0:
            return self.empty_index()
        nx = self.nx
        change = nx.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1
        return nx.concatenate(
            (nx.zeros(1, dtype=self.int64), change.astype(self.int64))
        )

    def repeat(self, values: Any, counts: Any) -> Any:
        """``values[i]`` repeated ``counts[i]`` times, in order."""
        nx = self.nx
        total = int(counts.sum()) if counts.shape[0] else 0
        if total == 0:
            return values[:0]
        keep = nx.flatnonzero(counts > 0)
        c = counts[keep]
        offsets = nx.cumsum(c) - c
        marks = nx.zeros(total, dtype=self.int64)
        marks[offsets] = 1
        ids = nx.cumsum(marks) - 1
        return values[keep][ids]

    def expand_ranges(self, starts: Any, counts: Any) -> Any:
        """The concatenation of ``arange(starts[i], starts[i] + counts[i])``."""
        nx = self.nx
        total = int(counts.sum()) if counts.shape[0] else 0
        if total == 0:
            return self.empty_index()
        offsets = nx.cumsum(counts) - counts
        return self.repeat(starts - offsets, counts) + self.arange(total)

    # --- segment reductions ---------------------------------------------------
    def scatter(self, op: str, out: Any, idx: Any, vals: Any) -> None:
        """``out[idx] = op(out[idx], vals)`` with repeated indices accumulating."""
        if idx.shape[0] == 0:
            return
        sk, perm = self.sort_perm(idx, int(out.shape[0]))
        starts = self.group_starts(sk)
        red = self.reduce_sorted(op, starts, vals[perm])
        u = sk[starts]
        out[u] = getattr(self.nx, op)(out[u], red)

    def reduce_sorted(self, op: str, starts: Any, vals: Any) -> Any:
        """Reduce ``vals`` over the runs beginning at ``starts`` (non-empty runs).

        Portable: an inclusive segmented scan by doubling (log2 of the longest
        run steps), then the last element of each run.
        """
        nx = self.nx
        n = vals.shape[0]
        if n == 0:
            return vals[:0]
        ufunc = getattr(nx, op)
        ends = nx.concatenate((starts[1:], nx.asarray([n], dtype=self.int64)))
        longest = int((ends - starts).max())
        seg = self.repeat(self.arange(starts.shape[0]), ends - starts)
        v = vals.copy()
        step = 1
        extra = (1,) * (vals.ndim - 1)  # rows of values reduce as units
        while step < longest:
            same = (seg[step:] == seg[:-step]).reshape((-1, *extra))
            v[step:] = nx.where(same, ufunc(v[step:], v[:-step]), v[step:])
            step *= 2
        return v[ends - 1]

    def counts(self, seg: Any, nseg: int) -> Any:
        """How often each value of ``range(nseg)`` occurs in ``seg``."""
        return self.nx.bincount(seg, minlength=nseg).astype(self.int64)


class NumpyKernels(Kernels):
    """NumPy: ``ufunc.at``/``reduceat``, ``repeat`` and a packed-key sort."""

    kind = "cpu"

    def __init__(self) -> None:
        super().__init__(np)

    def sort_perm(self, keys: Any, max_key: int) -> tuple[Any, Any]:
        n = keys.shape[0]
        if n < 2:
            return keys, np.arange(n, dtype=np.int64)
        nbits = max(int(n - 1).bit_length(), 1)
        if int(max_key).bit_length() + nbits <= 63:
            # Pack (key, position) into one int64 and sort the values:
            # NumPy's vectorised sort beats argsort several times over, and
            # the position in the low bits makes the order stable.
            packed = keys << nbits
            packed |= np.arange(n, dtype=np.int64)
            packed.sort()
            perm = packed & ((1 << nbits) - 1)
            packed >>= nbits
            return packed, perm
        perm = np.argsort(keys, kind="stable")
        return keys[perm], perm

    def repeat(self, values: Any, counts: Any) -> Any:
        return np.repeat(values, counts)

    def merge_sorted(self, ka: Any, kb: Any, max_key: int) -> tuple[Any, Any]:
        if max_key >= 1 << 62:
            return super().merge_sorted(ka, kb, max_key)
        # (key, source) packed in one int64; timsort merges the two runs in
        # linear time
        packed = np.empty(ka.shape[0] + kb.shape[0], dtype=np.int64)
        n = ka.shape[0]
        np.left_shift(ka, 1, out=packed[:n])
        np.left_shift(kb, 1, out=packed[n:])
        packed[n:] |= 1
        packed.sort(kind="stable")
        from_a = (packed & 1) == 0
        packed >>= 1
        return packed, from_a

    def scatter(self, op: str, out: Any, idx: Any, vals: Any) -> None:
        getattr(np, op).at(out, idx, vals)

    def reduce_sorted(self, op: str, starts: Any, vals: Any) -> Any:
        if vals.shape[0] == 0:
            return vals[:0]
        return getattr(np, op).reduceat(vals, starts)


class CupyKernels(Kernels):
    """CuPy: its atomic scatter kernels (``cupy.add.at``, ``maximum.at``,
    ``minimum.at``) where they apply.

    Every method falls back to the portable implementation for dtypes the
    CuPy kernels do not cover.  (``cupyx.scatter_add`` and friends, which
    these replace, are deprecated in CuPy 14: a DeprecationWarning on every
    call, seen on a GPU.)
    """

    kind = "cuda"

    # dtypes of CuPy's atomic scatter kernels (ufunc.at) that are exact.
    # Note: CuPy 14's maximum.at and minimum.at round float64 values to
    # float32 (seen on a GPU): float64 extrema take the portable path.
    _SCATTER: ClassVar[dict[str, frozenset[str]]] = {
        "add": frozenset(["float32", "float64", "int32", "uint32", "uint64"]),
        "maximum": frozenset(["float32", "int32", "uint32", "uint64"]),
        "minimum": frozenset(["float32", "int32", "uint32", "uint64"]),
    }

    def scatter(self, op: str, out: Any, idx: Any, vals: Any) -> None:
        name = out.dtype.name
        if name in self._SCATTER.get(op, ()):
            getattr(self.nx, op).at(out, idx, vals.astype(out.dtype, copy=False))
            return
        if op == "add" and name == "int64":
            # two's complement: adding as uint64 gives the int64 sum bits
            u = out.view(self.nx.uint64)
            self.nx.add.at(u, idx, vals.astype(out.dtype).view(self.nx.uint64))
            return
        super().scatter(op, out, idx, vals)


_lock = threading.Lock()
_cache: dict[str, Kernels] = {}


def kernels_for(device: Any) -> Kernels:
    """The kernels for ``device``'s kind (cached); NotImplementedError if none.

    The CPU gets :class:`NumpyKernels`, real CuPy :class:`CupyKernels`, and any
    other backend whose ``array_module()`` gives a NumPy-compatible module the
    portable :class:`Kernels` over it.
    """
    kind = device._kind
    k = _cache.get(kind)
    if k is not None:
        return k
    with _lock:
        if kind not in _cache:
            if kind == "cpu":
                _cache[kind] = NumpyKernels()
            else:
                get_module = getattr(device._backend, "array_module", None)
                nx = get_module() if get_module is not None else None
                if nx is None:
                    msg = (
                        f"ocean_ext.sparse: no sparse kernels for device kind "
                        f"{kind!r}: its backend has no array_module()"
                    )
                    raise NotImplementedError(msg)
                if getattr(nx, "__name__", "") == "cupy":
                    _cache[kind] = CupyKernels(nx)
                else:
                    _cache[kind] = Kernels(nx)
        return _cache[kind]
