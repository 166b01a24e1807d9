"""Dealing: the shuffle, gathering the cards back, dealing them out, and the cut for the first
dealer; the effects a round's start runs (``gather``, ``shuffle``, ``deal``, ``cut``).

``Dealing`` is a mixin of ``table.Table`` (and so of ``engine.State``), which sets up the zones
and the tables of where each card lies. A round's start runs these once a round, so they are
written for the common case (the whole pack gathered, the top cards dealt round the table) with
as few Python steps as the same result allows: the same seed deals the same cards as
``random.shuffle`` always did.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .builtins import charged
from .codegen import Namespace
from .errors import RuntimeRulesError
from .known import forget
from .limits import MAX_CUTS
from .runtime import brief, charge, log_message

_BITLEN = tuple(n.bit_length() for n in range(1025))  # what random's _randbelow asks for
# per length of list shuffled: (i, i + 1, bits of i + 1) for each step of random.shuffle's
# loop, made once (a deck's zones have few lengths; a zone holds at most the deck's cards)
_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def shuffle(x: list, bits: Any) -> None:
    """``random.shuffle(x)``: its own algorithm and draws, so that a seed deals the same cards,
    without its method call per card. (Drawing the words of several steps at once, from one
    ``getrandbits(32 * m)``, draws the same numbers, but taking them apart again in Python
    costs more than the calls it saves: measured 3 to 20 times slower.) A list of up to
    UNROLLED cards is shuffled by straight-line steps written for its length (``_unrolled``)."""
    f = _SHUFFLES.get(len(x))
    if f is not None:
        f(x, bits)
        return
    if len(x) <= UNROLLED:
        _SHUFFLES[len(x)] = _unrolled(len(x))
        _SHUFFLES[len(x)](x, bits)
        return
    steps = _STEPS.get(len(x))
    if steps is None:
        blen = _BITLEN if len(x) < len(_BITLEN) else [n.bit_length() for n in range(len(x) + 1)]
        steps = tuple((i, i + 1, blen[i + 1]) for i in range(len(x) - 1, 0, -1))
        if len(x) < len(_BITLEN):
            _STEPS[len(x)] = steps
    for i, n, k in steps:
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]


UNROLLED = 128  # lists of cards shuffled by steps written out for their length (made on first use)
_SHUFFLES: dict[int, Callable[[list, Any], None]] = {}


def _unrolled(n: int) -> Callable[[list, Any], None]:
    """``shuffle`` of a list of ``n`` items as one generated function, each step of the loop
    written out with its constants (the same draws, the same swaps): a round's 52-card
    shuffle in about 20% fewer instructions than the loop."""
    lines = ["def _shuffle(x, bits):"]
    for i in range(n - 1, 0, -1):
        k = _BITLEN[i + 1]
        lines += [f"    j = bits({k})", f"    while j > {i}:", f"        j = bits({k})",
                  f"    x[{i}], x[j] = x[j], x[{i}]"]
    if n < 2:
        lines.append("    pass")
    return Namespace().define("_shuffle", lines)  # type: ignore[no-any-return]


class Dealing:
    """The effects that shuffle, gather and deal the cards, and the cut (see the module)."""

    game: Any
    n: int
    ncards: int
    zones: list[list[int]]
    loc: list[int]
    face: list[bool]
    zvis: list[int]
    zface: list[bool]
    zowner: list[int]
    znames: list[str]
    groups: dict[int, list[int]]
    dealer: int
    rng: Any
    record: bool
    messages: list[str]
    cuts: tuple[tuple[tuple[int, int], ...], ...]
    placer: list[int] | None
    known: list[Any] | None
    nones: tuple
    ztrick: list[bool] | None
    next_seat: Callable[..., int]  # the engine's
    seats_from: Callable[[int], list[int]]  # the engine's
    placed: Callable[[Any, int], None]  # the table's
    forget_played: Callable[[], None]  # the tricks'

    def fx_shuffle(self, zid: int) -> None:
        shuffle(self.zones[zid], self.rng.getrandbits)
        if self.known is not None:
            forget(self, self.zones[zid])

    def fx_gather(self, zid: int) -> None:
        if self.known is not None:
            self.known = [None] * self.ncards
            self.nones = ()
        if self.ztrick is not None:
            self.forget_played()
        zones = self.zones
        dest = zones[zid]
        up = self.zface[zid]
        if not self.groups and sum(map(len, zones)) == self.ncards:
            # the whole pack comes back: sorted, that is every card in order
            for cs in zones:
                cs.clear()
            dest.extend(range(self.ncards))
            self.loc = [zid] * self.ncards
            self.face = [up] * self.ncards
            if self.placer is not None:
                self.placed(dest, zid)
            return
        for z, cs in enumerate(zones):
            if z != zid and cs:
                dest.extend(cs)
                cs.clear()
        if self.groups:  # the groups on the table are gone with their cards
            nz = self.game.nzones
            del zones[nz:]
            self.znames, self.zowner = self.znames[:nz], self.zowner[:nz]
            self.zvis, self.zface = self.zvis[:nz], self.zface[:nz]
            self.groups = {}
        dest.sort()
        if self.placer is not None:
            self.placed(dest, zid)
        if len(dest) == self.ncards:  # the whole pack: rewrite the tables in one go
            self.loc = [zid] * self.ncards
            self.face = [up] * self.ncards
            return
        for c in dest:
            self.loc[c] = zid
            self.face[c] = up

    def fx_deal(self, src: int, base: int, n: int, start: int | None = None,
                face: str | None = None) -> None:
        first = self.next_seat(self.dealer) if start is None else start
        order = self.seats_from(first)
        if self.ztrick is not None:
            self.forget_played()
        zones, loc, cface, zface = self.zones, self.loc, self.face, self.zface
        z = zones[src]
        k = len(order)
        total = n * k
        if self.known is not None:  # the cards that may be dealt: none known after
            forget(self, z[:total])
            self.nones = ()  # (a deal brings cards into the zones known to hold none)
        if 0 < total <= len(z) and not base <= src < base + self.game.max_players:
            # the usual deal: the top n*k cards, every k-th to a seat, in one slice each (each
            # card goes on top of the hand, so a hand gets its cards in reverse)
            taken = z[:total]
            del z[:total]
            for i, p in enumerate(order):
                d = base + p
                cards = taken[i::k]
                cards.reverse()
                zones[d][:0] = cards
                up = zface[d] if face is None else face == "up"
                for c in cards:
                    loc[c] = d
                    cface[c] = up
                if self.placer is not None:
                    self.placed(cards, d)
            return
        for _ in range(n if order else 0):  # no seat in play: nothing to deal (not n passes)
            for p in order:
                if not z:
                    raise RuntimeRulesError(f"ran out of cards in '{self.znames[src]}' while "
                                            "dealing")
                c = z.pop(0)  # the top card, whose zone is src
                d = base + p
                zones[d].insert(0, c)
                loc[c] = d
                cface[c] = zface[d] if face is None else face == "up"
                if self.placer is not None:
                    self.placed(c, d)

    def fx_cut(self, seats: Any, key: Callable[[int], Any] | None = None) -> int:
        """``cut(seats, f)``: each seat, in the order given, cuts a card from a freshly
        shuffled deck (every card of the game, from the state's generator); the seat whose
        card is highest by ``f`` (default: the deck's order of ranks, jokers above all) wins,
        and seats tied for highest cut again from the cards left (a fresh deck when too few
        are left). The cards stay where they lie: a cut is drawn from a copy of the deck, as
        cut cards are put back. Every cut is public (``cuts``, in every seat's view)."""
        tied = []
        for p in charged(seats) if isinstance(seats, list) else [seats]:
            if type(p) is not int or not 0 <= p < self.n:
                raise RuntimeRulesError(f"cut(): {brief(p)} is not a seat at this table")
            if p not in tied:
                tied.append(p)
        if not tied:
            raise RuntimeRulesError("cut(): no seat to cut")
        order = self.game.tables.order
        rank = key if key is not None else order.__getitem__
        cuts: list[tuple[tuple[int, int], ...]] = []
        deck: list[int] = []
        while len(tied) > 1:
            if len(cuts) == MAX_CUTS:
                raise RuntimeRulesError(f"cut(): still tied after {MAX_CUTS} cuts (does its "
                                        "order rank any card above another?)")
            if len(deck) < len(tied):
                deck = list(range(self.ncards))
                shuffle(deck, self.rng.getrandbits)
                charge(len(deck))
            cut = tuple(zip(tied, deck))
            del deck[:len(tied)]
            cuts.append(cut)
            keys = [rank(c) for _p, c in cut]
            best = max(keys)
            tied = [p for (p, _c), k in zip(cut, keys) if k == best]
        self.cuts = (*self.cuts, *cuts)
        if self.record and cuts:
            names = self.game.tables.name
            log_message(self.messages, "cut: " + "; ".join(
                ", ".join(f"P{p} {names[c]}" for p, c in cut) for cut in cuts))
        return tied[0]

