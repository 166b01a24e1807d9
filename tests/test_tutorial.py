"""docs/tutorial.md runs as written: its files are written and its `$ ` commands run in order in
a fresh folder, each with the exit status the page gives it (0, or the `# exit N` written after
the command), and the output the page shows for a command is what the command prints.

The page's ```yaml blocks are files: the first line is a comment naming the file
(`# my-thirty-one.yaml`); a later block of the same name replaces it, as the reader would edit
it. Its ```console blocks hold `$ rulelang …` lines, each followed by the output shown for it;
a line `…` stands for lines left out. Output shown for `simulate` and `compare` is not compared
(it is bot statistics, and changes whenever an agent does); their exit status is.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from .helpers import ROOT, assert_no_traceback, output, run_cli

TUTORIAL = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)
EXIT_NOTE = re.compile(r"\s+#\s*exit\s+(\d+)\s*$")
ELLIPSIS = {"…", "..."}
# commands whose output depends on the bots, not only on the rules
UNCOMPARED = {"simulate", "compare"}


@dataclass
class Step:
    """A file to write (``name``, ``text``) or a command to run (``argv``, ``exit``, ``shown``)."""
    line: int
    name: str = ""
    text: str = ""
    argv: list[str] = field(default_factory=list)
    exit: int = 0
    shown: list[str] = field(default_factory=list)


def steps(doc: str) -> list[Step]:
    """The page's files and commands, in the order a reader meets them."""
    out: list[Step] = []
    for m in BLOCK.finditer(doc):
        kind, body = m.group(1), m.group(2)
        line = doc.count("\n", 0, m.start()) + 1
        if kind == "yaml":
            first = body.split("\n", 1)[0]
            assert first.startswith("# "), (
                f"tutorial.md:{line}: a yaml block's first line names its file")
            name = first[2:].strip()
            assert "/" not in name and name.endswith(".yaml"), (
                f"tutorial.md:{line}: bad file name {name!r}")
            out.append(Step(line, name=name, text=body))
        elif kind == "console":
            for i, text in enumerate(body.rstrip("\n").split("\n")):
                if text.startswith("$ "):
                    cmd, code = text[2:], 0
                    note = EXIT_NOTE.search(cmd)
                    if note:
                        cmd, code = cmd[:note.start()], int(note.group(1))
                    argv = shlex.split(cmd)
                    assert argv[0] == "rulelang", (
                        f"tutorial.md:{line + i + 1}: only rulelang commands")
                    out.append(Step(line + i + 1, argv=argv, exit=code))
                else:
                    assert out and out[-1].argv, (
                        f"tutorial.md:{line + i + 1}: output before a command")
                    out[-1].shown.append(text.rstrip())
    return out


def shown_in_order(shown: list[str], printed: str) -> str | None:
    """The first shown line that is not among the printed lines, in order (``…`` skips any)."""
    lines = [ln.rstrip() for ln in printed.splitlines()]
    at = 0
    for want in shown:
        if want.strip() in ELLIPSIS:
            continue
        while at < len(lines) and lines[at] != want:
            at += 1
        if at == len(lines):
            return want
        at += 1
    return None


def test_tutorial_names_every_step() -> None:
    """The page covers what the tutorial promises: list, explain, a failing then passing check,
    a scenario test, a checked simulation, a comparison."""
    all_steps = steps(TUTORIAL.read_text(encoding="utf-8"))
    commands = [s.argv[1] for s in all_steps if s.argv]
    for cmd in ("list", "explain", "check", "test", "simulate", "compare"):
        assert cmd in commands, cmd
    assert any(s.argv[1] == "check" and s.exit == 1 for s in all_steps if s.argv)
    assert any(s.argv[1] == "simulate" and "--check" in s.argv for s in all_steps if s.argv)
    assert any(s.name.endswith(".scenario.yaml") for s in all_steps)


def test_tutorial_runs_as_written(tmp_path: Path) -> None:
    for step in steps(TUTORIAL.read_text(encoding="utf-8")):
        if not step.argv:
            (tmp_path / step.name).write_text(step.text, encoding="utf-8")
            continue
        where = f"tutorial.md:{step.line}: $ {shlex.join(step.argv)}"
        r = run_cli(*step.argv[1:], cwd=tmp_path)
        assert_no_traceback(r)
        assert r.returncode == step.exit, (
            f"{where}: exit {r.returncode}, the page says {step.exit}\n{output(r)}")
        if step.argv[1] not in UNCOMPARED:
            missing = shown_in_order(step.shown, output(r))
            assert missing is None, (
                f"{where}: the page shows {missing!r}; the command printed\n{output(r)}")
