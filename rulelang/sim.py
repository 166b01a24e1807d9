"""Bot-vs-bot simulation and its statistics, in one process or several.

Game ``i`` of a run is seeded from (seed, i) alone and its agents from (seed, i, seat), and the
per-game records are combined in game order, so the statistics depend only on the seed and the
arguments, never on the number of workers. Only keys containing ``sec`` hold timings.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from .agents import make_agent

MAX_DECISIONS_PER_GAME = 2_000_000


def game_seed(seed: int, i: int) -> int:
    return (seed * 1_000_003 + i * 7_919 + 17) % (2**62)


def play_one(game: Any, players: int, agents: list[str], seed: int, i: int,
             check: bool = False, record: bool = False,
             limits: dict[str, int] | None = None) -> dict[str, Any]:
    """Play game ``i`` of a run to the end; return its record. ``record`` keeps the moves
    (``moves``: [seat, text] pairs, and the ``outcome``) for a replay log; ``limits`` are the
    engine's step limits (``max_round_steps``, ``max_game_steps``)."""
    gs = game_seed(seed, i)
    state = game.new_state(players, seed=gs, record=record, **(limits or {}))
    bots = [make_agent(a, gs * 31 + p + 1) for p, a in enumerate(agents)]
    problems: list[str] = []
    if check:
        problems.extend(state.check_invariants() + conserved_problems(state))
    while not state.is_over() and not problems:
        p = state.current_player()
        state.apply_index(bots[p].choose_index(state, p))
        if check:
            problems.extend((state.check_invariants() + conserved_problems(state))[:3])
        if state.decisions > MAX_DECISIONS_PER_GAME:
            problems.append(f"game {i} made more than {MAX_DECISIONS_PER_GAME} decisions")
    ended: Counter[str] = Counter()
    role_delta: dict[str, dict[str, list[float]]] = {}
    names = [name for name, _ in game.counters]
    for name, _turns, dealer, delta in state.round_results:
        ended[name or "none"] += 1
        for ci, row in enumerate(delta):
            for p, d in enumerate(row):
                role = "dealer" if p == dealer else "players"
                role_delta.setdefault(names[ci], {}).setdefault(role, []).append(float(d))
    winner = state.winner
    winners = winner if isinstance(winner, list) else ([] if winner is None else [winner])
    out = {
        "rounds": state.round, "decisions": state.decisions, "turns": state.total_turns,
        "winners": winners, "ended_by": dict(ended),
        "turns_per_round": [t for _, t, _, _ in state.round_results],
        "role_delta": role_delta, "problems": problems,
    }
    if record:
        from .replay import outcome

        out["moves"] = [[p, text] for p, text in state.history]
        out["outcome"] = outcome(state)
    return out


def conserved_problems(state: Any) -> list[str]:
    out = []
    for name, u in state.game.conserved:
        v = u(state)
        base = state.conserved_start.get(name)
        if base is None:
            state.conserved_start[name] = v
        elif abs(v - base) > 1e-9:
            out.append(f"conserved '{name}' changed from {base} to {v}")
    return out


_GAMES: dict[str, Any] = {}  # compiled games by run key: inherited by forked workers


def _ignore_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _worker(args: tuple) -> list[dict[str, Any]]:
    path, options, players, agents, seed, lo, hi, check, extra = args
    key = repr((path, sorted(options.items())))
    game = _GAMES.get(key)
    if game is None:
        from . import load

        game = _GAMES[key] = load(path, options, extra.get("allow_any_path", False))
    return [play_one(game, players, agents, seed, i, check, extra.get("record", False),
                     extra.get("limits")) for i in range(lo, hi)]


def run(path: str, options: dict[str, Any], players: int, games: int, agents: list[str],
        seed: int = 0, workers: int = 1, check: bool = False,
        progress: Callable[[int], None] | None = None, record_to: Any = None,
        limits: dict[str, int] | None = None, allow_any_path: bool = False,
        game: Any = None) -> dict[str, Any]:
    """Simulate ``games`` games and return the statistics as one JSON-ready dict.
    ``record_to`` (a writable text file) receives one JSON line per game for ``rulelang
    replay``; ``limits`` are the engine's step limits; ``game``, if given, is the compiled
    game of ``path`` and ``options`` (the caller loaded it already)."""
    from . import load

    t0 = time.perf_counter()
    records: list[dict[str, Any]] = []
    if game is None:
        game = load(path, options, allow_any_path)
    _GAMES[repr((path, sorted(options.items())))] = game
    record = record_to is not None
    extra = {"record": record, "limits": limits, "allow_any_path": allow_any_path}
    if record:
        from .replay import log_line

        def keep(r: dict[str, Any], i: int) -> dict[str, Any]:
            record_to.write(log_line(game, path, options, players, agents, seed, i, limits,
                                     r.pop("moves"), r.pop("outcome")) + "\n")
            return r
    else:
        def keep(r: dict[str, Any], i: int) -> dict[str, Any]:
            return r
    if workers <= 1:
        for i in range(games):
            records.append(keep(play_one(game, players, agents, seed, i, check, record, limits),
                                i))
            if progress:
                progress(1)
    else:
        import multiprocessing as mp

        # small chunks: the last one decides when the run ends, so a big one leaves a core idle
        chunk = max(1, min(50, math.ceil(games / (workers * 32))))
        jobs = [(path, options, players, agents, seed, lo, min(games, lo + chunk), check, extra)
                for lo in range(0, games, chunk)]
        ctx = mp.get_context("fork") if hasattr(mp, "get_context") else mp
        # Ctrl-C is the parent's to handle (a clean message, exit 130): workers ignore it
        # rather than each printing its own traceback
        with ctx.Pool(workers, initializer=_ignore_sigint) as pool:
            for recs in pool.imap(_worker, jobs):
                for r in recs:
                    records.append(keep(r, len(records)))
                if progress:
                    progress(len(recs))
    seconds = time.perf_counter() - t0
    return summarize(records, players, agents, seconds)


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def summarize(records: list[dict[str, Any]], players: int, agents: list[str],
              seconds: float) -> dict[str, Any]:
    games = len(records)
    wins = [0.0] * players
    for r in records:
        for w in r["winners"]:
            wins[w] += 1.0 / len(r["winners"])
    ended: Counter[str] = Counter()
    tpr: list[int] = []
    role: dict[str, dict[str, list[float]]] = {}
    problems: list[str] = []
    for r in records:
        ended.update(r["ended_by"])
        tpr.extend(r["turns_per_round"])
        for cname, roles in r["role_delta"].items():
            for rname, vals in roles.items():
                role.setdefault(cname, {}).setdefault(rname, []).extend(vals)
        problems.extend(r["problems"])
    rounds = [r["rounds"] for r in records]
    total_rounds = sum(rounds)
    by_agent: dict[str, dict[str, Any]] = {}
    for a in dict.fromkeys(agents):
        seats = [p for p in range(players) if agents[p] == a]
        w = sum(wins[p] for p in seats)
        n = games * len(seats)
        lo, hi = wilson(w, n)
        by_agent[a] = {"seats": seats, "wins": round(w, 6),
                       "win_rate": round(w / n, 6) if n else 0.0,
                       "ci95": [round(lo, 6), round(hi, 6)]}
    per_seat = []
    for p in range(players):
        lo, hi = wilson(wins[p], games)
        per_seat.append({"seat": p, "agent": agents[p], "wins": round(wins[p], 6),
                         "win_rate": round(wins[p] / games, 6) if games else 0.0,
                         "ci95": [round(lo, 6), round(hi, 6)]})
    nend = sum(ended.values())
    out: dict[str, Any] = {
        "games": games,
        "players": players,
        "agents": agents,
        "rounds": total_rounds,
        "decisions": sum(r["decisions"] for r in records),
        "turns": sum(r["turns"] for r in records),
        "ended_by": dict(sorted(ended.items())),
        "ended_by_share": {k: round(v / nend, 6) for k, v in sorted(ended.items())} if nend else {},
        "wins_per_seat": per_seat,
        "wins_per_agent": by_agent,
        "rounds_per_game": {"mean": round(statistics.fmean(rounds), 6) if rounds else 0.0,
                            "median": statistics.median(rounds) if rounds else 0},
        "turns_per_round": {"mean": round(statistics.fmean(tpr), 6) if tpr else 0.0,
                            "median": statistics.median(tpr) if tpr else 0},
        "counter_change_per_round": {
            c: {r: round(statistics.fmean(v), 6) for r, v in sorted(roles.items()) if v}
            for c, roles in sorted(role.items())},
        "invariant_violations": len(problems),
        "seconds": round(seconds, 4),
        "games_per_sec": round(games / seconds, 3) if seconds > 0 else None,
        "decisions_per_sec": None,
    }
    out["decisions_per_sec"] = round(out["decisions"] / seconds, 1) if seconds > 0 else None
    if problems:
        out["problems"] = problems[:20]
    return out
