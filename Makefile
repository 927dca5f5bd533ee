# Two targets matter on a fresh machine (see README): `make run` and `make test`.
# The system's Python 3.11 first, when it can make a venv: Debian builds it
# with profile-guided and link-time optimisation, and it ran the site's move
# path in about a fifth less CPU than a default source build (pyenv's) on the
# same machine. PYTHON=... picks another.
PYTHON ?= $(shell for candidate in /usr/bin/python3.11 python3.11 python3; do \
	  $$candidate -c 'import venv, ensurepip' >/dev/null 2>&1 && { command -v $$candidate; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# package.json: Pyodide, which practice runs in the browser (the site serves
# it from node_modules), and axe-core for the accessibility tests.
NODE_STAMP := node_modules/.installed

.PHONY: run test venv node migrate lint bench clean screenshots

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

# `npm ci` empties node_modules first, so the stamp inside it goes with every reinstall.
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "npm is missing: install Node.js with its npm (Debian: apt install npm), then run make again." >&2; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

node: $(NODE_STAMP)

migrate: venv
	$(BIN)/python manage.py migrate --noinput

# The whole site on http://127.0.0.1:8000: pages, API, websockets, and (with no
# REDIS_URL) the Celery worker inside the same process.
run: migrate node
	$(BIN)/python manage.py serve --host $(or $(HOST),127.0.0.1) --port $(or $(PORT),8000)

# Every test. With DATABASE_URL and REDIS_URL set it runs on PostgreSQL and
# Redis; the test-only key and plain HTTP keep production settings testable.
# The servers some tests start run with DEBUG off, so their pages need the
# static manifest whatever DEBUG the tests themselves have.
test: venv node
	SECRET_KEY=$${SECRET_KEY:-test-only-secret-key-$$(date +%s)-not-for-production-use-0123456789} \
	HTTPS=$${HTTPS:-0} DEBUG=0 $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	SECRET_KEY=$${SECRET_KEY:-test-only-secret-key-$$(date +%s)-not-for-production-use-0123456789} \
	HTTPS=$${HTTPS:-0} $(BIN)/python -m pytest $(PYTEST_ARGS)

# The README's phone screenshots (docs/screenshots/), taken again when the table page changes.
screenshots: venv node
	$(MAKE) test PYTEST_ARGS="tests/browser/screenshots.py -q -p no:cacheprovider"

lint: venv
	$(BIN)/ruff check .
	$(BIN)/lint-imports

bench: venv
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) node_modules var .pytest_cache .ruff_cache .hypothesis
