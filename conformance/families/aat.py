"""array-api-tests test ids, for the xfails file."""

from __future__ import annotations

from .elementwise_functions import BINARY, OPERATORS, UNARY

_AAT_FILES = {
    "linalg.": "test_linalg.py",
    "fft.": "test_fft.py",
}
_AAT_SECTION = {
    "creation": (
        "arange",
        "asarray",
        "empty",
        "empty_like",
        "eye",
        "from_dlpack",
        "full",
        "full_like",
        "linspace",
        "meshgrid",
        "ones",
        "ones_like",
        "tril",
        "triu",
        "zeros",
        "zeros_like",
    ),
    "manipulation": (
        "broadcast_arrays",
        "broadcast_to",
        "concat",
        "expand_dims",
        "flip",
        "moveaxis",
        "permute_dims",
        "repeat",
        "reshape",
        "roll",
        "squeeze",
        "stack",
        "tile",
        "unstack",
    ),
    "searching": (
        "argmax",
        "argmin",
        "count_nonzero",
        "nonzero",
        "searchsorted",
        "where",
    ),
    "sorting": ("argsort", "sort"),
    "set": ("unique_all", "unique_counts", "unique_inverse", "unique_values", "isin"),
    "statistical": (
        "cumulative_sum",
        "cumulative_prod",
        "max",
        "mean",
        "min",
        "prod",
        "std",
        "sum",
        "var",
    ),
    "utility": ("all", "any", "diff"),
    "data_type": ("astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type"),
    "indexing": ("take", "take_along_axis"),
}


def aat_test_id(name: str, kind: str) -> str | None:
    """Best-effort array-api-tests test id covering a standard name."""
    for prefix, f in _AAT_FILES.items():
        if name.startswith(prefix):
            return f"array_api_tests/{f}::test_{name[len(prefix) :]}"
    if name.startswith("Array.") or kind in ("operator", "attribute"):
        op = name.split(".", 1)[1]
        fn = OPERATORS.get(op) or OPERATORS.get(
            "__" + op[3:] if op.startswith(("__r", "__i")) else op
        )
        if fn:
            return f"array_api_tests/test_operators_and_elementwise_functions.py::test_{fn}"
        return f"array_api_tests/test_array_object.py::test_{op.strip('_')}"
    if name in UNARY or name in BINARY or name == "clip":
        return (
            f"array_api_tests/test_operators_and_elementwise_functions.py::test_{name}"
        )
    for section, names in _AAT_SECTION.items():
        if name in names:
            return f"array_api_tests/test_{section}_functions.py::test_{name}"
    if name in ("matmul", "matrix_transpose", "tensordot", "vecdot"):
        return f"array_api_tests/test_linalg.py::test_{name}"
    if kind in ("constant", "dtype"):
        return f"array_api_tests/test_has_names.py::test_has_names[{name}]"
    return None
