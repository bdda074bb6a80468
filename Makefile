# STSA: `make run` starts the app, `make check` runs the checks and fast tests, `make test`
# runs the whole suite (see README.md, "Developing").
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
RUNTIME := $(VENV)/.runtime-installed
DEV := $(VENV)/.dev-installed
# Every install takes each package at its tested version (constraints.txt, from pip freeze).
PIP := $(PY) -m pip install --quiet -c constraints.txt

.PHONY: run pins unlock code tls serve-cluster check test load bench soak deps clean catalogs

# The app needs only the runtime requirements; the tests and benchmarks add their tools.
$(RUNTIME): requirements.txt constraints.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PIP) -r requirements.txt
	@touch $(RUNTIME)

$(DEV): $(RUNTIME) requirements-dev.txt constraints.txt
	$(PIP) -r requirements-dev.txt
	@touch $(DEV)

deps: $(DEV)

run: $(RUNTIME)
	$(PY) -m stsa serve

# Several app processes on one PostgreSQL database behind HAProxy (README, "More than one
# process"): STSA_DATABASE_URL=postgresql+psycopg://… make serve-cluster PROCESSES=3
PROCESSES ?= 2
serve-cluster: $(RUNTIME)
	$(PY) scripts/serve_cluster.py --processes $(PROCESSES)

# A lost PIN: new PINs for both roles, printed here; everyone is signed out.
pins: $(RUNTIME)
	$(PY) -m stsa pins --reset

# Sign-in paused after many wrong PINs: open it again, the PINs stay as they are.
unlock: $(RUNTIME)
	$(PY) -m stsa pins --unlock

# Sign-in paused and the organizer's phone never signed in: a one-time code that lets the
# organizer in (with the organizer PIN) while the pause stays for everyone else.
code: $(RUNTIME)
	$(PY) -m stsa pins --code

# HTTPS: a certificate for this laptop's names and addresses (README, "On the venue's
# network"); `make run` serves https:// from then on. FORCE=1 replaces an existing one.
tls: $(RUNTIME)
	$(PY) -m stsa tls $(if $(FORCE),--force)

# The loop while working, under a minute: lint and import order, types, and the tests that
# need no PostgreSQL, browser or app server and are not marked slow (README, "Developing").
FAST := not slow and not server and not e2e and not postgres
# The tests run on every core (pytest-xdist); the last line says how long it all took.
check: $(DEV)
	@start=$$(date +%s); \
	$(VENV)/bin/ruff check && $(VENV)/bin/mypy && \
	$(PY) -m pytest -x -q -n auto -m "$(FAST)"; status=$$?; \
	echo "make check: $$(( $$(date +%s) - start )) s"; exit $$status

# The whole suite, or what ARGS names: make test ARGS="tests/unit/test_draw.py -k seat".
# System packages the tests drive (PostgreSQL server, Chromium); installs them when missing.
# The tests run on every core, each worker with its own PostgreSQL server, app servers and
# browser; the last line says how long it all took.
test: $(DEV)
	bash scripts/test-deps.sh
	@start=$$(date +%s); \
	$(PY) -m pytest -n auto $(ARGS); status=$$?; \
	echo "make test: $$(( ($$(date +%s) - start) / 60 )) min $$(( ($$(date +%s) - start) % 60 )) s"; \
	exit $$status

# The languages' catalogs (README, "Languages"): every text the code marks, gathered into
# stsa/locale/stsa.pot, and each language's .po file brought up to date with it. STSA reads
# the .po files as they are, so nothing is compiled.
catalogs: $(DEV)
	$(VENV)/bin/pybabel extract --no-location --sort-output --omit-header -F babel.cfg \
		-k N_ -k template -k ngettext:1,2 -k pgettext:1c,2 -o stsa/locale/stsa.pot stsa views app.py
	$(VENV)/bin/pybabel update --no-fuzzy-matching --ignore-obsolete -D stsa -i stsa/locale/stsa.pot -d stsa/locale

# A full room on this machine: spectators and judges over Streamlit's websocket (README).
# ROOM=convention: a thousand phones and the TV, every judge signing in at one moment.
load: $(DEV)
	$(PY) -m bench.load $(if $(ROOM),--room $(ROOM))

bench: $(DEV)
	$(PY) -m bench

soak: $(DEV)
	bash scripts/test-deps.sh
	STSA_CRASH_KILLS=500 $(PY) -m pytest tests/unit/test_store_crash.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis .mypy_cache .ruff_cache
