"""Every move told as the human seat may see it (``narrate``, used by ``play``): the move's
text and the cards it moved, where a card is named only if the seat's view showed it before
the move or shows it after; the others are counted ("a card from stock to P1's hand")."""

from __future__ import annotations

import random
import re

import pytest

import rulelang
from rulelang import narrate

# hidden hands, a stock, a face-up pile, melds, tricks, a house, questions, gathered tricks
GAMES = ["thirty-one", "ten-pennies", "hearts", "go-fish", "blackjack", "president",
         "thirty-one-switch"]


def _seen(state: object, seat: int) -> set[str]:
    """The cards the seat's view shows anywhere, by the names play prints."""
    v = state.view(seat)  # type: ignore[attr-defined]
    names: set[str] = set()

    def walk(x: object) -> None:
        if isinstance(x, list):
            for y in x:
                walk(y)
        elif isinstance(x, str) and x != "?":
            names.add(x)
    walk(list(v["zones"].values()))
    t = state.game.tables  # type: ignore[attr-defined]
    return names | {t.shown(c)[0] for c in names if c in t.ids_by_name()}


@pytest.mark.parametrize("name", GAMES)
def test_no_hidden_card_is_named(name: str) -> None:
    g = rulelang.load(name)
    n = g.min_players if g.min_players > 1 else 2
    s = g.new_state(max(n, 3) if g.max_players >= 3 else n, seed=5, auto_continue=False)
    rng = random.Random(1)
    t = g.tables
    every = {t.shown(c)[0] for c in t.ids_by_name()} | set(t.ids_by_name())
    token = re.compile(r"[^\s;,'—|]+")
    told = moved = 0
    for _ in range(120):
        if s.status == "game_over":
            break
        if s.status == "round_over":
            s.next_round()
            continue
        mover = s.current_player()
        seat = (mover + 1) % s.n
        before, seen = narrate.snapshot(s, seat), _seen(s, seat)
        s.apply(rng.choice(s.legal_moves()))
        seen |= _seen(s, seat)
        # and the cards the engine's own record of the moves names for the seat (a card
        # played face up and gathered face down in the same step)
        seen |= {w for _p, texts in s.events[before[2]:] for w in texts[seat].split()}
        seen |= {t.shown(c)[0] for c in seen if c in t.ids_by_name()}
        for line in narrate.describe(s, seat, before, mover):
            told += 1
            moved += " from " in line
            named = {w for w in token.findall(line) if w in every}
            assert named <= seen, (line, named - seen)
    assert told and moved


def test_a_draw_unseen_and_a_draw_seen() -> None:
    g = rulelang.load("thirty-one")
    s = g.new_state(2, seed=3, auto_continue=False)
    while "draw stock" not in s.legal_moves() or s.current_player() != 1:
        s.apply(s.legal_moves()[0])
    a = s.clone()
    before = narrate.snapshot(a, 0)
    a.apply("draw stock")
    assert narrate.describe(a, 0, before, 1) == ["P1: draw stock — a card from stock to P1's hand"]
    up = s.view(0)["zones"]["discard"][0]
    before = narrate.snapshot(s, 0)
    s.apply("draw discard")
    shown = g.tables.shown(up)[0]
    assert narrate.describe(s, 0, before, 1) == [
        f"P1: draw discard — {shown} from discard to P1's hand"]
