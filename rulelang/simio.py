"""What a simulation run writes: the log of ``simulate --record`` (a write that fails is a
clean error naming the file), progress lines for a run that is not shown a progress bar (a
pipe, a log, ``--json``), and the statistics as text (``print_stats``; ``--json`` prints them
as they are).
"""

from __future__ import annotations

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


class RecordFile:
    """The file of ``simulate --record``: a write that fails (a full disk, ``/dev/full``, a
    quota) is a clean error naming the file, as a file that cannot be opened is, not an
    OSError out of the middle of the run."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.file = open(path, "w", encoding="utf-8")
        except OSError as e:
            raise self._error(e) from None

    def _error(self, e: OSError) -> UsageError:
        return UsageError(f"--record: cannot write {self.path}: {e.strerror or e}")

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


def print_stats(s: dict[str, Any]) -> None:
    """The statistics of ``simulate`` as tables and lines on the terminal."""
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
