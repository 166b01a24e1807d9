"""The status lines of ``rulelang play``'s screen, as the rules' ``display:`` section says
(display.py): the globals and counters shown under their labels, the description of one's hand
(or the hand evaluator's value), a shown hand's description at the round's end, and the lines
the rules said (``log``) to explain how the round ended. Printed like every play line: rules
text through ``terminal.styled``, never read as markup.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from .display import counter_format, hand_text, shown_counters, shown_values, written
from .errors import RulesError
from .showvalue import house_shares, show_value
from .terminal import styled


def _say(con: Console, *parts: Any, end: str = "\n") -> None:
    con.print(styled(*parts), end=end)


def _show_value(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def _team(state: Any, t: int, seat: int) -> str:
    """A team as the table names it, by its seats: ``you+P2``."""
    return "+".join("you" if q == seat else f"P{q}" for q in range(state.n)
                    if state.team[q] == t)


def status_lines(con: Console, state: Any, v: dict[str, Any], seat: int) -> None:
    """The globals and counters: those the display shows under their labels (display.py), or
    without a ``shown:`` every one by its own name."""
    g = state.game
    shares = house_shares(g)
    listed = shown_values(state, v, seat)
    if listed is not None:
        if listed:
            _say(con, "  " + "  ".join(f"{label}: {text}" for label, text in listed))
    else:
        shown = {k: x for k, x in v["globals"].items() if k not in shares.values()
                 and x is not None and not isinstance(x, bool) and x != [] and
                 g.global_types.get(k) not in ("card", "list[card]")}
        if shown:
            def who(k: str, x: Any) -> str:  # a seat as the table names it
                if g.global_types.get(k) == "seat" and isinstance(x, int):
                    return "you" if x == seat else f"P{x}"
                return _show_value(x)

            _say(con, "  " + "  ".join(f"{k}: {who(k, x)}" for k, x in shown.items()))
    labels = shown_counters(g)
    shared = {g.counters[i][0] for i in g.team_counters}
    for name in v["counters"] if labels is None else [k for k in labels if k in v["counters"]]:
        row = v["counters"][name]
        label = name if labels is None else labels[name]
        fmt, unset = counter_format(g, name)

        def val(x: Any, fmt: str = fmt, unset: Any = unset) -> str:
            if unset is not None and x == unset:
                return "-"
            return show_value(x) if fmt == "auto" else written(x, fmt, (), seat)
        if name in shared:  # one value per team, named by its seats
            _say(con, f"  {label}: " + "  ".join(
                f"{_team(state, t, seat)}={val(row[state.team.index(t)])}"
                for t in sorted(set(state.team))))
            continue
        extra = ([f"{g.house.name}={val(v['globals'][shares[name]])}"]
                 if name in shares else [])
        _say(con, f"  {label}: " + "  ".join([
            f"{'you' if p == seat else 'P' + str(p)}={val(x)}"
            for p, x in enumerate(row)] + extra))


def value_line(con: Console, state: Any, seat: int) -> None:
    """Beside one's hand: the display's description of it (nothing when it says none), or
    without one the hand evaluator's value."""
    g = state.game
    ev = g.hand_evaluator
    hz = g.hand_zone()
    if hz is None:
        return
    said = hand_text(state, seat, hz.first_id + seat)
    if said is not None:
        if said:
            _say(con, "  your hand: ", (said, "bold"))
        return
    if ev:
        try:
            val = g.functions[ev].fn(state, state.zones[hz.first_id + seat])
            _say(con, f"  your {ev}: {val:g}" if isinstance(val, (int, float))
                 else f"  your {ev}: {val}")
        except RulesError:
            pass


def hand_said(state: Any, p: int, zone_id: int) -> str | None:
    """A shown hand at the round's end: the display's description (' — 27 in hearts'), or
    None when the game has none (the evaluator's value is shown)."""
    said = hand_text(state, p, zone_id)
    return None if said is None else (f" — {said}" if said else "")


def shown_counter_labels(game: Any) -> list[tuple[int, str]]:
    """The counters a round's changes and the standings name: (index, label), those the
    display shows in its order, or every counter by its name without a ``shown:``."""
    labels = shown_counters(game)
    index = {name: i for i, (name, _u) in enumerate(game.counters)}
    if labels is None:
        return [(i, name) for name, i in index.items()]
    return [(index[name], label) for name, label in labels.items() if name in index]
