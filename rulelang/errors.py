"""The one error root of rulelang, its few subclasses, and how a located error is printed.

Every problem a user can cause (a bad rules file, a bad scenario, a bad card, an illegal move)
is a ``RulesError`` carrying a ``Span`` that points into the file the user wrote, so that the
command line can print ``PATH:LINE:COL: error: MESSAGE``, the source line and a caret.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from .compat import SLOTS
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

    def render(self) -> str:
        """``PATH:LINE:COL: error: MESSAGE``, then the source line and a caret under the column;
        as a terminal may show it (``terminal.clean``: rules text is untrusted)."""
        where = str(self.span)
        head = clean(f"{where}: {self.kind}: {self.message}" if where != "<string>"
                     else f"{self.kind}: {self.message}")
        src = self.span.source
        if src is None or not self.span.line:
            return head
        lines = src.splitlines()
        if not 1 <= self.span.line <= len(lines):
            return head
        # the line as a terminal may show it (control characters written out), the caret
        # under the same character
        line = lines[self.span.line - 1].replace("\t", " ")
        text = clean(line)
        caret = " " * len(clean(line[:max(0, self.span.col - 1)])) + "^"
        return f"{head}\n    {text}\n    {caret}"


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


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """A ' (did you mean X?)' suffix naming the closest known name, or '' when none is close."""
    close = difflib.get_close_matches(name, sorted(set(known)), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
