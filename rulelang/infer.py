"""What the others hold, inferred from their choices: the samples of ``ismcts:infer``.

A plain sample (``State.determinize``) deals the cards a seat cannot see as if nothing had
happened since the deal; but the others chose their moves by what they held, so the hands
that would have made those choices are the likelier ones. ``Particles`` keeps, through a
round, a few dozen whole worlds (particles) that agree with everything the seat saw, each
with a weight: how likely the other seats' moves were in it under the greedy policy (the
policy the search plays them by). At each of the seat's decisions the moves played since
its last are played again in every particle, and the search draws its samples from them by
weight (sequential importance sampling with resampling: a particle filter).

Replaying one move seen by the seat (the state before it, the move, the state after it):

- a card the seat sees after the move but not before was revealed by it, from the zone it
  lay in (a card discarded from a hand came from that hand): in the particle it is put in
  that zone first, where it is not already, in the place of a card the seat cannot see;
- the particle's legal moves are played on clones; those that look to the seat as the move
  did (``move_text`` as the seat saw it: the cards it did not see are ``?``) are the moves
  the mover may have made. The weight is multiplied by the greedy policy's probability of
  them: the mover's legal moves judged one step ahead by the rules' ``heuristic`` in
  ``SAMPLES`` worlds dealt from the *mover's* view of the particle (it did not know the next
  card of the stock), the best ones given ``1 - EPSILON`` and every move ``EPSILON`` spread
  evenly (the policy's own samples differ from these; a choice it did not make is unlikely,
  not impossible). The seat's own moves and those of seats that are no player weigh 1;
- the cards the seat sees after the move are then put where it sees them (its own draw
  from the stock is the card it drew, whatever the particle's stock held), each in the place
  of a card the seat cannot see. A particle that cannot be made to agree weighs 0.

The filter reads the real states only as the seat sees them (which cards it sees, and where;
the texts of moves as it saw them; the zone a revealed card came from) and its own generator:
the same view and history give the same particles. When every particle weighs 0, or the
round has rules it cannot replay (a choice under way), the samples are plain ones again.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import Any

from .errors import RulesError
from .known import Watch
from .movetext import cards_in
from .runtime import LIMIT, WORK
from .views import renamed_slots

PARTICLES = 64  # worlds kept through a round
SAMPLES = 2  # worlds, from the mover's view, in which a move of another seat is judged
EPSILON = 0.1  # the probability a choice other than the policy's best keeps


class _Dead(Exception):
    """A particle that cannot be made to agree with what the seat saw."""


class Particles:
    """The weighted worlds of one seat through the round under way (module docstring)."""

    def __init__(self, seat: int, rng: random.Random, h: Any, budget: int,
                 n: int = PARTICLES) -> None:
        self.seat = seat
        self.rng = rng
        self.h = h
        self.n = n
        self.budget = budget  # work the filter may do in one decision
        self.left = budget  # what is left of it in this one
        self.worlds: list[Any] = []
        self.weights: list[float] = []
        self.round: Any = None  # (the watched state, its round) the worlds belong to
        self.done = 0  # the round's moves already played in the worlds
        self.off = False  # the round cannot be replayed: plain samples
        self.ess = float(n)
        self._cum: list[float] = []

    def update(self, S: Any, known: bool) -> None:
        """Bring the worlds up to ``S`` (the seat to move), watching ``S`` from now on."""
        w = S.watch
        if w is None or w.state is not S:
            w = S.watch = Watch(S)
        moves = w.moves
        if moves and moves[0][0].round != S.round:
            moves = []  # nothing played in this round yet
        key = (id(S), S.round)
        if key != self.round or self.done > len(moves):
            # a new round (or a game watched from now on): worlds from the round's first
            # position the seat saw, uniform
            self.round, self.off = key, False
            start = moves[0][0] if moves else S
            self.worlds = [start.determinize(self.seat, self.rng, known and start is S)
                           for _ in range(self.n)]
            for x in self.worlds:
                x.auto_continue = False
            self.weights = [1.0] * self.n
            self.done = 0
        if self.off:
            return
        self.left = self.budget
        try:
            while self.done < len(moves):
                before, action, args = moves[self.done]
                after = moves[self.done + 1][0] if self.done + 1 < len(moves) else S
                self._replay(before, action, args, after)
                self.done += 1
        except RulesError:  # what the rules do cannot be replayed here: plain samples
            self.off = True
            return
        total = sum(self.weights)
        if total <= 0:
            self.off = True
            return
        # the effective number of worlds (tools, tests): resampled when below half
        self.ess = total * total / sum(x * x for x in self.weights)
        if self.ess < 0.5 * self.n:
            self._resample(total)
        acc = 0.0
        self._cum = []
        for x in self.weights:
            acc += x
            self._cum.append(acc)

    def sample(self) -> Any:
        """A world drawn by weight, its ownerless zones that the seat sees nothing of (a stock)
        shuffled anew, with a generator of its own; None when the filter is off."""
        if self.off or not self._cum:
            return None
        i = bisect_right(self._cum, self.rng.random() * self._cum[-1])
        s = self.worlds[min(i, self.n - 1)].clone(share_rng=True)
        _restocked(s, self.seat, self.rng)
        s.reseed(self.rng.random())
        s.forget_legal()
        s.triggers_clean = False
        return s

    # ------------------------------------------------------------------ one move

    def _replay(self, before: Any, action: Any, args: tuple, after: Any) -> None:
        seat, ncards = self.seat, before.ncards
        mover = before.actor
        revealed = [c for c in range(ncards)
                    if not before.visible(c, seat) and after.visible(c, seat)]
        seen = {(c, seat) for c in cards_in(args, ncards) if before.visible(c, seat)}
        text = after.move_text(action, args, seat, seen)
        judged = mover is not None and mover != seat and 0 <= mover < before.n
        for k, P in enumerate(self.worlds):
            if not self.weights[k]:
                continue
            try:
                if P.status != "play" or P.actor != mover or P.choice is not None:
                    raise _Dead
                for c in revealed:
                    _reveal(P, c, before.loc[c], seat, revealed, self.rng)
                self.worlds[k], f = self._step(P, text, judged, mover)
                self.weights[k] *= f
                _agree(self.worlds[k], after, seat)
            except (_Dead, ValueError, IndexError, KeyError):
                # (a card not where the view says: this world cannot be made to agree)
                self.weights[k] = 0.0
            if self.left <= 0:
                raise RulesError("the filter's budget of work is spent")

    def _step(self, P: Any, text: str, judged: bool, mover: int) -> tuple[Any, float]:
        """The particle after the move the seat saw (one of its legal moves that looks so to
        the seat) and the policy's probability of the moves that look so."""
        seat = self.seat
        entries = _entries(P)
        k = len(entries)
        outs: list[Any] = []
        match: list[int] = []
        for i, (action, args) in enumerate(entries):
            s = P.clone()
            s.work_done = 0
            s.apply_index(i)
            self.left -= max(1, s.work_done)
            seen = {(c, seat) for c in cards_in(args, P.ncards) if P.visible(c, seat)}
            if s.move_text(action, args, seat, seen) == text:
                match.append(i)
            outs.append(s)
        if not match:
            raise _Dead
        if not judged or len(match) == k:
            return outs[match[int(self.rng.random() * len(match))]], 1.0
        pi = self._policy(P, mover, k)
        f = sum(pi[i] for i in match)
        r = self.rng.random() * f
        for i in match:
            r -= pi[i]
            if r <= 0:
                break
        return outs[i], f

    def _policy(self, P: Any, mover: int, k: int) -> list[float]:
        """The greedy policy's probability of each move of ``mover`` in ``P``: its best by the
        mean heuristic one step ahead in ``SAMPLES`` worlds dealt from the mover's view."""
        h = self.h
        totals = [0.0] * k
        for _ in range(SAMPLES):
            w = P.determinize(mover, self.rng)
            if w.num_moves() != k:
                continue
            for i in range(k):
                s = w.clone(share_rng=True)
                s.work_done = 0
                s.apply_index(i)
                WORK[0] = LIMIT[0] = s.max_work
                v = h(s, mover)
                self.left -= max(1, s.max_work - WORK[0]) + s.work_done
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise RulesError(f"the heuristic computed {v!r:.60}, not a number")
                totals[i] += v
        top = max(totals)
        best = [i for i in range(k) if totals[i] >= top - 1e-9]
        pi = [EPSILON / k] * k
        for i in best:
            pi[i] += (1 - EPSILON) / len(best)
        return pi

    def _resample(self, total: float) -> None:
        """Systematic resampling: as many copies of each world as its share of the weight."""
        n = self.n
        step = total / n
        u = self.rng.random() * step
        out: list[Any] = []
        acc, j = self.weights[0], 0
        taken: set[int] = set()
        for _ in range(n):
            while acc < u and j < n - 1:
                j += 1
                acc += self.weights[j]
            w = self.worlds[j]
            out.append(w if j not in taken else w.clone(share_rng=False))
            taken.add(j)
            u += step
        for x in out:
            x.auto_continue = False
        self.worlds = out
        self.weights = [1.0] * n


def _entries(P: Any) -> list[tuple[Any, tuple]]:
    """The legal moves of ``P`` as (action, args), in ``apply_index``'s order."""
    if not P._unique:
        return list(P._distinct())
    if P._entries is None:
        P._compute_legal()
    return list(P._entries)


def _place(P: Any, c: int) -> tuple[int, int]:
    z = P.loc[c]
    return z, P.zones[z].index(c)


def _swap(P: Any, c: int, d: int) -> None:
    """Cards ``c`` and ``d`` change places in ``P`` (what a slot holding one of them holds
    follows its place, as in a sample)."""
    (zc, ic), (zd, jd) = _place(P, c), _place(P, d)
    P.zones[zc][ic], P.zones[zd][jd] = d, c
    P.loc[c], P.loc[d] = zd, zc
    P.face[c], P.face[d] = P.face[d], P.face[c]
    if P.placer is not None:
        P.placer[c], P.placer[d] = P.placer[d], P.placer[c]
    renamed_slots(P, [c, d], [d, c])
    P.forget_legal()
    P.triggers_clean = False


def _reveal(P: Any, c: int, zone: int, seat: int, revealed: list[int],
            rng: random.Random) -> None:
    """Card ``c``, about to be revealed from ``zone``, put there in ``P`` if it lies elsewhere:
    in the place of a card of that zone the seat cannot see (drawn at random)."""
    if P.loc[c] == zone:
        return
    if P.visible(c, seat):
        raise _Dead
    spots = [d for d in P.zones[zone] if d not in revealed and not P.visible(d, seat)]
    if not spots:
        raise _Dead
    _swap(P, c, spots[int(rng.random() * len(spots))])


def _agree(P: Any, R: Any, seat: int) -> None:
    """Make ``P`` show ``seat`` what ``R`` shows it: each card it sees in ``R`` at its place
    there, swapped with the card that lies there in ``P`` from a place the seat cannot see in
    ``R``; dead where that cannot be."""
    if R.status != "play":
        return
    if P.status != "play" or P.actor != R.actor or P.phase != R.phase:
        raise _Dead
    zones = R.zones
    if any(len(a) != len(b) for a, b in zip(P.zones, zones)):
        raise _Dead
    for c in range(R.ncards):
        if not R.visible(c, seat):
            continue
        z = R.loc[c]
        i = zones[z].index(c)
        d = P.zones[z][i]
        if d == c:
            continue
        zc, ic = _place(P, c)
        if R.visible(zones[zc][ic], seat):  # c lies where the seat sees another card
            raise _Dead
        _swap(P, c, d)


def _restocked(s: Any, seat: int, rng: random.Random) -> None:
    """The cards of each zone that belongs to no seat and of which the seat sees no card
    (a stock) shuffled among its places: a world's unseen order drawn anew for each
    sample, so that the search does not learn one particle's next cards."""
    for z, cs in enumerate(s.zones):
        if len(cs) < 2 or s.zowner[z] >= 0 or any(s.visible(c, seat) for c in cs):
            continue
        old = cs[:]
        new = sorted(old)
        _shuffle(new, rng)
        for i, c in enumerate(new):
            cs[i] = c
        if s.placer is not None:
            was = [s.placer[c] for c in old]
            for c, p in zip(new, was):
                s.placer[c] = p
        renamed_slots(s, old, new)


def _shuffle(xs: list[int], rng: random.Random) -> None:
    for i in range(len(xs) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        xs[i], xs[j] = xs[j], xs[i]
