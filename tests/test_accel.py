"""The optional compiled path (``rulelang/accel.py``): safe when absent, stale or present.

Each test works on a copy of the package in a temporary directory, run in a subprocess, so the
checkout's own files are never touched. The build test needs Cython and a C compiler and is
skipped without them; CI runs the whole of ``tests/test_differential.py`` with every compiled
module in place (``.ci/run``).
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

# plays a short seeded game and prints what ran compiled and a digest of the game
PLAY = """
import hashlib, json, random, sys, warnings
warnings.simplefilter("always")
import rulelang
g = rulelang.load(sys.argv[1])
s = g.new_state(4, seed=5)
rng = random.Random(5)
moves = []
while not s.is_over():
    m = s.legal_moves()
    moves.append(str(m[int(rng.random() * len(m))]))
    s.apply(moves[-1])
print(json.dumps({"compiled": rulelang.accelerated(), "file": rulelang.engine.__file__,
                  "game": hashlib.sha256(repr(moves).encode()).hexdigest()}))
"""


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "rulelang"
    shutil.copytree(ROOT / "rulelang", dst, ignore=shutil.ignore_patterns(
        "__pycache__", "*.so", "*.pyd", "_accel_manifest.json"))
    for data in ("schemas", "games"):  # what the package reads beside itself in a checkout
        (tmp_path / data).symlink_to(ROOT / data)
    return dst


def _play(tmp_path: Path, **env: str) -> tuple[dict, str]:
    game = str(ROOT / "games" / "thirty-one.yaml")
    r = subprocess.run([sys.executable, "-c", PLAY, game], cwd=tmp_path, capture_output=True,
                       text=True, check=True,
                       env={**os.environ, "PYTHONPATH": str(tmp_path), **env})
    return json.loads(r.stdout.splitlines()[-1]), r.stderr


def test_pure_python_has_nothing_compiled(tmp_path: Path) -> None:
    _copy(tmp_path)
    got, err = _play(tmp_path)
    assert got["compiled"] == [] and got["file"].endswith(".py") and "compiled" not in err


def test_a_compiled_module_older_than_its_source_is_not_used(tmp_path: Path) -> None:
    """A stale (here: garbage) extension module next to engine.py is passed over, with a
    warning, and the game plays from the source."""
    pkg = _copy(tmp_path)
    (pkg / f"engine{SUFFIX}").write_bytes(b"not a shared object")
    (pkg / "_accel_manifest.json").write_text(json.dumps({"engine": "0" * 64}))
    got, err = _play(tmp_path)
    want, _ = _play(tmp_path, RULELANG_PURE="1")
    assert got["file"].endswith("engine.py") and got["compiled"] == []
    assert "older than the source" in err
    assert got["game"] == want["game"]


def test_a_compiled_module_plays_the_same_game(tmp_path: Path) -> None:
    pytest.importorskip("Cython")
    pytest.importorskip("setuptools")
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    _copy(tmp_path)
    # runtime.py: a small module (not one of accel.MODULES), so that the build stays short
    subprocess.run([sys.executable, "-m", "rulelang.accel_build", "build", "runtime"],
                   cwd=tmp_path, capture_output=True, text=True, check=True,
                   env={**os.environ, "PYTHONPATH": str(tmp_path)})
    compiled, err = _play(tmp_path)
    pure, _ = _play(tmp_path, RULELANG_PURE="1")
    assert compiled["compiled"] == ["runtime"] and pure["compiled"] == []
    assert compiled["game"] == pure["game"] and "older" not in err
