# Sextant — the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
REPO ?= $(CURDIR)
UV := $(shell command -v uv 2>/dev/null || echo $(CURDIR)/.tools/bin/uv)
export UV_PYTHON := $(PYTHON)
FAST_MARKERS := not bus and not model and not docker and not cluster

.PHONY: bootstrap sync lint test test-fast run docs clean

# uv is installed into .tools/ when the machine has none; the lock file pins everything else.
$(CURDIR)/.tools/bin/uv:
	$(PYTHON) -m venv $(CURDIR)/.tools
	$(CURDIR)/.tools/bin/pip install --quiet 'uv==0.13.9'

bootstrap: $(UV)

sync: bootstrap
	$(UV) sync --all-packages --locked --python $(PYTHON)

lint: sync
	$(UV) run --no-sync ruff check .
	$(UV) run --no-sync ruff format --check .
	$(UV) run --no-sync mypy
	$(UV) run --no-sync lint-imports

test: lint
	$(UV) run --no-sync pytest $(PYTEST_ARGS)

# The edit-test loop: no lint, no real servers, no model (see the markers in pyproject.toml).
test-fast:
	$(UV) run --no-sync pytest -q -n 2 -m "$(FAST_MARKERS)" $(PYTEST_ARGS)

run: sync
	$(UV) run --no-sync sextant analyze $(REPO)

docs: sync
	$(UV) run --no-sync sextant asyncapi --out docs/asyncapi.json

clean:
	rm -rf .venv .tools .sextant .pytest_cache .mypy_cache .ruff_cache
