"""Python source generated from the checked AST, compiled once per game.

The compiler (``compile.py``) turns most expressions into a ``Src``: a Python expression over the
state ``S`` and the frame ``F``. A parent expression splices its children's source into its own,
so a whole rule (a trigger, a ``when``, a function body) becomes one Python function instead of a
closure call per AST node. Nothing of the rules text is ever pasted into the source: names,
strings, tables and spans reach the generated code only as constants of its namespace (``_k12``),
and the source itself is made of fixed templates, frame indices and those constant names.
Expressions nested too deeply for Python's own parser are compiled apart and called.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from . import runtime
from .errors import RulesError
from .framelocals import plain_setitems
from .limits import (
    MAX_INLINE_DEPTH,
    MEMO_ITEMS,
    MEMO_KEY_ITEMS,
    MEMO_LIMIT,
    MEMO_PAUSE,
    MEMO_PROBE,
    MEMO_PROBE_HITS,
    MEMO_RESULT_ITEMS,
)
from .memokeys import closed, deep_parts, exact_fallback, paused_wrapper
from .runtime import NO_FRAME, PY_ERRORS, WORK, as_rules_error, out_of_work


@functools.lru_cache(maxsize=4096)
def _compiled(text: str, where: str, mode: str) -> Any:
    """Python's code object of a piece of generated source, remembered: the same game loaded
    again (other options, another scenario, another test) writes the same source, and a code
    object is immutable — running it in a game's own namespace makes that game's functions."""
    return compile(text, where, mode)


class Namespace:
    """The globals of one game's generated code: helpers and numbered constants."""

    def __init__(self) -> None:
        self.ns: dict[str, Any] = {
            "__builtins__": {"len": len, "any": any, "all": all, "list": list, "range": range,
                             "type": type, "int": int, "str": str, "dict": dict},
            **runtime.helpers(),
        }
        self._ids: dict[int, str] = {}
        self._n = 0
        # every piece of source compiled here, with the rules text it came from (a Span, or
        # None for the engine's own glue): what ``rulelang compile --dump`` prints
        self.sources: list[tuple[str, Any]] = []

    def k(self, value: Any) -> str:
        """The name under which ``value`` is a constant of the generated code."""
        key = id(value)
        name = self._ids.get(key)
        if name is not None and self.ns[name] is value:
            return name
        name = f"_k{self._n}"
        self._n += 1
        self.ns[name] = value
        self._ids[key] = name
        return name

    def temp(self) -> str:
        self._n += 1
        return f"_t{self._n}"

    def lam(self, src: str, span: Any = None) -> Any:
        """Compile ``lambda S, F: src`` (src is generated; see the module docstring)."""
        text = plain_setitems(f"lambda S, F: {src}")
        return eval(_compiled(text, self._record(text, span), "eval"), self.ns)

    def _record(self, text: str, span: Any) -> str:
        """Keep ``text`` for the dump; the file name its code objects carry, which names the
        rules text it came from, so that a traceback through generated code points there."""
        self.sources.append((text, span))
        where = f"{span.path}:{span.line}" if getattr(span, "line", 0) else "engine"
        return f"<rules {where} #{len(self.sources)}>"

    def function(self, params: list[str], frame: str | list[str] | None, src: Src, span: Any,
                 where: str = "", charge: bool | list[str] = False) -> Any:
        """``def f(S, *params)`` that sets up the frame (None: ``src`` reads none) and returns
        the expression ``src``; a Python error inside becomes a rules error at ``span``
        (``where`` appended to it).
        ``charge``: each call takes one from the allowance (``charge_lines``; or these lines)."""
        suffix = f" + {self.k(where)}" if where else ""
        return self.define("_f", [
            f"def _f({', '.join(['S', *params])}):",
            *(charge if isinstance(charge, list) else self.charge_lines(span) if charge else []),
            *([f"    F = {frame}"] if isinstance(frame, str) else frame or []),  # (or lines)
            "    try:",
            f"        return {src.src}",
            "    except RulesError as e:",
            f"        _located(e, {self.k(span)})",
            "        raise",
            "    except PY_ERRORS as e:",
            f"        raise RuntimeRulesError(_why(e){suffix}, {self.k(span)}) from None"], span)

    def charge_lines(self, span: Any) -> list[str]:
        """The first lines of a rules function or procedure: a call takes one from the step's
        work allowance, as a pass of a loop does, so that functions calling one another many
        times (each call makes the next ones: f calls g ten times, g calls h ten times...)
        stop at the limit instead of running for hours."""
        return ["    WORK[0] -= 1", "    if WORK[0] < 0:", f"        _out_of_work({self.k(span)})"]

    def define(self, name: str, lines: list[str], span: Any = None) -> Any:
        """Compile a generated ``def`` and return the function named ``name``; ``span``: the
        rules text it was made from."""
        local: dict[str, Any] = {}
        text = plain_setitems("\n".join(lines))
        exec(_compiled(text, self._record(text, span), "exec"), self.ns, local)
        return local[name]

    def define_later(self, name: str, lines: list[str], span: Any = None) -> Any:
        """``define`` in two halves: the source is kept now (the dump shows it), and the
        function returned compiles it and returns the function named ``name`` when called,
        so that code that may never run costs no compiling when a game is loaded."""
        text = plain_setitems("\n".join(lines))
        where = self._record(text, span)

        def make() -> Any:
            local: dict[str, Any] = {}
            exec(_compiled(text, where, "exec"), self.ns, local)
            return local[name]
        return make

    def dump(self) -> str:
        """Every piece of generated source, readably: each under a comment naming the rules
        text it came from (and quoting its line), then the constants it names."""
        out: list[str] = []
        for i, (text, span) in enumerate(self.sources, 1):
            out.append(f"# ---- #{i} from {_where(span)}")
            if getattr(span, "source", None) and span.line:
                lines = span.source.splitlines()
                if 0 < span.line <= len(lines):
                    out.append(f"#      {lines[span.line - 1].strip()}")
            out.append(text)
            used = sorted(set(re.findall(r"\b_k\d+\b", text)), key=lambda k: int(k[2:]))
            for k in used:
                out.append(f"#   {k} = {_short(self.ns.get(k))}")
            out.append("")
        return "\n".join(out)


class Src:
    """A compiled expression as Python source; callable (compiled on first call) for code that
    still calls its children as closures."""

    __slots__ = ("src", "depth", "ns", "fn", "parts", "flat", "sums")

    def __init__(self, src: str, ns: Namespace, depth: int = 1) -> None:
        self.src = src
        self.depth = depth
        self.ns = ns
        self.fn: Any = None
        # how the expression is built, for ``cond_lines``: ("and" | "or" | "not", kids) or ("any"
        # | "all", slot, iterable with its work charged, condition or None, element, span const)
        self.parts: tuple | None = None
        # a card's attribute read inline whose table holds only whole numbers and short texts:
        # (the table's name, the card's source, its length, the fallback's name; scope.flat_search)
        self.flat: tuple | None = None
        # sums by groups of cards (cardgroups.card_sums_call): (call to pick with, loops)
        self.sums: tuple[str, Any] | None = None

    def func(self) -> Any:
        if self.fn is None:
            self.fn = self.ns.lam(self.src)
        return self.fn

    def __call__(self, S: Any, F: list) -> Any:
        return self.func()(S, F)


# the frame read or written slot by slot (F[3], F.__setitem__(3, ...))
_FRAME_BY_SLOT = re.compile(r"\bF(\[\d+\]|\.__setitem__\(\d+, )|\(F, \d+, ")
# variables bound inside generated code are Python locals where they can be (see localize)
LOCALS = True


def frame_only_indexed(src: str) -> bool:
    """Whether generated source uses the frame only slot by slot: no closure is handed the
    whole frame (``f(S, F)``), which could read any slot."""
    return re.search(r"\bF\b", _FRAME_BY_SLOT.sub("", src)) is None


def localize(src: str, slots: list[int]) -> str | None:
    """``src`` with the frame slots ``slots`` (variables bound inside it: a lambda's parameter,
    a comprehension's loop variables) as Python locals ``_v<slot>``, or None when something in
    it hands the whole frame to a closure (which could read them). A local is read faster
    than a slot, and a loop stores into it without a call."""
    if not LOCALS or not frame_only_indexed(src):
        return None
    for slot in slots:
        src = re.sub(r"\bF\[" + str(slot) + r"\]", f"_v{slot}", src)
    return src


def src_of(f: Any, ns: Namespace) -> tuple[str, int]:
    """Source that computes what the compiled expression ``f`` computes, and its depth."""
    if isinstance(f, Src):
        if f.depth <= MAX_INLINE_DEPTH:
            return f.src, f.depth
        return f"{ns.k(f.func())}(S, F)", 1
    return f"{ns.k(f)}(S, F)", 1


def cond_lines(f: Any, var: str, pad: str, ns: Namespace, depth: int = 0) -> list[str]:
    """Statements that set ``var`` to the value of the compiled expression ``f``, for code that
    runs inside a generated ``def`` (a trigger, a ``when``): ``and``/``or`` become ``if``s and
    ``any``/``all`` over a comprehension a ``for`` loop that stops at the answer, with no
    generator to create and resume. The value is the expression's own (``and`` gives its
    first false operand, ``any`` True or False)."""
    parts = f.parts if isinstance(f, Src) and depth < 8 else None
    if parts is None:
        return [f"{pad}{var} = {src_of(f, ns)[0]}"]
    if parts[0] == "not":
        return [*cond_lines(parts[1][0], var, pad, ns, depth + 1), f"{pad}{var} = not {var}"]
    if parts[0] in ("and", "or"):
        test = var if parts[0] == "and" else f"not {var}"
        lines = cond_lines(parts[1][0], var, pad, ns, depth + 1)
        for kid in parts[1][1:]:
            lines.append(f"{pad}if {test}:")
            lines += cond_lines(kid, var, pad + "    ", ns, depth + 1)
        return lines
    name, slot, it, cond, elt, _span, resets = parts
    found = name == "any"
    t = ns.temp()
    # the slots of its calls made once per pass (hoist.py), unmade
    head = [*(f"{pad}{r}" for r in resets), f"{pad}{var} = {not found}",
            f"{pad}for F[{slot}] in {src_of(it, ns)[0]}:"]  # (it charges its work)
    inner = pad + "    "
    body = []
    if cond is not None:
        body.append(f"{inner}if {src_of(cond, ns)[0]}:")
        inner += "    "
    body += cond_lines(elt, t, inner, ns, depth + 1)
    body += [f"{inner}if {'' if found else 'not '}{t}:",
             f"{inner}    {var} = {found}", f"{inner}    break"]
    return local_slot(head, body, slot)


def local_slot(head: list[str], body: list[str], slot: int) -> list[str]:
    """``head`` (ending in a loop ``for F[slot] in ...:``) then ``body``, the loop variable a
    Python local ``_v<slot>`` where nothing in the body hands the whole frame on (which
    could read the slot): a local is read and stored faster than a slot. The slot is bound
    only inside the loop, so nothing after it reads it."""
    if not LOCALS or not frame_only_indexed("\n".join(body)):
        return head + body
    ref = re.compile(r"\bF\[" + str(slot) + r"\]")
    head = [*head[:-1], ref.sub(f"_v{slot}", head[-1])]
    body = [ref.sub(f"_v{slot}", b) for b in body]
    if any(" for " in b and not b.lstrip().startswith("for ") for b in body):
        return head + body  # a comprehension inside: no assignment expression may go there
    # the slots of the calls made once per pass (hoist.py), reset in ``head``: locals too,
    # filled by an assignment expression where the frame's __setitem__ filled them
    for line in head:
        m = _RESET.match(line)
        if m is not None:
            h = m.group(1)
            ref = re.compile(r"\bF\[" + h + r"\]")
            fill = f"F.__setitem__({h}, "
            head = [ref.sub(f"_v{h}", x) for x in head]
            body = [ref.sub(f"_v{h}", x.replace(fill, f"(_v{h} := ")) for x in body]
    return head + body


_RESET = re.compile(r"\s*F\[(\d+)\] = _k\d+$")  # a hoisted call's slot unmade (cond_lines)


def fn_of(f: Any) -> Any:
    """A plain function for a compiled expression (no per-call dispatch through ``Src``)."""
    return f.func() if isinstance(f, Src) else f


def unit_call(fn: Any, n: int, span: Any) -> Any:
    """``call(S)`` for a compiled top-level piece of rules text (a ``game.Unit``): a frame of
    ``n`` slots, and a Python error reported at ``span``."""
    if isinstance(fn, Src):
        # one generated function: frame, expression and the error located at the unit
        frame = fn.ns.k(NO_FRAME) if n == 0 else f"[None] * {n}"
        return fn.ns.function([], frame, fn, span)
    fn = fn_of(fn)
    # a unit with no locals needs no frame: share one empty list (nothing can write to it);
    # the frame is made in the same function that locates the errors (one call, not two)
    if n == 0:
        def call(S: Any) -> Any:
            try:
                return fn(S, NO_FRAME)
            except (RulesError, *PY_ERRORS) as e:
                raise as_rules_error(e, span) from None
    else:
        def call(S: Any) -> Any:
            try:
                return fn(S, [None] * n)
            except (RulesError, *PY_ERRORS) as e:
                raise as_rules_error(e, span) from None

    return call


def frame_call(fn: Any, span: Any) -> Any:
    """``call(S, F)`` for a compiled expression run on a frame it is given (an action's
    ``next:``, on the action's frame): its errors located at ``span``, as ``unit_call``'s."""
    if isinstance(fn, Src):
        return fn.ns.function(["F"], "F", fn, span)
    fn = fn_of(fn)

    def call(S: Any, F: list) -> Any:
        try:
            return fn(S, F)
        except (RulesError, *PY_ERRORS) as e:
            raise as_rules_error(e, span) from None

    return call


def _where(span: Any) -> str:
    if getattr(span, "line", 0):
        return str(span)
    return "several rules lines, or an expression compiled apart"


def _short(v: Any) -> str:
    """A constant of generated code, in a few words."""
    name = getattr(v, "__name__", None)
    if callable(v) and name:
        return f"<function {name}>"
    if type(v).__name__ == "Span":
        return f"<the place {v}>"
    text = repr(v)
    return text if len(text) <= 70 else text[:67] + "..."


_INT_ONLY = frozenset({int})


def _kept_items(v: Any, order_free: bool) -> int:
    """How many items a result holds (the lists inside it counted, a text's characters), or
    -1 when it is not to be remembered: more than MEMO_RESULT_ITEMS, or, for a function keyed
    by the set of its cards (``order_free``), a float, which the order the cards were added
    in could change."""
    t = type(v)
    if t is str:
        return len(v) if len(v) <= MEMO_RESULT_ITEMS else -1
    if t is float:
        return -1 if order_free else 1
    if t is not list:
        if isinstance(v, list):  # a group on the table
            return len(v) if len(v) <= MEMO_RESULT_ITEMS else -1
        return 1
    if _INT_ONLY.issuperset(map(type, v)):  # cards or numbers (a hand's value): one C scan
        return len(v) if len(v) <= MEMO_RESULT_ITEMS else -1
    # builtins.leaves written out (no generator step per card): the hands and melds that
    # such results are made of are looked through at every call that is not remembered yet
    stack = [v]
    n = 0
    while stack:
        x = stack.pop()
        n += len(x)
        if n > MEMO_RESULT_ITEMS:
            return -1
        for y in x:
            ty = type(y)
            if ty is int:  # a card, mostly
                continue
            if isinstance(y, list):
                stack.append(y)
            elif ty is float:
                if order_free:
                    return -1
            elif ty is str:
                n += len(y)
    return n


class MemoPool:
    """What all the memoised functions of one game remember, and how much: the items of
    their keys and results together stay within MEMO_ITEMS (then they all start afresh), so
    that a memo, which lives as long as the game (across the games of a simulation), is
    bounded in memory whatever the rules compute. Forgetting changes no result and no
    charge (a remembered result charges what it cost), only the time."""

    def __init__(self) -> None:
        self.used = [0]  # items remembered by all of them
        self.caches: list[dict] = []
        self.mine: list[list[int]] = []  # items remembered by each

    def add(self) -> tuple[dict, list[int]]:
        """A new function's memo and its count of items."""
        self.caches.append({})
        self.mine.append([0])
        return self.caches[-1], self.mine[-1]

    def clear(self) -> None:
        for c, m in zip(self.caches, self.mine):
            c.clear()
            m[0] = 0
        self.used[0] = 0


def memo(inner: Any, k: int, order_free: tuple[bool, ...], pool: MemoPool | None = None,
         faces: tuple[dict[int, int] | None, ...] = (),
         weights: dict[int, int] | None = None, deep: bool = False, cheap: bool = False) -> Any:
    """A memoising wrapper of ``inner(S, a0, ...)``, generated for its number of parameters:
    lists become tuples in the key, sorted where their order cannot matter
    (``functions.order_free``); such a result is kept only when exact (see ``_kept_items``).
    An argument that cannot be part of a key (a record, a list holding lists) means the call
    is just computed, as are calls whose list (or text) arguments hold more than
    MEMO_KEY_ITEMS items. The key's items are charged as work on every call that builds one,
    remembered or not. ``pool``: the game's (see ``MemoPool``). A memo that hardly ever finds
    a result is dropped for a while (``MEMO_PROBE``). ``faces``: per parameter, where only
    some attributes of the cards of a list passed there matter (``functions.faces_only``),
    each card that agrees on them with an earlier one -> that card: such a list is keyed by
    those cards, so that the same hand in other suits or packs is found too. ``weights``
    (``functions._weights``), for one order-free parameter: a list of cards only is keyed by
    the sum of its cards' weights, which names the same multiset as the sorted key without
    sorting (anything else in the list: the sorted key). ``deep``: a list of lists (melds) is
    keyed too, each list inside as a tuple, its items counted and charged with the list's;
    its order is kept (``order_free`` is not read). ``cheap``: paused for good (see below)."""
    pool = pool if pool is not None else MemoPool()
    params = [f"a{i}" for i in range(k)]
    more = ""
    if deep:
        order_free = ()
    # a card of such a list as the first card alike (anything else, a number that is no
    # card, as itself)
    items = [f"map(fget{i}, {p}, {p})" if i < len(faces) and faces[i] else p
             for i, p in enumerate(params)]
    # an order-free list is summed first: a list holding lists (which sorting would compare
    # item by item, uncharged) is refused at once with a TypeError, and is then keyed in its
    # order (memokeys.exact_fallback) (the type of a0 is in ``t`` already: see ``size``)
    if deep:  # (``faces`` are not given with it)
        items, more = deep_parts(params)
    keys = [f"(tuple(sorted({it})) if {'t' if p == 'a0' else f'type({p})'} is list and "
            f"(sum({p}) or 1) else {p})" if k_free
            else f"(tuple({it}) if {'t' if p == 'a0' else f'type({p})'} is list else {p})"
            for p, it, k_free in zip(params, items, order_free or (False,) * k)]
    key = keys[0] if k == 1 else "(" + ", ".join(keys) + ("," if k == 1 else "") + ")"
    size = " + ".join(f"(len({p}) if {'t' if p == 'a0' else f'type({p})'} is list or "
                      f"{'t' if p == 'a0' else f'type({p})'} is str else 1)"
                      for p in params) or "1"
    if k == 0:
        key = "()"
    args = ", ".join(["S", *params])
    free = any(order_free)
    # a remembered result charges the work it cost when it was computed, so that a game's
    # accounting is the same whatever ran before it in the process; when that would run the
    # step out of work, the call is computed again, so that the error is the one a first
    # call raises (at the same rules line)
    # seen = [misses, hits, calls left to compute directly] (see MEMO_PROBE): the results
    # and the work charged are the same either way, only the time differs
    head = [
        "    t = type(a0)" if k else "    pass",
        f"    n = {size}{more}",
        f"    if n > {MEMO_KEY_ITEMS}:  # big keys would fill the memory over a long run",
        f"        return inner({args})",
        "    w = WORK[0] - n  # the key is built from the arguments' items",
        "    if w < 0:",
        "        out_of_work()",
        "    if seen[2]:",
        "        WORK[0] = w",
        "        seen[2] -= 1",
        f"        return inner({args})",
        "    try:",
        f"        key = {key}",
        "        hit = get(key)  # (value, cost): never None",
        "    except TypeError:",
        "        WORK[0] = w",
        f"        return inner({args})"]
    if k == 1:
        # the same for one argument, a list (a hand) tested for first: fewer steps a call
        # (the order-free key's sum() only refuses a list of lists, as in ``keys``)
        free1 = bool(order_free and order_free[0])
        head = ["    if type(a0) is list:",
                *("    " + line for line in head[1:] if "t = type" not in line)]
        head[1] = "        n = len(a0)" + more
        at = head.index("            key = " + key)
        head[at:at + 1] = (["            sum(a0)", f"            key = tuple(sorted({items[0]}))"]
                           if free1 else [f"            key = tuple({items[0]})"])
        if free1 and weights and MEMO_KEY_ITEMS < 512:
            # (MARK, sum): no list's sorted key holds MARK, nor is any argument one
            at = head.index("        try:")
            head[at:at + 7] = [
                "        try:", "            s = 0", "            for c in a0:",
                "                s += wt[c]", "            key = (MARK, s)",
                "            hit = get(key)", "        except (KeyError, TypeError):",
                "            try:", *("    " + line for line in head[at + 1:at + 7])]
        head += ["    else:", "        t = type(a0)", f"        n = {size}",
                 f"        if n > {MEMO_KEY_ITEMS}:", f"            return inner({args})",
                 "        w = WORK[0] - n", "        if w < 0:",
                 "            out_of_work()", "        if seen[2]:", "            WORK[0] = w",
                 "            seen[2] -= 1", f"            return inner({args})", "        try:",
                 "            hit = get(a0)", "        except TypeError:",
                 "            WORK[0] = w", f"            return inner({args})", "        key = a0"]
    if free:
        exact_fallback(head, params, items, args)
    src = paused_wrapper(k, size, args, MEMO_KEY_ITEMS) if cheap and not deep else "\n".join([
        f"def _m({args}):",
        *head,
        "    if hit is not None:",
        "        seen[1] += 1",
        "        cost = hit[1]",
        "        if w < cost:",
        "            WORK[0] = w",
        f"            return inner({args})",
        "        WORK[0] = w - cost",
        "        return hit[0]",
        "    WORK[0] = w",
        "    seen[0] += 1",
        f"    if seen[0] >= {MEMO_PROBE}:",
        "        hits = seen[1]",
        "        seen[0] = seen[1] = 0",
        f"        if hits < {MEMO_PROBE_HITS}:",
        "            forget()",
        f"            seen[2] = {MEMO_PAUSE}",
        f"            return inner({args})",
        f"    v = inner({args})",
        f"    r = 1 if type(v) is int else _kept_items(v, {'loose' if free else 'False'})",
        "    if r >= 0:",
        "        r += n",
        f"        if len(cache) >= {MEMO_LIMIT}:",
        "            forget()",
        f"        if used[0] + r > {MEMO_ITEMS}:",
        "            pool.clear()",
        "        cache[key] = (v, w - WORK[0])",
        "        used[0] += r",
        "        mine[0] += r",
        "    return v",
        "",
        "def forget():",
        "    cache.clear()",
        "    used[0] -= mine[0]",
        "    mine[0] = 0"])
    cache, mine = pool.add()
    free = {"inner": inner, "cache": cache, "get": cache.get, "wt": weights, "MARK": object(),
            **{f"fget{i}": f.get for i, f in enumerate(faces) if f}, "used": pool.used,
            "mine": mine, "pool": pool, "seen": [0, 0, 1 << 62 if cheap else 0]}
    return closed(src, free, _MEMO_NS, _compiled)


_MEMO_NS: dict[str, Any] = {  # what every memo wrapper reads besides its own (memokeys.closed)
    "__builtins__": {f.__name__: f for f in (tuple, sorted, type, len, list, KeyError,
                                             TypeError, sum, str, map, int)},
    "_kept_items": _kept_items, "WORK": WORK, "out_of_work": out_of_work}
