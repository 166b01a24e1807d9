"""``sets()`` with wild cards tells a hand that holds no set from its cards counted by rank
(``meldbits.RankCounts.wild_early``), and ``cardtables.table_of`` answers a lambda of the last
call's code and list again at once: the same sets and the same work as the long way."""

from __future__ import annotations

import random
from typing import Any

from rulelang.cardtables import keyed, table_of
from rulelang.limits import MAX_WORK
from rulelang.runtime import LIMIT, WORK
from tests.test_melds_fast import _deck

_RANKS = [r for _ in range(2) for r in "A23456789TJQK" for _s in "CDHS"]


def _spend(n: int) -> bool:
    WORK[0] -= n
    return True


def test_wild_sets_told_by_rank_counts_are_the_long_ways() -> None:
    f, _ids = _deck(2)
    rng = random.Random(5)
    box: dict[str, Any] = {}  # a closure value that is no plain value: no table, the long way

    def wild_of(ws: list[str]) -> Any:
        return lambda c: _spend(len(ws)) and _RANKS[c] in ws

    def key_of(ws: list[str]) -> Any:
        return lambda c: _spend(len(ws)) and ("wild" if _RANKS[c] in ws else _RANKS[c])

    def run(hand: list[int], lo: int, hi: int, mw: int, aw: bool, wild: Any, key: Any
            ) -> tuple[list[list[int]], int]:
        WORK[0] = LIMIT[0] = MAX_WORK
        got = f["sets"](hand, lo, hi, wild=wild, max_wild=mw, all_wild=aw, key=key)
        return got, MAX_WORK - WORK[0]

    early = 0
    for i in range(1500):
        ws = rng.choice([["2"], ["2", "A"], ["K"], []])
        hand = rng.sample(range(104), rng.randint(0, 14))
        lo = rng.randint(1, 7)
        args = (hand, lo, lo + rng.randint(0, 2), rng.randint(0, 3), rng.random() < 0.5)
        box["w"] = ws
        slow = run(*args, lambda c: _spend(len(box["w"])) and _RANKS[c] in box["w"],
                   (lambda c: _spend(len(box["w"])) and ("wild" if _RANKS[c] in box["w"]
                                                        else _RANKS[c])) if i % 3 else None)
        for _ in range(2):  # the first call may fill the tables, the second reads them
            assert run(*args, wild_of(ws), key_of(ws) if i % 3 else None) == slow
        early += not slow[0]
    assert 300 < early < 1400  # both ways were taken


def test_the_last_table_is_found_again_unless_its_list_changed() -> None:
    tabs: dict = {}
    w = ["2"]

    def wild_of(ws: list[str]) -> Any:
        return lambda c: _RANKS[c] in ws

    mine = table_of(wild_of(w), tabs)
    assert mine is not None and table_of(wild_of(w), tabs) is mine
    assert table_of(wild_of(list(w)), tabs) is mine  # an equal list: the same table
    w.append("A")  # the same list, changed (a zone's list is changed in place)
    other = table_of(wild_of(w), tabs)
    assert other is not None and other is not mine
    assert table_of(wild_of(["2"]), tabs) is mine


def test_keyed_reads_the_last_table_again_unless_its_list_changed() -> None:
    site = object()
    w = ["2"]

    def key(c: int) -> int:
        return 0 if _RANKS[c] in w else 1

    hand = [4, 5, 0, 8]  # 2 2 A 3: deuces first, by the key
    assert keyed(hand, site, (w,), key) == [0, 0, 1, 1]
    assert keyed(hand, site, (w,), key) == [0, 0, 1, 1]  # the same table, read again
    w[:] = ["A"]  # the same list, changed in place: another table
    assert keyed(hand, site, (w,), key) == [1, 1, 0, 1]
