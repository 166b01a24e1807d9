"""``State.run``: bots choosing by index in the engine's own loop play the very games that
``apply_index`` in a Python loop plays; and calls hoisted out of inlined rules functions keep
the listing's moves and errors."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import IllegalMove, RulesError

ROOT = Path(__file__).resolve().parent.parent


def _game(name: str) -> Any:
    return rulelang.load(str(ROOT / "games" / f"{name}.yaml"), allow_any_path=True)


def _finish(s: Any) -> tuple:
    return (s.status, s.round, s.decisions, s.winner, [row[:] for row in s.ctr],
            [z[:] for z in s.zones], s.actor, s.phase)


@pytest.mark.parametrize("name,players", [("thirty-one", 4), ("crazy-eights", 3),
                                          ("tonk", 2)])
def test_run_plays_the_games_of_apply_index(name: str, players: int) -> None:
    game = _game(name)
    for seed in (1, 2):
        a = game.new_state(players, seed=seed, record=False, max_rounds=3)
        b = game.new_state(players, seed=seed, record=False, max_rounds=3)
        ra, rb = random.Random(seed), random.Random(seed)
        done = 0
        try:
            while not a.is_over() and done < 200:
                a.apply_index(int(ra.random() * a.num_moves()))
                done += 1
        except RulesError:
            pass
        agents = [lambda s, p, r=rb: int(r.random() * s.num_moves())] * players  # per seat
        try:
            ran = b.run(agents, 200)
        except RulesError:
            ran = done
        assert ran == done and _finish(a) == _finish(b)


def test_run_stops_at_the_round_end_and_after_the_decisions_asked() -> None:
    game = _game("thirty-one")
    s = game.new_state(4, seed=3, record=False, auto_continue=False)
    rng = random.Random(0)

    def pick(st: Any, _seat: int) -> int:
        return int(rng.random() * st.num_moves())

    assert s.run(pick, 2) == 2 and s.decisions == 2
    s.run(pick, round_only=True)
    assert s.round_over() and s.run(pick, round_only=True) == 0
    with pytest.raises(IllegalMove):
        s.run(pick)


HOIST_GAME = """\
name: Hoist
players: {min: 2, max: 4, default: 3}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}
zones:
  stock: {visibility: hidden, home: true}
  pile: {visibility: top}
  hand: {per_player: true, visibility: owner}
functions:
  fits(c): c.rank == 'A' or c.suit == top(pile).suit
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 5)"{first}]
  settle: {done: pass}
phases:
  play:
    actions:
      lay:
        args: {c: "[c for c in hand[me] if fits(c)]"}
        do: move(c, pile)
      draw:
        when: size(stock) > 0 and not any(fits(c) for c in hand[me])
        do: move(top(stock), hand[me])
      stop:
        when: size(stock) == 0
        do: end_round('done')
"""


def _listings(game: Any) -> list[Any]:
    out: list[Any] = []
    for seed in range(6):
        s = game.new_state(3, seed=seed, record=False, max_rounds=1)
        rng = random.Random(seed)
        for _ in range(30):
            try:
                moves = s.legal_moves()
            except RulesError as e:
                out.append(str(e))
                break
            out.append(moves)
            if s.is_over():
                break
            s.apply(moves[int(rng.random() * len(moves))])
    return out


@pytest.mark.parametrize("first", [', "move(top(stock), pile)"', ""])
def test_calls_hoisted_out_of_inlined_functions_keep_moves_and_errors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: str) -> None:
    """``fits(c)`` reads ``top(pile)``, the same for every card: it is made once per pass
    of the comprehension (and of ``any``); with the pile empty the listing fails as before
    (only once a card that is no ace is tested)."""
    from rulelang import calls as calls_mod
    from rulelang import hoist

    path = tmp_path / "g.yaml"
    path.write_text(HOIST_GAME.replace("{first}", first), encoding="utf-8")
    hoisted = rulelang.load(str(path))
    dump = hoisted.generated.dump()
    monkeypatch.setattr(hoist, "body_invariant_calls", lambda body, params: [])
    monkeypatch.setattr(calls_mod, "invariant_calls", lambda comp: [])
    plain = rulelang.load(str(path))
    assert plain.generated.dump() != dump
    got, want = _listings(hoisted), _listings(plain)
    assert got == want
    assert any(isinstance(x, str) for x in got) == (first == "")
