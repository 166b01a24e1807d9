"""What the checker asks of a house (see house.py): that it never has a choice to make, and
that its ``house:`` section names a counter and a global of the rules file.

A house phase plays the first legal action in the order written, so the only choice left would
be among an action's argument values. An argument whose options are a list (a zone, a
comprehension, ``range``...) could offer several, and nothing says which the house would take:
that is a check error, and the message says how to give one value (``first(...)``,
``top(...)``). One value (a card, a number, a seat) is fine.
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .errors import CheckError, Span, did_you_mean
from .house import HouseDef

# ``actor: house``: a phase played by the rules themselves
HOUSE_WORD = "house"


def house_choice(house: bool, argname: str, typ: str, span: Span,
                 tree: Any) -> list[CheckError]:
    """An error when argument ``argname`` of an action of a house phase (``house``), its
    options ``tree`` of checker type ``typ``, may offer more than one value: a list of one
    written out (``[top(shoe)]``) and a single value offer one."""
    if isinstance(tree, N.ListLit) and len(tree.items) == 1:
        return []
    if house and (typ.startswith("list") or typ in ("any", "table", "record", "fn")):
        return [CheckError(
            f"a house phase makes no decision, but argument '{argname}' may offer several "
            f"values ({typ}); give it one value, such as [top(shoe)] or [first(...)], or put the "
            "choice in when: (the house plays the first legal action in the order written)",
            span)]
    return []


def house_def(b: Any, doc: Any, phases: dict[str, Any], counters: dict[str, int],
              globs: dict[str, int], zones: dict[str, tuple[int, bool]]) -> HouseDef | None:
    """The game's house: from its ``house:`` section, or a house phase alone (named
    "house"); None for a game with neither. Errors go to builder ``b``."""
    sec = doc.get("house")
    if sec is None and not any(ph.house for ph in phases.values()):
        return None
    h = HouseDef()
    if sec is None:
        return h
    if "name" in sec:
        h.name = str(sec["name"])
    shares = sec.get("counters") or {}
    for cname, gname in shares.items():
        span = shares.span_of(cname) if hasattr(shares, "span_of") else b.span(sec, "counters")
        if cname not in counters:
            b.err(f"house: '{cname}' is not a counter{did_you_mean(str(cname), counters)}",
                  span)
        elif gname not in globs:
            b.err(f"house: '{gname}' is not a global{did_you_mean(str(gname), globs)}; "
                  f"the house's {cname} are a global of the rules file", span)
        else:
            h.counters[str(cname)] = globs[gname]
    for i, z in enumerate(sec.get("zones") or []):
        if not isinstance(z, str) or z not in zones or zones[z][1]:
            b.err(f"house: {z!r} is not a shared zone{did_you_mean(str(z), zones)}; the house's "
                  "cards lie in shared zones", sec["zones"].span_of(i))
        else:
            h.zones.append(z)
    return h
