"""complex32 entries over any NumPy-like array module: the CUDA backend's base table.

:func:`portable_ops` gives every ``"<operation>.complex32"`` entry of the CPU
table (``ocean_cpu._halfprec``), with the same storage (one ``uint32`` per
element holding the float16 parts, real first in memory) and conventions,
written with array-module operations only: each entry widens its operands to
complex64, calls the backend's own complex64 entry (special cases and
corrections included) and rounds the result once to complex32.

That is *not* the fast path: it moves each operand twice over at twice its
size, where the fused CuPy kernels of ``_halfprec_kernels`` load float16
pairs, compute in float registers and store float16 in one pass.  It is the
complete, correct base that those kernels override where they exist:

- functions without a fused kernel (``log``, trigonometric, ``pow``, ...) still
  work on CUDA, with the result "compute in complex64, round to complex32";
- if the kernels cannot be compiled (no NVRTC, an old CuPy) complex32 keeps
  working, more slowly, and ``ext_kernels_unavailable`` says why;
- it is the oracle the GPU tests compare the fused kernels with, and the path
  the simulated GPUs of the test suite (``tests/simcupy.py``) run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from ocean_cpu._common import check_complex_view, reduced, store

__all__ = ["ELEMENTWISE", "portable_ops"]

# complex32 functions computed through complex64, with their operand count
ELEMENTWISE: dict[str, int] = {
    **dict.fromkeys(
        ("add", "subtract", "multiply", "divide", "equal", "not_equal", "pow"), 2
    ),
    **dict.fromkeys(
        (
            "exp", "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos",
            "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh", "acosh",
            "atanh", "square", "reciprocal", "sign", "round", "abs", "real", "imag",
            "isnan", "isinf", "isfinite",
        ),
        1,
    ),
}  # fmt: skip

_NEG = 0x80008000  # the sign bits of both parts
_CONJ = 0x80000000  # the sign bit of the imaginary part


def portable_ops(xp: Any, standard: dict[str, Callable[..., Any]]) -> dict[str, Any]:
    """The complex32 entries over array module ``xp``, given the backend's
    standard table ``standard`` (its complex64 entries compute)."""
    f16 = xp.dtype(xp.float16)
    f32 = xp.dtype(xp.float32)
    c64 = xp.dtype(xp.complex64)
    c128 = xp.dtype(xp.complex128)
    u32 = xp.dtype(xp.uint32)
    neg = xp.uint32(_NEG)
    conj = xp.uint32(_CONJ)
    # NumPy-like modules with floating-point warnings (CuPy has none): quiet,
    # as the CPU's compiled complex32 kernels are
    errstate = getattr(xp, "errstate", None)

    def quiet() -> Any:
        return (
            errstate(all="ignore") if errstate is not None else contextlib.nullcontext()
        )

    def up(x: Any) -> Any:
        """complex32 storage -> complex64 (exact)."""
        shape = x.shape
        parts = xp.ascontiguousarray(x).view(f16).reshape((*shape, 2))
        return xp.ascontiguousarray(parts.astype(f32)).view(c64).reshape(shape)

    def pack(re: Any, im: Any) -> Any:
        """complex32 storage from real and imaginary parts (rounded once)."""
        shape = re.shape
        pair = xp.empty((*shape, 2), dtype=f16)
        with quiet():  # overflow to inf is the rounding's right result
            pair[..., 0] = re.astype(f16)
            pair[..., 1] = im.astype(f16)
        return pair.view(u32).reshape(shape)

    def to_c32(x: Any) -> Any:
        x = xp.asarray(x)  # a standard dtype or float16, never complex32 storage
        if x.dtype.kind == "c":
            return pack(x.real, x.imag)
        re = x.astype(f32) if x.dtype.kind == "b" else x
        return pack(re, xp.zeros(x.shape, dtype=f16))

    def from_c32(x: Any, dtype: Any) -> Any:
        dtype = xp.dtype(dtype)
        z = up(x)
        if dtype == c64:
            return z
        if dtype.kind == "c":
            return z.astype(dtype)
        if dtype.kind == "b":
            return z != 0
        return xp.real(z).astype(dtype)

    def via_c64(name: str, nargs: int) -> Callable[..., Any]:
        func = standard[name]

        def entry(*args: Any, out: Any = None) -> Any:
            with quiet():
                res = func(*[up(a) for a in args[:nargs]])
            if res.dtype.kind == "c":
                res = pack(xp.real(res), xp.imag(res))
            elif res.dtype.kind == "f":
                with quiet():
                    res = res.astype(f16)  # abs, real, imag: float16
            return res if out is None else store(out, res)

        entry.__name__ = f"{name}_complex32"
        return entry

    def xor(mask: Any) -> Callable[..., Any]:
        def flip(x: Any, out: Any = None) -> Any:
            return xp.bitwise_xor(x, mask, out=out)  # exact on the (re, im) layout

        return flip

    def positive(x: Any, out: Any = None) -> Any:
        if out is None:
            return x.copy()
        out[...] = x
        return out

    def reduction(reduce: Callable[..., Any]) -> Callable[..., Any]:
        def entry(x: Any, axis: Any, keepdims: bool) -> Any:
            return reduce(up(x).astype(c128), axis=axis, keepdims=keepdims)

        return entry

    def mean(x: Any, axis: Any, keepdims: bool) -> Any:
        total = xp.sum(up(x).astype(c128), axis=axis, keepdims=keepdims)
        count = reduced(x.shape, axis, False)[1]
        return total / count if count else total * xp.nan  # 0 / 0: NaN

    def vecdot(a: Any, b: Any, axis: int) -> Any:
        res = standard["vecdot"](up(a), up(b), axis)
        return pack(xp.real(res), xp.imag(res))

    def matmul(a: Any, b: Any) -> Any:
        res = xp.matmul(up(a), up(b))
        return pack(xp.real(res), xp.imag(res))

    def view_as_complex(x: Any, dtype: Any) -> Any:
        """``x`` of shape (..., 2) viewed as ``dtype`` (twice its itemsize)."""
        if x.size == 0:
            return xp.empty(x.shape[:-1], dtype=dtype)
        check_complex_view(x)
        try:
            return x.view(dtype)[..., 0]
        except ValueError as exc:  # a module that views C-contiguous arrays only
            msg = f"cannot view this layout without a copy: {exc}"
            raise ValueError(msg) from None

    def view_as_real(z: Any, dtype: Any) -> Any:
        return z[..., None].view(dtype)

    ops: dict[str, Any] = {
        name: via_c64(name, nargs) for name, nargs in ELEMENTWISE.items()
    }
    ops = {f"{name}.complex32": func for name, func in ops.items()}
    ops.update(
        {
            "astype.to.complex32": to_c32,
            "astype.from.complex32": from_c32,
            "negative.complex32": xor(neg),
            "conj.complex32": xor(conj),
            "positive.complex32": positive,
            "sum.complex32": reduction(xp.sum),
            "prod.complex32": reduction(xp.prod),
            "mean.complex32": mean,
            "vecdot.complex32": vecdot,
            "matmul.complex32": matmul,
            "view_as_complex": view_as_complex,
            "view_as_real": view_as_real,
        }
    )
    return ops
