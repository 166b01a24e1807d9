"""Bot-vs-bot simulation and its statistics, in one process or several.

Game ``i`` of a run is seeded from (seed, i) alone and its agents from (seed, i, seat), and the
games' records are added up in a ``Tally`` of counts and multisets that merges exactly (no
running sums of floats), so the statistics depend only on the seed and the arguments, never on
the number of workers. A worker sends back its chunk's tally, not every game's record (the local
worker processes are ``workers.py``'s, Ray's ``distributed.py``'s). Only keys containing ``sec``
hold timings.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from itertools import chain, repeat
from typing import Any

from . import metrics
from .agents import make_agent
from .errors import RoundLimit, RuntimeRulesError
from .limits import MAX_DECISIONS_PER_GAME
from .metrics import mean_of as _mean
from .metrics import median_of as _median
from .metrics import wilson
from .replay import log_line, outcome
from .seeds import game_seed  # also read as sim.game_seed by callers
from .simio import game_record, numeric_counters
from .workers import local_answers


def play_one(game: Any, players: int, agents: list[str], seed: int, i: int,
             check: bool = False, record: bool = False,
             limits: dict[str, int] | None = None,
             bot_work: int | None = None, records: bool = False) -> dict[str, Any]:
    """Play game ``i`` of a run to the end; return its record. ``record`` keeps the moves
    (``moves``: [seat, text] pairs, and the ``outcome``) for a replay log; ``limits`` are the
    engine's step limits (``max_round_steps``, ``max_game_steps``); ``bot_work`` the work a
    bot may do per decision (``agents.make_agent``); ``records`` adds the game's line of
    ``simulate --records`` (``line``: ``simio.game_record``)."""
    gs = game_seed(seed, i)
    problems: list[str] = []
    order: list[int] = []  # the seats in the order of their first decision (metrics.py)
    cut = False  # ended at the round limit (max_rounds) before the match was over
    try:
        state = game.new_state(players, seed=gs, record=record, **(limits or {}))
        bots = [make_agent(a, gs * 31 + p + 1, bot_work) for p, a in enumerate(agents)]
        if check:
            problems.extend(state.check_invariants() + conserved_problems(state))
        while not state.is_over() and not problems:
            p = state.current_player()
            if p not in order:
                order.append(p)
            state.apply_index(bots[p].choose_index(state, p))
            if check:
                problems.extend((state.check_invariants() + conserved_problems(state))[:3])
            if state.decisions > MAX_DECISIONS_PER_GAME:
                problems.append(f"game {i} made more than {MAX_DECISIONS_PER_GAME} decisions")
    except RoundLimit:  # the game is cut short there: no winner, its rounds counted
        cut = True
    except RuntimeRulesError as e:  # which game, and how to play it again
        e.add_context(f"in game {i} of the run, whose own seed is {gs}; simulate --seed "
                      f"{seed} --games {i + 1} plays it again")
        raise
    winner = None if cut else state.winner
    winners = winner if isinstance(winner, list) else ([] if winner is None else [winner])
    rounds = len(state.round_results) if cut else state.round
    out = {"rounds": rounds, "decisions": state.decisions, "winners": winners,
           **round_figures(state), "problems": problems,
           "order": metrics.first_order(state, order),
           "standing": metrics.standings(state, winners)}
    if state.game.teams is not None:
        out["teams"] = list(state.team)
    if cut:
        out["cut_short"] = True
    if record:
        out["moves"] = [[p, text] for p, text in state.history]
        out["outcome"] = outcome(state, cut)
    if records:
        out["line"] = game_record(state, i, gs, winners)
        if cut:
            out["line"].update(rounds=rounds, cut_short=True)
    return out


def round_figures(state: Any) -> dict[str, Any]:
    """The figures of a state's finished rounds: how each ended, the turns played and the
    decisions made in each, and the change of each counter by role (dealer, players). A
    round's figures are those of the seats in play when it was dealt: a seat out of the game
    neither plays nor changes, and averaged in at 0 it made the seats in play look better."""
    ended: Counter[str] = Counter()
    role_delta: dict[str, dict[str, list[float]]] = {}
    game = state.game
    names = [name for name, _ in game.counters]
    numeric = numeric_counters(game)  # a counter of lists or records is left out
    house = getattr(game, "house", None)
    for name, _turns, dealer, delta, seated, _decisions in state.round_results:
        ended[name or "none"] += 1
        for ci, row in enumerate(delta):
            if not numeric[ci]:
                continue
            roles = role_delta.setdefault(names[ci], {})
            for p in seated:
                # a game with a house (a banker that is no seat): every seat is a player
                roles.setdefault("dealer" if p == dealer and house is None else "players",
                                 []).append(float(row[p]))
            if house is not None and len(row) > state.n:  # the house's share (house.py)
                roles.setdefault("house", []).append(float(row[state.n]))
    tpr = [r[1] for r in state.round_results]
    return {"turns": sum(tpr), "ended_by": dict(ended), "turns_per_round": tpr,
            "decisions_per_round": [r[5] for r in state.round_results],
            "role_delta": role_delta}


def conserved_problems(state: Any) -> list[str]:
    out = []
    for name, u in state.game.conserved:
        v = u(state)
        base = state.conserved_start.get(name)
        if base is None:
            state.conserved_start[name] = v
        elif (abs(v - base) > 1e-9 if isinstance(v, (int, float)) and isinstance(
                base, (int, float)) else v != base):  # (not numbers: compared as they are)
            out.append(f"conserved '{name}' changed from {base} to {v}")
    return out


class Tally:
    """The records of a run's games added up: counts and multisets only, so that the tallies of
    chunks of games, merged in order, give exactly the tally of all of them in one go."""

    def __init__(self) -> None:
        self.games = 0
        self.cut_short = 0  # games ended at the round limit (--max-rounds), no winner counted
        self.decisions = 0
        self.turns = 0
        self.wins: Counter[tuple[int, int]] = Counter()  # (seat, winners of that game) -> games
        self.ended: Counter[str] = Counter()
        self.rounds: Counter[int] = Counter()  # rounds in a game -> games
        self.tpr: Counter[int] = Counter()  # turns played in a round -> rounds
        self.dpr: Counter[int] = Counter()  # decisions in a round -> rounds
        self.role: dict[str, dict[str, Counter[float]]] = {}  # counter -> role -> changes
        self.problems: list[str] = []
        self.teams: list[int] | None = None  # each seat's team, in a game of teams
        self.metrics = metrics.MetricTally()
        # a worker's chunk's lines of ``--records``, in game order: the run writes them out
        # as the chunks come back (merge leaves them), so no run keeps every game's line
        self.lines: list[dict[str, Any]] = []

    def add(self, r: dict[str, Any]) -> None:
        """Count one game's record (from ``play_one``)."""
        self.games += 1
        self.cut_short += bool(r.get("cut_short"))
        self.decisions += r["decisions"]
        self.turns += r["turns"]
        for w in r["winners"]:
            self.wins[(w, len(r["winners"]))] += 1
        self.ended.update(r["ended_by"])
        self.rounds[r["rounds"]] += 1
        self.tpr.update(r["turns_per_round"])
        self.dpr.update(r["decisions_per_round"])
        self._add_roles(r["role_delta"])
        self.problems.extend(r["problems"])
        self.teams = self.teams or r.get("teams")
        self.metrics.add(r)

    def merge(self, o: Tally) -> None:
        """Add the tally of the games that come after these."""
        self.games += o.games
        self.cut_short += o.cut_short
        self.decisions += o.decisions
        self.turns += o.turns
        self.wins.update(o.wins)
        self.ended.update(o.ended)
        self.rounds.update(o.rounds)
        self.tpr.update(o.tpr)
        self.dpr.update(o.dpr)
        self._add_roles(o.role)
        self.problems.extend(o.problems)
        self.teams = self.teams or o.teams
        self.metrics.merge(o.metrics)

    def _add_roles(self, role: dict[str, dict[str, Any]]) -> None:
        """Add counter changes by counter and role (lists of values, or multisets of them)."""
        for cname, roles in role.items():
            for rname, vals in roles.items():
                self.role.setdefault(cname, {}).setdefault(rname, Counter()).update(vals)


def _play_chunk(game: Any, players: int, agents: list[str], seed: int, lo: int, hi: int,
                check: bool, record: bool, limits: dict[str, int] | None,
                keep_log: Callable[[int, list, Any], None] | None = None,
                progress: Callable[[int], None] | None = None,
                bot_work: int | None = None, records: bool = False,
                keep_line: Callable[[dict[str, Any]], None] | None = None,
                tally: Tally | None = None) -> Tally:
    """Play games ``lo``..``hi - 1`` and tally them (into ``tally`` if given, so that the games
    finished are there if the run is interrupted); each recorded game's moves and outcome go
    to ``keep_log(i, moves, outcome)``; with ``records``, each game's line of ``--records``
    goes to ``keep_line`` (by default the tally's ``lines``)."""
    tally = Tally() if tally is None else tally
    for i in range(lo, hi):
        r = play_one(game, players, agents, seed, i, check, record, limits, bot_work, records)
        if record and keep_log is not None:
            keep_log(i, r.pop("moves"), r.pop("outcome"))
        if records:
            (keep_line or tally.lines.append)(r.pop("line"))
        tally.add(r)
        if progress:
            progress(1)
    return tally


MAX_CHUNK = 200  # games a worker plays before it reports (and the progress bar moves)
MIN_CHUNK = 4


def chunks(games: int, workers: int) -> list[tuple[int, int]]:
    """The runs of games handed to the workers, in order: a worker pays about a millisecond for
    each chunk it takes, so they are large at first, then shrink with the games left, so that
    no core waits long for another's last chunk (guided scheduling)."""
    out = []
    lo = 0
    while lo < games:
        size = max(MIN_CHUNK, min(MAX_CHUNK, (games - lo) // (workers * 4)))
        out.append((lo, min(games, lo + size)))
        lo += size
    return out


_GAMES: dict[str, Any] = {}  # compiled games by run key: inherited by forked workers


def _key(path: str, options: dict[str, Any], files: list[str] | None = None) -> str:
    """A compiled game's key in ``_GAMES``: on a Ray worker, the files' SHA-256 too, so that a
    worker kept from an earlier run never plays an older copy of a file."""
    return repr((path, sorted(options.items()), files))


def _worker(args: tuple, compile_game: Callable[..., Any] | None = None
            ) -> tuple[Tally, list[tuple[int, list, Any]]]:
    """Play one chunk of games (a job of ``run``'s) in a worker, the game compiled once per
    process: by ``compile_game(path, options, extra)`` if given (a Ray worker's,
    ``distributed.compile_here``), else from the path as the run's own process would."""
    path, options, players, agents, seed, lo, hi, check, extra = args
    key = _key(path, options, extra.get("files"))
    game = _GAMES.get(key)
    if game is None:
        from . import load

        game = _GAMES[key] = (load(path, options, extra.get("allow_any_path", False))
                              if compile_game is None else compile_game(path, options, extra))
    logs: list[tuple[int, list, Any]] = []
    tally = _play_chunk(game, players, agents, seed, lo, hi, check, extra.get("record", False),
                        extra.get("limits"), lambda i, m, o: logs.append((i, m, o)),
                        bot_work=extra.get("bot_work"), records=extra.get("records", False))
    return tally, logs


def run(path: str, options: dict[str, Any], players: int, games: int, agents: list[str],
        seed: int = 0, workers: int = 1, check: bool = False,
        progress: Callable[[int], None] | None = None, record_to: Any = None,
        limits: dict[str, int] | None = None, allow_any_path: bool = False,
        game: Any = None, bot_work: int | None = None,
        records_to: Callable[[dict[str, Any]], None] | None = None,
        backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """Simulate ``games`` games and return the statistics as one JSON-ready dict.
    ``record_to`` (a writable text file) receives one JSON line per game for ``rulelang
    replay``; ``records_to`` each game's record (``simio.game_record``), in game order
    whatever the workers; ``limits`` are the engine's step limits; ``game``, if given, is the
    compiled game of ``path`` and ``options`` (the caller loaded it already); ``bot_work``:
    the work a bot may do per decision (default limits.MAX_BOT_WORK); ``backend`` ``"ray"``
    plays the games as tasks on the Ray cluster at ``address`` (distributed.py), ``workers``
    then unused."""
    from . import load

    t0 = time.perf_counter()
    if game is None:
        game = load(path, options, allow_any_path)
    _GAMES[_key(path, options)] = game
    record = record_to is not None
    extra = {"record": record, "limits": limits, "allow_any_path": allow_any_path,
             "bot_work": bot_work, "records": records_to is not None}
    keep_log = None
    if record:
        def keep_log(i: int, moves: list, result: Any) -> None:
            record_to.write(log_line(game, path, options, players, agents, seed, i, limits,
                                     moves, result) + "\n")
    tally = Tally()
    try:
        if workers <= 1 and backend != "ray":
            _play_chunk(game, players, agents, seed, 0, games, check, record, limits, keep_log,
                        progress, bot_work, records_to is not None, records_to, tally)
        else:
            with _answers(game, path, options, players, agents, seed, games, check, extra,
                          workers, backend, address) as answers:  # workers stop at any error
                for part, logs in answers:
                    tally.merge(part)
                    for i, moves, result in logs:
                        if keep_log is not None:
                            keep_log(i, moves, result)
                    if records_to is not None:
                        for line in part.lines:
                            records_to(line)
                    if progress:
                        progress(part.games)
    except KeyboardInterrupt:
        # the games finished so far, in order (a game under way, or a chunk another worker
        # was playing, is left out): what the run has to say when it is stopped
        raise Interrupted(summarize(tally, players, agents, time.perf_counter() - t0),
                          games) from None
    seconds = time.perf_counter() - t0
    return summarize(tally, players, agents, seconds)


@contextmanager
def _answers(game: Any, path: str, options: dict[str, Any], players: int, agents: list[str],
             seed: int, games: int, check: bool, extra: dict[str, Any], workers: int,
             backend: str, address: str | None) -> Iterator[Iterator[tuple[Tally, list]]]:
    """The answers to a run's jobs (chunks of its games), in order: from ``workers`` local
    processes, or from Ray tasks (``distributed.ray_answers``)."""
    def jobs(n: int, where: str, more: dict[str, Any]) -> list[tuple]:
        return [(where, options, players, agents, seed, lo, hi, check, {**extra, **more})
                for lo, hi in chunks(games, n)]

    if backend != "ray":
        with closing(local_answers(jobs(workers, path, {}), workers, _worker)) as answers:
            yield answers
        return
    from .distributed import ray_answers

    with ray_answers(address, game, path, jobs, _worker) as answers:
        yield answers


class Interrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C: ``stats``, the statistics of the games finished before it, of
    the ``asked`` games of the run."""

    def __init__(self, stats: dict[str, Any], asked: int) -> None:
        super().__init__()
        self.stats = stats
        self.asked = asked


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-squared with ``df`` degrees of freedom (a whole number): the closed
    forms of the regularised upper incomplete gamma function at half-integers, each term taken
    through its logarithm (h^i / i! alone overflows for a large x)."""
    if x <= 0:
        return 1.0
    h = x / 2
    if df % 2 == 0:  # e^-h * sum of h^i / i! for i < df/2
        total = math.fsum(math.exp(i * math.log(h) - math.lgamma(i + 1) - h)
                          for i in range(df // 2))
    else:  # erfc(sqrt(h)) + e^-h * sum of h^(i-1/2) / Gamma(i+1/2) for 1 <= i < (df+1)/2
        total = math.erfc(math.sqrt(h)) + math.fsum(
            math.exp((i - 0.5) * math.log(h) - math.lgamma(i + 0.5) - h)
            for i in range(1, (df + 1) // 2))
    return min(1.0, total)


def seat_bias(wins: list[float], agents: list[str]) -> dict[str, Any] | None:
    """Pearson's chi-squared test of the wins per seat against no seat bias: each seat of an
    agent expected to win as often as that agent's other seats (seats of different agents are
    not compared). None when no two seats share an agent, or they never won."""
    chi2, df = 0.0, 0
    for a in dict.fromkeys(agents):
        seats = [p for p, b in enumerate(agents) if b == a]
        total = math.fsum(wins[p] for p in seats)
        if len(seats) < 2 or total <= 0:
            continue
        e = total / len(seats)
        chi2 += math.fsum((wins[p] - e) ** 2 / e for p in seats)
        df += len(seats) - 1
    if df == 0:
        return None
    return {"chi2": round(chi2, 4), "df": df, "p": round(chi2_sf(chi2, df), 6)}


def summarize(t: Tally, players: int, agents: list[str], seconds: float) -> dict[str, Any]:
    games = t.games
    # a shared win counts 1/k to each of the k winners (fsum: exact, whatever the order)
    wins = [math.fsum(chain.from_iterable(repeat(1.0 / k, n) for (q, k), n in t.wins.items()
                                          if q == p)) for p in range(players)]
    ended, tpr, role, problems = t.ended, t.tpr, t.role, t.problems
    total_rounds = sum(k * n for k, n in t.rounds.items())
    by_agent: dict[str, dict[str, Any]] = {}
    won = metrics.seat_wins(wins, t.teams)
    for a in dict.fromkeys(agents):
        seats = [p for p in range(players) if agents[p] == a]
        w, n = metrics.agent_wins(won, seats, t.teams, games)
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
        "cut_short": t.cut_short,
        "players": players,
        "agents": agents,
        "rounds": total_rounds,
        "decisions": t.decisions,
        "turns": t.turns,
        "ended_by": dict(sorted(ended.items())),
        "ended_by_share": {k: round(v / nend, 6) for k, v in sorted(ended.items())} if nend else {},
        "wins_per_seat": per_seat,
        "wins_per_agent": by_agent,
        "seat_bias": seat_bias(wins, agents),
        "rounds_per_game": {"mean": round(_mean(t.rounds), 6) if t.rounds else 0.0,
                            "median": _median(t.rounds) if t.rounds else 0},
        "turns_per_round": {"mean": round(_mean(tpr), 6) if tpr else 0.0,
                            "median": _median(tpr) if tpr else 0},
        "decisions_per_round": {"mean": round(_mean(t.dpr), 6) if t.dpr else 0.0,
                                "median": _median(t.dpr) if t.dpr else 0},
        "counter_change_per_round": {
            c: {r: round(_mean(v), 6) for r, v in sorted(roles.items()) if v}
            for c, roles in sorted(role.items())},
        "invariant_violations": len(problems),
        "seconds": round(seconds, 4),
        "games_per_sec": round(games / seconds, 3) if seconds > 0 else None,
        "decisions_per_sec": None,
    }
    out["decisions_per_sec"] = round(out["decisions"] / seconds, 1) if seconds > 0 else None
    if t.teams:  # a team's wins: its seats' shares of the games they won together
        out["wins_per_team"] = [
            {"team": k, "seats": [p for p in range(players) if t.teams[p] == k],
             "wins": round(w, 6), "win_rate": round(w / games, 6) if games else 0.0}
            for k in sorted(set(t.teams))
            for w in [math.fsum(wins[p] for p in range(players) if t.teams[p] == k)]]
    out["metrics"] = metrics.summarize(t, players, agents, wins)
    if problems:
        out["problems"] = problems[:20]
    return out
