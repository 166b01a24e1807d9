"""Rules text as a reader sees it: quoted as Markdown code, effects one per line, the comments
the rules file writes beside a key, nested lists; and what a variant changes from its base.

Used by ``explain`` (rules read back as rules); nothing here knows a game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .errors import RulesError, Span
from .yamlload import YList, YMap

MAX_SHORT = 70  # a value in the differences is cut short (…) past this many characters


def code(text: Any) -> str:
    """Rules text as inline Markdown code, its lines joined (a folded YAML string reads as one
    line, as the parser reads it)."""
    s = " ".join(text_of(text).split())
    if not s:
        return "``"
    tick = "``" if "`" in s else "`"
    pad = " " if "`" in s else ""
    return f"{tick}{pad}{s}{pad}{tick}"


def text_of(v: Any) -> str:
    if v is True or v is False:
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def split_effects(value: Any) -> list[str]:
    """Effects as the file writes them, one per item: a list as it is, a string split at its
    top-level ``;`` (never inside brackets, braces or quotes), so that each reads on a line."""
    if value is None:
        return []
    if isinstance(value, list):
        return [s for v in value for s in split_effects(v)]
    text, out, depth, quote, start = text_of(value), [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ";" and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [" ".join(s.split()) for s in out if s.strip()]


def comment(m: Any, key: str) -> str:
    """The comment lines written just above ``key`` of mapping ``m`` (or after it on its line,
    for a short value), joined: the rules file's own explanation of it."""
    span = m.key_spans.get(key) if isinstance(m, YMap) else None
    if span is None or not span.source or not span.line:
        return ""
    lines = span.source.splitlines()
    if span.line > len(lines):
        return ""
    above: list[str] = []
    k = span.line - 2
    indent = span.col - 1  # a comment of its own is written at the key's indentation
    while k >= 0 and lines[k].strip().startswith("#") and \
            len(lines[k]) - len(lines[k].lstrip()) == indent:
        above.insert(0, lines[k].strip().lstrip("#").strip())
        k -= 1
    own = lines[span.line - 1]
    cut = own.find(" #")
    while cut >= 0 and (own[:cut].count("'") % 2 or own[:cut].count('"') % 2):
        cut = own.find(" #", cut + 1)
    after = own[cut + 2:].strip() if cut >= 0 else ""
    # a trailing comment that goes on below the key (lines of comments alone, indented deeper)
    k = span.line
    while after and k < len(lines) and lines[k].strip().startswith("#") and \
            len(lines[k]) - len(lines[k].lstrip()) > span.col:
        after += " " + lines[k].strip().lstrip("#").strip()
        k += 1
    return " ".join(" ".join(above + ([after] if after else [])).split())


class Writer:
    """The Markdown being written: headings, and nested list items (two spaces a level)."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def head(self, level: int, text: str) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")
        self.lines += ["#" * level + " " + text, ""]

    def item(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + "- " + text)

    def para(self, text: str) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")
        self.lines += [" ".join(text.split()), ""]

    def effects(self, depth: int, value: Any) -> None:
        for e in split_effects(value):
            self.item(depth, code(e))

    def text(self) -> str:
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "\n".join(self.lines) + "\n"


def why(m: Any, key: str) -> str:
    c = comment(m, key)
    return f" — {c}" if c else ""


def differences(w: Writer, game: Any) -> None:
    """What an ``extends:`` file sets or removes, each compared with the file it extends."""
    from .rules import _resolve_extends, load_rules
    from .yamlload import load_file

    try:
        own = load_file(game.path)
    except RulesError:
        return
    if not isinstance(own, YMap) or own.get("extends") is None:
        return
    ext = own["extends"]
    errors: list[RulesError] = []
    target = _resolve_extends(str(ext), Path(game.path), True, Span(game.path), errors)
    try:
        base = load_rules(str(target)).doc if target is not None else YMap()
    except RulesError:
        base = YMap()
    w.head(2, f"Differences from {code(ext)}")
    for k, v in own.items():
        if k in ("extends", "remove"):
            continue
        _diff(w, (str(k),), base.get(k) if k in base else _ABSENT, v)
    for item in own.get("remove") or []:
        w.item(0, f"removes {code(item)}")


_ABSENT = object()


def _diff(w: Writer, path: tuple[str, ...], old: Any, new: Any) -> None:
    where = code(".".join(path))
    if old is _ABSENT:
        w.item(0, f"adds {where}" + _short(new))
    elif isinstance(old, YMap) and isinstance(new, YMap):
        for k, v in new.items():
            _diff(w, (*path, str(k)), old.get(k) if k in old else _ABSENT, v)
    elif _plain(old) != _plain(new):
        w.item(0, f"changes {where}" + _short(new, "to") + _short(old, "(was", ")"))


def _short(v: Any, word: str = ":", close: str = "") -> str:
    """A value for the differences: short ones inline, else only its kind."""
    if isinstance(v, YMap):  # a whole new section: the rules above show it
        return " (shown above)" if word == ":" else f" {word} a section{close}"
    text = "; ".join(split_effects(v)) if isinstance(v, (list, YList)) else text_of(v)
    text = " ".join(text.split())
    if len(text) > MAX_SHORT:
        text = text[:MAX_SHORT - 1] + "…"
    return f"{'' if word == ':' else ' '}{word} {code(text)}{close}"


def _plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return " ".join(v.split()) if isinstance(v, str) else v
