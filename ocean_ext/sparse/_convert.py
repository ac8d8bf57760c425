"""Conversions to and from SciPy, CuPy (``cupyx.scipy.sparse``) and pydata/sparse.

SciPy and pydata/sparse hold CPU (NumPy) arrays; ``cupyx.scipy.sparse``
holds CUDA arrays.  Conversions copy the entries (a COO owns its storage) and
never move data between devices implicitly: convert a CUDA array with
``to_device("cpu")`` first to reach SciPy or pydata/sparse.
"""

from __future__ import annotations

from typing import Any

import numpy as np

import ocean_array_api as xp
from ocean_array_api import _dtypes as _dt
from ocean_array_api._array_object import Array
from ocean_array_api._devices import Device, default_device

from ._common import check_data_dtype, fill_scalar, row_major_strides
from ._kernels import kernels_for
from ._store import check_size, from_keys, keys_from_coords

__all__ = ["as_coo", "from_pydata", "from_scipy_sparse", "to_pydata", "to_scipy_sparse"]


def _dtype_of(native: Any, where: str) -> Any:
    dt = _dt.from_native(np.dtype(native))
    if dt is None:
        msg = f"{where}: values of NumPy dtype {native} have no ocean_array_api dtype"
        raise TypeError(msg)
    check_data_dtype(dt, where, "data")  # float16 (ocean_ext's) included
    return dt


def _from_parts(
    coords: list[Any],
    data: Any,
    shape: tuple[int, ...],
    fill: Any,
    device: Device,
    where: str,
) -> Any:
    from ._coo import COO

    k = kernels_for(device)
    nx = k.nx
    dt = _dtype_of(data.dtype, where)
    shape = tuple(int(n) for n in shape)
    check_size(shape, where)
    nd = len(shape)
    n = int(data.shape[0])
    c = nx.empty((nd, n), dtype=nx.int64)
    for d in range(nd):
        c[d] = coords[d]
    d_native = nx.array(data, dtype=dt._native, copy=True)
    fill = fill_scalar(fill, dt, where)
    keys = keys_from_coords(k, c, row_major_strides(shape))
    ent = from_keys(shape, dt, device, keys, d_native, fill, coords=c, k=k)
    return COO._from_entries(ent, fill)


# what scipy.sparse holds, among our dtypes (not float16)
_SCIPY_DTYPES = frozenset(
    [
        "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64", "float32", "float64", "complex64", "complex128",
    ]
)  # fmt: skip


def _require_coo(s: Any, where: str, argname: str) -> None:
    from ._coo import COO

    if not isinstance(s, COO):
        hint = (
            "; convert a dense array with COO.from_dense() first"
            if s.__class__.__name__ == "Array"
            else ""
        )
        msg = f"{where}: `{argname}` must be a COO, got {type(s).__name__}{hint}"
        raise TypeError(msg)


def _is_cupyx(m: Any) -> bool:
    return type(m).__module__.startswith("cupyx.")


def from_scipy_sparse(m: Any, /) -> Any:
    """A COO from a SciPy sparse array or matrix (on the CPU), or from a
    ``cupyx.scipy.sparse`` matrix (on its CUDA device).

    Duplicate entries are summed, explicit zeros dropped.

    Examples
    --------
    >>> import scipy.sparse
    >>> from ocean_ext import sparse
    >>> m = scipy.sparse.csr_array([[0.0, 1.0], [2.0, 0.0]])
    >>> s = sparse.from_scipy_sparse(m)
    >>> s.coords
    Array([[0, 1],
           [1, 0]], dtype=int64)
    """
    where = "from_scipy_sparse()"
    if _is_cupyx(m):
        import cupyx.scipy.sparse as cps

        if not cps.issparse(m):
            msg = f"{where}: `m` must be a sparse matrix, got {type(m).__name__}"
            raise TypeError(msg)
        coo = m.tocoo()
        device = Device("cuda", int(coo.data.device.id))
        return _from_parts([coo.row, coo.col], coo.data, coo.shape, None, device, where)
    try:
        import scipy.sparse as sps
    except ImportError:  # pragma: no cover - scipy is a test dependency
        sps = None
    if sps is None or not sps.issparse(m):
        msg = f"{where}: `m` must be a SciPy sparse array or matrix, got {type(m).__name__}"
        raise TypeError(msg)
    coo = m.tocoo()
    coords = list(coo.coords) if hasattr(coo, "coords") else [coo.row, coo.col]
    return _on_default_device(
        lambda dev: _from_parts(coords, coo.data, coo.shape, None, dev, where)
    )


def to_scipy_sparse(s: Any, /, *, format: str = "coo") -> Any:  # noqa: A002
    """``s`` as a SciPy sparse array (CPU) or ``cupyx.scipy.sparse`` matrix (CUDA).

    Parameters
    ----------
    format : {"coo", "csr", "csc"}
        The SciPy format; "csr" and "csc" need 2 dimensions, "coo" takes any
        number of at least 1 on the CPU (SciPy's n-d ``coo_array``), 2 on CUDA.

    Raises
    ------
    ValueError
        A fill value other than zero (SciPy has none), or a shape the format
        cannot hold.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> s = sparse.COO.from_dense(xp.asarray([[0.0, 1.0], [2.0, 0.0]]))
    >>> s.to_scipy_sparse(format="csr").toarray()
    array([[0., 1.],
           [2., 0.]])
    """
    where = "to_scipy_sparse()"
    _require_coo(s, where, "s")
    if not isinstance(format, str):
        msg = f"{where}: `format` must be a str, got {type(format).__name__}"
        raise TypeError(msg)
    if format not in ("coo", "csr", "csc"):
        msg = f"{where}: `format` must be 'coo', 'csr' or 'csc', got {format!r}"
        raise ValueError(msg)
    if s.fill_value != 0:
        msg = f"{where}: SciPy sparse arrays have fill value 0, this one has {s.fill_value!r}"
        raise ValueError(msg)
    nd = s.ndim
    if nd == 0 or (format != "coo" and nd != 2):
        msg = f"{where}: format {format!r} cannot hold a {nd}-dimensional array"
        raise ValueError(msg)
    if s.dtype._name not in _SCIPY_DTYPES:
        msg = (
            f"{where}: SciPy sparse arrays do not hold {s.dtype}; convert `s` with "
            f"astype() first (e.g. to float32)"
        )
        raise TypeError(msg)
    ent = s._mat()
    dev = s.device
    if dev._kind == "cuda":
        import cupyx.scipy.sparse as cps

        if nd != 2:
            msg = (
                f"{where}: cupyx.scipy.sparse holds 2-dimensional arrays only, got {nd}"
            )
            raise ValueError(msg)
        # cuSPARSE indexes with int32
        idx = ent.coords.astype("int32") if max(ent.shape) < 2**31 else ent.coords
        if format == "csr":
            ptr = ent.rowptr()
            ptr = ptr.astype("int32") if ent.nnz < 2**31 else ptr
            return cps.csr_matrix((ent.data.copy(), idx[1], ptr), shape=ent.shape)
        coo = cps.coo_matrix((ent.data.copy(), (idx[0], idx[1])), shape=ent.shape)
        return coo if format == "coo" else coo.asformat(format)
    if dev._kind != "cpu":
        msg = f"{where}: SciPy holds CPU arrays; move the array with to_device('cpu') first"
        raise ValueError(msg)
    import scipy.sparse as sps

    if format == "csr":
        return sps.csr_array(
            (ent.data.copy(), ent.coords[1].copy(), ent.rowptr().copy()),
            shape=ent.shape,
        )
    c = ent.coords
    coo = sps.coo_array(
        (ent.data.copy(), tuple(c[d].copy() for d in range(nd))), shape=ent.shape
    )
    coo.has_canonical_format = True
    return coo if format == "coo" else coo.asformat(format)


def from_pydata(p: Any, /) -> Any:
    """A COO (on the CPU) from a pydata/sparse array (any of its formats).

    Examples
    --------
    >>> import numpy as np, sparse as pydata_sparse
    >>> from ocean_ext import sparse
    >>> p = pydata_sparse.COO.from_numpy(np.array([0.0, 3.0]))
    >>> sparse.from_pydata(p).todense()
    Array([0., 3.], dtype=float64)
    """
    where = "from_pydata()"
    try:
        import sparse as pydata
    except ImportError:
        msg = f"{where}: pydata/sparse is not installed (pip install sparse)"
        raise ImportError(msg) from None
    if not isinstance(p, pydata.SparseArray):
        msg = f"{where}: `p` must be a pydata/sparse array, got {type(p).__name__}"
        raise TypeError(msg)
    if not isinstance(p, pydata.COO):
        p = p.asformat("coo")
    fill = p.fill_value
    fill = fill.item() if isinstance(fill, np.generic) else fill
    coords = [p.coords[d] for d in range(p.ndim)]
    return _on_default_device(
        lambda dev: _from_parts(coords, np.asarray(p.data), p.shape, fill, dev, where)
    )


def _on_default_device(build: Any) -> Any:
    """A COO made from host (NumPy) data on the default device (as ``asarray``
    of a NumPy array): built there on a CPU, moved there from cpu:0 else."""
    dev = default_device()
    if dev._kind == "cpu":
        return build(dev)
    return build(Device("cpu", 0)).to_device(dev)


def to_pydata(s: Any, /) -> Any:
    """``s`` as a ``sparse.COO`` of pydata/sparse (CPU arrays only).

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> p = sparse.COO.from_dense(xp.asarray([0.0, 3.0])).to_pydata()
    >>> p.nnz
    1
    """
    where = "to_pydata()"
    try:
        import sparse as pydata
    except ImportError:
        msg = f"{where}: pydata/sparse is not installed (pip install sparse)"
        raise ImportError(msg) from None
    _require_coo(s, where, "s")
    if s.device._kind != "cpu":
        msg = f"{where}: pydata/sparse holds CPU arrays; move the array with to_device('cpu') first"
        raise ValueError(msg)
    ent = s._mat()
    return pydata.COO(
        ent.coords.copy(),
        ent.data.copy(),
        shape=ent.shape,
        fill_value=s.fill_value,
        sorted=True,
        has_duplicates=False,
    )


def as_coo(x: Any, /, *, fill_value: Any = None) -> Any:
    """A COO from a COO (itself), a dense array, a SciPy/cupyx sparse matrix or a
    pydata/sparse array.

    Examples
    --------
    >>> import ocean_array_api as xp
    >>> from ocean_ext import sparse
    >>> sparse.as_coo(xp.asarray([0, 2])).nnz
    1
    """
    from ._coo import COO

    if isinstance(x, COO):
        return x
    mod = type(x).__module__
    if mod.startswith("scipy.sparse") or _is_cupyx(x):
        return from_scipy_sparse(x)
    if mod.startswith("sparse.") or mod == "sparse":
        return from_pydata(x)
    if x.__class__ is not Array:
        try:
            x = xp.asarray(x)
        except (TypeError, ValueError) as exc:
            msg = (
                f"as_coo(): `x` must be a COO, a dense array, a SciPy or pydata "
                f"sparse array, or what asarray() accepts: {exc}"
            )
            raise TypeError(msg) from None
    return COO.from_dense(x, fill_value=fill_value)
