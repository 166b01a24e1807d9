"""Tricks: a zone that remembers who played each card (``trick: true``, ``played_by``), and
the winner of a trick (``winning_card``, ``trick_winner``) with trumps, the suit led, a
card's own suit and strength given as functions of the rules file."""

from __future__ import annotations

import io
import random
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import rulelang
from rulelang.errors import RulesError
from rulelang.play import play_game

from .test_cli_robust import feed

GAME = """
name: Tricks
players: {min: 2, max: 4, default: 3}
deck: {ranks: [9, T, J, Q, K, A], suits: [S, H, D, C]}
zones:
  stock: {home: true}
  hand: {per_player: true}
  trick: {visibility: VIS, trick: true}
  won: {per_player: true, visibility: public}
globals: {w: none}
functions:
  # a jack of the trump's colour counts as trump and ranks highest but the trump jack
  own_suit(c): "if c.rank == 'J' and c.color == 'red' then 'H' else c.suit"
  strength(c): >-
    if c.name == 'JH' then 20 else if c.name == 'JD' then 19 else c.order
  best(cards): "winning_card(cards, trump: 'H', suit: own_suit, key: strength)"
  plain(cards): winning_card(cards)
  led(cards, s): "winning_card(cards, lead: s)"
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 2)"]
  settle: {done: pass}
turn:
  end: >-
    if size(trick) == num_players { w = trick_winner(trick, trump: 'H');
      move(trick, won[w]); if size(hand[w]) == 0 { end_round('done') } }
  next: "if size(trick) == 0 and w != none then w else next_seat(turn)"
phases:
  play:
    actions:
      play: {args: {c: "hand[me]"}, do: "move(c, trick)"}
"""


def load(tmp_path: Path, text: str = GAME, vis: str = "public") -> Any:
    p = tmp_path / "t.yaml"
    p.write_text(text.replace("VIS", vis), encoding="utf-8")
    return rulelang.load(str(p))


def ids(game: Any, *names: str) -> list[int]:
    by = game.tables.ids_by_name()
    return [by[n][0] for n in names]


def test_the_zone_remembers_who_played_each_card(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(3, deal={"hand": [["AS", "9H"], ["KS", "TD"], ["QS", "9C"]]})
    s.apply("play KS")  # P1 leads (the dealer is P0)
    s.apply("play QS")
    a, k, q = ids(game, "AS", "KS", "QS")
    assert (s.fx_played_by(k), s.fx_played_by(q), s.fx_played_by(a)) == (1, 2, None)
    assert s.view(0)["played_by"] == {"trick": [2, 1]}
    s.apply("play AS")  # the trick is full: no heart, so the highest spade (P0's) wins
    assert s.zones[game.zones[3].first_id] == [k, q, a] and s.fx_played_by(a) is None
    assert s.turn == 0 and s.view(0)["played_by"] == {"trick": []}


def test_the_winner_trumps_then_follows_the_suit_led(tmp_path: Path) -> None:
    game = load(tmp_path)
    s = game.new_state(3, seed=1)
    plain, best = game.functions["plain"].fn, game.functions["best"].fn
    name = game.tables.name

    def win(f: Any, *cards: str) -> str:  # cards top first: the last was led
        return name[f(s, ids(game, *cards))]

    assert win(plain, "AD", "KS", "QS") == "KS"  # the suit led (QS, the bottom card) wins
    assert win(plain, "9S", "AH", "TS") == "TS"  # no trumps: an ace of another suit loses
    assert win(best, "9H", "AS", "TS") == "9H"  # the lowest trump beats the suit led
    assert win(best, "JD", "AH", "TS") == "JD"  # a red jack counts as trump, high
    assert win(best, "JD", "JH", "TS") == "JH"  # the trump jack above it
    assert win(best, "JD", "AD", "KD") == "JD"  # JD is no diamond: it trumps the diamonds
    led = game.functions["led"].fn
    assert name[led(s, ids(game, "AD", "KS", "QS"), "D")] == "AD"  # lead: names the suit
    assert led(s, ids(game, "AD", "KS"), "C") is None  # nobody followed, no trump
    assert plain(s, []) is None


def test_equal_cards_go_to_the_one_played_first(tmp_path: Path) -> None:
    game = load(tmp_path, GAME.replace("suits: [S, H, D, C]}", "suits: [S, H, D, C], "
                                       "copies: 2}"))
    s = game.new_state(3, seed=1)
    by = game.tables.ids_by_name()
    first, second = by["AS"][0], by["AS"][1]
    low = by["9S"][0]
    # top first: second was played last, first before it
    assert game.functions["plain"].fn(s, [second, first, low]) == first


def test_a_played_card_keeps_its_seat_in_sampled_worlds(tmp_path: Path) -> None:
    game = load(tmp_path, vis="hidden")  # a trick played face down: the cards are unseen
    s = game.new_state(3, deal={"hand": [["AS", "9H"], ["KS", "TD"], ["QS", "9C"]]})
    s.apply("play KS")
    s.apply("play QS")
    d = s.determinize(0, random.Random(3))
    tz = game.zones[2].first_id
    assert [d.fx_played_by(c) for c in d.zones[tz]] == [2, 1]
    assert [s.fx_played_by(c) for c in s.zones[tz]] == [2, 1]


def test_play_shows_who_played_each_card(tmp_path: Path) -> None:
    game = load(tmp_path)
    buf = io.StringIO()
    con = Console(file=buf, width=120, color_system=None, highlight=False)
    assert play_game(game, 3, 0, ["random"] * 3, 4, input_fn=feed(["1", "1"]), console=con) == 0
    out = buf.getvalue()
    assert "trick: P1 " in out  # the first card played, with who played it


@pytest.mark.parametrize("old,new,message", [
    ("trick: {visibility: VIS, trick: true}", "trick: {groups: true, trick: true}",
     "a zone of groups cannot be a trick zone"),
    ("suit: own_suit,", "suit: 3,", "expected a function"),
    ("plain(cards): winning_card(cards)", "plain(cards): \"winning_card(cards, trumps: 'S')\"",
     "has no argument named 'trumps'"),
    ("trick: {visibility: VIS, trick: true}", "trick: {visibility: VIS, trick: yes please}",
     "trick"),
])
def test_misuse_is_a_located_check_error(tmp_path: Path, old: str, new: str,
                                         message: str) -> None:
    assert old in GAME
    with pytest.raises(RulesError) as e:
        load(tmp_path, GAME.replace(old, new))
    text = e.value.render()
    assert message in text and "t.yaml:" in text and "^" in text


def test_played_by_of_no_card_is_a_located_error(tmp_path: Path) -> None:
    game = load(tmp_path, GAME.replace("globals: {w: none}", "globals: {w: none, x: 0}")
                .replace("do: \"move(c, trick)\"", "do: \"move(c, trick); x = played_by(99)\""))
    s = game.new_state(3, seed=2)
    with pytest.raises(RulesError, match="played_by\\(\\): 99 is not a card"):
        s.apply(s.legal_moves()[0])
