"""Cards: the deck a rules file declares, card attributes as lookup tables, and card notation.

A card at run time is an int, its index in the deck (several copies of a pack give distinct
ints for equal cards). Attributes are tuples indexed by that int, built once per game.
Notation (CONTRACTS.md): rank then suit, ``T`` for ten (``10`` accepted), ``S H D C`` or the
suit symbols, ``JK`` for a joker; case-insensitive on input, upper case on output.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from .errors import UsageError

SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
SUIT_ORDER = "SHDC"  # the canonical order of suits in a listing (CONTRACTS.md)
RED_SUITS = {"H", "D"}
JOKER = "JK"


def rank_text(r: object) -> str:
    s = str(r).upper()
    return "T" if s == "10" else s


@dataclass(frozen=True)
class Deck:
    """The cards of one game: its ranks (low to high), suits, jokers and number of copies."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    jokers: int
    copies: int

    def build(self) -> DeckTables:
        names: list[str] = []
        rank: list[str] = []
        suit: list[str | None] = []
        order: list[int] = []
        for _ in range(self.copies):
            for r_i, r in enumerate(self.ranks):
                for s in self.suits:
                    names.append(r + s)
                    rank.append(r)
                    suit.append(s)
                    order.append(r_i)
            for _j in range(self.jokers):
                names.append(JOKER)
                rank.append(JOKER)
                suit.append(None)
                order.append(len(self.ranks))
        return DeckTables(self, tuple(names), tuple(rank), tuple(suit), tuple(order))


@dataclass(frozen=True)
class DeckTables:
    deck: Deck
    name: tuple[str, ...]
    rank: tuple[str, ...]
    suit: tuple[str | None, ...]
    order: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.name)

    def sort_key(self, c: int) -> tuple[int, int]:
        """Canonical listing order: by rank as the game orders ranks, then suit S, H, D, C."""
        s = self.suit[c]
        return (self.order[c], SUIT_ORDER.index(s) if s is not None and s in SUIT_ORDER else 9)

    @cached_property
    def sort_keys(self) -> tuple[tuple[int, int], ...]:
        """``sort_key`` of every card, by id (a lookup instead of a call)."""
        return tuple(self.sort_key(c) for c in range(len(self.name)))

    def ids_by_name(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, n in enumerate(self.name):
            out.setdefault(n, []).append(i)
        return out


def normalize(text: str) -> str | None:
    """The canonical form of a card's text, or None when it is not card notation."""
    t = text.strip()
    if not t:
        return None
    for sym, letter in SUIT_SYMBOLS.items():
        t = t.replace(sym, letter)
    t = t.upper()
    if t == JOKER:
        return JOKER
    if len(t) < 2:
        return None
    r, s = t[:-1], t[-1]
    if r == "10":
        r = "T"
    if len(r) != 1 or r not in "23456789TJQKA" or s not in "SHDC":
        return None
    return r + s


def parse_cards(texts: Sequence[str], tables: DeckTables,
                ncards: int | None = None) -> list[int]:
    """Card ids for card texts, each a distinct physical card; ``UsageError`` on a bad card.
    ``ncards``: how many cards the deck in play has (the tables have room for more packs)."""
    by_name = tables.ids_by_name()
    used: dict[str, int] = {}
    out: list[int] = []
    for text in texts:
        name = normalize(text)
        if name is None:
            raise UsageError(f"'{text}' is not a card (write rank then suit, like AS, TD, 7H, JK)")
        ids = by_name.get(name)
        if ids and ncards is not None:
            ids = [i for i in ids if i < ncards]
        if not ids:
            raise UsageError(f"this game's deck has no {name}")
        k = used.get(name, 0)
        if k >= len(ids):
            raise UsageError(f"{name} is given {k + 1} times but the deck holds {len(ids)}")
        used[name] = k + 1
        out.append(ids[k])
    return out


def pretty(name: str, color: bool = False) -> str:
    """A card's text with its suit symbol, for people (``A♠``); coloured red with rich markup."""
    if name == JOKER or len(name) < 2:
        return name
    sym = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(name[-1], name[-1])
    r = "10" if name[0] == "T" else name[0]
    if color and name[-1] in RED_SUITS:
        return f"[red]{r}{sym}[/red]"
    return f"{r}{sym}"
