# Two commands for a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: demo test lint bench bench-smoke fuzz soak clean

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
	$(BIN)/ruff check rulelang tests benchmarks
	$(BIN)/rulelang check games
	$(BIN)/rulelang test games
	$(BIN)/python -m pytest

lint: $(DEVSTAMP)
	$(BIN)/ruff check rulelang tests benchmarks

bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

bench-smoke: $(STAMP)
	$(BIN)/python benchmarks/bench.py --smoke

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache
