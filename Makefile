# Easy Harp Daily: the two commands of the README.
#
#   make run    local server on http://127.0.0.1:8000 (SQLite, in-process tasks; needs only python3)
#   make test   the test suite against PostgreSQL and Redis, then tests/service on SQLite
#               (PYTEST_ARGS="-k foo" to pass args; then only the first run)
#
# Both create .venv when it is missing and (re)install requirements only when the
# requirement files differ from the copy stamped inside .venv.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.stamp-requirements
DEV_STAMP := $(VENV)/.stamp-requirements-dev
PYTEST_ARGS ?=

# Root installs with apt directly; anyone else through sudo.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600

.PHONY: run test test-sqlite venv deps dev-deps chromium

run: deps
	$(PY) manage.py migrate --noinput
	$(PY) manage.py runserver 127.0.0.1:8000

# Only exported when not already set in the environment (an empty value counts as set).
test: export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/easyharp
test: export REDIS_URL ?= redis://127.0.0.1:6379/15
test: dev-deps chromium
	$(PY) -m pytest $(PYTEST_ARGS)
ifeq ($(strip $(PYTEST_ARGS)),)
	$(MAKE) --no-print-directory test-sqlite
endif

# The service tests again on SQLite, the database of `make run`: the hot paths of intake
# and verification are plain SQL on PostgreSQL and the ORM elsewhere, and both must hold.
# (An in-memory test database: the file named here is never created.)
test-sqlite: export REDIS_URL ?= redis://127.0.0.1:6379/15
test-sqlite: dev-deps
	DATABASE_URL=sqlite:///$(CURDIR)/.venv/unused.sqlite3 $(PY) -m pytest -q tests/service

venv:
	@if [ ! -x "$(PY)" ]; then \
		echo "Creating $(VENV) with $(PYTHON) -m venv"; \
		$(PYTHON) -m venv $(VENV); \
	fi

# The stamp is a copy of what was installed; a different copy means "install again".
deps: venv
	@if ! cmp -s requirements.txt "$(RUN_STAMP)"; then \
		$(PY) -m pip install -r requirements.txt; \
		cp requirements.txt "$(RUN_STAMP)"; \
	fi

dev-deps: venv
	@if ! cat requirements.txt requirements-dev.txt | cmp -s - "$(DEV_STAMP)"; then \
		$(PY) -m pip install -r requirements-dev.txt; \
		cat requirements.txt requirements-dev.txt > "$(DEV_STAMP)"; \
		cp requirements.txt "$(RUN_STAMP)"; \
	fi

# Browser tests use Debian's Chromium; `playwright install` is never run.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "Installing Debian chromium"; \
		if ! apt-cache show chromium >/dev/null 2>&1; then $(APT_GET) update; fi; \
		$(APT_GET) install -y chromium || { $(APT_GET) update && $(APT_GET) install -y chromium; }; \
	fi
