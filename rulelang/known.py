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

The rules may also make public that a zone holds *no* card of some kind (``show_none(zone,
f)``: the seat asked for a rank has none; a player who does not follow suit has none of the
suit led). The state keeps each such fact, while it tracks, as ``(zone, the cards f accepts
as bits)`` (``S.nones``). Cards leaving the zone keep it true; it is dropped once any card
enters the zone (a move into it, a deal, a gather), whichever card it is: what every seat
saw happen decides, never which card it was. ``views.determinize`` then deals the zone's
hidden places only cards the fact allows (``constrained``).
"""

from __future__ import annotations

from typing import Any

from .errors import RuntimeRulesError
from .runtime import WORK


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


def note_none(S: Any, zid: int, f: Any) -> None:
    """Keep ``show_none(zone, f)``'s fact (``S.nones``): ``f`` asked of every card of the game,
    its work not charged (a game tracking what it knows must play as one that does not)."""
    w = WORK[0]
    WORK[0] = max(w, 1 << 20)
    try:
        accepts = 0
        for c in range(S.ncards):
            if f(c):
                accepts |= 1 << c
    finally:
        WORK[0] = w
    if not accepts:
        return  # nothing said (the rules' condition was inside the function)
    for c in S.zones[zid]:
        if accepts >> c & 1:
            raise RuntimeRulesError(f"show_none(): '{S.znames[zid]}' holds "
                                    f"{S.game.tables.name[c]}, which the function accepts")
    old = next((a for z, a in S.nones if z == zid), 0)
    S.nones = (*entered(S.nones, zid), (zid, old | accepts))


def entered(nones: tuple, zid: int) -> tuple:
    """The facts left once a card has entered zone ``zid`` (its own are no longer known)."""
    return tuple(x for x in nones if x[0] != zid)


def nones_of(S: Any, zones: set[int]) -> dict[int, int]:
    """Zone -> the cards it is known to hold none of, for the zones given."""
    return {z: a for z, a in S.nones if z in zones}


def constrained(dealt: list[Any], free: list[int], nones: list[tuple[list[int], int]]) -> None:
    """Fill the open places of ``dealt`` from ``free`` (already shuffled) keeping to the facts
    ``nones`` (each: the indices of a zone's places, the cards the zone holds none of), the
    zones with the fewest cards allowed first: each takes the first cards of ``free`` it
    allows, the other places the rest in order. A zone with one fact is dealt uniformly among
    the deals that keep to it; with several, near enough. A fact the cards left cannot keep
    (a rules file that said more than was true) is not kept."""
    pool = free
    for js, accepts in nones:
        open_ = [j for j in js if dealt[j] is None]
        allowed = [c for c in pool if not accepts >> c & 1]
        if len(allowed) < len(open_):
            continue
        taken = allowed[:len(open_)]
        for j, c in zip(open_, taken):
            dealt[j] = c
        gone = set(taken)
        pool = [c for c in pool if c not in gone]
    it = iter(pool)
    for j, d in enumerate(dealt):
        if d is None:
            dealt[j] = next(it)
