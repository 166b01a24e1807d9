"""The house: phases played by the rules themselves, by no seat (a dealer drawing to 17).

A phase declared ``actor: house`` makes no decision. When the flow enters it, the engine plays
the first legal action in the order the actions are written (each argument giving one value:
the checker refuses a choice, build.py), then goes where its ``next:`` says, again and again
while the flow stays in house phases. None of it is a decision: the house never is
``current_player``, never has ``legal_moves``, and its actions are no part of the moves a
replay plays again (``history``); each seat's log shows them as the house's (mover
``HOUSE``). Every entering is a step, so a house that loops for ever meets the round's step
limit, an error located at its phase, like any flow that never ends.

A game has a house when it has a house phase or a ``house:`` section; tools name it by
``HouseDef.name`` ("house" unless the rules say), not as a seat, and ``HouseDef.counters``
gives, for a counter the seats hold (chips), the global that is the house's own (a bank), so
that ``simulate`` reports the house's change per round beside the seats'.

Imported by the engine: it reads the compiled model only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import RuntimeRulesError
from .movetext import cards_in
from .runtime import NO_FRAME

# the mover of the house's actions in a round's log (``State.events``): no seat
HOUSE = -1


@dataclass
class HouseDef:
    """A game's house: how tools name it, and which global is its share of which counter."""

    name: str = "house"
    counters: dict[str, int] = field(default_factory=dict)  # counter -> global index
    zones: list[str] = field(default_factory=list)  # the shared zones that are the house's

    def label(self, zone: str) -> str:
        """How play names one of the house's zones: the house's name, when it has one zone."""
        return self.name if len(self.zones) == 1 else f"{self.name} {zone}"


def values(S: Any) -> list[Any]:
    """The house's share of its counters now (rows to add after the counters' own, for the
    change over a round: see ``add_share``)."""
    h = S.game.house
    return [] if h is None else [[S.g[gi]] for gi in h.counters.values()]


def add_share(S: Any, delta: list[list[Any]]) -> None:
    """The round's change of the house's share added to each of its counters' rows, after
    the seats' (index ``S.n``), where the round's start recorded it."""
    h = S.game.house
    if h is None or len(S._ctr0) < len(S.ctr) + len(h.counters):
        return
    names = [name for name, _u in S.game.counters]
    for (cname, gi), (v0,) in zip(h.counters.items(), S._ctr0[len(S.ctr):]):
        try:
            delta[names.index(cname)].append(S.g[gi] - v0)
        except TypeError:  # not numbers: no change to report
            pass


def play(S: Any) -> None:
    """Play the house's actions while the flow is in a house phase (see the module
    docstring). Entering a house phase from one of them returns at once: this loop plays it."""
    if S.__dict__.get("_housing"):
        return
    S._housing = True
    try:
        game = S.game
        while S.status == "play" and game.phases[S.phase].house:
            ph = game.phases[S.phase]
            entries = ph.legal(S)
            if not entries:
                raise RuntimeRulesError(f"the house has no legal action in phase '{S.phase}': "
                                        "the when: of every action is false", ph.span)
            action, args = entries[0]
            if action.act is not None and action.step is not None and not S.record:
                # the action's whole step, generated (fuse.py): the same as below, its
                # triggers all checked (``ok`` False: the engine's check_next is None here)
                if action.act(S, args, False):
                    S._finish_round()
                    break
                continue
            F: Any = NO_FRAME
            if action.nslots:
                F = [None] * action.nslots
                for arg, v in zip(action.args, args):
                    F[arg[3]] = v
            if S.record:
                seen = {(c, v) for c in cards_in(args, S.ncards) for v in range(S.n)
                        if S.visible(c, v)}
            if action.do is not None:
                action.do(S, F)
            if S.record:
                S.events.append((HOUSE, tuple(S.move_text(action, args, v, seen)
                                              for v in range(S.n))))
            if S.pending_end is not None:
                S._finish_round()
                break
            S._goto(action.next_const or (action.next(S, F) if action.next is not None
                                          else "end_turn"),
                    getattr(action.next_tree, "span", action.span))
    finally:
        S._housing = False
