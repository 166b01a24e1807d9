"""Replay logs: ``simulate --record FILE`` writes one JSON line per game; ``rulelang replay FILE``
plays every game again from its seed and its moves and checks that it ends the same way.

A line holds the format of the line and the engine format that dealt the games (see
``ENGINE_FORMAT``), the run's seed and the game's index (the game's own seed is
``seeds.game_seed(seed, index)``), the rules file as given and the sha256 of it and of every file
in its ``extends:`` chain, the options, players and agents, every decision as ``[seat, move
text]`` (the text as the mover saw it, so a card it could not see is named ``zone#k``), and the
outcome. A log whose rules files changed since it was written is refused: the same moves under
other rules prove nothing; so is a log recorded by another engine format, which may have dealt
other cards from the same seed.

Simulation imports this module (to write the lines); this module imports nothing of the
simulation's: the seed of each game comes from ``seeds``.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .engine import ENGINE_FORMAT  # what a seed means: the engine alone knows when it changes
from .errors import LoadError, RoundLimit, RulesError, RuntimeRulesError, Span, UsageError
from .seeds import game_seed

# the earlier engine formats, named for the message that refuses their logs
ENGINE_FORMATS = {1: "rulelang's first engine, up to rulelang 0.1.0"}

# The layout of a line. /2 added "engine"; a /1 line has none, and was dealt by engine format 1.
# The bump (not just a new field) makes a rulelang that reads /1 refuse a /2 log as an unknown
# format rather than replay it with the wrong engine and report every game as a mismatch.
FORMAT = "rulelang-replay/2"
FORMAT_ENGINE1 = "rulelang-replay/1"
REQUIRED = ("format", "game", "files", "players", "seed", "index", "moves", "outcome")


def outcome(state: Any, cut_short: bool = False) -> dict[str, Any]:
    """How a finished game came out: what a replay must reproduce exactly; ``cut_short``: a
    game ended at the round limit (``simulate --max-rounds``), so marked."""
    r = state.result()
    return _plain({**({"cut_short": True} if cut_short else {}),
        "over": r["over"], "winner": r["winner"], "rounds": r["rounds"],
        "decisions": state.decisions, "counters": r["counters"],
        "eliminated": r["eliminated"],
        "ended_by": [name for name, *_ in state.round_results],
    })


def _plain(x: Any) -> Any:
    """``x`` as it reads back from JSON (tuples become lists, keys strings)."""
    return json.loads(json.dumps(x, default=str))


def log_line(game: Any, path: str, options: dict[str, Any], players: int, agents: list[str],
             seed: int, index: int, limits: dict[str, int] | None, moves: list[list[Any]],
             result: dict[str, Any]) -> str:
    """One game's line of a log (no newline), stamped with this engine's format."""
    return json.dumps({
        "format": FORMAT, "engine": ENGINE_FORMAT, "game": str(path), "name": game.name,
        "files": [[p, sha] for p, sha in game.files],
        "options": dict(options), "players": players, "agents": list(agents),
        "seed": seed, "index": index, "game_seed": game_seed(seed, index),
        "limits": dict(limits or {}), "moves": moves, "outcome": result,
    }, separators=(",", ":"), allow_nan=False)


def engine_refusal(rec: dict[str, Any]) -> str:
    """Why a line cannot be replayed by this engine, or '' if it can. A line of the /1 format
    was recorded by engine format 1."""
    engine = 1 if rec.get("format") == FORMAT_ENGINE1 else rec.get("engine")
    if engine == ENGINE_FORMAT and type(engine) is int:
        return ""
    again = (f"this rulelang plays engine format {ENGINE_FORMAT}, which may play the same "
             "seed differently: record the games again")
    if engine is None:
        return f"this log records no engine format; {again}"
    if type(engine) is not int or engine < 1:
        return f"not a replay line: {engine!r} is not an engine format"
    if engine > ENGINE_FORMAT:
        return (f"this log was recorded by engine format {engine}, newer than this rulelang "
                f"(engine format {ENGINE_FORMAT}): replay it with the rulelang that recorded it")
    known = ENGINE_FORMATS.get(engine)
    return (f"this log was recorded by engine format {engine}"
            f"{f' ({known})' if known else ''}; {again}")


@dataclass
class Report:
    games: int = 0
    ok: int = 0
    problems: list[RulesError] = field(default_factory=list)


def _find_rules(name: str, log_dir: Path, allow_any: bool) -> str:
    """The rules file a log line names. A log is untrusted, as a rules file is: it may name a
    file under its own folder or a bundled game, as ``extends:`` may (``rules.within_reach``;
    simulate records the path it was given, so an absolute or working-folder path is taken
    when it leads there); ``allow_any`` (``--allow-any-path``) lets it name any file."""
    from .rules import bundled_dir, resolve_game, within_reach

    shown = name if len(name) <= 80 else name[:77] + "..."
    if allow_any:
        found = resolve_game(name) or resolve_game(name, log_dir)
        if found is not None:
            return str(found)
    else:
        p = Path(name)
        outside = None
        for c in ([p] if p.is_absolute() else [log_dir / p, p]):
            if os.path.isfile(c):  # false, not an error, for a name too long
                if within_reach(c, log_dir):
                    return str(c)
                outside = c
        if outside is not None:
            raise LoadError(f"the rules file '{shown}' of this log is outside the log's folder; "
                            "a log may name files under its folder and bundled games "
                            "(--allow-any-path lets it name any file: only for logs you trust)")
    # a bundled game recorded by its installed path on another machine: by its name
    stem = Path(name).name
    stem = stem[:-5] if stem.endswith(".yaml") else stem
    b = bundled_dir() / f"{stem}.yaml"
    if os.path.isfile(b):
        return str(b)
    raise LoadError(f"the rules file '{shown}' of this log cannot be found")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"{text[:40]} is beyond the numbers a log may hold")
    return v


def _short(v: Any) -> str:
    text = repr(v) if not isinstance(v, int) or abs(v) < 10**40 else "a number of 40 digits or more"
    return text if len(text) <= 60 else text[:57] + "..."


def _whole(rec: dict[str, Any], key: str, low: int | None) -> int:
    """A field of a line that must be a whole number (of ``low`` or more): a seed of
    ``Infinity`` or ``1e400`` is a bad line, not an OverflowError that stops the replay."""
    v = rec[key]
    if type(v) is not int or (low is not None and v < low):
        raise LoadError(f"not a replay line: {key} is {_short(v)}, not a whole number"
                        + (f" of {low} or more" if low is not None else ""))
    return v


def replay_file(path: str, allow_any_path: bool = False) -> Report:
    """Replay every game of a log. Problems are located at the log's lines; a bad line is
    its own problem, and the lines after it are replayed all the same."""
    from . import load

    p = Path(path)
    if not os.path.isfile(p):  # false, not an error, for a name too long
        raise UsageError(f"no such file: {path}")
    report = Report()
    games: dict[str, Any] = {}
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise LoadError(f"cannot read the log: {e}", Span(path)) from None
    for ln, text in enumerate(lines, 1):
        if not text.strip():
            continue
        report.games += 1
        try:
            problem = _replay_line(text, games, p.parent, allow_any_path, load)
        except RecursionError:
            problem = LoadError("not a replay line: nested too deeply")
        except Exception as e:  # a bug in rulelang must still not hide the other lines
            problem = RulesError(f"internal error while replaying this line "
                                 f"({type(e).__name__}: {e}); please report it with the log")
        if problem is None:
            report.ok += 1
        else:
            problem.span = Span(path, ln, 1)
            report.problems.append(problem)
    return report


def _replay_line(text: str, games: dict[str, Any], log_dir: Path, allow_any: bool,
                 load: Any) -> RulesError | None:
    """None if the line replays as logged, else the problem (located by the caller)."""
    try:
        rec = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
    except ValueError as e:
        return LoadError(f"not a replay line (bad JSON: {e})")
    if not isinstance(rec, dict) or any(k not in rec for k in REQUIRED):
        missing = [k for k in REQUIRED if not isinstance(rec, dict) or k not in rec]
        return LoadError(f"not a replay line: no {', '.join(missing)}")
    if rec["format"] not in (FORMAT, FORMAT_ENGINE1):
        return LoadError(f"unknown log format {_short(rec['format'])} (this rulelang reads "
                         f"{FORMAT})")
    refused = engine_refusal(rec)
    if refused:
        return LoadError(refused)
    label = f"game {_short(rec['index'])} (seed {_short(rec['seed'])})"
    try:
        why = _replay_one(rec, games, log_dir, allow_any, load)
    except RulesError as e:
        why = e.message
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        why = f"not a replay line ({type(e).__name__}: {e})"
    return RulesError(f"{label}: {why}") if why else None


def _replay_one(rec: dict[str, Any], games: dict[str, Any], log_dir: Path, allow_any: bool,
                load: Any) -> str:
    """'' if the game replays to the same outcome, else why not."""
    seed, index, players = _whole(rec, "seed", None), _whole(rec, "index", 0), \
        _whole(rec, "players", 1)
    limits = rec.get("limits") or {}
    if not isinstance(limits, dict):
        raise LoadError(f"not a replay line: limits is {_short(limits)}, not a mapping")
    limits = {k: _whole(limits, k, 1) for k in limits
              if k in ("max_round_steps", "max_game_steps", "max_moves", "max_rounds",
                       "max_work")}
    options = {str(k): v for k, v in (rec.get("options") or {}).items()}
    key = json.dumps([rec["game"], sorted(options.items())], default=str)
    game = games.get(key)
    if game is None:
        game = games[key] = load(_find_rules(str(rec["game"]), log_dir, allow_any), options,
                                 allow_any)
    logged = [str(sha) for _p, sha in rec["files"]]
    now = [sha for _p, sha in game.files]
    if logged != now:
        changed = [str(p) for (p, sha), new in zip(rec["files"], now + [""] * len(logged))
                   if sha != new] or [str(rec["game"])]
        return (f"refused: the rules changed since the log was written ({', '.join(changed)} "
                "has another sha256)")
    gs = game_seed(seed, index)
    if "game_seed" in rec and rec["game_seed"] != gs:
        return f"the logged game_seed {rec['game_seed']} is not the seed of game {index}"
    state = game.new_state(players, seed=gs, record=False, **limits)
    cut = False  # ended at the round limit, as simulate --max-rounds ends a game
    for k, (seat, move) in enumerate(rec["moves"], 1):
        if state.is_over() or cut:
            return f"the game was over after move {k - 1}, but the log has {len(rec['moves'])}"
        if state.current_player() != seat:
            return (f"move {k} ('{move}') is P{seat}'s, but P{state.current_player()} is to "
                    "move")
        try:
            state.apply(str(move))
        except RuntimeRulesError as e:  # the rules failed: not the move being rejected
            if isinstance(e, RoundLimit) and rec["outcome"].get("cut_short"):
                cut = True  # where simulate --max-rounds ended the game
                continue
            where = f" ({e.span})" if e.span.line else ""
            return f"the rules failed while playing move {k} (P{seat}: '{move}'){where}: " \
                   f"{e.message}"
        except RulesError as e:
            return f"move {k} (P{seat}: '{move}') was rejected: {e.message}"
    if not state.is_over() and not cut:
        return f"the game is not over after the {len(rec['moves'])} logged moves"
    got, want = outcome(state, cut), rec["outcome"]
    diff = [k for k in sorted(set(got) | set(want)) if got.get(k) != want.get(k)]
    if diff:
        k = diff[0]
        return f"another outcome: {k} is {got.get(k)!r}, the log says {want.get(k)!r}"
    return ""
