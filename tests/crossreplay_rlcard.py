"""Cross-replays against RLCard: random games played in RLCard's own game classes
(``rlcard.games.*.game``), their deals (RLCard's deck order after its shuffle) and actions
mapped to rulelang's deal and move texts, and replayed in the bundled rules files with options
that match; every legal-move set, the position after every step and every final payoff must
agree. Where the two rule sets differ by design, the comparison is restricted and says so: a
game is *skipped* (a deal the two rule sets treat differently from its first card) or
*stopped* (at the first step where RLCard's rules and rulelang's part; what was compared up to
there stands). docs/environments.md ("Cross-replays against RLCard") has the report.

    python -m tests.crossreplay_rlcard --games 1000           # every game, 1,000 each
    python -m tests.crossreplay_rlcard --games 1000 --game uno

``tests/test_crossreplay_rlcard.py`` runs a few of each (``make test-envs``). A disagreement
raises ``Disagreement`` with the game's seed and what differed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


# what the runs compared, beyond each game's outcome: decisions (legal-move sets) compared, and
# how the games compared to their end ended
STATS: Counter[str] = Counter()


class Disagreement(AssertionError):
    """RLCard and rulelang disagree: a bug in one of the two."""


def _check(ok: bool, seed: int, what: str) -> None:
    if not ok:
        raise Disagreement(f"seed {seed}: {what}")


@cache
def _rules(name: str, options: tuple[tuple[str, Any], ...]) -> Any:
    import rulelang

    return rulelang.load(str(ROOT / "games" / f"{name}.yaml"), dict(options))


# ---------------------------------------------------------------------------------- Blackjack

BJ_OPTIONS = (("decks", 1), ("hands", 1))  # RLCard: one deck, one hand per game
BJ_BET = 10  # the smallest bet (min_bet's default): a payoff of 1 is 10 chips
BJ_CHIPS = 500


def _bj_card(c: Any) -> str:
    return c.rank + c.suit  # RLCard's 'SA' (suit, rank) is rulelang's 'AS'


def blackjack_game(seed: int, players: int) -> str:
    """One RLCard Blackjack game (``players`` against the dealer), replayed in rulelang."""
    from rlcard.games.blackjack.game import BlackjackGame

    g = BlackjackGame()
    g.configure({"game_num_players": players, "game_num_decks": 1})
    g.np_random = np.random.RandomState(seed)
    g.init_game()
    score = g.judger.judge_score
    if any(score(p.hand) == 21 for p in g.players) or score(g.dealer.hand) == 21:
        # rulelang pays a natural 3 to 2 and ends the round on the house's natural (it peeks);
        # RLCard counts a natural as any 21 and lets everyone play on
        return "skipped: a natural"
    rng = random.Random(seed)
    actions: list[tuple[int, str]] = []
    while not g.is_over():
        p = g.game_pointer
        # a hand of 21 is finished in rulelang; RLCard lets it hit on: it stands here
        a = "stand" if score(g.players[p].hand) == 21 else rng.choice(["hit", "stand"])
        actions.append((p, a))
        g.step(a)
    # the cards in the order RLCard dealt them: a card each, the dealer's up card, a second
    # card each, the hole card, then each player's hits, then the dealer's draws
    hands = [pl.hand for pl in g.players]
    order = [h[0] for h in hands] + [g.dealer.hand[0]] + [h[1] for h in hands] + \
        [g.dealer.hand[1]] + [c for h in hands for c in h[2:]] + g.dealer.hand[2:]
    S = _rules("blackjack", BJ_OPTIONS).new_state(
        players, seed=seed, dealer=0, deal={"shoe": [_bj_card(c) for c in order]})
    for p in range(players):
        _check(S.current_player() == p and f"bet {BJ_BET}" in S.legal_moves(), seed,
               f"P{p} should bet, legal {S.legal_moves()}")
        S.apply(f"bet {BJ_BET}")
    for i, (p, a) in enumerate(actions):
        if a == "stand" and score(hands[p][:2 + _hits(actions[:i], p)]) == 21:
            continue  # rulelang finished that hand itself
        legal = set(S.legal_moves())
        _check(S.current_player() == p, seed, f"step {i}: RLCard's P{p} to move, rulelang's "
               f"P{S.current_player()}")
        # RLCard offers hit and stand; rulelang also doubles and splits (RLCard has neither)
        _check({"hit", "stand"} <= legal and legal <= {"hit", "stand", "double", "split"},
               seed, f"step {i}: legal {sorted(legal)}, RLCard's hit, stand")
        STATS["blackjack decisions"] += 1
        S.apply(a)
    _check(S.is_over(), seed, "rulelang's round is not over when RLCard's is")
    chips = S.result()["counters"]["chips"]
    for p in range(players):
        w = g.winner[f"player{p}"]
        theirs = 1 if w == 2 else 0 if w == 1 else -1  # BlackjackEnv.get_payoffs
        _check(chips[p] - BJ_CHIPS == theirs * BJ_BET, seed,
               f"P{p}: rulelang {chips[p] - BJ_CHIPS} chips, RLCard's payoff {theirs}")
    return "agree"


def _hits(actions: list[tuple[int, str]], p: int) -> int:
    return sum(1 for q, a in actions if q == p and a == "hit")


# ---------------------------------------------------------------------------------- Uno

# one hand decides the game in RLCard: a target of 1 point ends rulelang's match with it
UNO_OPTIONS = (("target", 1),)
_COLOUR = {"r": "R", "g": "G", "b": "B", "y": "Y"}
_COLOUR_NAME = {"r": "red", "g": "green", "b": "blue", "y": "yellow"}
_TRAIT = {"skip": "S", "reverse": "R", "draw_2": "D2", "wild": "W", "wild_draw_4": "W4"}


def _uno_card(c: Any) -> str:
    if c.type == "wild":
        return _TRAIT[c.trait]
    return _COLOUR[c.color] + _TRAIT.get(c.trait, c.trait)


def _uno_move(a: str) -> str:
    """An RLCard Uno action ('r-7', 'g-wild', 'b-wild_draw_4', 'draw') as a move text."""
    if a == "draw":
        return "draw"
    colour, trait = a.split("-")
    if trait in ("wild", "wild_draw_4"):
        return f"wild {_TRAIT[trait]} {_COLOUR_NAME[colour]}"
    return "play " + _COLOUR[colour] + _TRAIT.get(trait, trait)


def _rlcard_uno_choice(legal: list[str]) -> set[str]:
    """rulelang's legal moves cut down to what RLCard's rules allow: a card that fits (or a
    wild) when there is one, else a wild draw four, else a draw. RLCard allows a draw only with
    nothing to play and a wild draw four only with nothing else (rulelang, as the official
    rules: a draw at any time, a wild draw four without a card of the colour in force)."""
    plays = {m for m in legal if m.startswith("play ") or m.startswith("wild W ")}
    if plays:
        return plays
    fours = {m for m in legal if m.startswith("wild W4 ")}
    return fours or ({"draw"} if "draw" in legal else set())


def _uno_position(S: Any, g: Any, seed: int, step: int) -> None:
    """The hands, the top card and the colour in force agree."""
    v = S.view(0)
    hand = S.game.hand_zone().first_id
    for p, pl in enumerate(g.players):
        ours = sorted(S.game.tables.name[c] for c in S.zones[hand + p])
        _check(ours == sorted(_uno_card(c) for c in pl.hand), seed,
               f"step {step}: P{p}'s hand {ours}, RLCard's {sorted(map(_uno_card, pl.hand))}")
    target = g.round.target
    _check(v["zones"]["discard"][0] == _uno_card(target), seed,
           f"step {step}: top card {v['zones']['discard'][0]}, RLCard's {_uno_card(target)}")
    _check(v["globals"]["colour"] == _COLOUR_NAME[str(target.color)], seed,
           f"step {step}: colour {v['globals']['colour']}, RLCard's {target.color}")


def uno_game(seed: int, players: int) -> str:
    """One RLCard Uno game, replayed in rulelang."""
    from rlcard.games.uno.game import UnoGame

    g = UnoGame(num_players=players)
    g.np_random = np.random.RandomState(seed)
    g.init_game()
    up = g.round.target
    if up.trait == "wild":
        return "skipped: a wild turned up"  # RLCard picks its colour at random
    if up.trait == "draw_2":
        return "skipped: a draw two turned up"  # RLCard's first player draws and plays on
    n = players
    hands = [[_uno_card(c) for c in pl.hand] for pl in g.players]
    # RLCard deals from the end of its list: the stock, top first, is the list reversed;
    # RLCard's player 0 plays first, so the dealer is the last seat
    S = _rules("uno", UNO_OPTIONS).new_state(
        n, seed=seed, dealer=n - 1, auto_continue=False,
        deal={"hand": hands, "discard": [_uno_card(up)],
              "stock": [_uno_card(c) for c in reversed(g.dealer.deck)]})
    rng = random.Random(seed)
    reshuffled = [0]
    replace = g.round.replace_deck

    def counted() -> None:
        reshuffled[0] += 1
        replace()
    g.round.replace_deck = counted
    step = 0
    while not g.is_over():
        _uno_position(S, g, seed, step)
        p = g.round.current_player
        _check(S.current_player() == p, seed,
               f"step {step}: RLCard's P{p} to move, rulelang's P{S.current_player()}")
        theirs = g.get_legal_actions()
        ours = _rlcard_uno_choice(S.legal_moves())
        _check({_uno_move(a) for a in theirs} == ours, seed,
               f"step {step}: legal {sorted(ours)}, RLCard's {sorted(theirs)}")
        STATS["uno decisions"] += 1
        a = rng.choice(theirs)
        drawn = g.dealer.deck[-1] if a == "draw" and g.dealer.deck else None
        if a == "draw" and drawn is None:
            return "stopped: a reshuffle"
        if drawn is not None and drawn.trait == "wild_draw_4":
            # RLCard plays a drawn wild draw four for the player, without its draw of four
            return "stopped: a wild draw four drawn"
        played = drawn if drawn is not None and (
            drawn.type == "wild" or drawn.color == g.round.target.color) else None
        card_trait = played.trait if played is not None else a.split("-")[-1]
        if n == 2 and card_trait == "reverse":
            # official rules (and rulelang): with two players a reverse acts as a skip; in
            # RLCard it only turns play round, so the other player is next
            return "stopped: a reverse with two players"
        g.step(a)
        if reshuffled[0]:
            return "stopped: a reshuffle"  # RLCard's shuffle of the discards: not mapped
        S.apply(_uno_move(a))
        if drawn is not None:
            # RLCard plays a drawn wild (colour at random) or a drawn card of the colour in
            # force for the player, and keeps any other: rulelang's player chooses the same
            if played is not None:
                text = (f"wild W {_COLOUR_NAME[str(played.color)]}" if played.type == "wild"
                        else "play " + _uno_card(played))
                _check(text in S.legal_moves(), seed,
                       f"step {step}: the drawn card: {text} not in {S.legal_moves()}")
                S.apply(text)
            elif S.current_player() == p and "keep" in S.legal_moves():
                S.apply("keep")
        step += 1
    winner = g.round.winner[0]
    _check(S.round_over() and S.last_ended_by == "out", seed,
           f"RLCard's game is over (P{winner} out), rulelang's round is not")
    _uno_position(S, g, seed, step)
    if n == 2 and S.is_over():  # RLCard's payoffs are for two players: 1 and -1
        ours = [2 * r - 1 for r in S.returns()]
        _check(ours == list(g.get_payoffs()), seed,
               f"payoffs {ours}, RLCard's {g.get_payoffs()}")
    return "agree"


# ---------------------------------------------------------------------------------- Gin Rummy

# one hand, no upcard offer (RLCard has no upcard: see gin_rummy_game)
GIN_OPTIONS = (("target", 1), ("upcard_offer", False))


def _gin_card(c: Any) -> str:
    return c.rank + c.suit


def _gin_move(a: Any) -> str:
    """An RLCard Gin Rummy action as a move text (gin, a dead hand, scoring: by name)."""
    from rlcard.games.gin_rummy.utils import action_event as ae

    if isinstance(a, ae.DrawCardAction):
        return "draw stock"
    if isinstance(a, ae.PickUpDiscardAction):
        return "draw discard"
    if isinstance(a, ae.DiscardAction):
        return "discard " + _gin_card(a.card)
    if isinstance(a, ae.KnockAction):
        return "knock " + _gin_card(a.card)
    if isinstance(a, ae.GinAction):
        return "gin"
    if isinstance(a, ae.DeclareDeadHandAction):
        return "dead hand"
    return "score"


def _rlcard_gin_choice(legal: list[str]) -> set[str]:
    """rulelang's legal moves as RLCard offers them: gin, when it can, is RLCard's only move
    (one action, the card chosen for the player)."""
    if any(m.startswith("gin ") for m in legal):
        return {"gin"}
    return set(legal)


def gin_rummy_game(seed: int, players: int = 2) -> str:
    """One RLCard Gin Rummy hand, replayed in rulelang."""
    from rlcard.games.gin_rummy.game import GinRummyGame
    from rlcard.games.gin_rummy.judge import get_going_out_cards
    from rlcard.games.gin_rummy.utils import action_event as ae

    g = GinRummyGame()
    g.np_random = np.random.RandomState(seed)
    g.init_game()
    rnd = g.round
    dealer = int(rnd.dealer_id)
    first = (dealer + 1) % 2
    # RLCard deals the non-dealer eleven cards and no upcard; the non-dealer discards first.
    # rulelang (no upcard offer) deals ten each and an upcard that the non-dealer may take:
    # the eleventh card is that upcard, taken at once, so both start from the same eleven
    eleventh = rnd.players[first].hand[-1]
    hands: list[list[str]] = [[], []]
    for p in (0, 1):
        hands[p] = [_gin_card(c) for c in rnd.players[p].hand if c is not eleventh]
    S = _rules("gin-rummy", GIN_OPTIONS).new_state(
        2, seed=seed, dealer=dealer, auto_continue=False,
        deal={"hand": hands, "discard": [_gin_card(eleventh)],
              "stock": [_gin_card(c) for c in reversed(rnd.dealer.stock_pile)]})
    _check(S.current_player() == first and "draw discard" in S.legal_moves(), seed,
           f"the non-dealer P{first} should take the upcard: {S.legal_moves()}")
    S.apply("draw discard")
    rng = random.Random(seed)
    step = 0
    notes: set[str] = set()
    while not g.is_over():
        theirs = g.judge.get_legal_actions()
        names = {_gin_move(a) for a in theirs}
        if names == {"score"}:
            g.step(theirs[0])
            continue
        p = rnd.current_player_id
        if "dead hand" in names:
            if S.round_over():  # two cards left in the stock: the hand is void in both
                _check(S.last_ended_by == "void", seed, f"step {step}: ended {S.last_ended_by}")
                g.step(next(a for a in theirs if _gin_move(a) == "dead hand"))
                continue
            return "stopped: RLCard's limit of moves"  # max_move_count: not a rule of the game
        _check(S.current_player() == p, seed,
               f"step {step}: RLCard's P{p} to move, rulelang's P{S.current_player()}")
        ours = _rlcard_gin_choice(S.legal_moves())
        if step == 0:
            # the first discard: RLCard's eleven cards are dealt, rulelang's eleventh was just
            # taken from the pile, and may not be thrown back at once
            up = _gin_card(eleventh)
            names = {m for m in names if not m.endswith(" " + up)}
            if names == {"gin"} and _gin_card(get_going_out_cards(
                    rnd.players[p].hand, 10)[1][0]) == up:
                return "stopped: gin by throwing back the eleventh card"
        taken = S.view(p)["globals"]["taken"]
        if taken not in (None, "none") and "discard " + taken not in names:
            # RLCard keeps the card just taken from the pile out of the discards, not out of
            # the knocks and gins (its own is_allowed_to_discard_picked_up_card): a knock or
            # gin throwing it back is RLCard's move only
            back = {m for m in names if m == "knock " + taken}
            if names == {"gin"} and _gin_card(get_going_out_cards(
                    rnd.players[p].hand, 10)[1][0]) == taken:
                return "stopped: RLCard's gin throwing back the card just taken"
            if back:
                names -= back
                notes.add("RLCard offered a knock throwing back the card just taken")
        _check(names == ours, seed, f"step {step}: legal {sorted(ours)}, RLCard's "
               f"{sorted(names)}; hand {sorted(map(_gin_card, rnd.players[p].hand))}")
        STATS["gin-rummy decisions"] += 1
        choices = [a for a in theirs if _gin_move(a) in names]
        # random play seldom knocks before the stock runs out: a knock or gin on offer is
        # taken four times in five, so that the hands' scoring is compared often
        out = [a for a in choices if isinstance(a, (ae.KnockAction, ae.GinAction))]
        if out and rng.random() < 0.8:
            choices = out
        a = choices[rng.randrange(len(choices))]
        text = _gin_move(a)
        if isinstance(a, ae.GinAction):
            text = "gin " + _gin_card(get_going_out_cards(rnd.players[p].hand, 10)[1][0])
        g.step(a)
        S.apply(text)
        if isinstance(a, ae.KnockAction):
            # RLCard has no lay-offs: the defender lays off nothing
            _check("done" in S.legal_moves(), seed, f"step {step}: after a knock "
                   f"{S.legal_moves()}")
            S.apply("done")
        step += 1
    _check(S.round_over(), seed, "RLCard's hand is over, rulelang's is not")
    # RLCard's payoffs (get_payoff_gin_rummy_v1): 1 for gin, 0.2 for a knock, else minus the
    # deadwood of the hand / 100; from rulelang's hands after its scoring (the melds laid
    # out, the deadwood left in hand; a void hand is not laid out: its deadwood by the rules'
    # evaluator)
    ev = S.game.evaluator()
    hz = S.game.hand_zone()
    knocker = S.view(0)["globals"]["knocker"]
    ours_pay = []
    for p in (0, 1):
        if p == knocker and S.last_ended_by in ("knock", "gin"):
            ours_pay.append(0.2 if S.last_ended_by == "knock" else 1.0)
        else:
            ours_pay.append(-ev.fn(S, S.zones[hz.first_id + p]) / 100)
    theirs_pay = g.judge.scorer.get_payoffs(g)
    STATS[f"gin-rummy ended by {S.last_ended_by}"] += 1
    _check(all(abs(a - b) < 1e-9 for a, b in zip(ours_pay, theirs_pay)), seed,
           f"payoffs {ours_pay}, RLCard's {theirs_pay} (ended by {S.last_ended_by})")
    return "agree" + "".join(f" ({n})" for n in sorted(notes))


# ---------------------------------------------------------------------------------- running

GAMES: dict[str, tuple[Callable[[int, int], str], tuple[int, ...]]] = {
    "blackjack": (blackjack_game, (1, 2, 3)),
    "uno": (uno_game, (2, 3, 4)),
    "gin-rummy": (gin_rummy_game, (2,)),
}


def run(game: str, games: int, seed: int = 0) -> Counter[str]:
    """``games`` random games of ``game``, table sizes in turn: a count per outcome."""
    play, sizes = GAMES[game]
    out: Counter[str] = Counter()
    for i in range(games):
        out[play(seed + i, sizes[i % len(sizes)])] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--game", choices=sorted(GAMES), action="append")
    args = ap.parse_args(argv)
    failed = False
    for game in args.game or sorted(GAMES):
        try:
            counts = run(game, args.games, args.seed)
        except Disagreement as e:
            print(f"{game}: DISAGREE: {e}")
            failed = True
            continue
        print(f"{game}: {args.games} games: " + ", ".join(
            f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1])))
        print("  " + ", ".join(f"{k} {v}" for k, v in sorted(STATS.items())
                               if k.startswith(game + " ")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
