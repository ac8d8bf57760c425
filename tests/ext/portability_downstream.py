"""SciPy and scikit-learn functions that break the standard, run on ours
inside a portability report and with NumPy, compared (run as a script by
tests/ext/test_portability.py: SCIPY_ARRAY_API must be set before SciPy is
imported).  Prints one JSON object: per case, whether the results agree and
the violations' functions and locations."""

# ruff: noqa: E402  (sys.path is set before the imports, see below)

from __future__ import annotations

import json
import os
import sys

os.environ["SCIPY_ARRAY_API"] = "1"
# Python puts this script's folder first on sys.path, where tests/ext/sparse
# would stand in for pydata/sparse (dask.array imports `sparse` when it is
# importable: the dask device as the default then failed on import)
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]

import numpy as np
import sklearn
from scipy.differentiate import derivative
from scipy.integrate import tanhsinh
from scipy.interpolate import PchipInterpolator
from scipy.optimize import elementwise
from sklearn.metrics import roc_curve
from sklearn.preprocessing import scale

import ocean_array_api as xp
import ocean_ext


def _host(r: object) -> list[np.ndarray]:
    if isinstance(r, tuple):
        return [a for x in r for a in _host(x)]
    if isinstance(r, dict):  # SciPy's _RichResult: its main fields
        return [
            a for k in ("x", "df", "integral", "error") if k in r for a in _host(r[k])
        ]
    return [np.asarray(r)]


CASES = {
    "scipy.differentiate.derivative": lambda m: derivative(
        m.exp, m.asarray([1.0, 2.0])
    ),
    "scipy.optimize.elementwise.find_root": lambda m: elementwise.find_root(
        lambda x: x**2 - 2, (m.asarray(0.0), m.asarray(2.0))
    ),
    "scipy.integrate.tanhsinh": lambda m: tanhsinh(
        m.exp, m.asarray(0.0), m.asarray(1.0)
    ),
    "scipy.interpolate.PchipInterpolator": lambda m: PchipInterpolator(
        m.asarray([0.0, 1.0, 2.0, 3.0]), m.asarray([0.0, 1.0, 4.0, 9.0])
    )(m.asarray([0.5, 1.5])),
    "sklearn.metrics.roc_curve": lambda m: roc_curve(
        m.asarray([0, 1, 1, 0, 1]), m.asarray([0.1, 0.8, 0.4, 0.3, 0.8])
    ),
    "sklearn.preprocessing.scale": lambda m: scale(m.asarray([[1.0, 2.0], [3.0, 5.0]])),
}


def main() -> None:
    out = {}
    for name, case in CASES.items():
        sklearn.set_config(array_api_dispatch=False)
        expected = _host(case(np))
        sklearn.set_config(array_api_dispatch=True)
        try:
            case(xp)
            strict = "no error"
        except TypeError as exc:
            strict = f"TypeError: {exc}"
        with ocean_ext.portability_report() as report:
            got = _host(case(xp))
        agree = len(got) == len(expected) and all(
            g.dtype == e.dtype and g.shape == e.shape and np.allclose(g, e, rtol=1e-12)
            for g, e in zip(got, expected, strict=True)
        )
        out[name] = {
            "strict": strict,
            "agree": bool(agree),
            "violations": [
                {"function": v.function, "argument": v.argument, "location": v.location}
                for v in report.violations
            ],
        }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
