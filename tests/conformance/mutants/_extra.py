"""The second set of mutants: complex special cases, forgotten keywords, copies.

Registered into :data:`tests.conformance.mutants.MUTANTS` on import, like
:mod:`tests.conformance.mutants._more`; :data:`SECOND_SET` names them, so that the
catch rates of the first 70 and of these can be reported apart.
"""

from __future__ import annotations

import math

from . import AAT_EW, _mutant, _wrap
from ._more import AAT_FFT, AAT_LINALG, AAT_MANIP, AAT_SEARCH, AAT_STATS

AAT_INDEX = "array_api_tests/test_indexing_functions.py"
AAT_DTYPES = "array_api_tests/test_data_type_functions.py"

SECOND_SET: list[str] = []


def _second(name, only, kinds, description, aat="", category=""):
    SECOND_SET.append(name)
    return _mutant(name, only, kinds, description, aat=aat, category=category)


def _complex(xp, x):
    return xp.isdtype(x.dtype, "complex floating")


# --- complex special cases ------------------------------------------------------


@_second(
    "sqrt_complex_polar",
    "sqrt",
    ["special-case", "value"],
    "sqrt() of a complex number through the polar form: sqrt(-inf + 0j) is inf + inf j",
    aat=f"{AAT_EW}::test_sqrt",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.sqrt)
    def sqrt(x, /):
        if not _complex(xp, x):
            return xp.sqrt(x)
        r = xp.sqrt(xp.abs(x))
        t = xp.atan2(xp.imag(x), xp.real(x)) / 2
        return r * xp.cos(t) + 1j * (r * xp.sin(t))

    return {"sqrt": sqrt}


@_second(
    "exp_complex_naive",
    "exp",
    ["special-case", "value"],
    "exp(a + bj) as exp(a) * (cos(b) + j sin(b)): exp(inf + 0j) is inf + nan j",
    aat=f"{AAT_EW}::test_exp",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.exp)
    def exp(x, /):
        if not _complex(xp, x):
            return xp.exp(x)
        e = xp.exp(xp.real(x))
        b = xp.imag(x)
        return e * xp.cos(b) + 1j * (e * xp.sin(b))

    return {"exp": exp}


@_second(
    "abs_complex_naive",
    "abs",
    ["special-case", "value"],
    "abs() of a complex number as sqrt(a*a + b*b): abs(inf + nan j) is nan",
    aat=f"{AAT_EW}::test_abs",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.abs)
    def abs(x, /):  # noqa: A001
        if not _complex(xp, x):
            return xp.abs(x)
        a, b = xp.real(x), xp.imag(x)
        return xp.sqrt(a * a + b * b)

    return {"abs": abs}


@_second(
    "isinf_complex_real_only",
    "isinf",
    ["special-case", "value"],
    "isinf() of a complex number looks at the real part only",
    aat=f"{AAT_EW}::test_isinf",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.isinf)
    def isinf(x, /):
        return xp.isinf(xp.real(x)) if _complex(xp, x) else xp.isinf(x)

    return {"isinf": isinf}


@_second(
    "equal_complex_nan_parts_equal",
    "equal",
    ["special-case"],
    "equal() of complex numbers compares the parts with NaN equal to NaN:"
    " equal(nan + 0j, nan + 0j) is True (the standard: False)",
    aat=f"{AAT_EW}::test_equal",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.equal)
    def equal(x1, x2, /):
        out = xp.equal(x1, x2)
        if not (hasattr(x1, "dtype") and hasattr(x2, "dtype")):
            return out
        if not (_complex(xp, x1) and _complex(xp, x2)):
            return out

        def same(a, b):
            return (a == b) | (xp.isnan(a) & xp.isnan(b))

        re1, im1, re2, im2 = xp.real(x1), xp.imag(x1), xp.real(x2), xp.imag(x2)
        return same(re1, re2) & same(im1, im2)

    return {"equal": equal}


@_second(
    "add_complex_one_infinity",
    "add",
    ["special-case"],
    "add() of complex numbers with a one-infinity model: an operand with an infinite"
    " part is the result, (inf + 0j) + (1 + 1j) is inf + 0j (the standard: inf + 1j)",
    aat=f"{AAT_EW}::test_add",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.add)
    def add(x1, x2, /):
        out = xp.add(x1, x2)
        if not (hasattr(x1, "dtype") and hasattr(x2, "dtype")):
            return out
        if not (_complex(xp, x1) and _complex(xp, x2)):
            return out
        x1, x2 = xp.broadcast_arrays(x1, x2)
        out = xp.where(xp.isinf(x2), x2, out)
        return xp.where(xp.isinf(x1), x1, out)

    return {"add": add}


@_second(
    "hypot_inf_nan_is_nan",
    "hypot",
    ["special-case"],
    "hypot(inf, nan) gives nan (the standard: +inf)",
    aat=f"{AAT_EW}::test_hypot",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.hypot)
    def hypot(x1, x2, /):
        out = xp.hypot(x1, x2)
        return xp.where(xp.isnan(x1) | xp.isnan(x2), xp.nan, out)

    return {"hypot": hypot}


@_second(
    "pow_one_nan_is_nan",
    "pow",
    ["special-case"],
    "pow(1, nan) gives nan (the standard: 1)",
    aat=f"{AAT_EW}::test_pow",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.pow)
    def pow(x1, x2, /):  # noqa: A001
        out = xp.pow(x1, x2)
        if not (hasattr(x1, "dtype") and xp.isdtype(out.dtype, "real floating")):
            return out
        nan = xp.isnan(x2) if hasattr(x2, "dtype") else xp.asarray(math.isnan(x2))
        return xp.where(nan, xp.asarray(xp.nan, dtype=out.dtype), out)

    return {"pow": pow}


@_second(
    "atan2_ignores_negative_zero",
    "atan2",
    ["special-case"],
    "atan2(+0, -0) gives +0 (the standard: +pi): the sign of x2's zero is lost",
    aat=f"{AAT_EW}::test_atan2",
    category="special cases",
)
def _(m, xp):
    @_wrap(xp.atan2)
    def atan2(x1, x2, /):
        return xp.atan2(x1, xp.where(x2 == 0, xp.zeros_like(x2), x2))

    return {"atan2": atan2}


# --- values and promotion -----------------------------------------------------------


@_second(
    "nextafter_toward_inf",
    "nextafter",
    ["value", "special-case"],
    "nextafter(x1, x2) always steps toward +inf, whatever x2",
    aat=f"{AAT_EW}::test_nextafter",
    category="values",
)
def _(m, xp):
    @_wrap(xp.nextafter)
    def nextafter(x1, x2, /):
        return xp.nextafter(x1, xp.full_like(x1 + x2, xp.inf))

    return {"nextafter": nextafter}


@_second(
    "ceil_integer_gives_float",
    "ceil",
    ["dtype"],
    "ceil() of an integer array returns float64 (the standard: the input's dtype)",
    aat=f"{AAT_EW}::test_ceil",
    category="promotion",
)
def _(m, xp):
    @_wrap(xp.ceil)
    def ceil(x, /):
        if xp.isdtype(x.dtype, "integral"):
            return xp.astype(x, xp.float64)
        return xp.ceil(x)

    return {"ceil": ceil}


@_second(
    "bitwise_and_uint16_int32_is_int64",
    "bitwise_and",
    ["dtype"],
    "bitwise_and(uint16, int32) gives int64 (the standard: int32)",
    aat=f"{AAT_EW}::test_bitwise_and",
    category="promotion",
)
def _(m, xp):
    @_wrap(xp.bitwise_and)
    def bitwise_and(x1, x2, /):
        out = xp.bitwise_and(x1, x2)
        dts = {getattr(x1, "dtype", None), getattr(x2, "dtype", None)}
        return xp.astype(out, xp.int64) if dts == {xp.uint16, xp.int32} else out

    return {"bitwise_and": bitwise_and}


# --- keywords -------------------------------------------------------------------------


@_second(
    "take_along_axis_ignores_axis",
    "take_along_axis",
    ["value", "shape", "exception", "crash"],
    "take_along_axis() always works along the last axis",
    aat=f"{AAT_INDEX}::test_take_along_axis",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.take_along_axis)
    def take_along_axis(x, indices, /, *, axis=-1):
        return xp.take_along_axis(x, indices, axis=-1)

    return {"take_along_axis": take_along_axis}


@_second(
    "searchsorted_ignores_sorter",
    "searchsorted",
    ["value"],
    "searchsorted() ignores `sorter` (treats x1 as sorted already)",
    aat=f"{AAT_SEARCH}::test_searchsorted",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.searchsorted)
    def searchsorted(x1, x2, /, *, side="left", sorter=None):
        return xp.searchsorted(x1, x2, side=side)

    return {"searchsorted": searchsorted}


@_second(
    "diff_ignores_prepend",
    "diff",
    ["shape", "value"],
    "diff() ignores `prepend` and `append`",
    aat=f"{AAT_STATS}::test_diff",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.diff)
    def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
        return xp.diff(x, axis=axis, n=n)

    return {"diff": diff}


@_second(
    "cumulative_prod_no_initial",
    "cumulative_prod",
    ["shape", "value"],
    "cumulative_prod() ignores `include_initial`",
    aat=f"{AAT_STATS}::test_cumulative_prod",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.cumulative_prod)
    def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
        return xp.cumulative_prod(x, axis=axis, dtype=dtype)

    return {"cumulative_prod": cumulative_prod}


@_second(
    "argmax_ignores_keepdims",
    "argmax",
    ["shape"],
    "argmax() ignores `keepdims`",
    aat="array_api_tests/test_searching_functions.py::test_argmax",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.argmax)
    def argmax(x, /, *, axis=None, keepdims=False):
        return xp.argmax(x, axis=axis)

    return {"argmax": argmax}


@_second(
    "astype_copy_false_copies",
    "astype",
    ["value"],
    "astype(x, x.dtype, copy=False) returns a copy (the standard: x itself)",
    aat=f"{AAT_DTYPES}::test_astype",
    category="keywords",
)
def _(m, xp):
    @_wrap(xp.astype)
    def astype(x, dtype, /, *, copy=True, device=None):
        return xp.astype(x, dtype, copy=True, device=device)

    return {"astype": astype}


# --- shapes ---------------------------------------------------------------------------


@_second(
    "repeat_ignores_axis",
    "repeat",
    ["shape", "value"],
    "repeat() ignores `axis` and repeats the flattened array",
    aat=f"{AAT_MANIP}::test_repeat",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.repeat)
    def repeat(x, repeats, /, *, axis=None):
        return xp.repeat(x, repeats)

    return {"repeat": repeat}


@_second(
    "tile_reps_reversed",
    "tile",
    ["shape", "value"],
    "tile() applies `repetitions` to the axes in reverse order",
    aat=f"{AAT_MANIP}::test_tile",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.tile)
    def tile(x, repetitions, /):
        return xp.tile(x, tuple(reversed(repetitions)))

    return {"tile": tile}


@_second(
    "unstack_ignores_axis",
    "unstack",
    ["shape", "value"],
    "unstack() always splits along axis 0",
    aat=f"{AAT_MANIP}::test_unstack",
    category="shapes",
)
def _(m, xp):
    @_wrap(xp.unstack)
    def unstack(x, /, *, axis=0):
        return xp.unstack(x)

    return {"unstack": unstack}


# --- linalg and fft -------------------------------------------------------------------


@_second(
    "svdvals_ascending",
    "linalg.svdvals",
    ["value"],
    "linalg.svdvals() returns the singular values in ascending order",
    aat=f"{AAT_LINALG}::test_svdvals",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.svdvals)
    def svdvals(x, /):
        return xp.flip(xp.linalg.svdvals(x), axis=-1)

    return {"linalg.svdvals": svdvals}


@_second(
    "qr_ignores_mode",
    "linalg.qr",
    ["shape", "value"],
    'linalg.qr() ignores mode="complete"',
    aat=f"{AAT_LINALG}::test_qr",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.qr)
    def qr(x, /, *, mode="reduced"):
        return xp.linalg.qr(x)

    return {"linalg.qr": qr}


@_second(
    "slogdet_sign_always_positive",
    "linalg.slogdet",
    ["value"],
    "linalg.slogdet() returns sign 1 for negative determinants",
    aat=f"{AAT_LINALG}::test_slogdet",
    category="linalg",
)
def _(m, xp):
    @_wrap(xp.linalg.slogdet)
    def slogdet(x, /):
        sign, logabs = xp.linalg.slogdet(x)
        if xp.isdtype(sign.dtype, "real floating"):
            sign = xp.abs(sign)
        return type(xp.linalg.slogdet(x))(sign, logabs)

    return {"linalg.slogdet": slogdet}


@_second(
    "rfftn_ignores_s",
    "fft.rfftn",
    ["shape", "value"],
    "fft.rfftn() ignores `s`",
    aat=f"{AAT_FFT}::test_rfftn",
    category="fft",
)
def _(m, xp):
    @_wrap(xp.fft.rfftn)
    def rfftn(x, /, *, s=None, axes=None, norm="backward"):
        return xp.fft.rfftn(x, axes=axes, norm=norm)

    return {"fft.rfftn": rfftn}


@_second(
    "fftshift_ignores_axes",
    "fft.fftshift",
    ["value"],
    "fft.fftshift() shifts every axis, whatever `axes`",
    aat=f"{AAT_FFT}::test_fftshift",
    category="fft",
)
def _(m, xp):
    @_wrap(xp.fft.fftshift)
    def fftshift(x, /, *, axes=None):
        return xp.fft.fftshift(x)

    return {"fft.fftshift": fftshift}


# --- array methods -------------------------------------------------------------------
#
# A bug in a method needs arrays of the mutant's own class: the namespace's
# array-making functions return a subclass of array-api-strict's Array with the
# broken method, and array-api-strict's operators keep the class of self.


def _array_class(xp, name, methods):
    base = type(xp.asarray(0))
    return type(name, (base,), methods)


def _making_functions(xp, cls):
    def rewrap(x):
        return cls._new(x._array, device=x.device)

    out = {}
    for fname in ("asarray", "from_dlpack"):
        base_fn = getattr(xp, fname)

        def make(base_fn=base_fn):
            @_wrap(base_fn)
            def fn(*args, **kwargs):
                return rewrap(base_fn(*args, **kwargs))

            return fn

        out[fname] = make()
    return out


@_second(
    "iadd_returns_new_array",
    "Array.__iadd__",
    ["value"],
    "x += y computes a new array and leaves x unchanged",
    aat="array_api_tests/test_operators_and_elementwise_functions.py::test_add",
    category="operators",
)
def _(m, xp):
    def __iadd__(self, other, /):
        return self + other

    return _making_functions(xp, _array_class(xp, "Array", {"__iadd__": __iadd__}))


def _forward(key, shape):
    """``key`` with each negative-step slice replaced by the same elements in
    increasing order (the bug: the values then land reversed), or None when
    there is none (a key may hold arrays, which ``==`` does not compare as a
    whole)."""
    parts = key if isinstance(key, tuple) else (key,)
    out = []
    changed = False
    for axis, k in enumerate(parts):
        if isinstance(k, slice) and (k.step or 1) < 0 and axis < len(shape):
            idx = range(*k.indices(shape[axis]))
            if len(idx):
                stop = idx[0] + 1 if idx[0] + 1 < shape[axis] else None
                k = slice(idx[-1], stop, -idx.step)
                changed = True
        out.append(k)
    if not changed:
        return None
    return tuple(out) if isinstance(key, tuple) else out[0]


@_second(
    "setitem_negative_step_forward",
    "Array.__setitem__",
    ["value"],
    "x[::-1] = v writes v in forward order (a negative-step slice made positive)",
    aat="array_api_tests/test_array_object.py::test_setitem",
    category="operators",
)
def _(m, xp):
    base = type(xp.asarray(0))

    def __setitem__(self, key, value, /):
        fwd = _forward(key, self.shape)
        if fwd is None:
            return base.__setitem__(self, key, value)
        # the buggy path writes to the underlying NumPy array directly
        self._array[fwd] = value._array if isinstance(value, base) else value
        return None

    return _making_functions(
        xp, _array_class(xp, "Array", {"__setitem__": __setitem__})
    )


@_second(
    "asarray_copy_false_copies",
    "asarray",
    ["value"],
    "asarray(x, copy=False) of an array copies it (the standard: never copy)",
    aat="array_api_tests/test_creation_functions.py::test_asarray_arrays",
    category="keywords",
)
def _(m, xp):
    base = type(xp.asarray(0))

    @_wrap(xp.asarray)
    def asarray(obj, /, *, dtype=None, device=None, copy=None):
        if copy is False and isinstance(obj, base):
            copy = True
        return xp.asarray(obj, dtype=dtype, device=device, copy=copy)

    return {"asarray": asarray}


@_second(
    "asarray_copy_true_shares",
    "asarray",
    ["value"],
    "asarray(x, copy=True) of an array returns x itself when nothing needs converting",
    aat="array_api_tests/test_creation_functions.py::test_asarray_arrays",
    category="keywords",
)
def _(m, xp):
    base = type(xp.asarray(0))

    @_wrap(xp.asarray)
    def asarray(obj, /, *, dtype=None, device=None, copy=None):
        if isinstance(obj, base) and dtype in (None, obj.dtype) and device is None:
            return obj
        return xp.asarray(obj, dtype=dtype, device=device, copy=copy)

    return {"asarray": asarray}


@_second(
    "dlpack_ignores_copy",
    "Array.__dlpack__",
    ["value"],
    "x.__dlpack__(copy=True) exports x's own memory (copy ignored)",
    aat="array_api_tests/test_dlpack.py::test_dlpack",
    category="operators",
)
def _(m, xp):
    base = type(xp.asarray(0))

    def __dlpack__(
        self, /, *, stream=None, max_version=None, dl_device=None, copy=None
    ):
        return base.__dlpack__(self, stream=stream)

    return _making_functions(xp, _array_class(xp, "Array", {"__dlpack__": __dlpack__}))
