# Sextant — the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
REPO ?= $(CURDIR)
UV := $(shell command -v uv 2>/dev/null || echo $(CURDIR)/.tools/bin/uv)
export UV_PYTHON := $(PYTHON)
FAST_MARKERS := not bus and not model and not docker and not cluster and not process
# test-fast keeps its scratch folders in RAM where the machine has a writable, exec-able /dev/shm
# (override: FAST_TMPDIR=/tmp): an embedded store shard preallocates ~160 MB and fsyncs it, most of a
# store test's time on a busy disk. A passing test's folder is removed when it ends, so little RAM is held.
FAST_TMPDIR ?= $(shell [ -d /dev/shm ] && [ -w /dev/shm ] && ! grep -qs ' /dev/shm [^ ]* [^ ]*noexec' /proc/mounts \
	&& echo /dev/shm || echo "$${TMPDIR:-/tmp}")

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

# The edit-test loop: no lint, no real servers, no processes of ours, no model (markers in pyproject.toml).
test-fast:
	TMPDIR=$(FAST_TMPDIR) $(UV) run --no-sync pytest -q -n 3 -m "$(FAST_MARKERS)" \
		-o tmp_path_retention_policy=failed --hypothesis-profile=fast $(PYTEST_ARGS)

run: sync
	$(UV) run --no-sync sextant analyze $(REPO)

docs: sync
	$(UV) run --no-sync sextant asyncapi --out docs/asyncapi.json

clean:
	rm -rf .venv .tools .sextant .pytest_cache .mypy_cache .ruff_cache
