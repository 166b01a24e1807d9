"""The distinct legal moves of a state, found without building most move texts.

With several packs of cards, two legal entries can be the same move: discarding one queen of
spades or the other. ``State.legal_moves()`` keeps the first entry of each move text; bots that
only count moves (``num_moves``, ``apply_index``) need the same entries in the same order, so
each entry gets a key that is equal exactly when the canonical move texts are. For an entry
whose arguments are all cards the mover can see, the text is the action's canonical name and
the cards' names: that key is made here from tables, with no call per entry; any other entry
takes ``State.move_key`` (the text itself).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def distinct_entries(S: Any, entries: list, canon_move: Callable[[str], str]) -> list:
    """The entries, the first of each move text kept, in order (see the module docstring);
    ``canon_move`` is the engine's canonical form of a move text."""
    names = S.game.tables.name
    face, loc, zvis, zowner, zones = S.face, S.loc, S.zvis, S.zowner, S.zones
    actor = S.actor
    # per action: its canonical name, or None when an argument is not a card
    prefix: dict[int, str | None] = {}
    seen: set[str] = set()
    out = []
    for e in entries:
        action, args = e
        p = prefix.get(id(action), "")
        if p == "":
            p = prefix[id(action)] = canon_move(action.name) if all(
                spec[2] == "card" for spec in action.args) else None
        k: str | None = None
        if p is not None:
            parts = [p]
            for v in args:
                # State.visible, written out: a card face up, in a public zone, in the
                # mover's own zone, or on top of a top-visible zone
                if type(v) is not int:
                    break
                if not face[v]:
                    z = loc[v]
                    if z < 0:
                        break
                    w = zvis[z]
                    if not (w == 2 or (w == 1 and zowner[z] == actor)
                            or (w == 3 and zones[z][0] == v)):
                        break
                parts.append(names[v])
            else:
                k = " ".join(parts)
        if k is None:
            k = S.move_key(action, args)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return out
