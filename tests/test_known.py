"""Known cards (known.py): a card a seat saw go into a hidden zone stays there in that seat's
samples (``determinize(..., known=True)``) and in its view, until it moves, is dealt, or the
pack is gathered; untracked states and samples without ``known`` are as before."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import rulelang

GAMES = Path(__file__).resolve().parent.parent / "games"


@functools.cache
def _game() -> object:
    return rulelang.load(GAMES / "thirty-one.yaml")


def _taken() -> tuple[object, str, int]:
    """Two-player Thirty-One, seat 0 takes the face-up card and throws another: the card
    taken, and the zone id of seat 0's hand."""
    s = _game().new_state(2, seed=5, record=False, auto_continue=False)
    s.track_known()
    assert s.current_player() == 0
    top = s.view(1)["zones"]["discard"][0]
    s.apply("draw discard")
    s.apply(next(m for m in s.legal_moves() if m != f"discard {top}"))
    hand = next(z for z, o in enumerate(s.zowner) if o == 0)
    return s, top, hand


def test_a_card_taken_from_a_face_up_pile_stays_in_the_takers_hand_in_samples() -> None:
    s, top, hand = _taken()
    names = s.game.tables.name
    assert s.view(1)["known"] == {"hand[0]": [top]}
    rng = random.Random(3)
    for _ in range(5):
        assert top in [names[c] for c in s.determinize(1, rng, known=True).zones[hand]]
    # without asking, a sample deals every unseen card again (the card goes elsewhere)
    seen = [top in [names[c] for c in s.determinize(1, rng).zones[hand]] for _ in range(30)]
    assert not all(seen)


def test_known_cards_are_forgotten_when_dealt_again_and_not_kept_by_default() -> None:
    s, _top, _hand = _taken()
    s.apply("knock")
    while s.status == "play":
        s.apply(s.legal_moves()[0])
    assert s.status == "round_over"
    s.next_round()
    assert s.view(1)["known"] == {}
    assert "known" not in _game().new_state(2, seed=5).view(1)
