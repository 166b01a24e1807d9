"""Random play of every bundled rules file: no card is ever created or lost, conserved sums hold
after every step, and every game ends.

One parameterised test per rules file in games/ (scenarios excluded), ids by file name:
``pytest -k stop-the-bus`` runs one game's simulation and ``-m "not simulation"`` skips them
all (``RULELANG_SIM_GAMES=20`` plays fewer games per file, for a quick local run). Each file
gets GAMES_PER_FILE games with random agents, cycling through every allowed number of players;
the games of a file are split over two processes.

To keep random matches short, options that set a match's length are lowered (never raised) to
the values in SHORT, within the option's declared range: random bots rarely knock, and a pot
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

from .helpers import rules_files

GAMES_PER_FILE = int(os.environ.get("RULELANG_SIM_GAMES", "200"))
TEXT_EVERY = 4  # one game in TEXT_EVERY plays its moves as text; the others by index
MAX_DECISIONS_PER_GAME = 50_000
SHORT = {"lives": 2, "tokens": 1, "chips": 10, "hands": 3, "max_turns": 30, "target": 0}
WORKERS = max(1, min(2, os.cpu_count() or 1))

FILES = rules_files()


def short_options(path: Path) -> dict[str, Any]:
    specs = rulelang.load(str(path)).option_specs
    out: dict[str, Any] = {}
    for name, spec in specs.items():
        default = spec.get("default")
        if name in SHORT and isinstance(default, int) and not isinstance(default, bool):
            v = min(default, SHORT[name])
            v = max(v, spec.get("min", v))
            if v != default:
                out[name] = v
    return out


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


def play_chunk(path: str, options: dict[str, Any], jobs: list[tuple[int, tuple[int, int]]]
               ) -> list[dict[str, Any]]:
    game = rulelang.load(path, options=options)
    return [play_checked(game, players, seed, k % TEXT_EVERY == 0)
            for k, (players, seed) in jobs]


@pytest.mark.simulation
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_random_games(path: Path) -> None:
    options = short_options(path)
    game = rulelang.load(str(path), options=options)
    counts = list(range(game.min_players, game.max_players + 1))
    rng = random.Random(path.stem)
    jobs = [(i, (counts[i % len(counts)], rng.randrange(2**31))) for i in range(GAMES_PER_FILE)]
    if WORKERS == 1:
        results = play_chunk(str(path), options, jobs)
    else:
        chunks = [jobs[k::WORKERS] for k in range(WORKERS)]
        with ProcessPoolExecutor(WORKERS, mp_context=mp.get_context("fork")) as pool:
            futures = [pool.submit(play_chunk, str(path), options, c) for c in chunks]
            results = [r for f in futures for r in f.result()]
    assert len(results) == GAMES_PER_FILE
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
