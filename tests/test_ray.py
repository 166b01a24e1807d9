"""``--backend ray``: the same statistics, ``--records`` lines and replay log as local workers
for the same seed, from a local Ray cluster started by the test (``make test-ray``, which
installs the ``ray`` extra); and, without Ray, clean usage errors (these run in ``make test``).

The Ray tests are skipped unless RULELANG_RAY_TESTS is set and Ray is installed: starting Ray
costs several seconds of wall time, more than ``make test``'s budget allows."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import assert_no_traceback, output, run_cli
from .test_cli import without_timings  # the timings' keys (CONTRACTS.md: only those) left out

RUN = ("thirty-one", "--games", "40", "--seed", "7", "--agents", "greedy,random",
       "--option", "lives=2", "--json")

needs_ray = pytest.mark.skipif(not os.environ.get("RULELANG_RAY_TESTS"),
                               reason="the Ray tests run with make test-ray")


def same_bytes(stdout: str) -> str:
    return json.dumps(without_timings(json.loads(stdout)))


# ---------------------------------------------------------------- without Ray (make test)
@pytest.mark.parametrize("args, words", [
    (["--backend", "spark"], "--backend must be local or ray, not 'spark'"),
    (["--address", "auto"], "--address is the Ray cluster's: it needs --backend ray"),
])
def test_a_bad_backend_is_a_usage_error(args: list[str], words: str) -> None:
    r = run_cli("simulate", "thirty-one", "--games", "2", *args)
    assert r.returncode == 2 and words in r.stderr, output(r)
    assert_no_traceback(r)


def test_ray_missing_is_a_usage_error_naming_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from rulelang.cli import app

    monkeypatch.setitem(sys.modules, "ray", None)  # its import fails, as an absent package's
    records = tmp_path / "r.jsonl"
    for args in (["simulate", "thirty-one", "--records", str(records)],
                 ["compare", "thirty-one", "thirty-one"]):
        r = CliRunner().invoke(app, [*args, "--games", "2", "--backend", "ray"])
        assert r.exit_code == 2, r.output
        assert "pip install 'rulelang[ray]'" in r.output and "Traceback" not in r.output
    assert not records.exists()  # said before a game is played or a file written


# ---------------------------------------------------------------- with Ray (make test-ray)
@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A local Ray of two CPUs with a small object store (the answers are tallies), started
    once for the module; the commands join it by its address (what ``--address auto`` would
    find, unless another Ray started on the machine since)."""
    ray = pytest.importorskip("ray")
    ctx = ray.init(num_cpus=2, include_dashboard=False, object_store_memory=80 * 2**20,
                   log_to_driver=False)
    try:
        yield ray, ctx.address_info["gcs_address"]
    finally:
        ray.shutdown()


@needs_ray
def test_ray_gives_the_statistics_records_and_log_of_local_workers(
        cluster: Any, tmp_path: Path) -> None:
    out: dict[str, tuple[str, str, str]] = {}
    for name, how in (("one", ["--workers", "1"]), ("two", ["--workers", "2"]),
                      ("ray", ["--backend", "ray", "--address", cluster[1]])):
        records, log = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.log"
        r = run_cli("simulate", *RUN, *how, "--records", str(records), "--record", str(log))
        assert r.returncode == 0, output(r)
        assert_no_traceback(r)
        out[name] = (same_bytes(r.stdout), records.read_text(encoding="utf-8"),
                     log.read_text(encoding="utf-8"))
    assert out["ray"] == out["two"] == out["one"]
    stats = json.loads(out["ray"][0])
    assert stats["games"] == 40 and len(out["ray"][1].splitlines()) == 40


@needs_ray
def test_ray_in_process_and_compare(cluster: Any) -> None:
    """In a process already connected to Ray (a notebook, a script): ``sim.run`` and
    ``compare`` use that connection, and leave it connected."""
    from rulelang import sim
    from rulelang.cli import _load_game
    from rulelang.compare import compare_games

    g = _load_game("thirty-one", {"lives": "2"})
    names = ["greedy", "random"]
    local = sim.run("thirty-one", {"lives": "2"}, 2, 24, names, 3, game=g)
    far = sim.run("thirty-one", {"lives": "2"}, 2, 24, names, 3, game=g, backend="ray")
    assert json.dumps(without_timings(far)) == json.dumps(without_timings(local))
    assert cluster[0].is_initialized()
    args = ("thirty-one", "thirty-one", None, 10, "greedy,random", 1, 1, _load_game,
            [{"lives": "2"}, {}, {"blitz_after_knock": "true"}])
    a = compare_games(*args)
    b = compare_games(*args, backend="ray")
    assert without_timings(a) == without_timings(b)


@needs_ray
def test_a_rules_file_changed_under_a_ray_worker_is_not_played(cluster: Any,
                                                               tmp_path: Path) -> None:
    """A worker keeps its compiled game for the run's later chunks, by the files' SHA-256:
    a run on a file changed since never plays the old copy."""
    from rulelang import sim
    from rulelang.cli import _load_game

    path = tmp_path / "v.yaml"
    path.write_text("extends: thirty-one\noptions: {lives: {default: 1}}\n", encoding="utf-8")
    first = sim.run(str(path), {}, 2, 8, ["random"] * 2, 1, game=_load_game(str(path), {}),
                    backend="ray")
    path.write_text("extends: thirty-one\noptions: {lives: {default: 3}}\n", encoding="utf-8")
    g = _load_game(str(path), {})
    again = sim.run(str(path), {}, 2, 8, ["random"] * 2, 1, game=g, backend="ray")
    local = sim.run(str(path), {}, 2, 8, ["random"] * 2, 1, game=g)
    assert without_timings(again) == without_timings(local) != without_timings(first)


def test_a_ray_worker_refuses_rules_files_other_than_the_runs(tmp_path: Path) -> None:
    """What a Ray worker does with the path it is sent (no Ray needed): compile it, and refuse
    files whose SHA-256 are not the run's, or a path it cannot reach."""
    from rulelang.cli import _load_game
    from rulelang.distributed import compile_here
    from rulelang.errors import RuntimeRulesError

    path = tmp_path / "v.yaml"
    path.write_text("extends: thirty-one\n", encoding="utf-8")
    files = [sha for _name, sha in _load_game(str(path), {}).files]
    extra = {"files": files, "shown": "v.yaml"}
    assert compile_here(str(path), {"lives": "2"}, extra).files[-1][1] == files[-1]
    with pytest.raises(RuntimeRulesError, match="found other rules files"):
        compile_here(str(path), {}, {**extra, "files": ["0" * 64, *files[1:]]})
    with pytest.raises(RuntimeRulesError, match=r"could not compile v\.yaml .* same path"):
        compile_here(str(tmp_path / "gone.yaml"), {}, extra)
