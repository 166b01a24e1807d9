"""The ``display:`` section: what the play screen shows (labels, bookkeeping left off, a hand's
description, the round's requirement, hand order), the round's ``log`` lines printed at its
end, ``text(...)``, the checker's located errors, and a game without the section shown as
before."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

import rulelang
from rulelang.build import check_all
from rulelang.display import hand_text, requirement, sort_hand
from rulelang.errors import RulesError, RulesErrors, reset_hints
from rulelang.play import play_game, show_table
from rulelang.rules import load_rules

from .helpers import GAMES


def screen(state: Any, seat: int = 0) -> str:
    con = Console(record=True, width=200, color_system=None)
    show_table(con, state, seat)
    return con.export_text()


def problems(tmp_path: Path, display: str, extra: str = "") -> list[str]:
    """The checker's messages (with their places) for a Thirty-One variant with ``display``."""
    f = tmp_path / "v.yaml"
    f.write_text(f"extends: thirty-one\n{extra}display:\n{display}")
    reset_hints()
    try:
        errors, _ = check_all(load_rules(str(f)))
    except RulesErrors as e:
        errors = e.errors
    except RulesError as e:
        errors = [e]
    return [e.render() for e in errors]


@pytest.mark.parametrize("display, want", [
    ("  shown: {livs: lives}\n", "v.yaml:3:11: error: display.shown: 'livs' is neither a "
                                 "global nor a counter (did you mean 'lives'?)"),
    ("  shown: {lives: {label: l, format: yes-no}}\n", "format 'yes-no' of 'lives' is not one of"),
    ("  hand: hand_nme\n", "display.hand 'hand_nme' is not a function of the rules file "
                           "(did you mean 'hand_name'?)"),
    ("  hand: blitzed\n", "display.hand 'blitzed' must give text (or none to show nothing), "
                          "not bool"),
    ("  hand: heuristic\n", "display.hand 'heuristic' must give text"),
    ("  hand: lose\n", "display.hand 'lose' is not a function of the rules file"),
    ("  hand: {describe: hand_name, when: \"size(hand[me])\"}\n",
     "display.hand.when must be a condition, not int"),
    ("  requirement: size(stock)\n", "display.requirement must give text (or none), not int"),
    ("  sort: suits\n", "display.sort 'suits' is not suit, rank, none or a function of the "
                        "rules file (did you mean 'suit'?)"),
    ("  sort: hand_name\n", "display.sort 'hand_name' must give a number to sort by, not str"),
    ("  sort: blitzed\n", "display.sort 'blitzed' must give a number to sort by, not bool"),
])
def test_the_checker_locates_display_errors(tmp_path: Path, display: str, want: str) -> None:
    got = problems(tmp_path, display)
    assert any(want in m for m in got), got
    assert all("v.yaml:3:" in m for m in got), got  # each at its place in the file


def test_a_function_of_two_arguments_is_refused(tmp_path: Path) -> None:
    got = problems(tmp_path, "  hand: two\n", "functions:\n  two(a, b): text(a, b)\n")
    assert any("display.hand 'two' must take one argument (the hand's cards), not 2" in m
               for m in got), got


def test_a_removed_counter_takes_its_inherited_display_along() -> None:
    # Cut-throat removes Thirty-One's lives, which Thirty-One's display shows
    assert check_all(load_rules("thirty-one-cut-throat"))[0] == []
    shown = rulelang.load("thirty-one-cut-throat").display.shown
    assert [e.name for e in shown] == ["knocker", "tokens"]


def test_bookkeeping_is_left_off_the_screen_but_not_the_view() -> None:
    for name, hidden in (("thirty-one-switch", ["renewed", "restarted", "declined"]),
                         ("greek-31", ["cur:", "banker:", "dealt:"]),
                         ("ten-pennies", ["stage:", "offeree:", "wild_ranks:", "live:",
                                          "paid:", "buys:"])):
        state = rulelang.load(name).new_state(3, seed=2, dealer=0)
        text = screen(state, state.current_player())
        assert not [h for h in hidden if h in text], (name, text)
        view = state.view(0)
        assert all(h.rstrip(":") in {**view["globals"], **view["counters"]} for h in hidden)


def test_labels_requirement_and_order_in_ten_pennies() -> None:
    state = rulelang.load("ten-pennies").new_state(3, seed=2, dealer=0)
    text = screen(state)
    assert "round 1: 2 sets of 3, deuces wild" in text
    assert "penalty points: you=0" in text and "pennies: you=10" in text
    assert "penalty points if caught" in text
    assert requirement(state, 0) == "2 sets of 3, deuces wild"
    hand = sort_hand(state, ["KS", "2H", "KD", "3C"])
    assert hand == ["2H", "3C", "KS", "KD"]  # by rank, then suit


def test_a_hand_is_described_and_only_when_the_rules_say() -> None:
    g = rulelang.load("stop-the-bus")
    ids = g.tables.ids_by_name()
    fn = g.functions["hand_name"].fn
    state = g.new_state(3, seed=1, dealer=0)
    assert fn(state, [ids[c][0] for c in ("AD", "AS", "AH")]) == "prial of aces"
    assert fn(state, [ids[c][0] for c in ("7D", "7S", "KH")]) == "pair of sevens"
    assert fn(state, [ids[c][0] for c in ("5H", "6H", "7H")]) == "running flush to the seven"
    t = rulelang.load("thirty-one").new_state(3, seed=1, dealer=0)
    hz = t.game.hand_zone()
    seat = t.current_player()
    assert " in " in hand_text(t, seat, hz.first_id + seat)
    t.apply("draw stock")  # four cards mid-turn: no description
    assert hand_text(t, seat, hz.first_id + seat) == ""
    assert "your hand:" not in screen(t, seat) and "hand_value" not in screen(t, seat)


def test_text_writes_values_for_people(tmp_path: Path) -> None:
    f = tmp_path / "v.yaml"
    f.write_text("extends: thirty-one\nfunctions:\n"
                 "  said(p): text(seat_name(p), ' holds ', hand[p], ', ', players, true, "
                 "7 / 7, [1, 2], dealer)\n")
    g = rulelang.load(str(f))
    state = g.new_state(3, seed=1, dealer=0)
    hz = g.hand_zone()
    names = [g.tables.name[c] for c in state.zones[hz.first_id + 1]]
    assert g.functions["said"].fn(state, 1) == (
        f"P1 holds {' '.join(names)}, P0, P1, P2yes11, 2P0")


def _play(name: str, inputs: int, seed: int = 1, **kw: Any) -> str:
    game = rulelang.load(name, kw) if kw else rulelang.load(name)
    con = Console(record=True, width=200, color_system=None)
    feed = iter(["1"] * inputs)

    def answer(_prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None
    play_game(game, 2, 0, ["random", "random"], seed, input_fn=answer, console=con)
    return con.export_text()


def test_the_round_end_says_why() -> None:
    out = _play("thirty-one", 40)
    assert "round 1 over" in out
    end = out[out.index("round 1 over"):]
    assert any(why in end for why in ("knocked; lowest:", "blitz by", "the stock ran out")), end
    out = _play("tonk", 40)
    end = out[out.index("round 1 over"):]
    assert any(why in end for why in ("went out", "dropped with", "tonk on the deal",
                                      "the stock ran out")), end


def test_without_a_display_the_screen_is_as_before(tmp_path: Path) -> None:
    f = tmp_path / "plain.yaml"
    f.write_text("extends: thirty-one\nremove: [display.shown, display.hand]\n")
    g = rulelang.load(str(f))
    state = g.new_state(4, seed=3, dealer=0)
    state.apply("knock")
    text = screen(state, 0)
    assert "knocker: P1" in text and "your hand_value:" in text and "knocked:" not in text
    assert (GAMES / "thirty-one.yaml").exists()


def test_a_value_meaning_not_yet_is_shown_as_a_dash() -> None:
    # Spades' bid is -1 until the seat bids: `unset: -1` shows '-' instead of the sentinel
    state = rulelang.load("spades").new_state(4, seed=1, dealer=0)
    text = screen(state)
    assert "bid: you=-" in text and "-1" not in text


def test_log_lines_are_worked_out_only_when_messages_are_kept(tmp_path: Path) -> None:
    # simulate and search never read the rules' log lines: their text (a rules function naming
    # a hand, say) is not worked out then (Thirty-One's round ends cost ~18% of its decisions)
    p = tmp_path / "v.yaml"
    p.write_text("extends: thirty-one\nround:\n  start:\n    - gather(stock); shuffle(stock)\n"
                 "    - \"log(text('a sum: ', sum(range(5000))))\"\n"
                 "    - deal(stock, hand, 3)\n    - move(top(stock), discard)\n",
                 encoding="utf-8")
    game = rulelang.load(str(p))
    kept = game.new_state(3, seed=1, dealer=0, record=True)
    not_kept = game.new_state(3, seed=1, dealer=0, record=False)
    assert "a sum: 12497500" in kept.messages and not not_kept.messages
    assert not_kept.work_done + 5000 <= kept.work_done
    assert kept.legal_moves() == not_kept.legal_moves()
