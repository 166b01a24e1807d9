"""The ``rulelang`` console entry point: every command through the Typer app (``commands.py``),
every failure turned into a located message and an exit status, never a traceback.

Exit status: 0 success; 1 a bad rules or scenario file, or a failed check or test; 2 a usage
error.

A plain ``rulelang check FILE...`` (only file arguments, ``--json``, ``--allow-any-path``) is run
without importing Typer, which is a fifth of a cold check's instructions: Typer would parse
those arguments in only one way, and lines are written as ``typer.echo`` writes them to a
terminal, a pipe or a file with a usable encoding. Anything else (a help request, another
flag, an odd stream) goes through Typer as before. The app and the commands are reachable here
too (``rulelang.cli.app``, ``rulelang.cli.check``) for the callers that drive it in process.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from .errors import RulesError, UsageError
from .terminal import clean

_CHECK_FLAGS = ("--json", "--allow-any-path")


def __getattr__(name: str) -> Any:
    # the import system asks modules for dunders (``__path__`` on every ``from cli import``):
    # those must not load the Typer app
    if not name.startswith("__"):
        from . import commands

        if hasattr(commands, name):
            return getattr(commands, name)
    raise AttributeError(f"module 'rulelang.cli' has no attribute '{name}'")


def _plain_stream(stream: Any) -> bool:
    """Whether ``typer.echo`` would write to ``stream`` itself, unwrapped: a text stream with
    an encoding other than ASCII and an error handler (Click rewraps an ASCII one)."""
    import codecs

    enc = getattr(stream, "encoding", None)
    if stream is None or enc is None or getattr(stream, "errors", None) is None:
        return False
    try:
        return codecs.lookup(enc).name != "ascii"
    except LookupError:
        return True


def _plain() -> bool:
    return os.name != "nt" and _plain_stream(sys.stdout) and _plain_stream(sys.stderr)


def _write(text: str, err: bool) -> None:
    """``typer.echo(text, err=err)`` for a plain stream: the line, a newline, flushed; ANSI
    codes dropped unless the stream is a terminal (the texts written are cleaned, so they hold
    none)."""
    file = sys.stderr if err else sys.stdout
    out = text + "\n"
    if "\x1b" in out:
        try:
            tty = file.isatty()
        except Exception:
            tty = False
        if not tty:
            import re

            out = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", out)
    file.write(out)
    file.flush()


def _echo_err(text: str) -> None:
    if _plain():
        _write(clean(text), True)
    else:
        from .commands import _echo_err as typer_echo_err

        typer_echo_err(text)


def _quick_check(args: list[str]) -> bool:
    """Whether ``args`` are a plain ``check`` that Typer would read as the paths and flags."""
    if len(args) < 2 or args[0] != "check" or not _plain():
        return False
    if any(k.endswith("_COMPLETE") for k in os.environ):  # a shell-completion request
        return False
    paths = [a for a in args[1:] if a not in _CHECK_FLAGS]
    return bool(paths) and not any(a.startswith("-") for a in paths)


def _run_check(args: list[str]) -> None:
    """``rulelang check`` as Typer runs it in standalone mode, Ctrl-C, end of input and a
    closed pipe included."""
    from .checkcmd import run_check

    paths = [a for a in args[1:] if a not in _CHECK_FLAGS]
    try:
        code = run_check(paths, "--json" in args, "--allow-any-path" in args, _write)
    except EOFError:
        _write("", True)
        _write("Aborted!", True)
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
    except OSError as e:
        import errno

        if e.errno != errno.EPIPE:
            raise
        from typer._click.utils import PacifyFlushWrapper

        sys.stdout = PacifyFlushWrapper(sys.stdout)  # type: ignore[assignment]
        sys.stderr = PacifyFlushWrapper(sys.stderr)  # type: ignore[assignment]
        sys.exit(1)
    sys.exit(code)


def main() -> None:
    """Console entry point: Typer, with every failure turned into a message and an exit code."""
    try:
        args = sys.argv[1:]
        if _quick_check(args):
            _run_check(args)
        from .commands import app

        app(standalone_mode=True)
    except SystemExit as e:
        if e.code == 130:  # Typer turns Ctrl-C into a silent exit 130: say what happened
            _echo_err("interrupted")
        raise
    except KeyboardInterrupt:
        _echo_err("interrupted")
        sys.exit(130)
    except RulesError as e:
        _echo_err(e.render())
        sys.exit(2 if isinstance(e, UsageError) else 1)
    except RecursionError:
        _echo_err("error: the input is nested too deeply")
        sys.exit(1)
    except Exception as e:  # a bug in rulelang: a message, never a traceback (the fuzzer
        # calls the commands in process, where such a bug still shows as a failure)
        _echo_err(f"error: internal error in rulelang ({type(e).__name__}: {e}); "
                  "please report it with the file that caused it")
        sys.exit(1)


if __name__ == "__main__":
    main()
