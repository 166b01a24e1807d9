"""The generated functions of a game's flow: each phase's legal-move listing and the triggers.

A phase's legal moves are listed by one generated function with every action's ``when``
spliced in and one loop per argument (nested loops for actions with several); the triggers are
one generated function checked after every step, and, per action, only the triggers its step
can make true, asked of the mover alone where that is exact (``deps``). All of it is source
written from fixed templates and constant names, executed by ``codegen``.
"""

from __future__ import annotations

import re
from typing import Any

from . import cardfilter
from .builtins import top_of_zone
from .codegen import LOCALS, Namespace, Src, cond_lines, frame_only_indexed, src_of
from .compile import Compiler
from .deps import Deps, plan
from .framelocals import frame_locals, init_line, try_define
from .game import ActionDef, Fn, Game, Unit
from .hoist import UNSET, held_again
from .listdebt import deferred
from .listloop import FILLS, any_key, filter_key, hoist_quiet, quiet_test, zone_filter
from .runtime import LISTING, NO_FRAME
from .scope import Scope


def legal_function(ns: Namespace, actions: list[ActionDef], shared: list | None = None) -> Fn:
    """One generated function that lists a phase's legal (action, arguments) entries in
    order: each action's ``when`` spliced in, one loop per argument. An error (a Python error,
    or a rules error raised where no rules text was known: a seat out of range, the work
    allowance) is located at the ``args:`` entry or the ``when`` being worked out (``_a``
    indexes their spans), and more than ``S.max_moves`` entries at the action. ``shared``:
    the calls several whens make alike (``hoist.SharedCalls.store``), emptied first."""
    spans: list[Any] = []
    # the cards counted by a one-argument action's loop (listloop.filter_key: its count's
    # name), which a later action's ``when`` reads for the same ``any`` (_shared_any)
    counts: dict[tuple, str] = {}
    # a first argument's options made by more than one action, by their source: the local
    # that keeps them once made ("" until then; _first_options)
    firsts = [src_of(a.arg_srcs[0], ns)[0] for a in actions if a.args and a.pick is None]
    kept = {raw: "" for raw in firsts if firsts.count(raw) > 1}
    # (each action starts by setting _a: with no shared calls to reset, the first sets it
    # before anything can fail)
    lines = ["def _legal(S):", "    out = []", *([] if actions and not shared else ["    _a = 0"]),
             "    try:"]
    # a game whose functions keep parts for a listing (listheld.py): a number for each
    numbered = any(v is LISTING for v in ns.ns.values())
    if numbered:
        lst = ns.k(LISTING)
        lines[1:1] = [f"    _was = {lst}[0]", f"    {lst}[0] = {lst}[1] = {lst}[1] + 1"]
    if shared:  # each listing starts with none of them made
        lines.append(f"        {ns.k(shared)}[:] = {ns.k((None,) * len(shared))}")
    # the actions without arguments before any with: each adds at most one entry, so where
    # the limit is at least their number none of their checks of it can fail (the limit is
    # read once: nothing changes it while a listing runs)
    bare = next((i for i, a in enumerate(actions) if a.args), len(actions))
    lines[1:1] = ["    _mm = S.max_moves", *([f"    _few = _mm < {bare}"] if bare else [])]
    own = list(lines)  # the same with each action's frame as locals (framelocals.py)
    for i, a in enumerate(actions):
        frame = f"[None] * {a.nslots}" if a.nslots else ns.k(NO_FRAME)
        when = len(spans)
        spans.append(a.when_span)
        lines.append(f"        _a = {when}")
        check = [f"if {'_few and ' if i < bare else ''}len(out) > _mm:",
                 f"    raise RuntimeRulesError(f'more than {{S.max_moves}}' + "
                 f"{ns.k(' legal moves in phase ' + repr(a.phase))}, {ns.k(a.span)})"]
        if not a.args:  # at most one entry: the limit can only be passed when it is added
            block = [*_when_test(_shared_any(a.when_src, counts, ns), " " * 8, ns),
                     f"            out.append({ns.k((a, ()))})",
                     *("            " + x for x in check)]
        else:
            block = [*_nested_loops(a, ns, spans, when, counts, kept),
                     *("        " + x for x in check)]
        own.append(f"        _a = {when}")
        text = "\n".join(block)
        if re.search(r"\bF\b", text):  # no frame where nothing reads one
            lines.append(f"        F = {frame}")
            loc = frame_locals(text, 0)
            own += [f"        F = {frame}", *block] if loc is None else [
                *init_line(loc[1], " " * 8), *loc[0].split("\n")]
        else:
            own += block
        lines += block
    k = ns.k(tuple(spans))
    tail = ["    except RulesError as e:",
            f"        _located(e, {k}[_a])",
            "        raise",
            "    except Exception as e:",
            f"        raise RuntimeRulesError(_why(e), {k}[_a]) from None",
            *(["    finally:", f"        {lst}[0] = _was"] if numbered else []),
            "    return out"]
    lines += tail
    own += tail
    # kept calls reached again charged at the listing's end (listdebt.py)
    later = deferred(own, ns), deferred(lines, ns)
    if later[0] is not None and later[1] is not None:
        own, lines = later
    return try_define(ns, "_legal", own, lines, actions[0].span if actions else None)


def _nested_loops(a: ActionDef, ns: Namespace, spans: list[Any], when: int,
                  counts: dict[tuple, str], kept: dict[str, str]) -> list[str]:
    """The loops that list an action with several arguments: one ``for`` per argument, each
    argument's options computed inside the loops of the ones before it (it may name them),
    the ``when`` innermost: each option in order, with no call per option (each loop's
    options are charged to the listing's work). ``_a`` names the argument while its options
    are worked out (its span is added to ``spans``), the ``when`` (``spans[when]``) while the
    loops run. ``counts``: see ``_fused_last``."""
    lines: list[str] = []
    pad = " " * 8
    span = ns.k(a.span)
    for i, ((_name, _fn, _typ, slot), src) in enumerate(zip(a.args, a.arg_srcs)):
        arg_span = a.arg_spans[i] if i < len(a.arg_spans) else a.when_span
        spans.append(arg_span)
        if a.pick is not None and i == len(a.args) - 1:
            # a sequential choice: its first items, each a move (choice.py), in place of
            # one move per whole choice; the when is tried there, on whole choices
            return lines + [f"{pad}_a = {len(spans) - 1}",
                            f"{pad}_o{i} = {src_of(src, ns)[0]}",
                            f"{pad}_a = {when}",
                            f"{pad}out.extend(S.pick_entries({ns.k(a)}, F, _o{i}))"]
        # every option tried is charged, whether its ``when`` passes or not: five card
        # arguments over a stock are 46^5 tests, of which the moves kept are few
        raw = src_of(src, ns)[0]
        resets, opts = _hoisted_locals(raw, ns)
        if i == len(a.args) - 1:
            count = f"_n{len(spans)}" if i == 0 else "_n"
            fused = _fused_last(a, ns, opts, slot, pad, when, span, count)
            if fused is not None:
                key = filter_key(raw, ns.ns) if i == 0 else None
                if key is not None and key not in counts:
                    counts[key] = count  # run once, at the top of the listing
                lines += [f"{pad}_a = {len(spans) - 1}", *(pad + r for r in resets), *fused]
                return _localized_args(a, lines)
        zopts = _zone_options(opts, i, pad, ns)
        made = [*(pad + r for r in resets), *zopts]
        lines += [f"{pad}_a = {len(spans) - 1}",
                  *(_first_options(raw, made, kept, pad, ns) if i == 0 else made),
                  f"{pad}_a = {when}",
                  # (a zone's filter, more than one line, is a list)
                  *([f"{pad}if type(_o{i}) is not list:", f"{pad}    _o{i} = [_o{i}]"]
                    if len(zopts) == 1 else []),
                  # runtime.work written out (one call less per argument listed)
                  f"{pad}WORK[0] -= len(_o{i})",
                  f"{pad}if WORK[0] < 0:",
                  f"{pad}    _out_of_work({span})",
                  f"{pad}for F[{slot}] in _o{i}:"]
        pad += "    "
    values = ", ".join(f"F[{arg[3]}]" for arg in a.args)
    lines += [*_when_test(_shared_any(a.when_src, counts, ns), pad, ns),
              f"{pad}    out.append(({ns.k(a)}, ({values},)))"]
    return _localized_args(a, lines)


def _first_options(raw: str, lines: list[str], kept: dict[str, str], pad: str,
                   ns: Namespace) -> list[str]:
    """The lines that make an action's first argument's options (``_o0``), where an earlier
    action of the listing made the same options from the same source (two actions whose
    ``args:`` call the same rules function of ``me``): its value again, its work charged
    again as making it would (``hoist.held_again``); the first time, the value and its work
    are kept as (work left before, value, work left after), a tuple made with no call
    (``kept``: such a source -> the local holding them, "" until made). A listing
    changes nothing it reads, and a first argument reads no other: the same source makes the
    same options."""
    name = kept.get(raw)
    if name is None:  # made once in the listing
        return lines
    if name:
        return [f"{pad}_o0 = {ns.k(held_again)}({name})"]
    name = kept[raw] = f"_kept{sum(1 for v in kept.values() if v)}"
    return [f"{pad}_w = WORK[0]", *lines, f"{pad}{name} = (_w, _o0, WORK[0])"]


def _zone_options(opts: str, i: int, pad: str, ns: Namespace) -> list[str]:
    """``_o<i> = opts``, and where ``opts`` filters a zone (``listloop.zone_filter``), the
    zone's charge written out before the comprehension (``runtime.work``: a call less); a
    filter of the card alone read from its table (``_card_only``)."""
    zf = zone_filter(opts)
    if zf is None:
        return [f"{pad}_o{i} = {opts}"]
    zone, zspan, conds, var = zf
    head = [f"{pad}_z = {zone}",
            f"{pad}WORK[0] -= len(_z)",
            f"{pad}if WORK[0] < 0:",
            f"{pad}    _out_of_work({zspan})"]
    if not conds or any(":=" in c or " for " in c or "lambda" in c for c in conds):
        tests = "".join(f" if ({c})" for c in conds)
        return [*head, f"{pad}_o{i} = [{var} for {var} in _z{tests}]"]
    table = _card_only(conds, var, ns)
    if table is not None:
        conds = [f"{table}[{var}]"]
    # a filter (which keeps few) as a loop in place: no comprehension's function to call
    return [*head, f"{pad}_o{i} = []", f"{pad}for {var} in _z:",
            f"{pad}    if {' and '.join(f'({c})' for c in conds)}:",
            f"{pad}        _o{i}.append({var})"]


def _localized_args(a: ActionDef, lines: list[str]) -> list[str]:
    """A listing block's lines with the action's arguments as Python locals."""
    if LOCALS and frame_only_indexed("\n".join(lines)):
        # the arguments as Python locals (as codegen.local_slot): nothing hands the frame on
        for arg in a.args:
            ref = re.compile(r"\bF\[" + str(arg[3]) + r"\]")
            lines = [ref.sub(f"_v{arg[3]}", line) for line in lines]
    return lines


def _fused_last(a: ActionDef, ns: Namespace, opts: str, slot: int, pad: str, when: int,
                span: str, count: str) -> list[str] | None:
    """The last argument's loop and the ``when`` as one loop (``listloop``), where its
    options filter a zone and the ``when`` can neither fail nor charge work; None elsewhere.
    The filtered cards are counted (in ``count``) and charged after the loop, as the list
    was; a one-argument action's count tells a later ``any`` of the same test on the same
    zone its answer (``_shared_any``)."""
    zf = zone_filter(opts)
    test = "True" if a.when_src is None else src_of(a.when_src, ns)[0]
    if zf is None or not quiet_test(test, slot, ns.ns):
        return None
    zone, zspan, conds, var = zf
    lifted, conds = hoist_quiet(conds, var, ns.ns)
    name = re.compile(r"\b" + re.escape(var) + r"\b")
    conds = [name.sub(f"F[{slot}]", c) for c in conds]
    if any(re.search(r"\bF\[" + str(slot) + r"\]\s*:=", c) for c in conds):
        return None
    values = ", ".join(f"F[{arg[3]}]" for arg in a.args)
    inner = pad + "    "
    lines = [*(pad + x for x in lifted),
             f"{pad}_z = {zone}",
             f"{pad}WORK[0] -= len(_z)",
             f"{pad}if WORK[0] < 0:",
             f"{pad}    _out_of_work({zspan})",
             f"{pad}{count} = 0"]
    only = _card_only(conds, f"F[{slot}]", ns)
    if only is not None:
        conds = [f"{only}[F[{slot}]]"]
    table = cardfilter.plan(conds, f"F[{slot}]", ns.ns, ns.k(cardfilter.reach)) \
        if conds and only is None and cardfilter.KEYED else None
    if table is not None:  # the filter read from a table by card (cardfilter.py)
        lines += _table_head(table, pad, ns)
        tail = _filter_body(a, ns, values, count, inner + "        ", test)
        lines += [f"{pad}if _cT is None:",
                  f"{inner}for F[{slot}] in _z:",
                  f"{inner}    if {' and '.join(f'({c})' for c in conds)}:",
                  *tail,
                  f"{pad}else:",
                  *(f"{inner}if _cT[{i + 1}].isdisjoint(_z):\n"
                    f"{inner}    WORK[0] += _cw{i} - _cw{i + 1}" for i in range(len(table.fills))),
                  f"{inner}_cT = _cT[0]",
                  f"{inner}for F[{slot}] in _z:",
                  f"{inner}    if _cT[F[{slot}]]:",
                  *tail]
    else:
        lines.append(f"{pad}for F[{slot}] in _z:")
        if conds:
            lines.append(f"{inner}if {' and '.join(f'({c})' for c in conds)}:")
            inner += "    "
        lines += _filter_body(a, ns, values, count, inner, test)
    return [*lines,
            f"{pad}_a = {when}",
            f"{pad}WORK[0] -= {count}",
            f"{pad}if WORK[0] < 0:",
            f"{pad}    _out_of_work({span})"]


def _card_only(conds: list[str], card: str, ns: Namespace) -> str | None:
    """The name of a constant table by card id of the filter ``conds`` where it reads the
    card (``card``) and constants alone (``cardfilter``: one index for the test); None
    elsewhere."""
    p = cardfilter.plan(conds, card, ns.ns, ns.k(cardfilter.reach)) if conds else None
    if p is None or p.keys or p.fills:
        return None
    return ns.k(cardfilter.table_maker(ns.define("_cardtest", p.test), p.ncards, 0)(())[0])


def _filter_body(a: ActionDef, ns: Namespace, values: str, count: str, inner: str,
                 test: str) -> list[str]:
    """A card that passed the filter: counted, and its entry added where the ``when``
    holds."""
    lines = [f"{inner}{count} += 1"]
    if test != "True":
        lines.append(f"{inner}if {test}:")
        inner += "    "
    return [*lines, f"{inner}out.append(({ns.k(a)}, ({values},)))"]


def _table_head(table: cardfilter.Plan, pad: str, ns: Namespace) -> list[str]:
    """The hoisted calls made before the loop (the work after each kept in ``_cw<i>``) and
    the table of the values (``_cT``); None in ``_cT``, the calls unmade and the work set
    back, where a call fails (``cardfilter``)."""
    test = ns.define("_cardtest", table.test)
    build = ns.k(cardfilter.table_maker(test, table.ncards, len(table.fills)))
    cache = ns.k({})
    key = f"({', '.join(table.keys)},)" if table.keys else "()"
    unset = ns.k(UNSET)
    lines = [f"{pad}_cw0 = WORK[0]", f"{pad}try:"]
    top = next((k for k, v in ns.ns.items() if v is top_of_zone), None)
    for i, (v, src) in enumerate(table.fills):
        before, src = cardfilter.tops_written_out(src, top, f"_cz{i}")
        lines += [*(f"{pad}    {x}" for x in before), f"{pad}    {v} = {src}",
                  f"{pad}    _cw{i + 1} = WORK[0]"]
    return [*lines,
            f"{pad}    _cT = {cache}.get({key})",
            f"{pad}    if _cT is None:",
            f"{pad}        _cT = {ns.k(cardfilter.card_table)}({cache}, {build}, {key})",
            f"{pad}except Exception:",
            f"{pad}    WORK[0] = _cw0",
            *(f"{pad}    {v} = {unset}" for v, _s in table.fills),
            f"{pad}    _cT = None"]


def _hoisted_locals(src: str, ns: Namespace) -> tuple[list[str], str]:
    """An argument's options whose comprehension starts by unmaking the slots of its hoisted
    calls (``F.__setitem__(h, UNSET) or [...]``: hoist.py) with those slots as Python locals:
    the resets as statements before it, each fill an assignment expression (as
    ``codegen.local_slot``). Unchanged where the frame is handed on, or where Python
    refuses an assignment expression (a comprehension's iterable)."""
    m = FILLS.match(src)
    if not LOCALS or m is None or not frame_only_indexed(src):
        return [], src
    resets = re.findall(r"F\.__setitem__\((\d+), (_k\d+)\) or ", m.group(1))
    if any(ns.ns.get(k) is not UNSET for _h, k in resets):
        return [], src  # a let's value, not a hoisted call's slot
    out = "(" + src[m.end():]
    for h, _k in resets:
        out = re.sub(r"\bF\[" + h + r"\]", f"_v{h}",
                     out.replace(f"F.__setitem__({h}, ", f"(_v{h} := "))
    try:
        compile(f"def _t(S):\n    _o = {out}", "<check>", "exec")
    except SyntaxError:
        return [], src
    return [f"_v{h} = {k}" for h, k in resets], out


def _shared_any(f: Any, counts: dict[tuple, str], ns: Namespace) -> Any:
    """``f`` with each ``any(cond for c in zone)`` in its and/or/not parts that an earlier
    one-argument action's loop already tested on every card of the zone (the same key,
    ``listloop.filter_key``) read from that loop's count: a listing changes nothing, so the
    answer is the same; the loop it saves is not charged again."""
    if not counts or not isinstance(f, Src) or f.parts is None:
        return f
    parts = f.parts
    if parts[0] in ("and", "or", "not"):
        kids = [_shared_any(k, counts, ns) for k in parts[1]]
        if all(k is o for k, o in zip(kids, parts[1])):
            return f
        g = Src(f.src, ns, f.depth)  # its own text stays whole, for where parts are not used
        g.parts = (parts[0], type(parts[1])(kids))
        return g
    key = any_key(parts, ns.ns)
    if key is None or key not in counts:
        return f
    return Src(f"({counts[key]} > 0)", ns)


def _when_test(when: Any, pad: str, ns: Namespace) -> list[str]:
    """The lines of an ``if`` on an action's ``when`` (``cond_lines`` where it has parts)."""
    if when is None:
        return [f"{pad}if True:"]
    if isinstance(when, Src) and when.parts is not None:
        return [*cond_lines(when, "_c", pad, ns), f"{pad}if _c:"]
    return [f"{pad}if {src_of(when, ns)[0]}:"]


def triggers_function(ns: Namespace, triggers: list[tuple[str, Unit, Unit | None, bool]],
                       seat: tuple[bool, ...] = ()) -> Fn:
    """One generated function that checks the triggers in order after a step, each ``when``
    spliced in with its own frame and its errors located at it. Returns whether one ended the
    round (its name is then in ``S.pending_end``; the engine finishes the round). ``seat``: the
    triggers asked of the mover alone (deps.plan), whose frame starts with it."""
    lines = ["def _triggers(S, mover=None):" if any(seat) else "def _triggers(S):"]
    for k, (name, when, do, ends) in enumerate(triggers):
        frame = f"[None] * {when.nslots}" if when.nslots else ns.k(NO_FRAME)
        if k < len(seat) and seat[k]:  # its frame starts with the seat it is asked of
            frame = "[mover" + ", None" * (when.nslots - 1) + "]"
        test = cond_lines(when.fn, "_c", " " * 8, ns)
        text = "\n".join(test)
        if k < len(seat) and seat[k] and not re.search(r"\bF\b", re.sub(
                r"\bF\[0\]", "", text)) and not re.search(r"\bF\[0\]\s*=[^=]|\bfor F\[0\]", text):
            # the mover's slot read only: the mover itself (a local)
            test, frame = [re.sub(r"\bF\[0\]", "mover", x) for x in test], ""
        elif not re.search(r"\bF\b", text):
            frame = ""  # its loops' variables are locals: no frame to make
        lines += [*([f"    F = {frame}"] if frame else []), "    try:", *test,
                  "    except RulesError as e:",
                  f"        _located(e, {ns.k(when.span)})",
                  "        raise",
                  "    except PY_ERRORS as e:",
                  f"        raise RuntimeRulesError(_why(e), {ns.k(when.span)}) from None",
                  "    if _c:"]
        if do is not None:
            lines.append(f"        {ns.k(do.call)}(S)")
        if ends:
            lines.append(f"        S.pending_end = {ns.k(name)}")
        lines += ["        if S.pending_end is not None:",
                  "            return True"]
    lines.append("    return False")
    return ns.define("_triggers", lines)


def delta_triggers(c: Compiler, game: Game, deps: Deps) -> None:
    """Give each action the check of only the triggers its step can make true (see
    ``deps.plan``), and where only the mover's own cards can have changed, the check that
    asks such a trigger of the mover alone (``step_check``, for its generated step)."""
    made: dict[tuple[int, ...], Fn] = {}
    for (pname, aname), checks in plan(game, deps).items():
        a = next(x for x in game.phases[pname].actions if x.name == aname)
        picked = tuple(i for i, _f in checks)
        if len(picked) != len(game.triggers):
            if picked not in made:
                made[picked] = triggers_function(c.cg, [game.triggers[i] for i in picked])
            a.check_after = made[picked]
        if any(f is not None for _i, f in checks):
            a.step_check = _seat_triggers(c, game, checks)


def _seat_triggers(c: Compiler, game: Game, checks: tuple[Any, ...]) -> Fn | None:
    """``_triggers(S, mover)`` over the triggers of ``checks``, those given as (v, when)
    compiled anew with ``v`` bound to the mover (``deps.Deps.seat_form``)."""
    entries = []
    seat = []
    for i, form in checks:
        name, when, do, ends = game.triggers[i]
        if form is not None:
            v, tree = form
            sc = Scope((v,))
            # the mover: the actor, which the engine checked is a seat of the table
            sc.sure.add(0)
            sc.types[v] = "seat"  # as the comprehension over players it stood in typed it
            nerr = len(c.errors)
            fn, _t = c.expr(tree, sc)
            if len(c.errors) > nerr:  # not expected: the parts compiled before
                del c.errors[nerr:]
                return None
            when = Unit(fn, sc.n, when.span)
        entries.append((name, when, do, ends))
        seat.append(form is not None)
    return triggers_function(c.cg, entries, tuple(seat))
