"""Reading and checking a rules file's ``display:`` section (what a player sees: see
``display.py``), called by ``build.Builder``. Every problem is a located error with a
did-you-mean for unknown names: a shown name that is neither a global nor a counter, a format
that is not one, a hand function that is not a function of one argument giving text, a
requirement that is not text, a sort that is neither a way of sorting nor a function of one
card giving a number.

An entry inherited through ``extends:`` that names a global or counter the variant removed is
left out without an error: removing an item removes its display too.
"""

from __future__ import annotations

from typing import Any

from .display import FORMATS, NO_HAND, SORTS, DisplayDef, Shown
from .errors import did_you_mean
from .yamlload import YMap

# the checker's types a piece of display text may have (a text, or none to show nothing)
TEXT_TYPES = ("str", "any", "none")
NUMBER_TYPES = ("int", "num", "any")


def build_display(b: Any, c: Any, doc: Any, functions: dict[str, Any],
                  counters: dict[str, int], globs: dict[str, int]) -> DisplayDef | None:
    """The ``display:`` section of ``doc`` compiled (None when there is none); its errors go
    to the builder ``b`` (``b.err``), its rules text is compiled by ``c``."""
    sec = doc.get("display")
    if not isinstance(sec, YMap):
        return None  # absent (a wrong shape is the schema's error)
    d = DisplayDef()
    if "shown" in sec:
        d.shown = _shown(b, sec, counters, globs)
        d.labels = {e.name: e.label for e in d.shown}
    if "hand" in sec:
        _hand(b, c, sec, functions, d)
    if "requirement" in sec:
        span = sec.span_of("requirement")
        d.requirement = b.unit(c, sec["requirement"], span)
        if d.requirement is not None and b.unit_type not in TEXT_TYPES:
            b.err(f"display.requirement must give text (or none), not {b.unit_type}; write it "
                  "with text(...) or quotes", span)
    if "sort" in sec:
        d.sort = _sort(b, sec, functions)
    return d


def _shown(b: Any, sec: YMap, counters: dict[str, int], globs: dict[str, int]) -> list[Shown]:
    entries = sec.get("shown") or YMap()
    if not isinstance(entries, YMap):
        return []
    top = b.loaded.path
    out = []
    for name, spec in entries.items():
        name = str(name)
        span = entries.key_span(name)
        if name not in counters and name not in globs:
            if span.path == top:  # inherited: the variant removed it (module docstring)
                b.err(f"display.shown: '{name}' is neither a global nor a counter"
                      f"{did_you_mean(name, [*globs, *counters])}", span)
            continue
        label, fmt, unset = name, "auto", None
        if isinstance(spec, YMap):
            label = str(spec.get("label", name))
            fmt = str(spec.get("format", "auto"))
            unset = spec.get("unset")
            if isinstance(unset, (list, dict, YMap)):
                b.err(f"display.shown: 'unset' of '{name}' must be a number, text or a flag, "
                      "the value that means 'not yet'", spec.span_of("unset"))
                unset = None
            if fmt not in FORMATS:
                b.err(f"display.shown: format '{fmt}' of '{name}' is not one of "
                      f"{', '.join(FORMATS)}{did_you_mean(fmt, FORMATS)}", spec.span_of("format"))
                fmt = "auto"
        elif spec is not None:
            label = str(spec)
        out.append(Shown(name, label, name in counters, fmt, unset))
    return out


def _function(b: Any, name: Any, span: Any, functions: dict[str, Any], what: str,
              ret_types: tuple[str, ...], gives: str) -> str | None:
    """The name of a rules function of one argument giving ``ret_types``, or None (an error
    said why)."""
    name = str(name)
    known = [k for k, f in functions.items() if "@" not in k and not f.effect]
    if name not in functions or functions[name].effect:
        b.err(f"{what} '{name}' is not a function of the rules file"
              f"{did_you_mean(name, known)}", span)
        return None
    fn = functions[name]
    if len(fn.params) != 1:
        b.err(f"{what} '{name}' must take one argument ({gives[0]}), not {len(fn.params)}", span)
        return None
    if fn.ret not in ret_types:
        b.err(f"{what} '{name}' must give {gives[1]}, not {fn.ret}", span)
        return None
    return name


def _hand(b: Any, c: Any, sec: YMap, functions: dict[str, Any], d: DisplayDef) -> None:
    spec, span = sec["hand"], sec.span_of("hand")
    if spec == NO_HAND:  # nothing beside the hand (its count is in plain sight)
        d.hand = NO_HAND
        return
    if isinstance(spec, YMap):
        if "when" in spec:
            d.hand_when = b.unit(c, spec["when"], spec.span_of("when"))
            if d.hand_when is not None and b.unit_type not in ("bool", "any"):
                b.err(f"display.hand.when must be a condition, not {b.unit_type}",
                      spec.span_of("when"))
        if "describe" not in spec:
            b.err("display.hand needs describe: the function that describes a hand", span)
            return
        spec, span = spec["describe"], spec.span_of("describe")
    d.hand = _function(b, spec, span, functions, "display.hand", TEXT_TYPES,
                       ("the hand's cards", "text (or none to show nothing)"))


def _sort(b: Any, sec: YMap, functions: dict[str, Any]) -> str:
    how = str(sec["sort"])
    if how in SORTS:
        return how
    if how not in functions:
        b.err(f"display.sort '{how}' is not {', '.join(SORTS)} or a function of the rules "
              f"file{did_you_mean(how, [*SORTS, *functions])}", sec.span_of("sort"))
        return "suit"
    ok = _function(b, how, sec.span_of("sort"), functions, "display.sort", NUMBER_TYPES,
                   ("a card", "a number to sort by"))
    return ok or "suit"
