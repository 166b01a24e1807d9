"""Reading what there is: ``rulelang --version``, ``rulelang list`` and ``check --json``, and a
check of a folder without rules files (which must not say "no problems")."""

from __future__ import annotations

import json
from pathlib import Path

import rulelang
from rulelang.rules import bundled_names

from .helpers import ROOT, assert_no_traceback, output, run_cli


def test_version() -> None:
    r = run_cli("--version")
    assert r.returncode == 0, output(r)
    assert r.stdout.strip() == f"rulelang {rulelang.__version__}"


def test_list_names_every_bundled_game_with_what_it_is() -> None:
    r = run_cli("list")
    assert r.returncode == 0, output(r)
    lines = r.stdout.splitlines()
    names = bundled_names()
    assert [ln.split()[0] for ln in lines] == names
    assert all(len(ln.split(None, 1)) == 2 for ln in lines)  # each says what the game is
    variant = next(ln for ln in lines if ln.startswith("thirty-one-dutch "))
    assert "(a variant of thirty-one)" in variant
    j = json.loads(run_cli("list", "--json").stdout)
    assert [g["id"] for g in j] == names
    assert all(set(g) == {"id", "name", "description", "extends"} for g in j)


def test_check_json_lists_each_problem(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ndeck: {}\nzones: {s: {home: true}}\nphases:\n"
                   "  p:\n    actions:\n      a: {when: 'size(nope) > 0'}\n")
    r = run_cli("check", "--json", str(bad))
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    problems = json.loads(r.stdout)
    assert problems and all(
        set(p) == {"file", "line", "col", "severity", "message"} for p in problems)
    p = next(p for p in problems if "nope" in p["message"])
    assert (p["file"], p["line"], p["col"], p["severity"]) == (str(bad), 7, 23, "error")
    ok = run_cli("check", "--json", "games/tonk.yaml", cwd=ROOT)
    assert ok.returncode == 0 and json.loads(ok.stdout) == [], output(ok)


def test_check_of_a_folder_without_rules_files_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "only.scenario.yaml").write_text("game: tonk\n")
    r = run_cli("check", str(tmp_path))
    assert r.returncode == 2, output(r)
    assert "no rules files" in r.stderr and "no problems" not in output(r)
