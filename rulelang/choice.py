"""Sequential choices: an action argument chosen one item at a time, within one turn.

An action whose last argument is ``{pick: EXPR, count: N}`` (``picks.py``) offers the same
whole choices as ``combinations(EXPR, N)`` would, filtered by its ``when``; but its moves are
one item each (``discard 5H``), so that a player or bot chooses among tens of moves rather than
hundreds. The items chosen so far are part of the state (``State.choice``, a ``Choosing``),
seen only by the chooser (``views``); nothing but the chooser's next item changes them. The
moves listed at each point are exactly the items that some legal whole choice still holds
(every whole choice was tried against ``when`` when the choice began), so that the games
reachable are the same as with the whole-combination listing; once the last item is chosen
the action's ``when`` already held for the whole and its ``do`` and ``next`` run once, with
the items in the order the options list them. A typed move that names several items at once
(``discard 6C 5H``, in any order) is taken as those items one after the other (``apply_whole``).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable
from typing import Any, NamedTuple

from .errors import IllegalMove, RulesError, RuntimeRulesError
from .game import ActionDef
from .limits import MAX_COLLECTION
from .movetext import canon_move
from .runtime import PY_ERRORS, WORK, as_rules_error, brief, charge


class Choosing(NamedTuple):
    """A sequential choice under way: the action, the values of its arguments before the
    choice, the options (each once, in order), the indexes chosen (in the order chosen), the
    legal whole choices as sorted index tuples (None: every choice of ``count`` is legal),
    and how many items the choice takes."""

    action: ActionDef
    prefix: tuple
    options: tuple
    chosen: tuple
    legal: frozenset | None
    count: int


class Choices:
    """Sequential choices of a state (a mixin of ``engine.State``)."""

    choice: Choosing | None = None
    # the latest listing's whole choices of one action: (its entries, options, count, legal
    # whole choices, the work that took), so that the first item played need not try them all
    # again (only ever replaced, never changed: a clone shares it)
    pick_kept: tuple | None = None
    actor: int | None
    _legal: Any
    clone: Callable[..., Any]
    triggers_clean: bool
    forget_legal: Callable[[], None]
    _count_work: Callable[[], None]
    apply: Callable[[str], None]
    render: Callable[..., str]

    # ------------------------------------------------------------------ listing
    def pick_entries(self, action: ActionDef, F: list, options: Any) -> list:
        """The legal entries of ``action`` where a choice would begin (its arguments before
        the choice in ``F``): one per item that some legal whole choice holds; with a count
        of 0, the action itself with no items, if its when holds."""
        opts = _options(options)
        count = self._pick_count(action, F)
        left = WORK[0]
        legal = self._pick_legal(action, F, opts, count)
        used = left - WORK[0]
        prefix = tuple([F[a[3]] for a in action.args[:-1]]) if len(action.args) > 1 else ()
        if count == 0:
            return [(action, (*prefix, []))] if legal is None or legal else []
        if legal is not None and not legal:  # no legal whole choice: _next_items' []
            self.pick_kept = ([], opts, count, legal, used)
            return []
        item = action.pick.item  # type: ignore[union-attr]
        out = [(item, (*prefix, opts[i])) for i in _next_items(legal, (), len(opts))]
        if legal is not None:
            self.pick_kept = (out, opts, count, legal, used)
        return out

    def pick_next(self) -> list:
        """The legal entries in the middle of a choice: the items still open."""
        ch = self.choice
        assert ch is not None
        item = ch.action.pick.item  # type: ignore[union-attr]
        return [(item, (*ch.prefix, ch.options[i]))
                for i in _next_items(ch.legal, ch.chosen, len(ch.options))]

    def _pick_count(self, action: ActionDef, F: list) -> int:
        pick = action.pick
        assert pick is not None
        try:
            k = pick.count(self, F)
        except (RulesError, *PY_ERRORS) as e:
            raise as_rules_error(e, pick.span) from None
        if type(k) is float and k.is_integer():
            k = int(k)
        if type(k) is not int or k < 0:
            raise RuntimeRulesError(f"count: is {brief(k)}; a choice takes a whole number of "
                                    "items, 0 or more", pick.span)
        return k

    def _pick_legal(self, action: ActionDef, F: list, opts: tuple, count: int
                    ) -> frozenset | None:
        """The legal whole choices (sorted index tuples), or None when the action has no
        ``when`` and every choice of ``count`` options is legal."""
        n = len(opts)
        if count > n:
            return frozenset()
        if action.when is None:
            return None
        ways = math.comb(n, count)
        if ways > MAX_COLLECTION:
            raise RuntimeRulesError(f"more than {MAX_COLLECTION} ways to choose {count} of "
                                    f"{n} items", action.pick.span)  # type: ignore[union-attr]
        charge(ways)  # each whole choice is tried against when:
        slot = action.args[-1][3]
        when = action.when
        if _when_ignores_choice(action, slot):  # the same answer for every whole choice
            return self._pick_all_or_none(action, F, n, count, ways)
        legal = []
        try:
            for combo in itertools.combinations(range(n), count):
                F[slot] = [opts[i] for i in combo]
                if when(self, F):
                    legal.append(combo)
        except (RulesError, *PY_ERRORS) as e:
            raise as_rules_error(e, action.when_span) from None
        return frozenset(legal)

    def _pick_all_or_none(self, action: ActionDef, F: list, n: int, count: int, ways: int
                          ) -> frozenset:
        """``_pick_legal`` of a ``when`` that reads nothing of the choice: tried once (on the
        first whole choice), its work charged once for each whole choice, as trying them all
        would."""
        left = WORK[0]
        try:
            ok = action.when(self, F)  # type: ignore[misc]
        except (RulesError, *PY_ERRORS) as e:
            raise as_rules_error(e, action.when_span) from None
        charge((left - WORK[0]) * (ways - 1))
        return _every(n, count) if ok else frozenset()

    # ------------------------------------------------------------------ playing an item
    def pick_item(self, item: ActionDef, args: tuple, clean: bool
                  ) -> tuple[ActionDef, tuple] | None:
        """Take one item (a legal entry of ``item``): None while the choice goes on (the
        step ends here: the triggers stay as clean as they were), else the action and its
        whole arguments, to run once."""
        action = item.item_of
        assert action is not None
        ch = self.choice
        if ch is None:  # the first item: the choice begins (its options as listed)
            F: list[Any] = [None] * action.nslots
            for spec, v in zip(action.args[:-1], args[:-1]):
                F[spec[3]] = v
            try:
                opts = _options(action.args[-1][1](self, F))
            except (RulesError, *PY_ERRORS) as e:
                raise as_rules_error(e, action.pick.span) from None  # type: ignore[union-attr]
            count = self._pick_count(action, F)
            kept = self.pick_kept
            if (kept is not None and kept[2] == count and kept[1] == opts
                    and any(e[1] is args for e in kept[0])):
                # listed from this very position (the entry is the listing's own): the same
                # whole choices, and the same work charged as trying them again would
                legal = kept[3]
                charge(kept[4])
            else:
                legal = self._pick_legal(action, F, opts, count)
            ch = Choosing(action, tuple(args[:-1]), opts, (), legal, count)
        i = _index(ch.options, args[-1])
        chosen = (*ch.chosen, i)
        if len(chosen) < ch.count:
            self.choice = ch._replace(chosen=chosen)
            self.triggers_clean = clean
            self.forget_legal()
            self._count_work()
            return None
        self.choice = None
        return action, (*ch.prefix, [ch.options[j] for j in sorted(chosen)])

    def apply_whole(self, move: str) -> bool:
        """A typed move naming several items of a choice at once (in any order, melds
        separated by ' | '): play them one by one, if each is legal in turn (tried on a copy
        first, so that an illegal one leaves the state unchanged). Items already chosen may
        be named again. False: the text is no such move."""
        key = canon_move(move)
        ch = self.choice
        for pre in self._item_prefixes():
            if not key.startswith(pre + " "):
                continue
            rest = key[len(pre) + 1:]
            pieces = [p.strip() for p in rest.split(" | ")] if " | " in rest else rest.split()
            named = len(pieces)
            if ch is not None:  # items already chosen, named again
                typ = ch.action.pick.item.args[-1][2]  # type: ignore[union-attr]
                done = {canon_move(self.render(ch.options[j], typ, self.actor))
                        for j in ch.chosen}
                pieces = [p for p in pieces if p not in done]
            if named < 2 or not pieces:
                continue  # one item is a listed move, or none
            trial = self.clone()
            trial.record = False
            try:
                for p in pieces:
                    trial.apply(f"{pre} {p}")
            except IllegalMove:
                continue
            for p in pieces:
                self.apply(f"{pre} {p}")
            return True
        return False

    def _item_prefixes(self) -> list[str]:
        """The texts of the legal item moves without their item (``discard``, ``pass p1``)."""
        out: list[str] = []
        for text, (a, args) in (self._legal or {}).items():
            if a.item_of is None:
                continue
            item = canon_move(self.render(args[-1], a.args[-1][2], self.actor))
            pre = text[:len(text) - len(item)].rstrip()
            if text.endswith(item) and pre not in out:
                out.append(pre)
        return out

    # ------------------------------------------------------------------ views
    def choice_shown(self, seat: int) -> dict[str, Any] | None:
        """The choice under way as its chooser sees it (others see nothing of it)."""
        ch = self.choice
        if ch is None or seat != self.actor:
            return None
        typ = ch.action.pick.item.args[-1][2]  # type: ignore[union-attr]
        return {"action": ch.action.name, "count": ch.count,
                "chosen": [self.render(ch.options[j], typ, seat) for j in ch.chosen]}

    def choice_resampled(self, seat: int, renamed: Callable[[Any], Any]) -> None:
        """In a sampled world of another seat than the chooser's: the items and options are
        the cards that lie in their places there, and which whole choices are legal is worked
        out again from them (the real answer would tell of the hidden cards)."""
        ch = self.choice
        if ch is None or seat == self.actor:
            return
        opts = tuple(renamed(list(ch.options)))
        prefix = tuple(renamed(list(ch.prefix)))
        F: list[Any] = [None] * ch.action.nslots
        for spec, v in zip(ch.action.args[:-1], prefix):
            F[spec[3]] = v
        self.choice = ch._replace(options=opts, prefix=prefix,
                                  legal=self._pick_legal(ch.action, F, opts, ch.count))


_INT_ONLY = frozenset({int})
# per action with a sequential choice: whether its when reads nothing of the choice (below)
_IGNORES: dict[int, tuple[ActionDef, bool]] = {}
_FRAME_USE = re.compile(r"(?<![\w.])F(?!\w)(\[(\d+)\])?")


def _when_ignores_choice(action: ActionDef, slot: int) -> bool:
    """Whether the generated source of ``action``'s when reads the frame only at other
    places than the choice's (``F[k]``, k not ``slot``): then every whole choice gets the same
    answer. Anything else (the frame passed on, written, or source not at hand) may read it."""
    got = _IGNORES.get(id(action))
    if got is not None and got[0] is action:
        return got[1]
    src = getattr(action.when_src, "src", None)
    ok = type(src) is str and all(m.group(2) is not None and int(m.group(2)) != slot
                                  for m in _FRAME_USE.finditer(src))
    if len(_IGNORES) > 256:  # games loaded one after another: kept small
        _IGNORES.clear()
    _IGNORES[id(action)] = (action, ok)
    return ok


def _options(options: Any) -> tuple:
    """A choice's options, each once (the first kept), in order."""
    if type(options) is not list:
        options = list(options) if isinstance(options, tuple) else [options]
    charge(len(options))
    if options and _INT_ONLY.issuperset(map(type, options)):  # cards: equal exactly when ==
        return tuple(dict.fromkeys(options))
    out: list[Any] = []
    for o in options:
        if not any(o is x or (type(o) is type(x) and o == x) for x in out):
            out.append(o)
    return tuple(out)


def _index(options: tuple, v: Any) -> int:
    for i, o in enumerate(options):
        if o is v or (type(o) is type(v) and o == v):
            return i
    raise RuntimeRulesError(f"{brief(v)} is not among the choice's options")


class _Every(frozenset):
    """Every whole choice of ``count`` of n options (all legal): any item not chosen yet
    is held with those chosen by some of them, so the next items need no look through them."""

    count = 0


# _Every's of the sizes met, made once (a choice of a hand's cards has a few hundred at most)
_EVERY: dict[tuple[int, int], _Every] = {}


def _every(n: int, count: int) -> _Every:
    got = _EVERY.get((n, count))
    if got is None:
        got = _Every(itertools.combinations(range(n), count))
        got.count = count
        if len(got) <= 5_000:
            if len(_EVERY) > 64:
                _EVERY.clear()
            _EVERY[(n, count)] = got
    return got


def _next_items(legal: frozenset | None, chosen: tuple, n: int) -> list[int]:
    """The indexes that may come next: not chosen yet, and held with those chosen by some
    legal whole choice."""
    if legal is None:
        return [i for i in range(n) if i not in chosen]
    if type(legal) is _Every and len(chosen) < legal.count:  # each whole choice looked at
        charge(len(legal))
        return [i for i in range(n) if i not in chosen]
    need = set(chosen)
    found: set[int] = set()
    charge(len(legal))
    for combo in legal:
        if need.issubset(combo):
            found.update(combo)
    return sorted(found - need)
