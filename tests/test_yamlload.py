"""The YAML loader (yamlload.py): positions of keys, values and characters; limits; refusals."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulelang.errors import LoadError
from rulelang.yamlload import (
    MAX_ALIASES,
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NODES,
    YList,
    YMap,
    YStr,
    load_file,
    load_text,
)

DOC = """\
a: hello world
"b c": 'x + ''s'' * y'
d: "tab\\there * y"
e: |
  line one
  line two *
f: >
  fold one
  fold two *
g: plain
  continued *
h: [1, "x * y", {k: v}]
i: "\\u00e9\\u00e9 *"
j: "esc\\"q * z"
nested:
  list:
    - first
    - key: value * here
      other: 2
"""


@pytest.fixture(scope="module")
def doc() -> YMap:
    d = load_text(DOC, "doc.yaml")
    assert isinstance(d, YMap)
    return d


def where(s: YStr, ch: str, nth: int = 0) -> tuple[int, int]:
    i = -1
    for _ in range(nth + 1):
        i = s.index(ch, i + 1)
    sp = s.pos(i)
    assert sp.path == "doc.yaml"
    return sp.line, sp.col


def test_types(doc: YMap) -> None:
    assert isinstance(doc["a"], YStr)
    assert isinstance(doc["h"], YList)
    assert doc["h"][0] == 1 and isinstance(doc["h"][0], int)
    assert isinstance(doc["h"][2], YMap)
    assert doc["nested"]["list"][1]["other"] == 2


def test_key_spans(doc: YMap) -> None:
    assert [(doc.key_span(k).line, doc.key_span(k).col) for k in ("a", "b c", "j", "nested")] \
        == [(1, 1), (2, 1), (14, 1), (15, 1)]
    inner = doc["nested"]["list"][1]
    assert (inner.key_span("key").line, inner.key_span("key").col) == (18, 7)
    assert (inner.key_span("other").line, inner.key_span("other").col) == (19, 7)
    flow = doc["h"][2]
    assert (flow.key_span("k").line, flow.key_span("k").col) == (12, 18)


def test_value_spans(doc: YMap) -> None:
    assert (doc.span_of("a").line, doc.span_of("a").col) == (1, 4)
    assert (doc.span_of("b c").line, doc.span_of("b c").col) == (2, 8)
    assert (doc.span_of("e").line, doc.span_of("e").col) == (4, 4)
    assert (doc["a"].span.line, doc["a"].span.col) == (1, 4)
    h = doc["h"]
    assert (h.span.line, h.span.col) == (12, 4)
    assert [(s.line, s.col) for s in h.item_spans] == [(12, 5), (12, 8), (12, 17)]
    lst = doc["nested"]["list"]
    assert [(lst.span_of(i).line, lst.span_of(i).col) for i in range(2)] == [(17, 7), (18, 7)]
    # a missing key or index falls back to the container's own span
    assert doc.span_of("zzz") == doc.span
    assert lst.span_of(9) == lst.span


@pytest.mark.parametrize(
    ("key", "ch", "nth", "line", "col"),
    [
        ("a", "w", 0, 1, 10),        # plain
        ("b c", "+", 0, 2, 11),      # single quoted, with '' escapes before the offset
        ("b c", "*", 0, 2, 19),
        ("b c", "y", 0, 2, 21),
        ("d", "*", 0, 3, 15),        # double quoted, with a \t escape before the offset
        ("e", "*", 0, 6, 12),        # literal block, second line
        ("e", "t", 0, 6, 8),
        ("e", "l", 0, 5, 3),
        ("f", "*", 0, 9, 12),        # folded block
        ("f", "t", 0, 9, 8),
        ("g", "*", 0, 11, 13),       # plain scalar over two lines
        ("g", "c", 0, 11, 3),
        ("i", "*", 0, 13, 18),       # \u escapes before the offset
        ("j", "*", 0, 14, 12),       # \" escape before the offset
        ("j", "z", 0, 14, 14),
    ],
)
def test_offsets_inside_strings(doc: YMap, key: str, ch: str, nth: int, line: int,
                                col: int) -> None:
    assert where(doc[key], ch, nth) == (line, col)


def test_offsets_inside_nested_strings(doc: YMap) -> None:
    assert where(doc["h"][1], "*") == (12, 11)
    assert where(doc["nested"]["list"][1]["key"], "*") == (18, 18)
    assert where(doc["nested"]["list"][0], "f") == (17, 7)


def test_offset_out_of_range_is_clamped(doc: YMap) -> None:
    s = doc["a"]
    assert s.pos(-5) == s.pos(0)
    assert s.pos(10_000) == s.pos(len(s) - 1)


def test_non_ascii_text_before_the_offset() -> None:
    d = load_text("d: \"éé ♠♠ — ok\"\nx: a ♠ b $ c\n", "u.yaml")
    s = d["x"]
    sp = s.pos(s.index("$"))
    assert (sp.line, sp.col) == (2, 10)


def test_crlf_line_endings() -> None:
    d = load_text("a: 1\r\nx: size(a) $ 2\r\n", "crlf.yaml")
    sp = d["x"].pos(d["x"].index("$"))
    assert (sp.line, sp.col) == (2, 12)


# ---------------------------------------------------------------- refusals
def err(text: str) -> LoadError:
    with pytest.raises(LoadError) as info:
        load_text(text, "bad.yaml")
    e = info.value
    assert e.span.path == "bad.yaml"
    return e


def test_duplicate_keys() -> None:
    e = err("a: 1\nb: 2\na: 3\n")
    assert "'a' appears twice" in e.message
    assert (e.span.line, e.span.col) == (3, 1)
    e = err("x:\n  y: 1\n  z: 2\n  y: 3\n")
    assert (e.span.line, e.span.col) == (4, 3)
    e = err("x: {p: 1, p: 2}\n")
    assert (e.span.line, e.span.col) == (1, 11)


@pytest.mark.parametrize(
    "text",
    [
        "a: !!python/object:os.system {}\n",
        "a: !!python/object/apply:os.system [\"echo hi\"]\n",
        "a: !!python/object/new:os.system [x]\n",
        "a: !!python/name:os.system\n",
        "a: !!python/tuple [1, 2]\n",
        "a: !custom thing\n",
        "a: !!binary aGVsbG8=\n",
        "a: !!set {x, y}\n",
    ],
)
def test_python_and_unknown_tags_refused(text: str) -> None:
    e = err(text)
    assert "tag" in e.message and "not allowed" in e.message
    assert (e.span.line, e.span.col) == (1, 4)


def test_python_tag_nested_deep_is_refused() -> None:
    e = err("x:\n  y:\n    - 1\n    - !!python/object:os.system {}\n")
    assert "not allowed" in e.message
    assert (e.span.line, e.span.col) == (4, 7)


def test_merge_keys_refused() -> None:
    e = err("a: &x {k: 1}\nb:\n  <<: *x\n")
    assert "merge" in e.message


def test_alias_bomb_refused_quickly() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        prev, cur = chr(ord("a") + i - 1), chr(ord("a") + i)
        lines.append(f"{cur}: &{cur} [" + ",".join(["*" + prev] * 9) + "]")
    t0 = time.process_time()
    e = err("\n".join(lines) + "\n")
    assert time.process_time() - t0 < 2.0
    assert "aliases" in e.message


def test_a_few_aliases_are_fine() -> None:
    d = load_text("base: &b {x: 1}\nuse: [*b, *b]\n", "ok.yaml")
    assert d["use"] == [{"x": 1}, {"x": 1}]
    many = "base: &b [1]\nuse: [" + ", ".join(["*b"] * (MAX_ALIASES + 1)) + "]\n"
    assert "aliases" in err(many).message


def test_size_limit() -> None:
    e = err("a: \"" + "x" * MAX_FILE_BYTES + "\"\n")
    assert "larger than" in e.message
    # multi-byte characters count as bytes
    n = MAX_FILE_BYTES // 3 + 10
    assert "larger than" in err("a: \"" + "♠" * n + "\"\n").message


def test_depth_limit() -> None:
    ok = "a: " + "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2) + "\n"
    load_text(ok, "ok.yaml")
    e = err("a: " + "[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n")
    assert "nested" in e.message
    assert e.span.line == 1
    e = err("a: " + "[" * 5000 + "]" * 5000 + "\n")
    assert e.span.line == 1


def test_depth_limit_block_style() -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 5)) + "  " * 70 + "x: 1\n"
    assert "nested" in err(text).message


def test_node_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # a file of MAX_NODES values fits in MAX_FILE_BYTES, so the node limit is the one met
    assert len("a: [" + ",".join(["1"] * (MAX_NODES + 1)) + "]\n") < MAX_FILE_BYTES
    # the limit itself at a thousand values (loading 200,001 takes seconds of the suite)
    import rulelang.yamlload as Y

    monkeypatch.setattr(Y, "MAX_NODES", 1000)
    text = "a: [" + ",".join(["1"] * 1001) + "]\n"
    with pytest.raises(LoadError, match=r"the file has more than 1000 values$"):
        load_text(text, "bad.yaml", max_nodes=1000)
    assert load_text("a: [" + ",".join(["1"] * 990) + "]\n", "ok.yaml", max_nodes=1000)


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ("a: [1, 2\nb: 3\n", 1, 4),  # the '[' never closed, not where the reader gave up
        ("a:\n\tb: 1\n", 2, 1),
        ("a: 1\n  b: 2\n", 2, 4),
        ("knocker: none: x\n", 1, 14),
        ("a: \"unterminated\n", 1, 4),  # the quote never closed
    ],
)
def test_broken_yaml_located(text: str, line: int, col: int) -> None:
    e = err(text)
    assert e.message.startswith("bad YAML")
    assert (e.span.line, e.span.col) == (line, col)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [("a: 99999999999999999999\n", "10^15"), ("a: .nan\n", "not allowed"),
     ("a: -.inf\n", "not allowed"), ("? [1, 2]\n: 3\n", "plain value")],
)
def test_bad_values(text: str, fragment: str) -> None:
    assert fragment in err(text).message


def test_empty_and_comment_only_text() -> None:
    assert load_text("", "e.yaml") is None
    assert load_text("# nothing\n", "e.yaml") is None
    assert load_text("---\n", "e.yaml") is None


def test_scalars() -> None:
    d = load_text("a: 3\nb: 2.5\nc: true\nd: null\ne: T\nf: '10'\ng: x y\n", "s.yaml")
    assert d == {"a": 3, "b": 2.5, "c": True, "d": None, "e": "T", "f": "10", "g": "x y"}
    assert isinstance(d["e"], YStr) and isinstance(d["f"], YStr)


def test_boolean_and_numeric_keys_become_strings() -> None:
    d = load_text("2: two\ntrue: yes\nT: ten\n", "k.yaml")
    assert set(d) == {"2", "true", "T"}


# ---------------------------------------------------------------- files
def test_load_file_names_the_file_as_shown(tmp_path: Path) -> None:
    p = tmp_path / "f.yaml"
    p.write_text("a: 1\nb: [\n", encoding="utf-8")
    with pytest.raises(LoadError) as info:
        load_file(str(p), "shown/f.yaml")
    assert info.value.span.path == "shown/f.yaml"
    assert info.value.span.line == 3


def test_non_utf8_file(tmp_path: Path) -> None:
    p = tmp_path / "latin1.yaml"
    p.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(LoadError) as info:
        load_file(str(p))
    e = info.value
    assert "UTF-8" in e.message
    assert (e.span.line, e.span.col) == (2, 7)


def test_nul_byte_refused(tmp_path: Path) -> None:
    p = tmp_path / "nul.yaml"
    p.write_bytes(b"a: 1\nb: x\x00y\n")
    with pytest.raises(LoadError) as info:
        load_file(str(p))
    assert "NUL" in info.value.message


def test_nul_byte_located(tmp_path: Path) -> None:
    p = tmp_path / "nul.yaml"
    p.write_bytes(b"a: 1\nb: x\x00y\n")
    with pytest.raises(LoadError) as info:
        load_file(str(p))
    assert (info.value.span.line, info.value.span.col) == (2, 5)


def test_empty_file(tmp_path: Path) -> None:
    p = tmp_path / "empty.yaml"
    p.write_bytes(b"")
    assert load_file(str(p)) is None


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    p = tmp_path / "bom.yaml"
    p.write_bytes("\ufeffa: 1\n".encode())
    d = load_file(str(p))
    assert list(d) == ["a"]


def test_oversized_file(tmp_path: Path) -> None:
    p = tmp_path / "big.yaml"
    p.write_bytes(b"a: '" + b"x" * (MAX_FILE_BYTES + 10) + b"'\n")
    with pytest.raises(LoadError, match="larger than"):
        load_file(str(p))


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match="cannot read"):
        load_file(str(tmp_path / "nope.yaml"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("ab: -[]{},&*!\"'#|>\n ?%@`\t1") + ["!!python/object:x ",
                                                                        "&a ", "*a", "<<: "]),
                max_size=40).map("".join))
def test_load_text_fails_only_with_load_errors(text: str) -> None:
    try:
        load_text(text, "fuzz.yaml")
    except LoadError as e:
        assert e.span.path == "fuzz.yaml"
