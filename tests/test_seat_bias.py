"""No seat of a bundled game wins more often than its rules make it (issue 20): the first dealer
is cut for (``match.first_dealer: cut(players)``), so a dealer's advantage (Greek 31's bank) is
no seat's. Two checks, each a chi-squared test at the 0.1% level with a fixed seed:

- every game cuts for its first dealer, in every seat's view, and over many seeds the first
  dealer is spread evenly over the seats (cheap: a game set up and dealt, no decision played);
- the wins per seat of random games (``simulate``'s ``seat_bias``). The suite plays a few short
  games of each (the figures are checked, not the bias); ``make test-long`` sets
  RULELANG_SEAT_GAMES=2000 and plays the games of docs/games.md's "Seat figures" table, whose
  figures these are: the default options, with the matches that last hundreds of deals at
  their defaults shortened (LONG_OPTIONS).
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import sim

from .helpers import rules_files, short_options

SEAT_GAMES = int(os.environ.get("RULELANG_SEAT_GAMES", "0"))  # 0: the suite's short check
SHORT_GAMES = 8
DEALS = 500  # first deals per game
LEVEL = 0.001
LONG_OPTIONS = {"greek-31": {"chips": 10}, "greek-31-heath": {"chips": 10},
                "thirty-one-banking": {"tokens": 2}, "tonk": {"chips": 10}}


@functools.cache
def _load(path: Path) -> Any:
    return rulelang.load(str(path))


@pytest.mark.parametrize("path", rules_files(), ids=lambda p: p.stem)
def test_the_first_dealer_is_spread_evenly(path: Path) -> None:
    # every bundled game cuts for it, in public, the highest card by the deck's order dealing
    # (or the lowest, where the rules say so: cribbage)
    game = _load(path)
    if game.house is not None:
        pytest.skip("the house deals (house.py): no seat deals, so none is cut for")
    n = game.default_players
    s = game.new_state(n, seed=3)
    order = game.tables.order
    assert s.cuts and [p for p, _c in s.cuts[0]] == list(range(n))
    last = dict(s.cuts[-1])
    cut = [order[c] for c in last.values()]
    assert order[last[s.dealer]] == (min(cut) if path.stem == "cribbage" else max(cut))
    shown = [s.view(p)["cuts"] for p in range(n)]
    assert shown[0] == [[[p, game.tables.name[c]] for p, c in cut] for cut in s.cuts]
    assert all(v == shown[0] for v in shown)
    # ... and over many seeds every seat deals first about as often
    dealers = Counter(game.new_state(n, seed=sim.game_seed(0, i), record=False).dealer
                      for i in range(DEALS))
    bias = sim.seat_bias([float(dealers[p]) for p in range(n)], ["cut"] * n)
    assert bias is not None and bias["p"] > LEVEL, (dict(dealers), bias)


@pytest.mark.parametrize("path", rules_files(), ids=lambda p: p.stem)
def test_seat_win_rates_show_no_seat_bias(path: Path) -> None:
    game0 = _load(path)
    if SEAT_GAMES:
        games, players, options = SEAT_GAMES, game0.default_players, LONG_OPTIONS.get(path.stem, {})
    else:  # a few quick games: the fewest players, the suite's short matches
        # (two seats at least: one seat alone against a house has no other to be compared to)
        games, players, options = SHORT_GAMES, max(2, game0.min_players), short_options(path)
    game = rulelang.load(str(path), options) if options else game0
    s = sim.run(str(path), options, players, games, ["random"] * players, game=game)
    bias = s["seat_bias"]
    assert bias["df"] == players - 1
    wins = [r["wins"] for r in s["wins_per_seat"]]
    again = sim.seat_bias(wins, ["random"] * players)
    assert again is not None and again["chi2"] == pytest.approx(bias["chi2"], abs=1e-3)
    assert bias["p"] > LEVEL, (path.stem, wins, bias)
