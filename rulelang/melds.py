"""The meld finders: ``sets``, ``runs``, ``is_set``, ``is_run``, ``disjoint``, made once per game
for its deck (``meld_funcs``: a card's rank, suit and order are table lookups by card id); the
set finders and ``disjoint`` here, the run finders in ``meldruns.py``.

Their records are in ``builtins.BUILTINS`` (``meld=True``); the compiler makes them for the
game's deck when a rules file first calls one. Every finder bounds what it lists
(``MAX_MELDS``) and charges the step's work for what it looks at.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from typing import Any

from . import meldbits
from .builtins import items_of, nested
from .cardtables import Tables, key_texts, split_ranks, split_wild, table_of
from .errors import RuntimeRulesError
from .limits import MAX_COLLECTION, MAX_MELDS
from .meldruns import RUN_PLACE as RUN_PLACE  # re-exported: tests name it here
from .meldruns import run_funcs
from .runtime import WORK, charge, clipped_text, out_of_work


def _first_of_each(classes: list[list[int]], k: int) -> Any:
    """Every way to take k cards from the classes, the first cards of each class."""
    if k == 0:
        yield []
        return
    if not classes or sum(len(c) for c in classes) < k:
        return
    head, rest = classes[0], classes[1:]
    for n in range(min(k, len(head)), -1, -1):
        for tail in _first_of_each(rest, k - n):
            yield head[:n] + tail


def meld_funcs(rank: tuple, suit: tuple, order: tuple, name: tuple, nranks: int
                ) -> dict[str, Callable[..., Any]]:
    """Set and run finders over the deck's card tables (built once per game)."""
    kept: Tables = {}  # key texts of keys of plain closure values, by card (cardtables.py)
    wild_kept: Tables = {}  # the same of wild: functions' answers
    # the order cards of one meld are listed in: by rank order, then suit, then id
    place_of = [(order[c], suit[c] or "", c) for c in range(len(rank))]
    # ... as one number per card, which sorts faster than the tuples it stands for
    place = [0] * len(rank)
    for i, c in enumerate(sorted(range(len(rank)), key=place_of.__getitem__)):
        place[c] = i
    # cards of one name share a number (several packs), so that a meld's key is numbers
    name_id: list[int] = []
    ids: dict[str, int] = {}
    for c in range(len(rank)):
        name_id.append(ids.setdefault(name[c], len(ids)))
    # no two cards of one name (one pack): cards are told apart by their ids alone
    one_pack = len(ids) == len(rank)

    def dedupe(options: list[list[int]], same: Any = None,
               known: dict[int, str] | None = None) -> list[list[int]]:
        """The options without repeats: equal names, or equal ``same`` keys, are one option
        (the first seen is kept). ``known``: ``same``'s answers already worked out (the
        finder's key texts), read without calling it."""
        seen: set[tuple] = set()
        out = []
        by_place = place.__getitem__
        nid = name_id.__getitem__
        look = known.__getitem__ if known is not None else same
        for o in options:
            o.sort(key=by_place)  # every option is a new list of the finder's own
            if same is None:
                key = tuple(map(nid, o))
            else:
                try:  # every card of an option had its key worked out when it was chosen
                    key = tuple(sorted(map(look, o)))
                except KeyError:
                    key = tuple(sorted(map(same, o)))
            if key not in seen:
                seen.add(key)
                out.append(o)
                if len(out) > MAX_MELDS:
                    raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
        return out

    def classes_of(cs: list[int], key: Any, known: Any) -> list[list[int]]:
        """The cards by key, each key's cards in the list's order (with no key, each
        card is its own)."""
        if key is None:
            return [[c] for c in cs]
        classes: dict[str, list[int]] = {}
        get = known.get  # type: ignore[union-attr]
        for c in cs:
            t = get(c)
            classes.setdefault(key(c) if t is None else t, []).append(c)
        return list(classes.values())

    def choices(cs: list[int], classes: list[list[int]], k: int, key: Any) -> Any:
        """Every choice of k of the cards; with a key, one per mix of keys (the first
        cards of each key), so that many equal cards cost nothing."""
        # many wild cards make astronomically many choices: bound them before making any
        n = math.comb(len(cs), k) if key is None else \
            math.comb(max(0, len(classes) + k - 1), k)
        if n > MAX_COLLECTION:
            raise RuntimeRulesError(f"sets(): more than {MAX_COLLECTION} ways to choose "
                                    f"{k} of {len(cs)} cards (fewer wild cards, or a "
                                    "lower max_wild:?)")
        charge(n)
        if key is None:
            return itertools.combinations(cs, k)
        if len(classes) == 1:  # _first_of_each's one answer, if any
            return [classes[0][:k]] if len(classes[0]) >= k else []
        return _first_of_each(classes, k)

    def plain_sets(ranks: dict[str, list[int]], lo: int, hi: int, key: Any,
                   known: dict[int, str] | None) -> list[list[int]]:
        """``sets`` with no wild card: the same sets in the same order, charged the same, in
        fewer steps; where no two of them can be alike, none is looked for (no two cards of
        one name; with a key, each rank's cards of one key and no two ranks' keys equal)."""
        WORK[0] -= 1  # choices()'s one way to take no wild card of none
        if WORK[0] < 0:
            out_of_work()
        enough = [g for g in ranks.values() if len(g) >= lo]
        if len(enough) > 1:  # sort(key=lambda g: order[g[0]]), with no call per group
            firsts = [order[g[0]] for g in enough]
            enough = [enough[i] for i in sorted(range(len(enough)), key=firsts.__getitem__)]
        out: list[list[int]] = []
        limit = MAX_MELDS * 4
        by_place = place.__getitem__
        alike = False  # whether two of the sets may be alike (then dedupe looks)
        if key is None:
            for group in enough:
                for a in range(lo, min(hi, len(group)) + 1):
                    out.extend(map(list, choices(group, [], a, None)))
                    if len(out) > limit:
                        raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
            cards = [c for g in enough for c in g]
            alike = len(set(cards) if one_pack else {name_id[c] for c in cards}) < len(cards)
        else:
            seen: set[str] = set()
            for group in enough:
                top = min(hi, len(group))
                if top < lo:
                    continue
                # one key for all (classes_of's answer, without its dict): the keys are
                # worked out in the same order, so classes_of finds them all known
                get = known.get  # type: ignore[union-attr]
                t = get(group[0])
                if t is None:
                    t = key(group[0])
                for c in group:
                    u = get(c)
                    if u is None:
                        u = key(c)
                    if u != t:
                        break
                else:  # the first a cards, each size charged as one way
                    if len(out) + top - lo >= limit or WORK[0] <= top - lo:
                        for a in range(lo, top + 1):  # a limit met on the way: where
                            WORK[0] -= 1
                            if WORK[0] < 0:
                                out_of_work()
                            out.append(sorted(group[:a], key=by_place))
                            if len(out) > limit:
                                raise RuntimeRulesError(f"more than {MAX_MELDS} melds to "
                                                        "choose from")
                    else:  # put in order here (a set of one card is)
                        WORK[0] -= top - lo + 1
                        for a in range(lo, top + 1):
                            r = group[:a]
                            if a > 1:
                                r.sort(key=by_place)
                            out.append(r)
                    alike = alike or t in seen
                    seen.add(t)
                    continue
                classes = classes_of(group, key, known)
                alike = True
                for a in range(lo, top + 1):
                    out.extend(map(list, choices(group, classes, a, key)))
                    if len(out) > limit:
                        raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
        if alike:
            return dedupe(out, key, known)
        if len(out) > MAX_MELDS:
            raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
        if key is None:  # (with a key, each set was put in order as it was made)
            for o in out:
                o.sort(key=by_place)
        return out

    counts = meldbits.RankCounts(rank)  # (sets' answers of no set, told in one go)

    def split(cards: Any, wild: Callable[[Any], Any] | None) -> tuple[list[int], list[int]]:
        cs = items_of(cards)
        if wild is None:
            return list(cs), []
        # one pass: a card equal to a wild card is one too (wild is a function of the card)
        return split_wild(cs, wild, wild_kept)

    def sets(cards: Any, lo: int = 3, hi: int | None = None, *, wild: Any = None,
             max_wild: int = 0, all_wild: bool = False, key: Any = None) -> list[list[int]]:
        """Every set of lo..hi cards of one rank, with at most max_wild wild cards. With
        ``key``, cards with equal keys are interchangeable: one set per choice of keys, made of
        the first such cards in the list's order."""
        hi = lo if hi is None else hi
        # the sizes are looped over: checked before anything (a size of -10^15 looped that far)
        if not (type(lo) is int and type(hi) is int and type(max_wild) is int):
            for what, v in (("the smallest size", lo), ("the largest size", hi),
                            ("max_wild:", max_wild)):
                if not isinstance(v, int):
                    raise RuntimeRulesError(f"sets(): {what} is {clipped_text(v, 40)}, not "
                                            "a whole number")
        if lo < 1 or max_wild < 0:
            raise RuntimeRulesError(f"sets(): the smallest size is {lo} and max_wild: "
                                    f"{max_wild}; a set has at least one card, and max_wild: "
                                    "is 0 or more")
        if wild is None:  # no wild card: plain_sets (without a copy of the cards)
            cs = items_of(cards)
            known = None
            if key is not None:
                key, known = key_texts(key, kept)
            hi = min(hi, len(cs))  # no set is bigger than the cards given
            if counts.no_set(cs, lo):  # plain_sets' answer and charge, without grouping the cards
                WORK[0] -= 1
                if WORK[0] < 0:
                    out_of_work()
                return []
            ranks: dict[str, list[int]] = {}
            for c in cs:
                ranks.setdefault(rank[c], []).append(c)
            return plain_sets(ranks, lo, hi, key, known)
        cs = items_of(cards)
        tab = table_of(wild, wild_kept)
        ktab = table_of(key, kept) if key is not None else None
        owed = counts.early(cs, tab, ktab, key is not None, lo, min(hi, len(cs)), max_wild,
                            all_wild)
        if owed is not None and WORK[0] >= owed:  # no set (most hands), told from counts
            WORK[0] -= owed  # (running out, the long way stops where it did)
            return []
        # the natural cards grouped by rank as they are told from the wild ones (one pass
        # where every card's answer is in wild:'s table), else split and then grouped
        told = split_ranks(cs, tab, rank)
        if told is None:
            nat, wilds = split_wild(cs, wild, wild_kept)
            told = (len(nat), {}, wilds)
            for c in nat:
                told[1].setdefault(rank[c], []).append(c)
        n_nat, ranks, wilds = told
        known = None
        if key is not None:
            key, known = key_texts(key, kept, ktab)
        hi = min(hi, n_nat + len(wilds))  # no set is bigger than the cards given
        out: list[list[int]] = []

        if not wilds:
            return plain_sets(ranks, lo, hi, key, known)
        wild_classes = classes_of(wilds, key, known) if key is not None else []
        most_wild = min(max_wild, len(wilds))
        if (max(map(len, ranks.values()), default=0) + most_wild < lo
                and not (all_wild and min(hi, len(wilds)) >= lo)):
            # no rank has enough cards, nor the wild cards alone: no set. What choosing the
            # wild cards charges (and refuses) below, without making the choices
            for k in range(0, most_wild + 1):
                choices(wilds, wild_classes, k, key)
            return []
        if wilds:
            wild_choices = {k: [list(x) for x in choices(wilds, wild_classes, k, key)]
                            for k in range(0, min(max_wild, len(wilds)) + 1)}
        else:  # choices()'s one way to take no card of none, written out
            WORK[0] -= 1  # charge(math.comb(0, 0))
            if WORK[0] < 0:
                out_of_work()
            wild_choices = {0: [[]]}
        most_wild = max(wild_choices)
        # the ranks with enough cards for the smallest set, in the deck's order of ranks
        enough = [g for g in ranks.values() if len(g) + most_wild >= lo]
        if len(enough) > 1:  # sort(key=lambda g: order[g[0]]), with no call per group
            firsts = [order[g[0]] for g in enough]
            enough = [enough[i] for i in sorted(range(len(enough)), key=firsts.__getitem__)]
        wild_items = list(wild_choices.items())
        for group in enough:
            group_classes: list[list[int]] | None = None  # keyed when first needed
            one_class = False
            glen = len(group)
            for size in range(lo, hi + 1):
                for k, wcs in wild_items:
                    a = size - k
                    if a < 1 or a > glen:
                        continue
                    if group_classes is None:
                        group_classes = classes_of(group, key, known) if key is not None else []
                        one_class = len(group_classes) == 1
                    if one_class:  # choices()'s one way, written out: the first a cards
                        WORK[0] -= 1  # charge(math.comb(a, a))
                        if WORK[0] < 0:
                            out_of_work()
                        nc = group[:a]
                        for wc in wcs:
                            out.append(nc + wc)
                        if len(out) > MAX_MELDS * 4:
                            raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
                        continue
                    for nc in choices(group, group_classes, a, key):
                        for wc in wcs:
                            out.append(list(nc) + wc)
                        if len(out) > MAX_MELDS * 4:
                            raise RuntimeRulesError(f"more than {MAX_MELDS} melds to choose from")
        if all_wild:
            for size in range(lo, min(hi, len(wilds)) + 1):
                out.extend(list(x) for x in choices(wilds, wild_classes, size, key))
        return dedupe(out, key, known)

    def is_set(cards: Any, *, wild: Any = None, max_wild: int | None = None) -> bool:
        nat, wilds = split(cards, wild)
        if max_wild is not None and len(wilds) > max_wild:
            return False
        return len({rank[c] for c in nat}) <= 1 and len(nat) + len(wilds) > 0

    # the run finders over the same tables, each run put in order as dedupe puts a meld
    runs, is_run = run_funcs(rank, suit, order, name, place, one_pack, dedupe)

    def disjoint(melds: Any, k: int) -> list[list[list[int]]]:
        """Every choice of k melds that share no card."""
        ms = items_of(melds)
        if not isinstance(k, int) or k < 0:
            raise RuntimeRulesError("disjoint() needs a number of melds of 0 or more")
        # every choice is looked at, even when none is kept, each of its melds card by card
        size = max([len(m) for m in ms if isinstance(m, list)], default=1)
        charge(math.comb(len(ms), k) * max(1, k * size))
        out = []
        for combo in itertools.combinations(ms, k):
            used: set[int] = set()
            ok = True
            for m in combo:
                if used & set(m):
                    ok = False
                    break
                used |= set(m)
            if ok:
                out.append([list(m) for m in combo])
                if len(out) > MAX_MELDS:
                    raise RuntimeRulesError(f"more than {MAX_MELDS} meld choices")
        return nested(out)

    _ = nranks
    return {"sets": sets, "runs": runs, "is_set": is_set, "is_run": is_run,
            "disjoint": disjoint}
