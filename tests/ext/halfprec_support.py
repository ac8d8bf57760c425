"""Shared helpers of ``test_complex32.py`` and ``test_float16.py``.

The oracle: NumPy computing in the proxy dtype (complex64 for complex32,
float32 for float16) on the same (half-precision) values, its result rounded
to half precision.  ``SWEEP`` calls every public function of the namespace
(and ``linalg``, ``fft``) on half-precision arrays; a test checks that each
call either raises TypeError (BufferError for DLPack export) or returns what
the oracle returns, so no function computes garbage on complex32's uint32
storage, and that it raises only where the proxy dtype raises too.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import ocean_array_api as xp
import ocean_ext

from ..helpers import to_np

try:
    from ocean_cpu import _halfprec as cpu_halfprec
except ImportError:  # pragma: no cover - the backend loads from backends/ too
    import importlib

    cpu_halfprec = importlib.import_module("ocean_cpu._halfprec")

KERNELS_BUILT = cpu_halfprec.AVAILABLE
needs_kernels = pytest.mark.skipif(
    not KERNELS_BUILT,
    reason=f"compiled complex32 kernels not built: {cpu_halfprec.UNAVAILABLE}",
)

F16 = np.dtype(np.float16)
finite_half = st.floats(width=16, allow_nan=False, allow_infinity=False)


@st.composite
def cancelling_halves(draw, size=None, max_size=200):
    """Finite halves with some pairs v, -v among them, often a multiple of 8
    apart (as SIMD lanes and unrolled loops pair elements): their sum cancels,
    so what is left shows any rounding on the way."""
    n = draw(st.integers(0, max_size)) if size is None else size
    a = draw(hnp.arrays(F16, n, elements=finite_half))
    for _ in range(draw(st.integers(0, 3)) if a.size >= 2 else 0):
        i = draw(st.integers(0, a.size - 1))
        step = draw(st.sampled_from([1, 8, 16, 32]) | st.integers(1, a.size - 1))
        j, k = ((i + step * draw(st.integers(1, 4))) % a.size for _ in "jk")
        if i != j:
            # in the same lane as v and -v perhaps, and far smaller than v
            a[k] = draw(st.floats(-(2.0**-10), 2.0**-10, width=16) | finite_half)
            v = draw(st.sampled_from([65504.0, 2048.0, 3.0]) | finite_half)
            a[i], a[j] = v, -v
    return a


# --- conversions between NumPy values and our arrays -------------------------------
def round_c64(z: Any) -> np.ndarray:
    """complex64 values rounded part by part to float16 (and back to complex64)."""
    z = to_np(z, dtype=np.complex64)
    parts = z[..., None].view(np.float32)
    with np.errstate(over="ignore"):
        return (
            parts.astype(F16, order="C").astype(np.float32).view(np.complex64)[..., 0]
        )


def round_f32(x: Any) -> np.ndarray:
    with np.errstate(over="ignore"):
        return to_np(x, dtype=np.float32).astype(F16).astype(np.float32)


def c32_from_parts(parts: np.ndarray) -> Any:
    """A complex32 Array on the default device from float16 data of shape
    (..., 2).  (The view of NumPy memory is on a CPU device; the copy goes to
    the default device, which the suite may set to another, e.g. dask.)"""
    return xp.asarray(
        ocean_ext.view_as_complex(np.ascontiguousarray(parts, dtype=F16)),
        copy=True,
        device=xp.__array_namespace_info__().default_device(),
    )


def values(x: Any) -> np.ndarray:
    """The values of an Array as NumPy (complex32 as complex64, float16 as float32)."""
    a = to_np(x)
    if a.dtype == F16:
        return a.astype(np.float32)
    return a


def same_bits(got: np.ndarray, want: np.ndarray) -> None:
    """Exact equality of float or complex values, including signed zeros;
    NaN equals NaN (parts compared separately)."""
    g = to_np(got)
    w = to_np(want)
    assert g.shape == w.shape, (g.shape, w.shape)
    if g.dtype.kind == "c":
        g = g[..., None].view(g.real.dtype)
        w = w[..., None].view(w.real.dtype)
    both_nan = np.isnan(g) & np.isnan(w)
    ok = both_nan | ((g == w) & (np.signbit(g) == np.signbit(w)))
    if not ok.all():
        bad = np.argwhere(~ok)[:5]
        raise AssertionError(
            f"{(~ok).sum()} of {ok.size} values differ, first at {bad.tolist()}: "
            f"got {g[tuple(bad[0])]}, want {w[tuple(bad[0])]}"
        )


# --- the sweep ------------------------------------------------------------------
EXT_TO_PROXY = {"complex32": "complex64", "float16": "float32"}


def proxy_name(dt: Any) -> str:
    return EXT_TO_PROXY.get(str(dt), str(dt))


class Undefined:
    """A result whose values are undefined (``empty_like``)."""

    def __init__(self, x: Any) -> None:
        self.x = x


def _inputs(dt: Any) -> SimpleNamespace:
    """Arrays of dtype ``dt`` with fixed, moderate half-precision values."""
    rng = np.random.default_rng(5)
    shape = (3, 3)
    if xp.isdtype(dt, "complex floating"):
        parts = rng.uniform(-2, 2, (2, *shape, 2)).astype(F16)
        z = parts.astype(np.float32).view(np.complex64)[..., 0]
        if str(dt) == "complex32":
            x, y = c32_from_parts(parts[0]), c32_from_parts(parts[1])
        else:
            x, y = xp.asarray(z[0]), xp.asarray(z[1])
        pos = xp.asarray(np.abs(z[0]) + 3, dtype=dt)  # for cholesky & co.
    else:
        v = rng.uniform(-2, 2, (2, *shape)).astype(F16).astype(np.float32)
        x, y = xp.asarray(v[0], dtype=dt), xp.asarray(v[1], dtype=dt)
        pos = xp.asarray(np.abs(v[0]) + 3, dtype=dt)
    spd = xp.asarray(np.eye(3) * 4 + 1, dtype=dt)  # symmetric positive definite
    return SimpleNamespace(
        x=x,
        y=y,
        pos=pos,
        spd=spd,
        v=x[0],
        w=y[0],
        s=x[0, 0],
        b=xp.asarray([[True, False, True]] * 3),
        idx=xp.asarray([2, 0, 1]),
        idx2=xp.asarray([[2, 0, 1]] * 3),
    )


def _sweep() -> dict[str, Callable[[SimpleNamespace], Any]]:
    s: dict[str, Callable[[SimpleNamespace], Any]] = {}
    unary = [
        "abs",
        "acos",
        "acosh",
        "asin",
        "asinh",
        "atan",
        "atanh",
        "bitwise_invert",
        "ceil",
        "conj",
        "cos",
        "cosh",
        "exp",
        "expm1",
        "floor",
        "imag",
        "isfinite",
        "isinf",
        "isnan",
        "log",
        "log1p",
        "log2",
        "log10",
        "logical_not",
        "negative",
        "positive",
        "real",
        "reciprocal",
        "round",
        "sign",
        "signbit",
        "sin",
        "sinh",
        "square",
        "sqrt",
        "tan",
        "tanh",
        "trunc",
    ]
    for name in unary:
        s[name] = lambda a, n=name: getattr(xp, n)(a.x)
    binary = [
        "add",
        "atan2",
        "bitwise_and",
        "bitwise_left_shift",
        "bitwise_or",
        "bitwise_right_shift",
        "bitwise_xor",
        "copysign",
        "divide",
        "equal",
        "floor_divide",
        "greater",
        "greater_equal",
        "hypot",
        "less",
        "less_equal",
        "logaddexp",
        "logical_and",
        "logical_or",
        "logical_xor",
        "maximum",
        "minimum",
        "multiply",
        "nextafter",
        "not_equal",
        "pow",
        "remainder",
        "subtract",
    ]
    for name in binary:
        s[name] = lambda a, n=name: getattr(xp, n)(a.x, a.y)
    s.update(
        {
            "add[scalar]": lambda a: xp.add(a.x, 1.5),
            "multiply[complex scalar]": lambda a: xp.multiply(2j, a.x),
            "all": lambda a: xp.all(a.x),
            "any": lambda a: xp.any(a.x, axis=0),
            "argmax": lambda a: xp.argmax(a.x),
            "argmin": lambda a: xp.argmin(a.x, axis=1),
            "argsort": lambda a: xp.argsort(a.x),
            "asarray": lambda a: xp.asarray(a.x, copy=True),
            "astype": lambda a: xp.astype(a.x, xp.complex128),
            "broadcast_arrays": lambda a: xp.broadcast_arrays(a.x, a.v),
            "broadcast_to": lambda a: xp.broadcast_to(a.x, (2, 3, 3)),
            "can_cast": lambda a: xp.can_cast(a.x, xp.complex128),
            "clip": lambda a: xp.clip(a.x, 0, 1),
            "concat": lambda a: xp.concat([a.x, a.y], axis=None),
            "count_nonzero": lambda a: xp.count_nonzero(a.x),
            "cumulative_prod": lambda a: xp.cumulative_prod(a.x, axis=0),
            "cumulative_sum": lambda a: xp.cumulative_sum(a.x, axis=1),
            "diff": lambda a: xp.diff(a.x),
            "empty_like": lambda a: Undefined(xp.empty_like(a.x)),
            "expand_dims": lambda a: xp.expand_dims(a.x, axis=1),
            "finfo": lambda a: xp.finfo(a.x).dtype,
            "flip": lambda a: xp.flip(a.x, axis=0),
            "from_dlpack": lambda a: xp.from_dlpack(a.x),
            "full_like": lambda a: xp.full_like(a.x, 1),
            "iinfo": lambda a: xp.iinfo(a.x),
            "isin": lambda a: xp.isin(a.x, a.y),
            "matmul": lambda a: xp.matmul(a.x, a.y),
            "matrix_transpose": lambda a: xp.matrix_transpose(a.x),
            "max": lambda a: xp.max(a.x),
            "mean": lambda a: xp.mean(a.x, axis=0),
            "meshgrid": lambda a: xp.meshgrid(a.v, a.w),
            "min": lambda a: xp.min(a.x),
            "moveaxis": lambda a: xp.moveaxis(a.x, 0, 1),
            "nonzero": lambda a: xp.nonzero(a.x),
            "ones_like": lambda a: xp.ones_like(a.x),
            "permute_dims": lambda a: xp.permute_dims(a.x, (1, 0)),
            "prod": lambda a: xp.prod(a.x, axis=1),
            "repeat": lambda a: xp.repeat(a.x, 2, axis=0),
            "reshape": lambda a: xp.reshape(a.x, (9,)),
            "result_type": lambda a: xp.result_type(a.x, a.y),
            "roll": lambda a: xp.roll(a.x, 1),
            "searchsorted": lambda a: xp.searchsorted(a.v, a.w),
            "sort": lambda a: xp.sort(a.x),
            "squeeze": lambda a: xp.squeeze(a.x[None], axis=0),
            "stack": lambda a: xp.stack([a.x, a.y], axis=1),
            "std": lambda a: xp.std(a.x),
            "sum": lambda a: xp.sum(a.x, axis=(0, 1), keepdims=True),
            "take": lambda a: xp.take(a.x, a.idx, axis=0),
            "take_along_axis": lambda a: xp.take_along_axis(a.x, a.idx2, axis=1),
            "tensordot": lambda a: xp.tensordot(a.x, a.y),
            "tile": lambda a: xp.tile(a.x, (2, 1)),
            "tril": lambda a: xp.tril(a.x),
            "triu": lambda a: xp.triu(a.x, k=1),
            "unique_all": lambda a: xp.unique_all(a.x),
            "unique_counts": lambda a: xp.unique_counts(a.x),
            "unique_inverse": lambda a: xp.unique_inverse(a.x),
            "unique_values": lambda a: xp.unique_values(a.x),
            "unstack": lambda a: xp.unstack(a.x),
            "var": lambda a: xp.var(a.x),
            "vecdot": lambda a: xp.vecdot(a.x, a.y),
            "where": lambda a: xp.where(a.b, a.x, a.y),
            "where[scalar]": lambda a: xp.where(a.b, a.x, 0.5),
            "zeros_like": lambda a: xp.zeros_like(a.x),
            # linalg
            "linalg.cholesky": lambda a: xp.linalg.cholesky(a.spd),
            "linalg.cross": lambda a: xp.linalg.cross(a.x, a.y),
            "linalg.det": lambda a: xp.linalg.det(a.pos),
            "linalg.diagonal": lambda a: xp.linalg.diagonal(a.x),
            "linalg.eig": lambda a: xp.linalg.eig(a.spd),
            "linalg.eigh": lambda a: xp.linalg.eigh(a.spd),
            "linalg.eigvals": lambda a: xp.linalg.eigvals(a.spd),
            "linalg.eigvalsh": lambda a: xp.linalg.eigvalsh(a.spd),
            "linalg.inv": lambda a: xp.linalg.inv(a.spd),
            "linalg.matmul": lambda a: xp.linalg.matmul(a.x, a.y),
            "linalg.matrix_norm": lambda a: xp.linalg.matrix_norm(a.x),
            "linalg.matrix_power": lambda a: xp.linalg.matrix_power(a.x, 2),
            "linalg.matrix_rank": lambda a: xp.linalg.matrix_rank(a.spd),
            "linalg.matrix_transpose": lambda a: xp.linalg.matrix_transpose(a.x),
            "linalg.outer": lambda a: xp.linalg.outer(a.v, a.w),
            "linalg.pinv": lambda a: xp.linalg.pinv(a.spd),
            "linalg.qr": lambda a: xp.linalg.qr(a.spd),
            "linalg.slogdet": lambda a: xp.linalg.slogdet(a.spd),
            "linalg.solve": lambda a: xp.linalg.solve(a.spd, a.y),
            "linalg.svd": lambda a: xp.linalg.svd(a.spd),
            "linalg.svdvals": lambda a: xp.linalg.svdvals(a.spd),
            "linalg.tensordot": lambda a: xp.linalg.tensordot(a.x, a.y, axes=1),
            "linalg.trace": lambda a: xp.linalg.trace(a.x),
            "linalg.vecdot": lambda a: xp.linalg.vecdot(a.x, a.y, axis=-2),
            "linalg.vector_norm": lambda a: xp.linalg.vector_norm(a.x),
            # fft
            "fft.fft": lambda a: xp.fft.fft(a.x),
            "fft.ifft": lambda a: xp.fft.ifft(a.x, axis=0),
            "fft.fftn": lambda a: xp.fft.fftn(a.x),
            "fft.ifftn": lambda a: xp.fft.ifftn(a.x),
            "fft.rfft": lambda a: xp.fft.rfft(a.x),
            "fft.irfft": lambda a: xp.fft.irfft(a.x),
            "fft.rfftn": lambda a: xp.fft.rfftn(a.x),
            "fft.irfftn": lambda a: xp.fft.irfftn(a.x),
            "fft.hfft": lambda a: xp.fft.hfft(a.x),
            "fft.ihfft": lambda a: xp.fft.ihfft(a.x),
            "fft.fftshift": lambda a: xp.fft.fftshift(a.x),
            "fft.ifftshift": lambda a: xp.fft.ifftshift(a.x),
            # Array methods that read values
            "Array.__bool__": lambda a: bool(a.s),
            "Array.__complex__": lambda a: complex(a.s),
            "Array.__float__": lambda a: float(a.s),
            "Array.__int__": lambda a: int(a.s),
            "Array.__index__": lambda a: a.s.__index__(),
            "Array.__getitem__": lambda a: a.x[a.idx],
            "Array.__getitem__[mask]": lambda a: a.x[a.b],
            "Array.__array__": lambda a: to_np(a.x),
            "Array.__iter__": lambda a: list(a.v),
            "Array.mT": lambda a: a.x.mT,
            "Array.to_device": lambda a: a.x.to_device(
                xp.__array_namespace_info__().devices()[1]
            ),
        }
    )
    return s


SWEEP = _sweep()

# Public callables with no array argument (creation from scratch, dtype
# inspection) or covered by name above under another spelling.
NO_ARRAY_ARGUMENT = frozenset(
    [
        "__array_namespace_info__",
        "arange",
        "broadcast_shapes",
        "empty",
        "eye",
        "full",
        "isdtype",
        "linspace",
        "ones",
        "zeros",
        "fft.fftfreq",
        "fft.rfftfreq",
    ]
)


def public_callables() -> list[str]:
    names = [
        n
        for n in xp.__all__
        if callable(getattr(xp, n)) and not isinstance(getattr(xp, n), type)
    ]
    names = [n for n in names if n not in ("linalg", "fft")]
    names += [f"linalg.{n}" for n in xp.linalg.__all__]
    names += [f"fft.{n}" for n in xp.fft.__all__]
    dtypes = {str(d) for d in xp.__array_namespace_info__().dtypes().values()}
    return [n for n in names if n not in dtypes]


def _flatten(res: Any) -> list[Any]:
    if isinstance(res, (tuple, list)):
        out: list[Any] = []
        for r in res:
            out.extend(_flatten(r))
        return out
    return [res]


def proxy_accepts(name: str, ext_dtype: Any) -> bool:
    """Whether SWEEP[name] runs on the proxy dtype (complex64, float32)."""
    with np.errstate(all="ignore"):
        try:
            SWEEP[name](_inputs(getattr(xp, proxy_name(ext_dtype))))
        except TypeError:
            return False
    return True


def check_sweep_case(name: str, ext_dtype: Any) -> str:
    """Run SWEEP[name] on ``ext_dtype`` input; "rejected" or "supported"."""
    func = SWEEP[name]
    proxy = getattr(xp, proxy_name(ext_dtype))
    try:
        ours = func(_inputs(ext_dtype))
    except BufferError:
        assert name == "from_dlpack", f"{name}: unexpected BufferError"
        return "rejected"
    except TypeError:
        return "rejected"
    with np.errstate(all="ignore"):
        try:
            want = func(_inputs(proxy))
        except Exception as exc:  # the proxy fails where we did not
            raise AssertionError(
                f"{name}: ours returned, the {proxy} oracle raised {exc!r}"
            ) from None
    ours_l, want_l = _flatten(ours), _flatten(want)
    assert len(ours_l) == len(want_l), name
    for o, w in zip(ours_l, want_l, strict=True):
        if isinstance(o, Undefined):
            assert str(o.x.dtype) == str(ext_dtype), name
            assert o.x.shape == w.x.shape, name
            continue
        if type(o) is xp.Array:
            assert proxy_name(o.dtype) == str(w.dtype), (
                f"{name}: dtype {o.dtype} vs {w.dtype}"
            )
            assert o.shape == w.shape, f"{name}: shape {o.shape} vs {w.shape}"
            got = values(o)
            exp = to_np(w)
            if str(o.dtype) == "complex32":
                exp = round_c64(exp)
            elif str(o.dtype) == "float16":
                exp = round_f32(exp)
            if exp.dtype.kind in "fc":
                np.testing.assert_allclose(
                    got, exp, rtol=4e-3, atol=4e-3, equal_nan=True, err_msg=name
                )
            else:
                np.testing.assert_array_equal(got, exp, err_msg=name)
        elif isinstance(o, np.ndarray):
            np.testing.assert_allclose(
                values(o),
                round_c64(w) if o.dtype.kind == "c" else to_np(w),
                rtol=4e-3,
                err_msg=name,
            )
        elif isinstance(o, xp.float64.__class__):  # a DType
            assert proxy_name(o) == str(w), f"{name}: {o} vs {w}"
        elif isinstance(o, (bool, int, float, complex)):
            assert abs(o - w) <= 4e-3 * max(1.0, abs(w)), f"{name}: {o} vs {w}"
        else:  # pragma: no cover
            raise AssertionError(f"{name}: unexpected result type {type(o)}")
    return "supported"
