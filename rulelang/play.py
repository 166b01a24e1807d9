"""``rulelang play``: one human seat against bots, in the terminal.

The table is drawn from the human seat's ``view`` only: its own hand, public zones, face-up
cards, counters and what the others just did. Moves are chosen from a numbered menu (or typed
as move text); any bad input re-prompts; end of input or Ctrl-C ends the game cleanly.

Everything shown is rules text or typed input, so every line is printed through ``_say``: rich
``Text`` from plain pieces (``terminal.styled``), cleaned of control characters and never read
as markup, whatever console it is printed on.
"""

from __future__ import annotations

import os
from typing import Any, Union

from rich.console import Console

from . import narrate
from .agents import make_agent
from .cards import JOKER, RED_SUITS, pretty
from .display import requirement, sort_hand
from .errors import IllegalMove, RulesError, RuntimeRulesError, UsageError
from .game import FREE
from .playstatus import hand_said, shown_counter_labels, status_lines, value_line
from .rules import bundled_dir
from .showvalue import show_value
from .terminal import console as safe_console
from .terminal import styled

Part = Union[str, tuple[str, str]]  # a plain piece of a line, or (piece, style)


def _say(con: Console, *parts: Part, end: str = "\n") -> None:
    """Print one line (see the module docstring)."""
    con.print(styled(*parts), end=end)


def _card(c: str, deck: Any = None) -> Part:
    """A card for people: the French deck with suit symbols, red hearts and diamonds; a deck of
    its own by name, in its colour (``DeckTables.shown``)."""
    if deck is not None:
        text, style = deck.shown(c)
        return (text, style) if style else text
    red = c != JOKER and len(c) >= 2 and c[-1] in RED_SUITS
    return (pretty(c), "red") if red else pretty(c)


def _cards(cards: list[str], deck: Any = None, new: frozenset[str] = frozenset()) -> list[Part]:
    if not cards:
        return [("(empty)", "dim")]
    out: list[Part] = []
    for i, c in enumerate(cards):
        out += [" "] if i else []
        part = ("▮", "dim") if c == "?" else _card(c, deck)
        if c in new:  # arrived since the seat's last decision: marked, as a player would
            text, style = part if isinstance(part, tuple) else (part, "")
            part = (f"{text}*", f"{style} bold underline".strip())
        out.append(part)
    return out


def _zone_line(name: str, cards: list[str], top_only: bool = False,
               deck: Any = None) -> list[Part]:
    shown = [c for c in cards if c != "?"]
    if not cards:
        return [f"{name}: empty"]
    if not shown:
        return [f"{name}: {len(cards)} card{'s' if len(cards) != 1 else ''} face down"]
    if top_only and cards[0] != "?" and len(shown) == 1 and len(cards) > 1:
        return [f"{name}: ", _card(cards[0], deck), f" on top ({len(cards)} cards)"]
    return [f"{name}: ", *_cards(cards, deck)]


def show_table(con: Console, state: Any, seat: int, new: frozenset[str] = frozenset()) -> None:
    """The table as ``seat`` sees it; ``new``: the cards that came to its hand since its last
    decision (marked)."""
    v = state.view(seat)
    g = state.game
    dealer = v["dealer"] == seat and g.house is None  # with a house, no seat deals
    need = requirement(state, seat)  # the round's requirement (display:), if the rules say
    con.rule(styled(f"{g.name} — round {v['round']}{': ' + need if need else ''} — you are "
                    f"P{seat}{' (dealer)' if dealer else ''}"))
    for zd in g.zones:
        z = v["zones"][zd.name]
        if zd.groups:  # melds on the table: each group by its move name (P2#1), in card order
            _group_lines(con, state, seat, zd, z)
            continue
        if zd.trick and not zd.per_player:  # who played each card, in the order played
            by = v["played_by"][zd.name]
            parts: list[Part] = [f"  {zd.name}: "] + ([] if z else [("(empty)", "dim")])
            for k, (c, p) in enumerate(reversed(list(zip(z, by)))):
                who = "" if p is None else ("you " if p == seat else f"P{p} ")
                parts += ["  " if k else "", who, ("▮", "dim") if c == "?" else _card(c, g.tables)]
            _say(con, *parts)
        elif zd.per_player:
            for p in range(state.n):
                cards = z[p]
                if not cards and zd is not g.hand_zone():
                    continue
                who = "you" if p == seat else f"P{p}"
                out: Part = "" if v["active"][p] else (" (out)", "dim")
                mine = p == seat and zd is g.hand_zone()
                _say(con, f"  {zd.name} {who}", out, ": ",
                     *(_cards(sort_hand(state, cards), g.tables, new) if mine
                       else _cards(cards, g.tables)))
        else:
            name = g.house.label(zd.name) if g.house and zd.name in g.house.zones else zd.name
            _say(con, "  ", *_zone_line(name, z, zd.visibility == "top", g.tables))
    if v.get("direction", "clockwise") != ("clockwise" if g.direction == 1 else "anticlockwise"):
        _say(con, f"  play goes {v['direction']} (reversed)")
    status_lines(con, state, v, seat)
    ch = v.get("choosing")
    if ch:  # a sequential choice under way (choice.py): the items chosen so far
        _say(con, f"  choosing {ch['action']}: {' '.join(ch['chosen'])} "
                  f"({len(ch['chosen'])} of {ch['count']}; choose the next)")
    value_line(con, state, seat)


def _team(state: Any, t: int, seat: int) -> str:
    """A team as the table names it, by its seats: ``you+P2``."""
    return "+".join("you" if q == seat else f"P{q}" for q in range(state.n)
                    if state.team[q] == t)


def _group_lines(con: Console, state: Any, seat: int, zd: Any, z: list) -> None:
    """One line per owner of a zone of groups: each group named as a move names it."""
    ids = state.game.tables.ids_by_name()
    key = state.game.tables.sort_key

    def order(cards: list[str]) -> list[str]:
        return sorted(cards, key=lambda c: key(ids[c][0]) if c in ids else (99, 9))

    owners = list(enumerate(z)) if zd.per_player else [(None, z)]
    for p, groups in owners:
        if not groups:
            continue
        who = zd.name if p is None else ("you" if p == seat else f"P{p}")
        label = zd.name if p is None else f"P{p}"
        shown: list[Part] = []
        for i, gr in enumerate(groups, 1):
            shown += ["  "] if i > 1 else []
            shown += [(f"{label}#{i}", "dim"), " ", *_cards(order(gr), state.game.tables)]
        _say(con, f"  {zd.name}: " if p is None else f"  {zd.name} {who}: ", *shown)


def play_game(game: Any, players: int, seat: int, agents: list[str], seed: int,
              input_fn: Any = input, console: Console | None = None,
              bot_work: int | None = None, limits: dict[str, int] | None = None,
              moves: list[str] | None = None) -> int:
    """Play one game in the terminal; ``limits``: the engine's (``new_state``'s keywords);
    ``moves``: the moves of a saved game ("SEAT: MOVE"), played first."""
    con = console or safe_console()
    try:
        return _play(con, game, players, seat, agents, seed, input_fn, bot_work, limits or {},
                     moves or [])
    except RuntimeRulesError as e:  # the rules went wrong: say how to deal this game again
        e.add_context(f"in the game with seed {seed}; play --seed {seed} deals it again")
        raise


def _play(con: Console, game: Any, players: int, seat: int, agents: list[str], seed: int,
          input_fn: Any, bot_work: int | None, limits: dict[str, int], saved: list[str]) -> int:
    state = game.new_state(players, seed=seed, auto_continue=False, **limits)
    for k, m in enumerate(saved):  # a saved game: its moves again, round after round
        who, _sep, text = m.partition(":")
        if state.status == "round_over":
            state.next_round()
        if state.current_player() != int(who):
            raise UsageError(f"saved game: move {k + 1} ('{m}') is P{who}'s, but "
                             f"P{state.current_player()} is to move")
        state.apply(text.strip())
    bots = {p: make_agent(agents[p], seed * 31 + p + 1, bot_work) for p in range(players)
            if p != seat}
    _say(con, (str(game.name), "bold"), f" — {players} players, seed {seed}. "
         "Type a number or a move; '?' helps, 'q' quits.")
    if saved:
        _say(con, f"  a saved game: its {len(saved)} moves played again")
    _show_cuts(con, state, seat)
    if game.teams is not None:
        _say(con, "  teams: " + ", ".join(_team(state, t, seat) for t in sorted(set(state.team))))
    seen_events = 0
    log_mark = len(state.messages)  # the rules' log lines before the latest step
    # the positions of the seat's earlier decisions, for `undo`: (state, events seen, hand)
    undo: list[tuple[Any, int, frozenset[str]]] = []
    held: frozenset[str] | None = None  # the seat's hand at its last decision
    try:
        while True:
            if state.status == "round_over" or state.status == "game_over":
                _show_events(con, state, seat, seen_events)
                seen_events = 0
                _showdown(con, state, seat)
                _round_why(con, state, seat, log_mark)
                if state.status == "game_over":
                    w = state.winner
                    ws = w if isinstance(w, list) else [w]
                    if game.teams is not None:  # winners by team
                        ws = [_team(state, t, seat) for t in sorted({state.team[x] for x in ws
                                                                     if x is not None})]
                    _say(con, ("Game over.", "bold"), " Winner: "
                         f"{', '.join(_winner(x, seat) for x in ws)}")
                    _standings(con, state, seat)
                    return 0
                _standings(con, state, seat, f"Standings after round {state.round}:")
                _ask(con, input_fn, "press Enter for the next round")
                log_mark = len(state.messages)
                state.next_round()
                continue
            p = state.current_player()
            if p != seat:
                move = bots[p].choose(state, p)
                log_mark = len(state.messages)
                seen_events = _told_move(con, state, seat, p, move)
                continue
            seen_events = _show_events(con, state, seat, seen_events)
            hand = _own_hand(state, seat)
            show_table(con, state, seat, hand - held if held is not None else frozenset())
            moves = state.legal_moves()
            for i, m in enumerate(moves, 1):
                _say(con, "  ", (str(i), "bold"), f". {m}")
            while True:
                text = _ask(con, input_fn, "your move")
                if text.lower() in ("q", "quit", "exit"):
                    _say(con, "bye")
                    return 0
                if text.lower() == "undo" and "undo" not in moves:
                    if not undo:
                        _say(con, ("nothing to undo: this is your first decision", "yellow"))
                        continue
                    state, seen_events, held = undo.pop()
                    log_mark = len(state.messages)
                    _say(con, "  back to your previous decision")
                    break
                if text.lower() in ("scenario", "save") and text.lower() not in moves:
                    _say(con, f"  wrote {write_scenario(state, seed)}: this position as a "
                              "scenario (`rulelang test` it, or add expectations)")
                    continue
                if text.lower() == "hint" and "hint" not in moves:
                    _hint(con, state, seat, seed, bot_work)
                    continue
                if text.lower() in ("?", "help") and text.lower() not in moves:
                    listed: list[Part] = []
                    for k, m in enumerate(moves):
                        listed += [", "] if k else []
                        listed.append((m, "bold"))
                    _say(con, f"  type a number from 1 to {len(moves)}, or a move as listed "
                         "(any case, 10 for T): ", *listed, "; 'q' quits")
                    _say(con, "  'hint': what the tree search would play; 'undo': back to your "
                         "previous decision; 'scenario' (or 'save'): this position saved as a "
                         "scenario file (load it: rulelang play FILE)")
                    continue
                if text.isascii() and text.isdigit() and 1 <= int(text) <= len(moves):
                    text = moves[int(text) - 1]
                elif text.isascii() and text.isdigit():  # not '²', which int() refuses
                    _say(con, (f"choose a number from 1 to {len(moves)}", "yellow"))
                    continue
                if not text:
                    continue
                try:
                    before = (state.clone(), seen_events, held if held is not None else hand)
                    log_mark = len(state.messages)
                    seen_events = _told_move(con, state, seat, seat, text)
                    undo.append(before)
                    held = hand
                    break
                except (IllegalMove, UsageError) as e:  # not the rules going wrong
                    _say(con, (e.message, "yellow"))
    except (EOFError, KeyboardInterrupt):
        _say(con, "\nbye")
        return 0


def saved_game(path: str) -> tuple[str, int, int, dict[str, Any], list[str]]:
    """A position saved with ``scenario`` at the prompt: its game, players, seed, options and
    moves ("SEAT: MOVE"). A file that is not one is a usage error naming what is missing."""
    from .errors import RulesError as _RulesError
    from .yamlload import load_file

    try:
        doc = load_file(path)
    except _RulesError as e:
        raise UsageError(f"cannot read the saved game: {e.message}") from None
    ok = (isinstance(doc, dict) and isinstance(doc.get("game"), str)
          and isinstance(doc.get("seed"), int) and doc.get("dealer") == "rules"
          and isinstance(doc.get("moves") or [], list))
    if not ok:
        raise UsageError(f"{path} is not a game saved by 'scenario' at the play prompt "
                         "(it needs game, seed, dealer: rules and moves)")
    moves = [str(m) for m in doc.get("moves") or []]
    if not all(m.partition(":")[0].strip().isdigit() for m in moves):
        raise UsageError(f"{path}: a saved move is written \"SEAT: MOVE\"")
    game = str(doc["game"])
    if game.endswith(".yaml") and not os.path.isabs(game):  # relative to the saved file
        game = os.path.join(os.path.dirname(os.path.abspath(path)), game)
    players = doc.get("players")
    return (game, int(players) if isinstance(players, int) else None,  # type: ignore[return-value]
            int(doc["seed"]), dict(doc.get("options") or {}), moves)


def write_scenario(state: Any, seed: int, folder: str = ".") -> str:
    """Write the position as a scenario file: the game, its options, the seed and the moves
    that led here (``dealer: rules`` draws the same first dealer, ``continue: true`` deals the
    same next rounds), expecting the seat to move; its path. Nothing of the hidden cards is
    written: the seed deals them again."""
    import json

    g = state.game
    path = os.path.abspath(g.path)
    bundled = os.path.dirname(path) == str(bundled_dir().resolve())
    name = os.path.splitext(os.path.basename(path))[0]
    game = name if bundled else os.path.relpath(path, folder)
    out = os.path.join(folder, f"{name}-seed{seed}-move{len(state.history)}.scenario.yaml")
    lines = [f"# written by rulelang play at move {len(state.history)}",
             f"game: {json.dumps(game)}", f"players: {state.n}", f"seed: {seed}",
             "dealer: rules", "continue: true",
             "options: {" + ", ".join(f"{k}: {json.dumps(v)}" for k, v in g.options.items())
             + "}", "moves:"]
    lines += [f"  - {json.dumps(f'{p}: {m}')}" for p, m in state.history] or ["  []"]
    if lines[-1] == "  []":
        lines[-2:] = ["moves: []"]
    lines += ["expect:", f"  to_move: {state.current_player()}"]
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return out


def _own_hand(state: Any, seat: int) -> frozenset[str]:
    hz = state.game.hand_zone()
    return frozenset(state.view(seat)["zones"][hz.name][seat]) if hz is not None else frozenset()


HINT_ITERATIONS = 300


def _hint(con: Console, state: Any, seat: int, seed: int, bot_work: int | None) -> None:
    """What the strongest bot (the tree search, ``ismcts``) would play here, and why: the share
    of its search that went to the move, and the runner-up's."""
    bot = make_agent(f"ismcts:{HINT_ITERATIONS}", seed * 31 + 997, bot_work)
    moves = state.legal_moves()
    i = bot.choose_index(state.clone(), seat)
    visits = sorted(getattr(bot, "last_visits", {}).items(), key=lambda kv: -kv[1])
    total = sum(n for _m, n in visits) or 1
    why = (f"the tree search chose it in {100 * dict(visits).get(moves[i], 0) // total}% of "
           f"{total} sampled deals played on")
    second = next(((m, n) for m, n in visits if m != moves[i]), None)
    if second is not None:
        why += f"; next best: {second[0]} ({100 * second[1] // total}%)"
    _say(con, "  hint: ", (moves[i], "bold"), f" — {why}")


def _standings(con: Console, state: Any, seat: int, title: str = "Standings:") -> None:
    """Where every seat stands, after a round or at the game's end: the winners first, then
    the seats in play, then the others, each with its counters."""
    g = state.game
    w = state.winner
    winners = set(w if isinstance(w, list) else [] if w is None else [w])
    kinds = g.slot_kinds()[1]
    names = [(ci, name) for ci, name in shown_counter_labels(g) if kinds[ci] == FREE]
    _say(con, (title, "bold"))
    for p in sorted(range(state.n), key=lambda p: (p not in winners, not state.active[p], p)):
        row = ", ".join(f"{name} {show_value(state.ctr[ci][p])}" for ci, name in names)
        tag = " (winner)" if p in winners else "" if state.active[p] else " (out)"
        _say(con, f"  {'you' if p == seat else f'P{p}'}{tag}" + (f": {row}" if row else ""))


def _ask(con: Console, input_fn: Any, prompt: str) -> str:
    _say(con, (f"{prompt}>", "cyan"), " ", end="")
    return str(input_fn("")).strip()


def _show_cuts(con: Console, state: Any, seat: int) -> None:
    """The cuts for the first dealer (``cut()``), which every seat saw, and who deals."""
    cuts = state.view(seat)["cuts"]
    for i, cut in enumerate(cuts):
        parts: list[Part] = ["  cut again: " if i else "  cut for the deal: "]
        for k, (p, card) in enumerate(cut):
            parts += [", " if k else "", "you " if p == seat else f"P{p} ",
                  _card(card, state.game.tables)]
        _say(con, *parts)
    if cuts:
        _say(con, f"  {'you deal' if state.dealer == seat else f'P{state.dealer} deals'} first")


def _show_events(con: Console, state: Any, seat: int, since: int) -> int:
    events = state.view(seat)["events"]
    for who, text in events[since:]:
        if who != seat:
            _say(con, "  ", (f"P{who}" if who >= 0 else state.game.house.name, "magenta"),
                 f": {text}")
    return len(events)


def _showdown(con: Console, state: Any, seat: int) -> None:
    """The end of a round as the seat's view shows it: the hands the rules turned face up (a
    showdown they declare), the others face down; a hand's value only when all of it is seen."""
    g = state.game
    con.rule(styled(f"round {state.round} over: {state.ended_by}"))
    hz = g.hand_zone()
    ev = g.functions.get(g.hand_evaluator) if g.hand_evaluator else None
    hands, base = (state.view(seat)["zones"][hz.name], hz.first_id) if hz else ([], 0)
    for p, cards in enumerate(hands):
        if not cards:  # played out, gone out or out of the game: nothing to show
            continue
        val = ""
        said = hand_said(state, p, base + p) if cards and "?" not in cards else ""
        if said is not None:  # the display describes a hand (or says nothing of it)
            val = said
        elif ev is not None and cards and "?" not in cards:
            try:
                val = f" = {ev.fn(state, state.zones[base + p])}"
            except RulesError:
                val = ""
        _say(con, f"  {'you' if p == seat else f'P{p}'}: ", *_cards(cards, g.tables), val)
    for zname in g.house.zones if g.house is not None else []:  # the house's cards
        cards = state.view(seat)["zones"][zname]
        val = ""
        if ev is not None and cards and "?" not in cards:
            try:
                zid = next(z.first_id for z in g.zones if z.name == zname)
                val = f" = {ev.fn(state, state.zones[zid])}"
            except RulesError:
                val = ""
        _say(con, f"  {g.house.label(zname)}: ", *_cards(cards, g.tables), val)
    if state.round_results:
        delta = state.round_results[-1][3]
        kinds = g.slot_kinds()[1]
        for ci, cname in shown_counter_labels(g):
            if kinds[ci] != FREE:  # a counter that may hold cards is shown by the view only
                continue
            changes = [f"{'you' if p == seat else f'P{p}' if p < state.n else g.house.name} "
                       f"{d:+g}" for p, d in enumerate(delta[ci])
                       if isinstance(d, (int, float)) and d]
            if ci in g.team_counters:  # one change per team
                changes = [f"{_team(state, state.team[p], seat)} {d:+g}" for p, d in
                           enumerate(delta[ci]) if isinstance(d, (int, float)) and d
                           and p < state.n and state.team.index(state.team[p]) == p]
            if changes:
                _say(con, f"  {cname}: {', '.join(changes)}")
    out = [p for p in range(state.n) if not state.active[p]]
    if out:
        _say(con, f"  out: {', '.join('you' if p == seat else f'P{p}' for p in out)}")


def _told_move(con: Console, state: Any, seat: int, mover: int, move: str) -> int:
    """Play a move and tell the seat what it did, as it may see it (``narrate``: another
    seat's move and the cards it moved; after the seat's own, what followed it elsewhere);
    the events seen so far."""
    before = narrate.snapshot(state, seat)
    state.apply(move)
    for line in narrate.describe(state, seat, before, mover):
        _say(con, "  ", line)
    return len(state.events)


def _round_why(con: Console, state: Any, seat: int, log_mark: int) -> None:
    """Why the round ended: the ending as the rules name it and whose move brought it about,
    then the rules' own lines (``log(...)``) written while it was settled."""
    if state.ended_by is not None:
        _say(con, f"  ended by {state.ended_by} {narrate.round_cause(state, seat)}")
    for text in state.messages[min(log_mark, len(state.messages)):]:
        _say(con, "  ", (text, "italic"))


def _winner(x: Any, seat: int) -> str:
    """A winner as the table names it: ``you``, ``P1``, a team by its seats (``you+P2``),
    or ``none``."""
    return x if isinstance(x, str) else "none" if x is None else "you" if x == seat else f"P{x}"
