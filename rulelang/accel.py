"""The optional compiled path: the engine's hot modules compiled with Cython, and how to tell.

``make accel`` (``python -m rulelang.accel_build``) compiles the modules in ``MODULES`` with
Cython in pure-Python mode — the ``.py`` files exactly as they are, no ``.pyx`` — into
extension modules next to them (``rulelang/table.cpython-311-x86_64-linux-gnu.so``, ...).
Python's import system prefers an extension module to a ``.py`` of the same name, so from then
on ``import rulelang.table`` loads the compiled one; ``make accel-clean``
(``python -m rulelang.accel_build clean``) removes them and everything is pure Python again. Results
are identical either way (``tests/test_differential.py`` runs against both in CI); only speed
differs (docs/performance.md, "Compiled path").

A compiled module built from an older source would run old code silently, so the build records
each source's hash (``_accel_manifest.json``, git-ignored like the extension modules), and
``guard()`` — called when the package is imported, a no-op when nothing is compiled — loads the
``.py`` instead of any extension module whose source has changed since, with a warning.
Setting the environment variable ``RULELANG_PURE=1`` loads every ``.py`` even when compiled
modules are present (to compare the two paths, or to debug with Python's own tracebacks);
``RULELANG_PURE=table,builtins`` only those modules'.

This module is imported with the package and never imports Cython: the package needs none.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "_accel_manifest.json"

# the modules worth compiling (measured: docs/performance.md, "Compiled path"). Left out:
# engine (compiled, the yardstick benchmark ran 10-35% slower: its attribute-heavy methods lose
# Python 3.11's specialised attribute reads), runtime (its tiny helpers, called from interpreted
# generated code, cost more as compiled calls: -15% there), views and codegen (no gain)
MODULES = ("table", "movetext", "builtins")


def compiled_files() -> dict[str, list[Path]]:
    """The package's modules with a compiled file next to their ``.py``, and those files."""
    out: dict[str, list[Path]] = {}
    for entry in os.scandir(PACKAGE):
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            if entry.name.endswith(suffix):
                name = entry.name[:-len(suffix)]
                if (PACKAGE / f"{name}.py").exists():
                    out.setdefault(name, []).append(Path(entry.path))
    return out


def digest(name: str) -> str:
    import hashlib  # only when something is compiled: the package's import stays light

    return hashlib.sha256((PACKAGE / f"{name}.py").read_bytes()).hexdigest()


def accelerated() -> list[str]:
    """The package's modules running compiled in this process (empty: pure Python)."""
    out = []
    for name in sorted(compiled_files()):
        mod = sys.modules.get(f"{__package__}.{name}")
        if mod is None:  # not imported yet: import it to see which file Python chose
            import importlib

            mod = importlib.import_module(f"{__package__}.{name}")
        if not str(getattr(mod, "__file__", "")).endswith(".py"):
            out.append(name)
    return out


class _SourceFirst:
    """Loads the ``.py`` of the named modules even though a compiled one lies next to it (a
    meta path finder: ``find_spec`` is all the import system asks of one)."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        pkg, _, name = fullname.rpartition(".")
        if pkg != __package__ or name not in self.names:
            return None
        import importlib.util

        return importlib.util.spec_from_file_location(fullname, PACKAGE / f"{name}.py")


def guard() -> None:
    """At import: never run a compiled module older than its source (see the module docstring)."""
    present = list(compiled_files())
    if not present:
        return
    pure = os.environ.get("RULELANG_PURE", "")
    if pure:  # asked for pure Python (to compare, or to debug): all, or the modules named
        names = set(present) if pure in ("1", "all") else set(pure.split(",")) & set(present)
        sys.meta_path.insert(0, _SourceFirst(names))
        if pure in ("1", "all"):
            return
    import json
    import warnings

    try:
        built = json.loads(MANIFEST.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = {}
    stale = {n for n in present if built.get(n) != digest(n)}
    if stale:
        warnings.warn(f"rulelang: compiled {', '.join(sorted(stale))} older than the source; "
                      "using the .py (run `make accel` to rebuild)", RuntimeWarning, stacklevel=2)
        sys.meta_path.insert(0, _SourceFirst(stale))
