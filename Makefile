# STSA: `make run` starts the app, `make test` runs the whole suite (see README.md).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
RUNTIME := $(VENV)/.runtime-installed
DEV := $(VENV)/.dev-installed

.PHONY: run pins unlock tls serve-cluster test load bench soak deps clean

# The app needs only the runtime requirements; the tests and benchmarks add their tools.
$(RUNTIME): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	@touch $(RUNTIME)

$(DEV): $(RUNTIME) requirements-dev.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
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

# HTTPS: a certificate for this laptop's names and addresses (README, "On the venue's
# network"); `make run` serves https:// from then on. FORCE=1 replaces an existing one.
tls: $(RUNTIME)
	$(PY) -m stsa tls $(if $(FORCE),--force)

# System packages the tests drive (PostgreSQL server, Chromium); installs them when missing.
test: $(DEV)
	bash scripts/test-deps.sh
	$(PY) -m pytest

# A full room on this machine: spectators and judges over Streamlit's websocket (README).
load: $(DEV)
	$(PY) -m bench.load

bench: $(DEV)
	$(PY) -m bench

soak: $(DEV)
	bash scripts/test-deps.sh
	STSA_CRASH_KILLS=500 $(PY) -m pytest tests/unit/test_store_crash.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
