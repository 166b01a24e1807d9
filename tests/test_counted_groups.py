"""Counting a zone of groups without making them (``size`` of one: ``Table.group_count``): the
same answer and the same work as listing them."""

from __future__ import annotations

import random
from pathlib import Path

import rulelang
from rulelang.calls import _one_call
from rulelang.runtime import WORK

GAMES = Path(__file__).resolve().parent.parent / "games"


def test_one_call_is_a_whole_call_only() -> None:
    head = "S.group_list("
    assert _one_call("S.group_list(8)", head)
    assert _one_call("S.group_list(1 + (F[0]))", head)
    assert not _one_call("S.group_list(8)[0:(1)]", head)
    assert not _one_call("S.group_list(8) + f(1)", head)
    assert not _one_call("len(S.group_list(8))", head)


def test_group_count_is_the_groups_listed_and_charges_the_same() -> None:
    game = rulelang.load(GAMES / "president.yaml")
    s = game.new_state(game.default_players, seed=3, record=False)
    rng = random.Random(3)
    seen = 0
    for _ in range(40):
        if s.status != "play":
            break
        zid = next(iter(s.groups), None)
        if zid is not None:
            WORK[0] = 10**6
            n = s.group_count(zid)
            counted = 10**6 - WORK[0]
            s._gcache.clear()
            WORK[0] = 10**6
            assert n == len(s.group_list(zid)) and counted == 10**6 - WORK[0]
            seen += n
        s.apply_index(int(rng.random() * s.num_moves()))
    assert seen  # some groups were counted
