"""The linalg extension."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from ..calls import Arr, Call, to_numpy
from ..checks import Finding, Options, check_array, describe
from ..registry import Feature
from ._base import (
    EXACT,
    V24,
    V25,
    _add,
    _axis_for,
    _meta,
    _outs,
    _rel_ok,
    arr,
    from_numpy,
    shapes,
)

LIN = ("rel", 256)


def compare_eigh(values_only=False):
    def compare(ref_out, tgt_out, call, ctx):
        a = call.args[0].numpy().astype(np.complex128)
        dt = call.args[0].dtype_name
        n = a.shape[-1]
        scale = float(np.abs(a).max()) * n if a.size else 1.0
        if values_only:
            f = check_array(
                ref_out,
                tgt_out,
                ctx.tgt.module,
                ctx.where,
                Options(check_values=False),
            )
            if f:
                return f
            w = to_numpy(tgt_out)
            ok = _rel_ok(w, np.asarray(ref_out), str(ref_out.dtype), 64 * n, scale)
            return (
                []
                if ok
                else [Finding("value", "eigenvalues differ from the reference's")]
            )
        got = _outs(tgt_out, 2)
        if got is None:
            return [Finding("value", "expected 2 outputs (eigenvalues, eigenvectors)")]
        f = _meta(tuple(ref_out), got, ctx)
        if f:
            return f
        w, v = (to_numpy(t) for t in got)
        if not _rel_ok(w, np.asarray(ref_out[0]), str(ref_out[0].dtype), 64 * n, scale):
            return [Finding("value", "eigenvalues differ from the reference's")]
        resid = a @ v - v * w[..., None, :]
        if not _rel_ok(resid, np.zeros_like(resid), dt, 256 * n, scale):
            return [Finding("value", "x @ v != v * w (eigenvectors wrong)")]
        return []

    return compare


def compare_svd(ref_out, tgt_out, call, ctx):
    a = call.args[0].numpy()
    dt = call.args[0].dtype_name
    got = _outs(tgt_out, 3)
    if got is None:
        return [Finding("value", "expected 3 outputs (U, S, Vh)")]
    f = _meta(tuple(ref_out), got, ctx)
    if f:
        return f
    u, s, vh = (to_numpy(t) for t in got)
    k = s.shape[-1]
    n = max(a.shape[-2:]) if a.ndim else 1
    scale = float(np.abs(a).max()) * n if a.size else 1.0
    if not _rel_ok(s, np.asarray(ref_out[1]), str(ref_out[1].dtype), 64 * n, scale):
        return [Finding("value", "singular values differ from the reference's")]
    rec = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
    if not _rel_ok(rec, a, dt, 256 * n, scale):
        return [Finding("value", "U @ diag(S) @ Vh does not rebuild x")]
    return []


def compare_qr(ref_out, tgt_out, call, ctx):
    a = call.args[0].numpy()
    dt = call.args[0].dtype_name
    got = _outs(tgt_out, 2)
    if got is None:
        return [Finding("value", "expected 2 outputs (Q, R)")]
    f = _meta(tuple(ref_out), got, ctx)
    if f:
        return f
    q, r = (to_numpy(t) for t in got)
    n = max(a.shape[-2:])
    scale = float(np.abs(a).max()) * n if a.size else 1.0
    if not _rel_ok(q @ r, a, dt, 256 * n, scale):
        return [Finding("value", "Q @ R does not rebuild x")]
    if not np.allclose(np.tril(r, -1), 0):
        return [Finding("value", "R is not upper triangular")]
    return []


def _matrix(draw, ctx, dt, *, square=True, kind="general", batch=True, min_n=1):
    n = draw(st.integers(min_n, 4))
    m = n if square else draw(st.integers(1, 4))
    b = draw(st.sampled_from([(), (2,)])) if batch else ()
    a = np.asarray(draw(arr(ctx, dt, (*b, n, m), "unit")))
    if kind == "spd":
        a = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=a.dtype)
    elif kind == "hermitian":
        a = a + np.conj(np.swapaxes(a, -1, -2))
    elif kind == "invertible":
        # diagonally dominant, with diagonal signs drawn: determinants of both signs
        signs = draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
        a = a + 2 * n * np.diag(np.asarray(signs)).astype(a.dtype)
    return from_numpy(ctx, a, dt)


def _mscale(call):
    x = call.args[0].numpy()
    return float(np.abs(x).max()) * max(x.shape[-1:] or (1,)) if x.size else 1.0


def _lin(
    name,
    body,
    kind="floating",
    opts=None,
    compare=None,
    feature="default",
    versions=("2023.12", *V24),
):
    s = st.composite(body)
    _add(
        name,
        Feature(
            feature,
            kind,
            lambda ctx, dt: s(ctx, dt),
            opts or Options(LIN),
            compare=compare,
            versions=versions,
            scale_from=_mscale,
        ),
    )


def _unary_matrix(name, mkind="general", **kw):
    _lin(
        name,
        lambda draw, ctx, dt: Call(name, (Arr(_matrix(draw, ctx, dt, kind=mkind)),)),
        **kw,
    )


_unary_matrix("linalg.cholesky", "spd")
_lin(
    "linalg.cholesky",
    lambda draw, ctx, dt: Call(
        "linalg.cholesky", (Arr(_matrix(draw, ctx, dt, kind="spd")),), {"upper": True}
    ),
    feature="upper=True",
)
_unary_matrix("linalg.det", "invertible")
_unary_matrix("linalg.inv", "invertible")
_unary_matrix("linalg.eigh", "hermitian", compare=compare_eigh())
_unary_matrix("linalg.eigvalsh", "hermitian", compare=compare_eigh(values_only=True))
_unary_matrix("linalg.slogdet", "invertible")
_unary_matrix("linalg.svdvals")
_unary_matrix("linalg.pinv", "invertible")
_unary_matrix(
    "linalg.matrix_rank", "invertible", kind="real floating", opts=Options(EXACT)
)
_lin(
    "linalg.svd",
    lambda draw, ctx, dt: Call(
        "linalg.svd",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {"full_matrices": draw(st.booleans())},
    ),
    compare=compare_svd,
    feature="full_matrices",
)
_lin(
    "linalg.qr",
    lambda draw, ctx, dt: Call(
        "linalg.qr",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {"mode": draw(st.sampled_from(["reduced", "complete"]))},
    ),
    compare=compare_qr,
    feature="mode",
)
_lin(
    "linalg.matrix_power",
    lambda draw, ctx, dt: Call(
        "linalg.matrix_power",
        (Arr(_matrix(draw, ctx, dt, kind="invertible")), draw(st.integers(-2, 3))),
    ),
    feature="n",
)
_lin(
    "linalg.solve",
    lambda draw, ctx, dt: (
        lambda a: Call(
            "linalg.solve",
            (
                Arr(a, "x1"),
                Arr(
                    from_numpy(
                        ctx,
                        np.asarray(
                            draw(
                                arr(
                                    ctx,
                                    dt,
                                    (*a.shape[:-1], draw(st.integers(1, 3))),
                                    "unit",
                                )
                            )
                        ),
                        dt,
                    ),
                    "x2",
                ),
            ),
        )
    )(_matrix(draw, ctx, dt, kind="invertible")),
)
_lin(
    "linalg.trace",
    lambda draw, ctx, dt: Call(
        "linalg.trace",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {"offset": draw(st.integers(-2, 2))},
    ),
    kind="numeric",
    feature="offset",
)
_lin(
    "linalg.diagonal",
    lambda draw, ctx, dt: Call(
        "linalg.diagonal",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {"offset": draw(st.integers(-2, 2))},
    ),
    kind="numeric",
    feature="offset",
    opts=Options(EXACT),
)
_lin(
    "linalg.matrix_norm",
    lambda draw, ctx, dt: Call(
        "linalg.matrix_norm",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        {
            "ord": draw(
                st.sampled_from(["fro", "nuc", 1, -1, 2, -2, math.inf, -math.inf])
            ),
            "keepdims": draw(st.booleans()),
        },
    ),
    feature="ord,keepdims",
)


@st.composite
def _vnorm(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1), "unit"))
    return Call(
        "linalg.vector_norm",
        (Arr(x),),
        {
            "axis": _axis_for(draw, x.ndim),
            "ord": draw(st.sampled_from([2, 1, 0, math.inf, -math.inf, 3, -1])),
            "keepdims": draw(st.booleans()),
        },
    )


_add(
    "linalg.vector_norm",
    Feature(
        "axis,ord,keepdims",
        "floating",
        lambda ctx, dt: _vnorm(ctx, dt),
        Options(LIN),
        scale_from=lambda c: float(np.abs(c.args[0].numpy()).sum()),
    ),
)


def _eig_compare(vectors):
    def compare(ref_out, tgt_out, call, ctx):
        outs = _outs(tgt_out, 2) if vectors else [tgt_out]
        if outs is None:
            return [Finding("value", f"returned {describe(tgt_out)}, expected (w, v)")]
        refs = list(ref_out) if vectors else [ref_out]
        found = _meta(refs, outs, ctx)
        if found:
            return found
        x = call.args[0].numpy().astype(np.complex128)
        w = to_numpy(outs[0]).astype(np.complex128)
        rw = to_numpy(refs[0]).astype(np.complex128)
        eps = float(
            np.finfo(
                np.float32
                if call.args[0].dtype_name in ("float32", "complex64")
                else np.float64
            ).eps
        )
        scale = float(np.abs(x).max()) * max(x.shape[-1], 1) + 1.0
        tol = scale * eps**0.5 * 4
        d = np.abs(w[..., :, None] - rw[..., None, :])
        if w.size and (d.min(-1).max() > tol or d.min(-2).max() > tol):
            return [Finding("value", "eigenvalues differ from the reference's")]
        if vectors:
            v = to_numpy(outs[1]).astype(np.complex128)
            resid = np.abs(x @ v - v * w[..., None, :]).max() if v.size else 0.0
            if resid > tol:
                return [Finding("value", f"x @ v != v * w (residual {resid:.3g})")]
        return []

    return compare


for _n, _vec in (("linalg.eig", True), ("linalg.eigvals", False)):
    _lin(
        _n,
        (lambda name: lambda draw, ctx, dt: Call(name, (Arr(_matrix(draw, ctx, dt)),)))(
            _n
        ),
        compare=_eig_compare(_vec),
        versions=V25,
    )
