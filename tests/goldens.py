"""Golden play transcripts: a whole short match of every bundled game through ``rulelang play``.

For each game, ``tests/golden/<game>.inputs`` is what a player typed (its first line, a
comment, is the command: players, seed, options), one input a line, and
``tests/golden/<game>.txt`` is the screen it saw (no colours), the inputs echoed after their
prompts. tests/test_goldens.py plays each game in this process from its inputs and compares.

The inputs were chosen by a bot at the human seat (``HUMAN``, seeded; Enter between rounds),
with options that keep the match short (``GAMES``); a move of several cards is typed with its
cards the other way round where that names the same move (so the goldens type them in any
order, as a player may). Regenerate both files of every game, after a
change that is meant to change what ``play`` shows or how a game plays, with one command, and
review the diff::

    make goldens        # python -m tests.goldens --write
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 1
AGENTS = "random"  # the bots at the other seats (fast, and the match stays short)
HUMAN = "greedy"  # the bot that chose the inputs (so that the match ends soon)

# game -> its players and options: a short match (a few rounds, a small target)
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "blackjack": (2, {"hands": 2, "insurance": True}),
    "crazy-eights": (2, {"target": 20}),
    "cribbage": (2, {"target": 15}),
    "euchre": (4, {"target": 1}),
    "gin-rummy": (2, {"target": 10}),
    "go-fish": (2, {"hands": 1}),
    "greek-31": (3, {"chips": 3, "max_bet": 2, "hands": 2}),
    "greek-31-heath": (3, {"chips": 3, "max_bet": 2, "hands": 2}),
    "hearts": (4, {"target": 10}),
    "president": (4, {"hands": 1}),
    "spades": (4, {"target": 50}),
    "stop-the-bus": (3, {"lives": 1}),
    "ten-pennies": (2, {}),
    "texas-holdem": (3, {"chips": 10, "hands": 2}),
    "thirty-one": (3, {"lives": 1}),
    "thirty-one-banking": (3, {"tokens": 1}),
    "thirty-one-cut-throat": (3, {"tokens": 1}),
    "thirty-one-dutch": (3, {"lives": 1}),
    "thirty-one-no-elimination": (3, {"hands": 2}),
    "thirty-one-switch": (3, {"lives": 1}),
    "thirty-one-three-of-a-kind": (3, {"lives": 1}),
    "tonk": (2, {"chips": 2, "hands": 2}),
    "uno": (2, {"target": 50}),
}


def command(name: str) -> list[str]:
    """The ``rulelang play`` arguments of a game's golden match."""
    players, options = GAMES[name]
    args = ["play", name, "--players", str(players), "--seed", str(SEED), "--agents", AGENTS]
    for k, v in options.items():
        args += ["--option", f"{k}={str(v).lower() if isinstance(v, bool) else v}"]
    return args


def _game(name: str) -> Any:
    import rulelang

    return rulelang.load(name, GAMES[name][1])


def choose_inputs(name: str) -> list[str]:
    """What a bot at seat 0 types through the whole match: the moves (their texts) and Enter
    between rounds, played exactly as ``play`` plays the other seats (play.py's loop)."""
    from rulelang.agents import make_agent, parse_agents

    game = _game(name)
    players = GAMES[name][0]
    agents = parse_agents(AGENTS, players)
    state = game.new_state(players, seed=SEED, auto_continue=False)
    bots = {p: make_agent(agents[p], SEED * 31 + p + 1, None) for p in range(1, players)}
    me = make_agent(HUMAN, 7)
    typed: list[str] = []
    while state.status != "game_over":
        if state.status == "round_over":
            typed.append("")
            state.next_round()
            continue
        p = state.current_player()
        move = (bots[p] if p else me).choose(state, p)
        if not p:
            typed.append(_reordered(state, move))
        state.apply(move)
    return typed


def _reordered(state: Any, move: str) -> str:
    """A move of several cards as a player might type it, the cards (and melds) the other way
    round, if that names the same move (``movetext.any_order``); else the move as listed."""
    from rulelang.errors import IllegalMove

    words = move.split()
    k = next((i for i, w in enumerate(words) if state.game.tables.lookup(w)), len(words))
    if len([w for w in words[k:] if w != "|"]) < 2:
        return move
    groups = " ".join(words[k:]).split(" | ")
    other = " ".join([*words[:k], " | ".join(" ".join(g.split()[::-1]) for g in groups[::-1])])
    a, b = state.clone(), state.clone()
    try:
        a.apply(other)
    except IllegalMove:  # not the same move: typed as listed
        return move
    b.apply(move)
    return other if a.history == b.history else move


class PlainConsole:
    """What ``play`` prints, as plain text: each line as it is (no colours, no wrapping), a
    rule as ``── TITLE ──``. It stands in for rich's console, whose rendering was two thirds
    of the golden test's CPU; what play says is the same."""

    def __init__(self) -> None:
        self.out = io.StringIO()

    def print(self, text: Any = "", end: str = "\n") -> None:
        self.out.write(f"{text}{end}")

    def rule(self, title: Any = "") -> None:
        self.out.write(f"── {title} ──\n")


def transcript(name: str, inputs: list[str]) -> str:
    """The screen of ``rulelang play`` for these inputs (``PlainConsole``), each input echoed
    after its prompt (in this process: the golden test costs no new interpreters)."""
    from rulelang.agents import parse_agents
    from rulelang.play import play_game

    con = PlainConsole()
    out = con.out
    left = iter(inputs)

    def typed(_prompt: str) -> str:
        text = next(left, None)
        if text is None:  # the inputs ran out before the game ended: as at the terminal
            raise EOFError
        out.write(f"{text}\n")
        return text

    players = GAMES[name][0]
    code = play_game(_game(name), players, 0, parse_agents(AGENTS, players), SEED,
                     input_fn=typed, console=con)  # type: ignore[arg-type]
    out.write(f"[exit {code}]\n")
    return out.getvalue()


def read_inputs(name: str) -> list[str]:
    lines = (GOLDEN / f"{name}.inputs").read_text(encoding="utf-8").split("\n")
    assert lines[0].startswith("# rulelang ") and lines[-1] == ""
    return lines[1:-1]


def write(name: str) -> None:
    inputs = choose_inputs(name)
    (GOLDEN / f"{name}.inputs").write_text(
        "# rulelang " + " ".join(command(name)) + "\n" + "".join(f"{t}\n" for t in inputs),
        encoding="utf-8")
    (GOLDEN / f"{name}.txt").write_text(transcript(name, inputs), encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv[:1] != ["--write"]:
        print("usage: python -m tests.goldens --write [GAME...]  (rewrites tests/golden/)")
        return 2
    GOLDEN.mkdir(exist_ok=True)
    for name in argv[1:] or sorted(GAMES):
        write(name)
        print(f"wrote tests/golden/{name}.inputs and .txt")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
