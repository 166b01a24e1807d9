"""The command line's flags checked and turned into what the library takes: ``--option K=V``
pairs, the engine limits (``--max-steps`` …) and the bot's work. Usage errors, never
tracebacks."""

from __future__ import annotations

from .errors import UsageError


def parse_options(opts: list[str] | None) -> dict[str, str]:
    out: dict[str, str] = {}
    for o in opts or []:
        k, sep, v = o.partition("=")
        if not sep or not k.strip():
            raise UsageError(f"--option takes KEY=VALUE, got '{o}'")
        out[k.strip()] = v.strip()
    return out


def check_bot_work(v: int | None) -> None:
    if v is not None and v < 1:
        raise UsageError("--bot-work must be at least 1")


def engine_limits(max_steps: int | None, max_round_steps: int | None, max_moves: int | None,
            max_rounds: int | None, max_work: int | None) -> dict[str, int]:
    """The engine limits given on the command line, as ``new_state`` takes them."""
    limits = {}
    for flag, key, v in (("--max-steps", "max_game_steps", max_steps),
                         ("--max-round-steps", "max_round_steps", max_round_steps),
                         ("--max-moves", "max_moves", max_moves),
                         ("--max-rounds", "max_rounds", max_rounds),
                         ("--max-work", "max_work", max_work)):
        if v is not None:
            if v < 1:
                raise UsageError(f"{flag} must be at least 1")
            limits[key] = v
    return limits
