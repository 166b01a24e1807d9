"""Every way a bundled game's round can end comes about in a random-games test.

Random play reaches some endings seldom or never: a Tonk hand almost always ends by a drop, so
its empty stock and going out rest on scenarios alone, and a Thirty-One round almost never
lasts until the stock runs out. Here each bundled game has **drives**, each aimed at one ending: the
options it is played with and how its random players are steered — moves of some actions
avoided (`knock`, `drop`) or preferred (`spread`, `restart`), and a share of the decisions taken
greedily by the game's own heuristic played on the true state (a peek no real player has, which
makes good hands, and so blitzes, come quickly). A drive plays seeded games until its ending
has come (a game stops there, mid-match), checking after every decision that every card is in
exactly one zone and every sum the rules declare under `conserved:` is unchanged, as
tests/test_simulation.py does for plain random play. The test fails when a drive misses its
ending, and when the endings of a game's drives are not all its `ended_by` names.

A steered match need not end (nobody who never knocks loses a life): a game also stops after
``MAX_DECISIONS`` decisions; that every unsteered game ends is tests/test_simulation.py's to
show. The default costs ~1.5 s of CPU, most of it loading the games; with
``RULELANG_SIM_DECISIONS=0`` (``make test-long``) every drive plays all its ``LONG_GAMES`` games
instead of stopping at the first that reaches its endings.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.runtime import LIMIT, WORK

from .helpers import rules_files, short_options

LONG = os.environ.get("RULELANG_SIM_DECISIONS", "") == "0"
LONG_GAMES = 30
MAX_GAMES = 40  # a drive that has not reached its endings by then fails
MAX_DECISIONS = 5_000


@dataclass(frozen=True)
class Drive:
    """Random play steered toward the round endings ``ends``."""

    ends: tuple[str, ...]
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    avoid: tuple[str, ...] = ()  # actions never chosen while another move is legal
    prefer: tuple[str, ...] = ()  # actions always chosen when legal
    greedy: float = 0.0  # the share of the other decisions that peek with the heuristic


NO_KNOCK = ("knock",)
# the options that are off by default are played in one drive of their game each
THIRTY_ONE = [Drive(("knock",), 4),
              Drive(("stock_exhausted",), 3, {"throw_back": True}, avoid=NO_KNOCK),
              Drive(("blitz",), 3, avoid=NO_KNOCK, greedy=1.0)]
DRIVES: dict[str, list[Drive]] = {
    "thirty-one": THIRTY_ONE,
    "thirty-one-three-of-a-kind": THIRTY_ONE,
    "thirty-one-dutch": THIRTY_ONE,
    "thirty-one-cut-throat": THIRTY_ONE,
    "thirty-one-no-elimination": THIRTY_ONE,
    # an exchange with the widow draws nothing: without it the stock runs down
    "thirty-one-banking": [
        THIRTY_ONE[0],
        Drive(("stock_exhausted",), 3, {"throw_back": True}, avoid=("knock", "exchange")),
        THIRTY_ONE[2]],
    "thirty-one-switch": [
        Drive(("knock",), 4), Drive(("turn_limit",), 3, avoid=NO_KNOCK),
        Drive(("blitz",), 3, avoid=NO_KNOCK, greedy=1.0),
        Drive(("restart",), 3, {"restart": True, "renew_choice": True, "knock_after_renew": False},
              prefer=("restart",), greedy=0.5)],
    "stop-the-bus": [Drive(("knock",), 4), Drive(("turn_limit",), 3, avoid=NO_KNOCK)],
    "greek-31": [Drive(("showdown", "dealer_bust", "dealer_31"), 4)],
    "greek-31-heath": [Drive(("showdown", "dealer_bust", "dealer_31"), 4)],
    "tonk": [
        # rounds of one decision each, many deals: one of them is a tonk
        Drive(("drop", "tonk"), 4, prefer=("drop",)),
        Drive(("out",), 2, avoid=("drop",), prefer=("spread", "hit")),
        Drive(("stock_exhausted",), 2, avoid=("drop", "spread", "hit"))],
    # two players seldom go out before the stock runs out, three who lay down all they can do
    "ten-pennies": [Drive(("stock_exhausted",), 2), Drive(("out",), 3, prefer=("meld", "layoff"))],
    "texas-holdem": [Drive(("fold", "showdown"), 3)],
    # five hands of five leave a stock of 26: eights held back, it runs out before a hand does
    "crazy-eights": [Drive(("out",), 4), Drive(("blocked",), 5, avoid=("eight",))],
    "uno": [Drive(("out",), 4, avoid=("draw",))],
    # a short match: shows, then a win (in the play or the show)
    "cribbage": [Drive(("counted", "won"), 2, {"target": 31})],
    "blackjack": [
        Drive(("showdown", "house_natural"), 3),
        Drive(("showdown", "house_natural"), 3,
              {"dealer_hits_soft_17": True, "resplit": True, "surrender": True,
               "insurance": True, "double_after_split": False}, prefer=("split", "insure"))],
}

FILES = rules_files()


def _of(move: str, actions: tuple[str, ...]) -> bool:
    """Whether ``move`` is a move of one of ``actions`` (names may hold spaces)."""
    return any(move == a or move.startswith(a + " ") for a in actions)


def _peek(state: Any, i: int, seat: int) -> float:
    """The game's heuristic for ``seat`` after move ``i``, played on a clone of the true
    state (the hidden cards as they are: a driver, not a player)."""
    s = state.clone()
    s.auto_continue = False
    s.apply_index(i)
    WORK[0] = LIMIT[0] = s.max_work  # the heuristic is no step: it gets an allowance here
    game = state.game
    return float(game.functions[game.heuristic].fn(s, seat))


def choose(state: Any, drive: Drive, rng: random.Random) -> int:
    """The drive's choice for the seat to move, as an index into ``legal_moves()``."""
    if not (drive.avoid or drive.prefer or drive.greedy):
        return int(rng.random() * state.num_moves())
    moves = state.legal_moves()
    seat = state.current_player()
    pick = [i for i, m in enumerate(moves) if _of(m, drive.prefer)]
    if pick:
        return pick[int(rng.random() * len(pick))]
    pick = [i for i, m in enumerate(moves) if not _of(m, drive.avoid)] or list(range(len(moves)))
    if len(pick) > 1 and drive.greedy and rng.random() < drive.greedy:
        scores = [_peek(state, i, seat) for i in pick]
        best = max(scores)
        pick = [i for i, v in zip(pick, scores) if v == best]
    return pick[int(rng.random() * len(pick))]


def conserved(game: Any, state: Any) -> dict[str, float]:
    return {name: float(u(state)) for name, u in game.conserved}


def play(game: Any, drive: Drive, seed: int, until: set[str]) -> list[str | None]:
    """One checked game steered by ``drive``: the endings of its rounds, in order. The game
    stops once a round has ended in each of the ways ``until`` names (or it is over, or has
    made ``MAX_DECISIONS`` decisions)."""
    state = game.new_state(drive.players, seed=seed, record=False)
    rng = random.Random(seed)
    where = f"the {drive.ends} drive, seed {seed}"
    start = conserved(game, state)
    assert state.check_invariants() == [], f"{where}: after the first deal"
    until = set(until)
    decisions = seen = 0
    while not state.is_over() and decisions < MAX_DECISIONS:
        until.difference_update(r[0] for r in state.round_results[seen:])
        seen = len(state.round_results)
        if not until:
            break
        decisions += 1
        i = choose(state, drive, rng)
        state.apply_index(i)
        problems = state.check_invariants()
        assert problems == [], f"{where}, decision {decisions}: {problems[:3]}"
        now = conserved(game, state)
        for name, v in start.items():
            assert abs(now[name] - v) < 1e-9, (
                f"{where}, decision {decisions}: conserved '{name}' went from {v} to {now[name]}")
    return [r[0] for r in state.round_results]


def test_every_bundled_game_has_drives() -> None:
    assert sorted(DRIVES) == sorted(p.stem for p in FILES)


@pytest.mark.simulation
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_ending_comes_about(path: Path) -> None:
    short = short_options(path)
    games: dict[str, Any] = {}
    seen: set[str | None] = set()
    for k, drive in enumerate(DRIVES[path.stem]):
        options = {**short, **drive.options}
        if repr(options) not in games:  # the drives of one set of options share its game
            games[repr(options)] = rulelang.load(str(path), options=options)
        game = games[repr(options)]
        ends: set[str | None] = set()
        for g in range(LONG_GAMES if LONG else MAX_GAMES):
            ends.update(play(game, drive, 1000 * k + g,
                             set(drive.ends) if LONG else set(drive.ends) - ends))
            if ends >= set(drive.ends) and not LONG:
                break
        assert ends >= set(drive.ends), (
            f"{path.stem}: the drive toward {', '.join(drive.ends)} ended rounds only by "
            f"{sorted(ends, key=str)}")
        seen |= ends
    names = set(game.ended_by)
    assert seen - {None} <= names
    assert names <= seen, f"{path.stem}: no drive brought about {sorted(names - seen)}"
