"""Run ``rulelang`` commands for the tests as forks of a process that has already imported the CLI.

The suite runs about 300 ``rulelang`` commands. Each one, started as a fresh interpreter, spends
~0.3 s of CPU starting Python and importing the CLI and its libraries (typer, rich, lark,
jsonschema, yaml) before doing ~0.01-0.1 s of work: most of the suite's CPU time. Here one
helper process (the *zygote*, one per test session) imports all that once; each command is a
fork of it that runs the installed console script's own code at the top level, exactly as the
real script would, with its own stdin, stdout and stderr (files), working directory, environment
and ``sys.argv``, and ends as any Python process ends (SystemExit's code, a traceback and 1,
atexit handlers, flushed streams). So every command is still its own process with its own exit
code and output; only the start-up is shared.

The zygote never runs a command itself and never reads or writes its std streams, so each fork
starts from the state of a freshly imported CLI, not from the test process's state. (Compiling
the bundled games in the zygote, for the forks to inherit, made the suite slower: a fork of a
larger process costs more than the compilations it saves. What every command that reads rules
builds first, the expression parser with its lexers' regular expressions and the compiled
schemas, is built in the zygote: ~15 ms of CPU less a command.) What a fork
does not get afresh: the hash seed (every fork shares the zygote's; ``random`` is reseeded) and
the interpreter start-up itself, which the tests that start ``rulelang`` or ``python -m
rulelang`` with ``subprocess`` keep checking. ``RULELANG_CLI_EXEC=1`` starts every command as a
fresh interpreter instead (``make test-long`` does).
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The zygote's program (arguments: the two pipes' fds, the console script): import what a
# command imports, then serve requests on the first pipe (one JSON line each) and answer on the
# second with the fork's pid, then its exit code and CPU seconds. The fork leaves the loop and
# runs the console script as __main__, so that an exception escaping it is handled by the
# interpreter itself, as in a real process.
ZYGOTE = r"""
import json, os, random, runpy, sys
sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[3]))  # as for `python SCRIPT`, not -c
import rulelang.cli
for name in ("rulelang.commands", "rulelang.build", "rulelang.rules", "rulelang.compile",
             "rulelang.engine", "rulelang.sim", "rulelang.play", "rulelang.scenario", "jsonschema",
             "lark", "yaml", "rich.console"):
    try:
        __import__(name)
    except ImportError:
        pass
# the expression parser (Lark's, from its cache) and its lexers' regular expressions, which
# every command that reads rules would build again (~15 ms of CPU a command)
import rulelang.parse
try:
    for lexer in rulelang.parse._parsers().parser.lexer.lexers.values():
        lexer.scanner
except AttributeError:  # another Lark: the forks build what they use
    pass
for kind, partial in (("rules", True), ("rules", False), ("scenario", False)):
    rulelang.rules._quick_check(kind, partial)  # the compiled schemas (schemacheck.py)
requests = os.fdopen(int(sys.argv[1]), "r", encoding="utf-8")
answers = os.fdopen(int(sys.argv[2]), "w", encoding="utf-8")
while True:
    line = requests.readline()
    if not line:
        os._exit(0)
    req = json.loads(line)
    pid = os.fork()
    if pid == 0:
        break
    answers.write(f"{pid}\n")
    answers.flush()
    _, status, use = os.wait4(pid, 0)
    answers.write(f"{os.waitstatus_to_exitcode(status)} {use.ru_utime + use.ru_stime}\n")
    answers.flush()
requests.close()
answers.close()
for fd, (path, flags) in enumerate([(req["stdin"], os.O_RDONLY), (req["stdout"], os.O_WRONLY),
                                    (req["stderr"], os.O_WRONLY)]):
    f = os.open(path, flags)
    os.dup2(f, fd)
    os.close(f)
os.chdir(req["cwd"])
os.environ.clear()
os.environ.update(req["env"])
random.seed()
sys.argv = [req["script"], *req["args"]]
del json, os, random, requests, answers, req, pid, line
runpy.run_path(sys.argv[0], run_name="__main__")
"""


class Zygote:
    """The helper process and the two pipes to it; started at the first command."""

    def __init__(self, script: str, env: dict[str, str]) -> None:
        req_r, self.req_w = os.pipe()
        self.ans_r, ans_w = os.pipe()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", ZYGOTE, str(req_r), str(ans_w), script],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
            pass_fds=(req_r, ans_w))
        os.close(req_r)
        os.close(ans_w)
        self.pending = b""
        self.script = script
        self.env = _steady(env)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        for fd in (self.req_w, self.ans_r):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def _answer(self, timeout: float) -> str | None:
        """The zygote's next answer line, or None after ``timeout`` seconds without one (read
        from the fd itself: a buffered reader could hold a line that select does not see)."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.ans_r], [], [], left)[0]:
                return None
            chunk = os.read(self.ans_r, 4096)
            if not chunk:
                raise RuntimeError("the rulelang zygote process died")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode("ascii")

    def run(self, script: str, args: list[str], stdin: str, cwd: str | None,
            env: dict[str, str], timeout: float) -> subprocess.CompletedProcess[str]:
        with tempfile.TemporaryDirectory(prefix="rulelang-cli-") as d:
            paths = {k: str(Path(d) / k) for k in ("stdin", "stdout", "stderr")}
            # in the locale's encoding, as subprocess.run(text=True) encodes and decodes
            Path(paths["stdin"]).write_text(stdin)
            Path(paths["stdout"]).touch()
            Path(paths["stderr"]).touch()
            # no cwd: the test process's current one, as subprocess.run would
            req = {"script": script, "args": args, "cwd": cwd or os.getcwd(), "env": env, **paths}
            os.write(self.req_w, (json.dumps(req) + "\n").encode("utf-8"))
            pid = int(self._answer(60) or "0")
            line = self._answer(timeout)
            timed_out = line is None
            if timed_out:
                os.kill(pid, signal.SIGKILL)
                line = self._answer(60)
            out = Path(paths["stdout"]).read_text()
            err = Path(paths["stderr"]).read_text()
        code, secs = (line or "1 0").split()
        global cpu_seconds
        cpu_seconds += float(secs)
        cmd = [script, *args]
        if timed_out:
            raise subprocess.TimeoutExpired(cmd, timeout, out, err)
        return subprocess.CompletedProcess(cmd, int(code), out, err)


_zygote: Zygote | None = None
# user+sys seconds of the forks that ended so far: they are the zygote's children, not this
# process's, so tests/conftest.py adds them to a test's CPU time
cpu_seconds = 0.0


def _close() -> None:
    if _zygote is not None:
        _zygote.close()


atexit.register(_close)


def _steady(env: dict[str, str]) -> dict[str, str]:
    """The environment the zygote was started with, but for what pytest changes on each test
    (a fork gets the whole environment of its command anyway)."""
    return {k: v for k, v in env.items() if k != "PYTEST_CURRENT_TEST"}


def enabled() -> bool:
    return hasattr(os, "fork") and os.environ.get("RULELANG_CLI_EXEC", "") in ("", "0")


def run(script: str, args: list[str], stdin: str, cwd: str | None, env: dict[str, str],
        timeout: float) -> subprocess.CompletedProcess[str]:
    """``script ARGS`` as a fork of the zygote (one is started, or restarted if it died or the
    environment changed); the answer as ``subprocess.run(..., capture_output=True, text=True)``
    gives it."""
    global _zygote
    if _zygote is not None and (not _zygote.alive() or _zygote.script != script
                                or _zygote.env != _steady(env)):
        _zygote.close()
        _zygote = None
    if _zygote is None:
        _zygote = Zygote(script, env)
    return _zygote.run(script, args, stdin, cwd, env, timeout)
