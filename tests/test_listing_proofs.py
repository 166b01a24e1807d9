"""What the builder proves about an action's arguments, and what a listing makes once: options
proved never to repeat a move (``argopts.py``: through ``if`` branches, ``let``s, rules
functions, meld finders and ``distinct``) need no check per move, and a call in a later
argument that names no earlier one is made once per listing (``hoist.listing_invariant_calls``)
with the same moves as before.
"""

from __future__ import annotations

import random
from pathlib import Path

import rulelang


def _extended(tmp_path: Path, text: str) -> rulelang.Game:
    p = tmp_path / "variant.yaml"
    p.write_text("extends: go-fish\n" + text, encoding="utf-8")
    return rulelang.load(str(p))


def _counts_agree(game: rulelang.Game, decisions: int = 60) -> None:
    """num_moves() (no check per move where proved) counts what legal_moves() lists."""
    rng = random.Random(5)
    s = game.new_state(None, seed=2, record=False)
    for _ in range(decisions):
        if s.is_over():
            break
        n = s.num_moves()
        assert n == len(s.legal_moves())
        s.apply_index(int(rng.random() * n))


def test_options_proved_distinct_through_functions_branches_and_finders() -> None:
    # go-fish: askable(me) is a filter of the seats, distinct(...) of the ranks of a hand;
    # president: `if ... then playable(me) else []`, a filter of sets(...) in a let
    assert rulelang.load("go-fish").moves_distinct
    assert rulelang.load("president").moves_distinct
    gin = rulelang.load("gin-rummy")
    kept = {a.name: a.distinct for ph in gin.phases.values() for a in ph.actions}
    assert kept["knock"] and kept["gin"]  # knock_discards(me): lets, then a filter of h


def test_a_let_hiding_a_zone_is_read_as_its_value(tmp_path: Path) -> None:
    # `stock` here is the let's cards (the hand twice), not the zone read once
    game = _extended(tmp_path, (
        "phases:\n  ask:\n    actions:\n      peek:\n"
        "        args: {c: 'let stock = hand[me] + hand[me]; [c for c in stock]'}\n"
        "        do: show(c)\n"))
    assert not game.moves_distinct  # every card twice: the moves are checked
    _counts_agree(game)


def test_a_later_argument_call_is_made_once_per_listing_with_the_same_moves(
        tmp_path: Path) -> None:
    # first([]) names no earlier argument: made once per listing; its value is none, which
    # marks a slot not yet made, so it is simply made again (the same moves either way)
    game = _extended(tmp_path, (
        "phases:\n  ask:\n    actions:\n      tell:\n"
        "        args: {p: askable(me), c: 'if first([]) == none then hand[me] else []'}\n"
        "        do: show(c)\n"))
    s = game.new_state(None, seed=1, record=False)
    told = [m.split() for m in s.legal_moves() if m.startswith("tell")]
    seats = {m[1] for m in told}
    cards = {m[2] for m in told}
    assert len(seats) >= 1 and len(cards) >= 5 and len(told) == len(seats) * len(cards)
    _counts_agree(game)
