"""A run's chunks of games played by local worker processes (``simulate --workers N``): each
a forked process that plays the jobs it is sent through a pipe (``work``, ``sim._worker``, is
passed in: this module imports nothing from ``sim``) and answers with their tallies; the
answers are taken in the jobs' order, so a run's statistics never depend on which worker was
faster. A worker that dies ends the run with an error naming its games. The Ray backend's
counterpart is ``distributed.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from .errors import RuntimeRulesError


def _ignore_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _serve(conn: Any, work: Callable[[tuple], Any]) -> None:
    """A worker process: play each chunk the parent sends, answer with its tally (or the
    error that stopped it), until told to stop or the parent is gone."""
    # Ctrl-C is the parent's to handle (a clean message, exit 130): workers ignore it rather
    # than each printing its own traceback
    _ignore_sigint()
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        try:
            answer: tuple[str, Any] = ("ok", work(job))
        except Exception as e:  # the parent raises it, as if the games ran in it
            answer = ("error", e)
        try:
            conn.send(answer)
        except Exception:  # an error that cannot be sent (not picklable): its words
            conn.send(("error", RuntimeError(f"{type(answer[1]).__name__}: {answer[1]}")))


def local_answers(jobs: list[tuple], workers: int, work: Callable[[tuple], Any]) -> Iterator[Any]:
    """What ``work`` returns for each job, in the jobs' order, the jobs played by
    ``workers`` processes. A worker that dies (killed by the system when memory runs out, or
    by a user) ends the run with an error naming its games: a pool that quietly replaced it
    left its chunk unanswered and the run waiting for ever."""
    import multiprocessing as mp
    from multiprocessing.connection import wait

    ctx = mp.get_context("fork")
    procs: list[tuple[Any, Any]] = []
    try:
        for _ in range(min(workers, len(jobs))):
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(theirs, work), daemon=True)
            proc.start()
            theirs.close()
            procs.append((proc, mine))
        running: dict[Any, tuple[Any, int]] = {}  # connection -> (process, job)
        sent = 0
        answers: dict[int, Any] = {}
        failed = False  # a job failed: no more are given out

        def died(proc: Any, j: int) -> RuntimeRulesError:
            proc.join(5)
            code = proc.exitcode
            how = (f"killed by signal {-code}" if code is not None and code < 0
                   else f"exit status {code}")
            return RuntimeRulesError(
                f"a worker process died ({how}: out of memory?) while playing games "
                f"{jobs[j][5]} to {jobs[j][6] - 1} of the run; --workers 1 plays them in this "
                "process")

        def give(proc: Any, conn: Any) -> None:
            nonlocal sent
            if sent < len(jobs):
                try:
                    conn.send(jobs[sent])
                except OSError:
                    raise died(proc, sent) from None
                running[conn] = (proc, sent)
                sent += 1

        for proc, conn in procs:
            give(proc, conn)
        for k in range(len(jobs)):
            while k not in answers:
                wait([*running, *(proc.sentinel for proc, _j in running.values())])
                for conn, (proc, j) in list(running.items()):
                    try:
                        if not conn.poll():
                            if proc.is_alive():
                                continue
                            raise EOFError
                        answer = conn.recv()
                    except (EOFError, OSError):  # its end of the pipe closed: it is gone
                        raise died(proc, j) from None
                    del running[conn]
                    # an error is raised in its turn, after every earlier job's answer: which
                    # game's error a run reports never depends on which worker was faster
                    answers[j] = answer[1]
                    if answer[0] == "error":
                        failed = True
                    elif not failed:
                        give(proc, conn)
            got = answers.pop(k)
            if isinstance(got, BaseException):
                raise got
            yield got
        for _proc, conn in procs:
            conn.send(None)
    finally:
        for proc, conn in procs:
            if proc.is_alive():
                proc.terminate()
            proc.join(5)
            conn.close()
