"""pytest configuration for the rulelang suite: the ``simulation`` marker, and a report of the
slowest tests by CPU time.

The machine that runs the suite is often shared, so wall-clock durations (``--durations``) say
more about the neighbours than about a test. Each test's CPU time is measured here instead: this
process's user+sys time plus that of the child processes it waited for (the CLI subprocesses,
the simulation's worker processes) and of the forked CLI commands (tests/forkcli.py). The
``RULELANG_SLOWEST`` slowest (default 10; 0 turns the report off) are listed at the end of the
run with the total, so that a test that grows slow is seen in every ``make test``.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Generator

import pytest

from . import forkcli, gamecache

gamecache.install()

SLOWEST = int(os.environ.get("RULELANG_SLOWEST", "10"))
_cpu: dict[str, float] = {}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "simulation: random play of a bundled rules file (deselect with "
        "-m 'not simulation')")


def _cpu_seconds() -> float:
    """User+sys seconds of this process, of its children waited for so far and of the forked
    `rulelang` commands (tests/forkcli.py)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
            + forkcli.cpu_seconds)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None
                            ) -> Generator[None, None, None]:
    # setup, call and teardown together: a fixture's cost belongs to the test that needs it
    t0 = _cpu_seconds()
    yield
    _cpu[item.nodeid] = _cpu.get(item.nodeid, 0.0) + _cpu_seconds() - t0


def pytest_sessionfinish(session: pytest.Session) -> None:
    # a pytest-xdist worker (make test runs the suite on the machine's cores): its tests' CPU
    # goes back to the controller, which reports for all of them
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out["rulelang_cpu"] = dict(_cpu)


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: absent without it
def pytest_testnodedown(node: object, error: object) -> None:
    _cpu.update(getattr(node, "workeroutput", {}).get("rulelang_cpu", {}))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SLOWEST <= 0 or not _cpu:
        return
    tr = terminalreporter
    tr.write_sep("=", f"{min(SLOWEST, len(_cpu))} slowest tests by CPU time "
                      "(user+sys, child processes included)")
    for nodeid, secs in sorted(_cpu.items(), key=lambda kv: -kv[1])[:SLOWEST]:
        tr.write_line(f"{secs:8.2f}s  {nodeid}")
    tr.write_line(f"{sum(_cpu.values()):8.2f}s  in all {len(_cpu)} tests")
