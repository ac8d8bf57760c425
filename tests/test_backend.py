"""The backend protocol and registry: entry points, failures, missing operations."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import ocean_array_api as xp
from ocean_array_api import _backend

from .helpers import CPU0, CPU1, assert_matches, run_python


def test_cpu_backend_satisfies_the_protocol():
    backend = _backend.get_backend("cpu")
    assert backend is not None
    assert isinstance(backend, _backend.Backend)
    assert backend.kind == "cpu"
    assert backend.native_type is np.ndarray
    assert isinstance(backend.ops, dict)
    assert "add" in backend.ops
    assert _backend.get_backend("cpu") is backend  # cached


def test_builtin_kinds_are_registered():
    kinds = _backend.available_kinds()
    assert "cpu" in kinds
    assert "cuda" in kinds


def test_unknown_kind_has_no_backend():
    assert _backend.get_backend("no_such_kind") is None


def test_ops_table_is_looked_up_at_call_time(monkeypatch):
    # ocean_ext.instrument() relies on wrapping table entries.
    ops = CPU0._backend.ops
    calls = []
    original = ops["add"]

    def counting_add(*args, **kwargs):
        calls.append(len(args))
        return original(*args, **kwargs)

    monkeypatch.setitem(ops, "add", counting_add)
    # on the CPU explicitly: the dask device's table runs the CPU entry once
    # per chunk (its own entries are instrumented under the kind "dask")
    x = xp.asarray([1.0, 2.0], device=CPU0)
    assert_matches(xp.add(x, x), np.array([2.0, 4.0]))
    assert_matches(x + 1.0, np.array([2.0, 3.0]))
    y = xp.asarray([1.0], device=CPU1)
    y += 1.0
    assert len(calls) == 3


def test_missing_op_error_names_function_and_kind():
    err = _backend.missing_op("sin", "fancy")
    assert isinstance(err, NotImplementedError)
    assert "sin" in str(err)
    assert "fancy" in str(err)


# --- third-party backends through entry points (in a subprocess) ----------------------------

_FAKE_BACKEND = '''
"""A third-party backend for the tests: NumPy underneath, device kind "fake"."""
from ocean_cpu._backend import CPUBackend

CALLS = []


class FakeBackend(CPUBackend):
    kind = "fake"

    def __init__(self):
        super().__init__()
        for name in ("sin", "sum", "linalg.det", "sort"):
            self.ops.pop(name, None)
        original = self.ops["add"]

        def add(*args, **kwargs):
            CALLS.append("add")
            return original(*args, **kwargs)

        self.ops["add"] = add

    def device_indices(self):
        return (0, 1)

    def dlpack_device(self, native, index):
        return (1, 0)


backend = FakeBackend()
'''

_BROKEN_BACKEND = """
raise ImportError("the broken backend's native library is missing")
"""


def _install_fake_distribution(root, entries):
    """A dist-info directory registering ``entries`` under our entry-point group."""
    dist = root / "fake_backends-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: fake-backends\nVersion: 1.0\n"
    )
    lines = ["[ocean_array_api.backends]"] + [f"{k} = {v}" for k, v in entries.items()]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n")


@pytest.fixture
def plugin_path(tmp_path):
    (tmp_path / "fake_ocean_backend.py").write_text(_FAKE_BACKEND)
    (tmp_path / "broken_ocean_backend.py").write_text(_BROKEN_BACKEND)
    _install_fake_distribution(
        tmp_path,
        {
            "fake": "fake_ocean_backend:backend",
            "broken": "broken_ocean_backend:backend",
        },
    )
    return tmp_path


def _run_with_plugins(plugin_path, code, **kw):
    import os

    env = {"PYTHONPATH": os.pathsep.join([str(plugin_path), str(_repo_root())])}
    return run_python(textwrap.dedent(code), env, **kw)


def _repo_root():
    from .helpers import REPO_ROOT

    return REPO_ROOT


def test_entry_point_backend_is_discovered_and_used(plugin_path):
    code = """
    import warnings
    import numpy as np
    import ocean_array_api as xp
    from ocean_array_api import _backend
    import fake_ocean_backend

    assert "fake" in _backend.available_kinds()
    x = xp.asarray([1.0, 2.0], device="fake:1")
    assert str(x.device) == "fake:1", x.device
    y = x + x
    assert y.device == x.device
    assert fake_ocean_backend.CALLS == ["add"], fake_ocean_backend.CALLS
    np.testing.assert_array_equal(np.asarray(y.to_device("cpu")), [2.0, 4.0])
    z = xp.asarray([5.0]).to_device("fake:0")
    assert str(z.device) == "fake:0"
    try:
        x + xp.asarray([1.0, 2.0], device="fake:0")
    except ValueError as e:
        assert "add" in str(e)
    else:
        raise AssertionError("mixing fake:0 and fake:1 did not raise")
    print("ok")
    """
    proc = _run_with_plugins(plugin_path, code)
    assert proc.stdout.strip().endswith("ok")


def test_broken_backend_warns_once_naming_itself(plugin_path):
    code = """
    import warnings
    import ocean_array_api as xp

    x = xp.zeros(2)  # the CPU keeps working; nothing warned yet
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        devs = xp.__array_namespace_info__().devices()
        devs2 = xp.__array_namespace_info__().devices()
        for _ in range(2):
            try:
                xp.zeros(2, device="broken:0")
            except ValueError:
                pass
            else:
                raise AssertionError("a device of a broken backend was created")
    assert not any(d.kind == "broken" for d in devs), devs
    assert devs == devs2
    msgs = [str(w.message) for w in caught if "broken" in str(w.message)]
    assert len(msgs) == 1, [str(w.message) for w in caught]
    assert "broken_ocean_backend" in msgs[0], msgs[0]
    assert all(issubclass(w.category, Warning) for w in caught)
    print("ok")
    """
    proc = _run_with_plugins(plugin_path, code)
    assert proc.stdout.strip().endswith("ok")


def test_import_does_not_load_third_party_backends(plugin_path):
    code = """
    import sys
    import ocean_array_api as xp
    xp.asarray([1.0]) + 1.0
    assert "fake_ocean_backend" not in sys.modules
    assert "broken_ocean_backend" not in sys.modules
    print("ok")
    """
    proc = _run_with_plugins(plugin_path, code)
    assert proc.stdout.strip().endswith("ok")


@pytest.mark.parametrize(
    ("call", "name"),
    [
        ("xp.sin(x)", "sin"),
        ("xp.sum(x)", "sum"),
        ("xp.sort(x)", "sort"),
        ("xp.linalg.det(xp.reshape(x, (2, 2)))", "det"),
    ],
)
def test_missing_operation_raises_a_clear_error(plugin_path, call, name):
    code = f"""
    import ocean_array_api as xp
    x = xp.asarray([1.0, 2.0, 3.0, 4.0], device="fake:0")
    try:
        {call}
    except NotImplementedError as e:
        msg = str(e)
        assert "{name}" in msg and "fake" in msg, msg
        print("ok")
    """
    proc = _run_with_plugins(plugin_path, code)
    assert proc.stdout.strip().endswith("ok"), proc.stdout + proc.stderr


def test_import_loads_no_module_it_does_not_need():
    """``import ocean_array_api`` stays cheap (under 0.1 s with
    NumPy's own import): these modules are loaded on first use only."""
    proc = run_python(
        textwrap.dedent(
            """
            import sys
            lazy = ("numpy.fft", "numpy.typing", "dataclasses", "threading", "dask")
            # (an environment may load some at start-up: a .pth file, say)
            before = set(sys.modules)
            import ocean_array_api as xp
            print(sorted(m for m in lazy if m in sys.modules and m not in before))
            x = xp.fft.fft(xp.asarray([1.0 + 0j, 2.0 + 0j]))
            print(x.shape, "numpy.fft" in sys.modules)
            """
        )
    )
    assert proc.stdout.split("\n")[:2] == ["[]", "(2,) True"]
