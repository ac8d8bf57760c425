"""``fft.*`` entries of the CPU backend's function table, over ``numpy.fft``.

Arguments are native (NumPy) arrays and already-validated values: the front end
(``ocean_array_api.fft``) has checked dtypes, resolved ``n``/``s`` (no ``None``
or ``-1`` left, every size at least 1), normalised ``axis``/``axes`` to
non-negative ints and checked ``norm``.  Results keep the precision of the
input, as the standard requires (float32 <-> complex64, float64 <->
complex128), in native byte order.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ._common import fill_empty_axes

ndarray = np.ndarray

# dtype character -> complex / real dtype of the same precision.
_COMPLEX_OF: dict[str, np.dtype[Any]] = {
    "f": np.dtype(np.complex64),
    "d": np.dtype(np.complex128),
    "F": np.dtype(np.complex64),
    "D": np.dtype(np.complex128),
}
_REAL_OF: dict[str, np.dtype[Any]] = {
    "f": np.dtype(np.float32),
    "d": np.dtype(np.float64),
    "F": np.dtype(np.float32),
    "D": np.dtype(np.float64),
}


def _keep(res: ndarray, want: np.dtype) -> ndarray:
    # Note: NumPy before 2.0 computed every transform in double precision; the
    # standard wants the input's precision.  A no-op on current NumPy.
    if res.dtype != want:
        return res.astype(want)
    return res


# The transforms are looked up in numpy.fft at the call, so that importing
# the backend does not import numpy.fft (about 1 ms of the package's import).
def _one_dim(name: str, table: dict[str, np.dtype]) -> Callable[..., ndarray]:
    def op(x: ndarray, n: int, axis: int, norm: str) -> ndarray:
        func = getattr(np.fft, name)
        x = fill_empty_axes(np.zeros, x, (axis,))
        return _keep(func(x, n=n, axis=axis, norm=norm), table[x.dtype.char])

    op.__name__ = op.__qualname__ = name
    return op


def _n_dim(name: str, table: dict[str, np.dtype]) -> Callable[..., ndarray]:
    def op(x: ndarray, s: tuple[int, ...], axes: tuple[int, ...], norm: str) -> ndarray:
        want = table[x.dtype.char]
        if not axes:
            # No axis to transform (fftn/ifftn only; the front end refuses it
            # for the real transforms): a copy, as NumPy would give.
            return x.astype(want, copy=True)
        func = getattr(np.fft, name)
        x = fill_empty_axes(np.zeros, x, axes)
        return _keep(func(x, s=s, axes=axes, norm=norm), want)

    op.__name__ = op.__qualname__ = name
    return op


def _fftfreq(index: int, n: int, d: float, dtype: np.dtype) -> ndarray:
    return np.fft.fftfreq(n, d).astype(dtype, copy=False)


def _rfftfreq(index: int, n: int, d: float, dtype: np.dtype) -> ndarray:
    return np.fft.rfftfreq(n, d).astype(dtype, copy=False)


def _to_native_order(res: ndarray) -> ndarray:
    # np.roll keeps a byte-swapped input's byte order; results are native.
    if res.dtype.isnative:
        return res
    return res.astype(res.dtype.newbyteorder("="))


def _fftshift(x: ndarray, axes: tuple[int, ...]) -> ndarray:
    return _to_native_order(np.fft.fftshift(x, axes=axes))


def _ifftshift(x: ndarray, axes: tuple[int, ...]) -> ndarray:
    return _to_native_order(np.fft.ifftshift(x, axes=axes))


OPS: dict[str, Callable[..., Any]] = {
    "fft.fft": _one_dim("fft", _COMPLEX_OF),
    "fft.ifft": _one_dim("ifft", _COMPLEX_OF),
    "fft.rfft": _one_dim("rfft", _COMPLEX_OF),
    "fft.irfft": _one_dim("irfft", _REAL_OF),
    "fft.hfft": _one_dim("hfft", _REAL_OF),
    "fft.ihfft": _one_dim("ihfft", _COMPLEX_OF),
    "fft.fftn": _n_dim("fftn", _COMPLEX_OF),
    "fft.ifftn": _n_dim("ifftn", _COMPLEX_OF),
    "fft.rfftn": _n_dim("rfftn", _COMPLEX_OF),
    "fft.irfftn": _n_dim("irfftn", _REAL_OF),
    # creation-like: first argument is the device index
    "fft.fftfreq": _fftfreq,
    "fft.rfftfreq": _rfftfreq,
    "fft.fftshift": _fftshift,
    "fft.ifftshift": _ifftshift,
}
