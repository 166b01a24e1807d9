"""The documented surface that generated code may use, and the step's work allowance.

Python generated from a rules file (``codegen``) runs against a namespace holding the helpers
below and numbered constants, and against the state ``S``. It may read and write exactly the
state members named in ``STATE_READS`` and ``STATE_WRITES`` and call the methods in
``STATE_CALLS`` — never a private member (a name starting with ``_``); a test scans every bundled
game's generated source for that. The engine keeps these members' meaning stable.

The work allowance: every pass of a loop, call of a rules function and item of a list made by
rules text takes one unit from ``WORK[0]``. The engine gives each step a fresh allowance (the
state's ``max_work``, ``MAX_WORK`` unless a caller lowers it: a bot's look-ahead does,
``agents``) and adds what the step used to the state's own count, so a state's accounting
depends only on its own steps (memoised results charge what they cost when they were computed:
see ``memo.memo``).
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import Any

from .errors import RulesError, RuntimeRulesError
from .limits import MAX_LOG_MESSAGES, MAX_LOG_TEXT, MAX_LOOP, MAX_NUMBER, MAX_WORK

# what is left of the running step's allowance: a one-item list, because generated code and
# built-ins decrement it in place (the cheapest mutable cell Python has)
WORK = [MAX_WORK]
# the allowance the running step started with: what an error says was exceeded
LIMIT = [MAX_WORK]
# the number of the phase listing running (0: none), and the last number given one: what
# generated code keeps for the rest of a listing is kept under it (listheld.py)
LISTING = [0, 0]

NO_FRAME: list = []  # the frame of code with no locals: nothing ever writes to it

# Python errors that rules text can cause while it runs (1 / 0, a list added to a number, an
# index out of range): each becomes a RuntimeRulesError located at the rules text that ran
PY_ERRORS = (ArithmeticError, LookupError, TypeError, ValueError, AttributeError)

# the state as generated code sees it (engine.State documents each member)
STATE_READS = frozenset({
    "n", "zones", "ctr", "g", "seated", "active", "dealer", "turn", "actor", "phase", "round",
    "turns", "ended_by", "max_moves", "values", "get", "pending_end", "direction",
    "record",  # whether messages are kept: log(...) texts are worked out only then
    "known",  # whether a bot keeps what it knows (known.py): show_none(...) works only then
    # the flow's counters and limits, for an action's generated step (fuse.py)
    "steps", "round_steps", "total_turns", "max_round_steps", "max_game_steps",
    "ring",  # the next seat each way (seats.py), while it is that of ``seated``
})
STATE_WRITES = frozenset({
    "dealer", "pending_end", "g", "ctr",
    # an action's generated step (fuse.py) does what the engine's flow does
    "turn", "turns", "total_turns", "phase", "actor", "steps", "round_steps", "check_next",
    "triggers_clean",
})
STATE_CALLS = frozenset({
    "group_list", "group_count",
    "pick_entries",  # a sequential choice's first items (choice.py), from the phase's listing
    # the built-ins that act on the state (builtins.BUILTINS, state=True): S.fx_<name>
    "fx_move", "fx_meld", "fx_unmeld", "fx_shuffle", "fx_gather", "fx_deal", "fx_show", "fx_hide",
    "fx_show_none",
    "fx_move_top",  # move(c, zone) as generated: one card, written for the common case
    "fx_move_top_of",  # move(top(zone), zone) as generated: top()'s charge, then fx_move_top
    "fx_eliminate", "fx_end_round", "fx_log", "fx_next_seat", "fx_prev_seat", "fx_seats_from",
    "fx_active", "fx_owner", "fx_zone_of", "fx_visible_to", "fx_cut",
    # tricks and teams (tricks.py, teams.py); share: a team counter set for one seat
    "fx_played_by", "fx_winning_card", "fx_trick_winner", "fx_team_of", "fx_teammates",
    "fx_partner", "fx_team_seats", "fx_teams", "share",
    "fx_reverse_direction", "fx_set_direction",
})


def why(e: BaseException) -> str:
    """What a Python error raised while rules text ran means, in the rules' own words: Python's
    messages name Python's types and functions (``int() argument must be...``), which the
    rules file never wrote. The error is located at the rules text that ran."""
    if isinstance(e, ZeroDivisionError):
        return "division by zero"
    if isinstance(e, OverflowError):
        return "a number too large to work with"
    if isinstance(e, IndexError):
        return "an index out of range"
    if isinstance(e, KeyError):
        return "there is no entry for this key"
    if isinstance(e, (TypeError, AttributeError)):
        return ("a value of the wrong kind here (a number, text, list, card or none where "
                "another kind is needed)")
    return "a value that cannot be used here"


def brief(v: Any) -> str:
    """A value of the rules, shown in a few words in an error message (never a whole list)."""
    if isinstance(v, (list, tuple)):
        return f"a list of {len(v)} item{'s' if len(v) != 1 else ''}"
    if isinstance(v, dict):
        return "a record"
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    text = repr(v) if isinstance(v, (int, float, str)) else type(v).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def located(e: RulesError, span: Any) -> RulesError:
    """``e``, located at ``span`` when it was raised where no rules text was known (a helper,
    a built-in, the work allowance): the innermost rules text running when it was raised."""
    if span is not None and not e.span.line:
        e.span = span
    return e


def as_rules_error(e: BaseException, span: Any, where: str = "") -> RulesError:
    """What a wrapper around generated code raises for ``e``: a rules error located at
    ``span`` if it had no place yet, a Python error (one of ``PY_ERRORS``) in the rules'
    words (``why``), followed by ``where``."""
    if isinstance(e, RulesError):
        return located(e, span)
    return RuntimeRulesError(f"{why(e)}{where}", span)


class OutOfWork(RuntimeRulesError):
    """A step (or a bot's thinking) used up its work allowance."""


def fresh_allowance(limit: int = MAX_WORK) -> int:
    """Start a step: a full allowance; returns what the previous step left (for its count)."""
    left = WORK[0]
    WORK[0] = LIMIT[0] = limit
    return left


def out_of_work(span: Any = None) -> None:
    limit = LIMIT[0]
    WORK[0] = limit  # whoever catches the error starts afresh
    raise OutOfWork(f"the rules looped more than {limit} times in one step, "
                    "counting function calls and the items of the lists they made "
                    "(nested loops over big lists, or functions that call each other "
                    "many times?)", span)


def charge(n: int) -> None:
    """Take ``n`` from the step's work allowance: the items of a list made or copied (a loop of
    a few thousand passes, each making a list of 200,000 numbers, runs a minute otherwise)."""
    WORK[0] -= n
    if WORK[0] < 0:
        out_of_work()


def work(xs: Any, span: Any) -> Any:
    """Charge a loop over ``xs`` to this step's work allowance; ``xs`` itself."""
    WORK[0] -= len(xs)
    if WORK[0] < 0:
        out_of_work(span)
    return xs


def seat(p: Any, n: int, name: str) -> int:
    """``p`` if it is a seat of a table of ``n`` (indexing a per-player zone or counter)."""
    if type(p) is not int or not 0 <= p < n:
        if type(p) is int:
            raise RuntimeRulesError(f"{name}[{p}]: there is no seat {p} at this table (seats "
                                    f"0 to {n - 1})")
        raise RuntimeRulesError(f"{name}[...]: a seat is a number, not {brief(p)}")
    return p


def min2(a: Any, b: Any) -> Any:
    """``min(a, b)`` of two numbers, as Python's built-in picks (``b`` only if less)."""
    return b if b < a else a


def max2(a: Any, b: Any) -> Any:
    """``max(a, b)`` of two numbers, as Python's built-in picks (``b`` only if greater)."""
    return b if b > a else a


def tick(k: int, span: Any) -> int:
    """One more pass of a ``while`` loop: bounded by MAX_LOOP and by the step's work."""
    k += 1
    if k > MAX_LOOP:
        raise RuntimeRulesError(f"a loop ran more than {MAX_LOOP} times", span)
    WORK[0] -= 1
    if WORK[0] < 0:
        out_of_work(span)
    return k


def seat_of(S: Any, u: Any, what: str) -> int:
    """The seat that the rules text ``u`` (a ``game.Unit``) gives: who deals first, who plays
    first, who deals next. Anything but a seat at this table is an error located at the text
    (``int()`` of it once let a list through as Python's TypeError, and -1 or 99 as a dealer
    that is no seat)."""
    v = u.call(S) if u.call is not None else u(S)
    return v if type(v) is int and 0 <= v < S.n else seat_value(S, v, u, what)


def seat_value(S: Any, v: Any, u: Any, what: str) -> int:
    """``seat_of`` for the value ``v`` that ``u`` gave: a whole float is that seat, anything
    else but a seat at this table an error located at ``u``."""
    if type(v) is float and v.is_integer():
        v = int(v)
    if type(v) is not int or not 0 <= v < S.n:
        raise RuntimeRulesError(f"{what} is {brief(v)}, not a seat at this table (seats 0 to "
                                f"{S.n - 1})", u.span)
    return v


def counter(v: Any, name: str, span: Any = None) -> Any:
    """``v`` if a counter may hold it: a number from -10^30 to 10^30 (``MAX_NUMBER``). A float
    that overflowed (infinity, NaN) would make the statistics of a run (``simulate --json``)
    no number at all; the error names the counter, and the rules line that set it."""
    if type(v) is int or type(v) is float:
        if -MAX_NUMBER <= v <= MAX_NUMBER:  # false for NaN
            return v
        what = "NaN (not a number)" if v != v else \
            ("larger than 10^30" if v > 0 else "smaller than -10^30") + \
            (" (infinity: the number overflowed)" if v in (_INF, -_INF) else "")
        raise RuntimeRulesError(f"counter '{name}' would become {what}; a counter holds "
                                "numbers from -10^30 to 10^30", span)
    return v


_INF = float("inf")


def dealer(S: Any, v: Any) -> int:
    """``v`` if it may become the dealer (``dealer = v`` in rules text)."""
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < S.n:
        raise RuntimeRulesError(f"dealer = {brief(v)}: not a seat at this table (seats 0 to "
                                f"{S.n - 1})")
    return v


class _Text(str):
    """Text that ``clipped_text`` writes as it is (brackets, commas, record keys)."""


_END = object()


def _parts(x: Any) -> Iterator[Any]:
    """What ``str(x)`` writes for a list or a record, lazily: texts and the values inside."""
    if isinstance(x, dict):
        yield _Text("{")
        for i, (k, v) in enumerate(x.items()):
            yield _Text((", " if i else "") + repr(k)[:200] + ": ")
            yield v
        yield _Text("}")
        return
    yield _Text("[")
    for i, v in enumerate(x):
        if i:
            yield _Text(", ")
        yield v
    yield _Text("]")


def clipped_text(v: Any, limit: int) -> str:
    """``str(v)`` cut to ``limit`` characters (``...`` marks the cut), made without writing
    more than that: the text of a list of 200,000 items is never built whole."""
    if isinstance(v, str) or not isinstance(v, (list, dict)):
        text = str(v)
    else:
        out: list[str] = []
        n = 0
        stack = [_parts(v)]
        while stack and n <= limit:
            x = next(stack[-1], _END)
            if x is _END:  # that list or record is written
                stack.pop()
                continue
            if isinstance(x, (list, dict)):
                stack.append(_parts(x))
                continue
            t = x if type(x) is _Text else repr(x)[:limit + 1]
            out.append(t)
            n += len(t)
        text = "".join(out)
    return text if len(text) <= limit else text[:max(0, limit - 3)] + "..."


def log_message(messages: list[str], text: Any) -> None:
    """Keep ``log(text)``'s message: its text bounded and charged as work (the text of a list
    of 200,000 items, logged at every pass of a loop, filled gigabytes), and only the latest
    MAX_LOG_MESSAGES (about) kept."""
    msg = clipped_text(text, MAX_LOG_TEXT)
    charge(len(msg))
    messages.append(msg)
    if len(messages) > 2 * MAX_LOG_MESSAGES:
        del messages[:-MAX_LOG_MESSAGES]


def helpers() -> dict[str, Any]:
    """The names generated code finds in its namespace, besides its constants."""
    return {"_work": work, "_seat": seat, "_tick": tick, "_dealer": dealer, "WORK": WORK,
            "_counter": counter, "_out_of_work": out_of_work, "RulesError": RulesError,
            "_why": why, "_located": located,
            "RuntimeRulesError": RuntimeRulesError, "PY_ERRORS": PY_ERRORS,
            "Exception": Exception, "_setitem": operator.setitem}
