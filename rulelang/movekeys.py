"""The distinct legal moves of a state, found without building most move texts.

With several packs of cards, two legal entries can be the same move: discarding one queen of
spades or the other. ``State.legal_moves()`` keeps the first entry of each move text; bots that
only count moves (``num_moves``, ``apply_index``) need the same entries in the same order, so
each entry gets a key that is equal exactly when the canonical move texts are. Where every
card of an entry is one the mover can see, that key is made here from tables, as
``MoveTexts.render`` would write it (cards by name, several cards in canonical order, melds
separated by `` | ``, groups on the table by label); any other entry takes ``State.move_key``
(the text itself).
"""

from __future__ import annotations

from typing import Any

from .groups import Group
from .movetext import canon_move

# the argument types under which a list of numbers is rendered as cards (MoveTexts.render)
_CARD_LISTS = frozenset({"list[card]", "any", "list"})
# the argument types keyed here (others take State.move_key)
_KEYED_TYPES = frozenset({"card", "group", "list[list[card]]", *_CARD_LISTS})


def _cards_text(S: Any, xs: Any) -> str | None:
    """Several cards, all shown to the mover, by name in canonical order (else None)."""
    if type(xs) is not list or not xs:
        return None
    n = S.ncards
    for c in xs:  # numbers that are not card ids are not shown as cards (MoveTexts.render)
        if type(c) is not int or not 0 <= c < n or not S.visible(c, S.actor):
            return None
    names = S.game.tables.name
    return " ".join([names[c] for c in sorted(xs, key=S.game.tables.sort_keys.__getitem__)])


def _part(S: Any, v: Any, typ: str) -> str | None:
    """An argument that is not one card as canonical text, or None when a card in it is
    hidden from the mover (or it is a value rendered otherwise)."""
    if type(v) is Group:
        return canon_move(v.label())
    if type(v) is not list or not v:
        return None
    if type(v[0]) is list:  # melds, each a non-empty list of cards
        texts = [_cards_text(S, x) for x in v]
        return None if None in texts else " | ".join(texts)  # type: ignore[arg-type]
    return _cards_text(S, v) if typ in _CARD_LISTS else None


def distinct_entries(S: Any, entries: list) -> list:
    """The entries, the first of each move text kept, in order (see the module docstring)."""
    names = S.game.tables.name
    face, loc, zvis, zowner, zones = S.face, S.loc, S.zvis, S.zowner, S.zones
    actor = S.actor
    seen: set[str] = set()
    out = []
    last = None
    name = p = ""
    mode = _TEXT
    for e in entries:
        action, args = e
        if action is not last:
            last = action
            got = action.key_mode
            if got is None:
                got = action.key_mode = _mode(action)
            name, p, mode = got
        k = None
        if mode == _CARD:  # the commonest entry: one card (a discard, say)
            v = args[0]
            if type(v) is int:
                if face[v]:  # S.visible(v, actor), written out
                    k = p + names[v]
                else:
                    z = loc[v]
                    if z >= 0:
                        w = zvis[z]
                        if w == 2 or (w == 1 and zowner[z] == actor) or (
                                w == 3 and zones[z][0] == v):
                            k = p + names[v]
        elif mode == _NAME:
            k = name
        elif mode == _CARDS:
            parts = [name]
            for v in args:
                if type(v) is not int:
                    break
                if not face[v]:  # S.visible(v, actor), written out
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
        elif mode == _KEYED:
            parts = [name]
            for v, spec in zip(args, action.args):
                t = (names[v] if type(v) is int and S.visible(v, actor) else None) \
                    if spec[2] == "card" else _part(S, v, spec[2])
                if t is None:
                    break
                parts.append(t)
            else:
                k = " ".join(parts)
        if k is None:
            k = S.move_key(action, args)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return out


def drop_repeats(S: Any, entries: list) -> list:
    """With one pack, the entries of actions whose options may repeat a move (not
    ``ActionDef.distinct``: ``[bottom(hand[me], 3), top(hand[me], 3)]`` when the hand holds
    three cards) kept once per move text, so that counting moves (``num_moves``) agrees with
    ``legal_moves()``. With one pack a card id is a card, so cards are keyed by id: a list of
    cards by the set of its ids, as its text lists them in canonical order."""
    seen: set[Any] = set()
    out = []
    for e in entries:
        action, args = e
        if action.distinct:
            out.append(e)
            continue
        k = _id_key(S, action, args)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return out


def _id_key(S: Any, action: Any, args: tuple) -> Any:
    """A key of an entry equal exactly when the move texts are (one pack; see drop_repeats)."""
    n = S.ncards
    parts: list[Any] = [action.name]
    for v, spec in zip(args, action.args):
        typ = spec[2]
        if typ == "card" and type(v) is int and 0 <= v < n:
            parts.append(v)
        elif type(v) is Group:
            parts.append(("group", v.label()))
        elif type(v) is list and typ in _CARD_LISTS and all(
                type(c) is int and 0 <= c < n for c in v):
            parts.append(("cards", tuple(sorted(v))))
        else:
            return ("text", S.move_key(action, args))
    return tuple(parts)


_NAME, _CARD, _CARDS, _KEYED, _TEXT = range(5)


def _mode(action: Any) -> tuple[str, str, int]:
    """An action's canonical name (alone and followed by a space) and how its entries are
    keyed: _NAME (no arguments), _CARD (one card), _CARDS (cards), _KEYED (cards, groups and
    lists of cards), _TEXT (the move text: a number, a seat, a word)."""
    name = canon_move(action.name)
    types = [spec[2] for spec in action.args]
    mode = _NAME if not types else _CARD if types == ["card"] else \
        _CARDS if all(t == "card" for t in types) else \
        _KEYED if all(t in _KEYED_TYPES for t in types) else _TEXT
    return name, name + " ", mode
