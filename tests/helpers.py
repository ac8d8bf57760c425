"""Helpers shared by the tests: NumPy as the oracle.

``assert_matches(x, expected)`` checks an ``Array`` against a NumPy array or
scalar: the dtype (ours must be the standard dtype of the same name), the
shape, and the values (NaNs equal each other).
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ocean_array_api as xp

CPU0 = xp.__array_namespace_info__().devices()[0]
# The default device is lazy (OCEAN_ARRAY_API_DEFAULT_DEVICE=dask): a few
# tests of eager behaviour (repr showing values, writes through views, bounds
# of index arrays checked at once) skip then, each saying why.
LAZY_DEFAULT = xp.__array_namespace_info__().default_device().kind == "dask"
CPU1 = xp.__array_namespace_info__().devices()[1]

DTYPE_NAMES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
    "uint64", "float32", "float64", "complex64", "complex128",
)  # fmt: skip
ALL_DTYPES = tuple(getattr(xp, n) for n in DTYPE_NAMES)
INT_DTYPES = tuple(d for d in ALL_DTYPES if xp.isdtype(d, "integral"))
SIGNED_DTYPES = tuple(d for d in ALL_DTYPES if xp.isdtype(d, "signed integer"))
UNSIGNED_DTYPES = tuple(d for d in ALL_DTYPES if xp.isdtype(d, "unsigned integer"))
REAL_FLOAT_DTYPES = (xp.float32, xp.float64)
COMPLEX_DTYPES = (xp.complex64, xp.complex128)
FLOAT_DTYPES = REAL_FLOAT_DTYPES + COMPLEX_DTYPES
REAL_DTYPES = INT_DTYPES + REAL_FLOAT_DTYPES
NUMERIC_DTYPES = INT_DTYPES + FLOAT_DTYPES


def np_dtype(dt: Any) -> np.dtype:
    """The NumPy dtype with the same name as our dtype."""
    return np.dtype(str(dt))


def xp_dtype(npdt: Any) -> Any:
    """Our dtype with the same name as a NumPy dtype."""
    return getattr(xp, np.dtype(npdt).name)


def host(x: Any) -> np.ndarray:
    """The values of an Array as a NumPy array (moving it to the CPU first)."""
    assert type(x) is xp.Array, f"expected an ocean_array_api Array, got {type(x)}"
    return np.asarray(x.to_device(CPU0))


def computed(x: Any) -> Any:
    """``x`` itself, after running its graph if it is an Array on a lazy
    device: a check of values that a lazy device makes part of the graph
    raises here (eager devices raise in the call that made ``x``)."""
    if type(x) is xp.Array and x.device.kind == "dask":
        host(x)
    return x


def to_np(obj: Any, *args: Any, **kwargs: Any) -> np.ndarray:
    """``numpy.asarray`` that first moves an Array on another device to the CPU
    (so that a test can run with any default device)."""
    if type(obj) is xp.Array and obj.device.kind != "cpu":
        obj = obj.to_device(CPU0)
    return np.asarray(obj, *args, **kwargs)


def assert_matches(
    x: Any,
    expected: Any,
    *,
    dtype: Any = None,
    device: Any = None,
    rtol: float | None = None,
    atol: float = 0.0,
) -> None:
    """Assert that Array ``x`` has ``expected``'s dtype, shape and values.

    ``dtype`` overrides the expected dtype (one of ours); ``device`` checks the
    device too. Values compare exactly unless ``rtol`` is given.
    """
    assert type(x) is xp.Array, f"expected an ocean_array_api Array, got {type(x)}"
    expected = np.asarray(expected)
    want_dtype = dtype if dtype is not None else xp_dtype(expected.dtype)
    assert x.dtype == want_dtype, f"dtype {x.dtype}, expected {want_dtype}"
    # A lazy device (dask) gives None for sizes that depend on the data: each
    # None must be a size the computed values then have.
    lazy_ok = len(x.shape) == expected.ndim and all(
        s is None or s == e for s, e in zip(x.shape, expected.shape, strict=True)
    )
    assert x.shape == expected.shape or (None in x.shape and lazy_ok), (
        f"shape {x.shape}, expected {expected.shape}"
    )
    if device is not None:
        assert x.device == device, f"device {x.device}, expected {device}"
    got = host(x)
    assert got.shape == expected.shape, f"computed shape {got.shape}"
    assert got.dtype == np_dtype(x.dtype), (
        f"the array says dtype {x.dtype} but its data is {got.dtype}"
    )
    if rtol is None and atol == 0.0:
        want = expected.astype(np_dtype(want_dtype))
        if on_cuda(x.device) and got.dtype.kind in "fc":
            # CuPy's kernels: a few ulps from NumPy (see CUDA_ULPS below)
            ok = within_ulps(got, want, signed_zeros=False)
            assert ok.all(), (
                f"beyond {CUDA_ULPS} ulps on {x.device}: {got[~ok]} != {want[~ok]}"
            )
            return
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(
            got,
            expected,
            rtol=rtol if rtol is not None else 0.0,
            atol=atol,
            equal_nan=True,
        )


def rng_array(shape: tuple[int, ...], dtype: Any, seed: int = 0) -> np.ndarray:
    """Deterministic NumPy test data of our dtype ``dtype`` (small values)."""
    rng = np.random.default_rng(seed)
    nd = np_dtype(dtype)
    if nd.kind == "b":
        return rng.integers(0, 2, size=shape).astype(bool)
    if nd.kind in "iu":
        lo = 0 if nd.kind == "u" else -50
        return rng.integers(lo, 50, size=shape).astype(nd)
    if nd.kind == "f":
        return rng.standard_normal(shape).astype(nd)
    return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(nd)


# --- the standard's promotion table, written out independently -------------------
SPEC_SIGNED = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}
SPEC_UNSIGNED = {"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}
SPEC_REAL = {"float32": 32, "float64": 64}
SPEC_COMPLEX = {"complex64": 32, "complex128": 64}  # keyed by the precision of a part


def spec_promote(a: str, b: str) -> str | None:
    """The promoted dtype name per the standard's tables, or None (undefined)."""
    if a == b:
        return a
    for group in (SPEC_SIGNED, SPEC_UNSIGNED, SPEC_REAL, SPEC_COMPLEX):
        if a in group and b in group:
            return a if group[a] > group[b] else b
    if a in SPEC_SIGNED and b in SPEC_UNSIGNED:
        a, b = b, a
    if a in SPEC_UNSIGNED and b in SPEC_SIGNED:
        u, s = SPEC_UNSIGNED[a], SPEC_SIGNED[b]
        if u == 64:
            return None
        return f"int{max(2 * u, s)}"
    if a in SPEC_COMPLEX and b in SPEC_REAL:
        a, b = b, a
    if a in SPEC_REAL and b in SPEC_COMPLEX:
        bits = max(SPEC_REAL[a], SPEC_COMPLEX[b])
        return f"complex{2 * bits}"
    return None


# --- subprocesses ---------------------------------------------------------------------
REPO_ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def run_python(
    code: str,
    env: dict[str, str] | None = None,
    *,
    check: bool = True,
    warnings_as_errors: bool = True,
) -> Any:
    """Run ``code`` in a fresh interpreter that imports this checkout.

    Returns the CompletedProcess; with ``check`` the exit status must be 0
    (its stderr is shown otherwise). Warnings are errors in the child unless
    ``warnings_as_errors`` is False (third-party imports).
    """
    import os
    import subprocess
    import sys

    child_env = {
        k: v for k, v in os.environ.items() if not k.startswith("OCEAN_ARRAY_API")
    }
    child_env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    child_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, *(["-W", "error"] if warnings_as_errors else []), "-c", code],
        env=child_env,
        cwd=str(REPO_ROOT),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    if check:
        assert proc.returncode == 0, f"child failed ({proc.returncode}):\n{proc.stderr}"
    return proc


# --- CUDA numerics ------------------------------------------------------------------
# CuPy's kernels are not NumPy's: CUDA's math library and thrust's complex
# functions round differently (a few units in the last place: log2(0.125) is
# -2.9999999999999996 in float64 on a GPU), and CuPy compiles every kernel
# with -ftz=true, so float32 subnormals (and the float32 parts of complex64,
# and complex32's, computed in float32) are read and written as zeros of
# their sign.  Neither is a departure from the standard (which sets no
# accuracy and leaves subnormals to the hardware).  Tests that compare CUDA
# results with NumPy's accept both on every CUDA device, the simulated ones
# included (whose NumPy arithmetic passes exactly), so CI runs the same checks.
CUDA_ULPS = 4
FTZ_DTYPES = frozenset({"float32", "complex64", "complex32"})


def on_cuda(device: Any) -> bool:
    """Whether ``device`` computes with CuPy's kernels (``cuda:<i>`` or the
    dask device's CuPy chunks ``dask:cuda:<i>``)."""
    kind = getattr(device, "kind", None)
    return kind == "cuda" or (kind == "dask" and getattr(device, "index", 0) > 0)


def flush_subnormals(a: np.ndarray) -> np.ndarray:
    """``a`` with float32 subnormal parts replaced by zeros of their sign (what
    a kernel compiled with -ftz=true reads and writes); other dtypes as is."""
    if not isinstance(a, np.ndarray):
        return a
    if a.dtype == np.complex64:
        out = np.empty_like(a)
        out.real = flush_subnormals(a.real)
        out.imag = flush_subnormals(a.imag)
        return out
    if a.dtype != np.float32:
        return a
    tiny = np.finfo(np.float32).tiny
    return np.where(np.abs(a) < tiny, np.copysign(np.float32(0), a), a).astype(
        np.float32
    )


def has_subnormals(*arrays: Any) -> bool:
    """Whether any float32 (or complex64 part) value is subnormal."""
    for a in arrays:
        a = np.asarray(a)
        if a.dtype == np.complex64:
            if has_subnormals(a.real, a.imag):
                return True
        elif a.dtype == np.float32:
            tiny = np.finfo(np.float32).tiny
            if np.any((a != 0) & (np.abs(a) < tiny)):
                return True
    return False


def within_ulps(
    got: np.ndarray,
    want: np.ndarray,
    ulps: int = CUDA_ULPS,
    *,
    signed_zeros: bool = True,
) -> np.ndarray:
    """Element by element (per part for complex): equal (zeros of the same
    sign, unless ``signed_zeros`` is False), both NaN, or finite values at
    most ``ulps`` units in the last place apart (infinities must match)."""
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype.kind == "c":
        parts = within_ulps(
            got.real, want.real, ulps, signed_zeros=signed_zeros
        ) & within_ulps(got.imag, want.imag, ulps, signed_zeros=signed_zeros)
        # or close as complex numbers: a part much smaller than the other
        # carries the rounding of the larger (thrust's pow, exp(y log x))
        with np.errstate(all="ignore"):
            finite = np.isfinite(got) & np.isfinite(want)
            eps = np.finfo(got.real.dtype).eps
            close = finite & (np.abs(got - want) <= ulps * eps * np.abs(want))
        return parts | close
    if got.dtype.kind != "f":
        return np.asarray(got == want)
    with np.errstate(all="ignore"):
        equal = got == want
        if signed_zeros:
            equal &= np.signbit(got) == np.signbit(want)
        same = equal | (np.isnan(got) & np.isnan(want))
        both_finite = np.isfinite(got) & np.isfinite(want)
        unit = np.spacing(np.maximum(np.abs(got), np.abs(want)).astype(got.dtype))
        near = both_finite & (got != want) & (np.abs(got - want) <= ulps * np.abs(unit))
    return np.asarray(same | near)
