"""Read-only arrays and memory overlap: set_readonly, is_readonly, ReadOnlyError, shares_memory.

Read-only is a property of *memory*, not of one array object:
``set_readonly(x)`` protects the elements of ``x``, so that every write that
would touch them raises :class:`ReadOnlyError`, through ``x`` itself, through
any view of ``x`` (made before or after the call) and through any array whose
memory overlaps it.  The check is per array, not per element: when only a view
of ``b`` is read-only, every write through ``b`` raises, whichever elements it
writes (write through a view of the writable part instead).

How it works, and why it costs nothing until used:

- The core's write paths (``__setitem__``, the in-place operators, ``@=``,
  ``ocean_ext``'s in-place functions and sparse writes) call
  ``ocean_array_api._ext_hooks.check_writable(x, where)``, whose default
  looks at the memory's own flag only (NumPy's ``writeable``); the quick write
  paths test for that default by identity and leave that flag to the backend.
  ``set_readonly`` installs a real checker, and the default comes back as
  soon as no read-only region is left (their arrays were freed, or made
  writable again).
- A *region* is the memory of an array that ``set_readonly`` was called on:
  its root buffer (the NumPy array that owns the memory, referenced weakly,
  so regions die with their memory), its byte extent, and its layout.  A
  write target whose memory overlaps a region of the same root raises.
  Extents decide for contiguous arrays; for strided ones NumPy's exact
  ``shares_memory`` does, so ``x[::2]`` read-only leaves ``x[1::2]`` writable.
- NumPy's own ``writeable`` flag is turned off on the array's data too, so
  ``numpy.asarray(x)`` and views taken later are protected at the NumPy level
  as well.  Arrays made from read-only NumPy arrays are read-only for the same
  reason, and the core reports NumPy's refusal as :class:`ReadOnlyError`.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from typing import Any

import numpy as np

from ocean_array_api import _ext_hooks as _hooks
from ocean_array_api._array_object import Array
from ocean_array_api._ext_hooks import ReadOnlyError

__all__ = ["ReadOnlyError", "is_readonly", "set_readonly", "shares_memory"]

# Defined in the core (whose write paths raise it), public here.
ReadOnlyError.__module__ = "ocean_ext"

# Exact overlap of two strided arrays is an integer program; beyond this much
# work NumPy gives up and the answer is "they may overlap" (which refuses the
# write rather than allowing a wrong one).
_MAX_WORK = 100_000


class _Region:
    """The memory of one array made read-only by ``set_readonly``."""

    __slots__ = ("data", "dense", "hi", "layout", "lo", "root")

    def __init__(
        self,
        root: weakref.ref[Any],
        data: weakref.ref[Any],
        lo: int,
        hi: int,
        layout: tuple[int, tuple[int, ...], tuple[int, ...], int],
        dense: bool,
    ) -> None:
        self.root = root  # the root buffer's native array (weak)
        self.data = data  # the array set_readonly was called on (weak)
        self.lo = lo
        self.hi = hi
        self.layout = layout  # (address, shape, strides, itemsize)
        self.dense = dense  # contiguous: the extent is exactly its memory


class _LayoutView:
    """Exposes a region's memory to NumPy (for ``numpy.shares_memory``)."""

    def __init__(
        self, owner: Any, layout: tuple[int, tuple[int, ...], tuple[int, ...], int]
    ) -> None:
        ptr, shape, strides, itemsize = layout
        self._owner = owner  # keeps the memory alive while the view is used
        self.__array_interface__ = {
            "version": 3,
            "data": (ptr, True),
            "shape": shape,
            "strides": strides,
            "typestr": f"|V{itemsize}",
        }


_lock = threading.RLock()  # re-entrant: a weakref callback may run under it
# id(root) -> regions of that root.  Entries go when the root is freed (weak
# reference callback), so an id is never that of another, newer object.
_regions: dict[int, list[_Region]] = {}


# --- memory of native arrays ---------------------------------------------------
def _root(data: Any) -> Any:
    """The native array that owns ``data``'s memory (the end of its base chain)."""
    base = getattr(data, "base", None)
    while base is not None and isinstance(base, type(data)):
        data = base
        base = getattr(data, "base", None)
    return data


def _interface(data: Any) -> dict[str, Any]:
    iface = getattr(data, "__array_interface__", None)
    if iface is None:
        iface = data.__cuda_array_interface__
    return iface  # type: ignore[no-any-return]


def _layout(data: Any) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    """(address, shape, strides, itemsize) of a native array."""
    iface = _interface(data)
    itemsize = data.dtype.itemsize
    shape = tuple(iface["shape"])
    strides = iface.get("strides")
    if strides is None:  # C-contiguous
        strides_l = []
        step = itemsize
        for n in reversed(shape):
            strides_l.append(step)
            step *= max(n, 1)
        strides = tuple(reversed(strides_l))
    return int(iface["data"][0]), shape, tuple(strides), itemsize


def _extent(
    layout: tuple[int, tuple[int, ...], tuple[int, ...], int],
) -> tuple[int, int]:
    """Byte bounds [lo, hi) of a layout; an empty array is the point at its address."""
    ptr, shape, strides, itemsize = layout
    if 0 in shape:
        return ptr, ptr + 1
    lo = hi = ptr
    for n, s in zip(shape, strides, strict=True):
        if s >= 0:
            hi += (n - 1) * s
        else:
            lo += (n - 1) * s
    return lo, hi + itemsize


def _is_dense(data: Any) -> bool:
    flags = getattr(data, "flags", None)
    if flags is None:
        return False
    return bool(flags.c_contiguous or flags.f_contiguous)


def _overlap(data: Any, lo: int, hi: int, region: _Region, root: Any) -> bool:
    """Whether native ``data`` (extent [lo, hi)) overlaps ``region``'s memory."""
    if not (lo < region.hi and region.lo < hi):
        return False
    if region.dense and _is_dense(data):
        return True
    if type(data) is not np.ndarray or data.size == 0:
        return True  # no exact test here: extents decide
    mem = np.asarray(_LayoutView(root, region.layout))
    try:
        # (NumPy's stubs only list max_work=-1 and 0; any bound is valid)
        return bool(np.shares_memory(data, mem, max_work=_MAX_WORK))  # type: ignore[arg-type]
    except np.exceptions.TooHardError:
        return True


def _has_memory(data: Any) -> bool:
    """Whether native ``data`` exposes memory (lazy handles have none: their
    read-only state is their own ``flags.writeable``)."""
    return hasattr(data, "__array_interface__") or hasattr(
        data, "__cuda_array_interface__"
    )


def _writeable(data: Any) -> bool:
    flags = getattr(data, "flags", None)
    return bool(getattr(flags, "writeable", True))


def _regions_hit(data: Any) -> list[_Region]:
    """The read-only regions that native ``data``'s memory overlaps."""
    root = _root(data)
    regions = _regions.get(id(root))
    if not regions or not _has_memory(data):
        return []
    lo, hi = _extent(_layout(data))
    return [r for r in tuple(regions) if _overlap(data, lo, hi, r, root)]


# --- the checker installed in the core ---------------------------------------------
def _check(x: Any, where: str) -> None:
    """``check_writable`` while some memory is read-only."""
    data = x._data
    if not _writeable(data) or (_regions and _regions_hit(data)):
        raise _hooks.readonly_error(where)


def _install() -> None:
    _hooks._check = _check


def _uninstall_if_unused() -> None:
    if not _regions:
        _hooks._check = _hooks._writable_default


def _forget_root(key: int) -> Any:
    def callback(ref: weakref.ref[Any]) -> None:
        with _lock:
            regions = _regions.get(key)
            if regions is not None and regions and regions[0].root is ref:
                del _regions[key]
            _uninstall_if_unused()

    return callback


# --- public functions ------------------------------------------------------------
def _check_array(x: Any, where: str, argname: str = "x") -> None:
    if x.__class__ is not Array:
        msg = (
            f"{where}: `{argname}` must be an array of ocean_array_api, got "
            f"{type(x).__name__}; convert it with ocean_array_api.asarray() first"
        )
        raise TypeError(msg)


def set_readonly(x: Any, flag: bool = True) -> None:
    """Make the memory of ``x`` read-only, or writable again.

    With ``flag=True`` every later write that could touch the elements of
    ``x`` raises :class:`ReadOnlyError`: through ``x``, through any view of
    ``x`` (also views made *before* this call) and through any other array
    whose memory overlaps that of ``x`` (e.g. its base: the check is per
    array, not per element).  NumPy's ``writeable`` flag of the data is turned
    off too, so ``numpy.asarray(x)`` cannot write either.

    With ``flag=False`` the read-only regions lying within the memory of ``x``
    are released and its NumPy flag is turned back on.  Views taken while the
    memory was read-only keep NumPy's flag off: release each with
    ``set_readonly(view, False)``.

    Parameters
    ----------
    x : Array or ocean_ext.sparse.COO
        The array.  Sparse arrays follow the same rules, with the positions
        a view reaches in its base array standing for its memory (a COO and
        its views share entries, not NumPy memory).
    flag : bool, optional
        ``True`` (default) to make it read-only, ``False`` to release it.

    Raises
    ------
    TypeError
        If ``x`` is not an array or ``flag`` not a bool.
    ValueError
        With ``flag=False``, if ``x`` lies in read-only memory that it does not
        cover whole (a view of an array that was made read-only: release that
        array instead), or if its memory was read-only when it came in (a
        read-only NumPy array or buffer), which nothing here can change.

    See Also
    --------
    is_readonly, shares_memory

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.arange(6)
    >>> v = x[2:]                       # a view made before
    >>> ocean_ext.set_readonly(x)
    >>> ocean_ext.is_readonly(v)
    True
    >>> v[0] = 7
    Traceback (most recent call last):
        ...
    ocean_ext.ReadOnlyError: __setitem__(): the array is read-only (or a view of read-only memory); write to a copy instead (asarray(x, copy=True))
    >>> ocean_ext.set_readonly(x, False)
    >>> v[0] = 7
    >>> x
    Array([0, 1, 7, 3, 4, 5], dtype=int64)
    """
    where = "set_readonly()"
    if flag is not True and flag is not False:
        msg = f"{where}: `flag` must be a bool, got {flag!r}"
        raise TypeError(msg)
    hook = getattr(type(x), "_set_readonly", None)
    if x.__class__ is not Array and hook is not None:
        hook(x, flag)  # other array types of ocean_ext (sparse COO)
        return
    _check_array(x, where)
    data = x._data
    if flag:
        _make_readonly(data)
    else:
        _release(data, where)


def _make_readonly(data: Any) -> None:
    if type(data) is np.ndarray:
        data.flags.writeable = False
    elif not _has_memory(data):
        # a lazy handle: a flag its views and base heed (ocean_dask's Flags)
        data.flags.writeable = False
        return
    layout = _layout(data)
    if 0 in layout[1]:
        return  # no elements: nothing to protect beyond NumPy's flag
    root = _root(data)
    lo, hi = _extent(layout)
    key = id(root)
    try:
        data_ref = weakref.ref(data)
    except TypeError:  # pragma: no cover - native arrays support weak references
        data_ref = weakref.ref(root)
    with _lock:
        regions = _regions.get(key)
        if regions is None:
            ref = weakref.ref(root, _forget_root(key))
            regions = _regions[key] = []
        else:
            ref = regions[0].root
        regions.append(_Region(ref, data_ref, lo, hi, layout, _is_dense(data)))
        _install()


def _release(data: Any, where: str) -> None:
    if not _has_memory(data):
        # a lazy handle: it and its views released, or ValueError
        data.flags.writeable = True
        return
    root = _root(data)
    with _lock:
        regions = list(_regions.get(id(root), ()))
        if regions:
            lo, hi = _extent(_layout(data))
            inside: list[_Region] = []
            for r in regions:
                if not _overlap(data, lo, hi, r, root):
                    continue
                if lo <= r.lo and r.hi <= hi:
                    inside.append(r)
                else:
                    msg = (
                        f"{where}: `x` is a view of read-only memory (an array it "
                        f"shares memory with was made read-only); call "
                        f"set_readonly(base, False) on that array instead"
                    )
                    raise ValueError(msg)
        else:
            inside = []
        if not _writeable(data):
            try:
                data.flags.writeable = True
            except ValueError:
                msg = (
                    f"{where}: the memory of `x` was read-only when it came in "
                    f"(a read-only NumPy array or buffer, or a view of one) and "
                    f"cannot be made writable; use asarray(x, copy=True) for a "
                    f"writable copy"
                )
                raise ValueError(msg) from None
        for r in inside:
            regions.remove(r)
            other = r.data()
            if other is not None and other is not data and not _writeable(other):
                with contextlib.suppress(ValueError):  # its base is writable now
                    other.flags.writeable = True
        key = id(root)
        if key in _regions:
            if regions:
                _regions[key] = regions
            else:
                del _regions[key]
        _uninstall_if_unused()


def is_readonly(x: Any) -> bool:
    """Whether writes to ``x`` raise :class:`ReadOnlyError`.

    True if ``x`` overlaps memory made read-only with :func:`set_readonly`
    (``x`` itself, an array it is a view of, or a view of it), or if its data
    is read-only at the source (e.g. it was made from a read-only NumPy array).

    Parameters
    ----------
    x : Array or ocean_ext.sparse.COO
        The array.

    Returns
    -------
    bool

    Examples
    --------
    >>> import numpy as np
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> a = np.arange(3.0)
    >>> a.flags.writeable = False
    >>> ocean_ext.is_readonly(xp.asarray(a))
    True
    >>> ocean_ext.is_readonly(xp.asarray(a, copy=True))
    False
    """
    hook = getattr(type(x), "_is_readonly", None)
    if x.__class__ is not Array and hook is not None:
        return bool(hook(x))  # other array types of ocean_ext (sparse COO)
    _check_array(x, "is_readonly()")
    data = x._data
    return not _writeable(data) or bool(_regions and _regions_hit(data))


def shares_memory(a: Array | np.ndarray, b: Array | np.ndarray) -> bool:
    """Whether ``a`` and ``b`` share memory (some element of one is in the other).

    Exact for CPU arrays (NumPy's ``shares_memory``, which can take long for
    arrays with unusual strides); arrays on devices of different kinds never
    share memory.  NumPy arrays are accepted too, to check whether an array
    was made without a copy.

    Parameters
    ----------
    a, b : Array or numpy.ndarray
        The arrays.

    Returns
    -------
    bool

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> x = xp.arange(10)
    >>> ocean_ext.shares_memory(x[::2], x[1::2])
    False
    >>> ocean_ext.shares_memory(x[2:5], x[4:])
    True
    >>> ocean_ext.shares_memory(x, x + 0)
    False
    """
    where = "shares_memory()"
    datas = []
    places = []  # the memory space: all CPU devices share the host's
    for name, v in (("a", a), ("b", b)):
        if v.__class__ is Array:
            datas.append(v._data)
            dev = v._device
            places.append("cpu" if dev._kind == "cpu" else (dev._kind, dev._index))
        elif isinstance(v, np.ndarray):
            datas.append(v)
            places.append("cpu")
        else:
            msg = (
                f"{where}: `{name}` must be an array of ocean_array_api or a NumPy "
                f"array, got {type(v).__name__}"
            )
            raise TypeError(msg)
    if places[0] != places[1]:
        return False
    da, db = datas
    if type(da) is np.ndarray and type(db) is np.ndarray:
        return bool(np.shares_memory(da, db))
    if not (_has_memory(da) and _has_memory(db)):
        # lazy handles: a handle and its views (basic indexing) share the
        # elements they both reach; other handles share nothing
        overlaps = getattr(da, "overlaps", None)
        if overlaps is not None and type(db) is type(da):
            return bool(overlaps(db))
        return da is db
    if 0 in da.shape or 0 in db.shape:
        return False
    lo1, hi1 = _extent(_layout(da))
    lo2, hi2 = _extent(_layout(db))
    return lo1 < hi2 and lo2 < hi1
