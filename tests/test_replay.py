"""Replays: ``simulate --record FILE`` writes one JSON line per game; ``rulelang replay FILE``
plays each again and checks its outcome (exit 0; 1 on a mismatch), and refuses a log whose
rules files (the file and its whole ``extends:`` chain) changed since, or that another engine
format recorded (the same seed may deal other cards).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import io
import json
from pathlib import Path

import pytest

import rulelang
from rulelang import sim
from rulelang.replay import ENGINE_FORMAT, FORMAT, replay_file

from .helpers import THIRTY_ONE, assert_no_traceback, output, rules_files, run_cli, short_options

GAMES = rules_files()


def record(path: str, games: int = 3, agents: list[str] | None = None, seed: int = 4,
           options: dict[str, str] | None = None) -> list[dict]:
    game = rulelang.load(path, options)
    buf = io.StringIO()
    n = game.default_players
    names = (agents or ["random"])[:n]
    sim.run(path, dict(options or {}), n, games, names + [names[-1]] * (n - len(names)), seed,
            record_to=buf)
    return [json.loads(ln) for ln in buf.getvalue().splitlines()]


def write_log(tmp_path: Path, lines: list[dict], name: str = "log.jsonl") -> Path:
    p = tmp_path / name
    p.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return p


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_bundled_game_replays(tmp_path: Path, path: Path) -> None:
    # with the options that shorten a match (as the random-game test plays them): a game of
    # Thirty-One Banking at its default stake is ~20 times longer and replays the same way;
    # the options go into the log and the replay loads the game with them
    options = short_options(path)
    lines = record(str(path), games=2, options=options)
    assert len(lines) == 2
    for i, rec in enumerate(lines):
        assert rec["options"] == options
        assert rec["format"] == FORMAT and rec["engine"] == ENGINE_FORMAT
        assert rec["index"] == i and rec["seed"] == 4
        assert rec["game_seed"] == sim.game_seed(4, i)
        assert rec["moves"] and all(isinstance(s, int) and isinstance(t, str)
                                    for s, t in rec["moves"])
        assert rec["outcome"]["over"] is True
        # the rules file and its extends: chain, each with its sha256
        assert rec["files"][-1][1] == hashlib.sha256(path.read_bytes()).hexdigest()
        if "extends:" in path.read_text(encoding="utf-8"):
            assert len(rec["files"]) >= 2
    rep = replay_file(str(write_log(tmp_path, lines)))
    assert (rep.games, rep.ok, rep.problems) == (2, 2, [])


def test_cli_record_and_replay(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    r = run_cli("simulate", "thirty-one", "--games", "4", "--seed", "9", "--agents",
                "greedy,random", "--option", "lives=2", "--record", str(log), "--json")
    assert r.returncode == 0, output(r)
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    rec = json.loads(lines[0])
    assert rec["engine"] == ENGINE_FORMAT
    assert rec["options"] == {"lives": "2"} and rec["players"] == 4
    assert rec["agents"] == ["greedy", "random", "random", "random"]
    r = run_cli("replay", str(log))
    assert r.returncode == 0, output(r)
    assert "4 games replayed, 4 as logged, 0 not" in r.stdout


def test_record_does_not_depend_on_workers(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for log, w in ((a, "1"), (b, "2")):
        r = run_cli("simulate", "thirty-one", "--games", "12", "--workers", w, "--record",
                    str(log), "--json")
        assert r.returncode == 0, output(r)
    assert a.read_text(encoding="utf-8") == b.read_text(encoding="utf-8")


def test_record_does_not_change_the_statistics() -> None:
    game = "thirty-one"
    plain = sim.run(game, {}, 4, 6, ["random"] * 4, 3)
    recorded = sim.run(game, {}, 4, 6, ["random"] * 4, 3, record_to=io.StringIO())
    for k in ("games", "rounds", "decisions", "ended_by", "wins_per_seat"):
        assert plain[k] == recorded[k]


def test_a_changed_outcome_is_a_mismatch(tmp_path: Path) -> None:
    lines = record("thirty-one", games=2)
    lines[1]["outcome"]["rounds"] += 1
    log = write_log(tmp_path, lines)
    r = run_cli("replay", str(log))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert f"{log}:2:1: error: game 1 (seed 4): another outcome: rounds" in r.stderr
    assert "2 games replayed, 1 as logged, 1 not" in r.stdout


@pytest.mark.parametrize("edit", ["illegal", "seat", "short", "long", "seed"])
def test_changed_moves_are_a_mismatch(tmp_path: Path, edit: str) -> None:
    lines = record("thirty-one", games=1)
    moves = lines[0]["moves"]
    if edit == "illegal":
        moves[0][1] = "knock knock"
    elif edit == "seat":
        moves[0][0] = (moves[0][0] + 1) % lines[0]["players"]
    elif edit == "short":
        del moves[-1]
    elif edit == "long":
        moves.append(moves[-1])
    else:
        lines[0]["seed"] += 1
    rep = replay_file(str(write_log(tmp_path, lines)))
    assert rep.ok == 0 and len(rep.problems) == 1
    assert rep.problems[0].span.line == 1


def test_changed_rules_are_refused(tmp_path: Path) -> None:
    rules = tmp_path / "mine.yaml"
    rules.write_text(THIRTY_ONE.read_text(encoding="utf-8"), encoding="utf-8")
    log = tmp_path / "log.jsonl"
    r = run_cli("simulate", str(rules), "--games", "2", "--record", str(log), "--json")
    assert r.returncode == 0, output(r)
    assert run_cli("replay", str(log)).returncode == 0
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# a comment changes the hash\n",
                     encoding="utf-8")
    r = run_cli("replay", str(log))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert "refused: the rules changed" in r.stderr


def test_a_changed_base_in_the_extends_chain_is_refused(tmp_path: Path) -> None:
    base = tmp_path / "base.yaml"
    base.write_text(THIRTY_ONE.read_text(encoding="utf-8"), encoding="utf-8")
    variant = tmp_path / "variant.yaml"
    variant.write_text("extends: base.yaml\nname: Variant\n", encoding="utf-8")
    log = tmp_path / "log.jsonl"
    r = run_cli("simulate", str(variant), "--games", "1", "--record", str(log), "--json")
    assert r.returncode == 0, output(r)
    rec = json.loads(log.read_text(encoding="utf-8"))
    assert len(rec["files"]) == 2
    base.write_text(base.read_text(encoding="utf-8").replace("default: 4", "default: 5", 1),
                    encoding="utf-8")
    r = run_cli("replay", str(log))
    assert r.returncode == 1 and "refused" in r.stderr, output(r)
    assert "base.yaml" in r.stderr


AGAIN = (f"this rulelang plays engine format {ENGINE_FORMAT}, which may play the same "
         "seed differently: record the games again")


@pytest.mark.parametrize("edit, says", [
    # a log written before logs recorded their engine: format /1, no "engine"
    ("format 1", "this log was recorded by engine format 1 (rulelang's first engine, up to "
                 f"rulelang 0.1.0); {AGAIN}"),
    ("engine 1", f"this log was recorded by engine format 1 (rulelang's first engine, up to "
                 f"rulelang 0.1.0); {AGAIN}"),
    ("no engine", f"this log records no engine format; {AGAIN}"),
    ("engine next", f"this log was recorded by engine format {ENGINE_FORMAT + 1}, newer than "
                    f"this rulelang (engine format {ENGINE_FORMAT}): replay it with the "
                    "rulelang that recorded it"),
    ("engine text", "not a replay line: '2' is not an engine format"),
])
def test_another_engine_format_is_refused(tmp_path: Path, edit: str, says: str) -> None:
    lines = record("thirty-one", games=2)
    bad = lines[1]
    if edit == "format 1":
        bad["format"] = "rulelang-replay/1"
        del bad["engine"]
    elif edit == "no engine":
        del bad["engine"]
    else:
        bad["engine"] = {"engine 1": 1, "engine next": ENGINE_FORMAT + 1, "engine text": "2"}[edit]
    log = write_log(tmp_path, lines)
    r = run_cli("replay", str(log))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert r.stderr.strip() == f"{log}:2:1: error: {says}", r.stderr
    assert "2 games replayed, 1 as logged, 1 not" in r.stdout
    # the refusal comes first: nothing of the line is played
    bad["moves"] = "garbage"
    rep = replay_file(str(write_log(tmp_path, [bad])))
    assert rep.ok == 0 and [e.message for e in rep.problems] == [says]


def test_replay_does_not_import_the_simulation() -> None:
    """sim imports replay (to write the lines), never the other way, at any level of a module."""
    root = Path(rulelang.__file__).parent
    for name in ("replay", "seeds"):
        tree = ast.parse((root / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
                assert "sim" not in names, f"{name}.py line {node.lineno} imports sim"


def _line(**fields: object) -> str:
    return json.dumps({"format": FORMAT, "engine": ENGINE_FORMAT, "game": "thirty-one",
                       "files": [], "players": 2, "seed": 0, "index": 0, "moves": [],
                       "outcome": {}, **fields}) + "\n"


@pytest.mark.parametrize("content", [
    "not json\n", "[1, 2]\n", f'{{"format": "{FORMAT}"}}\n',
    _line(format="other/9", game="x"), _line(game="no-such-game"), _line(players="x"),
    _line(files=5), "",
])
def test_bad_logs_are_located_errors(tmp_path: Path, content: str) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text(content, encoding="utf-8")
    r = run_cli("replay", str(log))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    if content:
        assert r.stderr.startswith(f"{log}:1:1: error: "), r.stderr


def test_replay_usage_errors(tmp_path: Path) -> None:
    r = run_cli("replay", str(tmp_path / "nope.jsonl"))
    assert r.returncode == 2, output(r)
    assert_no_traceback(r)
    r = run_cli("simulate", "thirty-one", "--games", "1", "--record",
                str(tmp_path / "no" / "such" / "dir" / "x.jsonl"))
    assert r.returncode == 2, output(r)
    assert_no_traceback(r)


@functools.cache
def _three_lines() -> tuple[str, ...]:
    return tuple(json.dumps(x) for x in record("thirty-one", games=3, options={"lives": "1"}))


@pytest.mark.parametrize("field, bad", [
    ("seed", "Infinity"), ("seed", "1e400"), ("seed", "NaN"), ("seed", "-Infinity"),
    ("seed", "2.5"), ("seed", "true"), ("index", "1e400"), ("index", "-1"),
    ("players", "Infinity"), ("players", "1e400"), ("players", "4.0"),
    ("limits", '{"max_moves": 1e400}'), ("limits", '{"max_round_steps": Infinity}'),
    ("limits", '{"max_rounds": 0}'), ("limits", "[1]"), ("seed", "1" + "0" * 5000),
])
def test_a_bad_number_is_its_lines_own_error(tmp_path: Path, field: str, bad: str) -> None:
    # JSON's Infinity and a float too big for a double were an OverflowError that stopped
    # the whole replay: now each bad line is a located error, and the others still replay
    lines = list(_three_lines())
    rec = json.loads(lines[1])
    rec[field] = "@"
    lines[1] = json.dumps(rec).replace('"@"', bad)
    log = tmp_path / "log.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rep = replay_file(str(log))
    assert (rep.games, rep.ok) == (3, 2), [e.render() for e in rep.problems]
    assert [e.span.line for e in rep.problems] == [2]
    assert "not a replay line" in rep.problems[0].message


def test_a_game_name_too_long_for_the_system_is_a_located_error(tmp_path: Path) -> None:
    lines = record("thirty-one", games=2, options={"lives": "1"})
    lines[0]["game"] = "x" * 5000
    rep = replay_file(str(write_log(tmp_path, lines)))
    assert (rep.games, rep.ok) == (2, 1)
    (e,) = rep.problems
    assert e.span.line == 1 and "cannot be found" in e.message and len(e.message) < 200


def test_a_log_names_only_files_under_its_folder(tmp_path: Path) -> None:
    # a log is untrusted, as a rules file is: the game it names follows extends:'s path rules
    secret = tmp_path / "secret" / "s.yaml"
    secret.parent.mkdir()
    secret.write_text("name: the-secret-line\nplayers: {min: x}\n", encoding="utf-8")
    mine = tmp_path / "logs" / "mine.yaml"
    (mine.parent / "sub").mkdir(parents=True)
    mine.write_text(THIRTY_ONE.read_text(encoding="utf-8"), encoding="utf-8")
    good = record(str(mine), games=1, options={"lives": "1"})[0]
    names = [str(secret), "../secret/s.yaml", "sub/../../secret/s.yaml"]
    lines = [good, *({**good, "game": n} for n in names), {**good, "game": "mine.yaml"}]
    log = write_log(tmp_path / "logs", lines)
    r = run_cli("replay", str(log))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert "the-secret-line" not in output(r)
    assert "5 games replayed, 2 as logged, 3 not" in r.stdout
    for ln in (2, 3, 4):
        assert f"{log}:{ln}:1: error: game 0 (seed 4): the rules file " in r.stderr
    assert r.stderr.count("is outside the log's folder") == 3
    # a bundled game, by its installed path or its name, is always reachable
    lines = [{**good, "game": g} for g in ("thirty-one", str(THIRTY_ONE))]
    rep = replay_file(str(write_log(tmp_path / "logs", lines, "b.jsonl")))
    assert not any("outside" in e.message for e in rep.problems)
    # --allow-any-path lets a log name any file (a log the user trusts)
    r = run_cli("replay", str(log), "--allow-any-path")
    assert_no_traceback(r)
    assert "is outside the log's folder" not in r.stderr
    assert r.stderr.count("players.min should be an integer") == 3  # the file was read
