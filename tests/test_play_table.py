"""`rulelang play` at the table: one's own hand sorted with the card just arrived marked,
`hint` (the tree search's choice and why), `undo` (back to the previous decision), and the
standings when the game ends."""

from __future__ import annotations

from pathlib import Path

from .helpers import output, run_cli


def play(stdin: str, *args: str) -> str:
    r = run_cli("play", "thirty-one", "--seed", "1", "--players", "2", *args, stdin=stdin)
    assert r.returncode == 0, output(r)
    return r.stdout


def test_hint_and_undo() -> None:
    out = play("hint\n1\nundo\nq\n")
    lines = [ln for ln in out.splitlines() if "hand you" in ln]
    assert lines[0].strip() == "hand you: 7♣ 2♥ 4♠"  # sorted: by suit, then rank
    assert "*" in lines[1]  # the card just drawn
    assert "hint: draw stock — the tree search chose it in" in out
    assert "back to your previous decision" in out
    assert lines[2] == lines[0]  # the position before the draw, again
    assert "nothing to undo" in play("undo\nq\n")


def test_the_game_ends_with_standings() -> None:
    out = play("1\n" * 300, "--option", "lives=1")
    tail = out[out.index("Game over."):].splitlines()
    assert tail[1] == "Standings:"
    assert "(winner)" in tail[2] and all("lives" in ln for ln in tail[2:4])


def test_scenario_at_the_prompt_writes_a_scenario_that_passes(tmp_path: Path) -> None:
    r = run_cli("play", "thirty-one", "--seed", "1", "--players", "2",
                stdin="1\n2\nscenario\nq\n", cwd=tmp_path)
    assert r.returncode == 0, output(r)
    written = list(tmp_path.glob("thirty-one-seed1-move*.scenario.yaml"))
    assert len(written) == 1 and "wrote" in r.stdout
    text = written[0].read_text(encoding="utf-8")
    assert "dealer: rules" in text and '"0: draw stock"' in text and "to_move: 0" in text
    t = run_cli("test", str(written[0]))
    assert t.returncode == 0 and t.stdout.strip().endswith("1 passed, 0 failed"), output(t)


def test_a_saved_position_is_played_on(tmp_path: Path) -> None:
    # 'save' is 'scenario' by the name a player looks for
    run_cli("play", "thirty-one", "--seed", "1", "--players", "2", stdin="1\n2\nsave\nq\n",
            cwd=tmp_path)
    saved = next(tmp_path.glob("thirty-one-seed1-move*.scenario.yaml"))
    r = run_cli("play", str(saved), stdin="q\n")
    assert r.returncode == 0, output(r)
    assert "a saved game: its 6 moves played again" in r.stdout
    assert "hand you: 7♣ 3♠ 4♠" in r.stdout  # the position it was saved at
    bad = run_cli("play", str(saved), "--seed", "3")
    assert bad.returncode == 2 and "sets its own" in bad.stderr


def test_moves_told_as_the_seat_sees_them_and_rounds_explained() -> None:
    out = play("1\n" * 300, "--players", "3", "--agents", "random", "--option", "lives=1")
    assert "P1: draw discard — J♠ from discard to P1's hand" in out  # a card seen
    assert "P1: draw stock — a card from stock to P1's hand" in out  # a card not seen
    assert "ended by knock after P1's move 'knock', then your move 'discard 2S'" in out
    after = out[out.index("Standings after round 1:"):].splitlines()
    assert after[1:4] == ["  you: lives 0", "  P1: lives 1", "  P2: lives 1"]
    assert "Standings after round 3" not in out  # the last round: the final standings


def test_the_rules_log_lines_of_the_round_end_are_shown(tmp_path: Path) -> None:
    from .helpers import write_variant

    games = Path(__file__).resolve().parent.parent / "games"
    f = write_variant(games / "thirty-one.yaml", tmp_path / "t.yaml", (
        "      - low = lowest(players, p -> hand_value(hand[p]))",
        "      - low = lowest(players, p -> hand_value(hand[p]))\n"
        "      - log('the knocker was')\n      - log(knocker)"))
    r = run_cli("play", str(f), "--seed", "1", "--players", "3", "--agents", "random",
                "--option", "lives=1", stdin="1\n" * 300)
    assert r.returncode == 0, output(r)
    why = r.stdout[r.stdout.index("ended by knock"):].splitlines()
    assert why[1:3] == ["  the knocker was", "  1"]
