"""Which triggers a step can make true: what rules text reads and what effects write.

Every trigger is false at the start of a step: one that held ended the round. So after a step,
only the triggers whose ``when`` reads something the step wrote can have become true, and only
those need checking. Each action's step is known before anyone plays: its ``do`` effects, then
either a phase (its ``enter`` effects) or the end of the turn (the turn's ``end`` and ``start``
effects, the turn, the first phase's ``enter``), and the engine's own writes (whose turn, the
phase, who acts). This module works out, from the checked AST, the things each expression reads
and each block of effects writes, and so the triggers to check after each action.

A step that changes only the mover's own zones (a ``move`` whose card comes from a zone the
compiler can tell, into ``hand[me]``) lets a trigger ``C and any(E for p in players)``, whose
``E`` reads the seats' own zones and counters only at ``p``, be asked of the mover alone
(``Deps.seat_form``): the others' answers cannot have changed.

It is conservative: anything it cannot follow (an overridden function, ``super``, a ``next``
that is computed, a built-in that looks at where cards lie) counts as reading or writing
everything, and a game with a trigger that does not end the round (it may hold at the start
of a step) checks every trigger after every step, as before.
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .builtins import BUILTINS
from .errors import RulesError, Span
from .parse import parse
from .rules import SIG, as_str

ALL = "*"  # reads or writes everything
# names of the language that read the state (the others, like suits or num_players, are fixed)
SPECIAL_READS = {"me": "me", "turn": "turn", "dealer": "dealer", "phase": "phase",
                 "round": "round", "turns": "turns", "ended_by": "ended_by",
                 "players": "players", "direction": "players"}
# state-reading built-ins: what they read (ALL: where cards lie and which face is up)
STATE_READS = {"next_seat": "players", "prev_seat": "players", "seats_from": "players",
               "active": "players", "owner": ALL, "zone_of": ALL, "visible_to": ALL}
# the engine's own writes at every step: who acts is worked out on entering a phase
STEP_WRITES = frozenset({"me"})
END_TURN_WRITES = frozenset({"turn", "turns", "phase"})


class Deps:
    """Reads and writes of the rules text of one game, by the names it declares."""

    def __init__(self, doc: Any, zones: list[str], counters: list[str], globs: list[str],
                 functions: dict[str, Any], supers: dict[str, Any],
                 per_player: set[str] | None = None) -> None:
        self.doc = doc
        self.zones = set(zones)
        # the zones of each player: only hand[me] is the mover's own (not a shared zone's
        # item); None: none is known to be
        self.per_player = per_player or set()
        self.counters = set(counters)
        self.globals = set(globs)
        self.functions = functions
        self.supers = supers
        self._fn_reads: dict[str, frozenset[str]] = {}
        self._proc_writes: dict[str, frozenset[str]] = {}
        self._busy: set[str] = set()
        self._procs = {}
        for key, body in (doc.get("procedures") or {}).items():
            m = SIG.match(str(key))
            if m:
                self._procs[m.group(1)] = body

    # ------------------------------------------------------------------ parsing
    @staticmethod
    def parse_expr(text: Any) -> N.Node | None:
        """The tree of an expression as ``Builder.unit`` parses it, or None."""
        if text is None:
            return None
        if isinstance(text, list):
            if len(text) != 1:
                return None  # several lines for one expression: not followed
            text = text[0]
        try:
            tree = parse(as_str(text, Span()), "expr", Span())
        except (RulesError, TypeError, ValueError):
            return None
        return tree if isinstance(tree, N.Node) else None

    @staticmethod
    def parse_stmts(value: Any) -> tuple[N.Node, ...] | None:
        """The statements of a block of effects as ``Builder.effects`` parses them, or None."""
        if value is None:
            return ()
        trees: list[N.Node] = []
        for line in value if isinstance(value, list) else [value]:
            try:
                t = parse(as_str(line, Span()), "stmts", Span())
            except (RulesError, TypeError, ValueError):
                return None
            if not isinstance(t, tuple):
                return None
            trees.extend(t)
        return tuple(trees)

    # ------------------------------------------------------------------ reads
    def reads(self, tree: N.Node | None) -> frozenset[str]:
        """What an expression reads: zones (``z:name``), counters (``c:``), globals (``g:``),
        the names of ``SPECIAL_READS``, or ALL."""
        if tree is None:
            return frozenset({ALL})
        out: set[str] = set()
        for n in N.walk(tree):
            if isinstance(n, N.Name):
                self._name_read(n.id, out)
            elif isinstance(n, N.Call):
                self._call_read(n.func, out)
            if ALL in out:
                return frozenset({ALL})
        return frozenset(out)

    def _name_read(self, name: str, out: set[str]) -> None:
        if name in SPECIAL_READS:
            out.add(SPECIAL_READS[name])
        if name in self.zones:
            out.add("z:" + name)
        if name in self.counters:
            out.add("c:" + name)
        if name in self.globals:
            out.add("g:" + name)
        if name in self.functions:  # a function passed by name (lowest(players, f))
            self._call_read(name, out)

    def _call_read(self, func: str, out: set[str]) -> None:
        if func in self.functions:
            out |= self.fn_reads(func)
        elif func == "super" or _effect(func):
            out.add(ALL)
        elif _state(func):
            out.add(STATE_READS.get(func, ALL))

    def fn_reads(self, name: str) -> frozenset[str]:
        """What calling the function ``name`` reads (a procedure, or an overridden function,
        whose reads are not followed: ALL)."""
        got = self._fn_reads.get(name)
        if got is not None:
            return got
        uf = self.functions.get(name)
        if (uf is None or uf.effect or uf.tree is None or "@" in name or name in self.supers
                or name in self._busy):
            return frozenset({ALL})
        self._busy.add(name)
        try:
            got = self.reads(uf.tree)
        finally:
            self._busy.discard(name)
        self._fn_reads[name] = got
        return got

    # ------------------------------------------------------------------ writes
    def writes(self, stmts: tuple[N.Node, ...] | None) -> frozenset[str]:
        """What a block of effects may write, in the terms of ``reads``."""
        if stmts is None:
            return frozenset({ALL})
        out: set[str] = set()
        for root in stmts:
            for n in N.walk(root):
                if isinstance(n, N.Assign):
                    if n.name in self.globals:
                        out.add("g:" + n.name)
                    elif n.name in self.counters:
                        out.add("c:" + n.name)
                    elif n.name in SPECIAL_READS:
                        out.add(SPECIAL_READS[n.name])
                elif isinstance(n, N.Call):
                    self._call_write(n, out)
                if ALL in out:
                    return frozenset({ALL})
        return frozenset(out)

    def _zone_of(self, node: N.Node) -> set[str]:
        """The zone an argument names (``stock``, ``hand[p]``); every zone when not plain."""
        if isinstance(node, N.Index):
            node = node.obj
        if isinstance(node, N.Name) and node.id in self.zones:
            return {"z:" + node.id}
        return {"z:" + z for z in self.zones}

    def _call_write(self, n: N.Call, out: set[str]) -> None:
        func = n.func
        if func in self.functions:
            if self.functions[func].effect:
                out |= self.proc_writes(func)
        elif func == "super":
            out.add(ALL)
        elif func in ("move", "gather", "meld", "unmeld"):
            # a card leaves whatever zone it was in: every zone may change
            out.update("z:" + z for z in self.zones)
        elif func == "shuffle" and n.args:
            out |= self._zone_of(n.args[0])
        elif func == "deal" and len(n.args) >= 2:
            out |= self._zone_of(n.args[0]) | self._zone_of(n.args[1])
        elif func in ("show", "hide"):
            out.add("face")
        elif func in ("eliminate", "reverse_direction", "set_direction"):
            out.add("players")  # who comes next
        elif func in ("end_round", "log", "show_none"):
            # a round that ends is settled before any trigger is checked; what log and
            # show_none keep, no rules text reads
            pass
        elif _effect(func):
            out.add(ALL)  # an effect not listed above

    def proc_writes(self, name: str) -> frozenset[str]:
        got = self._proc_writes.get(name)
        if got is not None:
            return got
        if "@" in name or name in self.supers or name in self._busy or name not in self._procs:
            return frozenset({ALL})
        self._busy.add(name)
        try:
            got = self.writes(self.parse_stmts(self._procs[name]))
        finally:
            self._busy.discard(name)
        self._proc_writes[name] = got
        return got

    # ------------------------------------------------------------------ seats
    def _zone_key(self, node: N.Node, me_ok: bool) -> set[str]:
        """What a move into (or out of) the zone ``node`` writes: ``z:Z`` for a shared zone,
        ``z:Z@me`` for the mover's own (``hand[me]``), every zone when not plain."""
        if isinstance(node, N.Name) and node.id in self.zones:
            return {"z:" + node.id}
        if (isinstance(node, N.Index) and isinstance(node.obj, N.Name)
                and node.obj.id in self.zones):
            if (me_ok and isinstance(node.index, N.Name) and node.index.id == "me"
                    and node.obj.id in self.per_player):
                return {"z:" + node.obj.id + "@me"}
            return {"z:" + node.obj.id}
        return {"z:" + z for z in self.zones}

    def _source(self, x: N.Node, me_ok: bool, args: dict[str, N.Node],
                assigned: dict[str, N.Node], rebound: set[str]) -> set[str]:
        """The zone a moved card comes from: ``top(Z)``/``bottom(Z)``; before any card has
        moved in the block, a name given such a card, or an argument chosen from a zone (or
        from a comprehension that only filters one)."""
        if isinstance(x, N.Call) and x.func in ("top", "bottom") and x.args \
                and x.func not in self.functions:  # a function of that name hides the built-in
            return self._zone_key(x.args[0], me_ok)
        if isinstance(x, N.Name):
            if x.id in assigned:
                return self._source(assigned[x.id], me_ok, {}, {}, set())
            if x.id in args and x.id not in rebound:
                opts = args[x.id]
                if (isinstance(opts, N.Comprehension) and len(opts.clauses) == 1
                        and isinstance(opts.elt, N.Name) and opts.elt.id == opts.clauses[0][0]):
                    opts = opts.clauses[0][1]  # [c for c in Z if ...]: some of Z's cards
                return self._zone_key(opts, me_ok)
        return {"z:" + z for z in self.zones}

    def step_writes(self, stmts: tuple[N.Node, ...] | None,
                    args: dict[str, N.Node]) -> frozenset[str]:
        """``writes`` of an action's effects, with the zones a ``move`` at the top of the block
        takes from and puts into where they can be told (see ``_source``): a card from a
        seat's own zone writes ``z:Z@me``. ``args``: the action's arguments' options."""
        if stmts is None:
            return frozenset({ALL})
        me_ok = "me" not in args and not any(
            isinstance(n, N.For) and n.var == "me" for root in stmts for n in N.walk(root))
        out: set[str] = set()
        moved = False
        assigned: dict[str, N.Node] = {}
        rebound: set[str] = set()
        for st in stmts:
            call = st.call if isinstance(st, N.ExprStmt) else None
            if call is not None and call.func == "move" and len(call.args) >= 2 \
                    and "move" not in self.functions:
                out |= self._zone_key(call.args[1], me_ok)
                out |= (self._source(call.args[0], me_ok, args, assigned, rebound) if not moved
                        else self._source(call.args[0], me_ok, {}, {}, set()))
                moved = True
                continue
            w = self.writes((st,))
            if ALL in w:
                return frozenset({ALL})
            out |= w
            if any(k.startswith("z:") or k == "face" for k in w):
                moved = True
            for n in N.walk(st):
                if isinstance(n, (N.Assign, N.For)):
                    name = n.name if isinstance(n, N.Assign) else n.var
                    assigned.pop(name, None)
                    rebound.add(name)
            if isinstance(st, N.Assign) and st.index is None and st.op == "=" and not st.path:
                assigned[st.name] = st.value
        return frozenset(out)

    def seat_form(self, tree: N.Node | None) -> tuple[frozenset[str], frozenset[str], str,
                                                      N.Node] | None:
        """A trigger ``C and any(E for v in players) and ...`` whose ``E`` reads seats' own
        zones and counters only at ``v``: (what all but those read, the zones and counters
        read at ``v``, ``v``, the trigger asked of one seat ``v`` only). None otherwise."""
        if tree is None:
            return None
        conj = list(tree.values) if isinstance(tree, N.BoolOp) and tree.op == "and" else [tree]
        found = [i for i, c in enumerate(conj) if isinstance(c, N.Call) and c.func == "any"
                 and "any" not in self.functions and len(c.args) == 1 and not c.kwargs
                 and isinstance(c.args[0], N.Comprehension) and len(c.args[0].clauses) == 1
                 and isinstance(c.args[0].clauses[0][1], N.Name)
                 and c.args[0].clauses[0][1].id == "players"]
        if len(found) != 1:
            return None
        comp = conj[found[0]].args[0]  # type: ignore[attr-defined]
        v, _it, cond = comp.clauses[0]
        plain: set[str] = {"players"}
        per: set[str] = set()
        parts = [comp.elt] if cond is None else [cond, comp.elt]
        for part in parts:
            if not self._seat_reads(part, {v}, plain, per):
                return None
        for i, c in enumerate(conj):
            if i != found[0]:
                if any(isinstance(n, N.Name) and n.id == v for n in N.walk(c)):
                    return None  # v means something else there
                plain |= self.reads(c)
        if ALL in plain:
            return None
        span = tree.span
        one = N.BoolOp(span, "and", (N.Compare(span, ("in",), (N.Name(span, v),
                                                               N.Name(span, "players"))),
                                     *parts))
        conj[found[0]] = one
        new = N.BoolOp(span, "and", tuple(conj)) if len(conj) > 1 else one
        return frozenset(plain), frozenset(per), v, new

    def _seat_reads(self, node: N.Node, seat: set[str], plain: set[str],
                    per: set[str]) -> bool:
        """Add what ``node`` reads to ``plain``, and to ``per`` the seats' zones and counters
        it reads only at a name of ``seat``; False where that cannot be followed."""
        if isinstance(node, N.Index) and isinstance(node.obj, N.Name) and isinstance(
                node.index, N.Name) and node.index.id in seat and node.obj.id not in seat:
            name = node.obj.id
            if name in self.zones or name in self.counters:
                per.add(("z:" if name in self.zones else "c:") + name)
                return True
        if isinstance(node, N.Name):
            if node.id not in seat:
                self._name_read(node.id, plain)
            return ALL not in plain
        bound = (node.name if isinstance(node, N.Let) else node.param
                 if isinstance(node, N.Lambda) else None)
        if bound in seat or (isinstance(node, N.Comprehension)
                             and any(cv in seat for cv, _i, _c in node.clauses)):
            return False  # the seat's name bound anew
        if isinstance(node, N.Call) and node.func in self.functions:
            uf = self.functions[node.func]
            if (uf.effect or uf.tree is None or "@" in node.func or node.func in self.supers
                    or node.func in self._busy or len(node.args) != len(uf.params)):
                return False
            inner = {p for p, a in zip(uf.params, node.args)
                     if isinstance(a, N.Name) and a.id in seat}
            for a in node.args:
                if not (isinstance(a, N.Name) and a.id in seat) and not self._seat_reads(
                        a, seat, plain, per):
                    return False
            self._busy.add(node.func)
            try:
                return self._seat_reads(uf.tree, inner, plain, per)
            finally:
                self._busy.discard(node.func)
        if isinstance(node, N.Call):
            self._call_read(node.func, plain)
        return ALL not in plain and all(self._seat_reads(k, seat, plain, per)
                                        for k in N.children(node))


def overlaps(reads: frozenset[str], writes: frozenset[str]) -> bool:
    """Whether a step that writes ``writes`` can change what reads ``reads`` (a seat's own
    zone, ``z:Z@me``, is a write of ``z:Z``)."""
    if ALL in reads or ALL in writes:
        return True
    return not reads.isdisjoint({w.split("@")[0] for w in writes})


def next_targets(tree: Any, bound: Any, phases: Any) -> tuple[str, ...] | None:
    """What a ``next:`` computed at run time can give, where it is phase names chosen by
    conditions (``if restart_due() then restart else end_turn``, nested): those names, as
    the compiler resolves them (a name ``bound`` in the action's scope is not a phase's).
    None where it may give anything else."""
    if isinstance(tree, N.IfExpr):
        a, b = next_targets(tree.then, bound, phases), next_targets(tree.orelse, bound, phases)
        return None if a is None or b is None else tuple(dict.fromkeys(a + b))
    if isinstance(tree, N.Name) and tree.id not in bound \
            and (tree.id in phases or tree.id == "end_turn"):
        return (tree.id,)
    if isinstance(tree, N.Const) and isinstance(tree.value, str):
        return (tree.value,)
    return None


def step_writes(deps: Deps, action_doc: Any, next_const: str | None, dynamic_next: bool,
                phase_enter: dict[str, Any], first_phase: str | tuple[str, ...],
                turn_doc: Any, targets: tuple[str, ...] | None = None) -> frozenset[str]:
    """What an action's step may write: its effects, then the engine's and the hooks' writes
    on the way to the next phase or turn (any of ``targets``, for a ``next:`` computed at
    run time that can give only those)."""
    if not hasattr(action_doc, "get"):
        return frozenset({ALL})  # an action not found as written: not followed
    args = {str(k): deps.parse_expr(v) for k, v in (action_doc.get("args") or {}).items()}
    w = set(deps.step_writes(deps.parse_stmts(action_doc.get("do")),
                             {k: v for k, v in args.items() if v is not None}))
    w |= STEP_WRITES
    nxt = "end_turn" if next_const is None and not dynamic_next else next_const
    for t in (nxt,) if nxt is not None or targets is None else targets:
        if t is None:
            w.add(ALL)
        elif t == "end_turn":
            w |= END_TURN_WRITES
            turn_doc = turn_doc or {}
            w |= deps.writes(deps.parse_stmts(turn_doc.get("end")))
            w |= deps.writes(deps.parse_stmts(turn_doc.get("start")))
            for fp in (first_phase,) if isinstance(first_phase, str) else first_phase:
                w |= deps.writes(deps.parse_stmts(phase_enter.get(fp)))
        else:
            w.add("phase")
            w |= deps.writes(deps.parse_stmts(phase_enter.get(t)))
    return frozenset(w)


Check = tuple[int, "tuple[str, N.Node] | None"]


def plan(game: Any, deps: Deps) -> dict[tuple[str, str], tuple[Check, ...]]:
    """For each action of the game, as (phase, action name): the triggers to check after its
    step, in order, as (index, None), or (index, (v, when)) where only the mover's own zones
    and counters can have changed and the trigger asks ``any(... for v in players)`` of
    them: then ``when`` asks it of the mover alone (bound to ``v``). Every trigger after every
    step when one of them does not end the round (it may hold at the start of a step)."""
    doc = game.doc
    triggers = game.triggers
    sure = all(ends for _n, _w, _d, ends in triggers)
    trig_doc = (doc.get("round") or {}).get("triggers") or {}
    reads, forms = [], []
    for name, _w, _d, _e in triggers:
        t = trig_doc.get(name)
        tree = deps.parse_expr(t.get("when") if isinstance(t, dict) else t)
        reads.append(deps.reads(tree))
        forms.append(deps.seat_form(tree))
    phases_doc = doc.get("phases") or {}
    enter = {str(k): (p or {}).get("enter") for k, p in phases_doc.items()}
    out: dict[tuple[str, str], tuple[Check, ...]] = {}
    for pname, ph in game.phases.items():
        adoc = (phases_doc.get(pname) or {}).get("actions") or {}
        for a in ph.actions:
            if not sure:
                out[(pname, a.name)] = tuple((i, None) for i in range(len(triggers)))
                continue
            dynamic = a.next is not None and a.next_const is None
            found = a.name in adoc
            w = step_writes(deps, (adoc.get(a.name) or {}) if found else None, a.next_const,
                            dynamic, enter, game.first_phases or game.first_phase,
                            doc.get("turn"), a.next_targets)
            checks: list[Check] = []
            for i, r in enumerate(reads):
                if not overlaps(r, w):
                    continue
                form = forms[i]
                if form is not None and not overlaps(form[0], w) and form[1].isdisjoint(w):
                    checks.append((i, (form[2], form[3])))  # the seat's zones: only @me
                else:
                    checks.append((i, None))
            out[(pname, a.name)] = tuple(checks)
    return out


def _effect(func: str) -> bool:
    """Whether ``func`` is a built-in that changes the game."""
    b = BUILTINS.get(func)
    return b is not None and b.effect


def _state(func: str) -> bool:
    """Whether ``func`` is a built-in that reads the game."""
    b = BUILTINS.get(func)
    return b is not None and b.state
