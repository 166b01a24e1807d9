"""Why a typed move is not legal: the reason a player needs, said before the list of legal
moves (``State.apply``'s error, and so ``play``'s answer, a scenario's and a replay's).

Worked out from the move texts alone, for any game: the action the text names (names may hold
spaces), whether that action can be played now or belongs to another phase, which of its
choices the text got wrong, and the legal move it most likely meant (fewest edits).
"""

from __future__ import annotations

from typing import Any

from .errors import closest
from .movetext import canon_move

MAX_SHOWN = 8  # choices named in a reason (the full list follows it anyway)


def _action_of(text: str, names: list[str]) -> str | None:
    """The longest action name that the text starts with (as whole words)."""
    low = text.lower().split()
    best = None
    for name in names:
        words = name.lower().split()
        if low[:len(words)] == words and (best is None or len(words) > len(best.split())):
            best = name
    return best


def _listed(items: list[str]) -> str:
    shown = items[:MAX_SHOWN]
    return ", ".join(shown) + (", …" if len(items) > MAX_SHOWN else "")


def reason(state: Any, move: str, legal: dict[str, tuple[Any, tuple]], texts: list[str]) -> str:
    """Why ``move`` is none of the legal moves (``legal``: canonical text -> (action, args);
    ``texts``: the legal moves as shown): one clause, or '' when nothing better than the list
    can be said."""
    game = state.game
    here = game.phases.get(state.phase)
    by_action: dict[str, list[str]] = {}
    for t in texts:
        entry = legal.get(canon_move(t))
        if entry is not None:
            by_action.setdefault(entry[0].name, []).append(t)
    names = [a.name for a in here.actions] if here is not None else []
    everywhere = {a.name: p for p, ph in game.phases.items() for a in ph.actions}
    name = _action_of(move, names) or _action_of(move, list(everywhere))
    guess = closest(move, texts) if len(texts) <= 2000 else None
    mean = f"did you mean '{guess}'?" if guess else ""
    if name is None:
        starts = [t for t in texts if canon_move(t).startswith(canon_move(move) + " ")]
        if starts:
            return f"say which: {_listed(starts)}"
        return mean or f"no move starts that way; the moves now are {_listed(sorted(by_action))}"
    if name not in names:
        return (f"'{name}' is a move of phase '{everywhere[name]}', not of this one "
                f"('{state.phase}')" + (f"; {mean}" if mean else ""))
    mine = by_action.get(name)
    if not mine:
        return f"'{name}' cannot be played now" + (f"; {mean}" if mean else "")
    typed = move.split()[len(name.split()):]
    if not typed:
        return f"'{name}' needs its choices, like '{mine[0]}'"
    # the first word after the action's name that no legal move of it has in that place
    opts = [t.split()[len(name.split()):] for t in mine]
    for i, word in enumerate(typed):
        seen = [o[i] for o in opts if len(o) > i]
        if not seen:
            break
        if canon_move(word) not in {canon_move(w) for w in seen}:
            choices = list(dict.fromkeys(seen))
            return (f"'{word}' is not one of the choices for '{name}' here "
                    f"({_listed(choices)})" + (f"; {mean}" if mean else ""))
        opts = [o for o in opts if len(o) > i and canon_move(o[i]) == canon_move(word)]
    return mean
