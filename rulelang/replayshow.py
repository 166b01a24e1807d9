"""``rulelang replay FILE --show``: one recorded game (a ``simulate --record`` line) stepped
through as a transcript: each move, then the position after it.

With a seat, everything comes from ``State.view(seat)``: that seat's cards, the cards it may
see, and every move as that seat saw it (the round's log, ``State.events``), so a card it
could not see never appears; a card it cannot see is ``▮``. Without one, the omniscient view:
every card by name, every move as its mover saw it (the log's text). Cards are written as play
writes them (``DeckTables.shown``). The game is dealt from the log's seed and its rules file,
which must not have changed since (as for ``replay``); the lines are a generator, so a long
game prints as it goes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from . import narrate
from .errors import LoadError, RulesError, RuntimeRulesError, Span, UsageError
from .game import CARDS, FREE
from .groups import Group
from .replay import (
    FORMAT,
    FORMAT_ENGINE1,
    REQUIRED,
    _find_rules,
    _finite_float,
    _refuse_constant,
    _whole,
    engine_refusal,
)
from .seeds import game_seed
from .showvalue import show_value

HIDDEN = "▮"  # a card the seat cannot see, as play shows it
SHOWN_OF_HIDDEN = 5  # the omniscient view names this many cards of a shared face-down pile


def _record(path: str, index: int | None) -> tuple[int, dict[str, Any]]:
    """The log's line of game ``index`` (default: the first game of the log), with its line
    number."""
    p = Path(path)
    if not os.path.isfile(p):
        raise UsageError(f"no such file: {path}")
    try:
        lines = p.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise LoadError(f"cannot read the log: {e}", Span(path)) from None
    seen: list[str] = []
    for ln, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            rec = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)
        except (ValueError, RecursionError) as e:
            raise LoadError(f"not a replay line (bad JSON: {e})", Span(path, ln, 1)) from None
        if not isinstance(rec, dict) or any(k not in rec for k in REQUIRED):
            raise LoadError("not a replay line: no " + ", ".join(
                k for k in REQUIRED if not isinstance(rec, dict) or k not in rec),
                Span(path, ln, 1))
        if index is None or rec["index"] == index:
            return ln, rec
        seen.append(str(rec["index"]))
    if index is None:
        raise LoadError("the log holds no game", Span(path))
    raise UsageError(f"the log has no game {index}; its games: {', '.join(seen) or 'none'}")


def show_game(path: str, seat: int | None = None, index: int | None = None,
              allow_any: bool = False) -> Iterator[str]:
    """The transcript of one game of a log, line by line (see the module docstring)."""
    import rulelang

    ln, rec = _record(path, index)
    where = Span(path, ln, 1)
    if rec["format"] not in (FORMAT, FORMAT_ENGINE1) or engine_refusal(rec):
        raise LoadError(engine_refusal(rec) or f"unknown log format (this rulelang reads "
                        f"{FORMAT})", where)
    try:
        seed, idx, players = (_whole(rec, "seed", None), _whole(rec, "index", 0),
                              _whole(rec, "players", 1))
        options = {str(k): v for k, v in (rec.get("options") or {}).items()}
        limits = rec.get("limits") or {}
        limits = {k: _whole(limits, k, 1) for k in limits if k in (
            "max_round_steps", "max_game_steps", "max_moves", "max_rounds", "max_work")}
        game = rulelang.load(_find_rules(str(rec["game"]), Path(path).parent, allow_any),
                             options, allow_any)
        if [str(sha) for _p, sha in rec["files"]] != [sha for _p, sha in game.files]:
            raise LoadError("the rules changed since the log was written (another sha256): "
                            "record the game again")
    except LoadError as e:
        e.span = where if not e.span.line else e.span
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        raise LoadError(f"not a replay line ({type(e).__name__}: {e})", where) from None
    if seat is not None and not 0 <= seat < players:
        raise UsageError(f"--seat must be from 0 to {players - 1} (the game has {players} "
                         "players)")
    state = game.new_state(players, seed=game_seed(seed, idx), auto_continue=False, **limits)
    view = "every card shown" if seat is None else f"as P{seat} sees it"
    yield (f"{game.name}: game {idx} of the log (seed {seed}), {players} players, {view}")
    yield _round_start(state)
    yield from _position(state, seat)
    mark = 0  # the rules' log lines before the latest step (a round can end on the deal)
    for k, item in enumerate(rec["moves"], 1):
        mover, move = item
        while state.status == "round_over":
            yield from _round_over(state, seat, mark)
            mark = len(state.messages)
            state.next_round()
            yield _round_start(state)
            yield from _position(state, seat)
        if state.status == "game_over":
            raise LoadError(f"the game was over before move {k}", where)
        if state.current_player() != mover:
            raise LoadError(f"move {k} ('{move}') is P{mover}'s, but P"
                            f"{state.current_player()} is to move", where)
        before = narrate.snapshot(state, seat)
        mark = len(state.messages)
        try:
            state.apply(str(move))
        except RuntimeRulesError:
            raise
        except RulesError as e:
            raise LoadError(f"move {k} (P{mover}: '{move}') was rejected: {e.message}",
                            where) from None
        yield from _moves(state, seat, k, mover, str(move), before)
        yield from _position(state, seat)
    if state.status in ("round_over", "game_over"):
        yield from _round_over(state, seat, mark)
    if isinstance(rec["outcome"], dict) and rec["outcome"].get("cut_short"):
        yield (f"the game was cut short: {state.round} rounds played, the most the run "
               "allowed (simulate --max-rounds)")


def _who(p: int | None, seat: int | None, game: Any = None) -> str:
    if p is None:
        return "none"
    if p < 0 and game is not None and game.house is not None:
        return game.house.name
    return "you" if p == seat else f"P{p}"


def _moves(state: Any, seat: int | None, k: int, mover: int, move: str,
           before: narrate.Snapshot) -> Iterator[str]:
    """The move just made (as the seat saw it) and any the house made after it, then the
    cards it moved (``narrate``: named only where the seat saw them)."""
    new = state.events[before[2]:]
    moved = narrate.movements(state, seat, before)
    tail = f" — {'; '.join(moved)}" if moved else ""
    if not new:  # one item of a choice under way: the mover's own, shown only to the mover
        shown = move if seat is None or seat == mover else "(chooses)"
        yield f"move {k}: {_who(mover, seat)} {shown}{tail}"
        return
    for n, (who, texts) in enumerate(new):
        text = (move if n == 0 else texts[who if who >= 0 else 0]) if seat is None \
            else texts[seat]
        yield (f"move {k}: " if n == 0 else "  then ") + f"{_who(who, seat, state.game)} {text}" \
            + (tail if n == 0 else "")


def _card(game: Any, name: str) -> str:
    return HIDDEN if name == "?" else game.tables.shown(name)[0]


def _cards(game: Any, names: list[str], most: int = 0) -> str:
    """Cards top first; ``most``: only so many of them, then how many there are."""
    count = f"{len(names)} card{'s' if len(names) != 1 else ''}"
    if not names:
        return "(empty)"
    if all(n == "?" for n in names):
        return f"{count} face down"
    if most and len(names) > most:  # a whole stock on every line buries the moves
        return " ".join(_card(game, n) for n in names[:most]) + f" … ({count})"
    return " ".join(_card(game, n) for n in names)


def _global(state: Any, seat: int | None, name: str, x: Any) -> str:
    """A global as the table names it: a seat as ``P1`` (or ``you``), cards as play shows
    them, anything else as rules text writes it."""
    t = state.game.global_types.get(name)
    if t == "seat" and type(x) is int:
        return _who(x, seat, state.game)
    if t == "card" and isinstance(x, str):
        return _card(state.game, x)
    if t == "list[card]" and isinstance(x, list) and all(isinstance(c, str) for c in x):
        return "[" + " ".join(_card(state.game, c) for c in x) + "]"
    return show_value(x)


def _all_zones(state: Any) -> dict[str, Any]:
    """Every zone with every card named: what no seat sees, for the omniscient view."""
    names = state.game.tables.name
    out: dict[str, Any] = {}
    for zd in state.game.zones:
        ids = [zd.first_id + p for p in range(state.n)] if zd.per_player else [zd.first_id]
        if zd.groups:
            vals: list[Any] = [[[names[c] for c in state.zones[z]]
                                for z in state.groups.get(cz, [])] for cz in ids]
        else:
            vals = [[names[c] for c in state.zones[z]] for z in ids]
        out[zd.name] = vals if zd.per_player else vals[0]
    return out


def _value(state: Any, v: Any, kind: str) -> Any:
    """A global's or counter's value with every card named (the omniscient view)."""
    if kind == FREE or v is None or isinstance(v, (bool, float, str)):
        return v
    if isinstance(v, Group):
        return v.label()
    if isinstance(v, (list, tuple)):
        return [_value(state, x, kind) for x in v]
    if type(v) is int and kind == CARDS and 0 <= v < state.ncards:
        return state.game.tables.name[v]
    return v


def _position(state: Any, seat: int | None) -> Iterator[str]:
    """The position: zones, counters, globals and who is to move, as ``seat`` may see it."""
    g = state.game
    if seat is not None:
        v = state.view(seat)
        zones, counters, globs = v["zones"], v["counters"], v["globals"]
    else:
        gk, ck = g.slot_kinds()
        zones = _all_zones(state)
        counters = {name: [_value(state, x, ck[i]) for x in state.ctr[i]]
                    for i, (name, _) in enumerate(g.counters)}
        globs = {name: _value(state, state.g[i], gk[i]) for i, (name, _) in
                 enumerate(g.globals)}
    for zd in g.zones:
        z = zones[zd.name]
        owners = list(enumerate(z)) if zd.per_player else [(None, z)]
        for p, cards in owners:
            label = zd.name if p is None else f"{zd.name} {_who(p, seat)}"
            if zd.groups:
                text = "  ".join(f"#{i} {_cards(g, gr)}" for i, gr in enumerate(cards, 1))
                if text:
                    yield f"  {label}: {text}"
            elif cards or not zd.per_player:
                hidden = zd.visibility == "hidden" and not zd.per_player
                yield f"  {label}: {_cards(g, cards, SHOWN_OF_HIDDEN if hidden else 0)}"
    # a seat's view reads like play's screen: only what the display shows, by its labels
    d = g.display if seat is not None else None
    shown = d.labels if d is not None and d.shown is not None else None
    if shown is not None:
        counters = {k: r for k, r in counters.items() if k in shown}
        globs = {k: x for k, x in globs.items() if k in shown and x is not None}
    for name, row in counters.items():
        yield f"  {(shown or {}).get(name, name)}: " + "  ".join(
            f"{_who(p, seat)}={show_value(x)}" for p, x in enumerate(row))
    if globs:
        yield "  " + "  ".join(f"{(shown or {}).get(k, k)}: {_global(state, seat, k, x)}"
                               for k, x in globs.items())
    to = state.current_player()
    if to is not None:
        yield f"  to move: {_who(to, seat)} (phase {state.phase})"


def _round_start(state: Any) -> str:
    """A round's first line: who deals (a game with a house: the house, no seat)."""
    dealt = "" if state.game.house is not None else f", P{state.dealer} deals"
    return f"round {state.round}{dealt}"


def _round_over(state: Any, seat: int | None, mark: int) -> Iterator[str]:
    """How a round ended: its ending, the rules' own lines (``log``) written by the move that
    ended it, the counters' changes, who is out, and at the game's end the winner."""
    g = state.game
    yield f"round {state.round} over: {state.ended_by or 'ended'}"
    for text in state.messages[min(mark, len(state.messages)):]:
        yield f"  {text}"
    if state.round_results:
        delta = state.round_results[-1][3]
        for ci, (name, _) in enumerate(g.counters):
            ch = [f"{_who(p, seat) if p < state.n else g.house.name} {d:+g}"
                  for p, d in enumerate(delta[ci]) if isinstance(d, (int, float)) and d]
            if ch:
                yield f"  {name}: {', '.join(ch)}"
    out = [_who(p, seat) for p in range(state.n) if not state.active[p]]
    if out:
        yield f"  out: {', '.join(out)}"
    if state.status == "game_over":
        w = state.winner
        ws = w if isinstance(w, list) else [w]
        yield "game over: winner " + (", ".join(_who(x, seat) for x in ws) if ws != [None]
                                      else "none")
