"""Decks as data: a rules file's ``deck:`` section read into a ``cards.Deck``, and the deck's
own card attributes worked out into tables indexed by card id.

The French deck (ranks from 2-9 T J Q K A, suits from S H D C, named rank then suit) keeps its
notation: ``10`` read as ``T``, the suit symbols, ``JK``. Any other ranks or suits make a deck
of its own: its ranks and suits are tokens (letters, digits, ``+``) written in upper case, a
card is named by them (rank then suit, or suit then rank with ``notation: suit_rank``), a pack
may hold several copies of each card of a rank (``rank_copies``) and cards outside the suits
(``unsuited``, each with its copies). ``attributes`` give every card a value read as
``c.NAME``, by its rank, its suit or its name, typed by its values for the checker.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .cards import JOKER, DeckTables, card_key, normalize, rank_text
from .errors import Span
from .limits import MAX_PACK, MAX_RANK_COPIES, MAX_UNSUITED_COPIES
from .yamlload import YMap

FRENCH_RANKS = "23456789TJQKA"
FRENCH_SUITS = ("S", "H", "D", "C")
TOKEN = re.compile(r"[A-Z0-9+]{1,6}")
# attributes every card has already (scope.CARD_ATTRS); ``color`` may be given by the deck
BUILT_IN = ("rank", "suit", "order", "joker", "name")

Err = Callable[[str, Span], None]


@dataclass
class DeckSpec:
    """What ``deck:`` declares, checked: the makings of a ``cards.Deck`` (but its packs)."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    jokers: int
    rank_copies: tuple[int, ...] = ()
    unsuited: tuple[tuple[str, int], ...] = ()
    suit_first: bool = False
    french: bool = True
    # (name, by, values by key, default or None, where it is declared)
    attributes: list[tuple[str, str, dict[str, Any], Any, Span]] = field(default_factory=list)

    def key(self, k: Any) -> str:
        """A rank as a value table's key writes it (``10`` is ``T`` in the French deck)."""
        return rank_text(k) if self.french else str(k).upper()


def _token(x: Any) -> str:
    if isinstance(x, bool):
        return "?"  # yes/no are no card's rank: refused below
    return str(x).strip().upper()


def read_deck(deck_doc: YMap, err: Err, deck_span: Span) -> DeckSpec:
    """The deck a rules file declares; every problem reported through ``err``."""
    raw_ranks = deck_doc.get("ranks", [2, 3, 4, 5, 6, 7, 8, 9, "T", "J", "Q", "K", "A"])
    raw_suits = deck_doc.get("suits", list(FRENCH_SUITS))
    notation = str(deck_doc.get("notation", "rank_suit"))
    if notation not in ("rank_suit", "suit_rank"):
        err(f"deck.notation '{notation}' is not one of rank_suit (7H), suit_rank (R7)",
            deck_doc.span_of("notation"))
    french = notation == "rank_suit" and not any(
        k in deck_doc for k in ("rank_copies", "unsuited")) and \
        all(rank_text(r) in FRENCH_RANKS and len(rank_text(r)) == 1 for r in raw_ranks) and \
        all(_token(s) in FRENCH_SUITS for s in raw_suits)
    ranks = tuple(rank_text(r) if french else _token(r) for r in raw_ranks)
    suits = tuple(_token(s) for s in raw_suits)
    if not french:
        for what, items, key in (("rank", ranks, "ranks"), ("suit", suits, "suits")):
            for i, t in enumerate(items):
                if not TOKEN.fullmatch(t):
                    err(f"deck {what} '{t}' should be 1 to 6 letters, digits or '+'",
                        deck_doc[key].span_of(i) if key in deck_doc else deck_span)
    if len(set(ranks)) != len(ranks) or len(set(suits)) != len(suits):
        err("the deck lists a rank or a suit twice", deck_span)
    jokers = int(deck_doc.get("jokers", 0))
    spec = DeckSpec(ranks, suits, jokers, suit_first=notation == "suit_rank", french=french)
    if french:
        return _attributes(spec, deck_doc, err)
    spec.rank_copies = _rank_copies(deck_doc, ranks, err, spec)
    spec.unsuited = _unsuited(deck_doc, err)
    # every face's name, compared as moves compare them, names one face only
    names = [s + r if spec.suit_first else r + s for r in ranks for s in suits]
    names += ([JOKER] if jokers else []) + [u for u, _k in spec.unsuited]
    if len({card_key(n) for n in names}) != len(names):
        err("two cards of the deck have one name: give the ranks, suits or unsuited cards "
            "other tokens", deck_span)
    size = (sum(spec.rank_copies) * len(suits) + jokers + sum(k for _u, k in spec.unsuited))
    if size > MAX_PACK:
        err(f"one pack of this deck holds {size} cards; at most {MAX_PACK}", deck_span)
    return _attributes(spec, deck_doc, err)


def _rank_copies(deck_doc: YMap, ranks: tuple[str, ...], err: Err,
                 spec: DeckSpec) -> tuple[int, ...]:
    """Copies of each card of each rank in one pack: a number for all, or rank -> number
    with an optional ``default`` (1 unless given)."""
    rc = deck_doc.get("rank_copies", 1)
    where = deck_doc.span_of("rank_copies")
    table: dict[str, Any] = {}
    default: Any = rc
    if isinstance(rc, dict):
        default = rc.get("default", 1)
        table = {spec.key(k): v for k, v in rc.items() if k != "default"}
        for k in table:
            if k not in ranks:
                err(f"deck.rank_copies names '{k}', which is not a rank of the deck",
                    rc.key_span(k) if k in rc else where)
    out = []
    for r in ranks:
        v = table.get(r, default)
        if type(v) is not int or not 1 <= v <= MAX_RANK_COPIES:
            err(f"deck.rank_copies must give each rank a whole number from 1 to "
                f"{MAX_RANK_COPIES}", where)
            v = 1
        out.append(v)
    return tuple(out)


def _unsuited(deck_doc: YMap, err: Err) -> tuple[tuple[str, int], ...]:
    """The cards outside the suits: name -> copies per pack (a list of names: one each)."""
    un = deck_doc.get("unsuited")
    if un is None:
        return ()
    where = deck_doc.span_of("unsuited")
    items = [(k, v) for k, v in un.items()] if isinstance(un, dict) else \
        [(k, 1) for k in un] if isinstance(un, list) else []
    out = []
    for k, v in items:
        n = _token(k)
        if not TOKEN.fullmatch(n):
            err(f"unsuited card '{n}' should be 1 to 6 letters, digits or '+'", where)
        if type(v) is not int or not 1 <= v <= MAX_UNSUITED_COPIES:
            err(f"unsuited card {n}: copies must be a whole number from 1 to "
                f"{MAX_UNSUITED_COPIES}", un.span_of(k) if isinstance(un, dict) else where)
            v = 1
        out.append((n, v))
    if len({n for n, _v in out}) != len(out):
        err("deck.unsuited names a card twice", where)
    return tuple(out)


def _attributes(spec: DeckSpec, deck_doc: YMap, err: Err) -> DeckSpec:
    attrs = deck_doc.get("attributes")
    if not attrs:
        return spec
    for name, a in attrs.items():
        kspan = attrs.key_span(name)
        if name in BUILT_IN:
            err(f"'{name}' is an attribute every card has already; name this one otherwise",
                kspan)
            continue
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            err(f"attribute '{name}' should be a lower-case name (letters, digits, _)", kspan)
            continue
        if not isinstance(a, dict):
            err(f"attribute '{name}' should be a mapping: {{by: rank, values: {{...}}, "
                "default: ...}", attrs.span_of(name))
            continue
        by = str(a.get("by", "rank"))
        if by not in ("rank", "suit", "name"):
            err(f"attribute '{name}': by '{by}' is not one of rank, suit, name",
                a.span_of("by"))
            continue
        vals = a.get("values") or {}
        keys = {spec.key(k) if by == "rank" else
                (normalize(str(k)) or _token(k)) if by == "name" and spec.french else _token(k): v
                for k, v in vals.items()}
        spec.attributes.append((str(name), by, keys, a.get("default"), a.span_of("values")))
    return spec


def _type_of(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "num"
    return "str" if isinstance(v, str) else "?"


def card_attributes(spec: DeckSpec, tables: DeckTables,
                    err: Err) -> dict[str, tuple[tuple, str]]:
    """Each declared attribute's value per card id and its checker type; a card that none of
    its entries (nor a default) gives a value is an error, as are values of mixed types."""
    out: dict[str, tuple[tuple, str]] = {}
    for name, by, keys, default, where in spec.attributes:
        of = tables.rank if by == "rank" else tables.suit if by == "suit" else tables.name
        known = set(of)
        for k in keys:
            if k not in known:
                err(f"attribute '{name}': '{k}' is no {by} of the deck", where)
        row: list[Any] = []
        missing: list[str] = []
        for c in range(tables.size):
            k = of[c]
            if k in keys:
                row.append(keys[k])
            elif default is not None:
                row.append(default)
            else:
                row.append(None)
                if tables.name[c] not in missing:
                    missing.append(tables.name[c])
        if missing:
            err(f"attribute '{name}' gives no value for {', '.join(missing[:6])}"
                f"{' …' if len(missing) > 6 else ''} (add them, or a default)", where)
            continue
        types = {_type_of(v) for v in row}
        if types == {"int", "num"}:
            types = {"num"}
        if len(types) != 1 or "?" in types:
            err(f"attribute '{name}' mixes values of different kinds "
                f"({', '.join(sorted(types))}); give every card a number, a word or yes/no",
                where)
            continue
        t = types.pop()
        if name == "color" and t != "str":
            err("attribute 'color' must be a word for every card (red, green, none …)", where)
            continue
        out[name] = (tuple(row), t)
    return out
