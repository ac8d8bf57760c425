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
from sklearn.kernel_approximation import Nystroem
from sklearn.linear_model import (
    LogisticRegression,
    PoissonRegressor,
    Ridge,
    RidgeClassifier,
    RidgeClassifierCV,
    RidgeCV,
)
from sklearn.metrics import pairwise
from sklearn.mixture import GaussianMixture
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.preprocessing import (
    Binarizer,
    KernelCenterer,
    LabelBinarizer,
    LabelEncoder,
    MaxAbsScaler,
    MinMaxScaler,
    Normalizer,
    PolynomialFeatures,
    StandardScaler,
    label_binarize,
)

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
# binary labels and scores, class probabilities, positive targets (deviances,
# logarithmic errors) and non-negative features (chi-squared kernels)
bt = rng.integers(0, 2, 40)
bs = np.clip(bt * 0.4 + 0.6 * rng.random(40), 0.01, 0.99)
prob = rng.random((40, 4))
prob /= prob.sum(axis=1, keepdims=True)
pt = np.abs(rt) + 0.1
pp = np.abs(rp) + 0.1
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
    # scikit-learn adds reg_covar by writing into covariances[k, :, :]: a view,
    # on the dask device too since basic indexing gives views there
    # (docs/dask.md).
    g = GaussianMixture(n_components=2, init_params="random", random_state=0)
    g.fit(c(X))
    return [g.weights_, g.means_, g.predict_proba(c(X))]


def _ridge_cv(c):
    r = RidgeCV(alphas=(0.1, 1.0, 10.0)).fit(c(X), c(y_reg))
    return [r.coef_, r.intercept_, r.alpha_, r.predict(c(Y))]


def _ridge_classifier(c):
    r = RidgeClassifier(alpha=0.5, solver="svd").fit(c(X), c(y_cls))
    return [r.coef_, r.decision_function(c(Y)), r.predict(c(X))]


def _ridge_classifier_cv(c):
    r = RidgeClassifierCV(alphas=(0.1, 1.0)).fit(c(X), c(y_cls))
    return [r.coef_, r.predict(c(X))]


def _logistic_regression(c):
    # lbfgs (the default) is the solver with array API support
    r = LogisticRegression(tol=1e-10, max_iter=500).fit(c(X), c(y_cls))
    return [r.coef_, r.intercept_, r.predict_proba(c(X)), r.predict(c(Y))]


def _poisson_regressor(c):
    r = PoissonRegressor(alpha=0.1, tol=1e-10).fit(c(X), c(np.abs(y_reg)))
    return [r.coef_, r.intercept_, r.predict(c(Y))]


def _gaussian_nb(c):
    g = GaussianNB().fit(c(X), c(y_cls))
    return [g.theta_, g.var_, g.class_prior_, g.predict_proba(c(X)), g.predict(c(Y))]


def _gaussian_mixture_diag(c):
    g = GaussianMixture(
        n_components=2, covariance_type="diag", init_params="random", random_state=0
    ).fit(c(X))
    return [g.means_, g.covariances_, g.predict_proba(c(X))]


def _pca_covariance_eigh(c):
    p = PCA(n_components=3, svd_solver="covariance_eigh").fit(c(X))
    return [p.components_, p.explained_variance_, p.transform(c(Y))]


def _label_encoder(c):
    e = LabelEncoder().fit(c(yt))
    return [e.classes_, e.transform(c(yp)), e.inverse_transform(c(yp))]


def _label_binarizer(c):
    b = LabelBinarizer().fit(c(yt))
    return [b.classes_, b.transform(c(yp)), b.inverse_transform(b.transform(c(yp)))]


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
    "RidgeCV": _ridge_cv,
    "RidgeClassifier_svd": _ridge_classifier,
    "RidgeClassifierCV": _ridge_classifier_cv,
    "LogisticRegression": _logistic_regression,
    "PoissonRegressor": _poisson_regressor,
    "GaussianNB": _gaussian_nb,
    "GaussianMixture_diag": _gaussian_mixture_diag,
    "PCA_covariance_eigh": _pca_covariance_eigh,
    "Nystroem": lambda c: (
        Nystroem(n_components=10, random_state=0).fit(c(X)).transform(c(Y))
    ),
    "KernelCenterer": lambda c: KernelCenterer().fit(c(X @ X.T)).transform(c(Y @ X.T)),
    "MaxAbsScaler": lambda c: MaxAbsScaler().fit_transform(c(X)),
    "Normalizer_l1": lambda c: Normalizer(norm="l1").fit_transform(c(X)),
    "Binarizer": lambda c: Binarizer(threshold=0.2).fit_transform(c(X)),
    "PolynomialFeatures": lambda c: PolynomialFeatures(degree=2).fit_transform(c(X)),
    "LabelEncoder": _label_encoder,
    "LabelBinarizer": _label_binarizer,
    "label_binarize": lambda c: label_binarize(c(yt), classes=[0, 1, 2, 3]),
    "train_test_split": lambda c: train_test_split(
        c(X), c(y_reg), test_size=0.25, random_state=0
    ),
    "balanced_accuracy_score": lambda c: metrics.balanced_accuracy_score(c(yt), c(yp)),
    "precision_score_macro": lambda c: metrics.precision_score(
        c(yt), c(yp), average="macro"
    ),
    "recall_score_weighted": lambda c: metrics.recall_score(
        c(yt), c(yp), average="weighted"
    ),
    "fbeta_score_micro": lambda c: metrics.fbeta_score(
        c(yt), c(yp), beta=2.0, average="micro"
    ),
    "hamming_loss": lambda c: metrics.hamming_loss(c(yt), c(yp)),
    "jaccard_score_per_class": lambda c: metrics.jaccard_score(
        c(yt), c(yp), average=None
    ),
    "cohen_kappa_score": lambda c: metrics.cohen_kappa_score(c(yt), c(yp)),
    "log_loss": lambda c: metrics.log_loss(c(yt), c(prob)),
    "brier_score_loss": lambda c: metrics.brier_score_loss(c(bt), c(bs)),
    "explained_variance_score": lambda c: metrics.explained_variance_score(
        c(rt), c(rp)
    ),
    "max_error": lambda c: metrics.max_error(c(rt), c(rp)),
    "mean_absolute_percentage_error": (
        lambda c: metrics.mean_absolute_percentage_error(c(rt), c(rp))
    ),
    "mean_squared_log_error": lambda c: metrics.mean_squared_log_error(c(pt), c(pp)),
    "median_absolute_error": lambda c: metrics.median_absolute_error(c(rt), c(rp)),
    "mean_pinball_loss": lambda c: metrics.mean_pinball_loss(c(rt), c(rp), alpha=0.3),
    "mean_poisson_deviance": lambda c: metrics.mean_poisson_deviance(c(pt), c(pp)),
    "mean_gamma_deviance": lambda c: metrics.mean_gamma_deviance(c(pt), c(pp)),
    "d2_tweedie_score": lambda c: metrics.d2_tweedie_score(c(pt), c(pp), power=1.5),
    # drop_intermediate=True calls xp.diff(fps, 2): `n` passed by position,
    # where the standard makes it keyword-only (TypeError on every device)
    "roc_curve": lambda c: list(
        metrics.roc_curve(c(bt), c(bs), drop_intermediate=False)
    ),
    "precision_recall_curve": lambda c: list(
        metrics.precision_recall_curve(c(bt), c(bs))
    ),
    "average_precision_score": lambda c: metrics.average_precision_score(c(bt), c(bs)),
    "linear_kernel": lambda c: pairwise.linear_kernel(c(X), c(Y)),
    "polynomial_kernel": lambda c: pairwise.polynomial_kernel(c(X), c(Y), degree=2),
    "sigmoid_kernel": lambda c: pairwise.sigmoid_kernel(c(X), c(Y), gamma=0.2),
    "laplacian_kernel": lambda c: pairwise.laplacian_kernel(c(X), c(Y), gamma=0.3),
    "chi2_kernel": lambda c: pairwise.chi2_kernel(c(np.abs(X)), c(np.abs(Y))),
    "additive_chi2_kernel": lambda c: pairwise.additive_chi2_kernel(
        c(np.abs(X)), c(np.abs(Y))
    ),
    "manhattan_distances": lambda c: pairwise.manhattan_distances(c(X), c(Y)),
    "paired_euclidean_distances": lambda c: pairwise.paired_euclidean_distances(
        c(X[:7]), c(Y)
    ),
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
