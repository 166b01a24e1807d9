"""Why a move is refused: the reason comes before the list of legal moves (play, scenarios and
replays all show the engine's message)."""

from __future__ import annotations

import pytest

import rulelang
from rulelang.errors import IllegalMove

HANDS = {"hand": [["2H", "4S", "7C"], ["AS", "KS", "5H"]], "discard": ["4H"]}


def refused(move: str, after: tuple[str, ...] = ()) -> str:
    s = rulelang.load("thirty-one").new_state(2, seed=1, dealer=1, deal=HANDS)
    for m in after:
        s.apply(m)
    with pytest.raises(IllegalMove) as e:
        s.apply(move)
    return e.value.message


@pytest.mark.parametrize("move, after, why", [
    ("drw stock", (), ": did you mean 'draw stock'?; legal: draw stock, draw discard, knock"),
    ("draw", (), ": say which: draw stock, draw discard; legal:"),
    ("discard 2H", (), ": 'discard' is a move of phase 'discard', not of this one ('draw')"),
    ("discard 2C", ("draw discard",), ": '2C' is not one of the choices for 'discard' here"),
    ("discard", ("draw discard",), ": 'discard' needs its choices, like 'discard "),
    ("fly away", (), "now: no move starts that way; the moves now are"),
])
def test_the_reason_comes_first(move: str, after: tuple[str, ...], why: str) -> None:
    msg = refused(move, after)
    assert msg.startswith(f"'{move}' is not a legal move for P0 now")
    assert why in msg, msg
