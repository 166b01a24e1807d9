"""Every bundled game played through ``rulelang play`` from a script of inputs, to the end of a
short match, and the screen compared with its golden transcript (tests/goldens.py says how they
were made; ``make goldens`` makes them again, to review as a diff)."""

from __future__ import annotations

import difflib

import pytest

from .goldens import GAMES, GOLDEN, command, read_inputs, transcript
from .helpers import rules_files


def test_every_bundled_game_has_a_golden_match() -> None:
    bundled = {p.stem for p in rules_files()}
    assert set(GAMES) == bundled
    assert {p.stem for p in GOLDEN.glob("*.txt")} == bundled


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    want = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    first = (GOLDEN / f"{name}.inputs").read_text(encoding="utf-8").split("\n", 1)[0]
    assert first == "# rulelang " + " ".join(command(name)), \
        "the inputs were made for other arguments: make goldens"
    got = transcript(name, read_inputs(name))
    assert "Game over." in got and got.endswith("[exit 0]\n")  # a whole match
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                 f"golden/{name}.txt", "now"))[:60])
        pytest.fail(f"play's transcript of {name} changed (make goldens, then review the "
                    f"diff):\n{diff}")
