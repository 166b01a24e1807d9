"""Legal-move listing stays exact while it gets faster: the generated loops of actions with
several arguments list what the engine's own enumeration lists, in its order; distinct moves
(several packs) are those of the move texts; and a call lifted out of a comprehension
(``hoist.py``) gives the same values and the same errors, made only where it was reached.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import RuntimeRulesError
from rulelang.groups import Group
from rulelang.movetext import canon_move

from .helpers import fresh_load, rules_files

GAMES = rules_files()


def _plain(v: Any) -> Any:
    """A value to compare entries by: a group on the table is itself, not its cards."""
    if isinstance(v, Group):
        return ("group", v.zid)
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def _enumerate_args(s: Any, action: Any, out: list) -> None:
    """An action's entries by recursion over its compiled closures (the first engine's way)."""
    F: list[Any] = [None] * action.nslots
    when, args = action.when, action.args
    slots = [a[3] for a in args]

    def rec(i: int) -> None:
        if i == len(args):
            if when is None or when(s, F):
                out.append((action, tuple(F[k] for k in slots)))
            return
        opts = args[i][1](s, F)
        for v in opts if isinstance(opts, list) else [opts]:
            F[slots[i]] = v
            rec(i + 1)

    rec(0)


def _reference(s: Any) -> list[tuple[str, Any]]:
    """The phase's legal entries as a recursion over the compiled closures lists them."""
    out: list = []
    for a in s.game.phases[s.phase].actions:
        if a.args:
            _enumerate_args(s, a, out)
        elif a.when is None or a.when(s, [None] * max(a.nslots, 1)):
            out.append((a, ()))
    return [(a.name, _plain(list(args))) for a, args in out]


def _by_text(s: Any) -> list[tuple[str, Any]]:
    """The first entry of each move text, as ``legal_moves()`` keeps them."""
    seen: set[str] = set()
    out = []
    for a, args in s._entries:
        k = canon_move(s.move_text(a, args))
        if k not in seen:
            seen.add(k)
            out.append((a.name, _plain(list(args))))
    return out


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_generated_listing_and_distinct_moves_agree_with_the_reference(path: Path) -> None:
    game = rulelang.load(str(path))
    rng = random.Random(11)
    sizes = sorted({game.min_players, game.default_players, game.max_players})
    for k, n in enumerate(sizes):
        s = game.new_state(n, seed=k, record=False)
        while not s.is_over() and s.decisions < 250:
            if s.status == "play":
                listed = game.phases[s.phase].legal(s)
                assert [(a.name, _plain(list(args))) for a, args in listed] == _reference(s)
                s._compute_legal()
                assert [(a.name, _plain(list(args))) for a, args in s._distinct()] == \
                    _by_text(s)
            s.apply_index(rng.randrange(s.num_moves()))


GAME = """\
name: Hoisting
players: {{min: 2, max: 4, default: 3}}
deck: {{ranks: [2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A], suits: [S, H, D, C]}}
zones:
  stock: {{visibility: hidden, home: true}}
  hand: {{per_player: true, visibility: owner}}
counters:
  c: 0
functions:
  # reads the game (so it is neither remembered nor pure) and is too big to be inlined
  best(p): >-
    let h = hand[p]; let n = size(h);
    [x for x in h if x.order >= max([y.order for y in h] + [0]) - c[p] - (if n > 99 then 1 else 0)
                 and (x.suit == 'S' or x.suit == 'H' or x.suit == 'D' or x.suit == 'C')]
  boom(p): 10 // (c[p] - c[p])
  lifted(p): '[x for x in hand[p] if x in best(p)]'
  kept(p): '[x for x in hand[p] if x in best(p) and x == x]'
  unlifted(p): '[x for x in hand[p] if (let q = p; x in best(q))]'
  {extra}
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 5)"]
  settle: {{done: pass}}
phases:
  play:
    actions:
      go:
        args: {{x: "{arg}"}}
        do: end_round('done')
"""


def _load(tmp_path: Path, extra: str = "") -> Any:
    path = tmp_path / "g.yaml"
    path.write_text(GAME.format(arg="hand[me]", extra=extra), encoding="utf-8")
    return rulelang.load(str(path))


def test_a_lifted_call_gives_what_the_call_in_place_gives(tmp_path: Path) -> None:
    game = _load(tmp_path)
    f = game.functions
    for seed in range(30):
        s = game.new_state(3, seed=seed, record=False)
        for p in range(3):
            s.ctr[0][p] = seed % 5
            # unlifted's call names q, bound inside the comprehension: it stays in place
            assert f["lifted"].fn(s, p) == f["kept"].fn(s, p) == f["unlifted"].fn(s, p)
            assert f["lifted"].fn(s, p) == [x for x in s.zones[1 + p] if x in f["best"].fn(s, p)]


def test_a_lifted_call_is_made_only_where_it_was_reached(tmp_path: Path) -> None:
    # boom() divides by zero: lifted out of the loop it must still not run over an empty
    # list or behind a condition that is false, and must raise where it is reached
    cases = [("[x for x in [] if x in [boom(p)]]", False),
             ("[x for x in hand[p] if x.order > 99 and boom(p) > 0]", False),
             ("[x for x in hand[p] if (if x.order > 99 then boom(p) else 1) > 0]", True),
             ("[x for x in hand[p] if x in [boom(p)]]", None)]
    for expr, whole_hand in cases:
        game = _load(tmp_path, extra=f"probe(p): '{expr}'")
        s = game.new_state(3, seed=1, record=False)
        probe = game.functions["probe"].fn
        if whole_hand is None:
            with pytest.raises(RuntimeRulesError, match="division by zero"):
                probe(s, s.actor)
        else:
            assert probe(s, s.actor) == (list(s.zones[1 + s.actor]) if whole_hand else [])


def test_a_lifted_call_is_made_afresh_on_each_pass(tmp_path: Path) -> None:
    # an inner comprehension runs once per item of the outer one: its lifted call reads the
    # outer variable, so it must be made again for each pass, not kept from the first
    game = _load(tmp_path, extra=("probe(q): '[[y for y in hand[q] if y in best(p)] "
                                  "for p in players]'"))
    s = game.new_state(3, seed=4, record=False)
    s.ctr[0] = [0, 3, 12]
    got = game.functions["probe"].fn(s, 0)
    best = game.functions["best"].fn
    assert got == [[y for y in s.zones[1] if y in best(s, p)] for p in range(3)]
    assert got[0] != got[2]


KEYED = """\
name: Keys
players: {min: 2, max: 3, default: 2}
deck: {ranks: [2, 3, 4, 5], suits: [S, H], copies: 2}
zones:
  stock: {visibility: hidden, home: true}
  pile: {visibility: top}
  hand: {per_player: true, visibility: owner}
  melds: {per_player: true, groups: true, visibility: public}
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 4)", "move(top(stock), pile)",
          "move(top(stock), pile)", "meld(hand[0][:1], melds[0])"]
  settle: {done: pass}
phases:
  play:
    actions:
      lay:
        args: {m: "[[c, d] for c in hand[me] for d in hand[me]] + [[c] for c in stock]"}
        do: end_round('done')
      show:
        args: {m: "[[[c], [d]] for c in hand[me] for d in hand[me] + pile]"}
        do: end_round('done')
      add:
        args: {g: "[g for p in players for g in melds[p]]", c: "hand[me] + pile + stock"}
        do: end_round('done')
      put:
        args: {c: "hand[me] + pile", d: "pile + stock"}
        do: end_round('done')
"""


def test_distinct_moves_of_melds_groups_and_hidden_cards_are_those_of_the_texts(
        tmp_path: Path) -> None:
    """Entries keyed from tables (lists of cards, melds, groups) are one move exactly when
    their texts are; a card the mover cannot see (deep in a pile, in the stock) is named by
    its place, so entries holding one are keyed by their text."""
    path = tmp_path / "g.yaml"
    path.write_text(KEYED, encoding="utf-8")
    game = rulelang.load(str(path))
    for seed in range(6):
        s = game.new_state(2, seed=seed, record=False)
        s._compute_legal()
        got = [(a.name, _plain(list(args))) for a, args in s._distinct()]
        assert got == _by_text(s)
        assert len(got) < len(s._entries)  # equal cards of the two packs were one move


def test_options_that_repeat_a_move_are_counted_once(tmp_path: Path) -> None:
    # one pack, but `keep`'s two options are the same three cards once the hand holds three
    # (found by the fuzzer): num_moves() counted both, legal_moves() one, and a bot's index
    # fell off the end of the list
    p = tmp_path / "keep-always.yaml"
    p.write_text("extends: thirty-one-switch\nphases:\n  draw:\n    actions:\n"
                 "      keep:\n        when: 'true'\n", encoding="utf-8")
    game = rulelang.load(str(p))
    assert not game.moves_distinct
    assert rulelang.load("thirty-one").moves_distinct  # zones, each read once: no check
    rng = random.Random(3)
    repeats = 0
    for seed in range(4):
        s = game.new_state(None, seed=seed, record=False)
        for _ in range(60):
            if s.is_over():
                break
            texts = s.legal_moves()
            assert s.num_moves() == len(texts) == len(set(texts))
            repeats += sum(1 for t in texts if t.startswith("keep"))
            s.apply_index(int(rng.random() * s.num_moves()))
    assert repeats


WORDS = """\
name: Words
players: {{min: 2, max: 3, default: 2}}
deck: {{ranks: [2, 3, 4, 5], suits: [S, H]{copies}}}
zones:
  stock: {{visibility: hidden, home: true}}
  hand: {{per_player: true, visibility: owner}}
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 3)"]
  settle: {{done: pass}}
phases:
  play:
    actions:
      ask:
        args: {{p: "[q for q in players] + [me]", r: "['Q', 'q', 'a b', 'a', '', 'QS', 'qs', '7']"}}
        do: end_round('done')
      bid:
        args: {{n: "[3, 3, 1, 2, 1, 0]", m: "[c.rank for c in hand[me]] + ['x']"}}
        do: end_round('done')
      lay:
        args: {{m: "[[c for c in hand[me] if c.rank != r] for r in ['2', '3', '4', '5']]"}}
        do: end_round('done')
"""


@pytest.mark.parametrize("copies", ["", ", copies: 2"])
def test_moves_of_seats_numbers_and_words_are_told_apart_as_their_texts(
        tmp_path: Path, copies: str) -> None:
    """Entries of seats, numbers, words (in any case, with spaces, empty, a card's name) and
    lists of cards are keyed without their texts, and are one move exactly when the texts
    are, with one pack and with two."""
    path = tmp_path / "w.yaml"
    path.write_text(WORDS.format(copies=copies), encoding="utf-8")
    game = rulelang.load(str(path))
    for seed in range(4):
        s = game.new_state(2, seed=seed, record=False)
        s._compute_legal()
        assert s.num_moves() == len(s.legal_moves()) == len(set(s.legal_moves()))
        assert [(a.name, _plain(list(args))) for a, args in s._distinct()] == _by_text(s)


def test_keys_remembered_by_arguments_never_join_equal_numbers_of_other_types() -> None:
    """``drop_repeats`` remembers the key of the arguments of numbers and words it made; 1.0
    and True are equal to 1 as dict keys, so they must not take 1's key (the same entries are
    kept the first time and when the keys come from memory)."""
    from types import SimpleNamespace

    from rulelang.movekeys import drop_repeats

    action = SimpleNamespace(name="bid", distinct=False, args=[("n", None, "int", 0)])
    state = SimpleNamespace(ncards=52, move_key=lambda a, args: f"{a.name} {args[0]!r}")
    entries = [(action, (v,)) for v in (1, 1.0, True, 1, 2, 2.0, 2)]
    first = drop_repeats(state, entries)
    assert [args for _a, args in first] == [(1,), (1.0,), (True,), (2,), (2.0,)]
    assert [args for _a, args in drop_repeats(state, entries)] == \
        [args for _a, args in first]


def test_options_proved_distinct_through_functions_lets_and_ifs() -> None:
    """``argopts.options_distinct`` follows ``if``, ``let``, rules functions, ``distinct()``,
    ``sort()`` and lists of at most one item; names inside a function body or a ``let`` are
    never trusted (a local may hide the seats or a zone)."""
    from rulelang.argopts import Known, options_distinct
    from rulelang.parse import parse
    from rulelang.scope import UserFn

    span = rulelang.errors.Span("t.yaml", 1, 1, "")
    zones = {"hand": (1, True), "stock": (0, False)}

    def fn(name: str, params: tuple[str, ...], body: str) -> UserFn:
        return UserFn(name, params, span, False, tree=parse(body, "expr", span))

    functions = {f.name: f for f in [
        fn("sizes", ("p",), "let t = p + 1; if t > 3 then [t] else sort(distinct([t, 2, t]))"),
        fn("seats_of", ("players",), "players"),
        fn("repeats", ("p",), "[p, p]"),
        fn("deeper", ("p",), "if p > 0 then sizes(p) else []")]}

    def ok(text: str, typ: str = "int") -> bool:
        return options_distinct(parse(text, "expr", span), typ, zones, Known(functions, {}))

    assert ok("if 1 > 0 then sizes(2) else []")
    assert ok("deeper(3)")
    assert ok("sort(distinct([1, 1, 2]), desc: true)")
    assert ok("[x + 1]") and ok("[]")
    assert ok("if true then hand[me] else []", "card")
    assert not ok("distinct(['a', 'A'])", "str")  # texts that differ may be one move
    assert not ok("seats_of([1, 1])", "seat")  # a parameter named like the seats
    assert not ok("let players = [1, 1]; players", "seat")
    assert not ok("repeats(1)")
    assert not ok("if true then [1, 1] else []")
    assert rulelang.load("texas-holdem").moves_distinct


@pytest.mark.parametrize("name", ["spades", "euchre"])
def test_calls_of_a_when_that_no_option_changes_are_made_once_per_listing(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``can_play(me, c)``: ``any(hand[p], x -> x.suit == led)`` inside it is the same for
    every card, so a listing makes it once and charges its work again each time it is
    reached (hoist.py; charged at the listing's end, listdebt.py): the same moves and the same
    work as making it for each card."""
    import rulelang.buildphase as bp
    from rulelang.hoist import held_again

    def play(game: Any) -> list[tuple[int, int]]:
        out = []
        for seed in range(3):
            rng = random.Random(seed)
            s = game.new_state(None, seed=seed, record=False)
            for _ in range(60):
                if s.is_over():
                    break
                n = s.num_moves()
                out.append((n, s.work_done))
                s.apply_index(int(rng.random() * n))
        return out

    def holds(game: Any) -> bool:
        return any(held_again in ph.legal.__globals__.values() for ph in game.phases.values())

    held = fresh_load(name)
    monkeypatch.setattr(bp, "when_invariant_calls", lambda tree, variant: ([], {}))
    plain = fresh_load(name)
    assert holds(held) and not holds(plain)
    assert play(held) == play(plain)


def test_a_held_call_that_only_reads_the_game_is_read_again() -> None:
    """Switch's ``playing()`` in a when inlines to ``(S.turns > 0) or S.g[2]``: no call, no
    loop, no work, so reading it again costs less than keeping it (hoist.plain_src)."""
    from rulelang.hoist import held_again, plain_src

    assert plain_src("((S.turns > 0) or S.g[2])") and plain_src("(_k6[F[0]] == _k38)")
    assert not any(plain_src(s) for s in ("_k19(S.zones[1])", "(S.g[0])(1)", "WORK[0] - 1",
                                          "[c for c in S.zones[1]]", "S.fx_move(c)"))
    game = rulelang.load("thirty-one-switch")
    assert held_again not in game.phases["draw"].legal.__globals__.values()
