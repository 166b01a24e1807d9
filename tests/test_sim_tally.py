"""``simulate``'s statistics do not depend on how the games are split among workers: each
chunk's games are added up in a tally of counts and multisets that merges exactly, and the
means and medians taken from it are those ``statistics`` gives for the plain lists."""

from __future__ import annotations

import statistics
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rulelang
from rulelang import sim


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
