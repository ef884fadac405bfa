# The two commands a newcomer needs (see README.md):
#   make serve   set everything up and start the web app (SQLite, http://127.0.0.1:8000);
#                HOST=0.0.0.0 lets friends on the same network in, PUBLIC_URL=https://... is
#                the address invite links use behind a domain with TLS
#   make test    set everything up and run every check and test
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
HOST ?= 127.0.0.1
# Test processes (pytest-xdist): one per core; TEST_WORKERS=0 runs them in this process.
TEST_WORKERS ?= auto
PUBLIC_URL ?=
APP_STAMP := $(VENV)/.installed-app
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: setup setup-app serve test lint typecheck pytest bench play clean

# What playing needs: the package and its runtime dependencies (a minute or so).
$(APP_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(APP_STAMP)

# What the checks and tests need besides: linters, browsers' driver, the RL libraries.
# Stable-Baselines3 (the environment's tests) needs PyTorch: the CPU build, which these
# machines hold on disk, first, so the resolver does not fetch the CUDA one.
$(DEV_STAMP): $(APP_STAMP)
	$(BIN)/pip install --quiet 'torch==2.13.0'
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP)

setup-app: $(APP_STAMP)

setup: $(DEV_STAMP)

serve: setup-app
	$(BIN)/sequence serve --host $(HOST) --port $(PORT) $(if $(PUBLIC_URL),--public-url $(PUBLIC_URL))

play: setup-app
	$(BIN)/sequence play

bench: setup-app
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
	$(BIN)/pytest -n $(TEST_WORKERS)

test: lint typecheck pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
