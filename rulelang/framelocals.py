"""A generated function's frame as Python locals: ``F[3]`` read as ``_f3``, a ``let`` that
filled its slot with ``F.__setitem__(3, x) or ...`` as an assignment expression.

Generated code keeps the variables of a rules function or procedure (its parameters, ``let``s,
loop variables) in a frame list ``F``. Where nothing hands the whole frame to a closure (which
could read any slot: ``codegen.frame_only_indexed``), the slots can be the Python function's
own locals instead: a local is read with one step where a slot takes three, and a ``let``
stores it without a method call through ``list.__setitem__`` (a slot wrapper, the costliest
kind of call: it builds a tuple of its arguments). The values are the same, and so is the
work charged: nothing here charges or counts.

``F.__setitem__(k, x)`` gives None and is only ever used as the left operand of ``or`` or as
a test (``if not (F.__setitem__(...) or ...)``), so ``((_fk := x) and None)``, which gives a
false value (None, or ``x`` itself when ``x`` is false) after the same store, stands for it.
Python refuses an assignment expression in a comprehension's iterable: the caller compiles
the result and keeps the frame where Python refuses it (``try_define``).
"""

from __future__ import annotations

import re
from typing import Any

ENABLED = True  # (tests compare the games played with it off)
_SETITEM = re.compile(r"\bF\.__setitem__\((\d+), ")
_SLOT = re.compile(r"\bF\[(\d+)\]")
_FRAME = re.compile(r"\bF\b")
# other lists written inside expressions (the work allowance, kept values): operator.setitem,
# a plain C function, is called without the tuple a slot wrapper's call builds
_OTHER_SETITEM = re.compile(r"\b(WORK|_k\d+)\.__setitem__\(")


def _close(src: str, i: int) -> int:
    """The index of the ``)`` that closes the call whose arguments start at ``i``."""
    depth = 1
    quote = ""
    n = len(src)
    while i < n:
        c = src[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = ""
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError("unbalanced generated source")


def plain_setitems(src: str) -> str:
    """``WORK.__setitem__(0, v)`` (and a constant list's) as ``_setitem(WORK, 0, v)``: the
    same store and the same None."""
    return _OTHER_SETITEM.sub(r"_setitem(\1, ", src)


def frame_locals(src: str, k: int) -> tuple[str, list[int]] | None:
    """``src`` (a function's body: an expression or statements) with the frame's slots as
    locals: the first ``k`` (the parameters) as ``a0``..., the others as ``_f<slot>``; and
    the other slots it names (to be set to None first, as the frame held). None where it
    cannot: the whole frame is handed on, or a lambda could bind a slot of its own."""
    if not ENABLED or "lambda" in src \
            or _FRAME.search(_SLOT.sub("", _SETITEM.sub("", src))) is not None:
        return None
    starts = list(_SETITEM.finditer(src))
    for m in reversed(starts):  # the last first: an earlier one's text holds the later ones
        end = _close(src, m.end())
        name = _name(int(m.group(1)), k)
        src = f"{src[:m.start()]}(({name} := {src[m.end():end]}) and None){src[end + 1:]}"
    slots = sorted({int(s) for s in _SLOT.findall(src)} | {int(m.group(1)) for m in starts})
    src = _SLOT.sub(lambda m: _name(int(m.group(1)), k), src)
    return src, [s for s in slots if s >= k]


def _name(slot: int, k: int) -> str:
    return f"a{slot}" if slot < k else f"_f{slot}"


def init_line(slots: list[int], pad: str = "    ") -> list[str]:
    """The line that sets the slots ``slots`` to None, as the frame started them."""
    return [pad + " = ".join(f"_f{s}" for s in slots) + " = None"] if slots else []


def try_define(ns: Any, name: str, lines: list[str], fallback: list[str], span: Any) -> Any:
    """``ns.define(name, lines)``, or ``fallback``'s where Python refuses ``lines`` (an
    assignment expression in a comprehension's iterable)."""
    try:
        return ns.define(name, lines, span)
    except SyntaxError:
        ns.sources.pop()  # (not shown by the dump: it never ran)
        return ns.define(name, fallback, span)
