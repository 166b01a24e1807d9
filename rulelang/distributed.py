"""``simulate --backend ray`` and ``compare --backend ray``: a run's games spread over a Ray
cluster (docs/distributed.md).

The games are cut into chunks of game indices as for local workers (``sim.chunks``), one Ray task
each; the answers are taken in the chunks' order and merged as the local workers' are, so the
statistics, the ``--records`` lines and the ``--record`` log are those of ``--workers 1``: a
game's seed depends on the run's seed and its index alone. Scheduling, retries after a lost node
and the cluster itself are Ray's.

A task is given the rules file's path (absolute, so that any worker's folder reaches it), the
options and the SHA-256 of every file the run's game was compiled from; each Ray worker process
compiles a game once and keeps it for the run's later chunks (``sim._worker``'s cache). A worker
that finds other files (a node with another copy, or none) fails the run with that said, rather
than playing another game. Compiled games are never shipped: they hold generated code.

Ray is an optional extra (``pip install 'rulelang[ray]'``), imported only here and only when the
backend is asked for; this module imports nothing from ``sim`` (``sim`` passes its worker in).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from .errors import RulesError, RuntimeRulesError, UsageError

# (logging, pickle, signal and socket are imported where used: the CLI imports this module for
# its help texts, and a run on local workers needs none of them)
BACKENDS = ("local", "ray")
BACKEND_HELP = ("where games run: local (--workers processes) or ray (a Ray cluster, the same "
                "statistics; needs pip install 'rulelang[ray]')")
ADDRESS_HELP = ("with --backend ray: the cluster to join, 'auto' or ray://HOST:PORT (default: a "
                "local Ray started for the run)")
WAIT = 0.5  # seconds between looks at the tasks: Ctrl-C is seen within this
AHEAD = 4  # chunks per CPU asked for before the next one in order is back


def check_backend(backend: str, address: str | None) -> None:
    """A usage error for an unknown backend, an address without Ray, or Ray not installed:
    said before a file is written or a game played."""
    if backend not in BACKENDS:
        raise UsageError(f"--backend must be {' or '.join(BACKENDS)}, not '{backend}'")
    if address is not None and backend != "ray":
        raise UsageError("--address is the Ray cluster's: it needs --backend ray")
    if backend == "ray":
        import_ray()


def import_ray() -> Any:
    """Ray, or a usage error that says how to install it."""
    try:
        import ray
    except ImportError:
        raise UsageError("--backend ray needs Ray, an optional extra: "
                         "pip install 'rulelang[ray]'") from None
    return ray


@contextmanager
def ray_answers(address: str | None, game: Any, path: str,
                jobs: Callable[[int, str, dict[str, Any]], list[tuple]],
                work: Callable[..., Any]) -> Iterator[Iterator[Any]]:
    """``sim.run``'s answers from Ray, in order: ``jobs(n, path, more)`` cuts the run into
    chunks for ``n`` workers (here one per CPU of the cluster), each job naming the rules file
    by its absolute path, with ``more`` (its files' SHA-256 and the path errors name) added to
    its extras; ``work`` plays a job (``sim._worker``)."""
    is_file = Path(path).is_file()
    ship = {"files": [sha for _name, sha in game.files], "shown": path if is_file else None}
    with Cluster(address) as cluster:
        todo = jobs(cluster.cpus, os.path.abspath(path) if is_file else path, ship)
        with closing(cluster.answers(todo, work, lambda job: (job[5], job[6]))) as answers:
            yield answers


class Cluster:
    """A connection to Ray for one run: the one the process has already (a test, a notebook),
    else a new one, to ``address`` (``auto``, ``ray://host:port``) or to a local Ray started
    here (``ray.init()``, stopped again by ``close``)."""

    def __init__(self, address: str | None) -> None:
        self.ray = ray = import_ray()
        self.started = False
        if not ray.is_initialized():
            import logging

            # stdout is the statistics' (--json): the workers' output is not forwarded, and
            # Ray's own lines below a warning are not printed
            more: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.WARNING}
            if address is None:
                more["include_dashboard"] = False
            try:
                with _sigint_held() as interrupted:
                    ray.init(address=address, **more)
            except Exception as e:  # ConnectionError, ValueError, RuntimeError, ...
                where = f" at {address}" if address else ""
                raise UsageError(f"--backend ray: could not start or reach Ray{where}: "
                                 f"{_first_line(e)}") from None
            self.started = True
            if interrupted:
                self.close()
                raise KeyboardInterrupt
        try:
            self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        except Exception:
            self.close()
            raise

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.started:
            self.started = False
            with _sigint_held():  # (a second Ctrl-C: the run is stopping already)
                self.ray.shutdown()

    def answers(self, jobs: list[tuple], work: Callable[..., Any],
                games_of: Callable[[tuple], tuple[int, int]]) -> Iterator[Any]:
        """What ``work(job, compile_here)`` returns for each job, in the jobs' order, the jobs
        run as Ray tasks. An error in a job is raised in its turn, after every earlier job's
        answer (as with local workers); ``games_of(job)`` names its games in Ray's errors."""
        ray = self.ray
        task = ray.remote(_task)
        window = 2 * self.cpus
        running: dict[Any, int] = {}  # task -> job
        done: dict[int, tuple[str, Any]] = {}
        sent = 0
        failed = False  # a job failed: no more are asked for
        try:
            for k in range(len(jobs)):
                while k not in done:
                    while (not failed and sent < len(jobs) and len(running) < window
                           and sent < k + AHEAD * self.cpus):
                        running[task.remote(work, jobs[sent])] = sent
                        sent += 1
                    ready, _ = ray.wait(list(running), num_returns=1, timeout=WAIT)
                    for ref in ready:
                        j = running.pop(ref)
                        try:
                            done[j] = ray.get(ref)
                        except ray.exceptions.RayError as e:  # a worker or node lost for good
                            lo, hi = games_of(jobs[j])
                            done[j] = ("error", RuntimeRulesError(
                                f"the Ray task playing games {lo} to {hi - 1} of the run "
                                f"failed ({type(e).__name__}: {_first_line(e)})"))
                        failed = failed or done[j][0] == "error"
                status, got = done.pop(k)
                if status == "error":
                    raise got
                yield got
        finally:
            for ref in running:  # a run stopped (Ctrl-C, an error): its other games are not
                try:
                    ray.cancel(ref, force=True)
                except Exception:
                    pass


@contextmanager
def _sigint_held() -> Iterator[list[int]]:
    """Ctrl-C held back while Ray starts or stops a local cluster (the list it yields says
    whether one came): stopped half-way, Ray left processes running, or crashed the run."""
    import signal
    import threading

    got: list[int] = []
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is signal.SIG_IGN):  # (nohup: none comes)
        yield got
        return
    old = signal.signal(signal.SIGINT, lambda _sig, _frame: got.append(1))
    try:
        yield got
    finally:
        signal.signal(signal.SIGINT, old)


def _first_line(e: BaseException) -> str:
    """An exception's message, first line, without the quotes some of Ray's carry."""
    text = str(e).strip().strip("'\"").strip()
    return text.splitlines()[0] if text else type(e).__name__


def _task(work: Callable[..., Any], job: tuple) -> tuple[str, Any]:
    """One chunk of games on a Ray worker: ``("ok", answer)``, or ``("error", exception)`` for
    the driver to raise in the job's turn (its words only, if it cannot be pickled)."""
    try:
        return "ok", work(job, compile_here)
    except Exception as e:
        import pickle

        try:
            pickle.dumps(e)
        except Exception:
            e = RuntimeError(f"{type(e).__name__}: {e}")
        return "error", e


def compile_here(path: str, options: dict[str, Any], extra: dict[str, Any]) -> Any:
    """The run's game compiled on this worker, from ``path`` as the run's files (``extra``:
    ``files``, their SHA-256 in order; ``shown``, the path errors name; ``allow_any_path``)."""
    import socket

    from .build import build_game
    from .rules import load_rules

    shown = extra.get("shown")
    try:
        game = build_game(load_rules(path, extra.get("allow_any_path", False), shown), options)
    except RulesError as e:
        raise RuntimeRulesError(
            f"a Ray worker on {socket.gethostname()} could not compile {shown or path} "
            f"({e.message}): every node needs rulelang and the rules files at the same path"
        ) from None
    if [sha for _name, sha in game.files] != extra["files"]:
        raise RuntimeRulesError(
            f"a Ray worker on {socket.gethostname()} found other rules files at "
            f"{Path(path).parent} than the run was started with: every node needs the same "
            "copy")
    return game
