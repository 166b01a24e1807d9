"""How play shows the values of counters and globals: numbers as numbers, lists and records
(structured.py) as rules text writes them (``[10, 20]``, ``{stake: 10, doubled: false}``),
and the globals that are the house's share of a counter (house.py)."""

from __future__ import annotations

from typing import Any


def show_value(x: Any) -> str:
    """``x`` as rules text would write it: ``true``, ``none``, ``[1, 2]``, ``{stake: 10}``."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if x is None:
        return "none"
    if isinstance(x, float):
        return f"{x:g}"
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(show_value(y) for y in x) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {show_value(y)}" for k, y in x.items()) + "}"
    return str(x)


def house_shares(game: Any) -> dict[str, str]:
    """counter -> the name of the global that is the house's share of it (none: {})."""
    h = game.house
    if h is None:
        return {}
    names = [name for name, _u in game.globals]
    return {c: names[gi] for c, gi in h.counters.items()}
