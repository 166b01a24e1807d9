"""Random play of every bundled rules file: no card is ever created or lost, conserved sums hold
after every step, and every game ends.

One parameterised test per rules file in games/ (scenarios excluded), ids by file name:
``pytest -k stop-the-bus`` runs one game's simulation and ``-m "not simulation"`` skips them
all. Each file gets random agents cycling through every allowed number of players; the games of
a file are split into two chunks, played by two processes.

How many games: every file plays at least two games per allowed number of players (one of them
through move texts, one by index), then goes on up to ``RULELANG_SIM_GAMES`` games (default
200) unless it has already made ``RULELANG_SIM_DECISIONS`` decisions (default 10,000; 0 = no
limit). A short match (Thirty-One: ~90 decisions) still plays ~110 games; a long one (Ten
Pennies, seven rounds that no option shortens, ~3,000 decisions) stops after ~5 games instead
of spending most of ``make test`` on 200 of them. ``make test-long`` plays 200 games of every file
(``RULELANG_SIM_DECISIONS=0``). Which games are played is fixed by the file and these two
numbers, never by the machine or the number of worker processes.

To keep random matches short, options that set a match's length are lowered (never raised) to
the values in helpers.SHORT, within the option's declared range: random bots rarely knock, and a pot
game at its default stake can take tens of thousands of decisions. Everything else is played
with the file's defaults.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.agents import RandomAgent

from .helpers import rules_files, short_options

GAMES_PER_FILE = int(os.environ.get("RULELANG_SIM_GAMES", "200"))
DECISIONS_PER_FILE = int(os.environ.get("RULELANG_SIM_DECISIONS", "10000"))
# one round of player counts in TEXT_EVERY plays its moves as text, the others by index: the
# first round of counts is played as text, so that every count is played both ways as soon as
# two rounds of counts are played
TEXT_EVERY = 4
CHUNKS = 2  # always two chunks (even on one core), so that the games played never depend on it
MAX_DECISIONS_PER_GAME = 50_000
WORKERS = max(1, min(2, os.cpu_count() or 1))

FILES = rules_files()


def conserved_values(game: Any, state: Any) -> dict[str, float]:
    return {name: float(u(state)) for name, u in game.conserved}


def play_checked(game: Any, players: int, seed: int, as_text: bool) -> dict[str, Any]:
    """One random game, checked after every decision; its summary. ``as_text``: the moves go
    through their texts (legal_moves/apply), else through apply_index (no texts built)."""
    state = game.new_state(players, seed=seed, record=False)
    as_text = as_text or not hasattr(state, "apply_index")
    bots = [RandomAgent(seed * 31 + p + 1) for p in range(players)]
    where = f"seed {seed}, {players} players"
    start = conserved_values(game, state)
    assert state.check_invariants() == [], f"{where}: after the first deal"
    steps = 0
    while not state.is_over():
        steps += 1
        assert steps <= MAX_DECISIONS_PER_GAME, (
            f"{where}: no end after {MAX_DECISIONS_PER_GAME} decisions (round {state.round}, "
            f"phase {state.phase})")
        seat = state.current_player()
        assert seat is not None and 0 <= seat < players, f"{where}: to move: {seat}"
        if as_text:
            legal = state.legal_moves()
            assert legal, f"{where}: no legal move for P{seat} in phase {state.phase}"
            move = bots[seat].choose(state, seat)
            assert move in legal
            state.apply(move)
        else:
            k = state.num_moves()
            assert k > 0, f"{where}: no legal move for P{seat} in phase {state.phase}"
            i = bots[seat].choose_index(state, seat)
            assert 0 <= i < k
            move = f"#{i}"
            state.apply_index(i)
        problems = state.check_invariants()
        assert problems == [], f"{where}, decision {steps} ({move!r}): {problems[:3]}"
        now = conserved_values(game, state)
        for name, v in start.items():
            assert abs(now[name] - v) < 1e-9, (
                f"{where}, decision {steps} ({move!r}): conserved '{name}' went from {v} to "
                f"{now[name]}")
    assert state.current_player() is None and state.legal_moves() == []
    res = state.result()
    assert res["over"] is True and res["rounds"] >= 1, f"{where}: {res}"
    winner = res["winner"]
    winners = winner if isinstance(winner, list) else ([] if winner is None else [winner])
    assert all(isinstance(w, int) and 0 <= w < players for w in winners), f"{where}: {winner}"
    return {"decisions": steps, "rounds": res["rounds"], "ended_by": state.ended_by}


def play_chunk(path: str, options: dict[str, Any], jobs: list[tuple[int, tuple[int, int]]],
               at_least: int, decisions: int) -> list[dict[str, Any]]:
    """Play the chunk's games in order: every job numbered below ``at_least``, then more until
    the chunk has made ``decisions`` decisions (0: every job)."""
    game = rulelang.load(path, options=options)
    out: list[dict[str, Any]] = []
    made = 0
    for k, (players, seed, as_text) in jobs:
        if k >= at_least and decisions and made >= decisions:
            break
        out.append(play_checked(game, players, seed, as_text))
        made += out[-1]["decisions"]
    return out


@pytest.mark.simulation
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_random_games(path: Path) -> None:
    options = short_options(path)
    game = rulelang.load(str(path), options=options)
    counts = list(range(game.min_players, game.max_players + 1))
    rng = random.Random(path.stem)
    # the seeds are drawn for all GAMES_PER_FILE games, so a game's seed does not depend on
    # how many are played
    jobs = [(i, (counts[i % len(counts)], rng.randrange(2**31),
                 (i // len(counts)) % TEXT_EVERY == 0)) for i in range(GAMES_PER_FILE)]
    at_least = min(GAMES_PER_FILE, 2 * len(counts))
    share = -(-DECISIONS_PER_FILE // CHUNKS)
    chunks = [jobs[k::CHUNKS] for k in range(CHUNKS)]
    if WORKERS == 1:
        results = [r for c in chunks for r in play_chunk(str(path), options, c, at_least, share)]
    else:
        with ProcessPoolExecutor(WORKERS, mp_context=mp.get_context("fork")) as pool:
            futures = [pool.submit(play_chunk, str(path), options, c, at_least, share)
                       for c in chunks]
            results = [r for f in futures for r in f.result()]
    assert at_least <= len(results) <= GAMES_PER_FILE
    ends = {r["ended_by"] for r in results}
    assert ends - {None} <= set(game.ended_by), ends
    assert ends - {None}, "no match ever ended with a named round ending"


def test_every_bundled_file_is_simulated() -> None:
    assert any(p.name == "thirty-one.yaml" for p in FILES)
    assert all(not p.name.endswith(".scenario.yaml") for p in FILES)


def test_check_invariants_notices_a_lost_card() -> None:
    game = rulelang.load("thirty-one")
    s = game.new_state(3, seed=0)
    assert s.check_invariants() == []
    stock = next(z for z in game.zones if z.name == "stock").first_id
    s.zones[stock].pop()
    assert s.check_invariants()
