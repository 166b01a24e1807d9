"""Fuzzing in CI: 150 mutated bundled games through `rulelang check` (in process, the
CLI's own code path), a few through the real command, and hypothesis over raw text, YAML-shaped
data and expression strings. Every answer is success or located errors — never a traceback,
never past the time bound. ``make fuzz`` runs the same mutation fuzzer on 10,000 cases.
"""

from __future__ import annotations

import os
import random
import string
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.mutate import MUTATORS, mutate
from fuzz.runner import bundled_rules, check_case, run_case

from .helpers import assert_no_traceback, run_cli

# 150 mutated cases by default (~3 s of CPU), in six blocks; RULELANG_FUZZ_CASES=300 (make
# test-long) for more, `make fuzz` for 10,000
CI_CASES = int(os.environ.get("RULELANG_FUZZ_CASES", "150"))
# each mutator on this many bundled games, a different run of them for each mutator so that
# together they cover every game (0: every mutator on every game, as make test-long does)
GAMES_PER_MUTATOR = int(os.environ.get("RULELANG_FUZZ_GAMES", "6"))
TIME_BOUND = 10.0
BASES = bundled_rules()


@pytest.mark.parametrize("block", range(6))
def test_mutation_fuzzer(tmp_path: Path, block: int) -> None:
    per = CI_CASES // 6
    bad = []
    for i in range(block * per, (block + 1) * per):
        # a quarter played; one in sixteen also through simulate --record, replay and play
        r = run_case(20240, i, BASES, tmp_path, TIME_BOUND, simulate=i % 4 == 0,
                     commands=i % 16 == 0)
        if r.bad:
            bad.append(f"{r.case} {r.base} {'+'.join(r.mutators)}: {r.outcome}\n{r.detail}")
    assert not bad, "\n\n".join(bad[:3])


@pytest.mark.parametrize("name", sorted(MUTATORS))
def test_each_mutator_on_each_game(tmp_path: Path, name: str) -> None:
    rng = random.Random(name)
    k = GAMES_PER_MUTATOR or len(BASES)
    at = sorted(MUTATORS).index(name) * k
    for base in [BASES[(at + j) % len(BASES)] for j in range(min(k, len(BASES)))]:
        data = MUTATORS[name](base.read_text(encoding="utf-8"), rng)
        p = tmp_path / base.name
        p.write_bytes(data if isinstance(data, bytes)
                      else data.encode("utf-8", "surrogatepass"))
        outcome, detail, _ = check_case(p, TIME_BOUND)
        assert outcome in ("ok", "errors"), f"{base.name} {name}: {outcome}\n{detail}"


def test_some_cases_through_the_real_command(tmp_path: Path) -> None:
    rng = random.Random(7)
    for k in range(12):
        base = BASES[k % len(BASES)]
        data, _used = mutate(base.read_text(encoding="utf-8"), rng)
        p = tmp_path / f"case{k}.yaml"
        p.write_bytes(data if isinstance(data, bytes)
                      else data.encode("utf-8", "surrogatepass"))
        r = run_cli("check", str(p), timeout=60)
        assert_no_traceback(r)
        assert "internal error" not in r.stderr
        assert r.returncode in (0, 1), r.stderr


def check_bytes(tmp_path: Path, data: bytes) -> None:
    p = tmp_path / "h.yaml"
    p.write_bytes(data)
    outcome, detail, _ = check_case(p, TIME_BOUND)
    assert outcome in ("ok", "errors"), detail


# 30 examples per test by default; RULELANG_FUZZ_EXAMPLES=60 (make test-long) for more
FUZZ = settings(max_examples=int(os.environ.get("RULELANG_FUZZ_EXAMPLES", "30")), deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@FUZZ
@given(st.binary(max_size=600))
def test_random_bytes(tmp_path: Path, data: bytes) -> None:
    check_bytes(tmp_path, data)


@FUZZ
@given(st.text(max_size=400))
def test_random_text(tmp_path: Path, text: str) -> None:
    check_bytes(tmp_path, text.encode("utf-8", "surrogatepass"))


KEYS = ["name", "extends", "deck", "players", "zones", "phases", "round", "turn", "match",
        "functions", "procedures", "options", "counters", "globals", "data", "values",
        "conserved", "remove", "hand_evaluator", "heuristic", "actions", "when", "do", "next",
        "args", "settle", "triggers", "start", "min", "max", "default", "per_player", "home"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                    st.floats(allow_nan=True), st.text(max_size=20),
                    st.sampled_from(["thirty-one", "size(hand[me])", "move(top(stock), discard)",
                                     "end_turn", "f(x)", "x -> x", "[1, 2]", "1 +", "(("]))
documents = st.recursive(
    scalars,
    lambda kids: st.one_of(st.lists(kids, max_size=4),
                           st.dictionaries(st.one_of(st.sampled_from(KEYS),
                                                     st.text(max_size=8)), kids, max_size=5)),
    max_leaves=30)


@FUZZ
@given(st.dictionaries(st.sampled_from(KEYS), documents, max_size=8))
def test_yaml_shaped_documents(tmp_path: Path, doc: dict) -> None:
    check_bytes(tmp_path, yaml.safe_dump(doc, allow_unicode=True).encode("utf-8",
                                                                          "surrogatepass"))


atoms = st.sampled_from(["1", "0", "-1", "2.5", "true", "false", "none", "me", "turn", "dealer",
                         "hand[me]", "stock", "discard", "seats", "players", "opt.lives",
                         "lives[me]", "'a'", "c", "x", "c.rank", "c.suit", "hand_value(hand[me])",
                         "top(stock)", "size(stock)", "[1, 2]", "[]"])
ops = st.sampled_from(["+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", "and", "or", "in",
                       "not in", ",", ".", "->", "if", "then", "else", "for", "let", "=", ":"])
expressions = st.recursive(
    atoms,
    lambda kids: st.one_of(
        st.tuples(kids, ops, kids).map(" ".join),
        kids.map(lambda e: f"({e})"),
        kids.map(lambda e: f"not {e}"),
        st.tuples(st.sampled_from(["size", "sum", "max", "min", "sort", "filter", "map", "top",
                                   "range", "combinations", "any", "all", "count", "nope"]),
                  st.lists(kids, max_size=3)).map(lambda t: f"{t[0]}({', '.join(t[1])})"),
        st.tuples(kids, kids).map(lambda t: f"[{t[0]} for c in {t[1]}]"),
        st.tuples(kids, kids, kids).map(lambda t: f"if {t[0]} then {t[1]} else {t[2]}"),
    ),
    max_leaves=12)


@FUZZ
@given(expressions, st.sampled_from(["lives: opt.lives", "when: size(stock) > 0"]))
def test_generated_expressions(tmp_path: Path, expr: str, where: str) -> None:
    text = (Path(__file__).resolve().parent.parent / "games" / "thirty-one.yaml").read_text(
        encoding="utf-8")
    key = where.split(":")[0]
    if where not in text:
        pytest.skip(f"{where!r} is no longer in thirty-one.yaml")
    quoted = '"' + expr.replace("\\", "\\\\").replace('"', '\\"') + '"'
    check_bytes(tmp_path, text.replace(where, f"{key}: {quoted}", 1).encode("utf-8"))


@FUZZ
@given(st.text(alphabet=string.printable, max_size=200))
def test_parse_never_raises_anything_else(text: str) -> None:
    from rulelang.errors import RulesError
    from rulelang.parse import parse

    for kind in ("expr", "stmts"):
        try:
            parse(text, kind)
        except RulesError:
            pass
