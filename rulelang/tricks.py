"""Tricks: zones that remember which seat put each card in them, and who wins a trick.

A zone declared ``trick: true`` remembers, for each card moved into it, the seat that played
it: the seat whose zone the card came from (a hand), or else the seat acting (``me``). The
memory is ``by`` (card -> seat), kept only for the cards that lie in such zones; it is replaced
whole whenever it changes (it is small: a trick's cards), so a clone shares it safely.

``winning_card(cards, trump:, lead:, suit:, key:)`` is the card that wins a trick under the
usual rule of trick-taking games: the strongest card of the trump suit if any was played, else
the strongest of the suit led. The suit a card counts as (``suit:``, default its printed suit)
and its strength (``key:``, default its rank's place in ``deck.ranks``) are functions of the
rules file, so a game where a card changes suit (a jack that counts as trump) or has its own
order says so in data. ``trick_winner`` is the seat that played it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .builtins import compared, items_of
from .errors import RuntimeRulesError
from .runtime import brief


class Tricks:
    """The tricks of a state (a mixin of ``engine.State``, which sets ``ztrick`` up)."""

    game: Any
    n: int
    ncards: int
    loc: list[int]
    zowner: list[int]
    actor: Any
    # zone id -> whether it is a trick zone (static zones only; groups never are); None in a
    # game without trick zones, where nothing is remembered
    ztrick: list[bool] | None = None
    by: dict[int, int] = {}  # noqa: RUF012 (never changed in place: replaced whole)

    def note_moved(self, c: int, src: int, dest: int) -> None:
        """Card ``c`` moved from zone ``src`` to zone ``dest`` (a game with trick zones)."""
        zt = self.ztrick
        assert zt is not None
        n = len(zt)
        if dest < n and zt[dest]:
            by = self.by
            if src < n and zt[src] and c in by:
                return  # from one trick zone to another: still the seat that played it
            owner = self.zowner[src]
            self.by = {**by, c: owner if owner >= 0 else self.actor}
        elif src < n and zt[src] and c in self.by:
            by = dict(self.by)
            del by[c]
            self.by = by

    def note_moved_all(self, cards: list[int], srcs: list[int], dest: int) -> None:
        """``note_moved`` of ``cards[i]`` from ``srcs[i]`` for each ``i`` (as many as
        ``srcs``), in order, into zone ``dest``, with one new memory made for them all."""
        zt = self.ztrick
        assert zt is not None
        n = len(zt)
        into = dest < n and zt[dest]
        by = self.by
        new: dict[int, int] | None = None
        for c, src in zip(cards, srcs):
            out = src < n and zt[src]
            if into:
                if out and c in (by if new is None else new):
                    continue
                owner = self.zowner[src]
                if new is None:
                    new = dict(by)
                new[c] = owner if owner >= 0 else self.actor
            elif out and c in (by if new is None else new):
                if new is None:
                    new = dict(by)
                del new[c]
        if new is not None:
            self.by = new

    def forget_played(self) -> None:
        """Cards came into zones by ``gather`` or ``deal``: no seat played them."""
        if self.by:
            self.by = {}

    def fx_played_by(self, c: Any) -> int | None:
        if type(c) is not int or not 0 <= c < self.ncards:
            raise RuntimeRulesError(f"played_by(): {brief(c)} is not a card")
        zt = self.ztrick
        z = self.loc[c]
        if zt is None or z >= len(zt) or not zt[z]:
            return None
        return self.by.get(c)

    def fx_winning_card(self, cards: Any, trump: Any = None, lead: Any = None,
                        suit: Callable[[Any], Any] | None = None,
                        key: Callable[[Any], Any] | None = None) -> int | None:
        return best_card(self, cards, trump, lead, suit, key)

    def fx_trick_winner(self, cards: Any, trump: Any = None, lead: Any = None,
                        suit: Callable[[Any], Any] | None = None,
                        key: Callable[[Any], Any] | None = None) -> int | None:
        c = best_card(self, cards, trump, lead, suit, key)
        return None if c is None else self.fx_played_by(c)


def best_card(S: Any, cards: Any, trump: Any, lead: Any, suit: Callable[[Any], Any] | None,
              key: Callable[[Any], Any] | None) -> int | None:
    """The card of ``cards`` that wins the trick (see the module docstring); none for no
    cards, or when ``lead:`` names a suit no card follows and no trump was played. The cards
    are listed top first, as a zone lists them: the card led is the bottom one (the first moved
    there, since ``move`` puts cards on top) unless ``lead:`` names the suit led. Of cards of
    equal strength, the one played first wins."""
    xs = items_of(cards)
    if not xs:
        return None
    for c in xs:
        if type(c) is not int or not 0 <= c < S.ncards:
            raise RuntimeRulesError(f"trick: {brief(c)} is not a card")
    tables = S.game.tables
    suits = [suit(c) for c in xs] if suit is not None else [tables.suit[c] for c in xs]
    led = suits[-1] if lead is None else lead
    best = -1
    best_class = 0
    best_key: Any = None
    keys: list[Any] = []
    for i in range(len(xs) - 1, -1, -1):  # from the card played first: ties go to it
        s = suits[i]
        cls = 2 if trump is not None and s == trump else 1 if s == led else 0
        if cls == 0 or cls < best_class:
            continue
        k = key(xs[i]) if key is not None else tables.order[xs[i]]
        keys.append(k)
        try:
            if cls > best_class or k > best_key:
                best, best_class, best_key = i, cls, k
        except TypeError:
            raise RuntimeRulesError(f"trick: strengths {brief(best_key)} and {brief(k)} "
                                    "cannot be compared") from None
    compared(keys)
    return xs[best] if best >= 0 else None


def trick_zone_ids(game: Any) -> list[bool] | None:
    """Zone id -> whether it is a trick zone, or None when the game declares none."""
    if not any(getattr(z, "trick", False) for z in game.zones):
        return None
    return [bool(getattr(z, "trick", False)) for z in game.zones
            for _ in range(game.max_players if z.per_player else 1)]


def remap_played(S: Any, cards: list[int], dealt: list[int]) -> None:
    """A sample renamed ``cards[i]`` to ``dealt[i]`` in place (views.determinize): the seat
    that played a card is that of the card that lay in its place."""
    by = S.by
    if not by:
        return
    moved = set(cards)
    out = {c: p for c, p in by.items() if c not in moved}
    for old, new in zip(cards, dealt):
        if old in by:
            out[new] = by[old]
    S.by = out


def played_view(S: Any) -> dict[str, Any]:
    """For a view: each trick zone's cards' players, top first (a list per seat for a zone
    of each player). Who played a card is public, even where the card is not."""
    out: dict[str, Any] = {}
    for zd in S.game.zones:
        if not getattr(zd, "trick", False):
            continue
        ids = [zd.first_id + p for p in range(S.n)] if zd.per_player else [zd.first_id]
        rows = [[S.by.get(c) for c in S.zones[z]] for z in ids]
        out[zd.name] = rows if zd.per_player else rows[0]
    return out
