"""The compiled game: everything fixed about a game once its rules and options are known.

``build`` makes a ``Game`` from a rules file; the engine reads it and nothing else of the
compiler. A ``Game`` holds plain facts (deck tables, zones, players, options) and compiled
pieces of rules text as ``Unit``s: callables over a state, each located at the text it came
from. It is immutable in use: every state of the game shares it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import Deck, DeckTables
from .errors import Span, UsageError, did_you_mean

if TYPE_CHECKING:  # the compiler's record of a rules function; only its type is named here
    from .scope import UserFn

Fn = Any
VISIBILITIES = ("hidden", "owner", "public", "top", "placer")
# placer: a card there is seen by the seat that put it there (``Table.placer``)
VIS_CODE = {"hidden": 0, "owner": 1, "public": 2, "top": 3, "placer": 4}

# What a value of a checker type may hold, as far as hidden cards go. Cards are ints at run
# time, so only the type tells a card from a number: FREE types never hold a card, CARDS types
# hold cards (or lists of them, groups on the table) and nothing else that is an int, and an
# UNKNOWN type may hold either. Views show an UNKNOWN int that is the number of a card the seat
# cannot see as '?', and sampled worlds remap it like a card (views.py).
FREE, CARDS, UNKNOWN = "free", "cards", "unknown"
# (a "record" is one the checker saw made of fields that hold no card: structured.py)
_FREE_TYPES = frozenset({"int", "num", "str", "bool", "none", "seat", "phase", "fn", "table",
                         "record"})


def card_kind(t: str) -> str:
    """FREE, CARDS or UNKNOWN: whether a value of checker type ``t`` may be (or hold) a card."""
    while t.startswith("list[") and t.endswith("]"):
        t = t[5:-1]
    if t in _FREE_TYPES:
        return FREE
    return CARDS if t in ("card", "group") else UNKNOWN


@dataclass
class ZoneDef:
    name: str
    per_player: bool
    visibility: str
    face_up: bool
    home: bool
    first_id: int
    groups: bool = False
    trick: bool = False  # remembers the seat that played each card (tricks.py)


@dataclass
class ActionDef:
    name: str
    phase: str
    args: list[tuple[str, Fn, str, int]]  # (name, closure giving the options, type, frame slot)
    when: Fn | None
    do: Fn | None
    next: Fn | None  # closure giving a phase name or 'end_turn'; None = end_turn
    nslots: int
    span: Span
    when_span: Span
    next_const: str | None = None  # the phase (or end_turn) when next: names one outright
    # the compiled ``when`` and argument options as the compiler gave them (``Src`` where it
    # could), for the phase's generated legal-move function
    when_src: Any = None
    arg_srcs: list[Any] = field(default_factory=list)
    # the parsed rules text, kept for the checker's passes (check.py): next: (None when the
    # action has none, so that it ends the turn; False when it did not parse) and when:
    next_tree: Any = None
    when_tree: Any = None
    # what a next: computed at run time can give, where it is phase names chosen by
    # conditions (deps.next_targets); None: anything
    next_targets: tuple[str, ...] | None = None
    # S -> like Game.check_triggers, over only the triggers this action's step can make true
    # (see deps.py); None: all of them
    check_after: Fn | None = None
    # (S, ok) -> what the engine does after the effects (next, entering the phase, the
    # triggers), generated as one function (see fuse.py); None: the engine's general path
    step: Fn | None = None
    # (S, mover) -> the check of the triggers for ``step`` where some are asked of the mover
    # alone (see deps.plan); None: ``check_after``
    step_check: Fn | None = None
    # (S, args, ok) -> the frame, the effects and ``step`` as one generated function (see
    # fuse.act_function); None: the engine runs ``do`` then ``step``
    act: Fn | None = None
    # how movekeys keys its legal entries (made when first needed): see movekeys._mode
    key_mode: tuple[str, str, int] | None = None
    # where each argument's options are written (``args:``), for errors raised listing them
    arg_spans: list[Span] = field(default_factory=list)
    # every argument takes cards read from zones, each zone once (``hand[me]``, ``up + down``):
    # with one pack, two of its legal entries then never have the same move text. Any other
    # options (a list of lists, ``hand[me] + hand[me]``, numbers) may repeat a move
    distinct: bool = False
    # a sequential choice (choice.py): its last argument is chosen one item at a time (on
    # the action itself), or this is the action that lists and takes one item (``item_of``:
    # the action whose choice it is; its last argument is one item)
    pick: Pick | None = None
    item_of: ActionDef | None = None


@dataclass
class Pick:
    """An action argument chosen one item at a time (``args: {cs: {pick: EXPR, count: N}}``):
    ``count`` items of the options ``EXPR`` gives, taken as several decisions of the actor
    within one turn; the action's ``when`` and ``do`` see the whole choice."""

    count: Fn  # (S, F) -> how many items, F holding the arguments before this one
    span: Span  # its count: (what errors of the choice are located at)
    item: ActionDef  # the action whose entries are one item each (its ``item_of`` is ours)


@dataclass
class PhaseDef:
    name: str
    actor: Unit | None
    enter: Unit | None
    actions: list[ActionDef]
    nslots: int
    span: Span
    # S -> the legal (action, arguments) entries, in order; made for every phase of a game
    # that compiles (one with errors never reaches the engine)
    legal: Fn | None = None
    # played by the rules themselves (``actor: house``), never a decision: see house.py
    house: bool = False
    # no action takes arguments: each lists at most one entry, all with different names, so
    # the entries are the distinct moves even with several packs (``State._distinct``)
    bare: bool = False


@dataclass
class Unit:
    """A compiled top-level piece of rules text: ``call(S)`` runs it with a frame of its own
    and reports a Python error at ``span``. ``fn`` is what the compiler gave (for splicing into
    other generated code), ``nslots`` its frame size."""

    fn: Fn
    nslots: int
    span: Span
    call: Fn = None

    def __call__(self, S: Any) -> Any:
        return self.call(S)


@dataclass
class Game:
    """Everything fixed about a game once its rules and options are known. Immutable in use."""

    name: str
    path: str
    files: list[tuple[str, str]]
    options: dict[str, Any]
    option_specs: dict[str, dict[str, Any]]
    min_players: int
    max_players: int
    default_players: int
    direction: int
    deck: Deck
    copies: Unit | int
    tables: DeckTables
    zones: list[ZoneDef]
    zone_names: list[str]  # zone id -> display name ("hand", "stock")
    zone_owner: list[int]  # zone id -> seat, or -1
    nzones: int
    home_zone: int
    counters: list[tuple[str, Unit]]
    globals: list[tuple[str, Unit]]
    functions: dict[str, UserFn]
    phases: dict[str, PhaseDef]
    first_phase: str
    match_start: Unit | None
    match_over: Unit | None
    match_winner: Unit | None
    first_dealer: Unit | None
    round_start: Unit | None
    round_first: Unit | None
    triggers: list[tuple[str, Unit, Unit | None, bool]]
    settle: dict[str, Unit | None]
    round_end: Unit | None
    next_dealer: Unit | None
    turn_start: Unit | None
    turn_end: Unit | None
    turn_next: Unit | None
    hand_evaluator: str | None
    heuristic: str | None
    conserved: list[tuple[str, Unit]]
    ended_by: list[str]
    doc: Any = field(repr=False, default=None)
    # every action's options are ActionDef.distinct (with one pack: no two entries one move)
    moves_distinct: bool = False
    # the checker's type of what each global and counter is given (its starting value and every
    # assignment): how a view shows it and whether a sampled world remaps it (``card_kind``)
    global_types: dict[str, str] = field(default_factory=dict)
    counter_types: dict[str, str] = field(default_factory=dict)
    # match.requires: (message, condition) pairs; a game whose players and options make one
    # false is refused before it starts
    requires: list[tuple[str, Unit]] = field(default_factory=list)
    # teams.of (a seat's team, with me = the seat; None: each seat a team of its own) and the
    # counters a team's seats share (their indices): see teams.py
    teams: Unit | None = None
    team_counters: tuple[int, ...] = ()
    # turn.first_phase written as an expression (None: first_phase, a phase named outright),
    # and the phases it may name
    first_phase_fn: Unit | None = None
    first_phases: tuple[str, ...] = ()
    # the house, when the game has one (a house phase or a ``house:`` section): house.HouseDef
    house: Any = None
    # what play shows (the ``display:`` section): display.DisplayDef, None without one
    display: Any = None

    # S -> whether a trigger ended the round (the name is then in S.pending_end); checked after
    # every step, made for every game that compiles
    check_triggers: Fn | None = None
    # S -> whether the round ended: a round's deal from its start effects to its first phase's
    # entry, generated as one function (roundgen.py); None: the engine's own path
    round_begin: Fn | None = None
    # the class of its states (engine.State), set by whoever builds the game: the model itself
    # knows no engine, so that the engine can import it
    state_type: Any = None
    # the generated code's namespace (codegen.Namespace): its sources, for ``compile --dump``
    generated: Any = field(repr=False, default=None)
    _kinds: Any = field(repr=False, default=None)  # slot_kinds(), once worked out
    # the parsed rules text of match.first_dealer, round.first and round.next_dealer (by those
    # names), for the checker's passes
    seat_trees: dict[str, Any] = field(repr=False, default_factory=dict)

    def new_state(self, players: int | None = None, seed: int = 0, dealer: int | None = None,
                  **kw: Any) -> Any:
        """A new game in progress: the first round dealt (see ``engine.State``)."""
        return self.state_type(self, self.default_players if players is None else players,
                               seed, dealer, **kw)

    def slot_kinds(self) -> tuple[list[str], list[str]]:
        """``card_kind`` of each global and of each counter, in order."""
        if self._kinds is None:
            self._kinds = ([card_kind(self.global_types.get(k, "any")) for k, _ in self.globals],
                           [card_kind(self.counter_types.get(k, "any")) for k, _ in self.counters])
        return self._kinds  # type: ignore[no-any-return]

    def evaluator(self, name: str | None = None) -> UserFn:
        name = name or self.hand_evaluator
        if name is None or name not in self.functions:
            known = [k for k in self.functions if "@" not in k and not self.functions[k].effect]
            raise UsageError(f"no evaluator named '{name}'{did_you_mean(str(name), known)}")
        return self.functions[name]

    def hand_zone(self) -> ZoneDef | None:
        """The players' hands: the first zone of each player that only its owner sees (plain
        cards, not groups); what the hand evaluator values in scenarios and in play."""
        return next((z for z in self.zones if z.per_player and z.visibility == "owner"
                     and not z.groups), None)

    def zone_def(self, zid: int) -> ZoneDef:
        """The declared zone that zone id ``zid`` belongs to (groups: their container's)."""
        for zd in self.zones:
            span = self.max_players if zd.per_player else 1
            if zd.first_id <= zid < zd.first_id + span:
                return zd
        return self.zones[0]
