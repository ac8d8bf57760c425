"""The one ``Array`` type, for every device.

An ``Array`` holds a native array (``numpy.ndarray`` on the CPU,
``cupy.ndarray`` on CUDA), our :class:`~._dtypes.DType` and our
:class:`~._devices.Device`.  Users never construct it: ``Array(...)`` raises
and points to ``asarray()``; :func:`_wrap` is the only way in.

Operators are installed by ``_elementwise_functions`` and
``_linear_algebra_functions`` from the very functions of the namespace, so the
operator and the function can never disagree.
"""

from __future__ import annotations

import operator
import os
import types
from typing import Any, NoReturn

from . import _dtypes as _dt
from . import _ext_hooks as _hooks
from . import _hints
from ._devices import Device, parse_device
from ._dtypes import DType
from ._flags import API_VERSION, check_version

__all__ = ["Array"]

# The compiled fast path (``_fastpath``, ocean_array_api/src/fastpath.c): the
# base class holding the three fields, and compiled operators, indexing and
# attributes installed below.  ``OCEAN_ARRAY_API_FASTPATH=0`` at import, or an
# unbuilt extension, leaves the pure Python classes.  Python stays the single
# definition of behaviour: the compiled code calls it for every case it does
# not take itself (see docs/dev/fastpath.md).
_fp: Any = None
if os.environ.get("OCEAN_ARRAY_API_FASTPATH", "1").strip() != "0":
    try:
        from . import _fastpath as _fp
    except ImportError:  # not built: the Python front end alone
        _fp = None
_FASTPATH = _fp is not None


class _Fields:
    """The storage of an Array without the compiled path: the three slots.

    ``_wrap`` fills them on an instance of this class and then makes it an
    ``Array`` (a ``__class__`` change, which costs about what a slot store
    does), so that ``Array`` itself can refuse every attribute store and
    deletion.  With the compiled path, ``_fastpath.ArrayBase`` holds the fields
    as read-only members instead.
    """

    __slots__ = ("__weakref__", "_data", "_device", "_dtype")
    _data: Any
    _device: Device
    _dtype: DType


_Base: Any = _fp.ArrayBase if _FASTPATH else _Fields


class Array(_Base):  # type: ignore[misc]
    """An n-dimensional array of the Array API standard.

    Create arrays with the namespace's creation functions (``asarray``,
    ``zeros``, ...), never with ``Array(...)``.
    """

    # The base class holds the three fields (compiled: ``ArrayBase``, whose
    # members are read-only; pure Python: ``_Fields``).
    __slots__ = ("__weakref__",) if _FASTPATH else ()
    _data: Any  # the native array (numpy.ndarray, cupy.ndarray, ...)
    _device: Device
    _dtype: DType

    # Arrays are not hashable (``==`` is elementwise).
    __hash__ = None  # type: ignore[assignment]
    __array_priority__ = 1000

    def __array_ufunc__(
        self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any
    ) -> Any:
        """NumPy's ufuncs never take our arrays: ``numpy.exp(x)`` raises a
        TypeError naming the namespace function to call instead (or
        ``numpy.asarray(x)`` first), and NumPy's operators with our array on
        the right (``ndarray + x``) are our reflected operators, which refuse
        a NumPy array the same way ``x + ndarray`` does."""
        return _hints.array_ufunc(self, ufunc, method, *inputs, **kwargs)

    def __dir__(self) -> list[str]:
        # the NumPy method names that only raise a hint are not attributes
        return _hints.array_dir(self)

    def __new__(cls, *args: object, **kwargs: object) -> Array:
        msg = (
            "Array objects cannot be constructed directly; use "
            "ocean_array_api.asarray() or another creation function"
        )
        raise TypeError(msg)

    # An array's data, dtype and device are fixed when it is made: nothing
    # can rebind or delete them (the compiled code relies on it, and so does
    # every view of the data), and an Array has no other attributes to set.
    # (With the compiled path the fields are read-only members besides, so
    # that ``object.__setattr__`` cannot reach them either; in the pure Python
    # front end it can, and there nothing can crash.)
    def __setattr__(self, name: str, value: object, /) -> None:
        raise _fixed_attribute(_SET, name)

    def __delattr__(self, name: str, /) -> None:
        raise _fixed_attribute(_DELETE, name)

    # --- attributes ---------------------------------------------------------
    @property
    def dtype(self) -> DType:
        """Data type of the array elements."""
        return self._dtype

    @property
    def device(self) -> Device:
        """The device the array's data lives on."""
        return self._device

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return self._data.ndim  # type: ignore[no-any-return]

    @property
    def shape(self) -> tuple[int | None, ...]:
        """The array's dimensions, a tuple of Python ints."""
        return self._data.shape  # type: ignore[no-any-return]

    @property
    def size(self) -> int | None:
        """Number of elements."""
        return self._data.size  # type: ignore[no-any-return]

    @property
    def T(self) -> Array:
        """Transpose of a two-dimensional array (use ``mT`` for stacks).

        Notes
        -----
        The standard defines ``T`` for two dimensions only and says that an
        error should be raised otherwise: a ValueError here, for 0-d and 1-d
        arrays too (NumPy returns those unchanged).
        """
        # Note: NumPy's x.T of a 0-d or 1-d array is x itself; the standard's
        # is an error (array-api-strict raises as well).
        ndim = self._data.ndim
        if ndim != 2:
            fix = (
                "use x.mT or permute_dims() for a stack of matrices"
                if ndim > 2
                else "a 0-d or 1-d array has nothing to transpose: use x itself, "
                "or reshape(x, (1, -1)) / x[None, :] for a row"
            )
            msg = f"Array.T: defined for two-dimensional arrays only, got {ndim} dimension(s); {fix}"
            raise ValueError(msg)
        return _wrap(self._data.T, self._dtype, self._device)

    @property
    def mT(self) -> Array:
        """Transpose of the last two axes (a view)."""
        data = self._data
        if data.ndim < 2:
            msg = f"Array.mT: needs at least 2 dimensions, got {data.ndim}"
            raise ValueError(msg)
        dev = self._device
        dt = self._dtype
        return _wrap(dev._ops["matrix_transpose"](data), dt, dev)

    # --- namespace, devices -------------------------------------------------
    def __array_namespace__(
        self, /, *, api_version: str | None = None
    ) -> types.ModuleType:
        """The namespace of this array (the module, or a namespace for another
        revision of the standard when ``api_version`` names one)."""
        if api_version is None or (
            api_version.__class__ is str and api_version == API_VERSION
        ):
            import ocean_array_api

            return ocean_array_api
        from ._namespace import namespace_for

        return namespace_for(check_version(api_version, "__array_namespace__()"))

    def to_device(self, device: Device | str, /, *, stream: Any = None) -> Array:
        """Copy of this array on ``device`` (this array itself if already there).

        The copy is in native byte order (see ``ocean_ext.byteorder``).
        """
        dev = parse_device(device, "to_device()")
        if dev is self._device:
            return self
        return _wrap(_transfer(self._data, self._device, dev, stream), self._dtype, dev)

    # --- conversion to Python scalars (these materialise lazy data) --------
    def _scalar(self, where: str) -> Any:
        data = self._data
        if data.ndim != 0:
            msg = f"{where}: only 0-dimensional arrays convert to Python scalars, got shape {data.shape}"
            raise TypeError(msg)
        backend = self._device._backend
        if backend.is_lazy(data):
            data = backend.materialize(data)
        if not self._dtype._standard:  # an ocean_ext dtype (complex32 storage)
            from ._ext_dtypes import python_scalar

            return python_scalar(self._dtype, backend.to_host(data))
        return backend.to_host(data).item()

    def __bool__(self) -> bool:
        return bool(self._scalar("__bool__()"))

    def __complex__(self) -> complex:
        return complex(self._scalar("__complex__()"))

    def __format__(self, format_spec: str, /) -> str:
        # Note: not in the standard; format(x0d, ".3f") is common downstream
        # (SciPy's messages).  A 0-d array formats as its Python scalar, as in
        # NumPy; other arrays take only the empty spec (str()).
        if not format_spec:
            return str(self)
        return format(self._scalar("__format__()"), format_spec)  # type: ignore[no-any-return]

    def __float__(self) -> float:
        if self._dtype in _dt._complex_floating:
            msg = "__float__(): cannot convert a complex array to float; use real() or abs()"
            raise TypeError(msg)
        return float(self._scalar("__float__()"))

    def __int__(self) -> int:
        if self._dtype in _dt._complex_floating:
            msg = "__int__(): cannot convert a complex array to int"
            raise TypeError(msg)
        return int(self._scalar("__int__()"))

    def __index__(self) -> int:
        if self._dtype not in _dt._integer:
            msg = f"__index__(): only integer arrays can be used as an index, got {self._dtype}"
            raise TypeError(msg)
        return int(self._scalar("__index__()"))

    # --- interchange --------------------------------------------------------
    def __array__(self, dtype: Any = None, copy: bool | None = None) -> Any:
        """NumPy conversion (``numpy.asarray(x)``); CPU arrays only, see Notes.

        Notes
        -----
        Arrays on other devices raise TypeError rather than copying to the host
        implicitly; move them with ``to_device("cpu")`` first.
        """
        backend = self._device._backend
        accessible = getattr(backend, "host_accessible", False)
        if accessible.__class__ is not bool:  # per device: a method of the index
            accessible = accessible(self._device._index)
        if self._device._kind != "cpu" and not accessible:
            msg = (
                f"__array__(): the array is on {self._device!r}; implicit conversion "
                f"to a NumPy array is refused, use x.to_device('cpu') first"
            )
            raise TypeError(msg)
        host_conversions[0] += 1  # (asarray learns that a list held Arrays)
        data = backend.to_host(self._data)  # computes a lazy array's graph
        if not self._dtype._standard:  # ocean_ext dtypes: complex32 as complex64
            from ._ext_dtypes import host_values

            values = host_values(self._dtype, data)
            if values is not data:
                if copy is False:
                    msg = (
                        f"__array__(): NumPy has no {self._dtype}; the conversion to "
                        f"complex64 needs a copy but copy=False"
                    )
                    raise ValueError(msg)
                data = values
                copy = None  # already a copy
        if copy is True:
            return data.astype(dtype if dtype is not None else data.dtype, copy=True)
        if dtype is not None and dtype != data.dtype:
            if copy is False:
                msg = "__array__(): a dtype change needs a copy but copy=False"
                raise ValueError(msg)
            return data.astype(dtype)
        return data

    def __dlpack__(
        self,
        /,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        """Export as a DLPack capsule (see the standard's ``__dlpack__``)."""
        from ._creation_functions import dlpack_export

        return dlpack_export(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self, /) -> tuple[int, int]:
        """The ``(device_type, device_id)`` of the DLPack protocol."""
        return self._device._backend.dlpack_device(self._data, self._device._index)

    # --- indexing -----------------------------------------------------------
    def __getitem__(self, key: Any, /) -> Array:
        """``x[key]`` for the standard's indexing (see ``_indexing``)."""
        data = self._data
        # Fast paths: a single slice or in-range int (NumPy's own checks suffice;
        # a slice with non-integer bounds makes NumPy raise TypeError, and the
        # full validation below then reports it as the IndexError it is).
        tk = key.__class__
        if tk is slice:
            if data.ndim and key.step != 0:
                try:
                    view = data[key]
                except TypeError:
                    pass
                else:
                    return _wrap(view, self._dtype, self._device)
        elif tk is int and data.ndim:
            n = data.shape[0]
            if n is not None and -n <= key < n:
                res = data[key]
                if res.__class__ is not self._device._native:
                    res = self._device._backend.to_native(res)
                return _wrap(res, self._dtype, self._device)
        elif tk is Array and key._device is self._device and key._dtype in _dt._all:
            # A lone integer or boolean array: NumPy's checks (IndexError for
            # out-of-bounds indices or a mask of the wrong shape) suffice.
            if key._dtype in _dt._quick_index:
                ops = self._device._ops
                try:
                    if data.dtype.isnative:
                        res = ops["getitem"](data, key._data)
                    else:
                        # a copy (advanced indexing) of byte-swapped data:
                        # native, as every result, in one pass where possible
                        res = ops["getitem_native"](data, key._data)
                except IndexError as exc:
                    _getitem_failed(exc)
                if res.__class__ is not self._device._native:
                    res = self._device._backend.to_native(res)
                return _wrap(res, self._dtype, self._device)
        elif tk is _hooks.index_type:  # an ocean_ext.index object
            return key._getitem(self)  # type: ignore[no-any-return]
        from ._indexing import native_key

        nkey = native_key(self, key, "__getitem__()")
        try:
            res = self._device._ops["getitem"](data, nkey)
        except IndexError as exc:  # out-of-bounds index arrays
            msg = f"__getitem__(): {exc}"
            raise IndexError(msg) from None
        if res.__class__ is not self._device._native:
            res = self._device._backend.to_native(res)
        elif not res.dtype.isnative and _advanced(nkey, self._device._native):  # type: ignore[attr-defined]
            # Advanced indexing copies: the copy is native.  Basic indexing
            # gives a view, which keeps the byte order of its memory.
            res = self._device._ops["native_result"](res)
        return _wrap(res, self._dtype, self._device)

    def __setitem__(self, key: Any, value: Any, /) -> None:
        """``x[key] = value``; ``value`` must promote to ``x.dtype``."""
        tk = key.__class__
        tv = value.__class__
        failed = None
        if (
            (tk is int or tk is slice or tk is Array)
            and _hooks._check is _hooks._writable_default
            and _hooks.quick_setitem
        ):
            # Fast path: one int, slice or index array, and a value that needs
            # no promotion (same-dtype array on this device, or a Python
            # int/float the dtype accepts).  NumPy raises IndexError for bad
            # ints and masks, ValueError for shapes.
            dt = self._dtype
            d = self._data
            if tv is Array:
                ok = value._dtype is dt and value._device is self._device
                v = value._data
                if (
                    ok
                    and (v is d or v.base is not None or d.base is not None)
                    and _may_overlap(v, d)
                ):
                    v = self._device._ops["copy"](v)  # copy the source first
            else:
                ok = (tv is float and dt in _dt._floating) or (
                    tv is int and dt in _dt._numeric
                )
                v = value
            if tk is Array:
                ok = (
                    ok
                    and key._device is self._device
                    and key._dtype in _dt._quick_index
                )
                k = key._data
            elif tk is slice:
                # bounds of other types (with __index__) run their own code
                # inside the write, after the read-only check: the full path
                ok = (
                    ok
                    and (key.start is None or key.start.__class__ is int)
                    and (key.stop is None or key.stop.__class__ is int)
                    and (
                        key.step is None
                        or (key.step.__class__ is int and key.step != 0)
                    )
                )
                k = key
            else:
                k = key
            if ok:
                try:
                    self._device._ops["setitem"](d, k, v)
                    return
                except (IndexError, ValueError, TypeError, OverflowError) as exc:
                    # The full path below checks the call and reports the
                    # error properly, without running the kernel again: it
                    # may have written part of its elements before failing.
                    failed = exc
        elif tk is _hooks.index_type:  # an ocean_ext.index object
            key._setitem(self, value)
            return
        from ._indexing import setitem

        setitem(self, key, value, failed)

    def __iter__(self) -> Any:
        # Note: not a generator function: iter(x) itself raises for a 0-d
        # array, as NumPy's does, so numpy.iterable(x) and other
        # "try iter(x)" probes (matplotlib's unit handling) see a scalar.
        if self._data.ndim == 0:
            msg = "iteration over a 0-dimensional array"
            raise TypeError(msg)
        n = self._data.shape[0]
        if n is None:
            msg = (
                "__iter__(): the first dimension is data-dependent (None) on a lazy "
                "device; compute the array first (ocean_ext.compute)"
            )
            raise TypeError(msg)
        return (self[i] for i in range(n))

    # --- misc ---------------------------------------------------------------
    def __repr__(self) -> str:
        backend = self._device._backend
        data = self._data
        if backend.is_lazy(data):
            # Note: printing never runs a lazy array's graph (that would be a
            # hidden compute): values are shown once they are in memory
            # (ocean_ext.compute, ocean_ext.persist, dask.compute), and the
            # chunks always (as dask's repr does).
            known = getattr(backend, "known_values", None)
            host = known(data) if known is not None else None
            chunks = getattr(backend, "describe_chunks", None)
            tail = f", {chunks(data)}" if chunks is not None else ""
            if host is None or isinstance(host, str):
                shape = ", ".join("None" if s is None else str(s) for s in self.shape)
                shape = f"({shape},)" if self.ndim == 1 else f"({shape})"
                what = host or "<lazy>"
                return (
                    f"Array({what}, shape={shape}, dtype={self._dtype}, "
                    f"device={self._device}{tail})"
                )
            return self._repr_values(backend.to_host(host), tail)
        host = backend.to_host(backend.materialize(data))
        return self._repr_values(host, "")

    def _repr_values(self, host: Any, tail: str) -> str:
        import numpy as np

        if not self._dtype._standard:  # ocean_ext dtypes: complex32's values
            from ._ext_dtypes import host_values

            host = host_values(self._dtype, host)
        body = np.array2string(host, separator=", ", prefix="Array(")
        where = "" if self._device is _CPU else f", device={self._device}"
        return f"Array({body}, dtype={self._dtype}{where}{tail})"

    __str__ = __repr__

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        backend = self._device._backend
        if backend.is_lazy(self._data):  # pickles the graph, not its values
            return (_unpickle_lazy, (self._data, self._dtype._name, str(self._device)))
        host = backend.to_host(backend.materialize(self._data))
        return (_unpickle, (host, self._dtype._name, str(self._device)))

    # --- dask collections (lazy devices) -------------------------------------
    # Arrays on a lazy device whose backend holds dask graphs (the ``dask``
    # device) are dask collections: dask.compute, dask.persist, a
    # distributed Client's compute/persist and dask's diagnostics take them
    # as they take dask arrays.  Other arrays answer None to
    # ``__dask_graph__``, which tells dask they are not collections.
    def _dask_array(self) -> Any:
        collection = getattr(self._device._backend, "dask_collection", None)
        return None if collection is None else collection(self._data)

    def __dask_graph__(self) -> Any:
        arr = self._dask_array()
        return None if arr is None else arr.__dask_graph__()

    def __dask_keys__(self) -> Any:
        return self._dask_array().__dask_keys__()

    def __dask_layers__(self) -> Any:
        return self._dask_array().__dask_layers__()

    def __dask_tokenize__(self) -> Any:
        arr = self._dask_array()
        if arr is not None:
            return (
                "ocean_array_api.Array",
                arr.name,
                self._dtype._name,
                str(self._device),
            )
        from dask.base import normalize_token

        backend = self._device._backend
        host = backend.to_host(backend.materialize(self._data))
        return (
            "ocean_array_api.Array",
            normalize_token(host),
            self._dtype._name,
            str(self._device),
        )

    @staticmethod
    def __dask_optimize__(dsk: Any, keys: Any, **kwargs: Any) -> Any:
        from dask.array.optimization import optimize

        return optimize(dsk, keys, **kwargs)

    @property
    def __dask_scheduler__(self) -> Any:
        scheduler = getattr(self._device._backend, "dask_scheduler", None)
        if scheduler is None:
            import dask.threaded

            return dask.threaded.get
        return scheduler(self._device._index)

    def __dask_postcompute__(self) -> Any:
        func, args = self._dask_array().__dask_postcompute__()
        return _dask_finalize, (
            func,
            args,
            self._dtype._name,
            str(self._device),
            self._dask_array().chunks,
        )

    def __dask_postpersist__(self) -> Any:
        func, args = self._dask_array().__dask_postpersist__()
        return _dask_rebuild, (func, args, self._dtype._name, str(self._device))

    def __copy__(self) -> Array:
        return _wrap(self._device._ops["copy"](self._data), self._dtype, self._device)

    def __deepcopy__(self, memo: Any) -> Array:
        return self.__copy__()


_SET, _DELETE = "set", "delete"


def _fixed_attribute(action: str, name: str) -> AttributeError:
    return AttributeError(
        f"cannot {action} attribute {name!r} of an Array: its data, dtype and "
        f"device are fixed when it is made, and it has no other attributes"
    )


_object_new = object.__new__

# How many times __array__ has run (any thread): asarray compares it around
# a conversion of Python sequences to see whether NumPy met Arrays in them.
host_conversions = [0]


def _wrap(data: Any, dtype: DType, device: Device) -> Array:
    """The only way to make an Array: no checks, the caller guarantees them."""
    a = _object_new(_Fields)
    a._data = data
    a._dtype = dtype
    a._device = device
    a.__class__ = Array  # (Array refuses stores: see _Fields)
    return a  # type: ignore[return-value]


if _FASTPATH:
    _wrap = _fp._wrap


def _root(data: Any) -> Any:
    """The native array at the end of ``data``'s chain of bases (the memory's owner)."""
    base = getattr(data, "base", None)
    while base is not None and base.__class__ is data.__class__:
        data = base
        base = getattr(data, "base", None)
    return data


def _may_overlap(value: Any, data: Any) -> bool:
    """Whether native ``value`` may share memory with native ``data``.

    True when both are views of one buffer (or the same array).  An assignment
    ``x[key] = value`` copies such a value first: NumPy's own overlap handling
    misses some strided cases (``x[::2] = x[:5]``), and other backends have
    none.  Two arrays that own their memory cost two attribute loads.
    """
    if getattr(value, "base", None) is None and getattr(data, "base", None) is None:
        return value is data
    return _root(value) is _root(data)


def _advanced(nkey: Any, native: type) -> bool:
    """Whether a native key (from ``native_key``) holds an index array."""
    if nkey.__class__ is not tuple:
        return True  # a lone boolean mask
    return any(k.__class__ is native for k in nkey)


def _unpickle(host: Any, dtype_name: str, device: str) -> Array:
    dev = parse_device(device, "unpickle")
    return _wrap(
        dev._backend.from_host(host, dev._index), _dt._by_name(dtype_name), dev
    )


def _dask_finalize(
    results: Any, func: Any, args: Any, dtype_name: str, device: str, chunks: Any
) -> Array:
    """``dask.compute``'s result for an array on a lazy device: an array on
    that device holding the values (as ``ocean_ext.compute`` gives)."""
    dev = parse_device(device, "dask.compute")
    value = func(results, *args)
    return _wrap(
        dev._backend.from_values(value, dev._index, chunks),
        _dt._by_name(dtype_name),
        dev,
    )


def _dask_rebuild(
    dsk: Any, func: Any, args: Any, dtype_name: str, device: str, *, rename: Any = None
) -> Array:
    """``dask.persist``'s result for an array on a lazy device: the same
    array over the persisted graph."""
    dev = parse_device(device, "dask.persist")
    arr = func(dsk, *args, rename=rename)
    return _wrap(
        dev._backend.from_collection(arr, dev._index), _dt._by_name(dtype_name), dev
    )


def _unpickle_lazy(data: Any, dtype_name: str, device: str) -> Array:
    return _wrap(data, _dt._by_name(dtype_name), parse_device(device, "unpickle"))


def _transfer(data: Any, src: Device, dst: Device, stream: Any) -> Any:
    """Copy native ``data`` from device ``src`` to device ``dst``.

    The copy is in native byte order where the destination's backend has no
    ``supports_byteswap`` (and the CPU backend's own ``transfer`` copies to
    native order too: copies are native, only views keep a byte order).
    """
    if src._kind == dst._kind:
        return dst._backend.transfer(data, dst._index, stream=stream)
    # A backend may move its data to, or take data from, another kind without
    # passing through host memory (the dask backend's CuPy chunks and CUDA).
    move = getattr(src._backend, "move_to", None)
    if move is not None:
        res = move(data, src._index, dst, stream=stream)
        if res is not NotImplemented:
            return res
    move = getattr(dst._backend, "move_from", None)
    if move is not None:
        res = move(data, src, dst._index, stream=stream)
        if res is not NotImplemented:
            return res
    host = src._backend.to_host(src._backend.materialize(data), stream=stream)
    if not host.dtype.isnative and not dst._backend.supports_byteswap:
        # Byte-swapped data (CPU only) is swapped on the way to a device that
        # has no non-native byte order.
        host = host.astype(host.dtype.newbyteorder("="))
    return dst._backend.from_host(host, dst._index, stream=stream)


from ._devices import CPU as _CPU  # noqa: E402


def _install_fastpath() -> None:
    """Put the compiled attributes, ``__getitem__`` and ``__setitem__`` on Array."""
    std = _FAST_DTYPES
    flags = tuple(
        (1 if d in _dt._numeric else 0)
        | (2 if d in _dt._floating else 0)
        | (4 if d in _dt._integer else 0)
        | (8 if d is _dt.bool else 0)
        | (16 if d is _dt.float64 else 0)
        for d in std
    )
    real = tuple(std.index(_dt.REAL_OF.get(d, d)) for d in std)
    mt = Array.__dict__["mT"].fget
    # operator.getitem/setitem: the CPU table's entries, which the compiled
    # code then replaces by direct calls (other entries, e.g. instrument's
    # wrappers, are called).
    _fp._setup(
        Array, std, flags, real, vars(_hooks), _hooks._writable_default,
        _may_overlap, mt, operator.getitem, operator.setitem, Device,
        _inplace_failed, _setitem_failed, _binary_failed, _getitem_failed,
    )  # fmt: skip
    base = vars(_fp.ArrayBase)
    for name in ("dtype", "device", "shape", "ndim", "size", "mT"):
        setattr(Array, name, base[name])
    getitem = Array.__dict__["__getitem__"]
    setitem = Array.__dict__["__setitem__"]
    Array.__getitem__ = _fp._make_op(getitem, "getitem", "getitem", 0, "same")  # type: ignore[method-assign]
    Array.__setitem__ = _fp._make_op(setitem, "setitem", "setitem", 0, "same")  # type: ignore[method-assign]


# The error paths of the compiled calls: after their kernel raised, they call
# these with its exception, which raise what the Python front end raises
# there, without running the kernel again (a write's kernel may have written
# part of its output, and any kernel may have warned before raising).
def _inplace_failed(name: str, exc: BaseException) -> None:
    from ._elementwise_functions import _inplace_failed as failed

    failed(name, exc)


def _binary_failed(name: str, exc: BaseException) -> None:
    from ._elementwise_functions import _binary_failed as failed

    failed(name, exc)


def _getitem_failed(exc: BaseException) -> NoReturn:
    """What ``x[index_array]`` raises when its kernel raised ``exc``."""
    if isinstance(exc, IndexError):  # out-of-bounds indices, a mask's shape
        msg = f"__getitem__(): {exc}"
        raise IndexError(msg) from None
    raise exc


def _setitem_failed(x: Array, key: Any, value: Any, exc: BaseException) -> None:
    from ._indexing import setitem

    setitem(x, key, value, exc)


def _compiled(func: Any, kind: str, mask: int = 0, result: str = "same") -> Any:
    """A namespace function with the compiled fast path in front of it.

    The FastOp keeps ``func`` as ``__wrapped__`` (so ``inspect.signature``
    and the docs see it), copies its name, docstring and module, and calls it
    for every case it does not take; without the fast path, ``func`` itself.
    """
    if not _FASTPATH:
        return func
    op = _fp._make_op(func, kind, func.__name__, mask, result)
    op.__dict__.update(func.__dict__)  # _allowed, _result, _operator, ...
    op.__annotations__ = func.__annotations__  # typing.get_type_hints(op)
    return op


def _allowed_mask(allowed: Any) -> int:
    """The fast path's bit mask of the standard dtypes in ``allowed``."""
    return sum(1 << i for i, d in enumerate(_FAST_DTYPES) if d in allowed)


_FAST_DTYPES: tuple[DType, ...] = tuple(sorted(_dt._all, key=lambda d: d._name))
if _FASTPATH:
    _install_fastpath()
# ``x.sum()``, ``x.astype(...)``, ...: AttributeErrors that say what to call.
_hints.install_array_hints(Array)
