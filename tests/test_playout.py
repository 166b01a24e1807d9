"""What the search's cheaper iterations keep as it was: a ``views.Sampler`` made once for a
decision deals the same samples, draw for draw, as ``State.determinize`` called afresh for each."""

from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.views import Sampler


@pytest.mark.parametrize("name", ["thirty-one", "gin-rummy", "hearts", "texas-holdem", "uno"])
@pytest.mark.parametrize("known", [False, True])
def test_a_sampler_deals_what_determinize_deals(name: str, known: bool) -> None:
    g = rulelang.load(name)
    s = g.new_state(None, seed=2, record=False)
    rng = random.Random(2)
    s.track_known()
    for _ in range(12):  # some cards seen going into hidden places (known.py)
        if s.is_over() or s.status != "play":
            break
        s.apply_index(int(rng.random() * s.num_moves()))
    seat = s.current_player()
    if seat is None:
        return
    a, b = random.Random(7), random.Random(7)
    sample = Sampler(s, seat, known).sample
    for _ in range(4):
        x, y = sample(a), s.determinize(seat, b, known)
        assert x.zones == y.zones and x.loc == y.loc and x.face == y.face
        assert x.g == y.g and x.ctr == y.ctr
        assert x.rng.random() == y.rng.random()  # each sample's generator seeded alike
    assert a.random() == b.random()
