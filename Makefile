# Two commands for a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench bench-smoke fuzz soak clean accel accel-clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(STAMP)

demo: $(STAMP)
	$(BIN)/rulelang check games
	$(BIN)/rulelang simulate thirty-one --players 4 --games 200 --agents greedy,random --seed 1

test: $(DEVSTAMP)
	$(BIN)/ruff check rulelang tests benchmarks examples
	$(BIN)/rulelang check games
	$(BIN)/rulelang test games
	$(BIN)/python -m pytest

lint: $(DEVSTAMP)
	$(BIN)/ruff check rulelang tests benchmarks examples

bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

bench-smoke: $(STAMP)
	$(BIN)/python benchmarks/bench.py --smoke

# the mutation fuzzer: 10,000 mutated bundled games through `rulelang check` (CI runs a few
# hundred in tests/test_fuzz.py); failing cases land in fuzz/crashes/
fuzz: $(DEVSTAMP)
	$(BIN)/python -m fuzz --cases $${FUZZ_CASES:-10000}

# not in CI: checked games of every bundled game, 100,000 or an hour each (SOAK_GAMES,
# SOAK_SECONDS make it shorter)
soak: $(STAMP)
	$(BIN)/python -m fuzz.soak --games $${SOAK_GAMES:-100000} --seconds $${SOAK_SECONDS:-3600}

# optional: the engine's hot modules compiled with Cython (needs a C compiler); results are
# identical, only faster (docs/performance.md, "Compiled path"); `make accel-clean` undoes it
accel: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[accel]'
	$(BIN)/python -m rulelang.accel_build build

ACCEL_FILES := rulelang/*.so rulelang/*.pyd rulelang/_accel_manifest.json

accel-clean:
	rm -f $(ACCEL_FILES)

clean:
	rm -f $(ACCEL_FILES)
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache
