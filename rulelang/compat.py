"""The few Python 3.10+ spellings rulelang uses, made to work on Python 3.9 too.

PyPy, the fast runtime for long simulations (docs/performance.md), is Python 3.9 in the Linux
distributions that package it. Everything else in rulelang is written for 3.9 already; what
3.9 lacks is gathered here so that the rest of the code stays as it was.
"""

from __future__ import annotations

import sys

# ``@dataclass(frozen=True, **SLOTS)``: slotted dataclasses where Python has them (3.10+);
# on 3.9 the classes keep a ``__dict__``, which changes memory, not behaviour
SLOTS: dict[str, bool] = {"slots": True} if sys.version_info >= (3, 10) else {}
