"""Revisions of the standard: 2023.12, 2024.12 and 2025.12 (the default)."""

from __future__ import annotations

import numpy as np
import pytest

import ocean_array_api as xp

from .helpers import assert_matches, run_python

VERSIONS = ("2023.12", "2024.12", "2025.12")

# Names each revision added (relative to the one before), per the standard's changelog.
ADDED_2024 = {
    "count_nonzero",
    "cumulative_prod",
    "diff",
    "nextafter",
    "reciprocal",
    "take_along_axis",
}
ADDED_2025 = {"broadcast_shapes", "isin"}
LINALG_ADDED_2025 = {"eig", "eigvals"}

# Every public name of 2023.12 (the newer revisions add the sets above).
NAMES_2023 = {
    # constants
    "e", "inf", "nan", "newaxis", "pi",
    # creation
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
    "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
    # data types and data type functions
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
    "astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type",
    # elementwise
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_left_shift", "bitwise_invert", "bitwise_or", "bitwise_right_shift",
    "bitwise_xor", "ceil", "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp",
    "expm1", "floor", "floor_divide", "greater", "greater_equal", "hypot", "imag", "isfinite",
    "isinf", "isnan", "less", "less_equal", "log", "log1p", "log2", "log10", "logaddexp",
    "logical_and", "logical_not", "logical_or", "logical_xor", "maximum", "minimum",
    "multiply", "negative", "not_equal", "positive", "pow", "real", "remainder", "round",
    "sign", "signbit", "sin", "sinh", "square", "sqrt", "subtract", "tan", "tanh", "trunc",
    # indexing, inspection, linear algebra
    "take", "__array_namespace_info__", "matmul", "matrix_transpose", "tensordot", "vecdot",
    # manipulation
    "broadcast_arrays", "broadcast_to", "concat", "expand_dims", "flip", "moveaxis",
    "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack", "tile", "unstack",
    # searching, set, sorting
    "argmax", "argmin", "nonzero", "searchsorted", "where",
    "unique_all", "unique_counts", "unique_inverse", "unique_values", "argsort", "sort",
    # statistical, utility
    "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var", "all", "any",
}  # fmt: skip
LINALG_2023 = {
    "cholesky", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv", "matmul", "matrix_norm",
    "matrix_power", "matrix_rank", "matrix_transpose", "outer", "pinv", "qr", "slogdet",
    "solve", "svd", "svdvals", "tensordot", "trace", "vecdot", "vector_norm",
}  # fmt: skip
FFT_NAMES = {
    "fft", "ifft", "fftn", "ifftn", "rfft", "irfft", "rfftn", "irfftn", "hfft", "ihfft",
    "fftfreq", "rfftfreq", "fftshift", "ifftshift",
}  # fmt: skip


def expected_names(version):
    names = set(NAMES_2023)
    if version >= "2024.12":
        names |= ADDED_2024
    if version >= "2025.12":
        names |= ADDED_2025
    return names


def expected_linalg(version):
    return LINALG_2023 | (LINALG_ADDED_2025 if version >= "2025.12" else set())


def _ns(version):
    return xp.asarray([1.0]).__array_namespace__(api_version=version)


def _public(module):
    return {
        n
        for n in dir(module)
        if not n.startswith("_") or n == "__array_namespace_info__"
    }


# --- the module itself --------------------------------------------------------------------


def test_default_version_is_2025_12():
    assert xp.__array_api_version__ == "2025.12"


def test_module_has_exactly_the_standard_names():
    public = _public(xp)
    expected = expected_names("2025.12") | {"fft", "linalg"}
    missing = expected - public
    assert not missing, f"missing standard names: {sorted(missing)}"
    extra = public - expected - {"Array"}  # Array: for type annotations (documented)
    assert not extra, f"non-standard public names: {sorted(extra)}"


def test_module_all_lists_the_standard_names():
    expected = expected_names("2025.12") | {"fft", "linalg", "__array_api_version__"}
    assert set(xp.__all__) == expected
    for n in xp.__all__:
        assert hasattr(xp, n), n


def test_linalg_and_fft_names():
    assert set(xp.linalg.__all__) == expected_linalg("2025.12")
    assert set(xp.fft.__all__) == FFT_NAMES
    for n in xp.linalg.__all__:
        assert callable(getattr(xp.linalg, n)), n
    for n in xp.fft.__all__:
        assert callable(getattr(xp.fft, n)), n


# --- __array_namespace__(api_version=...) -------------------------------------------------


@pytest.mark.parametrize("version", VERSIONS)
def test_namespace_for_each_version(version):
    ns = _ns(version)
    assert ns.__array_api_version__ == version
    assert ns is _ns(version)  # built once
    names = expected_names(version)
    for n in names:
        assert hasattr(ns, n), f"{version} lacks {n}"
    for n in (ADDED_2024 | ADDED_2025) - names:
        assert not hasattr(ns, n), f"{version} must not have {n}"
    for n in expected_linalg(version):
        assert hasattr(ns.linalg, n), f"{version} linalg lacks {n}"
    for n in LINALG_ADDED_2025 - expected_linalg(version):
        assert not hasattr(ns.linalg, n), f"{version} linalg must not have {n}"
    for n in FFT_NAMES:
        assert hasattr(ns.fft, n)


@pytest.mark.parametrize("version", VERSIONS)
def test_namespace_of_every_device_is_the_same(version, device):
    x = xp.ones(2, device=device)
    assert x.__array_namespace__(api_version=version) is _ns(version)


@pytest.mark.parametrize("version", VERSIONS)
def test_namespace_functions_work(version):
    ns = _ns(version)
    x = ns.asarray([3.0, 1.0, 2.0])
    assert_matches(ns.sort(x), np.array([1.0, 2.0, 3.0]))
    assert_matches(ns.add(x, x), np.array([6.0, 2.0, 4.0]))
    assert_matches(ns.linalg.vector_norm(ns.asarray([3.0, 4.0])), np.float64(5.0))
    assert_matches(ns.fft.fft(ns.asarray([1.0 + 0j, 0j])), np.array([1 + 0j, 1 + 0j]))
    assert x.__array_namespace__() is xp


@pytest.mark.parametrize(
    "version", ["2022.12", "2021.12", "2026.12", "2025", "latest", 2025.12, ""]
)
def test_unknown_versions_are_value_errors(version):
    with pytest.raises(ValueError):
        xp.asarray(1).__array_namespace__(api_version=version)


class _EqualToEverything:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("version", [2025.12, b"2025.12", _EqualToEverything()])
def test_versions_of_another_type_are_type_errors(version):
    # also ValueErrors (above); an object equal to everything was taken as
    # a supported version and returned the namespace
    with pytest.raises(TypeError, match="must be a string"):
        xp.asarray(1).__array_namespace__(api_version=version)


@pytest.mark.parametrize("version", VERSIONS)
def test_meshgrid_and_broadcast_arrays_return_type(version):
    ns = _ns(version)
    kind = tuple if version >= "2025.12" else list
    a, b = ns.arange(3), ns.arange(2)
    grids = ns.meshgrid(a, b)
    assert type(grids) is kind
    assert [g.shape for g in grids] == [(2, 3), (2, 3)]
    arrays = ns.broadcast_arrays(ns.ones((2, 1)), ns.ones((3,)))
    assert type(arrays) is kind
    assert [x.shape for x in arrays] == [(2, 3), (2, 3)]


@pytest.mark.parametrize("version", VERSIONS)
def test_inspection_per_version(version):
    info = _ns(version).__array_namespace_info__()
    devs = info.devices()
    assert type(devs) is (tuple if version >= "2025.12" else list)
    caps = info.capabilities()
    assert caps["boolean indexing"] is True
    assert caps["data-dependent shapes"] is True
    if version >= "2024.12":
        assert "max dimensions" in caps
    else:
        assert "max dimensions" not in caps


def test_python_scalars_in_binary_functions_need_2024_12():
    old = _ns("2023.12")
    x = old.asarray([1.0, 2.0])
    with pytest.raises(TypeError):
        old.add(x, 1.0)
    with pytest.raises(TypeError):
        old.multiply(2, x)
    assert_matches(old.add(x, x), np.array([2.0, 4.0]))
    # Operators took Python scalars in every revision.
    assert_matches(x + 1.0, np.array([2.0, 3.0]))
    for v in ("2024.12", "2025.12"):
        assert_matches(_ns(v).add(x, 1.0), np.array([2.0, 3.0]))


@pytest.mark.parametrize("version", VERSIONS)
def test_every_elementwise_function_keeps_its_arity(version):
    # The 2023.12 namespace wraps the binary functions only (arrays-only
    # operands); a unary function taken for a binary one would demand `x2`.
    import inspect

    from ocean_array_api import _elementwise_functions as ew

    ns = _ns(version)
    x = ns.asarray([0.25, 0.5])
    for name in ew.__all__:
        f = getattr(ns, name, None)
        if f is None:  # added after `version`
            continue
        arity = sum(
            p.default is p.empty
            for p in inspect.signature(getattr(ew, name)).parameters.values()
        )
        args = (x,) * arity
        if name in (
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
            "bitwise_invert",
            "bitwise_left_shift",
            "bitwise_right_shift",
        ):
            args = (ns.asarray([1, 2]),) * arity
        elif name in ("real", "imag", "conj"):
            args = (ns.asarray([1 + 2j, 3j]),) * arity
        elif name.startswith("logical_"):
            args = (ns.asarray([True, False]),) * arity
        res = f(*args)
        assert res.shape == (2,), name


@pytest.mark.parametrize("version", VERSIONS)
def test_where_python_scalars_need_2024_12(version):
    ns = _ns(version)
    cond = ns.asarray([True, False])
    x = ns.asarray([1.0, 2.0])
    assert_matches(ns.where(cond, x, x), np.array([1.0, 2.0]))
    if version >= "2024.12":
        assert_matches(ns.where(cond, x, 0.0), np.array([1.0, 0.0]))
        assert_matches(ns.where(cond, 5.0, x), np.array([5.0, 2.0]))
    else:
        with pytest.raises(TypeError, match=r"where\(\).*`x2`.*2024\.12.*2023\.12"):
            ns.where(cond, x, 0.0)
        with pytest.raises(TypeError, match=r"where\(\).*`x1`.*2024\.12"):
            ns.where(cond, 5, x)


@pytest.mark.parametrize("version", VERSIONS)
def test_complex_mean_needs_2024_12(version):
    ns = _ns(version)
    assert_matches(ns.mean(ns.asarray([1.0, 3.0])), np.float64(2.0))
    z = ns.asarray([1 + 1j, 3 + 3j])
    if version >= "2024.12":
        assert_matches(ns.mean(z), np.complex128(2 + 2j))
    else:
        with pytest.raises(TypeError, match=r"mean\(\).*complex.*2024\.12.*2023\.12"):
            ns.mean(z)
        with pytest.raises(TypeError, match=r"mean\(\).*complex64"):
            ns.mean(ns.asarray([1j], dtype=ns.complex64), axis=0, keepdims=True)


@pytest.mark.parametrize("version", VERSIONS)
def test_searchsorted_python_scalar_needs_2025_12(version):
    ns = _ns(version)
    x1 = ns.asarray([1.0, 2.0, 3.0])
    assert_matches(ns.searchsorted(x1, ns.asarray([2.5])), np.array([2]))
    assert_matches(ns.searchsorted(x1, ns.asarray([2.0]), side="right"), np.array([2]))
    if version >= "2025.12":
        assert_matches(ns.searchsorted(x1, 2.5), np.searchsorted([1.0, 2.0, 3.0], 2.5))
    else:
        with pytest.raises(
            TypeError, match=rf"searchsorted\(\).*`x2`.*2025\.12.*{version}"
        ):
            ns.searchsorted(x1, 2.5)


@pytest.mark.parametrize("version", VERSIONS)
def test_expand_dims_tuple_axis_needs_2025_12(version):
    ns = _ns(version)
    x = ns.ones((2, 3))
    assert ns.expand_dims(x, axis=-1).shape == (2, 3, 1)
    if version >= "2025.12":
        assert ns.expand_dims(x, axis=(0, -1)).shape == (1, 2, 3, 1)
    else:
        assert ns.expand_dims(x).shape == (1, 2, 3)  # the old default, axis=0
        with pytest.raises(
            TypeError, match=rf"expand_dims\(\).*tuple `axis`.*2025\.12.*{version}"
        ):
            ns.expand_dims(x, axis=(0, -1))


@pytest.mark.parametrize("version", VERSIONS)
def test_permute_dims_negative_axes_in_every_version(version):
    # New in 2025.12; kept in older namespaces as a harmless extension.
    ns = _ns(version)
    assert ns.permute_dims(ns.ones((2, 3, 4)), (-1, 0, 1)).shape == (4, 2, 3)


# --- OCEAN_ARRAY_API_VERSION (subprocess: it is read at import) ------------------------------


_CHILD = """
import ocean_array_api as xp
v = xp.__array_api_version__
print(v)
names = set(dir(xp))
print(",".join(sorted(n for n in {names} if n in names)))
print(",".join(sorted(n for n in {linalg} if hasattr(xp.linalg, n))))
print(type(xp.meshgrid(xp.arange(2), xp.arange(2))).__name__)
x = xp.asarray([1.0])
assert x.__array_namespace__() is xp
print(type(xp.__array_namespace_info__().devices()).__name__)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_environment_variable_selects_module_version(version):
    code = _CHILD.format(
        names=sorted(ADDED_2024 | ADDED_2025), linalg=sorted(LINALG_ADDED_2025)
    )
    proc = run_python(code, {"OCEAN_ARRAY_API_VERSION": version})
    lines = proc.stdout.splitlines()
    assert lines[0] == version
    assert set(filter(None, lines[1].split(","))) == expected_names(version) & (
        ADDED_2024 | ADDED_2025
    )
    assert (
        set(filter(None, lines[2].split(",")))
        == expected_linalg(version) & LINALG_ADDED_2025
    )
    assert lines[3] == ("tuple" if version >= "2025.12" else "list")
    assert lines[4] == ("tuple" if version >= "2025.12" else "list")


def test_environment_variable_with_other_revision_through_namespace():
    code = """
import ocean_array_api as xp
ns = xp.asarray(1).__array_namespace__(api_version="2025.12")
assert ns.__array_api_version__ == "2025.12"
assert hasattr(ns, "isin") and hasattr(ns.linalg, "eig")
assert not hasattr(xp, "isin")
print("ok")
"""
    proc = run_python(code, {"OCEAN_ARRAY_API_VERSION": "2024.12"})
    assert proc.stdout.strip() == "ok"


_CHILD_GATES = """
import ocean_array_api as xp

def raises(f):
    try:
        f()
    except TypeError:
        return "TypeError"
    return "ok"

x = xp.asarray([1.0, 2.0])
cond = xp.asarray([True, False])
print(raises(lambda: xp.where(cond, x, 0.0)))
print(raises(lambda: xp.mean(xp.asarray([1j, 2j]))))
print(raises(lambda: xp.searchsorted(x, 1.5)))
print(raises(lambda: xp.expand_dims(x, axis=(0, 1))))
print(raises(lambda: xp.permute_dims(xp.ones((2, 3)), (-1, 0))))
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_environment_variable_selects_version_behaviour(version):
    proc = run_python(_CHILD_GATES, {"OCEAN_ARRAY_API_VERSION": version})
    where, mean, searchsorted, expand_dims, permute_dims = proc.stdout.split()
    before_2024 = "TypeError" if version < "2024.12" else "ok"
    before_2025 = "TypeError" if version < "2025.12" else "ok"
    assert (where, mean) == (before_2024, before_2024)
    assert (searchsorted, expand_dims) == (before_2025, before_2025)
    assert permute_dims == "ok"


def test_environment_variable_unknown_version_fails_at_import():
    proc = run_python(
        "import ocean_array_api", {"OCEAN_ARRAY_API_VERSION": "2020.01"}, check=False
    )
    assert proc.returncode != 0
    assert "ValueError" in proc.stderr
    assert "OCEAN_ARRAY_API_VERSION" in proc.stderr


@pytest.mark.parametrize("module", ["linalg", "fft"])
def test_extension_modules_list_only_the_standards_names(module):
    # dir() listed imported helpers (functools, math, check_bool, parse_device,
    # ...) beside the standard names (issue 12 item 9).
    mod = getattr(xp, module)
    public = [n for n in dir(mod) if not n.startswith("_")]
    assert public == sorted(mod.__all__)
    assert {"math", "functools", "check_bool", "parse_device"}.isdisjoint(public)
