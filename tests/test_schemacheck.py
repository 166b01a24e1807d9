"""The quick schema check (``rulelang/schemacheck.py``) gives jsonschema's answer, valid or not,
on every bundled rules and scenario file, on mutated ones and on the type corners where Python
and JSON Schema differ: a document it passed would otherwise hide its errors.
``RULELANG_FUZZ_CASES`` sets how many mutated files are compared (``make test-long``: 300)."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from fuzz.mutate import mutate
from rulelang.errors import RulesError
from rulelang.rules import _schema, validate
from rulelang.schemacheck import compile_schema
from rulelang.yamlload import YMap, load_text

from .helpers import ROOT

CASES = int(os.environ.get("RULELANG_FUZZ_CASES", "150")) // 2


def _both(kind: str, partial: bool = False) -> tuple[Any, Any]:
    schema = dict(_schema(kind))
    if partial:
        schema.pop("required", None)
    quick = compile_schema(schema)
    assert quick is not None, f"{kind}.schema.json uses a keyword schemacheck.py does not know"
    return quick, jsonschema.Draft202012Validator(schema)


RULES = sorted((ROOT / "games").glob("*.yaml")) + sorted((ROOT / "examples").glob("**/*.yaml"))
RULES = [p for p in RULES if not p.name.endswith(".scenario.yaml")]
SCENARIOS = sorted(ROOT.glob("games/**/*.scenario.yaml"))


def _load(text: str) -> Any:
    try:
        return load_text(text, "x.yaml")
    except (RulesError, UnicodeError):  # a lone surrogate: a file read from disk has none
        return None


@pytest.mark.parametrize("kind,files", [("rules", RULES), ("scenario", SCENARIOS)])
def test_same_answer_on_the_bundled_files(kind: str, files: list[Path]) -> None:
    assert files
    checks = [_both(kind), _both(kind, partial=True)]
    for p in files:
        doc = _load(p.read_text(encoding="utf-8"))
        for quick, slow in checks:
            assert quick(doc) == slow.is_valid(doc), p


def test_same_answer_on_mutated_files() -> None:
    rng = random.Random(14)
    checks = [_both("rules"), _both("rules", partial=True)]
    texts = [p.read_text(encoding="utf-8") for p in RULES if p.parent.name == "games"]
    invalid = compared = 0
    for _ in range(CASES):
        text, used = mutate(rng.choice(texts), rng)
        if isinstance(text, bytes):
            continue
        doc = _load(text)
        if doc is None:
            continue
        for quick, slow in checks:
            want = slow.is_valid(doc)
            assert quick(doc) == want, (used, text[:2000])
            invalid += not want
            compared += 1
    assert compared > CASES // 2 and invalid > 0  # both answers were met


@pytest.mark.parametrize("value,schema", [
    (True, {"type": "integer"}), (1, {"type": "integer"}), (1.0, {"type": "integer"}),
    (1.5, {"type": "integer"}), (False, {"type": "number"}), (2.5, {"type": "number"}),
    (None, {"type": "null"}), ("1", {"type": ["integer", "string"]}), (True, {"enum": [1, 2]}),
    (1, {"enum": [True]}), (1.0, {"enum": [1]}), ([1, True], {"enum": [[1, 1]]}),
    ({"a": 1}, {"const": {"a": True}}), ({"a": 1}, {"const": {"a": 1.0}}),
    ("ab", {"pattern": "b"}), ("ab", {"pattern": "^b"}), (5, {"pattern": "^b"}),
    (True, {"minimum": 3}), (2, {"minimum": 3}), (3.0, {"maximum": 2.5}),
    ([], {"minItems": 1}), ({}, {"minProperties": 1}), ("x", {"minItems": 1}),
    ({"a": 1}, {"oneOf": [{"type": "object"}, {"required": ["a"]}]}),
    ({"a": 1}, {"anyOf": [{"type": "string"}, {"required": ["a"]}]}),
    ({"b": 1}, {"properties": {"a": {}}, "additionalProperties": False}),
    ({"b": "x"}, {"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}),
    ([1, "x"], {"items": {"type": "integer"}}),
])
def test_same_answer_on_the_type_corners(value: Any, schema: dict[str, Any]) -> None:
    quick = compile_schema(schema)
    assert quick is not None
    assert quick(value) == jsonschema.Draft202012Validator(schema).is_valid(value)


def test_an_unknown_keyword_leaves_the_answer_to_jsonschema() -> None:
    assert compile_schema({"type": "object", "patternProperties": {"^x": {}}}) is None
    assert compile_schema({"$ref": "other.schema.json#/x"}) is None
    assert compile_schema({"uniqueItems": True}) is None


def test_an_invalid_document_still_gets_jsonschemas_errors() -> None:
    doc = load_text("name: x\nplayers: {min: two}\n", "x.yaml")
    assert isinstance(doc, YMap)
    errors = validate(doc, "rules", "x.yaml", partial=True)
    assert [e.message for e in errors] == ["players.min should be an integer, got a string"]
