"""``rulelang explain`` (rules read back as rules), the generated docs/rules/ being current, and
``rulelang replay --show`` (a recorded game as a transcript, from a seat's view or all)."""

from __future__ import annotations

from pathlib import Path

import rulelang
from rulelang.explain import bundled_explained, explain
from rulelang.rules import bundled_names

from .helpers import ROOT, assert_no_traceback, output, run_cli

RULES_DOCS = ROOT / "docs" / "rules"


def test_explain_a_base_game_quotes_its_rules() -> None:
    text = explain(rulelang.load("thirty-one"))
    assert text.startswith("# Thirty-One\n")
    for heading in ("## Players", "## The deck", "## Zones", "## A round", "## A turn",
                    "### Phase `draw`", "## How a round ends", "## How the match ends",
                    "## Options"):
        assert f"\n{heading}\n" in text, heading
    # the deal one effect a line, the actions with their conditions, effects and next phase
    assert "  - `deal(stock, hand, 3)`\n  - `move(top(stock), discard)`" in text
    assert "- **draw discard**\n  - allowed when `size(discard) > 0`" in text
    assert "  - then phase `discard`" in text
    assert "- **discard *c***\n  - *c*: one of `hand[me]`" in text
    # a trigger, its condition and its settlement; an option with its default, range and doc
    assert "- **knock**\n  - when `knocker != none and turn == knocker`\n  - settled" in text
    assert "- `lives` (default 4; 1 to 99): lives each player starts with" in text
    assert "- `discard`: shared; only the top card is seen, by everyone" in text
    # a comment written beside a key is its explanation
    assert "`knocker`: `none` — the seat that knocked this round" in text
    assert "Differences" not in text


def test_explain_a_variant_lists_its_differences() -> None:
    text = explain(rulelang.load("thirty-one-switch"))
    diff = text.split("\n## Differences from `thirty-one`\n", 1)[1]
    assert "- adds `options.max_turns` (shown above)" in diff
    assert "- changes `round.first` to `if restarted then next_seat(dealer) else dealer` " \
           "(was `next_seat(dealer)`)" in diff
    assert "- removes `phases.discard`" in diff
    assert "- removes `round.triggers.stock_exhausted`" in diff
    # the variant's rules are the merged ones: its own phases, not the removed ones
    assert "### Phase `restart`" in text and "### Phase `discard`" not in text


def test_explain_command_and_its_exit_codes() -> None:
    r = run_cli("explain", "thirty-one-dutch", "--option", "lives=2")
    assert r.returncode == 0, output(r)
    assert r.stdout.startswith("# ") and "(default 4; 1 to 99; now 2)" in r.stdout
    for args in (["explain", "thirty-onne"], ["explain", "thirty-one", "--option", "nope=1"],
                 ["explain", "thirty-one", "--option", "lives=0"]):
        r = run_cli(*args)
        assert_no_traceback(r)
        assert r.returncode == 2, output(r)
        assert r.stderr.startswith("error: ") and not r.stdout
    assert "did you mean 'thirty-one'" in run_cli("explain", "thirty-onne").stderr


def test_docs_rules_are_current() -> None:
    """docs/rules/ is `python -m rulelang.explain --write docs/rules`: regenerate and compare."""
    now = bundled_explained()
    assert sorted(now) == bundled_names()
    stale = [name for name, text in now.items()
             if not (RULES_DOCS / f"{name}.md").is_file()
             or (RULES_DOCS / f"{name}.md").read_text(encoding="utf-8") != text]
    extra = sorted(p.stem for p in RULES_DOCS.glob("*.md") if p.stem not in now)
    assert not stale and not extra, (
        f"stale: {stale}, not a bundled game: {extra}; run "
        "`python -m rulelang.explain --write docs/rules`")


def _hand_lines(text: str, who: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(f"  hand {who}: ")]


def test_replay_show_from_a_seat_and_from_all(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    r = run_cli("simulate", "thirty-one", "--games", "2", "--players", "3", "--option",
                "lives=1", "--record", str(log))
    assert r.returncode == 0, output(r)
    every = run_cli("replay", str(log), "--show", "--game", "1")
    mine = run_cli("replay", str(log), "--show", "--game", "1", "--seat", "0")
    assert every.returncode == 0 and mine.returncode == 0, output(every) + output(mine)
    assert "every card shown" in every.stdout and "as P0 sees it" in mine.stdout
    assert "move 1: " in mine.stdout and "game over: winner " in mine.stdout
    # each round's end says why, in the rules' own lines (log)
    assert "knocked; lowest: " in mine.stdout or "blitz by " in mine.stdout
    # every card of the others' hands is named without a seat, and none of them with seat 0
    others = _hand_lines(every.stdout, "P1") + _hand_lines(every.stdout, "P2")
    assert others and all("face down" not in line for line in others)
    seen = _hand_lines(mine.stdout, "P1") + _hand_lines(mine.stdout, "P2")
    assert seen and all(line.endswith("face down") for line in seen), seen
    assert _hand_lines(mine.stdout, "you") and "hand P0" not in mine.stdout
    # the moves are the same moves, each followed by the position
    assert mine.stdout.count("\nmove ") == every.stdout.count("\nmove ") > 0
    for args in (["--show", "--seat", "3"], ["--seat", "0"], ["--show", "--game", "9"]):
        r = run_cli("replay", str(log), *args)
        assert_no_traceback(r)
        assert r.returncode == 2, output(r)


def test_a_section_explain_has_no_part_for_is_shown_as_written() -> None:
    """A section of the rules language added later reads back as nested lists, comments
    included, rather than being left out."""
    from rulelang.explain import _other
    from rulelang.ruletext import Writer
    from rulelang.yamlload import load_text

    doc = load_text("name: x\nlater:\n  # what is shown\n  show: {lives: lives left}\n"
                    "  sort: [suit, rank]   # the order of a hand\n", "x.yaml")
    w = Writer()
    _other(w, doc)
    assert w.text() == ("## `later`\n\n- `show` — what is shown\n  - `lives`: `lives left`\n"
                        "- `sort`: `suit`, `rank` — the order of a hand\n")
