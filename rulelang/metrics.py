"""Game-quality metrics of a simulation: seat fairness, first-player advantage, length
distribution, decisiveness, lead changes, drama and skill gap (docs/metrics.md defines each).

Each game adds a few whole numbers to a ``MetricTally`` (counts and multisets only), so that,
like ``sim.Tally``, the tallies of chunks of games merge into exactly the tally of the whole run:
the metrics depend on the seed and the arguments, never on ``--workers``. The figures of a game
come from its finished state: the seats in the order of their first decision, and the round
results (each counter's change per seat), from which the standings after each round are
rebuilt.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import Any


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n``."""
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def mean_of(c: Counter) -> float:
    """``statistics.fmean`` of the multiset (``fsum`` is exact, so the order cannot matter)."""
    n = sum(c.values())
    return math.fsum(chain.from_iterable(repeat(v, k) for v, k in c.items())) / n


def sd_of(c: Counter) -> float:
    """The sample standard deviation of the multiset (0 for fewer than two values)."""
    n = sum(c.values())
    if n < 2:
        return 0.0
    m = mean_of(c)
    return math.sqrt(math.fsum(k * (v - m) ** 2 for v, k in c.items()) / (n - 1))


def median_of(c: Counter) -> Any:
    """``statistics.median`` of the multiset."""
    n = sum(c.values())
    want = (n // 2 - 1, n // 2) if n % 2 == 0 else (n // 2,)
    found = []
    seen = 0
    for v in sorted(c):
        seen += c[v]
        while len(found) < len(want) and want[len(found)] < seen:
            found.append(v)
    return found[0] if n % 2 else (found[0] + found[1]) / 2


def percentile_of(c: Counter, p: int) -> Any:
    """The nearest-rank ``p``-th percentile: the least value that at least p% of the multiset
    is at or below (always one of the values, never an interpolation)."""
    n = sum(c.values())
    rank = max(1, -(-p * n // 100))  # ceil(p * n / 100), in whole numbers
    seen = 0
    for v in sorted(c):
        seen += c[v]
        if seen >= rank:
            return v
    return 0


def first_order(state: Any, order: list[int]) -> list[int]:
    """The seats in the order of their first decision in the game, then the seats that never
    made one, in seat order."""
    return order + [p for p in range(state.n) if p not in order]


def standings(state: Any, winners: list[int]) -> dict[str, Any] | None:
    """What the rounds of a finished game say about its winners: None when no counter singles
    them out (docs/metrics.md, "the standing counter"), else the rounds after which they led
    alone, were behind, and the changes of the lead."""
    game = state.game
    results = state.round_results
    if not winners or not results:
        return None
    n, won = state.n, set(winners)
    # a seat still in play ranks above every seat out of it, whatever their counters
    inplay = [set(r[4]) for r in results[1:]] + [set(state.seated)]
    for ci, (name, _u) in enumerate(game.counters):
        kind = game.counter_types.get(name, "")
        if kind.startswith("list") or kind == "record":
            continue
        final = state.ctr[ci][:n]
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in final):
            continue
        for sign in (1, -1):
            key = [(p in inplay[-1], sign * final[p]) for p in range(n)]
            if {p for p in range(n) if key[p] == max(key)} == won:
                break
        else:
            continue
        break
    else:
        return None
    # the values after each round, rebuilt from the final values and each round's change
    values = list(final)
    after: list[list[Any]] = []
    for r in reversed(results):
        after.append(values)
        values = [v - d for v, d in zip(values, r[3][ci][:n])]
    after.reverse()
    # a side is a team in a game of teams (its seats share the counter), else a seat
    side = list(state.team) if game.teams is not None else list(range(n))
    led, behind, changes, leader = [], 0, 0, None
    for vals, seated in zip(after, inplay):
        score = [(p in seated, sign * v) for p, v in enumerate(vals)]
        top = max(score)
        tops = frozenset(p for p in range(n) if score[p] == top)
        led.append(tops == won)
        behind += max(score[p] for p in won) < top
        if tops != won and len({side[p] for p in tops}) > 1:
            continue  # a tie for the lead: nobody leads, and the last leader is kept
        if leader is not None and tops != leader:
            changes += 1
        leader = tops
    decided = len(led)  # the round after which the winners led alone to the end (1-based)
    while decided > 1 and led[decided - 2]:
        decided -= 1
    return {"rounds": len(after), "decided": decided, "behind": behind,
            "lead_changes": changes}


@dataclass
class MetricTally:
    """The metrics' share of a run's tally: counts and multisets only (merges exactly)."""

    decisions: Counter = field(default_factory=Counter)  # decisions in a game -> games
    position_wins: Counter = field(default_factory=Counter)  # (place in turn order, winners)
    ranked: int = 0  # games whose winners a counter singles out
    decided_early: int = 0  # of those, decided before their last round
    lead_changes: Counter = field(default_factory=Counter)  # changes in a game -> games
    comebacks: int = 0  # ranked games in which the winners were behind after some round
    behind_rounds: int = 0  # rounds before the last after which the winners were behind
    before_last: int = 0  # rounds before the last, over the ranked games

    def add(self, r: dict[str, Any]) -> None:
        """Count one game's record (``sim.play_one``'s, with its ``order`` and ``standing``)."""
        self.decisions[r["decisions"]] += 1
        k = len(r["winners"])
        for w in r["winners"]:
            self.position_wins[(r["order"].index(w), k)] += 1
        s = r.get("standing")
        if s is not None:
            self.ranked += 1
            self.decided_early += s["decided"] < s["rounds"]
            self.lead_changes[s["lead_changes"]] += 1
            self.comebacks += s["behind"] > 0
            self.behind_rounds += s["behind"]
            self.before_last += s["rounds"] - 1

    def merge(self, o: MetricTally) -> None:
        """Add the tally of the games that come after these."""
        self.decisions.update(o.decisions)
        self.position_wins.update(o.position_wins)
        self.lead_changes.update(o.lead_changes)
        for name in ("ranked", "decided_early", "comebacks", "behind_rounds", "before_last"):
            setattr(self, name, getattr(self, name) + getattr(o, name))


def _share(k: float, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"count": round(k, 6), "of": n, "share": round(k / n, 6) if n else 0.0,
            "ci95": [round(lo, 6), round(hi, 6)]}


def _spread(c: Counter) -> dict[str, Any]:
    if not c:
        return {"mean": 0.0, "sd": 0.0, "n": 0, "median": 0, "p10": 0, "p90": 0}
    return {"mean": round(mean_of(c), 6), "sd": round(sd_of(c), 6), "n": sum(c.values()),
            "median": median_of(c), "p10": percentile_of(c, 10), "p90": percentile_of(c, 90)}


def seat_wins(wins: list[float], teams: list[int] | None) -> list[float]:
    """Each seat's own wins from its share of them: in a game of teams a team's win is shared
    among its seats (``wins``), yet each of them won it, so an agent holding a team's seats
    wins as often as the team."""
    if not teams:
        return wins
    return [w * teams.count(teams[p]) for p, w in enumerate(wins)]


def agent_wins(won: list[float], held: list[int], teams: list[int] | None,
               games: int) -> tuple[float, int]:
    """An agent's wins and the number of chances it had, for its win rate and interval: one
    chance a game per seat it holds, but seats of one team win together (one chance)."""
    w = math.fsum(won[p] for p in held)
    if not teams:
        return w, games * len(held)
    k = len({teams[p] for p in held})
    return w * k / len(held), games * k


def summarize(t: Any, players: int, agents: list[str], wins: list[float]) -> dict[str, Any]:
    """The metrics of a run, JSON-ready, from its ``sim.Tally`` ``t`` (``t.metrics`` is the
    ``MetricTally``) and each seat's wins (a shared win counted 1/k to each of its k winners)."""
    m: MetricTally = t.metrics
    games, fair = t.games, 1 / players
    seats = []
    for p in range(players):
        s = _share(wins[p], games)
        seats.append({"seat": p, **s, "minus_fair": round(s["share"] - fair, 6),
                      "fair_in_ci": s["ci95"][0] <= fair <= s["ci95"][1]})
    by_place = [math.fsum(chain.from_iterable(repeat(1.0 / k, n) for (q, k), n in
                                              m.position_wins.items() if q == pos))
                for pos in range(players)]
    places = []
    for pos in range(players):
        s = _share(by_place[pos], games)
        places.append({"place": pos + 1, **s, "fair_in_ci": s["ci95"][0] <= fair <= s["ci95"][1]})
    skill = None
    if len(set(agents)) > 1:
        won = seat_wins(wins, t.teams)  # a seat of a winning team won (teams: 1 / teams fair)
        even = 1 / len(set(t.teams)) if t.teams else fair
        rates = []
        for a in dict.fromkeys(agents):
            held = [p for p in range(players) if agents[p] == a]
            w, n = agent_wins(won, held, t.teams, games)
            rates.append((w / n if n else 0.0, a, w, n))  # n is 0 when no game ended
        _rate, a, w, n = max(rates, key=lambda x: x[0])  # the first listed wins a tie
        s = _share(w, n)
        skill = {"agent": a, **s, "fair": round(even, 6), "gap": round(s["share"] - even, 6)}
    payouts = {c: {r: _spread(v) for r, v in sorted(roles.items()) if v}
               for c, roles in sorted(t.role.items())}
    for roles in payouts.values():
        for v in roles.values():
            for k in ("median", "p10", "p90"):
                del v[k]
    return {
        "fair_share": round(fair, 6),
        "seat_fairness": {"seats": seats,
                          "max_gap": round(max(abs(s["share"] - fair) for s in seats), 6)},
        "first_player": places[0],
        "turn_order": places,
        "length": {"rounds": _spread(t.rounds), "decisions": _spread(m.decisions)},
        "ranked_games": m.ranked,
        "decisiveness": _share(m.decided_early, m.ranked),
        "lead_changes": {**_spread(m.lead_changes),
                         "games_with_one": _share(sum(v for k, v in m.lead_changes.items()
                                                      if k > 0), m.ranked)},
        "drama": {"comeback_games": _share(m.comebacks, m.ranked),
                  "rounds_behind": _share(m.behind_rounds, m.before_last)},
        "skill_gap": skill,
        "ended_by_share": {k: _share(v, sum(t.ended.values())) for k, v in sorted(t.ended.items())},
        "payouts": payouts,
    }


def lines(s: dict[str, Any]) -> list[str]:
    """The metrics of ``simulate``'s statistics as text lines (docs/metrics.md)."""
    m = s.get("metrics")
    if not m:
        return []

    def pct(x: dict[str, Any]) -> str:
        return f"{x['share']:.1%} ({x['ci95'][0]:.1%} – {x['ci95'][1]:.1%})"

    fair = m["fair_share"]
    out = ["game-quality metrics (docs/metrics.md):"]
    off = [f"P{x['seat']}" for x in m["seat_fairness"]["seats"] if not x["fair_in_ci"]]
    out.append(f"  seat fairness: largest gap from {fair:.1%}: "
               f"{m['seat_fairness']['max_gap']:.1%}; "
               + (f"CI misses it for {', '.join(off)}" if off else "every CI holds it"))
    out.append(f"  first player's win share: {pct(m['first_player'])} vs {fair:.1%}")
    for key in ("rounds", "decisions"):
        x = m["length"][key]
        out.append(f"  {key} per game: median {x['median']:g}, p10 {x['p10']:g}, "
                   f"p90 {x['p90']:g}, mean {x['mean']:.2f}")
    if m["ranked_games"]:
        out.append(f"  decided before the last round: {pct(m['decisiveness'])} of "
                   f"{m['ranked_games']} ranked games")
        lc = m["lead_changes"]
        out.append(f"  lead changes per game: mean {lc['mean']:.2f}; "
                   f"games with any: {pct(lc['games_with_one'])}")
        d = m["drama"]
        out.append(f"  drama: the winner was behind in {pct(d['comeback_games'])} of games,")
        out.append(f"    after {pct(d['rounds_behind'])} of the rounds before the last")
    else:
        out.append("  decisiveness, lead changes, drama: no game's winner is singled out by "
                   "a counter")
    if m["skill_gap"]:
        k = m["skill_gap"]
        out.append(f"  skill gap: {k['agent']} wins {pct(k)}, {k['gap']:+.1%} over {k['fair']:.1%}")
    return out
