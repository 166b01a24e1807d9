"""What the checker asks of a house (see house.py): that it never has a choice to make, and
that its ``house:`` section names a counter and a global of the rules file.

A house phase plays the first legal action in the order written, so the only choice left would
be among an action's argument values. An argument whose options are a list (a zone, a
comprehension, ``range``...) could offer several, and nothing says which the house would take:
that is a check error, and the message says how to give one value (``[top(shoe)]``,
``[first(...)]``: a list of one written out).
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .errors import CheckError, RulesError, Span, SyntaxErr, did_you_mean
from .house import HouseDef
from .parse import parse
from .rules import as_str

# ``actor: house``: a phase played by the rules themselves
HOUSE_WORD = "house"


def is_house(phase: Any) -> bool:
    """Whether a phase of the rules file (its mapping) is played by the house."""
    return bool(phase) and phase.get("actor") == HOUSE_WORD


def house_choice(argname: str, text: Any, span: Span) -> list[CheckError]:
    """An error when argument ``argname`` of an action of a house phase, its options ``text``,
    may offer more than one value. Options are a list (the checker refuses others: a move
    must tell cards from numbers), so only a list of one written out (``[top(shoe)]``) is
    sure to offer one."""
    try:
        tree = parse(as_str(text, span), "expr", span)
    except SyntaxErr:  # reported where the action is compiled
        return []
    if isinstance(tree, N.ListLit) and len(tree.items) == 1:
        return []
    return [CheckError(
        f"a house phase makes no decision, but argument '{argname}' may offer several "
        "values; give it one, written as a list of one such as [top(shoe)] or [first(...)], "
        "or put the choice in when: (the house plays the first legal action in the order "
        "written)", span)]


def house_pass(game: Any, doc: Any) -> list[RulesError]:
    """A pass of the checker (check.py) that also gives the game its house (``game.house``):
    from its ``house:`` section, or a house phase alone (named "house"); None for a game with
    neither."""
    errors: list[RulesError] = []
    game.house = house_def(errors, doc, game)
    for name, ph in game.phases.items():
        adoc = (doc["phases"][name] or {}).get("actions") or {} if ph.house else {}
        for a in adoc.values():
            argdoc = (a or {}).get("args") or {}
            for argname, text in argdoc.items():
                errors += house_choice(str(argname), text, argdoc.span_of(argname))
    return errors


def house_def(errors: list[RulesError], doc: Any, game: Any) -> HouseDef | None:
    """See ``house_pass``."""
    sec = doc.get("house")
    if sec is None and not any(ph.house for ph in game.phases.values()):
        return None
    counters = {name: i for i, (name, _u) in enumerate(game.counters)}
    globs = {name: i for i, (name, _u) in enumerate(game.globals)}
    shared = [z.name for z in game.zones if not z.per_player]
    h = HouseDef()
    if sec is None:
        return h
    if "name" in sec:
        h.name = str(sec["name"])
    shares = sec.get("counters") or {}
    for cname, gname in shares.items():
        span = shares.span_of(cname)
        if cname not in counters:
            errors.append(CheckError(f"house: '{cname}' is not a counter"
                                     f"{did_you_mean(str(cname), counters)}", span))
        elif gname not in globs:
            errors.append(CheckError(f"house: '{gname}' is not a global"
                                     f"{did_you_mean(str(gname), globs)}; the house's {cname} "
                                     "are a global of the rules file", span))
        else:
            h.counters[str(cname)] = globs[gname]
    for i, z in enumerate(sec.get("zones") or []):
        if z not in shared:
            errors.append(CheckError(f"house: {z!r} is not a shared zone"
                                     f"{did_you_mean(str(z), shared)}; the house's cards lie "
                                     "in shared zones", sec["zones"].span_of(i)))
        else:
            h.zones.append(z)
    return h
