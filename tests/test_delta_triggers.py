"""Triggers checked only when a step wrote something they read (rulelang/deps.py).

The check after a step is exact only if every trigger it leaves out is false then. These tests
play random games of every bundled game and, at every decision, evaluate every trigger: none
may hold (one that held should have ended the round). The games must also be the very same
moves as with every trigger checked after every step.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rulelang
from rulelang import nodes as N
from rulelang.deps import ALL, Deps, plan
from rulelang.game import Game

from .engine_transcripts import game_files, short_options
from .helpers import fresh_load

GAMES = game_files()


def _deps(game: Game) -> Deps:
    doc = game.doc
    return Deps(doc, [z.name for z in game.zones], [n for n, _ in game.counters],
                [n for n, _ in game.globals], game.functions, {},
                {z.name for z in game.zones if z.per_player})


def _load(path: Any) -> Game:
    g = rulelang.load(str(path), allow_any_path=True)
    return rulelang.load(str(path), short_options(g), allow_any_path=True)


def _play(game: Game, seed: int, check_every: bool, decisions: int = 400) -> list[Any]:
    """The moves of one random game (at most ``decisions``); with ``check_every``, every
    trigger is evaluated at every decision and must be false."""
    s = game.new_state(seed=seed, record=False)
    rng = random.Random(seed)
    out: list[Any] = []
    while not s.is_over() and len(out) < decisions:
        if s.round_over():
            s.next_round()
            continue
        if check_every:
            for name, when, _do, _ends in game.triggers:
                assert not when(s.clone()), f"trigger '{name}' holds at a decision"
        n = s.num_moves()
        i = int(rng.random() * n)
        out.append((s.round, s.phase, s.actor, n, i))
        s.apply_index(i)
    out.append(s.result())
    return out


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_no_trigger_holds_at_a_decision(path: Any) -> None:
    game = _load(path)
    if not all(ends for _n, _w, _d, ends in game.triggers):
        pytest.skip("a trigger that does not end the round: every trigger is always checked")
    for seed in range(4):
        _play(game, seed, check_every=True)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_same_games_as_checking_every_trigger(path: Any) -> None:
    delta = _load(path)
    full = _load(path)
    for ph in full.phases.values():
        for a in ph.actions:
            a.check_after = None
            a.step = None  # the engine's own path, every trigger after every step
    for seed in range(4):
        assert _play(delta, seed, False) == _play(full, seed, False)


def test_thirty_one_plan() -> None:
    """What Thirty-One's steps can change: a stand changes no hand (no blitz), a draw
    changes neither the knocker nor the turn (no knock); a knock or a discard may change all.
    A draw or a discard changes the mover's hand only: blitz is asked of the mover alone."""
    game = rulelang.load("thirty-one")
    names = [t[0] for t in game.triggers]
    got = {k: [names[i] + ("@mover" if f else "") for i, f in v]
           for k, v in plan(game, _deps(game)).items()}
    assert got == {
        ("draw", "draw stock"): ["blitz@mover", "stock_exhausted"],
        ("draw", "draw discard"): ["blitz@mover", "stock_exhausted"],
        ("draw", "knock"): ["blitz", "knock", "stock_exhausted"],
        ("draw", "stand"): ["knock", "stock_exhausted"],
        ("discard", "discard"): ["blitz@mover", "knock", "stock_exhausted"],
    }


def test_seat_form() -> None:
    game = rulelang.load("thirty-one")
    d = _deps(game)
    form = d.seat_form(d.parse_expr("(knocker == none or opt.blitz_after_knock) and "
                                    "any(blitzed(p) for p in players)"))
    assert form is not None
    plain, per, v, _tree = form
    assert (plain, per, v) == ({"g:knocker", "players"}, {"z:hand"}, "p")
    # another seat's hand is read: any change of a hand needs the whole trigger
    assert "z:hand" in d.seat_form(d.parse_expr(
        "any(size(hand[next_seat(p)]) == 0 for p in players)"))[0]
    assert d.seat_form(d.parse_expr("any(hand_value(hand[p]) > lives[p] for p in players)"))[1] \
        == {"z:hand", "c:lives"}
    assert d.seat_form(d.parse_expr("any(let p = 0; size(hand[p]) == 0 for p in players)")) \
        is None


def test_step_writes_tell_the_movers_own_zone() -> None:
    game = rulelang.load("thirty-one")
    d = _deps(game)
    args = {"c": d.parse_expr("hand[me]")}
    assert d.step_writes(d.parse_stmts("move(c, discard)"), args) == {"z:hand@me", "z:discard"}
    assert d.step_writes(d.parse_stmts(["taken = top(discard)", "move(taken, hand[me])"]),
                         {}) == {"g:taken", "z:discard", "z:hand@me"}
    # once a card has moved, a name no longer tells where its card is
    assert "z:stock" in d.step_writes(d.parse_stmts(
        ["move(top(discard), hand[me])", "move(c, discard)"]), args)
    assert "z:hand" in d.step_writes(d.parse_stmts(
        ["c = top(discard)", "if size(stock) > 0 { c = top(stock) }", "move(c, hand[me])"]), {})
    assert "z:hand" in d.step_writes(d.parse_stmts(
        ["for me in players { pass }", "move(top(stock), hand[me])"]), {})
    # only a zone of each player has an own part for the mover
    d.per_player = set()
    assert d.step_writes(d.parse_stmts("move(top(stock), hand[me])"), {}) == {"z:stock",
                                                                            "z:hand"}


def test_reads_and_writes() -> None:
    game = rulelang.load("thirty-one")
    d = _deps(game)
    when = d.parse_expr("(knocker == none or opt.blitz_after_knock) and "
                        "any(blitzed(p) for p in players)")
    assert d.reads(when) == {"g:knocker", "players", "z:hand"}
    assert d.reads(d.parse_expr("owner(top(stock)) == me")) == {ALL}
    assert d.writes(d.parse_stmts("lose(me, 1)")) == {"c:lives", "players"}
    assert d.writes(d.parse_stmts(["knocker = me", "shuffle(stock)"])) == {"g:knocker",
                                                                          "z:stock"}
    moves = d.writes(d.parse_stmts("move(top(stock), discard)"))
    assert moves == {"z:stock", "z:discard", "z:hand"}  # a card leaves a zone that is not named
    assert d.writes(d.parse_stmts("deal(stock, hand, 3)")) == {"z:stock", "z:hand"}
    assert d.writes(d.parse_stmts("super(me)")) == {ALL}
    assert isinstance(d.parse_expr("size(stock) == 0"), N.Node)


def test_a_trigger_that_does_not_end_the_round_is_always_checked() -> None:
    game = fresh_load("thirty-one")  # changed below: not the run's shared compilation
    d = _deps(game)
    name, when, do, _ends = game.triggers[0]
    game.triggers[0] = (name, when, do, False)
    assert set(plan(game, d).values()) == {((0, None), (1, None), (2, None))}


def test_an_action_not_found_in_the_rules_checks_every_trigger() -> None:
    game = fresh_load("thirty-one")  # changed below: not the run's shared compilation
    game.phases["draw"].actions[3].name = "wait"  # was stand: its effects cannot be read
    assert plan(game, _deps(game))[("draw", "wait")] == ((0, None), (1, None), (2, None))


def test_a_determinized_sample_checks_every_trigger() -> None:
    """A sample places hidden cards anew (a hand may now be a 31): its next step checks every
    trigger, as a state after a deal does."""
    game = rulelang.load("thirty-one")
    s = game.new_state(4, seed=5, record=False)
    assert s.triggers_clean
    sample = s.determinize(s.current_player(), random.Random(1))
    assert not sample.triggers_clean
    sample.apply("stand" if "stand" in sample.legal_moves() else "knock")
    assert sample.triggers_clean or sample.round_over()


def _engine_path(game: Game) -> Game:
    for ph in game.phases.values():
        for a in ph.actions:
            a.step = None
    return game


def test_generated_steps_cover_plain_actions() -> None:
    """rulelang/fuse.py writes the step of every Thirty-One action, and of Crazy Eights'
    (whose turn has start effects), each with its effects as one function (``act``)."""
    for name in ("thirty-one", "crazy-eights"):
        game = rulelang.load(name)
        assert all(a.step is not None and a.act is not None
                   for ph in game.phases.values() for a in ph.actions)


@pytest.mark.parametrize("limit", ["max_round_steps", "max_game_steps"])
def test_generated_steps_stop_at_the_same_limits(limit: str) -> None:
    errors = []
    for game in (rulelang.load("thirty-one"), _engine_path(rulelang.load("thirty-one"))):
        s = game.new_state(4, seed=3, record=False, **{limit: 5})
        with pytest.raises(rulelang.errors.RuntimeRulesError) as e:
            for _ in range(50):
                s.apply_index(0)
        errors.append((str(e.value), s.decisions, s.phase))
    assert errors[0] == errors[1]
    assert "steps" in errors[0][0]
