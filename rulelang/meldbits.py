"""Bit-number tables of the meld finders (melds.py, meldruns.py): those ``runs`` reads the
places a hand holds from, as bits of one number, and whether a stretch's cards are in order
already.
"""

from __future__ import annotations

import math
from typing import Any

from .limits import MAX_COLLECTION


def run_tables(spot_of: dict[str, list[int]], places_of: dict[str, list[list[int]]],
               suit_no: list[int], span: int, place: list[int]) -> dict[str, tuple]:
    """Per ace: spot_of's table; whether each suit's places run in the order cards are listed
    in (``place``; then so does each run, else each stretch is looked at); each card's places
    as bits of one number (bit suit * span + place per place, ``suit_no``: the card's suit)."""
    out = {}
    for ace, spots in spot_of.items():
        top: dict[int, int] = {}  # per suit, the place in order of its card at the last spot
        bits = [sum(1 << suit_no[c] * span + p for p in ps)
                for c, ps in enumerate(places_of[ace])]
        out[ace] = (spots, True, bits)
        for c in sorted((c for c in range(len(spots)) if spots[c] >= 0), key=spots.__getitem__):
            if place[c] < top.get(spots[c] // span, -1):
                out[ace] = (spots, False, bits)
                break
            top[spots[c] // span] = place[c]
    return out


class RankCounts:
    """A hand's cards counted by rank, each rank's count in its byte of one number (fewer than
    128 cards: no byte spills over), so that whether ``sets()`` can find a set is told in one
    go, without grouping the cards (most hands a listing looks at hold none)."""

    def __init__(self, rank: tuple) -> None:
        rank_no: dict[str, int] = {}
        self.bits = [1 << 8 * rank_no.setdefault(r, len(rank_no)) for r in rank]
        self.ones = sum(1 << 8 * i for i in range(len(rank_no)))
        self.wild_at = 8 * len(rank_no)  # the wild cards' count: the byte above the ranks'
        self.text_at = self.wild_at + 8  # their key texts' counts: the bytes above that
        self.cost_at = self.text_at + 8 * _TEXTS  # the work the answers cost: above it all
        self.ncards = len(rank)
        # (keyed, choices, most wild cards) -> the ways choices() counts (early)
        self.ways: dict[tuple[bool, int, int], int] = {}

    def no_set(self, cs: list[int], lo: int) -> bool:
        """Whether no rank has lo of the cards (``plain_sets`` finds none): lo or more is a
        byte's top bit set once 128 - lo is added to every byte."""
        if not lo <= len(cs) < 128:  # (too few cards: no set; too many: not told so)
            return lo > len(cs)
        try:
            m = sum(map(self.bits.__getitem__, cs))
        except (TypeError, IndexError):  # not cards: the finder says what is wrong
            return False
        ones = self.ones
        return not (m + (128 - lo) * ones) & (128 * ones)

    def packed(self, wtab: Any, ktab: Any) -> dict[int, int]:
        """Per card id the ``wild:`` table ``wtab`` answers (cardtables.table_of), as one number:
        the card's byte (its rank's, or the wild cards' where the answer is true), for a wild
        card also its ``key:`` text's byte (``ktab``, the key's table; None: no key), and above
        it all the work those answers cost. A wild card whose key text is not in ``ktab`` yet
        (or the ninth text) is left out. Made again when either table has grown."""
        kn = len(ktab) if ktab is not None else 0
        got = wtab.packed.get(id(ktab))
        if got is not None and got[0] is ktab and got[1] == len(wtab) and got[2] == kn:
            return got[3]
        bits, wild, at = self.bits, 1 << self.wild_at, self.cost_at
        pk: dict[int, int] = {}
        texts: dict[Any, int] = {}
        for c, (v, cost) in wtab.items():
            if not v:
                pk[c] = bits[c] + (cost << at)
            elif ktab is None:
                pk[c] = wild + (cost << at)
            elif (k := ktab.get(c)) is not None:
                j = texts.setdefault(k[0], len(texts))
                if j < _TEXTS:
                    pk[c] = wild + (1 << self.text_at + 8 * j) + ((cost + k[1]) << at)
        if len(wtab.packed) >= 8:  # (key tables of other calls: a few)
            wtab.packed.clear()
        wtab.packed[id(ktab)] = (ktab, len(wtab), kn, pk)
        return pk

    def early(self, cs: list[int], wtab: Any, ktab: Any, keyed: bool, lo: int, hi: int,
              max_wild: int, all_wild: bool) -> int | None:
        """The work ``sets(cs, lo, hi, wild:, max_wild:, all_wild:, key:)`` charges on its way
        to no set, where it finds none because no rank's natural cards and the wild cards it
        may take reach lo, nor the wild cards alone (``melds.sets``' early answer), and every
        card's answers are in the tables (``wtab``: wild:'s; ``ktab``: key:'s, ``keyed``: a
        key is given); else None. Charged: each card's wild: answer; with no wild card,
        ``plain_sets``' one unit; else each wild card's key text and ``choices()``' count of
        the ways to choose 0..max_wild of them (one per mix of key texts with a key)."""
        if wtab is None or (keyed and ktab is None) or len(cs) >= 128:
            return None
        pk = self.packed(wtab, ktab)
        m = 0
        try:
            for c in cs:
                m += pk[c]
        except (KeyError, TypeError):  # a card not answered yet, or no card: the long way
            return None
        nwild = (m >> self.wild_at) & 255
        need = lo - min(max_wild, nwild)  # natural cards a rank needs
        ones = self.ones
        if need <= 0 or (need < 128 and (m + (128 - need) * ones) & (128 * ones)) or (
                all_wild and min(hi, nwild) >= lo):
            return None
        if not _INT.issuperset(map(type, cs)):  # (True is a key of card 1: not a card here)
            return None
        owed = m >> self.cost_at
        if not nwild:
            return owed + 1
        n = nwild  # (with a key: the key texts the wild cards hold)
        if keyed:
            if nwild > 1 and len(set(cs)) < len(cs):  # (a card twice: its key text read once)
                return None
            t = (m >> self.text_at) & _TEXT_MASK
            n = ((t + 127 * _TEXT_ONES) & (128 * _TEXT_ONES)).bit_count()  # texts held
        ways = self.ways.get((keyed, n, min(max_wild, nwild)))
        if ways is None:
            ways = 0
            for k in range(0, min(max_wild, nwild) + 1):
                w = math.comb(max(0, n + k - 1), k) if keyed else math.comb(n, k)
                if w > MAX_COLLECTION:  # refused: the long way says so
                    return None
                ways += w
            self.ways[keyed, n, min(max_wild, nwild)] = ways
        return owed + ways


_INT = frozenset({int})
_TEXTS = 8  # key texts of wild cards told apart (bytes above the wild cards' count)
_TEXT_ONES = sum(1 << 8 * i for i in range(_TEXTS))
_TEXT_MASK = 255 * _TEXT_ONES
