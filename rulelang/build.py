"""Stages 3-5 tied together: turn a merged rules document into an immutable, compiled ``Game``.

Options are fixed first (defaults, then the caller's overrides), because they are constants
in the compiled closures. Every string of rules text is parsed, checked and compiled here,
and every problem is collected so that ``rulelang check`` can report them all at once.
"""

from __future__ import annotations

import re
from typing import Any

from . import nodes as N
from .builtins import BUILTINS
from .cards import Deck, rank_text
from .codegen import Namespace, Src, cond_lines, fn_of, src_of, unit_call
from .compile import Compiler, Scope, Symbols, UserFn
from .engine import State
from .errors import (
    CheckError,
    CheckWarning,
    RulesError,
    RulesErrors,
    RuntimeRulesError,
    Span,
    SyntaxErr,
    UsageError,
    did_you_mean,
)
from .game import ActionDef, Fn, Game, PhaseDef, Unit, ZoneDef
from .limits import (
    MEMO_ITEMS,
    MEMO_KEY_ITEMS,
    MEMO_LIMIT,
    MEMO_PAUSE,
    MEMO_PROBE,
    MEMO_PROBE_HITS,
    MEMO_RESULT_ITEMS,
)
from .parse import parse
from .rules import SIG, Loaded, as_str, func_name
from .runtime import NO_FRAME, PY_ERRORS, WORK, out_of_work
from .yamlload import YMap


def _unit(fn: Fn, nslots: int, span: Span) -> Unit:
    return Unit(fn, nslots, span, unit_call(fn, nslots, span))


def resolve_options(doc: YMap, given: dict[str, Any] | None) -> tuple[dict[str, Any],
                                                                     dict[str, dict[str, Any]]]:
    """Option values: the rules file's defaults, then ``given`` (strings are parsed by the type
    of the default). Raises ``UsageError`` for an unknown option or a bad value."""
    specs: dict[str, dict[str, Any]] = {}
    values: dict[str, Any] = {}
    for name, spec in (doc.get("options") or {}).items():
        specs[str(name)] = dict(spec)
        values[str(name)] = spec.get("default")
    for k, v in (given or {}).items():
        if k not in specs:
            raise UsageError(f"this game has no option '{k}'{did_you_mean(k, specs)}"
                             + (f"; its options are {', '.join(specs)}" if specs else ""))
        values[k] = coerce_option(k, v, specs[k])
    return values, specs


def coerce_option(name: str, v: Any, spec: dict[str, Any]) -> Any:
    default = spec.get("default")
    if isinstance(v, str):
        t = v.strip()
        if isinstance(default, bool):
            if t.lower() in ("true", "yes", "1", "on"):
                v = True
            elif t.lower() in ("false", "no", "0", "off"):
                v = False
            else:
                raise UsageError(f"option '{name}' takes true or false, not '{v}'")
        elif isinstance(default, int):
            try:
                v = int(t)
            except ValueError:
                raise UsageError(f"option '{name}' takes a whole number, not '{v}'") from None
        elif isinstance(default, float):
            try:
                v = float(t)
            except ValueError:
                raise UsageError(f"option '{name}' takes a number, not '{v}'") from None
    if isinstance(default, bool) != isinstance(v, bool) or (
            isinstance(default, (int, float)) and not isinstance(v, (int, float))):
        raise UsageError(f"option '{name}' takes a value like {default!r}, not {v!r}")
    if "min" in spec and isinstance(v, (int, float)) and v < spec["min"]:
        raise UsageError(f"option '{name}' must be at least {spec['min']}, not {v}")
    if "max" in spec and isinstance(v, (int, float)) and v > spec["max"]:
        raise UsageError(f"option '{name}' must be at most {spec['max']}, not {v}")
    if "choices" in spec and v not in spec["choices"]:
        raise UsageError(f"option '{name}' must be one of "
                         f"{', '.join(map(str, spec['choices']))}, not {v!r}")
    return v


class Builder:
    def __init__(self, loaded: Loaded, options: dict[str, Any]) -> None:
        self.loaded = loaded
        self.doc = loaded.doc
        self.options = options
        self.errors: list[RulesError] = []
        self.warnings: list[RulesError] = []

    def err(self, msg: str, span: Span) -> None:
        self.errors.append(CheckError(msg, span))

    def span(self, m: Any, key: str) -> Span:
        return m.span_of(key) if isinstance(m, YMap) else Span(self.loaded.path)

    def parse(self, text: Any, kind: str, span: Span) -> Any:
        try:
            return parse(as_str(text, span), kind, span)
        except SyntaxErr as e:
            self.errors.append(e)
            return None

    def unit(self, c: Compiler, text: Any, span: Span, kind: str = "expr",
             params: tuple[str, ...] = (), phase_names: bool = False,
             in_action: bool = False) -> Unit | None:
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
        sc = Scope(params, in_action=in_action, phase_names=phase_names)
        fn = c.stmts(tree, sc) if kind == "stmts" else c.expr(tree, sc)[0]
        return _unit(fn, sc.n, span)

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
        ranks = tuple(rank_text(r) for r in deck_doc.get("ranks", [
            2, 3, 4, 5, 6, 7, 8, 9, "T", "J", "Q", "K", "A"]))
        suits = tuple(str(s).upper() for s in deck_doc.get("suits", ["S", "H", "D", "C"]))
        for i, r in enumerate(ranks):
            if len(r) != 1 or r not in "23456789TJQKA":
                self.err(f"deck rank '{r}' is not one of 2-9, T, J, Q, K, A",
                         deck_doc["ranks"].span_of(i))
        for i, s in enumerate(suits):
            if s not in ("S", "H", "D", "C"):
                self.err(f"deck suit '{s}' is not one of S, H, D, C",
                         deck_doc["suits"].span_of(i))
        if len(set(ranks)) != len(ranks) or len(set(suits)) != len(suits):
            self.err("the deck lists a rank or a suit twice", self.span(doc, "deck"))
        jokers = int(deck_doc.get("jokers", 0))

        c_pre = None  # copies may depend on the number of players: evaluated per state
        copies_raw = deck_doc.get("copies", 1)

        # value tables: rank -> number; every rank of the deck needs an entry
        values: dict[str, dict[str, Any]] = {}
        for tname, table in (doc.get("values") or {}).items():
            t = {rank_text(k): v for k, v in table.items()}
            missing = [r for r in ranks if r not in t]
            if jokers and "JK" not in t:
                missing.append("JK")
            if missing:
                self.err(f"value table '{tname}' has no value for {', '.join(missing)}",
                         doc["values"].key_span(tname))
            values[str(tname)] = t
        max_copies = 1
        if isinstance(copies_raw, int):
            max_copies = max(1, copies_raw)
        else:
            max_copies = 8  # tables cover the largest deck any player count can ask for
        deck = Deck(ranks, suits, jokers, max_copies)
        tables = deck.build()

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
                         len(zone_names), bool(z.get("groups", False)))
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
        functions: dict[str, UserFn] = {}
        bodies: list[tuple[UserFn, Any, Span, bool]] = []
        for section, effect in (("functions", False), ("procedures", True)):
            sdoc = doc.get(section) or YMap()
            for key, body in sdoc.items():
                m = SIG.match(str(key))
                kspan = sdoc.key_span(key)
                if not m:
                    self.err(f"{section[:-1]} key '{key}' should look like name(a, b)", kspan)
                    continue
                name = m.group(1)
                params = tuple(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
                if name in functions:
                    self.err(f"'{name}' is defined twice", kspan)
                    continue
                uf = UserFn(name, params, kspan, effect)
                functions[name] = uf
                bodies.append((uf, body, sdoc.span_of(key), effect))
                chain = self.loaded.supers.get(name, [])
                prev, prev_body = uf, body
                for skey, sbody in reversed(chain):
                    # an overridden definition is compiled only if the one over it calls
                    # super(): a variant may replace a function whose old body uses a name
                    # it removes
                    if not _calls_super(prev_body, effect, kspan):
                        break
                    prev_body = sbody
                    sm = SIG.match(str(skey))
                    sparams = tuple(p.strip() for p in ((sm.group(2) if sm else "") or "")
                                    .split(",") if p.strip())
                    sup = UserFn(prev.name + "@super", sparams, kspan, effect)
                    functions[sup.name] = sup
                    bodies.append((sup, sbody, getattr(sbody, "span", kspan), effect))
                    prev = sup

        phases_doc = doc.get("phases") or YMap()
        sym = Symbols(
            globals=globs, counters=counters, zones=zmap, options=self.options, values=values,
            card_values={k: tuple(v.get(r, 0) for r in tables.rank) for k, v in values.items()},
            data=dict(doc.get("data") or {}), functions=functions,
            phases={str(p) for p in phases_doc}, ended_by=set(ended_by), deck_size=tables.size,
            group_zones={z.name for z in zones if z.groups},
            card_rank=tables.rank, card_suit=tables.suit, card_order=tables.order,
            card_color=tuple("red" if s in ("H", "D") else "black" if s else "none"
                             for s in tables.suit),
            card_joker=tuple(r == "JK" for r in tables.rank), card_name=tables.name,
        )
        for name in list(sym.data):
            if name in counters or name in globs or name in zmap or name in values:
                self.err(f"'{name}' is declared twice", doc["data"].key_span(name))
        c = Compiler(sym)
        self._option_values(c, doc, values, sym)

        for uf, body, bspan, effect in bodies:
            # the base of an override is compiled with its own name for super()
            base = uf.name.split("@")[0]
            sc = Scope(uf.params, fn=uf)
            c.touch = False
            if effect:
                fn = self.effects(c, body, bspan, sc)
            else:
                tree = self.parse(body, "expr", bspan)
                fn = None
                if tree is not None:
                    fn, uf.ret = c.expr(tree, sc)
                    uf.tree, uf.size = tree, sum(1 for _ in N.walk(tree))
                    uf.order_free = tuple(_order_free(tree, p) for p in uf.params)
            uf.nslots = sc.n
            uf.pure = not effect and not c.touch
            _install(uf, fn, base, c.cg)
        _memoize_pure(functions)
        c.functions_final = True

        copies: Unit | int
        if isinstance(copies_raw, int):
            copies = copies_raw
        else:
            u = self.unit(c, copies_raw, deck_doc.span_of("copies"))
            copies = u if u is not None else 1
        _ = c_pre

        counters_u = [(k, self.unit(c, v, doc["counters"].span_of(k)))
                      for k, v in (doc.get("counters") or {}).items()]
        globals_u = [(k, self.unit(c, v, doc["globals"].span_of(k)))
                     for k, v in (doc.get("globals") or {}).items()]

        match = doc.get("match") or YMap()
        turn = doc.get("turn") or YMap()
        match_start = self.effects(c, match.get("start"), self.span(match, "start"))
        match_over = self.unit(c, match.get("over", "size(players) <= 1"),
                               self.span(match, "over"))
        match_winner = self.unit(c, match.get("winner", "players"), self.span(match, "winner"))
        first_dealer = self.unit(c, match.get("first_dealer"), self.span(match, "first_dealer"))
        req_doc = match.get("requires") or YMap()
        requires = [(str(k), u) for k, v in req_doc.items()
                    if (u := self.unit(c, v, req_doc.span_of(k))) is not None]
        round_start = self.effects(c, rnd.get("start"), self.span(rnd, "start"))
        round_first = self.unit(c, rnd.get("first", "next_seat(dealer)"), self.span(rnd, "first"))
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
                                self.span(rnd, "next_dealer"))
        turn_start = self.effects(c, turn.get("start"), self.span(turn, "start"))
        turn_end = self.effects(c, turn.get("end"), self.span(turn, "end"))
        # the default, next_seat(turn), is the engine's own: no code to run for it
        turn_next = self.unit(c, turn.get("next"), self.span(turn, "next"))

        phases: dict[str, PhaseDef] = {}
        for pname, p in phases_doc.items():
            phases[str(pname)] = self.phase(c, str(pname), p, phases_doc.span_of(pname))
        first_phase = str(turn.get("first_phase", next(iter(phases_doc), "")))
        if phases and first_phase not in phases:
            self.err(f"turn.first_phase '{first_phase}' is not a phase"
                     f"{did_you_mean(first_phase, phases)}", self.span(turn, "first_phase"))

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
        conserved = []
        for k, v in (doc.get("conserved") or {}).items():
            u = self.unit(c, v, doc["conserved"].span_of(k))
            if u is not None:
                conserved.append((str(k), u))

        self.errors.extend(c.errors)
        self.errors.extend(_recursion_errors(functions))
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
        )
        game.generated = c.cg
        if not self.errors and not c.errors:
            game.check_triggers = _triggers_function(c.cg, triggers)
        for k, v in c.global_types.items():
            v = v - {"none"}  # 'none' means no value yet, whatever the kind
            game.global_types[k] = next(iter(v)) if len(v) == 1 else "any"
        from .check import run_passes

        self.errors.extend(run_passes(game, doc))
        return game

    def _option_values(self, c: Compiler, doc: YMap, values: dict[str, dict[str, Any]],
                       sym: Symbols) -> None:
        """Value-table entries written as expressions of options (``A: opt.ace``) are
        worked out once, here: the tables are constants of the compiled game."""
        for tname, table in values.items():
            tdoc = doc["values"][tname]
            for rank, v in list(table.items()):
                if not isinstance(v, str):
                    continue
                span = next((tdoc.span_of(k) for k in tdoc if rank_text(k) == rank), tdoc.span)
                tree = self.parse(v, "expr", span)
                if tree is None:
                    continue
                c.touch = False
                fn, _t = c.expr(tree, Scope())
                if c.touch:
                    self.err("a value table entry may use only numbers and options", span)
                    continue
                try:
                    table[rank] = fn(None, [])
                except Exception:
                    self.err("this value table entry could not be worked out", span)
                    continue
                if not isinstance(table[rank], (int, float)) or isinstance(table[rank], bool):
                    self.err(f"a value table entry must be a number, got {table[rank]!r}", span)
            sym.card_values[tname] = tuple(table.get(r, 0) for r in sym.card_rank)

    def phase(self, c: Compiler, name: str, p: Any, span: Span) -> PhaseDef:
        # the default actor is whose turn it is: the engine needs no code for that
        actor = (self.unit(c, p["actor"], p.span_of("actor"))
                 if p and p.get("actor", "turn") != "turn" else None)
        enter = self.effects(c, p.get("enter"), p.span_of("enter")) if p else None
        actions: list[ActionDef] = []
        adoc = (p or {}).get("actions") or YMap()
        for aname, a in adoc.items():
            aspan = adoc.key_span(aname)
            a = a or YMap()
            sc = Scope(in_action=True)
            args: list[tuple[str, Any, str, int]] = []
            arg_srcs: list[Any] = []
            argdoc = a.get("args") or YMap()
            for argname, argexpr in argdoc.items():
                tree = self.parse(argexpr, "expr", argdoc.span_of(argname))
                fn, typ = (c.expr(tree, sc) if tree is not None else (None, "any"))
                slot = sc.new_slot(str(argname), _elem_type(typ))
                if fn is not None and _elem_type(typ) in ("any", "list"):
                    # cards are numbers at run time: only the type tells a move how to show one
                    self.warnings.append(CheckWarning(
                        f"cannot tell what kind of value argument '{argname}' takes, so its "
                        "moves may show a card as a number (or numbers as cards); give the "
                        "choices as a zone, a list of cards or seats, or a comprehension or "
                        "filter over one", argdoc.span_of(argname)))
                if fn is not None:
                    args.append((str(argname), fn_of(fn), _elem_type(typ), slot))
                    arg_srcs.append(fn)
            when = when_src = when_tree = None
            if "when" in a:
                tree = when_tree = self.parse(a["when"], "expr", a.span_of("when"))
                when_src = c.expr(tree, sc)[0] if tree is not None else None
                when = fn_of(when_src) if when_src is not None else None
            do = self.effects(c, a.get("do"), a.span_of("do"), sc) if "do" in a else None
            nxt = const = next_tree = None
            if "next" in a:
                tree = self.parse(a["next"], "expr", a.span_of("next"))
                next_tree = tree if tree is not None else False
                if tree is not None:
                    nsc_before = sc.phase_names
                    sc.phase_names = True
                    nxt, _t = c.expr(tree, sc)
                    const = (c.cg.ns.get(nxt.src) if isinstance(nxt, Src)
                             and re.fullmatch(r"_k\d+", nxt.src) else None)
                    nxt = fn_of(nxt)
                    sc.phase_names = nsc_before
            actions.append(ActionDef(str(aname), name, args, when, do, nxt, sc.n, aspan,
                                     a.span_of("when") if "when" in a else aspan,
                                     const if isinstance(const, str) else None,
                                     when_src, arg_srcs, next_tree, when_tree))
        ph = PhaseDef(name, actor, enter, actions, 0, span)
        if not self.errors and not c.errors:
            ph.legal = _legal_function(c.cg, actions)
        return ph


def _legal_function(ns: Namespace, actions: list[ActionDef]) -> Fn:
    """One generated function that lists a phase's legal (action, arguments) entries in
    order: each action's ``when`` spliced in, one loop per action with one argument (actions
    with several arguments are enumerated by the engine). A Python error is reported at the
    ``when`` of the action being listed, and more than ``S.max_moves`` entries at the
    action."""
    lines = ["def _legal(S):", "    out = []", "    _a = 0", "    try:"]
    for i, a in enumerate(actions):
        frame = f"[None] * {a.nslots}" if a.nslots else ns.k(NO_FRAME)
        lines += [f"        _a = {i}", f"        F = {frame}"]
        check = ["if len(out) > S.max_moves:",
                 f"    raise RuntimeRulesError(f'more than {{S.max_moves}}' + "
                 f"{ns.k(' legal moves in phase ' + repr(a.phase))}, {ns.k(a.span)})"]
        if not a.args:  # at most one entry: the limit can only be passed when it is added
            lines += [*_when_test(a.when_src, " " * 8, ns),
                      f"            out.append({ns.k((a, ()))})",
                      *("            " + x for x in check)]
            continue
        if len(a.args) == 1 and len(a.arg_srcs) == 1:
            slot = a.args[0][3]
            opts = src_of(a.arg_srcs[0], ns)[0]
            lines += [f"        _o = {opts}",
                      "        if type(_o) is not list:",
                      "            _o = [_o]",
                      f"        for F[{slot}] in _o:",
                      *_when_test(a.when_src, " " * 12, ns),
                      f"                out.append(({ns.k(a)}, (F[{slot}],)))"]
        elif len(a.args) == len(a.arg_srcs):
            lines += _nested_loops(a, ns)
        else:
            lines.append(f"        S.enumerate_args({ns.k(a)}, out)")
        lines += ["        " + x for x in check]
    spans = ns.k(tuple(a.when_span for a in actions))
    lines += ["    except RulesError:", "        raise",
              "    except Exception as e:",
              f"        raise RuntimeRulesError(f'{{type(e).__name__}}: {{e}}', {spans}[_a]) "
              "from None",
              "    return out"]
    return ns.define("_legal", lines, actions[0].span if actions else None)


def _nested_loops(a: ActionDef, ns: Namespace) -> list[str]:
    """The loops that list an action with several arguments: one ``for`` per argument, each
    argument's options computed inside the loops of the ones before it (it may name them),
    the ``when`` innermost; the order of ``State.enumerate_args``, with no call per option."""
    lines: list[str] = []
    pad = " " * 8
    for i, ((_name, _fn, _typ, slot), src) in enumerate(zip(a.args, a.arg_srcs)):
        lines += [f"{pad}_o{i} = {src_of(src, ns)[0]}",
                  f"{pad}if type(_o{i}) is not list:",
                  f"{pad}    _o{i} = [_o{i}]",
                  f"{pad}for F[{slot}] in _o{i}:"]
        pad += "    "
    values = ", ".join(f"F[{arg[3]}]" for arg in a.args)
    return lines + [*_when_test(a.when_src, pad, ns),
                    f"{pad}    out.append(({ns.k(a)}, ({values},)))"]


def _when_test(when: Any, pad: str, ns: Namespace) -> list[str]:
    """The lines of an ``if`` on an action's ``when`` (``cond_lines`` where it has parts)."""
    if when is None:
        return [f"{pad}if True:"]
    if isinstance(when, Src) and when.parts is not None:
        return [*cond_lines(when, "_c", pad, ns), f"{pad}if _c:"]
    return [f"{pad}if {src_of(when, ns)[0]}:"]


def _triggers_function(ns: Namespace, triggers: list[tuple[str, Unit, Unit | None, bool]]) -> Fn:
    """One generated function that checks the triggers in order after a step, each ``when``
    spliced in with its own frame and its errors located at it. Returns whether one ended the
    round (its name is then in ``S.pending_end``; the engine finishes the round)."""
    lines = ["def _triggers(S):"]
    for name, when, do, ends in triggers:
        frame = f"[None] * {when.nslots}" if when.nslots else ns.k(NO_FRAME)
        lines += [f"    F = {frame}", "    try:", *cond_lines(when.fn, "_c", " " * 8, ns),
                  "    except PY_ERRORS as e:",
                  f"        raise RuntimeRulesError(f'{{type(e).__name__}}: {{e}}', "
                  f"{ns.k(when.span)}) from None",
                  "    if _c:"]
        if do is not None:
            lines.append(f"        {ns.k(do.call)}(S)")
        if ends:
            lines.append(f"        S.pending_end = {ns.k(name)}")
        lines += ["        if S.pending_end is not None:",
                  "            return True"]
    lines.append("    return False")
    return ns.define("_triggers", lines)


def _elem_type(t: str) -> str:
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return "any"


def _install(uf: UserFn, fn: Any, base: str, ns: Namespace) -> None:
    n = uf.nslots
    if fn is None:
        uf.fn = lambda S, *a: None
        return
    k = len(uf.params)
    span = uf.span
    # generated code runs on a frame that starts with the arguments
    params = [f"a{i}" for i in range(k)]
    frame = "[" + ", ".join(params + ["None"] * (n - k)) + "]"
    if uf.effect:  # a procedure: its statements
        uf.fn = ns.define("_p", [f"def _p({', '.join(['S', *params])}):",
                                 *ns.charge_lines(span), f"    {ns.k(fn)}(S, {frame})"], span)
        return
    if isinstance(fn, Src):
        uf.fn = ns.function(params, frame, fn, span, f" (in '{uf.name}')", charge=True)
        return
    fn = fn_of(fn)
    if k == 1 and n == 1:
        def func1(S: Any, a: Any) -> Any:
            WORK[0] -= 1
            if WORK[0] < 0:
                out_of_work(span)
            try:
                return fn(S, [a])
            except PY_ERRORS as e:
                raise RuntimeRulesError(f"{type(e).__name__}: {e} (in '{uf.name}')", span) \
                    from None
        uf.fn = func1
        return

    def func(S: Any, *args: Any) -> Any:
        WORK[0] -= 1
        if WORK[0] < 0:
            out_of_work(span)
        F = list(args) + [None] * (n - k) if n > k else list(args)
        try:
            return fn(S, F)
        except PY_ERRORS as e:
            raise RuntimeRulesError(f"{type(e).__name__}: {e} (in '{uf.name}')", span) \
                from None

    uf.fn = func
    _ = base




def _order_free(tree: N.Node, param: str) -> bool:
    """Whether the order of the list passed as ``param`` cannot matter: it is only looped over
    by a comprehension that sum/max/min/any/all reduce, sized, or searched with ``in``. (A
    hand evaluator then judges A K Q and K Q A once, not six times.)"""
    uses = allowed = 0
    for n in N.walk(tree):
        if isinstance(n, N.Name) and n.id == param:
            uses += 1
        elif isinstance(n, N.Call) and len(n.args) == 1 and not n.kwargs:
            arg = n.args[0]
            if (b := BUILTINS.get(n.func)) is not None and b.order_free and isinstance(
                    arg, N.Comprehension):
                allowed += sum(isinstance(it, N.Name) and it.id == param
                               for _v, it, _c in arg.clauses)
            elif n.func == "size" and isinstance(arg, N.Name) and arg.id == param:
                allowed += 1
        elif (isinstance(n, N.Compare) and n.ops in (("in",), ("not in",))
              and isinstance(n.operands[1], N.Name) and n.operands[1].id == param):
            allowed += 1
    return uses == allowed


def _exact(v: Any) -> bool:
    """Whether a result is the same whatever order it was computed in (no float rounding);
    a result too big to look through is not kept."""
    if type(v) is not list:
        return type(v) is not float
    # builtins.leaves written out (no generator step per card): the hands and melds that
    # such results are made of are looked through at every call that is not remembered yet
    stack = [v]
    n = 0
    while stack:
        x = stack.pop()
        n += len(x)
        if n > MEMO_RESULT_ITEMS:
            return False
        for y in x:
            if type(y) is list:
                stack.append(y)
            elif type(y) is float:
                return False
    return True


def _memoize_pure(functions: dict[str, UserFn]) -> None:
    """Remember the results of functions that read nothing but their arguments (hand
    evaluators, mostly): the same hand is judged many times in a game and across games."""
    changed = True
    while changed:  # a function is pure only if everything it calls is
        changed = False
        for uf in functions.values():
            if uf.pure and any(not functions[c].pure for c in uf.calls if c in functions):
                uf.pure = False
                changed = True
    for uf in functions.values():
        if not uf.pure or uf.fn is None:
            continue
        uf.fn = _memo(uf.fn, len(uf.params), uf.order_free)


def _key_items(key: Any) -> int:
    """How many items a memo key holds (lists became tuples in it)."""
    return len(key) if type(key) is tuple else 1


def _memo(inner: Any, k: int, order_free: tuple[bool, ...]) -> Any:
    """A memoising wrapper of ``inner(S, a0, ...)``, generated for its number of parameters:
    lists become tuples in the key, sorted where their order cannot matter (``_order_free``);
    such a result is kept only when exact (see ``_exact``). An argument that cannot be part of
    a key (a record) means the call is just computed. A memo that hardly ever finds a result
    is dropped for a while (``MEMO_PROBE``)."""
    params = [f"a{i}" for i in range(k)]
    keys = [f"(tuple(sorted({p})) if type({p}) is list else {p})" if k_free
            else f"(tuple({p}) if type({p}) is list else {p})"
            for p, k_free in zip(params, order_free or (False,) * k)]
    key = keys[0] if k == 1 else "(" + ", ".join(keys) + ("," if k == 1 else "") + ")"
    size = "_key_items(key)" if k == 1 else "sum([_key_items(x) for x in key])"
    if k == 0:
        key, size = "()", "1"
    args = ", ".join(["S", *params])
    keep = "if _exact(v): " if any(order_free) else ""
    # a remembered result charges the work it cost when it was computed, so that a game's
    # accounting is the same whatever ran before it in the process
    # seen = [misses, hits, calls left to compute directly] (see MEMO_PROBE): the results
    # and the work charged are the same either way, only the time differs
    src = "\n".join([
        f"def _m({args}):",
        "    if seen[2]:",
        "        seen[2] -= 1",
        f"        return inner({args})",
        "    try:",
        f"        key = {key}",
        "        v, cost = cache[key]",
        "    except KeyError:",
        "        pass",
        "    except TypeError:",
        f"        return inner({args})",
        "    else:",
        "        seen[1] += 1",
        "        WORK[0] -= cost",
        "        if WORK[0] < 0:",
        "            out_of_work()",
        "        return v",
        "    seen[0] += 1",
        f"    if seen[0] >= {MEMO_PROBE}:",
        "        hits = seen[1]",
        "        seen[0] = seen[1] = 0",
        f"        if hits < {MEMO_PROBE_HITS}:",
        "            cache.clear()",
        "            used[0] = 0",
        f"            seen[2] = {MEMO_PAUSE}",
        f"            return inner({args})",
        "    w = WORK[0]",
        f"    v = inner({args})",
        f"    n = {size}",
        f"    if n <= {MEMO_KEY_ITEMS}:  # big keys would fill the memory over a long run",
        f"        if len(cache) >= {MEMO_LIMIT} or used[0] + n > {MEMO_ITEMS}:",
        "            cache.clear()",
        "            used[0] = 0",
        f"        {keep}cache[key] = (v, w - WORK[0])",
        "        used[0] += n",
        "    return v"])
    ns: dict[str, Any] = {"__builtins__": {"tuple": tuple, "sorted": sorted, "type": type,
                                           "len": len, "list": list, "KeyError": KeyError,
                                           "TypeError": TypeError},
                          "inner": inner, "cache": {}, "_exact": _exact, "used": [0],
                          "seen": [0, 0, 0],
                          "_key_items": _key_items, "sum": sum, "WORK": WORK,
                          "out_of_work": out_of_work}
    exec(compile(src, "<memo>", "exec"), ns)
    return ns["_m"]


def _calls_super(body: Any, effect: bool, span: Span) -> bool:
    """Whether a function's (or procedure's) rules text calls super(...); text that does not
    parse counts as calling it, so that its errors are reported as before."""
    for line in body if isinstance(body, list) else [body]:
        try:
            tree = parse(as_str(line, span), "stmts" if effect else "expr", span)
        except RulesError:
            return True
        for root in tree if isinstance(tree, tuple) else (tree,):
            if any(isinstance(n, N.Call) and n.func == "super" for n in N.walk(root)):
                return True
    return False


def _recursion_errors(functions: dict[str, UserFn]) -> list[RulesError]:
    """Functions may not call themselves, directly or through others: every call ends."""
    errors: list[RulesError] = []
    reported: set[str] = set()
    for start in functions:
        stack = [(start, (start,))]
        seen: set[str] = set()
        while stack:
            name, path = stack.pop()
            for callee in functions[name].calls:
                if callee == start:
                    if start not in reported:
                        cyc = " -> ".join((*path, callee))
                        errors.append(CheckError(
                            f"'{start}' calls itself ({cyc}); recursion is not allowed, "
                            "use a loop or a comprehension", functions[start].span))
                        reported.update(path)
                elif callee not in seen and callee in functions:
                    seen.add(callee)
                    stack.append((callee, (*path, callee)))
    return errors


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
