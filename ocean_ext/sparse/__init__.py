"""ocean_ext.sparse: n-dimensional sparse arrays (COO) on every device.

``COO`` follows pydata/sparse's names (``coords``, ``data``, ``shape``,
``fill_value``, ``nnz``, ``todense``, ``from_dense``, ...) and adds what it
lacks: views that share storage with their base array and write through,
on the CPU and on CUDA alike::

    import ocean_array_api as xp
    from ocean_ext import sparse

    s = sparse.COO(coords, data, shape=(1000, 1000))
    block = s[100:200]          # a view: no copy of the entries
    block[5] = 0.0              # writes through to s (entries removed)
    y = s @ xp.ones(1000)       # dense result
    col_sums = sparse.sum(s, axis=0)   # a COO

The module carries the standard's function names for COO operands
(elementwise functions, ``sum``/``prod``/``max``/``min``/``mean``/``all``/
``any``, ``matmul``, ``tensordot``, ``vecdot``, ``permute_dims``,
``matrix_transpose``, ``reshape``, ``astype``, ...); given dense arrays they
call ``ocean_array_api``.  See the guide, ``docs/ext/sparse.md``.
"""

from __future__ import annotations

from . import _operators  # installs the operators of COO
from ._convert import (
    as_coo,
    from_pydata,
    from_scipy_sparse,
    to_pydata,
    to_scipy_sparse,
)
from ._coo import COO
from ._elementwise import (
    abs,  # noqa: A004
    acos,
    acosh,
    add,
    asin,
    asinh,
    atan,
    atan2,
    atanh,
    bitwise_and,
    bitwise_invert,
    bitwise_left_shift,
    bitwise_or,
    bitwise_right_shift,
    bitwise_xor,
    ceil,
    clip,
    conj,
    copysign,
    cos,
    cosh,
    divide,
    equal,
    exp,
    expm1,
    floor,
    floor_divide,
    greater,
    greater_equal,
    hypot,
    imag,
    isfinite,
    isinf,
    isnan,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    nextafter,
    not_equal,
    positive,
    pow,  # noqa: A004
    real,
    reciprocal,
    remainder,
    round,  # noqa: A004
    sign,
    signbit,
    sin,
    sinh,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    trunc,
)  # fmt: skip
from ._linalg import matmul, tensordot, vecdot
from ._manipulation import (
    astype,
    broadcast_to,
    concat,
    expand_dims,
    flip,
    matrix_transpose,
    moveaxis,
    permute_dims,
    reshape,
    squeeze,
    stack,
    unstack,
)
from ._reductions import (
    all,  # noqa: A004
    any,  # noqa: A004
    count_nonzero,
    max,  # noqa: A004
    mean,
    min,  # noqa: A004
    nonzero,
    prod,
    sum,  # noqa: A004
)

__all__ = [
    "COO",
    "as_coo",
    "from_pydata",
    "from_scipy_sparse",
    "to_pydata",
    "to_scipy_sparse",
    # elementwise functions
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh",
    "bitwise_and", "bitwise_invert", "bitwise_left_shift", "bitwise_or",
    "bitwise_right_shift", "bitwise_xor", "ceil", "clip", "conj", "copysign", "cos",
    "cosh", "divide", "equal", "exp", "expm1", "floor", "floor_divide", "greater",
    "greater_equal", "hypot", "imag", "isfinite", "isinf", "isnan", "less",
    "less_equal", "log", "log10", "log1p", "log2", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply",
    "negative", "nextafter", "not_equal", "positive", "pow", "real", "reciprocal",
    "remainder", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square",
    "subtract", "tan", "tanh", "trunc",
    # statistical functions
    "all", "any", "count_nonzero", "max", "mean", "min", "prod", "sum",
    # searching functions
    "nonzero",
    # linear algebra
    "matmul", "matrix_transpose", "tensordot", "vecdot",
    # manipulation
    "astype", "broadcast_to", "concat", "expand_dims", "flip", "moveaxis",
    "permute_dims", "reshape", "squeeze", "stack", "unstack",
]  # fmt: skip

from . import _device

# Every public entry runs with its operands' device current (CuPy computes on
# its current device); see _device.py.
_device.install_functions(globals(), __all__, COO)
_device.install_class(COO)

del _operators, _device
