# Two commands do everything: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8501

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

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .

test: lint
	$(PY) -m pytest

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
