"""The ``ismcts`` bot's settings: their defaults, and ``parse_spec``, which reads an agent's
name as written on the command line (``ismcts:200ms:random:c=1.2``) into the keyword arguments
of ``ismcts.ISMCTSAgent``, or refuses it with a usage error that lists what may be written.
"""

from __future__ import annotations

from typing import Any

from .errors import UsageError

DEFAULT_ITERATIONS = 1000
MAX_ITERATIONS = 1_000_000
MAX_MS = 600_000
UCT_C = 0.7  # exploration constant for rewards in [0, 1]
POLICIES = ("random", "greedy")  # the playout policies (ismcts.py)
GUARD = 1.0  # standard errors by which the search must beat the policy's move to overrule it
DEEP = False  # the tree holds the seat's later moves too (see ISMCTSAgent.deep)
FLAT = True  # the tree holds the seat's first move only (see ISMCTSAgent.flat)


def parse_spec(spec: str) -> dict[str, Any]:
    """``ismcts``, ``ismcts:1000`` (iterations), ``ismcts:200ms`` (CPU milliseconds per
    decision), each optionally followed by ``:greedy`` or ``:random`` (the playout policy),
    ``:tree`` (the other seats' moves searched too, not played by the policy), ``:c=1.2``
    (the UCB constant), ``:place`` (results by places, not by scaled heuristic differences),
    ``:uniform`` (samples deal every unseen card anew, the cards seen going into hidden
    places too), ``:infer`` (samples drawn from worlds weighted by how likely the others'
    moves were in them, infer.py) and ``:move``/``:turn``/``:deep`` (the tree holds the
    seat's first move only, the default; or stops where another seat moves; or neither):
    the agent's settings, or a usage error."""
    parts = spec.strip().lower().split(":")
    if parts[0] != "ismcts":
        raise UsageError(f"not an ismcts agent: '{spec}'")
    out: dict[str, Any] = {"iterations": DEFAULT_ITERATIONS, "ms": None, "rollout": "greedy",
                           "c": UCT_C, "opponents": "policy", "value": "scaled", "known": True,
                           "deep": DEEP, "guard": GUARD, "infer": False, "flat": FLAT}
    for p in parts[1:]:
        if p in POLICIES:
            out["rollout"] = p
        elif p == "tree":
            out["opponents"] = "tree"
        elif p == "place":
            out["value"] = "place"
        elif p == "uniform":
            out["known"] = False
        elif p == "infer":
            out["infer"] = True
        elif p in ("turn", "deep", "move"):
            out["deep"] = p == "deep"
            out["flat"] = p == "move"
        elif p.startswith(("guard=", "c=")):
            key, _, text = p.partition("=")
            try:
                x = float(text)
            except ValueError:
                x = -1.0
            if not 0 <= x <= 100:
                raise UsageError(f"ismcts: {key}= takes a number from 0 to 100, not '{text}'")
            out[key] = x
        elif p.endswith("ms") and p[:-2].isdigit() and 1 <= int(p[:-2]) <= MAX_MS:
            out["ms"], out["iterations"] = int(p[:-2]), None
        elif p.isdigit() and 1 <= int(p) <= MAX_ITERATIONS:
            out["iterations"] = int(p)
        else:
            raise UsageError(
                f"ismcts: '{p}' is not a budget or a setting; write ismcts:ITERATIONS "
                f"(1 to {MAX_ITERATIONS:,}), ismcts:MSms (1 to {MAX_MS:,}), then optionally "
                f":greedy or :random (the playouts), :tree (search the other seats' moves "
                f"too), :c=NUMBER (exploration), :guard=NUMBER, :place, :uniform, :infer, "
                f":move, :turn or :deep "
                f"(docs/agents.md)")
    return out
