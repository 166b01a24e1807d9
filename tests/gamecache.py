"""Compiled bundled games shared within a test process: ``rulelang.load`` of a file under
games/ (which no test changes) with the same options returns the game compiled the first time.

A ``Game`` is immutable in use and plays the same warm or cold (its remembered function results
are charged as when first computed). The test process compiled each bundled game hundreds of
times (a third of the CPU of the tests that play every bundled game). A test that changes a
compiled game takes its own (``helpers.fresh_load``).
``RULELANG_TEST_COLD=1`` (make test-long) leaves ``rulelang.load`` as it is.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

GAMES_DIR = (Path(__file__).resolve().parent.parent / "games").resolve()
_compiled: dict[str, Any] = {}


def install() -> None:
    """Wrap ``rulelang.load`` (unless RULELANG_TEST_COLD)."""
    if os.environ.get("RULELANG_TEST_COLD", "") not in ("", "0"):
        return
    import rulelang
    from rulelang.rules import resolve_game

    load = rulelang.load
    if getattr(load, "shared", False):
        return

    def shared_load(path_or_name: str, options: dict[str, Any] | None = None,
                    allow_any_path: bool = False) -> Any:
        path = resolve_game(str(path_or_name))
        if path is None or path.resolve().parent != GAMES_DIR:
            return load(path_or_name, options, allow_any_path)
        key = repr((str(path.resolve()), sorted((str(k), repr(v)) for k, v in
                                                (options or {}).items())))
        game = _compiled.get(key)
        if game is None:
            game = _compiled[key] = load(path_or_name, options, allow_any_path)
        return game

    shared_load.shared = True  # type: ignore[attr-defined]
    rulelang.load = shared_load  # type: ignore[assignment]
