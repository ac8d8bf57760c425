"""The ``COO`` sparse array: construction, attributes, views and writes."""

from __future__ import annotations

import weakref
from typing import Any, cast

import numpy as np

import ocean_array_api as xp
from ocean_array_api import _dtypes as _dt
from ocean_array_api import _ext_hooks as _hooks
from ocean_array_api._ext_hooks import ReadOnlyError

from . import _indexing as _ix
from ._common import (
    Array,
    Device,
    DType,
    as_index,
    check_data_dtype,
    fill_scalar,
    is_fill,
    prod,
    wrap,
    wrap_index,
)
from ._kernels import kernels_for
from ._store import Entries, Store, check_size, from_keys

__all__ = ["COO"]


def _export(native: Any) -> Any:
    """A read-only view of an internal native array (CPU), for handing out.

    Snapshots are shared between arrays and views; a write into a handed-out
    array would corrupt them, so NumPy's writeable flag guards them.
    """
    if isinstance(native, np.ndarray):
        v = native.view()
        v.flags.writeable = False
        return v
    return native


def _as_array(obj: Any, where: str, argname: str, device: Any) -> Array:
    if obj.__class__ is Array:
        return obj
    if isinstance(obj, COO):
        msg = f"{where}: `{argname}` must be a dense array, got a COO"
        raise TypeError(msg)
    try:
        return xp.asarray(obj, device=device) if device is not None else xp.asarray(obj)
    except (TypeError, ValueError) as exc:
        msg = f"{where}: `{argname}` could not be converted to an array: {exc}"
        raise TypeError(msg) from None


class COO:
    """An n-dimensional sparse array in coordinate (COO) format.

    The stored entries are kept in canonical form: coordinates sorted in
    row-major order, unique, and no stored value equal to ``fill_value``
    (duplicates are summed and fill values dropped at construction).

    Parameters
    ----------
    coords : array, shape (ndim, nnz)
        Integer coordinates of the stored entries (an ``ocean_array_api``
        array, or anything ``asarray`` accepts).  A 1-D array is accepted for
        a 1-D sparse array.
    data : array, shape (nnz,)
        Their values, of any numeric or boolean dtype; a 0-d array or scalar
        is broadcast to every entry.
    shape : tuple of int, optional
        The shape; by default the smallest shape holding every coordinate.
    fill_value : scalar, optional
        The value of the elements that are not stored: a Python scalar or 0-d
        array the dtype holds *exactly* (never rounded); by default the zero
        of the dtype (``False`` for bool).
    device : Device, optional
        Where to put ``coords`` and ``data`` when they are not arrays already
        (by default ``data``'s device if it is an array, else the default
        device).

    Raises
    ------
    TypeError
        ``coords`` not of an integer dtype, ``data`` of an unsupported dtype,
        a ``fill_value`` of a kind the dtype cannot hold (a bool for an
        integer dtype, an int for bool, a float for an integer dtype).
    OverflowError
        A ``fill_value`` out of the dtype's range.
    ValueError
        Mismatched lengths, ``coords`` out of range for ``shape``, ``coords``
        and ``data`` on different devices, a ``fill_value`` in range that the
        dtype cannot hold exactly (0.1 in float16).

    Notes
    -----
    Basic indexing (integers, slices with any step, ``None``, ``...``) returns
    a *view*: it shares storage with its base array and costs no copy of the
    entries.  ``s[key] = value`` writes through to the base array and to every
    view of it.  Advanced indexing (integer or boolean arrays) returns an
    independent array.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext.sparse import COO
    >>> s = COO(xp.asarray([[0, 1, 1], [2, 0, 2]]), xp.asarray([1.0, 2.0, 3.0]), (2, 3))
    >>> s
    <COO: shape=(2, 3), dtype=float64, nnz=3, fill_value=0.0>
    >>> s.todense()
    Array([[0., 0., 1.],
           [2., 0., 3.]], dtype=float64)
    >>> row = s[1]          # a view
    >>> row[2] = 0.0        # writes through: the entry is removed
    >>> s.nnz
    2
    """

    __slots__ = (
        "__weakref__",
        "_ent",
        "_ent_version",
        "_map",
        "_parent",
        "_readonly",
        "_store",
    )

    _store: Store
    _map: _ix.Map | None
    _ent: Entries | None
    _ent_version: int
    _parent: COO | None
    _readonly: bool

    __hash__ = None  # type: ignore[assignment]
    __array_priority__ = 2000
    __array_ufunc__ = None

    def __init__(
        self,
        coords: Any,
        data: Any,
        shape: tuple[int, ...] | None = None,
        *,
        fill_value: Any = None,
        device: Device | str | None = None,
    ) -> None:
        where = "COO()"
        if device is None and coords.__class__ is not Array and data.__class__ is Array:
            device = data.device  # the indices go where the values are
        c = _as_array(coords, where, "coords", device)
        dev = c.device
        d = _as_array(data, where, "data", dev if data.__class__ is not Array else None)
        if d.device is not dev:
            msg = (
                f"{where}: `coords` is on {dev!r} and `data` on {d.device!r}; move one "
                f"with to_device()"
            )
            raise ValueError(msg)
        if c.dtype not in _dt._integer:
            msg = f"{where}: `coords` must have an integer dtype, got {c.dtype}"
            raise TypeError(msg)
        check_data_dtype(d.dtype, where, "data")
        k = kernels_for(dev)
        nx = k.nx
        cn = c._data
        if shape is not None:
            shape = _shape_arg(shape, where)
        if cn.ndim == 1 and (shape is None or len(shape) == 1):
            cn = cn.reshape(1, -1)
        if cn.ndim != 2:
            msg = f"{where}: `coords` must have shape (ndim, nnz), got shape {tuple(cn.shape)}"
            raise ValueError(msg)
        nd, nnz = (int(v) for v in cn.shape)
        cn = cn.astype(nx.int64, copy=True)
        dn = d._data
        if dn.ndim == 0:
            dn = nx.broadcast_to(dn, (nnz,))
        if dn.ndim != 1 or dn.shape[0] != nnz:
            msg = (
                f"{where}: `data` must have shape ({nnz},) to match the {nnz} "
                f"coordinates, got shape {tuple(dn.shape)}"
            )
            raise ValueError(msg)
        dn = dn.copy()
        if nnz and nd and int(cn.min()) < 0:
            msg = f"{where}: `coords` must be non-negative, got {int(cn.min())}"
            raise ValueError(msg)
        if shape is None:
            if nnz == 0 and nd > 0:
                msg = f"{where}: `shape` is required when there are no coordinates"
                raise ValueError(msg)
            shape = tuple(int(v) + 1 for v in cn.max(axis=1)) if nd else ()
        if len(shape) != nd:
            msg = (
                f"{where}: `coords` has {nd} rows but `shape` {shape} has {len(shape)} "
                f"dimensions"
            )
            raise ValueError(msg)
        if nnz and nd:
            hi = cn.max(axis=1)
            for axis, (m, n) in enumerate(
                zip((int(v) for v in hi), shape, strict=True)
            ):
                if m >= n:
                    msg = (
                        f"{where}: `coords` has index {m} on axis {axis}, out of range "
                        f"for `shape` {shape}"
                    )
                    raise ValueError(msg)
        check_size(shape, where)
        fill = fill_scalar(fill_value, d.dtype, where)
        ent = Entries(shape, d.dtype, dev, dn, coords=cn, k=k)
        ent = from_keys(shape, d.dtype, dev, ent.keys, dn, fill, coords=cn, k=k)
        self._init_base(Store(ent, fill))

    # --- internal constructors ----------------------------------------------------
    def _init_base(self, store: Store) -> None:
        self._store = store
        self._map = None
        self._ent = None
        self._ent_version = -1
        self._parent = None
        self._readonly = False

    @classmethod
    def _from_entries(cls, ent: Entries, fill: Any) -> COO:
        """A new base array owning ``ent`` (canonical, pruned)."""
        self = object.__new__(cls)
        self._init_base(Store(ent, fill))
        return self

    def _view(self, m: _ix.Map) -> COO:
        v = object.__new__(COO)
        v._store = self._store
        v._map = m
        v._ent = None
        v._ent_version = -1
        v._parent = self
        # like NumPy's writeable flag: a view of an array flagged read-only
        # starts flagged (and stays so until released, see _set_readonly)
        v._readonly = self._readonly
        return v

    def _mat(self) -> Entries:
        """The canonical entries of this array (cached for views)."""
        m = self._map
        st = self._store
        if m is None:
            return st.ent
        if self._ent_version != st.version:
            self._ent = _ix.view_entries(st.ent, m)
            self._ent_version = st.version
        return self._ent  # type: ignore[return-value]

    def _unsorted(self) -> tuple[Any, Any]:
        """``(coords, data)`` of the entries in some order (no sort for views)."""
        m = self._map
        st = self._store
        if m is None:
            ent = st.ent
            return ent.coords, ent.data
        if self._ent_version == st.version:
            ent = self._ent  # type: ignore[assignment]
            return ent.coords, ent.data
        return _ix.view_unsorted(st.ent, m)

    def _map_or_identity(self) -> _ix.Map:
        m = self._map
        if m is not None:
            return m
        st = self._store
        if st.identity is None:
            st.identity = _ix.identity_map(st.shape)
        return st.identity  # type: ignore[no-any-return]

    # --- attributes ---------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        """The array's dimensions."""
        m = self._map
        return m.shape if m is not None else self._store.shape

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of elements (stored or not)."""
        return prod(self.shape)

    @property
    def dtype(self) -> DType:
        """Data type of the elements."""
        return self._store.dtype

    @property
    def device(self) -> Device:
        """The device holding the entries."""
        return self._store.device

    @property
    def fill_value(self) -> bool | int | float | complex:
        """The value of the elements that are not stored (a Python scalar)."""
        return self._store.fill  # type: ignore[no-any-return]

    @property
    def nnz(self) -> int:
        """Number of stored entries."""
        m = self._map
        st = self._store
        if m is None:
            return st.ent.nnz
        if self._ent_version == st.version:
            return self._ent.nnz  # type: ignore[union-attr]
        sel = _ix.select(st.ent, m)
        if sel.__class__ is slice:
            return int(sel.stop - sel.start)
        return int(sel.shape[0])

    @property
    def density(self) -> float:
        """``nnz / size`` (0.0 for an array of size 0)."""
        size = self.size
        return self.nnz / size if size else 0.0

    @property
    def coords(self) -> Array:
        """The coordinates of the stored entries, int64 of shape (ndim, nnz),
        in canonical (row-major) order.  Read-only on the CPU."""
        ent = self._mat()
        return wrap_index(_export(ent.coords), self.device)

    @property
    def data(self) -> Array:
        """The stored values, shape (nnz,), in the order of ``coords``.
        Read-only on the CPU."""
        ent = self._mat()
        return wrap(_export(ent.data), ent.dtype, ent.device)

    @property
    def base(self) -> COO | None:
        """The array this one is a view of (None for an array owning its data)."""
        p = self._parent
        while p is not None and p._parent is not None:
            p = p._parent
        return p

    @property
    def T(self) -> COO:
        """Transpose (a view) of an array of at most 2 dimensions."""
        if self.ndim > 2:
            msg = f"COO.T: only defined for arrays of at most 2 dimensions, got {self.ndim}; use mT or permute_dims()"
            raise ValueError(msg)
        m = self._map_or_identity()
        return self._view(_ix.permute(m, tuple(range(self.ndim))[::-1]))

    @property
    def mT(self) -> COO:
        """Transpose of the last two axes (a view)."""
        nd = self.ndim
        if nd < 2:
            msg = f"COO.mT: needs at least 2 dimensions, got {nd}"
            raise ValueError(msg)
        axes = (*range(nd - 2), nd - 1, nd - 2)
        return self._view(_ix.permute(self._map_or_identity(), axes))

    # --- conversion -------------------------------------------------------------
    @classmethod
    def from_dense(cls, x: Any, /, *, fill_value: Any = None) -> COO:
        """A COO holding the elements of dense ``x`` that differ from ``fill_value``.

        ``fill_value`` (by default the zero of the dtype) follows the rules of
        :class:`COO`: a value the dtype holds exactly, else TypeError (wrong
        kind), OverflowError (out of range) or ValueError (inexact).

        Examples
        --------
        >>> import ocean_array_api as xp
        >>> from ocean_ext.sparse import COO
        >>> s = COO.from_dense(xp.asarray([[0, 5], [7, 0]]))
        >>> s.coords
        Array([[0, 1],
               [1, 0]], dtype=int64)
        >>> s.data
        Array([5, 7], dtype=int64)
        """
        where = "COO.from_dense()"
        if isinstance(x, COO):
            return x.copy()
        a = _as_array(x, where, "x", None)
        check_data_dtype(a.dtype, where, "x")
        shape = tuple(a.shape)
        check_size(shape, where)  # type: ignore[arg-type]
        fill = fill_scalar(fill_value, a.dtype, where)
        k = kernels_for(a.device)
        flat = a._data.reshape(-1)
        mask = xp.logical_not(is_fill(wrap(flat, a.dtype, a.device), fill))._data
        keys = k.nx.flatnonzero(mask).astype(k.nx.int64, copy=False)
        ent = Entries(shape, a.dtype, a.device, flat[keys], keys=keys, k=k)  # type: ignore[arg-type]
        return cls._from_entries(ent, fill)

    def todense(self) -> Array:
        """A dense ``ocean_array_api`` array of the same shape, dtype and values.

        Examples
        --------
        >>> import ocean_array_api as xp
        >>> from ocean_ext.sparse import COO
        >>> COO(xp.asarray([[1]]), xp.asarray([2]), (3,)).todense()
        Array([0, 2, 0], dtype=int64)
        """
        shape = self.shape
        dt = self.dtype
        dev = self.device
        nx = kernels_for(dev).nx
        out = nx.full(shape, self.fill_value, dtype=dt._native)
        if self._map is None or self._ent_version == self._store.version:
            ent = self._mat()
            if ent.nnz:
                out.reshape(-1)[ent.keys] = ent.data
        else:
            coords, data = self._unsorted()
            if data.shape[0]:
                out[tuple(coords) if len(shape) else ()] = (
                    data if len(shape) else data[0]
                )
        return wrap(out, dt, dev)

    def copy(self) -> COO:
        """An independent copy (a new base array, with storage of its own)."""
        ent = self._mat()
        new = Entries(
            ent.shape,
            ent.dtype,
            ent.device,
            ent.data.copy(),
            keys=ent.keys.copy(),
            k=ent.k,
        )
        return COO._from_entries(new, self.fill_value)

    def to_device(self, device: Device | str, /, *, stream: Any = None) -> COO:
        """This array on ``device`` (itself if already there).

        Examples
        --------
        >>> import ocean_array_api as xp
        >>> from ocean_ext.sparse import COO
        >>> s = COO.from_dense(xp.asarray([1.0, 0.0]))
        >>> s.to_device("cpu") is s
        True
        """
        from ocean_array_api._devices import parse_device

        dev = parse_device(device, "COO.to_device()")
        if dev is self.device:
            return self
        ent = self._mat()
        keys = wrap_index(ent.keys, ent.device).to_device(dev, stream=stream)
        data = wrap(ent.data, ent.dtype, ent.device).to_device(dev, stream=stream)
        new = Entries(ent.shape, ent.dtype, dev, data._data, keys=keys._data)
        return COO._from_entries(new, self.fill_value)

    def astype(self, dtype: DType, /, *, copy: bool = True) -> COO:
        """Copy with the values converted to ``dtype`` (see :func:`astype`)."""
        from ._manipulation import astype

        return cast("COO", astype(self, dtype, copy=copy))

    def reshape(self, shape: tuple[int, ...], /, *, copy: bool | None = None) -> COO:
        """See :func:`reshape`."""
        from ._manipulation import reshape

        return cast("COO", reshape(self, shape, copy=copy))

    def sum(
        self, axis: Any = None, *, dtype: Any = None, keepdims: bool = False
    ) -> Any:
        """See :func:`sum`."""
        from ._reductions import sum as _sum

        return _sum(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def to_scipy_sparse(self, format: str = "coo") -> Any:  # noqa: A002
        """See :func:`ocean_ext.sparse.to_scipy_sparse`."""
        from ._convert import to_scipy_sparse

        return to_scipy_sparse(self, format=format)

    @classmethod
    def from_scipy_sparse(cls, m: Any, /) -> COO:
        """See :func:`ocean_ext.sparse.from_scipy_sparse`."""
        from ._convert import from_scipy_sparse

        return cast("COO", from_scipy_sparse(m))

    def to_pydata(self) -> Any:
        """See :func:`ocean_ext.sparse.to_pydata`."""
        from ._convert import to_pydata

        return to_pydata(self)

    @classmethod
    def from_pydata(cls, p: Any, /) -> COO:
        """See :func:`ocean_ext.sparse.from_pydata`."""
        from ._convert import from_pydata

        return cast("COO", from_pydata(p))

    # --- read-only ----------------------------------------------------------------
    # The semantics of ocean_ext.set_readonly on dense arrays, with the store
    # standing for the memory and a view's region (the base positions it
    # reaches) for its bytes: ``set_readonly(v)`` records v's region on the
    # store, and a write through any array whose region meets a recorded one
    # raises (the check is per array, not per element: writing through the
    # base raises while any view of it is read-only).  ``_readonly`` is the
    # per-object flag (NumPy's ``writeable``): set by set_readonly, inherited
    # by views made from a flagged array, cleared by set_readonly(x, False).
    def _region(self) -> Any:
        return _ix.region(self._map_or_identity())

    def _set_readonly(self, flag: bool = True) -> None:
        """Make this array's region read-only, or writable again.

        The hook behind ``ocean_ext.set_readonly`` for sparse arrays (see
        there for the semantics, which are those of dense arrays).
        """
        where = "set_readonly()"
        st = self._store
        reg = self._region()
        if flag:
            self._readonly = True
            if reg is not None:
                st.readonly.append((reg, weakref.ref(self)))
            return
        inside = []
        for item in st.readonly:
            if not _ix.regions_meet(reg, item[0]):
                continue
            if not _ix.extent_within(item[0], reg, st.shape):
                msg = (
                    f"{where}: `x` is a view of read-only memory (an array it "
                    f"shares memory with was made read-only); call "
                    f"set_readonly(base, False) on that array instead"
                )
                raise ValueError(msg)
            inside.append(item)
        if self._readonly:
            if not self._owner_writable():
                msg = (
                    f"{where}: `x` is a view made from a read-only array whose "
                    f"base is still flagged read-only; release the base with "
                    f"set_readonly(base, False) first"
                )
                raise ValueError(msg)
            self._readonly = False
        for item in inside:
            st.readonly.remove(item)
            other = item[1]()
            if other is not None and other is not self and other._owner_writable():
                other._readonly = False

    def _owner_writable(self) -> bool:
        """Whether the flag of this array may be cleared (NumPy's rule: the
        array owning the memory is not flagged read-only)."""
        base = self.base
        return base is None or not base._readonly

    def _is_readonly(self) -> bool:
        """Whether writes to this array raise (its flag, or its region meets
        a read-only region)."""
        if self._readonly:
            return True
        regions = self._store.readonly
        if not regions:
            return False
        reg = self._region()
        return any(_ix.regions_meet(reg, item[0]) for item in regions)

    def _check_writable(self, where: str) -> None:
        if self._readonly or (self._store.readonly and self._is_readonly()):
            msg = (
                f"{where}: the sparse array is read-only (or shares its entries "
                f"with a read-only view or base); write to a copy instead (s.copy())"
            )
            raise ReadOnlyError(msg)
        # the core's hook: read-only memory (``ocean_ext.set_readonly(s.data)``)
        ent = self._store.ent
        _hooks.check_writable(wrap(ent.data, ent.dtype, ent.device), where)

    # --- indexing -----------------------------------------------------------------
    def __getitem__(self, key: Any, /) -> COO:
        """``s[key]``: a view for basic keys, an independent array for advanced ones."""
        tk = key.__class__
        if tk is slice or tk is int:
            # fast path: one slice of ints, or one int in range
            shape = self.shape
            if shape:
                n = shape[0]
                if tk is int:
                    if -n <= key < n:
                        item = key + n if key < 0 else key
                        return self._view(_ix.compose(self._map_or_identity(), [item]))
                elif (
                    (key.start is None or key.start.__class__ is int)
                    and (key.stop is None or key.stop.__class__ is int)
                    and (key.step is None or (key.step.__class__ is int and key.step))
                ):
                    item = slice(*key.indices(n))
                    return self._view(_ix.compose(self._map_or_identity(), [item]))
        where = "COO.__getitem__()"
        shape = self.shape
        basic, adv = _ix.parse_key(key, shape, self.device, where)
        view = self._view(_ix.compose(self._map_or_identity(), basic))
        if adv is None:
            return view
        from ._setitem import advanced_getitem

        return cast("COO", advanced_getitem(view, adv))

    def __setitem__(self, key: Any, value: Any, /) -> None:
        """``s[key] = value``: writes through to the base array and its views.

        ``value`` may be a Python scalar, a dense array or a COO broadcastable
        to ``s[key]``, of a dtype that promotes to ``s.dtype``.  Writing the
        fill value removes entries.
        """
        where = "COO.__setitem__()"
        self._check_writable(where)
        from ._setitem import write

        basic, adv = _ix.parse_key(key, self.shape, self.device, where)
        write(
            self._store, _ix.compose(self._map_or_identity(), basic), adv, value, where
        )

    def __len__(self) -> int:
        shape = self.shape
        if not shape:
            msg = "len() of a 0-dimensional sparse array"
            raise TypeError(msg)
        return shape[0]

    def __iter__(self) -> Any:
        if not self.shape:
            msg = "iteration over a 0-dimensional sparse array"
            raise TypeError(msg)
        for i in range(self.shape[0]):
            yield self[i]

    # --- Python scalars ------------------------------------------------------------
    def _scalar(self, where: str) -> Array:
        if self.ndim != 0:
            msg = f"{where}: only 0-dimensional arrays convert to Python scalars, got shape {self.shape}"
            raise TypeError(msg)
        return self.todense()

    def __bool__(self) -> bool:
        return bool(self._scalar("__bool__()"))

    def __int__(self) -> int:
        return int(self._scalar("__int__()"))

    def __float__(self) -> float:
        return float(self._scalar("__float__()"))

    def __complex__(self) -> complex:
        return complex(self._scalar("__complex__()"))

    def __index__(self) -> int:
        return self._scalar("__index__()").__index__()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        msg = (
            "COO: implicit conversion to a dense NumPy array is refused; use "
            "s.todense() (then numpy.asarray on the CPU) or s.to_scipy_sparse()"
        )
        raise TypeError(msg)

    # --- misc ---------------------------------------------------------------------
    def __repr__(self) -> str:
        dev = self.device
        where = "" if dev._kind == "cpu" and dev._index == 0 else f", device={dev}"
        kind = "COO view" if self._map is not None else "COO"
        return (
            f"<{kind}: shape={self.shape}, dtype={self.dtype}, nnz={self.nnz}, "
            f"fill_value={self.fill_value!r}{where}>"
        )

    def __copy__(self) -> COO:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> COO:
        return self.copy()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        ent = self._mat()
        be = ent.device._backend
        return (
            _unpickle,
            (
                be.to_host(ent.keys),
                be.to_host(ent.data),
                ent.shape,
                ent.dtype._name,
                str(ent.device),
                self.fill_value,
            ),
        )


def _unpickle(
    keys: Any, data: Any, shape: tuple[int, ...], dtype: str, device: str, fill: Any
) -> COO:
    from ocean_array_api._devices import parse_device

    dev = parse_device(device, "unpickle")
    be = dev._backend
    ent = Entries(
        shape,
        _dt._by_name(dtype),
        dev,
        be.from_host(data, dev._index),
        keys=be.from_host(keys, dev._index),
    )
    return COO._from_entries(ent, fill)


def _shape_arg(shape: Any, where: str) -> tuple[int, ...]:
    if isinstance(shape, COO):
        msg = f"{where}: `shape` must be a tuple of ints, got a COO"
        raise TypeError(msg)
    if shape.__class__ is int or (
        not isinstance(shape, (tuple, list)) and hasattr(type(shape), "__index__")
    ):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)):
        msg = f"{where}: `shape` must be a tuple of ints, got {type(shape).__name__}"
        raise TypeError(msg)
    out = tuple(as_index(n, where, "shape") for n in shape)
    for n in out:
        if n < 0:
            msg = f"{where}: `shape` must not have negative sizes, got {out}"
            raise ValueError(msg)
    return out
