"""Run every repro in a fresh interpreter before printing it.

A deviation's repro is kept only when running it, against the target alone
and in an interpreter that has run nothing else, shows what the run saw: the
same result (dtype, shape, every value, device) or the same exception type,
or for a static check the same printed text.  Otherwise the repro is dropped
and the record says "no standalone repro" and why.

The repros of one run go to one fresh interpreter (``python -c``), which
imports the target once and forks a child per repro where the platform can
fork, so that each repro runs from the same clean state without paying the
target's import each time; elsewhere each repro gets its own interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

__all__ = ["PROVEN", "prove"]

PROVEN = "proven: run in a fresh interpreter, it shows the deviation"
_ROOT = str(Path(__file__).resolve().parent.parent)
TIMEOUT = 60  # seconds per repro
# libraries that start threads on import: a forked child of theirs may hang
_NO_FORK = ("jax", "jaxlib", "tensorflow")


def can_fork(target: str) -> bool:
    """Whether a process that imported ``target`` may fork children: not
    where the platform cannot, nor once a library of ``_NO_FORK`` is loaded
    (through ``target`` itself or a wrapper such as array_api_compat.jax),
    whose threads' locks a forked child inherits held and may wait on
    forever.  Asked in the tool's process, which imports the target first."""
    if not hasattr(os, "fork"):
        return False
    return target.split(".")[0] not in _NO_FORK and not any(
        m in sys.modules for m in _NO_FORK
    )


_HARNESS = r"""
import contextlib, io, json, os, signal, sys
from conformance.checks import describe, describe_full

def run_one(spec):
    ns = {}
    if "code" in spec:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(spec["code"], ns)
        return {"out": buf.getvalue().strip()}
    setup = spec["setup"]
    val = None
    if spec.get("call_last") and setup:
        # the call is the setup's last statement (x[i] = v, x += y): what it raises
        # is what the repro shows
        exec("\n".join(setup[:-1]), ns)
        try:
            exec(setup[-1], ns)
        except Exception as e:
            val = e
    else:
        exec("\n".join(setup), ns)
    if val is None:
        try:
            val = eval(spec["expr"], ns)
        except Exception as e:
            val = e
    return {"out": describe_full(val, not spec.get("novalues")), "plain": describe(val)}

def child(spec):
    if hasattr(signal, "alarm"):
        signal.alarm(TIMEOUT)
    try:
        return run_one(spec)
    except BaseException as e:
        return {"error": f"{type(e).__name__}: {e}"[:300]}

specs = json.loads(sys.stdin.read())
out = []
fork = hasattr(os, "fork") and PRELOAD
if fork:
    try:
        __import__(PRELOAD)
    except Exception:
        pass
for spec in specs:
    if not fork:
        out.append(child(spec))
        continue
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        data = json.dumps(child(spec)).encode()
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    os.waitpid(pid, 0)
    try:
        out.append(json.loads(data))
    except ValueError:
        out.append({"error": "the repro ended the interpreter"})
print("\x00" + json.dumps(out))
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (_ROOT, env.get("PYTHONPATH", "")) if p
    )
    return env


def _harness(target: str, fork: bool) -> str:
    preload = target if fork else ""
    return _HARNESS.replace("TIMEOUT", str(TIMEOUT)).replace("PRELOAD", repr(preload))


def _run(specs: list[dict], target: str) -> list[dict]:
    """Run ``specs`` in fresh interpreters; one answer per spec."""
    if not specs:
        return []
    fork = can_fork(target)
    batches = [specs] if fork else [[s] for s in specs]
    out: list[dict] = []
    for batch in batches:
        try:
            r = subprocess.run(
                [sys.executable, "-c", _harness(target, fork)],
                input=json.dumps(batch),
                capture_output=True,
                text=True,
                env=_env(),
                timeout=TIMEOUT * len(batch) + 60,
                check=False,
            )
            tail = r.stdout.rsplit("\x00", 1)
            answers = json.loads(tail[1]) if len(tail) == 2 else None
        except (subprocess.TimeoutExpired, ValueError, OSError) as e:
            answers, r = None, None
            why = f"the interpreter failed: {type(e).__name__}"
        if answers is None or len(answers) != len(batch):
            if r is not None:
                lines = (r.stderr or r.stdout).strip().splitlines()
                why = "the interpreter failed: " + (lines[-1] if lines else "no output")
            answers = [{"error": why}] * len(batch)
        out += answers
    return out


def _verdict(answer: dict, spec: dict) -> str:
    if "error" in answer:
        return f"no standalone repro: running it raised {answer['error']}"
    got, want = answer["out"], spec["got"]
    if got == want:
        return PROVEN
    if spec.get("want") and answer.get("plain") == spec["want"]:
        return (
            "no standalone repro: run alone, the call gives the standard's result"
            " (the deviation needs state the repro does not rebuild)"
        )
    short = got if len(got) < 120 else got[:117] + "..."
    return f"no standalone repro: run alone, it shows {short}"


def prove(records: list[Any], opts: Any) -> None:
    """Run the repro of every deviating record; keep it only if it shows the deviation.

    Sets each deviating record's ``proof``; a repro that does not show its
    deviation is removed (``repro`` becomes None).
    """
    todo = []
    for r in records:
        if r.verdict not in ("deviates", "crashes", "missing"):
            continue
        spec = r.proof_spec
        if spec is None:
            if r.repro is None:
                r.proof = "no standalone repro: " + (
                    "the name is missing (see its presence check)"
                    if r.verdict == "missing" and r.feature != "presence"
                    else "this check has no call to show"
                )
            else:
                r.proof, r.repro = "no standalone repro: it could not be checked", None
            continue
        todo.append((r, spec))
    answers = _run([s for _, s in todo], opts.target)
    for (r, spec), answer in zip(todo, answers, strict=True):
        r.proof = _verdict(answer, spec)
        if r.proof != PROVEN:
            r.repro = None
