"""Seats: who is still in play, and going round the table.

Seats are numbered 0 .. players-1 clockwise; play goes the state's direction (1 clockwise, -1
anticlockwise): the rules' ``direction:`` when a round starts, turned round by
``reverse_direction()`` or set by ``set_direction(d)``. ``seated`` is the list of seats still in
play, in order: rules read it at every step, so it is kept (and replaced, never changed in
place, when a seat is eliminated), and the next seat is found by bisecting it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import repeat
from typing import Any

from .errors import RuntimeRulesError
from .runtime import clipped_text
from .teams import Teams


def _ring(seated: list[int], n: int) -> tuple[list[int], tuple[int, ...], tuple[int, ...]]:
    """(seated, the next seat in play clockwise of each seat, anticlockwise), as
    ``_step_seat(p, 1, ±1)`` gives them for ``seated`` not empty, made in C: each by
    bisection of ``seated``, the first (last) seat in play past its end (before its start)."""
    after = map(bisect_right, repeat(seated, n), range(n))
    before = map(bisect_left, repeat(seated, n), range(n))
    return (seated, tuple(map((seated + seated[:1]).__getitem__, after)),
            tuple(map((seated[-1:] + seated).__getitem__, before)))


class Seats(Teams):
    """The seats of a state (a mixin of ``engine.State``, which sets these up); their teams
    are ``Teams``'."""

    game: Any
    n: int
    active: list[bool]
    seated: list[int]
    direction: int
    # (seated, next seat clockwise of each seat, anticlockwise): made from ``seated`` when
    # first asked and remade when it is replaced (it never changes in place)
    ring: tuple[Any, tuple[int, ...], tuple[int, ...]] = (None, (), ())

    def players(self) -> list[int]:
        return list(self.seated)

    def next_seat(self, s: int, k: int = 1) -> int:
        if k == 1 and type(s) is int and 0 <= s < self.n:  # the common case: a table lookup
            ring = self.ring
            if ring[0] is not self.seated:
                if not self.seated:
                    return self._step_seat(s, k, self.direction)
                ring = self.ring = _ring(self.seated, self.n)
            return ring[1][s] if self.direction == 1 else ring[2][s]
        return self._step_seat(s, k, self.direction)

    def prev_seat(self, s: int, k: int = 1) -> int:
        return self._step_seat(s, k, -self.direction)

    def _step_seat(self, s: int, k: int, d: int) -> int:
        """The k-th seat still in play from s, going the way d (1 or -1)."""
        seated = self.seated
        if k == 1 and seated and type(s) is int and 0 <= s < self.n:
            # the nearest seat still in play that way, by bisection
            if d == 1:
                i = bisect_right(seated, s)
                return seated[i] if i < len(seated) else seated[0]
            if d == -1:
                return seated[bisect_left(seated, s) - 1]
        if not isinstance(k, int):
            raise RuntimeRulesError(f"next_seat/prev_seat: {clipped_text(k, 40)} is not a "
                                    "number of seats")
        if k < 1:
            return s
        n = self.n
        for _i in range(n):  # the first step: to the nearest seat still in play
            s = (s + d) % n
            if self.active[s]:
                break
        if k == 1 or not seated or not self.active[s]:
            return s
        # the others go round the seats still in play: k may be any size (10^15 looped)
        i = bisect_left(seated, s)
        return seated[(i + d * (k - 1)) % len(seated)]

    def seats_from(self, s: int) -> list[int]:
        d = self.direction
        if type(s) is int and 0 <= s < self.n:  # from ``seated`` (in order), by bisection
            seated = self.seated
            if d == 1:
                i = bisect_left(seated, s)
                return seated[i:] + seated[:i]
            if d == -1:
                i = bisect_right(seated, s)
                return seated[:i][::-1] + seated[i:][::-1]
        out = []
        for i in range(self.n):
            p = (s + d * i) % self.n
            if self.active[p]:
                out.append(p)
        return out

    # the built-ins of the same names (builtins.BUILTINS, state=True)
    fx_next_seat = next_seat
    fx_prev_seat = prev_seat
    fx_seats_from = seats_from

    def fx_reverse_direction(self) -> None:
        self.direction = -self.direction

    def fx_set_direction(self, d: Any) -> None:
        if d not in ("clockwise", "anticlockwise"):
            raise RuntimeRulesError(f"set_direction: {clipped_text(d, 40)} is not 'clockwise' "
                                    "or 'anticlockwise'")
        self.direction = 1 if d == "clockwise" else -1

    def fx_active(self, p: int) -> bool:
        return bool(self.active[p])

    def fx_eliminate(self, p: int) -> None:
        self.active[p] = False
        self.seated = [q for q in self.seated if q != p]
