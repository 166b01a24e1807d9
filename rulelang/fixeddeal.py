"""A scenario's fixed deal (``deal:``, docs/scenarios.md), dealt by the rules' own
``round.start`` from a stacked pack, so that what it works out from the cards (an upcard's
suit, who holds a card) describes the scenario's cards.

A first run, on a copy, deals at random and lays out the scenario's cards over it: the position
the old way gave, with the same random cards in the zones the scenario leaves. Each card of
that run's deal is then matched with the card the scenario put in its place, and round.start
runs again on the state with every card renamed by that matching as soon as its last
``gather`` has made the pack (a gather sorts it, which would undo the renaming), so that its
shuffle and deal bring each card where the scenario put it. What the rules did not deal there
(a hand given more cards than the rules deal it, groups laid on the table) is put in place
afterwards, with the random draws the first run left.

The renaming only holds while round.start does the same with the renamed cards as with the
first run's: a ``round.start`` that turns up cards until one will do (a wild draw four goes
back and the stock is shuffled again) may have met such a card in the random deal that the
scenario's card in its place is not, and then dealt something else. The real run's deal is
checked against the first run's, renamed; where they differ, the first run is made again from
another random deal (up to ``FIXED_DEAL_TRIES``), and only if none agrees is the first kept
(a scenario whose own cards make round.start deal differently: the position is still the
scenario's).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .runtime import WORK

FIXED_DEAL_TRIES = 8  # random first runs tried before the first is kept


def deal_fixed(S: Any, spec: dict[str, Any], round_start: Callable[[Any], None]) -> None:
    """Deal ``S``'s round as ``spec`` (a scenario's ``deal:``) says, by ``round_start``."""
    keep = S.round_results, S.messages  # what a clone does not copy
    start = S.clone()
    work = WORK[0]
    first_try = None
    for attempt in range(FIXED_DEAL_TRIES):
        T = start.clone()
        if attempt:  # another random deal beneath the scenario's cards, the same for a seed
            T.rng = random.Random(f"{S.seed}/fixed deal/{attempt}")
        WORK[0] = work
        if _deal_once(T, spec, round_start):
            break
        if first_try is None:
            first_try = T
    else:
        T = first_try
    S.__dict__.update(T.__dict__)
    S.round_results, S.messages = keep


def _deal_once(S: Any, spec: dict[str, Any], round_start: Callable[[Any], None]) -> bool:
    """One try of the fixed deal on ``S``: whether round.start dealt each card as the first
    run did (renamed). ``S`` is left at the scenario's position either way."""
    first = S.clone()
    work = WORK[0]
    gathers = _watch_gathers(first)
    round_start(first)
    del first.fx_gather
    dealt = [cs[:] for cs in first.zones]
    first.lay_out(spec)
    laid = first.zones
    rename: dict[int, int] = {}
    for z, cs in enumerate(dealt):
        rename.update(zip(cs, laid[z] if z < len(laid) else ()))
    rest = [c for c in range(S.ncards) if c not in rename]
    targets = set(rename.values())
    rename.update(zip(rest, [c for c in range(S.ncards) if c not in targets]))
    WORK[0] = work  # the first run was the engine's, not the rules' work
    perm = [rename[c] for c in range(S.ncards)]
    if gathers[0]:
        _watch_gathers(S, gathers[0], lambda: _rename(S, perm))
    else:
        _rename(S, perm)
    try:
        round_start(S)
    finally:
        S.__dict__.pop("fx_gather", None)
    same = S.zones == [[perm[c] for c in cs] for cs in dealt]
    # the scenario's position exactly: a card where the rules put it keeps its face
    for c in range(S.ncards):
        if S.loc[c] != first.loc[c]:
            S.face[c] = first.face[c]
    S.zones, S.loc, S.groups = first.zones, first.loc, first.groups
    S.znames, S.zowner = first.znames, first.zowner
    S.zvis, S.zface = first.zvis, first.zface
    S.placer = first.placer
    S.rng = first.rng
    return same


def _rename(S: Any, perm: list[int]) -> None:
    """Call card ``c`` ``perm[c]`` wherever it lies (zones keep their lists)."""
    loc, face = S.loc[:], S.face[:]
    for cs in S.zones:
        cs[:] = [perm[c] for c in cs]
    for c, d in enumerate(perm):
        S.loc[d] = loc[c]
        S.face[d] = face[c]


def _watch_gathers(S: Any, k: int = 0, then: Callable[[], None] | None = None) -> list[int]:
    """Count the gathers ``S`` makes from now on (in the list returned) and call ``then`` after
    the k-th: its ``fx_gather`` is wrapped on the instance, until that attribute is deleted."""
    calls = [0]
    gather = S.fx_gather

    def counted(zid: int) -> None:
        gather(zid)
        calls[0] += 1
        if calls[0] == k and then is not None:
            then()
    S.fx_gather = counted
    return calls
