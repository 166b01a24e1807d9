"""The table: cards, zones, faces and groups, and every way rules move cards between them.

A card is an int (an index into the game's deck tables); a zone is a list of cards, top first;
``loc[c]`` is the zone card ``c`` lies in and ``face[c]`` whether it lies face up. Groups (melds
on the table) are zones made at run time, after the declared ones, and listed per container zone.
``Table`` is the part of the state that holds them: the effects that move cards (``fx_move``,
``fx_meld``...; dealing, gathering, shuffling and the cut are ``dealing.Dealing``'s), who can
see a card, the fixed deal a scenario lays out, and the invariant that every card is in exactly
one zone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .builtins import charged
from .dealing import Dealing
from .errors import RuntimeRulesError, UsageError
from .fixeddeal import deal_fixed
from .groupfx import unmeld
from .groups import Group
from .known import entered, note_none, noted, seen_by, watched
from .limits import MAX_COPIES
from .runtime import WORK, brief, charge, clipped_text, out_of_work
from .tricks import Tricks


class Table(Dealing, Tricks):
    """The cards and zones of a state (a mixin of ``engine.State``, which sets these up); who
    played the cards of a trick is ``Tricks``'. The state's card tables are declared on
    ``Dealing``."""

    # container zone -> (its group zones, the groups made from them, their charge): see
    # group_list. Shared by clones, as a cache checked against each state's own cards
    _gcache: dict[int, tuple[list[int], list[Group], int]]
    messages: list[str]
    # the cuts of cut(), public: one list of (seat, card) per cut, the first cut first
    cuts: tuple[tuple[tuple[int, int], ...], ...] = ()
    # card -> the seat that put it in a zone of visibility 'placer' (-1: none); None when the
    # game has no such zone. Set by every effect that moves cards into one (``placed``)
    placer: list[int] | None = None
    # card -> (zone, the seats that saw it go there, as bits) or None; None when no bot asked
    # for it (known.py)
    known: list[Any] | None = None
    # the moves of this round, each with the state before it, kept while a bot infers the
    # others' hands from them (known.Watch); None when no bot asked
    watch: Any = None
    actor: int | None
    next_seat: Callable[..., int]  # the engine's
    seats_from: Callable[[int], list[int]]  # the engine's

    def packs(self, u: Any) -> int:
        """The packs an expression ``deck.copies`` asks for at this table: a whole number from
        1 to MAX_COPIES (the deck's tables hold no more), else an error located at it."""
        v = u(self)
        if type(v) is float and v.is_integer():
            v = int(v)
        if type(v) is not int or not 1 <= v <= MAX_COPIES:
            raise RuntimeRulesError(f"deck.copies is {clipped_text(v, 40)} with {self.n} "
                                    f"players: it must be a whole number from 1 to "
                                    f"{MAX_COPIES}", u.span)
        return v

    def track_known(self) -> None:
        """Keep, from now on, which hidden cards each seat saw go where (known.py)."""
        if self.known is None:
            self.known = [None] * self.ncards

    def note_move(self, action: Any, args: tuple) -> None:
        """Keep the move about to be played for the bot watching (known.watched)."""
        watched(self, action, args)

    def visible(self, c: int, seat: int) -> bool:
        if self.face[c]:
            return True
        z = self.loc[c]
        if z < 0:
            return False
        v = self.zvis[z]
        if v == 2:
            return True
        if v == 1:
            return self.zowner[z] == seat
        if v == 3:
            return self.zones[z][0] == c
        if v == 4:
            return self.placer[c] == seat  # type: ignore[index]
        return False

    def placed(self, cards: Any, zid: int) -> None:
        """Cards just put in zone ``zid``: in a zone of visibility 'placer', the acting seat
        (the mover; the dealer while dealing) is the one that sees them."""
        if self.zvis[zid] == 4:
            who = -1 if self.actor is None else self.actor
            for c in (cards if isinstance(cards, list) else [cards]):
                self.placer[c] = who  # type: ignore[index]

    def _card(self, c: Any, what: str) -> int:
        """``c`` if it is a card of this deal: a number used as one (-1) would otherwise name
        another card, the way Python counts a list from its end."""
        if type(c) is int and 0 <= c < self.ncards:
            return c
        if c is None:
            raise RuntimeRulesError(f"{what}(): there is no card (the top of an empty zone?)")
        raise RuntimeRulesError(f"{what}(): {brief(c)} is not a card")

    # the built-ins that ask where a card is and who sees it
    def fx_owner(self, c: int) -> int | None:
        o = self.zowner[self.loc[self._card(c, "owner")]]
        return None if o < 0 else o

    def fx_zone_of(self, c: int) -> str:
        return self.znames[self.loc[self._card(c, "zone_of")]]

    def fx_visible_to(self, c: int, seat: int) -> bool:
        if type(seat) is not int or not 0 <= seat < self.n:
            raise RuntimeRulesError(f"visible_to(): {brief(seat)} is not a seat at this table")
        return self.visible(self._card(c, "visible_to"), seat)

    def fx_move_top(self, card: Any, zid: int) -> None:
        """``move(c, zone)`` with neither ``at:`` nor ``face:``, as generated: one card onto the
        top of ``zid``, written for the common case (no known cards, no places on the table;
        a trick's card noted as ``fx_move`` notes it); anything else goes to ``fx_move``,
        which does the same."""
        if (type(card) is not int or not 0 <= card < self.ncards or self.known is not None
                or self.placer is not None):
            self.fx_move(card, zid)
            return
        loc = self.loc
        src = loc[card]
        self.zones[src].remove(card)
        self.zones[zid].insert(0, card)
        loc[card] = zid
        self.face[card] = self.zface[zid]
        if self.ztrick is not None:
            self.note_moved(card, src, zid)

    def fx_move_top_of(self, z: list, zid: int) -> None:
        """``move(top(zone), zid)`` as generated (calls.py): ``top``'s charge of a zone (its
        cards, as ``builtins.top_of_zone``), then ``fx_move_top`` of its top card, in one
        call (the deal's discard, a draw from the stock)."""
        WORK[0] -= len(z)
        if WORK[0] < 0:
            out_of_work()
        if not z or self.known is not None or self.placer is not None:
            self.fx_move(z[0] if z else None, zid)
            return
        card = z.pop(0)  # (z is the card's zone: a zone holds cards only)
        self.zones[zid].insert(0, card)
        loc = self.loc
        src = loc[card]
        loc[card] = zid
        self.face[card] = self.zface[zid]
        if self.ztrick is not None:
            self.note_moved(card, src, zid)

    def fx_move(self, cards: Any, zid: int, at: str = "top", face: str | None = None) -> None:
        known = self.known
        if type(cards) is int and 0 <= cards < self.ncards:  # one card: the common case
            loc = self.loc
            src = loc[cards]
            if known is not None:
                was = seen_by(self, cards)
            self.zones[src].remove(cards)
            if at == "top":
                self.zones[zid].insert(0, cards)
            else:
                self.zones[zid].append(cards)
            loc[cards] = zid
            self.face[cards] = self.zface[zid] if face is None else face == "up"
            if self.ztrick is not None:  # a game with tricks: who played the card (tricks.py)
                self.note_moved(cards, src, zid)
            if self.placer is not None:
                self.placed(cards, zid)
            if known is not None:
                known[cards] = noted(self, cards, zid, was)
                if self.nones:
                    self.nones = entered(self.nones, zid)
            return
        if cards is None:
            raise RuntimeRulesError("move(): there is no card to move (the zone is empty)")
        if not isinstance(cards, list):
            cards = [cards]
        else:
            charge(len(cards))  # each is looked up and moved: a loop, charged as one
            cards = list(cards)
        zones = self.zones
        loc = self.loc
        dest = zones[zid]
        up = self.zface[zid] if face is None else face == "up"
        seen = [seen_by(self, c) if type(c) is int and 0 <= c < self.ncards else 0
                for c in cards] if known is not None else None
        # the zones the cards came from, for who played them (tricks.py): noted together
        srcs: list[int] | None = [] if self.ztrick is not None else None
        try:
            for c in cards:
                if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < self.ncards:
                    raise RuntimeRulesError(f"move(): {c!r} is not a card")
                src = loc[c]
                zones[src].remove(c)
                if at == "top":
                    dest.insert(0, c)
                else:
                    dest.append(c)
                loc[c] = zid
                self.face[c] = up
                if srcs is not None:
                    srcs.append(src)
        finally:
            if srcs:
                self.note_moved_all(cards, srcs, zid)
        if self.placer is not None:
            self.placed(cards, zid)
        if seen is not None:
            for c, was in zip(cards, seen):
                known[c] = noted(self, c, zid, was)  # type: ignore[index]
            if self.nones and cards:
                self.nones = entered(self.nones, zid)

    def group_list(self, container: int) -> list[Group]:
        zs = self.groups.get(container)
        if not zs:
            return []
        zones = self.zones
        # the groups made last time, kept while their zones and cards are the same (compared
        # by value, so no effect that moves cards needs to tell): groups are never changed in
        # place, so the same objects serve again, in a new list
        got = self._gcache.get(container)
        if got is not None and got[0] == zs and got[1] == list(map(zones.__getitem__, zs)):
            # each group is a copy of its cards: charged as a list made (``charge``, written out)
            w = WORK[0] - got[2]
            WORK[0] = w
            if w < 0:
                out_of_work()
            return got[1][:]
        owner = self.zowner[container]
        name = self.znames[container]
        gs = [Group(zones[z], z, owner, i + 1, name) for i, z in enumerate(zs)]
        w = len(zs) + sum([len(g) for g in gs])
        charge(w)
        if len(self._gcache) > 64:  # a clone shares the dict: kept small whatever happens
            self._gcache.clear()
        self._gcache[container] = (zs[:], gs, w)
        return gs[:]

    def group_count(self, container: int) -> int:
        """``len(group_list(container))``, charged the same, without making the groups."""
        zs = self.groups.get(container)
        if not zs:
            return 0
        # (the groups' sizes summed in a plain loop, there being few, and charged as
        # ``charge`` does, written out: this runs in every condition that sizes a pile)
        w = WORK[0] - len(zs)
        zones = self.zones
        for z in zs:
            w -= len(zones[z])
        WORK[0] = w
        if w < 0:
            out_of_work()
        return len(zs)

    def fx_meld(self, cards: Any, container: int) -> None:
        """Lay ``cards`` on the table as a new group of the container zone."""
        if container >= self.game.nzones or not self.game.zone_def(container).groups:
            raise RuntimeRulesError(f"meld(): '{self.znames[container]}' is not a zone of groups")
        cards = cards if isinstance(cards, list) else [cards]
        charge(len(cards))
        cards = sorted(cards, key=self.game.tables.sort_key)
        if not cards:
            return  # nothing to lay down: no group (docs/language.md §5.4)
        zid = len(self.zones)
        self.zones.append([])
        # copy on write: clones share these lists until one of them adds a zone
        self.znames = [*self.znames, self.znames[container]]
        self.zowner = [*self.zowner, self.zowner[container]]
        self.zvis = [*self.zvis, self.zvis[container]]
        self.zface = [*self.zface, self.zface[container]]
        self.groups.setdefault(container, []).append(zid)
        self.fx_move(list(reversed(cards)), zid)

    def fx_unmeld(self, g: Any, zid: int | None = None, at: str = "top",
                  face: str | None = None) -> None:
        unmeld(self, g, zid, at, face)

    def fx_show(self, cards: Any) -> None:
        if type(cards) is int and 0 <= cards < self.ncards:  # one card (as _card takes it)
            self.face[cards] = True
            return
        for c in charged(cards) if isinstance(cards, list) else [cards]:
            self.face[self._card(c, "show")] = True

    def fx_show_none(self, zid: int, f: Callable[[int], Any]) -> None:
        """``show_none(zone, f)``: a public fact, kept only for a bot that tracks what it
        knows (``track_known``; known.py): the random players' loop pays one test."""
        if self.known is not None:
            note_none(self, zid, f)

    def fx_hide(self, cards: Any) -> None:
        for c in charged(cards) if isinstance(cards, list) else [cards]:
            self.face[self._card(c, "hide")] = False

    def check_invariants(self) -> list[str]:
        """Problems with the state: a card in no zone or in two, a conserved sum that changed."""
        # the fast proof first (simulate --check runs this after every decision): rebuild
        # where each card is from the zones and compare; only a mismatch takes the slow path
        n = self.ncards
        loc = [-1] * n
        count = 0
        try:
            for z, cs in enumerate(self.zones):
                count += len(cs)
                if cs and min(cs) < 0:  # a negative index would pass for a card
                    count = -1
                for c in cs:
                    loc[c] = z
        except (IndexError, TypeError):
            count = -1
        if count == n and loc == self.loc:
            return []
        problems = []
        seen = [0] * self.ncards
        for z, cs in enumerate(self.zones):
            for c in cs:
                if not 0 <= c < self.ncards:
                    problems.append(f"zone {self.znames[z]} holds {c!r}, not a card")
                    continue
                seen[c] += 1
                if self.loc[c] != z:
                    problems.append(f"card {self.game.tables.name[c]} is listed in "
                                    f"{self.znames[z]} but recorded in {self.znames[self.loc[c]]}")
        for c, k in enumerate(seen):
            if k != 1:
                problems.append(f"card {self.game.tables.name[c]} is in {k} zones")
        return problems

    def lay_out(self, spec: dict[str, Any]) -> None:
        """Lay out the named zones exactly as given (top first; a zone of groups: its groups,
        each laid as ``meld`` lays one); every other zone keeps its size, refilled from the
        remaining cards; the home zone (the stock) takes the rest, shuffled under what the
        scenario puts on top of it."""
        g = self.game
        names = {z.name: z for z in g.zones}
        by_name: dict[str, list[int]] = {}
        for c in range(self.ncards):
            by_name.setdefault(g.tables.name[c], []).append(c)
        wanted: dict[int, list[int]] = {}  # zone id -> cards, top first
        melds: list[tuple[int, list[int]]] = []  # (container zone, cards), in the order given
        taken: set[int] = set()
        here: Any = None  # where the scenario gave the zone being laid out

        def pick(text: Any, where: str) -> int:
            name = g.tables.lookup(str(text))
            if name is None:
                raise UsageError(f"deal: {where}: '{text}' is not a card", here)
            for c in by_name.get(name, []):
                if c not in taken:
                    taken.add(c)
                    return c
            have = len(by_name.get(name, []))
            raise UsageError(f"deal: {where}: {name} is listed more times than the deck holds "
                             f"({have})", here)

        for zname, cards in spec.items():
            here = getattr(cards, "span", None)  # a scenario's list knows its place
            if zname not in names:
                raise UsageError(f"deal: '{zname}' is not a zone of this game "
                                 f"(zones: {', '.join(names)})", here)
            zd = names[zname]
            if zd.groups:
                per = cards if zd.per_player else [cards]
                if not _groups_shape(per, self.n if zd.per_player else 1):
                    raise UsageError(
                        f"deal: '{zname}' is a zone of groups: give "
                        + (f"one list of groups per seat ({self.n} lists), like [[[5S, 5H, 5D]], "
                           "[]]" if zd.per_player else "a list of groups, like [[5S, 5H, 5D]]")
                        + ", each group a list of one or more cards", here)
                for p, grs in enumerate(per):
                    z = zd.first_id + p
                    wanted[z] = []
                    for gz in self.groups.pop(z, ()):  # the groups laid before are replaced
                        wanted[gz] = []
                    where = f"{zname}[{p}]" if zd.per_player else zname
                    melds.extend((z, [pick(x, f"{where}[{k}]") for x in gr])
                                 for k, gr in enumerate(grs))
            elif zd.per_player:
                if not isinstance(cards, list) or len(cards) != self.n or not all(
                        isinstance(x, list) for x in cards):
                    raise UsageError(f"deal: '{zname}' is a zone of each player: give one list per "
                                     f"seat ({self.n} lists)", here)
                for p, cs in enumerate(cards):
                    wanted[zd.first_id + p] = [pick(x, f"{zname}[{p}]") for x in cs]
            else:
                if not isinstance(cards, list):
                    raise UsageError(f"deal: '{zname}' needs a list of cards, top first", here)
                wanted[zd.first_id] = [pick(x, zname) for x in cards]
        home = g.home_zone
        # every other zone keeps its cards unless the scenario placed them elsewhere
        sizes = {z: len(cs) for z, cs in enumerate(self.zones)}
        keep: dict[int, list[int]] = {}
        for z, cs in enumerate(self.zones):
            if z in wanted or z == home:
                continue
            keep[z] = [c for c in cs if c not in taken]
        used = set(taken)
        for cs in keep.values():
            used.update(cs)
        free = [c for c in range(self.ncards) if c not in used]
        self.rng.shuffle(free)
        for z, cs in keep.items():
            while len(cs) < sizes[z] and free:
                cs.append(free.pop())
        for z in range(len(self.zones)):
            self.zones[z] = []
        for z, cs in wanted.items():
            self.zones[z] = list(cs)
        for z, cs in keep.items():
            self.zones[z] = cs
        # the groups' cards wait at the bottom of the home zone, from where meld lays them
        if home in wanted:
            self.zones[home] = wanted[home] + free
        else:
            self.zones[home] = free
        self.zones[home].extend(c for _z, cs in melds for c in cs)
        for z, cs in enumerate(self.zones):
            up = self.zface[z]
            for c in cs:
                self.loc[c] = z
                self.face[c] = up
        if self.placer is not None:  # a scenario's cards were put in place by no seat
            self.placer = [-1] * self.ncards
        for z, cs in melds:
            self.fx_meld(cs, z)

    def deal_fixed(self, spec: dict[str, Any], round_start: Callable[[Any], None]) -> None:
        """Start a round on a scenario's fixed deal: round.start runs on a deck stacked so
        that it deals these cards (``fixeddeal.deal_fixed``)."""
        deal_fixed(self, spec, round_start)


def _groups_shape(per: Any, n: int) -> bool:
    """Whether ``per`` is ``n`` lists of groups, each a non-empty list of cards."""
    return isinstance(per, list) and len(per) == n and all(
        isinstance(grs, list) and all(isinstance(gr, list) and gr and not any(
            isinstance(x, (list, dict)) for x in gr) for gr in grs) for grs in per)
