"""The bundled rules files name their JSON Schema for yaml-language-server (the README says how
to use it): a base game rules.schema.json, a variant (`extends:`) variant.schema.json, which
takes every key from rules.schema.json but requires none except `extends` (rulelang itself
checks a variant's merged result against rules.schema.json). Each file passes its schema as an
editor would apply it, so the editor shows no false problems on a bundled game.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from referencing import Registry, Resource

from .helpers import ROOT, rules_files

SCHEMAS = ROOT / "schemas"


def _schema(name: str) -> dict:
    return json.loads((SCHEMAS / name).read_text(encoding="utf-8"))


def test_variant_schema_has_every_rules_key() -> None:
    rules, variant = _schema("rules.schema.json"), _schema("variant.schema.json")
    assert list(variant["properties"]) == list(rules["properties"])
    for key, sub in variant["properties"].items():
        assert sub == {"$ref": f"rules.schema.json#/properties/{key}"}, key
    assert variant["required"] == ["extends"]


@pytest.mark.parametrize("path", rules_files(), ids=lambda p: p.name)
def test_bundled_file_names_its_schema_and_passes_it(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    doc = yaml.safe_load(text)
    name = "variant.schema.json" if "extends" in doc else "rules.schema.json"
    assert text.split("\n", 1)[0] == f"# yaml-language-server: $schema=../schemas/{name}"
    # the editor resolves the variant schema's relative $refs to rules.schema.json beside it
    registry = Registry().with_resource(
        "rules.schema.json", Resource.from_contents(_schema("rules.schema.json")))
    validator = jsonschema.Draft202012Validator(_schema(name), registry=registry)
    assert [e.message for e in validator.iter_errors(doc)] == []
