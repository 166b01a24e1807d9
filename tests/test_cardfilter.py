"""A listing's filter of a zone's cards read from a table by card (cardfilter.py): the same
moves, work and errors as the test run card by card, also where a hoisted call is never
reached (its work given back) or fails (the test run as before)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rulelang import cardfilter
from rulelang.errors import RulesError

from .helpers import fresh_load


@pytest.fixture(scope="module")
def games() -> tuple[Any, Any]:
    keyed = cardfilter.KEYED
    cardfilter.KEYED = True  # (off by default: see cardfilter.KEYED)
    try:
        fast = fresh_load("crazy-eights")
        fast.new_state(None, seed=0, record=False).legal_moves()  # its listing made now
    finally:
        cardfilter.KEYED = keyed
    cardfilter.ENABLED = False
    try:
        slow = fresh_load("crazy-eights")
        slow.new_state(None, seed=0, record=False).legal_moves()  # its listing made now
    finally:
        cardfilter.ENABLED = True
    return fast, slow


def test_the_listing_reads_a_table(games: tuple[Any, Any]) -> None:
    fast, slow = games
    src = "\n".join(text for text, _span in fast.generated.sources)
    assert "isdisjoint" in src
    assert "isdisjoint" not in "\n".join(text for text, _span in slow.generated.sources)


def test_tables_play_the_same(games: tuple[Any, Any]) -> None:
    fast, slow = games
    for seed in range(3):
        a = fast.new_state(None, seed=seed, record=False)
        b = slow.new_state(None, seed=seed, record=False)
        rng = random.Random(seed)
        for _ in range(300):
            if a.is_over():
                break
            assert a.legal_moves() == b.legal_moves() and a.work_done == b.work_done
            i = int(rng.random() * a.num_moves())
            a.apply_index(i)
            b.apply_index(i)
        assert a.result() == b.result() and a.work_done == b.work_done


def _rank(c: int) -> str:
    """A card's rank: the deck's cards go by rank (A up to K), four suits each."""
    return "A23456789TJQK"[c // 4]


def _listing(s: Any) -> Any:
    s._entries = s._legal = s._legal_list = None
    try:
        return s.legal_moves(), s.work_done
    except RulesError as e:
        return str(e), s.work_done


def _to_stock(s: Any, cards: list[int]) -> None:
    for c in cards:
        s.fx_move(c, 0)


def test_calls_never_reached_or_failing(games: tuple[Any, Any]) -> None:
    fast, slow = games
    for seed in range(4):
        a = fast.new_state(None, seed=seed, record=False)
        b = slow.new_state(None, seed=seed, record=False)
        hand = 2 + a.actor
        others = [c for c in a.zones[hand] if _rank(c) != "8"]
        # a hand of eights alone: the top of the pile is never looked at
        for s in (a, b):
            _to_stock(s, others)
        assert _listing(a) == _listing(b)
        # no pile at all: a hand with other cards fails where the test did
        for s in (a, b):
            _to_stock(s, list(s.zones[1]))
            for c in [c for c in s.zones[0] if _rank(c) == "5"][:2]:
                s.fx_move(c, hand)
        assert _listing(a) == _listing(b)
        assert a.zones == b.zones
