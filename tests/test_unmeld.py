"""Removing groups from the table: ``unmeld(g, zone)`` and ``unmeld(g)``, and ``meld([], z)``
laying nothing (docs/language.md §5.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulesError, RuntimeRulesError
from rulelang.scenario import run_scenario

GAME = """\
name: Groups
players: {min: 2, max: 2, default: 2}
deck: {ranks: [2, 3, 4, 5], suits: [S, H]}
zones:
  stock: {home: true}
  discard: {visibility: public}
  hand: {per_player: true}
  pile: {groups: true, visibility: public}
  melds: {per_player: true, groups: true, visibility: public}
round:
  start:
    - gather(stock); shuffle(stock); deal(stock, hand, 4)
  triggers:
    done: size(hand[0]) + size(hand[1]) == 0
phases:
  play:
    actions:
      lay:
        args: {c: "hand[me]"}
        do: "meld([c], pile); meld([], pile)"
      clear:
        when: size(pile) > 0
        do: for g in pile { unmeld(g, discard) }
        next: play
      back:
        args: {g: "melds[me]"}
        do: "unmeld(g, hand[me], at: 'bottom')"
        next: play
      strip:
        args: {g: "melds[me]"}
        when: size(g) > 0
        do: move(g[0], discard)
        next: play
      drop:
        args: {g: "melds[me]"}
        do: unmeld(g)
        next: play
"""


def _scenario(tmp_path: Path, body: str) -> bool:
    (tmp_path / "g.yaml").write_text(GAME)
    sc = tmp_path / "s.scenario.yaml"
    sc.write_text("game: g.yaml\nplayers: 2\ndealer: 1\n" + body)
    out = run_scenario(sc, str(sc))
    assert out.ok, out.reason
    return out.ok


def test_unmeld_sends_every_group_to_a_zone(tmp_path: Path) -> None:
    # meld([]) lays nothing: each lay makes one group, not two
    _scenario(tmp_path, """\
deal: {hand: [[2S, 3S, 4S, 5S], [2H, 3H, 4H, 5H]]}
moves: ["0: lay 2S", "1: lay 3H", "0: clear"]
expect:
  zones: {pile: [], discard: [3H, 2S]}
  to_move: 0
""")


def test_groups_after_a_removed_one_move_up(tmp_path: Path) -> None:
    _scenario(tmp_path, """\
deal:
  hand: [[5S], [5H]]
  melds: [[[2S, 2H], [3S, 3H], [4S, 4H]], []]
moves: ["0: back P0#2"]
expect:
  zones: {melds: [[[2S, 2H], [4S, 4H]], []], hand: [[5S, 3S, 3H], [5H]]}
  to_move: 0
  legal: [lay 3S, lay 3H, lay 5S, back P0#1, back P0#2, strip P0#1, strip P0#2,
          drop P0#1, drop P0#2]
""")


def test_an_emptied_group_can_be_dropped(tmp_path: Path) -> None:
    _scenario(tmp_path, """\
deal:
  hand: [[5S], [5H]]
  melds: [[[2S]], []]
moves: ["0: strip P0#1", "0: drop P0#1", "0: lay 5S"]
expect:
  zones: {melds: [[], []], discard: [2S], pile: [[5S]]}
""")


def test_dropping_a_group_that_holds_cards_is_a_located_error(tmp_path: Path) -> None:
    with pytest.raises(RuntimeRulesError, match=r"unmeld\(\): P0#1 still holds 2 cards: name "
                       r"the zone they go to") as e:
        _scenario(tmp_path, """\
deal:
  hand: [[5S], [5H]]
  melds: [[[2S, 2H]], []]
moves: ["0: drop P0#1"]
""")
    assert e.value.span is not None and e.value.span.line == 36


def test_unmeld_of_no_group_is_a_check_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(GAME.replace("do: unmeld(g)", "do: unmeld(hand[me])"))
    with pytest.raises(RulesError, match=r"unmeld\(\) takes a group on the table"):
        rulelang.load(str(bad))


def test_a_clone_keeps_its_groups(tmp_path: Path) -> None:
    (tmp_path / "g.yaml").write_text(GAME)
    s = rulelang.load(str(tmp_path / "g.yaml")).new_state(2, seed=3)
    s.apply(s.legal_moves()[0])
    c = s.clone()
    s.apply("clear")
    assert s.view(0)["zones"]["pile"] == [] and len(c.view(0)["zones"]["pile"]) == 1
