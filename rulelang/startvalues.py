"""A game started from given values rather than its rules' own (``State(start=...)``: a
scenario's ``start:``, docs/scenarios.md, or a test's position): counters, globals and the seats
already out of play, set after the match is set up and before its first round is dealt
(``engine.State``; a team's shared counters are checked by ``teams.start_teams``).
"""

from __future__ import annotations

from typing import Any

from .errors import UsageError


def apply_start(S: Any, start: dict[str, Any]) -> None:
    """Set the values ``start`` gives (``State(start=...)``) on the new state ``S``: a counter's
    (one value per seat, or one for all), a global's, and the seats already out of play
    (``eliminated``); a name that is none of these is a usage error."""
    names = {name: i for i, (name, _) in enumerate(S.game.counters)}
    gnames = {name: i for i, (name, _) in enumerate(S.game.globals)}
    for k, v in start.items():
        if k in names:
            if isinstance(v, list):
                if len(v) != S.n:
                    raise UsageError(f"start: '{k}' needs one value per seat ({S.n})")
                S.ctr[names[k]] = list(v)
            else:
                S.ctr[names[k]] = [v] * S.n
        elif k in gnames:
            S.g[gnames[k]] = v
        elif k == "eliminated":
            for p in v:
                S.active[p] = False
            S.seated = [p for p in range(S.n) if S.active[p]]
        else:
            raise UsageError(f"start: '{k}' is not a counter or global of this game")
