"""The engine keeps the first engine's answers: the same seeded bots, the same games.

tests/data/engine1.json holds, for every bundled game and Crazy Eights, games recorded with
the first engine (tests/engine_transcripts.py says how): every move and the number of legal
moves at each decision, hashed, and the result. Today's engine must play exactly those games.
"""

from __future__ import annotations

import json

import pytest

from .engine_transcripts import DATA, ROOT, cases, key, play

RECORDED = json.loads(DATA.read_text(encoding="utf-8"))
CASES = cases()


def test_every_case_was_recorded() -> None:
    assert sorted(map(key, CASES)) == sorted(RECORDED)


@pytest.mark.parametrize("case", CASES, ids=key)
def test_same_game_as_the_first_engine(case: tuple[str, int, int, bool]) -> None:
    want = RECORDED[key(case)]
    got = play(ROOT / case[0], case[1], case[2], case[3])
    if got["sha"] != want["sha"]:
        firsts = list(zip(got["first_moves"], want["first_moves"]))
        diverged = next((i for i, (a, b) in enumerate(firsts) if a != b), None)
        pytest.fail(f"moves differ (first 40: diverge at {diverged}); "
                    f"{got['moves']} moves vs {want['moves']} recorded")
    assert got == want
