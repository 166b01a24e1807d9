"""The examples in examples/ keep working: the API example runs, and Crazy Eights (the first
example game, bundled since) plays to the end with its invariants."""

from __future__ import annotations

import subprocess
import sys

from .helpers import ROOT, output, run_cli

EXAMPLES = ROOT / "examples"


def test_crazy_eights_simulates_with_its_invariants() -> None:
    # Crazy Eights began here as the example of a game written from the docs alone; it is
    # bundled now (games/crazy-eights.yaml), and the search bot below plays it by name
    r = run_cli("simulate", "crazy-eights", "--games", "30", "--check",
                "--agents", "greedy,random", "--json")
    assert r.returncode == 0, output(r)
    assert '"invariant_violations": 0' in r.stdout


def test_the_monte_carlo_example_runs() -> None:
    r = subprocess.run([sys.executable, str(EXAMPLES / "monte_carlo_bot.py"), "thirty-one", "2"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "the search bot (seat 0) won" in r.stdout
