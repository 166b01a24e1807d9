"""The meld finders' quicker paths give what looking through every meld gives: alike melds
(the same cards by name) are still listed once where they can occur, and a sequential choice
whose whole choices are all legal offers the same next items."""

from __future__ import annotations

import itertools
from typing import Any

from rulelang.cardtables import table_of
from rulelang.choice import _every, _next_items
from rulelang.limits import MAX_WORK
from rulelang.melds import meld_funcs
from rulelang.runtime import LIMIT, WORK

RANKS = "A23456789TJQK"


def _deck(packs: int) -> tuple[dict[str, Any], dict[str, list[int]]]:
    rank, suit, order, name = [], [], [], []
    for _ in range(packs):
        for i, r in enumerate(RANKS):
            for s in "CDHS":
                rank.append(r)
                suit.append(s)
                order.append(i)
                name.append(r + s)
    ids: dict[str, list[int]] = {}
    for c, n in enumerate(name):
        ids.setdefault(n, []).append(c)
    WORK[0] = LIMIT[0] = MAX_WORK
    return meld_funcs(tuple(rank), tuple(suit), tuple(order), tuple(name), 13), ids


def test_runs_with_an_ace_in_two_places_are_listed_once() -> None:
    f, ids = _deck(1)
    hearts = [ids[r + "H"][0] for r in RANKS]
    # A..K and 2..A are the same thirteen cards: one run; every other run once
    assert len(f["runs"](hearts, 13, ace="both")) == 2  # the 13 cards, and A..K..A
    assert len(f["runs"](hearts, 3, ace="both")) == sum(range(1, 13)) - 1
    assert len(f["runs"](hearts, 3, ace="both", suited=False)) == sum(range(1, 13)) - 1
    assert len(f["runs"](hearts, 3)) == sum(range(1, 12))  # aces low: no such pair


def test_sets_of_alike_cards_are_listed_once() -> None:
    f, ids = _deck(2)
    h1, h2, s = ids["5H"][0], ids["5H"][1], ids["5S"][0]
    assert f["sets"]([h1, h2, s], 2, 2) == [[h1, h2], [h1, s]]  # 5H 5S: once
    f1, ids1 = _deck(1)
    five, six = ids1["5H"][0], ids1["6H"][0]
    # a key that makes two ranks alike: one set of one card
    assert f1["sets"]([five, six], 1, 1, key=lambda c: 1) == [[five]]
    assert f1["sets"]([five, six], 1, 1, key=lambda c: c // 4) == [[five], [six]]
    assert f1["sets"]([five, five], 1, 1) == [[five]]  # the same card twice


def test_is_run_by_places() -> None:
    f, ids = _deck(1)
    c = {n: v[0] for n, v in ids.items()}
    assert f["is_run"]([c["QH"], c["KH"], c["AH"]], ace="both")
    assert not f["is_run"]([c["KH"], c["AH"], c["2H"]], ace="both")
    assert not f["is_run"]([c["QH"], c["KH"], c["AH"]])
    assert f["is_run"]([c["3H"], c["2S"], c["4D"]], suited=False)
    assert not f["is_run"]([c["3H"], c["2S"], c["4D"]])
    assert not f["is_run"]([c["3H"], c["3S"], c["4D"]], suited=False)


def test_every_whole_choice_legal_gives_the_same_next_items() -> None:
    WORK[0] = LIMIT[0] = MAX_WORK  # (what an earlier test in the process left is not ours)
    for n, k in ((4, 2), (6, 2), (5, 3)):
        every = _every(n, k)
        plain = frozenset(itertools.combinations(range(n), k))
        assert every == plain
        for m in range(k):
            for chosen in itertools.permutations(range(n), m):
                assert _next_items(every, chosen, n) == _next_items(plain, chosen, n)


# card id -> rank (a global: the lambdas below close over their wild ranks alone)
_RANK: dict[int, str] = {}


def _spend(n: int) -> bool:
    """Work charged as a rules lambda charges its search (``c.rank in w``)."""
    WORK[0] -= n
    return True


def test_wild_and_key_answers_read_from_tables_are_charged_as_calls() -> None:
    # a lambda whose closure holds plain values (a list of ranks) is answered from a per-card
    # table after the first call; one closing over anything else is called every time: the
    # same sets, and the same work, on every call (whatever ran before)
    f, ids = _deck(2)
    _RANK.update({c: n[0] for n, cs in ids.items() for c in cs})
    rank = _RANK
    hand = [ids[n][i] for n, i in (("2C", 0), ("2C", 1), ("5H", 0), ("5S", 0), ("5S", 1),
                                   ("9D", 0), ("9C", 0), ("KH", 0), ("AS", 0))]
    w = ["2", "A"]
    box = {"w": w}  # not a plain value: these lambdas are called for every card

    def wild_of(ws: list[str]) -> Any:
        return lambda c: _spend(len(ws)) and _RANK[c] in ws

    def key_of(ws: list[str]) -> Any:
        return lambda c: _spend(len(ws)) and ("wild" if _RANK[c] in ws else _RANK[c])

    assert table_of(wild_of(w), {}) is not None and table_of(key_of(w), {}) is not None
    # tables are found by the code's id: another code with the same id (the first one gone)
    # gets a table of its own
    tabs: dict = {}
    mine = table_of(wild_of(w), tabs)
    (k,) = [k for k in tabs if type(k) is tuple]  # (and table_of's last answer)
    assert mine is not None and table_of(wild_of(w), tabs) is mine
    tabs[(id(key_of(w).__code__), k[1])] = tabs.pop(k)
    assert table_of(key_of(w), tabs) is not mine

    def run(wild: Any, key: Any) -> tuple[list[list[int]], int]:
        WORK[0] = LIMIT[0] = MAX_WORK
        got = f["sets"](hand, 3, 4, wild=wild, max_wild=1, all_wild=True, key=key)
        return got, MAX_WORK - WORK[0]

    called = run(lambda c: _spend(len(box["w"])) and rank[c] in box["w"],
                 lambda c: _spend(len(box["w"])) and ("wild" if rank[c] in box["w"]
                                                       else rank[c]))
    assert called[0] and called[1] > 0
    for _ in range(3):  # the first call fills the tables, the others read them
        assert run(wild_of(w), key_of(w)) == called
    # other closure values are other tables: deuces alone are wild
    assert run(wild_of(["2"]), key_of(["2"])) == run(
        lambda c: _spend(1) and rank[c] == "2" and box is not None,
        lambda c: _spend(1) and ("wild" if rank[c] == "2" and box is not None else rank[c]))
