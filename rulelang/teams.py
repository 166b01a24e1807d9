"""Teams: partnerships of seats, counters a team shares, and winners by team.

``teams.of`` gives each seat's team number (worked out once per match, with ``me`` = the
seat, before the globals and counters get their starting values); without ``teams:`` every
seat is a team of its own, so ``team_of(p) == p``. A counter listed under ``teams.counters`` is
shared by the seats of a team: assigning it for one seat assigns it for all its teammates
(the compiled assignment calls ``share``), so that every tool that shows counters per seat shows
each seat its team's value.
"""

from __future__ import annotations

from typing import Any

from .errors import RuntimeRulesError, UsageError
from .runtime import brief
from .tricks import trick_zone_ids


class Teams:
    """The teams of a state (a mixin of ``engine.State``; ``team`` is set up by ``setup``)."""

    n: int
    game: Any
    ctr: list[list[Any]]
    # seat -> team number; fixed for the match, shared by every clone (never changed in place)
    team: list[int]

    def _seat(self, p: Any, what: str) -> int:
        if type(p) is not int or not 0 <= p < self.n:
            raise RuntimeRulesError(f"{what}(): {brief(p)} is not a seat at this table")
        return p

    def fx_team_of(self, p: Any) -> int:
        return self.team[self._seat(p, "team_of")]

    def fx_teammates(self, p: Any) -> list[int]:
        t = self.team[self._seat(p, "teammates")]
        return [q for q in range(self.n) if q != p and self.team[q] == t]

    def fx_partner(self, p: Any) -> int | None:
        t = self.team[self._seat(p, "partner")]
        return next((q for q in range(self.n) if q != p and self.team[q] == t), None)

    def fx_team_seats(self, t: Any) -> list[int]:
        return [q for q in range(self.n) if self.team[q] == t]

    def fx_teams(self) -> list[int]:
        return sorted(set(self.team))

    def share(self, i: int, p: Any) -> None:
        """Counter ``i`` was just set for seat ``p``: its teammates get the same value."""
        row = self.ctr[i]
        t = self.team[p]
        v = row[p]
        for q in range(self.n):
            if self.team[q] == t:
                row[q] = v


def match_setup(S: Any) -> None:
    """What is fixed for a match of ``S``: which zones remember who played a card (tricks.py),
    and each seat's team (``teams.of``, with ``me`` = the seat)."""
    g = S.game
    S.ztrick = trick_zone_ids(g)
    if g.teams is None:
        S.team = list(range(S.n))
        return
    team = []
    for p in range(S.n):
        S.actor = p
        t = g.teams(S)
        if type(t) is float and t.is_integer():
            t = int(t)
        if type(t) is not int or not 0 <= t < S.n:
            raise RuntimeRulesError(f"teams.of gives {brief(t)} for P{p}: a team is a number "
                                    f"from 0 to {S.n - 1}", g.teams.span)
        team.append(t)
    S.team = team


def start_teams(S: Any, start: dict[str, Any] | None) -> None:
    """The shared counters' starting values: each team takes its first seat's; a scenario's
    ``start:`` giving teammates different values is refused."""
    if start:
        check_start(S, start)
    for i in S.game.team_counters:
        row = S.ctr[i]
        for p in range(S.n):
            first = S.team.index(S.team[p])
            row[p] = row[first]


def check_start(S: Any, start: dict[str, Any]) -> None:
    """A scenario's ``start:`` values of a shared counter agree within each team."""
    names = {S.game.counters[i][0]: i for i in S.game.team_counters}
    for k in start:
        if k in names:
            row = S.ctr[names[k]]
            for p in range(S.n):
                first = S.team.index(S.team[p])
                if row[p] != row[first]:
                    raise UsageError(f"start: '{k}' is kept per team: P{first} and P{p} are "
                                     "partners and need the same value")


def team_label(S: Any, t: int) -> str:
    """A team as tools name it: by its seats, ``P0+P2``."""
    return "+".join(f"P{q}" for q in range(S.n) if S.team[q] == t)


def has_teams(S: Any) -> bool:
    """Whether the game declares teams (else every seat is a team of its own)."""
    return S.game.teams is not None
