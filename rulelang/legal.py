"""Legal moves: listing them, lazily, and telling them apart.

A phase's legal (action, arguments) entries are listed by its generated function
(``flowgen.legal_function``) when first asked for: a bot's look-ahead often never asks. Texts
are made only for ``legal_moves()``; ``num_moves()``, what a bot that only counts moves needs,
keys distinct moves without them (``movekeys``), since equal cards of several packs are one
move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import RuntimeRulesError
from .game import ActionDef
from .limits import MAX_GAME_WORK
from .movekeys import distinct_entries, drop_repeats
from .movetext import canon_move
from .runtime import LIMIT, WORK

# State._listing: what a listing does besides the phase's generated function (fixed for a
# game): nothing (one pack, no action whose options may repeat a move), drop the repeats
# (movekeys.drop_repeats), or keep the entries of a phase without arguments as its distinct
# moves for ``_distinct`` (several packs: entries are told apart by their keys)
DISTINCT, REPEATS, PACKS = 0, 1, 2


def listing_kind(unique: bool, moves_distinct: bool) -> int:
    """``State._listing`` for a state whose entries are ``unique`` (one pack, every face
    once) in a game whose moves are all ``moves_distinct``."""
    return PACKS if not unique else DISTINCT if moves_distinct else REPEATS


class LegalMoves:
    """The legal moves of a state (a mixin of ``engine.State``, which sets these up)."""

    game: Any
    status: str
    phase: str
    actor: int | None
    _unique: bool
    _listing: int
    max_work: int
    _entries: list[tuple[ActionDef, tuple]] | None
    _legal: dict[str, tuple[ActionDef, tuple]] | None
    _legal_list: list[str] | None
    _moves: list[tuple[ActionDef, tuple]]
    _moves_of: Any
    _count_work: Callable[[], None]
    _too_much_work: Callable[[], None]
    work_done: int
    choice: Any
    pick_next: Callable[[], list]
    move_text: Callable[..., str]

    def legal_moves(self) -> list[str]:
        if self._legal_list is None:
            self._compute_texts()
        return list(self._legal_list or [])

    def num_moves(self) -> int:
        """How many legal moves there are (the length of ``legal_moves()``), cheaply. The
        engine's one listing of the legal entries, listed here when first asked for: a bot
        asks this at every decision, and ``_compute_legal`` (everything else) comes here."""
        entries = self._entries
        if entries is None:
            if self.status != "play":
                entries = self._entries = []
                return 0
            # listing the moves is work of its own, counted to this state
            WORK[0] = LIMIT[0] = mw = self.max_work
            if self.choice is None:
                ph = self.game.phases[self.phase]
                entries = ph.legal(self)  # type: ignore[misc]
                if self._listing:
                    if self._listing == REPEATS:
                        entries = drop_repeats(self, entries)
                    elif ph.bare:  # no arguments: the entries are the distinct moves
                        self._moves = self._moves_of = entries
            else:  # mid-choice: choice.py
                entries = self.pick_next()
                if self._listing == REPEATS:
                    entries = drop_repeats(self, entries)
            # _count_work, written out: this runs at every decision
            self.work_done += mw - WORK[0]
            if self.work_done > MAX_GAME_WORK:
                self._too_much_work()
            if not entries:
                raise self._no_legal_move()
            # (_legal and _legal_list are None already: whatever drops the entries drops them)
            self._entries = entries
        if self._listing != PACKS:
            return len(entries)
        return len(self._distinct())

    def _distinct(self) -> list[tuple[ActionDef, tuple]]:
        """The legal entries, one per move text (equal cards of several packs are one move),
        in the order of ``legal_moves()``, found without building most texts."""
        if self._entries is None:
            self._compute_legal()
        entries = self._entries
        if self._moves_of is not entries:
            self._moves = distinct_entries(self, entries or [])
            self._moves_of = entries
        return self._moves

    def _compute_legal(self) -> None:
        """The legal (action, arguments) pairs of the phase, in order (``_entries``; texts
        come later), where none are listed yet: ``num_moves``' listing (with several packs it
        tells the moves apart too, as the count asks). The phase's generated function lists
        them (``flowgen.legal_function``)."""
        self.num_moves()

    def _no_legal_move(self) -> RuntimeRulesError:
        return RuntimeRulesError(f"no legal move for P{self.actor} in phase '{self.phase}': "
                                 "the when: of every action is false, or an action's args: "
                                 "give no choice", self.game.phases[self.phase].span)

    def _compute_texts(self) -> None:
        """Move texts for the legal entries; equal texts (equal cards of several packs) are one
        move."""
        if self._entries is None:
            self._compute_legal()
        legal: dict[str, tuple[ActionDef, tuple]] = {}
        order: list[str] = []
        for action, args in self._entries or ():
            text = self.move_text(action, args)
            key = canon_move(text)
            if key not in legal:
                legal[key] = (action, args)
                order.append(text)
        self._legal = legal
        self._legal_list = order
