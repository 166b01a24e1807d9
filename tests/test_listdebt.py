"""A listing's kept calls reached again, charged at its end (listdebt.py): the same moves, the
same work and, where the work allowance runs out in a listing, the same error as charging each
where it falls."""

from __future__ import annotations

import random
from typing import Any

import pytest

import rulelang.engine as engine
import rulelang.flowgen as flowgen
from rulelang.errors import RuntimeRulesError

from .helpers import fresh_load


def _play(game: Any, seeds: int = 3, steps: int = 80) -> list[Any]:
    out: list[Any] = []
    for seed in range(seeds):
        rng = random.Random(seed)
        try:
            s = game.new_state(None, seed=seed, record=False)
            for _ in range(steps):
                if s.is_over():
                    break
                n = s.num_moves()
                out.append((n, s.work_done, s.legal_moves()))
                s.apply_index(int(rng.random() * n))
        except RuntimeRulesError as e:  # the allowance ran out: where, and what it says
            out.append(e.render())
    return out


@pytest.mark.parametrize("name", ["hearts", "spades"])
def test_charges_at_the_end_play_as_charges_in_place(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    later = fresh_load(name)
    assert "_Dap(" in "\n".join(t for t, _s in later.generated.sources)
    monkeypatch.setattr(flowgen, "deferred", lambda lines, ns: None)
    in_place = fresh_load(name)
    assert "_Dap(" not in "\n".join(t for t, _s in in_place.generated.sources)
    assert _play(later) == _play(in_place)
    # allowances so small that a step runs out, in a listing (the when of the play) for all
    # but the smallest: the listing made again with each charge in place raises it there
    for limit in (40, 90, 150, 260, 400):
        monkeypatch.setattr(engine, "MAX_WORK", limit)
        monkeypatch.setattr(flowgen, "deferred", lambda lines, ns: None)
        a = _play(fresh_load(name), 2, 40)
        monkeypatch.undo()
        monkeypatch.setattr(engine, "MAX_WORK", limit)
        b = _play(fresh_load(name), 2, 40)
        assert a == b
