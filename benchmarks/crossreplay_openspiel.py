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
import pyspiel.gin_rummy as gin

from .openspiel_replay import Replay, Tally, counter, groups, rl_game, run, zone

SUITS_CDHS = "CDHS"
RANKS_2A = "23456789TJQKA"
RANK_SUIT_CARDS = [r + s for r in RANKS_2A for s in SUITS_CDHS]


# --------------------------------------------------------------------------------- Hearts
# OpenSpiel's card i is rank i // 4 (2..A), suit i % 4 (C D H S); its text is rulelang's.
HEARTS_OS = {"jd_bonus": False, "avoid_all_tricks_bonus": False, "can_lead_any_club": False,
             "pass_cards": True, "must_break_hearts": True,
             "can_lead_hearts_instead_of_qs": False}
HEARTS_RL = {"moon": "add"}  # OpenSpiel's moon adds 26 to the others
# the two rules both sides offer, played each way (a game's at random): OpenSpiel's
# qs_breaks_hearts (its default: true) is rulelang's queen_breaks_hearts (default false), its
# no_pts_on_first_trick (default true) rulelang's first_trick_points negated
HEARTS_VARIANTS = [({"qs_breaks_hearts": q, "no_pts_on_first_trick": not f},
                    {"queen_breaks_hearts": q, "first_trick_points": f})
                   for q in (True, False) for f in (False, True)]
# OpenSpiel's pass direction (its first chance outcome) -> rulelang's hands_played, whose
# rotation is left, right, across, none; OpenSpiel passes to (seat + direction) % 4
HEARTS_PASS = {1: 0, 3: 1, 2: 2, 0: 3}


def hearts(rp: Replay) -> None:
    os_opts, rl_opts = rp.rng.choice(HEARTS_VARIANTS)
    rp.tally.notes[f"options: {rl_opts}"] += 1
    s = pyspiel.load_game("hearts", {**HEARTS_OS, **os_opts}).new_initial_state()
    direction = rp.rng.randrange(4)
    s.apply_action(direction)
    deck = rp.deck(RANK_SUIT_CARDS)
    for name in deck:  # OpenSpiel deals card k to seat k % 4
        s.apply_action(_os_card(name))
    hands = [deck[p::4] for p in range(4)]
    # OpenSpiel's seat 0 passes first and the 2♣ leads: rulelang's first passer is the
    # dealer's left, so the dealer is seat 3
    S = rl_game("hearts", {**HEARTS_RL, **rl_opts}).new_state(
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
    deck = rp.deck([r + su for su in SUITS_CDHS for r in BJ_RANKS])
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
            if len(queue) >= len(deck) - 2 or hit:  # the first two cards dealt, or a hit
                mine.append(card)
            hit = False
            continue
        if S.round_over():
            # rulelang's hand is over before OpenSpiel's player has stood: a total of 21
            # finishes the hand (a natural, or 21 made by hits), and the house's natural ends
            # the round at once; OpenSpiel's player stands there
            if _bj_total(mine) == 21:
                rp.note("by design: 21 finishes rulelang's hand; OpenSpiel's player stands")
            elif S.last_ended_by == "house_natural":
                rp.note("by design: house natural ends rulelang's round; OpenSpiel's player stands")
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
            rp.note("by design: double/split: rulelang's moves, not OpenSpiel's")
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
        rp.note("by design: player natural: rulelang +1.5; OpenSpiel +1, 0 if the house makes 21")
        if got != 1.5 or want not in (0.0, 1.0):
            rp.fail(f"natural: OpenSpiel {want}, rulelang {got}")
    elif got != want:
        rp.fail(f"returns: OpenSpiel {want}, rulelang {got} (chips won / 10)")
    rp.tally.returns += 1


# --------------------------------------------------------------------------- Crazy Eights
# OpenSpiel's card i is rank i // 4 (2..A), suit i % 4 (C D H S), as in Hearts; 52 draws a
# card, 53 passes, 54..57 name a suit (C D H S) after an eight.
C8_OS = {"use_special_cards": False, "reshuffle": False}
# OpenSpiel lets a player draw although a card fits, up to max_draw_cards (5 by default) a
# turn, then pass (and pass at once when the stock is empty), whatever the hand holds; the
# limit is played at 5, 3 and 1 (a game's at random)
C8_RL = {"draw_when_able": True, "pass_when_able": True, "target": 1000}
C8_DRAWS = (5, 3, 1)
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
    draws = rp.rng.choice(C8_DRAWS)
    rp.tally.notes[f"options: max_draws {draws}"] += 1
    s = pyspiel.load_game("crazy_eights", {**C8_OS, "players": n, "max_draw_cards": draws}
                          ).new_initial_state()
    dealer = rp.rng.randrange(n)
    s.apply_action(52 + dealer)
    queue = rp.deck(RANK_SUIT_CARDS)
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
        rp.note("by design: an eight turned up: OpenSpiel puts it back, turns the next")
        queue.append(card)
    S = rl_game("crazy-eights", {**C8_RL, "max_draws": draws}).new_state(
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
            rp.note("by design: blocked: OpenSpiel's players pass until n + 1 passes end it")
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
                rp.note("by design: stock empty: OpenSpiel's player plays rather than pass")
        a = rp.rng.choice(choices)
        s.apply_action(a)
        if a < 52 and a // 4 == 6:
            eight = _c8_name(a)
            if s.is_terminal():  # the last card: OpenSpiel asks for no suit
                rp.note("by design: an eight as the last card: OpenSpiel names no suit")
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
    if any(_c8_os_value(_os_card(c)) != min(10, RANKS_2A.index(c[0]) + 2) for h in left
           for c in h if c[0] not in "8JQKA"):
        rp.note("OpenSpiel departs: a 2 to 10 left in hand costs its card id + 2, not its "
                "face value")
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


# ----------------------------------------------------------------------------- Gin Rummy
# OpenSpiel's card i is suit i // 13 (s c d h), rank i % 13 (A..K); 52 draws the upcard, 53
# the stock, 54 passes, 55 knocks, 56 on lay melds (its text lists the meld's cards).
GIN_RANKS, GIN_SUITS = "A23456789TJQK", "SCDH"
GIN_OS = {"knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25, "oklahoma": False}
GIN_RL = {"big_gin": False, "upcard_offer": True, "target": 10000}
# the knock card and the bonuses, both sides' options: the defaults (10, 25, 25) half the
# time, else others (a game's at random)
GIN_VARIANTS = [(10, 25, 25), (10, 25, 25), (10, 25, 25), (7, 20, 10), (5, 25, 15),
                (1, 30, 25)]
GIN_UP, GIN_STOCK, GIN_PASS, GIN_KNOCK = 52, 53, 54, 55
_GIN_UTILS = gin.GinRummyUtils(13, 4, 10)


def _gin_name(a: int) -> str:
    return GIN_RANKS[a % 13] + GIN_SUITS[a // 13]


def _gin_id(name: str) -> int:
    return GIN_SUITS.index(name[1]) * 13 + GIN_RANKS.index(name[0])


def _gin_melds(s: Any, p: int) -> dict[frozenset[str], int]:
    """OpenSpiel's legal meld actions, by their cards."""
    out = {}
    for a in s.legal_actions():
        if a >= 56:
            text = s.action_to_string(p, a).split("Action: ")[1]
            out[frozenset(text[i].upper() + text[i + 1].upper()
                          for i in range(0, len(text), 2))] = a
    return out


def _gin_lay(rp: Replay, s: Any, p: int, melds: list[list[str]]) -> None:
    """Lay rulelang's melds in OpenSpiel (whose runs are at most five cards: a longer run is
    laid in parts of three to five), then pass."""
    for m in melds:
        suit_run = len({c[1] for c in m}) == 1
        m = sorted(m, key=lambda c: GIN_RANKS.index(c[0]))
        parts = [m]
        if suit_run and len(m) > 5:
            rp.note("by design: a run longer than five: laid in two parts in OpenSpiel")
            cut = len(m) // 2
            parts = [m[:cut], m[cut:]]
        for part in parts:
            ids = _gin_melds(s, p)
            a = ids.get(frozenset(part))
            if a is None:
                rp.fail(f"OpenSpiel will not let seat {p} lay rulelang's meld {part}")
            s.apply_action(a)
    if GIN_PASS not in s.legal_actions():
        rp.fail(f"after laying rulelang's melds {melds} OpenSpiel's seat {p} may not stop")
    s.apply_action(GIN_PASS)


def gin_rummy(rp: Replay) -> None:
    knock, gin_bonus, undercut = rp.rng.choice(GIN_VARIANTS)
    rp.tally.notes[f"options: knock {knock}, gin {gin_bonus}, undercut {undercut}"] += 1
    s = pyspiel.load_game("gin_rummy", {**GIN_OS, "knock_card": knock, "gin_bonus": gin_bonus,
                                        "undercut_bonus": undercut}).new_initial_state()
    queue = rp.deck([r + su for su in GIN_SUITS for r in GIN_RANKS])
    hands = [queue[:10], queue[10:20]]
    for c in queue[:21]:  # ten cards to seat 0, ten to seat 1, the upcard
        s.apply_action(_gin_id(c))
    up, queue = queue[20], queue[21:]
    # OpenSpiel's seat 0 acts first: rulelang's non-dealer, so the dealer is seat 1
    rl_opts = {"knock_limit": knock, "gin_bonus": gin_bonus, "undercut_bonus": undercut}
    S = rl_game("gin-rummy", {**GIN_RL, **rl_opts}).new_state(
        2, seed=rp.seed, dealer=1, auto_continue=False,
        deal={"hand": hands, "discard": [up], "stock": list(queue)})
    taken: str | None = None  # the card just drawn from the discard pile
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(_gin_id(queue.pop(0)))
            continue
        p = s.current_player()
        legal = s.legal_actions()
        if S.round_over():
            # the discard that left two cards in the stock: rulelang's hand is void at once;
            # OpenSpiel's next player may still take that discard to knock (the wall)
            if S.last_ended_by != "void" or not set(legal) <= {GIN_PASS, GIN_KNOCK}:
                rp.fail(f"rulelang's round is over ({S.last_ended_by}), OpenSpiel's seat {p} "
                        f"has {legal}")
            rp.note("by design: the wall: rulelang's hand is void; OpenSpiel's player passes"
                    + (" (a knock was open to it)" if GIN_KNOCK in legal else ""))
            s.apply_action(GIN_PASS)
            continue
        rl = set(S.legal_moves())
        phase = s.current_phase()
        if phase == gin.LAYOFF:  # the defender's lay-offs (OpenSpiel's pass: rulelang's done)
            ours = {"done" if a == GIN_PASS else _gin_name(a) for a in legal}
            theirs = {"done" if m == "done" else m.split()[2] for m in rl}
            missed = _gin_missed_layoffs(s, p) & theirs
            if missed and ours | missed == theirs:
                rp.note("OpenSpiel departs: a third lay-off at one end of a run is refused")
                theirs -= missed
            rp.same_moves(ours, theirs, f"seat {p}")
            a = rp.rng.choice(legal)
            s.apply_action(a)
            if a == GIN_PASS:
                rp.apply_rl(S, p, "done")
                _gin_lay(rp, s, p, groups(S, "melds", p))
            else:
                rp.apply_rl(S, p, _gin_layoff(S, _gin_name(a), 1 - p))
            continue
        if phase in (gin.FIRST_UPCARD, gin.DRAW):
            names = {GIN_UP: "draw discard", GIN_STOCK: "draw stock", GIN_PASS: "pass"}
            rp.same_moves({names[a] for a in legal}, rl, f"seat {p}")
            a = rp.rng.choice(legal)
            if a == GIN_UP:
                taken = zone(S, "discard")[0]
            s.apply_action(a)
            if s.is_terminal():
                # OpenSpiel ends the game, 0 each, at the 50th draw from the discard pile
                rp.note("by design: OpenSpiel's 50th draw of a discard ends it (not compared)")
                return
            rp.apply_rl(S, p, names[a])
            continue
        if phase != gin.DISCARD:
            rp.fail(f"OpenSpiel's seat {p} has a decision in phase {phase}: {legal}")
        # the discard: every card but the one just taken (rulelang forbids throwing it back;
        # OpenSpiel allows it, and ends the game when both do so in a row), or a knock
        cards = {_gin_name(a) for a in legal if a < 52} - {taken}
        rp.same_moves({f"discard {c}" for c in cards},
                      {m for m in rl if m.startswith("discard ")}, f"seat {p}")
        knocks = {m.split()[1]: m for m in rl if m.split()[0] in ("knock", "gin")}
        after = set()
        if GIN_KNOCK in legal:
            k = s.clone()
            k.apply_action(GIN_KNOCK)
            after = {_gin_name(a) for a in k.legal_actions()}
        if taken in after:
            rp.note("by design: a knock discarding the card just taken (OpenSpiel only)")
        rp.same_moves({f"knock {c}" for c in after - {taken}},
                      {f"knock {c}" for c in knocks}, f"seat {p} (knocking discards)")
        pick = _gin_policy(rp, s, p, sorted(cards), bool(knocks))
        if pick != "knock":
            s.apply_action(_gin_id(pick))
            rp.apply_rl(S, p, f"discard {pick}")
            taken = None
            continue
        c = rp.rng.choice(sorted(knocks))
        s.apply_action(GIN_KNOCK)
        s.apply_action(_gin_id(c))
        rp.apply_rl(S, p, knocks[c])
        taken = None
        _gin_lay(rp, s, p, groups(S, "melds", p))
        if S.round_over():  # gin: no lay-offs; the defender's melds
            if s.current_player() != 1 - p or GIN_PASS not in s.legal_actions():
                rp.fail("gin: OpenSpiel's defender does not lay melds next")
            _gin_lay(rp, s, 1 - p, groups(S, "melds", 1 - p))
    if not S.round_over():
        rp.fail("OpenSpiel's game is over, rulelang's round is not")
    rp.tally.ended[S.last_ended_by] += 1
    pts = counter(S, "points")
    want = list(s.returns())
    mine = [float(pts[0] - pts[1]), float(pts[1] - pts[0])]
    if S.last_ended_by == "knock" and want == [0.0, 0.0] and max(pts) == undercut:
        # equal deadwood: rulelang's defender undercuts (pagat's rules, and those of the
        # Gin Rummy Association that OpenSpiel follows); OpenSpiel scores it 0
        rp.note("OpenSpiel departs: a tie after a knock scores 0 (rulelang: undercut)")
    elif want != mine:
        rp.fail(f"returns: OpenSpiel {want}, rulelang's points {pts}")
    rp.tally.returns += 1


def _gin_policy(rp: Replay, s: Any, p: int, cards: list[str], knock: bool) -> str:
    """The discard (or "knock"): purely random discards almost never get a hand down to ten
    (97% of rulelang's random hands are void), so that knocks, gin and lay-offs come up, the
    player knocks half the time a knock is open, and otherwise discards at random half the
    time and the card that leaves the least deadwood (OpenSpiel's count) the other half."""
    if knock and rp.rng.random() < 0.5:
        return "knock"
    if rp.rng.random() < 0.5:
        return rp.rng.choice(cards + (["knock"] if knock else []))
    best: list[str] = []
    low = 1 << 30
    for c in cards:
        k = s.clone()
        k.apply_action(_gin_id(c))
        d = k.deadwood()[p]
        if d < low:
            best, low = [c], d
        elif d == low:
            best.append(c)
    return rp.rng.choice(best)


def _gin_missed_layoffs(s: Any, p: int) -> set[str]:
    """The cards seat p could lay off that OpenSpiel's ``AllLayoffs`` misses: it extends a run
    by the earlier lay-offs in one pass over them, checked against the run's ends as laid, so
    after two cards laid off at one end (8H9HTH, then 7H, then 6H) the third (5H) is refused."""
    melds = [list(_GIN_UTILS.int_to_meld[m]) for m in s.layed_melds()[1 - p]]
    prev = list(s.layoffs())
    full: set[int] = set()
    for m in melds:
        if len({c % 13 for c in m}) == 1:
            continue  # a set: the one card OpenSpiel counts too
        run = set(m)
        grown = True
        while grown:
            grown = False
            for c in prev:
                if c not in run and ((c == min(run) - 1 and c % 13 < 12)
                                     or (c == max(run) + 1 and c % 13 > 0)):
                    run.add(c)
                    grown = True
        if min(run) % 13 > 0:
            full.add(min(run) - 1)
        if max(run) % 13 < 12:
            full.add(max(run) + 1)
    missed = full - set(_GIN_UTILS.all_layoffs(s.layed_melds()[1 - p], prev))
    return {_gin_name(c) for c in missed if c in s.hands()[p]}


def _gin_layoff(S: Any, card: str, knocker: int) -> str:
    """Rulelang's lay-off of ``card``: on a run when it fits one (a card laid on a run lets the
    next one follow, as OpenSpiel's lay-offs do), else on the set."""
    moves = [m for m in S.legal_moves() if m.startswith(f"lay off {card} ")]
    melds = groups(S, "melds", knocker)
    runs = [m for m in moves if len({c[1] for c in melds[int(m.split("#")[1]) - 1]}) == 1]
    return (runs or moves)[0]


GAMES: dict[str, Callable[[Replay], None]] = {
    "hearts": hearts, "blackjack": blackjack, "crazy-eights": crazy_eights,
    "gin-rummy": gin_rummy}


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
    tallies: list[Tally] = []
    for n in names:
        tallies.append(t := run(n, GAMES[n], args.games, args.seed))
        if not args.json:  # each game as it is done
            t.show()
    if args.json:
        print(json.dumps([t.as_dict() for t in tallies], indent=1))
    return 1 if any(t.mismatches for t in tallies) else 0


if __name__ == "__main__":
    sys.exit(main())
