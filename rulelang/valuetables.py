"""Value-table entries written as expressions of options (``A: opt.ace``), worked out once
while a rules file is built: the tables are constants of the compiled game.

Working them out runs rules text while ``check`` runs, so it has a work allowance of its own,
``CHECK_WORK``, for all the entries of all the tables together: an allowance per entry (or
one handed out afresh whenever an entry used it up) let a file of many costly entries keep
``check`` busy for minutes. The entry that uses it up is reported; the ones after it are
compiled and checked but not worked out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import rank_text
from .codegen import fn_of
from .compile import Compiler
from .errors import CheckError, RulesError, Span
from .limits import CHECK_WORK
from .runtime import WORK, brief, why
from .scope import Scope, Symbols
from .yamlload import YMap


def option_values(c: Compiler, doc: YMap, values: dict[str, dict[str, Any]], sym: Symbols,
                  parse: Callable[[Any, str, Span], Any]) -> list[RulesError]:
    """Work out every entry of ``values`` written as rules text, in place (and the card
    tables of ``sym``); the problems found. ``parse(text, kind, span)``: the builder's, which
    counts the text against the game's and reports its errors (None for text that failed)."""
    errors: list[RulesError] = []
    left, saved = CHECK_WORK, WORK[0]
    try:
        for tname, table in values.items():
            tdoc = doc["values"][tname]
            spans: dict[str, Span] = {}
            for k in tdoc:
                spans.setdefault(rank_text(k), tdoc.span_of(k))
            for rank, v in list(table.items()):
                if isinstance(v, str):
                    tree = parse(v, "expr", spans.get(rank, tdoc.span))
                    if tree is not None:
                        left = _entry(c, tree, table, rank, spans.get(rank, tdoc.span), left,
                                      errors)
            sym.card_values[tname] = tuple(table.get(r, 0) for r in sym.card_rank)
    finally:
        WORK[0] = saved  # the allowance of whatever step was running is given back
    return errors


def _entry(c: Compiler, tree: Any, table: dict[str, Any], rank: str, span: Span, left: int,
           errors: list[RulesError]) -> int:
    """Work out one entry (parsed: ``tree``) with ``left`` units of work; what is left."""
    c.touch = False
    sc = Scope()
    fn, _t = c.expr(tree, sc)
    if c.touch:
        errors.append(CheckError("a value table entry may use only numbers and options", span))
        return left
    if left <= 0:  # reported once, at the entry that used it up
        return 0
    WORK[0] = left
    try:
        value = fn_of(fn)(None, [None] * sc.n)
    except Exception as e:
        # out_of_work may hand out a fresh allowance as it raises: either way it is spent
        if WORK[0] < 0 or WORK[0] > left:
            errors.append(CheckError(
                f"working out the value table entries took more than {CHECK_WORK} units of "
                "work (loop passes, calls, items of lists made); an entry should be a number "
                "or a small expression of options", span))
            return 0
        reason = e.message if isinstance(e, RulesError) else why(e)
        errors.append(CheckError(f"this value table entry could not be worked out: {reason}",
                                 span))
        return WORK[0]
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        errors.append(CheckError(f"a value table entry must be a number, got {brief(value)}",
                                 span))
    table[rank] = value
    return WORK[0]
