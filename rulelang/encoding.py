"""Fixed-size numbers for a game: what the research-environment adapters hand to learners.

``Encoding(game, players)`` works out, once per game and table size, a flat observation layout
and a fixed action space; ``observe(S, seat)`` and ``legal_indices(S)`` then read a state, and
``describe(i)`` reads an action back as a move text. Both adapters (``rulelang.pettingzoo``,
``rulelang.openspiel``) use this one encoding, so that an agent trained on one sees the same
numbers on the other. Pure Python: the adapters turn the lists into their arrays.
docs/environments.md describes the layout.

Observation, from ``seat``'s point of view (seats relative: 0 is the seat itself, 1 the next
seat clockwise, ...), every block in this order:

- per zone of the rules file (a per-player zone once per relative seat), ``2 * K + 1`` numbers,
  K the card names of the deck: how many cards of each name the seat sees there, the name of
  the top card if the seat sees it (one-hot), how many cards lie there that it cannot see (the
  unknown), and nothing else of them; melds count in the zone that holds them;
- per counter, one number per relative seat (numbers and yes/no; a card or other value as 0);
- per global: a number or yes/no as one number; a seat as a one-hot of ``players + 1`` (the
  relative seat, or none); a card or list of cards as K counts of the names the seat sees; any
  other value (a word, a record) as one 0: such values show in the text of the view only;
- the phase (one-hot), whose turn (one-hot of ``players + 1``), the dealer (one-hot), which
  seats are still in play, the seat itself (one-hot of the absolute seat), the round number.

Actions: where every argument of every action is a card, a seat or one of a list fixed in its
rules text (``['up', 'down']``, ``suits``), the action space is the product of the argument
domains per move template (``template`` mode): a card is named by its name (K) where the mover
sees it, else by its 1-based place in its zone (one of ``ncards``), a seat by its place
relative to the mover, a fixed list's value by its place in the list. Otherwise (numbers worked
out in play, several cards at once, melds) the action space is the index into ``legal_moves()``
(``index`` mode), ``MAX_MOVES`` wide; so is a template space wider than ``MAX_ENV_ACTIONS``.
"""

from __future__ import annotations

from typing import Any

from . import nodes as N
from .errors import RulesError
from .game import CARDS, FREE, Game
from .limits import MAX_ENV_ACTIONS, MAX_MOVES, MAX_NUMBER
from .movetext import canon_move
from .parse import parse

_NUMERIC = ("int", "num", "bool")
_TEMPLATE_TYPES = ("card", "seat")


def _number(v: Any) -> float:
    """A value as one number: numbers and yes/no as they are (bounded), anything else 0."""
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(max(-MAX_NUMBER, min(MAX_NUMBER, v)))
    return 0.0


def view_text(S: Any, seat: int) -> str:
    """``S.view(seat)`` as lines of text: what the seat may see, unseen cards as ``?``."""
    v = S.view(seat)
    lines = [f"P{seat} of {v['players']}, round {v['round']}, dealer P{v['dealer']}, "
             f"phase {v['phase']}, to move: "
             + ("-" if v["to_move"] is None else f"P{v['to_move']}")
             + ("" if v["status"] == "play" else f", {v['status']}")]
    for name, cards in v["zones"].items():
        lines.append(f"  {name}: {_cards(cards)}")
    for kind in ("counters", "globals"):
        for name, val in v[kind].items():
            lines.append(f"  {name}: {val}")
    if v.get("legal"):
        lines.append("  legal: " + ", ".join(v["legal"]))
    if v["winner"] is not None:
        lines.append(f"  winner: {v['winner']}")
    return "\n".join(lines)


def _cards(x: Any) -> str:
    if isinstance(x, list):
        return "[" + " ".join(_cards(c) for c in x) + "]"
    return str(x)


class Encoding:
    """The observation layout and the action space of a game at a table of ``players``."""

    def __init__(self, game: Game, players: int) -> None:
        self.game = game
        self.n = n = players
        probe = game.new_state(players, seed=0)
        self.ncards = probe.ncards
        names = game.tables.name
        self.names: list[str] = list(dict.fromkeys(names[c] for c in range(probe.ncards)))
        self.name_index = {nm: i for i, nm in enumerate(self.names)}
        self.card_name = [self.name_index[names[c]] for c in range(probe.ncards)]
        k = self.K = len(self.names)
        # zone blocks: (zone def index, relative seat or -1), each 3K + 1 wide
        self.zone_blocks: list[tuple[int, int]] = []
        for i, zd in enumerate(game.zones):
            self.zone_blocks.extend([(i, r) for r in range(n)] if zd.per_player else [(i, -1)])
        gkinds, ckinds = game.slot_kinds()
        self.global_kinds: list[str] = []
        for (name, _), kind in zip(game.globals, gkinds):
            t = game.global_types.get(name, "any")
            self.global_kinds.append("seat" if t == "seat" else "number" if t in _NUMERIC
                                     else "cards" if kind == CARDS else "other")
        self.counter_numeric = [k == FREE for k in ckinds]
        self.phases = list(game.phases)
        widths = [2 * k + 1] * len(self.zone_blocks) + [n] * len(game.counters) + [
            {"seat": n + 1, "number": 1, "cards": k, "other": 1}[g] for g in self.global_kinds
        ] + [len(self.phases), n + 1, n, n, n, 1]
        self.size = sum(widths)
        self._template_setup(game)

    # ------------------------------------------------------------------ observation

    def layout(self) -> list[tuple[str, int]]:
        """The observation's blocks, in order: (what it is, how many numbers)."""
        g, n, k = self.game, self.n, self.K
        out = [(f"zone {g.zones[i].name}" + (f" of seat +{r}" if r >= 0 else ""), 2 * k + 1)
               for i, r in self.zone_blocks]
        out += [(f"counter {name}", n) for name, _ in g.counters]
        out += [(f"global {name} ({kind})", {"seat": n + 1, "number": 1, "cards": k,
                                            "other": 1}[kind])
                for (name, _), kind in zip(g.globals, self.global_kinds)]
        return out + [("phase", len(self.phases)), ("to move", n + 1), ("dealer", n),
                      ("in play", n), ("seat", n), ("round", 1)]

    def observe(self, S: Any, seat: int) -> list[float]:
        """``seat``'s observation of ``S`` as a flat list of ``size`` numbers."""
        n, k = self.n, self.K
        out = [0.0] * self.size
        vis, cname = S.visible, self.card_name
        container = {z: cz for cz, zs in S.groups.items() for z in zs}
        # the declared zone ids of each block (a per-player zone's copy for that seat)
        block_of: dict[int, int] = {}
        for b, (i, r) in enumerate(self.zone_blocks):
            zd = self.game.zones[i]
            block_of[zd.first_id + ((seat + r) % n if r >= 0 else 0)] = b
        for z, cards in enumerate(S.zones):
            if not cards:
                continue
            b = block_of.get(container.get(z, z))
            if b is None:
                continue
            base = b * (2 * k + 1)
            for c in cards:
                if vis(c, seat):
                    out[base + cname[c]] += 1.0
                else:
                    out[base + 2 * k] += 1.0
            if z not in container and vis(cards[0], seat):  # a meld has no top card
                out[base + k + cname[cards[0]]] = 1.0
        pos = len(self.zone_blocks) * (2 * k + 1)
        for row, numeric in zip(S.ctr, self.counter_numeric):
            if numeric:
                for p in range(n):
                    out[pos + (p - seat) % n] = _number(row[p])
            pos += n
        for v, kind in zip(S.g, self.global_kinds):
            if kind == "seat":
                out[pos + ((v - seat) % n if isinstance(v, int) and 0 <= v < n else n)] = 1.0
                pos += n + 1
            elif kind == "cards":
                for c in (v if isinstance(v, list) else [v]):
                    if type(c) is int and 0 <= c < self.ncards and vis(c, seat):
                        out[pos + cname[c]] += 1.0
                pos += k
            else:
                out[pos] = _number(v) if kind == "number" else 0.0
                pos += 1
        if S.phase in self.phases:
            out[pos + self.phases.index(S.phase)] = 1.0
        pos += len(self.phases)
        who = S.current_player()
        out[pos + ((who - seat) % n if who is not None else n)] = 1.0
        pos += n + 1
        if isinstance(S.dealer, int) and 0 <= S.dealer < n:
            out[pos + (S.dealer - seat) % n] = 1.0
        pos += n
        for p in range(n):
            out[pos + (p - seat) % n] = 1.0 if S.active[p] else 0.0
        pos += n
        out[pos + seat] = 1.0
        out[pos + n] = float(S.round)
        return out

    # ------------------------------------------------------------------ actions

    def _template_setup(self, game: Game) -> None:
        """The template action space, where every argument is a card, a seat or one of a fixed
        list and it is not too wide; otherwise the index space."""
        self.templates: dict[tuple[str, tuple[str, ...]], int] = {}
        self.template_list: list[tuple[str, tuple[str, ...], int]] = []
        # an argument's fixed list of values (['up', 'down'], suits), by (phase, action, arg)
        self.fixed: dict[tuple[str, str, int], list[Any]] = {}
        self.card_domain = self.K + self.ncards
        size = 0
        ok = True
        for ph in game.phases.values():
            for a in ph.actions:
                types = []
                for j, (name, _f, t, _s) in enumerate(a.args):
                    values = None if t in _TEMPLATE_TYPES else _fixed_values(game, a, name)
                    if values is not None:
                        self.fixed[(a.phase, a.name, j)] = values
                        t = "one of " + " ".join(map(str, values))
                    elif t not in _TEMPLATE_TYPES:
                        ok = False
                    types.append(t)
                key = (canon_move(a.name), tuple(types))
                if key in self.templates:
                    continue
                self.templates[key] = size
                self.template_list.append((a.name, key[1], size))
                width = 1
                for t in types:
                    width *= self._width(t)
                size += width
        if ok and size <= MAX_ENV_ACTIONS:
            self.mode, self.num_actions = "template", size
        else:
            self.mode, self.num_actions = "index", MAX_MOVES

    def _width(self, t: str) -> int:
        if t == "card":
            return self.card_domain
        return self.n if t == "seat" else len(t.split()) - 2

    def legal_indices(self, S: Any) -> dict[int, str]:
        """The legal moves of ``S`` (to move now) by action index: index -> move text."""
        texts = S.legal_moves()
        if self.mode == "index":
            return dict(enumerate(texts))
        out: dict[int, str] = {}
        mover = S.current_player()
        for text in texts:
            action, args = S._legal[canon_move(text)]
            i = self._index_of(S, mover, action, args)
            if i in out:
                raise RuntimeError(f"two legal moves share action {i} ('{out[i]}', '{text}'): "
                                   "this game's moves cannot be told apart by card names and "
                                   "places")
            out[i] = text
        return out

    def _index_of(self, S: Any, mover: int, action: Any, args: tuple) -> int:
        types = []
        i = 0
        for j, ((_n, _f, t, _s), v) in enumerate(zip(action.args, args)):
            values = self.fixed.get((action.phase, action.name, j))
            if values is not None:
                t = "one of " + " ".join(map(str, values))
                i = i * len(values) + values.index(v)
            elif t == "card":
                if S.visible(v, mover):
                    d = self.card_name[v]
                else:  # by its place, as the move's text names it
                    d = self.K + min(S.zones[S.loc[v]].index(v), self.ncards - 1)
                i = i * self.card_domain + d
            else:
                i = i * self.n + (v - mover) % self.n
            types.append(t)
        return self.templates[(canon_move(action.name), tuple(types))] + i

    def describe(self, i: int) -> str:
        """A text for action ``i`` whatever the state (the move text when it is legal is
        better: ``legal_indices``)."""
        if self.mode == "index":
            return f"move #{i + 1}"
        for name, types, start in reversed(self.template_list):
            if i >= start:
                rest, parts = i - start, []
                for t in reversed(types):
                    w = self._width(t)
                    d, rest = rest % w, rest // w
                    parts.append(("P+" + str(d)) if t == "seat" else t.split()[2 + d]
                                 if t != "card" else self.names[d] if d < self.K
                                 else f"#{d - self.K + 1}")
                return " ".join([name, *reversed(parts)])
        return f"action {i}"


def _fixed_values(game: Game, action: Any, arg: str) -> list[Any] | None:
    """The values an argument's options can only be taken from, when its rules text says so
    outright: a list of constants (``['up', 'down']``) or the deck's suits or ranks."""
    try:
        text = game.doc["phases"][action.phase]["actions"][action.name]["args"][arg]
        tree = parse(text)
    except (KeyError, TypeError, RulesError):
        return None
    if isinstance(tree, N.Name) and tree.id in ("suits", "ranks"):
        return list(game.deck.suits if tree.id == "suits" else game.deck.ranks)
    if isinstance(tree, N.ListLit) and tree.items and \
            all(isinstance(x, N.Const) and isinstance(x.value, str) and " " not in x.value
                for x in tree.items):
        values = [x.value for x in tree.items]
        return values if len(set(values)) == len(values) else None
    return None
