"""Every limit that keeps a rules file from exhausting the machine, each with a clear error.

File size, YAML aliases (a "billion laughs" refused at once), expression depth and size, number
size, recursion in user functions (refused before anything runs), loop iterations, work per
engine step, steps per round and per game (the error names the phase), moves per decision, and
the command-line flags that raise the engine's step limits.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import engine, limits, rules, steploop, yamlload
from rulelang.build import check_all
from rulelang.errors import RulesErrors, RuntimeRulesError
from rulelang.runtime import fresh_allowance
from rulelang.yamlload import load_text

from .helpers import THIRTY_ONE, assert_no_traceback, output, run_cli, write_variant

# a tiny game with one action and nothing that ends a round: the flow never ends
FOREVER = """\
name: Forever
deck: {}
players: {min: 2, max: 4, default: 2}
zones:
  stock: {home: true}
  hand: {per_player: true}
round:
  start:
    - gather(stock); shuffle(stock)
    - deal(stock, hand, 1)
  triggers:
    never: "false"
  settle:
    never: pass
phases:
  waiting:
    actions:
      wait: {}
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def check(path: Path) -> str:
    r = run_cli("check", str(path))
    assert_no_traceback(r)
    assert r.returncode == 1, output(r)
    return r.stderr


def located(stderr: str, path: Path) -> None:
    first = stderr.splitlines()[0]
    head = first.split(": error: ")[0]
    assert head.startswith(str(path) + ":"), first
    line, col = head[len(str(path)) + 1 :].split(":")
    assert int(line) >= 1 and int(col) >= 1, first


# ---------------------------------------------------------------- loading
def test_file_size_limit(tmp_path: Path) -> None:
    p = tmp_path / "big.yaml"
    p.write_text("name: x\n" + "# padding\n" * (limits.MAX_FILE_BYTES // 10 + 10),
                 encoding="utf-8")
    err = check(p)
    assert f"larger than {limits.MAX_FILE_BYTES} bytes" in err
    located(err, p)


def test_alias_bomb_refused_quickly(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for k in range(1, 30):  # 10^30 strings if expanded
        lines.append(f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]")
    p = write(tmp_path, "bomb.yaml", "\n".join(lines) + "\n")
    t0 = time.process_time()
    err = check(p)
    assert time.process_time() - t0 < 10
    assert "aliases" in err
    located(err, p)


def test_yaml_nesting_limit(tmp_path: Path) -> None:
    n = limits.MAX_YAML_DEPTH + 5
    p = write(tmp_path, "deep.yaml", "name: x\ndata:\n  d: " + "[" * n + "]" * n + "\n")
    err = check(p)
    assert "nested" in err
    located(err, p)


def test_a_chain_of_files_holds_as_many_values_as_one_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # eight files of 200,000 values each, extending one another, took a minute to check
    monkeypatch.setattr(rules, "MAX_NODES", 3000)
    monkeypatch.setattr(yamlload, "MAX_NODES", 3000)
    values = "[" + ", ".join(["1"] * 1800) + "]"
    write(tmp_path, "base.yaml", f"extends: thirty-one\ndata:\n  a: {values}\n")
    p = write(tmp_path, "top.yaml", f"extends: base.yaml\ndata:\n  b: {values}\n")
    with pytest.raises(RulesErrors) as info:
        rules.load_rules(str(p))
    e = info.value.errors[0]
    assert e.span.path.endswith("base.yaml") and e.span.line == 3, e.message
    assert "all that the files extending it leave of the 3000 values" in e.message
    assert rules.load_rules(str(tmp_path / "base.yaml")).doc["data"]["a"][0] == 1


def test_the_rules_text_of_a_game_is_bounded(tmp_path: Path) -> None:
    # tens of thousands of small pieces of rules text (or a megabyte of dense text) took a
    # minute to parse and compile: each piece counts as at least RULES_TEXT_PIECE characters
    n = limits.MAX_RULES_TEXT // limits.RULES_TEXT_PIECE
    p = write(tmp_path, "text.yaml", "extends: thirty-one\nglobals:\n" + "".join(
        f"  g{i}: {i}\n" for i in range(n)))
    t0 = time.process_time()
    errors, _warnings = check_all(rules.load_rules(str(p)))
    assert time.process_time() - t0 < 3
    assert [e.message for e in errors] == [
        f"the game has more than {limits.MAX_RULES_TEXT} characters of rules text (expressions "
        f"and effects, each counted as at least {limits.RULES_TEXT_PIECE}); the rest is not "
        "checked"]
    assert 3 < errors[0].span.line < n + 3


def test_huge_number_in_yaml_and_in_expressions(tmp_path: Path) -> None:
    p = write_variant(THIRTY_ONE, tmp_path / "n.yaml",
                      ("lives: opt.lives", "lives: opt.lives + " + "9" * 5000))
    err = check(p)
    assert "larger than 10^15" in err
    located(err, p)
    p = write(tmp_path, "y.yaml", "extends: thirty-one\nname: " + "9" * 40 + "\n")
    err = check(p)
    assert "10^15" in err


# ---------------------------------------------------------------- expressions
def test_expression_depth_limit(tmp_path: Path) -> None:
    n = limits.MAX_PARSE_DEPTH + 5
    p = write_variant(THIRTY_ONE, tmp_path / "d.yaml",
                      ("lives: opt.lives", "lives: " + "(" * n + "opt.lives" + ")" * n))
    err = check(p)
    assert "nested at most" in err
    located(err, p)


def test_expression_size_limit_long_chain(tmp_path: Path) -> None:
    p = write_variant(THIRTY_ONE, tmp_path / "c.yaml",
                      ("lives: opt.lives", "lives: opt.lives" + " + 1" * 1000))
    err = check(p)
    assert "too big" in err
    located(err, p)


def test_expression_text_length_limit(tmp_path: Path) -> None:
    p = write_variant(THIRTY_ONE, tmp_path / "t.yaml",
                      ("lives: opt.lives",
                       "lives: \"opt.lives" + " " * limits.MAX_SOURCE_CHARS + "+1\""))
    err = check(p)
    assert f"longer than {limits.MAX_SOURCE_CHARS} characters" in err


def test_nested_blocks_limit(tmp_path: Path) -> None:
    n = limits.MAX_PARSE_DEPTH + 5
    body = "if true { " * n + "pass" + " }" * n
    p = write(tmp_path, "b.yaml", f"extends: thirty-one\nturn:\n  start: \"{body}\"\n")
    err = check(p)
    assert "nested at most" in err
    located(err, p)


# ---------------------------------------------------------------- recursion, loops, work
def test_recursion_refused_statically(tmp_path: Path) -> None:
    p = write(tmp_path, "r.yaml", "extends: thirty-one\nfunctions:\n"
              "  ping(n): \"if n > 0 then pong(n - 1) else 0\"\n"
              "  pong(n): \"ping(n)\"\n")
    err = check(p)
    assert "recursion is not allowed" in err
    located(err, p)


def play_bad_start(tmp_path: Path, start: str) -> RuntimeRulesError:
    p = write(tmp_path, "s.yaml", "extends: thirty-one\nglobals:\n  junk: 0\n"
              "round:\n  start:\n    - gather(stock); shuffle(stock)\n"
              f"    - {start}\n    - deal(stock, hand, 3)\n    - move(top(stock), discard)\n")
    game = rulelang.load(str(p))
    t0 = time.process_time()
    with pytest.raises(RuntimeRulesError) as info:
        game.new_state(3, seed=0)
    assert time.process_time() - t0 < 30
    assert info.value.span.line >= 1, info.value.render()
    return info.value


def test_while_loop_limit(tmp_path: Path) -> None:
    e = play_bad_start(tmp_path, "while true { junk += 1 }")
    assert f"more than {limits.MAX_LOOP} times" in e.message


def test_nested_loops_stop_at_the_work_limit(tmp_path: Path) -> None:
    e = play_bad_start(tmp_path, "junk = size([1 for a in range(100000) for b in range(100000)])")
    assert f"looped more than {limits.MAX_WORK} times" in e.message
    e = play_bad_start(tmp_path, "junk = sum(map(range(100000), x -> sum(map(range(100000), "
                                 "y -> 1))))")
    assert "looped more than" in e.message


def test_making_big_lists_counts_as_work(tmp_path: Path) -> None:
    # no loop over the lists, but 10,000 passes each making 200,000 items would run a minute
    e = play_bad_start(tmp_path, "while true { junk = size(range(200000)) }")
    assert f"looped more than {limits.MAX_WORK} times" in e.message
    e = play_bad_start(tmp_path, "while true { junk = size(range(90000) + range(90000)) }")
    assert "the items of the lists they made" in e.message


def test_meld_finders_stop_before_choosing_among_too_many(tmp_path: Path) -> None:
    # every card wild: the choices of wild cards alone ran 30 s and took 4.8 GB
    e = play_bad_start(tmp_path, '"junk = size(sets(stock, 3, 30, wild: c -> true, '
                                 'max_wild: 30))"')
    assert "more than 200000 ways to choose" in e.message
    # melds that all share cards: no choice is kept, but C(3000, 3) were looked at
    e = play_bad_start(tmp_path, "junk = size(disjoint([stock for i in range(3000)], 3))")
    assert f"looped more than {limits.MAX_WORK} times" in e.message


def test_searching_lists_counts_as_work(tmp_path: Path) -> None:
    # each search of a list of 200,000 looks at its items: 4 * 10^10 comparisons otherwise
    e = play_bad_start(tmp_path, "junk = range(200000); "
                                 "junk = count(range(200000), i -> (i + 300000) in junk)")
    assert f"looped more than {limits.MAX_WORK} times" in e.message
    e = play_bad_start(tmp_path, "junk = size(without(range(200000), range(200000, 400000)))")
    assert f"looped more than {limits.MAX_WORK} times" in e.message


def test_distinct_and_sets_are_not_slow_on_big_inputs(tmp_path: Path) -> None:
    # distinct() of 200,000 numbers was quadratic; sets() up to a size of 10^12 looped that far
    game = rulelang.load(str(write(
        tmp_path, "d.yaml", "extends: thirty-one\nglobals:\n  junk: 0\nround:\n  start:\n"
        "    - gather(stock); shuffle(stock)\n"
        "    - junk = size(distinct(range(150000) + range(1000)))\n"
        "    - junk = junk + size(sets(stock, 3, 1000000000000))\n"
        "    - deal(stock, hand, 3)\n    - move(top(stock), discard)\n")))
    t0 = time.process_time()
    s = game.new_state(3, seed=0)
    assert time.process_time() - t0 < 10
    junk = s.g[[name for name, _ in game.globals].index("junk")]
    assert junk == 150000 + 13 * (4 + 1)  # every set of 3 and of 4 of each rank


def test_slices_runs_and_keys_are_bounded(tmp_path: Path) -> None:
    # a slice copies its items (10,000 copies of 200,000 took 15.6 GB); an is_run of 40 aces
    # under ace: 'both' tried 2^40 orders; a key: value is written out as text to compare
    e = play_bad_start(tmp_path, "junk = range(200000); "
                                 "junk = size([junk[1:] for i in range(10000)])")
    assert f"looped more than {limits.MAX_WORK} times" in e.message
    game = rulelang.load(str(write(
        tmp_path, "r.yaml", "extends: thirty-one\nglobals:\n  junk: 0\nround:\n  start:\n"
        "    - gather(stock); shuffle(stock)\n"
        "    - \"junk = is_run([first(filter(stock, c -> c.rank == 'A')) for i in range(40)], "
        "ace: 'both')\"\n"
        "    - deal(stock, hand, 3)\n    - move(top(stock), discard)\n")))
    t0 = time.process_time()
    game.new_state(3, seed=0)
    assert time.process_time() - t0 < 10
    e = play_bad_start(tmp_path, '"x = [range(5000)]; '
                                 'junk = size(sets(hand[0] + stock, 3, key: c -> x))"')
    assert "a value of more than 1000 items" in e.message


def test_the_work_of_a_whole_game_is_bounded(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # each step stays inside its allowance, but a trigger working hard at every step made a
    # 116-decision game take 35 s (and a game never ending, hours)
    monkeypatch.setattr(engine, "MAX_GAME_WORK", 3_000_000)
    monkeypatch.setattr(steploop, "MAX_GAME_WORK", 3_000_000)  # (the step's own check)
    game = rulelang.load(str(write(
        tmp_path, "w.yaml", "extends: thirty-one\nglobals:\n  junk: 0\nround:\n  triggers:\n"
        "    busy:\n      when: 'true'\n"
        "      do: junk = sum([1 for a in range(300) for b in range(300)])\n"
        "      end: false\n")))
    s = game.new_state(4, seed=0, record=False)
    with pytest.raises(RuntimeRulesError, match="more than 3000000 units of work"):
        for _ in range(200):
            s.apply_index(0)


def test_lists_that_share_lists_are_bounded(tmp_path: Path) -> None:
    # sixty small lists holding 2^60 items: == of two of them never returned
    for make in ("x = [x, x]", "x = [x for i in range(2)]", "x = map(range(2), i -> x)",
                 "x = [x] + [x]"):
        e = play_bad_start(tmp_path, f'"x = [1]; y = [1]; k = 0; while k < 60 {{ {make}; '
                                     f'k += 1 }}; junk = if x == y then 1 else 0"')
        assert "counting the items of the lists inside it" in e.message, make


def test_growing_numbers_and_lists_stop(tmp_path: Path) -> None:
    e = play_bad_start(tmp_path, "junk = 2; while true { junk = junk * junk }")
    assert "10^30" in e.message
    e = play_bad_start(tmp_path, "junk = [1]; while true { junk = junk + junk }")
    assert f"more than {limits.MAX_COLLECTION} items" in e.message


def test_range_and_combinations_limits(tmp_path: Path) -> None:
    e = play_bad_start(tmp_path, "junk = size(range(10000000))")
    assert "range()" in e.message
    e = play_bad_start(tmp_path, "junk = size(combinations(range(60), 8))")
    assert "combinations()" in e.message


def test_python_errors_in_rules_text_are_located(tmp_path: Path) -> None:
    e = play_bad_start(tmp_path, "junk = 1 // 0")
    # in the rules' words, never Python's (ZeroDivisionError, int() argument must be...)
    assert e.message == "division by zero"


# ---------------------------------------------------------------- steps and moves
def test_round_that_never_ends_names_the_phase(tmp_path: Path) -> None:
    game = rulelang.load(str(write(tmp_path, "f.yaml", FOREVER)))
    s = game.new_state(2, seed=0, max_round_steps=300)
    with pytest.raises(RuntimeRulesError) as info:
        while True:
            s.apply("wait")
    assert "round ran more than 300 steps" in info.value.message
    assert "'waiting'" in info.value.message
    assert info.value.span.line == FOREVER.splitlines().index("  waiting:") + 2  # its actions
    assert limits.MAX_ROUND_STEPS >= 100_000  # generous by default


def test_match_that_never_ends_names_the_phase(tmp_path: Path) -> None:
    text = FOREVER.replace('never: "false"', 'never: "turns >= 1"') + "match:\n  over: 'false'\n"
    game = rulelang.load(str(write(tmp_path, "m.yaml", text)))
    s = game.new_state(2, seed=0, max_game_steps=500)
    with pytest.raises(RuntimeRulesError) as info:
        while True:
            s.apply("wait")
    assert "game ran more than 500 steps" in info.value.message
    assert "'waiting'" in info.value.message


def test_simulate_step_flags(tmp_path: Path) -> None:
    p = write(tmp_path, "f.yaml", FOREVER)
    r = run_cli("simulate", str(p), "--games", "1", "--max-round-steps", "400")
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert "round ran more than 400 steps" in r.stderr and "'waiting'" in r.stderr
    p = write(tmp_path, "m.yaml", FOREVER.replace('never: "false"', 'never: "turns >= 1"')
              + "match:\n  over: 'false'\n")
    r = run_cli("simulate", str(p), "--games", "1", "--max-steps", "700")
    assert r.returncode == 1, output(r)
    assert "game ran more than 700 steps" in r.stderr
    for bad in (["--max-steps", "0"], ["--max-round-steps", "-5"]):
        r = run_cli("simulate", "thirty-one", "--games", "1", *bad)
        assert r.returncode == 2, output(r)
        assert_no_traceback(r)


def test_raising_the_step_limit_lets_a_long_game_finish() -> None:
    r = run_cli("simulate", "thirty-one", "--games", "2", "--max-steps", "100000000",
                "--max-round-steps", "1000000", "--json")
    assert r.returncode == 0, output(r)


def test_moves_per_decision_limit(tmp_path: Path) -> None:
    text = FOREVER.replace("      wait: {}", "      wait: {}\n      pick:\n"
                           "        args: {n: range(" + str(limits.MAX_MOVES + 10) + ")}")
    game = rulelang.load(str(write(tmp_path, "moves.yaml", text)))
    with pytest.raises(RuntimeRulesError) as info:  # when the moves are worked out
        game.new_state(2, seed=0).legal_moves()
    assert f"more than {limits.MAX_MOVES} legal moves" in info.value.message
    assert "'waiting'" in info.value.message
    # the flag raises it: the same file then plays
    r = run_cli("simulate", str(tmp_path / "moves.yaml"), "--games", "1",
                "--max-moves", str(limits.MAX_MOVES + 20), "--max-round-steps", "50")
    assert "legal moves" not in r.stderr, output(r)
    assert "round ran more than 50 steps" in r.stderr


def test_rounds_and_moves_flags() -> None:
    # the engine's limit is an error located at match.over; simulate ends the game there
    # instead (tests/test_cut_short.py)
    state = rulelang.load("thirty-one").new_state(4, seed=0, max_rounds=2)
    with pytest.raises(RuntimeRulesError) as info:
        while not state.is_over():
            state.apply(state.legal_moves()[0])
    assert "the match went on for more than 2 rounds" in info.value.message
    assert info.value.span.path.endswith("thirty-one.yaml") and info.value.span.line
    r = run_cli("simulate", "tonk", "--games", "1", "--max-moves", "3")
    assert r.returncode == 1 and "more than 3 legal moves" in r.stderr, output(r)
    for bad in (["--max-moves", "0"], ["--max-rounds", "-1"]):
        r = run_cli("simulate", "thirty-one", "--games", "1", *bad)
        assert r.returncode == 2, output(r)
        assert_no_traceback(r)


# ---------------------------------------------------------------- issue 15: work, bots, memory
def load_text_game(tmp_path: Path, name: str, text: str) -> Any:
    return rulelang.load(str(write(tmp_path, name, text)))


def start_with(tmp_path: Path, start: str, max_work: int = 200_000,
               functions: str = "") -> RuntimeRulesError | Any:
    """A game of Thirty-One whose round starts with ``start``, set up under a small work
    allowance: its error, or the state."""
    game = load_text_game(tmp_path, "w.yaml", "extends: thirty-one\nglobals:\n  junk: 0\n"
                          + (f"functions:\n{functions}" if functions else "") +
                          "round:\n  start:\n    - gather(stock); shuffle(stock)\n"
                          f"    - {start}\n    - deal(stock, hand, 3)\n"
                          "    - move(top(stock), discard)\n")
    t0 = time.process_time()
    try:
        return game.new_state(3, seed=0, dealer=0, max_work=max_work)
    except RuntimeRulesError as e:
        assert e.span is not None and e.span.line >= 1, e.render()
        return e
    finally:
        assert time.process_time() - t0 < 5


# a game of two seats and one round of two steps, whose second step's trigger calls a pure
# function twice: the second call's result is remembered from earlier games (issue 15, #6)
HEAVY = FOREVER.replace("round:\n", "functions:\n  heavy(n): \"sum([1 for a in range(n)])\"\n"
                        "round:\n").replace(
    '    never: "false"\n  settle:\n    never: pass\n',
    '    busy:\n      when: "turns == 1 and heavy(300 * top(hand[0]).order) + heavy(5000) < 0"\n'
    '      end: false\n    done:\n      when: "turns >= 2"\n  settle:\n    done: pass\n'
    'match:\n  over: "round >= 1"\n')


def test_what_a_step_is_charged_does_not_depend_on_what_ran_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # with a warm memo, game 4 ran out of work inside a remembered call (an error with no
    # place), with a cold one inside the function: --workers 1 and 3 printed different errors
    from rulelang import sim

    write(tmp_path, "heavy.yaml", HEAVY)
    monkeypatch.setattr(engine, "MAX_WORK", 14_000)

    def run(workers: int) -> str:
        with pytest.raises(RuntimeRulesError) as info:
            sim.run(str(tmp_path / "heavy.yaml"), {}, 2, 12, ["random"] * 2, 37, workers)
        return info.value.render()

    one = run(1)
    assert one == run(3)
    assert "heavy.yaml:8:18: error: the rules looped more than 14000 times" in one
    # each game charged the same, played first or after the others
    warm = rulelang.load(str(tmp_path / "heavy.yaml"))
    for i in range(4):
        played = sim.play_one(warm, 2, ["random"] * 2, 37, i)["decisions"]
        cold = rulelang.load(str(tmp_path / "heavy.yaml"))
        s1, s2 = (g.new_state(2, seed=sim.game_seed(37, i)) for g in (warm, cold))
        for s in (s1, s2):
            s.apply_index(0)
        assert played == 2 and s1.work_done == s2.work_done
    # a game of a log replays alone as it replays after the others
    from rulelang import replay

    log = io.StringIO()
    sim.run(str(tmp_path / "heavy.yaml"), {}, 2, 4, ["random"] * 2, 37, record_to=log)
    write(tmp_path, "all.jsonl", log.getvalue())
    write(tmp_path, "one.jsonl", log.getvalue().splitlines()[2] + "\n")
    for name, games in (("all.jsonl", 4), ("one.jsonl", 1)):
        report = replay.replay_file(str(tmp_path / name), True)
        assert report.games == report.ok == games and not report.problems


def test_comparisons_and_searches_of_big_lists_are_charged(tmp_path: Path) -> None:
    # each of these ran for minutes charging one unit per comparison
    for start in ("x = range(19000); y = range(19000); junk = count(range(2000), i -> x == y)",
                  "x = range(19000); c = [range(19000)]; junk = count(range(2000), "
                  "i -> x in c)",
                  "x = range(19000); junk = size(sort(range(2000), i -> x))",
                  "x = range(19000); junk = max(range(2000), key: i -> x)",
                  "x = [range(19000), 1]; junk = count(range(2000), i -> index_of(x, x[0]) "
                  "> 0)"):
        e = start_with(tmp_path, f'"{start}"')
        assert isinstance(e, RuntimeRulesError) and "looped more than 200000" in e.message, \
            start


def test_memo_keys_of_big_arguments_are_not_built_and_small_ones_are_charged(
        tmp_path: Path) -> None:
    # a memoised function sorted a key of its 199,000-item argument at every call, uncharged
    s = start_with(tmp_path, '"x = range(19000); junk = count(range(2000), i -> f(x) > 0)"',
                   max_work=10**7, functions="  f(h): h[0] + 1\n")
    assert not isinstance(s, RuntimeRulesError), s.render()
    fn = s.game.functions["f"].fn
    assert s.game.functions["f"].charges_key  # one pass: no memo, the key's charge written in
    from rulelang.runtime import WORK

    WORK[0] = 10**6
    assert fn(s, [3, 1, 2]) == 4 and fn(s, [1, 2, 3]) == 2
    assert 10**6 - WORK[0] == 2 * (3 + 1)  # each call: its key's 3 items and the call


def test_seat_steps_and_set_sizes_are_checked_before_any_loop(tmp_path: Path) -> None:
    # next_seat(dealer, 10^15) went round the table 10^15 times
    s = start_with(tmp_path, "junk = next_seat(dealer, 1000000000000000) + "
                             "10 * prev_seat(dealer, 999999999999999)")
    junk = s.g[[n for n, _ in s.game.globals].index("junk")]
    assert junk == s.next_seat(0, 1) + 10 * s.prev_seat(0, 3)  # 10^15 % 3 == 1
    for p in range(3):  # no one left to deal to: deal(stock, hand, 10^15) passed 10^15 times
        s.fx_eliminate(p)
    zid = s.znames.index
    s.fx_deal(zid("stock"), zid("hand"), 10**15)
    for start in ("junk = size(sets(hand[0], -1000000000000000, 3))",
                  '"junk = size(sets(stock, 3, 4, max_wild: -1))"'):
        e = start_with(tmp_path, start)
        assert isinstance(e, RuntimeRulesError) and "a set has at least one card" in e.message


def test_listing_moves_charges_every_option_tried(tmp_path: Path) -> None:
    # five card arguments over the stock: 46^5 tests of `when:` per decision, only the moves
    # that passed were counted
    text = FOREVER.replace("      wait: {}", "      wait: {}\n      pick:\n"
                           "        args: {a: stock, b: stock, c: stock, d: stock, e: stock}\n"
                           "        when: a == b and b == c and c == d and d == e")
    game = load_text_game(tmp_path, "five.yaml", text)
    t0 = time.process_time()
    with pytest.raises(RuntimeRulesError, match="looped more than 100000") as info:
        game.new_state(2, seed=0, max_work=100_000).legal_moves()
    assert time.process_time() - t0 < 2
    assert info.value.span.line == text.splitlines().index("      pick:") + 1


# a heuristic whose work depends on the hidden cards, and a move whose listing does too
PEEK = FOREVER.replace("round:\n", "functions:\n  score(p): sum([1 for a in range("
                       "top(stock).order * 300)])\nheuristic: score\nround:\n").replace(
    "      wait: {}\n", "      wait:\n        when: sum([1 for a in range(top(stock).order * "
    "1000)]) >= 0\n      rest: {}\n")


def test_a_bots_look_ahead_has_a_budget_of_its_own(tmp_path: Path) -> None:
    from rulelang.agents import GreedyAgent

    game = load_text_game(tmp_path, "peek.yaml", PEEK)
    # a real top card of low rank: the real listing fits a step, the samples' may not
    seed = next(k for k in range(100)
                if game.tables.order[game.new_state(2, seed=k).zones[0][0]] < 2)
    s = game.new_state(2, seed=seed, max_work=7_000)
    assert s.num_moves() == 2
    before = s.work_done
    # a sample whose moves cannot be listed within a step is left out (it used to end the
    # game), and nothing a sample does is counted to the game
    picks = [GreedyAgent(5).choose_index(s, 0) for _ in range(3)]
    assert s.work_done == before and len(set(picks)) == 1
    # a small budget: the bot stops and picks among the moves it judged, the same each time
    s = game.new_state(2, seed=seed)
    spent = [GreedyAgent(5, budget=b).choose_index(s, 0) for b in (1, 1, 500, 500, 10**6)]
    assert spent[0] == spent[1] and spent[2] == spent[3]
    fresh = game.new_state(2, seed=seed)
    fresh.num_moves()  # the one listing the bots asked of the real game
    assert s.work_done == fresh.work_done


def test_the_bot_budget_flag(tmp_path: Path) -> None:
    p = write(tmp_path, "peek.yaml", PEEK.replace("never: \"false\"", "never: turns >= 6")
              + "match:\n  over: round >= 2\n")
    outs = []
    for w in ("1", "2"):
        r = run_cli("simulate", str(p), "--agents", "greedy", "--games", "4", "--workers", w,
                    "--bot-work", "2000", "--json")
        assert r.returncode == 0, output(r)
        outs.append({k: v for k, v in json.loads(r.stdout).items() if "sec" not in k})
    assert outs[0] == outs[1]
    for cmd in ("simulate", "play"):
        r = run_cli(cmd, str(p), "--bot-work", "0", stdin="q\n")
        assert r.returncode == 2 and "--bot-work must be at least 1" in r.stderr, output(r)


def test_deck_copies_is_bounded_and_checked(tmp_path: Path) -> None:
    # 10^15 packs took 4 GB while checking; a text ended in a ValueError
    for value, says in (("1000000000000000", "whole number from 1 to 8"),
                        ("2.5", "whole number from 1 to 8"), ("0", "whole number from 1 to 8"),
                        ("\"'two'\"", "must be a number of packs, not str")):
        p = write(tmp_path, "c.yaml", f"extends: thirty-one\ndeck:\n  copies: {value}\n")
        err = check(p)
        assert says in err, err
        assert err.startswith(f"{p}:3:11: error:"), err
    p = write(tmp_path, "c.yaml", "extends: thirty-one\nglobals:\n  n: \"'x'\"\ndata:\n"
              "  packs: {four: 1000000000000000, text: x}\ndeck:\n  copies: packs.four\n")
    r = run_cli("simulate", str(p), "--games", "1")
    assert r.returncode == 1 and r.stderr.startswith(f"{p}:7:11: error: deck.copies is "
                                                     "1000000000000000 with 4 players"), output(r)
    assert_no_traceback(r)


def test_aliases_of_plain_values_count(tmp_path: Path) -> None:
    # a long text aliased many times: each copy kept a position per character (4 GB)
    text = "x" * 100_000
    p = write(tmp_path, "a.yaml", f'name: &a "{text}"\ndata:\n  d: [' +
              ", ".join(["*a"] * (limits.MAX_ALIASES + 1)) + "]\n")
    err = check(p)
    assert f"more than {limits.MAX_ALIASES} aliases" in err
    data = load_text(f'a: &a "{text}"\nb: [*a, *a]\nc: {{*a: 1}}\n', "ok.yaml")
    assert data["b"][0] is data["a"] and data["b"][1] is data["a"]  # built once


def test_the_memo_is_bounded_by_what_it_holds(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # results of 199,000 items were kept across games (5.8 GB)
    from rulelang import memo

    monkeypatch.setattr(memo, "MEMO_ITEMS", 20_000)
    s = start_with(tmp_path, '"junk = count(range(200), i -> size(big(i)) > 0) + '
                             'count(range(5), i -> size(huge(i)) > 0)"', max_work=10**7,
                   functions="  big(n): range(n, n + 300)\n"
                             f"  huge(n): range(n, n + {limits.MEMO_RESULT_ITEMS + 1})\n")
    fns = s.game.functions
    pool = fns["big"].fn.memo["pool"]
    assert fns["huge"].fn.memo["pool"] is pool  # one bound for the whole game
    assert not fns["huge"].fn.memo["cache"]  # too big to keep
    kept = len(fns["big"].fn.memo["cache"])
    assert 0 < 301 * kept <= pool.used[0] <= 20_000  # 200 results would be 60,200 items
    assert pool.used[0] == sum(m[0] for m in pool.mine)


def test_log_texts_are_bounded(tmp_path: Path) -> None:
    # log(x) of a list of 199,000 items kept its whole text at every call (3.7 GB)
    game = load_text_game(tmp_path, "l.yaml", "extends: thirty-one\nround:\n  start:\n"
                          "    - gather(stock); shuffle(stock)\n"
                          '    - "x = range(199000); k = 0; while k < 2500 { log(x); k += 1 }"\n'
                          "    - deal(stock, hand, 3)\n    - move(top(stock), discard)\n")
    t0 = time.process_time()
    s = game.new_state(3, seed=0, record=True)
    assert time.process_time() - t0 < 3
    assert limits.MAX_LOG_MESSAGES <= len(s.messages) <= 2 * limits.MAX_LOG_MESSAGES
    assert all(len(m) <= limits.MAX_LOG_TEXT for m in s.messages)
    assert s.messages[0].startswith("[0, 1, 2,") and s.messages[0].endswith("...")
    with pytest.raises(RuntimeRulesError, match="looped more than"):
        game.new_state(3, seed=0, record=True, max_work=100_000)


def test_moving_a_zones_top_card_in_one_call_charges_and_fails_alike(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``move(top(zone), zone)`` is one call (``fx_move_top_of``): the same charge (the zone's
    cards), the same place of running out of work, the same error for an empty zone."""
    from rulelang import calls

    text = ("extends: thirty-one\nround:\n  start:\n    - gather(stock); shuffle(stock)\n"
            "    - deal(stock, hand, 3)\n    - move(top(stock), discard)\n"
            "    - move(top(discard), hand[0])\n    - move(top(discard), hand[1])\n")

    def outcomes(name: str) -> list[Any]:
        game = load_text_game(tmp_path, name, text)
        out: list[Any] = []
        for allowance in range(30, 140, 3):
            try:
                s = game.new_state(3, seed=0, dealer=0, max_work=allowance)
                out.append((s.work_done, [list(z) for z in s.zones]))
            except RuntimeRulesError as e:
                out.append((e.message, e.span.line, e.span.col))
        return out

    fused = outcomes("fused.yaml")
    assert "fx_move_top_of" in load_text_game(tmp_path, "f2.yaml", text).generated.dump()
    monkeypatch.setattr(calls, "_SEAT_ZONE", __import__("re").compile("(?!)"))
    assert "fx_move_top_of" not in load_text_game(tmp_path, "p.yaml", text).generated.dump()
    assert outcomes("plain.yaml") == fused
    assert any("no card to move" in str(o[0]) for o in fused)  # the empty discard pile
    assert any("looped more than" in str(o[0]) for o in fused)
    fresh_allowance()  # (not the last small one, for the tests after this one in the process)
