"""What a simulation run writes besides its statistics: the log of ``simulate --record`` (a
write that fails is a clean error naming the file) and progress lines for a run that is not
shown a progress bar (a pipe, a log, ``--json``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .errors import UsageError


def progress_lines(total: int, say: Callable[[str], None], first: float = 2.0,
                   every: float = 10.0) -> Callable[[int], None]:
    """A progress callback that prints "simulating: K of N games" on stderr once the run has
    taken ``first`` seconds, then every ``every`` seconds: a long run never looks hung."""
    start = time.monotonic()
    state = {"done": 0, "next": start + first}

    def advance(k: int) -> None:
        state["done"] += k
        now = time.monotonic()
        if now >= state["next"] and state["done"] < total:
            state["next"] = now + every
            say(f"simulating: {state['done']:,} of {total:,} games ({now - start:.0f} s)")
    return advance


class RecordFile:
    """The file of ``simulate --record``: a write that fails (a full disk, ``/dev/full``, a
    quota) is a clean error naming the file, as a file that cannot be opened is, not an
    OSError out of the middle of the run."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.file = open(path, "w", encoding="utf-8")
        except OSError as e:
            raise self._error(e) from None

    def _error(self, e: OSError) -> UsageError:
        return UsageError(f"--record: cannot write {self.path}: {e.strerror or e}")

    def write(self, text: str) -> None:
        try:
            self.file.write(text)
        except OSError as e:
            raise self._error(e) from None

    def close(self, quietly: bool = False) -> None:
        try:
            self.file.close()
        except OSError as e:
            if not quietly:
                raise self._error(e) from None
