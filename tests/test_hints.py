"""What `check` suggests for a slip: did-you-mean by edits (a swapped pair is one slip),
keywords and `super` among the suggestions, and '==' for a lone '=' in a condition."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.build import check_all
from rulelang.errors import RulesError, RulesErrors, closest, edit_distance, reset_hints
from rulelang.rules import load_rules

RULES = """\
name: x
deck: {}
zones: {s: {home: true}}
globals: {k: none}
procedures:
  lose(p): k = p
  lowest2(p): k = p
round:
  triggers:
    a: %s
phases:
  p:
    actions:
      a: {do: "%s"}
"""


def messages(tmp_path: Path, trigger: str, effect: str = "k = 1") -> list[str]:
    f = tmp_path / "r.yaml"
    f.write_text(RULES % (trigger, effect))
    reset_hints()
    try:
        errors, _ = check_all(load_rules(str(f)))
    except RulesErrors as e:
        errors = e.errors
    except RulesError as e:
        errors = [e]
    return [e.message for e in errors]


@pytest.mark.parametrize("a, b, d", [("loes", "lose", 1), ("lose", "lose", 0),
                                     ("noen", "none", 1), ("kitten", "sitting", 3),
                                     ("", "abc", 3)])
def test_edit_distance_counts_a_swapped_pair_as_one(a: str, b: str, d: int) -> None:
    assert edit_distance(a, b) == d


def test_closest_prefers_fewest_edits() -> None:
    assert closest("loes", ["lowest", "lose", "lives"]) == "lose"
    assert closest("stok", ["stack", "stock"]) == "stock"
    assert closest("xyz", ["stock"]) is None


def test_keywords_and_procedures_are_suggested(tmp_path: Path) -> None:
    got = messages(tmp_path, "k == noen", "loes(1)")
    assert "unknown name 'noen' (did you mean 'none'?)" in got
    assert "unknown function 'loes' (did you mean 'lose'?)" in got
    got = messages(tmp_path, "k == none", "supre(1)")
    assert "unknown function 'supre' (did you mean 'super'?)" in got


def test_a_lone_equals_in_a_condition_suggests_double_equals(tmp_path: Path) -> None:
    got = messages(tmp_path, "k = none")
    assert any("to compare, write '=='" in m for m in got), got


@pytest.mark.parametrize("text, line, col, fragment", [
    ("name: x\nzones:\n  s: {home: true\nphases: {}\n", 3, 6, "this '{' is not closed"),
    ("name: \"x\ndeck: {}\n", 1, 7, "this quoted string is not closed"),
    ("name: x\n\tdeck: {}\n", 2, 1, "indent with spaces"),
    ("name: x\nfunctions:\n  f(c): c.rank: 3\n", 3, 15, "put the value in quotes"),
    ("name: x\nzones:\n  s: {}\n   t: {}\n", 4, 4, "keys of one mapping start in the same"),
])
def test_yaml_errors_point_at_the_cause_with_a_hint(text: str, line: int, col: int,
                                                    fragment: str) -> None:
    from rulelang.yamlload import load_text

    with pytest.raises(RulesError) as e:
        load_text(text, "f.yaml")
    assert (e.value.span.line, e.value.span.col) == (line, col)
    assert fragment in e.value.message


def test_a_number_compared_with_text_is_a_warning(tmp_path: Path) -> None:
    f = tmp_path / "r.yaml"
    f.write_text(RULES.replace("lowest2(p): k = p", "lowest2(p): k = p\nfunctions:\n"
                               "  hv(cs): size(cs)") % ("\"hv(s) == '31'\"", "k = 1"))
    reset_hints()
    errors, warnings = check_all(load_rules(str(f)))
    assert not errors
    assert [w.message for w in warnings] == [
        "a number compared with text is never equal: this '==' is always false "
        "(write 31, not '31')"]
    assert (warnings[0].span.line, warnings[0].span.col) == (12, 18)
