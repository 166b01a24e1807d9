"""What a player sees of a game, as its rules file's ``display:`` section says (the model and
the run-time side; the section is read and checked by ``displaycheck.py``).

A game without the section is shown as before: every global and counter by its own name, the
hand evaluator's value beside the hand, hands sorted by suit then rank. With it:

- ``shown:`` the globals and counters the table shows, in order, each under a label and in a
  format (``yes/no`` for a flag, a seat as ``you``/``P1``, cards by name); the rest are the
  rules' bookkeeping and left off the screen (never off ``view``, encodings or scenarios);
- ``hand:`` a rules function of the seat's hand giving text ("27 in hearts"), shown instead
  of the value, with an optional ``when:`` (``me`` the seat); none or '' shows nothing, and
  ``hand: none`` nothing at all;
- ``requirement:`` text for the round's header ("2 sets of 3, deuces wild");
- ``sort:`` how one's own hand is held: ``suit`` (then rank), ``rank`` (then suit), ``none``
  (as dealt), or a rules function of one card giving a number (then suit and rank).

``text(...)`` (a built-in) writes values for people by their type: seats as ``P1``, cards by
name, flags as yes/no: a ``Writer`` made for a call's argument types.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import RulesError
from .limits import MAX_LOG_TEXT
from .runtime import charge, clipped_text, fresh_allowance

# what shown: entries may say of how a value is written
FORMATS = ("auto", "number", "yes/no", "seat", "card", "cards", "text")
SORTS = ("suit", "rank", "none")
NO_HAND = "none"  # hand: none: nothing beside the hand, not even the hand evaluator's value


@dataclass
class Shown:
    """One global or counter the table shows: its name, its label, and how it is written."""

    name: str
    label: str
    counter: bool  # a counter (one value per seat), else a global
    format: str = "auto"
    unset: Any = None  # a value meaning "not yet" (Spades' bid of -1, say): shown as '-'


@dataclass
class DisplayDef:
    """A game's ``display:`` section, compiled (see the module docstring)."""

    shown: list[Shown] | None = None  # None: every global and counter, as without the section
    hand: str | None = None  # the function describing a hand
    hand_when: Any = None  # a game.Unit with me = the seat, or None: always
    requirement: Any = None  # a game.Unit giving text, or None
    sort: str = "suit"  # one of SORTS, or the name of a function of one card
    labels: dict[str, str] = field(default_factory=dict)  # name -> label, from shown


def _seat(x: Any, seat: int | None = None) -> str:
    if isinstance(x, int) and not isinstance(x, bool):
        return "you" if x == seat else f"P{x}"
    return "nobody" if x is None else str(x)


def _number(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def written(x: Any, kind: str, names: tuple, seat: int | None = None) -> str:
    """``x`` written for people by its type ``kind`` (a checker's type or a ``FORMATS``
    entry); ``names``: the deck's card names by id; ``seat``: who reads it (``you``)."""
    if kind in ("yes/no", "bool") or isinstance(x, bool):
        return "yes" if x else "no"
    if kind == "seat":
        return _seat(x, seat)
    if kind == "list[seat]" and isinstance(x, list):
        return ", ".join(_seat(p, seat) for p in x) or "nobody"
    if kind == "card" and isinstance(x, int):
        return str(names[x]) if 0 <= x < len(names) else "?"
    if kind in ("cards", "list[card]") and isinstance(x, list):
        return " ".join(str(names[c]) if isinstance(c, int) and 0 <= c < len(names) else "?"
                        for c in x)
    if isinstance(x, (int, float)):
        return _number(x)
    if x is None:
        return "none"
    if isinstance(x, list) and all(isinstance(y, (int, float, str)) for y in x[:MAX_LOG_TEXT]):
        return clipped_text(", ".join(_number(y) for y in x[:MAX_LOG_TEXT]), MAX_LOG_TEXT)
    return clipped_text(x, MAX_LOG_TEXT)


class Writer:
    """``text(...)`` for arguments of the checker's types ``kinds``: each written as
    ``written`` says, one after another, the whole bounded like a ``log`` line. A kind
    ``global:NAME`` is a global whose type is known only once the whole file is compiled
    (``resolve``)."""

    def __init__(self, kinds: list[str], names: tuple) -> None:
        self.kinds = kinds
        self.names = names

    def resolve(self, global_types: dict[str, str]) -> None:
        self.kinds = [global_types.get(k[7:], "any") if k.startswith("global:") else k
                      for k in self.kinds]

    def __call__(self, *xs: Any) -> str:
        kinds = self.kinds
        out = "".join(written(x, kinds[i] if i < len(kinds) else "any", self.names)
                      for i, x in enumerate(xs))
        charge(len(out))
        return out if len(out) <= MAX_LOG_TEXT else out[:MAX_LOG_TEXT - 3] + "..."


def seat_name(p: Any) -> str:
    """``seat_name(p)``: a seat as text, ``P1`` (for a value the checker cannot tell is a seat,
    such as a function's parameter)."""
    return _seat(p)


def plain_text(*xs: Any) -> str:
    """``text(...)`` when nothing is known of its arguments' types (see ``Writer``)."""
    return Writer([], ())(*xs)


# ---------------------------------------------------------------------------- the screen
def shown_values(state: Any, view: dict[str, Any], seat: int) -> list[tuple[str, str]] | None:
    """The globals the display shows, as (label, text), in its order; None when the game has
    no ``shown:`` (the screen shows every global as before). Counters: ``shown_counters``."""
    d = state.game.display
    if d is None or d.shown is None:
        return None
    g = state.game
    out = []
    for e in d.shown:
        if e.counter:
            continue
        x = view["globals"].get(e.name)
        if x is None or x == [] or (e.unset is not None and x == e.unset):  # nothing yet
            continue
        kind = e.format if e.format != "auto" else g.global_types.get(e.name, "any")
        out.append((e.label, _view_text(x, kind, seat)))
    return out


def _view_text(x: Any, kind: str, seat: int) -> str:
    """A value of the view (cards already by name) written as ``written`` says."""
    if kind in ("card", "cards", "list[card]"):
        return " ".join(x) if isinstance(x, list) else str(x)
    return written(x, kind, (), seat)


def shown_counters(game: Any) -> dict[str, str] | None:
    """The counters the display shows, name -> label in its order; None: every counter."""
    d = game.display
    if d is None or d.shown is None:
        return None
    return {e.name: e.label for e in d.shown if e.counter}


def counter_format(game: Any, name: str) -> tuple[str, Any]:
    """How a shown counter is written: its format, and its value meaning "not yet" (or
    None)."""
    d = game.display
    for e in d.shown or () if d is not None else ():
        if e.counter and e.name == name:
            return e.format, e.unset
    return "auto", None


def _with_seat(state: Any, seat: int, fn: Callable[[], Any]) -> Any:
    """``fn()`` with ``me`` the seat, on a fresh work allowance (the state is left as it was);
    None if the rules go wrong (a screen shows what it can)."""
    saved = state.actor
    state.actor = seat
    fresh_allowance(state.max_work)
    try:
        return fn()
    except RulesError:
        return None
    finally:
        state.actor = saved


def hand_text(state: Any, seat: int, zone_id: int) -> str | None:
    """What the display says of the cards in zone ``zone_id`` (a seat's hand): the ``hand:``
    function's text when its ``when:`` holds for ``seat``; '' when it says nothing; None when
    the game has no ``hand:`` (the screen shows the hand evaluator's value)."""
    d = state.game.display
    if d is None or d.hand is None:
        return None
    if d.hand == NO_HAND:
        return ""
    fn = state.game.functions[d.hand]

    def run() -> Any:
        if d.hand_when is not None and not d.hand_when(state):
            return ""
        return fn.fn(state, state.zones[zone_id])
    out = _with_seat(state, seat, run)
    return "" if out is None or out is False else str(out)


def requirement(state: Any, seat: int) -> str:
    """The round's requirement as the display writes it ('' for none)."""
    d = state.game.display
    if d is None or d.requirement is None:
        return ""
    out = _with_seat(state, seat, lambda: d.requirement(state))
    return "" if out is None else str(out)


def sort_hand(state: Any, cards: list[str]) -> list[str]:
    """One's own hand as the display holds it (see ``SORTS``); unseen cards last."""
    g = state.game
    d = g.display
    how = d.sort if d is not None else "suit"
    if how == "none":
        return list(cards)
    deck = g.tables
    ids = deck.ids_by_name()
    value: dict[str, Any] = {}
    if how not in SORTS:
        fn = g.functions[how]
        for c in cards:
            if c in ids:
                v = _with_seat(state, state.actor, lambda c=c: fn.fn(state, ids[c][0]))
                value[c] = v if isinstance(v, (int, float)) else 0

    def key(c: str) -> tuple:
        if c not in ids:
            return (1, 0, "", 0)
        i = ids[c][0]
        suit, order = str(deck.suit[i] or ""), deck.order[i]
        if how == "rank":  # the canonical order: by rank, then suit S, H, D, C
            return (0, *deck.sort_key(i), "")
        return (0, value.get(c, 0), suit, order)
    return sorted(cards, key=key)
