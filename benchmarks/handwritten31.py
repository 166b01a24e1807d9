"""Hand-written, speed-optimised Thirty-One with uniformly random agents.

This is a *yardstick* for the rulelang interpreter, not part of the engine: it plays exactly
the rules of ``games/thirty-one.yaml`` (standard Thirty-One with lives, knocking and blitzing)
as fast as plain CPython reasonably allows, so that the interpreter's decisions per second can
be compared against "what a good hand-written simulator does on the same machine".

Speed choices (none of them change the rules or the distribution of play):

* Cards are ints 0..51, ``card = rank_index * 4 + suit_index`` (ranks 2..A low to high, suits
  S H D C); hand values come from a precomputed table indexed by the ordered 3-card triple.
* The shuffle is lazy: ``deck[:n]`` is the (unordered) stock and every card taken from it is
  drawn uniformly at random by a partial Fisher-Yates step.  Drawing uniformly from an
  unordered stock is the same distribution as shuffling the pack and dealing from the top,
  and it saves shuffling the cards that nobody ever draws.
* Random choices use ``getrandbits`` with rejection, so every choice is exactly uniform among
  the legal moves (no float rounding bias).
* Only the top of the discard pile matters for play, but the whole pile is kept (drawing from
  it exposes the card beneath).
* The whole game loop lives in one function so that everything hot is a local variable.

A *decision* is one choice among the legal moves of the player to act (forced choices would
count too; in Thirty-One there never are any).  A turn is one decision (knock, stand) or two
(draw, then discard).

Run ``python benchmarks/handwritten31.py --games 20000`` to measure; ``--check`` turns on a
slow path that asserts invariants (card conservation, hand sizes, hand-value table) at every
decision (plain ``assert``s, so not under ``python -O``).  The check path consumes exactly the
same random numbers, so it gives identical results for the same seed.
"""

from __future__ import annotations

import argparse
import random
import time

RANKS = "23456789TJQKA"
SUITS = "SHDC"
N_CARDS = 52
HAND_SIZE = 3
TARGET = 31
START_LIVES = 4
MIN_PLAYERS = 2
MAX_PLAYERS = 7
FIRST_TEN = 8 * 4  # first card worth 10 or more (the ten of spades); only these can complete 31

ENDED_BY = ("blitz", "knock", "stock_exhausted")


def card_name(card: int) -> str:
    """Human-readable name of an int-encoded card, e.g. 51 -> 'AC'."""
    return RANKS[card >> 2] + SUITS[card & 3]


def _card_points(card: int) -> int:
    rank = card >> 2  # 0 = two ... 8 = ten, 9..11 = J Q K, 12 = ace
    if rank == 12:
        return 11
    return min(rank + 2, 10)


CARD_POINTS: tuple[int, ...] = tuple(_card_points(c) for c in range(N_CARDS))


def hand_value(cards: list[int] | tuple[int, ...]) -> int:
    """Reference hand value: the best single-suit sum of the cards (slow; used to build tables)."""
    per_suit = [0, 0, 0, 0]
    for c in cards:
        per_suit[c & 3] += CARD_POINTS[c]
    return max(per_suit)


def _build_hand_value_table() -> list[int]:
    """HAND_VALUE[(a * 52 + b) * 52 + c] = value of the hand {a, b, c} (any order)."""
    table = [0] * (N_CARDS**3)
    pts = CARD_POINTS
    for a in range(N_CARDS):
        pa, sa = pts[a], a & 3
        for b in range(N_CARDS):
            pb, sb = pts[b], b & 3
            pab = pa + pb if sa == sb else max(pa, pb)
            base = (a * N_CARDS + b) * N_CARDS
            for c in range(N_CARDS):
                pc, sc = pts[c], c & 3
                if sc == sa:
                    v = pa + pc + (pb if sb == sa else 0)
                    if sb != sa and pb > v:
                        v = pb
                elif sc == sb:
                    v = pb + pc
                    if pa > v:
                        v = pa
                else:
                    v = pab if pab > pc else pc
                table[base + c] = v
    return table


HAND_VALUE: list[int] = _build_hand_value_table()

# BITS_BELOW[n] = number of random bits needed to draw uniformly from range(n) by rejection.
BITS_BELOW: tuple[int, ...] = tuple(max(0, (n - 1).bit_length()) for n in range(N_CARDS + 1))


def _check_state(
    deck: list[int], n: int, pile: list[int], hands: list[list[int]], n_active: int
) -> None:
    """Slow invariant check used by --check: every card is in exactly one place."""
    assert sorted(deck) == list(range(N_CARDS)), "deck array is no longer a permutation"
    assert pile, "discard pile empty at the start of a turn"
    held = [c for p in range(n_active) for c in hands[p]]
    assert all(len(hands[p]) == HAND_SIZE for p in range(n_active)), "hand size changed"
    placed = deck[:n] + pile + held
    assert sorted(placed) == list(range(N_CARDS)), f"cards not conserved: {sorted(placed)}"
    for p in range(n_active):
        h = hands[p]
        assert HAND_VALUE[(h[0] * N_CARDS + h[1]) * N_CARDS + h[2]] == hand_value(h)


def play_games(n_games: int, players: int = 4, seed: int = 0, check: bool = False) -> dict:
    """Play ``n_games`` games of Thirty-One between ``players`` random agents.

    Returns {"games", "rounds", "decisions", "ended_by": {reason: rounds},
    "winners": {seat: games}}.  With ``check=True`` invariants are asserted at every decision
    (slow, same results).
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {players}")
    rng = random.Random(seed)
    getrandbits = rng.getrandbits
    bits_below = BITS_BELOW
    value = HAND_VALUE

    deck = list(range(N_CARDS))  # deck[:n] is the stock; deck[n:] holds cards taken out
    pile: list[int] = []  # discard pile, top = pile[-1]
    hands = [[0, 0, 0] for _ in range(players)]  # indexed by position in `active`
    rounds = decisions = 0
    n_blitz = n_knock = n_exhausted = 0
    wins = [0] * players

    for _game in range(n_games):
        lives = [START_LIVES] * players
        active = list(range(players))  # seats still in the game, clockwise
        dealer = 0
        while len(active) > 1:
            rounds += 1
            na = len(active)
            # --- deal: 3 cards each, then one face up; the rest is the stock -------------
            n = N_CARDS
            for p in range(na):
                h = hands[p]
                for k in range(HAND_SIZE):
                    j = getrandbits(bits_below[n])
                    while j >= n:
                        j = getrandbits(bits_below[n])
                    n -= 1
                    c = deck[j]
                    deck[j] = deck[n]
                    deck[n] = c
                    h[k] = c
            j = getrandbits(bits_below[n])
            while j >= n:
                j = getrandbits(bits_below[n])
            n -= 1
            c = deck[j]
            deck[j] = deck[n]
            deck[n] = c
            pile.clear()
            pile.append(c)

            # losses[p] = lives lost by the player at position p this round
            losses: list[int] | None = None
            blitzers = [
                p
                for p in range(na)
                if value[(hands[p][0] * 52 + hands[p][1]) * 52 + hands[p][2]] == TARGET
            ]
            if blitzers:
                n_blitz += 1
                losses = [1] * na
                for p in blitzers:
                    losses[p] = 0

            pos = active.index(dealer) + 1  # play starts at the dealer's left
            if pos == na:
                pos = 0
            knocker = -1
            while losses is None:
                if check:
                    _check_state(deck, n, pile, hands, na)
                # --- first decision of the turn ------------------------------------------
                # r: 0 = draw stock, 1 = draw discard, 2 = knock (before) / stand (after)
                if knocker < 0:
                    if n == 0:
                        n_exhausted += 1
                        losses = [0] * na
                        break
                    r = getrandbits(2)  # stock is non-empty, nobody knocked: 3 moves
                    while r == 3:
                        r = getrandbits(2)
                    if r == 2:
                        decisions += 1
                        knocker = pos
                        pos += 1
                        if pos == na:
                            pos = 0
                        continue
                else:
                    if pos == knocker:  # everyone else has had their last turn: showdown
                        n_knock += 1
                        vals = [
                            value[(hands[p][0] * 52 + hands[p][1]) * 52 + hands[p][2]]
                            for p in range(na)
                        ]
                        low = min(vals)
                        losses = [0] * na
                        if vals[knocker] == low:
                            losses[knocker] = 2
                        else:
                            for p in range(na):
                                if vals[p] == low:
                                    losses[p] = 1
                        break
                    if n:
                        r = getrandbits(2)  # draw stock, draw discard, stand
                        while r == 3:
                            r = getrandbits(2)
                    else:
                        r = getrandbits(1) + 1  # draw discard, stand
                    if r == 2:
                        decisions += 1
                        pos += 1
                        if pos == na:
                            pos = 0
                        continue
                # --- second decision: discard one card -----------------------------------
                decisions += 2
                h = hands[pos]
                if r == 0:  # drew from the stock: any of the 4 cards may go
                    j = getrandbits(bits_below[n])
                    while j >= n:
                        j = getrandbits(bits_below[n])
                    n -= 1
                    c = deck[j]
                    deck[j] = deck[n]
                    deck[n] = c
                    i = getrandbits(2)  # 0..2 = a held card, 3 = the card just drawn
                    if i == 3:
                        pile.append(c)  # hand unchanged, so it cannot have become 31
                        c = -1
                    else:
                        pile.append(h[i])
                        h[i] = c
                else:  # drew the top discard: it must be kept, one of the 3 old cards goes
                    c = pile.pop()
                    i = getrandbits(2)
                    while i == 3:
                        i = getrandbits(2)
                    pile.append(h[i])
                    h[i] = c
                if (
                    knocker < 0
                    and c >= FIRST_TEN
                    and value[(h[0] * 52 + h[1]) * 52 + h[2]] == TARGET
                ):
                    n_blitz += 1  # only this hand changed, so it is the only blitzer
                    losses = [1] * na
                    losses[pos] = 0
                    break
                pos += 1
                if pos == na:
                    pos = 0

            # --- apply losses, eliminate, pass the deal ----------------------------------
            eliminated = False
            for p in range(na):
                lost = losses[p]
                if lost:
                    s = active[p]
                    if lives[s] < lost:
                        eliminated = True
                        lives[s] = -1  # marks "out of the game"
                    else:
                        lives[s] -= lost
            if eliminated:
                active = [s for s in active if lives[s] >= 0]
                d = dealer
                for _ in range(players):
                    d = d + 1 if d + 1 < players else 0
                    if lives[d] >= 0:
                        break
                dealer = d
            else:
                d = active.index(dealer) + 1
                dealer = active[d if d < na else 0]
        if check:
            assert len(active) == 1, "game ended without exactly one survivor"
        wins[active[0]] += 1

    return {
        "games": n_games,
        "rounds": rounds,
        "decisions": decisions,
        "ended_by": {"blitz": n_blitz, "knock": n_knock, "stock_exhausted": n_exhausted},
        "winners": dict(enumerate(wins)),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="number of games (default 2000)")
    parser.add_argument("--players", type=int, default=4, help="players, 2..7 (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--check", action="store_true", help="assert invariants at every decision (slow)"
    )
    args = parser.parse_args(argv)

    start = time.perf_counter()
    res = play_games(args.games, args.players, args.seed, check=args.check)
    elapsed = time.perf_counter() - start

    games, rounds, decisions = res["games"], res["rounds"], res["decisions"]
    print(f"games      {games}  players {args.players}  seed {args.seed}  check {args.check}")
    print(f"rounds     {rounds}  ({rounds / max(games, 1):.2f} per game)")
    print(f"decisions  {decisions}  ({decisions / max(rounds, 1):.2f} per round)")
    print(f"time       {elapsed:.3f} s")
    print(f"decisions/s {decisions / elapsed:,.0f}")
    print(f"rounds/s    {rounds / elapsed:,.0f}")
    ended = ", ".join(f"{k} {v} ({v / max(rounds, 1):.1%})" for k, v in res["ended_by"].items())
    print(f"ended_by   {ended}")
    winners = ", ".join(f"{k}: {v / max(games, 1):.1%}" for k, v in res["winners"].items())
    print(f"winners    {winners}")


if __name__ == "__main__":
    main()
