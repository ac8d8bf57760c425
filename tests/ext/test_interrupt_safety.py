"""A KeyboardInterrupt landing anywhere in the entry or exit of a context
manager leaves the global state as before the block, and the next block works.

A trace function raises KeyboardInterrupt at the k-th traced event of the
entry (or exit), for every k: at every line of ``__enter__``/``__exit__`` and of
everything they call, the calls and returns of the functions they call.  Not
at the call or return of ``__enter__``/``__exit__`` themselves, nor the first
line of ``__exit__``: those are the points just outside the block, where
nothing written in Python can guard itself (a ``with`` calls no ``__exit__``
when ``__enter__`` raises).  A trace function that raises is switched off by
Python, so each run injects one interrupt; it lands at each distinct traced instruction
the first time it runs.  It runs in a subprocess with a
timeout: a lock left held would deadlock the next block.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

DRIVER = textwrap.dedent(
    """
    import decimal, functools, gc, sys, types
    import ocean_array_api as xp
    import ocean_ext
    from ocean_array_api import _backend
    from ocean_cpu import _parallel
    from ocean_ext import _modes
    try:
        from ocean_dask import _chunks, _native
    except ImportError:  # no dask: its cases are left out
        _chunks = _native = None

    x = xp.arange(3.0)
    cpu1 = xp.arange(1, device="cpu:1").device

    def state():
        ops = {k: dict(b.ops) for k, b in _backend._loaded.items() if b is not None}
        return (
            xp.ones(1).device, _modes._get(), ops,
            xp.__dict__.get("full"), type(x).__dict__.get("__add__"),
            _parallel._var.get(), list(_parallel._py_limits),
            _native and _native.KNOWN.get(), _chunks and _chunks._current.get(),
            decimal.getcontext(),
        )

    def use(make):
        with make():
            return float(xp.sum(x + 1.0))

    CASES = {
        "device": lambda: cpu1,
        "compute_mode": lambda: ocean_ext.compute_mode("complex"),
        "instrument": ocean_ext.instrument,
        "portability_report": ocean_ext.portability_report,
        "threads": lambda: ocean_ext.threads(2),
        "cpu threads": lambda: _parallel.threads(None),
        "limits": lambda: _parallel.limits(copy=32, math=32),
        "known_sizes": ocean_ext.known_sizes,
    }
    if _chunks is not None:
        # a GPU whose device context is C code that changes global state
        # (decimal's current context), as CuPy's compiled Device does
        gpu = object.__new__(_chunks.GPU)
        gpu.index = 0
        gpu.xp = types.SimpleNamespace(
            cuda=types.SimpleNamespace(Device=lambda i: decimal.localcontext())
        )
        CASES["activate"] = lambda: _chunks.activate(gpu)

    def inject(fn, k):
        # raise the first time the k-th distinct (code, instruction, event) runs
        me = sys._getframe()
        sites = {}
        seen = set()

        def tr(frame, event, arg):
            outer = frame.f_back is me
            if outer and event != "line":
                return tr
            if outer and phase[0] == "exit" and frame not in seen:
                seen.add(frame)  # the first line of __exit__
                return tr
            site = (frame.f_code, frame.f_lasti, event)
            if site not in sites:
                sites[site] = len(sites) + 1
                if sites[site] == k:
                    raise KeyboardInterrupt
            return tr

        sys.settrace(tr)
        try:
            fn()
        except KeyboardInterrupt:
            return True
        finally:
            sys.settrace(None)
        return len(sites) >= k

    phase = [None]
    bad = []
    for name, make in CASES.items():
        before = state()
        for ph in ("enter", "exit"):
            k = 0
            while True:
                k += 1
                cm = make()
                phase[0] = ph
                if ph == "enter":
                    fired = inject(cm.__enter__, k)
                    if not fired:
                        cm.__exit__(None, None, None)
                else:
                    cm.__enter__()
                    fired = inject(functools.partial(cm.__exit__, None, None, None), k)
                del cm
                gc.collect()
                if state() != before:
                    bad.append((name, ph, k))
                    break
                if use(make) != 6.0:  # the next block works
                    bad.append((name, ph, k, "next use"))
                    break
                if not fired:
                    break
            if k < 2 and ph == "enter":
                bad.append((name, ph, "no event traced"))
    print("BAD", bad)
    """
)


def test_context_managers_survive_an_interrupt_anywhere_in_entry_and_exit():
    env = {**os.environ, "PYTHONFAULTHANDLER": "1"}
    proc = subprocess.run(
        [sys.executable, "-c", DRIVER],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().splitlines()[-1] == "BAD []", proc.stdout[-3000:]


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__])
