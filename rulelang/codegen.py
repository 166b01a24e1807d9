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
from .limits import MAX_INLINE_DEPTH
from .runtime import NO_FRAME, PY_ERRORS, as_rules_error


@functools.lru_cache(maxsize=4096)
def compiled_code(text: str, where: str, mode: str) -> Any:
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
        return eval(compiled_code(text, self._record(text, span), "eval"), self.ns)

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
        exec(compiled_code(text, self._record(text, span), "exec"), self.ns, local)
        return local[name]

    def define_later(self, name: str, lines: list[str], span: Any = None) -> Any:
        """``define`` in two halves: the source is kept now (the dump shows it), and the
        function returned compiles it and returns the function named ``name`` when called,
        so that code that may never run costs no compiling when a game is loaded."""
        text = plain_setitems("\n".join(lines))
        where = self._record(text, span)

        def make() -> Any:
            local: dict[str, Any] = {}
            exec(compiled_code(text, where, "exec"), self.ns, local)
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
