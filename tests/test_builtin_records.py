"""The one table of built-ins (builtins.BUILTINS): every record is whole, the engine provides
what the state's records promise, and the checker reads the records (a wrong kind of argument
is an error found before play)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.builtins import BUILTINS
from rulelang.engine import State
from rulelang.errors import RulesError

from .helpers import THIRTY_ONE, write_variant


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_each_record_is_whole(name: str) -> None:
    b = BUILTINS[name]
    assert b.name == name and 0 <= b.min_args <= b.max_args <= len(b.kinds)
    assert set(b.kinds) <= set("xlfzn")
    if b.state:
        assert b.impl is None and callable(getattr(State, f"fx_{name}", None))
    elif b.meld:
        assert b.impl is None and not b.effect
    else:
        assert callable(b.impl) and not b.effect
    assert not (b.effect and not b.state)


def _with_global(tmp_path: Path, expr: str) -> Path:
    return write_variant(THIRTY_ONE, tmp_path / "g.yaml",
                         ("taken: none ", f"taken: none\n  probe: {expr}\n  junk: none "))


def test_median_is_one_record(tmp_path: Path) -> None:
    game = rulelang.load(str(_with_global(tmp_path, "median([5, 1, 4])")))
    s = game.new_state(3, seed=1)
    assert s.view(0)["globals"]["probe"] == 4


def test_an_argument_of_the_wrong_kind_is_a_check_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=r"median\(\) needs a list or a zone, not int"):
        rulelang.load(str(_with_global(tmp_path, "median(3)")))
