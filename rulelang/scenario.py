"""Scenario files (``*.scenario.yaml``): a fixed starting position, moves, and what must hold.

The format is CONTRACTS.md's. A scenario is how rules are tested, by the project and by users
who write variants; ``rulelang test`` runs them. A scenario whose file is bad is an error
(exit 1) located in the file; a scenario whose expectation fails is a failure with a reason.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import normalize
from .errors import (
    LoadError,
    RulesError,
    RulesErrors,
    RuntimeRulesError,
    SchemaError,
    Span,
    UsageError,
)
from .movetext import canon_move
from .yamlload import YList, YMap, load_file

EXPECT_KEYS = ("round_over", "ended_by", "values", "counters", "sizes", "zones", "eliminated",
               "game_over", "winner", "to_move", "legal", "globals", "dealer", "round")


@dataclass
class Outcome:
    path: str
    ok: bool
    reason: str = ""  # the first failure
    # every failed expectation: the line of the scenario it is written on (0: none) and why
    failures: list[tuple[int, str]] = field(default_factory=list)


def _fail(path: str, reason: str, line: int = 0) -> Outcome:
    return Outcome(path, False, reason, [(line, reason)])


def run_scenario(path: Path, shown: str, games: dict[str, Any] | None = None) -> Outcome:
    """Run one scenario file; ``RulesError`` for a bad file, a failing ``Outcome`` otherwise.
    ``games`` keeps the games compiled for earlier scenarios of the same run, by rules file and
    options (a compiled game is immutable; most scenarios of a folder share one)."""
    from . import load
    from .rules import resolve_game, validate

    doc = load_file(str(path), shown)
    if not isinstance(doc, YMap):
        raise SchemaError("a scenario must be a YAML mapping", Span(shown, 1, 1))
    errs = validate(doc, "scenario", shown)
    if errs:
        raise RulesErrors(errs)
    gname = str(doc["game"])
    gpath = resolve_game(gname, path.parent)
    if gpath is None:
        raise LoadError(f"game: no rules file or bundled game named '{gname}'",
                        doc.span_of("game"))
    options = dict(doc.get("options") or {})
    key = repr((str(gpath.resolve()), sorted((str(k), repr(v)) for k, v in options.items())))
    game = games.get(key) if games is not None else None
    if game is None:
        try:
            game = load(str(gpath), options=options, allow_any_path=False)
        except UsageError as e:
            raise SchemaError(str(e.message), doc.span_of("options")) from None
        if games is not None:
            games[key] = game
    players = int(doc.get("players", game.default_players))
    seed = int(doc.get("seed", 0))
    try:
        return _run(doc, game, players, seed, shown)
    except RuntimeRulesError as e:  # the rules went wrong: the scenario's seed replays it
        e.add_context(f"in this scenario, seed {seed}")
        raise


def _run(doc: YMap, game: Any, players: int, seed: int, shown: str) -> Outcome:
    try:
        # a seat (0 unless given), or the rules' own choice (match.first_dealer: a cut drawn
        # with the scenario's seed) for `dealer: rules`
        dealer = doc.get("dealer", 0)
        S = game.new_state(players, seed=seed, dealer=None if dealer == "rules" else dealer,
                           start=dict(doc.get("start") or {}) or None,
                           deal=dict(doc.get("deal") or {}) or None,
                           auto_continue=bool(doc.get("continue", False)))
    except UsageError as e:  # at the place in the scenario it names (a zone of deal:)
        raise SchemaError(e.message, e.span if e.span.line else doc.span) from None
    moves = doc.get("moves") or YList()
    for i, m in enumerate(moves):
        mspan = moves.span_of(i) if isinstance(moves, YList) else doc.span
        illegal = False
        if isinstance(m, dict):
            if set(m) != {"illegal"}:
                raise SchemaError("a move is \"<seat>: <move>\" or {illegal: \"<seat>: <move>\"}",
                                  mspan)
            m = m["illegal"]
            illegal = True
        seat, move = _split_move(str(m), mspan)
        if illegal:
            before = S.clone()
            if seat != S.current_player():
                continue
            try:
                S.apply(move)
            except RuntimeRulesError as e:  # the rules failed: not the move being rejected
                e.add_context(f"while trying move {i + 1} ('{m}'), which should be illegal")
                raise
            except RulesError:
                if _fingerprint(S) != _fingerprint(before):
                    return _fail(shown, f"move {i + 1} ('{m}'): the rejected move changed "
                                        "the state", mspan.line)
                continue
            return _fail(shown, f"move {i + 1} ('{m}') should be illegal but was accepted",
                         mspan.line)
        if seat != S.current_player():
            who = S.current_player()
            return _fail(shown, f"move {i + 1} ('{m}'): P{seat} is not to move "
                                f"({'P' + str(who) if who is not None else 'nobody'} is)",
                         mspan.line)
        try:
            S.apply(move)
        except RuntimeRulesError as e:  # not a rejection: the rules failed while playing it
            e.add_context(f"while playing move {i + 1} ('{m}')")
            raise
        except RulesError as e:
            return _fail(shown, f"move {i + 1} ('{m}') was rejected: {e.message}", mspan.line)
        bad = S.check_invariants()
        if bad:
            return _fail(shown, f"after move {i + 1}: {bad[0]}", mspan.line)
    return _check_expect(S, doc.get("expect") or {}, shown)


def _split_move(m: str, span: Span) -> tuple[int, str]:
    head, sep, rest = m.partition(":")
    head = head.strip().upper().removeprefix("P")
    # isdigit() alone is true for '²' and '٣', which int() refuses
    if not sep or not (head.isascii() and head.isdigit()) or not rest.strip():
        raise SchemaError(f"a move is written \"<seat>: <move>\", like \"1: draw stock\"; "
                          f"got {m!r}", span)
    return int(head), rest.strip()


def _move_text(m: str) -> str:
    """A move as a scenario wrote it, its cards in canonical notation (``10h`` is ``TH``)."""
    return " ".join(normalize(tok) or tok for tok in m.split())


def _fingerprint(S: Any) -> Any:
    return (repr(S.zones), repr(S.ctr), repr(S.g), S.phase, S.turn, S.actor, S.status,
            repr(S.active))


def _cards(S: Any, cs: list[int]) -> list[str]:
    return [S.game.tables.name[c] for c in cs]


def _canon(x: Any, tables: Any = None) -> Any:
    """Expected cards as the deck names them (``10h`` is ``TH``; any case)."""
    if isinstance(x, list):
        return [_canon(v, tables) for v in x]
    if isinstance(x, str):
        return (tables.lookup(x) if tables is not None else normalize(x)) or x
    return x


def _check_expect(S: Any, expect: dict[str, Any], shown: str) -> Outcome:

    g = S.game
    checks: list[tuple[str, Any, Any, int]] = []  # what, wanted, got, the line it is on
    failures: list[tuple[int, str]] = []

    def line(m: Any, k: Any) -> int:
        return m.span_of(k).line if isinstance(m, YMap) else 0

    notes: dict[str, str] = {}  # what a failed check adds to its message
    zones = {z.name: z for z in g.zones}
    for key, want in expect.items():
        at = line(expect, key)
        if key == "round_over":
            got: Any = S.status != "play"
        elif key == "game_over":
            got = S.status == "game_over"
        elif key == "ended_by":
            got = S.ended_by
        elif key == "winner":
            got = S.winner
            if isinstance(want, list) and not isinstance(got, list) and got is not None:
                got = [got]
        elif key == "values":
            ev = g.evaluator()
            hz = g.hand_zone()
            if hz is None:
                failures.append((at, "expect values: the game has no hands (a zone of each "
                                     "player that only its owner sees)"))
                continue
            got = [ev.fn(S, S.zones[hz.first_id + p]) for p in range(S.n)]
        elif key == "counters":
            names = {n: i for i, (n, _) in enumerate(g.counters)}
            for cname, cwant in want.items():
                if cname not in names:
                    failures.append((line(want, cname), f"expect counters: no counter "
                                                        f"'{cname}'"))
                    continue
                checks.append((f"counters.{cname}", cwant, S.ctr[names[cname]],
                               line(want, cname)))
            continue
        elif key == "globals":
            names = {n: i for i, (n, _) in enumerate(g.globals)}
            for gname, gwant in want.items():
                if gname not in names:
                    failures.append((line(want, gname), f"expect globals: no global "
                                                        f"'{gname}'"))
                    continue
                checks.append((f"globals.{gname}", gwant, S.g[names[gname]],
                               line(want, gname)))
            continue
        elif key in ("sizes", "zones"):
            for zname, zwant in want.items():
                if zname not in zones:
                    failures.append((line(want, zname), f"expect {key}: no zone '{zname}'"))
                    continue
                zd = zones[zname]
                if zd.groups:
                    # a zone of groups (melds): its groups, oldest first, each in canonical
                    # order (sizes: the size of each group), one such list per seat
                    per = [S.group_list(zd.first_id + p) for p in range(S.n)] \
                        if zd.per_player else [S.group_list(zd.first_id)]
                    zgot = [[len(gr) if key == "sizes" else
                             _cards(S, sorted(gr, key=g.tables.sort_key)) for gr in grs]
                            for grs in per]
                    checks.append((f"{key}.{zname}", _canon(zwant, g.tables),
                                   zgot if zd.per_player else zgot[0], line(want, zname)))
                    continue
                if zd.per_player:
                    lists = [S.zones[zd.first_id + p] for p in range(S.n)]
                    zgot: Any = ([len(x) for x in lists] if key == "sizes"
                                 else [_cards(S, x) for x in lists])
                else:
                    zl = S.zones[zd.first_id]
                    zgot = len(zl) if key == "sizes" else _cards(S, zl)
                checks.append((f"{key}.{zname}", _canon(zwant, g.tables), zgot, line(want, zname)))
            continue
        elif key == "eliminated":
            got = [p for p in range(S.n) if not S.active[p]]
            want = sorted(want)
        elif key == "to_move":
            got = S.current_player()
        elif key == "legal":
            # compared as canon_move keys (any case, 10 for T), shown as move texts
            texts = {canon_move(m): m for m in S.legal_moves()}
            wanted = {canon_move(str(m)): texts.get(canon_move(str(m))) or _move_text(str(m))
                      for m in want}
            want, got = sorted(wanted.values()), sorted(texts.values())
            if set(wanted) != set(texts):
                missing = sorted(wanted[k] for k in set(wanted) - set(texts))
                extra = sorted(texts[k] for k in set(texts) - set(wanted))
                parts = ([f"not legal: {_show(missing)}"] if missing else []) + \
                    ([f"legal too: {_show(extra)}"] if extra else [])
                notes["legal"] = f" ({'; '.join(parts)})"
        elif key == "dealer":
            got = S.dealer
        elif key == "round":
            got = S.round
        else:
            failures.append((at, f"expect: unknown key '{key}'"))
            continue
        checks.append((key, want, got, at))
    for key, want, got, at in checks:
        if not _eq(want, got):
            failures.append((at, f"expected {key} = {_show(want)}, got {_show(got)}"
                                 f"{notes.get(key, '')}"))
    if failures:
        failures.sort(key=lambda f: f[0])
        return Outcome(shown, False, failures[0][1], failures)
    return Outcome(shown, True)


def _eq(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(a - b) < 1e-9
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_eq(x, y) for x, y in zip(a, b))
    return a == b


def _show(x: Any) -> str:
    if isinstance(x, list):
        return "[" + ", ".join(_show(v) for v in x) + "]"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return "null" if x is None else str(x)


def find_scenarios(paths: list[str]) -> list[tuple[Path, str]]:
    out: list[tuple[Path, str]] = []
    for p in paths:
        pp = Path(p)
        if os.path.isdir(pp):  # false, not an error, for a name too long
            for f in sorted(pp.rglob("*.scenario.yaml")):
                out.append((f, str(f)))
        else:
            out.append((pp, p))
    return out
