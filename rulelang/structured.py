"""Structured values: lists and records held by counters and globals, and the places in them.

A counter or global starts as whatever its starting value is; when that is a list (``[]``,
``[0, 0]``, a comprehension) or a record (``{stake: 10, doubled: false}``) its **shape** is
known before anything is compiled, so that ``bets[p]`` reads as a list and ``bets[p][i]`` as
its item, and assigning a plain number to it is a check error. A counter that starts as a
number keeps the numeric path it always had.

Values are never changed in place: ``bets[p][0].stake = 5`` makes a new list holding a new
record (copy on write, along the path only), so states that share a list (a clone, a bot's
sampled world, the values a round's changes are measured from) never see each other's changes.
The copies are charged to the step's work, and a record counts the items of everything inside
it (values can share values, so that a walk of one stays bounded).
"""

from __future__ import annotations

import re
from typing import Any

from . import nodes as N
from .errors import CheckError, RulesError, RuntimeRulesError, Span
from .limits import MAX_COLLECTION
from .parse import parse
from .runtime import WORK, out_of_work

# the shapes a starting value can be seen to have without compiling it
LIST, RECORD, NUMBER = "list", "record", "num"
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def shape_of(tree: N.Node | None, options: dict[str, Any]) -> str | None:
    """LIST, RECORD or NUMBER for a starting value whose form shows it (a list literal or
    comprehension, a record literal, a number or a numeric option); None when it does not."""
    if isinstance(tree, (N.ListLit, N.Comprehension)):
        return LIST
    if isinstance(tree, N.RecordLit):
        return RECORD
    if isinstance(tree, N.Neg):
        tree = tree.operand
    if isinstance(tree, N.Const) and type(tree.value) in (int, float):
        return NUMBER
    if isinstance(tree, N.Attr) and isinstance(tree.obj, N.Name) and tree.obj.id == "opt":
        v = options.get(tree.name)
        return NUMBER if type(v) in (int, float) else None
    return None


def start_shape(value: Any, options: dict[str, Any]) -> str | None:
    """``shape_of`` a starting value as written in the rules file: YAML data (``[]``,
    ``{stake: 0}``), a number, or rules text (which is parsed here for its form only; its
    errors are reported where it is compiled)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, list):
        return LIST
    if isinstance(value, dict):
        return RECORD
    if isinstance(value, (int, float)):
        return NUMBER
    if not isinstance(value, str):
        return None
    try:
        return shape_of(parse(value, "expr", Span("")), options)
    except RulesError:
        return None


def read_type(shape: str | None, default: str) -> str:
    """The checker's type of a value of that shape (``default`` when the shape is unknown)."""
    return "list" if shape == LIST else "record" if shape == RECORD else default


def clash(shape: str | None, given: str) -> str | None:
    """Why a value of checker type ``given`` cannot go where a value of ``shape`` lives, or
    None when it may (or the checker cannot tell)."""
    if shape in (LIST, RECORD) and given in ("int", "num", "bool", "str", "card", "seat"):
        return f"it holds a {shape} (its starting value is one), not {given}"
    # (one that starts as a number may be given anything, as before lists had a shape)
    return None


def start_shapes(doc: Any, options: dict[str, Any]) -> tuple[dict[str, str | None], ...]:
    """``start_shape`` of each counter's and of each global's starting value."""
    return tuple({str(k): start_shape(v, options) for k, v in (doc.get(sec) or {}).items()}
                 for sec in ("counters", "globals"))


def yaml_start(value: Any, span: Span, errors: list) -> Any:
    """A starting value written as YAML data (``bets: []``, ``hand: {stake: 0}``) as the rules
    text that makes it; anything else as it is. None, with an error added to ``errors``, when
    it cannot be written (a record key that is not a name, a text with a quote)."""
    if not isinstance(value, (list, dict)):
        return value
    out = _yaml_text(value)
    if out is None:
        errors.append(CheckError("this starting value cannot be written as rules text: give "
                                 "it as text, such as \"[]\" or \"{stake: 0}\" (record "
                                 "fields are names)", span))
    return out


def _yaml_text(value: Any) -> str | None:
    """YAML data as the rules text that makes it (None: it cannot be written)."""

    def text(v: Any) -> str | None:
        if isinstance(v, bool):
            return "true" if v else "false"
        if v is None:
            return "none"
        if isinstance(v, (int, float)):
            return repr(v) if v >= 0 else f"(-{-v!r})"
        if isinstance(v, str):
            return f"'{v}'" if "'" not in v and "\n" not in v else None
        if isinstance(v, list):
            items = [text(x) for x in v]
            return None if None in items else "[" + ", ".join(items) + "]"  # type: ignore
        if isinstance(v, dict):
            parts = []
            for k, x in v.items():
                t = text(x)
                if not (isinstance(k, str) and _IDENT.match(k)) or t is None:
                    return None
                parts.append(f"{k}: {t}")
            return "{" + ", ".join(parts) + "}"
        return None

    return text(value)


def _items(v: Any) -> int:
    """The items of ``v`` counted through the lists and records inside it; more than
    MAX_COLLECTION is an error (values can share values: the walk stops there)."""
    n = 0
    stack = [v]
    while stack:
        x = stack.pop()
        vals = x.values() if type(x) is dict else x
        n += len(x)
        if n > MAX_COLLECTION:
            raise RuntimeRulesError(f"a value of more than {MAX_COLLECTION} items, counting "
                                    "the items of the lists and records inside it")
        stack.extend(y for y in vals if type(y) is list or type(y) is dict)
    return n


def record(fields: dict[str, Any]) -> dict[str, Any]:
    """A record just made by a record literal: bounded, and charged."""
    WORK[0] -= _items(fields)
    if WORK[0] < 0:
        out_of_work()
    return fields


def _key(o: Any, k: Any) -> Any:
    if type(o) is list:
        if type(k) is not int:
            raise RuntimeRulesError(f"a list is indexed by a whole number, not {k!r}")
        if not -len(o) <= k < len(o):
            raise RuntimeRulesError(f"index {k} is out of range (the list has {len(o)} items)")
        return k
    if type(o) is dict:
        if k not in o:
            raise RuntimeRulesError(f"this record has no field {k!r}")
        return k
    raise RuntimeRulesError(f"cannot set [{k!r}] of {type(o).__name__} (only of a list or a "
                            "record)")


def get_in(o: Any, keys: list) -> Any:
    """The value at ``keys`` inside ``o`` (items of lists, fields of records)."""
    for k in keys:
        o = o[_key(o, k)]
    return o


def set_in(o: Any, keys: list, v: Any) -> Any:
    """A copy of ``o`` with the value at ``keys`` replaced by ``v``: each list or record on the
    path is copied (and charged), nothing is changed in place."""
    k = _key(o, keys[0])
    new = o[:] if type(o) is list else dict(o)
    WORK[0] -= len(new)
    if WORK[0] < 0:
        out_of_work()
    new[k] = v if len(keys) == 1 else set_in(o[k], keys[1:], v)
    if type(v) is list or type(v) is dict:
        _items(new)
    return new


def numeric(t: str) -> bool:
    """Whether values of checker type ``t`` are numbers (what statistics over counters use)."""
    return t in ("int", "num", "none", "seat", "bool")
