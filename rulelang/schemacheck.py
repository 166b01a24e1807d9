"""A quick yes-or-no answer to "does this document satisfy this JSON schema?", for the common case.

``rules.validate`` asks this first and calls jsonschema only for a document found invalid,
which jsonschema then reports error by error exactly as before. jsonschema is the better
reporter but costs a third of a cold ``rulelang check`` to import (attrs, referencing, rpds,
its format checkers), and almost every document checked is valid.

The answer must be jsonschema's Draft 2020-12 answer, or a valid document would hide its errors:
the same type rules (a boolean is no integer, ``1.0`` is one), the same equality for ``enum``
and ``const`` (``True`` is not ``1``), ``re.search`` for ``pattern``, ``oneOf`` meaning exactly
one. A schema that uses any keyword not handled here is not compiled (``compile_schema`` returns
None) and everything goes to jsonschema. tests/test_schemacheck.py compares both answers on the
bundled files and on mutated ones.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Check = Callable[[Any], bool]

# keywords that only describe: they never make a document invalid
_NOTES = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description", "default",
                    "examples"})


class _Unsupported(Exception):
    """The schema uses something this module does not decide: leave it to jsonschema."""


def _is_number(x: Any) -> bool:
    return not isinstance(x, bool) and isinstance(x, numbers.Number)


def _is_integer(x: Any) -> bool:
    if isinstance(x, bool):
        return False
    return isinstance(x, int) or (isinstance(x, float) and x.is_integer())


_TYPES: dict[str, Check] = {
    "array": lambda x: isinstance(x, list),
    "boolean": lambda x: isinstance(x, bool),
    "integer": _is_integer,
    "null": lambda x: x is None,
    "number": _is_number,
    "object": lambda x: isinstance(x, dict),
    "string": lambda x: isinstance(x, str),
}


def _unbool(x: Any, true: object = object(), false: object = object()) -> Any:
    if x is True:
        return true
    if x is False:
        return false
    return x


def _equal(one: Any, two: Any) -> bool:
    """jsonschema's equality (``_utils.equal``): booleans apart from numbers, at any depth."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return bool(one == two)
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(_equal(a, b) for a, b in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return (len(one) == len(two)
                and all(k in two and _equal(v, two[k]) for k, v in one.items()))
    return bool(_unbool(one) == _unbool(two))


def _true(x: Any) -> bool:
    return True


def _false(x: Any) -> bool:
    return False


def compile_schema(schema: Any) -> Check | None:
    """A function telling whether a document is valid under ``schema`` (its ``$ref``s are
    ``#/...`` pointers into it), or None if the schema uses a keyword not handled here."""
    try:
        return _Compiler(schema).compile(schema)
    except _Unsupported:
        return None


class _Compiler:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.done: dict[int, Check] = {}  # by the subschema's id: recursive $refs close here

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#"):
            raise _Unsupported(ref)
        node = self.root
        for part in ref[1:].split("/")[1:]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise _Unsupported(ref)
        return node

    def compile(self, s: Any) -> Check:
        if s is True:
            return _true
        if s is False:
            return _false
        if not isinstance(s, dict):
            raise _Unsupported(repr(s))
        key = id(s)
        if key in self.done:
            return self.done[key]
        cell: list[Check] = []
        self.done[key] = lambda x: cell[0](x)  # a $ref back to this schema, while compiling it
        checks = [self.keyword(k, v, s) for k, v in s.items() if k not in _NOTES]
        checks = [c for c in checks if c is not _true]
        fn = _all(checks)
        cell.append(fn)
        self.done[key] = fn
        return fn

    def keyword(self, k: str, v: Any, s: dict[str, Any]) -> Check:
        make = getattr(self, "k_" + k.lstrip("$"), None)
        if make is None:
            raise _Unsupported(k)
        return make(v, s)

    def k_type(self, v: Any, s: dict[str, Any]) -> Check:
        names = v if isinstance(v, list) else [v]
        if any(n not in _TYPES for n in names):
            raise _Unsupported(repr(v))
        preds = [_TYPES[n] for n in names]
        if len(preds) == 1:
            return preds[0]
        return lambda x: any(p(x) for p in preds)

    def k_properties(self, v: dict[str, Any], s: dict[str, Any]) -> Check:
        props = [(name, self.compile(sub)) for name, sub in v.items()]

        def check(x: Any) -> bool:
            if not isinstance(x, dict):
                return True
            return all(c(x[name]) for name, c in props if name in x)
        return check

    def k_additionalProperties(self, v: Any, s: dict[str, Any]) -> Check:
        if "patternProperties" in s:
            raise _Unsupported("patternProperties")
        known = s.get("properties", {})
        if v is True:
            return _true
        if v is False:
            return lambda x: not isinstance(x, dict) or all(k in known for k in x)
        extra = self.compile(v)
        return lambda x: (not isinstance(x, dict)
                          or all(extra(x[k]) for k in x if k not in known))

    def k_required(self, v: list[str], s: dict[str, Any]) -> Check:
        return lambda x: not isinstance(x, dict) or all(p in x for p in v)

    def k_items(self, v: Any, s: dict[str, Any]) -> Check:
        if "prefixItems" in s:
            raise _Unsupported("prefixItems")
        item = self.compile(v)
        return lambda x: not isinstance(x, list) or all(item(e) for e in x)

    def k_minItems(self, v: int, s: dict[str, Any]) -> Check:
        return lambda x: not isinstance(x, list) or len(x) >= v

    def k_maxItems(self, v: int, s: dict[str, Any]) -> Check:
        return lambda x: not isinstance(x, list) or len(x) <= v

    def k_minProperties(self, v: int, s: dict[str, Any]) -> Check:
        return lambda x: not isinstance(x, dict) or len(x) >= v

    def k_minimum(self, v: Any, s: dict[str, Any]) -> Check:
        return lambda x: not _is_number(x) or not x < v

    def k_maximum(self, v: Any, s: dict[str, Any]) -> Check:
        return lambda x: not _is_number(x) or not x > v

    def k_pattern(self, v: str, s: dict[str, Any]) -> Check:
        search = re.compile(v).search
        return lambda x: not isinstance(x, str) or search(x) is not None

    def k_enum(self, v: list[Any], s: dict[str, Any]) -> Check:
        return lambda x: any(_equal(e, x) for e in v)

    def k_const(self, v: Any, s: dict[str, Any]) -> Check:
        return lambda x: _equal(x, v)

    def k_anyOf(self, v: list[Any], s: dict[str, Any]) -> Check:
        subs = [self.compile(sub) for sub in v]
        return lambda x: any(c(x) for c in subs)

    def k_oneOf(self, v: list[Any], s: dict[str, Any]) -> Check:
        subs = [self.compile(sub) for sub in v]

        def check(x: Any) -> bool:
            found = 0
            for c in subs:
                if c(x):
                    found += 1
                    if found > 1:
                        return False
            return found == 1
        return check

    def k_ref(self, v: str, s: dict[str, Any]) -> Check:
        return self.compile(self.resolve(v))


def _all(checks: list[Check]) -> Check:
    if not checks:
        return _true
    if len(checks) == 1:
        return checks[0]

    def check(x: Any) -> bool:
        for c in checks:
            if not c(x):
                return False
        return True
    return check
