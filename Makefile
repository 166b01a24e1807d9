# Two commands for a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
BENCHSTAMP := $(VENV)/.installed-bench
ENVSTAMP := $(VENV)/.installed-envs
RAYSTAMP := $(VENV)/.installed-ray

.PHONY: demo rules-docs goldens test test-long test-envs test-ray crossreplay-openspiel \
	crossreplay-rlcard lint bench bench-smoke pypy fuzz soak clean accel accel-clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $@ $(STAMP)

# the peers of `make bench` (OpenSpiel, RLCard); `make test` and `bench-smoke` need none
$(BENCHSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	touch $@ $(DEVSTAMP) $(STAMP)

demo: $(STAMP)
	$(BIN)/rulelang check games
	$(BIN)/rulelang simulate thirty-one --players 4 --games 200 --agents greedy,random --seed 1

# docs/rules/<game>.md: `rulelang explain` of every bundled game (tests/test_explain.py checks
# that they are current)
rules-docs: $(STAMP)
	$(BIN)/python -m rulelang.explain --write docs/rules

# tests/golden/: a whole short match of every bundled game through `rulelang play`, the inputs
# (chosen by a bot at the human seat) and the screen; tests/test_goldens.py compares the screen.
# After a change meant to change what play shows, or how a game plays: make goldens, review the
# diff (docs/scenarios.md, "Golden play transcripts")
goldens: $(DEVSTAMP)
	$(BIN)/python -m tests.goldens --write

# `rulelang test games` (every bundled scenario) is not run here on its own: the suite runs it
# (tests/test_cli.py::test_test_bundled_games, which also checks the count passed), and it costs
# ~9 s of CPU. The suite plays random games of a file up to a budget of decisions, and runs its
# ~300 `rulelang` commands as forks of one process that has imported the CLI (tests/forkcli.py);
# test-long runs the same tests with 200 random games of every file, every command started as a
# fresh interpreter, 300 fuzz cases and 60 hypothesis examples per fuzz test, as the suite did
# before, and the seat-bias check over 2,000 random games of every bundled game (about 5 min of
# CPU: the figures of docs/games.md's "Seat figures"). Both run on the machine's cores
# (pytest-xdist, at most 4 processes): 23 bundled games made the suite ~150 s of CPU, ~90 s of
# wall time on two cores; a bundled game's compilation is shared within each process
# (tests/gamecache.py; test-long compiles afresh).
test: $(DEVSTAMP)
	$(BIN)/ruff check rulelang tests benchmarks examples
	$(BIN)/rulelang check games
	$(BIN)/python -m pytest -n auto --maxprocesses 4

# the research environments (docs/environments.md) through the peers' own test suites, every
# bundled game: PettingZoo's api_test and seed_test, OpenSpiel's random-simulation test, its
# IS-MCTS bot, RLCard's agents through its own loop, the cross-replays against RLCard's games
# (about 50 s of CPU; not in `make test`, whose tests skip them)
$(ENVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,pettingzoo,openspiel,rlcard]'
	touch $@ $(DEVSTAMP) $(STAMP)

test-envs: $(ENVSTAMP)
	RULELANG_ENV_TESTS=1 $(BIN)/python -m pytest tests/test_envs.py tests/test_rlcard_env.py \
		tests/test_crossreplay_rlcard.py tests/test_crossreplay_openspiel.py

# OpenSpiel's Hearts, Blackjack, Crazy Eights and Gin Rummy: 1,000 random games each replayed
# in rulelang, every legal-move set and return compared (docs/environments.md; a few minutes;
# test-envs runs 40 of each)
crossreplay-openspiel: $(ENVSTAMP)
	$(BIN)/python -m benchmarks.crossreplay_openspiel --games 1000

# RLCard's Blackjack, Uno and Gin Rummy: the same, 1,000 games each (test-envs runs 100 of each)
crossreplay-rlcard: $(ENVSTAMP)
	$(BIN)/python -m tests.crossreplay_rlcard --games 1000

# simulate --backend ray (docs/distributed.md) against a local Ray cluster of two CPUs that the
# test starts: the same statistics, --records and --record log as --workers 1 and 2 (Ray's
# start-up costs several seconds of wall time: not in `make test`, whose tests of it skip)
$(RAYSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev,ray]'
	touch $@ $(DEVSTAMP) $(STAMP)

test-ray: $(RAYSTAMP)
	RULELANG_RAY_TESTS=1 $(BIN)/python -m pytest tests/test_ray.py

test-long: $(DEVSTAMP)
	RULELANG_SIM_DECISIONS=0 RULELANG_CLI_EXEC=1 RULELANG_FUZZ_CASES=300 \
	RULELANG_FUZZ_EXAMPLES=60 RULELANG_FUZZ_GAMES=0 RULELANG_SEAT_GAMES=2000 \
	RULELANG_TEST_COLD=1 $(BIN)/python -m pytest -n auto --maxprocesses 4

lint: $(DEVSTAMP)
	$(BIN)/ruff check rulelang tests benchmarks examples

bench: $(BENCHSTAMP)
	$(BIN)/python benchmarks/bench.py

bench-smoke: $(STAMP)
	$(BIN)/python benchmarks/bench.py --smoke

# PyPy (installed with apt-get if missing) in .venv-pypy: the bundled games checked and tested
# on it, and the same seeds giving the same statistics as under CPython (docs/performance.md)
pypy: $(STAMP)
	bash benchmarks/pypy_check.sh

# the mutation fuzzer: 10,000 mutated bundled games through `rulelang check` (CI runs 150 in
# tests/test_fuzz.py); failing cases land in fuzz/crashes/
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
	rm -rf $(VENV) .venv-pypy build dist *.egg-info .pytest_cache .ruff_cache
