"""Static checks over a compiled game, as a tuple of small passes with one signature.

Name and type errors are found while compiling (``compile.py``); these passes look at the shape
of the flow: phases that no ``next:`` can reach, actions whose condition is always false, ways
of ending a round that nothing can bring about.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import nodes as N
from .errors import CheckError, RulesError
from .housecheck import house_pass
from .yamlload import YMap

Pass = Callable[[Any, YMap], list[RulesError]]


def _next_targets(game: Any, phase: str) -> tuple[set[str], bool]:
    """Phase names an action of ``phase`` may lead to, and whether one ends the turn, from the
    parsed ``next:`` texts the build kept."""
    targets: set[str] = set()
    ends_turn = False
    ph = game.phases.get(phase)
    for a in ph.actions if ph is not None else ():
        if a.next_tree is None:
            ends_turn = True
            continue
        if a.next_tree is False:  # it did not parse: reported as a syntax error
            continue
        for node in N.walk(a.next_tree):
            if isinstance(node, N.Name):
                if node.id == "end_turn":
                    ends_turn = True
                targets.add(node.id)
            elif isinstance(node, N.Const) and isinstance(node.value, str):
                targets.add(node.value)
    return targets, ends_turn


def unreachable_phases(game: Any, doc: YMap) -> list[RulesError]:
    phases = doc.get("phases") or YMap()
    if not phases:
        return []
    reach = {game.first_phase}
    todo = [game.first_phase]
    while todo:
        p = todo.pop()
        targets, _ = _next_targets(game, p)
        for t in targets:
            if t in phases and t not in reach:
                reach.add(t)
                todo.append(t)
    return [CheckError(f"phase '{p}' can never be reached: no action's next: leads to it "
                       f"(the turn starts in '{game.first_phase}')", phases.key_span(p))
            for p in phases if p not in reach]


def never_legal_actions(game: Any, doc: YMap) -> list[RulesError]:
    out: list[RulesError] = []
    for pname, p in (doc.get("phases") or {}).items():
        actions = (p or {}).get("actions") or YMap()
        ph = game.phases.get(str(pname))
        for a in ph.actions if ph is not None else ():
            t = a.when_tree
            if isinstance(t, N.Const) and t.value is False:
                out.append(CheckError(f"action '{a.name}' of phase '{pname}' can never be legal: "
                                      "its when: is always false", actions.key_span(a.name)))
    return out


def round_can_end(game: Any, doc: YMap) -> list[RulesError]:
    if game.triggers or game.settle:
        return []
    return [CheckError("nothing can end a round: add round.triggers or round.settle with "
                       "end_round(...) effects", doc.span)]


def seats_written_out(game: Any, doc: YMap) -> list[RulesError]:
    """Who deals first, who plays first and who deals next, written as a constant, must be a
    seat at some table the game allows: ``first_dealer: 99`` or ``-1`` once made a dealer at
    no seat. (Any other value is checked when the game runs, at its text.)"""
    out: list[RulesError] = []
    for where, tree in game.seat_trees.items():
        if isinstance(tree, N.ListLit):
            shown = "a list"
        elif isinstance(tree, N.Const):
            v = tree.value
            if type(v) is float and v.is_integer():
                v = int(v)
            if type(v) is int and 0 <= v < game.max_players:
                continue
            shown = (str(v) if type(v) is int else repr(v) if isinstance(v, (str, float))
                     else str(v).lower())
        else:
            continue
        section, key = where.split(".")
        out.append(CheckError(f"{where} is {shown}: a seat is a number from 0 to "
                              f"{game.max_players - 1}", doc[section].span_of(key)))
    return out


# an unknown phase in next: is reported by the compiler, which resolves the names there
PASSES: tuple[Pass, ...] = (unreachable_phases, never_legal_actions, round_can_end,
                            seats_written_out, house_pass)


def run_passes(game: Any, doc: YMap) -> list[RulesError]:
    out: list[RulesError] = []
    for p in PASSES:
        out.extend(p(game, doc))
    return out
