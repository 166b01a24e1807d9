"""The one error root of rulelang, its few subclasses, and how a located error is printed.

Every problem a user can cause (a bad rules file, a bad scenario, a bad card, an illegal move)
is a ``RulesError`` carrying a ``Span`` that points into the file the user wrote, so that the
command line can print ``PATH:LINE:COL: error: MESSAGE``, the source line and a caret.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import islice

from .compat import SLOTS
from .limits import HINT_CANDIDATES, HINT_NAMES, HINTS_PER_FILE
from .terminal import clean


@dataclass(frozen=True, **SLOTS)
class Span:
    """A place in a source file: 1-based line and column, and the path as the user named it."""

    path: str = "<string>"
    line: int = 0
    col: int = 0
    source: str | None = None  # the whole text of the file, for the source-line excerpt

    def shifted(self, line: int, col: int) -> Span:
        return Span(self.path, line, col, self.source)

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.col}"
        return self.path


NOWHERE = Span()


class RulesError(Exception):
    """Root of every error rulelang reports to a user. Carries where it happened."""

    kind = "error"

    def __init__(self, message: str, span: Span | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span or NOWHERE

    def add_context(self, text: str) -> RulesError:
        """Say, after the message, where in a run this happened (the game, its seed), so that
        it can be reproduced; the place in the rules file stays the span."""
        self.message = f"{self.message} ({text})"
        self.args = (self.message,)
        return self

    def render(self) -> str:
        """``PATH:LINE:COL: error: MESSAGE``, then the source line and a caret under the column;
        as a terminal may show it (``terminal.clean``: rules text is untrusted)."""
        where = str(self.span)
        head = clean(f"{where}: {self.kind}: {self.message}" if where != "<string>"
                     else f"{self.kind}: {self.message}")
        src = self.span.source
        if src is None or not self.span.line:
            return head
        lines = _lines(src)
        if not 1 <= self.span.line <= len(lines):
            return head
        # the line as a terminal may show it (control characters written out), the caret
        # under the same character
        line = lines[self.span.line - 1].replace("\t", " ")
        text = clean(line)
        caret = " " * len(clean(line[:max(0, self.span.col - 1)])) + "^"
        return f"{head}\n    {text}\n    {caret}"


@functools.lru_cache(maxsize=8)
def _lines(source: str) -> list[str]:
    """The lines of a source file, split once for all the errors located in it (thousands of
    errors in a big file, each splitting it again, took seconds)."""
    return source.splitlines()


class LoadError(RulesError):
    """The file could not be read as YAML, or broke a size limit."""


class SchemaError(RulesError):
    """The YAML does not have the shape of a rules or scenario file."""


class SyntaxErr(RulesError):
    """An expression or effect string does not parse."""


class CheckError(RulesError):
    """A semantic mistake: an unknown name, a wrong type, a phase that cannot be reached."""


class CheckWarning(RulesError):
    """A likely mistake that does not stop the game from running; ``check`` prints it and
    still succeeds."""

    kind = "warning"


class RuntimeRulesError(RulesError):
    """The rules went wrong while running: a limit was hit, or no move was possible."""


class RoundLimit(RuntimeRulesError):
    """A match went on for more rounds than the state allows (``max_rounds``): ``simulate``
    ends such a game there (cut short) instead of the run; elsewhere an error like any
    other."""


class IllegalMove(RulesError):
    """A move that is not legal in the current state; the state is left unchanged."""


class UsageError(RulesError):
    """A bad value on the command line (a malformed card, an unknown option)."""


class RulesErrors(RulesError):
    """Several errors found in one run, reported together."""

    def __init__(self, errors: Iterable[RulesError]) -> None:
        self.errors = sorted(
            list(errors), key=lambda e: (e.span.path, e.span.line, e.span.col, e.message)
        )
        first = self.errors[0] if self.errors else RulesError("no errors")
        super().__init__(first.message, first.span)

    def render(self) -> str:
        return "\n".join(e.render() for e in self.errors)


# Hints are bounded so that a file with thousands of unknown names among thousands of known
# ones is checked in seconds (difflib compares a name with every candidate: each with each
# took minutes): the bounds are in limits.py. Past them, an unknown name is reported without a
# hint. A hint asked again is remembered.
_hints: dict[tuple[str, tuple[str, ...]], str] = {}
_hints_left = [HINTS_PER_FILE]


def reset_hints() -> None:
    """A new file: a fresh number of hints, none remembered."""
    _hints.clear()
    _hints_left[0] = HINTS_PER_FILE


def edit_distance(a: str, b: str) -> int:
    """Edits (insert, delete, replace, swap two neighbours) that turn ``a`` into ``b``: the
    optimal-string-alignment distance, so that a transposed pair (``loes``) is one slip."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def closest(name: str, cands: Iterable[str]) -> str | None:
    """The candidate a slip of the keyboard most likely made ``name`` from: fewest edits
    (``edit_distance``), then the most characters in common (difflib's ratio); none when
    every candidate needs more than a third of the name rewritten and shares too little."""
    from difflib import SequenceMatcher  # here: a clean check never needs it

    best: tuple[int, float, str] | None = None
    low = name.lower()
    for c in cands:
        d = edit_distance(low, c.lower())
        r = SequenceMatcher(None, name, c).ratio()
        if d > max(1, (len(name) + 1) // 3) and r < 0.6:
            continue
        key = (d, -r, c)
        if best is None or key < best:
            best = key
    return best[2] if best else None


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A ' (did you mean X?)' suffix naming the closest known name (``closest``), or '' when
    none is close (or the file has used up its hints). ``known`` may be a lazy iterable: at
    most ``HINT_NAMES`` of it are looked at."""
    if _hints_left[0] <= 0 or len(name) > 100:
        return ""
    # a name more than about twice as long or half as short is no slip of the keyboard
    lo, hi = (3 * len(name) + 6) // 7, (7 * len(name)) // 3
    cands = sorted({k for k in islice(known, HINT_NAMES)
                    if isinstance(k, str) and lo <= len(k) <= hi})
    if len(cands) > HINT_CANDIDATES:
        first = name[:1].lower()
        cands = sorted(cands, key=lambda k: k[:1].lower() != first)[:HINT_CANDIDATES]
    key = (name, tuple(cands))
    hint = _hints.get(key)
    if hint is None:
        _hints_left[0] -= 1
        close = closest(name, cands)
        hint = _hints[key] = f" (did you mean '{close}'?)" if close else ""
    return hint
