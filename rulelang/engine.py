"""Stage 6: the one generic turn-based engine. ``State`` runs any compiled ``Game``.

The state holds everything that changes: the table (zones, where each card is and whether it
lies face up: ``table.Table``), counters and globals, whose turn and which phase, the round and
the seeded RNG (all chance comes from it). ``apply`` runs an action's effects, moves to the
next phase or turn, and re-checks the triggers; a round ends by a trigger or an ``end_round``
effect and is settled. The flow is a loop, not recursion: ``_run_on`` deals round after round
while rounds end on the deal, so a match of any number of such rounds runs in constant stack.
Step limits stop a rules file whose flow never ends, naming the phase where it spun; the work
a game's steps do is counted on the state itself (``work_done``).

The engine reads the compiled model (``game``) only: it imports neither the parser nor the
compiler. Move texts are ``movetext``'s, seats' views and samples ``views``'.
"""

from __future__ import annotations

import random
from typing import Any

from . import house, illegal, views
from .choice import Choices
from .errors import IllegalMove, RuntimeRulesError, UsageError
from .game import VIS_CODE, ActionDef, Game
from .legal import LegalMoves, listing_kind
from .limits import MAX_GAME_STEPS, MAX_GAME_WORK, MAX_MOVES, MAX_ROUND_STEPS, MAX_ROUNDS, MAX_WORK
from .movetext import MoveTexts, any_order, canon_move, cards_in, one_by_one
from .rounds import Rounds
from .runtime import LIMIT, NO_FRAME, PY_ERRORS, WORK, brief, counter, log_message, seat_of, why
from .seats import Seats
from .startvalues import apply_start
from .steploop import StepLoop
from .table import Table
from .teams import match_setup, start_teams

# What a seed means: it goes up whenever the same seed and the same moves may play another game
# than before (another deal, another order of legal moves, another use of the random stream).
# Replay logs record it, and refuse to replay a log of another format (replay.py).
ENGINE_FORMAT = 2


class State(Table, Seats, LegalMoves, MoveTexts, Choices, Rounds, StepLoop):
    """A game in progress. Cheap to ``clone``; ``view(seat)`` shows only what a seat may see.

    Generated code reads and writes the members ``runtime.STATE_READS``/``STATE_WRITES`` name:
    ``n`` (seats at the table), ``zones``, ``ctr`` (counters: one list per counter, one entry
    per seat), ``g`` (globals), ``seated`` (the seats still in play, in order), ``active``,
    ``dealer``, ``turn``, ``actor`` (the seat acting now), ``phase``, ``round``, ``turns``,
    ``ended_by``, ``max_moves``, and ``pending_end`` (the name of the way the round is ending,
    once an effect or trigger has ended it).
    """

    # every trigger was found false at the last step (see deps.py): the next step need check
    # only the triggers it can make true (``check_next``, that action's ``check_after``)
    triggers_clean = False
    check_next: Any = None

    def __init__(self, game: Game, players: int, seed: int = 0, dealer: int | None = None, *,
                 start: dict[str, Any] | None = None, deal: dict[str, Any] | None = None,
                 auto_continue: bool = True, record: bool = True,
                 max_round_steps: int = MAX_ROUND_STEPS, max_game_steps: int = MAX_GAME_STEPS,
                 max_moves: int = MAX_MOVES, max_rounds: int = MAX_ROUNDS,
                 max_work: int | None = None, _blank: bool = False) -> None:
        if _blank:
            return
        if not isinstance(players, int) or not game.min_players <= players <= game.max_players:
            raise UsageError(f"{game.name or 'this game'} is for {game.min_players} to "
                             f"{game.max_players} players, not {players}")
        self.game = game
        self.n = players
        # the work allowance of each of this state's steps (lowered for a bot's look-ahead)
        self.max_work = MAX_WORK if max_work is None else max_work
        WORK[0] = LIMIT[0] = self.max_work
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
        self._gcache: dict = {}  # the groups last listed (Table.group_list)
        self.active = [True] * players
        # the seats still in play, in order: rules read it at every step, so it is kept (and
        # replaced, never changed in place, when a seat is eliminated)
        self.seated = list(range(players))
        self.g: list[Any] = [None] * len(game.globals)
        self.ctr: list[list[Any]] = [[0] * players for _ in game.counters]
        self.dealer = 0
        self.turn = 0
        self.direction = game.direction  # which way play goes now (seats.py)
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
        self.pending_end: str | None = None
        self._entries: list[tuple[ActionDef, tuple]] | None = None
        self._legal: dict[str, tuple[ActionDef, tuple]] | None = None
        self._legal_list: list[str] | None = None
        # with one pack, different legal entries have different texts (those of actions whose
        # options may repeat a move are made so: movekeys.drop_repeats), so bots that count
        # moves need no texts at all
        self._unique = game.copies == 1 and game.deck.faces_unique
        self._listing = listing_kind(self._unique, game.moves_distinct)
        self._moves: list[tuple[ActionDef, tuple]] = []
        self._moves_of: Any = None  # the entries list that _moves was made from
        self._deal_override = deal
        self.last_ended_by: str | None = None
        # one entry per finished round: (ended_by, turns played, dealer, counter change per
        # seat, the seats in play when it was dealt, decisions); a turn is played when a
        # decision is made in it (a deal that one seat's phases drive throughout is one turn)
        self.round_results: list[tuple[str | None, int, int, list[list[Any]], list[int],
                                       int]] = []
        self.turn_decided = -1  # the round's turn (as `turns` counts) of its latest decision
        self.conserved_start: dict[str, Any] = {}
        self._ctr0: list[list[Any]] = []
        self._round0: tuple[list[int], int] = ([], 0)  # the round's seats in play, decisions

        copies = game.copies if isinstance(game.copies, int) else self.packs(game.copies)
        unit = game.deck.pack_size
        ncards = max(1, copies) * unit
        if ncards > game.tables.size:
            raise RuntimeRulesError(f"the deck would need {ncards} cards, more than the "
                                    f"{game.tables.size} allowed")
        self.ncards = ncards
        self.loc = [game.home_zone] * ncards
        self.face = [self.zface[game.home_zone]] * ncards
        self.placer = [-1] * ncards if VIS_CODE["placer"] in self.zvis else None
        self.known = None  # kept only when a bot asks (known.py)
        self.nones: tuple[tuple[int, int], ...] = ()  # show_none's facts (known.py)
        self.zones[game.home_zone] = list(range(ncards))
        try:
            match_setup(self)
            for i, (_name, u) in enumerate(game.globals):
                self.g[i] = u(self)
            for i, (name, u) in enumerate(game.counters):
                for p in range(players):
                    self.actor = p
                    self.ctr[i][p] = counter(u(self), name, getattr(u, "span", None))
            for message, cond in game.requires:
                if not cond(self):
                    raise UsageError(f"{game.name or 'this game'} cannot be played with "
                                     f"{players} players and these options: {message}")
            if dealer is not None:
                if not 0 <= dealer < players:
                    raise UsageError(f"dealer must be a seat from 0 to {players - 1}")
                self.dealer = dealer
            elif game.first_dealer is not None:
                self.dealer = seat_of(self, game.first_dealer, "match.first_dealer")
            self.actor = self.dealer
            if game.match_start is not None:
                game.match_start(self)
                if dealer is not None:
                    self.dealer = dealer
            if start:
                apply_start(self, start)
            start_teams(self, start)
            self._start_round()
            self._run_on()
        except RecursionError:
            raise RuntimeRulesError("the rules nest too deeply while setting up") from None
        except PY_ERRORS as e:
            raise RuntimeRulesError(f"{why(e)} (while setting up, in phase "
                                    f"'{self.phase}')") from None
        self._count_work()

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

    def reseed(self, seed: float) -> None:
        """Give the state a generator of its own, seeded with ``seed`` when first drawn from (a
        sample made by ``views.determinize`` must not draw what the real game will)."""
        self._rng, self._rng_seed, self._rng_shared = None, seed, False

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
        if entry is None and self.apply_whole(move):  # several items of a choice at once
            return
        if entry is None:  # the cards of a list, or its melds, typed in another order
            entry = any_order(self, move)
        pieces = one_by_one(self, move) if entry is None else None
        if pieces:  # a card a move, several typed at once
            for p in pieces:
                self.apply(p)
            return
        if entry is None:
            texts = self._legal_list or []
            why = illegal.reason(self, move, self._legal, texts)
            raise IllegalMove(f"'{move}' is not a legal move for P{self.actor} now"
                              f"{': ' + why if why else ''}; legal: {', '.join(texts)}")
        self._apply_entry(*entry)

    def _apply_general(self, action: ActionDef, args: tuple) -> None:
        self.decisions += 1
        self.turn_decided = self.turns
        # a fresh allowance for this step (its use is counted at its end)
        WORK[0] = LIMIT[0] = self.max_work
        mover = self.actor
        trig_ok, self.triggers_clean = self.triggers_clean, False
        seen: set[tuple[int, int]] | None = None
        if self.record:
            self.history.append((mover, self.move_text(action, args)))  # type: ignore
        if action.item_of is not None:  # one item of a sequential choice (choice.py)
            whole = self.pick_item(action, args, trig_ok)
            if whole is None:  # the choice goes on; nothing else changes
                return
            action, args = whole  # the last item: the action runs once, on the whole
        if self.record:
            seen = {(c, v) for c in cards_in(args, self.ncards) for v in range(self.n)
                    if self.visible(c, v)}
        self._entries = None
        self._legal = None
        self._legal_list = None
        try:
            if action.nslots:
                F: list[Any] = [None] * action.nslots
                for arg, v in zip(action.args, args):
                    F[arg[3]] = v
            else:
                F = NO_FRAME
            if action.do is not None:
                action.do(self, F)
            if seen is not None:
                # a card a seat saw before the move or sees after it is named in its log
                self.events.append((mover, tuple(  # type: ignore[arg-type]
                    self.move_text(action, args, v, seen) for v in range(self.n))))
            if self.pending_end is not None:
                self._finish_round()
            elif action.step is not None:  # _goto and _enter_phase, generated for the action
                if action.step(self, trig_ok, F):
                    self._finish_round()
            else:
                if trig_ok:
                    self.check_next = action.check_after
                self._goto(action.next_const or (action.next(self, F) if action.next is not None
                                                 else "end_turn"),
                           getattr(action.next_tree, "span", action.span))
            if self.status == "round_over":
                self._run_on()
        except RecursionError:
            raise RuntimeRulesError(f"the rules nest too deeply in phase '{self.phase}'") \
                from None
        except PY_ERRORS as e:
            raise RuntimeRulesError(f"{why(e)} (in phase '{self.phase}')") from None
        # _count_work, written out: this runs at every step
        self.work_done += self.max_work - WORK[0]
        if self.work_done > MAX_GAME_WORK:
            self._too_much_work()

    def _count_work(self) -> None:
        """What the step that just ran used of its allowance counts towards the game's: each
        state counts its own steps, whatever other states (a bot's look-ahead) run between."""
        self.work_done += self.max_work - WORK[0]
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
            WORK[0] = LIMIT[0] = self.max_work
            try:
                self._next_round()
            except RecursionError:
                raise RuntimeRulesError("the rules nest too deeply while dealing") from None
            except PY_ERRORS as e:
                raise RuntimeRulesError(f"{why(e)} (while dealing)") from None
            self._count_work()

    def clone(self, share_rng: bool = False) -> State:
        """An independent copy. ``share_rng`` keeps the same RNG object: only for copies made
        from a sample that already has an RNG of its own (a bot's look-ahead)."""
        if share_rng and self._rng is None:
            self._rng = self.rng  # made now, so that the copy shares the very object
        s = State.__new__(State)
        d = s.__dict__
        d.update(self.__dict__)
        # (copy() and comprehensions: fewer instructions than slices and list(map(...)))
        s.zones = [z.copy() for z in self.zones]
        s.loc = self.loc.copy()
        s.face = self.face.copy()
        if self.placer is not None:
            s.placer = self.placer.copy()
        if self.known is not None:
            s.known = self.known.copy()
        s.active = self.active.copy()
        s.g = self.g.copy()
        s.ctr = [row.copy() for row in self.ctr]
        # always a new dict: an empty one shared with the clone would let its melds leak back
        s.groups = {k: v[:] for k, v in self.groups.items()} if self.groups else {}
        if not share_rng:
            # copy on first use: both share the generator, untouched, until either draws from
            # it (a look-ahead within a round never does); see ``rng``
            s._rng_shared = self._rng_shared = True
        if self.record:
            s.history = self.history[:]
            s.events = self.events[:]
        else:
            s.history = []
            s.events = []
        s.messages = []
        s.round_results = []
        s.conserved_start = self.conserved_start.copy() if self.conserved_start else {}
        # (the legal moves worked out so far came with the attributes: the same position)
        return s

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see (``views.view``)."""
        return views.view(self, seat)

    def determinize(self, seat: int, rng: random.Random, known: bool = False) -> State:
        """A sample of the hidden cards as ``seat`` may imagine them (``views.determinize``;
        ``known``: the cards it saw go into hidden zones kept there, known.py)."""
        return views.determinize(self, seat, rng, known)  # type: ignore[no-any-return]

    def forget_legal(self) -> None:
        """Drop the legal moves worked out so far (the position changed under them)."""
        self._entries = self._legal = self._legal_list = None

    # ------------------------------------------------------------------ flow

    def _goto(self, nxt: Any, where: Any = None) -> None:
        """Go to phase ``nxt`` (or end the turn); ``where``: the next: that named it."""
        g = self.game
        if nxt == "end_turn":
            if g.turn_end is not None:
                g.turn_end(self)
                if self.pending_end is not None:
                    self._finish_round()
                    return
            self.turn = (g.turn_next(self) if g.turn_next is not None
                         else self.next_seat(self.turn))
            self.turns += 1
            self.total_turns += 1
            self.phase = g.first_phase if g.first_phase_fn is None else g.first_phase_fn(self)
            if g.turn_start is not None:
                self.actor = self.turn
                g.turn_start(self)
                if self.pending_end is not None:
                    self._finish_round()
                    return
        else:
            if not isinstance(nxt, str) or nxt not in g.phases:
                raise RuntimeRulesError(f"next: {brief(nxt)} is not a phase (phases: "
                                        f"{', '.join(g.phases)}, or end_turn)", where)
            self.phase = nxt
        self._enter_phase()

    def _enter_phase(self) -> None:
        g = self.game
        ph = g.phases[self.phase]
        self.steps += 1
        self.round_steps += 1
        if self.round_steps > self.max_round_steps:
            raise RuntimeRulesError(f"the round ran more than {self.max_round_steps} steps "
                                    f"without ending (in phase '{self.phase}')", ph.span)
        if self.steps > self.max_game_steps:
            raise RuntimeRulesError(f"the game ran more than {self.max_game_steps} steps "
                                    f"(in phase '{self.phase}')", ph.span)
        actor = self.actor = ph.actor.call(self) if ph.actor is not None else self.turn
        if type(actor) is not int or not 0 <= actor < self.n:
            raise RuntimeRulesError(f"phase '{self.phase}': the player to act is {actor!r}, "
                                    "not a seat at this table", ph.span)
        if ph.enter is not None:
            ph.enter(self)
            if self.pending_end is not None:
                self._finish_round()
                return
        check = self.check_next or g.check_triggers
        self.check_next = None
        if check(self):  # type: ignore[misc]
            self._finish_round()
            return
        self.triggers_clean = True
        # the legal moves are worked out when first asked for (a look-ahead often never asks)
        self._entries = self._legal = self._legal_list = None
        if ph.house:  # played by the rules at once, not a decision (house.py)
            house.play(self)

    def fx_end_round(self, name: str) -> None:
        if self.pending_end is None:
            self.pending_end = name

    def fx_log(self, text: Any) -> None:
        if self.record:
            log_message(self.messages, text)
