# Two commands matter: `make run` and `make test`. Both create .venv themselves.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
LOCK := requirements.lock
#: The installer the lock is installed with: uv (a well-kept pip in Rust, a second to
#: install what takes pip twenty), itself pinned with its hashes and installed by pip.
UV_LOCK := requirements-uv.lock
HASHES := --generate-hashes --no-emit-find-links --no-emit-index-url
LOCK_OPTIONS := $(HASHES) --allow-unsafe --strip-extras \
  --extra postgres --extra production --extra test --output-file $(LOCK)
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
#: Debian's Chromium for the browser tests; empty: its headless shell where installed,
#: else the browser (scripts/test_legs.sh, tests/browser/conftest.py).
CHROMIUM ?=
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: load run lan test lint format bench federation messages venv upgrade demo remove-demo operator backup clean

# The whole dependency tree, pinned with hashes (requirements.lock, made by pip-tools from
# pyproject.toml's ranges and all its extras): a new release on PyPI changes nothing here
# until `make upgrade` refreshes the lock. The project itself is not installed: it runs
# from this folder. pip installs uv from its own lock, uv the lock (pip alone where uv
# has no wheel for the machine).
$(STAMP): pyproject.toml $(LOCK) $(UV_LOCK)
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed (python3.11 or python3 on PATH)."; exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed, found " + sys.version.split()[0])'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	if $(PY) -m pip install --quiet --require-hashes --no-deps -r $(UV_LOCK); then \
	  $(VENV)/bin/uv pip install --quiet --require-hashes --no-deps --compile-bytecode \
	    --python $(PY) -r $(LOCK); \
	else $(PY) -m pip install --quiet --require-hashes --no-deps -r $(LOCK); fi
	$(PY) -m pip check
	touch $(STAMP)

venv: $(STAMP)

# Refresh the lock: the newest releases pyproject.toml's ranges allow, with their hashes;
# then install them. Commit requirements.lock once `make test` passes with it.
upgrade:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet 'pip-tools>=7.4'
	$(VENV)/bin/pip-compile --quiet --upgrade $(LOCK_OPTIONS) pyproject.toml
	echo 'uv>=0.13' | $(VENV)/bin/pip-compile --quiet --upgrade $(HASHES) --output-file $(UV_LOCK) -
	rm -f $(STAMP)
	$(MAKE) venv

# Try the site on this computer only, with the demo club and its public login.
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py runserver $(HOST):$(PORT)

# The club laptop serving the hall's network (gunicorn, SQLite in WAL mode). Refuses
# while an account has a published password (the demo's): see operator, remove-demo.
lan: $(STAMP)
	$(PY) scripts/lan.py --port $(PORT)

# The club's own operator (a site administrator), asked for on the terminal.
operator: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py createsuperuser

backup: $(STAMP)
	$(PY) manage.py backup

demo: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo

# Delete the demo club (everything of it) and its login.
remove-demo: $(STAMP)
	$(PY) manage.py demo --remove

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: $(STAMP)
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

test: $(STAMP) lint
	DJANGO_SETTINGS_MODULE=config.settings.test $(PY) manage.py makemigrations --check --dry-run
	PY=$(PY) CHROMIUM=$(CHROMIUM) TEST_DATABASE_URL=$(TEST_DATABASE_URL) scripts/test_legs.sh

# A simulated club evening against gunicorn on 127.0.0.1 (bounded in count and time).
load: $(STAMP)
	$(PY) bench/load.py

bench: $(STAMP)
	$(PY) -m bench.report

# make bench's federation night alone (PostgreSQL on 127.0.0.1; sizes: bench/federation.py).
federation: $(STAMP)
	$(PY) -m bench.federation

# Needs GNU gettext (apt-get install gettext); the compiled .mo files are committed.
messages: $(STAMP)
	$(PY) manage.py makemessages -l nl -l en --no-obsolete --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'test-artifacts/*'
	$(PY) manage.py makemessages -d djangojs -l nl -l en --no-obsolete --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'test-artifacts/*'
	$(PY) manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) staticfiles
