"""Views: what one seat may know of a state, and samples of what it cannot see.

``view(S, seat)`` is the seat's whole picture (its own cards, public zones, face-up cards,
counters, globals, whose turn it is, this round's moves as the seat saw them); unseen cards are
``?``. ``determinize(S, seat, rng)`` is a clone in which every card the seat cannot see is
shuffled among the places of the unseen cards: a bot that searches plays on such samples and
never reads the hidden cards. Both read the state only through the table's ``visible``.
"""

from __future__ import annotations

import random
from typing import Any

from .table import shuffle


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
    out = {
        "seat": seat, "players": S.n, "round": S.round, "dealer": S.dealer,
        "turn": S.turn, "phase": S.phase, "to_move": S.current_player(),
        "status": S.status, "ended_by": S.ended_by, "zones": zones,
        "counters": {name: list(S.ctr[i]) for i, (name, _) in enumerate(g.counters)},
        "globals": {name: public_value(S, S.g[i], g.global_types.get(name, "any"), seat)
                    for i, (name, _) in enumerate(g.globals)},
        "active": list(S.active), "events": events, "winner": S.winner,
    }
    if S.current_player() == seat:
        out["legal"] = S.legal_moves()
    return out


def public_value(S: Any, v: Any, typ: str, seat: int) -> Any:
    """A global as ``seat`` may see it: cards by name only when the seat can see them."""
    if v is None or isinstance(v, bool):
        return v
    names = S.game.tables.name
    if typ == "card" and isinstance(v, int):
        return names[v] if S.visible(v, seat) else "?"
    if isinstance(v, list) and typ.startswith("list[card"):
        return [names[c] if S.visible(c, seat) else "?" for c in v]
    if isinstance(v, (int, float, str)):
        return v
    return S.render(v, typ, seat)


def determinize(S: Any, seat: int, rng: random.Random) -> Any:
    """A clone in which every card ``seat`` cannot see is shuffled among the places of the
    unseen cards: a sample of what the hidden cards might be, never what they are."""
    s = S.clone(share_rng=True)
    s.record = False
    s.triggers_clean = False  # hidden cards change places: the next step checks every trigger
    places: list[tuple[int, int]] = []
    cards: list[int] = []
    face, zvis, zowner = S.face, S.zvis, S.zowner
    for z, cs in enumerate(s.zones):
        # what ``visible`` says, zone by zone: public zones and the seat's own are seen
        v = zvis[z] if cs else 2
        if v == 2 or (v == 1 and zowner[z] == seat):
            continue
        for i, c in enumerate(cs):
            if not face[c] and not (v == 3 and i == 0):
                places.append((z, i))
                cards.append(c)
    shuffle(cards, rng.getrandbits)  # as rng.shuffle(cards) would
    for (z, i), c in zip(places, cards):
        s.zones[z][i] = c
        s.loc[c] = z
        s.face[c] = False
    # the sample's own generator, seeded now from the bot's and made when first needed
    s.reseed(rng.random())
    s.forget_legal()
    return s
