"""``rulelang explain``: a rules file read back as rules a player can follow (Markdown).

Everything shown comes from the compiled ``Game`` (players, deck, zones, phases, who acts,
options and their values) and from its merged rules document (``Game.doc``): rules text is
quoted as the file writes it, with the comments written just above a key (or after a short
value) as its explanation. Nothing here is prose about a particular game, so the output never
drifts from the rules. For an ``extends:`` file a last section lists what the variant changes
(the keys it sets or removes), compared with the file it extends.

``python -m rulelang.explain --write docs/rules`` writes ``docs/rules/<game>.md`` for every
bundled game (the checked-in copies that tests/test_explain.py keeps current).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from .ruletext import Writer, code, comment, differences, split_effects, text_of, why
from .yamlload import YMap

VISIBILITY = {
    "hidden": "face down: nobody sees its cards",
    "owner": "seen by its owner only",
    "public": "face up: everyone sees its cards",
    "top": "only the top card is seen, by everyone",
    "placer": "a card there is seen by the player who put it there",
}


def _seat_word(n: int) -> str:
    return f"{n} player{'s' if n != 1 else ''}"


def explain(game: Any) -> str:
    """The rules of a compiled game as Markdown (see the module docstring)."""
    doc = game.doc if isinstance(game.doc, YMap) else YMap()
    w = Writer()
    w.head(1, str(game.name or Path(game.path).stem))
    if doc.get("description"):
        w.para(text_of(doc["description"]))
    if doc.get("extends") is not None:
        w.para(f"A variant of {code(doc['extends'])}: its rules, with the differences listed "
               "at the end.")
    _players(w, game, doc)
    _deck(w, game, doc)
    _tables(w, doc)
    _zones(w, game, doc)
    _variables(w, doc)
    _match_start(w, doc)
    _round(w, game, doc)
    _turn(w, game, doc)
    _round_end(w, game, doc)
    _match_end(w, doc)
    _options(w, game, doc)
    _definitions(w, game, doc)
    _display(w, game, doc)
    _other(w, doc)
    differences(w, game)
    return w.text()


def _players(w: Writer, game: Any, doc: YMap) -> None:
    w.head(2, "Players")
    lo, hi, dflt = game.min_players, game.max_players, game.default_players
    count = _seat_word(lo) if lo == hi else f"{lo} to {hi} players ({dflt} unless chosen)"
    w.item(0, count + "; seats are P0, P1, …")
    way = "clockwise (to the left)" if game.direction == 1 else "anticlockwise (to the right)"
    w.item(0, f"play goes {way}")
    teams = doc.get("teams")
    if isinstance(teams, YMap):
        w.item(0, f"teams: each seat's team is {code(teams.get('of'))}"
                  + (f" — {teams['doc']}" if teams.get("doc") else ""))
        if teams.get("counters"):
            w.item(1, "shared by a team's seats: " +
                   ", ".join(code(c) for c in teams["counters"]))
    house = doc.get("house")
    if game.house is not None:
        w.item(0, f"the house ({code(game.house.name)}) plays against the seats, by the rules"
                  + (f" — {house['doc']}" if isinstance(house, YMap) and house.get("doc")
                     else ""))
        for c, gi in game.house.counters.items():
            w.item(1, f"its {code(c)}: the global {code(game.globals[gi][0])}")
        if game.house.zones:
            w.item(1, "its cards: " + ", ".join(code(z) for z in game.house.zones))


def _deck(w: Writer, game: Any, doc: YMap) -> None:
    d = game.deck
    spec = doc.get("deck") if isinstance(doc.get("deck"), YMap) else YMap()
    w.head(2, "The deck")
    copies = spec.get("copies", 1)
    packs = (f"{d.copies} pack{'s' if d.copies != 1 else ''}" if not isinstance(copies, str)
             else f"{code(copies)} packs")
    w.item(0, f"{d.pack_size} cards a pack; {packs}")
    w.item(0, "ranks, low to high: " + " ".join(code(r) for r in d.ranks))
    if d.rank_copies and any(k != 1 for k in d.rank_copies):
        w.item(1, "cards of each rank in a suit: " + ", ".join(
            f"{code(r)} ×{k}" for r, k in zip(d.ranks, d.rank_copies)))
    w.item(0, "suits: " + " ".join(code(s) for s in d.suits))
    if d.jokers:
        w.item(0, f"jokers: {d.jokers} a pack ({code('JK')})")
    if d.unsuited:
        w.item(0, "cards outside the suits: " + ", ".join(
            code(n) + (f" ×{k}" if k != 1 else "") for n, k in d.unsuited))
    example = d.card_name(d.ranks[-1], d.suits[0])
    order = "suit then rank" if d.suit_first else "rank then suit"
    w.item(0, f"a card is written {order}: {code(example)}")
    attrs = spec.get("attributes")
    if isinstance(attrs, YMap):
        for name, a in attrs.items():
            by = a.get("by", "name") if isinstance(a, YMap) else "name"
            vals = a.get("values", {}) if isinstance(a, YMap) else {}
            w.item(0, f"card attribute {code(name)} (by {by}): " + ", ".join(
                f"{code(k)} {text_of(v)}" for k, v in vals.items()))


def _tables(w: Writer, doc: YMap) -> None:
    vals, data = doc.get("values"), doc.get("data")
    if not vals and not data:
        return
    w.head(2, "Values")
    for section in (vals, data):
        if not isinstance(section, YMap):
            continue
        for name, table in section.items():
            if isinstance(table, YMap):
                body = ", ".join(f"{text_of(k)}: {text_of(v)}" for k, v in table.items())
            else:
                body = text_of(table)
            w.item(0, f"{code(name)}{why(section, name)}")
            w.item(1, code(body))


def _zones(w: Writer, game: Any, doc: YMap) -> None:
    zdoc = doc.get("zones") if isinstance(doc.get("zones"), YMap) else YMap()
    w.head(2, "Zones")
    for zd in game.zones:
        z = zdoc.get(zd.name)
        facts = ["one for each player" if zd.per_player else "shared",
                 VISIBILITY.get(zd.visibility, zd.visibility)]
        if isinstance(z, YMap) and "face" in z:
            facts.append(f"a card put into it lies face {z['face']}"
                         + (", seen by everyone" if z["face"] == "up" else ""))
        if zd.home:
            facts.append("the deck starts here")
        if zd.groups:
            facts.append("holds melds (groups of cards)")
        if zd.trick:
            facts.append("remembers who played each card")
        if isinstance(z, YMap) and z.get("doc"):
            facts.append(text_of(z["doc"]))
        w.item(0, f"{code(zd.name)}: {'; '.join(facts)}{why(zdoc, zd.name)}")


def _variables(w: Writer, doc: YMap) -> None:
    parts = [(k, doc.get(k)) for k in ("counters", "globals", "conserved")]
    if not any(isinstance(v, YMap) and v for _k, v in parts):
        return
    w.head(2, "What the game keeps")
    titles = {"counters": "for each player (counters), starting at",
              "globals": "for the table (globals), starting at",
              "conserved": "always the same total (checked in simulation)"}
    for key, m in parts:
        if not isinstance(m, YMap) or not m:
            continue
        w.item(0, titles[key])
        for name, v in m.items():
            w.item(1, f"{code(name)}: {code(v)}{why(m, name)}")


def _match_start(w: Writer, doc: YMap) -> None:
    m = doc.get("match") if isinstance(doc.get("match"), YMap) else YMap()
    if not any(k in m for k in ("first_dealer", "start", "requires")):
        return
    w.head(2, "Before the first round")
    if "requires" in m and isinstance(m["requires"], YMap):
        w.item(0, "the game is refused unless")
        for msg, cond in m["requires"].items():
            w.item(1, f"{code(cond)} (else: {msg})")
    if "first_dealer" in m:
        w.item(0, f"the first dealer: {code(m['first_dealer'])}{why(m, 'first_dealer')}")
    if m.get("start") is not None:
        w.item(0, f"at the start of the match{why(m, 'start')}")
        w.effects(1, m["start"])


def _round(w: Writer, game: Any, doc: YMap) -> None:
    r = doc.get("round") if isinstance(doc.get("round"), YMap) else YMap()
    w.head(2, "A round")
    w.item(0, f"the deal and the start of the round{why(r, 'start')}")
    if r.get("start") is None:
        w.item(1, "nothing is dealt by the rules")
    w.effects(1, r.get("start"))
    first = r.get("first")
    w.item(0, "the first turn: " + (f"{code(first)}{why(r, 'first')}" if first is not None
                                    else "the dealer's"))


def _turn(w: Writer, game: Any, doc: YMap) -> None:
    t = doc.get("turn") if isinstance(doc.get("turn"), YMap) else YMap()
    pdoc = doc.get("phases") if isinstance(doc.get("phases"), YMap) else YMap()
    w.head(2, "A turn")
    fp = t.get("first_phase")
    w.item(0, f"a turn begins in phase {code(fp if fp is not None else game.first_phase)}"
              + why(t, "first_phase"))
    if t.get("start") is not None:
        w.item(0, f"at the start of each turn{why(t, 'start')}")
        w.effects(1, t["start"])
    for name, ph in game.phases.items():
        p = pdoc.get(name) if isinstance(pdoc.get(name), YMap) else YMap()
        w.head(3, f"Phase {code(name)}")
        said = comment(pdoc, name)
        if said:
            w.para(said)
        actor = p.get("actor")
        who = ("the house, by the rules (the first action allowed, no choice)" if ph.house
               else code(actor) if actor is not None else "the player whose turn it is")
        w.item(0, f"who acts: {who}")
        if p.get("enter") is not None:
            w.item(0, f"on entering the phase{why(p, 'enter')}")
            w.effects(1, p["enter"])
        adoc = p.get("actions") if isinstance(p.get("actions"), YMap) else YMap()
        for act in ph.actions:
            if act.item_of is not None:
                continue  # one item of a sequential choice: shown with its action
            _action(w, act.name, adoc.get(act.name), adoc, set(game.phases))
    w.head(3, "After the turn")
    if t.get("end") is not None:
        w.item(0, f"at the end of each turn{why(t, 'end')}")
        w.effects(1, t["end"])
    w.item(0, "the next turn: " + (code(t["next"]) + why(t, "next") if t.get("next")
                                   is not None else "the next seat in play"))


def _action(w: Writer, name: str, a: Any, adoc: YMap, phases: set[str]) -> None:
    a = a if isinstance(a, YMap) else YMap()
    args = a.get("args") if isinstance(a.get("args"), YMap) else YMap()
    shown = " ".join([name] + [f"*{k}*" for k in args])
    w.item(0, f"**{shown}**{why(adoc, name)}" + (f" — {a['doc']}" if a.get("doc") else ""))
    for k, v in args.items():
        if isinstance(v, YMap) and "pick" in v:
            w.item(1, f"*{k}*: {code(v.get('count'))} of {code(v['pick'])}, chosen one at "
                      "a time")
        else:
            w.item(1, f"*{k}*: one of {code(v)}")
    if "when" in a:
        w.item(1, f"allowed when {code(a['when'])}")
    if a.get("do") is not None:
        w.item(1, "does")
        w.effects(2, a["do"])
    nxt = a.get("next")
    if nxt is None:
        w.item(1, "then the turn ends")
    elif text_of(nxt).strip() in phases:
        w.item(1, f"then phase {code(nxt)}")
    elif text_of(nxt).strip() == "end_turn":
        w.item(1, "then the turn ends")
    else:
        w.item(1, f"then {code(nxt)} (a phase, or end_turn: the turn ends)")


def _round_end(w: Writer, game: Any, doc: YMap) -> None:
    r = doc.get("round") if isinstance(doc.get("round"), YMap) else YMap()
    trig = r.get("triggers") if isinstance(r.get("triggers"), YMap) else YMap()
    settle = r.get("settle") if isinstance(r.get("settle"), YMap) else YMap()
    w.head(2, "How a round ends")
    if trig:
        w.para("After every step the triggers are tried in this order; the first that holds "
               "ends the round, which is then settled.")
    for name, t in trig.items():
        when = t.get("when") if isinstance(t, YMap) else t
        ends = not (isinstance(t, YMap) and t.get("end") is False)
        w.item(0, f"**{name}**{why(trig, name)}")
        w.item(1, f"when {code(when)}")
        if isinstance(t, YMap) and t.get("do") is not None:
            w.item(1, "does")
            w.effects(2, t["do"])
        if not ends:
            w.item(1, "the round goes on (end: false)")
        elif name in settle:
            _settle(w, settle, name)
    for name in settle:
        if name in trig:
            continue
        w.item(0, f"**{name}**{why(settle, name)}")
        w.item(1, f"when the rules end it: {code(f'end_round({name!r})')}")
        _settle(w, settle, name)
    if r.get("end") is not None:
        w.item(0, f"after any round is settled{why(r, 'end')}")
        w.effects(1, r["end"])
    nd = r.get("next_dealer")
    w.item(0, "the next dealer: " + (code(nd) + why(r, "next_dealer") if nd is not None
                                     else "the same dealer"))


def _settle(w: Writer, settle: YMap, name: str) -> None:
    body = settle.get(name)
    if body is None or split_effects(body) in ([], ["pass"]):
        w.item(1, "settled: nothing changes")
        return
    w.item(1, "settled")
    w.effects(2, body)


def _match_end(w: Writer, doc: YMap) -> None:
    m = doc.get("match") if isinstance(doc.get("match"), YMap) else YMap()
    w.head(2, "How the match ends")
    over, win = m.get("over"), m.get("winner")
    w.item(0, "after a round, the match is over when " +
           (code(over) + why(m, "over") if over is not None else "never: the rules set no end"))
    w.item(0, "the winner: " + (code(win) + why(m, "winner") if win is not None
                                else "none named by the rules"))


def _options(w: Writer, game: Any, doc: YMap) -> None:
    specs = game.option_specs
    if not specs:
        return
    odoc = doc.get("options") if isinstance(doc.get("options"), YMap) else YMap()
    w.head(2, "Options")
    w.para("Set with `--option NAME=VALUE`; rules text reads them as `opt.NAME`.")
    for name, spec in specs.items():
        facts = [f"default {text_of(spec.get('default'))}"]
        if "min" in spec or "max" in spec:
            facts.append(f"{text_of(spec.get('min', '…'))} to {text_of(spec.get('max', '…'))}")
        if spec.get("choices"):
            facts.append("one of " + ", ".join(text_of(c) for c in spec["choices"]))
        now = game.options.get(name)
        if now != spec.get("default"):
            facts.append(f"now {text_of(now)}")
        text = f"{code(name)} ({'; '.join(facts)})"
        if spec.get("doc"):
            text += f": {' '.join(text_of(spec['doc']).split())}"
        w.item(0, text + ("" if spec.get("doc") else why(odoc, name)))


def _definitions(w: Writer, game: Any, doc: YMap) -> None:
    fdoc = doc.get("functions") if isinstance(doc.get("functions"), YMap) else YMap()
    pdoc = doc.get("procedures") if isinstance(doc.get("procedures"), YMap) else YMap()
    if not fdoc and not pdoc:
        return
    w.head(2, "Definitions used above")
    from .rules import func_name

    for title, m in (("functions (values)", fdoc), ("procedures (effects)", pdoc)):
        if not m:
            continue
        w.item(0, title)
        for sig, body in m.items():
            role = ""
            if func_name(sig) == game.hand_evaluator:
                role = " (the hand's value)"
            elif func_name(sig) == game.heuristic:
                role = " (what the greedy bot maximises)"
            w.item(1, f"{code(sig)}{role}{why(m, sig)}")
            if m is pdoc:
                w.effects(2, body)
            else:
                w.item(2, code(body))


# the sections the parts above read; any other is shown as the file writes it (_other)
SHOWN = frozenset({
    "name", "description", "extends", "remove", "players", "direction", "options", "deck",
    "values", "data", "zones", "counters", "globals", "functions", "procedures", "house",
    "hand_evaluator", "heuristic", "conserved", "teams", "match", "round", "turn", "phases",
    "display"})


def _display(w: Writer, game: Any, doc: YMap) -> None:
    """The ``display:`` section, briefly: what the play screen shows (display.py)."""
    d, sec = game.display, doc.get("display")
    if d is None or not isinstance(sec, YMap):
        return
    w.head(2, "What the table shows")
    if d.shown is not None:
        shown = ", ".join(code(e.name) + (f" as {e.label}" if e.label != e.name else "")
                          for e in d.shown)
        w.item(0, f"on the screen: {shown or 'nothing'}; the rest is the rules' bookkeeping")
    hand = sec.get("hand")
    if d.hand == "none":
        w.item(0, "nothing beside your hand")
    elif d.hand is not None:
        when = hand.get("when") if isinstance(hand, YMap) else None
        w.item(0, f"beside your hand: {code(d.hand)} of it"
               + (f", when {code(when)}" if when is not None else ""))
    if d.requirement is not None:
        w.item(0, f"the round's requirement, in its header: {code(sec.get('requirement'))}")
    if d.sort != "suit":
        w.item(0, f"hands sorted by {code(d.sort)}")


def _other(w: Writer, doc: YMap) -> None:
    """The sections of the rules language this module has no part for, as nested lists."""
    for key in doc:
        if key not in SHOWN:
            w.head(2, f"`{key}`")
            _nested(w, 0, doc, key)


def _nested(w: Writer, depth: int, m: YMap, key: str) -> None:
    v = m[key]
    if isinstance(v, YMap):
        if depth:
            w.item(depth - 1, f"{code(key)}{why(m, key)}")
        for k in v:
            _nested(w, depth + 1, v, k)
    else:
        w.item(max(depth - 1, 0), f"{code(key)}: " + ", ".join(code(e) for e in split_effects(v))
               + why(m, key))


def bundled_explained() -> dict[str, str]:
    """Every bundled game's explanation, by name (what docs/rules/ holds)."""
    import rulelang

    from .rules import bundled_names

    return {name: explain(rulelang.load(name)) for name in bundled_names()}


def main(argv: list[str] | None = None) -> int:
    """``python -m rulelang.explain --write DIR``: (re)write DIR/<game>.md for every bundled
    game; ``--check DIR``: exit 1 if any of them is not current."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) != 2 or args[0] not in ("--write", "--check"):
        print("usage: python -m rulelang.explain --write DIR | --check DIR", file=sys.stderr)
        return 2
    folder = Path(args[1])
    stale = []
    for name, text in bundled_explained().items():
        path = folder / f"{name}.md"
        if args[0] == "--write":
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        elif not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(str(path))
    for p in stale:
        print(f"{p} is not current: python -m rulelang.explain --write {folder}",
              file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
