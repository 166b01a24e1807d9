"""A turn's first phase chosen by an expression (``turn.first_phase: EXPR``).

Where ``turn.first_phase`` names a phase outright, every turn starts there (``Game.first_phase``)
and nothing here runs. Written as an expression (``if passing then pass else play``), it is
worked out as each turn starts, before ``turn.start`` runs, with ``me`` = the seat whose turn it
is; phase names are words in it, as in ``next:``, and the checker knows which it may name
(``Game.first_phases``). ``Game.first_phase_fn`` is a ``Unit`` whose call is ``chooser``'s, so
the engine calls it as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import RuntimeRulesError
from .runtime import brief


def chooser(raw: Callable[[Any], Any], span: Any, phases: Any) -> Callable[[Any], str]:
    """``S -> phase``: ``raw`` (the compiled expression) worked out with ``me`` = the seat whose
    turn it is, checked to be one of ``phases`` (else an error located at ``span``)."""
    def first_phase_of(S: Any) -> str:
        S.actor = S.turn
        name = raw(S)
        if not isinstance(name, str) or name not in phases:
            raise RuntimeRulesError(f"turn.first_phase gives {brief(name)}, which is not a "
                                    f"phase (phases: {', '.join(phases)})", span)
        return name
    return first_phase_of
