"""Who deals first (issue 20): ``match.first_dealer: cut(players)``. Each seat cuts a card from
a freshly shuffled deck (the state's seeded generator), the highest deals, the seats tied for
highest cut again; every cut is public (each view, the log, ``play``); the cards stay where they
lie; a scenario's ``dealer:`` seat takes the cut's place and nothing is drawn."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import RulesError, RuntimeRulesError
from rulelang.limits import MAX_CUTS
from rulelang.scenario import run_scenario

from .helpers import THIRTY_ONE, assert_no_traceback, output, run_cli, write_variant

CUT = "  first_dealer: cut(players)\n"


def _variant(tmp_path: Path, *subs: tuple[str, str]) -> Path:
    return write_variant(THIRTY_ONE, tmp_path / "g.yaml", *subs)


def _hands(s: Any) -> list[list[str]]:
    return [s.view(p)["zones"]["hand"][p] for p in range(s.n)]


def test_tied_seats_cut_again_from_the_cards_left() -> None:
    game = rulelang.load("thirty-one")
    order = game.tables.order
    s = next(s for seed in range(200) if len((s := game.new_state(4, seed=seed)).cuts) > 1)
    first, again = s.cuts[0], s.cuts[1]
    best = max(order[c] for _p, c in first)
    assert [p for p, _c in again] == [p for p, c in first if order[c] == best]
    assert not {c for _p, c in again} & {c for _p, c in first}  # the cut cards are not back yet
    assert s.messages[0].startswith("cut: P0 ") and "; " in s.messages[0]
    assert s.dealer == max(s.cuts[-1], key=lambda pc: order[pc[1]])[0]


def test_the_cards_stay_where_they_lie(tmp_path: Path) -> None:
    # without the deal's shuffle the hands come from the deck in deck order, cut or no cut
    path = _variant(tmp_path, ("gather(stock); shuffle(stock)", "gather(stock)"))
    game = rulelang.load(str(path))
    s = game.new_state(4, seed=8)
    assert s.cuts
    assert _hands(s) == _hands(game.new_state(4, seed=8, dealer=s.dealer))


def test_an_order_of_the_rules_file(tmp_path: Path) -> None:
    # aces low, by a value table; and the name of a function of the rules file
    table = "  cut_rank: {A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, " \
            "Q: 12, K: 13}\n"
    for how in ("c -> cut_rank[c.rank]", "low_ace"):
        path = _variant(tmp_path, (CUT, f"  first_dealer: cut(players, {how})\n"),
                        ("values:\n", "values:\n" + table),
                        ("functions:\n", "functions:\n  low_ace(c): cut_rank[c.rank]\n"))
        game = rulelang.load(str(path))
        rank = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
        for seed in range(30):
            s = game.new_state(3, seed=seed)
            last = s.cuts[-1]
            value = [rank.get(game.tables.name[c][0]) or int(game.tables.name[c][0])
                     for _p, c in last]
            assert dict(zip([p for p, _c in last], value))[s.dealer] == max(value)
            assert value.count(max(value)) == 1


def test_each_call_is_a_cut_of_its_own(tmp_path: Path) -> None:
    # a call that names none of a comprehension's variables is made once per pass (hoist.py),
    # but not a cut: each is a draw
    path = _variant(tmp_path, (CUT, '  first_dealer: "first([cut(players) for i in range(3)])"\n'))
    s = rulelang.load(str(path)).new_state(4, seed=1)
    assert len(s.messages) == 3 and len(s.cuts) >= 3


@pytest.mark.parametrize("where, sub", [
    ("a global", ("  taken: none ", "  taken: none\n  probe: cut(players)\n  junk: none ")),
    ("match.start", (CUT, CUT + "  start: dealer = cut(players)\n")),
    ("a trigger", ("  knock: knocker != none and turn == knocker",
                   "  knock: knocker != none and turn == cut(players)")),
    ("a function", ("functions:\n", "functions:\n  pick(): cut(players)\n")),
])
def test_cut_is_allowed_in_match_first_dealer_alone(tmp_path: Path, where: str,
                                                    sub: tuple[str, str]) -> None:
    path = _variant(tmp_path, sub)
    with pytest.raises(RulesError, match=r"cut\(\) draws at random while the game is set up: "
                                         r"it may only be used in match.first_dealer"):
        rulelang.load(str(path))


def test_what_cut_refuses(tmp_path: Path) -> None:
    for arg, msg in [("[0, 9]", "cut(): 9 is not a seat"), ("[]", "cut(): no seat to cut")]:
        game = rulelang.load(str(_variant(tmp_path, (CUT, f"  first_dealer: cut({arg})\n"))))
        with pytest.raises(RuntimeRulesError, match=re.escape(msg)):
            game.new_state(4, seed=1)
    # an order that ranks no card above another ties for ever: an error, located at its text
    path = _variant(tmp_path, (CUT, "  first_dealer: cut(players, c -> 0)\n"))
    r = run_cli("simulate", str(path), "--games", "1")
    assert r.returncode == 1, output(r)
    assert_no_traceback(r)
    assert f"still tied after {MAX_CUTS} cuts" in output(r)
    assert f"g.yaml:{_line_of(path, 'first_dealer')}:" in output(r)


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_given_dealer_takes_the_cuts_place(tmp_path: Path) -> None:
    # no cut is drawn: the deal is the one a game without a cut deals with that seed
    game = rulelang.load("thirty-one")
    plain = rulelang.load(str(_variant(tmp_path, (CUT, ""))))
    s = game.new_state(4, seed=5, dealer=2)
    assert s.cuts == () and s.dealer == 2
    assert _hands(s) == _hands(plain.new_state(4, seed=5, dealer=2))
    assert plain.new_state(4, seed=5).cuts == ()


def test_a_scenario_deals_from_seat_0_unless_it_says_dealer_rules(tmp_path: Path) -> None:
    cut = rulelang.load("thirty-one").new_state(4, seed=4).dealer
    assert cut != 0
    for dealer, want in [("", 0), ("dealer: 3\n", 3), ("dealer: rules\n", cut)]:
        p = tmp_path / "s.scenario.yaml"
        p.write_text(f"game: thirty-one\nplayers: 4\nseed: 4\n{dealer}expect: {{dealer: {want}}}\n")
        out = run_scenario(p, str(p))
        assert out.ok, (dealer, out.reason)
    p.write_text("game: thirty-one\ndealer: somebody\n")
    with pytest.raises(RulesError):
        run_scenario(p, str(p))


def test_play_shows_the_cut() -> None:
    r = run_cli("play", "tonk", "--players", "4", "--seed", "4", stdin="q\n")
    assert r.returncode == 0, output(r)
    lines = [line.strip() for line in r.stdout.splitlines()]
    assert "cut for the deal: you 10♥, P1 6♦, P2 10♣, P3 6♥" in lines
    assert "cut again: you 5♠, P2 K♣" in lines
    assert "P2 deals first" in lines
