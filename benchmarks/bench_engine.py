"""The engine's rows of the benchmark suite: what rulelang itself does per CPU second.

Everything here drives the engine through its public State API only (``new_state``,
``current_player``, ``is_over``, ``round_over``, ``num_moves``, ``apply_index``, ``run``,
``clone``, ``determinize``) and the bot API (``rulelang.agents``), so that it keeps measuring
the same thing while the engine's insides are rewritten. Random play goes through
``State.run``: a bot called by seat for each decision's index among ``num_moves()`` moves,
as the yardstick's loop calls its random choice once per decision.
"""

from __future__ import annotations

import random
import timeit
from pathlib import Path
from typing import Any

import handwritten31
from measure import Work, alternate, cpu, random_decisions

ROOT = Path(__file__).resolve().parent.parent


def bundled_games() -> list[Path]:
    """The bundled games' rules files (``games/*.yaml``; scenarios live in sub-folders)."""
    return sorted((ROOT / "games").glob("*.yaml"))


_LOADED: dict[Path, Any] = {}


def load(path: Path) -> Any:
    """The compiled game of a rules file, compiled once per process."""
    import rulelang

    if path not in _LOADED:
        _LOADED[path] = rulelang.load(str(path), allow_any_path=True)
    return _LOADED[path]


# ---------------------------------------------------------------- Thirty-One vs hand-written
def thirty_one_vs_handwritten(rounds: int, games: int) -> dict[str, Any]:
    """4-player Thirty-One with random agents: rulelang (``games`` whole games a round) against
    ``handwritten31`` (ten times as many, so that both sides take about as long)."""
    game = load(ROOT / "games" / "thirty-one.yaml")
    random_decisions(game, 4, 2000, 99)  # fill the memoised hand values before timing

    def rulelang_games(r: int) -> Work:
        rng = random.Random(r)
        rand = rng.random

        def pick(s: Any, _seat: int) -> int:  # agents.RandomAgent.choose_index's choice
            return int(rand() * s.num_moves())

        done = 0
        t0 = cpu()
        for i in range(games):
            done += game.new_state(4, seed=r * 100_003 + i, record=False).run(pick)
        return done, cpu() - t0

    def hand_games(r: int) -> Work:
        t0 = cpu()
        res = handwritten31.play_games(games * 10, 4, r + 1)
        return res["decisions"], cpu() - t0

    alt = alternate(rulelang_games, hand_games, rounds)
    return {"rulelang": {"decisions_per_sec": alt["a"]},
            "handwritten": {"decisions_per_sec": alt["b"]},
            "ratio": alt["ratio"], "ratios": alt["ratios"], "rounds": rounds}


# ---------------------------------------------------------------- every bundled game
def every_game(decisions: int) -> dict[str, dict[str, Any]]:
    """Random agents, the game's default number of players, ``decisions`` decisions (new games
    as needed); CPU time of the play only, not of loading the rules."""
    out: dict[str, dict[str, Any]] = {}
    for path in bundled_games():
        game = load(path)
        players = game.default_players
        random_decisions(game, players, min(200, decisions), 98)  # warm the memos
        n, secs = random_decisions(game, players, decisions, 1)
        out[path.stem] = {"players": players, "decisions": n,
                          "decisions_per_sec": round(n / secs) if secs else 0}
    return out


# ---------------------------------------------------------------- what a search bot pays
def mid_round_state(game: Any, players: int, seed: int, into: int = 4) -> Any:
    """A state ``into`` random decisions into the first round whose round does not end by
    then; rounds are not continued automatically, so ``round_over()`` marks the round's end."""
    for k in range(100):
        s = game.new_state(players, seed=seed + k, record=False, auto_continue=False)
        rng = random.Random(seed + k)
        for _ in range(into):
            if s.round_over():
                break
            s.apply_index(int(rng.random() * s.num_moves()))
        if not s.round_over():
            return s
    raise RuntimeError("no round lasted long enough to start playouts from")


def playouts(base: Any, n: int, sample: bool, seed: int,
             budget: float = float("inf")) -> tuple[float, int, int]:
    """Up to ``n`` random playouts from ``base`` to the end of its round, each from a
    ``clone()`` (``sample`` false) or from a ``determinize()`` for the seat to move, stopping
    early once ``budget`` CPU seconds are spent; (CPU seconds, decisions, playouts) played."""
    rng = random.Random(seed)
    rand = rng.random

    def pick(s: Any, _seat: int) -> int:
        return int(rand() * s.num_moves())

    seat = base.current_player()
    done = k = 0
    t0 = cpu()
    while k < n and (k == 0 or cpu() - t0 < budget):
        s = base.determinize(seat, rng) if sample else base.clone()
        done += s.run(pick, round_only=True)
        k += 1
    return cpu() - t0, done, k


def search_costs(n_playouts: int, copies: int, budget: float) -> dict[str, dict[str, Any]]:
    """Per bundled game: µs per ``clone()`` and per ``determinize()`` (``copies`` of each, CPU
    time) of a mid-round state, and the CPU seconds of 1,000 random playouts from it to the end
    of the round (the issue's criterion: under 0.5 s), by clone and by determinize. Fewer
    playouts (``--smoke``, or a game whose playouts exceed ``budget`` CPU seconds) are scaled
    to 1,000; ``playouts_run`` says how many ran."""
    out: dict[str, dict[str, Any]] = {}
    for path in bundled_games():
        game = load(path)
        players = game.default_players
        base = mid_round_state(game, players, 11)
        playouts(base, min(5, n_playouts), False, 97, budget)  # warm the memos
        clone_s = timeit.timeit(base.clone, number=copies, timer=cpu)
        seat = base.current_player()
        rng = random.Random(5)
        det_s = timeit.timeit(lambda b=base, p=seat, g=rng: b.determinize(p, g),
                              number=copies, timer=cpu)
        pc, dc, kc = playouts(base, n_playouts, False, 1, budget)
        pd, dd, kd = playouts(base, n_playouts, True, 2, budget)
        out[path.stem] = {
            "clone_us": round(clone_s / copies * 1e6, 2),
            "determinize_us": round(det_s / copies * 1e6, 2),
            "playouts_run": [kc, kd],
            "playout_decisions_mean": round((dc + dd) / (kc + kd), 1),
            "playouts_1000_clone_s": round(pc * 1000 / kc, 3),
            "playouts_1000_determinize_s": round(pd * 1000 / kd, 3),
            "playouts_per_sec": round(kc / pc) if pc else 0,
        }
    return out


def greedy_table(games: int) -> dict[str, Any]:
    """One greedy seat (samples hidden cards with ``determinize`` and looks one move ahead in
    clones) and three random seats at 4-player Thirty-One, through ``rulelang.agents``."""
    from rulelang.agents import make_agent

    game = load(ROOT / "games" / "thirty-one.yaml")
    done = 0
    t0 = cpu()
    for i in range(games):
        s = game.new_state(4, seed=i, record=False)
        bots = [make_agent(a, i * 31 + p + 1)
                for p, a in enumerate(["greedy", "random", "random", "random"])]
        while not s.is_over():
            p = s.current_player()
            s.apply_index(bots[p].choose_index(s, p))
            done += 1
    secs = cpu() - t0
    return {"games": games, "decisions_per_sec": round(done / secs) if secs else 0}

