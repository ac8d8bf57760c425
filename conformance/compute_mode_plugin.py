"""pytest plugin: run a whole test session inside ``ocean_ext.compute_mode(...)``.

``ocean_ext.compute_mode`` sets the default mode of the ``ocean_ext`` functions
only; ``ocean_array_api`` must follow the standard whatever mode is active.
Running the official array-api-tests suite with this plugin checks exactly
that::

    cd ../array-api-tests
    PYTHONPATH=/path/to/ocean-array-api ARRAY_API_TESTS_MODULE=ocean_array_api \\
        python3 -m pytest array_api_tests -p conformance.compute_mode_plugin

Options
-------
``--ocean-compute-mode=MODE``
    The mode to run in: ``complex`` (the default), ``warn``, ``raise`` or
    ``standard``.

The mode is entered in ``pytest_configure`` and left in ``pytest_unconfigure``.
Modes live in a :class:`contextvars.ContextVar`, which is per thread, so the
plugin also checks, right before every test function runs (in the thread that
runs it), that the mode is really active there, and fails the test if not.
With pytest-xdist each worker process configures, checks and reports its own
tests; the terminal summary says how many test calls ran in the mode.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import AbstractContextManager
from typing import Any

import pytest

import ocean_ext

_MODES = ("complex", "warn", "raise", "standard")
_OUTPUT_KEY = "ocean_compute_mode_checked"

_mode_key = pytest.StashKey[str]()
_scope_key = pytest.StashKey[AbstractContextManager[str]]()
_checked_key = pytest.StashKey[int]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--ocean-compute-mode",
        default="complex",
        choices=_MODES,
        help="ocean_ext.compute_mode() active around the whole session "
        "(conformance.compute_mode_plugin; default: complex)",
    )


def pytest_configure(config: pytest.Config) -> None:
    mode = config.getoption("--ocean-compute-mode")
    scope = ocean_ext.compute_mode(mode)
    scope.__enter__()
    config.stash[_mode_key] = mode
    config.stash[_scope_key] = scope
    config.stash[_checked_key] = 0


def pytest_unconfigure(config: pytest.Config) -> None:
    scope = config.stash.get(_scope_key, None)
    if scope is not None:
        del config.stash[_scope_key]
        scope.__exit__(None, None, None)


def pytest_report_header(config: pytest.Config) -> str:
    return (
        f"ocean_ext compute mode: {config.stash[_mode_key]!r} "
        f"(conformance.compute_mode_plugin)"
    )


@pytest.hookimpl(wrapper=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> Generator[None, Any, Any]:
    config = pyfuncitem.config
    expected = config.stash[_mode_key]
    active = ocean_ext.get_compute_mode()
    if active != expected:
        pytest.fail(
            f"conformance.compute_mode_plugin: ocean_ext.get_compute_mode() is "
            f"{active!r} in the thread running this test, not {expected!r}",
            pytrace=False,
        )
    config.stash[_checked_key] += 1
    return (yield)


def pytest_sessionfinish(session: pytest.Session) -> None:
    # An xdist worker hands its count to the controller (pytest_testnodedown).
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output[_OUTPUT_KEY] = session.config.stash[_checked_key]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    output = getattr(node, "workeroutput", None) or {}
    config = node.config
    config.stash[_checked_key] += output.get(_OUTPUT_KEY, 0)


def pytest_terminal_summary(
    terminalreporter: Any, exitstatus: int, config: pytest.Config
) -> None:
    terminalreporter.write_line(
        f"conformance.compute_mode_plugin: ocean_ext.compute_mode("
        f"{config.stash[_mode_key]!r}) was active in {config.stash[_checked_key]} "
        f"test function call(s)"
    )
