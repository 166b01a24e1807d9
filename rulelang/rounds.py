"""The round's life in the engine: dealing a round (``round.start``, a scenario's fixed deal),
settling it when it ends (``round.settle``, ``round.end``, the round's figures for the tools,
the match's end and winner), and dealing round after round while rounds end on the deal.

A mixin of ``engine.State``, as ``table.Table`` and ``seats.Seats`` are: the flow within a
round (phases, turns, triggers) stays in ``engine.py``.
"""

from __future__ import annotations

from operator import sub
from typing import Any

from . import house
from .errors import RoundLimit
from .runtime import seat_value


class Rounds:
    """Dealing, settling and chaining rounds (see the module's docstring)."""

    game: Any

    def _start_round(self) -> None:
        # a round's start runs once every few decisions: written for few Python steps
        g = self.game
        r = self.round = self.round + 1
        if r > self.max_rounds:
            raise RoundLimit(f"the match went on for more than {self.max_rounds} rounds",
                             g.match_over.span if g.match_over is not None else None)
        self.round_steps = self.turns = 0
        self.check_next = None  # a new deal: every trigger is checked
        self.ended_by = self.pending_end = None
        self.status = "play"
        self.events = []
        self.actor = self.dealer
        ctr0 = list(map(list.copy, self.ctr))
        if g.house is not None:
            ctr0 += house.values(self)  # the house's after the seats'
        self._ctr0 = ctr0
        self._round0 = (self.seated, self.decisions)  # seated is replaced, never changed
        self.turn_decided = -1
        spec = self._deal_override
        begin = g.round_begin
        if spec is None and begin is not None:
            # the deal up to the first phase's entry, one generated function (roundgen.py);
            # the legal moves of the round before are dropped first, as _enter_phase would
            self._entries = self._legal = self._legal_list = None
            if begin(self):
                self._finish_round()
            return
        if spec is not None:
            self._deal_override = None
            if g.round_start is not None:
                self.deal_fixed(spec, g.round_start)  # a scenario's deal, dealt by round.start
            else:
                self.lay_out(spec)
        elif g.round_start is not None:
            g.round_start.call(self)
        u = g.round_first
        if u is None:
            self.turn = self.dealer
        else:
            t = u.call(self)
            self.turn = (t if type(t) is int and 0 <= t < self.n
                         else seat_value(self, t, u, "round.first"))
        self.phase = g.first_phase if g.first_phase_fn is None else g.first_phase_fn(self)
        if self.pending_end is not None:
            self._finish_round()
            return
        if g.turn_start is not None:
            self.actor = self.turn
            g.turn_start(self)
            if self.pending_end is not None:
                self._finish_round()
                return
        self._enter_phase()

    def _finish_round(self) -> None:
        g = self.game
        name = self.pending_end
        self.pending_end = None
        self.ended_by = name
        self._entries = []
        self._legal = {}
        self._legal_list = []
        if name is not None:
            settle = g.settle.get(name)
            if settle is not None:
                settle.call(self)  # a game.Unit's function, without its __call__
        if g.round_end is not None:
            g.round_end.call(self)
        self.pending_end = None
        self.status = "round_over"
        self.last_ended_by = name
        if self.record or self.auto_continue:
            delta = []
            for row, row0 in zip(self.ctr, self._ctr0):
                try:
                    delta.append(list(map(sub, row, row0)))
                except TypeError:
                    delta.append([0] * self.n)
            if g.house is not None:
                house.add_share(self, delta)
            played = self.turns + (self.turn_decided == self.turns)
            seated, decisions = self._round0
            self.round_results.append((name, played, self.dealer, delta, seated,
                                       self.decisions - decisions))
        if g.match_over is not None and g.match_over.call(self):
            self.status = "game_over"
            self.winner = g.match_winner(self) if g.match_winner is not None else None
            if isinstance(self.winner, list):
                self.winner = list(self.winner)  # not the state's own list of seats
            if isinstance(self.winner, list) and len(self.winner) == 1:
                self.winner = self.winner[0]
            elif isinstance(self.winner, list) and not self.winner:
                self.winner = None
            return

    def _next_round(self) -> None:
        g = self.game
        self.direction = g.direction  # each round goes the rules' way round, the deal too
        u = g.next_dealer
        if u is not None:
            d = u.call(self)
            self.dealer = (d if type(d) is int and 0 <= d < self.n
                           else seat_value(self, d, u, "round.next_dealer"))
        self._start_round()

    def _run_on(self) -> None:
        """Deal round after round while rounds end on the deal (and the match goes on): the
        flow's loop, so that no number of such rounds deepens the stack."""
        while self.status == "round_over" and self.auto_continue:
            self._next_round()
