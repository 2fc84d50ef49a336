# Easy Harp Daily: the two commands of the README, and a few helpers.
#
#   make run              the whole stack on http://127.0.0.1:8000 (PORT=8001 make run for another
#                         port): PostgreSQL, Redis, migrations, gunicorn, Celery worker and beat.
#                         Needs only python3: PostgreSQL and Redis come from wheels unless
#                         DATABASE_URL / REDIS_URL name servers to use. Ctrl-C stops everything.
#   make test             the test suite (PYTEST_ARGS="-x -k foo" to pass pytest arguments), on
#                         DATABASE_URL / REDIS_URL, else the defaults when they answer, else
#                         servers from the same wheels started for the run; on 3 pytest-xdist
#                         workers (TEST_WORKERS=0 for one process)
#   make createsuperuser  a staff account on the running `make run`
#   make reset            forget make run's data (.local/: players, games, boards)
#   make lint             ruff (lint, format), mypy (games/ under --strict), eslint: make test
#                         runs it first
#   make lock             compile the three requirement locks again from their .in files
#
# The launcher behind them is tools/stack (python -m tools.stack run|test|manage|reset), a
# developer tool. Requirements are installed (hash-checked) only when the lock differs from
# the copy stamped inside .venv.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
LOCAL_STAMP := $(VENV)/.stamp-requirements-local
DEV_STAMP := $(VENV)/.stamp-requirements-dev
NODE_STAMP := node_modules/.stamp-package-lock
PYTEST_ARGS ?=
PIP_COMPILE := $(PY) -m piptools compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links

# Root installs with apt directly; anyone else through sudo, when sudo works without a prompt.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600

.PHONY: run test lint createsuperuser reset lock venv local-deps dev-deps node-deps chromium

run: local-deps
	$(PY) -m tools.stack run

test: lint chromium
	$(PY) -m tools.stack test -- $(PYTEST_ARGS)

# The style tools, each on the whole tree (configured in pyproject.toml, eslint.config.js).
lint: dev-deps node-deps
	$(VENV)/bin/ruff check --quiet .
	$(VENV)/bin/ruff format --check --quiet .
	$(VENV)/bin/mypy
	$(VENV)/bin/mypy --strict --exclude 'games/management/' games
	node_modules/.bin/eslint --max-warnings 0 .

createsuperuser:
	$(PY) -m tools.stack manage createsuperuser

reset: local-deps
	$(PY) -m tools.stack reset

# requirements.txt, then requirements-local.txt, then requirements-dev.txt: each keeps the
# pins of the one before (see the head of each .in file).
lock: dev-deps
	$(PIP_COMPILE) -o requirements.txt requirements.in
	$(PIP_COMPILE) -o requirements-local.txt requirements-local.in
	$(PIP_COMPILE) -o requirements-dev.txt requirements-dev.in

venv:
	@if [ ! -x "$(PY)" ]; then \
		echo "Creating $(VENV) with $(PYTHON) -m venv"; \
		$(PYTHON) -m venv $(VENV); \
	fi

# The stamp is a copy of what was installed; a different copy means "install again".
local-deps: venv
	@if ! cmp -s requirements-local.txt "$(LOCAL_STAMP)"; then \
		$(PY) -m pip install --require-hashes -r requirements-local.txt; \
		cp requirements-local.txt "$(LOCAL_STAMP)"; \
	fi

# requirements-dev.txt holds every pin of requirements-local.txt.
dev-deps: venv
	@if ! cmp -s requirements-dev.txt "$(DEV_STAMP)"; then \
		$(PY) -m pip install --require-hashes -r requirements-dev.txt; \
		cp requirements-dev.txt "$(DEV_STAMP)"; \
		cp requirements-local.txt "$(LOCAL_STAMP)"; \
	fi

# eslint and its rules, from package-lock.json (npm ci); again only when the lock changed.
node-deps:
	@if ! cmp -s package-lock.json "$(NODE_STAMP)"; then \
		npm ci --no-audit --no-fund; \
		cp package-lock.json "$(NODE_STAMP)"; \
	fi

# Browser tests use Debian's Chromium; `playwright install` is never run. Without root or a
# password-less sudo, one line says what to install (the browser tests fail without it).
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		if command -v apt-get >/dev/null && { [ -z "$(SUDO)" ] || sudo -n true 2>/dev/null; }; then \
			echo "Installing Debian chromium"; \
			if ! apt-cache show chromium >/dev/null 2>&1; then $(APT_GET) update; fi; \
			$(APT_GET) install -y chromium || { $(APT_GET) update && $(APT_GET) install -y chromium; }; \
		else \
			echo "make test: the browser tests need Chromium at /usr/bin/chromium: install Debian's chromium package as root (apt-get install chromium)."; \
		fi; \
	fi
