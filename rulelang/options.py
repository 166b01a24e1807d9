"""A game's options: the rules file's defaults, then what the caller gives.

Options are fixed before anything is compiled, because they are constants of the compiled
game. A value given as text (``--option lives=3``) is read by the type of the default; an
unknown option or a value out of its declared range is a usage error, with the nearest name.
"""

from __future__ import annotations

from typing import Any

from .errors import UsageError, did_you_mean
from .yamlload import YMap


def resolve_options(doc: YMap, given: dict[str, Any] | None) -> tuple[dict[str, Any],
                                                                     dict[str, dict[str, Any]]]:
    """Option values: the rules file's defaults, then ``given`` (strings are parsed by the type
    of the default). Raises ``UsageError`` for an unknown option or a bad value."""
    specs: dict[str, dict[str, Any]] = {}
    values: dict[str, Any] = {}
    for name, spec in (doc.get("options") or {}).items():
        specs[str(name)] = dict(spec)
        values[str(name)] = spec.get("default")
    for k, v in (given or {}).items():
        if k not in specs:
            raise UsageError(f"this game has no option '{k}'{did_you_mean(k, specs)}"
                             + (f"; its options are {', '.join(specs)}" if specs else ""))
        values[k] = coerce_option(k, v, specs[k])
    return values, specs


# the numbers an option may be given, from the command line or a replay log: those a rules file
# may write (yamlload refuses larger ones), never infinity or NaN
BOUND = 10**15


def coerce_option(name: str, v: Any, spec: dict[str, Any]) -> Any:
    default = spec.get("default")
    if isinstance(v, str):
        t = v.strip()
        if isinstance(default, bool):
            if t.lower() in ("true", "yes", "1", "on"):
                v = True
            elif t.lower() in ("false", "no", "0", "off"):
                v = False
            else:
                raise UsageError(f"option '{name}' takes true or false, not '{v}'")
        elif isinstance(default, int):
            try:
                v = int(t)
            except ValueError:
                raise UsageError(f"option '{name}' takes a whole number, not '{v}'") from None
        elif isinstance(default, float):
            try:
                v = float(t)
            except ValueError:
                raise UsageError(f"option '{name}' takes a number, not '{v}'") from None
    if isinstance(default, bool) != isinstance(v, bool) or (
            isinstance(default, (int, float)) and not isinstance(v, (int, float))):
        raise UsageError(f"option '{name}' takes a value like {default!r}, not {v!r}")
    if "min" in spec and isinstance(v, (int, float)) and v < spec["min"]:
        raise UsageError(f"option '{name}' must be at least {spec['min']}, not {v}")
    if "max" in spec and isinstance(v, (int, float)) and v > spec["max"]:
        raise UsageError(f"option '{name}' must be at most {spec['max']}, not {v}")
    if isinstance(v, (int, float)) and not isinstance(v, bool) and not -BOUND <= v <= BOUND:
        # false for NaN too, which every range test would let through
        raise UsageError(f"option '{name}' takes a number from -10^15 to 10^15, not '{v}'")
    if "choices" in spec and v not in spec["choices"]:
        raise UsageError(f"option '{name}' must be one of "
                         f"{', '.join(map(str, spec['choices']))}, not {v!r}")
    return v
