"""What ``simulate`` and ``compare`` write besides their statistics: ``--records`` (one JSON line
per game, ``simio.game_record``) and ``--report FILE.png`` or ``FILE.html`` (the length
histograms, the win rates by seat and by agent with their 95% intervals, and for ``compare``
the differences B - A with theirs; the HTML page holds the figure, embedded, and the numbers as
tables).

matplotlib is an optional extra (``rulelang[plot]``), imported only when a report is asked
for, and checked before a game is played: a missing one is a usage error naming the extra. The
figure is drawn on a ``matplotlib.figure.Figure`` of its own (no pyplot, no global backend), and
every text from a rules file (the game's, the agents', the endings' and counters' names) is
escaped for the page and shown literally in the figure (``$`` never starts mathtext).
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .errors import UsageError
from .simio import RecordFile
from .terminal import clean

PLOT_EXTRA = "pip install 'rulelang[plot]'"
KINDS = {".png": "png", ".html": "html", ".htm": "html"}
COLORS = ("#4477aa", "#ee6677")  # A and B (a run alone is A)


def figure_type() -> Any:
    """matplotlib's ``Figure``, or a usage error saying how to install it."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError("--report draws with matplotlib, which is not installed: "
                         f"{PLOT_EXTRA}") from None
    return Figure


class RunFiles:
    """The ``--records`` files of a command's runs (one per run, each optional) and its
    ``--report``. Made before any game is played, so that a report of an unknown kind, a
    missing matplotlib or a file that cannot be opened stops the command at once."""

    def __init__(self, records: list[tuple[str, str | None]], report: str | None) -> None:
        self.report = report
        if report is not None:
            if Path(report).suffix.lower() not in KINDS:
                raise UsageError(f"--report: {report} must end in .html or .png")
            if not Path(report).resolve().parent.is_dir():  # said now, not after the games
                raise UsageError(f"--report: cannot write {report}: no such folder")
            figure_type()
        self.files: list[RecordFile | None] = []
        # each run's games by length (rounds, decisions): the report's histograms
        self.lengths = [(Counter(), Counter()) for _ in records]
        try:
            for flag, path in records:
                self.files.append(None if path is None else RecordFile(path, flag))
        except UsageError:
            self.close(quietly=True)
            raise

    def sink(self, k: int) -> Callable[[dict[str, Any]], None] | None:
        """What run ``k`` gives each game's record to (``sim.run``'s ``records_to``), or None
        when nothing of it is kept."""
        f = self.files[k]
        if f is None and self.report is None:
            return None
        rounds, decisions = self.lengths[k]

        def take(rec: dict[str, Any]) -> None:
            if f is not None:
                f.write(json.dumps(rec, allow_nan=False) + "\n")
            rounds[rec["rounds"]] += 1
            decisions[rec["decisions"]] += 1
        return take

    def close(self, quietly: bool = False) -> None:
        """Close the records files (the last lines reach them here: a full disk shows)."""
        files, self.files = self.files, []
        error: UsageError | None = None
        for f in files:
            if f is not None:
                try:
                    f.close(quietly)
                except UsageError as e:
                    error = error or e
        if error is not None:
            raise error

    def write_report(self, stats: list[dict[str, Any]],
                     comparison: dict[str, Any] | None = None) -> None:
        """Draw the report of the runs' statistics (``sim.run``'s, with ``game``), and of
        ``comparison`` (``compare.compare_games``'s) when there are two, to ``--report``."""
        if self.report is None:
            return
        fig = draw(stats, self.lengths, comparison)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100)
        data = buf.getvalue()
        if KINDS[Path(self.report).suffix.lower()] == "html":
            data = page(stats, comparison, data).encode("utf-8")
        try:
            with open(self.report, "wb") as f:
                f.write(data)
        except OSError as e:
            raise UsageError(f"--report: cannot write {self.report}: {e.strerror or e}") from None


def _t(s: Any) -> str:
    """A text from a rules file as the figure shows it: control characters written out, no
    mathtext, no endless label."""
    text = clean(str(s)).replace("$", r"\$")
    return text if len(text) <= 60 else text[:59] + "…"


def _bins(counts: list[Counter]) -> list[float]:
    """Bins for whole numbers: one per value over a short range, about 40 over a long one."""
    values = [v for c in counts for v in c]
    lo, hi = (min(values), max(values)) if values else (0, 1)
    step = max(1, math.ceil((hi - lo + 1) / 40))
    return [lo - 0.5 + k * step for k in range(math.ceil((hi - lo + 1) / step) + 1)]


def _rate_bars(ax: Any, groups: list[list[dict[str, Any]]], labels: list[str],
               names: list[str], fair: float | None, title: str) -> None:
    """Win rates with their 95% intervals: one bar per entry of each run, side by side."""
    width = 0.8 / len(groups)
    for k, rows in enumerate(groups):
        xs = [i + (k - (len(groups) - 1) / 2) * width for i in range(len(rows))]
        rates = [r["win_rate"] for r in rows]
        err = [[max(0.0, v - r["ci95"][0]) for v, r in zip(rates, rows)],
               [max(0.0, r["ci95"][1] - v) for v, r in zip(rates, rows)]]
        ax.bar(xs, rates, width, yerr=err, capsize=3, color=COLORS[k], label=names[k])
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels([_t(s) for s in labels])
    if fair is not None:
        ax.axhline(fair, color="grey", linestyle="--", linewidth=1, label="1/N")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(title)
    ax.legend(fontsize="small")


def _forest(ax: Any, rows: list[dict[str, Any]], title: str, xlabel: str,
            scale: Callable) -> None:
    """Differences B - A with their intervals, one line each, the significant ones marked."""
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        d, (lo, hi) = scale(r, r["diff"]), (scale(r, v) for v in r["ci95"])
        color = COLORS[1] if r["significant"] else "black"
        ax.errorbar([d], [y], xerr=[[max(0.0, d - lo)], [max(0.0, hi - d)]], fmt="o",
                    color=color, capsize=3)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_xlabel(xlabel)
    ax.set_yticks(ys)
    ax.set_yticklabels([_t(r["metric"]) + (" *" if r["significant"] else "") for r in rows])
    ax.set_title(title)


def draw(stats: list[dict[str, Any]], lengths: list[tuple[Counter, Counter]],
         comparison: dict[str, Any] | None) -> Any:
    """The report's figure: the length histograms, the win rates by seat and by agent, and a
    comparison's differences (rates, and means relative to A's)."""
    names = ["A", "B"] if comparison else [_t(stats[0]["game"])]
    rates, means = [], []
    if comparison:
        tested = [r for r in comparison["metrics"] if r["ci95"] is not None]
        rates = [r for r in tested if r["test"] == "two-proportion z"]
        means = [r for r in tested if r["test"] != "two-proportion z" and r["a"]]
    extra = [n for n in (len(rates), len(means)) if n]
    fig = figure_type()(figsize=(11, 8 + sum(0.3 * n + 1 for n in extra)),
                        layout="constrained")
    grid = fig.add_gridspec(2 + len(extra), 2, height_ratios=[4, 4] + [
        0.3 * n + 1 for n in extra])
    for col, (key, what) in enumerate((("rounds", 0), ("decisions", 1))):
        ax = fig.add_subplot(grid[0, col])
        counts = [lg[what] for lg in lengths]
        bins = _bins(counts)
        for k, c in enumerate(counts):
            ax.hist(list(c), bins=bins, weights=list(c.values()), color=COLORS[k],
                    alpha=0.55 if comparison else 0.9, label=names[k])
        ax.set_xlabel(f"{key} per game")
        ax.set_ylabel("games")
        ax.set_title(f"{key} per game")
        if comparison:
            ax.legend(fontsize="small")
    players = stats[0]["players"]
    _rate_bars(fig.add_subplot(grid[1, 0]), [s["wins_per_seat"] for s in stats],
               [f"P{p}" for p in range(players)], names, 1 / players, "win rate by seat")
    agents = list(stats[0]["wins_per_agent"])
    _rate_bars(fig.add_subplot(grid[1, 1]),
               [[s["wins_per_agent"][a] for a in agents] for s in stats], agents, names,
               None, "win rate by agent")
    row = 2
    if rates:
        _forest(fig.add_subplot(grid[row, :]), rates, "B - A, rates (95% CI; * significant "
                "after Holm)", "B - A", lambda r, v: v)
        row += 1
    if means:
        _forest(fig.add_subplot(grid[row, :]), means, "(B - A) / A, means (95% CI; * "
                "significant after Holm)", "(B - A) / |A|", lambda r, v: v / abs(r["a"]))
    title = (f"{_t(comparison['a']['path'])} (A) vs {_t(comparison['b']['path'])} (B)"
             if comparison else _t(stats[0]["game"]))
    fig.suptitle(f"{title}: {stats[0]['games']} games, {players} players")
    return fig


def _table(head: list[str], rows: list[list[Any]]) -> str:
    def cell(v: Any) -> str:
        if v is None:
            return "—"
        if isinstance(v, float):
            return f"{v:.4g}"
        return html.escape(clean(str(v)))
    out = ["<table><tr>", *(f"<th>{html.escape(h)}</th>" for h in head), "</tr>"]
    for r in rows:
        out += ["<tr>", *(f"<td>{cell(v)}</td>" for v in r), "</tr>"]
    return "".join(out) + "</table>"


def _ci(ci: list[float] | None) -> str | None:
    return None if ci is None else f"[{ci[0]:.4g}, {ci[1]:.4g}]"


def page(stats: list[dict[str, Any]], comparison: dict[str, Any] | None, png: bytes) -> str:
    """The HTML report: the figure embedded (base64) and the statistics as tables."""
    names = ["A", "B"] if comparison else [""]
    if comparison:
        c = comparison
        title = f"rulelang compare {c['a']['path']} {c['b']['path']}"
        about = [f"{side}: {c[side.lower()]['path']} ({c[side.lower()]['game']}), options "
                 f"{json.dumps(c[side.lower()]['options'])}" for side in names]
        about.append(f"{c['games']} games each, {c['players']} players, agents "
                     f"{','.join(c['agents'])}, seed {c['seed']}")
    else:
        s = stats[0]
        title = f"rulelang simulate {s['game']}"
        about = [f"{s['games']} games, {s['players']} players, agents {','.join(s['agents'])}, "
                 f"seed {s.get('seed', 0)}, options {json.dumps(s.get('options', {}))}"]
    parts = [f"<h1>{html.escape(clean(title))}</h1>",
             *(f"<p>{html.escape(clean(line))}</p>" for line in about),
             f'<img alt="report figure" src="data:image/png;base64,'
             f'{base64.b64encode(png).decode("ascii")}">']
    if comparison:
        parts += ["<h2>B - A (95% CI; p after Holm's correction)</h2>", _table(
            ["metric", "A", "B", "B - A", "95% CI", "test", "p", "p (Holm)", "significant"],
            [[r["metric"], r["a"], r["b"], r["diff"], _ci(r["ci95"]), r["test"], r["p"],
              r["p_holm"], r["significant"]] for r in comparison["metrics"]])]
    pre = [f"{n} " if n else "" for n in names]
    parts += ["<h2>win rate by seat</h2>", _table(
        ["run", "seat", "agent", "wins", "win rate", "95% CI"],
        [[n, f"P{r['seat']}", r["agent"], r["wins"], r["win_rate"], _ci(r["ci95"])]
         for n, s in zip(pre, stats) for r in s["wins_per_seat"]])]
    parts += ["<h2>win rate by agent</h2>", _table(
        ["run", "agent", "seats", "win rate", "95% CI"],
        [[n, a, ",".join(f"P{p}" for p in r["seats"]), r["win_rate"], _ci(r["ci95"])]
         for n, s in zip(pre, stats) for a, r in s["wins_per_agent"].items()])]
    parts += ["<h2>game length</h2>", _table(
        ["run", "per game", "mean", "sd", "median", "p10", "p90"],
        [[n, key, x["mean"], x["sd"], x["median"], x["p10"], x["p90"]]
         for n, s in zip(pre, stats) for key in ("rounds", "decisions")
         for x in [s["metrics"]["length"][key]]])]
    style = ("body{font-family:sans-serif;margin:2em}img{max-width:100%}"
             "table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{html.escape(clean(title))}</title><style>{style}</style></head><body>\n"
            + "\n".join(parts) + "\n</body></html>\n")
