"""`rulelang check` on broken copies of games/thirty-one.yaml and on small variants.

Every case runs the CLI in a subprocess and asserts the exit code, the exact
``PATH:LINE:COL: error:`` of the problem, the quoted source line with its caret, and that no
Python traceback escapes. Expected positions are computed from where the substituted text lands
in the written file, so the tests keep working when the base file is edited elsewhere.
"""

from __future__ import annotations

import re
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import limits
from rulelang.build import check_all
from rulelang.errors import RulesErrors, Span
from rulelang.functions import memoize_pure, recursion_errors
from rulelang.rules import bundled_dir, load_rules
from rulelang.scope import UserFn

from .helpers import GAMES, ROOT, THIRTY_ONE, assert_no_traceback, output, run_cli, write_variant

HEADER = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


def line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def problems(out: str) -> list[tuple[str, int, int, str, list[str]]]:
    """Every ``PATH:LINE:COL: error: MSG`` of the output, with the lines that follow it."""
    lines = out.splitlines()
    found = []
    for i, ln in enumerate(lines):
        m = HEADER.match(ln)
        if m:
            found.append((m["path"], int(m["line"]), int(m["col"]), m["msg"], lines[i + 1:i + 3]))
    return found


def assert_located(out: str, path: Path | str, line: int, col: int, fragment: str,
                   source: str | None) -> None:
    """The output reports ``fragment`` at PATH:LINE:COL, quoting the line with a caret."""
    found = problems(out)
    at = [p for p in found if p[0] == str(path) and (p[1], p[2]) == (line, col)]
    assert at, f"nothing reported at {path}:{line}:{col}; got:\n{out}"
    assert any(fragment in p[3] for p in at), f"no '{fragment}' at {line}:{col}:\n{out}"
    if source is not None:
        _, _, _, _, (src, caret) = next(p for p in at if fragment in p[3])
        expected = source.splitlines()[line - 1].replace("\t", " ")
        assert src.strip() == expected.strip()
        # the excerpt is indented; the caret sits under the reported column
        indent = len(src) - len(expected)
        assert caret.strip() == "^"
        assert caret.index("^") - indent == col - 1, f"caret misplaced:\n{src}\n{caret}"


@dataclass(frozen=True)
class Case:
    name: str
    old: str
    new: str
    anchor: str  # where, inside `new`, the error must point
    fragment: str  # a piece of the expected message


CASES = [
    Case("syntax", "knock: knocker != none and turn == knocker",
         "knock: knocker != none and and turn == knocker", "and turn", "unexpected 'and'"),
    Case("misspelt", "when: size(stock) > 0", "when: size(stok) > 0", "stok",
         "unknown name 'stok' (did you mean 'stock'?)"),
    Case("size-of-int", "over: size(players) <= 1", "over: size(3) <= 1", "3)",
         "size() needs a list"),
    Case("plus-string", "when: size(stock) > 0", "when: size(stock) + 'x' > 0", "'x'",
         "'+' needs numbers"),
    Case("unknown-key", "discard: {visibility: top}", "discard: {visibilty: top}", "visibilty",
         "unknown key 'visibilty'"),
    Case("bad-enum", "direction: clockwise", "direction: sideways", "sideways",
         "direction must be one of"),
    Case("broken-yaml", "knocker: none ", "knocker: none: x ", ": x", "bad YAML"),
    Case("unknown-option", "lives: opt.lives", "lives: opt.livez", "livez",
         "unknown option 'livez' (did you mean 'lives'?)"),
    Case("argument-count", "and hand_value(hand[p]) == 31", "and hand_value(hand[p], 1) == 31",
         "hand_value(hand[p], 1)", "hand_value() takes 1 argument"),
    Case("builtin-argument-count", "when: size(stock) > 0", "when: size(stock, 1) > 0",
         "size(stock, 1)", "size() takes 1 argument"),
    Case("unreachable-phase", "do: move(c, discard)\n",
         "do: move(c, discard)\n  bonus:\n    actions:\n      wait:\n"
         "        when: knocker == none\n", "bonus:", "phase 'bonus' can never be reached"),
    Case("recursive", "blitzed(p): size(hand[p]) == 3 and",
         "blitzed(p): size(hand[p]) == 3 and blitzed(p) and", "blitzed(p): size",
         "'blitzed' calls itself"),
    Case("mutual-recursion", "hand_value(cards): max(",
         "hand_value(cards): blitzed(0) + max(", "hand_value(cards): blitzed",
         "recursion is not allowed"),
    Case("effect-as-value", "when: knocker == none", "when: eliminate(me)", "eliminate",
         "can only be used as an effect"),
    Case("assign-counter", "do: knocker = me", "do: lives = 3", "lives = 3",
         "'lives' cannot be assigned"),
    Case("value-as-effect", "do: knocker = me", "do: knocker = me; next_seat(me)",
         "next_seat(me)", "next_seat() computes a value and changes nothing"),
    Case("builtin-as-effect", "do: knocker = me", "do: size(stock); knocker = me",
         "size(stock)", "size() computes a value and changes nothing"),
    Case("meld-finder-as-effect", "do: knocker = me", "do: runs(hand[me], 3); knocker = me",
         "runs(hand[me], 3)", "runs() computes a value and changes nothing"),
    Case("folded-block", "100 * lives[p]", "100 * * lives[p]", "* lives", "unexpected '*'"),
    Case("list-item", "- deal(stock, hand, 3)", "- deal(stock, hand, 3) ]", "]",
         "unexpected ']'"),
    Case("unknown-function", "- gather(stock); shuffle(stock)",
         "- gather(stock); shufle(stock)", "shufle", "did you mean 'shuffle'"),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken_copy(case: Case, tmp_path: Path) -> None:
    path = write_variant(THIRTY_ONE, tmp_path / f"{case.name}.yaml", (case.old, case.new))
    text = path.read_text(encoding="utf-8")
    line, col = line_col(text, text.index(case.new) + case.new.index(case.anchor))
    r = run_cli("check", str(path))
    out = output(r)
    assert r.returncode == 1, out
    assert_no_traceback(r)
    assert_located(out, path, line, col, case.fragment, text)


def test_exact_positions_of_a_few_cases(tmp_path: Path) -> None:
    """The same mechanism, with literal positions in the file as it stands (a cross-check of
    ``line_col``): a misspelt name inside a `when:` is reported at its first letter."""
    src = "name: tiny\nextends: thirty-one\nphases:\n  draw:\n    actions:\n      knock:\n" \
          "        when: knocker == nobody\n"
    path = tmp_path / "tiny.yaml"
    path.write_text(src, encoding="utf-8")
    r = run_cli("check", str(path))
    assert r.returncode == 1
    assert_located(output(r), path, 7, 26, "unknown name 'nobody'", src)


def test_type_error_points_at_the_operand(tmp_path: Path) -> None:
    case = Case("rank-plus", "or c != taken", "or c.rank + 1 != taken", "c.rank",
                "'+' needs numbers")
    path = write_variant(THIRTY_ONE, tmp_path / "rank-plus.yaml", (case.old, case.new))
    text = path.read_text(encoding="utf-8")
    line, col = line_col(text, text.index(case.new) + case.new.index(case.anchor))
    r = run_cli("check", str(path))
    assert r.returncode == 1
    assert_located(output(r), path, line, col, case.fragment, text)


def test_several_errors_all_reported(tmp_path: Path) -> None:
    subs = [c for c in CASES if c.name in ("syntax", "misspelt", "unknown-option",
                                           "argument-count", "recursive")]
    path = write_variant(THIRTY_ONE, tmp_path / "many.yaml", *[(c.old, c.new) for c in subs])
    text = path.read_text(encoding="utf-8")
    r = run_cli("check", str(path))
    out = output(r)
    assert r.returncode == 1
    assert_no_traceback(r)
    for c in subs:
        line, col = line_col(text, text.index(c.new) + c.new.index(c.anchor))
        assert_located(out, path, line, col, c.fragment, text)
    assert len(problems(out)) == len(subs)
    # reported in file order
    found = [(ln, col) for _, ln, col, _, _ in problems(out)]
    assert found == sorted(found)


def test_each_problem_reported_once(tmp_path: Path) -> None:
    path = write_variant(THIRTY_ONE, tmp_path / "next.yaml",
                         ("next: discard\n      draw discard", "next: discrad\n      draw discard"))
    r = run_cli("check", str(path))
    assert r.returncode == 1
    assert len(problems(output(r))) == 1, output(r)


def test_errors_in_several_files(tmp_path: Path) -> None:
    a = write_variant(THIRTY_ONE, tmp_path / "a.yaml", (CASES[1].old, CASES[1].new))
    b = write_variant(THIRTY_ONE, tmp_path / "b.yaml", (CASES[7].old, CASES[7].new))
    good = write_variant(THIRTY_ONE, tmp_path / "good.yaml")
    r = run_cli("check", str(a), str(good), str(b))
    assert r.returncode == 1
    paths = {p[0] for p in problems(output(r))}
    assert paths == {str(a), str(b)}


def test_folder_skips_scenarios(tmp_path: Path) -> None:
    write_variant(THIRTY_ONE, tmp_path / "ok.yaml")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.scenario.yaml").write_text("game: nothing\n", encoding="utf-8")
    write_variant(THIRTY_ONE, tmp_path / "sub" / "bad.yaml", (CASES[1].old, CASES[1].new))
    r = run_cli("check", str(tmp_path))
    assert r.returncode == 1
    assert {Path(p[0]).name for p in problems(output(r))} == {"bad.yaml"}


def test_check_bundled_games_is_clean_and_gives_no_warnings() -> None:
    # one run of `rulelang check games` for both checks (a CLI subprocess costs ~0.3 s of CPU)
    r = run_cli("check", "games", cwd=ROOT)
    assert r.returncode == 0, output(r)
    assert_no_traceback(r)
    n = sum(1 for p in GAMES.rglob("*.yaml") if not p.name.endswith(".scenario.yaml"))
    assert f"{n} file{'s' if n != 1 else ''} checked, no problems" in r.stdout
    assert "warning" not in output(r)


def _yaml(tmp_path: Path, text: str) -> Path:
    f = tmp_path / "v.yaml"
    f.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return f


def test_an_argument_of_unknown_kind_is_a_problem(tmp_path: Path) -> None:
    # cards are numbers at run time: a move can show one by name, or hide it from the other
    # seats, only if the checker knows the argument holds cards (issue 15)
    f = _yaml(tmp_path, """
        extends: thirty-one
        phases:
          discard:
            actions:
              discard:
                args: {c: "map(hand[me], c -> c)"}
        """)
    r = run_cli("check", str(f))
    assert r.returncode == 1, output(r)
    assert re.search(r"v\.yaml:6:19: error: cannot tell what kind of value argument 'c'",
                     output(r)), output(r)


def test_branches_and_groups_keep_the_kind_of_their_items(tmp_path: Path) -> None:
    # an if whose other branch is [] and the first of each group_by group are still cards,
    # so the moves name them
    import rulelang

    f = _yaml(tmp_path, """
        extends: thirty-one
        functions:
          pickable(p): 'if size(hand[p]) > 3 then hand[p] else []'
          firsts(p): '[g[0] for g in group_by(hand[p], c -> c.suit)]'
        phases:
          discard:
            actions:
              discard:
                args: {c: 'pickable(me)'}
              toss:
                args: {c: 'firsts(me)'}
                do: move(c, discard)
        """)
    r = run_cli("check", str(f))
    assert r.returncode == 0 and "warning" not in output(r), output(r)
    s = rulelang.load(str(f)).new_state(4, seed=1)
    s.apply("draw stock")
    for m in s.legal_moves():
        assert re.fullmatch(r"(discard|toss) [2-9TJQKA][SHDC]", m), m


def test_relative_path_is_shown_as_given(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    write_variant(THIRTY_ONE, tmp_path / "d" / "m.yaml", (CASES[1].old, CASES[1].new))
    r = run_cli("check", "d/m.yaml", cwd=tmp_path)
    assert r.returncode == 1
    assert problems(output(r))[0][0] == "d/m.yaml"
    r = run_cli("check", "d", cwd=tmp_path)
    assert problems(output(r))[0][0] == "d/m.yaml"


# ---------------------------------------------------------------- files that are not YAML rules
@pytest.mark.parametrize(
    ("data", "line", "col", "fragment"),
    [
        (b"", 1, 1, "empty"),
        (b"- a\n- b\n", 1, 1, "mapping"),
        (b"name: x\nplayers: {min: 2, max: 7}\ndeck: caf\xe9\n", 3, 10, "UTF-8"),
        (b"name: x\x00\n", None, None, "NUL"),
        (b"name: !!python/object:os.system {}\n", 1, 7, "not allowed"),
    ],
)
def test_unreadable_files(tmp_path: Path, data: bytes, line: int | None, col: int | None,
                          fragment: str) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(data)
    r = run_cli("check", str(path))
    assert r.returncode == 1
    assert_no_traceback(r)
    found = problems(output(r))
    assert len(found) == 1 and fragment in found[0][3], output(r)
    if line is not None:
        assert found[0][1:3] == (line, col)


def test_missing_file_is_usage_error(tmp_path: Path) -> None:
    r = run_cli("check", str(tmp_path / "nope.yaml"))
    assert r.returncode == 2
    assert_no_traceback(r)
    assert "nope.yaml" in output(r)


def test_long_operator_chain_reports_no_traceback(tmp_path: Path) -> None:
    path = write_variant(THIRTY_ONE, tmp_path / "chain.yaml",
                         ("when: size(stock) > 0", "when: size(stock) > 0" + " + 0" * 200))
    r = run_cli("check", str(path))
    assert_no_traceback(r)
    assert r.returncode in (0, 1)


def test_very_long_operator_chain_reports_no_traceback(tmp_path: Path) -> None:
    path = write_variant(THIRTY_ONE, tmp_path / "chain.yaml",
                         ("when: size(stock) > 0", "when: size(stock) > 0" + " + 0" * 1000))
    r = run_cli("check", str(path))
    assert_no_traceback(r)
    assert r.returncode in (0, 1)


# ---------------------------------------------------------------- extends:
def variant(tmp_path: Path, rel: str, text: str) -> Path:
    p = tmp_path / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize(
    ("target", "fragment"),
    [
        ("no-such-game", "no rules file or bundled game named 'no-such-game'"),
        ("thirty-onw", "did you mean 'thirty-one'"),
        ("./missing.yaml", "no rules file or bundled game named './missing.yaml'"),
        ("sub/missing.yaml", "no rules file or bundled game named 'sub/missing.yaml'"),
    ],
)
def test_extends_missing(tmp_path: Path, target: str, fragment: str) -> None:
    text = f"name: Variant\nextends: {target}\n"
    p = variant(tmp_path, "v.yaml", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert_no_traceback(r)
    assert_located(output(r), p, 2, 10, fragment, text)


def test_extends_absolute_path_refused(tmp_path: Path) -> None:
    text = f"name: Absolute\nextends: {THIRTY_ONE}\n"
    p = variant(tmp_path, "v.yaml", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert_located(output(r), p, 2, 10, "absolute", text)


def test_extends_dotdot_escape_refused(tmp_path: Path) -> None:
    write_variant(THIRTY_ONE, tmp_path / "base.yaml")
    text = "name: Escape\nextends: ../base.yaml\n"
    p = variant(tmp_path, "inner/v.yaml", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert_located(output(r), p, 2, 10, "outside this file's folder", text)
    # also when written to look like it stays inside
    text = "name: Escape\nextends: ./x/../../base.yaml\n"
    p = variant(tmp_path, "inner/w.yaml", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert_located(output(r), p, 2, 10, "outside this file's folder", text)


def test_extends_file_in_a_subfolder_allowed(tmp_path: Path) -> None:
    (tmp_path / "bases").mkdir()
    write_variant(THIRTY_ONE, tmp_path / "bases" / "base.yaml")
    p = variant(tmp_path, "v.yaml", "name: Inside\nextends: bases/base.yaml\n")
    r = run_cli("check", str(p))
    assert r.returncode == 0, output(r)


def test_extends_escape_via_lookalike_folder_refused(tmp_path: Path) -> None:
    bundled = bundled_dir().resolve()
    lookalike = tmp_path / "other" / str(bundled).lstrip("/") / "evil.yaml"
    lookalike.parent.mkdir(parents=True)
    write_variant(THIRTY_ONE, lookalike)
    rel = "../other/" + str(bundled).lstrip("/") + "/evil.yaml"
    text = f"name: Sneaky\nextends: {rel}\n"
    p = variant(tmp_path, "mine/v.yaml", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert_located(output(r), p, 2, 10, "outside this file's folder", text)


def test_extends_itself_and_cycles(tmp_path: Path) -> None:
    text = "name: Me\nextends: me.yaml\n"
    p = variant(tmp_path, "me.yaml", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert_no_traceback(r)
    assert_located(output(r), p, 2, 10, "back to itself", text)
    variant(tmp_path, "a.yaml", "name: A\nextends: b.yaml\n")
    variant(tmp_path, "b.yaml", "name: B\nextends: a.yaml\n")
    r = run_cli("check", str(tmp_path / "a.yaml"))
    assert r.returncode == 1
    assert_no_traceback(r)
    assert "back to itself" in output(r)


def test_errors_in_an_extended_file_name_that_file(tmp_path: Path) -> None:
    write_variant(THIRTY_ONE, tmp_path / "base.yaml", (CASES[1].old, CASES[1].new))
    p = variant(tmp_path, "v.yaml", "name: Child\nextends: base.yaml\n")
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert_no_traceback(r)
    found = problems(output(r))
    assert found and all(Path(f[0]).name == "base.yaml" for f in found), output(r)


SUPER = """\
name: Thirty-One doubled
extends: thirty-one
functions:
  # twice the standard value, through super()
  hand_value(cards): 2 * super(cards)
"""


def test_variant_overriding_with_super(tmp_path: Path) -> None:
    p = variant(tmp_path, "doubled.yaml", SUPER)
    r = run_cli("check", str(p))
    assert r.returncode == 0, output(r)
    assert "1 file checked, no problems" in r.stdout
    r = run_cli("score", str(p), "AS", "KS", "2C", "--json")
    assert r.returncode == 0, output(r)
    assert '"value": 42' in r.stdout
    import rulelang

    g = rulelang.load(str(p))
    s = g.new_state(3, seed=1)
    ev = g.evaluator()
    hand = s.zones[next(z for z in g.zones if z.name == "hand").first_id]
    base = rulelang.load("thirty-one").evaluator()
    assert ev.fn(s, hand) == 2 * base.fn(s, hand)


def test_super_misuse(tmp_path: Path) -> None:
    text = SUPER.replace("2 * super(cards)", "2 * super(cards, 1)") + "  other(x): super(x)\n"
    p = variant(tmp_path, "bad.yaml", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1
    out = output(r)
    assert_located(out, p, 5, 26, "super() takes 1 argument", text)
    assert_located(out, p, 6, 13, "super() is only allowed", text)


def test_remove_of_missing_item(tmp_path: Path) -> None:
    text = "name: Less\nextends: thirty-one\nremove:\n  - options.nothing\n"
    p = variant(tmp_path, "less.yaml", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert_located(output(r), p, 4, 5, "no inherited 'options.nothing'", text)


def test_a_bundled_name_given_to_check_says_where_the_file_is(tmp_path: Path) -> None:
    r = run_cli("check", "thirty-one", cwd=tmp_path)
    assert r.returncode == 2
    assert "no such file or folder: thirty-one (the bundled game 'thirty-one' is the file " \
        in r.stderr
    assert str(bundled_dir() / "thirty-one.yaml") in r.stderr


@pytest.mark.parametrize("when", ["false", '"false"'])
def test_an_action_whose_when_is_always_false_is_reported(tmp_path: Path, when: str) -> None:
    # the flow passes read the parsed texts the build kept (check.py parses nothing itself)
    p = write_variant(THIRTY_ONE, tmp_path / "w.yaml",
                      ("        when: knocker == none\n", f"        when: {when}\n"))
    r = run_cli("check", str(p))
    assert r.returncode == 1 and "action 'knock' of phase 'draw' can never be legal" in r.stderr


# ---------------------------------------------------------------- check's own time
# Hostile files the size limits accept once kept `check` busy for minutes: each is generated
# here at a size that took seconds before, and checked (in this process, for its CPU time)
# within a budget far above what it takes now.
def check_cpu(path: Path) -> tuple[list[Any], float]:
    """The problems `check` finds in ``path``, and the CPU seconds it took to find them."""
    t0 = time.process_time()
    try:
        errors, _warnings = check_all(load_rules(str(path)))
    except RulesErrors as e:
        errors = e.errors
    return errors, time.process_time() - t0


def user_fns(n: int, calls: Callable[[int], set[str]], pure: bool = True) -> dict[str, UserFn]:
    return {f"f{i}": UserFn(f"f{i}", ("x",), Span("c.yaml", i + 1, 3), False, calls=calls(i),
                            pure=pure) for i in range(n)}


def test_the_recursion_check_is_linear() -> None:
    # f(i) calls f(i-1), and f0 calls the last: one cycle through 4,000 functions (a chain of
    # 4,000 took 206 s: the call path was copied at every step, from every start)
    fns = user_fns(4000, lambda i: {f"f{i - 1}" if i else "f3999"})
    t0 = time.process_time()
    errors = recursion_errors(fns)
    assert time.process_time() - t0 < 0.5
    assert len(errors) == 1, [e.message for e in errors]
    msg = errors[0].message
    assert msg.startswith("'f0' calls itself (f0 -> f3999 -> f3998 -> "), msg
    assert "... 3990 more -> f0); recursion is not allowed" in msg  # a long cycle, shortened
    assert recursion_errors(user_fns(4000, lambda i: {f"f{i - 1}"} if i else set())) == []


def test_each_group_of_functions_calling_each_other_is_reported_once() -> None:
    graph = {"a": {"b", "c"}, "b": {"a"}, "c": {"d"}, "d": {"a"}, "e": {"e"}, "f": {"a"}}
    fns = {k: UserFn(k, (), Span("c.yaml", i + 1, 3), False, calls=v)
           for i, (k, v) in enumerate(graph.items())}
    assert sorted(e.message.split(";")[0] for e in recursion_errors(fns)) == [
        "'a' calls itself (a -> b -> a)", "'e' calls itself (e -> e)"]


def test_purity_spreads_to_callers_in_linear_time() -> None:
    # f3999 calls f3998 ... calls f0, which reads the state, listed callers first: a pass over
    # all of them per link of the chain took seconds
    fns = dict(reversed(list(user_fns(4000, lambda i: {f"f{i - 1}"} if i else set()).items())))
    fns["f0"].pure = False
    t0 = time.process_time()
    memoize_pure(fns)
    assert time.process_time() - t0 < 0.5
    assert not any(uf.pure for uf in fns.values())


def test_a_chain_of_functions_is_checked_quickly(tmp_path: Path) -> None:
    p = tmp_path / "chain.yaml"
    p.write_text("extends: thirty-one\nfunctions:\n  f0(x): f999(x) + 1\n" + "".join(
        f"  f{i}(x): f{i - 1}(x) + 1\n" for i in range(1, 1000)), encoding="utf-8")
    errors, cpu = check_cpu(p)
    assert cpu < 5
    assert [e.message.split(" (")[0] for e in errors] == ["'f0' calls itself"]


def test_many_unknown_names_among_many_known_ones_are_checked_quickly(tmp_path: Path) -> None:
    # 5,000 known names and 500 unknown ones: difflib over every known name for each unknown
    # one took 45 ms a name; hints are now bounded (errors.did_you_mean)
    known = "".join(f"  name_{i}: {i}\n" for i in range(5000))
    unknown = ", ".join(f"nmae_{i}" for i in range(500))
    p = tmp_path / "unknown.yaml"
    p.write_text(f"extends: thirty-one\ndata:\n{known}functions:\n  f(x): \"[{unknown}]\"\n",
                 encoding="utf-8")
    errors, cpu = check_cpu(p)
    assert cpu < 5
    assert len(errors) == 500
    assert all(e.message.startswith("unknown name 'nmae_") for e in errors)
    assert errors[0].message == "unknown name 'nmae_0' (did you mean 'name_0'?)"
    t0 = time.process_time()
    text = "\n".join(e.render() for e in errors)  # the file's lines split once, not per error
    assert time.process_time() - t0 < 1 and text.count("^") == 500


def test_value_table_entries_share_one_work_allowance(tmp_path: Path) -> None:
    # each entry loops 4,000,000 times: with an allowance of its own each, 13 entries ran
    # 52 million passes during check
    costly = "sum(a for a in range(2000) for b in range(opt.lives * 500))"
    entries = ", ".join(f'{r}: "{costly}"' for r in "23456789TJQKA")
    p = tmp_path / "values.yaml"
    p.write_text(f"extends: thirty-one\nvalues:\n  costly: {{{entries}}}\n", encoding="utf-8")
    errors, cpu = check_cpu(p)
    assert cpu < 2
    assert len(errors) == 1, [e.message for e in errors]
    assert f"took more than {limits.CHECK_WORK} units of work" in errors[0].message
    assert errors[0].span.line == 3


def test_value_table_entries_are_worked_out_and_their_errors_are_in_rules_words(
        tmp_path: Path) -> None:
    p = tmp_path / "values.yaml"
    p.write_text("extends: thirty-one\nvalues:\n  bonus: {2: \"1 // 0\", 3: 3, 4: 4, 5: 5, 6: 6, "
                 "7: 7, 8: 8, 9: 9, T: 10, J: 10, Q: \"[1, 2]\", K: 10, A: \"opt.lives * 2\"}\n",
                 encoding="utf-8")
    errors, _cpu = check_cpu(p)
    assert sorted(e.message for e in errors) == [
        "a value table entry must be a number, got a list of 2 items",
        "this value table entry could not be worked out: division by zero"]
    p.write_text(p.read_text().replace('"1 // 0"', "2").replace('"[1, 2]"', "10")
                 + "globals:\n  ace: \"bonus['A']\"\n")
    state = rulelang.load(str(p)).new_state(2)
    assert state.g[[name for name, _u in state.game.globals].index("ace")] == 8  # 2 * lives


def test_seats_written_out_are_checked(tmp_path: Path) -> None:
    # first_dealer: 99 or -1 was accepted, and the dealer was then no seat
    for key, value, shown in [("match:\n  first_dealer", "99", "99"),
                              ("match:\n  first_dealer", '"-1"', "-1"),
                              ("round:\n  first", "\"'x'\"", "'x'"),
                              ("round:\n  next_dealer", '"[0]"', "a list")]:
        p = tmp_path / "seat.yaml"
        p.write_text(f"extends: thirty-one\n{key}: {value}\n", encoding="utf-8")
        errors, _cpu = check_cpu(p)
        where = key.replace(":\n  ", ".")
        assert [(e.message, e.span.line, e.span.col) for e in errors] == [
            (f"{where} is {shown}: a seat is a number from 0 to 6", 3, len(key) - 4)], value
