# toolchaos: `make run` does the main job, `make test` checks everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_DIR ?= runs/main
MODELS ?= scripted/oracle,scripted/naive,scripted/retry,scripted/no-tool
FAIL_MODELS ?= scripted/oracle,scripted/skip,scripted/ignore,scripted/fabricate,scripted/overuse
LOCAL_MODEL ?= qwen2.5-coder-0.5b
# Sized for the embedded model on 2 cores: every arm of both suites in 50 local-model
# episodes, 3 min 31 s to 6 min 12 s after the install on a fresh clone, the model
# already pulled (the README; bench/README.md, "make run").
# SUBSET=30 FAIL_SUBSET=30 MAX_TURNS=10 for the larger look.
SUBSET ?= 10
FAIL_SUBSET ?= 10
MAX_TURNS ?= 6
# The embedded model's engine: xllamacpp (a prebuilt wheel, the [local] extra) or
# llama-cpp-python (compiled here, the [llama-cpp] extra; 10 minutes or more on 2 cores).
LOCAL_ENGINE ?= xllamacpp
LOCAL_EXTRA := $(if $(filter llama-cpp-python,$(LOCAL_ENGINE)),llama-cpp,local)
LOCAL_STAMP := $(VENV)/.installed-$(LOCAL_EXTRA)
# llama-cpp-python's portable build: no -march=native, no AMX (which virtual machines often lack)
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_OPENMP=OFF

.PHONY: run test test-local lint typecheck unit fuzz bench dataset clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(LOCAL_STAMP): $(STAMP)
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip install --quiet -e '.[dev,$(LOCAL_EXTRA)]'
	touch $(LOCAL_STAMP)

# The main job: the embedded local model and the scripted baselines on a stratified
# subset of each suite, every arm, then the report. Needs no key and no server.
run: $(LOCAL_STAMP)
	$(BIN)/toolchaos models pull $(LOCAL_MODEL)
	$(BIN)/toolchaos run toolbench-x --model local/$(LOCAL_MODEL),$(MODELS) --subset $(SUBSET) \
		--max-turns $(MAX_TURNS) --arms clean,hazard,hint,oracle-label --local-engine $(LOCAL_ENGINE) \
		--out $(RUN_DIR)/toolbench-x
	$(BIN)/toolchaos run toolfailbench --model local/$(LOCAL_MODEL),$(FAIL_MODELS) --subset $(FAIL_SUBSET) \
		--local-engine $(LOCAL_ENGINE) --out $(RUN_DIR)/toolfailbench
	$(BIN)/toolchaos report $(RUN_DIR)/toolbench-x $(RUN_DIR)/toolfailbench --out $(RUN_DIR) \
		--html $(RUN_DIR)/report.html --summary

# One real episode on the embedded model (not part of `make test`).
test-local: $(LOCAL_STAMP)
	$(BIN)/toolchaos models pull $(LOCAL_MODEL)
	TOOLCHAOS_LOCAL_ENGINE=$(LOCAL_ENGINE) $(BIN)/pytest -m local

# lint, type checks and the test suite side by side (each one's output stays in one piece);
# the tests themselves run on one pytest-xdist worker per core.
test: $(STAMP)
	$(MAKE) --no-print-directory -j3 --output-sync=target lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests bench docs/examples
	$(BIN)/ruff format --check src tests bench docs/examples

typecheck: $(STAMP)
	$(BIN)/mypy

# PYTEST_WORKERS=0 runs every test in this one process. --dist loadgroup keeps the tests that
# share an expensive fixture (an xdist_group mark) on one worker, so it is built once.
PYTEST_WORKERS ?= auto
# The editable install leaves src/ uncompiled and, where PYTHONDONTWRITEBYTECODE is set, every
# `toolchaos` process the tests start would compile it again: compile it once first.
unit: $(STAMP)
	$(BIN)/python -m compileall -q src/toolchaos > /dev/null
	$(BIN)/pytest -m "not local" -n $(PYTEST_WORKERS) --dist loadgroup

# The fuzz tests with 50 times the examples `make test` draws (several minutes).
FUZZ_TESTS = tests/domains/test_fuzz_tools.py tests/suites/toolbench_x/test_fuzz_loaders.py \
	tests/suites/toolfailbench/test_tfb_importer_fuzz.py tests/hazards/test_fuzz_hazard_layer.py
fuzz: $(STAMP)
	HYPOTHESIS_PROFILE=fuzz $(BIN)/pytest -p no:cacheprovider $(FUZZ_TESTS)

bench: $(STAMP)
	$(BIN)/python bench/harness_throughput.py

dataset: $(STAMP)
	$(BIN)/toolchaos build toolbench-x --seed 0 --out src/toolchaos/suites/toolbench_x/data/tasks.jsonl

clean:
	rm -rf $(VENV) runs .pytest_cache .mypy_cache .ruff_cache
