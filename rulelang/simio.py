"""What a simulation run writes: its statistics as text, the log of ``simulate --record`` and
the per-game lines of ``--records`` (a write that fails is a clean error naming the file), and
progress lines for a run that is not shown a progress bar (a pipe, a log, ``--json``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from .errors import UsageError


def progress_lines(total: int, say: Callable[[str], None], first: float = 2.0,
                   every: float = 10.0) -> Callable[[int], None]:
    """A progress callback that prints "simulating: K of N games" on stderr once the run has
    taken ``first`` seconds, then every ``every`` seconds: a long run never looks hung."""
    start = time.monotonic()
    state = {"done": 0, "next": start + first}

    def advance(k: int) -> None:
        state["done"] += k
        now = time.monotonic()
        if now >= state["next"] and state["done"] < total:
            state["next"] = now + every
            say(f"simulating: {state['done']:,} of {total:,} games ({now - start:.0f} s)")
    return advance


def numeric_counters(game: Any) -> list[bool]:
    """For each of a game's counters, whether it holds numbers: one that holds lists or
    records has no change per round to report or average."""
    return [not (game.counter_types.get(n, "").startswith("list")
                 or game.counter_types.get(n) == "record") for n, _ in game.counters]


def game_record(state: Any, i: int, seed: int, winners: list[int]) -> dict[str, Any]:
    """One finished game's line of ``--records`` (JSON-ready): its index in the run and its own
    seed (what plays it again), the winners, its length, and each round: how it ended, its
    dealer, the seats in play, turns, decisions, and the change of each counter per seat (and
    of the house's share, in a game with a house). A counter holding lists or records has no
    change to give and is left out, as in the statistics."""
    names = [name for name, _ in state.game.counters]
    numeric = numeric_counters(state.game)
    rounds = []
    for k, (name, turns, dealer, delta, seated, decisions) in enumerate(state.round_results):
        one: dict[str, Any] = {
            "round": k + 1, "ended_by": name, "dealer": dealer, "seats": list(seated),
            "turns": turns, "decisions": decisions,
            "changes": {n: row[:state.n] for n, row, ok in zip(names, delta, numeric) if ok}}
        house = {n: row[state.n] for n, row, ok in zip(names, delta, numeric)
                 if ok and len(row) > state.n}
        if house:
            one["house"] = house
        rounds.append(one)
    return {"game": i, "seed": seed, "winners": list(winners), "rounds": state.round,
            "decisions": state.decisions, "round_outcomes": rounds}


class RecordFile:
    """The file of ``simulate --record`` (or of another option: ``flag``): a write that fails
    (a full disk, ``/dev/full``, a quota) is a clean error naming the file, as a file that
    cannot be opened is, not an OSError out of the middle of the run."""

    def __init__(self, path: str, flag: str = "--record") -> None:
        self.path = path
        self.flag = flag
        try:
            self.file = open(path, "w", encoding="utf-8")
        except OSError as e:
            raise self._error(e) from None

    def _error(self, e: OSError) -> UsageError:
        return UsageError(f"{self.flag}: cannot write {self.path}: {e.strerror or e}")

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
        except OSError as e:
            raise self._error(e) from None

    def close(self, quietly: bool = False) -> None:
        try:
            self.file.close()
        except OSError as e:
            if not quietly:
                raise self._error(e) from None


def show_stats(stats: dict[str, Any], as_json: bool, echo: Callable[[str], None]) -> None:
    """The statistics as one JSON object (``--json``) or as text. Strict JSON: the counters
    hold finite numbers (runtime.counter), and were one to slip through, an error is better
    than a NaN a JSON reader refuses."""
    if as_json:
        echo(json.dumps(stats, allow_nan=False))
    else:
        print_stats(stats)


def print_stats(s: dict[str, Any]) -> None:
    """The statistics of ``simulate`` as text, on the terminal."""
    from rich.table import Table

    from .metrics import lines as metric_lines
    from .terminal import console, styled

    # the game's, the counters' and the endings' names are the rules file's: the console
    # cleans every string and reads none as markup
    con = console(highlight=True)  # numbers highlighted, as rich does by default
    con.print(styled((str(s["game"]), "bold"), f": {s['games']} games, {s['players']} players, "
                     f"{s['rounds']} rounds, {s['decisions']} decisions"))
    t = Table(title="wins per seat")
    for col in ("seat", "agent", "wins", "win rate", "95% CI"):
        t.add_column(col)
    for r in s["wins_per_seat"]:
        t.add_row(f"P{r['seat']}", r["agent"], f"{r['wins']:g}", f"{r['win_rate']:.1%}",
                  f"{r['ci95'][0]:.1%} – {r['ci95'][1]:.1%}")
    con.print(t)
    for r in s.get("wins_per_team", ()):  # a game of teams: the wins of each
        con.print(f"team {'+'.join(f'P{p}' for p in r['seats'])}: {r['wins']:g} wins "
                  f"({r['win_rate']:.1%})")
    if s.get("seat_bias"):
        b = s["seat_bias"]
        con.print(f"seat bias (chi-squared over seats of one agent): {b['chi2']:.2f} on "
                  f"{b['df']} df, p = {b['p']:.3g}")
    if len(s["wins_per_agent"]) > 1:
        t = Table(title="wins per agent")
        for col in ("agent", "seats", "win rate", "95% CI"):
            t.add_column(col)
        for a, r in s["wins_per_agent"].items():
            t.add_row(a, ",".join(f"P{p}" for p in r["seats"]), f"{r['win_rate']:.1%}",
                      f"{r['ci95'][0]:.1%} – {r['ci95'][1]:.1%}")
        con.print(t)
    if s.get("cut_short"):  # games ended at --max-rounds: counted, but no one's win
        con.print(f"games cut short at {s.get('max_rounds', '?')} rounds (--max-rounds): "
                  f"{s['cut_short']} of {s['games']}, no winner counted for them")
    rpg, tpr, dpr = s["rounds_per_game"], s["turns_per_round"], s["decisions_per_round"]
    con.print(f"rounds per game: mean {rpg['mean']:.2f}, median {rpg['median']:g}")
    # a turn counts when a decision is made in it: a deal that one seat's phases drive
    # throughout is one turn, and its decisions say how long it lasted
    con.print(f"turns per round: mean {tpr['mean']:.2f}, median {tpr['median']:g}")
    con.print(f"decisions per round: mean {dpr['mean']:.2f}, median {dpr['median']:g}")
    ends = ", ".join(f"{k} {v:.1%}" for k, v in s["ended_by_share"].items())
    con.print(f"rounds ended by: {ends}")
    for c, roles in s.get("counter_change_per_round", {}).items():
        parts = ", ".join(f"{r} {v:+.3f}" for r, v in roles.items() if r != "house")
        house = f"; house {roles['house']:+.3f}" if "house" in roles else ""  # not a seat
        con.print(f"mean change of {c} per round, seats in play: {parts}{house}")
    con.print("\n".join(metric_lines(s)))  # game-quality metrics (docs/metrics.md)
    if s.get("invariant_violations"):
        con.print(styled((f"invariant violations: {s['invariant_violations']}", "red")))
        for p in s.get("problems", []):
            con.print(f"  {p}")
    con.print(f"{s['seconds']:.2f} s, {s['games_per_sec']:.1f} games/sec, "
              f"{s['decisions_per_sec']:.0f} decisions/sec")
