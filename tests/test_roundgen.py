"""A round's deal as one generated function (rulelang/roundgen.py): every bundled game plays
the same with it as on the engine's own path (``Game.round_begin`` None), recorded or not, and
a deal that fails (its start effects, ``round.first``, the step limits, a first phase chosen
at run time that is none) fails the same way at the same place."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from rulelang.errors import RulesError

from .helpers import fresh_load, rules_files
from .test_first_phase import GAME as FIRST_PHASE_GAME


def _both(path: Path) -> tuple[Any, Any]:
    fused, plain = fresh_load(str(path)), fresh_load(str(path))
    plain.round_begin = None
    return fused, plain


def _play(game: Any, record: bool, decisions: int = 300, **kw: Any) -> tuple[Any, ...]:
    rng = random.Random(7)
    out: list[Any] = []
    s = None
    try:
        for seed in range(3):
            s = game.new_state(None, seed=seed, record=record, **kw)
            for _ in range(decisions):
                if s.is_over():
                    break
                s.apply_index(int(rng.random() * s.num_moves()))
            out.append((s.round, s.phase, s.actor, s.turn, s.status, s.work_done, s.steps,
                        [list(z) for z in s.zones], s.ctr, s.g, s.round_results,
                        s.history, s.messages, s.events))
    except RulesError as e:
        span = e.span
        out.append((type(e).__name__, str(e), span.line if span else None,
                    s.decisions if s is not None else None))
    return tuple(out)


@pytest.mark.parametrize("path", rules_files(), ids=lambda p: p.stem)
def test_the_generated_deal_plays_as_the_engine_does(path: Path) -> None:
    fused, plain = _both(path)
    assert fused.round_begin is not None
    for record in (False, True):
        assert _play(fused, record) == _play(plain, record), (path.stem, record)


CASES = [
    # round.start's effects fail; round.first gives no seat; the step limits at the deal
    ("extends: thirty-one\nround:\n  start:\n    - gather(stock); shuffle(stock)\n"
     "    - deal(stock, hand, 3)\n    - taken = [1, 2][5]\n", {}),
    ("extends: thirty-one\nround:\n  first: \"if round > 1 then 9 else next_seat(dealer)\"\n",
     {}),
    ("extends: thirty-one\nround:\n  first: \"if round > 1 then 1.0 else next_seat(dealer)\"\n",
     {}),
    ("extends: thirty-one\n", {"max_game_steps": 40}),
    ("extends: thirty-one\n", {"max_round_steps": 3}),
    (FIRST_PHASE_GAME.replace("then asking else playing", "then asking else if stage == 'x' "
                              "then playing else stage").replace("\"stage = 'ask'\"",
                                                                 "\"stage = 'zz'\""), {}),
    (FIRST_PHASE_GAME, {}),
]


@pytest.mark.parametrize("case", CASES, ids=["start-fails", "first-no-seat", "first-float",
                                             "game-steps", "round-steps", "no-first-phase",
                                             "first-phase-chosen"])
def test_a_generated_deal_fails_as_the_engine_does(tmp_path: Path,
                                                   case: tuple[str, dict]) -> None:
    text, limits = case
    p = tmp_path / "t.yaml"
    p.write_text(text, encoding="utf-8")
    fused, plain = _both(p)
    a, b = _play(fused, True, 200, **limits), _play(plain, True, 200, **limits)
    assert a == b
