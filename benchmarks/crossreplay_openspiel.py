"""Cross-engine replays against OpenSpiel: Hearts, Gin Rummy, Crazy Eights, Blackjack.

    python -m benchmarks.crossreplay_openspiel --games 1000            # all four, 1,000 each
    python -m benchmarks.crossreplay_openspiel hearts --games 50 --seed 7 --json

Each game is played at random in OpenSpiel and replayed in rulelang in lockstep (see
``openspiel_replay``): every legal-move set and every final return are compared. The options
of both sides, the restrictions where the rules cannot be made to match, and what the full
runs found are in docs/environments.md ("Cross-engine replays"). Exit status 1 when any game
disagreed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import Any

import pyspiel

from .openspiel_replay import Replay, Tally, counter, groups, rl_game, run, zone

SUITS_CDHS = "CDHS"
RANKS_2A = "23456789TJQKA"


def _deck(rp: Replay, names: list[str]) -> list[str]:
    deck = list(names)
    rp.rng.shuffle(deck)
    return deck


def _rank_suit_cards() -> list[str]:
    return [r + s for r in RANKS_2A for s in SUITS_CDHS]


# --------------------------------------------------------------------------------- Hearts
# OpenSpiel's card i is rank i // 4 (2..A), suit i % 4 (C D H S); its text is rulelang's.
HEARTS_OS = {"qs_breaks_hearts": True, "jd_bonus": False, "avoid_all_tricks_bonus": False,
             "can_lead_any_club": False, "pass_cards": True, "no_pts_on_first_trick": True,
             "must_break_hearts": True, "can_lead_hearts_instead_of_qs": False}
# OpenSpiel's Q♠ breaks hearts (its default); its moon adds 26 to the others
HEARTS_RL = {"queen_breaks_hearts": True, "moon": "add", "first_trick_points": False}
# OpenSpiel's pass direction (its first chance outcome) -> rulelang's hands_played, whose
# rotation is left, right, across, none; OpenSpiel passes to (seat + direction) % 4
HEARTS_PASS = {1: 0, 3: 1, 2: 2, 0: 3}


def hearts(rp: Replay) -> None:
    game = pyspiel.load_game("hearts", HEARTS_OS)
    s = game.new_initial_state()
    direction = rp.rng.randrange(4)
    s.apply_action(direction)
    deck = _deck(rp, _rank_suit_cards())
    for name in deck:  # OpenSpiel deals card k to seat k % 4
        s.apply_action(_os_card(name))
    hands = [deck[p::4] for p in range(4)]
    # OpenSpiel's seat 0 passes first and the 2♣ leads: rulelang's first passer is the
    # dealer's left, so the dealer is seat 3
    S = rl_game("hearts", HEARTS_RL).new_state(
        4, seed=rp.seed, dealer=3, start={"hands_played": HEARTS_PASS[direction]},
        deal={"hand": hands}, auto_continue=False)
    decisions = 0
    while not s.is_terminal():
        p = s.current_player()
        legal = s.legal_actions()
        # with a pass, OpenSpiel's first 12 decisions pass three cards each, seats 0 to 3
        verb = "pass" if direction != 0 and decisions < 12 else "play"
        decisions += 1
        rp.same_moves({f"{verb} {s.action_to_string(p, a)}" for a in legal},
                      set(S.legal_moves()), f"seat {p}")
        a = rp.rng.choice(legal)
        move = f"{verb} {s.action_to_string(p, a)}"
        s.apply_action(a)
        rp.apply_rl(S, p, move)
    if not S.round_over():
        rp.fail("OpenSpiel's hand is over, rulelang's is not")
    rp.tally.ended[S.last_ended_by] += 1
    want = [26 - x for x in counter(S, "score")]
    if list(s.returns()) != want:
        rp.fail(f"returns: OpenSpiel {s.returns()}, rulelang 26 - score = {want}")
    rp.tally.returns += 1


def _os_card(name: str) -> int:
    """OpenSpiel's Hearts/Crazy Eights card id: rank * 4 + suit (C D H S)."""
    return RANKS_2A.index(name[0]) * 4 + SUITS_CDHS.index(name[1])


# ------------------------------------------------------------------------------ Blackjack
# OpenSpiel's card i is suit i // 13 (C D H S), rank i % 13 (A..K); its text is suit first.
BJ_RANKS = "A23456789TJQK"
# one seat against the house, one deck, one round; the house stands on every 17 as
# OpenSpiel's does; no insurance, no surrender (OpenSpiel has neither)
BLACKJACK_RL = {"decks": 1, "hands": 1, "dealer_hits_soft_17": False, "insurance": False,
                "surrender": False}


def _bj_total(cards: list[str]) -> int:
    hard = sum(min(10, BJ_RANKS.index(c[0]) + 1) for c in cards)
    return hard + 10 if hard <= 11 and any(c[0] == "A" for c in cards) else hard


def blackjack(rp: Replay) -> None:
    s = pyspiel.load_game("blackjack").new_initial_state()
    deck = _deck(rp, [r + su for su in SUITS_CDHS for r in BJ_RANKS])
    queue = list(deck)
    # OpenSpiel deals the player two cards, then the house its hole card, then its up card;
    # rulelang the player's first card, the house's up card, the player's second, the hole card
    shoe = [deck[0], deck[3], deck[1], deck[2], *deck[4:]]
    S = rl_game("blackjack", BLACKJACK_RL).new_state(1, seed=rp.seed, deal={"shoe": shoe},
                                                      auto_continue=False)
    # rulelang's bet: a decision OpenSpiel does not have (its bet is 1); the smallest bet
    rp.apply_rl(S, 0, "bet 10")
    mine: list[str] = []  # the player's cards: the first two dealt, then one per hit
    hit = False
    while not s.is_terminal():
        if s.is_chance_node():
            card = queue.pop(0)
            a = BJ_RANKS.index(card[0]) + 13 * SUITS_CDHS.index(card[1])
            if a not in s.legal_actions():
                rp.fail(f"the deck's next card {card} is not OpenSpiel's to deal")
            s.apply_action(a)
            if len(queue) >= 50 or hit:
                mine.append(card)
            hit = False
            continue
        if S.round_over():
            # rulelang's hand is over before OpenSpiel's player has stood: a total of 21
            # finishes the hand (a natural, or 21 made by hits), and the house's natural ends
            # the round at once; OpenSpiel's player stands there
            if _bj_total(mine) == 21:
                rp.note("21 finishes the hand in rulelang: OpenSpiel's player stands")
            elif S.last_ended_by == "house_natural":
                rp.note("house natural: rulelang ends the round; OpenSpiel's player stands")
            else:
                rp.fail(f"rulelang's round ended ({S.last_ended_by}), OpenSpiel's player "
                        f"holds {mine}")
            s.apply_action(1)
            continue
        rl = set(S.legal_moves())
        extra = rl - {"hit", "stand"}
        if extra - {"double", "split"}:
            rp.fail(f"rulelang's moves {sorted(rl)}")
        if extra:
            rp.note("double/split: rulelang's moves, not OpenSpiel's")
        rp.same_moves({s.action_to_string(0, a).lower() for a in s.legal_actions()},
                      rl - extra, "the player")
        a = rp.rng.choice(s.legal_actions())
        s.apply_action(a)
        rp.apply_rl(S, 0, "hit" if a == 0 else "stand")
        hit = a == 0
    if not S.round_over():
        rp.fail("OpenSpiel's game is over, rulelang's round is not")
    rp.tally.ended[S.last_ended_by] += 1
    got = (counter(S, "chips")[0] - 500) / 10
    want = s.returns()[0]
    natural = len(mine) == 2 and _bj_total(mine) == 21
    if natural and S.last_ended_by != "house_natural":
        # rulelang pays a natural 3 to 2 at once; OpenSpiel counts it as any 21, which the
        # house may tie by drawing to 21
        rp.note("player natural: rulelang +1.5, OpenSpiel +1 (0 if the house draws to 21)")
        if got != 1.5 or want not in (0.0, 1.0):
            rp.fail(f"natural: OpenSpiel {want}, rulelang {got}")
    elif got != want:
        rp.fail(f"returns: OpenSpiel {want}, rulelang {got} (chips won / 10)")
    rp.tally.returns += 1


# --------------------------------------------------------------------------- Crazy Eights
# OpenSpiel's card i is rank i // 4 (2..A), suit i % 4 (C D H S), as in Hearts; 52 draws a
# card, 53 passes, 54..57 name a suit (C D H S) after an eight.
C8_OS = {"max_draw_cards": 5, "use_special_cards": False, "reshuffle": False}
# OpenSpiel lets a player draw although a card fits, up to 5 cards a turn, then pass (and
# pass at once when the stock is empty), whatever the hand holds
C8_RL = {"draw_when_able": True, "max_draws": 5, "pass_when_able": True, "target": 1000}
C8_DRAW, C8_PASS, C8_SUIT = 52, 53, 54


def _c8_os_value(card: int) -> int:
    """What OpenSpiel charges for a card left in a hand (crazy_eights.cc ScoreUp): 50 for an
    eight, 10 for J Q K A, and ``card + 2`` for the others, the card's id where its rank was
    meant (a 3♣, id 4, costs 6; the comment above it says "face value")."""
    rank = card // 4
    return 50 if rank == 6 else 10 if rank >= 9 else card + 2


def _c8_rl_value(name: str) -> int:
    return {"8": 50, "A": 1}.get(name[0], min(10, RANKS_2A.index(name[0]) + 2))


def crazy_eights(rp: Replay) -> None:
    n = rp.rng.randint(2, 5)
    s = pyspiel.load_game("crazy_eights", {**C8_OS, "players": n}).new_initial_state()
    dealer = rp.rng.randrange(n)
    s.apply_action(52 + dealer)
    queue = _deck(rp, _rank_suit_cards())
    k = 7 if n == 2 else 5
    hands: list[list[str]] = [[] for _ in range(n)]
    for j in range(1, n * k + 1):  # OpenSpiel deals the dealer's left first
        hands[(dealer + j) % n].append(queue[0])
        s.apply_action(_os_card(queue.pop(0)))
    while True:  # the upcard: an eight goes back into the deck (here: to its bottom)
        card = queue.pop(0)
        s.apply_action(_os_card(card))
        if card[0] != "8":
            break
        rp.note("an eight turned up: OpenSpiel puts it back and turns the next card")
        queue.append(card)
    S = rl_game("crazy-eights", C8_RL).new_state(
        n, seed=rp.seed, dealer=dealer, auto_continue=False,
        deal={"hand": hands, "discard": [card], "stock": list(queue)})
    eight: str | None = None  # the eight just played, waiting for its suit
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(_os_card(queue.pop(0)))
            continue
        p = s.current_player()
        legal = s.legal_actions()
        rl = set(S.legal_moves()) if not S.round_over() else set()
        if eight is not None:  # OpenSpiel's second decision: the suit
            rp.same_moves({f"eight {eight} {SUITS_CDHS[a - C8_SUIT]}" for a in legal},
                          {m for m in rl if m.startswith(f"eight {eight} ")}, f"seat {p}")
            a = rp.rng.choice(legal)
            s.apply_action(a)
            rp.apply_rl(S, p, f"eight {eight} {SUITS_CDHS[a - C8_SUIT]}")
            eight = None
            continue
        if S.round_over():
            # rulelang's round ended blocked (the stock empty and nobody able to play);
            # OpenSpiel goes on until every player has passed, one of them twice
            if legal != [C8_PASS] or S.last_ended_by != "blocked":
                rp.fail(f"rulelang's round is over ({S.last_ended_by}), OpenSpiel's seat {p} "
                        f"has {legal}")
            rp.note("blocked: OpenSpiel's players pass until n + 1 passes end it")
            s.apply_action(C8_PASS)
            continue
        # an eight and its suit are one move in rulelang (`eight 8S H`), two decisions in
        # OpenSpiel: the first decision is compared on the eights alone
        rp.same_moves({_c8_move(a) for a in legal},
                      {" ".join(m.split()[:2]) for m in rl}, f"seat {p}")
        choices = legal
        if C8_DRAW not in legal and C8_PASS in legal and len(zone(S, "stock")) == 0:
            # with the stock empty OpenSpiel lets a player pass with a card that fits, and
            # ends the game after n + 1 passes in a row, which rulelang's blocked end (nobody
            # can play) does not follow: the random player here plays when it can
            choices = [a for a in legal if a != C8_PASS] or legal
            if choices != legal:
                rp.note("stock empty: OpenSpiel's player plays rather than pass")
        a = rp.rng.choice(choices)
        s.apply_action(a)
        if a < 52 and a // 4 == 6:
            eight = _c8_name(a)
            if s.is_terminal():  # the last card: OpenSpiel asks for no suit
                rp.note("an eight as the last card: OpenSpiel names no suit")
                rp.apply_rl(S, p, f"eight {eight} C")
            continue
        rp.apply_rl(S, p, _c8_move(a))
    if not S.round_over():
        rp.fail("OpenSpiel's game is over, rulelang's round is not")
    rp.tally.ended[S.last_ended_by] += 1
    left = [zone(S, "hand", q) for q in range(n)]
    want = [-float(sum(_c8_os_value(_os_card(c)) for c in h)) for h in left]
    if list(s.returns()) != want:
        rp.fail(f"returns: OpenSpiel {s.returns()}, rulelang's hands {left} by OpenSpiel's "
                f"values {want}")
    pts = counter(S, "points")
    if S.last_ended_by == "out":
        w = next(q for q in range(n) if not left[q])
        mine = [sum(_c8_rl_value(c) for c in h) if q == w else 0 for q, h in enumerate(left)]
        mine[w] = sum(_c8_rl_value(c) for h in left for c in h)
    else:
        low = min(sum(_c8_rl_value(c) for c in h) for h in left)
        mine = [int(sum(_c8_rl_value(c) for c in h) == low) for h in left]
    if pts != mine:
        rp.fail(f"rulelang's points {pts}, its hands {left} say {mine}")
    rp.tally.returns += 1


def _c8_name(a: int) -> str:
    return RANKS_2A[a // 4] + SUITS_CDHS[a % 4]


def _c8_move(a: int) -> str:
    if a == C8_DRAW:
        return "draw"
    if a == C8_PASS:
        return "pass"
    return f"{'eight' if a // 4 == 6 else 'play'} {_c8_name(a)}"


GAMES: dict[str, Callable[[Replay], None]] = {
    "hearts": hearts, "blackjack": blackjack, "crazy-eights": crazy_eights}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.crossreplay_openspiel",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("games_to_play", nargs="*", metavar="GAME", choices=[[], *GAMES],
                    help=f"games to replay (default: all of {', '.join(GAMES)})")
    ap.add_argument("--games", type=int, default=1000, help="games per game (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    ap.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = ap.parse_args(argv)
    names = args.games_to_play or list(GAMES)
    tallies: list[Tally] = [run(n, GAMES[n], args.games, args.seed) for n in names]
    if args.json:
        print(json.dumps([t.as_dict() for t in tallies], indent=1))
    else:
        for t in tallies:
            print(f"{t.game}: {t.games} games, {t.decisions} legal-move sets and "
                  f"{t.returns} returns compared, {len(t.mismatches)} mismatches")
            for k, v in sorted(t.notes.items()):
                print(f"  by design: {k}: {v}")
            print(f"  rulelang's rounds ended: {dict(t.ended)}")
            for m in t.mismatches[:10]:
                print(f"  MISMATCH {m}")
    return 1 if any(t.mismatches for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
