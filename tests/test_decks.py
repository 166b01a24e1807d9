"""Decks as data (docs/language.md §2 ``deck``): ranks and suits of any tokens, copies of a
card within a pack, cards outside the suits, the deck's own attributes (``c.NAME``, typed by the
checker) and notation; copies of one face are one move. The French deck is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.cards import Deck

from .helpers import GAMES, output, run_cli

SMALL = """\
name: Small
players: {min: 2, max: 4, default: 3}
deck:
  ranks: [0, 1, 2, S, D2]
  suits: [R, Y]
  notation: suit_rank
  rank_copies: {0: 1, default: 2}
  unsuited: {W: 2, W4: 1}
  attributes:
    color: {by: suit, values: {R: red, Y: yellow}, default: none}
    kind: {values: {S: skip, D2: draw_two, W: wild, W4: wild}, default: number}
    points: {values: {0: 0, 1: 1, 2: 2, S: 20, D2: 20, W: 50, W4: 50}}
values:
  pts: {0: 0, 1: 1, 2: 2, S: 20, D2: 20, W: 50, W4: 50}
zones:
  stock: {home: true}
  discard: {visibility: top}
  hand: {per_player: true, visibility: owner}
functions:
  total(cs): sum(c.points for c in cs) + sum(pts[c.rank] for c in cs)
  straights(cs): size(runs(cs, 3))
hand_evaluator: total
round:
  start: [gather(stock), "deal(stock, hand, 3)"]
  triggers:
    out: any(size(hand[p]) == 0 for p in players)
phases:
  play:
    actions:
      play:
        args: {c: "hand[me]"}
        do: move(c, discard)
"""


def small(tmp_path: Path, text: str = SMALL, *subs: tuple[str, str]) -> Path:
    for old, new in subs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    p = tmp_path / "small.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_a_deck_of_its_own_is_laid_out_in_deck_order(tmp_path: Path) -> None:
    g = rulelang.load(str(small(tmp_path)))
    t = g.tables
    assert t.name == ("R0", "Y0", "R1", "R1", "Y1", "Y1", "R2", "R2", "Y2", "Y2", "RS", "RS",
                      "YS", "YS", "RD2", "RD2", "YD2", "YD2", "W", "W", "W4")
    assert g.deck.pack_size == t.size == 21 and not g.deck.faces_unique
    assert t.rank[18] == "W" and t.suit[18] is None and t.order[18] == 5 and t.order[20] == 6
    assert t.attrs["kind"] == (("number",) * 10 + ("skip",) * 4 + ("draw_two",) * 4
                               + ("wild",) * 3, "str")
    assert t.attrs["points"][1] == "int"
    s = g.new_state(3, seed=0)
    # not shuffled: the deal goes round from the dealer's left in deck order, a card at a time
    assert s.view(1)["zones"]["hand"][1] == ["R2", "R1", "R0"]
    f = g.functions["total"].fn
    assert f(s, [18, 10]) == 2 * (50 + 20)  # c.points and the value table agree
    # runs follow a deck of its own's rank order: R0 R1 R2 RS (not Y1), in one suit
    assert g.functions["straights"].fn(s, [0, 2, 6, 10, 4]) == 3


def test_copies_of_one_face_are_one_move(tmp_path: Path) -> None:
    g = rulelang.load(str(small(tmp_path)))
    s = g.new_state(2, seed=0, dealer=1, deal={"hand": [["R1", "R1", "W"], ["Y1", "Y1", "W4"]]})
    assert sorted(s.legal_moves()) == ["play R1", "play W"]
    assert s.num_moves() == 2
    s.apply("play r1")  # any case
    assert s.view(0)["zones"]["discard"][0] == "R1"
    assert s.view(0)["zones"]["hand"][0] == ["R1", "W"]


def test_cards_are_named_by_the_decks_notation_anywhere(tmp_path: Path) -> None:
    p = small(tmp_path)
    r = run_cli("score", str(p), "rd2", "W4", "--json")
    assert r.returncode == 0, output(r)
    assert '"value": 140' in r.stdout and '"RD2"' in r.stdout
    r = run_cli("score", str(p), "7H")
    assert r.returncode == 2 and "'7H' is not a card of this deck (write one like" in output(r)
    r = run_cli("score", str(p), "W4", "W4")
    assert r.returncode == 2 and "W4 is given 2 times but the deck holds 1" in output(r)


def test_attributes_are_typed_by_the_checker(tmp_path: Path) -> None:
    p = small(tmp_path, SMALL, ("do: move(c, discard)",
                                "do: move(c, discard); log(c.kind + 1); log(c.colour)"))
    r = run_cli("check", str(p))
    assert r.returncode == 1
    text = output(r)
    assert "'+' needs numbers, but this is str" in text
    assert "a card has no attribute 'colour' (did you mean 'color'?); it has rank, suit, " \
           "color, order, joker, name, kind, points" in text


@pytest.mark.parametrize("old,new,message", [
    ("unsuited: {W: 2, W4: 1}", "unsuited: {W: 2, W4: 1, R1: 1}",
     "two cards of the deck have one name"),
    ("ranks: [0, 1, 2, S, D2]", "ranks: [0, 1, 2, S, 'D-2']",
     "deck rank 'D-2' should be 1 to 6 letters, digits or '+'"),
    ("{values: {0: 0, 1: 1, 2: 2, S: 20, D2: 20, W: 50, W4: 50}}",
     "{values: {1: 1, 2: 2, S: 20, D2: 20, W: 50, W4: 50}}",
     "attribute 'points' gives no value for R0, Y0 (add them, or a default)"),
    ("kind: {values:", "name: {values:",
     "'name' is an attribute every card has already"),
    ("color: {by: suit, values: {R: red, Y: yellow}, default: none}",
     "color: {by: suit, values: {R: 1, Y: 2}, default: 0}",
     "attribute 'color' must be a word for every card"),
    ("kind: {values: {S: skip,", "kind: {values: {X: 3, S: skip,",
     "attribute 'kind': 'X' is no rank of the deck"),
    ("pts: {0: 0, 1: 1, 2: 2, S: 20, D2: 20, W: 50, W4: 50}",
     "pts: {0: 0, 1: 1, 2: 2, S: 20, D2: 20, W: 50}",
     "value table 'pts' has no value for W4"),
    ("rank_copies: {0: 1, default: 2}", "rank_copies: {0: 1, 7: 2}",
     "deck.rank_copies names '7', which is not a rank of the deck"),
    ("notation: suit_rank", "notation: backwards",
     "deck.notation must be one of"),
])
def test_a_bad_deck_is_a_located_check_error(tmp_path: Path, old: str, new: str,
                                             message: str) -> None:
    r = run_cli("check", str(small(tmp_path, SMALL, (old, new))))
    assert r.returncode == 1, output(r)
    assert message in output(r) and "small.yaml:" in output(r)
    assert "Traceback" not in output(r)


def test_the_french_deck_keeps_its_notation() -> None:
    g = rulelang.load(str(GAMES / "thirty-one.yaml"))
    assert g.deck.french and g.deck == Deck(g.deck.ranks, ("S", "H", "D", "C"), 0, 1)
    t = g.tables
    assert t.lookup("10h") == "TH" and t.lookup("a♠") == "AS" and t.lookup("R7") is None
    assert t.shown("TH") == ("10♥", "red") and t.shown("AS") == ("A♠", None)


def test_play_shows_a_decks_own_cards_by_name(tmp_path: Path) -> None:
    r = run_cli("play", str(GAMES / "uno.yaml"), "--players", "2", "--seed", "1",
                stdin="q\n")
    assert r.returncode == 0, output(r)
    hand = next(line for line in r.stdout.splitlines() if "hand you:" in line)
    assert not any(sym in hand for sym in "♠♥♦♣"), hand


def test_the_uno_deck_holds_108_cards() -> None:
    g = rulelang.load("uno")
    t = g.tables
    assert t.size == 108
    names = t.ids_by_name()
    assert len(names["R0"]) == 1 and len(names["G7"]) == 2 and len(names["BD2"]) == 2
    assert len(names["W"]) == 4 and len(names["W4"]) == 4
    assert sum(t.attrs["points"][0]) == 4 * (45 * 2 + 3 * 2 * 20) + 8 * 50
