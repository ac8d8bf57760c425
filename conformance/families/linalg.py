"""The linalg extension."""

from __future__ import annotations

import math

import numpy as np

from ..calls import DT, Arr, Call, to_numpy
from ..checks import Finding, Options, check_array, describe
from ..registry import Feature
from ._base import (
    EXACT,
    V24,
    V25,
    _add,
    _meta,
    _outs,
    _rel_ok,
    arr,
    axis_forms,
    from_numpy,
    omit_some,
    shapes,
)
from ._st import st

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


def _orthogonal(rng: np.random.Generator, n: int, complex_: bool) -> np.ndarray:
    a = rng.standard_normal((n, n))
    if complex_:
        a = a + 1j * rng.standard_normal((n, n))
    q, _ = np.linalg.qr(a)
    return q


def _with_singular_values(draw, dt, shape, svals_for) -> np.ndarray:
    """Matrices ``U @ diag(s) @ Vh`` with the singular values ``svals_for(k)``."""
    *b, n, m = shape
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    k = min(n, m)
    cplx = dt.startswith("complex")
    out = np.empty((*b, n, m), dtype=np.complex128 if cplx else np.float64)
    for idx in np.ndindex(*b):
        u, v = _orthogonal(rng, n, cplx)[:, :k], _orthogonal(rng, m, cplx)[:k]
        out[idx] = (u * np.asarray(svals_for(k), dtype=np.float64)) @ v
    return out


def _matrix(draw, ctx, dt, *, square=True, kind="general", batch=True, min_n=1):
    """A matrix, or a stack of them, of one of the kinds the standard's
    functions must handle: ``general``, ``invertible`` (determinants of both
    signs), ``spd``, ``hermitian`` (with repeated eigenvalues), ``singular``
    (two equal rows: exactly singular), ``rank-deficient`` (a product of
    integer factors of a lower rank), ``ill-conditioned`` (condition number
    1e3 in single precision, 1e6 in double), ``scaled`` (invertible, scaled
    by a power of ten far from 1)."""
    n = draw(
        st.integers(max(min_n, 2 if kind in ("singular", "rank-deficient") else 1), 4)
    )
    m = n if square else draw(st.integers(1, 4))
    b = draw(st.sampled_from([(), (2,), (2, 2)])) if batch else ()
    a = np.asarray(draw(arr(ctx, dt, (*b, n, m), "unit")))
    single = dt in ("float32", "complex64")
    if kind == "spd":
        a = a @ np.conj(np.swapaxes(a, -1, -2)) + n * np.eye(n, dtype=a.dtype)
    elif kind == "hermitian":
        a = a + np.conj(np.swapaxes(a, -1, -2))
        if draw(st.booleans()):  # repeated eigenvalues: eigenvectors not unique
            w = draw(st.sampled_from([1.0, -2.0, 0.5]))
            ws = np.asarray([w] * (n - n // 2) + [w + 1.0] * (n // 2))
            q = _orthogonal(np.random.default_rng(n), n, dt.startswith("complex"))
            a = np.broadcast_to((q * ws) @ np.conj(q.T), a.shape).copy()
    elif kind in ("invertible", "scaled"):
        # diagonally dominant, with diagonal signs drawn: determinants of both signs
        signs = draw(st.lists(st.sampled_from([1, -1]), min_size=n, max_size=n))
        diag = np.diag(np.asarray(signs, dtype=np.float64)) @ np.eye(n, m)
        a = a + (2 * n * diag).astype(a.dtype)
        if kind == "scaled":
            e = draw(st.sampled_from([-8, 8] if single else [-20, -8, 8, 20]))
            a = a * a.dtype.type(10.0**e)
    elif kind == "singular":
        i, j = draw(st.permutations(range(n)))[:2]
        a[..., j, :] = a[..., i, :]
    elif kind == "rank-deficient":
        r = draw(st.integers(0, min(n, m) - 1))
        u = np.asarray(draw(arr(ctx, "int8", (*b, n, r), "unit")), dtype=np.float64)
        v = np.asarray(draw(arr(ctx, "int8", (*b, r, m), "unit")), dtype=np.float64)
        if b and r:  # each matrix of a stack its own rank (at most r)
            keep = np.asarray(
                draw(st.lists(st.integers(0, r), min_size=int(np.prod(b)))),
                dtype=np.int64,
            )[: int(np.prod(b))].reshape(b)
            u = u * (np.arange(r) < keep[..., None, None])
        a = (u @ v).astype(a.dtype)
    elif kind == "ill-conditioned":
        c = 1e3 if single else 1e6
        a = _with_singular_values(
            draw,
            dt,
            (*b, n, m),
            lambda k: np.geomspace(1.0, 1.0 / c, k) if k > 1 else [1.0],
        ).astype(a.dtype)
    return from_numpy(ctx, a, dt)


_TAGS = {
    "singular": "singular matrices",
    "rank-deficient": "rank-deficient matrices",
    "ill-conditioned": "ill-conditioned matrices",
    "scaled": "badly scaled matrices",
    "hermitian": "repeated eigenvalues",
}


def _cond_scale(call):
    """The magnitude errors of an inverse or a solution are measured against:
    its size times the condition number of the matrix."""
    a = call.args[0].numpy().astype(np.complex128)
    if not a.size:
        return 1.0
    try:
        inv = np.linalg.inv(a)
        cond = np.linalg.cond(a)
    except np.linalg.LinAlgError:
        return float("inf")
    return float(np.abs(inv).max() * np.max(cond))


def _det_scale(call):
    a = call.args[0].numpy().astype(np.complex128)
    if not a.size:
        return 1.0
    s = np.linalg.svd(a, compute_uv=False)
    # |det| = prod(s); det(A + E) - det(A) ~ trace(adj(A) @ E), |adj(A)| = the
    # product of the n - 1 largest singular values: a backward stable algorithm
    # errs by ~ eps * s_max * prod(s[:-1]), nonzero for a singular matrix too
    return float(
        np.max(s[..., 0] * np.prod(s[..., :-1], axis=-1)) * a.shape[-1]
    ) + float(np.max(np.abs(np.linalg.det(a))))


def _rank_band(x: np.ndarray, rtol) -> tuple[np.ndarray, np.ndarray]:
    """The ranks a correct matrix_rank may give: singular values within a
    factor 10 of the cut-off ``rtol * s_max`` may fall either side of it."""
    s = np.linalg.svd(x.astype(np.complex128), compute_uv=False)
    smax = s[..., :1]
    cut = np.asarray(rtol, dtype=np.float64)[..., None] * smax
    return (s > cut * 10).sum(-1), (s > cut / 10).sum(-1)


def _default_rtol(x: np.ndarray) -> float:
    eps = float(np.finfo(x.real.dtype).eps)
    return max(x.shape[-2:]) * eps


def compare_matrix_rank(ref_out, tgt_out, call, ctx):
    found = check_array(
        ref_out, tgt_out, ctx.tgt.module, ctx.where, Options(check_values=False)
    )
    if found:
        return found
    x = call.args[0].numpy()
    rtol = call.kwargs.get("rtol")
    rtol = (
        _default_rtol(x)
        if rtol is None
        else (rtol.numpy() if isinstance(rtol, Arr) else rtol)
    )
    lo, hi = _rank_band(x, rtol)
    got = to_numpy(tgt_out)
    bad = (got < lo) | (got > hi)
    if np.any(bad):
        i = tuple(np.argwhere(np.atleast_1d(bad))[0]) if np.ndim(bad) else ()
        g = int(np.asarray(got)[i]) if np.ndim(got) else int(got)
        want = int(np.asarray(ref_out)[i]) if np.ndim(got) else int(np.asarray(ref_out))
        return [Finding("value", f"rank is {g}, expected {want}")]
    return []


def compare_pinv(ref_out, tgt_out, call, ctx):
    """pinv: where the rank is clear (no singular value near the cut-off),
    the values, to a tolerance set by the kept singular values."""
    found = check_array(
        ref_out, tgt_out, ctx.tgt.module, ctx.where, Options(check_values=False)
    )
    if found:
        return found
    x = call.args[0].numpy()
    rtol = call.kwargs.get("rtol")
    rtol = (
        _default_rtol(x)
        if rtol is None
        else (rtol.numpy() if isinstance(rtol, Arr) else rtol)
    )
    lo, hi = _rank_band(x, rtol)
    if np.any(lo != hi):
        return []  # a singular value near the cut-off: either answer is right
    s = np.linalg.svd(x.astype(np.complex128), compute_uv=False)
    kept = np.where(s > 0, s, np.inf)
    k = np.take_along_axis(kept, np.maximum(lo[..., None] - 1, 0), -1)
    scale = float(np.max(s[..., :1] / k**2)) if s.size else 1.0
    got = to_numpy(tgt_out)
    dt = str(ref_out.dtype)
    if not _rel_ok(got, np.asarray(ref_out), dt, 256 * max(x.shape[-2:]), scale):
        return [Finding("value", "the pseudo-inverse differs from the reference's")]
    return []


def compare_slogdet(ref_out, tgt_out, call, ctx):
    """slogdet: of a singular matrix, sign 0 and logabsdet -inf "should" come
    back (an advisory if not, as long as sign * exp(logabsdet) is ~0)."""
    got = _outs(tgt_out, 2)
    if got is None:
        return [Finding("value", "expected 2 outputs (sign, logabsdet)")]
    found = _meta(tuple(ref_out), got, ctx)
    if found:
        return found
    sign_r, log_r = (np.asarray(r) for r in ref_out)
    sign_g, log_g = (to_numpy(g) for g in got)
    x = call.args[0].numpy()
    n = x.shape[-1]
    dt = str(ref_out[1].dtype)
    singular = sign_r == 0
    out = []
    if np.any(singular):
        a = x.astype(np.complex128)
        s = np.linalg.svd(a, compute_uv=False) if a.size else np.ones(1)
        # the determinant a stable algorithm may give: ~eps * s_max ** n
        eps = float(np.finfo(x.real.dtype).eps)
        tiny = np.log(n * eps * np.maximum(s[..., 0], 1e-300) ** n) + 2
        ok = np.where(singular, (sign_g == 0) & np.isneginf(log_g), True)
        near = np.where(singular, log_g <= tiny, True)
        if not np.all(near):
            out.append(Finding("value", "slogdet of a singular matrix is far from 0"))
        elif not np.all(ok):
            out.append(
                Finding(
                    "value",
                    "slogdet of a singular matrix should be (0, -inf)",
                    level="should",
                )
            )
    reg = ~singular
    if np.any(reg):
        scale = float(np.abs(log_r[reg]).max()) + 1.0
        if not np.array_equal(sign_g[reg], sign_r[reg]) or not _rel_ok(
            log_g[reg], log_r[reg], dt, 256 * n, scale
        ):
            out.append(
                Finding("value", "sign or logabsdet differs from the reference's")
            )
    return out


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
    scale_from=_mscale,
    classes=(),
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
            scale_from=scale_from,
            classes=classes,
        ),
    )


def _unary_matrix(name, mkind="general", feature="default", square=True, **kw):
    _lin(
        name,
        lambda draw, ctx, dt: Call(
            name, (Arr(_matrix(draw, ctx, dt, kind=mkind, square=square)),)
        ),
        feature=feature,
        classes=(_TAGS[mkind],) if mkind in _TAGS else (),
        **kw,
    )


@st.composite
def _rtol(draw, ctx, dt, name):
    # rtol as a float, a 0-d array, or an array of one per matrix of the stack
    x = _matrix(
        draw,
        ctx,
        dt,
        square=False,
        kind=draw(st.sampled_from(["rank-deficient", "ill-conditioned"])),
    )
    real = "float32" if dt in ("float32", "complex64") else "float64"
    form = draw(st.sampled_from(["float", "0-d", "stack"]))
    vals = [1e-3, 0.05, 0.3, 0.7]
    if form == "float":
        rtol = draw(st.sampled_from(vals))
    else:
        shape = () if form == "0-d" else tuple(x.shape[:-2])
        n = int(np.prod(shape))
        r = np.asarray([draw(st.sampled_from(vals)) for _ in range(n)]).reshape(shape)
        rtol = Arr(from_numpy(ctx, r, real), "rtol")
    return Call(name, (Arr(x),), {"rtol": rtol})


_unary_matrix("linalg.cholesky", "spd")
_lin(
    "linalg.cholesky",
    lambda draw, ctx, dt: Call(
        "linalg.cholesky", (Arr(_matrix(draw, ctx, dt, kind="spd")),), {"upper": True}
    ),
    feature="upper=True",
)
_unary_matrix("linalg.det", "invertible")
for _k in ("singular", "ill-conditioned", "scaled"):
    _unary_matrix("linalg.det", _k, feature=_k, scale_from=_det_scale)
_unary_matrix("linalg.inv", "invertible")
for _k in ("ill-conditioned", "scaled"):
    _unary_matrix(
        "linalg.inv", _k, feature=_k, scale_from=_cond_scale, opts=Options(("rel", 64))
    )
_unary_matrix("linalg.eigh", "hermitian", compare=compare_eigh())
_unary_matrix("linalg.eigvalsh", "hermitian", compare=compare_eigh(values_only=True))
_unary_matrix("linalg.slogdet", "invertible", compare=compare_slogdet)
for _k in ("singular", "scaled"):
    _unary_matrix("linalg.slogdet", _k, feature=_k, compare=compare_slogdet)
_unary_matrix("linalg.svdvals")
for _k in ("rank-deficient", "scaled"):
    _unary_matrix("linalg.svdvals", _k, feature=_k, square=False)
_unary_matrix("linalg.pinv", "invertible")
for _k in ("singular", "rank-deficient", "ill-conditioned"):
    _unary_matrix("linalg.pinv", _k, feature=_k, square=False, compare=compare_pinv)
for _k in ("invertible", "singular", "rank-deficient", "ill-conditioned", "scaled"):
    _unary_matrix(
        "linalg.matrix_rank",
        _k,
        feature="default" if _k == "invertible" else _k,
        kind="real floating",
        compare=compare_matrix_rank,
        square=_k == "invertible",
    )


def _rank_stacks(ctx, dt):
    # stacks whose matrices have different ranks (3, 2, 1, 0 and 3 again):
    # "the function must compute the number of non-zero singular values for
    # each matrix in the stack"
    rng = np.random.default_rng(5)
    mats = []
    for r in (3, 2, 1, 0, 3):
        u, v = rng.integers(-3, 4, (3, r)), rng.integers(-3, 4, (r, 4))
        while r and np.linalg.matrix_rank(u @ v) != r:
            u, v = rng.integers(-3, 4, (3, r)), rng.integers(-3, 4, (r, 4))
        mats.append((u @ v).astype(np.float64))
    a = np.stack(mats)
    stacks = (a, a[::-1], a[:4].reshape(2, 2, 3, 4), np.swapaxes(a, -1, -2))
    return [
        Call("linalg.matrix_rank", (Arr(from_numpy(ctx, s.copy(), dt)),))
        for s in stacks
    ]


_add(
    "linalg.matrix_rank",
    Feature(
        "stack-of-ranks",
        "real floating",
        lambda ctx, dt: None,
        table=_rank_stacks,
        compare=compare_matrix_rank,
    ),
)
for _n in ("linalg.matrix_rank", "linalg.pinv"):
    _add(
        _n,
        Feature(
            "rtol",
            "real floating",
            lambda ctx, dt, _n=_n: _rtol(ctx, dt, _n),
            compare=compare_matrix_rank if _n == "linalg.matrix_rank" else compare_pinv,
        ),
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
    "linalg.svd",
    lambda draw, ctx, dt: Call(
        "linalg.svd",
        (Arr(_matrix(draw, ctx, dt, square=False, kind="rank-deficient")),),
        {"full_matrices": draw(st.booleans())},
    ),
    compare=compare_svd,
    feature="rank-deficient",
    classes=("rank-deficient matrices",),
)
_lin(
    "linalg.qr",
    lambda draw, ctx, dt: Call(
        "linalg.qr",
        (Arr(_matrix(draw, ctx, dt, square=False, kind="rank-deficient")),),
        {"mode": draw(st.sampled_from(["reduced", "complete"]))},
    ),
    compare=compare_qr,
    feature="rank-deficient",
    classes=("rank-deficient matrices",),
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
    "linalg.matrix_power",
    lambda draw, ctx, dt: Call(
        "linalg.matrix_power",
        (Arr(_matrix(draw, ctx, dt, kind="singular")), draw(st.integers(0, 3))),
    ),
    feature="singular",
    classes=("singular matrices",),
)


@st.composite
def _solve_general(draw, ctx, dt):
    """solve: ill-conditioned systems, a vector right-hand side, batch
    dimensions that broadcast."""
    kind = draw(st.sampled_from(["invertible", "ill-conditioned"]))
    a = _matrix(draw, ctx, dt, kind=kind)
    n = a.shape[-1]
    form = draw(st.sampled_from(["vector", "broadcast", "stack"]))
    if form == "vector":  # x2 of shape (n,): a vector (2023.12 and later)
        shape = (n,)
    elif form == "broadcast":  # a matrix for every matrix of the stack
        shape = (n, draw(st.integers(1, 3)))
    else:
        shape = (*([1] * (a.ndim - 2)), n, draw(st.integers(1, 3)))
    b = draw(arr(ctx, dt, tuple(shape), "unit"))
    tags = (_TAGS[kind],) if kind in _TAGS else ()
    return Call("linalg.solve", (Arr(a, "x1"), Arr(b, "x2")), tags=tags)


_add(
    "linalg.solve",
    Feature(
        "x2 forms",
        "floating",
        lambda ctx, dt: _solve_general(ctx, dt),
        Options(("rel", 64)),
        scale_from=lambda c: (
            _cond_scale(c) * (float(np.abs(c.args[1].numpy()).max()) + 1)
        ),
    ),
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


@st.composite
def _trace_dtype(draw, ctx, dt):
    from .statistical_functions import _WIDER

    x = _matrix(draw, ctx, dt, square=False)
    kw = {"offset": draw(st.integers(-2, 2))}
    kw["dtype"] = DT(draw(st.sampled_from(_WIDER[dt])))
    return Call("linalg.trace", (Arr(x),), kw)


@st.composite
def _trace_int(draw, ctx, dt):
    # integers: the default accumulation dtype (the default integer)
    x = draw(arr(ctx, dt, (*draw(st.sampled_from([(), (2,)])), 3, 3), "unit"))
    return Call("linalg.trace", (Arr(x),), {"offset": draw(st.integers(-1, 1))})


_add(
    "linalg.trace",
    Feature(
        "dtype",
        "numeric",
        lambda ctx, dt: _trace_dtype(ctx, dt),
        Options(LIN),
        scale_from=_mscale,
    ),
    Feature("integer", "integral", lambda ctx, dt: _trace_int(ctx, dt), Options(EXACT)),
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
_lin(
    "linalg.matrix_norm",
    lambda draw, ctx, dt: Call(
        "linalg.matrix_norm",
        (Arr(_matrix(draw, ctx, dt, square=False)),),
        omit_some(draw, {"keepdims": draw(st.booleans())}, ("keepdims",)),
    ),
    feature="defaults",  # ord="fro"
)
_lin(
    "linalg.matrix_norm",
    lambda draw, ctx, dt: Call(
        "linalg.matrix_norm",
        (Arr(_matrix(draw, ctx, dt, square=False, kind="rank-deficient")),),
        {
            "ord": draw(st.sampled_from(["fro", "nuc", 2, -2, 1, -1])),
            "keepdims": draw(st.booleans()),
        },
    ),
    feature="rank-deficient",
    classes=("rank-deficient matrices",),
)


@st.composite
def _vnorm(draw, ctx, dt):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1), "unit"))
    return Call(
        "linalg.vector_norm",
        (Arr(x),),
        {
            "axis": axis_forms(draw, x.ndim, empty=False),
            "ord": draw(st.sampled_from([2, 1, 0, math.inf, -math.inf, 3, -1])),
            "keepdims": draw(st.booleans()),
        },
    )


@st.composite
def _vnorm_defaults(draw, ctx, dt):
    # ord=2, axis=None, keepdims=False: ord always left out, the others at times
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1), "unit"))
    kw = {
        "axis": axis_forms(draw, x.ndim, empty=False),
        "keepdims": draw(st.booleans()),
    }
    return Call("linalg.vector_norm", (Arr(x),), omit_some(draw, kw, tuple(kw)))


@st.composite
def _vnorm_special(draw, ctx, dt):
    # NaN propagates, an infinity gives inf (for positive ord), zeros give 0
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1, min_side=1), "sum-special"))
    return Call(
        "linalg.vector_norm",
        (Arr(x),),
        {
            "axis": axis_forms(draw, x.ndim, empty=False),
            "ord": draw(st.sampled_from([2, 1, math.inf, 3])),
        },
    )


_add(
    "linalg.vector_norm",
    Feature(
        "special-values",
        "real floating",
        lambda ctx, dt: _vnorm_special(ctx, dt),
        Options(LIN),
        scale_from=lambda c: 1.0,
    ),
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
_add(
    "linalg.vector_norm",
    Feature(
        "defaults",
        "floating",
        lambda ctx, dt: _vnorm_defaults(ctx, dt),
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
