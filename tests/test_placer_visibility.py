"""Zone visibility ``placer``: a card there is seen by the seat that put it there.

A seat never learns another seat's placed card: not from its view, not from a move text, not
from the sampled worlds its bots play in; ``show`` still shows it to all.
"""

from __future__ import annotations

import random
from pathlib import Path

import rulelang

GAME = """\
name: Placed
players: {min: 2, max: 3, default: 3}
deck: {}
zones:
  stock: {home: true}
  hand: {per_player: true}
  pool: {visibility: placer}
match: {over: "true"}
round:
  start: [gather(stock), shuffle(stock), "deal(stock, hand, 4)"]
  triggers: {done: "size(pool) == 2 * num_players"}
  end: SHOW
phases:
  play:
    actions:
      put:
        args: {c: "hand[me]"}
        do: move(c, pool)
      take back:
        args: {c: "pool"}
        when: size(hand[me]) < 3 and false
        do: move(c, hand[me])
"""


def load(tmp_path: Path, show: str = "pass") -> rulelang.Game:
    p = tmp_path / "placed.yaml"
    p.write_text(GAME.replace("SHOW", show), encoding="utf-8")
    return rulelang.load(str(p))


def placed_by(s: object, seat: int) -> list[int]:
    pool = s.game.zones[2].first_id  # type: ignore[attr-defined]
    return [c for c in s.zones[pool] if s.placer[c] == seat]  # type: ignore[attr-defined]


def test_a_seat_sees_its_own_placed_cards_and_never_another_seats(tmp_path: Path) -> None:
    g = load(tmp_path)
    names = g.tables.name
    for seed in range(4):
        s = g.new_state(3, seed=seed)
        rng = random.Random(seed)
        while not s.round_over():
            mover = s.actor
            s.apply(rng.choice(s.legal_moves()))
            pool = s.zones[g.zones[2].first_id]
            for seat in range(3):
                shown = s.view(seat)["zones"]["pool"]
                assert shown == [names[c] if s.placer[c] == seat else "?" for c in pool]
                # the move as the other seats saw it names no card they did not place
                for who, text in s.view(seat)["events"]:
                    if who != seat:
                        assert text == "put ?"
            assert placed_by(s, mover)  # the mover placed the card it put there


def test_sampled_worlds_keep_only_the_seats_own_placed_cards(tmp_path: Path) -> None:
    g = load(tmp_path)
    s = g.new_state(3, seed=1)
    for _ in range(4):
        s.apply(s.legal_moves()[0])
    pool = g.zones[2].first_id
    for seat in range(3):
        mine = placed_by(s, seat)
        others = set()
        for k in range(30):
            w = s.determinize(seat, random.Random(k))
            assert placed_by(w, seat) == mine  # its own cards stay where they lie
            for c in w.zones[pool]:
                if w.placer[c] != seat:
                    others.add(c)
                    assert s.placer[c] != seat  # never one of its own cards
                    assert w.placer[c] != -1  # a card someone placed
        assert others - set(s.zones[pool])  # another seat's placed card is only guessed


def test_shown_placed_cards_are_seen_by_all(tmp_path: Path) -> None:
    g = load(tmp_path, "show(pool)")
    s = g.new_state(2, seed=0)
    while not s.round_over():
        s.apply(s.legal_moves()[0])
    for seat in range(2):
        assert "?" not in s.view(seat)["zones"]["pool"]


def test_placer_is_a_visibility_the_checker_knows(tmp_path: Path) -> None:
    from .helpers import output, run_cli

    p = tmp_path / "bad.yaml"
    p.write_text(GAME.replace("SHOW", "pass").replace("visibility: placer",
                                                      "visibility: placed"), encoding="utf-8")
    r = run_cli("check", str(p))
    assert r.returncode == 1 and "placer" in output(r), output(r)
