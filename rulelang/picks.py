"""Compiling a sequential choice: an action argument chosen one item at a time.

``args: {cs: {pick: "hand[me]", count: 2}}`` gives ``cs`` the same choices as
``combinations(hand[me], 2)`` (a list of 2 cards, in the order the options list them), but the
actor takes them as ``count`` decisions of one card each (``choice.py`` runs them). This module
reads the argument's mapping for ``build``: the options expression, the count, and the action
whose legal entries are one item each (``ActionDef.item_of``), which names the moves
(``discard 5H``) while the action itself keeps the whole choice for its ``when`` and ``do``.
"""

from __future__ import annotations

from typing import Any

from .codegen import fn_of
from .errors import Span
from .game import ActionDef, Pick
from .yamlload import YMap

PICK_KEYS = ("pick", "count")


def pick_text(builder: Any, argname: str, spec: Any, span: Span, before: Any
              ) -> tuple[Any, Any, Span]:
    """For an argument written as a mapping: (the sequential choice it starts: its mapping,
    its item type not known yet), its options expression and where that is written; the
    mapping's keys are checked (the schema checks them too). ``before``: a choice among the
    earlier arguments, which is an error (it must be the last)."""
    if before is not None:
        builder.err("a sequential choice (pick:) must be the action's last argument",
                    before[0].span_of("pick"))
    if not isinstance(spec, YMap):
        return before, spec, span
    for k in spec:
        if k not in PICK_KEYS:
            builder.err(f"unknown key '{k}' in the sequential choice '{argname}'; expected "
                        "pick (the options, an expression) and count (how many to choose)",
                        spec.key_span(k))
    if "pick" not in spec or "count" not in spec:
        builder.err(f"the sequential choice '{argname}' needs pick: (the options) and count: "
                    "(how many items to choose)", span)
        return None, None, span
    return (spec, None), spec["pick"], spec.span_of("pick")


def pick_count(builder: Any, c: Any, sc: Any, spec: YMap) -> Any:
    """The compiled ``count:`` of a sequential choice (S, F) -> number, or None."""
    text = spec.get("count")
    span = spec.span_of("count")
    if isinstance(text, bool) or not isinstance(text, (int, str)):
        builder.err("count: takes a whole number or an expression", span)
        return None
    tree = builder.parse(str(text), "expr", span)
    if tree is None:
        return None
    fn, typ = c.expr(tree, sc)
    if typ not in ("int", "num", "any"):
        builder.err(f"count: must be a number of items, but this is {typ}", span)
    return fn_of(fn)


def make_pick(action: ActionDef, count: Any, span: Span, item_type: str) -> None:
    """Give ``action`` (whose last argument is the sequential choice) its ``Pick``: the count,
    and the action that lists and takes one item (same name, the same arguments before the
    choice, then one item of ``item_type``)."""
    name, fn, _typ, slot = action.args[-1]
    item = ActionDef(action.name, action.phase, [*action.args[:-1], (name, fn, item_type, slot)],
                     None, None, None, action.nslots, action.span, action.when_span,
                     arg_spans=list(action.arg_spans), distinct=action.distinct,
                     item_of=action)
    action.pick = Pick(count, span, item)
