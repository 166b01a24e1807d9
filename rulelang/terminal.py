"""What reaches a terminal: text from a rules file, a log or a user, shown and never obeyed.

Rules files, logs and typed input are untrusted (docs/security.md), and the command line prints
their names, descriptions, messages and moves. Two things in such text would act on a terminal
instead of being shown: control characters (an ESC sequence clears the screen, sets the
window's title or its colours, and goes through a pipe into ``less -R`` or a log viewer just
as well), and rich markup (``[/bold]`` in a game's name is a MarkupError, ``[link=…]`` a
hyperlink). So every text the command line prints passes through ``clean``, which writes each
such character out as an escape (``\\x1b``), and nothing is ever read as markup: the console
made here has markup and emoji codes off and cleans every string it renders, and styled lines
are rich ``Text`` built from plain pieces (``styled``).

rich is imported only when a console or a styled line is made: ``clean`` is all that most
commands need, and it costs no import.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

# C0 controls but newline, DEL and the C1 controls (ESC and CSI among them); the marks that
# reorder or break lines behind the reader's back (bidirectional overrides and isolates, the
# line and paragraph separators); lone surrogates, which no terminal encoding can write
_UNSAFE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")


def _shown(m: re.Match[str]) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def clean(text: Any) -> str:
    """``text`` as a terminal may show it: every control character (but newline) and every
    invisible reordering mark written out as an escape, ``\\x1b``, ``\\u202e``."""
    s = str(text)
    return _UNSAFE.sub(_shown, s) if _UNSAFE.search(s) else s


def styled(*parts: str | tuple[str, str]) -> Text:
    """One line as rich ``Text``: plain pieces, and (piece, style) pairs. Each piece is
    cleaned and none is read as markup, so a game's name may be ``[/bold]``."""
    from rich.text import Text

    t = Text()
    for p in parts:
        if isinstance(p, tuple):
            t.append(clean(p[0]), style=p[1] or None)
        else:
            t.append(clean(p))
    return t


@cache
def _console_type() -> type:
    from rich.console import Console

    class SafeConsole(Console):
        """A console that cleans every string it renders (printed, in a table's cell, a
        rule's title) and reads none of them as markup."""

        def render_str(self, text: str, **kw: Any) -> Any:
            kw["markup"] = False
            kw["emoji"] = False
            return super().render_str(clean(text), **kw)

    return SafeConsole


def console(**kw: Any) -> Console:
    """A rich console for untrusted text (see the module docstring); ``kw`` as for rich's."""
    kw.setdefault("highlight", False)
    return _console_type()(markup=False, emoji=False, **kw)  # type: ignore[no-any-return]
