"""An action's whole step as one generated function (rulelang/fuse.py): where the flow goes
next is worked out at run time (``next:`` or ``turn.first_phase`` as expressions), a phase
has ``enter`` effects or is the house's, and the step still does what the engine's general
path does: the same games, the same errors at the same places, the same limits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.deps import next_targets
from rulelang.errors import RuntimeRulesError
from rulelang.parse import parse

from .helpers import fresh_load
from .test_first_phase import GAME as FIRST_PHASE_GAME


def _both(path: Path) -> tuple[Any, Any]:
    """The game at ``path`` twice: with its generated steps, and on the engine's path. Both
    check the triggers an action can make true as the engine does (``check_after``; the
    generated step's check of the mover alone counts less work)."""
    fused, plain = fresh_load(str(path)), fresh_load(str(path))
    for game in (fused, plain):
        for ph in game.phases.values():
            for a in ph.actions:
                a.step_check = None
                if game is plain:
                    a.step = None
    return fused, plain


def _error(game: Any, players: int, **limits: Any) -> tuple[Any, ...]:
    s = game.new_state(players, seed=3, record=False, **limits)
    with pytest.raises(RuntimeRulesError) as e:
        for _ in range(60):
            s.apply_index(0)
    span = e.value.span
    return str(e.value), span.line if span else None, s.decisions, s.phase, s.work_done


def test_run_time_flow_and_hooks_have_generated_steps() -> None:
    """Every action of these games: their next: or first phase is an expression, and
    Blackjack's phases have enter effects and house phases."""
    for name in ("blackjack", "hearts"):
        game = rulelang.load(name)
        assert all(a.act is not None and a.step is not None
                   for ph in game.phases.values() for a in ph.actions), name


# Thirty-One's discard phase, with enter effects
DISCARD = ("phases:\n  discard:\n    enter: \"{}\"\n    actions:\n      discard:\n"
           "        args: {{c: \"hand[me]\"}}\n        do: move(c, discard)\n")

CASES = [
    # a next: that gives no phase, one that fails, a phase whose enter effects fail
    ("data:\n  where: nowhere\nphases:\n  draw:\n    actions:\n      draw stock:\n"
     "        next: \"if true then where else discard\"\n", 3, {}),
    ("phases:\n  draw:\n    actions:\n      draw stock:\n"
     "        next: \"if 1 // 0 > 0 then discard else discard\"\n", 3, {}),
    (DISCARD.format("knocker = [1, 2][5]"), 3, {}),
    # the step limits, met in a phase entered by a computed next:
    ("phases:\n  draw:\n    actions:\n      draw stock:\n"
     "        next: \"if true then discard else draw\"\n", 2, {"max_round_steps": 5}),
    (DISCARD.format("taken = none"), 2, {"max_game_steps": 7}),
]


@pytest.mark.parametrize("case", CASES, ids=["not-a-phase", "error-in-next", "error-in-enter",
                                             "round-steps", "game-steps"])
def test_generated_steps_fail_as_the_engine_does(tmp_path: Path,
                                                 case: tuple[str, int, dict]) -> None:
    text, players, limits = case
    p = tmp_path / "t.yaml"
    p.write_text("extends: thirty-one\n" + text, encoding="utf-8")
    fused, plain = _both(p)
    assert _error(fused, players, **limits) == _error(plain, players, **limits)


def test_the_house_plays_its_generated_steps_to_the_same_limit() -> None:
    """Blackjack's house draws in a phase it enters from its own action (house.py): with a
    round of 8 steps at most, the limit is met there, after the same decisions and work."""
    fused, plain = _both(Path(rulelang.load("blackjack").path))
    got = _error(fused, 2, max_round_steps=8)
    assert got == _error(plain, 2, max_round_steps=8) and got[3] == "house_plays"


def test_a_first_phase_that_is_no_phase_fails_as_the_engine_does(tmp_path: Path) -> None:
    p = tmp_path / "t.yaml"
    p.write_text(FIRST_PHASE_GAME.replace(
        "if stage == 'ask' then asking else playing",
        "if stage == 'ask' then asking else if stage == 'x' then playing else stage"),
        encoding="utf-8")
    fused, plain = _both(p)
    got = _error(fused, 2)
    assert got == _error(plain, 2) and "which is not a phase" in got[0]


def test_the_phases_a_computed_next_can_give() -> None:
    """Phase names chosen by conditions: the triggers to check are those that the ways to
    those phases can make true (deps.plan); anything else may give any phase."""
    phases = {"draw", "restart"}

    def targets(text: str, bound: tuple[str, ...] = ()) -> Any:
        return next_targets(parse(text, "expr"), set(bound), phases)

    assert targets("if z == 'down' then draw else if ok then restart else end_turn") == (
        "draw", "restart", "end_turn")
    assert targets("if ok then 'restart' else draw") == ("restart", "draw")
    assert targets("if ok then draw else where") is None  # a global's value: any phase
    assert targets("if ok then draw else restart", ("restart",)) is None  # the action's own
    assert targets("first(['draw'])") is None
    game = rulelang.load("thirty-one-switch")
    stand = next(a for a in game.phases["draw"].actions if a.name == "stand")
    assert stand.next_targets == ("restart", "end_turn") and stand.check_after is not None
