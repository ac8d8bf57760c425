"""CuPy kernels of ``ocean_ext.complex32`` for the CUDA backend.

complex32 is stored as in the CPU backend: one ``uint32`` per element holding
the two float16 parts (real in the low half, the first in memory), which a
kernel reinterprets as a ``__half2``, converts to ``float2``, computes on in
float registers and converts back with ``__floats2half2_rn`` (round to nearest
even), in one pass.  CuPy's ``ElementwiseKernel`` and ``ReductionKernel`` do
the broadcasting, strides and launch configuration.  float16 needs nothing of
ours on CUDA: CuPy's own float16 ufuncs compute in float registers.

Status: these sources compile with ``nvcc`` (``tests/ext/test_complex32.py``
builds :func:`compile_check_source`), but they have NOT been run on a GPU.
The CUDA backend installs :func:`cuda_ops` over the portable complex32 entries
of ``_halfprec_portable`` (which work everywhere, through complex64), and a
``gpu``-marked test compares the two bit for bit on hardware.

Nothing here imports CuPy at import time (``import ocean_array_api`` must
never import CuPy); :func:`kernels` and :func:`cuda_ops` import it when called.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["KERNELS", "PREAMBLE", "compile_check_source", "cuda_ops", "kernels"]

# Device helpers shared by every kernel (CuPy's ``preamble``).
PREAMBLE = r"""
#include <cuda_fp16.h>

__device__ __forceinline__ float2 ocean_c32_load(unsigned int bits) {
    __half2 h = __halves2half2(__ushort_as_half((unsigned short)(bits & 0xffffu)),
                               __ushort_as_half((unsigned short)(bits >> 16)));
    return __half22float2(h);  /* .x: real part (low half), .y: imaginary */
}

__device__ __forceinline__ unsigned int ocean_c32_store(float re, float im) {
    __half2 h = __floats2half2_rn(re, im);
    return (unsigned int)__half_as_ushort(__low2half(h))
           | ((unsigned int)__half_as_ushort(__high2half(h)) << 16);
}

__device__ __forceinline__ unsigned short ocean_f16_bits(float v) {
    return __half_as_ushort(__float2half_rn(v));
}

/* exp(a + ib) = e^a (cos b + i sin b), as complex64's for finite input */
__device__ __forceinline__ unsigned int ocean_c32_exp(float2 z) {
    if (isfinite(z.y) && z.x <= 88.0f) {
        float e = expf(z.x), s, c;
        sincosf(z.y, &s, &c);
        return ocean_c32_store(e * c, e * s);
    }
    if (isnan(z.x)) {  /* NaN + 0j keeps its zero; NaN otherwise */
        return ocean_c32_store(z.x, z.y == 0.0f ? z.y : __int_as_float(0x7fc00000));
    }
    if (isinf(z.x) && z.x < 0.0f) {  /* exp(-inf + ib) = +-0 */
        /* an infinite or NaN b: +0 + copysign(0, b) j, as glibc's cexpf (the
         * CPU's complex64; the standard leaves the signs open) */
        float s = copysignf(1.0f, z.y), c = 1.0f;
        if (isfinite(z.y)) sincosf(z.y, &s, &c);
        return ocean_c32_store(copysignf(0.0f, c), copysignf(0.0f, s));
    }
    if (isinf(z.x)) {  /* +inf: inf * cis(b), NaN parts for infinite b */
        if (!isfinite(z.y)) return ocean_c32_store(z.x, __int_as_float(0x7fc00000));
        if (z.y == 0.0f) return ocean_c32_store(z.x, z.y);
        float s, c;
        sincosf(z.y, &s, &c);
        return ocean_c32_store(copysignf(__int_as_float(0x7f800000), c), copysignf(__int_as_float(0x7f800000), s));
    }
    /* finite a > 88 (every result part overflows a half), or infinite b */
    if (!isfinite(z.y)) return ocean_c32_store(__int_as_float(0x7fc00000), __int_as_float(0x7fc00000));
    float s, c;
    sincosf(z.y, &s, &c);
    return ocean_c32_store(c == 0.0f ? c : copysignf(__int_as_float(0x7f800000), c),
                           s == 0.0f ? s : copysignf(__int_as_float(0x7f800000), s));
}
"""


@dataclass(frozen=True)
class Kernel:
    """One kernel: CuPy's parameter strings and code.

    ``kind`` "elementwise": ``operation`` is the loop body.  "reduction":
    ``operation`` is ``(map_expr, reduce_expr, post_map_expr, identity)``.
    """

    name: str
    in_params: str
    out_params: str
    operation: Any
    kind: str = "elementwise"


def _binary(name: str, body: str) -> Kernel:
    return Kernel(
        f"ocean_c32_{name}",
        "uint32 x, uint32 y",
        "uint32 z",
        "float2 a = ocean_c32_load(x); float2 b = ocean_c32_load(y); " + body,
    )


def _unary(name: str, out: str, body: str) -> Kernel:
    return Kernel(
        f"ocean_c32_{name}", "uint32 x", out, "float2 a = ocean_c32_load(x); " + body
    )


# Note: CuPy's ReductionKernel replaces its parameter names in the expressions
# as plain text (a parameter "x" turned "complex<float>" into "complein0<float>"
# and ".x" into ".in0": a compile error seen on a GPU), so the reductions' names
# are tokens that occur nowhere else.
KERNELS: tuple[Kernel, ...] = (
    _binary("add", "z = ocean_c32_store(a.x + b.x, a.y + b.y);"),
    _binary("subtract", "z = ocean_c32_store(a.x - b.x, a.y - b.y);"),
    # products of halves are exact in float: one rounding per part, as complex64
    _binary(
        "multiply", "z = ocean_c32_store(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);"
    ),
    _binary(
        "divide",
        # complex64's (NumPy's) binary32 steps, as the CPU kernel: Smith's
        # method with a reciprocal scale; a zero divisor gives a / |c|
        "float rat, scl; "
        "if (fabsf(b.x) >= fabsf(b.y)) { "
        "if (b.x == 0.0f && b.y == 0.0f) { "
        "z = ocean_c32_store(a.x / fabsf(b.x), a.y / fabsf(b.x)); } else { "
        "rat = b.y / b.x; scl = 1.0f / (b.x + b.y * rat); "
        "z = ocean_c32_store((a.x + a.y * rat) * scl, (a.y - a.x * rat) * scl); } "
        "} else { rat = b.x / b.y; scl = 1.0f / (b.y + b.x * rat); "
        "z = ocean_c32_store((a.x * rat + a.y) * scl, (a.y * rat - a.x) * scl); }",
    ),
    Kernel(
        "ocean_c32_equal",
        "uint32 x, uint32 y",
        "bool z",
        "float2 a = ocean_c32_load(x); float2 b = ocean_c32_load(y); z = a.x == b.x && a.y == b.y;",
    ),
    Kernel(
        "ocean_c32_not_equal",
        "uint32 x, uint32 y",
        "bool z",
        "float2 a = ocean_c32_load(x); float2 b = ocean_c32_load(y); z = !(a.x == b.x && a.y == b.y);",
    ),
    _unary("exp", "uint32 z", "z = ocean_c32_exp(a);"),
    _unary(
        "abs",
        "uint16 z",
        "z = ocean_f16_bits((isinf(a.x) || isinf(a.y)) ? __int_as_float(0x7f800000) : sqrtf(a.x * a.x + a.y * a.y));",
    ),
    _unary(
        "square",
        "uint32 z",
        "z = ocean_c32_store(a.x * a.x - a.y * a.y, a.x * a.y + a.y * a.x);",
    ),
    Kernel(
        "ocean_c32_real", "uint32 x", "uint16 z", "z = (unsigned short)(x & 0xffffu);"
    ),
    Kernel("ocean_c32_imag", "uint32 x", "uint16 z", "z = (unsigned short)(x >> 16);"),
    Kernel("ocean_c32_negative", "uint32 x", "uint32 z", "z = x ^ 0x80008000u;"),
    Kernel("ocean_c32_conj", "uint32 x", "uint32 z", "z = x ^ 0x80000000u;"),
    Kernel(
        "ocean_c32_isnan",
        "uint32 x",
        "bool z",
        "z = (x & 0x7fffu) > 0x7c00u || ((x >> 16) & 0x7fffu) > 0x7c00u;",
    ),
    Kernel(
        "ocean_c32_isinf",
        "uint32 x",
        "bool z",
        "z = (x & 0x7fffu) == 0x7c00u || ((x >> 16) & 0x7fffu) == 0x7c00u;",
    ),
    Kernel(
        "ocean_c32_isfinite",
        "uint32 x",
        "bool z",
        "z = (x & 0x7c00u) != 0x7c00u && ((x >> 16) & 0x7c00u) != 0x7c00u;",
    ),
    Kernel(
        "ocean_c64_to_c32",
        "complex64 x",
        "uint32 z",
        "z = ocean_c32_store(x.real(), x.imag());",
    ),
    Kernel(
        "ocean_c32_to_c64",
        "uint32 x",
        "complex64 z",
        "float2 a = ocean_c32_load(x); z = complex<float>(a.x, a.y);",
    ),
    Kernel(
        "ocean_f32_to_c32", "float32 x", "uint32 z", "z = ocean_c32_store(x, 0.0f);"
    ),
    # reductions accumulate in float (complex64); the backend rounds to complex32
    Kernel(
        "ocean_c32_sum",
        "uint32 c32in",
        "complex64 c32out",
        (
            "complex<float>(ocean_c32_load(c32in).x, ocean_c32_load(c32in).y)",
            "a + b",
            "c32out = a",
            "complex<float>(0.0f, 0.0f)",
        ),
        "reduction",
    ),
    Kernel(
        "ocean_c32_prod",
        "uint32 c32in",
        "complex64 c32out",
        (
            "complex<float>(ocean_c32_load(c32in).x, ocean_c32_load(c32in).y)",
            "a * b",
            "c32out = a",
            "complex<float>(1.0f, 0.0f)",
        ),
        "reduction",
    ),
)

# CuPy's C types of the parameter dtypes used above.
_CTYPES = {
    "uint32": "unsigned int",
    "uint16": "unsigned short",
    "bool": "bool",
    "float32": "float",
    "complex64": "complex<float>",
}


def kernels() -> dict[str, Any]:
    """The CuPy kernel objects, by name (imports CuPy)."""
    import cupy

    out: dict[str, Any] = {}
    for k in KERNELS:
        if k.kind == "elementwise":
            out[k.name] = cupy.ElementwiseKernel(
                k.in_params, k.out_params, k.operation, k.name, preamble=PREAMBLE
            )
        else:
            map_expr, reduce_expr, post_map_expr, identity = k.operation
            out[k.name] = cupy.ReductionKernel(
                k.in_params,
                k.out_params,
                map_expr,
                reduce_expr,
                post_map_expr,
                identity,
                k.name,
                preamble=PREAMBLE,
            )
    return out


def cuda_ops() -> dict[str, Callable[..., Any]]:
    """Backend-table entries ``"<operation>.complex32"`` for the CUDA backend,
    with the conventions of ``ocean_cpu._halfprec`` (imports CuPy)."""
    import cupy
    from ocean_cpu._common import reduced

    k = kernels()
    warm_up(k)
    f16 = cupy.dtype(cupy.float16)

    def to_f16(res: Any) -> Any:
        return res.view(f16)

    def reduction(name: str) -> Callable[..., Any]:
        def reduce(x: Any, axis: Any, keepdims: bool) -> Any:
            return k[name](x, axis=axis, keepdims=keepdims).astype(cupy.complex128)

        return reduce

    def mean(x: Any, axis: Any, keepdims: bool) -> Any:
        count = reduced(x.shape, axis, False)[1]
        return reduction("ocean_c32_sum")(x, axis, keepdims) / count

    def from_c32(x: Any, dtype: Any) -> Any:
        z = k["ocean_c32_to_c64"](x)
        return z if dtype == cupy.complex64 else z.astype(dtype)

    def to_c32(x: Any) -> Any:
        x = cupy.asarray(x)
        if x.dtype == cupy.float32:
            return k["ocean_f32_to_c32"](x)
        return k["ocean_c64_to_c32"](x.astype(cupy.complex64))

    ops: dict[str, Callable[..., Any]] = {
        "astype.to.complex32": to_c32,
        "astype.from.complex32": from_c32,
        "sum.complex32": reduction("ocean_c32_sum"),
        "prod.complex32": reduction("ocean_c32_prod"),
        "mean.complex32": mean,
    }
    for name in ("add", "subtract", "multiply", "divide", "equal", "not_equal", "exp",
                 "square", "negative", "conj", "isnan", "isinf", "isfinite"):  # fmt: skip
        ops[f"{name}.complex32"] = with_out(k[f"ocean_c32_{name}"])
    for name in ("abs", "real", "imag"):  # float16 results: never in place
        ops[f"{name}.complex32"] = lambda x, _k=k[f"ocean_c32_{name}"]: to_f16(_k(x))
    return ops


def with_out(kernel: Any) -> Callable[..., Any]:
    """A kernel as a table entry: the front end passes ``out=`` (in-place
    operators), and a CuPy kernel takes its outputs by position only."""

    def entry(*args: Any, out: Any = None) -> Any:
        return kernel(*args) if out is None else kernel(*args, out)

    return entry


def warm_up(k: dict[str, Any]) -> None:
    """Launch every kernel once on one element, so that a kernel that does
    not compile fails here, inside the backend's fallback to the portable
    entries, rather than at a user's first complex32 operation (CuPy
    compiles a kernel at its first call)."""
    import cupy

    for spec in KERNELS:
        args = [cupy.zeros(1, dtype=p.split()[0]) for p in spec.in_params.split(",")]
        k[spec.name](*args)
    cupy.cuda.get_current_stream().synchronize()


def compile_check_source() -> str:
    """A CUDA source holding every kernel body in a plain ``__global__``
    function (a serial loop for the reductions), for ``nvcc -c``: it checks
    that the code CuPy will compile is valid CUDA C++.  Not a launchable
    replacement for the CuPy kernels."""
    lines = [
        "#include <thrust/complex.h>",
        "using thrust::complex;",
        PREAMBLE,
    ]
    for k in KERNELS:
        ins = [p.strip().split() for p in k.in_params.split(",")]
        outs = [p.strip().split() for p in k.out_params.split(",")]
        params = [f"const {_CTYPES[t]} *{n}_" for t, n in ins] + [
            f"{_CTYPES[t]} *{n}_" for t, n in outs
        ]
        lines.append(
            f"__global__ void {k.name}_check({', '.join(params)}, long long _n) {{"
        )
        if k.kind == "elementwise":
            lines.append(
                "  long long _i = blockIdx.x * (long long)blockDim.x + threadIdx.x;"
            )
            lines.append("  if (_i >= _n) return;")
            lines.extend(f"  {_CTYPES[t]} {n} = {n}_[_i];" for t, n in ins)
            lines.extend(f"  {_CTYPES[t]} {n};" for t, n in outs)
            lines.append(f"  {k.operation}")
            lines.extend(f"  {n}_[_i] = {n};" for _, n in outs)
        else:
            map_expr, reduce_expr, post_map_expr, identity = k.operation
            ((t_out, n_out),) = outs
            lines.append(f"  typedef {_CTYPES[t_out]} acc_t;")
            lines.append(f"  acc_t a = {identity};")
            lines.append("  for (long long _i = 0; _i < _n; _i++) {")
            lines.extend(f"    {_CTYPES[t]} {n} = {n}_[_i];" for t, n in ins)
            lines.append(f"    acc_t b = {map_expr};")
            lines.append(f"    a = {reduce_expr};")
            lines.append("  }")
            lines.append(f"  {_CTYPES[t_out]} {n_out};")
            lines.append(f"  {post_map_expr};")
            lines.append(f"  {n_out}_[0] = {n_out};")
        lines.append("}")
    return "\n".join(lines) + "\n"
