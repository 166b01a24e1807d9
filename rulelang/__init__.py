"""rulelang: a declarative rules language for card games, and one engine that runs them all.

    game = rulelang.load("games/my-game.yaml", options={"hand_size": 5})
    state = game.new_state(players=4, seed=1)
    while not state.is_over():
        state.apply(state.legal_moves()[0])

The pipeline, one module per stage: yamlload -> rules (extends, schema) -> parse -> compile
(names, types, generated Python; codegen runs it) -> check (flow passes) -> build (the Game,
game.py) -> engine (the State, over table, movetext and runtime; views above it) -> agents ->
cli. docs/architecture.md walks through it.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.2.0"
__all__ = ["RulesError", "accelerated", "load"]

from .accel import accelerated, guard
from .errors import RulesError

guard()  # a compiled module older than its source is not used (accel.py); no-op in pure Python


def load(path_or_name: str, options: dict[str, Any] | None = None,
         allow_any_path: bool = False) -> Any:
    """Load, check and compile a rules file (or a bundled game by name) into a ``Game``."""
    from .build import build_game
    from .rules import load_rules

    return build_game(load_rules(path_or_name, allow_any_path), options)
