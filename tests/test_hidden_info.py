"""Hidden information: at every step of random games of every bundled game, no ``view(seat)``
shows a card that seat may not see — other players' hands, the stock, face-down cards.

Each view is compared card by card with the true state: a card is named exactly when
``State.visible`` says the seat sees it, and ``State.visible`` itself is checked against the
zones' declared visibility (an owner's zone of another seat, a hidden zone, the cards under the
top of a 'top' zone are never seen unless the card lies face up).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.cards import normalize

from .helpers import rules_files

GAMES = rules_files()
DECISIONS = 250


def expected_visible(state: Any, zd: Any, zid: int, pos: int, c: int, seat: int) -> bool:
    """What the zone's declaration says, independently of State.visible."""
    if state.face[c]:
        return True
    if zd.visibility == "public":
        return True
    if zd.visibility == "owner":
        return state.zowner[zid] == seat
    if zd.visibility == "top":
        return pos == 0
    return False


def check_view(state: Any, seat: int) -> None:
    g = state.game
    names = g.tables.name
    v = state.view(seat)
    assert v["seat"] == seat
    for zd in g.zones:
        shown = v["zones"][zd.name]
        if zd.groups:
            per = [zd.first_id + p for p in range(state.n)] if zd.per_player else [zd.first_id]
            lists = [[state.zones[z] for z in state.groups.get(cz, [])] for cz in per]
            got = shown if zd.per_player else [shown]
            for zl, gl in zip(lists, got):
                assert len(zl) == len(gl)
                for cards, view_cards in zip(zl, gl):
                    for c, text in zip(cards, view_cards):
                        assert text == (names[c] if state.visible(c, seat) else "?")
            continue
        ids = [zd.first_id + p for p in range(state.n)] if zd.per_player else [zd.first_id]
        got = shown if zd.per_player else [shown]
        for zid, view_cards in zip(ids, got):
            cards = state.zones[zid]
            assert len(view_cards) == len(cards), (zd.name, seat)
            for pos, (c, text) in enumerate(zip(cards, view_cards)):
                seen = state.visible(c, seat)
                assert seen == expected_visible(state, zd, zid, pos, c, seat), \
                    (zd.name, names[c], seat)
                if seen:
                    assert text == names[c], (zd.name, seat, text, names[c])
                else:
                    assert text == "?", (f"P{seat} sees {names[c]} in {zd.name} "
                                         f"(zone of P{state.zowner[zid]})")
    # legal moves are shown only to the seat to move, and name only cards it can see
    if "legal" in v:
        assert state.current_player() == seat
        for move in v["legal"]:
            for tok in move.replace("|", " ").split():
                card = normalize(tok)
                copies = [c for c in range(state.ncards) if names[c] == card]
                if copies:
                    assert any(state.visible(c, seat) for c in copies), (move, seat)
    else:
        assert state.current_player() != seat
    # the log of this round: the mover and the move as this seat saw it
    for who, text in v["events"]:
        assert isinstance(who, int) and isinstance(text, str)


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_views_hide_what_a_seat_may_not_see(path: Path) -> None:
    game = rulelang.load(str(path))
    for gi in range(2):
        players = game.default_players if gi == 0 else game.min_players
        state = game.new_state(players, seed=1000 + gi)
        rng = random.Random(gi)
        for _ in range(DECISIONS):
            if state.is_over():
                break
            for seat in range(state.n):
                check_view(state, seat)
            moves = state.legal_moves()
            state.apply(moves[rng.randrange(len(moves))])
        for seat in range(state.n):
            check_view(state, seat)


def test_a_face_up_card_in_a_hand_is_seen_by_all() -> None:
    game = rulelang.load("thirty-one")
    state = game.new_state(3, seed=5)
    hand = next(z for z in game.zones if z.name == "hand")
    c = state.zones[hand.first_id + 1][0]
    assert not state.visible(c, 0) and state.view(0)["zones"]["hand"][1][0] == "?"
    state.face[c] = True
    assert state.visible(c, 0)
    assert state.view(0)["zones"]["hand"][1][0] == game.tables.name[c]
