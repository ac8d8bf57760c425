"""More mutants: one realistic bug each, grouped by what they break.

Registered into :data:`tests.conformance.mutants.MUTANTS` on import; see that module.
Each bug is one a real library has had or could easily have: a keyword
forgotten, an off-by-one, a naive formula, a promotion shortcut, an error not
raised.
"""

from __future__ import annotations

import math

from . import AAT_EW, _mutant, _wrap

AAT_STATS = "array_api_tests/test_statistical_functions.py"
AAT_MANIP = "array_api_tests/test_manipulation_functions.py"
AAT_CREATE = "array_api_tests/test_creation_functions.py"
AAT_LINALG = "array_api_tests/test_linalg.py"
AAT_FFT = "array_api_tests/test_fft.py"
AAT_DTYPES = "array_api_tests/test_data_type_functions.py"
AAT_SEARCH = "array_api_tests/test_searching_functions.py"
AAT_SET = "array_api_tests/test_set_functions.py"
AAT_INDEX = "array_api_tests/test_indexing_functions.py"
AAT_UTIL = "array_api_tests/test_utility_functions.py"


def _fdt(xp, x):
    return xp.isdtype(x.dtype, "real floating")


# --- promotion and result dtypes ------------------------------------------------


@_mutant(
    "sum_int8_stays_int8",
    "sum",
    ["dtype"],
    "sum() of a small signed integer keeps its dtype instead of the default integer",
    aat=f"{AAT_STATS}::test_sum",
    category="promotion",
)
def _(m, xp):
    @_wrap(xp.sum)
    def sum(x, /, *, axis=None, dtype=None, keepdims=False):  # noqa: A001
        out = xp.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)
        if dtype is None and x.dtype in (xp.int8, xp.int16):
            out = xp.astype(out, x.dtype)
        return out

    return {"sum": sum}


@_mutant(
    "exp_float32_gives_float64",
    "exp",
    ["dtype"],
    "exp() of float32 computes and returns float64",
    aat=f"{AAT_EW}::test_exp",
    category="promotion",
)
def _(m, xp):
    @_wrap(xp.exp)
    def exp(x, /):
        if x.dtype == xp.float32:
            return xp.exp(xp.astype(x, xp.float64))
        return xp.exp(x)

    return {"exp": exp}


@_mutant(
    "result_type_uint8_int8_is_uint8",
    "result_type",
    ["value", "dtype"],
    "result_type(uint8, int8) gives uint8",
    aat=f"{AAT_DTYPES}::test_result_type",
    category="promotion",
)
def _(m, xp):
    @_wrap(xp.result_type)
    def result_type(*arrays_and_dtypes):
        dts = {getattr(a, "dtype", a) for a in arrays_and_dtypes}
        if dts == {xp.uint8, xp.int8}:
            return xp.uint8
        return xp.result_type(*arrays_and_dtypes)

    return {"result_type": result_type}


@_mutant(
    "real_complex64_gives_float64",
    "real",
    ["dtype"],
    "real() of complex64 returns float64",
    aat=f"{AAT_EW}::test_real",
    category="promotion",
)
def _(m, xp):
    @_wrap(xp.real)
    def real(x, /):
        out = xp.real(x)
        return xp.astype(out, xp.float64) if x.dtype == xp.complex64 else out

    return {"real": real}


@_mutant(
    "where_scalar_gives_float64",
    "where",
    ["dtype"],
    "where(cond, float32 array, Python float) promotes to float64",
    aat=f"{AAT_SEARCH}::test_where",
    category="promotion",
)
def _(m, xp):
    @_wrap(xp.where)
    def where(condition, x1, x2, /):
        out = xp.where(condition, x1, x2)
        if out.dtype == xp.float32 and (type(x1) is float or type(x2) is float):
            out = xp.astype(out, xp.float64)
        return out

    return {"where": where}


# --- values -----------------------------------------------------------------------


@_mutant(
    "round_half_away_from_zero",
    "round",
    ["value"],
    "round() rounds halves away from zero, not to even",
    aat=f"{AAT_EW}::test_round",
    category="values",
)
def _(m, xp):
    @_wrap(xp.round)
    def round(x, /):  # noqa: A001
        if not _fdt(xp, x):
            return xp.round(x)
        half = xp.floor(xp.abs(x) + 0.5)
        return xp.where(xp.isfinite(x), xp.copysign(half, x), x)

    return {"round": round}


@_mutant(
    "expm1_naive",
    "expm1",
    ["value", "special-case"],
    "expm1(x) computed as exp(x) - 1, losing precision near 0",
    aat=f"{AAT_EW}::test_expm1",
    category="values",
)
def _(m, xp):
    @_wrap(xp.expm1)
    def expm1(x, /):
        return xp.exp(x) - 1

    return {"expm1": expm1}


@_mutant(
    "logaddexp_overflows",
    "logaddexp",
    ["value", "special-case"],
    "logaddexp() computed as log(exp(x1) + exp(x2)), overflowing for large inputs",
    aat=f"{AAT_EW}::test_logaddexp",
    category="values",
)
def _(m, xp):
    @_wrap(xp.logaddexp)
    def logaddexp(x1, x2, /):
        return xp.log(xp.exp(x1) + xp.exp(x2))

    return {"logaddexp": logaddexp}


@_mutant(
    "right_shift_logical",
    "bitwise_right_shift",
    ["value"],
    "bitwise_right_shift() of a negative signed integer shifts in zeros",
    aat=f"{AAT_EW}::test_bitwise_right_shift",
    category="values",
)
def _(m, xp):
    @_wrap(xp.bitwise_right_shift)
    def bitwise_right_shift(x1, x2, /):
        out = xp.bitwise_right_shift(x1, x2)
        dt = out.dtype
        if xp.isdtype(dt, "signed integer"):
            u = {
                xp.int8: xp.uint8,
                xp.int16: xp.uint16,
                xp.int32: xp.uint32,
                xp.int64: xp.uint64,
            }[dt]
            x1 = xp.asarray(x1, dtype=dt)
            x2 = xp.asarray(x2, dtype=dt)
            logical = xp.bitwise_right_shift(xp.astype(x1, u), xp.astype(x2, u))
            out = xp.astype(logical, dt)
        return out

    return {"bitwise_right_shift": bitwise_right_shift}


@_mutant(
    "less_equal_is_less",
    "less_equal",
    ["value"],
    "less_equal() returns less() (equal elements give False)",
    aat=f"{AAT_EW}::test_less_equal",
    category="values",
)
def _(m, xp):
    @_wrap(xp.less_equal)
    def less_equal(x1, x2, /):
        return xp.less(x1, x2)

    return {"less_equal": less_equal}


@_mutant(
    "atan2_arguments_swapped",
    "atan2",
    ["value", "special-case"],
    "atan2(y, x) computes atan2(x, y)",
    aat=f"{AAT_EW}::test_atan2",
    category="values",
)
def _(m, xp):
    @_wrap(xp.atan2)
    def atan2(x1, x2, /):
        return xp.atan2(x2, x1)

    return {"atan2": atan2}


@_mutant(
    "astype_rounds_to_int",
    "astype",
    ["value"],
    "astype(float array, integer dtype) rounds instead of truncating",
    aat=f"{AAT_DTYPES}::test_astype",
    category="values",
)
def _(m, xp):
    @_wrap(xp.astype)
    def astype(x, dtype, /, *, copy=True, device=None):
        if _fdt(xp, x) and xp.isdtype(dtype, "integral"):
            x = xp.round(x)
        return xp.astype(x, dtype, copy=copy, device=device)

    return {"astype": astype}


@_mutant(
    "roll_shift_negated",
    "roll",
    ["value"],
    "roll() shifts the other way",
    aat=f"{AAT_MANIP}::test_roll",
    category="values",
)
def _(m, xp):
    @_wrap(xp.roll)
    def roll(x, /, shift, *, axis=None):
        neg = tuple(-s for s in shift) if isinstance(shift, tuple) else -shift
        return xp.roll(x, neg, axis=axis)

    return {"roll": roll}


# --- special cases ----------------------------------------------------------------


@_mutant(
    "maximum_ignores_nan",
    "maximum",
    ["special-case", "value"],
    "maximum() ignores NaN (fmax) instead of propagating it",
    aat=f"{AAT_EW}::test_maximum",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.maximum)
    def maximum(x1, x2, /):
        out = xp.maximum(x1, x2)
        if _fdt(xp, out):
            x1 = xp.asarray(x1, dtype=out.dtype)
            x2 = xp.asarray(x2, dtype=out.dtype)
            out = xp.where(xp.isnan(x1), x2, xp.where(xp.isnan(x2), x1, out))
        return out

    return {"maximum": maximum}


@_mutant(
    "log_zero_is_nan",
    "log",
    ["special-case"],
    "log(0) gives NaN instead of -infinity",
    aat=f"{AAT_EW}::test_log",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.log)
    def log(x, /):
        out = xp.log(x)
        if _fdt(xp, x):
            out = xp.where(x == 0, xp.asarray(math.nan, dtype=x.dtype), out)
        return out

    return {"log": log}


@_mutant(
    "copysign_ignores_negative_zero",
    "copysign",
    ["special-case"],
    "copysign(x1, -0.0) gives +|x1| (tests x2 < 0, not the sign bit)",
    aat=f"{AAT_EW}::test_copysign",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.copysign)
    def copysign(x1, x2, /):
        out = xp.copysign(x1, x2)
        x2 = xp.asarray(x2, dtype=out.dtype)
        return xp.where(x2 == 0, xp.abs(out), out)

    return {"copysign": copysign}


@_mutant(
    "equal_nan_is_true",
    "equal",
    ["special-case", "value"],
    "equal(nan, nan) gives True",
    aat=f"{AAT_EW}::test_equal",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.equal)
    def equal(x1, x2, /):
        out = xp.equal(x1, x2)
        dt = xp.result_type(x1, x2)
        if xp.isdtype(dt, "real floating"):
            a = xp.asarray(x1, dtype=dt)
            b = xp.asarray(x2, dtype=dt)
            out = xp.logical_or(out, xp.logical_and(xp.isnan(a), xp.isnan(b)))
        return out

    return {"equal": equal}


@_mutant(
    "tanh_large_is_nan",
    "tanh",
    ["special-case", "value"],
    "tanh() computed from exp(2x): NaN for large x and for infinities",
    aat=f"{AAT_EW}::test_tanh",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.tanh)
    def tanh(x, /):
        if not _fdt(xp, x):
            return xp.tanh(x)
        e = xp.exp(2 * x)
        return (e - 1) / (e + 1)

    return {"tanh": tanh}


@_mutant(
    "unique_values_merges_nans",
    "unique_values",
    ["value", "shape"],
    "unique_values() returns one NaN for many (the standard counts each NaN)",
    aat=f"{AAT_SET}::test_unique_values",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.unique_values)
    def unique_values(x, /):
        out = xp.unique_values(x)
        if _fdt(xp, x):
            nan = xp.isnan(out)
            if int(xp.sum(xp.astype(nan, xp.int64))) > 1:
                keep = xp.logical_not(nan)
                out = xp.concat([out[keep], xp.asarray([math.nan], dtype=x.dtype)])
        return out

    return {"unique_values": unique_values}


# --- keywords ---------------------------------------------------------------------


@_mutant(
    "prod_ignores_dtype",
    "prod",
    ["dtype"],
    "prod() ignores `dtype`",
    aat=f"{AAT_STATS}::test_prod",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.prod)
    def prod(x, /, *, axis=None, dtype=None, keepdims=False):
        return xp.prod(x, axis=axis, keepdims=keepdims)

    return {"prod": prod}


@_mutant(
    "linspace_ignores_endpoint",
    "linspace",
    ["value"],
    "linspace() ignores endpoint=False",
    aat=f"{AAT_CREATE}::test_linspace",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.linspace)
    def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
        return xp.linspace(start, stop, num, dtype=dtype, device=device)

    return {"linspace": linspace}


@_mutant(
    "eye_ignores_k",
    "eye",
    ["value"],
    "eye() ignores `k`",
    aat=f"{AAT_CREATE}::test_eye",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.eye)
    def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
        return xp.eye(n_rows, n_cols, dtype=dtype, device=device)

    return {"eye": eye}


@_mutant(
    "clip_ignores_max_without_min",
    "clip",
    ["value"],
    "clip() ignores `max` when `min` is None",
    aat=f"{AAT_MANIP}::test_clip",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.clip)
    def clip(x, /, min=None, max=None):  # noqa: A002
        if min is None:
            return xp.clip(x)
        return xp.clip(x, min, max)

    return {"clip": clip}


@_mutant(
    "diff_ignores_n",
    "diff",
    ["shape", "value"],
    "diff() ignores `n` (always one difference)",
    aat=f"{AAT_UTIL}::test_diff",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.diff)
    def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
        return xp.diff(x, axis=axis, prepend=prepend, append=append)

    return {"diff": diff}


@_mutant(
    "meshgrid_ignores_indexing",
    "meshgrid",
    ["shape", "value"],
    'meshgrid() ignores indexing="ij"',
    aat=f"{AAT_CREATE}::test_meshgrid",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.meshgrid)
    def meshgrid(*arrays, indexing="xy"):
        return xp.meshgrid(*arrays)

    return {"meshgrid": meshgrid}


@_mutant(
    "count_nonzero_ignores_keepdims",
    "count_nonzero",
    ["shape"],
    "count_nonzero() ignores `keepdims`",
    aat=f"{AAT_SEARCH}::test_count_nonzero",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.count_nonzero)
    def count_nonzero(x, /, *, axis=None, keepdims=False):
        return xp.count_nonzero(x, axis=axis)

    return {"count_nonzero": count_nonzero}


# --- shapes -----------------------------------------------------------------------


@_mutant(
    "std_tuple_axis_first_only",
    "std",
    ["shape", "value"],
    "std() reduces only the first axis of a tuple `axis`",
    aat=f"{AAT_STATS}::test_std",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.std)
    def std(x, /, *, axis=None, correction=0.0, keepdims=False):
        if isinstance(axis, tuple) and len(axis) > 1:
            axis = axis[0]
        return xp.std(x, axis=axis, correction=correction, keepdims=keepdims)

    return {"std": std}


@_mutant(
    "concat_axis_none_stacks",
    "concat",
    ["shape", "crash"],
    "concat(axis=None) concatenates along axis 0 instead of flattening",
    aat=f"{AAT_MANIP}::test_concat",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.concat)
    def concat(arrays, /, *, axis=0):
        return xp.concat(arrays, axis=0 if axis is None else axis)

    return {"concat": concat}


@_mutant(
    "permute_dims_inverse",
    "permute_dims",
    ["shape", "value"],
    "permute_dims() applies the inverse permutation",
    aat=f"{AAT_MANIP}::test_permute_dims",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.permute_dims)
    def permute_dims(x, /, axes):
        inv = [0] * len(axes)
        for i, a in enumerate(axes):
            inv[a] = i
        return xp.permute_dims(x, tuple(inv))

    return {"permute_dims": permute_dims}


@_mutant(
    "stack_negative_axis_off_by_one",
    "stack",
    ["shape"],
    "stack() inserts a negative axis one place too far left",
    aat=f"{AAT_MANIP}::test_stack",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.stack)
    def stack(arrays, /, *, axis=0):
        if axis < 0:
            axis = max(axis + arrays[0].ndim, 0)
        return xp.stack(arrays, axis=axis)

    return {"stack": stack}


# --- errors -----------------------------------------------------------------------


@_mutant(
    "squeeze_non_unit_axis",
    "squeeze",
    ["exception"],
    "squeeze() of an axis whose size is not 1 returns x instead of raising",
    aat=f"{AAT_MANIP}::test_squeeze",
    category="errors",
)
def _(m, xp):
    @_wrap(xp.squeeze)
    def squeeze(x, /, axis):
        axes = axis if isinstance(axis, tuple) else (axis,)
        axes = tuple(a for a in axes if x.shape[a] == 1)
        return xp.squeeze(x, axes) if axes else x

    return {"squeeze": squeeze}


@_mutant(
    "broadcast_arrays_truncates",
    "broadcast_arrays",
    ["exception"],
    "broadcast_arrays() of incompatible shapes truncates to the smaller size",
    aat=f"{AAT_MANIP}::test_broadcast_arrays",
    category="errors",
)
def _(m, xp):
    @_wrap(xp.broadcast_arrays)
    def broadcast_arrays(*arrays):
        try:
            return xp.broadcast_arrays(*arrays)
        except ValueError:
            nd = max(a.ndim for a in arrays)
            shapes = [(1,) * (nd - a.ndim) + tuple(a.shape) for a in arrays]
            out = tuple(
                min(s[i] for s in shapes if s[i] != 1)
                if any(s[i] != 1 for s in shapes)
                else 1
                for i in range(nd)
            )
            cut = [
                a[
                    tuple(
                        slice(0, min(n, o))
                        for n, o in zip(
                            s[nd - a.ndim :], out[nd - a.ndim :], strict=True
                        )
                    )
                ]
                for a, s in zip(arrays, shapes, strict=True)
            ]
            return xp.broadcast_arrays(*cut)

    return {"broadcast_arrays": broadcast_arrays}


@_mutant(
    "matmul_1d_returns_1d",
    "matmul",
    ["shape"],
    "matmul() of two 1-D arrays returns shape (1,) instead of a 0-d array",
    aat="array_api_tests/test_linalg.py::test_matmul",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.matmul)
    def matmul(x1, x2, /):
        out = xp.matmul(x1, x2)
        return xp.reshape(out, (1,)) if x1.ndim == 1 and x2.ndim == 1 else out

    return {"matmul": matmul}


# --- linalg -----------------------------------------------------------------------


@_mutant(
    "det_absolute",
    "linalg.det",
    ["value"],
    "linalg.det returns |det| (the sign is lost)",
    aat=f"{AAT_LINALG}::test_det",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.det)
    def det(x, /):
        return xp.abs(xp.linalg.det(x))

    return {"linalg.det": det}


@_mutant(
    "cholesky_ignores_upper",
    "linalg.cholesky",
    ["value"],
    "linalg.cholesky ignores upper=True",
    aat=f"{AAT_LINALG}::test_cholesky",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.cholesky)
    def cholesky(x, /, *, upper=False):
        return xp.linalg.cholesky(x)

    return {"linalg.cholesky": cholesky}


@_mutant(
    "trace_ignores_offset",
    "linalg.trace",
    ["value"],
    "linalg.trace ignores `offset`",
    aat=f"{AAT_LINALG}::test_trace",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.trace)
    def trace(x, /, *, offset=0, dtype=None):
        return xp.linalg.trace(x, dtype=dtype)

    return {"linalg.trace": trace}


@_mutant(
    "cross_reversed",
    "linalg.cross",
    ["value"],
    "linalg.cross computes x2 x x1",
    aat=f"{AAT_LINALG}::test_cross",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.cross)
    def cross(x1, x2, /, *, axis=-1):
        return xp.linalg.cross(x2, x1, axis=axis)

    return {"linalg.cross": cross}


@_mutant(
    "matrix_norm_fro_as_nuc",
    "linalg.matrix_norm",
    ["value"],
    'linalg.matrix_norm computes the nuclear norm for ord="fro"',
    aat=f"{AAT_LINALG}::test_matrix_norm",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.matrix_norm)
    def matrix_norm(x, /, *, keepdims=False, ord="fro"):  # noqa: A002
        return xp.linalg.matrix_norm(
            x, keepdims=keepdims, ord="nuc" if ord == "fro" else ord
        )

    return {"linalg.matrix_norm": matrix_norm}


@_mutant(
    "vecdot_no_conjugate",
    "linalg.vecdot",
    ["value"],
    "linalg.vecdot does not conjugate x1 for complex inputs",
    aat=f"{AAT_LINALG}::test_vecdot",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.vecdot)
    def vecdot(x1, x2, /, *, axis=-1):
        return xp.linalg.vecdot(xp.conj(x1), x2, axis=axis)

    return {"linalg.vecdot": vecdot}


@_mutant(
    "matrix_power_negative_as_positive",
    "linalg.matrix_power",
    ["value"],
    "linalg.matrix_power ignores the sign of a negative exponent",
    aat=f"{AAT_LINALG}::test_matrix_power",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.matrix_power)
    def matrix_power(x, n, /):
        return xp.linalg.matrix_power(x, abs(n))

    return {"linalg.matrix_power": matrix_power}


# --- fft --------------------------------------------------------------------------


@_mutant(
    "fftn_ignores_axes",
    "fft.fftn",
    ["value", "shape"],
    "fft.fftn transforms every axis whatever `axes` says",
    aat=f"{AAT_FFT}::test_fftn",
    category="fft",
)
def _(m, xp):
    @_wrap(xp.fft.fftn)
    def fftn(x, /, *, s=None, axes=None, norm="backward"):
        return xp.fft.fftn(x, s=s, axes=None if s is None else axes, norm=norm)

    return {"fft.fftn": fftn}


@_mutant(
    "irfft_default_n_odd",
    "fft.irfft",
    ["shape"],
    "fft.irfft's default length is 2*(m - 1) + 1 instead of 2*(m - 1)",
    aat=f"{AAT_FFT}::test_irfft",
    category="fft",
)
def _(m, xp):
    @_wrap(xp.fft.irfft)
    def irfft(x, /, *, n=None, axis=-1, norm="backward"):
        if n is None:
            n = 2 * (x.shape[axis] - 1) + 1
        return xp.fft.irfft(x, n=n, axis=axis, norm=norm)

    return {"fft.irfft": irfft}


@_mutant(
    "fftfreq_ignores_d",
    "fft.fftfreq",
    ["value"],
    "fft.fftfreq ignores the sample spacing `d`",
    aat=f"{AAT_FFT}::test_fftfreq",
    category="fft",
)
def _(m, xp):
    @_wrap(xp.fft.fftfreq)
    def fftfreq(n, /, *, d=1.0, dtype=None, device=None):
        return xp.fft.fftfreq(n, dtype=dtype, device=device)

    return {"fft.fftfreq": fftfreq}


@_mutant(
    "ifftshift_as_fftshift",
    "fft.ifftshift",
    ["value"],
    "fft.ifftshift shifts like fftshift (wrong for odd lengths)",
    aat=f"{AAT_FFT}::test_ifftshift",
    category="fft",
)
def _(m, xp):
    @_wrap(xp.fft.ifftshift)
    def ifftshift(x, /, *, axes=None):
        return xp.fft.fftshift(x, axes=axes)

    return {"fft.ifftshift": ifftshift}


@_mutant(
    "ihfft_not_conjugated",
    "fft.ihfft",
    ["value"],
    "fft.ihfft returns rfft(x) / n without the conjugate",
    aat=f"{AAT_FFT}::test_ihfft",
    category="fft",
)
def _(m, xp):
    @_wrap(xp.fft.ihfft)
    def ihfft(x, /, *, n=None, axis=-1, norm="backward"):
        return xp.conj(xp.fft.ihfft(x, n=n, axis=axis, norm=norm))

    return {"fft.ihfft": ihfft}
