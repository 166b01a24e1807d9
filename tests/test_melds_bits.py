"""The meld finders' answers told by bits (a hand's places as bits of one number, rank counts
in bytes) are those of the plain walks they replace, in the same order; a one-pass rules
function's memo stays paused (the same work, nothing remembered)."""

from __future__ import annotations

import random
from typing import Any

from rulelang.errors import Span
from rulelang.functions import _one_pass
from rulelang.limits import MAX_WORK
from rulelang.melds import RUN_PLACE, meld_funcs
from rulelang.memo import memo
from rulelang.parse import parse
from rulelang.runtime import LIMIT, WORK
from rulelang.scope import UserFn


def _deck(packs: int, ranks: str) -> tuple[dict[str, Any], list[tuple[str, str, int, str]]]:
    cards = [(r, s, i, r + s) for _ in range(packs) for i, r in enumerate(ranks) for s in "CDHS"]
    WORK[0] = LIMIT[0] = MAX_WORK
    rank, suit, order, name = (tuple(x) for x in zip(*cards))
    return meld_funcs(rank, suit, order, name, len(ranks)), cards


def _runs(cards: list, hand: list[int], lo: int, ace: str) -> list[list[int]]:
    """``runs`` as it was written before: stretches of places in a row, ordered by suit."""
    first: dict[str, int] = {}
    for c in hand:
        first.setdefault(cards[c][3], c)
    cs = list(first.values())
    suits = list(dict.fromkeys(s for _, s, _, _ in cards))
    span = 16

    def spot(c: int) -> int:
        r, s = cards[c][0], cards[c][1]
        p = RUN_PLACE.get(r, 1 if ace == "low" else 14)
        return suits.index(s) * span + p

    keys = [spot(c) for c in cs]
    at = dict(zip(keys, cs))
    ks = sorted(at)
    stretches, start = [], 0
    for i in range(1, len(ks) + 1):
        if i == len(ks) or ks[i] != ks[i - 1] + 1:
            if i - start >= lo:
                stretches.append(ks[start:i])
            start = i
    seen: dict[int, int] = {}
    for k in keys:
        seen.setdefault(k // span, len(seen))
    stretches.sort(key=lambda x: seen[x[0] // span])
    order = sorted(range(len(cards)), key=lambda c: (cards[c][2], cards[c][1], c))
    place = {c: i for i, c in enumerate(order)}
    out = []
    for st in stretches:
        seq = [at[k] for k in st]
        for a in range(len(seq) - lo + 1):
            for b in range(a + lo, len(seq) + 1):
                out.append(sorted(seq[a:b], key=place.__getitem__))
    return out


def test_runs_and_sets_told_by_bits_are_the_walks_answers() -> None:
    rng = random.Random(5)
    for packs, ranks, ace in ((1, "A23456789TJQK", "low"), (2, "A23456789TJQK", "low"),
                              (1, "23456789TJQKA", "high"), (1, "A23456789TJQK", "high")):
        f, cards = _deck(packs, ranks)
        for _ in range(150):
            hand = rng.sample(range(len(cards)), rng.randint(0, 14))
            for lo in (1, 2, 3, 4):
                assert f["runs"](hand, lo, ace=ace) == _runs(cards, hand, lo, ace)
                by_rank: dict[str, int] = {}
                for c in hand:
                    by_rank[cards[c][0]] = by_rank.get(cards[c][0], 0) + 1
                got = f["sets"](hand, lo, 4)
                assert (got == []) == all(n < lo for n in by_rank.values())
                assert all(len({cards[c][0] for c in s}) == 1 for s in got)
    f, cards = _deck(3, "A23456789TJQK")
    assert len(f["sets"](list(range(len(cards))), 12, 12)) == 13  # 156 cards: not in bytes
    assert f["runs"]([0, 4, 8], 4) == [] and f["sets"]([0, 1], 3) == []  # too few cards


def test_a_one_pass_function_keeps_its_memo_paused() -> None:
    def one_pass(text: str, params: tuple[str, ...] = ("cards",)) -> bool:
        uf = UserFn("f", params, Span(), False)
        uf.tree = parse(text)
        return _one_pass(uf)

    assert one_pass("sum(points[c.rank] for c in cards)")
    assert one_pass("count(cards, c -> c.suit == 'H')")
    assert not one_pass("sum(points[c.rank] for c in cards for d in cards)")  # two loops
    assert not one_pass("size([c for c in cards if c in cards])")  # a list looked through
    assert not one_pass("sets(cards, 3) + runs(cards, 3)")  # finders: not one pass
    assert not one_pass("a + size(b)", ("a", "b"))  # two arguments
    f = memo(lambda S, a0: sum(a0), 1, (False,), cheap=True)
    WORK[0] = LIMIT[0] = 100
    assert f(None, [1, 2, 3]) == 6 and WORK[0] == 97  # the key's items, as a paused memo's
    assert f.memo["seen"][2] > 10 ** 9 and not f.memo["cache"]
