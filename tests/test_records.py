"""``simulate --records`` (one JSON line per game, in game order whatever the workers) and
``--report`` (matplotlib, an optional extra: a usage error naming it when it is missing)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from rulelang.seeds import game_seed

from .helpers import output, run_cli

SHORT = ("--option", "lives=2", "--games", "6", "--seed", "4")


def _records(tmp_path: Path, workers: str) -> str:
    path = tmp_path / f"w{workers}.jsonl"
    r = run_cli("simulate", "thirty-one", *SHORT, "--workers", workers, "--json",
                "--records", str(path), "--agents", "greedy,random")
    assert r.returncode == 0, output(r)
    return path.read_text(encoding="utf-8")


def test_records_are_the_same_for_one_worker_and_two(tmp_path: Path) -> None:
    one = _records(tmp_path, "1")
    assert one == _records(tmp_path, "2")
    assert len(one.splitlines()) == 6


def test_a_records_line_gives_the_game_its_seed_and_each_round(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    r = run_cli("simulate", "thirty-one", *SHORT, "--players", "3", "--records", str(path),
                "--json")
    assert r.returncode == 0, output(r)
    stats = json.loads(r.stdout)
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert [x["game"] for x in lines] == list(range(6))
    assert [x["seed"] for x in lines] == [game_seed(4, i) for i in range(6)]
    assert sum(x["rounds"] for x in lines) == stats["rounds"]
    assert sum(x["decisions"] for x in lines) == stats["decisions"]
    for x in lines:
        assert set(x) == {"game", "seed", "winners", "rounds", "decisions", "round_outcomes"}
        assert len(x["winners"]) >= 1 and all(0 <= w < 3 for w in x["winners"])
        assert len(x["round_outcomes"]) == x["rounds"]
        assert sum(o["decisions"] for o in x["round_outcomes"]) == x["decisions"]
        for k, o in enumerate(x["round_outcomes"]):
            assert o["round"] == k + 1 and o["ended_by"] in stats["ended_by"]
            assert 0 <= o["dealer"] < 3 and set(o["seats"]) <= {0, 1, 2}
            assert list(o["changes"]) == ["lives"] and len(o["changes"]["lives"]) == 3
        # the changes add up: no seat lost fewer lives over the game than the winner
        lost = [sum(o["changes"]["lives"][p] for o in x["round_outcomes"]) for p in range(3)]
        assert all(lost[w] == max(lost) for w in x["winners"])


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_records_file_that_cannot_be_written_is_a_usage_error() -> None:
    r = run_cli("simulate", "thirty-one", "--games", "2", "--records", "/dev/full")
    assert r.returncode == 2, output(r)
    assert r.stderr == "error: --records: cannot write /dev/full: No space left on device\n"


def test_a_report_of_an_unknown_kind_is_a_usage_error() -> None:
    r = run_cli("simulate", "thirty-one", "--games", "2", "--report", "out.pdf")
    assert r.returncode == 2 and "--report: out.pdf must end in .html or .png" in r.stderr


def test_a_report_without_matplotlib_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from rulelang.cli import app

    # an entry None in sys.modules makes its import fail, as an absent package's does
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    records = tmp_path / "r.jsonl"
    for args in (["simulate", "thirty-one", "--records", str(records)],
                 ["compare", "thirty-one", "thirty-one"]):
        r = CliRunner().invoke(app, [*args, "--games", "2", "--report",
                                     str(tmp_path / "r.png")])
        assert r.exit_code == 2, r.output
        assert "pip install 'rulelang[plot]'" in r.output
    assert not records.exists()  # said before a game is played or a file written


def test_reports_as_png_and_html(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from typer.testing import CliRunner

    from rulelang.cli import app

    # in this process: matplotlib is imported once for both (about half a second)
    png = tmp_path / "r.png"
    r = CliRunner().invoke(app, ["simulate", "thirty-one", *SHORT, "--report", str(png),
                                 "--json"])
    assert r.exit_code == 0, r.output
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    page = tmp_path / "c.html"
    r = CliRunner().invoke(app, ["compare", "thirty-one", "thirty-one", "--option-b",
                                 "blitz_after_knock=true", "--option", "lives=2", "--games",
                                 "6", "--agents", "greedy,random", "--report", str(page),
                                 "--json"])
    assert r.exit_code == 0, r.output
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and 'src="data:image/png;base64,' in text
    assert "<td>win rate of greedy</td>" in text and "<h2>win rate by seat</h2>" in text
