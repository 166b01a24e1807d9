"""The run finders: ``runs`` (every run of cards in sequence, in one suit or, with ``suited:
false``, in any) and ``is_run``, made once per game for its deck by ``run_funcs`` (called by
``melds.meld_funcs``, which makes the set finders beside them over the same tables).

A card's places in a run are table lookups by card id, per ``ace:`` (low, high or both); a hand's
places are read as bits of one number (``meldbits.run_tables``), so that where no run of the
size asked for can be made the answer comes without looking at the cards one by one. Like
every finder, they bound what they list (``MAX_MELDS``) and charge the step's work for what
they look at.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from functools import reduce
from operator import or_
from typing import Any

from . import meldbits
from .builtins import items_of
from .errors import RuntimeRulesError
from .limits import MAX_MELDS
from .runtime import charge

# a rank's place in a run (the ace's is 1 or 14, set by the finders' ace: argument)
RUN_PLACE = {r: i for i, r in enumerate("23456789TJQK", start=2)}


def run_funcs(rank: tuple, suit: tuple, order: tuple, name: tuple, place: list[int],
              one_pack: bool, dedupe: Callable[..., list[list[int]]]
              ) -> tuple[Callable[..., list[list[int]]], Callable[..., bool]]:
    """``runs`` and ``is_run`` over the deck's card tables: ``place``, each card's place in the
    order a meld's cards are listed in; ``one_pack``, no two cards of one name; ``dedupe``,
    the set finders' (``melds.meld_funcs``): options without repeats, each put in order."""
    # a deck with ranks of its own (decks.py) runs in the order it lists them
    own_order = any(r not in RUN_PLACE and r not in ("A", "JK") for r in rank)

    def by_name(cs: list[int]) -> list[int]:
        """One card per distinct name: identical cards are interchangeable in a choice."""
        if one_pack:  # a name is a card: the first of each card
            return list(dict.fromkeys(cs))
        seen: dict[str, int] = {}
        for c in cs:
            seen.setdefault(name[c], c)
        return list(seen.values())

    def positions(c: int, ace: str) -> list[int]:
        # places in the natural sequence A(low) 2 .. K A(high), whatever order the deck lists
        # its ranks in (an ace-low deck lists A first); a deck of its own: its ranks' order
        r = rank[c]
        if own_order:
            return [order[c] + 1]
        if r == "A":
            return [1] if ace == "low" else [14] if ace == "high" else [1, 14]
        return [RUN_PLACE[r]]

    # positions(c, ace) of every card, per ace: (a joker has none)
    places_of = {ace: [[] if rank[c] == "JK" else positions(c, ace) for c in range(len(rank))]
                 for ace in ("low", "high", "both")}

    def places_table(ace: Any) -> list[list[int]]:
        # anything but 'low' and 'high' is positions()'s 'both'
        return (places_of.get(ace) if type(ace) is str else None) or places_of["both"]

    # per ace: a card's suit and place as one number, suit * span + place (-1: no place, a
    # joker; -2: two places), so that the places in a row of one suit are numbers in a row
    suit_no: dict[Any, int] = {}
    for c in range(len(rank)):
        suit_no.setdefault(suit[c], len(suit_no))
    span = max((p for t in places_of.values() for ps in t for p in ps), default=0) + 2
    spot_of = {ace: [-1 if not ps else -2 if len(ps) > 1 else suit_no[suit[c]] * span + ps[0]
                     for c, ps in enumerate(t)] for ace, t in places_of.items()}

    run_tables = meldbits.run_tables(spot_of, places_of, [suit_no[x] for x in suit], span, place)

    def runs(cards: Any, lo: int = 3, *, ace: str = "low", suited: Any = True
             ) -> list[list[int]]:
        """Every run of lo or more cards in sequence in one suit (no wild cards); with
        ``suited: false``, in any suits (``mixed_runs``)."""
        if not suited:
            return mixed_runs(by_name(items_of(cards)), lo, ace)
        cs = items_of(cards)
        spots, ordered, bits = (run_tables.get(ace) if type(ace) is str else None) or \
            run_tables["both"]
        # the places held, as bits of one number, told in one go (r: where lo in a row begin;
        # 0: no run), unless lo is odd or not cards are listed (the error is raised below)
        held = r = -1
        if type(lo) is int:
            if lo > len(cs):
                return []
            try:
                held = r = reduce(or_, map(bits.__getitem__, cs), 0)
            except (TypeError, IndexError):
                r = -1
            for i in range(1, lo if r > 0 else 1):
                r &= held >> i
            if not r:
                return []
        cs = by_name(cs)
        keys = list(map(spots.__getitem__, cs))  # (not cards: the error is raised here)
        if type(lo) is not int or -2 in keys:  # odd sizes, cards in two places: place by place
            return walk_runs(cs, lo, ace)
        at = dict(zip(keys, cs))  # (the last card of a place, as walk_runs)
        lo = max(lo, 1)
        stretches = []  # the places of each stretch of lo or more in a row, lowest first
        while r:
            s = (r & -r).bit_length() - 1  # the lowest place a run begins at begins one
            x = held >> s
            n = (~x & (x + 1)).bit_length() - 1  # the places held in a row from there
            stretches.append(range(s, s + n))
            r &= -1 << (s + n)
        if len(stretches) > 1:  # the suits in the order their first cards come (stable)
            first: dict[int, int] = {}
            for k in keys:
                if k >= 0:
                    first.setdefault(k // span, len(first))
            stretches.sort(key=lambda x: first[x[0] // span])
        out: list[list[int]] = []
        by_place = place.__getitem__
        for spots_in_row in stretches:  # each stretch of places in a row: its runs
            seq = list(map(at.__getitem__, spots_in_row))
            tidy = ordered  # a stretch in the order cards are listed in: so is each run
            if not tidy:
                ps = list(map(by_place, seq))
                tidy = ps == sorted(ps)
            for a in range(len(seq) - lo + 1):
                for b in range(a + lo, len(seq) + 1):
                    r = seq[a:b]
                    if not tidy:
                        r.sort(key=by_place)
                    out.append(r)
        if len(out) > MAX_MELDS:
            raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
        return out

    def walk_runs(cs: list[int], lo: Any, ace: str) -> list[list[int]]:
        """``runs`` place by place (cards of distinct names, any ``lo``)."""
        out: list[list[int]] = []
        suits: dict[Any, dict[int, int]] = {}
        table = places_table(ace)
        for c in cs:
            for p in table[c]:
                suits.setdefault(suit[c], {})[p] = c
        for s in suits:
            at = suits[s]
            for start in sorted(at):
                seq = []
                p = start
                while p in at:
                    seq.append(at[p])
                    p += 1
                    if len(seq) >= lo:
                        out.append(list(seq))
        return dedupe(out)

    def mixed_runs(cs: list[int], lo: int, ace: str) -> list[list[int]]:
        """Every run of lo or more cards in sequence whatever their suits: one run per choice
        of a card of each rank in the sequence (two 5s make two runs through 5)."""
        at: dict[int, list[int]] = {}
        table = places_table(ace)
        twice = False  # a card in two places (an ace under ace: 'both')
        for c in cs:
            ps = table[c]
            if len(ps) > 1:
                twice = True
            for p in ps:
                at.setdefault(p, []).append(c)
        out: list[list[int]] = []
        for start in sorted(at):
            places = []
            p = start
            while p in at:
                places.append(at[p])
                p += 1
                if len(places) >= lo:
                    n = math.prod(len(x) for x in places)
                    charge(n * len(places))
                    if len(out) + n > MAX_MELDS * 4:
                        raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
                    out.extend(list(x) for x in itertools.product(*places))
        return dedupe(out) if twice else distinct_runs(out)

    def distinct_runs(out: list[list[int]]) -> list[list[int]]:
        """``dedupe`` of runs of cards of distinct names each in one place: no two runs are
        alike (each is its own cards at its own places), so each is only put in order."""
        if len(out) > MAX_MELDS:
            raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
        by_place = place.__getitem__
        for o in out:
            o.sort(key=by_place)
        return out

    def is_run(cards: Any, *, ace: str = "low", suited: Any = True) -> bool:
        cs = items_of(cards)
        if not cs:
            return False
        if suited:
            s0 = suit[cs[0]]
            for c in cs:
                if suit[c] != s0:
                    return False
        # each card's one place (a joker has none: no run), read from the table; only
        # an ace under ace: 'both' has two (then every choice of places is tried below)
        table = places_table(ace)
        ps = []
        for c in cs:
            p = table[c]
            if len(p) != 1:
                break
            ps.append(p[0])
        else:
            if len(ps) == 1:
                return True
            lo = min(ps)
            return max(ps) - lo == len(ps) - 1 and len(set(ps)) == len(ps)
        if any(rank[c] == "JK" for c in cs):
            return False
        places = [positions(c, ace) for c in cs]
        # only an ace under ace: 'both' has two places, 1 and 14, and a run takes each place
        # once: with three such cards it cannot be a run (and 2^40 choices would be tried)
        if sum(len(p) > 1 for p in places) > 2:
            return False
        for choice in itertools.product(*places):
            ps = sorted(choice)
            if all(b == a + 1 for a, b in zip(ps, ps[1:])):
                return True
        return False

    return runs, is_run
