"""``rulelang check``'s work, apart from the command-line framework: load and check each file,
print every problem located, and say what the exit status is.

The Typer command (``commands.check``) and the quick start of ``cli.main`` (a plain ``rulelang
check FILE...`` run without importing Typer, a fifth of a cold check) both call ``run_check``
with their own way of writing a line, so both print the same bytes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .errors import RulesError, RulesErrors, UsageError
from .terminal import clean

Write = Callable[[str, bool], None]  # (text, to stderr): one line, as ``typer.echo`` writes it


def run_check(paths: list[str], as_json: bool, allow_any_path: bool, write: Write) -> int:
    """Check the rules files (folders: every *.yaml except *.scenario.yaml): the exit status
    (0 clean or only warnings, 1 a problem, 2 a usage error)."""
    from .build import check_all
    from .catalog import rules_files
    from .rules import load_rules

    try:
        files = rules_files(paths)
    except UsageError as e:
        write(clean(e.render()), True)
        return 2
    problems = warned = 0
    found: list[dict[str, Any]] = []
    for path, shown in files:
        warnings: list[RulesError] = []
        try:
            loaded = load_rules(str(path), allow_any_path, shown_as=shown)
            errors, warnings = check_all(loaded)
        except RulesErrors as e:
            errors = e.errors
        except RulesError as e:
            errors = [e]
        # warnings are printed with the errors, in file order, but do not fail the check
        for e in sorted(errors + warnings, key=lambda e: (e.span.path, e.span.line, e.span.col)):
            if as_json:
                found.append({"file": e.span.path or shown, "line": e.span.line,
                              "col": e.span.col, "severity": e.kind, "message": e.message})
            else:
                write(clean(e.render()), True)
        problems += len(errors)
        warned += len(warnings)
    if as_json:
        # json.dumps writes control characters as \u escapes: nothing reaches a terminal raw
        write(json.dumps(found, indent=1), False)
        return 1 if problems else 0
    also = f" ({warned} warning{'s' if warned != 1 else ''})" if warned else ""
    if problems:
        write(clean(f"{problems} problem{'s' if problems != 1 else ''} found{also}"), True)
        return 1
    write(clean(f"{len(files)} file{'s' if len(files) != 1 else ''} checked, no problems{also}"),
          False)
    return 0
