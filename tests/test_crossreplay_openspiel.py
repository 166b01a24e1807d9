"""Cross-engine replays against OpenSpiel (issue 19): random games of OpenSpiel's Hearts,
Blackjack, Crazy Eights and Gin Rummy replayed in rulelang move for move, every legal-move set
and every final return compared (``benchmarks/crossreplay_openspiel.py``; what is compared and
what differs by design is in docs/environments.md). A few games each here (RULELANG_XREPLAY_GAMES,
default 40); the full count is ``make crossreplay-openspiel`` (1,000 games each). Skipped without
pyspiel, and outside ``make test-envs``, as the environment tests are."""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.skipif(not os.environ.get("RULELANG_ENV_TESTS"),
                                reason="the OpenSpiel replays run with make test-envs")

GAMES = int(os.environ.get("RULELANG_XREPLAY_GAMES", "40"))


@pytest.fixture(scope="module")
def xr():  # type: ignore[no-untyped-def]
    pytest.importorskip("pyspiel")
    from benchmarks import crossreplay_openspiel

    return crossreplay_openspiel


@pytest.mark.parametrize("name", ["hearts", "blackjack", "crazy-eights", "gin-rummy"])
def test_random_games_agree(xr, name: str) -> None:  # type: ignore[no-untyped-def]
    from benchmarks.openspiel_replay import run

    t = run(name, xr.GAMES[name], GAMES, seed=1)
    assert t.mismatches == []
    uncompared = sum(v for k, v in t.notes.items() if "not compared" in k)
    assert t.games == GAMES and t.returns == GAMES - uncompared
    assert t.decisions >= GAMES  # every game compared at least one legal-move set


def test_a_disagreement_is_reported_with_its_seed(xr, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # OpenSpiel's Hearts where the Q♠ breaks hearts against rulelang's where it does not:
    # the legal leads differ, reported with the seed and the step that replay it
    from benchmarks.openspiel_replay import run

    monkeypatch.setattr(xr, "HEARTS_VARIANTS",
                        [({"qs_breaks_hearts": True}, {"queen_breaks_hearts": False})])
    t = run("hearts", xr.hearts, 12, seed=1)
    assert t.mismatches, "a rule set that differs must show"
    assert all(m.startswith("hearts seed ") and "step" in m for m in t.mismatches)


def test_openspiel_crazy_eights_charges_card_ids(xr) -> None:  # type: ignore[no-untyped-def]
    # what the returns of OpenSpiel's Crazy Eights were found to follow (crazy_eights.cc
    # ScoreUp): a 3♣ (id 4) costs 6, an eight 50, a jack to an ace 10
    assert [xr._c8_os_value(xr._os_card(c)) for c in ["3C", "2H", "8S", "JD", "AS"]] == \
        [6, 4, 50, 10, 10]


def test_openspiel_gin_rummy_misses_a_third_layoff(xr) -> None:  # type: ignore[no-untyped-def]
    # the position the full run met: 8H 9H TH laid by seat 0, seat 1 has laid off 7H and 6H;
    # OpenSpiel refuses 5H, which rulelang (and the rules) allow
    import pyspiel

    s = pyspiel.load_game("gin_rummy", xr.GIN_OS).new_initial_state()
    hand0 = ["8H", "9H", "TH", "3S", "3D", "3C", "TS", "JS", "QS", "8C"]
    hand1 = ["7H", "6H", "5H", "7D", "4H", "5C", "6D", "2D", "QC", "4D"]
    for c in [*hand0, *hand1, "2C"]:  # ten cards each, the upcard
        s.apply_action(xr._gin_id(c))
    s.apply_action(xr.GIN_UP)  # seat 0 takes the 2C
    s.apply_action(xr.GIN_KNOCK)
    s.apply_action(xr._gin_id("8C"))  # deadwood left: the 2C
    for meld in (["3S", "3D", "3C"], ["TS", "JS", "QS"], ["8H", "9H", "TH"]):
        s.apply_action(xr._gin_melds(s, 0)[frozenset(meld)])
    s.apply_action(xr.GIN_PASS)
    for c in ("7H", "6H"):
        s.apply_action(xr._gin_id(c))
    assert xr._gin_id("5H") not in s.legal_actions()
    assert xr._gin_missed_layoffs(s, 1) == {"5H"}


def test_openspiel_gin_rummy_scores_a_tie_0(xr) -> None:  # type: ignore[no-untyped-def]
    # seed 2254 (met while searching: the full run's seeds 0-999 had none with these
    # options): a knock where the defender's deadwood equals the knocker's. rulelang scores
    # the undercut (+25 to the defender), OpenSpiel 0 to each; counted, not a mismatch
    from benchmarks.openspiel_replay import run

    t = run("gin-rummy", xr.gin_rummy, 1, seed=2254)
    assert t.mismatches == []
    assert any("a tie after a knock" in k for k in t.notes)
