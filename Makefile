# The two commands a newcomer needs (see README.md):
#   make serve   set everything up and start the web app (SQLite, http://127.0.0.1:8000)
#   make test    set everything up and run every check and test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup serve test lint typecheck pytest bench play clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# Stable-Baselines3 (the environment's tests) needs PyTorch: the CPU build, which these
	# machines hold on disk, first, so the resolver does not fetch the CUDA one.
	$(BIN)/pip install --quiet 'torch==2.13.0'
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

serve: setup
	$(BIN)/sequence serve

play: setup
	$(BIN)/sequence play

bench: setup
	$(BIN)/sequence bench

# lint-imports: the layers' contracts ([tool.importlinter] in pyproject.toml, docs/architecture.md)
lint: setup
	$(BIN)/ruff check src tests scripts
	$(BIN)/ruff format --check src tests scripts
	$(BIN)/lint-imports

typecheck: setup
	$(BIN)/mypy

pytest: setup
	scripts/ensure-chromium
	$(BIN)/pytest

test: lint typecheck pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
