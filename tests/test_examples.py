"""The examples in examples/ keep working: the rules file checks clean, its scenarios pass,
it plays to the end, and the API example runs."""

from __future__ import annotations

import subprocess
import sys

from .helpers import ROOT, output, run_cli

EXAMPLES = ROOT / "examples"


def test_examples_check_clean() -> None:
    r = run_cli("check", str(EXAMPLES))
    assert r.returncode == 0, output(r)
    assert "no problems" in r.stdout and "warning" not in output(r)


def test_example_scenarios_pass() -> None:
    r = run_cli("test", str(EXAMPLES))
    assert r.returncode == 0, output(r)
    assert r.stdout.strip().endswith("2 passed, 0 failed")


def test_crazy_eights_simulates_with_its_invariants() -> None:
    r = run_cli("simulate", str(EXAMPLES / "crazy-eights.yaml"), "--games", "30", "--check",
                "--agents", "greedy,random", "--json")
    assert r.returncode == 0, output(r)
    assert '"invariant_violations": 0' in r.stdout


def test_the_monte_carlo_example_runs() -> None:
    r = subprocess.run([sys.executable, str(EXAMPLES / "monte_carlo_bot.py"), "thirty-one", "2"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the search bot (seat 0) won" in r.stdout
