#!/usr/bin/env bash
# PyPy, the runtime for long simulations (docs/performance.md, "PyPy"): make sure rulelang runs
# on it and plays exactly the games CPython plays. `make pypy` runs this (after installing
# .venv); CI runs it after `make test`.
#
# - installs pypy3 with apt-get when it is missing and this is a Debian-like machine run as
#   root; otherwise prints one 'pypy check skipped: ...' line and exits 0 (PYPY_REQUIRED=1
#   makes that a failure);
# - makes .venv-pypy with it and installs rulelang (and pytest) there;
# - checks and tests the bundled games on PyPy and replays the recorded games of
#   tests/test_differential.py;
# - simulates the same seed under CPython (.venv) and PyPy and requires the same statistics
#   (every key but the timings), printing the speed ratio on the way (not judged: one short
#   run on a shared machine says little).
#
# PYPY (default pypy3) names the interpreter; PYPY_CHECK_GAMES (default 300) is the number of
# Thirty-One games compared (Tonk plays a third of that, Ten Pennies a tenth).
set -euo pipefail
cd "$(dirname "$0")/.."
PYPY=${PYPY:-pypy3}
GAMES=${PYPY_CHECK_GAMES:-300}
VENV=.venv-pypy
CPY=.venv/bin/rulelang

skip() {
    echo "pypy check skipped: $*"
    if [ "${PYPY_REQUIRED:-0}" = 1 ]; then exit 1; fi
    exit 0
}

if ! command -v "$PYPY" >/dev/null 2>&1; then
    if [ "$PYPY" = pypy3 ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
        echo "pypy check: installing pypy3 with apt-get"
        # pypy3-venv brings ensurepip, which Debian leaves out of pypy3 itself
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
            apt-get install -y -qq pypy3 pypy3-venv; } >/tmp/pypy-apt.log 2>&1 \
            || skip "apt-get could not install pypy3 (see /tmp/pypy-apt.log)"
    elif [ "$PYPY" = pypy3 ]; then
        skip "no pypy3 on PATH, and no apt-get run as root to install it"
    else
        skip "no $PYPY on PATH"
    fi
fi
[ -x "$CPY" ] || { echo "pypy check: $CPY is missing: run 'make pypy' (or 'make demo' first)"; exit 1; }

if [ ! -x "$VENV/bin/python" ]; then
    "$PYPY" -m venv "$VENV" || {
        rm -rf "$VENV"
        skip "'$PYPY -m venv' failed (on Debian: apt-get install pypy3-venv)"
    }
fi
# reinstall when pyproject.toml changes, as the Makefile does for .venv
if [ ! -f "$VENV/.installed" ] || [ pyproject.toml -nt "$VENV/.installed" ]; then
    "$VENV/bin/python" -m pip install -q -e . pytest >/tmp/pypy-pip.log 2>&1 \
        || { cat /tmp/pypy-pip.log; exit 1; }
    touch "$VENV/.installed"
fi
echo "pypy check: $("$VENV/bin/python" --version 2>&1 | tr '\n' ' ')"

"$VENV/bin/rulelang" check games
"$VENV/bin/rulelang" test games
"$VENV/bin/python" -m pytest -p no:cacheprovider tests/test_differential.py

# same seed, same statistics under both runtimes; the speed ratio for information
compare() {
    local game=$1 n=$2 out
    out=$(mktemp -d)
    "$CPY" simulate "games/$game.yaml" --games "$n" --seed 11 --json >"$out/cpython.json"
    "$VENV/bin/rulelang" simulate "games/$game.yaml" --games "$n" --seed 11 --json >"$out/pypy.json"
    .venv/bin/python - "$game" "$n" "$out/cpython.json" "$out/pypy.json" <<'EOF'
import json
import sys

game, n, a, b = sys.argv[1:]
cpy, pypy = (json.load(open(p, encoding="utf-8")) for p in (a, b))
same = {k: v for k, v in cpy.items() if "sec" not in k} == {
    k: v for k, v in pypy.items() if "sec" not in k}
ratio = pypy["games_per_sec"] / cpy["games_per_sec"]
print(f"pypy check: {game}, {n} games: {'same' if same else 'DIFFERENT'} statistics "
      f"under CPython and PyPy ({cpy['decisions']} decisions; PyPy {ratio:.2f}x CPython "
      "in games/s, warm-up included)")
sys.exit(0 if same else 1)
EOF
    rm -rf "$out"
}
compare thirty-one "$GAMES"
compare tonk $((GAMES / 3))
compare ten-pennies $((GAMES / 10))
echo "pypy check: passed"
