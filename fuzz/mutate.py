"""Mutations of a rules file's text: what a careless or hostile author might hand rulelang.

Each mutator takes the text and a ``random.Random`` and returns new text (``str``) or raw bytes
(``bytes``, for encodings and binary garbage). ``mutate`` applies one to three of them. All
choices come from the given RNG, so a case is reproduced by its seed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Mutator = Callable[[str, random.Random], "str | bytes"]

KEY_LINE = re.compile(r"^(\s*)(-\s+)?([A-Za-z_][A-Za-z0-9_().,\s]*?):(\s|$)")
NUMBER = re.compile(r"(?<![A-Za-z_\d.])-?\d+(\.\d+)?(?![A-Za-z_\d])")

WRONG_VALUES = [
    "[]", "{}", "[1, 2]", "{a: 1}", "{a: [1, {b: 2}]}", "null", "~", "true", "false", "0", "-1",
    "42", "3.5", '"text"', "''", ".inf", "-.inf", ".nan", "0x10", "0o17", "1e400", "1_000",
    "2001-01-01", "!!binary aGVsbG8=", "!!str 5", "!!int '7'", "!!float x", "yes", "no", "on",
    "|\n  block\n  text", ">\n  folded", "[[[]]]", "{{}}", "[a, b", "{a: 1", "'unclosed",
    '"unclosed', "&anchor 1", "*missing", "? complex", "- item", "@reserved", "`reserved",
    "%directive", "!tag x", "!!set {a, b}", "!!omap [a: 1]", "!!timestamp 2001-12-14",
]

EXPR_TOKENS = [
    "(", ")", "[", "]", "{", "}", ",", ".", ":", ";", "+", "-", "*", "/", "//", "%", "<", ">",
    "==", "!=", "=", "!", "'", '"', "#", "&", "|", "`", "\\", " ", "->", "and", "or", "not",
    "if", "then", "else", "for", "in", "let", "none", "true", "1", "0", "-1", "1e9", "x",
    "hand", "me", "opt", "stock", "seats", "__class__", "__import__", "import", "lambda",
    "\t", "\n", "\x00", "\u2028", "é", "♠", "\ufeff",
]

HOSTILE = [
    "!!python/object/apply:os.system ['echo pwned']",
    "!!python/name:os.system",
    "!!python/object:__main__.X {}",
    "!!python/module:os",
    "\"__import__('os').system('echo pwned')\"",
    "\"open('/etc/passwd')\"",
    "\"hand.__class__.__mro__\"",
    "\"opt.__dict__\"",
    "\"me.__class__\"",
    "\"(lambda x: x).__globals__\"",
    "\"exec('1')\"",
    "\"eval('1')\"",
    "\"getattr(me, 'real')\"",
    "\"size.__code__\"",
    "\"[c.__class__ for c in hand[me]]\"",
]

EXTENDS = [
    "/etc/passwd", "/etc/hostname", "../../../../../../etc/passwd", "..", ".", "../games",
    "games/../../etc/passwd", "~/.bashrc", "/dev/zero", "/dev/urandom", "/proc/self/environ",
    "thirty-one", "thirty-one.yaml", "nope", "", "\"\"", "[thirty-one]", "{a: 1}", "1",
    "./thirty-one.yaml", "file:///etc/passwd", "http://example.com/x.yaml", "C:\\\\x.yaml",
    "\\\\\\\\server\\\\share\\\\x.yaml", "/", "//", "thirty-one/../thirty-one",
]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _key_lines(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines)
            if KEY_LINE.match(ln) and not ln.lstrip().startswith("#")]


def delete_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    if not lines:
        return text
    i = rng.randrange(len(lines))
    k = rng.choice([1, 1, 1, 2, 3, 8])
    del lines[i : i + k]
    return "\n".join(lines)


def duplicate_line(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    j = rng.randrange(len(lines) + 1) if rng.random() < 0.5 else i
    lines.insert(j, lines[i])
    return "\n".join(lines)


def swap_lines(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    if len(lines) < 2:
        return text
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def swap_keys(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    keys = _key_lines(lines)
    if len(keys) < 2:
        return text
    i, j = rng.sample(keys, 2)
    mi, mj = KEY_LINE.match(lines[i]), KEY_LINE.match(lines[j])
    assert mi and mj
    ki, kj = mi.group(3), mj.group(3)
    lines[i] = lines[i][: mi.start(3)] + kj + lines[i][mi.end(3) :]
    lines[j] = lines[j][: mj.start(3)] + ki + lines[j][mj.end(3) :]
    return "\n".join(lines)


def rename_key(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    keys = _key_lines(lines)
    if not keys:
        return text
    i = rng.choice(keys)
    m = KEY_LINE.match(lines[i])
    assert m
    key = m.group(3)
    choice = rng.random()
    if choice < 0.3 and len(key) > 1:  # a typo
        k = rng.randrange(len(key))
        new = key[:k] + key[k + 1 :]
    elif choice < 0.6:
        new = rng.choice(["extends", "remove", "phases", "zones", "options", "functions",
                          "procedures", "round", "turn", "match", "deck", "players", "name",
                          "conserved", "heuristic", "hand_evaluator", "values", "data", "when",
                          "do", "next", "args", "actions", "settle", "triggers", "<<", "?",
                          "__proto__", "constructor", "1", "true", "null", "f(x)", "f(", "f(x,)",
                          "f(x, x)", "é", "a" * 300])
    else:
        new = key + rng.choice(["_", "2", "(p)", "()", "(a, b)", " x", "s"])
    lines[i] = lines[i][: m.start(3)] + new + lines[i][m.end(3) :]
    return "\n".join(lines)


def wrong_type(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    keys = _key_lines(lines)
    if not keys:
        return text
    i = rng.choice(keys)
    m = KEY_LINE.match(lines[i])
    assert m
    head = lines[i][: m.end(3) + 1]
    value = rng.choice(WRONG_VALUES)
    if "\n" in value:
        indent = " " * (len(m.group(1)) + 2)
        value = value.replace("\n  ", "\n" + indent)
    lines[i] = f"{head} {value}"
    return "\n".join(lines)


def _value_spans(text: str) -> list[tuple[int, int]]:
    """Character ranges of values after 'key:' or '- ' on each line (the rules text)."""
    out = []
    pos = 0
    for ln in _lines(text):
        m = re.match(r"^\s*(?:-\s+)?(?:[^:#'\"]+:\s+)?(.+)$", ln)
        if m and m.group(1).strip() and not ln.lstrip().startswith("#"):
            out.append((pos + m.start(1), pos + m.end(1)))
        pos += len(ln) + 1
    return out


def corrupt_expr(text: str, rng: random.Random) -> str:
    spans = _value_spans(text)
    if not spans:
        return text
    a, b = rng.choice(spans)
    k = rng.randrange(a, b + 1)
    op = rng.random()
    tok = rng.choice(EXPR_TOKENS)
    if op < 0.4:  # insert
        return text[:k] + tok + text[k:]
    if op < 0.7 and k < b:  # delete a few characters
        return text[:k] + text[k + rng.randint(1, 4) :]
    return text[:k] + tok + text[k + 1 :]  # replace one


def random_bytes(text: str, rng: random.Random) -> bytes:
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    for _ in range(rng.randint(1, 12)):
        k = rng.randrange(len(data) + 1)
        chunk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        if rng.random() < 0.5 and k < len(data):
            data[k : k + len(chunk)] = chunk
        else:
            data[k:k] = chunk
    return bytes(data)


def only_random_bytes(text: str, rng: random.Random) -> bytes:
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 4000)))


HUGE = ["99999999999999999999999999", "-99999999999999999999", "1e308", "-1e308", "1e999",
        "9223372036854775808", "1000000000000000", "999999999999999", "2147483648", "-0",
        "0.000000000000000000001", "10000000", "1000000", "100000", "65536", "-1", "0"]


def huge_numbers(text: str, rng: random.Random) -> str:
    ms = list(NUMBER.finditer(text))
    if not ms:
        return text
    for m in rng.sample(ms, min(len(ms), rng.randint(1, 3))):
        text = text[: m.start()] + rng.choice(HUGE) + text[m.end() :]
        ms = list(NUMBER.finditer(text))
        if not ms:
            break
    return text


def deep_nesting(text: str, rng: random.Random) -> str:
    n = rng.choice([10, 50, 59, 60, 61, 63, 64, 65, 100, 500, 3000, 20000])
    kind = rng.randrange(6)
    if kind == 0:
        value = "[" * n + "]" * n
    elif kind == 1:
        value = "{a: " * n + "1" + "}" * n
    elif kind == 2:
        value = '"' + "(" * n + "1" + ")" * n + '"'
    elif kind == 3:
        value = '"' + "[" * n + "]" * n + '"'
    elif kind == 4:
        value = '"' + "not " * n + "true" + '"'
    else:
        value = '"' + "-" * n + "1" + '"'
    if kind == 1 and rng.random() < 0.5:  # block style instead
        value = "\n" + "".join("  " * (i + 1) + "a:\n" for i in range(min(n, 500))) + \
            "  " * (min(n, 500) + 1) + "1"
    return _replace_a_value(text, rng, value)


def big_expression(text: str, rng: random.Random) -> str:
    n = rng.choice([100, 1000, 5000, 30000])
    kind = rng.randrange(4)
    if kind == 0:
        value = '"' + "+".join(["1"] * n) + '"'
    elif kind == 1:
        value = '"[' + ", ".join(["1"] * n) + ']"'
    elif kind == 2:
        value = '"' + " and ".join(["true"] * n) + '"'
    else:
        value = '"' + "x" * n + '"'
    return _replace_a_value(text, rng, value)


def _replace_a_value(text: str, rng: random.Random, value: str) -> str:
    lines = _lines(text)
    keys = _key_lines(lines)
    if not keys:
        return text + "\nx: " + value
    i = rng.choice(keys)
    m = KEY_LINE.match(lines[i])
    assert m
    lines[i] = lines[i][: m.end(3) + 1] + " " + value
    return "\n".join(lines)


def empty(text: str, rng: random.Random) -> str | bytes:
    return rng.choice(["", "\n", "   \n\n", "# only a comment\n", "---\n", "---\n...\n", "null",
                       "~", "[]", "{}", "- a\n- b\n", "42", "'a string'", "\ufeff", b"\xef\xbb\xbf",
                       "\t", "--- !!map {}", "%YAML 1.2\n---\n{}", "a: b\n---\nc: d\n"])


def non_utf8(text: str, rng: random.Random) -> bytes:
    text = text.encode("utf-8", "replace").decode("utf-8")  # no lone surrogates
    kind = rng.randrange(5)
    if kind == 0:
        return text.encode("utf-16")
    if kind == 1:
        return text.encode("latin-1", "replace") + "é".encode("latin-1")
    if kind == 2:
        data = text.encode("utf-8")
        k = rng.randrange(len(data) + 1)
        return data[:k] + rng.choice([b"\xff", b"\xfe", b"\xc3", b"\x80", b"\xed\xa0\x80",
                                      b"\xf4\x90\x80\x80", b"\xc0\xaf"]) + data[k:]
    if kind == 3:
        return text.encode("utf-32")
    return text.encode("utf-8")[: rng.randrange(len(text) + 1)] + b"\xe2\x82"


def truncate(text: str, rng: random.Random) -> str:
    return text[: rng.randrange(len(text) + 1)]


def reindent(text: str, rng: random.Random) -> str:
    lines = _lines(text)
    i = rng.randrange(len(lines))
    op = rng.randrange(4)
    if op == 0:
        lines[i] = " " + lines[i]
    elif op == 1:
        lines[i] = lines[i][1:] if lines[i].startswith(" ") else lines[i]
    elif op == 2:
        lines[i] = "\t" + lines[i]
    else:
        lines[i] = lines[i].lstrip()
    return "\n".join(lines)


def hostile(text: str, rng: random.Random) -> str:
    return _replace_a_value(text, rng, rng.choice(HOSTILE))


def bad_extends(text: str, rng: random.Random) -> str:
    target = rng.choice(EXTENDS)
    lines = [ln for ln in _lines(text) if not ln.startswith("extends:")]
    return "\n".join([f"extends: {target}", *lines])


def aliases(text: str, rng: random.Random) -> str:
    n = rng.choice([2, 10, 101, 1000])
    width = rng.choice([2, 9])
    out = ["a0: &a0 [x, x]"]
    for k in range(1, min(n, 30)):
        out.append(f"a{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * width) + "]")
    out.append("data:")
    out.append(f"  bomb: *a{min(n, 30) - 1}")
    if rng.random() < 0.5:
        return text + "\n" + "\n".join(out) + "\n"
    return "\n".join(out) + "\n" + text


def control_chars(text: str, rng: random.Random) -> str:
    k = rng.randrange(len(text) + 1)
    return text[:k] + rng.choice(["\x00", "\x01", "\x1b[31m", "\r", "\x0b", "\x0c", "\u2028",
                                  "\ud800", "\x7f", "\x85", "\ufffe"]) + text[k:]


# Rules text that checks but asks the engine for a great deal of work or memory when it runs:
# each is a boolean, so it can be joined to a `when:`, a trigger or `match.over` with `or`.
BOMBS = [
    "[x for x in range(199999)] == [x for x in range(199999)]",
    "size(range(199999)) in [size(range(199999)), 1]",
    "[range(199999)] == [range(199999)]",
    "sum(x for x in range(199999)) < 0",
    "size(distinct(range(199999))) < 0",
    "size(combinations(range(90), 3)) < 0",
    "next_seat(dealer, 1000000000000000) < 0",
    "next_seat(dealer, -1000000000000000) < 0",
    "size(sets(stock, -1000000000000000, 3)) < 0",
    "size(sets(stock, 1000000000000000, 3)) < 0",
    "size(sets(stock, 3, -1000000000000000)) < 0",
    "size(runs(stock, -5)) < 0",
    "size(range(-1000000000000000, 1000000000000000)) < 0",
    "size(range(1000000000000000)) < 0",
    "1000000000000000 * 1000000000000000 * 1000000000000000 < 0",
    "2.0 * 1000000000000000 * 1000000000000000 * 1000000000000000 < 0",
    "size(stock[1000000000000000:]) < 0",
    "size(hand[1000000000000000]) < 0",
    "size(hand[-1]) < 0",
    "size(hand[99]) < 0",
    "dealer == none",
    "size(sort(range(199999))) < 0",
]
# whole lines of effects that do the same inside `round.start`
BOMB_EFFECTS = [
    "log([x for x in range(199999)])",
    "log(range(199999))",
    "show(-1)",
    "show(1000000000000000)",
    "shuffle(stock); log(size(range(199999)))",
    "for x in range(199999) { log(x) }",
    "for x in range(1000000000000000) { pass }",
    "deal(stock, hand, -1000000000000000)",
    "deal(stock, hand, 1000000000000000)",
]
WHEN_LINE = re.compile(r"^(\s*[a-z_]+:\s+)([^'\"{\[>|&*!#\s][^#]*)$")


def _condition_lines(lines: list[str]) -> list[int]:
    """Lines holding one condition on one line: a `when:`, `over:`, or a trigger."""
    out, trigger_indent = [], -1
    for i, ln in enumerate(lines):
        indent = len(ln) - len(ln.lstrip())
        if ln.strip() == "triggers:":
            trigger_indent = indent
            continue
        if ln.strip() and indent <= trigger_indent:
            trigger_indent = -1
        m = WHEN_LINE.match(ln)
        if m and (trigger_indent >= 0 or ln.strip().startswith(("when:", "over:"))):
            out.append(i)
    return out


def runtime_bomb(text: str, rng: random.Random) -> str:
    """Join an expensive but well-typed condition to a `when:`/trigger, or an effect to the
    round's start: a file that still checks and makes the engine work hard when it runs."""
    lines = _lines(text)
    if rng.random() < 0.3:
        for i, ln in enumerate(lines):
            if ln.strip() == "start:":
                indent = len(lines[i + 1]) - len(lines[i + 1].lstrip()) if i + 1 < len(lines) \
                    else len(ln) - len(ln.lstrip()) + 2
                lines.insert(i + 1, " " * indent + "- " + rng.choice(BOMB_EFFECTS))
                return "\n".join(lines)
    spots = _condition_lines(lines)
    if not spots:
        return text
    i = rng.choice(spots)
    m = WHEN_LINE.match(lines[i])
    assert m
    lines[i] = f"{m.group(1)}({rng.choice(BOMBS)}) or ({m.group(2).rstrip()})"
    return "\n".join(lines)


STRUCTURAL = {
    "first_dealer": ["99", "-1", "'x'", "[1]", "none", "true", "1.5", "1e400",
                     "1000000000000000", "\"hand[0]\"", "\"range(3)\""],
    "first": ["99", "-1", "'x'", "[0, 1]", "none", "true", "2.5", "\"stock\"", "\"hand[9]\""],
    "next_dealer": ["99", "-1", "'x'", "[0]", "none", "true", "0.5", "\"next_seat(dealer, -1)\"",
                    "\"next_seat(dealer, 1000000000000000)\""],
    "copies": ["'2'", "two", "1000000000000000", "-1", "0", "1e400", "[1]", "200000",
               "\"if num_players > 4 then 1000000000000000 else 2\"", "none", "2.5"],
    "players": ["'4'", "{min: -1, max: 1000000000000000, default: 4}", "{min: 4, max: 2}",
                "{min: 0, max: 0, default: 0}", "1e400", "[2, 4]"],
    "over": ["'x'", "1", "none", "\"size(range(1000000000000000)) > 0\"", "\"hand[9] == []\""],
}
PLACES = {"first_dealer": "match", "first": "round", "next_dealer": "round", "copies": "deck",
          "over": "match"}


def structural_key(text: str, rng: random.Random) -> str:
    """A structural key (first dealer, first seat, next dealer, copies, players, the match's
    end) set to a value of the wrong type, out of range or huge; added where it is missing."""
    key = rng.choice(sorted(STRUCTURAL))
    value = rng.choice(STRUCTURAL[key])
    lines = _lines(text)
    for i, ln in enumerate(lines):
        m = re.match(rf"^(\s*){key}:(\s|$)", ln)
        if m and not ln.lstrip().startswith("#"):
            lines[i] = f"{m.group(1)}{key}: {value}"
            # drop a block value's continuation lines, which now belong to nothing
            j = i + 1
            while j < len(lines) and lines[j].startswith(m.group(1) + "  ") and lines[j].strip():
                del lines[j]
            return "\n".join(lines)
    place = PLACES.get(key)
    if place is None:
        return text + f"\n{key}: {value}\n"
    for i, ln in enumerate(lines):
        if ln.rstrip() == f"{place}:":
            lines.insert(i + 1, f"  {key}: {value}")
            return "\n".join(lines)
    return text + f"\n{place}:\n  {key}: {value}\n"


# what a hostile name or text might carry to a terminal: escapes that clear the screen, set the
# window title, colour the rest of the output, ring the bell; and rich markup
TERMINAL_TEXT = [
    "\x1b[2J\x1b[H", "\x1b]0;pwned\x07", "\x1b[31m", "\x1b[0m", "\x07", "\x08\x08\x08",
    "\r", "\x1b[6n", "\x9b31m", "\x1bP+q\x1b\\", "\x7f", "\x00",
    "[/bold]", "[/]", "[red]", "[bold red]x[/bold red]", "[link=file:///etc/passwd]x[/link]",
    "[/yellow]", "[", "]", "\\[", "[[", "[on red]", ":smiley:", "%s%n", "{0}",
]


def terminal_text(text: str, rng: random.Random) -> str:
    """Control characters and rich markup in what is printed: the game's name, its
    description, a `log` text, an option's doc, a zone or action name."""
    payload = "".join(rng.choice(TERMINAL_TEXT) for _ in range(rng.randint(1, 3)))
    quoted = '"' + payload.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'
    lines = _lines(text)
    kind = rng.randrange(4)
    if kind == 0:  # the name
        for i, ln in enumerate(lines):
            if ln.startswith("name:"):
                lines[i] = f"name: {quoted[:-1]}{ln[5:].strip()}\""
                return "\n".join(lines)
    if kind == 1:  # the description
        for i, ln in enumerate(lines):
            if ln.startswith("description:"):
                j = i + 1
                while j < len(lines) and lines[j].startswith("  "):
                    j += 1
                lines[i:j] = [f"description: {quoted}"]
                return "\n".join(lines)
    if kind == 2:  # a log text at the round's start
        for i, ln in enumerate(lines):
            if ln.strip() == "start:" and i + 1 < len(lines):
                indent = len(lines[i + 1]) - len(lines[i + 1].lstrip())
                text_expr = "'" + payload.encode("unicode_escape").decode("ascii") \
                    .replace("'", "") + "'"
                lines.insert(i + 1, " " * indent + f"- \"log({text_expr})\"")
                return "\n".join(lines)
    return control_chars(text, rng)


MUTATORS: dict[str, Mutator] = {
    "delete_lines": delete_lines,
    "duplicate_line": duplicate_line,
    "swap_lines": swap_lines,
    "swap_keys": swap_keys,
    "rename_key": rename_key,
    "wrong_type": wrong_type,
    "corrupt_expr": corrupt_expr,
    "random_bytes": random_bytes,
    "only_random_bytes": only_random_bytes,
    "huge_numbers": huge_numbers,
    "deep_nesting": deep_nesting,
    "big_expression": big_expression,
    "empty": empty,
    "non_utf8": non_utf8,
    "truncate": truncate,
    "reindent": reindent,
    "hostile": hostile,
    "bad_extends": bad_extends,
    "aliases": aliases,
    "control_chars": control_chars,
    "runtime_bomb": runtime_bomb,
    "structural_key": structural_key,
    "terminal_text": terminal_text,
}
# how often each is drawn: the structural ones most, since they reach the deeper stages
WEIGHTS: dict[str, int] = {name: 1 for name in MUTATORS}
WEIGHTS.update(delete_lines=4, duplicate_line=3, swap_lines=2, swap_keys=3, rename_key=3,
               wrong_type=5, corrupt_expr=10, huge_numbers=3, reindent=2, runtime_bomb=5,
               structural_key=3, terminal_text=3)
# these return bytes or replace the text wholesale: nothing can be stacked on them
TERMINAL = {"random_bytes", "only_random_bytes", "empty", "non_utf8"}


def mutate(text: str, rng: random.Random) -> tuple[str | bytes, list[str]]:
    """One to three mutations of ``text``; returns the result and the mutators' names."""
    names = list(MUTATORS)
    weights = [WEIGHTS[n] for n in names]
    out: str | bytes = text
    used: list[str] = []
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        name = rng.choices(names, weights)[0]
        assert isinstance(out, str)
        out = MUTATORS[name](out, rng)
        used.append(name)
        if isinstance(out, bytes) or name in TERMINAL:
            break
    return out, used
