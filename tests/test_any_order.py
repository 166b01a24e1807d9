"""Several cards in one argument (a list of cards, or melds separated by ``|``) may be typed in
any order: ``meld AH 2C AS | 9D 9H 9S`` is the legal ``meld 9S 9H 9D | 2C AS AH``, in play,
scenarios and replays alike (``movetext.any_order``, asked only when the text is not a legal
move's as typed)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.errors import IllegalMove
from rulelang.scenario import run_scenario

GAMES = Path(__file__).resolve().parent.parent / "games"

PENNIES = """\
game: {game}
players: 2
dealer: 0
deal:
  hand:
    - [3S, 3H, 4S, 5S, 6S, 7S, TS, JS, QH, KH, 3C]
    - [JK, JK, 2C, 9S, 9H, 9D, AS, AH, KS, QS, 5C]
  discard: [4H]
moves:
  - "1: take"
  - "1: {meld}"
expect:
  sizes: {{hand: [11, 6]}}
"""


@pytest.mark.parametrize("meld", ["meld 9S 9H 9D | 2C AS AH", "meld AH 2C AS | 9D 9H 9S",
                                  "meld as ah 2c|9h 9s 9d", "meld 9D 9S 9H | 2C AH AS"])
def test_melds_in_any_order_in_a_scenario(tmp_path: Path, meld: str) -> None:
    f = tmp_path / "m.scenario.yaml"
    f.write_text(PENNIES.format(game=GAMES / "ten-pennies.yaml", meld=meld), encoding="utf-8")
    out = run_scenario(f, str(f))
    assert out.ok, out.failures


def test_the_cards_of_a_list_in_any_order() -> None:
    g = rulelang.load("president")
    s = g.new_state(4, seed=0)
    for _ in range(200):  # to the first play of three cards
        moves = s.legal_moves()
        three = [m for m in moves if m.startswith("play ") and len(m.split()) == 4]
        if three:
            break
        s.apply(moves[-1])
    assert three
    cards = three[0].split()[1:]
    a, b = s.clone(), s.clone()
    a.apply(three[0])
    b.apply("PLAY " + " ".join(reversed(cards)).lower())
    assert a.history == b.history  # the same move, recorded by its canonical text
    assert a.view(0) == b.view(0)


def test_another_order_is_no_licence_for_other_moves() -> None:
    g = rulelang.load("ten-pennies")
    s = g.new_state(2, seed=0)
    with pytest.raises(IllegalMove):
        s.apply("meld 9S 9H 9D | 2C AS AH")  # not the mover's cards, nor its phase
    g = rulelang.load("thirty-one")
    s = g.new_state(2, seed=0)
    with pytest.raises(IllegalMove):
        s.apply("stock draw")  # order is free within a list of cards only


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0)])
def test_cards_passed_a_move_at_a_time_typed_at_once(order: tuple[int, int, int]) -> None:
    g = rulelang.load("hearts")  # `pass 3S` three times in a row, by the same seat
    s = g.new_state(4, seed=0)
    p = s.current_player()
    hand = s.view(p)["zones"]["hand"][p][:3]
    one, many = s.clone(), s.clone()
    for c in hand:
        one.apply(f"pass {c}")
    many.apply("Pass " + " ".join(hand[i].lower() for i in order))
    assert sorted(many.history) == sorted(one.history)  # the same moves, in the order typed
    for z in ("hand", "passing"):
        assert sorted(many.view(p)["zones"][z][p]) == sorted(one.view(p)["zones"][z][p])
    with pytest.raises(IllegalMove):  # a card not held: none of them is passed
        s.apply(f"pass {hand[0]} {hand[1]} {next(c for c in g.tables.name if c not in hand)}")
    assert s.decisions == 0
