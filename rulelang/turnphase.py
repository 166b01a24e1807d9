"""A turn's first phase chosen by an expression (``turn.first_phase: EXPR``).

Where ``turn.first_phase`` names a phase outright, every turn starts there (``Game.first_phase``)
and nothing here runs. Written as an expression (``if passing then pass else play``), it is
worked out as each turn starts, before ``turn.start`` runs, with ``me`` = the seat whose turn it
is; phase names are words in it, as in ``next:``, and the checker knows which it may name
(``Game.first_phases``).
"""

from __future__ import annotations

from typing import Any

from .errors import RuntimeRulesError
from .runtime import brief


def first_phase_of(S: Any) -> str:
    """The phase the turn of ``S.turn`` starts in."""
    g = S.game
    S.actor = S.turn
    name = g.first_phase_fn(S)
    if not isinstance(name, str) or name not in g.phases:
        raise RuntimeRulesError(f"turn.first_phase gives {brief(name)}, which is not a phase "
                                f"(phases: {', '.join(g.phases)})", g.first_phase_fn.span)
    return name
