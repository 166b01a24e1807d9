"""Views: what one seat may know of a state, and samples of what it cannot see.

``view(S, seat)`` is the seat's whole picture (its own cards, public zones, face-up cards,
counters, globals, whose turn it is, this round's moves as the seat saw them); unseen cards are
``?``. ``determinize(S, seat, rng)`` is a clone in which every card the seat cannot see is
shuffled among the places of the unseen cards: a bot that searches plays on such samples and
never reads the hidden cards. Both read the state only through the table's ``visible``.

Cards are ints, so a card held in a global or a counter is told from a number by the checker's
type of the slot (``game.card_kind``): a card slot shows card names, a slot that may hold
either shows an int that numbers a card the seat cannot see as ``?``, and a sample renames the
cards in both as it renames the cards in the zones. A sample depends only on what the seat
sees and the bot's generator: the unseen cards are dealt out in one fixed order, whatever
places they really hold, so that a bot chooses the same on any deal consistent with its view.
"""

from __future__ import annotations

import random
from typing import Any

from .dealing import shuffle
from .game import CARDS, FREE
from .groups import Group
from .known import constrained, nones_of, pinned
from .tricks import played_view, remap_played


def view(S: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` may see: its own cards, public zones and face-up cards, counters,
    globals, whose turn it is, and what the players did this round. Unseen cards are '?'."""
    g = S.game
    zones: dict[str, Any] = {}
    names = S.game.tables.name
    for zd in g.zones:
        if zd.groups:
            per = [zd.first_id + p for p in range(S.n)] if zd.per_player \
                else [zd.first_id]
            lists = [[[names[c] if S.visible(c, seat) else "?" for c in S.zones[z]]
                      for z in S.groups.get(cz, [])] for cz in per]
            zones[zd.name] = lists if zd.per_player else lists[0]
        elif zd.per_player:
            zones[zd.name] = [[S.game.tables.name[c] if S.visible(c, seat) else "?"
                               for c in S.zones[zd.first_id + p]] for p in range(S.n)]
        else:
            zones[zd.name] = [S.game.tables.name[c] if S.visible(c, seat) else "?"
                              for c in S.zones[zd.first_id]]
    events = [(who, texts[seat]) for who, texts in S.events]
    gkinds, ckinds = g.slot_kinds()
    out = {
        "seat": seat, "players": S.n, "round": S.round, "dealer": S.dealer,
        "turn": S.turn, "phase": S.phase, "to_move": S.current_player(),
        "direction": "clockwise" if S.direction == 1 else "anticlockwise",
        "status": S.status, "ended_by": S.ended_by, "zones": zones,
        "counters": {name: [_shown(S, x, ckinds[i], seat) for x in S.ctr[i]]
                     for i, (name, _) in enumerate(g.counters)},
        "globals": {name: _shown(S, S.g[i], gkinds[i], seat)
                    for i, (name, _) in enumerate(g.globals)},
        "active": list(S.active), "events": events, "winner": S.winner,
        # the cuts for the first dealer (cut()): cards shown to all, then put back
        "cuts": [[[p, names[c]] for p, c in cut] for cut in S.cuts],
    }
    if S.ztrick is not None:  # who played each card of a trick (public)
        out["played_by"] = played_view(S)
    if g.teams is not None:  # each seat's team
        out["teams"] = list(S.team)
    if S.known is not None:  # the hidden cards it saw go where they lie (known.py)
        known = {S.znames[z] + ("" if S.zowner[z] < 0 else f"[{S.zowner[z]}]"):
                 [names[c] for c in cs if not S.visible(c, seat)]
                 for z, cs in pinned(S, seat).items()}
        out["known"] = {z: cs for z, cs in known.items() if cs}
        # the zones made known to hold none of some cards (show_none), still true
        nones = nones_of(S, set(range(len(S.zones))))
        if nones:
            out["holds_none"] = {
                S.znames[z] + ("" if S.zowner[z] < 0 else f"[{S.zowner[z]}]"):
                [names[c] for c in range(S.ncards) if m >> c & 1] for z, m in nones.items()}
    choosing = S.choice_shown(seat)
    if choosing is not None:  # a sequential choice under way: its chooser's items so far
        out["choosing"] = choosing
    if S.current_player() == seat:
        out["legal"] = S.legal_moves()
    return out


def _shown(S: Any, v: Any, kind: str, seat: int) -> Any:
    """``v`` as ``seat`` may see it: in a slot of cards, a card by name or '?'; in a slot that
    may hold cards or numbers, an int that numbers a card the seat cannot see as '?' (it may be
    that card), any other as it is; lists item by item, a group on the table by its name (a
    record is a constant of the rules file: it holds no card)."""
    if kind == FREE or v is None or isinstance(v, (bool, float, str)):
        return v
    if type(v) is int:
        if not 0 <= v < S.ncards:
            return v
        if not S.visible(v, seat):
            return "?"
        return S.game.tables.name[v] if kind == CARDS else v
    if isinstance(v, Group):
        return v.label()
    if isinstance(v, (list, tuple)):
        return [_shown(S, x, kind, seat) for x in v]
    return v


def _renamed(v: Any, cards: list[int], dealt: list[int]) -> Any:
    """``v`` with every card of ``cards`` in it renamed to the card of ``dealt`` at its index
    (a card a slot holds is the one that lies in its place in the sample)."""
    if type(v) is int:
        return dealt[cards.index(v)] if v in cards else v
    if isinstance(v, Group):
        return Group([_renamed(c, cards, dealt) for c in v], v.zid, v.owner, v.number,
                     v.container)
    if isinstance(v, (list, tuple)):
        return [_renamed(x, cards, dealt) for x in v]
    return v


def determinize(S: Any, seat: int, rng: random.Random, known: bool = False) -> Any:
    """A clone in which every card ``seat`` cannot see is shuffled among the places of the
    unseen cards: a sample of what the hidden cards might be, never what they are. With
    ``known`` (and the state keeping it, known.py), a card the seat saw go into a hidden zone
    stays in that zone, at a place drawn among the zone's hidden places."""
    return Sampler(S, seat, known).sample(rng)


class Sampler:
    """``determinize(S, seat, rng, known)`` for as many samples of one position as a search
    asks (``S`` unchanged meanwhile): where the unseen cards lie, and the zones of the known
    ones, are found once; each sample then deals them, with the same draws."""

    __slots__ = ("S", "seat", "places", "cards", "pins", "free", "nones")

    def __init__(self, S: Any, seat: int, known: bool = False) -> None:
        self.S, self.seat = S, seat
        places: list[tuple[int, int]] = []
        cards: list[int] = []
        face, zvis, zowner = S.face, S.zvis, S.zowner
        for z, cs in enumerate(S.zones):
            # what ``visible`` says, zone by zone: public zones and the seat's own are seen
            v = zvis[z] if cs else 2
            if v == 2 or (v == 1 and zowner[z] == seat):
                continue
            for i, c in enumerate(cs):
                if not face[c] and not (v == 3 and i == 0) and not (
                        v == 4 and S.placer[c] == seat):
                    places.append((z, i))
                    cards.append(c)
        self.places, self.cards = places, cards
        # dealt from one fixed order (the real places of the cards must not show through the
        # sample), as rng.shuffle would; with the known cards: each zone's known cards (in
        # order) at places drawn among its hidden ones (a zone with none left draws too), the
        # other cards into the places left
        self.pins: list[tuple[list[int], list[int]]] | None = None
        if known and S.known is not None and cards:
            hidden = set(cards)
            pins = {z: [c for c in cs if c in hidden] for z, cs in pinned(S, seat).items()}
            pinned_cards = {c for cs in pins.values() for c in cs}
            self.pins = [([j for j, (pz, _i) in enumerate(places) if pz == z], pins[z])
                         for z in sorted(pins)]
            self.free = sorted(c for c in cards if c not in pinned_cards)
        else:
            self.free = sorted(cards)
        # the zones known to hold none of some cards: their places, the zone allowing fewest
        # of the cards dealt first (known.constrained)
        self.nones: list[tuple[list[int], int]] = []
        if self.pins is not None and S.nones:
            for z, accepts in nones_of(S, {z for z, _i in places}).items():
                js = [j for j, (pz, _i) in enumerate(places) if pz == z]
                self.nones.append((js, accepts))
            free = self.free
            self.nones.sort(key=lambda n: sum(1 for c in free if not n[1] >> c & 1) - len(n[0]))

    def sample(self, rng: random.Random) -> Any:
        """One sample (``determinize``), drawn with ``rng``."""
        S, seat = self.S, self.seat
        s = S.clone(share_rng=True)
        s.known = s.watch = None  # a sample is played out, not watched
        s.record = False
        # the moves as others saw them name cards this seat did not see; rules never read them
        s.history, s.events = [], []
        s.triggers_clean = False  # hidden cards change places: the next step checks every trigger
        places, cards = self.places, self.cards
        if self.pins is not None:
            dealt: list[Any] = [None] * len(places)
            for js, cs in self.pins:
                js = js.copy()
                shuffle(js, rng.getrandbits)
                for j, c in zip(js, cs):
                    dealt[j] = c
            free = self.free.copy()
            shuffle(free, rng.getrandbits)
            if self.nones:
                constrained(dealt, free, self.nones)
            else:
                it = iter(free)
                dealt = [next(it) if d is None else d for d in dealt]
        else:
            dealt = self.free.copy()
            shuffle(dealt, rng.getrandbits)
        placer = S.placer
        for (z, i), c, was in zip(places, dealt, cards):
            s.zones[z][i] = c
            s.loc[c] = z
            s.face[c] = False
            if placer is not None:  # who put a card in its place put the sampled card there
                s.placer[c] = placer[was]
        renamed_slots(s, cards, dealt)
        if s.choice is not None:  # another seat's choice under way: of the sampled cards
            s.choice_resampled(seat, lambda v: _renamed(v, cards, dealt))
        # the sample's own generator, seeded now from the bot's and made when first needed
        s.reseed(rng.random())
        s.forget_legal()
        return s


def renamed_slots(s: Any, cards: list[int], dealt: list[int]) -> None:
    """The cards ``s`` holds outside its zones renamed after ``cards[i]``'s place came to hold
    ``dealt[i]``: who played each card of a trick, and a card held in a global or a counter is
    the card that now lies in its place (the globals and counter rows are the state's own
    lists, a clone's too; what the round's changes start from is not)."""
    if s.ztrick is not None:
        remap_played(s, cards, dealt)
    gkinds, ckinds = s.game.slot_kinds()
    for i, k in enumerate(gkinds):
        if k != FREE and s.g[i] is not None:
            s.g[i] = _renamed(s.g[i], cards, dealt)
    if ckinds and any(k != FREE for k in ckinds):
        s.ctr = [row if k == FREE else _renamed(row, cards, dealt)
                 for row, k in zip(s.ctr, ckinds)]
        s._ctr0 = [row if k == FREE else _renamed(row, cards, dealt)
                   for row, k in zip(s._ctr0, ckinds)]
