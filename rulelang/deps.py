"""Which triggers a step can make true: what rules text reads and what effects write.

Every trigger is false at the start of a step: one that held ended the round. So after a step,
only the triggers whose ``when`` reads something the step wrote can have become true, and only
those need checking. Each action's step is known before anyone plays: its ``do`` effects, then
either a phase (its ``enter`` effects) or the end of the turn (the turn's ``end`` and ``start``
effects, the turn, the first phase's ``enter``), and the engine's own writes (whose turn, the
phase, who acts). This module works out, from the checked AST, the things each expression reads
and each block of effects writes, and so the triggers to check after each action.

It is conservative: anything it cannot follow (an overridden function, ``super``, a ``next``
that is computed, a built-in that looks at where cards lie) counts as reading or writing
everything, and a game with a trigger that does not end the round (it may hold at the start
of a step) checks every trigger after every step, as before.
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .compile import STATE_FUNCS
from .errors import RulesError, Span
from .parse import parse
from .rules import SIG, as_str

ALL = "*"  # reads or writes everything
# names of the language that read the state (the others, like suits or num_players, are fixed)
SPECIAL_READS = {"me": "me", "turn": "turn", "dealer": "dealer", "phase": "phase",
                 "round": "round", "turns": "turns", "ended_by": "ended_by",
                 "players": "players"}
# state-reading built-ins: what they read (ALL: where cards lie and which face is up)
STATE_READS = {"next_seat": "players", "prev_seat": "players", "seats_from": "players",
               "active": "players", "owner": ALL, "zone_of": ALL, "visible_to": ALL}
# the engine's own writes at every step: who acts is worked out on entering a phase
STEP_WRITES = frozenset({"me"})
END_TURN_WRITES = frozenset({"turn", "turns", "phase"})


class Deps:
    """Reads and writes of the rules text of one game, by the names it declares."""

    def __init__(self, doc: Any, zones: list[str], counters: list[str], globs: list[str],
                 functions: dict[str, Any], supers: dict[str, Any]) -> None:
        self.doc = doc
        self.zones = set(zones)
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
        elif func == "super" or (func in STATE_FUNCS and STATE_FUNCS[func][4]):
            out.add(ALL)
        elif func in STATE_FUNCS:
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
        elif func in ("move", "gather", "meld"):
            # a card leaves whatever zone it was in: every zone may change
            out.update("z:" + z for z in self.zones)
        elif func == "shuffle" and n.args:
            out |= self._zone_of(n.args[0])
        elif func == "deal" and len(n.args) >= 2:
            out |= self._zone_of(n.args[0]) | self._zone_of(n.args[1])
        elif func in ("show", "hide"):
            out.add("face")
        elif func == "eliminate":
            out.add("players")
        elif func in ("end_round", "log"):
            pass  # a round that ends is settled before any trigger is checked
        elif func in STATE_FUNCS and STATE_FUNCS[func][4]:
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


def overlaps(reads: frozenset[str], writes: frozenset[str]) -> bool:
    return ALL in reads or ALL in writes or not reads.isdisjoint(writes)


def triggers_after(deps: Deps, trigger_reads: list[frozenset[str]], action_doc: Any,
                   next_const: str | None, dynamic_next: bool, phase_enter: dict[str, Any],
                   first_phase: str, turn_doc: Any) -> list[int]:
    """The indices of the triggers to check after an action: those whose ``when`` reads
    something its step may write."""
    w = set(deps.writes(deps.parse_stmts((action_doc or {}).get("do"))))
    w |= STEP_WRITES
    nxt = "end_turn" if next_const is None and not dynamic_next else next_const
    if nxt is None:
        w.add(ALL)
    elif nxt == "end_turn":
        w |= END_TURN_WRITES
        turn_doc = turn_doc or {}
        w |= deps.writes(deps.parse_stmts(turn_doc.get("end")))
        w |= deps.writes(deps.parse_stmts(turn_doc.get("start")))
        w |= deps.writes(deps.parse_stmts(phase_enter.get(first_phase)))
    else:
        w.add("phase")
        w |= deps.writes(deps.parse_stmts(phase_enter.get(nxt)))
    fw = frozenset(w)
    return [i for i, r in enumerate(trigger_reads) if overlaps(r, fw)]


def plan(game: Any, deps: Deps) -> dict[tuple[str, str], tuple[int, ...]]:
    """For each action of the game, as (phase, action name): the indices of the triggers to
    check after its step. Every trigger after every step when one of them does not end the
    round (it may hold at the start of a step)."""
    doc = game.doc
    triggers = game.triggers
    every = tuple(range(len(triggers)))
    sure = all(ends for _n, _w, _d, ends in triggers)
    trig_doc = (doc.get("round") or {}).get("triggers") or {}
    reads = []
    for name, _w, _d, _e in triggers:
        t = trig_doc.get(name)
        reads.append(deps.reads(deps.parse_expr(t.get("when") if isinstance(t, dict) else t)))
    phases_doc = doc.get("phases") or {}
    enter = {str(k): (p or {}).get("enter") for k, p in phases_doc.items()}
    out: dict[tuple[str, str], tuple[int, ...]] = {}
    for pname, ph in game.phases.items():
        adoc = (phases_doc.get(pname) or {}).get("actions") or {}
        for a in ph.actions:
            dynamic = a.next is not None and a.next_const is None
            out[(pname, a.name)] = tuple(triggers_after(
                deps, reads, adoc.get(a.name), a.next_const, dynamic, enter, game.first_phase,
                doc.get("turn"))) if sure else every
    return out
