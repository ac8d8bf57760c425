"""The fft extension."""

from __future__ import annotations

import numpy as np

from ..calls import DEV, DT, Arr, Call
from ..checks import Options
from ..registry import Feature
from ._base import _add, arr, fixed, shapes
from ._st import st

NORMS = ("backward", "ortho", "forward")


def _fft(name, kind, nd=False, hermitian_out=False):
    def mk(norm):
        @st.composite
        def b(draw, ctx, dt):
            x = draw(
                arr(
                    ctx,
                    dt,
                    shapes(ctx, min_dims=1, max_dims=2, min_side=1, max_side=6),
                    "unit",
                )
            )
            kw = {"norm": norm}
            if nd:
                if draw(st.booleans()):
                    axes = tuple(draw(st.permutations(range(x.ndim))))[
                        : draw(st.integers(1, x.ndim))
                    ]
                    kw["axes"] = axes
                    if draw(st.booleans()):
                        kw["s"] = tuple(draw(st.integers(2, 6)) for _ in axes)
            else:
                kw["axis"] = draw(st.integers(-x.ndim, x.ndim - 1))
                if draw(st.booleans()):
                    kw["n"] = draw(st.integers(2 if hermitian_out else 1, 7))
            return Call(name, (Arr(x),), kw)

        return b

    def scale(call):
        x = call.args[0].numpy()
        return float(np.abs(x).sum()) + 1.0

    def explicit(norm):
        # every keyword on fixed arrays: axes (negative too) and s, or n and axis
        def calls(ctx, dt):
            x = fixed(ctx, dt, (3, 4), "unit")
            base = {"norm": norm}
            if nd:
                kws = [{"axes": (0,)}, {"axes": (-1,)}, {"axes": (1, 0)}]
                kws += [{"axes": (0,), "s": (4,)}, {"axes": (-1, 0), "s": (3, 6)}]
                if not hermitian_out:
                    kws.append({})
            else:
                kws = [{"axis": 0}, {"axis": -1}, {"axis": 0, "n": 5}]
                kws += [{"axis": -1, "n": 2}, {"n": 6}]
            return [Call(name, (Arr(x),), {**base, **kw}) for kw in kws]

        return calls

    return [
        Feature(
            f"norm={n}",
            kind,
            mk(n),
            Options(("rel", 64)),
            scale_from=scale,
            explicit=explicit(n),
        )
        for n in NORMS
    ]


for _n in ("fft", "ifft"):
    _add(f"fft.{_n}", *_fft(f"fft.{_n}", "complex floating"))
for _n in ("fftn", "ifftn"):
    _add(f"fft.{_n}", *_fft(f"fft.{_n}", "complex floating", nd=True))
_add("fft.rfft", *_fft("fft.rfft", "real floating"))
_add("fft.ihfft", *_fft("fft.ihfft", "real floating"))
_add("fft.irfft", *_fft("fft.irfft", "complex floating", hermitian_out=True))
_add("fft.hfft", *_fft("fft.hfft", "complex floating", hermitian_out=True))
_add("fft.rfftn", *_fft("fft.rfftn", "real floating", nd=True))


@st.composite
def _fftfreq(draw, ctx, dt, name):
    n = draw(st.integers(1, 10))
    kw = {"d": draw(st.sampled_from([1.0, 0.5, 2.0])), "device": DEV}
    if ctx.version != "2023.12":
        kw["dtype"] = DT(dt)
    return Call(name, (n,), kw)


for _n in ("fftfreq", "rfftfreq"):
    _add(
        f"fft.{_n}",
        Feature(
            "n,d,device",
            "real floating",
            lambda ctx, dt, _n=_n: _fftfreq(ctx, dt, f"fft.{_n}"),
            Options(("rel", 4)),
        ),
    )


@st.composite
def _shift(draw, ctx, dt, name):
    x = draw(arr(ctx, dt, shapes(ctx, min_dims=1)))
    axes = draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    return Call(name, (Arr(x),), {"axes": axes})


for _n in ("fftshift", "ifftshift"):
    _add(
        f"fft.{_n}",
        Feature(
            "axes", "floating", lambda ctx, dt, _n=_n: _shift(ctx, dt, f"fft.{_n}")
        ),
    )


_add("fft.irfftn", *_fft("fft.irfftn", "complex floating", nd=True, hermitian_out=True))
