"""``rulelang play``: one human seat against bots, in the terminal.

The table is drawn from the human seat's ``view`` only: its own hand, public zones, face-up
cards, counters and what the others just did. Moves are chosen from a numbered menu (or typed
as move text); any bad input re-prompts; end of input or Ctrl-C ends the game cleanly.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from .agents import make_agent
from .cards import pretty
from .errors import RulesError


def _cards(cards: list[str]) -> str:
    if not cards:
        return "[dim](empty)[/dim]"
    return " ".join("[dim]▮[/dim]" if c == "?" else pretty(c, color=True) for c in cards)


def _zone_line(name: str, cards: list[str], top_only: bool = False) -> str:
    shown = [c for c in cards if c != "?"]
    if not cards:
        return f"{name}: empty"
    if not shown:
        return f"{name}: {len(cards)} card{'s' if len(cards) != 1 else ''} face down"
    if top_only and cards[0] != "?" and len(shown) == 1 and len(cards) > 1:
        return f"{name}: {pretty(cards[0], color=True)} on top ({len(cards)} cards)"
    return f"{name}: {_cards(cards)}"


def _show_value(x: Any) -> str:
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return str(x)


def show_table(con: Console, state: Any, seat: int, reveal: bool = False) -> None:
    v = state.view(seat)
    g = state.game
    con.rule(f"{g.name} — round {v['round']} — you are P{seat}"
             f"{' (dealer)' if v['dealer'] == seat else ''}")
    for zd in g.zones:
        z = v["zones"][zd.name]
        if zd.groups:  # melds on the table: each group by its move name (P2#1), in card order
            _group_lines(con, state, seat, zd, z)
            continue
        if zd.per_player:
            for p in range(state.n):
                cards = z[p]
                if reveal:
                    cards = [g.tables.name[c] for c in state.zones[zd.first_id + p]]
                if not cards and zd is not g.hand_zone():
                    continue
                who = "you" if p == seat else f"P{p}"
                out = "" if v["active"][p] else " [dim](out)[/dim]"
                con.print(f"  {zd.name} {who}{out}: {_cards(cards)}")
        else:
            con.print("  " + _zone_line(zd.name, z, zd.visibility == "top"))
    shown = {k: x for k, x in v["globals"].items()
             if x is not None and not isinstance(x, bool) and x != [] and
             g.global_types.get(k) not in ("card", "list[card]")}
    if shown:
        def who(k: str, x: Any) -> str:  # a seat as the table names it
            if g.global_types.get(k) == "seat" and isinstance(x, int):
                return "you" if x == seat else f"P{x}"
            return _show_value(x)

        con.print("  " + "  ".join(f"{k}: {who(k, x)}" for k, x in shown.items()))
    for name, row in v["counters"].items():
        con.print(f"  {name}: " + "  ".join(
            f"{'you' if p == seat else 'P' + str(p)}={x:g}" if isinstance(x, (int, float))
            else f"P{p}={x}" for p, x in enumerate(row)))
    ev = g.hand_evaluator
    hz = g.hand_zone()
    if ev and hz is not None:
        try:
            val = g.functions[ev].fn(state, state.zones[hz.first_id + seat])
            con.print(f"  your {ev}: {val:g}" if isinstance(val, (int, float))
                      else f"  your {ev}: {val}")
        except RulesError:
            pass


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
        shown = "  ".join(f"[dim]{label}#{i}[/dim] {_cards(order(gr))}"
                          for i, gr in enumerate(groups, 1))
        con.print(f"  {zd.name} {who}: {shown}")


def play_game(game: Any, players: int, seat: int, agents: list[str], seed: int,
              input_fn: Any = input, console: Console | None = None,
              bot_work: int | None = None) -> int:
    con = console or Console(highlight=False)
    state = game.new_state(players, seed=seed, auto_continue=False)
    bots = {p: make_agent(agents[p], seed * 31 + p + 1, bot_work) for p in range(players)
            if p != seat}
    con.print(f"[bold]{game.name}[/bold] — {players} players, seed {seed}. "
              "Type a number or a move; '?' helps, 'q' quits.")
    seen_events = 0
    try:
        while True:
            if state.status == "round_over" or state.status == "game_over":
                _show_events(con, state, seat, seen_events)
                seen_events = 0
                _showdown(con, state, seat)
                if state.status == "game_over":
                    w = state.winner
                    ws = w if isinstance(w, list) else [w]
                    con.print(f"[bold]Game over.[/bold] Winner: "
                              f"{', '.join('you' if x == seat else f'P{x}' for x in ws)}")
                    return 0
                _ask(con, input_fn, "press Enter for the next round")
                state.next_round()
                continue
            p = state.current_player()
            if p != seat:
                move = bots[p].choose(state, p)
                state.apply(move)
                continue
            seen_events = _show_events(con, state, seat, seen_events)
            show_table(con, state, seat)
            moves = state.legal_moves()
            for i, m in enumerate(moves, 1):
                con.print(f"  [bold]{i}[/bold]. {m}")
            while True:
                text = _ask(con, input_fn, "your move")
                if text.lower() in ("q", "quit", "exit"):
                    con.print("bye")
                    return 0
                if text.lower() in ("?", "help") and text.lower() not in moves:
                    con.print(f"  type a number from 1 to {len(moves)}, or a move as listed "
                              "(any case, 10 for T): [bold]" + "[/bold], [bold]".join(moves) +
                              "[/bold]; 'q' quits")
                    continue
                if text.isascii() and text.isdigit() and 1 <= int(text) <= len(moves):
                    text = moves[int(text) - 1]
                elif text.isascii() and text.isdigit():  # not '²', which int() refuses
                    con.print(f"[yellow]choose a number from 1 to {len(moves)}[/yellow]")
                    continue
                if not text:
                    continue
                try:
                    state.apply(text)
                    break
                except RulesError as e:
                    con.print(f"[yellow]{e.message}[/yellow]")
    except (EOFError, KeyboardInterrupt):
        con.print("\nbye")
        return 0


def _ask(con: Console, input_fn: Any, prompt: str) -> str:
    con.print(f"[cyan]{prompt}>[/cyan] ", end="")
    return str(input_fn("")).strip()


def _show_events(con: Console, state: Any, seat: int, since: int) -> int:
    events = state.view(seat)["events"]
    for who, text in events[since:]:
        if who != seat:
            con.print(f"  [magenta]P{who}[/magenta]: {text}")
    return len(events)


def _showdown(con: Console, state: Any, seat: int) -> None:
    g = state.game
    con.rule(f"round {state.round} over: {state.ended_by}")
    hz = g.hand_zone()
    ev = g.functions.get(g.hand_evaluator) if g.hand_evaluator else None
    for p in range(state.n):
        if hz is None:
            break
        cards = [g.tables.name[c] for c in state.zones[hz.first_id + p]]
        val = ""
        if ev is not None:
            try:
                val = f" = {ev.fn(state, state.zones[hz.first_id + p])}"
            except RulesError:
                val = ""
        con.print(f"  {'you' if p == seat else f'P{p}'}: {_cards(cards)}{val}")
    if state.round_results:
        _name, _t, _d, delta = state.round_results[-1]
        for ci, (cname, _) in enumerate(g.counters):
            changes = [f"{'you' if p == seat else f'P{p}'} {d:+g}" for p, d in
                       enumerate(delta[ci]) if isinstance(d, (int, float)) and d]
            if changes:
                con.print(f"  {cname}: {', '.join(changes)}")
    out = [p for p in range(state.n) if not state.active[p]]
    if out:
        con.print(f"  out: {', '.join('you' if p == seat else f'P{p}' for p in out)}")
