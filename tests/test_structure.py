"""The package's shape, as issue-free facts: imports flow one way, the engine needs no
compiler, generated code uses only the documented runtime surface, the flow is a loop, and a
state's work accounting is its own."""

from __future__ import annotations

import ast
import random
import re
import subprocess
import sys
from pathlib import Path

import rulelang
from rulelang import runtime

from .helpers import ROOT, output, rules_files, run_cli

PACKAGE = ROOT / "rulelang"


def _imports(path: Path) -> set[str]:
    """The package modules a module imports, at its top or inside functions."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rulelang."):
            out.add(node.module.split(".")[1])  # type: ignore[union-attr]
    return out


def test_imports_flow_one_way() -> None:
    graph = {p.stem: _imports(p) for p in PACKAGE.glob("*.py")}
    graph = {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}
    state: dict[str, int] = {}

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for d in sorted(graph[m]):
            assert state.get(d) != 1, "import circle: " + " -> ".join([*path, m, d])
            if d not in state:
                visit(d, [*path, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


def test_the_engine_imports_neither_parser_nor_compiler() -> None:
    code = ("import sys, rulelang.engine; print(sorted(m for m in sys.modules "
            "if m.startswith(('rulelang', 'lark'))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True).stdout
    for name in ("rulelang.parse", "rulelang.compile", "rulelang.build", "rulelang.check",
                 "lark"):
        assert f"'{name}'" not in loaded, loaded


def test_generated_code_uses_only_the_runtime_surface() -> None:
    allowed = runtime.STATE_READS | runtime.STATE_WRITES | runtime.STATE_CALLS
    for path in rules_files():
        game = rulelang.load(str(path))
        sources = game.generated.sources
        assert sources
        for text, _span in sources:
            used = set(re.findall(r"\bS\.(\w+)", text))
            assert used <= allowed, (path.name, used - allowed, text)


def test_compile_dump_shows_the_generated_code_with_its_rules_lines() -> None:
    r = run_cli("compile", "thirty-one", "--dump")
    assert r.returncode == 0, output(r)
    assert "def _triggers(S):" in r.stdout
    assert re.search(r"# ---- #\d+ from \S*thirty-one.yaml:\d+:\d+", r.stdout)
    r = run_cli("compile", "thirty-one")
    assert r.returncode == 0 and "pieces of Python" in r.stdout


def test_a_game_of_ten_thousand_rounds_that_end_on_the_deal_runs() -> None:
    game = rulelang.load(str(ROOT / "tests" / "data" / "deal-ends.yaml"))
    s = game.new_state(2, seed=1, record=False)
    assert s.is_over() and s.round == 10_000
    assert sum(s.result()["counters"]["points"]) >= 10_000


def _work_of_one_game(game: object) -> int:
    s = game.new_state(4, seed=1, record=False)  # type: ignore[attr-defined]
    r = random.Random(3)
    while not s.is_over():
        s.apply_index(int(r.random() * s.num_moves()))
    return s.work_done


def test_a_games_work_accounting_does_not_depend_on_what_ran_before() -> None:
    game = rulelang.load("thirty-one")
    first = _work_of_one_game(game)
    # the memo is warm now, and another state runs its steps between this one's
    assert _work_of_one_game(game) == first
    assert _work_of_one_game(rulelang.load("thirty-one")) == first
    s = game.new_state(4, seed=1, record=False)
    r = random.Random(3)
    other = game.new_state(4, seed=2, record=False)
    while not s.is_over():
        s.apply_index(int(r.random() * s.num_moves()))
        if not other.is_over():
            other.apply_index(0)
    assert s.work_done == first


def test_no_module_is_a_giant() -> None:
    # a few hundred lines each (docs/architecture.md): past ~500 a module holds two concerns
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in PACKAGE.glob("*.py")}
    assert max(sizes.values()) <= 550, sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
