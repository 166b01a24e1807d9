"""The house: phases with ``actor: house``, played by the rules and by no seat (house.py).

Small games written here: the house's actions are never decisions (never ``current_player``,
never in ``legal_moves``, not in ``history``), a house that never leaves its phase meets the
step limit with a located error, a house action that could choose is a check error, ``me`` in a
house phase is one, and play and simulate name the house, not a seat.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

import rulelang
from rulelang.build import check_only
from rulelang.errors import RulesErrors, RuntimeRulesError
from rulelang.rules import load_rules

from .helpers import output, run_cli

BASE = """\
name: House test
players: {min: 1, max: 3, default: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H]}
zones:
  stock: {home: true}
  hand: {per_player: true, visibility: owner, face: up}
  house_hand: {visibility: hidden}
counters:
  chips: 10
globals:
  bank: 100
  cur: none
house:
  counters: {chips: bank}
  zones: [house_hand]
conserved:
  chips: sum(chips[p] for p in seats) + bank
functions:
  total(cards): sum(c.order for c in cards)
round:
  start: ["gather(stock)", "shuffle(stock)", "deal(stock, hand, 1)", "cur = first(players)"]
  settle:
    done: >-
      for p in players { if total(hand[p]) > total(house_hand) { chips[p] += 1; bank -= 1 }
      else { chips[p] -= 1; bank += 1 } }
  next_dealer: dealer
match: {over: round >= 3}
phases:
  p:
    actor: cur
    actions:
      hit:
        when: size(hand[me]) < 3
        do: move(top(stock), hand[me])
        next: p
      stand:
        do: cur = first([q for q in players if q > me])
        next: if cur == none then dealer_plays else p
  dealer_plays:
    actor: house
    actions:
      draw:
        args: {c: "[top(stock)]"}
        when: total(house_hand) < 12
        do: "move(c, house_hand, face: 'up')"
        next: dealer_plays
      stand:
        do: end_round('done')
"""


def _write(tmp_path: Path, text: str, name: str = "h.yaml") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def _line(text: str, needle: str) -> int:
    """The 1-based line of ``text`` where ``needle`` is."""
    return text[:text.index(needle)].count("\n") + 1


def _messages(path: Path) -> list[str]:
    return [f"{e.span.line}:{e.span.col}: {e.message}" for e in check_only(load_rules(str(path)))]


def test_the_house_plays_by_itself_and_is_never_to_move(tmp_path: Path) -> None:
    game = rulelang.load(str(_write(tmp_path, BASE)))
    assert game.house is not None and game.house.name == "house"
    s = game.new_state(2, seed=1, auto_continue=False)
    seen_phases = set()
    while s.status == "play":
        assert s.current_player() in (0, 1)
        assert s.phase == "p"  # never waits in the house's phase
        assert all(m in ("hit", "stand") for m in s.legal_moves())
        seen_phases.add(s.phase)
        s.apply("stand")
    assert s.ended_by == "done"
    assert len(s.zones[game.zones[2].first_id]) >= 2  # the house drew to 12
    # the house's moves are in each seat's log as the house's (-1), not in the history
    assert [who for who, _t in s.history] == [0, 1]
    assert any(who == -1 and text.startswith("draw ") for who, text in s.view(0)["events"])
    assert s.view(0)["events"][-1] == (-1, "stand")


def test_a_house_that_never_leaves_meets_the_step_limit(tmp_path: Path) -> None:
    text = BASE.replace("        when: total(house_hand) < 12\n", "").replace(
        """        do: "move(c, house_hand, face: 'up')"\n""", "        do: pass\n")
    game = rulelang.load(str(_write(tmp_path, text)))
    s = game.new_state(2, seed=1, max_round_steps=50)
    s.apply("stand")
    with pytest.raises(RuntimeRulesError) as e:
        s.apply("stand")
    assert "more than 50 steps" in e.value.message and "dealer_plays" in e.value.message
    assert e.value.span.line == _line(text, "actor: house")  # the house's phase


def test_a_house_action_that_could_choose_is_a_check_error(tmp_path: Path) -> None:
    text = BASE.replace('args: {c: "[top(stock)]"}', 'args: {c: "stock"}')
    msgs = _messages(_write(tmp_path, text))
    line = _line(text, 'args: {c: "stock')
    assert len(msgs) == 1 and msgs[0].startswith(
        f"{line}:19: a house phase makes no decision, "
        "but argument 'c' may offer several values")


def test_me_in_a_house_phase_is_a_check_error(tmp_path: Path) -> None:
    text = BASE.replace("when: total(house_hand) < 12", "when: total(hand[me]) < 12")
    msgs = _messages(_write(tmp_path, text))
    assert len(msgs) == 1 and msgs[0].startswith(
        f"{_line(text, 'hand[me]) < 12')}:26: a house phase is played by the rules")


def test_a_house_section_names_a_counter_a_global_and_shared_zones(tmp_path: Path) -> None:
    text = BASE.replace("counters: {chips: bank}", "counters: {chips: bnak, lives: bank}") \
        .replace("zones: [house_hand]", "zones: [hand]")
    msgs = _messages(_write(tmp_path, text))
    assert [m.split(": ", 1)[1][:30] for m in msgs] == [
        "house: 'bnak' is not a global ", "house: 'lives' is not a counte",
        "house: 'hand' is not a shared "]


def test_no_house_no_change(tmp_path: Path) -> None:
    game = rulelang.load("thirty-one")
    assert game.house is None
    assert all(not ph.house for ph in game.phases.values())


def test_play_and_simulate_name_the_house(tmp_path: Path) -> None:
    path = _write(tmp_path, BASE)
    r = run_cli("play", str(path), "--seed", "1", stdin="stand\n\n")
    out = output(r)
    assert r.returncode == 0, out
    assert "(dealer)" not in out
    assert "chips: you=10  P1=10  house=100" in out
    assert "  house: draw " in out and "  house: stand" in out
    assert "house: " in out.split("round 1 over")[1]  # its cards at the showdown
    r = run_cli("simulate", str(path), "--games", "3", "--check")
    assert r.returncode == 0, output(r)
    assert "seats in play: players " in r.stdout and "; house " in r.stdout
    assert "dealer" not in r.stdout
    r = run_cli("simulate", str(path), "--games", "3", "--json")
    change = json.loads(r.stdout)["counter_change_per_round"]["chips"]
    assert set(change) == {"players", "house"}
    assert change["house"] == pytest.approx(-2 * change["players"])


def test_a_rules_error_in_a_house_action_is_located(tmp_path: Path) -> None:
    text = BASE.replace("do: end_round('done')", "do: bank = bank // 0")
    game = rulelang.load(str(_write(tmp_path, text)))
    s = game.new_state(1, seed=1)
    with pytest.raises(RuntimeRulesError) as e:
        s.apply("stand")
    assert e.value.span.line == _line(text, "bank // 0")


def test_check_refuses_a_broken_house_file(tmp_path: Path) -> None:
    with pytest.raises(RulesErrors):
        rulelang.load(str(_write(tmp_path, BASE.replace("zones: [house_hand]",
                                                        "zones: [nope]"))))
