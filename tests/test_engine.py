"""The Python API of the engine on Thirty-One: states, moves, views, clones, determinization."""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import IllegalMove, UsageError

from .helpers import rules_files

MAX_DECISIONS = 20_000


@pytest.fixture(scope="module")
def game() -> Any:
    return rulelang.load("thirty-one")


def zone_id(game: Any, name: str, seat: int = 0) -> int:
    zd = next(z for z in game.zones if z.name == name)
    return zd.first_id + (seat if zd.per_player else 0)


def names(state: Any, cards: list[int]) -> list[str]:
    return [state.game.tables.name[c] for c in cards]


def hand(state: Any, seat: int) -> list[str]:
    return names(state, state.zones[zone_id(state.game, "hand", seat)])


def fingerprint(state: Any) -> Any:
    """Everything observable about a state, deep-copied."""
    return copy.deepcopy({
        "zones": state.zones, "loc": state.loc, "face": state.face, "ctr": state.ctr,
        "g": state.g, "phase": state.phase, "turn": state.turn, "actor": state.actor,
        "status": state.status, "active": state.active, "history": state.history,
        "decisions": state.decisions, "round": state.round, "dealer": state.dealer,
        "legal": state.legal_moves(), "to_move": state.current_player(),
        "views": [state.view(p) for p in range(state.n)],
    })


def play_random(state: Any, seed: int, each: Callable[[Any], None] | None = None,
                limit: int = MAX_DECISIONS) -> list[str]:
    rng = random.Random(seed)
    moves = []
    while not state.is_over():
        assert len(moves) < limit, "the game did not end"
        legal = state.legal_moves()
        assert legal, "no legal move in a live state"
        mv = rng.choice(legal)
        state.apply(mv)
        moves.append(mv)
        if each is not None:
            each(state)
    return moves


# ---------------------------------------------------------------- loading and starting
def test_load_bundled_game(game: Any) -> None:
    assert game.name == "Thirty-One"
    assert (game.min_players, game.max_players, game.default_players) == (2, 7, 4)
    assert game.hand_evaluator == "hand_value"
    assert set(game.ended_by) >= {"blitz", "knock", "stock_exhausted"}


def test_load_by_path_and_options(game: Any) -> None:
    from .helpers import THIRTY_ONE

    g = rulelang.load(str(THIRTY_ONE), options={"lives": 3})
    s = g.new_state(3, seed=0)
    assert s.result()["counters"]["lives"] == [3, 3, 3]
    g = rulelang.load("thirty-one", options={"lives": "2", "blitz_after_knock": "true"})
    assert g.options == {"lives": 2, "blitz_after_knock": True, "throw_back": False}


@pytest.mark.parametrize("options", [{"livez": 3}, {"lives": "many"}, {"lives": 0},
                                     {"lives": 100}, {"blitz_after_knock": "maybe"}])
def test_bad_options(options: dict[str, Any]) -> None:
    with pytest.raises(UsageError):
        rulelang.load("thirty-one", options=options)


def test_unknown_game() -> None:
    with pytest.raises(rulelang.RulesError, match="did you mean 'thirty-one'"):
        rulelang.load("thirty-onw")


@pytest.mark.parametrize("players", [1, 8, -1, 100])
def test_players_out_of_range(game: Any, players: int) -> None:
    with pytest.raises(UsageError):
        game.new_state(players, seed=0)


def test_zero_players_is_an_error(game: Any) -> None:
    with pytest.raises(UsageError):
        game.new_state(0, seed=0)


def test_new_state(game: Any) -> None:
    for players in range(2, 8):
        for dealer in range(players):
            s = game.new_state(players, seed=players * 10 + dealer, dealer=dealer,
                               auto_continue=False)
            assert s.dealer == dealer
            if s.round_over():  # a 31 on the deal ends the round at once
                assert s.ended_by == "blitz"
                continue
            assert s.current_player() == (dealer + 1) % players  # the dealer's left plays first
            assert s.legal_moves() == ["draw stock", "draw discard", "knock"]
            assert [len(hand(s, p)) for p in range(players)] == [3] * players
            assert len(s.zones[zone_id(game, "discard")]) == 1
            assert len(s.zones[zone_id(game, "stock")]) == 52 - 3 * players - 1
            assert s.check_invariants() == []
            assert not s.is_over() and not s.round_over()


def test_bad_dealer(game: Any) -> None:
    with pytest.raises(UsageError):
        game.new_state(3, seed=0, dealer=3)


# ---------------------------------------------------------------- moves
def test_apply_and_phases(game: Any) -> None:
    s = game.new_state(3, seed=4, dealer=0)
    top = s.zones[zone_id(game, "stock")][0]
    s.apply("draw stock")
    assert s.current_player() == 1
    assert s.phase == "discard"
    h = hand(s, 1)
    assert game.tables.name[top] in h and len(h) == 4
    assert sorted(s.legal_moves()) == sorted(f"discard {c}" for c in h)
    s.apply(f"discard {h[0]}")
    assert s.current_player() == 2
    assert names(s, s.zones[zone_id(game, "discard")])[0] == h[0]
    assert s.history == [(1, "draw stock"), (1, f"discard {h[0]}")]


def test_moves_are_read_case_insensitively_and_with_10(game: Any) -> None:
    for seed in range(200):
        s = game.new_state(2, seed=seed, dealer=0)
        s.apply("DRAW Stock")
        tens = [c for c in hand(s, 1) if c.startswith("T")]
        if tens:
            s.apply("Discard 10" + tens[0][1].lower())
            assert names(s, s.zones[zone_id(game, "discard")])[0] == tens[0]
            return
    pytest.fail("no ten drawn in 200 deals")


def test_taken_card_cannot_go_straight_back(game: Any) -> None:
    s = game.new_state(3, seed=9, dealer=0)
    up = names(s, s.zones[zone_id(game, "discard")])[0]
    s.apply("draw discard")
    assert f"discard {up}" not in s.legal_moves()
    with pytest.raises(IllegalMove):
        s.apply(f"discard {up}")


@pytest.mark.parametrize("bad", ["stand", "discard AS", "draw", "fly", "", "draw  stock x",
                                 "knock knock", "draw discard please"])
def test_illegal_move_raises_and_leaves_state_unchanged(game: Any, bad: str) -> None:
    s = game.new_state(4, seed=3, dealer=1)
    before = fingerprint(s)
    with pytest.raises(IllegalMove):
        s.apply(bad)
    assert fingerprint(s) == before


def test_illegal_move_mid_game_leaves_state_unchanged(game: Any) -> None:
    s = game.new_state(4, seed=5, dealer=0)
    rng = random.Random(5)
    checked = 0
    while not s.is_over() and checked < 300:
        legal = s.legal_moves()
        me = s.current_player()
        others = [c for p in range(s.n) if p != me for c in hand(s, p)]
        for bad in ["stand" if "stand" not in legal else "knock",
                    f"discard {others[0]}" if others else "fly",
                    "draw stock" if s.phase == "discard" else "discard JK"]:
            if bad in legal:
                continue
            before = fingerprint(s)
            with pytest.raises(IllegalMove):
                s.apply(bad)
            assert fingerprint(s) == before
            checked += 1
        s.apply(rng.choice(legal))


def test_knock_gives_everyone_one_more_turn(game: Any) -> None:
    s = game.new_state(3, seed=2, dealer=0)
    s.apply("knock")  # P1 knocks
    assert s.current_player() == 2
    assert "stand" in s.legal_moves() and "knock" not in s.legal_moves()
    s.apply("stand")
    s.apply("stand")
    assert s.round >= 2 or s.is_over()
    assert s.round_results[0][0] == "knock"


# ---------------------------------------------------------------- views
class ViewChecker:
    """Checks every seat's view after each step: a card the seat has not seen this round (in
    another hand or in the stock) never appears in it. Cards seen earlier in the round (a
    discard later taken) may be named, and so may the cards of the cut for the first dealer
    (``cuts``), which every seat saw before they were put back and the first deal shuffled."""

    def __init__(self) -> None:
        self.round = -1
        self.seen: dict[int, set[int]] = {}

    def __call__(self, state: Any) -> None:
        if state.round != self.round:
            self.round = state.round
            self.seen = {p: set() for p in range(state.n)}
        for seat in range(state.n):
            self.seen[seat].update(c for c in range(state.ncards) if state.visible(c, seat))
        for seat in range(state.n):
            self.check(state, seat)

    def forbidden(self, state: Any, seat: int) -> set[str]:
        ids = [c for p in range(state.n) if p != seat
               for c in state.zones[zone_id(state.game, "hand", p)]]
        ids += state.zones[zone_id(state.game, "stock")]
        return {state.game.tables.name[c] for c in ids if c not in self.seen[seat]}

    def check(self, state: Any, seat: int) -> None:
        v = state.view(seat)
        assert v["cuts"] == state.view(0)["cuts"]  # the cut is public
        leaked = tokens({k: x for k, x in v.items() if k != "cuts"}) & self.forbidden(state, seat)
        assert not leaked, f"P{seat} sees {leaked}: {v}"
        assert v["zones"]["hand"][seat] == hand(state, seat)
        for p in range(state.n):
            if p != seat:
                assert set(v["zones"]["hand"][p]) <= {"?"}
        assert set(v["zones"]["stock"]) <= {"?"}
        assert len(v["zones"]["stock"]) == len(state.zones[zone_id(state.game, "stock")])
        discard = names(state, state.zones[zone_id(state.game, "discard")])
        assert v["zones"]["discard"][:1] == discard[:1]
        assert set(v["zones"]["discard"][1:]) <= {"?"}
        assert ("legal" in v) == (state.current_player() == seat)


def tokens(x: Any) -> set[str]:
    if isinstance(x, str):
        return set(x.replace(",", " ").split())
    if isinstance(x, dict):
        return set().union(*[tokens(k) | tokens(v) for k, v in x.items()]) if x else set()
    if isinstance(x, (list, tuple)):
        return set().union(*[tokens(v) for v in x]) if x else set()
    return set()


def test_view_hides_other_hands_and_stock(game: Any) -> None:
    for seed in range(3):
        s = game.new_state(4, seed=seed)
        checker = ViewChecker()
        checker(s)
        play_random(s, seed, each=checker)


def test_view_names_a_public_discard_later_taken(game: Any) -> None:
    s = game.new_state(3, seed=2, dealer=0)
    s.apply("draw stock")
    card = hand(s, 1)[0]
    s.apply(f"discard {card}")
    s.apply("draw discard")  # P2 takes it
    assert card in hand(s, 2)
    assert [2, "draw discard"] in [list(e) for e in s.view(0)["events"]]
    assert any(card in text for _, text in s.view(0)["events"])


def test_view_contents(game: Any) -> None:
    s = game.new_state(3, seed=1, dealer=1)
    v = s.view(2)
    assert v["seat"] == 2 and v["players"] == 3 and v["to_move"] == 2
    assert v["legal"] == s.legal_moves()
    assert v["counters"] == {"lives": [4, 4, 4]}
    assert v["status"] == "play"
    assert "legal" not in s.view(0)


# ---------------------------------------------------------------- clones
def test_clone_is_independent(game: Any) -> None:
    s = game.new_state(4, seed=11)
    rng = random.Random(0)
    for _ in range(7):
        s.apply(rng.choice(s.legal_moves()))
    before = fingerprint(s)
    c = s.clone()
    assert fingerprint(c) == before
    rng2 = random.Random(1)
    for _ in range(40):
        if c.is_over():
            break
        c.apply(rng2.choice(c.legal_moves()))
    assert fingerprint(s) == before
    # and the other way round
    c2 = s.clone()
    c2_before = fingerprint(c2)
    for _ in range(40):
        if s.is_over():
            break
        s.apply(rng2.choice(s.legal_moves()))
    assert fingerprint(c2) == c2_before


def test_clone_continues_identically(game: Any) -> None:
    s = game.new_state(3, seed=21)
    rng = random.Random(3)
    for _ in range(5):
        s.apply(rng.choice(s.legal_moves()))
    c = s.clone()
    a = play_random(s, 99)
    b = play_random(c, 99)
    assert a == b
    assert s.history == c.history
    assert s.result() == c.result()


# ---------------------------------------------------------------- determinism
def test_same_seed_same_moves_same_history(game: Any) -> None:
    for seed in (0, 7, 12345):
        s1, s2 = game.new_state(4, seed=seed), game.new_state(4, seed=seed)
        assert fingerprint(s1) == fingerprint(s2)
        m1 = play_random(s1, seed + 1)
        m2 = play_random(s2, seed + 1)
        assert m1 == m2
        assert s1.history == s2.history
        assert s1.result() == s2.result()
        assert s1.zones == s2.zones


def test_different_seeds_deal_differently(game: Any) -> None:
    deals = {tuple(tuple(hand(game.new_state(4, seed=k), p)) for p in range(4))
             for k in range(20)}
    assert len(deals) == 20


# ---------------------------------------------------------------- determinization
def check_determinize(s: Any, seat: int, seed: int) -> bool:
    """Visible cards stay where they are; the hidden ones are only permuted among the hidden
    places. Returns whether any hidden card moved."""
    before = fingerprint(s)
    d = s.determinize(seat, random.Random(seed))
    assert fingerprint(s) == before  # the original is untouched
    assert d.check_invariants() == []
    hidden_before: Counter[int] = Counter()
    hidden_after: Counter[int] = Counter()
    moved = False
    for z, (orig, new) in enumerate(zip(s.zones, d.zones)):
        assert len(orig) == len(new), f"zone {s.znames[z]} changed size"
        for c_old, c_new in zip(orig, new):
            if s.visible(c_old, seat):
                assert c_new == c_old, "a card the seat can see moved"
            else:
                hidden_before[c_old] += 1
                hidden_after[c_new] += 1
                assert not s.visible(c_new, seat), "a visible card was put in a hidden place"
                moved |= c_new != c_old
    assert hidden_before == hidden_after
    assert d.view(seat)["zones"] == s.view(seat)["zones"]
    assert d.phase == s.phase and d.current_player() == s.current_player()
    assert d.ctr == s.ctr
    if s.current_player() == seat:
        assert sorted(d.legal_moves()) == sorted(s.legal_moves())
    return moved


def test_determinize(game: Any) -> None:
    s = game.new_state(4, seed=8)
    rng = random.Random(8)
    moved_any = 0
    steps = 0
    while not s.is_over() and steps < 60:
        for seat in range(s.n):
            moved_any += check_determinize(s, seat, steps * 10 + seat)
        s.apply(rng.choice(s.legal_moves()))
        steps += 1
    assert moved_any > 0


def _reference_sample(s: Any, seat: int, rng: random.Random) -> list[list[int]]:
    """The zones of a sample as the plain definition makes it: every card ``visible`` does not
    show the seat, in order of card number (so that where they really lie cannot show), shuffled
    by ``random.shuffle`` among the places of those cards."""
    zones = [cs[:] for cs in s.zones]
    places = [(z, i) for z, cs in enumerate(zones) for i, c in enumerate(cs)
              if not s.visible(c, seat)]
    cards = sorted(zones[z][i] for z, i in places)
    rng.shuffle(cards)
    for (z, i), c in zip(places, cards):
        zones[z][i] = c
    return zones


@pytest.mark.parametrize("path", rules_files(), ids=lambda p: p.stem)
def test_determinize_samples_as_the_definition_does(path: Path) -> None:
    # determinize finds the unseen cards zone by zone and shuffles them without random.shuffle's
    # per-card call: it must give exactly the sample the definition gives, and draw the same
    # numbers from the bot's generator
    game = rulelang.load(str(path))
    s = game.new_state(game.default_players, seed=5)
    rng = random.Random(5)
    for step in range(40):
        if s.is_over():
            break
        for seat in range(s.n):
            r1, r2 = random.Random(step * 10 + seat), random.Random(step * 10 + seat)
            d = s.determinize(seat, r1)
            assert d.zones == _reference_sample(s, seat, r2)
            r2.random()  # what determinize draws to seed the sample's own generator
            assert r1.random() == r2.random()
        moves = s.legal_moves()
        s.apply(moves[rng.randrange(len(moves))])


def test_a_clone_draws_what_a_copy_of_the_generator_would(game: Any) -> None:
    # clone() copies the generator only when the clone or its original first draws from it
    s = game.new_state(4, seed=12)
    expected = random.Random()
    expected.setstate(s.rng.getstate())
    c1 = s.clone()
    c2 = c1.clone()
    a = [s.rng.random() for _ in range(3)]
    b = [c1.rng.random() for _ in range(3)]
    c = [c2.rng.random() for _ in range(3)]
    want = [expected.random() for _ in range(3)]
    assert a == b == c == want
    # and after a draw, the others are unaffected
    assert s.rng.random() == c1.rng.random() == expected.random()


def test_determinized_state_plays_on(game: Any) -> None:
    s = game.new_state(3, seed=30)
    d = s.determinize(0, random.Random(1))
    play_random(d, 2)
    assert d.is_over()


# ---------------------------------------------------------------- the end of a game
@pytest.mark.parametrize("players", [2, 4, 7])
def test_random_game_ends(game: Any, players: int) -> None:
    s = game.new_state(players, seed=players)
    play_random(s, players)
    assert s.is_over() and s.round_over()
    r = s.result()
    assert r["over"] is True
    assert isinstance(r["winner"], int) and 0 <= r["winner"] < players
    assert r["winner"] not in r["eliminated"]
    assert sorted(r["eliminated"] + [r["winner"]]) == list(range(players))
    assert r["rounds"] == s.round >= 1
    assert all(x >= 0 for x in r["counters"]["lives"])
    assert s.current_player() is None
    assert s.legal_moves() == []
    assert sum(s.returns()) == pytest.approx(1.0)
    assert s.returns()[r["winner"]] == 1.0
    assert s.check_invariants() == []
    with pytest.raises(IllegalMove):
        s.apply("draw stock")


def test_rounds_without_auto_continue(game: Any) -> None:
    s = game.new_state(3, seed=5, auto_continue=False)
    rng = random.Random(5)
    while not s.round_over():
        s.apply(rng.choice(s.legal_moves()))
    assert s.round == 1 and s.ended_by in game.ended_by
    assert s.current_player() is None and s.legal_moves() == []
    with pytest.raises(IllegalMove):
        s.apply("draw stock")
    if not s.is_over():
        s.next_round()
        assert s.round == 2 and s.current_player() is not None
        assert s.check_invariants() == []


# ---------------------------------------------------------------- what a view may reveal
PEEK = """\
name: Peek
extends: thirty-one
globals:
  peek: none
round:
  start:
    - gather(stock); shuffle(stock)
    - knocker = none; taken = none
    - deal(stock, hand, 3)
    - move(top(stock), discard)
    - peek = top(stock)
"""


def test_view_does_not_reveal_hidden_cards_through_globals(tmp_path: Any) -> None:
    p = tmp_path / "peek.yaml"
    p.write_text(PEEK, encoding="utf-8")
    g = rulelang.load(str(p))
    s = g.new_state(3, seed=0)
    top = s.zones[zone_id(g, "stock")][0]
    for seat in range(3):
        shown = s.view(seat)["globals"]["peek"]
        assert shown != top and shown != g.tables.name[top]
        assert g.tables.name[top] not in tokens(s.view(seat))


@pytest.mark.parametrize("path", rules_files(), ids=lambda p: p.stem)
def test_move_count_and_index_agree_with_the_texts(path: Any) -> None:
    # num_moves/apply_index find distinct moves without texts; they must be exactly the
    # moves legal_moves() lists, in the same order (several packs have equal cards)
    game = rulelang.load(str(path))
    rng = random.Random(7)
    for seed in range(3):
        s = game.new_state(game.default_players, seed=seed)
        a = s.clone()
        while not s.is_over() and s.decisions < 300:
            texts = a.legal_moves()
            assert s.num_moves() == len(texts)
            i = rng.randrange(len(texts))
            s.apply_index(i)
            a.apply(texts[i])
            assert s.history[-1] == a.history[-1]


def test_shuffle_deals_as_random_shuffle_does() -> None:
    # the engine's shuffle avoids random.shuffle's per-card call but must draw the same
    # numbers and give the same order: a seed deals the same cards as before
    from rulelang.engine import State

    for seed in range(100):
        for size in (0, 1, 2, 3, 52, 104, 128, 129, 1500):  # (written out up to 128)
            expected = list(range(size))
            r1 = random.Random(seed)
            r1.shuffle(expected)
            s = State.__new__(State)
            s.zones = [list(range(size))]
            s.rng = random.Random(seed)
            s.fx_shuffle(0)
            assert s.zones[0] == expected
            assert s.rng.random() == r1.random()


def test_next_seat_agrees_with_going_round_the_table() -> None:
    # next_seat finds the seat by bisection of the seats in play: it must give what stepping
    # seat by seat gives, for every table, set of eliminated seats, direction and start
    game = rulelang.load("thirty-one")
    for n in range(2, 8):
        for mask in range(1, 1 << n):
            st = game.new_state(n, seed=0, record=False)
            st.active = [bool(mask >> p & 1) for p in range(n)]
            st.seated = [p for p in range(n) if st.active[p]]
            for d in (1, -1):
                st.game = copy.copy(game)
                st.game.direction = d
                st.direction = d  # the state's own (reverse_direction() turns it round)
                for s in range(-2, n + 2):
                    for k in (1, 2):
                        r = s
                        for _ in range(k):
                            for _i in range(n):
                                r = (r + d) % n
                                if st.active[r]:
                                    break
                        assert st.next_seat(s, k) == r, (n, mask, d, s, k)


# ---------------------------------------------------------------- run-time errors, located
# Each variant passes check and then goes wrong while a game runs: the error names the rules
# text that ran (its line and column), the game and its seed, in the rules' own words.
RUN_TIME_ERRORS = [
    ("first-dealer-type", "match:\n  first_dealer: \"if num_players > 2 then [1] else 0\"\n",
     "if num_players", "match.first_dealer is a list of 1 item, not a seat"),
    ("first-dealer-range", "match:\n  first_dealer: num_players + 5\n",
     "num_players + 5", "match.first_dealer is 8, not a seat at this table (seats 0 to 2)"),
    ("round-first-type", "round:\n  first: \"if round > 0 then 'x' else 0\"\n",
     "if round", "round.first is 'x', not a seat"),
    ("next-dealer-type", "round:\n  next_dealer: \"if round > 0 then [dealer] else 0\"\n",
     "if round > 0", "round.next_dealer is a list of 1 item, not a seat"),
    ("seat-9-in-when", "phases:\n  draw:\n    actions:\n      knock:\n"
     "        when: \"knocker == none and size(hand[9]) > 0\"\n",
     "knocker == none and size", "hand[9]: there is no seat 9 at this table (seats 0 to 2)"),
    ("seat-9-in-args", "phases:\n  discard:\n    actions:\n      discard:\n"
     "        args: {c: \"hand[9]\"}\n", "hand[9]\"}", "there is no seat 9"),
    ("index-in-global", "globals:\n  knocker: \"[1, 2][5]\"\n", "[1, 2][5]",
     "index 5 is out of range"),
    ("index-in-match-over", "match:\n  over: \"[1, 2][5] == 1\"\n", "[1, 2][5] ==",
     "index 5 is out of range"),
    ("missing-value-table-entry", "functions:\n  hand_value(cards): \"card_points['X']\"\n",
     "hand_value(cards)", "value table 'card_points' has no entry for 'X'"),
    ("no-legal-move", "phases:\n  discard:\n    actions:\n      discard:\n"
     "        args: {c: \"hand[me]\"}\n        when: \"c == none\"\n", "actions:\n      discard",
     "no legal move for P1 in phase 'discard'"),
    ("work-in-when", "phases:\n  draw:\n    actions:\n      knock:\n        when: \"knocker == "
     "none and size(disjoint([stock for i in range(3000)], 3)) > 0\"\n", "knocker == none and",
     "looped more than"),
    ("work-in-args", "phases:\n  discard:\n    actions:\n      discard:\n        args: {c: "
     "\"disjoint([hand[me] for i in range(3000)], 3)\"}\n", "disjoint(", "looped more than"),
    ("python-type-error", "data:\n  rec: {a: [1]}\nglobals:\n  knocker: \"rec.a + 1\"\n",
     "rec.a + 1", "a value of the wrong kind here"),
    ("error-in-next", "phases:\n  draw:\n    actions:\n      draw stock:\n"
     "        next: \"if 1 // 0 > 0 then discard else discard\"\n", "if 1 // 0",
     "division by zero"),
    ("next-not-a-phase", "data:\n  where: nowhere\nphases:\n  draw:\n    actions:\n"
     "      draw stock:\n        next: \"if true then where else discard\"\n", "if true then",
     "next: 'nowhere' is not a phase"),
    ("show-minus-one", "round:\n  end: \"show(-1)\"\n", "show(-1)", "show(): -1 is not a card"),
    ("owner-of-no-card", "round:\n  end: \"knocker = owner(99999)\"\n", "knocker = owner",
     "owner(): 99999 is not a card"),
]


@pytest.mark.parametrize("case", RUN_TIME_ERRORS, ids=[c[0] for c in RUN_TIME_ERRORS])
def test_run_time_errors_name_the_rules_text_the_game_and_its_seed(
        tmp_path: Path, case: tuple[str, str, str, str]) -> None:
    from rulelang import sim
    from rulelang.errors import RuntimeRulesError

    name, text, anchor, fragment = case
    p = tmp_path / f"{name}.yaml"
    p.write_text("extends: thirty-one\n" + text, encoding="utf-8")
    game = rulelang.load(str(p))  # it passes check
    with pytest.raises(RuntimeRulesError) as info:
        sim.play_one(game, 3, ["random"] * 3, 5, 2)
    e = info.value
    src = p.read_text()
    at = src.index(anchor)
    line = src.count("\n", 0, at) + 1
    assert (e.span.path, e.span.line) == (str(p), line), e.render()
    assert fragment in e.message, e.message
    assert "in game 2 of the run" in e.message and "--seed 5 --games 3" in e.message
    assert not re.search(r"Error\b|int\(\)|NoneType|list index|\bargument\b", e.message), \
        e.message
    rendered = e.render().splitlines()
    assert rendered[0].startswith(f"{p}:{line}:") and rendered[2].strip() == "^"


# ---------------------------------------------------------------- procedures (issue 16)
PROCS = """extends: thirty-one
functions:
  all(xs): first(xs)
  lead(cards): all(c.order > 5 for c in cards)
procedures:
  put(c, z):
    - move(c, z)
  show(c):
    - put(c, TARGET)
phases:
  discard:
    actions:
      discard:
        do: show(c)
"""


def test_a_procedure_hides_a_built_in_and_takes_a_zone(tmp_path: Path) -> None:
    """A procedure named like a built-in (show) is the one an effect line calls (and a function
    named like one, all, the one an expression calls, its results remembered by the cards' order
    where that matters); a zone passed to a procedure is a target for move, while a copy of a
    zone is no zone: a located error."""
    from rulelang.errors import RuntimeRulesError

    for target in ("discard", "hand[next_seat(me)]", "discard + []"):
        p = tmp_path / "procs.yaml"
        p.write_text(PROCS.replace("TARGET", target), encoding="utf-8")
        s = rulelang.load(str(p)).new_state(3, seed=1)
        # the function all, not the built-in: the order of the cards given to lead matters
        ids = s.game.tables.ids_by_name()
        lead, cards = s.game.functions["lead"].fn, [ids["AS"][0], ids["2S"][0]]
        assert lead(s, cards) is True and lead(s, cards[::-1]) is False
        s.apply("draw stock")
        card = hand(s, s.current_player())[0]
        mover = s.current_player()
        if target == "discard + []":
            with pytest.raises(RuntimeRulesError) as info:
                s.apply(f"discard {card}")
            assert "a list that is no zone" in info.value.message
            line = PROCS.splitlines().index("    - move(c, z)") + 1
            assert (info.value.span.path, info.value.span.line) == (str(p), line)
            continue
        s.apply(f"discard {card}")
        assert card not in hand(s, mover)
        into = names(s, s.zones[zone_id(s.game, "discard")]) if target == "discard" else \
            hand(s, (mover + 1) % 3)
        assert into[0] == card
