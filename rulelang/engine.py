"""Stage 6: the one generic turn-based engine. ``State`` runs any compiled ``Game``.

The state holds everything that changes: the zones (card lists, top first), where each card is
and whether it lies face up, counters and globals, whose turn and which phase, the round and the
seeded RNG (all chance comes from it). ``apply`` runs an action's effects, moves to the next
phase or turn, then re-checks the triggers after every step; a round ends by a trigger or an
``end_round`` effect, is settled, and the next one is dealt. Step limits stop a rules file whose
flow never ends, naming the phase where it spun.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from typing import Any

from .build import PY_ERRORS, ActionDef, Game
from .builtins import MAX_WORK, WORK, Group
from .cards import normalize
from .errors import IllegalMove, RuntimeRulesError, UsageError

MAX_ROUND_STEPS = 200_000
MAX_GAME_STEPS = 20_000_000
# the work (see builtins.MAX_WORK) of all the steps of one game: the allowance is per step, so
# rules that work hard at every step would otherwise make one game last for hours
MAX_GAME_WORK = 4_000_000_000  # about 45 s of the cheapest loop passes
MAX_ROUNDS = 1_000_000
MAX_MOVES = 5_000
VIS_CODE = {"hidden": 0, "owner": 1, "public": 2, "top": 3}


_CANON: dict[str, str] = {}
_NO_FRAME: list = []  # the frame of code with no locals: nothing ever writes to it
_BITLEN = tuple(n.bit_length() for n in range(1025))  # what random's _randbelow asks for


def _cards_in(args: tuple) -> list[int]:
    """The card ids among a move's arguments (cards, lists of cards, lists of melds)."""
    out: list[int] = []
    for a in args:
        if isinstance(a, bool):
            continue
        if isinstance(a, int):
            out.append(a)
        elif isinstance(a, list):
            out.extend(_cards_in(tuple(a)))
    return out


def _shuffle(x: list, bits: Any) -> None:
    """``random.shuffle(x)``: its own algorithm and draws, so that a seed deals the same cards,
    without its method call per card."""
    blen = _BITLEN if len(x) < len(_BITLEN) else [n.bit_length() for n in range(len(x) + 1)]
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = blen[n]
        j = bits(k)
        while j >= n:
            j = bits(k)
        x[i], x[j] = x[j], x[i]


def canon_move(text: str) -> str:
    """A move text in the form used to compare moves: cards canonical, words lower case."""
    key = _CANON.get(text)
    if key is None:
        key = _canon(text)
        if len(_CANON) > 100_000:
            _CANON.clear()
        _CANON[text] = key
    return key


def _canon(text: str) -> str:
    out = []
    for tok in str(text).split():
        c = normalize(tok)
        out.append(c if c is not None else tok.lower())
    return " ".join(out)


class State:
    """A game in progress. Cheap to ``clone``; ``view(seat)`` shows only what a seat may see."""

    # every trigger was found false at the last step (see deps.py): the next step need check
    # only the triggers it can make true (``_check_next``, that action's ``check_after``)
    _trig_ok = False
    _check_next: Any = None

    def __init__(self, game: Game, players: int, seed: int = 0, dealer: int | None = None, *,
                 start: dict[str, Any] | None = None, deal: dict[str, Any] | None = None,
                 auto_continue: bool = True, record: bool = True,
                 max_round_steps: int = MAX_ROUND_STEPS, max_game_steps: int = MAX_GAME_STEPS,
                 max_moves: int = MAX_MOVES, max_rounds: int = MAX_ROUNDS,
                 _blank: bool = False) -> None:
        if _blank:
            return
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise UsageError(f"{game.name or 'this game'} is for {game.min_players} to "
                             f"{game.max_players} players, not {players}")
        self.game = game
        self.n = players
        WORK[0] = MAX_WORK
        self.work_done = 0
        self.seed = seed
        self.rng = random.Random(seed)
        self.auto_continue = auto_continue
        self.record = record
        self.max_round_steps = max_round_steps
        self.max_moves = max_moves
        self.max_rounds = max_rounds
        self.max_game_steps = max_game_steps
        self.zvis = [VIS_CODE[z.visibility] for z in game.zones for _ in
                     range(game.max_players if z.per_player else 1)]
        self.zface = [z.face_up for z in game.zones for _ in
                      range(game.max_players if z.per_player else 1)]
        self.zowner = list(game.zone_owner)
        self.znames = list(game.zone_names)
        self.zones: list[list[int]] = [[] for _ in range(game.nzones)]
        # zones that hold groups (melds): container zone id -> the zone ids of its groups,
        # which are created at run time after the static zones
        self.groups: dict[int, list[int]] = {}
        self.active = [True] * players
        # the seats still in play, in order: rules read it at every step, so it is kept (and
        # replaced, never changed in place, when a seat is eliminated)
        self.seated = list(range(players))
        self.g: list[Any] = [None] * len(game.globals)
        self.ctr: list[list[Any]] = [[0] * players for _ in game.counters]
        self.dealer = 0
        self.turn = 0
        self.actor: int | None = 0
        self.phase = game.first_phase
        self.round = 0
        self.turns = 0
        self.ended_by: str | None = None
        self.status = "play"  # play | round_over | game_over
        self.winner: Any = None
        self.decisions = 0
        self.total_turns = 0
        self.steps = 0
        self.round_steps = 0
        self.history: list[tuple[int, str]] = []
        # this round's moves as each seat saw them: (mover, text per viewing seat)
        self.events: list[tuple[int, tuple[str, ...]]] = []
        self.messages: list[str] = []
        self._pending_end: str | None = None
        self._entries: list[tuple[ActionDef, tuple]] | None = None
        self._legal: dict[str, tuple[ActionDef, tuple]] | None = None
        self._legal_list: list[str] | None = None
        # with one pack, different legal entries always have different texts, so bots that
        # count moves need no texts at all
        self._unique = game.copies == 1 and game.deck.jokers <= 1
        self._moves: list[tuple[ActionDef, tuple]] = []
        self._moves_of: Any = None  # the entries list that _moves was made from
        self._deal_override = deal
        self.last_ended_by: str | None = None
        # one entry per finished round: (ended_by, turns, dealer, counter change per seat)
        self.round_results: list[tuple[str | None, int, int, list[list[Any]]]] = []
        self.conserved_start: dict[str, Any] = {}
        self._ctr0: list[list[Any]] = []

        copies = game.copies if isinstance(game.copies, int) else int(game.copies(self))
        unit = len(game.deck.ranks) * len(game.deck.suits) + game.deck.jokers
        ncards = max(1, copies) * unit
        if ncards > game.tables.size:
            raise RuntimeRulesError(f"the deck would need {ncards} cards, more than the "
                                    f"{game.tables.size} allowed")
        self.ncards = ncards
        self.loc = [game.home_zone] * ncards
        self.face = [self.zface[game.home_zone]] * ncards
        self.zones[game.home_zone] = list(range(ncards))
        try:
            for i, (_name, u) in enumerate(game.globals):
                self.g[i] = u(self)
            for i, (_name, u) in enumerate(game.counters):
                for p in range(players):
                    self.actor = p
                    self.ctr[i][p] = u(self)
            for message, cond in game.requires:
                if not cond(self):
                    raise UsageError(f"{game.name or 'this game'} cannot be played with "
                                     f"{players} players and these options: {message}")
            if dealer is not None:
                if not 0 <= dealer < players:
                    raise UsageError(f"dealer must be a seat from 0 to {players - 1}")
                self.dealer = dealer
            elif game.first_dealer is not None:
                self.dealer = int(game.first_dealer(self))
            self.actor = self.dealer
            if game.match_start is not None:
                game.match_start(self)
                if dealer is not None:
                    self.dealer = dealer
            if start:
                self._apply_start(start)
            self._start_round()
        except RecursionError:
            raise RuntimeRulesError("the rules nest too deeply while setting up") from None
        except PY_ERRORS as e:
            raise RuntimeRulesError(f"{type(e).__name__}: {e} (while setting up, in phase "
                                    f"'{self.phase}')") from None

    # ------------------------------------------------------------------ chance
    @property
    def rng(self) -> random.Random:
        """The state's random generator, the only source of chance. Ask for it each time it is
        used: a clone shares its original's generator until one of them draws from it, and
        drawing goes through this property, which first gives the drawer a copy of its own."""
        r = self._rng
        if r is None:
            r = self._rng = random.Random(self._rng_seed)
        elif self._rng_shared:
            r = random.Random.__new__(random.Random)
            r.setstate(self._rng.getstate())  # no fresh seed from the OS: the state is copied
            self._rng, self._rng_shared = r, False
        return r

    @rng.setter
    def rng(self, r: random.Random) -> None:
        self._rng, self._rng_shared = r, False

    # ------------------------------------------------------------------ public API
    def current_player(self) -> int | None:
        """The seat whose decision is next, or None when the round or game is over."""
        return self.actor if self.status == "play" else None

    def is_over(self) -> bool:
        return self.status == "game_over"

    def round_over(self) -> bool:
        return self.status != "play"

    def result(self) -> dict[str, Any]:
        return {
            "over": self.status == "game_over",
            "winner": self.winner,
            "rounds": self.round,
            "counters": {name: list(self.ctr[i]) for i, (name, _) in
                         enumerate(self.game.counters)},
            "eliminated": [p for p in range(self.n) if not self.active[p]],
        }

    def returns(self) -> list[float]:
        """OpenSpiel-style returns: 1 shared among the winners, 0 for the others."""
        w = self.winner
        winners = w if isinstance(w, list) else ([] if w is None else [w])
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.n)]

    def legal_moves(self) -> list[str]:
        if self._legal_list is None:
            self._compute_texts()
        return list(self._legal_list or [])

    def num_moves(self) -> int:
        """How many legal moves there are (the length of ``legal_moves()``), cheaply."""
        if self._unique:
            if self._entries is None:
                self._compute_legal()
            return len(self._entries or ())
        return len(self._distinct())

    def apply_index(self, i: int) -> None:
        """Play the i-th move of ``legal_moves()`` without building the move texts; what a
        bot that only counts the moves uses."""
        if self.status != "play":
            raise IllegalMove("no move can be played now")
        if not self._unique:
            self._apply_entry(*self._distinct()[i])
            return
        if self._entries is None:
            self._compute_legal()
        self._apply_entry(*self._entries[i])  # type: ignore[index]

    def _distinct(self) -> list[tuple[ActionDef, tuple]]:
        """The legal entries, one per move text (equal cards of several packs are one move),
        in the order of ``legal_moves()``, found without building most texts."""
        if self._entries is None:
            self._compute_legal()
        entries = self._entries
        if self._moves_of is not entries:
            seen: set[str] = set()
            out = []
            for e in entries or ():
                k = self._move_key(*e)
                if k not in seen:
                    seen.add(k)
                    out.append(e)
            self._moves, self._moves_of = out, entries
        return self._moves

    def _move_key(self, action: ActionDef, args: tuple) -> str:
        """Exactly ``canon_move`` of the move's text; for cards the mover can see, the names
        are the text, so only other arguments need it rendered."""
        parts = [canon_move(action.name)]
        names = self.game.tables.name
        for spec, v in zip(action.args, args):
            if spec[2] == "card" and type(v) is int and self.visible(v, self.actor):
                parts.append(names[v])
            else:
                return canon_move(self._text_of(action, args))
        return " ".join(parts)

    def apply(self, move: str) -> None:
        """Play a move given as its text. An illegal move raises ``IllegalMove`` and leaves
        the state unchanged."""
        if self.status != "play":
            raise IllegalMove("the round is over; no move can be played now"
                              if self.status == "round_over" else "the game is over")
        if self._legal is None:
            self._compute_texts()
        assert self._legal is not None
        entry = self._legal.get(canon_move(move))
        if entry is None:
            legal = ", ".join(self._legal_list or [])
            raise IllegalMove(f"'{move}' is not a legal move for P{self.actor} now; "
                              f"legal: {legal}")
        self._apply_entry(*entry)

    def _apply_entry(self, action: ActionDef, args: tuple) -> None:
        self.decisions += 1
        # _fresh_work, written out: this runs at every step
        self.work_done += MAX_WORK - WORK[0]
        WORK[0] = MAX_WORK
        if self.work_done > MAX_GAME_WORK:
            self._too_much_work()
        mover = self.actor
        trig_ok, self._trig_ok = self._trig_ok, False
        seen: set[tuple[int, int]] | None = None
        if self.record:
            self.history.append((mover, self._text_of(action, args)))  # type: ignore
            seen = {(c, v) for c in _cards_in(args) for v in range(self.n) if self.visible(c, v)}
        self._entries = None
        self._legal = None
        self._legal_list = None
        try:
            if action.nslots:
                F: list[Any] = [None] * action.nslots
                for arg, v in zip(action.args, args):
                    F[arg[3]] = v
            else:
                F = _NO_FRAME
            if action.do is not None:
                action.do(self, F)
            if seen is not None:
                # a card a seat saw before the move or sees after it is named in its log
                self.events.append((mover, tuple(  # type: ignore[arg-type]
                    self._text_of(action, args, v, seen) for v in range(self.n))))
            if self._pending_end is not None:
                self._finish_round()
                return
            if action.step is not None:  # _goto and _enter_phase, generated for the action
                action.step(self, trig_ok)
                return
            nxt = action.next_const or (action.next(self, F) if action.next is not None
                                        else "end_turn")
            if trig_ok:
                self._check_next = action.check_after
            self._goto(nxt)
        except RecursionError:
            raise RuntimeRulesError(f"the rules nest too deeply in phase '{self.phase}'") \
                from None
        except PY_ERRORS as e:
            raise RuntimeRulesError(f"{type(e).__name__}: {e} (in phase '{self.phase}')") \
                from None

    def _fresh_work(self) -> None:
        """A fresh allowance of work for this step; what the last step used (what is gone
        from its allowance) counts towards the game's."""
        self.work_done += MAX_WORK - WORK[0]
        WORK[0] = MAX_WORK
        if self.work_done > MAX_GAME_WORK:
            self._too_much_work()

    def _too_much_work(self) -> None:
        raise RuntimeRulesError(f"the game did more than {MAX_GAME_WORK} units of work "
                                "(loop passes, calls of functions, items of lists made) "
                                f"in all its steps (in phase '{self.phase}'): a rule that "
                                "works hard at every step?")

    def next_round(self) -> None:
        """Deal the next round after one that ended (when ``auto_continue`` is off)."""
        if self.status == "round_over":
            self._fresh_work()
            try:
                self._next_round()
            except RecursionError:
                raise RuntimeRulesError("the rules nest too deeply while dealing") from None
            except PY_ERRORS as e:
                raise RuntimeRulesError(f"{type(e).__name__}: {e} (while dealing)") from None

    def clone(self, share_rng: bool = False) -> State:
        """An independent copy. ``share_rng`` keeps the same RNG object: only for copies made
        from a sample that already has an RNG of its own (a bot's look-ahead)."""
        if share_rng and self._rng is None:
            self._rng = self.rng  # made now, so that the copy shares the very object
        s = State.__new__(State)
        d = s.__dict__
        d.update(self.__dict__)
        s.zones = [z[:] for z in self.zones]
        s.loc = self.loc[:]
        s.face = self.face[:]
        s.active = self.active[:]
        s.g = self.g[:]
        s.ctr = [row[:] for row in self.ctr]
        # always a new dict: an empty one shared with the clone would let its melds leak back
        s.groups = {k: v[:] for k, v in self.groups.items()} if self.groups else {}
        if not share_rng:
            # copy on first use: both share the generator, untouched, until either draws from
            # it (a look-ahead within a round never does); see ``rng``
            s._rng_shared = self._rng_shared = True
        s.history = self.history[:] if self.record else []
        s.events = self.events[:] if self.record else []
        s.messages = []
        s.round_results = []
        s.conserved_start = dict(self.conserved_start)
        s._entries = self._entries
        s._legal = self._legal
        s._legal_list = self._legal_list
        return s

    # ------------------------------------------------------------------ flow
    def _apply_start(self, start: dict[str, Any]) -> None:
        names = {name: i for i, (name, _) in enumerate(self.game.counters)}
        gnames = {name: i for i, (name, _) in enumerate(self.game.globals)}
        for k, v in start.items():
            if k in names:
                if isinstance(v, list):
                    if len(v) != self.n:
                        raise UsageError(f"start: '{k}' needs one value per seat ({self.n})")
                    self.ctr[names[k]] = list(v)
                else:
                    self.ctr[names[k]] = [v] * self.n
            elif k in gnames:
                self.g[gnames[k]] = v
            elif k == "eliminated":
                for p in v:
                    self.active[p] = False
                self.seated = [p for p in range(self.n) if self.active[p]]
            else:
                raise UsageError(f"start: '{k}' is not a counter or global of this game")

    def _start_round(self) -> None:
        g = self.game
        self.round += 1
        if self.round > self.max_rounds:
            raise RuntimeRulesError(f"the match went on for more than {self.max_rounds} rounds")
        self.round_steps = 0
        self.turns = 0
        self._check_next = None  # a new deal: every trigger is checked
        self.ended_by = None
        self._pending_end = None
        self.status = "play"
        self.events = []
        self.actor = self.dealer
        self._ctr0 = [row[:] for row in self.ctr]
        if g.round_start is not None:
            g.round_start(self)
        if self._deal_override is not None:
            from .scenario import override_deal

            override_deal(self, self._deal_override)
            self._deal_override = None
        self.turn = int(g.round_first(self)) if g.round_first is not None else self.dealer
        self.phase = g.first_phase
        if self._pending_end is not None:
            self._finish_round()
            return
        if g.turn_start is not None:
            self.actor = self.turn
            g.turn_start(self)
            if self._pending_end is not None:
                self._finish_round()
                return
        self._enter_phase()

    def _goto(self, nxt: Any) -> None:
        g = self.game
        if nxt == "end_turn":
            if g.turn_end is not None:
                g.turn_end(self)
                if self._pending_end is not None:
                    self._finish_round()
                    return
            self.turn = (g.turn_next(self) if g.turn_next is not None
                         else self._step_seat(self.turn, 1, g.direction))
            self.turns += 1
            self.total_turns += 1
            self.phase = g.first_phase
            if g.turn_start is not None:
                self.actor = self.turn
                g.turn_start(self)
                if self._pending_end is not None:
                    self._finish_round()
                    return
        else:
            if nxt not in g.phases:
                raise RuntimeRulesError(f"next: '{nxt}' is not a phase (phases: "
                                        f"{', '.join(g.phases)}, or end_turn)")
            self.phase = nxt
        self._enter_phase()

    def _enter_phase(self) -> None:
        g = self.game
        self.steps += 1
        self.round_steps += 1
        if self.round_steps > self.max_round_steps:
            raise RuntimeRulesError(f"the round ran more than {self.max_round_steps} steps "
                                    f"without ending (in phase '{self.phase}')")
        if self.steps > self.max_game_steps:
            raise RuntimeRulesError(f"the game ran more than {self.max_game_steps} steps "
                                    f"(in phase '{self.phase}')")
        ph = g.phases[self.phase]
        actor = self.actor = ph.actor.call(self) if ph.actor is not None else self.turn
        if type(actor) is not int or not 0 <= actor < self.n:
            raise RuntimeRulesError(f"phase '{self.phase}': the player to act is {actor!r}, "
                                    "not a seat at this table", ph.span)
        if ph.enter is not None:
            ph.enter(self)
            if self._pending_end is not None:
                self._finish_round()
                return
        check = self._check_next or g.check_triggers
        self._check_next = None
        if check(self):  # type: ignore[misc]
            return
        self._trig_ok = True
        # the legal moves are worked out when first asked for (a look-ahead often never asks)
        self._entries = self._legal = self._legal_list = None

    def _finish_round(self) -> None:
        g = self.game
        name = self._pending_end
        self._pending_end = None
        self.ended_by = name
        self._entries = []
        self._legal = {}
        self._legal_list = []
        if name is not None:
            settle = g.settle.get(name)
            if settle is not None:
                settle(self)
        if g.round_end is not None:
            g.round_end(self)
        self._pending_end = None
        self.status = "round_over"
        self.last_ended_by = name
        if self.record or self.auto_continue:
            delta = []
            for row, row0 in zip(self.ctr, self._ctr0):
                try:
                    delta.append([a - b for a, b in zip(row, row0)])
                except TypeError:
                    delta.append([0] * self.n)
            self.round_results.append((name, self.turns, self.dealer, delta))
        if g.match_over is not None and g.match_over(self):
            self.status = "game_over"
            self.winner = g.match_winner(self) if g.match_winner is not None else None
            if isinstance(self.winner, list):
                self.winner = list(self.winner)  # not the state's own list of seats
            if isinstance(self.winner, list) and len(self.winner) == 1:
                self.winner = self.winner[0]
            elif isinstance(self.winner, list) and not self.winner:
                self.winner = None
            return
        if self.auto_continue:
            self._next_round()

    def _next_round(self) -> None:
        g = self.game
        if g.next_dealer is not None:
            self.dealer = int(g.next_dealer(self))
        self._start_round()

    # ------------------------------------------------------------------ legal moves
    def _compute_legal(self) -> None:
        """The legal (action, arguments) pairs of the phase, in order; texts come later. The
        phase's generated function lists them (``build._legal_function``)."""
        entries: list[tuple[ActionDef, tuple]] = []
        if self.status == "play":
            entries = self.game.phases[self.phase].legal(self)  # type: ignore[misc]
            if not entries:
                raise RuntimeRulesError(f"no legal move for P{self.actor} in phase "
                                        f"'{self.phase}'")
        self._entries = entries
        self._legal = None
        self._legal_list = None

    def _compute_texts(self) -> None:
        """Move texts for the legal entries; equal texts (equal cards of several packs) are one
        move."""
        if self._entries is None:
            self._compute_legal()
        legal: dict[str, tuple[ActionDef, tuple]] = {}
        order: list[str] = []
        for action, args in self._entries or ():
            text = self._text_of(action, args)
            key = canon_move(text)
            if key not in legal:
                legal[key] = (action, args)
                order.append(text)
        self._legal = legal
        self._legal_list = order

    def _enumerate(self, action: ActionDef, out: list[tuple[ActionDef, tuple]]) -> None:
        F: list[Any] = [None] * action.nslots
        when = action.when
        args = action.args
        if len(args) == 1:
            fn, slot = args[0][1], args[0][3]
            opts = fn(self, F)
            if not isinstance(opts, list):
                opts = [opts]
            for v in opts:
                F[slot] = v
                if when is None or when(self, F):
                    out.append((action, (v,)))
            return
        nargs = len(args)
        slots = [a[3] for a in args]

        def rec(i: int) -> None:
            if i == nargs:
                if when is None or when(self, F):
                    out.append((action, tuple(F[k] for k in slots)))
                return
            opts = args[i][1](self, F)
            if not isinstance(opts, list):
                opts = [opts]
            slot = slots[i]
            for v in opts:
                F[slot] = v
                rec(i + 1)

        rec(0)

    def _text_of(self, action: ActionDef, args: tuple, viewer: int | None = None,
                 seen: set[tuple[int, int]] | None = None) -> str:
        if not args:
            return action.name
        who = self.actor if viewer is None else viewer
        parts = [action.name]
        for (_n, _f, typ, _slot), v in zip(action.args, args):
            parts.append(self.render(v, typ, who, seen))
        return " ".join(parts)

    def render(self, v: Any, typ: str, viewer: int | None,
               seen: set[tuple[int, int]] | None = None) -> str:
        """An argument as move text: cards by name (or zone#k when the viewer cannot see them),
        seats as P<n>, groups on the table as P<owner>#<number>, several cards in canonical
        order, several melds separated by ' | ', numbers and words as they are."""
        if isinstance(v, Group):
            return v.label()
        if typ == "card" and isinstance(v, int):
            return self.card_text(v, viewer, seen)
        if typ == "seat" and isinstance(v, int):
            return f"P{v}"
        if isinstance(v, list):
            if v and all(isinstance(x, list) for x in v):
                return " | ".join(self.render(x, "list[card]", viewer, seen) for x in v)
            if all(isinstance(x, int) and not isinstance(x, bool) for x in v) and typ in (
                    "list[card]", "any", "list"):
                t = self.game.tables
                # cards the viewer cannot see come last, by place (zone#k), so that their
                # order gives nothing away
                known = [c for c in v if self._knows(c, viewer, seen)]
                unknown = [c for c in v if not self._knows(c, viewer, seen)]
                cards = sorted(known, key=t.sort_key) + sorted(
                    unknown, key=lambda c: (self.loc[c], self.zones[self.loc[c]].index(c)))
                return " ".join(self.card_text(c, viewer, seen) for c in cards)
            return " ".join(self.render(x, "any", viewer, seen) for x in v)
        if v is None:
            return "-"
        if isinstance(v, bool):
            return "yes" if v else "no"
        return str(v)

    def _knows(self, c: int, viewer: int | None, seen: set[tuple[int, int]] | None) -> bool:
        return viewer is None or self.visible(c, viewer) or (
            seen is not None and (c, viewer) in seen)

    def card_text(self, c: int, viewer: int | None,
                  seen: set[tuple[int, int]] | None = None) -> str:
        if self._knows(c, viewer, seen):
            return self.game.tables.name[c]
        if seen is not None:
            return "?"  # a past move: where the card is now is no business of the log
        z = self.loc[c]
        return f"{self.znames[z]}#{self.zones[z].index(c) + 1}"

    # ------------------------------------------------------------------ visibility
    def visible(self, c: int, seat: int) -> bool:
        if self.face[c]:
            return True
        z = self.loc[c]
        if z < 0:
            return False
        v = self.zvis[z]
        if v == 2:
            return True
        if v == 1:
            return self.zowner[z] == seat
        if v == 3:
            return self.zones[z][0] == c
        return False

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: its own cards, public zones and face-up cards, counters,
        globals, whose turn it is, and what the players did this round. Unseen cards are '?'."""
        g = self.game
        zones: dict[str, Any] = {}
        names = self.game.tables.name
        for zd in g.zones:
            if zd.groups:
                per = [zd.first_id + p for p in range(self.n)] if zd.per_player \
                    else [zd.first_id]
                lists = [[[names[c] if self.visible(c, seat) else "?" for c in self.zones[z]]
                          for z in self.groups.get(cz, [])] for cz in per]
                zones[zd.name] = lists if zd.per_player else lists[0]
            elif zd.per_player:
                zones[zd.name] = [[self.game.tables.name[c] if self.visible(c, seat) else "?"
                                   for c in self.zones[zd.first_id + p]] for p in range(self.n)]
            else:
                zones[zd.name] = [self.game.tables.name[c] if self.visible(c, seat) else "?"
                                  for c in self.zones[zd.first_id]]
        events = [(who, texts[seat]) for who, texts in self.events]
        out = {
            "seat": seat, "players": self.n, "round": self.round, "dealer": self.dealer,
            "turn": self.turn, "phase": self.phase, "to_move": self.current_player(),
            "status": self.status, "ended_by": self.ended_by, "zones": zones,
            "counters": {name: list(self.ctr[i]) for i, (name, _) in enumerate(g.counters)},
            "globals": {name: self._public(self.g[i], g.global_types.get(name, "any"), seat)
                        for i, (name, _) in enumerate(g.globals)},
            "active": list(self.active), "events": events, "winner": self.winner,
        }
        if self.current_player() == seat:
            out["legal"] = self.legal_moves()
        return out

    def _public(self, v: Any, typ: str, seat: int) -> Any:
        """A global as ``seat`` may see it: cards by name only when the seat can see them."""
        if v is None or isinstance(v, bool):
            return v
        names = self.game.tables.name
        if typ == "card" and isinstance(v, int):
            return names[v] if self.visible(v, seat) else "?"
        if isinstance(v, list) and typ.startswith("list[card"):
            return [names[c] if self.visible(c, seat) else "?" for c in v]
        if isinstance(v, (int, float, str)):
            return v
        return self.render(v, typ, seat)

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A clone in which every card ``seat`` cannot see is shuffled among the places of the
        unseen cards: a sample of what the hidden cards might be, never what they are."""
        s = self.clone(share_rng=True)
        s.record = False
        s._trig_ok = False  # hidden cards change places: the next step checks every trigger
        places: list[tuple[int, int]] = []
        cards: list[int] = []
        face, zvis, zowner = self.face, self.zvis, self.zowner
        for z, cs in enumerate(s.zones):
            # what ``visible`` says, zone by zone: public zones and the seat's own are seen
            v = zvis[z] if cs else 2
            if v == 2 or (v == 1 and zowner[z] == seat):
                continue
            for i, c in enumerate(cs):
                if not face[c] and not (v == 3 and i == 0):
                    places.append((z, i))
                    cards.append(c)
        _shuffle(cards, rng.getrandbits)  # as rng.shuffle(cards) would
        for (z, i), c in zip(places, cards):
            s.zones[z][i] = c
            s.loc[c] = z
            s.face[c] = False
        # the sample's own generator, seeded now from the bot's and made when first needed
        s._rng, s._rng_seed, s._rng_shared = None, rng.random(), False
        s._entries = None
        s._legal = None
        s._legal_list = None
        return s

    # ------------------------------------------------------------------ seats
    def players(self) -> list[int]:
        return list(self.seated)

    def next_seat(self, s: int, k: int = 1) -> int:
        return self._step_seat(s, k, self.game.direction)

    def prev_seat(self, s: int, k: int = 1) -> int:
        return self._step_seat(s, k, -self.game.direction)

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
        n = self.n
        for _ in range(k):
            for _i in range(n):
                s = (s + d) % n
                if self.active[s]:
                    break
        return s

    def seats_from(self, s: int) -> list[int]:
        d = self.game.direction
        out = []
        for i in range(self.n):
            p = (s + d * i) % self.n
            if self.active[p]:
                out.append(p)
        return out

    # ------------------------------------------------------------------ built-ins over state
    fx_next_seat = next_seat
    fx_prev_seat = prev_seat
    fx_seats_from = seats_from

    def fx_active(self, p: int) -> bool:
        return bool(self.active[p])

    def fx_owner(self, c: int) -> int | None:
        o = self.zowner[self.loc[c]]
        return None if o < 0 else o

    def fx_zone_of(self, c: int) -> str:
        return self.znames[self.loc[c]]

    def fx_visible_to(self, c: int, seat: int) -> bool:
        return self.visible(c, seat)

    def fx_move(self, cards: Any, zid: int, at: str = "top", face: str | None = None) -> None:
        if type(cards) is int and 0 <= cards < self.ncards:  # one card: the common case
            loc = self.loc
            self.zones[loc[cards]].remove(cards)
            if at == "top":
                self.zones[zid].insert(0, cards)
            else:
                self.zones[zid].append(cards)
            loc[cards] = zid
            self.face[cards] = self.zface[zid] if face is None else face == "up"
            return
        if cards is None:
            raise RuntimeRulesError("move(): there is no card to move (the zone is empty)")
        if not isinstance(cards, list):
            cards = [cards]
        else:
            cards = list(cards)
        zones = self.zones
        loc = self.loc
        dest = zones[zid]
        up = self.zface[zid] if face is None else face == "up"
        for c in cards:
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < self.ncards:
                raise RuntimeRulesError(f"move(): {c!r} is not a card")
            zones[loc[c]].remove(c)
            if at == "top":
                dest.insert(0, c)
            else:
                dest.append(c)
            loc[c] = zid
            self.face[c] = up

    def group_list(self, container: int) -> list[Group]:
        owner = self.zowner[container]
        name = self.znames[container]
        return [Group(self.zones[z], z, owner, i + 1, name)
                for i, z in enumerate(self.groups.get(container, ()))]

    def fx_meld(self, cards: Any, container: int) -> None:
        """Lay ``cards`` on the table as a new group of the container zone."""
        if container >= self.game.nzones or not self.game.zones[
                self._zone_index(container)].groups:
            raise RuntimeRulesError(f"meld(): '{self.znames[container]}' is not a zone of groups")
        cards = sorted(cards if isinstance(cards, list) else [cards],
                       key=self.game.tables.sort_key)
        if not cards:
            raise RuntimeRulesError("meld(): no cards to lay down")
        zid = len(self.zones)
        self.zones.append([])
        # copy on write: clones share these lists until one of them adds a zone
        self.znames = [*self.znames, self.znames[container]]
        self.zowner = [*self.zowner, self.zowner[container]]
        self.zvis = [*self.zvis, self.zvis[container]]
        self.zface = [*self.zface, self.zface[container]]
        self.groups.setdefault(container, []).append(zid)
        self.fx_move(list(reversed(cards)), zid)

    def _zone_index(self, zid: int) -> int:
        for i, zd in enumerate(self.game.zones):
            span = self.game.max_players if zd.per_player else 1
            if zd.first_id <= zid < zd.first_id + span:
                return i
        return 0

    def fx_shuffle(self, zid: int) -> None:
        _shuffle(self.zones[zid], self.rng.getrandbits)

    def fx_gather(self, zid: int) -> None:
        dest = self.zones[zid]
        up = self.zface[zid]
        if not self.groups and sum(map(len, self.zones)) == self.ncards:
            # the whole pack comes back: sorted, that is every card in order
            for cs in self.zones:
                cs.clear()
            dest.extend(range(self.ncards))
            self.loc = [zid] * self.ncards
            self.face = [up] * self.ncards
            return
        for z, cs in enumerate(self.zones):
            if z != zid and cs:
                dest.extend(cs)
                cs.clear()
        if self.groups:  # the groups on the table are gone with their cards
            nz = self.game.nzones
            del self.zones[nz:]
            self.znames, self.zowner = self.znames[:nz], self.zowner[:nz]
            self.zvis, self.zface = self.zvis[:nz], self.zface[:nz]
            self.groups = {}
        dest.sort()
        if len(dest) == self.ncards:  # the whole pack: rewrite the tables in one go
            self.loc = [zid] * self.ncards
            self.face = [up] * self.ncards
            return
        for c in dest:
            self.loc[c] = zid
            self.face[c] = up

    def fx_deal(self, src: int, base: int, n: int, start: int | None = None,
                face: str | None = None) -> None:
        first = self.next_seat(self.dealer) if start is None else start
        order = self.seats_from(first)
        zones, loc, cface, zface = self.zones, self.loc, self.face, self.zface
        z = zones[src]
        k = len(order)
        total = n * k
        if 0 < total <= len(z) and not base <= src < base + self.game.max_players:
            # the usual deal: the top n*k cards, every k-th to a seat, in one slice each (each
            # card goes on top of the hand, so a hand gets its cards in reverse)
            taken = z[:total]
            del z[:total]
            for i, p in enumerate(order):
                d = base + p
                cards = taken[i::k]
                cards.reverse()
                zones[d][:0] = cards
                up = zface[d] if face is None else face == "up"
                for c in cards:
                    loc[c] = d
                    cface[c] = up
            return
        for _ in range(n):
            for p in order:
                if not z:
                    raise RuntimeRulesError(f"ran out of cards in '{self.znames[src]}' while "
                                            "dealing")
                c = z.pop(0)  # the top card, whose zone is src
                d = base + p
                zones[d].insert(0, c)
                loc[c] = d
                cface[c] = zface[d] if face is None else face == "up"

    def fx_show(self, cards: Any) -> None:
        for c in cards if isinstance(cards, list) else [cards]:
            self.face[c] = True

    def fx_hide(self, cards: Any) -> None:
        for c in cards if isinstance(cards, list) else [cards]:
            self.face[c] = False

    def fx_eliminate(self, p: int) -> None:
        self.active[p] = False
        self.seated = [q for q in self.seated if q != p]

    def fx_end_round(self, name: str) -> None:
        if self._pending_end is None:
            self._pending_end = name

    def fx_log(self, text: Any) -> None:
        if self.record:
            self.messages.append(str(text))

    # ------------------------------------------------------------------ checks
    def check_invariants(self) -> list[str]:
        """Problems with the state: a card in no zone or in two, a conserved sum that changed."""
        # the fast proof first (simulate --check runs this after every decision): rebuild
        # where each card is from the zones and compare; only a mismatch takes the slow path
        n = self.ncards
        loc = [-1] * n
        count = 0
        try:
            for z, cs in enumerate(self.zones):
                count += len(cs)
                if cs and min(cs) < 0:  # a negative index would pass for a card
                    count = -1
                for c in cs:
                    loc[c] = z
        except (IndexError, TypeError):
            count = -1
        if count == n and loc == self.loc:
            return []
        problems = []
        seen = [0] * self.ncards
        for z, cs in enumerate(self.zones):
            for c in cs:
                if not 0 <= c < self.ncards:
                    problems.append(f"zone {self.znames[z]} holds {c!r}, not a card")
                    continue
                seen[c] += 1
                if self.loc[c] != z:
                    problems.append(f"card {self.game.tables.name[c]} is listed in "
                                    f"{self.znames[z]} but recorded in {self.znames[self.loc[c]]}")
        for c, k in enumerate(seen):
            if k != 1:
                problems.append(f"card {self.game.tables.name[c]} is in {k} zones")
        return problems
