"""What rules files there are: the files a ``check`` of paths covers, and the bundled games
with their one-line descriptions (``rulelang list``).

A listing reads each bundled file's YAML for its ``name`` and ``description`` only: nothing
is built, so ``rulelang list`` answers at once and lists a file even when it does not check.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import RulesError, UsageError
from .rules import bundled_dir, bundled_names


def rules_files(paths: list[str]) -> list[tuple[Path, str]]:
    """The rules files named by ``paths`` (a folder: its ``*.yaml`` except scenarios, sorted),
    each with the path as the user wrote it. A folder without one is a usage error, so that
    ``check`` of an empty or misnamed folder never says "no problems"."""
    out = []
    for p in paths:
        pp = Path(p)
        if os.path.isdir(pp):  # os.path: false, not an error, for a name too long
            found = [f for f in sorted(pp.rglob("*.yaml"))
                     if not f.name.endswith(".scenario.yaml")]
            if not found:
                raise UsageError(f"no rules files (*.yaml, scenarios aside) in the folder {p}")
            out.extend((f, str(f)) for f in found)
        elif os.path.isfile(pp):
            out.append((pp, p))
        else:
            raise UsageError(f"no such file or folder: {p}{bundled_hint(p)}")
    return out


def bundled_hint(name: str) -> str:
    """When a missing path is a bundled game's name, where that game's file is."""
    f = bundled_dir() / f"{name}.yaml"
    if "/" in name or "\\" in name or not os.path.isfile(f):  # false for a name too long
        return ""
    return f" (the bundled game '{name}' is the file {f})"


def _first_line(text: str) -> str:
    line = " ".join(text.split())
    for stop in (". ", "; "):
        i = line.find(stop)
        if i > 0:
            return line[:i + 1].rstrip(";")
    return line


def bundled_games() -> list[dict[str, Any]]:
    """Each bundled game: its name on the command line (``id``), its ``name:``, the first
    sentence of its ``description:``, and the file it ``extends:`` (or none)."""
    from .yamlload import load_file

    out = []
    for stem in bundled_names():
        path = bundled_dir() / f"{stem}.yaml"
        entry: dict[str, Any] = {"id": stem, "name": stem, "description": "", "extends": None}
        try:
            doc = load_file(str(path))
        except (RulesError, OSError):
            doc = None
        if isinstance(doc, dict):
            for key in ("name", "description", "extends"):
                v = doc.get(key)
                if isinstance(v, str):
                    entry[key] = _first_line(str(v)) if key == "description" else str(v)
        if isinstance(entry["extends"], str) and entry["extends"].endswith(".yaml"):
            entry["extends"] = entry["extends"][:-5]
        out.append(entry)
    return out
