"""Work saved without changing a game: a zone of groups counted without making the groups
(``size`` of one: ``Table.group_count``, the same answer and charge), and a sequential choice's
``when`` that reads nothing of the choice tried once (``choice._when_ignores_choice``)."""

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


def test_a_when_reading_nothing_of_a_choice_is_tried_once() -> None:
    from types import SimpleNamespace

    from rulelang.choice import _when_ignores_choice

    def act(src: str) -> object:
        return SimpleNamespace(when_src=SimpleNamespace(src=src))

    assert _when_ignores_choice(act("(len(S.zones[1 + S.actor]) == 6)"), 0)  # type: ignore
    assert _when_ignores_choice(act("(len(F[0]) == 2)"), 1)  # type: ignore
    assert not _when_ignores_choice(act("(len(F[1]) == 2)"), 1)  # type: ignore
    assert not _when_ignores_choice(act("_k3(S, F)"), 1)  # type: ignore
    assert not _when_ignores_choice(act("(F.__setitem__(2, 1) or F[2])"), 1)  # type: ignore
    assert not _when_ignores_choice(SimpleNamespace(when_src=None), 0)  # type: ignore
