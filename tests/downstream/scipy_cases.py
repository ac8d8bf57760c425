"""Run in a child interpreter (SCIPY_ARRAY_API=1): SciPy on our arrays.

Prints one JSON object: case name -> {"ok": bool, "detail": str}. A case is ok
when SciPy returns an ocean_array_api Array (on the input's device) that agrees
with SciPy's result for the same NumPy input (rtol 1e-6).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import traceback

import numpy as np
import scipy.fft as sfft
import scipy.signal as signal
import scipy.special as special
import scipy.stats as stats

import ocean_array_api as xp
import ocean_ext

# OCEAN_TEST_KNOWN_SIZES=1: each case runs inside ocean_ext.known_sizes()
SIZES = (
    ocean_ext.known_sizes
    if os.environ.get("OCEAN_TEST_KNOWN_SIZES", "0") == "1"
    else contextlib.nullcontext
)

rng = np.random.default_rng(0)
A = rng.standard_normal((4, 6))
POS = np.abs(A) + 0.5
Z = A + 1j * rng.standard_normal((4, 6))
DEV1 = xp.__array_namespace_info__().devices()[1]

CASES = {
    "special.erf": lambda c: special.erf(c(A)),
    "special.erfc": lambda c: special.erfc(c(A)),
    "special.gammaln": lambda c: special.gammaln(c(POS)),
    "special.expit": lambda c: special.expit(c(A)),
    "special.xlogy": lambda c: special.xlogy(c(POS), c(POS)),
    "special.logsumexp": lambda c: special.logsumexp(c(A), axis=1),
    "special.logsumexp_cpu1": lambda c: special.logsumexp(c(A), axis=0),
    "special.softmax": lambda c: special.softmax(c(A), axis=0),
    "stats.zscore": lambda c: stats.zscore(c(A), axis=1),
    "stats.moment": lambda c: stats.moment(c(A), order=3, axis=1),
    "stats.skew": lambda c: stats.skew(c(A), axis=1),
    "stats.kurtosis": lambda c: stats.kurtosis(c(A), axis=1),
    "stats.gmean": lambda c: stats.gmean(c(POS), axis=1),
    "stats.sem": lambda c: stats.sem(c(A), axis=1),
    "stats.pearsonr": lambda c: stats.pearsonr(c(A[0]), c(A[1])).statistic,
    "fft.fft": lambda c: sfft.fft(c(Z), axis=1),
    "fft.ifft": lambda c: sfft.ifft(c(Z)),
    "fft.rfft": lambda c: sfft.rfft(c(A), axis=1),
    "fft.fft_cpu1": lambda c: sfft.fft(c(Z), axis=0),
    "fft.dct": lambda c: sfft.dct(c(A), axis=1),
    "fft.idct": lambda c: sfft.idct(c(A), type=2),
    # Slice bounds that are NumPy integers (np.int64(7)) raised IndexError.
    "signal.convolve": lambda c: signal.convolve(c(A[0]), c(A[1, :3])),
    "signal.fftconvolve": lambda c: signal.fftconvolve(c(A[0]), c(A[1, :3])),
    "signal.correlate": lambda c: signal.correlate(c(A[0]), c(A[1, :3])),
}


def run_case(name, func):
    device = DEV1 if name.endswith("_cpu1") else None
    ref = np.asarray(func(np.asarray))
    with SIZES():
        got = func(lambda a: xp.asarray(a, device=device))
    if type(got) is not xp.Array:
        return False, f"expected an ocean_array_api Array, got {type(got).__name__}"
    if device is not None and got.device != device:
        return False, f"result on {got.device}, input was on {device}"
    g = np.asarray(got.to_device("cpu:0"))
    if g.dtype != ref.dtype:
        return False, f"dtype {g.dtype}, SciPy on NumPy gives {ref.dtype}"
    if g.shape != ref.shape:
        return False, f"shape {g.shape}, SciPy on NumPy gives {ref.shape}"
    if not np.allclose(g, ref, rtol=1e-6, atol=1e-12):
        return False, f"values differ:\n{g}\nvs\n{ref}"
    return True, ""


def main():
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
