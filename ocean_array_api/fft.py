"""The ``fft`` extension of the Array API standard.

Every function checks its arguments once and calls the backend's
``fft.<name>`` kernel with resolved sizes: ``n`` and ``s`` arrive as ints of
at least 1 (the standard's ``None`` and ``-1`` already replaced by the input's
sizes), ``axis`` and ``axes`` as non-negative ints.  Results keep the
precision of the input (float32 <-> complex64, float64 <-> complex128) and its
device.

Dtypes, as the standard says: ``fft``, ``ifft``, ``fftn``, ``ifftn``,
``irfft``, ``irfftn`` and ``hfft`` take complex input; ``rfft``, ``rfftn`` and
``ihfft`` real floating input; ``fftshift`` and ``ifftshift`` any floating
input.  Other dtypes raise ``TypeError`` (use ``astype`` first).

See https://data-apis.org/array-api/2025.12/extensions/fourier_transform_functions.html
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, Literal

from . import _dtypes as _dt
from . import _ext_dtypes as _ext
from . import _hints
from ._array_object import Array
from ._devices import Device, default_device, parse_device
from ._dtypes import DType, check_dtype_arg
from ._helpers import check_int, check_size, normalize_axis, type_error
from ._linear_algebra_functions import _check_array, _finish

__all__ = [
    "fft",
    "ifft",
    "fftn",
    "ifftn",
    "rfft",
    "irfft",
    "rfftn",
    "irfftn",
    "hfft",
    "ihfft",
    "fftfreq",
    "rfftfreq",
    "fftshift",
    "ifftshift",
]

_Norm = Literal["backward", "ortho", "forward"]

_complex_floating = _dt._complex_floating
_real_floating = _dt._real_floating
_floating = _dt._floating


# --- argument checks ----------------------------------------------------------
def _check_norm(norm: Any, where: str) -> str:
    if norm.__class__ is not str:
        type_error(where, "norm", "'backward', 'ortho' or 'forward'", norm)
    if norm in ("backward", "ortho", "forward"):
        return norm  # type: ignore[no-any-return]
    msg = f"{where}: `norm` must be 'backward', 'ortho' or 'forward', got {norm!r}"
    raise ValueError(msg)


def _check_size(value: Any, where: str, argname: str) -> int:
    """A transform length given by the user (an int of at least 1)."""
    n = check_int(value, where, argname)
    if n < 1:
        msg = f"{where}: `{argname}` must be at least 1, got {n}"
        raise ValueError(msg)
    check_size(n, where, f"`{argname}` {n}: the transform")
    return n


def _default_size(n: int | None, where: str, what: str) -> int | None:
    # None: the input's length is data-dependent (lazy devices); the backend
    # takes it from the data (and the transform's own ValueError if short)
    if n is None:
        return None
    if n < 1:
        msg = (
            f"{where}: the transform would have length {n} ({what}); pass a "
            f"positive length explicitly"
        )
        raise ValueError(msg)
    return n


def _check_x(x: Any, where: str, allowed: set[DType]) -> Any:
    """``x`` must be an array of the transform's input kind; point to the right one."""
    if x.__class__ is not Array:
        type_error(where, "x", "an array", x)
    dt = x._dtype
    if dt not in allowed:
        if not dt._standard:
            # An ocean_ext dtype: transformed in its proxy's precision
            # (complex64, float32); _finish rounds the result back.
            return _ext.fft_input(x, allowed, where)
        if allowed is _complex_floating and dt in _real_floating:
            hint = f"; use astype(x, {_dt.COMPLEX_OF.get(dt, dt)}) first, or the real transform"
        elif allowed is _real_floating and dt in _complex_floating:
            hint = (
                "; this transform takes real input, use the complex transform instead"
            )
        else:
            hint = ""
        kind = (
            "a complex floating-point"
            if allowed is _complex_floating
            else "a real floating-point"
        )
        msg = f"{where}: `x` must have {kind} dtype, got {dt}{hint}"
        raise TypeError(msg)
    return x._data


def _one_dim(
    x: Any, n: Any, axis: Any, norm: Any, where: str, allowed: set[DType], half: bool
) -> tuple[Any, int, int, str]:
    """Check the arguments of a one-dimensional transform.

    ``half``: the output length ``n`` is that of a real signal whose half
    spectrum is the input (irfft, hfft), so the default is ``2 * (M - 1)``.
    """
    data = _check_x(x, where, allowed)
    axis = normalize_axis(axis, data.ndim, where)
    m = data.shape[axis]
    if n is None:
        n = _default_size(
            None if m is None else 2 * (m - 1) if half else m,
            where,
            f"axis {axis} has size {m}",
        )
    else:
        n = _check_size(n, where, "n")
    return data, n, axis, _check_norm(norm, where)


def _sequence(value: Any, where: str, argname: str) -> Sequence[Any]:
    if value.__class__ is tuple or value.__class__ is list:
        return value  # type: ignore[no-any-return]
    type_error(where, argname, "None or a sequence (tuple or list) of ints", value)


def _n_dim(
    x: Any,
    s: Any,
    axes: Any,
    norm: Any,
    where: str,
    allowed: set[DType],
    real: bool,
    half: bool,
) -> tuple[Any, tuple[int, ...], tuple[int, ...], str]:
    """Check the arguments of an n-dimensional transform.

    ``real``: a real transform (rfftn, irfftn) needs at least one axis.
    ``half``: the last transformed axis has output length ``2 * (M - 1)`` by
    default (irfftn).
    """
    data = _check_x(x, where, allowed)
    shape = data.shape
    ndim = len(shape)
    if axes is None:
        if s is not None:
            msg = (
                f"{where}: `s` needs `axes` (the standard leaves `s` without `axes` "
                f"undefined); pass axes=tuple(range(-len(s), 0)) for the last axes"
            )
            raise ValueError(msg)
        ax = tuple(range(ndim))
    else:
        ax = tuple(
            normalize_axis(a, ndim, where, "axes")
            for a in _sequence(axes, where, "axes")
        )
        if len(set(ax)) != len(ax):
            msg = f"{where}: `axes` {tuple(axes)} repeats an axis"
            raise ValueError(msg)
    if real and not ax:
        msg = f"{where}: at least one axis must be transformed"
        raise ValueError(msg)
    last = len(ax) - 1
    if s is None:
        sizes = [shape[a] for a in ax]
        if half and sizes[last] is not None:
            sizes[last] = 2 * (sizes[last] - 1)
        out = tuple(
            _default_size(size, where, f"axis {a} has size {shape[a]}")
            for size, a in zip(sizes, ax, strict=True)
        )
    else:
        seq = _sequence(s, where, "s")
        if len(seq) != len(ax):
            msg = f"{where}: `s` and `axes` must have the same length, got {len(seq)} and {len(ax)}"
            raise ValueError(msg)
        resolved = []
        for i, (value, a) in enumerate(zip(seq, ax, strict=True)):
            size = check_int(value, where, "s")
            check_size(size, where, f"`s` {size}: the transform")
            if size == -1:
                m = shape[a]
                size = _default_size(
                    2 * (m - 1) if half and i == last and m is not None else m,
                    where,
                    f"axis {a} has size {m}",
                )
            elif size < 1:
                msg = f"{where}: `s` must hold sizes of at least 1 (or -1), got {tuple(seq)}"
                raise ValueError(msg)
            resolved.append(size)
        out = tuple(resolved)
    return data, out, ax, _check_norm(norm, where)


# --- transforms --------------------------------------------------------------------
@_hints.keyword_only
def fft(
    x: Array,
    /,
    *_positional: Any,
    n: int | None = None,
    axis: int = -1,
    norm: _Norm = "backward",
) -> Array:
    """One-dimensional discrete Fourier transform of complex ``x`` along ``axis``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.fft.html
    """
    if _positional:
        raise _hints.positional_error(fft, (x, *_positional))
    data, size, ax, mode = _one_dim(
        x, n, axis, norm, "fft.fft()", _complex_floating, False
    )
    dev = x._device
    return _finish(dev._ops["fft.fft"](data, size, ax, mode), x._dtype, dev)


@_hints.keyword_only
def ifft(
    x: Array,
    /,
    *_positional: Any,
    n: int | None = None,
    axis: int = -1,
    norm: _Norm = "backward",
) -> Array:
    """One-dimensional inverse discrete Fourier transform of complex ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.ifft.html
    """
    if _positional:
        raise _hints.positional_error(ifft, (x, *_positional))
    data, size, ax, mode = _one_dim(
        x, n, axis, norm, "fft.ifft()", _complex_floating, False
    )
    dev = x._device
    return _finish(dev._ops["fft.ifft"](data, size, ax, mode), x._dtype, dev)


@_hints.keyword_only
def fftn(
    x: Array,
    /,
    *_positional: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: _Norm = "backward",
) -> Array:
    """n-dimensional discrete Fourier transform of complex ``x`` over ``axes``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.fftn.html

    Notes
    -----
    Repeated axes raise ``ValueError`` (the standard leaves them undefined),
    and so does ``s`` without ``axes``.
    """
    if _positional:
        raise _hints.positional_error(fftn, (x, *_positional))
    data, sizes, ax, mode = _n_dim(
        x, s, axes, norm, "fft.fftn()", _complex_floating, False, False
    )
    dev = x._device
    return _finish(dev._ops["fft.fftn"](data, sizes, ax, mode), x._dtype, dev)


@_hints.keyword_only
def ifftn(
    x: Array,
    /,
    *_positional: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: _Norm = "backward",
) -> Array:
    """n-dimensional inverse discrete Fourier transform of complex ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.ifftn.html
    """
    if _positional:
        raise _hints.positional_error(ifftn, (x, *_positional))
    data, sizes, ax, mode = _n_dim(
        x, s, axes, norm, "fft.ifftn()", _complex_floating, False, False
    )
    dev = x._device
    return _finish(dev._ops["fft.ifftn"](data, sizes, ax, mode), x._dtype, dev)


@_hints.keyword_only
def rfft(
    x: Array,
    /,
    *_positional: Any,
    n: int | None = None,
    axis: int = -1,
    norm: _Norm = "backward",
) -> Array:
    """One-dimensional discrete Fourier transform of real ``x`` (half spectrum).

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.rfft.html
    """
    if _positional:
        raise _hints.positional_error(rfft, (x, *_positional))
    data, size, ax, mode = _one_dim(
        x, n, axis, norm, "fft.rfft()", _real_floating, False
    )
    dev = x._device
    return _finish(
        dev._ops["fft.rfft"](data, size, ax, mode), _dt.COMPLEX_OF[x._dtype], dev
    )


@_hints.keyword_only
def irfft(
    x: Array,
    /,
    *_positional: Any,
    n: int | None = None,
    axis: int = -1,
    norm: _Norm = "backward",
) -> Array:
    """Inverse of ``rfft``: a real signal of length ``n`` from its half spectrum ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.irfft.html
    """
    if _positional:
        raise _hints.positional_error(irfft, (x, *_positional))
    data, size, ax, mode = _one_dim(
        x, n, axis, norm, "fft.irfft()", _complex_floating, True
    )
    dev = x._device
    return _finish(
        dev._ops["fft.irfft"](data, size, ax, mode), _dt.REAL_OF[x._dtype], dev
    )


@_hints.keyword_only
def rfftn(
    x: Array,
    /,
    *_positional: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: _Norm = "backward",
) -> Array:
    """n-dimensional discrete Fourier transform of real ``x`` (half spectrum on the last axis).

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.rfftn.html
    """
    if _positional:
        raise _hints.positional_error(rfftn, (x, *_positional))
    data, sizes, ax, mode = _n_dim(
        x, s, axes, norm, "fft.rfftn()", _real_floating, True, False
    )
    dev = x._device
    return _finish(
        dev._ops["fft.rfftn"](data, sizes, ax, mode), _dt.COMPLEX_OF[x._dtype], dev
    )


@_hints.keyword_only
def irfftn(
    x: Array,
    /,
    *_positional: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: _Norm = "backward",
) -> Array:
    """Inverse of ``rfftn``: a real array of shape ``s`` from its half spectrum ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.irfftn.html
    """
    if _positional:
        raise _hints.positional_error(irfftn, (x, *_positional))
    data, sizes, ax, mode = _n_dim(
        x, s, axes, norm, "fft.irfftn()", _complex_floating, True, True
    )
    dev = x._device
    return _finish(
        dev._ops["fft.irfftn"](data, sizes, ax, mode), _dt.REAL_OF[x._dtype], dev
    )


@_hints.keyword_only
def hfft(
    x: Array,
    /,
    *_positional: Any,
    n: int | None = None,
    axis: int = -1,
    norm: _Norm = "backward",
) -> Array:
    """Discrete Fourier transform of a signal with Hermitian symmetry (real result).

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.hfft.html
    """
    if _positional:
        raise _hints.positional_error(hfft, (x, *_positional))
    data, size, ax, mode = _one_dim(
        x, n, axis, norm, "fft.hfft()", _complex_floating, True
    )
    dev = x._device
    return _finish(
        dev._ops["fft.hfft"](data, size, ax, mode), _dt.REAL_OF[x._dtype], dev
    )


@_hints.keyword_only
def ihfft(
    x: Array,
    /,
    *_positional: Any,
    n: int | None = None,
    axis: int = -1,
    norm: _Norm = "backward",
) -> Array:
    """Inverse of ``hfft``: the half spectrum of the real signal ``x``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.ihfft.html
    """
    if _positional:
        raise _hints.positional_error(ihfft, (x, *_positional))
    data, size, ax, mode = _one_dim(
        x, n, axis, norm, "fft.ihfft()", _real_floating, False
    )
    dev = x._device
    return _finish(
        dev._ops["fft.ihfft"](data, size, ax, mode), _dt.COMPLEX_OF[x._dtype], dev
    )


# --- frequencies and shifts -----------------------------------------------------------
def _freq_args(
    n: Any, d: Any, dtype: Any, device: Any, where: str
) -> tuple[int, float, DType, Device]:
    n = _check_size(n, where, "n")
    if isinstance(d, bool) or not isinstance(d, numbers.Real) or isinstance(d, Array):
        type_error(where, "d", "a float", d)
    d = float(d)
    if d == 0.0:
        msg = f"{where}: the sample spacing `d` must not be 0"
        raise ValueError(msg)
    if dtype is None:
        rdt = _dt.DEFAULT_FLOAT
    else:
        rdt = check_dtype_arg(dtype, where)
        if rdt not in _real_floating and _ext.PROXY.get(rdt) not in _real_floating:
            msg = f"{where}: `dtype` must be a real floating-point dtype, got {rdt}"
            raise TypeError(msg)
    dev = default_device() if device is None else parse_device(device, where)
    return n, d, rdt, dev


@_hints.keyword_only
def fftfreq(
    n: int,
    /,
    *_positional: Any,
    d: float = 1.0,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Sample frequencies of a discrete Fourier transform of length ``n``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.fftfreq.html

    Notes
    -----
    ``dtype`` (added in 2024.12) is accepted by every revision's namespace.
    """
    if _positional:
        raise _hints.positional_error(fftfreq, (n, *_positional))
    n, d, rdt, dev = _freq_args(n, d, dtype, device, "fft.fftfreq()")
    native = rdt._native if rdt._standard else _dt.float64._native  # rounded once
    return _finish(dev._ops["fft.fftfreq"](dev._index, n, d, native), rdt, dev)


@_hints.keyword_only
def rfftfreq(
    n: int,
    /,
    *_positional: Any,
    d: float = 1.0,
    dtype: DType | None = None,
    device: Device | None = None,
) -> Array:
    """Sample frequencies of ``rfft``/``irfft`` for a signal of length ``n``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.rfftfreq.html

    Notes
    -----
    ``dtype`` (added in 2024.12) is accepted by every revision's namespace.
    """
    if _positional:
        raise _hints.positional_error(rfftfreq, (n, *_positional))
    n, d, rdt, dev = _freq_args(n, d, dtype, device, "fft.rfftfreq()")
    native = rdt._native if rdt._standard else _dt.float64._native  # rounded once
    return _finish(dev._ops["fft.rfftfreq"](dev._index, n, d, native), rdt, dev)


def _shift_axes(x: Any, axes: Any, where: str) -> tuple[Any, tuple[int, ...]]:
    if x.__class__ is Array and not x._dtype._standard:
        _ext.check_kind(where, "x", _floating, x._dtype)  # a roll of the storage
    else:
        _check_array(x, where, "x", _floating)
    data = x._data
    ndim = data.ndim
    if axes is None:
        return data, tuple(range(ndim))
    if axes.__class__ is tuple or axes.__class__ is list:
        out = tuple(normalize_axis(a, ndim, where, "axes") for a in axes)
        if len(set(out)) != len(out):
            msg = f"{where}: `axes` {tuple(axes)} repeats an axis"
            raise ValueError(msg)
        return data, out
    return data, (normalize_axis(axes, ndim, where, "axes"),)


@_hints.keyword_only
def fftshift(
    x: Array, /, *_positional: Any, axes: int | Sequence[int] | None = None
) -> Array:
    """Shift the zero-frequency component to the centre of the spectrum.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.fftshift.html
    """
    if _positional:
        raise _hints.positional_error(fftshift, (x, *_positional))
    data, axes_t = _shift_axes(x, axes, "fft.fftshift()")
    dev = x._device
    return _finish(dev._ops["fft.fftshift"](data, axes_t), x._dtype, dev)


@_hints.keyword_only
def ifftshift(
    x: Array, /, *_positional: Any, axes: int | Sequence[int] | None = None
) -> Array:
    """Inverse of ``fftshift``.

    See https://data-apis.org/array-api/2025.12/extensions/generated/array_api.fft.ifftshift.html
    """
    if _positional:
        raise _hints.positional_error(ifftshift, (x, *_positional))
    data, axes_t = _shift_axes(x, axes, "fft.ifftshift()")
    dev = x._device
    return _finish(dev._ops["fft.ifftshift"](data, axes_t), x._dtype, dev)


_FULL: dict[str, Any] = {name: globals()[name] for name in __all__}


def __dir__() -> list[str]:
    # Only the standard's names: the helpers this module imports stay unlisted.
    return sorted(__all__)


def __getattr__(name: str) -> object:
    # Only reached for a name the module lacks (see _hints).
    raise _hints.missing_module_attribute_error(__name__, name)
