"""``show_none(zone, f)``: a public fact that a zone holds no card f accepts (known.py).

Go Fish's "go fish" and a trick game's failure to follow suit say so; a bot that tracks what it
knows keeps the fact until a card enters the zone, and its samples of the hidden cards keep to
it (``determinize(..., known=True)``), on any deal consistent with its view alike.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import RulesError
from rulelang.known import nones_of

from .test_hidden_info import other_deal


def with_a_fact(name: str, players: int, seed: int) -> tuple[Any, int, dict[int, int]]:
    """A tracked game played at random until a zone hidden from the seat to move is known to
    hold none of some cards: (state, seat, zone -> the cards it holds none of)."""
    s = rulelang.load(name).new_state(players, seed=seed)
    s.track_known()
    rng = random.Random(seed)
    for _ in range(400):
        s.apply_index(int(rng.random() * s.num_moves()))
        seat = s.current_player()
        hidden = {z for z, cs in enumerate(s.zones) if any(not s.visible(c, seat) for c in cs)}
        facts = nones_of(s, hidden)
        if facts:
            return s, seat, facts
    raise AssertionError("no fact in 400 decisions")


def breaks(t: Any, facts: dict[int, int]) -> bool:
    return any(m >> c & 1 for z, m in facts.items() for c in t.zones[z])


@pytest.mark.parametrize("name,players", [("go-fish", 2), ("hearts", 4), ("spades", 4),
                                          ("euchre", 4)])
def test_samples_keep_to_what_is_known_to_be_missing(name: str, players: int) -> None:
    s, seat, facts = with_a_fact(name, players, 5)
    rng = random.Random(1)
    assert not any(breaks(s.determinize(seat, rng, known=True), facts) for _ in range(300))
    # the test can fail: samples that do not keep to the fact break it
    assert any(breaks(s.determinize(seat, rng), facts) for _ in range(300))
    # the fact is in the view, as every seat sees it
    view = s.view(seat)["holds_none"]
    assert sum(len(v) for v in view.values()) >= sum(bin(m).count("1") for m in facts.values())


def test_the_samples_are_the_same_on_any_deal_consistent_with_the_view() -> None:
    s, seat, _facts = with_a_fact("hearts", 4, 7)
    s.known = [None] * s.ncards  # (cards seen going somewhere are test_hidden_info's)
    t = other_deal(s, seat, random.Random(3))
    assert t.zones != s.zones and t.nones == s.nones
    assert t.view(seat) == s.view(seat)
    for k in range(20):
        a = s.determinize(seat, random.Random(k), known=True)
        b = t.determinize(seat, random.Random(k), known=True)
        assert a.zones == b.zones


def test_a_card_entering_the_zone_ends_the_fact() -> None:
    s, _seat, facts = with_a_fact("go-fish", 2, 5)
    (z,) = facts
    stock = s.zones[0]
    s.fx_move(stock[0], z)  # a draw into the hand known to lack a rank
    assert z not in nones_of(s, {z})


def test_without_tracking_nothing_is_kept() -> None:
    s = rulelang.load("go-fish").new_state(2, seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if s.is_over():
            break
        s.apply_index(int(rng.random() * s.num_moves()))
    assert s.nones == () and "holds_none" not in s.view(0)


FALSE_FACT = """
name: Say
players: {min: 2, max: 2, default: 2}
deck:
  ranks: [2, 3, 4, 5]
  suits: [S, H]
zones:
  stock: {visibility: hidden, home: true}
  hand: {per_player: true, visibility: owner}
globals:
  said: 0
round:
  start:
    - gather(stock); shuffle(stock)
    - deal(stock, hand, 4)
    - said = 0
  triggers:
    done: said >= 2
match:
  over: round >= 1
phases:
  play:
    actions:
      say:
        do:
          - show_none(hand[me], c -> c.rank != 5)
          - said += 1
"""


def test_a_false_fact_is_an_error_where_the_rules_said_it(tmp_path: Path) -> None:
    f = tmp_path / "g.yaml"
    f.write_text(FALSE_FACT, encoding="utf-8")
    s = rulelang.load(str(f)).new_state(2, seed=1)
    s.track_known()
    with pytest.raises(RulesError, match="show_none"):
        s.apply_index(0)


def test_show_none_is_checked_like_any_effect(tmp_path: Path) -> None:
    f = tmp_path / "g.yaml"
    f.write_text(FALSE_FACT.replace("show_none(hand[me], c ->", "show_none(3, c ->"),
                 encoding="utf-8")
    with pytest.raises(RulesError):
        rulelang.load(str(f))
