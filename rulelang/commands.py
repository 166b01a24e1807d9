"""Stage 8: the ``rulelang`` commands (a Typer app), exactly as CONTRACTS.md fixes them.

Exit status: 0 success; 1 a bad rules or scenario file, or a failed check or test; 2 a usage
error. Whatever goes wrong, the user sees a located message, never a Python traceback.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path
from typing import Any

import typer

from .cliargs import check_bot_work as _check_bot_work
from .cliargs import engine_limits as _limits
from .cliargs import parse_options as _parse_options
from .distributed import ADDRESS_HELP, BACKEND_HELP
from .errors import RulesError, RuntimeRulesError, UsageError
from .limits import MAX_BOT_WORK, MAX_WORK, MAX_WORKERS
from .terminal import clean

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="rulelang: card games as data. Check, score, play, simulate and test them.")


def _version(value: bool) -> None:
    if value:
        from . import __version__

        _echo(f"rulelang {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and exit")) -> None:
    """rulelang: card games as data. Check, score, play, simulate and test them."""


def _echo(text: str, err: bool = False) -> None:
    """Every line the command prints: names, messages and moves come from rules files, logs
    and users, so control characters are written out (``terminal.clean``)."""
    typer.echo(clean(text), err=err)


def _echo_err(text: str) -> None:
    _echo(text, err=True)


def _fail(e: RulesError) -> None:
    _echo_err(e.render())
    raise typer.Exit(2 if isinstance(e, UsageError) else 1)


def _load_game(name: str, options: dict[str, Any] | None = None,
               allow_any_path: bool = False) -> Any:
    from . import load
    from .rules import bundled_names, resolve_game

    if resolve_game(name) is None:
        from .errors import did_you_mean

        known = bundled_names()
        raise UsageError(f"no rules file or bundled game named '{name}'"
                         f"{did_you_mean(name, known)}"
                         + (f"; bundled games: {', '.join(known)}" if known else ""))
    return load(name, options, allow_any_path)


REPORT_HELP = ("draw the statistics to FILE.html or FILE.png (needs matplotlib: pip "
               "install 'rulelang\\[plot]')")  # \\[: the help is Rich markup
ALLOW_HELP = ("let extends: name any file (absolute paths, '..' out of the folder); only for "
              "rules files you trust")


@app.command()
def check(paths: list[str] = typer.Argument(..., help="rules files or folders of them"),
          as_json: bool = typer.Option(False, "--json", help="print one JSON array of the "
                                       "problems (file, line, col, severity, message)"),
          allow_any_path: bool = typer.Option(False, "--allow-any-path", help=ALLOW_HELP)
          ) -> None:
    """Validate rules files (folders: every *.yaml except *.scenario.yaml), reporting every
    problem as PATH:LINE:COL: error: MESSAGE with the source line and a caret."""
    from .checkcmd import run_check

    code = run_check(paths, as_json, allow_any_path, _write)
    if code or as_json:
        raise typer.Exit(code)


def _write(text: str, err: bool) -> None:
    typer.echo(text, err=err)


@app.command("list")
def list_(as_json: bool = typer.Option(False, "--json", help="print one JSON array")) -> None:
    """The bundled games, one line each: the name to give other commands, and what it is."""
    from .catalog import bundled_games

    games = bundled_games()
    if as_json:
        typer.echo(json.dumps(games, indent=1))
        return
    width = max((len(g["id"]) for g in games), default=0)
    for g in games:
        what = f"{g['name']}: {g['description']}" if g["description"] else g["name"]
        if g["extends"]:
            what = f"{what} (a variant of {g['extends']})"
        _echo(f"{g['id']:<{width}}  {what}")


def _finite(v: Any) -> bool:
    """Whether a value holds no infinity and no NaN."""
    if isinstance(v, float):
        return math.isfinite(v)
    return all(_finite(x) for x in v) if isinstance(v, (list, tuple)) else True


def _num(v: Any) -> Any:
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, list):
        return [_num(x) for x in v]
    return v


@app.command()
def score(game: str = typer.Argument(..., help="a rules file or a bundled game's name"),
          cards: list[str] = typer.Argument(..., help="cards, like AS TD 7H"),
          evaluator: str = typer.Option(None, help="the evaluator (default: the hand evaluator)"),
          as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
          allow_any_path: bool = typer.Option(False, "--allow-any-path", help=ALLOW_HELP)
          ) -> None:
    """Evaluate one hand with an evaluator of the game."""
    from .cards import parse_cards

    try:
        g = _load_game(game, None, allow_any_path)
        ev = g.evaluator(evaluator)
        if len(ev.params) != 1:
            raise UsageError(f"'{ev.name}' takes {len(ev.params)} arguments; an evaluator takes "
                             "the cards")
        state = g.new_state(g.default_players, seed=0)
        ids = parse_cards(cards, g.tables, state.ncards)
        try:
            value = _num(ev.fn(state, list(ids)))
        except RulesError as e:
            # the rules are fine (they passed the checks); these cards are not a hand it values
            raise UsageError(f"'{ev.name}' cannot value these {len(ids)} card"
                             f"{'s' if len(ids) != 1 else ''}: {e.message}") from None
        if not _finite(value):  # what --json prints is strict JSON: no NaN, no Infinity
            raise RuntimeRulesError(f"'{ev.name}' valued these cards at {value}, which is not "
                                    "a number (a number overflowed)", ev.span)
    except RulesError as e:
        _fail(e)
        return
    if as_json:
        _echo(json.dumps({"value": value, "evaluator": ev.name,
                          "cards": [g.tables.name[c] for c in ids]}, allow_nan=False))
    else:
        _echo(str(value))


@app.command()
def explain(game: str = typer.Argument(..., help="a rules file or a bundled game's name"),
            option: list[str] = typer.Option(None, help="a rules option, KEY=VALUE"),
            allow_any_path: bool = typer.Option(False, "--allow-any-path", help=ALLOW_HELP)
            ) -> None:
    """The rules file read back as rules (Markdown): deck, zones, the deal, a turn, how a
    round ends and is settled, the match, options; a variant's differences from its base."""
    from .explain import explain as explained

    try:
        _echo(explained(_load_game(game, _parse_options(option), allow_any_path)).rstrip("\n"))
    except RulesError as e:
        _fail(e)


@app.command("compile")
def compile_(game: str = typer.Argument(..., help="a rules file or a bundled game's name"),
             dump: bool = typer.Option(False, "--dump", help="print the generated Python"),
             option: list[str] = typer.Option(None, help="a rules option, KEY=VALUE"),
             allow_any_path: bool = typer.Option(False, "--allow-any-path", help=ALLOW_HELP)
             ) -> None:
    """Compile a game (checking it) and, with --dump, print the Python generated from it: each
    piece under a comment naming the rules line it came from, then the constants it uses."""
    try:
        g = _load_game(game, _parse_options(option), allow_any_path)
    except RulesError as e:
        _fail(e)
        return
    sources = g.generated.sources
    if dump:
        _echo(g.generated.dump())
        return
    lines = sum(text.count("\n") + 1 for text, _ in sources)
    _echo(f"{g.name or game}: compiled into {len(sources)} pieces of Python, {lines} lines "
               "(--dump prints them)")


@app.command()
def test(paths: list[str] = typer.Argument(..., help="scenario files or folders of them")) -> None:
    """Run scenario files (folders: every *.scenario.yaml), ending with 'N passed, M failed'."""
    from .scenario import find_scenarios, run_scenario

    files = find_scenarios(paths)
    missing = [shown for p, shown in files if not os.path.isfile(p)]
    if missing:
        _echo_err(f"no such file or folder: {missing[0]}")
        raise typer.Exit(2)
    passed = failed = 0
    games: dict[str, Any] = {}  # each rules file compiled once per set of options
    for path, shown in files:
        try:
            out = run_scenario(path, shown, games)
        except RuntimeRulesError as e:  # the game's rules went wrong while it ran
            _echo(f"{shown}: FAIL: the rules failed while the scenario ran")
            _echo_err(e.render())
            failed += 1
            continue
        except RulesError as e:
            _echo(f"{shown}: FAIL: bad scenario")
            _echo_err(e.render())
            failed += 1
            continue
        except Exception as e:  # a bug in rulelang must still not hide the other results
            _echo(f"{shown}: FAIL: internal error: {type(e).__name__}: {e}")
            failed += 1
            continue
        if out.ok:
            passed += 1
        else:
            _echo(f"{shown}: FAIL: {out.reason}")
            for line, reason in out.failures:  # every failed expectation, at its line
                _echo(f"{shown}:{line}: {reason}" if line else f"{shown}: {reason}")
            failed += 1
    _echo(f"{passed} passed, {failed} failed")
    if failed:
        raise typer.Exit(1)


BOT_WORK_HELP = ("the work a bot that looks ahead (greedy) may do for one decision, apart "
                 f"from the game's (default {MAX_BOT_WORK:,}); past it, it picks among the "
                 "moves it has judged")


@app.command()
def simulate(game: str = typer.Argument(..., help="a rules file or a bundled game's name"),
             players: int = typer.Option(None, help="number of players (default: the game's)"),
             games: int = typer.Option(100, help="number of games"),
             agents: str = typer.Option("random", help="agents by seat, like greedy,random"),
             seed: int = typer.Option(0, help="the seed of the whole run"),
             workers: int = typer.Option(1, help="processes to run games in"),
             backend: str = typer.Option("local", help=BACKEND_HELP.replace("[", "\\[")),
             address: str = typer.Option(None, help=ADDRESS_HELP),
             option: list[str] = typer.Option(None, help="a rules option, KEY=VALUE"),
             check_invariants: bool = typer.Option(False, "--check",
                                                   help="check cards and conserved sums"),
             as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
             record: str = typer.Option(None, help="write every game's moves to this file "
                                        "(JSON Lines) for `rulelang replay`"),
             records: str = typer.Option(None, help="write one JSON line per game (seed, "
                                         "winners, length, each round's outcome) to this file"),
             report: str = typer.Option(None, help=REPORT_HELP),
             max_steps: int = typer.Option(None, help="engine steps allowed per game "
                                           "(default 20,000,000)"),
             max_round_steps: int = typer.Option(None, help="engine steps allowed per round "
                                                 "(default 200,000)"),
             max_moves: int = typer.Option(None, help="legal moves allowed in one decision "
                                           "(default 5,000)"),
             max_rounds: int = typer.Option(None, help="rounds allowed in one match "
                                            "(default 1,000,000); a game that reaches it "
                                            "ends there, counted as cut short, with no "
                                            "winner (docs/metrics.md)"),
             max_work: int = typer.Option(None, help="work allowed in one engine step "
                                          f"(default {MAX_WORK:,})"),
             bot_work: int = typer.Option(None, help=BOT_WORK_HELP),
             allow_any_path: bool = typer.Option(False, "--allow-any-path", help=ALLOW_HELP)
             ) -> None:
    """Bot-vs-bot games and their statistics."""
    from . import sim
    from .agents import parse_agents
    from .distributed import check_backend
    from .report import RunFiles
    from .simio import RecordFile, progress_lines, show_stats

    log: RecordFile | None = None
    files: RunFiles | None = None
    try:
        opts = _parse_options(option)
        g = _load_game(game, opts, allow_any_path)
        limits = _limits(max_steps, max_round_steps, max_moves, max_rounds, max_work)
        n = g.default_players if players is None else players
        if not g.min_players <= n <= g.max_players:
            raise UsageError(f"{g.name} is for {g.min_players} to {g.max_players} players, "
                             f"not {n}")
        if games < 1 or workers < 1:
            raise UsageError("--games and --workers must be at least 1")
        if workers > MAX_WORKERS:
            raise UsageError(f"--workers may be at most {MAX_WORKERS}")
        _check_bot_work(bot_work)
        check_backend(backend, address)
        names = parse_agents(agents, n)
        path = g.path if Path(g.path).is_file() else game
        show_bar = not as_json and sys.stderr.isatty()
        if not show_bar:  # a pipe, a log or --json: a plain line now and then, on stderr
            more_progress = progress_lines(games, _echo_err)
        files = RunFiles([("--records", records)], report)
        if record is not None:
            log = RecordFile(record)
        more: dict[str, Any] = {"record_to": log, "limits": limits, "records_to": files.sink(0),
                                "allow_any_path": allow_any_path, "game": g,
                                "bot_work": bot_work, "backend": backend, "address": address}
        if show_bar:
            from rich.progress import Progress

            with Progress(transient=True) as prog:
                task = prog.add_task("simulating", total=games)
                stats = sim.run(path, opts, n, games, names, seed, workers, check_invariants,
                                progress=lambda k: prog.advance(task, k), **more)
        else:
            stats = sim.run(path, opts, n, games, names, seed, workers, check_invariants,
                            progress=more_progress, **more)
        if log is not None:
            log, done = None, log
            done.close()  # the last lines reach the file here: a full disk shows at the latest
        files.close()
        stats.update(game=g.name, seed=seed, options=dict(g.options),  # what reproduces it
                     **({} if max_rounds is None else {"max_rounds": max_rounds}))
        files.write_report([stats])
    except RulesError as e:
        _fail(e)
        return
    except sim.Interrupted as e:  # Ctrl-C: the statistics of the games finished, then exit 130
        e.stats.update(game=g.name, seed=seed, options=dict(g.options), interrupted=True,
                       **({} if max_rounds is None else {"max_rounds": max_rounds}))
        show_stats(e.stats, as_json, _echo)
        _echo_err(f"{e.stats['games']} of {e.asked} games finished: the statistics are theirs")
        raise typer.Exit(130) from None
    finally:
        if log is not None:
            log.close(quietly=True)  # an error is on its way already
        if files is not None:
            files.close(quietly=True)
    show_stats(stats, as_json, _echo)
    if stats.get("invariant_violations"):
        raise typer.Exit(1)



@app.command()
def compare(a: str = typer.Argument(..., help="a rules file or a bundled game's name"),
            b: str = typer.Argument(..., help="another (or A again, with --option-a/-b)"),
            players: int = typer.Option(None, help="number of players (default: A's)"),
            games: int = typer.Option(200, help="games of each"),
            agents: str = typer.Option("random", help="agents by seat, like greedy,random"),
            seed: int = typer.Option(0, help="the seed of both runs"),
            workers: int = typer.Option(1, help="processes to run games in"),
            backend: str = typer.Option("local", help=BACKEND_HELP.replace("[", "\\[")),
            address: str = typer.Option(None, help=ADDRESS_HELP),
            option: list[str] = typer.Option(None, help="a rules option of both, KEY=VALUE"),
            option_a: list[str] = typer.Option(None, help="a rules option of A alone"),
            option_b: list[str] = typer.Option(None, help="a rules option of B alone"),
            records_a: str = typer.Option(None, help="write A's games to this file, as "
                                          "simulate --records does"),
            records_b: str = typer.Option(None, help="write B's games to this file"),
            report: str = typer.Option(None, help=REPORT_HELP),
            as_json: bool = typer.Option(False, "--json", help="print one JSON object"),
            allow_any_path: bool = typer.Option(False, "--allow-any-path", help=ALLOW_HELP)
            ) -> None:
    """Two games, or one under two option sets: every metric side by side (docs/metrics.md)."""
    from .compare import compare_games, render

    try:
        out = compare_games(a, b, players, games, agents, seed, workers, _load_game,
                            [_parse_options(o) for o in (option, option_a, option_b)],
                            allow_any_path, [records_a, records_b], report, backend, address)
    except RulesError as e:
        _fail(e)
        return
    _echo(json.dumps(out, allow_nan=False) if as_json else "\n".join(render(out)))


@app.command()
def play(game: str = typer.Argument(..., help="a rules file or a bundled game's name"),
         players: int = typer.Option(None, help="number of players (default: the game's)"),
         seat: int = typer.Option(0, help="your seat"),
         agents: str = typer.Option("greedy", help="bots for the other seats, by seat"),
         seed: int = typer.Option(None, help="the seed (default: random)"),
         option: list[str] = typer.Option(None, help="a rules option, KEY=VALUE"),
         max_work: int = typer.Option(None, help="work allowed in one engine step "
                                      f"(default {MAX_WORK:,})"),
         max_steps: int = typer.Option(None, help="engine steps allowed in the game "
                                       "(default 20,000,000)"),
         max_round_steps: int = typer.Option(None, help="engine steps allowed per round "
                                             "(default 200,000)"),
         bot_work: int = typer.Option(None, help=BOT_WORK_HELP),
         allow_any_path: bool = typer.Option(False, "--allow-any-path", help=ALLOW_HELP)
         ) -> None:
    """A game in the terminal: you at one seat, bots at the others (GAME may be a position
    saved with 'scenario' at the prompt, to play on from it)."""
    import random

    from .agents import parse_agents
    from .play import play_game

    try:
        opts = _parse_options(option)
        moves: list[str] = []
        if game.endswith(".scenario.yaml"):  # a game saved with `scenario` at the prompt
            from .play import saved_game

            if players is not None or seed is not None or opts:
                raise UsageError("a saved game sets its own players, seed and options")
            game, players, seed, opts, moves = saved_game(game)
        g = _load_game(game, opts, allow_any_path)
        n = g.default_players if players is None else players
        if not g.min_players <= n <= g.max_players:
            raise UsageError(f"{g.name} is for {g.min_players} to {g.max_players} players, "
                             f"not {n}")
        if not 0 <= seat < n:
            raise UsageError(f"--seat must be from 0 to {n - 1}")
        names = parse_agents(agents, n)
        _check_bot_work(bot_work)
        limits = _limits(max_steps, max_round_steps, None, None, max_work)
        s = seed if seed is not None else random.randrange(1_000_000)
        code = play_game(g, n, seat, names, s, bot_work=bot_work, limits=limits, moves=moves)
    except RulesError as e:
        _fail(e)
        return
    raise typer.Exit(code)


@app.command()
def replay(file: str = typer.Argument(..., help="a log written by simulate --record"),
           show: bool = typer.Option(False, "--show", help="print one game move by move, "
                                     "each move and the position after it"),
           seat: int = typer.Option(None, help="with --show: only what this seat sees"),
           game: int = typer.Option(None, help="with --show: the game of this index"),
           allow_any_path: bool = typer.Option(False, "--allow-any-path", help=ALLOW_HELP)
           ) -> None:
    """Replay the games of a log written by `simulate --record` and check that each ends
    exactly as logged (exit 1 on a mismatch, or if the rules files changed since)."""
    from .replay import replay_file
    from .replayshow import show_game

    try:
        if not show and (seat is not None or game is not None):
            raise UsageError("--seat and --game go with --show")
        for line in show_game(file, seat, game, allow_any_path) if show else ():
            _echo(line)
        if show:
            return
        report = replay_file(file, allow_any_path)
    except RulesError as e:
        _fail(e)
        return
    for e in report.problems:
        _echo_err(e.render())
    bad = len(report.problems)
    _echo(f"{report.games} game{'s' if report.games != 1 else ''} replayed, "
               f"{report.ok} as logged, {bad} not")
    if bad or not report.games:
        raise typer.Exit(1)
