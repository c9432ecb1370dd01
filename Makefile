# Two commands do everything: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8501
# Test workers: one per CPU core (at most 8), as `make test` runs them; `make test WORKERS=1` for one.
WORKERS ?= auto

.PHONY: run test lint install clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): requirements.txt | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $(RUN_STAMP) $@

install: $(DEV_STAMP)

run: $(RUN_STAMP)
	@echo "Roofline Drill: open http://$(HOST):$(PORT)"
	@$(PY) -c "from progress import default_db_path; print(f'Progress is saved in {default_db_path()}')"
	@# ui.serve loads the packages and the question bank first, so the first visit is as quick as later ones.
	$(PY) -m ui.serve app.py --server.address $(HOST) --server.port $(PORT) \
		--server.headless true --browser.gatherUsageStats false

# Lint: ruff's rules, ruff's formatting (checked, never rewritten here), and mypy over every package.
lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Parallel workers (pytest-xdist); worksteal hands a worker that ran out of tests part of a busy
# worker's queue, so a long browser test never leaves the other cores idle at the end.
# Bytecode caching is on for the suite even where the environment turns it off
# (PYTHONDONTWRITEBYTECODE): each worker and each app server the browser tests start would otherwise
# compile the app and the tests again, a third more CPU on a fresh clone (165 s against 134 s).
test: lint
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n $(WORKERS) --maxprocesses 8 --dist worksteal

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
