# toolchaos: `make run` does the main job, `make test` checks everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_DIR ?= runs/main
MODELS ?= scripted/oracle,scripted/naive,scripted/retry,scripted/no-tool

.PHONY: run test lint typecheck unit bench dataset clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/toolchaos run toolbench-x --model $(MODELS) --arms clean,hazard,hint,oracle-label --out $(RUN_DIR)
	$(BIN)/toolchaos report $(RUN_DIR)

test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python bench/harness_throughput.py

dataset: $(STAMP)
	$(BIN)/toolchaos build toolbench-x --seed 0 --out src/toolchaos/suites/toolbench_x/data/tasks.jsonl

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache .ruff_cache
