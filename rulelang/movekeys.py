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

import re
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
    kinds: tuple[int, ...] = ()
    known: dict[tuple, Any] = {}
    texts: tuple[str, ...] = ()
    shown = -1  # a zone whose cards the mover sees (the last one looked at)
    card = None  # the action of the entries looked at, where each is one card (_CARD)
    for e in entries:
        action, args = e
        if action is card:  # the commonest entry (a discard), from the zone before: as below
            v = args[0]
            if type(v) is int and loc[v] == shown:
                k = texts[v]
                if k not in seen:
                    seen.add(k)
                    out.append(e)
                continue
        if action is not last:
            last = action
            got = action.key_mode
            if got is None:
                got = action.key_mode = _mode(action)
            name, p, mode = got
            card = None
            if mode == _CARD:
                texts = _card_texts(action, p, names)
                card = action
            elif mode == _PLAIN_MODE:  # its types are all in _KIND: never None
                kinds = _kinds(action)  # type: ignore[assignment]
                known = _known(action, S.ncards, _KNOWN_TEXT)
        k = None
        if mode == _CARD:  # the commonest entry: one card (a discard, say)
            v = args[0]
            if type(v) is int:
                if face[v]:  # S.visible(v, actor), written out
                    k = texts[v]
                else:
                    z = loc[v]
                    if z < 0:  # in no zone: not seen (k stays None)
                        pass
                    elif z == shown:  # cards listed from one zone (a hand), one by one
                        k = texts[v]
                    else:
                        w = zvis[z]
                        if w == 2 or (w == 1 and zowner[z] == actor):
                            k = texts[v]
                            shown = z
                        elif w == 3 and zones[z][0] == v:
                            k = texts[v]
            if k is not None:  # (the end of the loop, written out)
                if k not in seen:
                    seen.add(k)
                    out.append(e)
                continue
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
        elif mode == _PLAIN_MODE:  # seats, numbers and words: their canonical words
            # (of whole numbers and texts, exactly, the key made before: see drop_repeats)
            plain = _INT_STR.issuperset(map(type, args))
            if plain:
                k = known.get(args)
                if k is not None:
                    if k not in seen:
                        seen.add(k)
                        out.append(e)
                    continue
            parts = [name]
            for v, kind in zip(args, kinds):
                if type(v) is int and kind != _WORD:
                    w = (_SEAT_WORDS if kind == _SEAT_K else _NUM_WORDS).get(v)
                    if w is None:
                        w = _int_word(v, kind == _SEAT_K)
                elif type(v) is str and kind == _WORD:
                    w = _WORDS.get(v)
                    if w is None:
                        w = _word(v)
                    if not w:
                        break
                else:
                    break
                parts.append(w)
            else:
                k = " ".join(parts)
                if plain:
                    if len(known) > 4096:  # a game with very many different arguments
                        known.clear()
                    known[args] = k
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


def _card_texts(action: Any, p: str, names: tuple) -> tuple[str, ...]:
    """The keys of an action's one-card entries by card id (its canonical name, a space and
    the card's name), made once per action and deck."""
    got = _TEXTS.get(id(action))
    if got is None or got[0] is not action or got[1] is not names:
        if len(_TEXTS) > 10_000:  # games loaded one after another (a fuzzer)
            _TEXTS.clear()
        got = _TEXTS[id(action)] = (action, names, tuple(p + t for t in names))
    return got[2]


_TEXTS: dict[int, tuple[Any, tuple, tuple[str, ...]]] = {}


def drop_repeats(S: Any, entries: list) -> list:
    """With one pack, the entries of actions whose options may repeat a move (not
    ``ActionDef.distinct``: ``[bottom(hand[me], 3), top(hand[me], 3)]`` when the hand holds
    three cards) kept once per move text, so that counting moves (``num_moves``) agrees with
    ``legal_moves()``. With one pack a card id is a card, so cards are keyed by id: a list of
    cards by the set of its ids, as its text lists them in canonical order."""
    seen: set[Any] = set()
    out = []
    n = S.ncards
    last = None
    kinds = None
    known: dict[tuple, tuple] | None = None
    for e in entries:
        action, args = e
        if action.distinct:
            out.append(e)
            continue
        if action is not last:
            last = action
            kinds = _kinds(action)
            known = _known(action, n) if kinds is not None and _LIST not in kinds else None
        # arguments that are whole numbers and texts (exactly: 1.0 and True are equal to 1 as
        # keys of a dict, not as moves): the key made before
        if known is not None and _INT_STR.issuperset(map(type, args)):
            k = known.get(args)
            if k is not None:
                if k not in seen:
                    seen.add(k)
                    out.append(e)
                continue
        k = None
        if kinds is not None:  # cards, seats, numbers, words and lists of cards, written out
            key: list[Any] = [action.name]
            for v, kind in zip(args, kinds):
                t = type(v)
                if t is int:
                    if not 0 <= v < n or kind > _NUMBER:
                        break
                    key.append(v)
                elif t is str:
                    w = _WORDS.get(v)
                    if w is None:
                        w = _word(v)
                    if not w or kind != _WORD:
                        break
                    key.append(w)
                elif t is list and kind == _LIST:
                    for c in v:
                        if type(c) is not int or not 0 <= c < n:
                            break
                    else:
                        key.append(("cards", tuple(sorted(v))))
                        continue
                    break
                else:
                    break
            else:
                k = tuple(key)
                if known is not None:
                    if len(known) > 4096:  # a game with very many different arguments
                        known.clear()
                    known[args] = k
        if k is None:
            k = _id_key(S, action, args)
        if k not in seen:
            seen.add(k)
            out.append(e)
    return out


# argument types rendered as the value itself (``str(v)``, never as a card or a seat): a value
# that is one word is keyed by that word in canonical form, as its text would be compared
_PLAIN = frozenset({"int", "num", "str"})
_NUMBERS = frozenset({"seat", "int", "num"})
_SPACED = re.compile(r"\s").search

# per action (by id, the action kept so that an id reused is told apart)
_KINDS: dict[int, tuple[Any, tuple[int, ...] | None]] = {}


_CARD_K, _SEAT_K, _NUMBER, _WORD, _LIST = range(5)  # an int is keyed by itself up to _NUMBER
_KIND = {"card": _CARD_K, "seat": _SEAT_K, "int": _NUMBER, "num": _NUMBER, "str": _WORD,
         "list[card]": _LIST}


def _kinds(action: Any) -> tuple[int, ...] | None:
    """How each argument of ``action`` is keyed (see ``_id_key``), or None when one is not
    a card, a seat, a whole number, a word or a list of cards: with one pack, two entries
    have the same text exactly when they have the same key (a card's name, P<n>, a number's
    digits, a word as ``canon_move`` compares it, cards in canonical order)."""
    got = _KINDS.get(id(action))
    if got is None or got[0] is not action:
        if len(_KINDS) > 10_000:  # games loaded one after another (a fuzzer)
            _KINDS.clear()
        kinds = [_KIND.get(spec[2]) for spec in action.args]
        got = _KINDS[id(action)] = (action, None if None in kinds else tuple(kinds))
    return got[1]


# per action (by id, the action kept) and pack size: the keys of the argument tuples seen so
# far, for actions whose arguments are all cards, seats, numbers and words (hashable, and keyed
# from the values alone: the same arguments always have the same key)
_KNOWN: dict[int, tuple[Any, int, dict[tuple, tuple]]] = {}
_INT_STR = frozenset({int, str})


# the same for distinct_entries' texts of seats, numbers and words (several packs)
_KNOWN_TEXT: dict[int, tuple[Any, int, dict[tuple, Any]]] = {}


def _known(action: Any, n: int, table: dict = _KNOWN) -> dict[tuple, Any]:
    got = table.get(id(action))
    if got is None or got[0] is not action or got[1] != n:
        if len(table) > 10_000:  # games loaded one after another (a fuzzer)
            table.clear()
        got = table[id(action)] = (action, n, {})
    return got[2]


# a word's canonical form ("" for a text that is not one word)
_WORDS: dict[str, str] = {}


def _word(v: str) -> str:
    w = canon_move(v) if v and not _SPACED(v) else ""
    if len(_WORDS) > 100_000:
        _WORDS.clear()
    _WORDS[v] = w
    return w


# a seat's (P<n>) and a whole number's canonical word
_SEAT_WORDS: dict[int, str] = {}
_NUM_WORDS: dict[int, str] = {}


def _int_word(v: int, seat: bool) -> str:
    words = _SEAT_WORDS if seat else _NUM_WORDS
    if len(words) > 100_000:
        words.clear()
    w = words[v] = canon_move(f"P{v}" if seat else str(v))
    return w


def _id_key(S: Any, action: Any, args: tuple) -> Any:
    """A key of an entry equal exactly when the move texts are (one pack; see drop_repeats)."""
    n = S.ncards
    parts: list[Any] = [action.name]
    for v, spec in zip(args, action.args):
        typ = spec[2]
        if typ == "card" and type(v) is int and 0 <= v < n:
            parts.append(v)
        elif typ in _NUMBERS and type(v) is int:  # rendered P<n> or as digits: itself
            parts.append(v)
        elif typ in _PLAIN and type(v) is str and v and not _SPACED(v):
            parts.append(canon_move(v))  # one word, rendered as it is
        elif type(v) is Group:
            parts.append(("group", v.label()))
        elif type(v) is list and typ in _CARD_LISTS and all(
                type(c) is int and 0 <= c < n for c in v):
            parts.append(("cards", tuple(sorted(v))))
        else:
            return ("text", S.move_key(action, args))
    return tuple(parts)


_NAME, _CARD, _CARDS, _KEYED, _TEXT, _PLAIN_MODE = range(6)
# argument types that never hold a card (so that who sees what does not matter)
_PLAIN_TYPES = frozenset({"seat", "int", "num", "str"})


def _mode(action: Any) -> tuple[str, str, int]:
    """An action's canonical name (alone and followed by a space) and how its entries are
    keyed: _NAME (no arguments), _CARD (one card), _CARDS (cards), _KEYED (cards, groups and
    lists of cards), _TEXT (the move text: a number, a seat, a word)."""
    name = canon_move(action.name)
    types = [spec[2] for spec in action.args]
    mode = _NAME if not types else _CARD if types == ["card"] else \
        _CARDS if all(t == "card" for t in types) else \
        _KEYED if all(t in _KEYED_TYPES for t in types) else \
        _PLAIN_MODE if all(t in _PLAIN_TYPES for t in types) else _TEXT
    return name, name + " ", mode
