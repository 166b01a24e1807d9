"""Removing a group from the table: the effect ``unmeld(g [, zone])``.

A group (a meld, a play on a pile of plays) is a zone made at run time and listed under its
container zone (``Table.groups``). ``unmeld`` moves the group's cards to the zone named (as
``move(g, zone)`` would: the group's last card ends on top) and takes the group off its
container's list, so the groups after it move up by one (``P0#3`` becomes ``P0#2``). Without a
zone the group must already be empty (its cards moved away one by one).

The group's own zone stays behind, empty and listed nowhere, until ``gather`` clears the table:
zone ids are what ``loc`` records for every card, so no zone may move while a round runs.
"""

from __future__ import annotations

from typing import Any

from .errors import RuntimeRulesError
from .groups import Group
from .runtime import brief, charge


def unmeld(S: Any, g: Any, dest: int | None, at: str, face: str | None) -> None:
    """Take group ``g`` off the table, its cards to zone ``dest`` (None: it must be empty)."""
    if not isinstance(g, Group):
        raise RuntimeRulesError(f"unmeld(): expected a group on the table, got {brief(g)}")
    zid = g.zid
    container = next((cz for cz, zs in S.groups.items() if zid in zs), None)
    if container is None:
        raise RuntimeRulesError(f"unmeld(): {g.label()} is no longer on the table")
    cards = S.zones[zid]
    charge(len(S.groups[container]))  # the container's list is searched and rewritten
    if cards:
        if dest is None:
            raise RuntimeRulesError(
                f"unmeld(): {g.label()} still holds {len(cards)} card"
                f"{'s' if len(cards) != 1 else ''}: name the zone they go to, "
                "like unmeld(g, discard)")
        if dest == zid:
            raise RuntimeRulesError(f"unmeld(): {g.label()} cannot go into itself")
        S.fx_move(list(cards), dest, at, face)
    # a new list rather than a change in place, as fx_meld's copy on write does
    S.groups[container] = [z for z in S.groups[container] if z != zid]
