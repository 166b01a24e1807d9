"""Which hidden cards a seat knows the place of: a card it saw go into a place it cannot see.

A card taken from a face-up pile into another seat's hand is known to lie in that hand until
it moves again; a card discarded face up and then covered is known to lie in the pile. The
engine keeps this only when a bot asks for it (``State.track_known``, from then on): each card
moved by ``move()`` is noted with its new zone and the seats that saw it, before or after the
move (``known[c] = (zone, seats as bits)``). A deal, a shuffle of the card's zone and a gather
forget it; a card found in another zone than the one noted (moved by a way that notes nothing,
such as a meld) is not known. ``views.determinize`` then keeps each known card in its zone
(at a place drawn at random among the zone's hidden ones: the order is not known) and deals
only the others. Off by default: the random players' loop pays one test a move.
"""

from __future__ import annotations

from typing import Any


def seen_by(S: Any, c: int) -> int:
    """The seats that see card ``c`` where it lies now, as bits."""
    mask = 0
    visible = S.visible
    for v in range(S.n):
        if visible(c, v):
            mask |= 1 << v
    return mask


def noted(S: Any, c: int, zid: int, before: int) -> Any:
    """What ``known`` holds for card ``c`` just moved into zone ``zid``, seen before the move
    by the seats ``before``: None when no seat saw it."""
    mask = before | seen_by(S, c)
    return (zid, mask) if mask else None


def forget(S: Any, cards: Any) -> None:
    """The cards dealt or shuffled: where they lie is nobody's knowledge any more."""
    known = S.known
    for c in cards:
        known[c] = None


def pinned(S: Any, seat: int) -> dict[int, list[int]]:
    """Zone -> the cards ``seat`` knows lie hidden there (every one of them in that zone now)."""
    out: dict[int, list[int]] = {}
    bit = 1 << seat
    loc = S.loc
    for c, k in enumerate(S.known):
        if k is not None and k[1] & bit and loc[c] == k[0]:
            out.setdefault(k[0], []).append(c)
    return out


class Watch:
    """The moves of the round under way, each as ``(state before it, action, args)``, kept
    for a bot that infers the others' hands from their choices (``State.watch``; infer.py
    reads from the states only what a seat sees). Only the moves of the state that asked are
    kept: a clone shares the object, not the identity."""

    __slots__ = ("moves", "state")

    def __init__(self, S: Any) -> None:
        self.state = S
        self.moves: list[tuple[Any, Any, tuple]] = []


def watched(S: Any, action: Any, args: tuple) -> None:
    """Note the move about to be played on ``S`` (``State._apply_entry``): a clone of the state
    before it (no longer watched) with the move; a new round forgets the last one's."""
    w = S.watch
    if w.state is not S:
        return
    moves = w.moves
    if moves and moves[0][0].round != S.round:
        moves.clear()
    before = S.clone()
    before.watch = None
    moves.append((before, action, args))
