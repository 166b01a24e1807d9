"""The game-quality metrics of ``simulate`` (rulelang/metrics.py) and ``rulelang compare``
(rulelang/compare.py): the same for any number of workers, worked out by hand on a small case,
and compare's JSON and exit status."""

from __future__ import annotations

import json
import math
from collections import Counter
from types import SimpleNamespace
from typing import Any

import pytest

from rulelang import compare, metrics, sim

from .helpers import output, run_cli


def _timeless(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if "sec" not in k}


def test_metrics_are_the_same_for_one_worker_and_two() -> None:
    args = ("thirty-one", {"lives": 1}, 3, 8, ["greedy", "random", "random"])
    one = sim.run(*args, seed=3, workers=1)
    two = sim.run(*args, seed=3, workers=2)
    assert "metrics" in one and _timeless(one) == _timeless(two)
    m = one["metrics"]
    assert m["length"]["rounds"]["n"] == 8 and m["fair_share"] == round(1 / 3, 6)
    assert m["skill_gap"]["agent"] in ("greedy", "random")
    # each game's winners are counted once by their place in the turn order
    assert math.isclose(sum(p["count"] for p in m["turn_order"]), 8)


def _state(deltas: list[list[int]], winners_seated: list[int]) -> Any:
    """A finished three-seat game of one counter (higher is better) whose rounds changed it by
    ``deltas``, every seat in play throughout."""
    final = [sum(col) for col in zip(*deltas)]
    game = SimpleNamespace(counters=[("points", None)], counter_types={"points": "int"},
                           teams=None)
    results = [("out", 1, 0, [d], [0, 1, 2], 1) for d in deltas]
    return SimpleNamespace(game=game, round_results=results, n=3, ctr=[final],
                           seated=winners_seated)


def test_standings_worked_out_by_hand() -> None:
    # after round 1: 2 0 0 (P0 leads, P1 behind); round 2: 2 3 0 (P1 leads: one change);
    # round 3: 2 3 1 (P1 still leads). P1 won: it led alone from round 2, before the last
    s = _state([[2, 0, 0], [0, 3, 0], [0, 0, 1]], [0, 1, 2])
    assert metrics.standings(s, [1]) == {"rounds": 3, "decided": 2, "behind": 1,
                                         "lead_changes": 1}
    t = metrics.MetricTally()
    t.add({"decisions": 5, "winners": [1], "order": [2, 0, 1],
           "standing": metrics.standings(s, [1])})
    assert (t.ranked, t.decided_early, t.comebacks, t.behind_rounds, t.before_last) == \
        (1, 1, 1, 1, 2)
    assert t.position_wins == Counter({(2, 1): 1})  # P1 moved third
    # a tie for the lead (round 1: 1 1 0) is nobody's lead: no change when P1 then leads
    s = _state([[1, 1, 0], [0, 1, 0]], [0, 1, 2])
    assert metrics.standings(s, [1]) == {"rounds": 2, "decided": 2, "behind": 0,
                                         "lead_changes": 0}
    # the winner is the only seat in play at the end, though its counter is not the highest
    s = _state([[3, 0, 0], [-3, 0, -1]], [2])
    assert metrics.standings(s, [2])["decided"] == 2
    assert metrics.standings(s, [0]) is None  # no counter singles P0 out


def test_percentiles_and_the_tests_by_hand() -> None:
    c = Counter({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1})
    assert (metrics.percentile_of(c, 10), metrics.median_of(c),
            metrics.percentile_of(c, 90)) == (1, 5.5, 9)
    # 50/100 against 60/100: pooled rate 0.55, z = 0.1 / sqrt(0.55 * 0.45 * 0.02) = 1.4213
    r = compare.proportions(50, 100, 60, 100)
    assert math.isclose(r["p"], 0.15523, abs_tol=1e-4)
    assert math.isclose(r["ci95"][0], 0.1 - 1.96 * math.sqrt(0.0049), rel_tol=1e-9)
    assert math.isclose(compare.t_two_sided(2.0, 10), 0.073388, abs_tol=1e-5)
    assert math.isclose(compare.t_quantile(10), 2.228139, abs_tol=1e-5)
    assert compare.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])


def test_compare_json_and_exit_status() -> None:
    r = run_cli("compare", "thirty-one", "thirty-one", "--games", "6", "--option", "lives=1",
                "--option-b", "blitz_after_knock=true", "--agents", "greedy,random", "--json")
    assert r.returncode == 0, output(r)
    c = json.loads(r.stdout)
    assert c["a"]["options"]["blitz_after_knock"] is False
    assert c["b"]["options"]["blitz_after_knock"] is True and c["b"]["options"]["lives"] == 1
    assert c["correction"] == "Holm-Bonferroni" and c["games"] == 6
    names = [m["metric"] for m in c["metrics"]]
    assert "rounds per game (mean)" in names and "win share P0" in names
    assert "first player's win share" in names and "win rate of greedy" in names
    for m in c["metrics"]:
        assert set(m) == {"metric", "a", "b", "diff", "ci95", "test", "p", "p_holm",
                          "significant"}
        assert (m["p"] is None) == (m["test"] is None) == (m["significant"] is None)
    r = run_cli("compare", "thirty-one", "no-such-game", "--games", "4")
    assert r.returncode == 2 and "Traceback" not in output(r)
    r = run_cli("compare", "thirty-one", "thirty-one", "--option-b", "nope=1", "--games", "4")
    assert r.returncode == 2 and "nope" in r.stderr


def test_an_agent_holding_a_team_wins_as_often_as_the_team() -> None:
    # a team's win is shared among its seats in the per-seat figures, but each of them won:
    # greedy holding both seats of one Spades partnership wins what the partnership wins
    out = sim.run("spades", {}, 4, 6, ["greedy", "random"] * 2, seed=1)
    team = {t["team"]: t["win_rate"] for t in out["wins_per_team"]}
    greedy = out["wins_per_agent"]["greedy"]
    assert greedy["seats"] == [0, 2] and greedy["win_rate"] == team[0]
    gap = out["metrics"]["skill_gap"]
    assert gap["fair"] == 0.5 and gap["of"] == 6


def test_a_run_stopped_before_any_game_ended_is_summarized() -> None:
    # Ctrl-C before the first game ends: the statistics of no game, not a division by zero
    out = sim.summarize(sim.Tally(), 2, ["ismcts:10ms", "greedy"], 1.0)
    assert out["metrics"]["skill_gap"]["of"] == 0
