# Kozel site. Two commands do everything on a fresh machine with Python 3.11, pip, make:
#   make run    install, migrate and start the whole site on embedded defaults
#   make test   install and run the whole test suite
# Every target bootstraps what it needs, idempotently.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
UV := $(VENV)/bin/uv
STAMP := $(VENV)/.synced-stamp
CHROMIUM ?= /usr/bin/chromium
PYTEST_ARGS ?=
# The tests outside the browser run in parallel, one pytest-xdist worker per core, each
# with its own test database, Redis prefix and Celery queue (kozel_site/settings/test.py).
# TEST_WORKERS=0 runs them in this process, one after the other.
TEST_WORKERS ?= auto
XDIST := -n $(TEST_WORKERS) --dist worksteal
# The engine's line and branch coverage, reported after the tests outside the browser;
# COVERAGE= leaves it out (CI does: the tracer slows every test a little).
COVERAGE ?= --cov=games.engine --cov-branch --cov-report=term:skip-covered

.PHONY: run test test-fast test-browser audit test-rabbitmq lint format bench conformance install chromium clean-run load-smoke

install: $(STAMP)

$(STAMP): pyproject.toml uv.lock
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@test -x $(UV) || $(PY) -m pip install --quiet --disable-pip-version-check uv
	UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --frozen --quiet
	@touch $(STAMP)

run: $(STAMP)
	DJANGO_SETTINGS_MODULE=kozel_site.settings.base $(PY) -m kozel_site.run

## Install Debian's chromium for the browser tests when we can (root + apt-get).
chromium:
	@if [ ! -x $(CHROMIUM) ] && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
	  echo "Installing Debian's chromium for the browser tests..."; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
	    || echo "Could not install chromium."; \
	fi

## Browser tests run in their own pytest process, before the rest (pytest-asyncio's
## loops and Playwright's do not share a process). pytest's exit 5 (no test selected,
## e.g. PYTEST_ARGS naming other tests) is fine here, except in CI, where it would mean
## the browser tests were lost.
test: $(STAMP) chromium
	@if [ -x $(CHROMIUM) ]; then \
	  DJANGO_ALLOW_ASYNC_UNSAFE=true $(PY) -m pytest -m browser -p no:cacheprovider $(XDIST) $(PYTEST_ARGS); \
	  code=$$?; \
	  if [ $$code -ne 0 ] && { [ $$code -ne 5 ] || [ -n "$$CI" ]; }; then exit $$code; fi; \
	else \
	  echo "*** BROWSER TESTS SKIPPED: $(CHROMIUM) is missing and could not be installed."; \
	  echo "*** Install Debian's chromium package (apt-get install chromium) to run them."; \
	  if [ -n "$$CI" ]; then echo "*** CI must run the browser tests."; exit 1; fi; \
	fi
	$(PY) -m pytest -m "not browser" $(XDIST) $(COVERAGE) $(PYTEST_ARGS)

test-fast: $(STAMP)
	$(PY) -m pytest -m "not browser and not slow" $(XDIST) -x -q $(PYTEST_ARGS)

test-browser: $(STAMP) chromium
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(PY) -m pytest -m browser $(XDIST) $(PYTEST_ARGS)

## Peer checks (docs/accessibility.md): axe-core, the Nu HTML checker and Lighthouse on
## the main pages and a live table, with Debian's chromium and java; prints a table of
## figures. The Nu checker and Lighthouse are npm packages pinned in tools/audit/
## (installed without their install scripts: the jar is in the package, java is the
## machine's). CI runs the axe part as tests/browser/test_accessibility_axe.py.
AUDIT_TOOLS := tools/audit/node_modules/.package-lock.json

$(AUDIT_TOOLS): tools/audit/package.json tools/audit/package-lock.json
	cd tools/audit && npm ci --ignore-scripts --no-audit --no-fund --silent

audit: $(STAMP) chromium $(AUDIT_TOOLS)
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(PY) -m pytest -m browser -p no:cacheprovider -q -s \
	  tests/browser/audit_report.py $(PYTEST_ARGS)

## mypy's Django plugin imports the settings; a REDIS_URL keeps them from starting an
## embedded Redis (nothing connects to it).
MYPY_PACKAGES := games/engine games/services games/tournaments games/lessons accounts kozel_site

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	REDIS_URL=$${REDIS_URL:-redis://127.0.0.1:6379/0} $(VENV)/bin/mypy $(MYPY_PACKAGES)
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: $(STAMP)
	$(PY) -m games.engine.bench

conformance: $(STAMP)
	$(PY) -m pytest tests/engine/test_conformance.py -q

## The load harness's smoke against Redis and RabbitMQ (needs PostgreSQL on 127.0.0.1:5432
## and RabbitMQ on 127.0.0.1:5672; .ci/run starts both). Scenarios: docs/performance.md.
## The worker tests of paths that can differ between brokers (countdowns, redelivery after
## a killed worker, a queue of its own, connections; marked ``broker``) once more with
## RabbitMQ as Celery's broker; every other worker test sends its tasks the same way and
## runs on Redis in `make test`. RABBITMQ_URL defaults to this machine's guest account.
RABBITMQ_URL ?= amqp://guest:guest@127.0.0.1:5672//
test-rabbitmq: $(STAMP)
	KOZEL_BROKER_URL=$(RABBITMQ_URL) $(PY) -m pytest -m "broker and not browser" $(XDIST) -p no:cacheprovider -q $(PYTEST_ARGS)

LOAD_SMOKE_BROKERS ?= redis rabbitmq
load-smoke: $(STAMP)
	for broker in $(LOAD_SMOKE_BROKERS); do $(PY) -m tests.load smoke --broker $$broker || exit 1; done

clean-run:
	rm -rf .run
