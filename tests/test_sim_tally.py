"""``simulate``'s statistics do not depend on how the games are split among workers: each
chunk's games are added up in a tally of counts and multisets that merges exactly, and the
means and medians taken from it are those ``statistics`` gives for the plain lists."""

from __future__ import annotations

import json
import random
import statistics
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang import sim

from .helpers import output, run_cli


@given(st.lists(st.integers(-5, 40), min_size=1, max_size=60))
def test_tally_mean_and_median_are_those_of_statistics(xs: list[int]) -> None:
    # the statistics come from multisets; they must be what statistics gives for the list
    c = Counter(xs)
    assert sim._median(c) == statistics.median(xs)
    assert sim._mean(c) == statistics.fmean(xs)
    fs = [x / 3 for x in xs]
    assert sim._mean(Counter(fs)) == statistics.fmean(fs)


@pytest.mark.parametrize("games", [1, 2, 7, 50, 999, 6000])
@pytest.mark.parametrize("workers", [2, 3, 8])
def test_chunks_cover_every_game_once_in_order(games: int, workers: int) -> None:
    cs = sim.chunks(games, workers)
    assert [g for lo, hi in cs for g in range(lo, hi)] == list(range(games))
    assert all(hi - lo <= sim.MAX_CHUNK for lo, hi in cs)


def test_tallies_of_chunks_merge_into_the_tally_of_the_run() -> None:
    # what a run with workers adds up, chunk by chunk, equals one tally of every game
    game = rulelang.load("thirty-one")
    agents = ["greedy", "random", "random"]
    whole = sim._play_chunk(game, 3, agents, 5, 0, 30, False, False, None)
    merged = sim.Tally()
    for lo, hi in sim.chunks(30, 3):
        merged.merge(sim._play_chunk(game, 3, agents, 5, lo, hi, False, False, None))
    assert vars(merged) == vars(whole)
    assert sim.summarize(merged, 3, agents, 1.0) == sim.summarize(whole, 3, agents, 1.0)


def _one_round(game: Any, players: int, seed: int, **kw: Any) -> Any:
    """A state after its first round, played by seeded random moves."""
    s = game.new_state(players, seed=seed, auto_continue=False, **kw)
    rng = random.Random(seed)
    while not s.round_over():
        s.apply_index(rng.randrange(len(s.legal_moves())))
    return s


def test_role_figures_count_only_the_seats_in_play() -> None:
    # seat 3 is out before the deal: the round's figures are those of P0 (dealing), P1, P2
    game = rulelang.load("thirty-one")
    s = _one_round(game, 4, 2, dealer=0, start={"eliminated": [3]})
    (_name, _turns, dealer, delta, seated, _d), = s.round_results
    assert dealer == 0 and seated == [0, 1, 2]
    figures = sim.round_figures(s)["role_delta"]["lives"]
    assert figures == {"dealer": [float(delta[0][0])],
                       "players": [float(delta[0][1]), float(delta[0][2])]}
    # a whole run: as many figures as seats in play in each round, fewer than every seat's
    s = game.new_state(4, seed=9)
    rng = random.Random(9)
    while not s.is_over():
        s.apply_index(rng.randrange(len(s.legal_moves())))
    roles = sim.round_figures(s)["role_delta"]["lives"]
    assert len(roles["dealer"]) == len(s.round_results)
    assert len(roles["dealer"]) + len(roles["players"]) == \
        sum(len(r[4]) for r in s.round_results) < 4 * len(s.round_results)


def test_a_deal_one_seat_drives_is_one_turn() -> None:
    # Greek 31: the whole deal is the dealer's turn (the players draw in its phases)
    game = rulelang.load("greek-31", {"chips": 10})
    s = _one_round(game, 3, 1, dealer=0)
    (_name, turns, _dealer, _delta, _seated, decisions), = s.round_results
    assert s.turns == 0 and turns == 1 and decisions == s.decisions > 1
    out = sim.run("greek-31", {"chips": 10}, 3, 4, ["random"] * 3, game=game)
    assert out["turns_per_round"] == {"mean": 1.0, "median": 1}
    assert out["decisions_per_round"]["mean"] == \
        pytest.approx(out["decisions"] / out["rounds"], abs=1e-6)
    assert out["turns"] == out["rounds"]


def test_turns_played_count_the_turn_a_round_ends_in_once_decided() -> None:
    # Thirty-One: P1 knocks, P2, P3 and P0 take their last turns; the round ends as P1's turn
    # comes round, before a decision in it: four turns played, four decisions
    game = rulelang.load("thirty-one")
    s = game.new_state(4, seed=3, dealer=0, auto_continue=False)
    for move in ("knock", "stand", "stand", "stand"):
        s.apply(move)
    (name, turns, _dealer, _delta, _seated, decisions), = s.round_results
    assert (name, turns, decisions, s.turns) == ("knock", 4, 4, 4)


@pytest.mark.parametrize("x, df, p", [(3.841459, 1, 0.05), (5.991465, 2, 0.05),
                                      (7.814728, 3, 0.05), (18.0, 4, 0.0012341),
                                      (11.070498, 5, 0.05), (0.0, 3, 1.0)])
def test_chi_squared_tail(x: float, df: int, p: float) -> None:
    assert sim.chi2_sf(x, df) == pytest.approx(p, rel=1e-4)


def test_seat_bias_compares_the_seats_of_one_agent() -> None:
    # the Greek 31 win rates (2,000 games, seat 0 always dealing first)
    b = sim.seat_bias([452, 368, 384, 356, 440], ["random"] * 5)
    assert b == {"chi2": 18.8, "df": 4, "p": pytest.approx(0.00086, abs=1e-5)}
    # seats of different agents are not compared with each other
    b = sim.seat_bias([90, 10, 12, 8], ["greedy", "random", "random", "random"])
    assert b is not None and b["df"] == 2 and b["chi2"] == pytest.approx(0.8)
    assert sim.seat_bias([5, 5], ["greedy", "random"]) is None
    assert sim.seat_bias([0, 0, 0], ["random"] * 3) is None


def test_simulate_reports_the_figures() -> None:
    args = ("simulate", "greek-31", "--option", "chips=10", "--players", "3", "--games", "3")
    r = run_cli(*args, "--json")
    assert r.returncode == 0, output(r)
    s = json.loads(r.stdout)
    assert {"games", "rounds", "decisions", "ended_by", "seconds"} <= set(s)  # CONTRACTS.md
    assert s["turns_per_round"]["mean"] == 1.0 and s["decisions_per_round"]["mean"] > 1
    assert set(s["seat_bias"]) == {"chi2", "df", "p"} and s["seat_bias"]["df"] == 2
    assert set(s["counter_change_per_round"]["chips"]) == {"dealer", "players"}
    r = run_cli(*args)
    assert r.returncode == 0, output(r)
    assert "seat bias (chi-squared over seats of one agent): " in r.stdout
    assert "turns per round: mean 1.00, median 1" in r.stdout
    assert "mean change of chips per round, seats in play: dealer +" in r.stdout
