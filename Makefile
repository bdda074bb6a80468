# STSA: `make run` starts the app, `make test` runs the whole suite (see README.md).
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run pins test bench soak deps clean

$(STAMP): requirements.txt requirements-dev.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@touch $(STAMP)

deps: $(STAMP)

run: $(STAMP)
	$(PY) -m stsa serve

# A lost PIN: new PINs for both roles, printed here; everyone is signed out.
pins: $(STAMP)
	$(PY) -m stsa pins --reset

# System packages the tests drive (PostgreSQL server, Chromium); installs them when missing.
test: $(STAMP)
	bash scripts/test-deps.sh
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m bench

soak: $(STAMP)
	bash scripts/test-deps.sh
	STSA_CRASH_KILLS=500 $(PY) -m pytest tests/unit/test_store_crash.py

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
