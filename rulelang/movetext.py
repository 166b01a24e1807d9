"""Move texts: what a move is called, for a seat that may not see every card in it.

A move's canonical text is its action's name and its arguments: cards by name (or by place,
``stock#2``, when the viewer cannot see them), seats as ``P<n>``, groups on the table as
``P<owner>#<number>``, several cards in canonical order, several melds separated by `` | ``.
``canon_move`` is the form texts are compared in (cards canonical, words lower case), which is
how a typed move is matched to a legal one; ``any_order`` and ``one_by_one`` match the several
cards of a typed move in any order. Texts are built only when asked for: bots that
count moves never need them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import normalize
from .errors import IllegalMove
from .game import ActionDef
from .groups import Group

_CANON: dict[str, str] = {}


def canon_move(text: str) -> str:
    """A move text in the form used to compare moves: cards canonical, words lower case."""
    key = _CANON.get(text)
    if key is None:
        key = _canon(text)
        if len(_CANON) > 100_000:
            _CANON.clear()
        _CANON[text] = key
    return key


def _canon(text: str) -> str:
    out = []
    for tok in str(text).split():
        c = normalize(tok)
        out.append(c if c is not None else tok.lower())
    return " ".join(out)


def cards_in(args: tuple, ncards: int) -> list[int]:
    """The card ids among a move's arguments (cards, lists of cards, lists of melds): the
    whole numbers that may be cards (a list of other numbers names none)."""
    out: list[int] = []
    for a in args:
        if isinstance(a, bool):
            continue
        if isinstance(a, int):
            if 0 <= a < ncards:
                out.append(a)
        elif isinstance(a, list):
            out.extend(cards_in(tuple(a), ncards))
    return out


class MoveTexts:
    """How a state names moves (a mixin of ``engine.State``)."""

    game: Any
    actor: int | None
    ncards: int
    loc: list[int]
    zones: list[list[int]]
    znames: list[str]
    visible: Callable[[int, int], bool]  # the table's

    def move_key(self, action: ActionDef, args: tuple) -> str:
        """Exactly ``canon_move`` of the move's text; for cards the mover can see, the names
        are the text, so only other arguments need it rendered."""
        parts = [canon_move(action.name)]
        names = self.game.tables.name
        for spec, v in zip(action.args, args):
            if spec[2] == "card" and type(v) is int and 0 <= v < self.ncards and \
                    self.visible(v, self.actor):
                parts.append(names[v])
            else:
                return canon_move(self.move_text(action, args))
        return " ".join(parts)

    def move_text(self, action: ActionDef, args: tuple, viewer: int | None = None,
                 seen: set[tuple[int, int]] | None = None) -> str:
        if not args:
            return action.name
        who = self.actor if viewer is None else viewer
        parts = [action.name]
        for (_n, _f, typ, _slot), v in zip(action.args, args):
            parts.append(self.render(v, typ, who, seen))
        return " ".join(parts)

    def render(self, v: Any, typ: str, viewer: int | None,
               seen: set[tuple[int, int]] | None = None) -> str:
        """An argument as move text: cards by name (or zone#k when the viewer cannot see them),
        seats as P<n>, groups on the table as P<owner>#<number>, several cards in canonical
        order, several melds separated by ' | ', numbers and words as they are."""
        if isinstance(v, Group):
            return v.label()
        if typ == "card" and isinstance(v, int) and 0 <= v < self.ncards:
            return self.card_text(v, viewer, seen)
        if typ == "seat" and isinstance(v, int):
            return f"P{v}"
        if isinstance(v, list):
            if v and all(isinstance(x, list) for x in v):
                return " | ".join(self.render(x, "list[card]", viewer, seen) for x in v)
            # numbers that are not all card ids (a list of scores, say) are shown as numbers
            n = self.ncards
            if all(isinstance(x, int) and not isinstance(x, bool) and 0 <= x < n for x in v) \
                    and typ in ("list[card]", "any", "list"):
                t = self.game.tables
                # cards the viewer cannot see come last, by place (zone#k), so that their
                # order gives nothing away
                known = [c for c in v if self._knows(c, viewer, seen)]
                unknown = [c for c in v if not self._knows(c, viewer, seen)]
                cards = sorted(known, key=t.sort_key) + sorted(
                    unknown, key=lambda c: (self.loc[c], self.zones[self.loc[c]].index(c)))
                return " ".join(self.card_text(c, viewer, seen) for c in cards)
            return " ".join(self.render(x, "any", viewer, seen) for x in v)
        if v is None:
            return "-"
        if isinstance(v, bool):
            return "yes" if v else "no"
        return str(v)

    def _knows(self, c: int, viewer: int | None, seen: set[tuple[int, int]] | None) -> bool:
        return viewer is None or self.visible(c, viewer) or (
            seen is not None and (c, viewer) in seen)

    def card_text(self, c: int, viewer: int | None,
                  seen: set[tuple[int, int]] | None = None) -> str:
        if self._knows(c, viewer, seen):
            return self.game.tables.name[c]
        if seen is not None:
            return "?"  # a past move: where the card is now is no business of the log
        z = self.loc[c]
        return f"{self.znames[z]}#{self.zones[z].index(c) + 1}"


def _order_free(tokens: list[str], typ: str) -> tuple:
    """One argument's tokens as order does not matter to it: a list of cards as a sorted
    multiset, melds (``|``-separated lists of cards) as a sorted multiset of such; any other
    argument as typed."""
    if typ.startswith("list[list"):
        groups: list[list[str]] = [[]]
        for t in tokens:
            if t == "|":
                groups.append([])
            else:
                groups[-1].append(t)
        return tuple(sorted(tuple(sorted(g)) for g in groups))
    if typ.startswith("list"):
        return tuple(sorted(tokens))
    return tuple(tokens)


def any_order(S: Any, move: str) -> tuple[ActionDef, tuple] | None:
    """The one legal move that ``move`` names with the cards of a list, or the melds of a
    list of melds, in another order than the canonical one (``lay 3C 4C 5C | 7S 7H 7D``);
    None if no legal move, or more than one, is so named. Asked only of a text that is not a
    legal move's, so its cost (every legal move with a list argument rendered) is paid only
    then."""
    typed = canon_move(str(move).replace("|", " | ")).split()
    found: dict[str, tuple[ActionDef, tuple]] = {}
    for key, (action, args) in (S._legal or {}).items():
        if not any(spec[2].startswith("list") for spec in action.args):
            continue
        name = canon_move(action.name).split()
        if typed[:len(name)] != name:
            continue
        rest, want, got = typed[len(name):], [], []
        for spec, v in zip(action.args, args):
            toks = canon_move(S.render(v, spec[2], S.actor)).split()
            want.append(_order_free(toks, spec[2]))
            got.append(_order_free(rest[:len(toks)], spec[2]))
            rest = rest[len(toks):]
        if not rest and want == got:
            found[key] = (action, args)
    return next(iter(found.values())) if len(found) == 1 else None


def one_by_one(S: Any, move: str) -> list[str] | None:
    """``pass 2H 2C AS`` where a card is passed a move at a time (``pass 2H``, then ``pass
    2C``, …, by the same seat): the single moves, in the order typed, if each is legal in
    turn (tried on a copy) and the same seat makes them all; else None."""
    typed = canon_move(str(move)).split()
    mover = S.current_player()
    for action, _args in (S._legal or {}).values():
        if len(action.args) != 1 or action.args[0][2] != "card":
            continue
        name = canon_move(action.name).split()
        if typed[:len(name)] != name or len(typed) < len(name) + 2:
            continue
        pieces = [" ".join([*name, t]) for t in typed[len(name):]]
        trial = S.clone()
        trial.record = False
        try:
            for p in pieces:
                if trial.current_player() != mover:
                    return None
                trial.apply(p)
        except IllegalMove:
            return None
        return pieces
    return None
