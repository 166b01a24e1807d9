"""Every `rulelang` command in a subprocess, as CONTRACTS.md fixes it: output and exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .helpers import GAMES, ROOT, THIRTY_ONE, assert_no_traceback, output, run_cli, write_variant

COMMANDS = ["check", "score", "play", "simulate", "test"]


@pytest.mark.parametrize("command", COMMANDS)
def test_help(command: str) -> None:
    r = run_cli(command, "--help")
    assert r.returncode == 0, output(r)
    assert "Usage" in r.stdout


@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_help_shows_the_extras_to_install(command: str) -> None:
    # the help is Rich markup: an unescaped [ray] would vanish from the text
    r = run_cli(command, "--help")
    assert "'rulelang[ray]'" in r.stdout and "'rulelang[plot]'" in r.stdout, r.stdout


# ---------------------------------------------------------------- check
def test_check_good_file() -> None:
    r = run_cli("check", str(THIRTY_ONE))
    assert r.returncode == 0, output(r)
    assert "1 file checked, no problems" in r.stdout


def test_check_bad_file_exit_1(tmp_path: Path) -> None:
    p = write_variant(THIRTY_ONE, tmp_path / "bad.yaml", ("lives: opt.lives", "lives: opt.livez"))
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert f"{p}:" in output(r) and ": error: " in output(r)
    assert_no_traceback(r)


# ---------------------------------------------------------------- score
def score_json(*args: str) -> dict[str, Any]:
    r = run_cli("score", *args, "--json")
    assert r.returncode == 0, output(r)
    assert_no_traceback(r)
    return json.loads(r.stdout)


@pytest.mark.parametrize(
    ("cards", "value"),
    [
        (["AS", "KS", "2C"], 21),
        (["AS", "KS", "QS"], 31),
        (["as", "ks", "10s"], 31),
        (["A♠", "K♠", "2♣"], 21),
        (["2C", "3D", "4H"], 4),
        (["7h", "8h", "9h", "TH"], 34),
        (["AD"], 11),
    ],
)
def test_score_json(cards: list[str], value: int) -> None:
    out = score_json("thirty-one", *cards)
    assert out["value"] == value


def test_score_json_is_one_object() -> None:
    r = run_cli("score", "thirty-one", "AS", "KS", "2C", "--json")
    out = json.loads(r.stdout)
    assert isinstance(out, dict) and out["value"] == 21
    assert r.stdout.strip().count("\n") == 0


def test_score_plain() -> None:
    r = run_cli("score", "thirty-one", "AS", "KS", "2C")
    assert r.returncode == 0
    assert r.stdout.strip() == "21"


def test_score_by_path_and_named_evaluator() -> None:
    assert score_json(str(THIRTY_ONE), "AS", "KS", "2C", "--evaluator", "hand_value")[
        "value"] == 21


def test_score_three_of_a_kind_variant() -> None:
    if not (GAMES / "thirty-one-three-of-a-kind.yaml").is_file():
        pytest.skip("variant not bundled yet")
    assert score_json("thirty-one-three-of-a-kind", "7S", "7H", "7D")["value"] == 30.5


@pytest.mark.parametrize(
    ("cards", "fragment"),
    [
        (["ZZ"], "ZZ"),
        (["AS", "ZZ", "2C"], "ZZ"),
        (["AS", "AS"], "AS"),
        (["as", "A♠"], "AS"),
        (["1S"], "1S"),
        (["AX"], "AX"),
        (["JK"], "JK"),
        (["10"], "10"),
    ],
)
def test_score_bad_cards(cards: list[str], fragment: str) -> None:
    r = run_cli("score", "thirty-one", *cards)
    assert r.returncode == 2, output(r)
    assert_no_traceback(r)
    assert fragment in r.stderr
    assert r.stdout.strip() == ""


def test_score_unknown_evaluator() -> None:
    r = run_cli("score", "thirty-one", "AS", "--evaluator", "nope")
    assert r.returncode == 2
    assert_no_traceback(r)
    assert "nope" in r.stderr


def test_score_missing_game(tmp_path: Path) -> None:
    for game in [str(tmp_path / "nope.yaml"), "no-such-game"]:
        r = run_cli("score", game, "AS")
        assert r.returncode == 2, output(r)
        assert_no_traceback(r)


def test_score_bad_rules_file_exit_1(tmp_path: Path) -> None:
    p = write_variant(THIRTY_ONE, tmp_path / "bad.yaml", ("lives: opt.lives", "lives: opt.livez"))
    r = run_cli("score", str(p), "AS")
    assert r.returncode == 1
    assert_no_traceback(r)
    assert f"{p}:" in r.stderr


# ---------------------------------------------------------------- test (scenarios)
def summary(r: Any) -> str:
    lines = [ln for ln in r.stdout.splitlines() if ln.strip()]
    assert lines, output(r)
    return lines[-1]


def test_test_bundled_games() -> None:
    n = len(list(GAMES.rglob("*.scenario.yaml")))
    r = run_cli("test", "games", cwd=ROOT)
    assert r.returncode == 0, output(r)
    assert_no_traceback(r)
    assert summary(r) == f"{n} passed, 0 failed"


CONTRACT_SCENARIO = """\
game: thirty-one
players: 3
options: {lives: 4}
seed: 7
dealer: 0
start:
  lives: [4, 1, 0]
deal:
  hand: [[QH, JH, 9C], [AS, KS, 5H], [7C, 7D, 2S]]
  discard: [8D]
  stock: [2C, 3C, 4C]
moves:
  - "1: draw stock"
  - "1: discard 5H"
  - illegal: "2: stand"
  - "2: knock"
  - "0: stand"
  - "1: stand"
expect:
  round_over: true
  ended_by: knock
  values: [20, 21, 7]
  counters: {lives: [4, 1, 0]}
  sizes: {hand: [3, 3, 3], discard: 2, stock: 41}
  zones: {discard: [5H, 8D]}
  eliminated: [2]
  game_over: false
  winner: null
"""


def scenario(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / f"{name}.scenario.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_test_contract_example(tmp_path: Path) -> None:
    p = scenario(tmp_path, "contract", CONTRACT_SCENARIO)
    r = run_cli("test", str(p))
    assert r.returncode == 0, output(r)
    assert summary(r) == "1 passed, 0 failed"


def test_test_relative_game_path(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    write_variant(THIRTY_ONE, tmp_path / "rules" / "t31.yaml")
    (tmp_path / "sc").mkdir()
    p = scenario(tmp_path / "sc", "rel", CONTRACT_SCENARIO.replace(
        "game: thirty-one", "game: ../rules/t31.yaml"))
    r = run_cli("test", str(p))
    assert r.returncode == 0, output(r)


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        ("values: [20, 21, 7]", "values: [20, 21, 8]", "values"),
        ("ended_by: knock", "ended_by: blitz", "ended_by"),
        ("eliminated: [2]", "eliminated: []", "eliminated"),
        ("zones: {discard: [5H, 8D]}", "zones: {discard: [8D, 5H]}", "zones.discard"),
        ("sizes: {hand: [3, 3, 3], discard: 2, stock: 41}", "sizes: {stock: 40}", "sizes.stock"),
        ('  - "1: discard 5H"\n', '  - "1: discard 5H"\n  - illegal: "2: knock"\n',
         "should be illegal"),
        ('  - "2: knock"\n', '  - "1: knock"\n', "not to move"),
        ('  - "1: discard 5H"\n', '  - "1: discard 2C"\n  - "1: discard 5H"\n', "move 3"),
    ],
)
def test_test_failing_scenario(tmp_path: Path, old: str, new: str, reason: str) -> None:
    assert CONTRACT_SCENARIO.count(old) == 1
    p = scenario(tmp_path, "failing", CONTRACT_SCENARIO.replace(old, new))
    r = run_cli("test", str(p))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    fails = [ln for ln in r.stdout.splitlines() if ln.startswith(f"{p}: FAIL:")]
    assert len(fails) == 1, output(r)
    assert reason in fails[0]
    assert summary(r) == "0 passed, 1 failed"


@pytest.mark.parametrize(
    ("old", "new", "line", "col"),
    [
        ('  - "1: draw stock"\n', '  - "draw stock"\n', 13, 5),
        ('  - "1: draw stock"\n', '  - "one: draw stock"\n', 13, 5),
        ('  - "1: draw stock"\n', '  - "1:"\n', 13, 5),
        ("game: thirty-one", "game: no-such-game", 1, 7),
        ("game: thirty-one", "game: ./missing/rules.yaml", 1, 7),
    ],
)
def test_test_bad_scenario(tmp_path: Path, old: str, new: str, line: int, col: int) -> None:
    p = scenario(tmp_path, "bad", CONTRACT_SCENARIO.replace(old, new))
    r = run_cli("test", str(p))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert f"{p}: FAIL:" in r.stdout
    assert f"{p}:{line}:{col}: error:" in output(r)
    assert summary(r) == "0 passed, 1 failed"


def test_test_bad_scenario_keys(tmp_path: Path) -> None:
    p = scenario(tmp_path, "keys", CONTRACT_SCENARIO.replace("players: 3", "playrs: 3"))
    r = run_cli("test", str(p))
    assert r.returncode == 1
    assert_no_traceback(r)
    assert f"{p}:2:1: error:" in output(r)


def test_test_folder_mixed(tmp_path: Path) -> None:
    scenario(tmp_path, "a-good", CONTRACT_SCENARIO)
    bad = scenario(tmp_path, "b-bad", CONTRACT_SCENARIO.replace("ended_by: knock",
                                                                "ended_by: blitz"))
    (tmp_path / "sub").mkdir()
    scenario(tmp_path / "sub", "c-good", CONTRACT_SCENARIO)
    (tmp_path / "rules.yaml").write_text("not: a scenario\n", encoding="utf-8")
    r = run_cli("test", str(tmp_path))
    assert r.returncode == 1
    assert summary(r) == "2 passed, 1 failed"
    assert f"{bad}: FAIL:" in r.stdout


def test_test_missing_file(tmp_path: Path) -> None:
    r = run_cli("test", str(tmp_path / "nope.scenario.yaml"))
    assert r.returncode == 2
    assert_no_traceback(r)


# ---------------------------------------------------------------- simulate
def simulate(*args: str) -> dict[str, Any]:
    r = run_cli("simulate", *args, "--json")
    assert r.returncode == 0, output(r)
    assert_no_traceback(r)
    return json.loads(r.stdout)


def without_timings(d: Any) -> Any:
    if isinstance(d, dict):
        return {k: without_timings(v) for k, v in d.items() if "sec" not in k}
    if isinstance(d, list):
        return [without_timings(v) for v in d]
    return d


def test_simulate_json() -> None:
    s = simulate("thirty-one", "--games", "20", "--seed", "3", "--players", "3")
    for key in ("games", "rounds", "decisions", "ended_by", "seconds"):
        assert key in s
    assert s["games"] == 20
    assert s["rounds"] >= 20
    assert s["decisions"] > s["rounds"]
    assert isinstance(s["seconds"], (int, float)) and s["seconds"] >= 0
    assert set(s["ended_by"]) <= {"blitz", "knock", "stock_exhausted"}
    assert sum(s["ended_by"].values()) == s["rounds"]
    assert all(isinstance(v, int) for v in s["ended_by"].values())


def test_simulate_is_deterministic() -> None:
    args = ["thirty-one", "--games", "24", "--seed", "11", "--agents", "greedy,random"]
    a = simulate(*args)
    b = simulate(*args)
    c = simulate(*args, "--workers", "2")
    assert without_timings(a) == without_timings(b)
    assert without_timings(a) == without_timings(c)
    d = simulate("thirty-one", "--games", "24", "--seed", "12", "--agents", "greedy,random")
    assert without_timings(a) != without_timings(d)


def test_simulate_default_seed_is_zero() -> None:
    a = simulate("thirty-one", "--games", "5")
    b = simulate("thirty-one", "--games", "5", "--seed", "0")
    assert without_timings(a) == without_timings(b)


def test_simulate_short_agent_list_repeats_last() -> None:
    s = simulate("thirty-one", "--games", "2", "--players", "4", "--agents", "greedy,random")
    assert s.get("agents", ["greedy", "random", "random", "random"]) == [
        "greedy", "random", "random", "random"]


def test_simulate_options_change_the_game() -> None:
    a = simulate("thirty-one", "--games", "10", "--option", "lives=1")
    b = simulate("thirty-one", "--games", "10", "--option", "lives=8")
    assert a["rounds"] < b["rounds"]


def test_simulate_plain_output() -> None:
    r = run_cli("simulate", "thirty-one", "--games", "3")
    assert r.returncode == 0, output(r)
    assert_no_traceback(r)
    assert "Thirty-One" in r.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["--option", "livez=3"],
        ["--option", "lives=many"],
        ["--option", "lives=0"],
        ["--option", "lives"],
        ["--option", "blitz_after_knock=perhaps"],
        ["--players", "1"],
        ["--players", "8"],
        ["--players", "-1"],
        ["--agents", "genius"],
        ["--agents", "random,random,random,random,random", "--players", "4"],
        ["--games", "0"],
        ["--workers", "0"],
    ],
)
def test_simulate_usage_errors(args: list[str]) -> None:
    r = run_cli("simulate", "thirty-one", "--games", "2", *args)
    assert r.returncode == 2, output(r)
    assert_no_traceback(r)
    assert r.stderr.strip()


def test_simulate_zero_players_is_usage_error() -> None:
    r = run_cli("simulate", "thirty-one", "--games", "1", "--players", "0", "--json")
    assert r.returncode == 2, output(r)


def test_missing_files_are_usage_errors(tmp_path: Path) -> None:
    nope = str(tmp_path / "nope.yaml")
    for args in (["simulate", nope], ["score", nope, "AS"], ["play", nope], ["check", nope],
                 ["test", nope]):
        r = run_cli(*args)
        assert r.returncode == 2, (args, output(r))
        assert_no_traceback(r)


def test_bad_rules_file_is_exit_1_for_simulate_and_play(tmp_path: Path) -> None:
    p = write_variant(THIRTY_ONE, tmp_path / "bad.yaml", ("lives: opt.lives", "lives: opt.livez"))
    for cmd in ("simulate", "play"):
        r = run_cli(cmd, str(p))
        assert r.returncode == 1, output(r)
        assert_no_traceback(r)
        assert f"{p}:27:" in r.stderr or f"{p}:" in r.stderr


# ---------------------------------------------------------------- play
def play(stdin: str, *args: str) -> Any:
    r = run_cli("play", "thirty-one", "--seed", "3", "--players", "3", *args, stdin=stdin,
                timeout=60)
    assert_no_traceback(r)
    return r


def test_play_a_few_moves_then_quit() -> None:
    r = play("1\n1\nq\n")
    assert r.returncode == 0, output(r)
    assert "your move>" in r.stdout
    assert "bye" in r.stdout


def test_play_eof_at_once() -> None:
    r = play("")
    assert r.returncode == 0, output(r)
    assert "bye" in r.stdout


def test_play_eof_mid_game() -> None:
    r = play("1\n")
    assert r.returncode == 0


def test_play_garbage_reprompts() -> None:
    r = play("garbage\n99\n0\n-1\n\nstand\nq\n")
    assert r.returncode == 0
    assert "not a legal move" in r.stdout
    assert "choose a number from 1 to" in r.stdout
    # one prompt per line of input, plus none left over: every bad line asked again
    assert r.stdout.count("your move>") == 7


def test_play_help_lists_the_moves_and_asks_again() -> None:
    r = play("?\nhelp\nq\n")
    assert r.returncode == 0
    assert r.stdout.count("your move>") == 3
    assert r.stdout.count("'q' quits") >= 2
    assert "not a legal move" not in r.stdout


def test_play_typed_move_text() -> None:
    r = play("DRAW STOCK\nq\n")
    assert r.returncode == 0
    assert r.stdout.count("your move>") == 2
    assert "not a legal move" not in r.stdout


def test_play_shows_only_own_hand() -> None:
    r = play("q\n")
    table = r.stdout
    others = [ln for ln in table.splitlines() if ln.strip().startswith(("hand P1", "hand P2"))]
    assert others
    for ln in others:
        cards = ln.split(":", 1)[1].split()
        assert cards and all(c == "▮" for c in cards), ln
    mine = [ln for ln in table.splitlines() if ln.strip().startswith("hand you")]
    assert mine and "▮" not in mine[0]


def test_play_to_the_end() -> None:
    r = play("1\n" * 3000, "--agents", "random")
    assert r.returncode == 0
    assert "Game over" in r.stdout


def test_play_other_seat() -> None:
    r = run_cli("play", "thirty-one", "--seed", "1", "--players", "2", "--seat", "1",
                "--agents", "random", stdin="1\nq\n")
    assert r.returncode == 0
    assert_no_traceback(r)
    assert "you are P1" in r.stdout


@pytest.mark.parametrize(
    "args",
    [["--players", "8"], ["--players", "1"], ["--seat", "5"], ["--seat", "-1"],
     ["--option", "lives=many"], ["--option", "nothing=1"], ["--agents", "genius"]],
)
def test_play_usage_errors(args: list[str]) -> None:
    r = run_cli("play", "thirty-one", *args, stdin="q\n")
    assert r.returncode == 2, output(r)
    assert_no_traceback(r)


def test_python_dash_m_runs_the_same_command_line() -> None:
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "rulelang", "score", "thirty-one", "AS", "KS", "9S"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.strip() == "30"


def test_play_names_a_seat_held_by_a_global_as_the_table_does() -> None:
    from rich.console import Console

    import rulelang
    from rulelang.play import show_table

    state = rulelang.load("thirty-one").new_state(4, seed=3, dealer=0)
    state.apply("knock")  # P1 knocks (P0 deals)
    for seat, shown in ((0, "knocked: P1"), (1, "knocked: you")):  # its display label
        con = Console(record=True, width=100, color_system=None)
        show_table(con, state, seat)
        assert shown in con.export_text()
