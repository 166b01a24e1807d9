"""Sequential choices (rulelang/choice.py): an argument chosen one item at a time.

The same game as the whole-combination listing (``combinations(hand[me], 2)``), moves of one
item each, the whole typed at once accepted in any order, the partial choice seen only by its
chooser, scenarios and replays, the checker's errors, and the bots.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import IllegalMove

from .helpers import output, run_cli

GAME = """\
name: Lay two
players: {min: 2, max: 3, default: 2}
deck: {ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A]}
zones:
  stock: {home: true}
  hand: {per_player: true}
  laid: {per_player: true, visibility: public}
counters:
  score: 0
functions:
  kept(p): sum(c.order for c in hand[p])
heuristic: kept
match: {over: "true"}
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 5)"]
  triggers: {done: "all(size(laid[p]) == 2 for p in players)"}
phases:
  play:
    actions:
      lay:
        args: {cs: ARGS}
        WHEN
        do: "move(cs, laid[me]); score[me] += sum(c.order for c in cs)"
"""

PICK = '{pick: "hand[me]", count: 2}'
WHOLE = '"combinations(hand[me], 2)"'
# the whole choice: two cards of different suits
WHEN = "when: cs[0].suit != cs[1].suit"


def game(tmp_path: Path, args: str = PICK, when: str = WHEN, name: str = "g") -> rulelang.Game:
    p = tmp_path / f"{name}.yaml"
    p.write_text(GAME.replace("ARGS", args).replace("WHEN", when), encoding="utf-8")
    return rulelang.load(str(p))


def test_items_are_listed_one_at_a_time_and_only_those_some_legal_choice_holds(
        tmp_path: Path) -> None:
    g = game(tmp_path)
    s = g.new_state(2, seed=3)
    me = s.actor
    hand = [g.tables.name[c] for c in s.zones[g.zones[1].first_id + me]]
    firsts = s.legal_moves()
    assert all(m.split()[0] == "lay" and len(m.split()) == 2 for m in firsts)
    suits = {c[-1] for c in hand}
    # with one suit only no card could be laid; here each card has a partner of another suit
    assert len(suits) > 1 and sorted(m.split()[1] for m in firsts) == sorted(
        c for c in hand if any(d[-1] != c[-1] for d in hand))
    s.apply(firsts[0])
    first = firsts[0].split()[1]
    assert s.actor == me and s.choice is not None
    assert sorted(m.split()[1] for m in s.legal_moves()) == sorted(
        c for c in hand if c[-1] != first[-1])
    assert s.num_moves() == len(s.legal_moves())


def test_the_same_games_as_the_whole_combination_listing(tmp_path: Path) -> None:
    """Every legal whole choice is reachable item by item (in either order), none other is,
    and each gives exactly the position the whole-combination move gives."""
    seq, whole = game(tmp_path), game(tmp_path, WHOLE, name="w")
    for seed in range(3):
        a, b = seq.new_state(2, seed=seed), whole.new_state(2, seed=seed)
        reached = {}
        for first in a.legal_moves():
            s1 = a.clone()
            s1.apply(first)
            for second in s1.legal_moves():
                s2 = s1.clone()
                s2.apply(second)
                key = " ".join(sorted([first.split()[1], second.split()[1]]))
                reached[key] = s2
        names = {" ".join(sorted(m.split()[1:])): m for m in b.legal_moves()}
        assert set(reached) == set(names)
        for key, s2 in reached.items():
            t = b.clone()
            t.apply(names[key])
            assert s2.zones == t.zones and s2.ctr == t.ctr and s2.actor == t.actor
            assert s2.decisions == t.decisions + 1  # two decisions where there was one


def test_a_whole_choice_typed_at_once_in_any_order(tmp_path: Path) -> None:
    g = game(tmp_path)
    s = g.new_state(2, seed=1)
    hand = [g.tables.name[c] for c in s.zones[g.zones[1].first_id + s.actor]]
    a, b = next((x, y) for x, y in itertools.combinations(hand, 2) if x[-1] != y[-1])
    for order in ((a, b), (b, a)):
        t = s.clone()
        t.apply(f"LAY {order[0].lower()} {order[1]}")
        laid = [g.tables.name[c] for c in t.zones[g.zones[2].first_id + s.actor]]
        assert sorted(laid) == sorted([a, b]) and t.choice is None
    # an illegal whole choice (same suit, or a card not held) leaves the state unchanged
    same = next(((x, y) for x, y in itertools.combinations(hand, 2) if x[-1] == y[-1]), None)
    for bad in ([f"lay {same[0]} {same[1]}"] if same else []) + ["lay 2S 3S 4S", "lay"]:
        before = (s.zones, s.decisions, s.choice)
        with pytest.raises(IllegalMove):
            s.apply(bad)
        assert (s.zones, s.decisions, s.choice) == before
    # in the middle of a choice the whole may still be typed (the item chosen named again)
    me = s.actor
    s.apply(f"lay {a}")
    s.apply(f"lay {b} {a}")
    laid = [g.tables.name[c] for c in s.zones[g.zones[2].first_id + me]]
    assert s.choice is None and sorted(laid) == sorted([a, b])


def test_the_partial_choice_is_seen_by_its_chooser_alone(tmp_path: Path) -> None:
    g = game(tmp_path)
    s = g.new_state(2, seed=2)
    me = s.actor
    first = s.legal_moves()[0]
    s.apply(first)
    assert s.view(me)["choosing"] == {"action": "lay", "count": 2, "chosen": [first.split()[1]]}
    assert "choosing" not in s.view(1 - me)
    assert not any(first.split()[1] in str(texts) for _who, texts in s.view(1 - me)["events"])
    # a sample for the other seat holds the chooser's choice as cards of the sample, and its
    # legal items are worked out from them (never from the real hand)
    w = s.determinize(1 - me, random.Random(0))
    ch = w.choice
    assert ch is not None and set(ch.options) == set(w.zones[g.zones[1].first_id + me])
    assert w.legal_moves()  # and listed without error


def test_scenarios_and_replays_take_items_and_whole_choices(tmp_path: Path) -> None:
    game(tmp_path)
    sc = tmp_path / "lay.scenario.yaml"
    sc.write_text(
        "game: g.yaml\nplayers: 2\ndealer: 0\n"
        "deal:\n  hand: [[2S, 3S, 4H, 5D, 6C], [7S, 8H, 9D, TC, JS]]\n"
        "moves:\n  - illegal: \"1: lay 7S JS\"\n  - \"1: lay JS\"\n"
        "expect:\n  to_move: 1\n  legal: [lay 8H, lay 9D, lay TC]\n", encoding="utf-8")
    r = run_cli("test", str(sc))
    assert r.returncode == 0, r.stdout + r.stderr
    sc.write_text(
        "game: g.yaml\nplayers: 2\ndealer: 0\n"
        "deal:\n  hand: [[2S, 3S, 4H, 5D, 6C], [7S, 8H, 9D, TC, JS]]\n"
        "moves:\n  - \"1: lay TC 7S\"\n  - \"0: lay 3S\"\n  - \"0: lay 4H\"\n"
        "expect:\n  round_over: true\n  counters: {score: [3, 13]}\n"
        "  zones: {laid: [[4H, 3S], [TC, 7S]]}\n", encoding="utf-8")
    r = run_cli("test", str(sc))
    assert r.returncode == 0, r.stdout + r.stderr
    log = tmp_path / "log.jsonl"
    r = run_cli("simulate", str(tmp_path / "g.yaml"), "--games", "3", "--record", str(log))
    assert r.returncode == 0, r.stdout + r.stderr
    r = run_cli("replay", str(log))
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(log.read_text().splitlines()[0])


@pytest.mark.parametrize("args,fragment", [
    ('{pick: "hand[me]", count: 2}, d: "players"', "must be the action's last argument"),
    ('{pick: "hand[me]", count: "\'two\'"}', "count: must be a number of items"),
    ('{pick: "hand[me]", count: 2, many: 1}', "unknown key 'many'"),
    ('{pick: "hand[me]"}', "count"),
])
def test_misuse_is_a_located_check_error(tmp_path: Path, args: str, fragment: str) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(GAME.replace("ARGS", args).replace("WHEN", ""), encoding="utf-8")
    r = run_cli("check", str(p))
    out = output(r)
    assert r.returncode == 1 and fragment in out, out
    assert f"{p}:" in out and "Traceback" not in out


def test_a_bad_count_at_run_time_is_located(tmp_path: Path) -> None:
    g = game(tmp_path, '{pick: "hand[me]", count: "0 - 1"}', "", "neg")
    s = g.new_state(2, seed=0)
    with pytest.raises(rulelang.errors.RuntimeRulesError) as info:
        s.legal_moves()
    span = info.value.span
    assert (span.line, span.col) == (21, 46) and "count: is -1" in info.value.message


def test_greedy_chooses_item_by_item_the_best_whole_choice(tmp_path: Path) -> None:
    """The heuristic (the order of the cards kept) sees only whole choices: greedy lays its
    two lowest cards of different suits, the best whole choice, one item at a time."""
    from rulelang.agents import GreedyAgent

    g = game(tmp_path)
    s = g.new_state(2, seed=4)
    me = s.actor
    hand = s.zones[g.zones[1].first_id + me]
    best = min((x for x in itertools.combinations(hand, 2)
                if g.tables.suit[x[0]] != g.tables.suit[x[1]]),
               key=lambda x: g.tables.order[x[0]] + g.tables.order[x[1]])
    bot = GreedyAgent(seed=0)
    for _ in range(2):
        s.apply_index(bot.choose_index(s, me))
    laid = s.zones[g.zones[2].first_id + me]
    assert sorted(g.tables.order[c] for c in laid) == sorted(g.tables.order[c] for c in best)


def test_simulate_random_and_greedy_check_clean(tmp_path: Path) -> None:
    game(tmp_path)
    for agents in ("random", "greedy,random"):
        r = run_cli("simulate", str(tmp_path / "g.yaml"), "--games", "5", "--agents", agents,
                    "--check", "--json")
        assert r.returncode == 0, r.stdout + r.stderr
        out = json.loads(r.stdout)
        assert out["decisions"] == 5 * 4 and not out.get("violations")


def test_arguments_before_the_choice_are_chosen_with_its_first_item(tmp_path: Path) -> None:
    p = tmp_path / "give.yaml"
    p.write_text(GAME.replace("{cs: ARGS}", '{to: "[q for q in players if q != me]", '
                              'cs: {pick: "hand[me]", count: "1 + 1"}}').replace("WHEN", ""),
                 encoding="utf-8")
    g = rulelang.load(str(p))
    s = g.new_state(3, seed=0)
    me = s.actor
    firsts = s.legal_moves()
    assert len(firsts) == 2 * 5 and all(m.split()[1] in ("P0", "P1", "P2") for m in firsts)
    s.apply(firsts[0])
    to = firsts[0].split()[1]
    assert all(m.split()[1] == to for m in s.legal_moves()) and len(s.legal_moves()) == 4
    t = g.new_state(3, seed=0)
    a, b = firsts[0].split()[2], s.legal_moves()[-1].split()[2]
    t.apply(f"lay {to} {b} {a}")
    s.apply(f"lay {to} {b}")
    assert t.zones == s.zones and t.choice is None and s.choice is None
    assert sorted(g.tables.name[c] for c in t.zones[g.zones[2].first_id + me]) == sorted([a, b])
