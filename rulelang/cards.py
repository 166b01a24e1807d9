"""Cards: the deck a rules file declares, card attributes as lookup tables, and card notation.

A card at run time is an int, its index in the deck (several copies of a pack give distinct
ints for equal cards). Attributes are tuples indexed by that int, built once per game.
Notation (CONTRACTS.md): rank then suit, ``T`` for ten (``10`` accepted), ``S H D C`` or the
suit symbols, ``JK`` for a joker; case-insensitive on input, upper case on output. A deck of
other ranks or suits (``Deck.french`` false: its cards read from ``decks.py``) names
its cards by its own tokens, rank then suit or suit then rank, upper case, any case on input.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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
    """The cards of one game: its ranks (low to high), suits, jokers and number of copies
    (packs); and, for a deck of its own, how many of each card of a rank a pack holds
    (``rank_copies``, one per rank; empty: one each), its cards outside the suits (name,
    copies per pack), whether a card is named suit then rank, and whether it is the French
    deck's notation (``normalize``)."""

    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    jokers: int
    copies: int
    rank_copies: tuple[int, ...] = ()
    unsuited: tuple[tuple[str, int], ...] = ()
    suit_first: bool = False
    french: bool = True

    @property
    def pack_size(self) -> int:
        """The cards of one pack."""
        per_rank = sum(self.rank_copies) if self.rank_copies else len(self.ranks)
        return per_rank * len(self.suits) + self.jokers + sum(k for _n, k in self.unsuited)

    @property
    def faces_unique(self) -> bool:
        """Whether one pack holds no two cards of one face (then a card id is a move's card)."""
        return self.jokers <= 1 and all(k == 1 for k in self.rank_copies) and \
            all(k == 1 for _n, k in self.unsuited)

    def card_name(self, r: str, s: str) -> str:
        return s + r if self.suit_first else r + s

    def build(self) -> DeckTables:
        names: list[str] = []
        rank: list[str] = []
        suit: list[str | None] = []
        order: list[int] = []
        per_rank = self.rank_copies or (1,) * len(self.ranks)
        extra = len(self.ranks) + (1 if self.jokers and self.unsuited else 0)
        for _ in range(self.copies):
            for r_i, r in enumerate(self.ranks):
                for s in self.suits:
                    for _k in range(per_rank[r_i]):  # copies of one face lie together
                        names.append(self.card_name(r, s))
                        rank.append(r)
                        suit.append(s)
                        order.append(r_i)
            for _j in range(self.jokers):
                names.append(JOKER)
                rank.append(JOKER)
                suit.append(None)
                order.append(len(self.ranks))
            for u_i, (u, k) in enumerate(self.unsuited):  # ranked above the suits, in order
                for _k in range(k):
                    names.append(u)
                    rank.append(u)
                    suit.append(None)
                    order.append(extra + u_i)
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
        """Canonical listing order: by rank as the game orders ranks, then suit S, H, D, C
        (a deck of its own: its suits in the order declared)."""
        s = self.suit[c]
        if not self.deck.french:
            return (self.order[c], self.deck.suits.index(s) if s is not None else 99)
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

    @cached_property
    def _by_key(self) -> dict[str, str]:
        return {card_key(n): n for n in self.name}

    def lookup(self, text: str) -> str | None:
        """The name of the card ``text`` writes (any case; the French deck also ``10`` and the
        suit symbols), or None when it names no card of this deck."""
        if self.deck.french:
            return normalize(text)
        return self._by_key.get(card_key(text))

    def examples(self) -> str:
        """A few of the deck's card names, for a message that says how to write a card."""
        if self.deck.french:
            return "AS, TD, 7H, JK"
        return ", ".join(dict.fromkeys(self.name[i] for i in range(0, len(self.name),
                                                                    max(1, len(self.name) // 4))))

    def shown(self, name: str) -> tuple[str, str | None]:
        """A card's text for people and its colour (a terminal style, or None): the French
        deck with its suit symbols, red for hearts and diamonds; a deck of its own by name,
        coloured by its ``color`` attribute where that is a terminal colour."""
        if self.deck.french:
            red = name != JOKER and len(name) >= 2 and name[-1] in RED_SUITS
            return pretty(name), "red" if red else None
        return name, self.styles.get(name)

    @cached_property
    def styles(self) -> dict[str, str]:
        colour = self.attrs["color"][0] if "color" in self.attrs else ()
        return {n: c for n, c in zip(self.name, colour) if c in TERMINAL_COLOURS}

    # the deck's own attributes, set by the builder: name -> (value per card id, checker type)
    attrs: dict[str, tuple[tuple, str]] = field(default_factory=dict)


TERMINAL_COLOURS = frozenset({"red", "green", "yellow", "blue", "magenta", "cyan"})


def card_key(text: str) -> str:
    """How a card name is compared, as move texts compare it (``movetext.canon_move``): the
    French notation's canonical form where the text is in it, else the text in lower case."""
    t = text.strip()
    return normalize(t) or t.lower()


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
        name = tables.lookup(text)
        if name is None:
            raise UsageError(f"'{text}' is not a card (write rank then suit, like AS, TD, 7H, "
                             "JK)" if tables.deck.french else f"'{text}' is not a card of this "
                             f"deck (write one like {tables.examples()})")
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
