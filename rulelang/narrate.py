"""What another seat's move did, told as one seat saw it: ``play`` and ``replay --show``.

A move's text (``State.events``, already named for each seat: cards it cannot see are ``?``)
says what was chosen; the cards it moved say what happened: ``P1: draw stock — a card from
stock to P1's hand`` (a card the seat never saw) beside ``P1: draw discard — 7♥ from discard to
P1's hand``. Nothing here knows a game: the places are the rules file's zone names (a seat's own
``your hand``, another's ``P1's hand``, a meld by its move name ``P2#1``, the house's zones by
the house's name), and a card is named only if the seat could see it before the move or can see
it after it (``Table.visible``), as the events name them, so a hidden card is never given away;
how many cards went where is what every seat sees of the table anyway.

``snapshot`` is taken before a step, ``describe`` after it; ``round_cause`` says whose move
ended a round. A seat of None sees every card (``replay --show`` without ``--seat``).
"""

from __future__ import annotations

from typing import Any

# at most so many card movements in one line, and so many cards named in one of them
MOST_MOVES = 4
MOST_NAMED = 8

Snapshot = tuple[list[str], list[bool], int]  # each card's place, whether seen, events before


def _places(state: Any, seat: int | None) -> list[str]:
    """Each card's place as ``seat``'s table names it."""
    g = state.game
    in_group: dict[int, tuple[int, int]] = {}  # a meld's zone -> (its container, its number)
    for container, zids in state.groups.items():
        for k, z in enumerate(zids, 1):
            in_group[z] = (container, k)
    names: dict[int, str] = {}

    def label(z: int) -> str:
        if z < 0:
            return "out of play"
        if z in in_group:
            container, k = in_group[z]
            owner = state.zowner[z]
            return f"P{owner}#{k}" if owner >= 0 else f"{state.znames[container]}#{k}"
        name = state.znames[z]
        if g.house is not None and name in g.house.zones:
            return g.house.label(name)
        owner = state.zowner[z]
        if owner < 0:
            return name
        return f"your {name}" if owner == seat else f"P{owner}'s {name}"

    out = []
    for z in state.loc:
        if z not in names:
            names[z] = label(z)
        out.append(names[z])
    return out


def snapshot(state: Any, seat: int | None) -> Snapshot:
    """What ``describe`` compares with: each card's place and whether ``seat`` sees it, and
    how many events the round has had."""
    return (_places(state, seat), [seat is None or state.visible(c, seat)
                                   for c in range(state.ncards)], len(state.events))


def _cards(state: Any, cards: list[int], seen: list[bool]) -> str:
    """Cards the seat saw or sees by name, the others counted: ``7♥ 8♥ and 2 cards``."""
    shown = state.game.tables.shown
    names = [shown(state.game.tables.name[c])[0] for c in cards if seen[c]]
    hidden = len(cards) - len(names)
    if len(names) > MOST_NAMED:
        names, hidden = names[:MOST_NAMED], hidden + len(names) - MOST_NAMED
        more = f"{hidden} more"
    else:
        more = f"{'a' if hidden == 1 else hidden} card{'s' if hidden != 1 else ''}"
    text = " ".join(names)
    if hidden:
        text = f"{text} and {more}" if text else more
    return text


def movements(state: Any, seat: int | None, before: Snapshot,
              others: bool = False) -> list[str]:
    """The cards the step moved, as ``seat`` may know them: ``7♥ from discard to P1's hand``;
    ``others``: only those that went neither from nor to the seat's own zones. A card is
    named if the seat saw it before the step or sees it after, or if the step's moves, as
    the seat saw them, named it (a card played face up and gathered face down in one step)."""
    was, saw, k = before
    now = _places(state, seat)
    named = {w for _p, texts in state.events[k:] for w in texts[seat or 0].split()}
    name = state.game.tables.name
    sees = [saw[c] or state.visible(c, seat) or name[c] in named  # type: ignore[arg-type]
            for c in range(state.ncards)]
    moved: dict[tuple[str, str], list[int]] = {}
    for c in range(state.ncards):
        if was[c] != now[c]:
            moved.setdefault((was[c], now[c]), []).append(c)
    out = []
    for (src, dst), cards in moved.items():
        if others and (src.startswith("your ") or dst.startswith("your ")):
            continue
        cards.sort(key=lambda c: (state.loc[c], _index(state, c)))
        out.append(f"{_cards(state, cards, sees)} from {src} to {dst}")
    if len(out) > MOST_MOVES:
        out[MOST_MOVES:] = [f"{len(out) - MOST_MOVES} other movements"]
    return out


def _index(state: Any, c: int) -> int:
    z = state.loc[c]
    return state.zones[z].index(c) if z >= 0 else 0


def who(state: Any, p: int, seat: int) -> str:
    """A mover as the seat's table names it: ``you``, ``P1``, the house's name."""
    if p < 0:
        return state.game.house.name if state.game.house is not None else "the rules"
    return "you" if p == seat else f"P{p}"


def describe(state: Any, seat: int, before: Snapshot, mover: int) -> list[str]:
    """The lines that tell ``seat`` what the step just taken by ``mover`` did: the move (and
    any the house made after it) as the seat saw it, then where cards went (after the move
    when it was the step's only one; else on a line of their own, as the step's whole). The
    seat's own move is not told again, only what followed it elsewhere (the house's moves, a
    card the rules gave another seat)."""
    events = state.events[before[2]:]
    own = mover == seat
    moves = "; ".join(movements(state, seat, before, own))
    lines = [f"{who(state, p, seat)}: {texts[seat]}" for p, texts in events
             if not (own and p == seat)]
    if not lines and not own:  # one item of a choice under way: what it was is the mover's
        lines = [f"{who(state, mover, seat)}: chooses"]
    if moves and len(lines) == 1 and not own:
        lines[0] += f" — {moves}"
    elif moves:
        lines.append(f"{'then' if own and not lines else 'cards'}: {moves}")
    return lines


def round_cause(state: Any, seat: int) -> str:
    """How the round just over came to end, as the seat saw it: the latest move named like
    the ending (an action ``stop`` for a round ended by ``stop``), if any, and the move after
    which it ended; or that it ended on the deal."""
    if not state.events:
        return "on the deal"

    def move(k: int) -> str:
        p, texts = state.events[k]
        whose = "your" if p == seat else f"{who(state, p, seat)}'s"
        return f"{whose} move '{texts[seat]}'"

    name = str(state.ended_by or "").lower()
    last = len(state.events) - 1
    named = next((k for k in range(last, -1, -1)
                  if state.events[k][1][seat].lower().split()[:1] == [name]), None)
    if named is None:
        return f"after {move(last)}"
    if named == last:
        return f"on {move(last)}"
    return f"after {move(named)}, then {move(last)}"
