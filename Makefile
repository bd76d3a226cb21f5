# Cardhall. Quick start: `make run` (serve the demo on http://127.0.0.1:8000), `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast install migrate demo serve worker beat lint format bench loadtest clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo_data

run: export SECURE_HTTPS ?= 0
run: demo
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/uvicorn web.asgi:application --ws config.websocket:WebSocketProtocol --host $(HOST) --port $(PORT)

worker: install
	$(BIN)/celery -A config worker --loglevel INFO --concurrency 2

beat: install
	$(BIN)/celery -A config beat --loglevel INFO

# pytest keeps its test database between local runs (--reuse-db; new migrations still apply);
# CI says `make test PYTEST_DB=--create-db` (.ci/run). `make test-fast` skips the lint.
PYTEST_DB ?= --reuse-db

test: lint
	$(BIN)/python -m pytest $(PYTEST_DB) $(PYTEST_ARGS)

test-fast: install
	$(BIN)/python -m pytest $(PYTEST_DB) $(PYTEST_ARGS)

# The house's rules (docs/architecture.md, "Rules the tools enforce"); .pre-commit-config.yaml
# runs the same four.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

format: install
	$(BIN)/ruff check --fix . && $(BIN)/ruff format .

bench: install
	$(BIN)/python benchmarks/engine_dogblade.py
	$(BIN)/python benchmarks/engine_grimhand.py
	$(BIN)/python benchmarks/engine_haymaker.py
	$(BIN)/python benchmarks/engine_shield.py
	$(BIN)/python benchmarks/engine_banira.py

# The live core under load (benchmarks/load/): PostgreSQL and Redis must answer; about 6 min.
# LOADTEST_ARGS=--quick for a smoke run, --profile for a py-spy profile of one worker.
loadtest: install
	$(BIN)/python -m pip install --quiet -e ".[dev,load]"
	$(BIN)/python -m benchmarks.load $(LOADTEST_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
