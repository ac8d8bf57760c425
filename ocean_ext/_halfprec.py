"""Half-precision dtypes: ``float16`` and ``complex32`` (Ocean's complex-half).

Arrays of these dtypes are ordinary ``Array`` objects of ``ocean_array_api``::

    import ocean_array_api as xp
    import ocean_ext

    z = xp.asarray([1 + 2j, 3 - 4j], dtype=ocean_ext.complex32)
    w = xp.exp(z) * 2.0            # complex32, computed by compiled kernels
    xp.astype(w, xp.complex64)     # to a standard dtype

The promotion lattice grows by float16 < float32 < float64, complex32 <
complex64 < complex128, with float16 + complex32 -> complex32 and float32 +
complex32 -> complex64 (and the other mixed pairs accordingly).  Python
scalars combine with them as with the standard floating dtypes.

What works on them: creation (``asarray``, ``zeros``, ``ones``, ``empty``,
``full``, the ``*_like`` functions, ``eye``, ``linspace``), ``astype`` to and
from every numeric dtype, the arithmetic operators and elementwise functions
(for complex32: ``+ - * /``, ``abs``, ``exp``, ``log``, ``log2``, ``log10``,
``sqrt``, ``square``, ``reciprocal``, ``sign``, the trigonometric and
hyperbolic functions and their inverses, ``==``, ``!=``, ``isnan``,
``isfinite``, ``isinf``, ``real``, ``imag``, ``conj``; for float16 every
elementwise function that takes real floating input), ``sum``, ``prod``,
``mean`` (accumulated in double on the CPU, rounded once), ``matmul``,
``vecdot``, the ``fft`` transforms (computed in complex64/float32 and
rounded), indexing, ``where`` and the manipulation functions.  ``real``,
``imag`` and ``abs`` of complex32 are float16.  Where an operation has no
meaning for complex numbers (ordering, ``floor``...), complex32 raises the
TypeError complex64 raises; any other function that has no kernel for
complex32 raises a TypeError that says to use ``astype(x, complex64)`` first,
never a wrong result.

Storage: float16 is NumPy's (and CuPy's) float16.  complex32 has no NumPy
dtype: an element is stored as one 4-byte ``uint32`` holding the float16 pair
(real, imaginary), and the backends run kernels of their own on it (on the
CPU, NumPy ufuncs compiled from ``backends/ocean_cpu/src/halfprec.c``, with
F16C/AVX2 code where the CPU has it).  ``numpy.asarray(z)`` and ``repr`` show
complex32 values as complex64; DLPack has no complex-half type, so
``z.__dlpack__()`` raises BufferError (export ``astype(z, complex64)``).

The inspection API (``__array_namespace_info__().dtypes()``) lists only the
standard dtypes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ocean_array_api import _dtypes as _dt
from ocean_array_api import _ext_dtypes as _ext
from ocean_array_api._array_object import Array, _wrap
from ocean_array_api._devices import CPU as _CPU
from ocean_array_api._devices import default_device

__all__ = ["complex32", "float16", "view_as_complex", "view_as_real"]


def _dtype(name: str, kind: str, native: Any) -> _dt.DType:
    # once per process, also if this module is imported again
    existing = _dt._REGISTRY.get(name)
    return existing if existing is not None else _dt._register(name, kind, native)


#: IEEE binary16; NumPy's float16 storage.
float16 = _dtype("float16", "real floating", np.float16)
#: Two float16 (real, imaginary); stored as one uint32 per element.
complex32 = _dtype("complex32", "complex floating", np.uint32)

_ext.register(float16, proxy=_dt.float32, opaque=False)
_ext.register(complex32, proxy=_dt.complex64, opaque=True)
_dt.COMPLEX_OF[float16] = complex32
_dt.REAL_OF[complex32] = float16
for _a, _b, _r in (
    (float16, float16, float16),
    (float16, _dt.float32, _dt.float32),
    (float16, _dt.float64, _dt.float64),
    (complex32, complex32, complex32),
    (complex32, _dt.complex64, _dt.complex64),
    (complex32, _dt.complex128, _dt.complex128),
    (float16, complex32, complex32),
    (float16, _dt.complex64, _dt.complex64),
    (float16, _dt.complex128, _dt.complex128),
    (_dt.float32, complex32, _dt.complex64),
    (_dt.float64, complex32, _dt.complex128),
):
    _dt._add_rule(_a, _b, _r)

_FLOAT_BY_NUMPY: dict[np.dtype[Any], _dt.DType] = {
    np.dtype(np.float16): float16,
    np.dtype(np.float32): _dt.float32,
    np.dtype(np.float64): _dt.float64,
}
_COMPLEX_BY_NUMPY: dict[np.dtype[Any], _dt.DType] = {
    np.dtype(np.complex64): _dt.complex64,
    np.dtype(np.complex128): _dt.complex128,
}


def _operand(
    x: Any, where: str, table: dict[np.dtype[Any], _dt.DType]
) -> tuple[Any, Any, Any]:
    """(native, dtype, device) of an Array or a NumPy array."""
    if x.__class__ is Array:
        return x._data, x._dtype, x._device
    if isinstance(x, np.ndarray):
        dt = table.get(x.dtype.newbyteorder("="))
        if dt is None:
            kinds = " or ".join(sorted({str(d) for d in table.values()}))
            msg = f"{where}: a NumPy array of {kinds} is needed, got {x.dtype}"
            raise TypeError(msg)
        # A view stays in host memory: on the default device when that is a
        # (logical) CPU, which all share it; else on the first CPU.
        dev = default_device()
        return x, dt, dev if dev._kind == "cpu" else _CPU
    msg = f"{where}: `x` must be an array (ours or NumPy's), got {type(x).__name__}"
    raise TypeError(msg)


def view_as_complex(x: Any, /) -> Array:
    """View a float array of shape ``(..., 2)`` as a complex array of shape ``(...)``.

    float16, float32 and float64 become complex32, complex64 and complex128;
    ``x[..., 0]`` are the real parts, ``x[..., 1]`` the imaginary parts.  No
    data is copied: the result shares memory with ``x`` (an ``Array`` or a
    NumPy array, which then gives an array on the default device when that is
    a CPU device, else on the first CPU).

    Parameters
    ----------
    x : Array or numpy.ndarray
        Real floating-point data whose last axis has length 2 and is
        contiguous, with the other strides multiples of the complex itemsize.

    Returns
    -------
    Array
        The complex view.

    Raises
    ------
    TypeError
        ``x`` is not a real floating-point array.
    ValueError
        The last axis is not of length 2, or the memory layout does not allow
        a view (copy ``x`` first, e.g. with ``asarray(x, copy=True)``).

    Examples
    --------
    >>> import numpy as np
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> pairs = np.array([[1.0, 2.0], [3.0, -4.0]], dtype=np.float16)
    >>> z = ocean_ext.view_as_complex(pairs)
    >>> z
    Array([1.+2.j, 3.-4.j], dtype=complex32)
    >>> pairs[0, 1] = 5.0  # the same memory
    >>> complex(z[0])
    (1+5j)
    >>> ocean_ext.view_as_complex(xp.ones((3, 2))).dtype
    ocean_array_api.complex128
    """
    where = "view_as_complex()"
    data, dt, dev = _operand(x, where, _FLOAT_BY_NUMPY)
    if dt._kind != "real floating":
        msg = f"{where}: `x` must have a real floating-point dtype, got {dt}"
        raise TypeError(msg)
    if data.ndim == 0 or data.shape[-1] != 2:
        msg = f"{where}: the last axis of `x` must have length 2 (real, imaginary), got shape {data.shape}"
        raise ValueError(msg)
    target = _dt.COMPLEX_OF[dt]
    native = target._native
    if target in _ext.OPAQUE:
        if not data.dtype.isnative:
            msg = f"{where}: a byte-swapped {dt} array cannot be viewed as {target}; use ocean_ext.byteswap() first"
            raise ValueError(msg)
    else:
        native = native.newbyteorder(data.dtype.byteorder)
    try:
        res = dev._ops["view_as_complex"](data, native)
    except ValueError as exc:
        msg = f"{where}: cannot view `x` (shape {data.shape}, strides {getattr(data, 'strides', '?')}) as {target}: {exc}; copy it first"
        raise ValueError(msg) from None
    return _wrap(res, target, dev)


def view_as_real(z: Any, /) -> Array:
    """View a complex array of shape ``(...)`` as a float array of shape ``(..., 2)``.

    The reverse of :func:`view_as_complex`: complex32, complex64 and
    complex128 become float16, float32 and float64, the last axis holding
    (real, imaginary).  No data is copied.

    Parameters
    ----------
    z : Array or numpy.ndarray
        Complex data.

    Returns
    -------
    Array
        The real view, sharing memory with ``z``.

    Raises
    ------
    TypeError
        ``z`` is not a complex array.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> import ocean_ext
    >>> z = xp.asarray([1 + 2j, 3 - 4j], dtype=ocean_ext.complex32)
    >>> r = ocean_ext.view_as_real(z)
    >>> r
    Array([[ 1.,  2.],
           [ 3., -4.]], dtype=float16)
    >>> r[1, 1] = 0.5  # writes through to z
    >>> complex(z[1])
    (3+0.5j)
    """
    where = "view_as_real()"
    data, dt, dev = _operand(z, where, _COMPLEX_BY_NUMPY)
    if dt._kind != "complex floating":
        msg = f"{where}: `z` must have a complex floating-point dtype, got {dt}"
        raise TypeError(msg)
    real = _dt.REAL_OF[dt]
    native = real._native
    if dt not in _ext.OPAQUE:
        native = native.newbyteorder(data.dtype.byteorder)
    return _wrap(dev._ops["view_as_real"](data, native), real, dev)
