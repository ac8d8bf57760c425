"""Run in a child interpreter (SCIPY_ARRAY_API=1): scikit-learn on our arrays.

Prints one JSON object: case name -> {"ok": bool, "detail": str}.
``OCEAN_TEST_KNOWN_SIZES=1`` runs each case inside ``ocean_ext.known_sizes()``. A case is ok
when the result computed from ocean_array_api arrays (with
``array_api_dispatch=True``) is an Array on the input's device where one is
expected, and agrees with the result from NumPy arrays (rtol 1e-6).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback
import warnings

import numpy as np
import sklearn
from sklearn import metrics
from sklearn.decomposition import PCA
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import Ridge
from sklearn.metrics import pairwise
from sklearn.mixture import GaussianMixture
from sklearn.preprocessing import MinMaxScaler, StandardScaler

import ocean_array_api as xp
import ocean_ext

RTOL = 1e-6
# OCEAN_TEST_KNOWN_SIZES=1: each case runs inside ocean_ext.known_sizes()
# (on a lazy device, data-dependent sizes are computed when made)
SIZES = (
    ocean_ext.known_sizes
    if os.environ.get("OCEAN_TEST_KNOWN_SIZES", "0") == "1"
    else contextlib.nullcontext
)
rng = np.random.default_rng(0)
X = rng.standard_normal((60, 5))
Y = rng.standard_normal((7, 5))
y_reg = X @ rng.standard_normal(5) + 0.1 * rng.standard_normal(60)
y_cls = (X[:, 0] + 0.5 * X[:, 1] > 0).astype(np.int64) + (X[:, 2] > 1).astype(np.int64)
yt = rng.integers(0, 4, 40)
yp = np.where(rng.random(40) < 0.6, yt, rng.integers(0, 4, 40))
rt = rng.standard_normal(40)
rp = rt + 0.3 * rng.standard_normal(40)
DEV1 = xp.__array_namespace_info__().devices()[1]


def _pca(c):
    p = PCA(n_components=3, svd_solver="full").fit(c(X))
    # component signs are fixed by sklearn's svd_flip, so values are comparable
    return [p.components_, p.explained_variance_, p.transform(c(X))]


def _ridge(c):
    r = Ridge(alpha=0.5, solver="svd").fit(c(X), c(y_reg))
    return [r.coef_, r.intercept_, r.predict(c(X))]


def _lda(c):
    lda = LinearDiscriminantAnalysis(solver="svd").fit(c(X), c(y_cls))
    return [lda.coef_, lda.predict(c(X)), lda.predict_proba(c(X)), lda.transform(c(X))]


def _gaussian_mixture(c):
    # init_params="random" indexes with NumPy integers (x[np.int64(k)] = ...),
    # which the standard allows (any __index__ object); it raised IndexError.
    # Fails on the dask device: scikit-learn adds reg_covar by writing into
    # covariances[k, :, :], a view on NumPy, a separate array there (the
    # standard leaves views to the library; docs/dask.md).
    g = GaussianMixture(n_components=2, init_params="random", random_state=0)
    g.fit(c(X))
    return [g.weights_, g.means_, g.predict_proba(c(X))]


CASES = {
    "PCA": _pca,
    "GaussianMixture_random_init": _gaussian_mixture,
    "PCA_cpu1": _pca,
    "Ridge_svd": _ridge,
    "LinearDiscriminantAnalysis": _lda,
    "StandardScaler": lambda c: StandardScaler().fit_transform(c(X)),
    "MinMaxScaler": lambda c: MinMaxScaler().fit_transform(c(X)),
    "accuracy_score": lambda c: metrics.accuracy_score(c(yt), c(yp)),
    "zero_one_loss": lambda c: metrics.zero_one_loss(c(yt), c(yp)),
    "confusion_matrix": lambda c: metrics.confusion_matrix(c(yt), c(yp)),
    "multilabel_confusion_matrix": lambda c: metrics.multilabel_confusion_matrix(
        c(yt), c(yp)
    ),
    "f1_score_per_class": lambda c: metrics.f1_score(c(yt), c(yp), average=None),
    "r2_score": lambda c: metrics.r2_score(c(rt), c(rp)),
    "mean_squared_error": lambda c: metrics.mean_squared_error(c(rt), c(rp)),
    "mean_absolute_error": lambda c: metrics.mean_absolute_error(c(rt), c(rp)),
    "euclidean_distances": lambda c: pairwise.euclidean_distances(c(X), c(Y)),
    "pairwise_distances": lambda c: pairwise.pairwise_distances(
        c(X), c(Y), metric="euclidean"
    ),
    "cosine_similarity": lambda c: pairwise.cosine_similarity(c(X), c(Y)),
    "rbf_kernel": lambda c: pairwise.rbf_kernel(c(X), c(Y), gamma=0.3),
}


def _as_list(v):
    return v if isinstance(v, list) else [v]


def run_case(name, func):
    device = DEV1 if name.endswith("_cpu1") else None
    ref = _as_list(func(np.asarray))
    with sklearn.config_context(array_api_dispatch=True), SIZES():
        got = _as_list(func(lambda a: xp.asarray(a, device=device)))
    for i, (g, r) in enumerate(zip(got, ref, strict=True)):
        if isinstance(r, np.ndarray) and r.ndim > 0:
            if type(g) is not xp.Array:
                return (
                    False,
                    f"output {i}: expected an ocean_array_api Array, got {type(g).__name__}",
                )
            if device is not None and g.device != device:
                return False, f"output {i}: on {g.device}, input was on {device}"
            g = np.asarray(g.to_device("cpu:0"))
        elif type(g) is xp.Array:
            g = np.asarray(g.to_device("cpu:0"))
        g = np.asarray(g, dtype=np.result_type(np.asarray(r).dtype, np.float64))
        r = np.asarray(r, dtype=g.dtype)
        if g.shape != r.shape:
            return False, f"output {i}: shape {g.shape}, NumPy gives {r.shape}"
        if not np.allclose(g, r, rtol=RTOL, atol=1e-9):
            return False, f"output {i}: values differ from NumPy's:\n{g}\nvs\n{r}"
    return True, ""


def main():
    warnings.simplefilter("ignore")  # sklearn's solver notes are not under test here
    out = {}
    for name, func in CASES.items():
        try:
            ok, detail = run_case(name, func)
        except Exception:
            ok, detail = False, traceback.format_exc(limit=6)
        out[name] = {"ok": ok, "detail": detail}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
