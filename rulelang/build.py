"""Stages 3-5 tied together: turn a merged rules document into an immutable, compiled ``Game``.

Options are fixed first (defaults, then the caller's overrides), because they are constants
in the compiled closures. Every string of rules text is parsed, checked and compiled here,
and every problem is collected so that ``rulelang check`` can report them all at once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import nodes as N
from .buildfuncs import compile_functions, signatures
from .buildphase import build_phase
from .buildteams import choose_first, team_counter_names, teams_unit
from .cards import Deck
from .codegen import unit_call
from .compile import Compiler
from .decks import card_attributes, read_deck
from .deps import Deps
from .displaycheck import build_display
from .engine import State
from .errors import (
    CheckError,
    RulesError,
    RulesErrors,
    Span,
    SyntaxErr,
    UsageError,
    did_you_mean,
    reset_hints,
)
from .flowgen import delta_triggers, triggers_function
from .fuse import act_function, step_function
from .game import Fn, Game, PhaseDef, Unit, ZoneDef
from .limits import MAX_COPIES, MAX_RULES_TEXT, RULES_TEXT_PIECE
from .movetext import canon_move
from .options import resolve_options
from .parse import parse
from .recursion import recursion_errors
from .roundgen import begin_function
from .rules import SIG, Loaded, as_str, func_name
from .scope import Scope, Symbols, join_src
from .structured import start_shapes, yaml_start
from .valuetables import option_values
from .yamlload import YMap


def _unit(fn: Fn, nslots: int, span: Span) -> Unit:
    return Unit(fn, nslots, span, unit_call(fn, nslots, span))


class Builder:
    def __init__(self, loaded: Loaded, options: dict[str, Any]) -> None:
        self.loaded = loaded
        self.doc = loaded.doc
        self.options = options
        self.errors: list[RulesError] = []
        self.warnings: list[RulesError] = []
        self.unit_type = "any"  # the type of the expression ``unit`` compiled last
        reset_hints()  # a new game: its own number of did-you-mean hints
        self.text_left = MAX_RULES_TEXT
        self.kept: dict[str, Any] = {}
        self.text_over = False

    def err(self, msg: str, span: Span) -> None:
        self.errors.append(CheckError(msg, span))

    def span(self, m: Any, key: str) -> Span:
        return m.span_of(key) if isinstance(m, YMap) else Span(self.loaded.path)

    def parse(self, text: Any, kind: str, span: Span) -> Any:
        if not self.take_text(text, span):
            return None
        try:
            return parse(as_str(text, span), kind, span)
        except SyntaxErr as e:
            self.errors.append(e)
            return None

    def take_text(self, text: Any, span: Span) -> bool:
        """Count a piece of rules text against the game's (see MAX_RULES_TEXT); False past it,
        reported once, at the piece that went past."""
        for piece in text if isinstance(text, list) else [text]:
            self.text_left -= max(RULES_TEXT_PIECE, len(piece) if isinstance(piece, str) else 0)
        if self.text_left >= 0:
            return True
        if not self.text_over:
            self.text_over = True
            self.err(f"the game has more than {MAX_RULES_TEXT} characters of rules text "
                     f"(expressions and effects, each counted as at least {RULES_TEXT_PIECE}); "
                     "the rest is not checked", span)
        return False

    def unit(self, c: Compiler, text: Any, span: Span, kind: str = "expr",
             params: tuple[str, ...] = (), phase_names: bool = False,
             in_action: bool = False, keep: str = "") -> Unit | None:
        if text is None:
            return None
        if isinstance(text, list):
            text = as_str("; ".join(str(t) for t in text), span) if len(text) != 1 else text[0]
            if isinstance(text, list):
                return None
        if kind == "stmts" and isinstance(text, list):
            return None
        tree = self.parse(text, kind, span)
        if tree is None:
            return None
        if keep:  # the parsed text, for the checker's passes (check.py)
            self.kept[keep] = tree
        sc = Scope(params, in_action=in_action, phase_names=phase_names)
        if kind == "stmts":
            fn = c.stmts(tree, sc)
        else:
            fn, self.unit_type = c.expr(tree, sc)
        return _unit(fn, sc.n, span)

    def start_unit(self, c: Compiler, text: Any, span: Span, types: dict[str, set[str]],
                   name: Any) -> Unit | None:
        """A global's or counter's starting value, its type added to what it is assigned."""
        self.unit_type = "any" if text is not None else "none"
        u = self.unit(c, yaml_start(text, span, self.errors), span)  # (bets: [] as "[]")
        types.setdefault(str(name), set()).add(self.unit_type)
        return u

    def effects(self, c: Compiler, value: Any, span: Span, sc: Scope | None = None) -> Any:
        """A list of effect lines (or one string) compiled into one closure on scope ``sc``."""
        if value is None:
            return None
        lines = value if isinstance(value, list) else [value]
        trees: list[N.Node] = []
        for i, line in enumerate(lines):
            lspan = value.span_of(i) if isinstance(value, list) and hasattr(value, "span_of") \
                else span
            t = self.parse(line, "stmts", lspan)
            if t is not None:
                trees.extend(t)
        own = sc is None
        sc = sc or Scope()
        fn = c.stmts(tuple(trees), sc)
        return _unit(fn, sc.n, span) if own else fn

    # -------------------------------------------------------------------- the whole game
    def build(self) -> Game:
        doc = self.doc
        players = doc.get("players") or {}
        pmin = int(players.get("min", 2))
        pmax = int(players.get("max", max(pmin, 8)))
        pdef = int(players.get("default", min(max(4, pmin), pmax)))
        if pmin > pmax:
            self.err("players.min is larger than players.max", self.span(doc, "players"))
        direction = -1 if doc.get("direction") == "anticlockwise" else 1

        deck_doc = doc.get("deck") or YMap()
        dspec = read_deck(deck_doc, self.err, self.span(doc, "deck"))
        ranks, jokers = dspec.ranks, dspec.jokers

        c_pre = None  # copies may depend on the number of players: evaluated per state
        copies_raw = deck_doc.get("copies", 1)

        # value tables: rank -> number; every rank of the deck needs an entry
        values: dict[str, dict[str, Any]] = {}
        for tname, table in (doc.get("values") or {}).items():
            t = {dspec.key(k): v for k, v in table.items()}
            missing = [r for r in ranks if r not in t]
            if jokers and "JK" not in t:
                missing.append("JK")
            missing += [u for u, _k in dspec.unsuited if u not in t]
            if missing:
                self.err(f"value table '{tname}' has no value for {', '.join(missing)}",
                         doc["values"].key_span(tname))
            values[str(tname)] = t
        # the deck's tables are made for the most packs: bounded before they are made
        if copies_raw is None:
            copies_raw = 1
        if not isinstance(copies_raw, str) and (type(copies_raw) is not int
                                                or not 1 <= copies_raw <= MAX_COPIES):
            self.err(f"deck.copies must be a whole number from 1 to {MAX_COPIES} (or an "
                     "expression)", self.span(deck_doc, "copies"))
            copies_raw = 1
        # an expression: the tables cover the largest deck any player count can ask for
        max_copies = copies_raw if isinstance(copies_raw, int) else MAX_COPIES
        deck = Deck(ranks, dspec.suits, jokers, max_copies, dspec.rank_copies, dspec.unsuited,
                    dspec.suit_first, dspec.french)
        tables = deck.build()
        if dspec.attributes:
            tables = replace(tables, attrs=card_attributes(dspec, tables, self.err))
        card_color = tables.attrs["color"][0] if "color" in tables.attrs else \
            tuple("red" if s in ("H", "D") else "black" if s else "none" for s in tables.suit)

        # zones: ids laid out for the largest table (per-player zones take max_players ids)
        zones: list[ZoneDef] = []
        zone_names: list[str] = []
        zone_owner: list[int] = []
        zmap: dict[str, tuple[int, bool]] = {}
        zdoc = doc.get("zones") or YMap()
        for zname, z in zdoc.items():
            z = z or {}
            per = bool(z.get("per_player", False))
            vis = z.get("visibility", "owner" if per else "hidden")
            face_up = z.get("face", "up" if vis == "public" else "down") == "up"
            zd = ZoneDef(str(zname), per, vis, face_up, bool(z.get("home", False)),
                         len(zone_names), bool(z.get("groups", False)), bool(z.get("trick")))
            if zd.groups and zd.trick:
                self.err("a zone of groups cannot be a trick zone", zdoc.key_span(zname))
            zones.append(zd)
            zmap[str(zname)] = (zd.first_id, per)
            for s in range(pmax if per else 1):
                zone_names.append(str(zname))
                zone_owner.append(s if per else -1)
        homes = [z for z in zones if z.home]
        if len(homes) > 1:
            self.err("only one zone can be the deck's home", zdoc.key_span(homes[1].name))
        shared = [z for z in zones if not z.per_player and not z.groups]
        home = homes[0] if homes else (shared[0] if shared else (zones[0] if zones else None))
        if home is None:
            self.err("a game needs at least one zone", self.span(doc, "zones"))

        counters = {str(k): i for i, k in enumerate((doc.get("counters") or {}).keys())}
        globs = {str(k): i for i, k in enumerate((doc.get("globals") or {}).keys())}
        for name in counters:
            if name in globs or name in zmap:
                self.err(f"'{name}' is declared twice (as a counter and a zone or global)",
                         doc["counters"].key_span(name))
        for name in globs:
            if name in zmap:
                self.err(f"'{name}' is both a global and a zone", doc["globals"].key_span(name))
        for kind, names, section in (("counter", counters, "counters"),
                                     ("global", globs, "globals"), ("zone", zmap, "zones")):
            for name in names:
                if name in values:  # name[c.rank] would read one and silently not the other
                    self.err(f"'{name}' is declared twice (as a value table and a {kind})",
                             doc[section].key_span(name))

        # settlement names and triggers give the ways a round can end
        rnd = doc.get("round") or YMap()
        settle_doc = rnd.get("settle") or YMap()
        trig_doc = rnd.get("triggers") or YMap()
        ended_by = [str(k) for k in settle_doc]
        for k, t in trig_doc.items():
            ends = not (isinstance(t, dict) and t.get("end") is False)
            if ends and str(k) not in ended_by:
                ended_by.append(str(k))

        # functions and procedures: signatures first, so that bodies may call each other
        functions, bodies = signatures(self, doc)

        phases_doc = doc.get("phases") or YMap()
        sym = Symbols(
            globals=globs, counters=counters, zones=zmap, options=self.options, values=values,
            card_values={k: tuple(v.get(r, 0) for r in tables.rank) for k, v in values.items()},
            data=dict(doc.get("data") or {}), functions=functions,
            phases={str(p) for p in phases_doc}, ended_by=set(ended_by), deck_size=tables.size,
            group_zones={z.name for z in zones if z.groups},
            card_rank=tables.rank, card_suit=tables.suit, card_order=tables.order,
            card_color=card_color,
            card_joker=tuple(r == "JK" for r in tables.rank), card_name=tables.name,
            card_attrs={k: v for k, v in tables.attrs.items() if k != "color"},
        )
        sym.team_counters = team_counter_names(self, doc, counters)
        sym.counter_shapes, sym.global_shapes = start_shapes(doc, self.options)
        for name in list(sym.data):
            if name in counters or name in globs or name in zmap or name in values:
                self.err(f"'{name}' is declared twice", doc["data"].key_span(name))
        c = Compiler(sym)
        self.errors.extend(option_values(c, doc, values, sym, self.parse))

        compile_functions(self, c, functions, bodies, sym)

        copies: Unit | int = copies_raw if isinstance(copies_raw, int) else 1
        tree = None if isinstance(copies_raw, int) else \
            self.parse(copies_raw, "expr", deck_doc.span_of("copies"))
        if tree is not None:
            sc = Scope()
            fn, t = c.expr(tree, sc)
            if t in ("int", "num", "any"):  # else a check error (at run time: State._copies)
                copies = _unit(fn, sc.n, deck_doc.span_of("copies"))
            else:
                self.err(f"deck.copies must be a number of packs, not {t}",
                         deck_doc.span_of("copies"))
        _ = c_pre

        counters_u = [(k, self.start_unit(c, v, doc["counters"].span_of(k), c.counter_types, k))
                      for k, v in (doc.get("counters") or {}).items()]
        globals_u = [(k, self.start_unit(c, v, doc["globals"].span_of(k), c.global_types, k))
                     for k, v in (doc.get("globals") or {}).items()]

        match = doc.get("match") or YMap()
        turn = doc.get("turn") or YMap()
        match_start = self.effects(c, match.get("start"), self.span(match, "start"))
        match_over = self.unit(c, match.get("over", "size(players) <= 1"),
                               self.span(match, "over"))
        match_winner = self.unit(c, match.get("winner", "players"), self.span(match, "winner"))
        c.setup_calls = True  # cut(): the first dealer is chosen once, while the game is set up
        first_dealer = self.unit(c, match.get("first_dealer"), self.span(match, "first_dealer"),
                                 keep="match.first_dealer")
        c.setup_calls = False
        req_doc = match.get("requires") or YMap()
        requires = [(str(k), u) for k, v in req_doc.items()
                    if (u := self.unit(c, v, req_doc.span_of(k))) is not None]
        round_start = self.effects(c, rnd.get("start"), self.span(rnd, "start"))
        round_first = self.unit(c, rnd.get("first", "next_seat(dealer)"), self.span(rnd, "first"),
                                keep="round.first")
        triggers = []
        for k, t in trig_doc.items():
            tspan = trig_doc.span_of(k)
            if isinstance(t, dict):
                when = self.unit(c, t.get("when"), t.span_of("when"))
                do = self.effects(c, t.get("do"), t.span_of("do"))
                ends = t.get("end", True) is not False
            else:
                when, do, ends = self.unit(c, t, tspan), None, True
            if when is not None:
                triggers.append((str(k), when, do, ends))
        settle = {str(k): self.effects(c, v, settle_doc.span_of(k)) for k, v in settle_doc.items()}
        round_end = self.effects(c, rnd.get("end"), self.span(rnd, "end"))
        next_dealer = self.unit(c, rnd.get("next_dealer", "next_seat(dealer)"),
                                self.span(rnd, "next_dealer"), keep="round.next_dealer")
        turn_start = self.effects(c, turn.get("start"), self.span(turn, "start"))
        turn_end = self.effects(c, turn.get("end"), self.span(turn, "end"))
        # the default, next_seat(turn), is the engine's own: no code to run for it
        turn_next = self.unit(c, turn.get("next"), self.span(turn, "next"))

        phases: dict[str, PhaseDef] = {}
        for pname, p in phases_doc.items():
            phases[str(pname)] = self.phase(c, str(pname), p, phases_doc.span_of(pname))
        first_phase, first_fn, firsts = choose_first(self, c, turn, phases_doc, phases)
        teams, team_ctrs = teams_unit(self, c, doc, counters)

        hand_eval = doc.get("hand_evaluator")
        if hand_eval is not None and (hand_eval not in functions or functions[hand_eval].effect):
            self.err(f"hand_evaluator '{hand_eval}' is not a function of the rules file"
                     f"{did_you_mean(str(hand_eval), functions)}", doc.span_of("hand_evaluator"))
        heur = doc.get("heuristic")
        if heur is not None:
            if heur not in functions or functions[heur].effect:
                self.err(f"heuristic '{heur}' is not a function of the rules file"
                         f"{did_you_mean(str(heur), functions)}", doc.span_of("heuristic"))
            elif len(functions[heur].params) != 1:
                self.err(f"the heuristic '{heur}' must take one argument: the seat it judges for",
                         doc.span_of("heuristic"))
            elif functions[heur].ret not in ("int", "num", "any"):  # the bot adds its scores up
                self.err(f"the heuristic '{heur}' must compute a number, not "
                         f"{functions[heur].ret}", doc.span_of("heuristic"))
        display = build_display(self, c, doc, functions, counters, globs)
        conserved = []
        for k, v in (doc.get("conserved") or {}).items():
            u = self.unit(c, v, doc["conserved"].span_of(k))
            if u is not None:
                conserved.append((str(k), u))

        self.errors.extend(c.errors)
        self.warnings.extend(c.warnings)
        self.errors.extend(recursion_errors(functions))
        game = Game(
            name=str(doc.get("name", "")), path=self.loaded.path, files=self.loaded.files,
            options=self.options, option_specs={}, min_players=pmin, max_players=pmax,
            default_players=pdef, direction=direction, deck=deck, copies=copies, tables=tables,
            zones=zones, zone_names=zone_names, zone_owner=zone_owner, nzones=len(zone_names),
            home_zone=home.first_id if home else 0,
            counters=[(k, u) for k, u in counters_u if u is not None],
            globals=[(k, u) for k, u in globals_u if u is not None], functions=functions,
            phases=phases, first_phase=first_phase, match_start=match_start,
            match_over=match_over, match_winner=match_winner, first_dealer=first_dealer,
            round_start=round_start, round_first=round_first, triggers=triggers, settle=settle,
            round_end=round_end, next_dealer=next_dealer, turn_start=turn_start,
            turn_end=turn_end, turn_next=turn_next, hand_evaluator=hand_eval, heuristic=heur,
            conserved=conserved, ended_by=ended_by, doc=doc, requires=requires,
            teams=teams, team_counters=team_ctrs, first_phase_fn=first_fn, first_phases=firsts,
            display=display,
        )
        game.generated = c.cg
        game.seat_trees = self.kept
        if not self.errors and not c.errors:
            game.check_triggers = triggers_function(c.cg, triggers)
            delta_triggers(c, game, Deps(doc, list(zmap), list(counters), list(globs),
                                             functions, self.loaded.supers,
                                             {z for z, (_i, per) in zmap.items() if per}))
            for ph in phases.values():
                for a in ph.actions:
                    a.step = step_function(c.cg, game, a)
                    a.act = act_function(c.cg, game, a)
            game.round_begin = begin_function(c.cg, game)
        for given, types in ((c.global_types, game.global_types),
                             (c.counter_types, game.counter_types)):
            for k, v in given.items():
                # 'none' means no value yet, whatever the kind; int and num make num
                t = "none"
                for x in sorted(v):
                    t = join_src(t, x)
                types[k] = t
        for w in c.text_writers:  # text(...) of a global: written by its type (display.py)
            w.resolve(game.global_types)
        game.moves_distinct = all(a.distinct for ph in phases.values() for a in ph.actions)
        for ph in phases.values():  # (names that differ only as move texts do are one move)
            ph.bare = all(not a.args for a in ph.actions) and \
                len({canon_move(a.name) for a in ph.actions}) == len(ph.actions)
        from .check import run_passes

        if not self.text_over:  # the flow passes need every phase's text
            self.errors.extend(run_passes(game, doc))
        return game

    def phase(self, c: Compiler, name: str, p: Any, span: Span) -> PhaseDef:
        return build_phase(self, c, name, p, span)


def build_game(loaded: Loaded, options: dict[str, Any] | None = None) -> Game:
    """Compile a loaded rules document with the given options; ``RulesErrors`` if it is bad."""
    values, specs = resolve_options(loaded.doc, options)
    b = Builder(loaded, values)
    try:
        game = b.build()
    except RulesError as e:
        b.errors.append(e)
        raise RulesErrors(b.errors) from None
    if b.errors:
        raise RulesErrors(b.errors)
    game.option_specs = specs
    game.state_type = State
    return game


def check_only(loaded: Loaded) -> list[RulesError]:
    """Every problem with a loaded rules document (its defaults for options)."""
    return check_all(loaded)[0]


def check_all(loaded: Loaded) -> tuple[list[RulesError], list[RulesError]]:
    """The problems with a loaded rules document (its defaults for options), and the warnings:
    likely mistakes that do not stop it from running."""
    try:
        values, _ = resolve_options(loaded.doc, None)
    except UsageError as e:
        return [e], []
    b = Builder(loaded, values)
    try:
        b.build()
    except RulesError as e:
        b.errors.append(e)
    return b.errors, b.warnings


def is_sig(key: str) -> bool:
    return bool(SIG.match(key)) and func_name(key) != ""
