"""Cross-engine replays against OpenSpiel's own games (issue 19): the shared machinery.

A replay plays one game in OpenSpiel (``pyspiel``) and the same game, card for card and move
for move, in rulelang, in lockstep: every chance outcome OpenSpiel asks for is taken from a
shuffled deck fixed in advance, so that rulelang can be dealt the same cards (a scenario-style
fixed deal, ``new_state(deal=...)``: the hands, the upcard and the whole stock order, top
first); at every OpenSpiel decision the legal actions, mapped to rulelang's move texts, are
compared with rulelang's ``legal_moves()``; the chosen action is applied to both; at the end
OpenSpiel's returns are compared with rulelang's counters, mapped. Where the two rule sets differ
by design, the options of both are set to match, and what cannot match is restricted and
counted as a difference by design (``Replay.note``); any other disagreement is a mismatch
(``Replay.fail``), reported with the seed that replays it.

The games themselves are in ``crossreplay_openspiel`` (one function per game); this module is
named for OpenSpiel so that replays against other peers keep their own files.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rulelang

ROOT = Path(__file__).resolve().parent.parent
_GAMES: dict[tuple[str, str], Any] = {}


class Mismatch(Exception):
    """OpenSpiel and rulelang disagree (the message says where and how)."""


@dataclass
class Tally:
    """What the replays of one game found."""
    game: str
    games: int = 0
    decisions: int = 0        # OpenSpiel decisions whose legal actions were compared
    returns: int = 0          # games whose final returns were compared
    notes: Counter = field(default_factory=Counter)  # differences by design met, by kind
    ended: Counter = field(default_factory=Counter)  # how rulelang's round ended
    mismatches: list[str] = field(default_factory=list)

    def show(self) -> None:
        print(f"{self.game}: {self.games} games, {self.decisions} legal-move sets and "
              f"{self.returns} returns compared, {len(self.mismatches)} mismatches", flush=True)
        for k, v in sorted(self.notes.items()):
            print(f"  {k}: {v}")
        print(f"  rulelang's rounds ended: {dict(self.ended)}")
        for m in self.mismatches[:10]:
            print(f"  MISMATCH {m}")

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "games": self.games, "decisions": self.decisions,
                "returns": self.returns, "notes": dict(self.notes),
                "ended": dict(self.ended), "mismatches": self.mismatches}


def rl_game(name: str, options: dict[str, Any]) -> Any:
    """A bundled rules file compiled with these options (kept: compiling costs more than a
    replay)."""
    key = (name, repr(sorted(options.items())))
    if key not in _GAMES:
        _GAMES[key] = rulelang.load(str(ROOT / "games" / f"{name}.yaml"), options=options)
    return _GAMES[key]


class Replay:
    """One game played in both engines. ``deck`` is the order in which OpenSpiel's chance
    nodes are answered (cards by their text); ``tally`` collects the notes."""

    def __init__(self, tally: Tally, seed: int) -> None:
        self.tally = tally
        self.seed = seed
        self.rng = random.Random(seed)
        self.step = 0

    def deck(self, names: list[str]) -> list[str]:
        """The cards in the order OpenSpiel's chance nodes will be answered."""
        deck = list(names)
        self.rng.shuffle(deck)
        return deck

    # -- checks
    def fail(self, what: str) -> None:
        raise Mismatch(f"{self.tally.game} seed {self.seed}, step {self.step}: {what}")

    def note(self, kind: str) -> None:
        self.tally.notes[kind] += 1

    def same_moves(self, os_moves: set[str], rl_moves: set[str], where: str) -> None:
        """OpenSpiel's legal actions, mapped to move texts, against rulelang's."""
        self.tally.decisions += 1
        if os_moves != rl_moves:
            self.fail(f"{where}: legal moves differ: OpenSpiel only {sorted(os_moves - rl_moves)}"
                      f", rulelang only {sorted(rl_moves - os_moves)}")

    def apply_rl(self, S: Any, seat: int, move: str) -> None:
        if S.current_player() != seat:
            self.fail(f"rulelang has seat {S.current_player()} to move, OpenSpiel seat {seat} "
                      f"('{move}')")
        try:
            S.apply(move)
        except rulelang.RulesError as e:
            self.fail(f"rulelang refused '{move}' by seat {seat}: {e}")
        self.step += 1


def zone(S: Any, name: str, seat: int | None = None) -> list[str]:
    """The cards of a zone (a seat's, for a zone of each player) by name, top first."""
    zd = next(z for z in S.game.zones if z.name == name)
    zid = zd.first_id + ((seat or 0) if zd.per_player else 0)
    return [S.game.tables.name[c] for c in S.zones[zid]]


def groups(S: Any, name: str, seat: int) -> list[list[str]]:
    """The groups (melds) of a seat's zone of groups, oldest first."""
    zd = next(z for z in S.game.zones if z.name == name)
    return [[S.game.tables.name[c] for c in gr] for gr in S.group_list(zd.first_id + seat)]


def counter(S: Any, name: str) -> list[Any]:
    i = next(i for i, (n, _) in enumerate(S.game.counters) if n == name)
    return list(S.ctr[i])


def run(game: str, fn: Any, games: int, seed: int) -> Tally:
    """``games`` replays of one game (seeds ``seed``, ``seed + 1`` ...); a mismatch is
    recorded and the next game played."""
    tally = Tally(game)
    for k in range(games):
        tally.games += 1
        try:
            fn(Replay(tally, seed + k))
        except Mismatch as e:
            tally.mismatches.append(str(e))
    return tally
