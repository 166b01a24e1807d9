"""Compiling one phase of the rules for the builder (``build.py``): its actor, its ``enter:``
effects, and each action's arguments (a sequential choice among them: ``picks.py``),
``when:``, ``do:`` and ``next:``, then the phase's generated legal-move listing.
"""

from __future__ import annotations

import re
from typing import Any

from .argopts import Known, options_distinct
from .codegen import Src, fn_of, frame_call
from .compile import Compiler
from .deps import next_targets
from .errors import Span
from .flowgen import legal_function
from .game import UNKNOWN, ActionDef, PhaseDef, card_kind
from .hoist import SharedCalls, hoist_listing, unhoist, when_invariant_calls
from .housecheck import is_house
from .picks import make_pick, pick_count, pick_text
from .scope import Scope
from .yamlload import YMap


def build_phase(b: Any, c: Compiler, name: str, p: Any, span: Span) -> PhaseDef:
    """Phase ``name`` of the rules (its actor, ``enter:`` and actions) compiled by the
    builder ``b`` (``build.Builder``) with the compiler ``c``."""
    # the default actor is whose turn it is: the engine needs no code for that
    actor = (b.unit(c, p["actor"], p.span_of("actor"))  # (a house: house.py)
             if p and p.get("actor", "turn") != "turn" and not is_house(p) else None)
    enter = b.effects(c, p.get("enter"), p.span_of("enter")) if p else None
    actions: list[ActionDef] = []
    adoc = (p or {}).get("actions") or YMap()
    # what proving an argument's options distinct may look into (argopts.py)
    known = Known(c.sym.functions, {"rank": c.sym.card_rank, "suit": c.sym.card_suit})
    share = SharedCalls()  # calls the whens of actions without arguments make alike
    again: list[tuple[int, Any, Scope]] = []
    for aname, a in adoc.items():
        aspan = adoc.key_span(aname)
        a = a or YMap()
        sc = Scope(in_action=True, house=is_house(p))
        args: list[tuple[str, Any, str, int]] = []
        arg_srcs: list[Any] = []
        arg_spans: list[Span] = []
        argdoc = a.get("args") or YMap()
        distinct = True  # see ActionDef.distinct
        pick = None  # a sequential choice (picks.py): (its mapping, its item type)
        for argname, argexpr in argdoc.items():
            at = argdoc.span_of(argname)
            if isinstance(argexpr, YMap) or pick is not None:
                pick, argexpr, at = pick_text(b, str(argname), argexpr, at, pick)
            tree = b.parse(argexpr, "expr", at) if argexpr is not None else None
            # calls naming no argument before are made once per listing (hoist.py)
            listed = (hoist_listing(c, tree, [x[0] for x in args], sc)
                      if tree is not None and args and pick is None else [])
            try:
                fn, typ = (c.expr(tree, sc) if tree is not None else (None, "any"))
            finally:
                unhoist(c, listed)
            if pick is not None and pick[1] is None:  # the whole choice: a list of items
                pick, typ = (pick[0], _elem_type(typ)), f"list[{typ}]"
            slot = sc.new_slot(str(argname), _elem_type(typ))
            if fn is not None and card_kind(_elem_type(typ)) == UNKNOWN:
                # cards are numbers at run time: only the type tells a move how to show
                # one, and whether another seat may read it (issue 15)
                b.err(f"cannot tell what kind of value argument '{argname}' takes "
                         "(cards or numbers), so its moves cannot be written or hidden "
                         "from the other players; give the choices as a zone, a list of "
                         "cards or seats, a range, or a comprehension or filter over one",
                         argdoc.span_of(argname))
            if not options_distinct(tree, pick[1] if pick else _elem_type(typ), c.sym.zones,
                                    known):
                distinct = False
            if fn is not None:
                args.append((str(argname), fn_of(fn), _elem_type(typ), slot))
                arg_srcs.append(fn)
                arg_spans.append(at)
        count = pick_count(b, c, sc, pick[0]) if pick is not None else None
        when = when_src = when_tree = None
        if "when" in a:
            tree = when_tree = b.parse(a["when"], "expr", a.span_of("when"))
            if tree is not None and args:  # tried once per option: calls no option changes
                calls, scopes = when_invariant_calls(tree, {arg[0] for arg in args})
                c._held.update((id(k), sc.new_slot(f"@held{id(k)}")) for k in calls)
                c._held_scopes.update(scopes)
            c._share = share if not args and tree is not None else None
            seen = sum(share.seen.values())
            try:
                when_src = c.expr(tree, sc)[0] if tree is not None else None
            finally:
                c._held.clear()
                c._held_scopes.clear()
                c._share = None
            if sum(share.seen.values()) > seen:  # (only where c._share was set)
                again.append((len(actions), tree, sc))
            when = fn_of(when_src) if when_src is not None else None
        do = b.effects(c, a.get("do"), a.span_of("do"), sc) if "do" in a else None
        nxt = const = next_tree = targets = None
        if "next" in a:
            tree = b.parse(a["next"], "expr", a.span_of("next"))
            next_tree = tree if tree is not None else False
            if tree is not None:
                nsc_before = sc.phase_names
                sc.phase_names = True
                nxt, _t = c.expr(tree, sc)
                const = (c.cg.ns.get(nxt.src) if isinstance(nxt, Src)
                         and re.fullmatch(r"_k\d+", nxt.src) else None)
                nxt = frame_call(nxt, a.span_of("next"))  # its errors located there
                sc.phase_names = nsc_before
                targets = next_targets(tree, sc.slots, c.sym.phases)
        actions.append(ActionDef(str(aname), name, args, when, do, nxt, sc.n, aspan,
                                 a.span_of("when") if "when" in a else aspan,
                                 const if isinstance(const, str) else None,
                                 when_src, arg_srcs, next_tree, when_tree,
                                 arg_spans=arg_spans, distinct=distinct,
                                 next_targets=targets))
        if count is not None and args:
            make_pick(actions[-1], count, pick[0].span_of("count"), pick[1])  # type: ignore[index]
    _share_whens(c, share, again, actions)
    ph = PhaseDef(name, actor, enter, actions, 0, span, house=is_house(p))
    if not b.errors and not c.errors:
        ph.legal = legal_function(c.cg, actions, share.store)
    return ph


def _elem_type(t: str) -> str:
    if t.startswith("list[") and t.endswith("]"):
        return t[5:-1]
    return "any"


def _share_whens(c: Compiler, share: SharedCalls, again: list[tuple[int, Any, Scope]],
                 actions: list[ActionDef]) -> None:
    """The whens (of actions without arguments) that make a call another makes alike,
    compiled again for the phase's listing with that call kept once per listing
    (``hoist.SharedCalls``); the action's own ``when`` stays as first compiled."""
    share.repeated()
    if not share.wrap or c.errors:
        return
    for i, tree, sc in again:
        left = c._inline_left  # the budget of inlining is spent once per rules text
        c._share = share
        try:
            src = c.expr(tree, sc)[0]
        finally:
            c._share = None
            c._inline_left = left
        if not c.errors:
            actions[i].when_src = src
            actions[i].nslots = max(actions[i].nslots, sc.n)
    share.store[:] = [None] * len(share.index)
