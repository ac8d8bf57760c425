"""A simulated CuPy: NumPy's arithmetic behind CuPy's rules, for GPU-less testing.

The CUDA backend (``backends/ocean_cuda``) is written against CuPy.  On a machine
without a GPU this module stands in for ``cupy`` so that the *whole* test suite,
and the official array-api-tests with the default device set to ``cuda:0``, can
drive the CUDA backend's table and the front end's device-generic paths.  It
enforces the CuPy rules that a CPU-only code path would most easily break:

- Device arrays are ``SimArray`` (``xp.ndarray``), which know their device
  (``x.device``, a context manager as in CuPy).  Plain NumPy arrays are *host*
  data: mixing them into an operator, a ufunc, a ``simcupy`` function or an
  assignment raises ``TypeError`` as CuPy does ("Unsupported type").  Only
  ``array``/``asarray``/``asnumpy`` cross between host and device.
- There is a *current device* (``simcupy.cuda.Device(i)`` as a context manager,
  thread-local).  New arrays are made on it, and a computation on an array that
  lives on another device raises ``ValueError`` (CuPy without peer access), so
  an entry that forgets to switch devices fails here.
- Reductions and integer indexing give 0-d device arrays, never NumPy scalars.
- ``x.copy()`` copies to the current device; ``simcupy.array(x)`` of an array
  on another device copies across.
- ``sort``/``argsort`` are always stable and take no other ``kind``.
- An assignment whose source overlaps its target is done element by element,
  unbuffered, as a GPU kernel may do it (``x[1:] = x[:-1]`` smears ``x[0]``).
- Out-of-range integer-array indices wrap around (``x[[5]]`` of 3 elements is
  ``x[[2]]``; ``take`` too), as CuPy documents, where NumPy raises IndexError.

- It follows CuPy 14 where CuPy departs from NumPy in ways a backend must
  handle: ``array(x, copy=False)`` never copies (a dtype change is a
  ValueError) and refuses to copy a non-contiguous array between devices;
  ``from_dlpack(copy=True)`` of device data is a BufferError, and
  ``__dlpack__`` takes the stream as an int only; ``isin`` and
  ``searchsorted`` take arrays only and compare without promoting (here: a
  TypeError for mixed dtypes); float ``remainder`` is
  ``x - floor(x / y) * y``; shifts by the width or more are C's undefined
  shifts (here: the count modulo the width); ``linalg.solve`` takes a 1-D
  ``b`` or ``a``'s exact batch shape; and ``linalg.inv``, ``solve`` and
  ``cholesky`` of singular input return NaN unless
  :func:`linalg_errstate` (``cupyx.errstate(linalg="raise")``) is active;
  ``svd`` of input it cannot factorise (NaN) gives NaN even then, and
  ``matrix_power`` with a negative exponent inverts unchecked; the batched
  ``solve`` (a stack of matrices) fails on right-hand sides of no columns
  (ZeroDivisionError).
- More CuPy 14 numerics (the second review of its sources): float
  ``floor_divide`` is ``floor(x / y)``; a 1-D float sort (and so ``unique``,
  and ``isin``'s binary search) puts NaNs whose sign bit is set first;
  ``argmax``/``argmin`` with several NaNs return the last one (CuPy: whichever
  its reduction tree keeps); float16 ``nextafter`` gives NaN for an infinite
  ``x1`` and ``x1`` when the operands are equal; ``linspace`` refuses complex
  bounds (TypeError); there is no ``vecdot``; and assigning a Python zero to a
  C-contiguous target (``x[0] = -0.0``) stores +0 (a memset), as do
  ``full``, ``fill`` and a 0-d ``array`` of host data (``array(-0.0)``).
- Its kernels (``xp.add``, every function of the module) pickle by value, as
  CuPy's Cython kernel objects do, and a loaded copy "unloads" the
  original's CUDA module when it is freed: the original then raises
  ``CUDADriverError`` (``CUDA_ERROR_INVALID_HANDLE``), as on a GPU.  dask
  pickles and loads what it tokenizes, so a graph function that captures a
  kernel fails here as it does on hardware.

It does not simulate CuPy's other numerical deviations from NumPy (those need
the real library and a GPU) nor streams beyond recording them.  Use it with
``OCEAN_TEST_SIMULATE_CUDA=1`` (``tests/conftest.py``) or, for other test
runners, ``-p tests.sim_cuda`` (:mod:`tests.sim_cuda`).
"""

from __future__ import annotations

import threading
import types
from typing import Any

import numpy as np

DEVICE_COUNT = 2
__version__ = "14.0.0"  # the CuPy whose rules are simulated

_state = threading.local()


def _current() -> int:
    stack = getattr(_state, "devices", None)
    return stack[-1] if stack else 0


def _stack() -> list[int]:
    stack = getattr(_state, "devices", None)
    if stack is None:
        stack = _state.devices = []
    return stack


class Device:
    """``cupy.cuda.Device``: a device id that makes itself current in a ``with``."""

    def __init__(self, id: int | None = None) -> None:
        if id is None:
            id = _current()
        if not 0 <= int(id) < DEVICE_COUNT:
            msg = f"simcupy: invalid device ordinal {id}"
            raise ValueError(msg)
        self.id = int(id)

    def __enter__(self) -> Device:
        _stack().append(self.id)
        return self

    def __exit__(self, *exc: object) -> None:
        _stack().pop()

    def use(self) -> None:
        stack = _stack()
        if stack:
            stack[-1] = self.id
        else:
            stack.append(self.id)

    def synchronize(self) -> None:
        return None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("simcupy.Device", self.id))

    def __repr__(self) -> str:
        return f"<CUDA Device {self.id}>"


class Stream:
    """``cupy.cuda.Stream``: records use; work is synchronous here."""

    used: list[Any] = []  # noqa: RUF012 - a record for the tests

    def __init__(self, non_blocking: bool = False, ptr: int = 0) -> None:
        self.ptr = ptr

    def __enter__(self) -> Stream:
        Stream.used.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def synchronize(self) -> None:
        return None


class ExternalStream(Stream):
    def __init__(self, ptr: int, device_id: int = -1) -> None:
        super().__init__(ptr=ptr)


Stream.null = Stream(ptr=0)  # type: ignore[attr-defined]
Stream.ptds = Stream(ptr=2)  # type: ignore[attr-defined]


class _Runtime:
    @staticmethod
    def getDeviceCount() -> int:
        return DEVICE_COUNT


cuda = types.SimpleNamespace(
    Device=Device,
    Stream=Stream,
    ExternalStream=ExternalStream,
    runtime=_Runtime,
    get_current_stream=lambda: Stream.null,
)


def _unsupported(obj: Any) -> TypeError:
    return TypeError(f"simcupy: Unsupported type {type(obj)} (host data on a device)")


class SimArray(np.ndarray):
    """``cupy.ndarray``: an ndarray that lives on a simulated CUDA device."""

    _dev: int = 0

    def __array_finalize__(self, obj: Any) -> None:
        self._dev = getattr(obj, "_dev", None)
        if self._dev is None:
            self._dev = _current()

    @property
    def device(self) -> Device:  # type: ignore[override]
        return Device(self._dev)

    # host conversions that CuPy refuses
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        msg = "simcupy: implicit conversion to a NumPy array is not allowed; use asnumpy()"
        raise TypeError(msg)

    def get(self, stream: Any = None) -> np.ndarray:
        return np.array(self.view(np.ndarray), copy=True)

    def tolist(self) -> Any:
        return self.view(np.ndarray).tolist()

    def __iter__(self) -> Any:
        if self.ndim == 0:
            msg = "iteration over a 0-d array"
            raise TypeError(msg)
        return (self[i] for i in range(self.shape[0]))

    def fill(self, value: Any) -> None:
        """CuPy 14: a zero is written by memset (+0), other values by a
        kernel."""
        if type(value) is np.ndarray:
            raise _unsupported(value)
        base = self.view(np.ndarray)
        base.fill(value.view(np.ndarray) if isinstance(value, SimArray) else value)
        if not isinstance(value, SimArray) and base.flags.c_contiguous:
            _memset_zero(base)

    def copy(self, order: str = "C") -> SimArray:  # type: ignore[override]
        out = np.array(self.view(np.ndarray), copy=True, order=order)
        return _to_device(out)

    def __getitem__(self, key: Any) -> Any:
        key = _wrap_indices(self.shape, _unwrap_key(key, self._dev))
        res = np.ndarray.__getitem__(self.view(np.ndarray), key)
        return _result(res, self._dev, view_of=self)

    def __setitem__(self, key: Any, value: Any) -> None:
        if type(value) is np.ndarray:
            raise _unsupported(value)
        key = _wrap_indices(self.shape, _unwrap_key(key, self._dev))
        if isinstance(value, (int, float, complex, np.generic)) and value == 0:
            # CuPy fills a basic-indexed target with a host zero by memset:
            # the bits of +0, whatever the zero's sign
            base = self.view(np.ndarray)
            target = np.ndarray.__getitem__(base, key)
            if np.may_share_memory(target, base) and target.flags.c_contiguous:
                value = 0
        if isinstance(value, SimArray):
            _check_device(value)
            value = value.view(np.ndarray)
            base = self.view(np.ndarray)
            if np.may_share_memory(base, value):
                _racy_write(base, key, value)
                return
        np.ndarray.__setitem__(self.view(np.ndarray), key, value)

    # NumPy methods that would hand back base-class arrays or scalars; CuPy's
    # give device arrays
    def nonzero(self) -> tuple[SimArray, ...]:  # type: ignore[override]
        return _device_method(self, np.ndarray.nonzero)  # type: ignore[no-any-return]

    def argmax(self, *args: Any, **kwargs: Any) -> SimArray:  # type: ignore[override]
        return _device_method(self, np.ndarray.argmax, *args, **kwargs)  # type: ignore[no-any-return]

    def argmin(self, *args: Any, **kwargs: Any) -> SimArray:  # type: ignore[override]
        return _device_method(self, np.ndarray.argmin, *args, **kwargs)  # type: ignore[no-any-return]

    def trace(self, *args: Any, **kwargs: Any) -> SimArray:  # type: ignore[override]
        return _device_method(self, np.ndarray.trace, *args, **kwargs)  # type: ignore[no-any-return]

    def searchsorted(self, *args: Any, **kwargs: Any) -> SimArray:  # type: ignore[override]
        return _device_method(self, np.ndarray.searchsorted, *args, **kwargs)  # type: ignore[no-any-return]

    def take(self, indices: Any, axis: Any = None, out: Any = None) -> SimArray:  # type: ignore[override]
        return _SimCupy.take(self, indices, axis)

    def __array_ufunc__(
        self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any
    ) -> Any:
        args = [_unwrap(a) for a in inputs]
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(_unwrap(o) for o in out)
        res = getattr(ufunc, method)(*args, **kwargs)
        if out is not None:
            return out[0] if len(out) == 1 else out
        return _wrap(res)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        # CuPy answers a NumPy function with its own function of that name
        # (np.sort(x) is cupy.sort(x)): the CuPy rules simulated below apply
        # to callers that go through NumPy's functions too (dask's chunk code)
        override = _overrides().get(func)
        if override is not None:
            return override(*args, **kwargs)
        return _call(func, args, kwargs)

    # DLPack: a CUDA device array (kDLCUDA = 2).  The capsule itself describes
    # host memory, which only this module's from_dlpack reads.
    def __dlpack_device__(self) -> tuple[int, int]:
        return (2, self._dev)

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: Any = None,
        dl_device: Any = None,
        copy: Any = None,
    ) -> Any:
        if dl_device is not None and tuple(dl_device) != (2, self._dev):
            msg = f"simcupy: cannot export to DLPack device {dl_device}"
            raise BufferError(msg)
        if copy:
            msg = "copy=True only supported for copy to CPU."
            raise BufferError(msg)
        if stream is not None and type(stream) is not int:
            msg = f"simcupy: the DLPack stream must be an int, got {type(stream)}"
            raise ValueError(msg)
        kwargs = {} if max_version is None else {"max_version": max_version}
        return self.view(np.ndarray).__dlpack__(**kwargs)

    def __reduce__(self) -> Any:  # pickling copies to the host
        return (np.asarray, (self.get(),))


def _memset_zero(a: np.ndarray) -> np.ndarray:
    """``a`` (filled with one value) as CuPy's fill() leaves it: a zero
    value is written by memset, so a negative zero becomes +0."""
    if a.dtype.kind in "fc" and a.size and not a.flat[0]:
        a[...] = 0
    return a


def _racy_write(base: np.ndarray, key: Any, value: np.ndarray) -> None:
    """``base[key] = value`` where ``value`` overlaps ``base``, as a GPU kernel
    does it: element by element with no buffering, so a source element may be
    read after it was overwritten (``x[1:] = x[:-1]`` smears x[0]).  CuPy gives
    no ordering guarantee; code must copy such a source first."""
    dst = np.ndarray.__getitem__(base, key)
    if not np.may_share_memory(dst, base):  # advanced key: dst is a copy
        np.ndarray.__setitem__(base, key, value.copy())
        return
    src = np.broadcast_to(value, dst.shape)
    if dst.size > 100_000:
        msg = "simcupy: an overlapping write this large is not simulated"
        raise NotImplementedError(msg)
    for idx in np.ndindex(dst.shape):
        dst[idx] = src[idx]


def _device_method(self: SimArray, method: Any, *args: Any, **kwargs: Any) -> Any:
    """A NumPy method on the array's values, its results as device arrays."""
    _check_device(self)
    args = tuple(_unwrap(a) for a in args)
    kwargs = {k: _unwrap(v) for k, v in kwargs.items()}
    return _wrap(method(self.view(np.ndarray), *args, **kwargs))


def _check_device(a: SimArray) -> None:
    cur = _current()
    if a._dev != cur:
        msg = (
            f"simcupy: the device where the array resides ({a._dev}) is different "
            f"from the current device ({cur})"
        )
        raise ValueError(msg)


def _unwrap(obj: Any) -> Any:
    """Device arrays to plain ndarrays (checking the device); host arrays refused."""
    t = type(obj)
    if t is SimArray:
        _check_device(obj)
        return obj.view(np.ndarray)
    if t is np.ndarray:
        raise _unsupported(obj)
    if t is list or t is tuple:
        return t(_unwrap(o) for o in obj)
    return obj


def _unwrap_key(key: Any, dev: int) -> Any:
    t = type(key)
    if t is SimArray:
        if key._dev != dev:
            msg = "simcupy: an index array on another device"
            raise ValueError(msg)
        return key.view(np.ndarray)
    if t is tuple:
        return tuple(_unwrap_key(k, dev) for k in key)
    return key  # CuPy accepts host integers, slices and lists as keys


def _wrap_indices(shape: tuple[int, ...], key: Any) -> Any:
    """CuPy wraps out-of-range integer-array indices around (NumPy raises)."""
    if type(key) is np.ndarray:
        if key.dtype.kind in "iu" and shape and shape[0]:
            return key % shape[0]
        return key
    if type(key) is not tuple:
        return key
    used = sum(
        0 if k is None or k is Ellipsis
        else (k.ndim if type(k) is np.ndarray and k.dtype.kind == "b" else 1)
        for k in key
    )  # fmt: skip
    out = []
    axis = 0
    for k in key:
        if k is Ellipsis:
            axis += len(shape) - used
        elif type(k) is np.ndarray and k.dtype.kind == "b":
            axis += k.ndim
        elif k is not None:
            if (
                type(k) is np.ndarray
                and k.dtype.kind in "iu"
                and axis < len(shape)
                and shape[axis]
            ):
                k = k % shape[axis]
            axis += 1
        out.append(k)
    return tuple(out)


def _to_device(a: np.ndarray, dev: int | None = None) -> SimArray:
    out = a.view(SimArray)
    out._dev = _current() if dev is None else dev
    return out


def _result(res: Any, dev: int, view_of: SimArray | None = None) -> Any:
    if isinstance(res, np.ndarray):
        return _to_device(res, dev)
    if isinstance(res, np.generic):
        return _to_device(np.asarray(res), dev)
    return res


def _wrap(res: Any) -> Any:
    if type(res) is tuple or type(res) is list:
        return type(res)(_wrap(r) for r in res)
    if isinstance(res, np.ndarray):
        return _to_device(res.view(np.ndarray))
    if isinstance(res, np.generic):
        return _to_device(np.asarray(res))
    # results of NumPy's namedtuple-returning functions (linalg.eigh, unique_all)
    if isinstance(res, tuple) and hasattr(res, "_fields"):
        return type(res)(*(_wrap(r) for r in res))
    return res


def _call(func: Any, args: Any, kwargs: Any) -> Any:
    args = [_unwrap(a) for a in args]
    kwargs = {k: _unwrap(v) for k, v in kwargs.items()}
    return _wrap(func(*args, **kwargs))


# functions whose results are information, not arrays
_INFO = {
    "result_type", "can_cast", "promote_types", "may_share_memory",
    "shares_memory", "ndim", "shape", "size", "isscalar", "iscomplexobj",
    "isrealobj", "dtype", "finfo", "iinfo", "issubdtype", "broadcast_shapes",
}  # fmt: skip


class CUDADriverError(RuntimeError):
    """CuPy's ``cupy_backends.cuda.api.driver.CUDADriverError``."""


# Handles of "CUDA modules" that a freed copy has unloaded (see _ModuleHandle).
_unloaded: set[int] = set()
_next_handle = iter(range(1, 1 << 62))


class _ModuleHandle:
    """The CUDA module of a compiled kernel, as CuPy 14 holds it.

    CuPy's kernel objects (``cupy.add`` and every ufunc, ``ElementwiseKernel``,
    ``ReductionKernel``) are Cython classes that pickle *by value*, with the
    compiled modules they cache (``cupy.cuda.function.Module`` pickles its
    raw handle).  A loaded copy holds the same handle and unloads it when it
    is freed; every later launch of the original then fails with
    ``CUDA_ERROR_INVALID_HANDLE`` (or crashes).  dask pickles and loads back
    what it tokenizes, so a graph function that captures a CuPy kernel kills
    it (seen on a real GPU).  Here: a copy made by unpickling marks the
    handle unloaded when it is freed, and the kernel refuses to run.
    """

    __slots__ = ("__weakref__", "copy", "ptr")

    def __init__(self, ptr: int | None = None) -> None:
        self.copy = ptr is not None
        self.ptr = next(_next_handle) if ptr is None else ptr

    def __reduce__(self) -> Any:
        return (_ModuleHandle, (self.ptr,))

    def __del__(self) -> None:
        if self.copy:
            _unloaded.add(self.ptr)


def _special_parts(v: np.ndarray) -> np.ndarray:
    return ~np.isfinite(v) | (v == 0)


def _thrust_special(np_func: Any) -> Any:
    """CuPy 14's complex ``log``, ``log1p``, ``acosh``, ``tanh``, ``tan``
    (thrust's): NaN + NaN j where both parts of the input are special (+-0,
    +-inf, NaN) and one is not finite, where the standard has other values
    for most (seen on a GPU for log(inf + NaN j), acosh(0 + NaN j),
    tanh(0 + inf j), tan(inf - 0j), ...)."""

    def f(x: Any, *args: Any, **kwargs: Any) -> Any:
        res = np.asarray(np_func(x, *args, **kwargs))
        if isinstance(x, np.ndarray) and x.dtype.kind == "c":
            bad = (
                _special_parts(x.real)
                & _special_parts(x.imag)
                & ~(np.isfinite(x.real) & np.isfinite(x.imag))
            )
            if bad.any():
                res[np.broadcast_to(bad, res.shape)] = complex(np.nan, np.nan)
        return res

    return f


def _complex_abs(x: Any, *args: Any, **kwargs: Any) -> Any:
    """CuPy 14's complex abs: sqrt(re**2 + im**2), unscaled (overflows to inf
    for parts above about 1e154 in complex128; seen on a GPU)."""
    if isinstance(x, np.ndarray) and x.dtype.kind == "c":
        with np.errstate(over="ignore", under="ignore"):
            return np.sqrt(x.real * x.real + x.imag * x.imag, *args, **kwargs)
    return np.abs(x, *args, **kwargs)


def _log_by_division(base: float, np_func: Any) -> Any:
    """CuPy 14's complex log2/log10: log(x) divided by complex(log(base)), a
    complex division that turns infinite parts into NaN (log2(0j) is
    -inf + NaN j; seen on a GPU)."""

    def f(x: Any, *args: Any, **kwargs: Any) -> Any:
        if not (isinstance(x, np.ndarray) and x.dtype.kind == "c"):
            return np_func(x, *args, **kwargs)
        with np.errstate(all="ignore"):
            res = np.log(x) / np.asarray(complex(np.log(base)), dtype=x.dtype)
        out = kwargs.get("out")
        if out is not None:
            out[...] = res
            return out
        return res

    return f


def _fft_sorted_axes(np_func: Any, real_last: bool) -> Any:
    """CuPy 14's n-d transforms sort ``axes`` but not the sizes ``s`` that go
    with them (a real transform keeps its last axis last): fftn(x, s=(2, 1, 1),
    axes=(1, 0, 2)) pads axis 0 (seen on a GPU)."""

    def f(x: Any, s: Any = None, axes: Any = None, **kwargs: Any) -> Any:
        if s is not None and axes is not None:
            axes = list(axes)
            axes = [*sorted(axes[:-1]), axes[-1]] if real_last else sorted(axes)
        return np_func(x, s=s, axes=axes, **kwargs)

    return f


# NumPy functions that CuPy computes differently, by name
_CUPY_NUMERICS: dict[str, Any] = {
    "fftn": _fft_sorted_axes(np.fft.fftn, False),
    "ifftn": _fft_sorted_axes(np.fft.ifftn, False),
    "rfftn": _fft_sorted_axes(np.fft.rfftn, True),
    "irfftn": _fft_sorted_axes(np.fft.irfftn, True),
    **{n: _thrust_special(getattr(np, n)) for n in ("log", "log1p", "tanh", "tan")},
    "arccosh": _thrust_special(np.arccosh),
    "absolute": _complex_abs,
    "log2": _log_by_division(2.0, np.log2),
    "log10": _log_by_division(10.0, np.log10),
}


class _Kernel:
    """A simulated CuPy kernel (a NumPy function under CuPy's rules) with a
    :class:`_ModuleHandle`: pickled by value, as CuPy's are."""

    def __init__(self, np_func: Any) -> None:
        self.__name__ = getattr(np_func, "__name__", "f")
        self.__wrapped__ = np_func
        self._impl = _CUPY_NUMERICS.get(self.__name__, np_func)
        self._module = _ModuleHandle()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._module.ptr in _unloaded:
            msg = "CUDA_ERROR_INVALID_HANDLE: invalid resource handle"
            raise CUDADriverError(msg)
        return _call(self._impl, args, kwargs)

    def __repr__(self) -> str:
        return f"<simcupy kernel {self.__name__}>"


def _wrapped(np_func: Any) -> Any:
    return _Kernel(np_func)


def _info(np_func: Any) -> Any:
    def f(*args: Any, **kwargs: Any) -> Any:
        args = [a.view(np.ndarray) if type(a) is SimArray else a for a in args]
        return np_func(*args, **kwargs)

    return f


# NumPy functions CuPy 14 lacks
_ABSENT = frozenset({"vecdot"})


class _Module(types.ModuleType):
    """A module proxy: NumPy's (sub)module with array functions wrapped."""

    def __init__(self, name: str, np_module: Any) -> None:
        super().__init__(name)
        self._np = np_module

    def __reduce__(self) -> Any:
        # by reference, as the real ``cupy`` (an importable module) pickles
        return (_sim_module, (self.__name__,))

    def __getattr__(self, name: str) -> Any:
        obj = getattr(self._np, name)
        if isinstance(obj, types.ModuleType):
            res: Any = _Module(f"{self.__name__}.{name}", obj)
        elif name in _INFO or isinstance(obj, type):
            res = _info(obj) if name in _INFO and not isinstance(obj, type) else obj
        elif callable(obj):
            res = _wrapped(obj)
        else:
            res = obj
        setattr(self, name, res)
        return res


class _SimCupy(_Module):
    ndarray = SimArray
    cuda = cuda

    def __getattr__(self, name: str) -> Any:
        if name in _ABSENT:
            msg = f"module 'cupy' has no attribute {name!r} (CuPy 14)"
            raise AttributeError(msg)
        return super().__getattr__(name)

    @staticmethod
    def array(
        obj: Any,
        dtype: Any = None,
        copy: bool | None = True,
        order: str = "K",
        ndmin: int = 0,
    ) -> SimArray:
        """CuPy 14: ``copy=False`` never copies, ``None`` copies if needed."""
        if type(obj) is SimArray:
            base = obj.view(np.ndarray)
            if obj._dev != _current():  # across devices: always a copy
                if copy is False:
                    msg = "Unable to avoid copy while creating an array as requested."
                    raise ValueError(msg)
                if order == "K" and not (
                    base.flags.c_contiguous or base.flags.f_contiguous
                ):
                    msg = "CuPy cannot copy non-contiguous array between devices."
                    raise NotImplementedError(msg)
                copy = True
            res = np.array(
                base, dtype=dtype, copy=True if copy else None, order=order, ndmin=ndmin
            )
            if res is base or (not copy and np.shares_memory(res, base)):
                return res.view(SimArray) if res is not base else obj
            if copy is False:
                msg = "Unable to avoid copy while creating an array as requested."
                raise ValueError(msg)
            return _to_device(res)
        # host data: always copied to the device
        res = np.array(obj, dtype=dtype, copy=True, order=order, ndmin=ndmin)
        if res.ndim == 0:
            # CuPy 14 fills a 0-d array from host data with fill(): a zero by
            # memset, the bits of +0 (cupy.array(-0.0) is +0; seen on a GPU)
            res = _memset_zero(res)
        return _to_device(res)

    @staticmethod
    def full(shape: Any, fill_value: Any, dtype: Any = None, order: str = "C") -> Any:
        """CuPy 14: copyto() fills with a host scalar by fill(), a zero by
        memset (+0 whatever its sign); a device array is copied."""
        if isinstance(fill_value, SimArray):
            _check_device(fill_value)
            fill_value = fill_value.view(np.ndarray)
        elif type(fill_value) is np.ndarray:
            raise _unsupported(fill_value)
        res = np.full(shape, fill_value, dtype=dtype, order=order)
        if not isinstance(fill_value, np.ndarray):
            res = _memset_zero(res)
        return _to_device(res)

    @staticmethod
    def asarray(obj: Any, dtype: Any = None, order: Any = None) -> SimArray:
        return _SimCupy.array(obj, dtype=dtype, copy=None, order=order or "K")

    @staticmethod
    def asnumpy(a: Any, stream: Any = None, order: str = "C") -> np.ndarray:
        if type(a) is SimArray:
            return np.array(a.view(np.ndarray), copy=True, order=order)
        return np.asarray(a, order=order)

    @staticmethod
    def from_dlpack(
        obj: Any, *, copy: bool | None = None, device: Any = None
    ) -> SimArray:
        """Import CUDA DLPack data (kDLCUDA); host data is refused, as by CuPy.
        ``copy`` goes to the producer's ``__dlpack__``, as in CuPy."""
        if type(obj) is SimArray:
            if copy:
                obj.__dlpack__(copy=True)  # CuPy's own exporter refuses
            return obj
        dl_type, dl_id = obj.__dlpack_device__()
        if int(dl_type) != 2:
            msg = f"simcupy.from_dlpack: DLPack device type {dl_type} is not CUDA"
            raise BufferError(msg)

        class _Host:  # the simulated device memory is host memory
            def __dlpack__(self, **kw: Any) -> Any:
                return obj.__dlpack__(**kw)

            def __dlpack_device__(self) -> tuple[int, int]:
                return (1, 0)

        host = np.from_dlpack(_Host())
        return _to_device(host.copy() if copy else host, int(dl_id))

    # CuPy's take and take_along_axis wrap out-of-range indices around
    @staticmethod
    def take(a: Any, indices: Any, axis: Any = None, out: Any = None) -> SimArray:
        return _call(np.take, (a, indices), {"axis": axis, "mode": "wrap"})  # type: ignore[no-any-return]

    @staticmethod
    def take_along_axis(a: Any, indices: Any, axis: Any) -> SimArray:
        n = a.shape[axis] if axis is not None else a.size
        if n:
            indices = indices % n
        return _call(np.take_along_axis, (a, indices), {"axis": axis})  # type: ignore[no-any-return]

    # CuPy's sorts are always stable (kind=None means "stable"; no other kind)
    @staticmethod
    def sort(a: Any, axis: Any = -1, kind: Any = None) -> SimArray:
        if kind not in (None, "stable"):
            raise NotImplementedError(f"simcupy.sort: kind={kind!r} is not supported")
        if a.ndim == 1 and a.dtype.kind == "f":
            return a[_SimCupy.argsort(a)]  # type: ignore[no-any-return]
        return _call(np.sort, (a,), {"axis": axis, "kind": "stable"})  # type: ignore[no-any-return]

    @staticmethod
    def argsort(a: Any, axis: Any = -1, kind: Any = None) -> SimArray:
        if kind not in (None, "stable"):
            raise NotImplementedError(
                f"simcupy.argsort: kind={kind!r} is not supported"
            )
        if a.ndim == 1 and a.dtype.kind == "f":
            return _to_device(_radix_argsort(a.view(np.ndarray)), a._dev)
        return _call(np.argsort, (a,), {"axis": axis, "kind": "stable"})  # type: ignore[no-any-return]

    @staticmethod
    def unique(ar: Any, return_index: bool = False, return_inverse: bool = False,
               return_counts: bool = False, axis: Any = None,
               *, equal_nan: bool = True) -> Any:  # fmt: skip
        """Sorted as CuPy sorts (negative NaNs first), then NumPy's grouping."""
        flat = ar.reshape(-1)
        order = _SimCupy.argsort(flat).view(np.ndarray)
        vals = flat.view(np.ndarray)[order]
        if vals.size:
            new = np.empty(vals.size, dtype=bool)
            new[0] = True
            same = vals[1:] == vals[:-1]
            if equal_nan:
                same |= np.isnan(vals[1:]) & np.isnan(vals[:-1])
            new[1:] = ~same
        else:
            new = np.zeros(0, dtype=bool)
        starts = np.flatnonzero(new)
        res: list[Any] = [vals[starts]]
        if return_index:
            res.append(order[starts])
        if return_inverse:
            inv = np.empty(vals.size, dtype=np.intp)
            inv[order] = np.cumsum(new) - 1
            res.append(inv)
        if return_counts:
            res.append(np.diff(np.append(starts, vals.size)))
        out = [_to_device(r, ar._dev) for r in res]
        return out[0] if len(out) == 1 else tuple(out)

    # CuPy's isin and searchsorted take arrays and do not promote
    @staticmethod
    def isin(
        element: Any,
        test_elements: Any,
        assume_unique: bool = False,
        invert: bool = False,
    ) -> SimArray:
        for a in (element, test_elements):
            if type(a) is not SimArray:
                msg = f"'{type(a).__name__}' object has no attribute 'ravel'"
                raise AttributeError(msg)
        _same_dtypes("isin", element, test_elements)
        # CuPy: sort test_elements (as above), binary-search each element,
        # and compare with the element found
        bins = _SimCupy.sort(test_elements.reshape(-1)).view(np.ndarray)
        x = element.view(np.ndarray)
        if bins.size == 0:
            hit = np.zeros(x.shape, dtype=bool)
        else:
            lo = np.zeros(x.shape, dtype=np.intp)
            hi = np.full(x.shape, bins.size, dtype=np.intp)
            while (lo < hi).any():
                mid = (lo + hi) // 2
                go_right = (lo < hi) & (bins[np.minimum(mid, bins.size - 1)] < x)
                lo = np.where(go_right, mid + 1, lo)
                hi = np.where((lo < hi) & ~go_right, mid, hi)
            hit = bins[np.minimum(lo, bins.size - 1)] == x
        return _to_device(np.asarray(hit != invert), element._dev)

    @staticmethod
    def searchsorted(
        a: Any, v: Any, side: str = "left", sorter: Any = None
    ) -> SimArray:
        if type(v) is not SimArray:
            msg = "Only int or ndarray are supported for v"
            raise NotImplementedError(msg)
        _same_dtypes("searchsorted", a, v)
        return _call(np.searchsorted, (a, v), {"side": side, "sorter": sorter})  # type: ignore[no-any-return]

    # CuPy's float remainder: x - floor(x / y) * y
    @staticmethod
    def remainder(x1: Any, x2: Any, out: Any = None) -> SimArray:
        return _float_formula(
            np.remainder, lambda a, b: a - np.floor(a / b) * b, x1, x2, out
        )

    # CuPy's float floor_divide: floor(x / y)
    @staticmethod
    def floor_divide(x1: Any, x2: Any, out: Any = None) -> SimArray:
        return _float_formula(
            np.floor_divide, lambda a, b: np.floor(a / b), x1, x2, out
        )

    # CuPy's arg-reductions keep whichever NaN their reduction tree meets
    # first; here, with several NaNs, the last one
    @staticmethod
    def argmax(
        a: Any, axis: Any = None, out: Any = None, keepdims: bool = False
    ) -> SimArray:
        return _arg_extremum(np.argmax, a, axis, keepdims)

    @staticmethod
    def argmin(
        a: Any, axis: Any = None, out: Any = None, keepdims: bool = False
    ) -> SimArray:
        return _arg_extremum(np.argmin, a, axis, keepdims)

    # CuPy's float16 nextafter: NaN for an infinite x1, x1 when equal
    @staticmethod
    def nextafter(x1: Any, x2: Any, out: Any = None) -> SimArray:
        res = _call(np.nextafter, (x1, x2), {})
        if res.dtype == np.float16:
            a = np.broadcast_to(_unwrap(x1), res.shape)
            b = np.broadcast_to(_unwrap(x2), res.shape)
            raw = res.view(np.ndarray).copy()
            raw[a == b] = a[a == b]
            raw[~np.isfinite(a) | np.isnan(b)] = np.nan
            res = _to_device(raw, res._dev)
        if out is not None:
            out[...] = res
            return out  # type: ignore[no-any-return]
        return res  # type: ignore[no-any-return]

    # CuPy's linspace converts its bounds with float() (CuPy issue 9370)
    @staticmethod
    def linspace(start: Any, stop: Any, num: int = 50, endpoint: bool = True,
                 retstep: bool = False, dtype: Any = None, axis: int = 0) -> SimArray:  # fmt: skip
        if (num - 1 if endpoint else num) > 0:
            float(start), float(stop)  # TypeError for complex bounds, as CuPy
        return _call(  # type: ignore[no-any-return]
            np.linspace, (start, stop, num), {"endpoint": endpoint, "dtype": dtype}
        )

    # C's << and >>: a count of the width or more is undefined (here: modulo)
    @staticmethod
    def left_shift(x1: Any, x2: Any, out: Any = None) -> SimArray:
        return _shift(np.left_shift, x1, x2, out)

    @staticmethod
    def right_shift(x1: Any, x2: Any, out: Any = None) -> SimArray:
        return _shift(np.right_shift, x1, x2, out)

    @staticmethod
    def may_share_memory(a: Any, b: Any, max_work: Any = None) -> bool:
        a = a.view(np.ndarray) if isinstance(a, np.ndarray) else a
        b = b.view(np.ndarray) if isinstance(b, np.ndarray) else b
        return bool(np.may_share_memory(a, b))


def _float_formula(func: Any, formula: Any, x1: Any, x2: Any, out: Any) -> SimArray:
    """NumPy's ``func`` for integers; CuPy's ``formula(x1, x2)`` for floats."""
    res = _call(func, (x1, x2), {})
    if res.dtype.kind == "f":
        dtype = res.dtype
        with np.errstate(all="ignore"):
            res = _call(
                lambda a, b: np.asarray(formula(a, b), dtype=dtype), (x1, x2), {}
            )
    if out is not None:
        out[...] = res
        return out  # type: ignore[no-any-return]
    return res  # type: ignore[no-any-return]


def _radix_argsort(a: np.ndarray) -> np.ndarray:
    """CuPy's 1-D float argsort (CUB's radix sort by the bits): stable, with
    NaNs whose sign bit is set first and the other NaNs last."""
    order = np.argsort(a, kind="stable")  # NaNs last, in their order
    neg_nan = np.isnan(a[order]) & np.signbit(a[order])
    return np.concatenate([order[neg_nan], order[~neg_nan]])


def _arg_extremum(func: Any, a: Any, axis: Any, keepdims: bool) -> SimArray:
    x = a.view(np.ndarray)
    res = func(x, axis=axis, keepdims=keepdims)
    if x.dtype.kind == "f":
        flat = x.reshape(-1) if axis is None else np.moveaxis(x, axis, -1)
        nan = np.isnan(flat)
        last = flat.shape[-1] - 1 - np.argmax(nan[..., ::-1], axis=-1)
        several = nan.sum(axis=-1) > 1
        if keepdims and axis is not None:
            last, several = np.expand_dims(last, axis), np.expand_dims(several, axis)
        elif keepdims:
            last, several = last.reshape((1,) * x.ndim), several.reshape((1,) * x.ndim)
        res = np.where(several, last, res)
    return _to_device(np.asarray(res, dtype=np.intp), a._dev)


def _same_dtypes(name: str, a: Any, b: Any) -> None:
    if a.dtype != b.dtype:
        msg = (
            f"simcupy.{name}: {a.dtype} and {b.dtype} would be compared without "
            f"promotion (CuPy's kernel compares them as they are)"
        )
        raise TypeError(msg)


def _shift(func: Any, x1: Any, x2: Any, out: Any) -> SimArray:
    t = np.result_type(*[a.dtype if isinstance(a, np.ndarray) else a for a in (x1, x2)])
    bits = np.dtype(t).itemsize * 8
    count = (
        x2 % bits if isinstance(x2, (int, np.integer)) else _SimCupy.asarray(x2) % bits
    )
    res = _call(func, (x1, count), {})
    if out is not None:
        out[...] = res
        return out  # type: ignore[no-any-return]
    return res  # type: ignore[no-any-return]


_linalg_raise = threading.local()


class linalg_errstate:  # stands for cupyx.errstate(linalg="raise")
    """Make ``linalg.inv``, ``solve`` and ``cholesky`` raise ``LinAlgError``
    for singular input, as ``cupyx.errstate(linalg="raise")`` does."""

    def __enter__(self) -> None:
        _linalg_raise.depth = getattr(_linalg_raise, "depth", 0) + 1

    def __exit__(self, *exc: object) -> None:
        _linalg_raise.depth -= 1


def _checked(name: str, func: Any) -> Any:
    def f(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except np.linalg.LinAlgError:
            # cuSOLVER's SVD reports no failure even under the error state
            # (NaN input gives NaN results; seen on a GPU)
            if getattr(_linalg_raise, "depth", 0) and name != "svd":
                raise
        # CuPy's default (linalg="ignore"): cuSOLVER's failure goes unseen
        if name == "svd":  # NaN results of the right shapes
            a = args[0]
            eye = np.broadcast_to(
                np.eye(a.shape[-2], a.shape[-1], dtype=a.dtype), a.shape
            )
            res = func(_to_device(eye.copy(), a._dev), *args[1:], **kwargs)
            if isinstance(res, tuple):
                return type(res)(*[_nan_like(r) for r in res])
            return _nan_like(res)
        shape = (
            np.broadcast_shapes(*[a.shape for a in args])
            if name == "solve"
            else args[0].shape
        )
        return _to_device(
            np.full(shape, np.nan, dtype=np.result_type(*args, np.float32))
        )

    f.__name__ = name
    return f


def _nan_like(a: SimArray) -> SimArray:
    return _to_device(np.full(a.shape, np.nan, dtype=a.dtype), a._dev)


class _SimLinalg(_Module):
    """``cupy.linalg``: CuPy 14's ``solve`` shapes; silent singular input."""

    @staticmethod
    def solve(a: Any, b: Any) -> SimArray:
        if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
            msg = "a must be a stack of square matrices"
            raise ValueError(msg)
        if b.ndim == 1:
            if a.shape[-1] != b.size:
                msg = "a must have (..., M, M) shape and b must have (M,) for one-dimensional b"
                raise ValueError(msg)
            b = xp.broadcast_to(b, a.shape[:-1])
            vec = _call(np.linalg.solve, (a, b[..., None]), {})
            return vec[..., 0]  # type: ignore[no-any-return]
        if a.shape[:-1] != b.shape[:-1]:
            msg = "a must have (..., M, M) shape and b must have (..., M, K) for multidimensional b"
            raise ValueError(msg)
        if a.ndim > 2 and b.shape[-1] == 0:
            # CuPy 14's batched solve (cublas.batched_gesv) steps through the
            # right-hand sides by their size: arange(..., step=0)
            msg = "division by zero"
            raise ZeroDivisionError(msg)
        return _call(np.linalg.solve, (a, b), {})  # type: ignore[no-any-return]

    @staticmethod
    def matrix_power(a: Any, n: int) -> SimArray:
        if n < 0:  # CuPy inverts with its own inv, outside any error state
            a, n = _SimLinalg.inv(a), -n
        return _call(np.linalg.matrix_power, (a, n), {})  # type: ignore[no-any-return]


for _name in ("solve", "inv", "cholesky", "svd"):
    _f = getattr(_SimLinalg, _name, None) or _wrapped(getattr(np.linalg, _name))
    setattr(_SimLinalg, _name, staticmethod(_checked(_name, _f)))


_SimCupy.linalg = _SimLinalg("simcupy.linalg", np.linalg)  # type: ignore[attr-defined]

xp = _SimCupy("simcupy", np)
"""The simulated ``cupy`` module."""


def _sim_module(name: str) -> Any:
    """The simulated module ``name`` (``simcupy``, ``simcupy.fft``, ...)."""
    mod: Any = xp
    for part in name.split(".")[1:]:
        mod = getattr(mod, part)
    return mod


_OVERRIDES: dict[Any, Any] = {}


def _overrides() -> dict[Any, Any]:
    """NumPy function -> this module's CuPy-rule version, for the functions
    simulated above (``__array_function__`` answers NumPy's with them)."""
    if not _OVERRIDES:
        for name in ("sort", "argsort", "unique", "isin", "searchsorted", "take",
                     "take_along_axis", "argmax", "argmin", "linspace"):  # fmt: skip
            _OVERRIDES[getattr(np, name)] = getattr(_SimCupy, name)
        for name in ("solve", "inv", "cholesky", "svd", "matrix_power"):
            _OVERRIDES[getattr(np.linalg, name)] = getattr(xp.linalg, name)
    return _OVERRIDES


def register_with_dask() -> None:
    """Register ``SimArray`` in dask's chunk-type dispatch tables, as dask
    registers ``cupy.ndarray`` when it meets a CuPy chunk (``register_cupy``
    in ``dask/array/backends.py``), so that dask arrays of simulated CuPy
    chunks take the code paths they take on a GPU.  Idempotent.

    Element counts (``numel``) are then device arrays, as with CuPy (dask's
    NumPy version would make host arrays, which device arithmetic refuses).
    Note: dask also imports ``cupy`` by name in a few places for types whose
    name contains "cupy" (``dask.utils.is_cupy_type``, e.g. the blocks of
    ``matmul``); a test that reaches those needs ``sys.modules["cupy"]``
    pointing at :data:`xp` (``tests/backends/test_dask_cupy.py`` does that).
    """
    from dask.array import backends as dab
    from dask.array.dispatch import (
        concatenate_lookup,
        einsum_lookup,
        empty_lookup,
        nannumel_lookup,
        numel_lookup,
        percentile_lookup,
        take_lookup,
        tensordot_lookup,
        to_numpy_dispatch,
    )

    if SimArray in numel_lookup._lookup:
        return
    concatenate_lookup.register(SimArray, xp.concatenate)
    take_lookup.register(SimArray, xp.take)
    tensordot_lookup.register(SimArray, xp.tensordot)
    percentile_lookup.register(SimArray, dab.percentile)
    numel_lookup.register(SimArray, dab._numel_arraylike)
    nannumel_lookup.register(SimArray, dab._nannumel)
    empty_lookup.register(SimArray, xp.empty)
    to_numpy_dispatch.register(SimArray, lambda data, **kw: xp.asnumpy(data, **kw))

    def einsum(*args: Any, **kwargs: Any) -> Any:
        kwargs.pop("casting", None)  # as dask's CuPy einsum: CuPy takes neither
        kwargs.pop("order", None)
        return xp.einsum(*args, **kwargs)

    einsum_lookup.register(SimArray, einsum)
