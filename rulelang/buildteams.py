"""Building the pieces of a game that tricks, teams and a turn's chosen first phase add:
``teams:`` (each seat's team, the counters a team shares) and ``turn.first_phase`` written as
an expression. Called by ``build.Builder``; the run-time side is ``teams.py``,
``tricks.py`` and ``turnphase.py``.
"""

from __future__ import annotations

import re
from typing import Any

from . import nodes as N
from .codegen import unit_call
from .errors import did_you_mean
from .game import Unit
from .scope import Scope
from .turnphase import chooser
from .yamlload import YMap


def team_counter_names(b: Any, doc: Any, counters: dict[str, int]) -> frozenset[str]:
    """The names under ``teams.counters``, each a declared counter (else a located error)."""
    teams = doc.get("teams")
    if not isinstance(teams, YMap):
        return frozenset()
    names = teams.get("counters") or []
    out = set()
    for i, name in enumerate(names):
        name = str(name)
        if name not in counters:
            b.err(f"teams.counters: '{name}' is not a counter{did_you_mean(name, counters)}; "
                  "list counters declared under counters:", names.span_of(i))
            continue
        out.add(name)
    return frozenset(out)


def teams_unit(b: Any, c: Any, doc: Any, counters: dict[str, int]) -> tuple[Unit | None,
                                                                              tuple[int, ...]]:
    """``teams.of`` compiled (with ``me`` = the seat), and the shared counters' indices."""
    teams = doc.get("teams")
    if not isinstance(teams, YMap):
        return None, ()
    of = b.unit(c, teams.get("of"), teams.span_of("of"))
    if of is not None and b.unit_type not in ("int", "num", "any", "seat"):
        b.err(f"teams.of must give a team number for the seat me, not {b.unit_type}",
              teams.span_of("of"))
    shared = team_counter_names(b, doc, counters)
    return of, tuple(sorted(counters[k] for k in shared))


def choose_first(b: Any, c: Any, turn: Any, phases_doc: Any,
                phases: dict[str, Any]) -> tuple[str, Unit | None, tuple[str, ...]]:
    """``turn.first_phase``: (the phase every turn starts in, or the first it may name; the
    expression choosing it, or None when it names one outright; the phases it may name)."""
    given = "first_phase" in turn
    raw = turn.get("first_phase", next(iter(phases_doc), ""))
    span = b.span(turn, "first_phase")
    text = str(raw)
    # not given: the first phase listed, by its name, whatever characters the name holds
    if not given or re.fullmatch(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*", text) or not phases:
        name = text.strip() if given else text
        if phases and name not in phases:
            b.err(f"turn.first_phase '{name}' is not a phase{did_you_mean(name, phases)}", span)
            return name, None, tuple(phases)  # not every phase reported unreachable as well
        return name, None, (name,)
    tree = b.parse(raw, "expr", span)
    if tree is None:
        return next(iter(phases)), None, tuple(phases)
    sc = Scope(phase_names=True)
    fn, _t = c.expr(tree, sc)
    named: list[str] = []
    for node in N.walk(tree):
        if isinstance(node, N.Name) and node.id == "end_turn":
            b.err("turn.first_phase must give a phase; a turn cannot end before it starts",
                  node.span)
        elif isinstance(node, N.Name) and node.id in phases and node.id not in named:
            named.append(node.id)
        elif isinstance(node, N.Const) and isinstance(node.value, str) and node.value in phases \
                and node.value not in named:
            named.append(node.value)
    if not named:
        b.err("turn.first_phase names no phase: write the phases it chooses between as bare "
              "names, like: if passing then pass else play", span)
        return next(iter(phases)), None, tuple(phases)
    unit = Unit(fn, sc.n, span)
    unit.call = chooser(unit_call(fn, sc.n, span), span, tuple(phases))
    return named[0], unit, tuple(named)
