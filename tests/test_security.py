"""No code from data: a rules file cannot run Python, reach Python objects, import, or read files
other than its own ``extends:`` chain (files under its folder, or bundled games), unless
``--allow-any-path`` says so. A scenario's ``game:`` may be any relative path or a bundled name.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulesError
from rulelang.rules import bundled_dir

from .helpers import THIRTY_ONE, assert_no_traceback, output, run_cli, write_variant


def write(p: Path, text: str) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def copy_of_31(p: Path) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    return write_variant(THIRTY_ONE, p)


def refused(path: Path, fragment: str, *args: str) -> str:
    r = run_cli("check", str(path), *args)
    assert_no_traceback(r)
    assert r.returncode == 1, output(r)
    assert fragment in r.stderr, r.stderr
    first = r.stderr.splitlines()[0]
    assert first.startswith(f"{path}:") and ": error: " in first, first
    return r.stderr


# ---------------------------------------------------------------- YAML tags
@pytest.mark.parametrize("tag", [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/new:os.system ['touch {marker}']",
    "!!python/name:os.system",
    "!!python/module:os",
    "!!python/object:builtins.object {{}}",
    "!<tag:yaml.org,2002:python/object/apply:os.system> ['touch {marker}']",
    "!custom x",
])
def test_python_tags_refused_and_never_run(tmp_path: Path, tag: str) -> None:
    marker = tmp_path / "pwned"
    p = write(tmp_path / "t.yaml", "extends: thirty-one\ndata:\n  x: " +
              tag.format(marker=marker) + "\n")
    refused(p, "is not allowed")
    assert not marker.exists()
    with pytest.raises(RulesError):
        rulelang.load(str(p))
    assert not marker.exists()


# ---------------------------------------------------------------- rules text
@pytest.mark.parametrize(("expr", "fragment"), [
    ("__import__('os')", "unknown function '__import__'"),
    ("__import__('os').system('touch x')", "unexpected"),
    ("open('/etc/passwd')", "unknown function 'open'"),
    ("eval('1')", "unknown function 'eval'"),
    ("exec('1')", "unknown function 'exec'"),
    ("getattr(me, 'real')", "unknown function 'getattr'"),
    ("globals()", "unknown function 'globals'"),
    ("me.__class__", "'.__class__'"),
    ("opt.__dict__", "unknown option '__dict__'"),
    ("size.__globals__", "unknown name 'size'"),
    ("hand[me].__class__", "'.__class__'"),
    ("(x -> x).__globals__", "'.__globals__' needs a card or a record"),
    ("'a'.upper()", "unexpected"),
    ("import os", "unexpected"),
])
def test_rules_text_reaches_no_python(tmp_path: Path, expr: str, fragment: str) -> None:
    p = write_variant(THIRTY_ONE, tmp_path / "x.yaml",
                      ("lives: opt.lives", "lives: \"" + expr.replace('"', '\\"') + "\""))
    refused(p, fragment)


def test_generated_python_holds_no_rules_text(tmp_path: Path) -> None:
    # the compiler generates Python source from the checked AST; strings, names and numbers of
    # the rules file reach it only as constants of its namespace, never as source text (every
    # piece of source compiled is kept in the game's namespace: see codegen.Namespace._record)
    marker = "zq_marker"
    p = write(tmp_path / "m.yaml", """extends: thirty-one
data:
  zq_marker_data: {zq_marker_field: 1}
globals:
  zq_marker_g: "'zq_marker __import__(1)'"
functions:
  zq_marker_f(zq_marker_p): >-
    size([x for x in zq_marker_p]) + zq_marker_data.zq_marker_field
    + 1234.5678
round:
  start:
    - gather(stock); shuffle(stock)
    - zq_marker_g = zq_marker_f(hand[dealer])
    - deal(stock, hand, 3)
    - move(top(stock), discard)
""")
    game = rulelang.load(str(p))
    s = game.new_state(4, seed=1)
    while not s.is_over() and s.decisions < 200:
        s.apply_index(0)
    sources = [text for text, _span in game.generated.sources]
    assert sources and any("S.g[" in src for src in sources)
    for src in sources:
        assert marker not in src and "__import__" not in src and "1234.5678" not in src


def test_attribute_access_at_run_time_only_reads_the_language_data(tmp_path: Path) -> None:
    # a name of unknown type passes the checker; at run time only card attributes, record
    # fields and a group's owner/number can be read, never a Python attribute
    p = write(tmp_path / "a.yaml", "extends: thirty-one\ndata:\n  rec: {a: 1}\n"
              "globals:\n  junk: 0\nround:\n  start:\n    - gather(stock); shuffle(stock)\n"
              "    - junk = rec.__class__\n    - deal(stock, hand, 3)\n")
    game = rulelang.load(str(p))
    with pytest.raises(RulesError, match="no field '__class__'"):
        game.new_state(3)


# ---------------------------------------------------------------- extends:
def test_extends_bundled_and_beside(tmp_path: Path) -> None:
    base = copy_of_31(tmp_path / "rules" / "base.yaml")
    write(tmp_path / "rules" / "sub" / "v.yaml", "extends: ../base.yaml\nname: V\n")
    r = run_cli("check", str(tmp_path / "rules" / "sub" / "v.yaml"))
    # ../base.yaml leaves v.yaml's folder: refused without the flag
    assert r.returncode == 1 and "outside this file's folder" in r.stderr, output(r)
    write(tmp_path / "rules" / "v2.yaml", "extends: sub/../base.yaml\nname: V2\n")
    write(tmp_path / "rules" / "v3.yaml", "extends: thirty-one\nname: V3\n")
    write(tmp_path / "rules" / "v4.yaml", "extends: ./base.yaml\nname: V4\n")
    for name in ("v2", "v3", "v4"):
        r = run_cli("check", str(tmp_path / "rules" / f"{name}.yaml"))
        assert r.returncode == 0, output(r)
    assert base.is_file()


@pytest.mark.parametrize("target", [
    "/etc/passwd", "/etc/hostname", "/dev/zero", "/proc/self/environ",
])
def test_extends_absolute_refused(tmp_path: Path, target: str) -> None:
    p = write(tmp_path / "v.yaml", f"name: V\nextends: {target}\n")
    refused(p, "may not be an absolute path")


def test_extends_dotdot_refused_unless_allowed(tmp_path: Path) -> None:
    copy_of_31(tmp_path / "outside.yaml")
    p = write(tmp_path / "mine" / "v.yaml", "name: V\nextends: ../outside.yaml\n")
    refused(p, "outside this file's folder")
    deep = "../" * 30 + "etc/passwd"
    p2 = write(tmp_path / "mine" / "w.yaml", f"name: W\nextends: {deep}\n")
    refused(p2, "outside this file's folder")
    for cmd in (["check"], ["simulate", "--games", "1"], ["score"], ["play"]):
        args = [*cmd[:1], str(p), *cmd[1:]]
        if cmd[0] == "score":
            args.append("AS")
        r = run_cli(*args, stdin="q\n")
        assert r.returncode == 1, (cmd, output(r))
        assert "outside this file's folder" in r.stderr
        r = run_cli(*args, "--allow-any-path", stdin="q\n")
        assert r.returncode == 0, (cmd, output(r))
        assert_no_traceback(r)


def test_extends_absolute_allowed_with_the_flag(tmp_path: Path) -> None:
    base = copy_of_31(tmp_path / "elsewhere" / "base.yaml")
    p = write(tmp_path / "mine" / "v.yaml", f"name: V\nextends: {base}\n")
    refused(p, "absolute path")
    r = run_cli("check", str(p), "--allow-any-path")
    assert r.returncode == 0, output(r)
    with pytest.raises(RulesError):
        rulelang.load(str(p))
    assert rulelang.load(str(p), allow_any_path=True).name == "V"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks here")
def test_extends_symlink_out_of_the_folder_refused(tmp_path: Path) -> None:
    secret = write(tmp_path / "secret" / "s.yaml", "name: secret\n")
    (tmp_path / "mine").mkdir()
    os.symlink(secret, tmp_path / "mine" / "link.yaml")
    p = write(tmp_path / "mine" / "v.yaml", "name: V\nextends: link.yaml\n")
    refused(p, "outside this file's folder")


def test_extends_lookalike_of_the_bundled_folder_refused(tmp_path: Path) -> None:
    bundled = bundled_dir().resolve()
    fake = tmp_path / "x" / (bundled.name + "-evil") / "e.yaml"
    copy_of_31(fake)
    rel = os.path.relpath(fake, tmp_path / "mine")
    p = write(tmp_path / "mine" / "v.yaml", f"name: V\nextends: {rel}\n")
    refused(p, "outside this file's folder")


def test_extends_weird_names(tmp_path: Path) -> None:
    for i, target in enumerate(["a" * 5000, "'a\\0b'", '"a\\0b"', "''", "'.'", "'..'"]):
        p = write(tmp_path / f"v{i}.yaml", f"name: V\nextends: {target}\n")
        r = run_cli("check", str(p))
        assert_no_traceback(r)
        assert r.returncode == 1, output(r)


# ---------------------------------------------------------------- scenario game:
SCENARIO = """\
game: {game}
players: 2
expect:
  round_over: false
"""


def test_scenario_game_relative_anywhere_or_bundled(tmp_path: Path) -> None:
    copy_of_31(tmp_path / "rules" / "mine.yaml")
    s1 = write(tmp_path / "tests" / "deep" / "a.scenario.yaml",
               SCENARIO.format(game="../../rules/mine.yaml"))
    s2 = write(tmp_path / "tests" / "b.scenario.yaml", SCENARIO.format(game="thirty-one"))
    for s in (s1, s2):
        r = run_cli("test", str(s))
        assert r.returncode == 0, output(r)
        assert "1 passed, 0 failed" in r.stdout


def test_no_file_written_or_read_by_a_run(tmp_path: Path) -> None:
    # the whole pipeline on a bundled game touches no file but the rules and the schemas
    before = set(os.listdir(tmp_path))
    r = run_cli("simulate", "thirty-one", "--games", "3", "--json", cwd=tmp_path)
    assert r.returncode == 0, output(r)
    assert set(os.listdir(tmp_path)) == before
