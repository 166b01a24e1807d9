"""A fingerprint of seeded random play of every bundled game: to show that a change to the
engine's cost left every game as it was, work charged included.

    python benchmarks/playhash.py > before.txt      # at the base (an export, through PYTHONPATH)
    python benchmarks/playhash.py > after.txt       # on the branch; the two must be equal
    python benchmarks/playhash.py go-fish uno       # some games only

For each game at its default number of players, seeds 1, 2 and 3, 400 random decisions each (a
new game, seed + 100, when one ends): at every decision the number of legal moves, the text of
the move chosen and ``work_done`` are hashed, then the result; one line per game.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def fingerprint(name: str, decisions: int = 400) -> str:
    import rulelang

    g = rulelang.load(str(ROOT / "games" / f"{name}.yaml"), allow_any_path=True)
    h = hashlib.sha256()
    for seed in (1, 2, 3):
        s = g.new_state(g.default_players, seed=seed, record=False)
        rng = random.Random(seed)
        for _ in range(decisions):
            if s.is_over():
                s = g.new_state(g.default_players, seed=seed + 100, record=False)
            k = s.num_moves()
            i = int(rng.random() * k)
            h.update(f"{k}|{s.legal_moves()[i]}|{s.work_done}|".encode())
            s.apply_index(i)
        h.update(repr(s.result() if s.is_over() else None).encode())
    return h.hexdigest()[:16]


def main() -> None:
    names = sys.argv[1:] or sorted(p.stem for p in (ROOT / "games").glob("*.yaml"))
    for name in names:
        print(f"{name:28s} {fingerprint(name)}", flush=True)


if __name__ == "__main__":
    main()
