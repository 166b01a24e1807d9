"""Fingerprints of seeded IS-MCTS searches on every bundled game: to show a change to the search's
cost left the search itself as it was (docs/agents.md, "eleventh session").

    python benchmarks/ismcts_same.py > before.txt      # at the base, e.g. from an export of it
    python benchmarks/ismcts_same.py > after.txt       # on the branch; the two must be equal
    python benchmarks/ismcts_same.py thirty-one uno    # some games only

For each game, at the default number of players, three positions (seeds 3, 4, 5: the first
decision with two moves or more after 3, 9 and 17 random ones) and each setting below, one
search with a fixed number of iterations: the line holds its choice, every root move's visits
and mean (``repr``: every bit), the iterations run, the budget of work left, and the next
draw of the agent's generator (so a search that drew once more or once less shows).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SETTINGS = ("ismcts:40", "ismcts:40:random", "ismcts:40:tree", "ismcts:40:uniform",
            "ismcts:40:turn", "ismcts:30:deep:place", "ismcts:30:infer")
POSITIONS = ((3, 3), (4, 9), (5, 17))  # (seed, random moves before)


def fingerprints(name: str, settings: tuple[str, ...] = SETTINGS) -> list[str]:
    import rulelang
    from rulelang.ismcts import ISMCTSAgent, parse_spec

    g = rulelang.load(str(ROOT / "games" / f"{name}.yaml"), allow_any_path=True)
    out = []
    for seed, before in POSITIONS:
        s = g.new_state(g.default_players, seed=seed, record=False)
        rng = random.Random(seed)
        k = 0
        while (k < before or s.num_moves() < 2) and not s.is_over():
            s.apply_index(int(rng.random() * s.num_moves()))
            k += 1
        if s.is_over():
            out.append(f"{name} {seed} over")
            continue
        for spec in settings:
            opts = parse_spec(spec)
            bot = ISMCTSAgent(seed * 7 + 1, **opts)
            t = s.clone()
            i = bot.choose_index(t, t.current_player())
            vis = sorted(bot.last_visits.items())
            val = sorted((m, repr(v)) for m, v in bot.last_values.items())
            out.append(f"{name} {seed} {spec} choice={i} it={bot.last_iterations} "
                       f"left={bot._left} next={bot.rng.random()!r} visits={vis} means={val}")
    return out


def main() -> None:
    names = sys.argv[1:] or sorted(p.stem for p in (ROOT / "games").glob("*.yaml"))
    for name in names:
        for line in fingerprints(name):
            print(line, flush=True)


if __name__ == "__main__":
    main()
