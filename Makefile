# `make lab` opens the workbook; `make test` runs every test. Both create .venv on first use.
# `make reset NOTEBOOK=exercises/08_prefetch_exercises.ipynb` restores one notebook of mywork/.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: lab reset test test-browser notebooks bench minidata clean

# pip's own output (one line per package, progress bars) shows the first install is moving.
$(STAMP): pyproject.toml setup.py src/feedline/io/_walk.c
	@echo "Installing feedline and its dependencies into $(VENV) (first run only, about a minute)..."
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install -e '.[dev]'
	touch $(STAMP)

# JupyterLab refuses to start as root (containers, CI boxes) unless told it is intended.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# Learners work in mywork/, their own git-ignored copy of notebooks/ and exercises/ (see
# tools/workcopy.py), so the shipped notebooks, which the tests check, never change under them.
WORK := mywork
WELCOME := notebooks/00_welcome.ipynb

lab: $(STAMP)
	$(PY) tools/workcopy.py sync
	$(VENV)/bin/jupyter lab --ServerApp.root_dir=$(WORK) \
		--LabApp.default_url=/lab/tree/$(WELCOME) $(ROOT_FLAG)

# Standard library only, so it works before .venv exists.
reset:
	$(PYTHON) tools/workcopy.py reset "$(NOTEBOOK)"

# Two workers (this is sized for a 2-core laptop); each test file, and so each notebook, stays
# on one worker, because nbval runs a notebook's cells in order in one kernel.
TEST_WORKERS ?= 2

test: $(STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

# Real JupyterLab in headless Chromium (tests/browser/test_lab.py); needs Debian's chromium,
# which .ci/run installs when missing. Screenshots of each step go to workdir/browser/.
BROWSER_STAMP := $(VENV)/.installed-browser
$(BROWSER_STAMP): $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,browser]'
	touch $(BROWSER_STAMP)

test-browser: $(BROWSER_STAMP)
	@command -v chromium >/dev/null || { echo "test-browser needs Chromium: apt-get install chromium"; exit 1; }
	FEEDLINE_BROWSER_TESTS=1 $(PY) -m pytest -p no:cacheprovider -o addopts= tests/browser -v

notebooks: $(STAMP)
	$(PY) tools/build_notebooks.py

bench: $(STAMP)
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

# Small real datasets in minidata/, rebuilt byte for byte from the pinned scikit-learn wheel,
# which tools/make_minidata.py installs into .venv on first use (not a feedline dependency).
minidata: $(STAMP)
	$(PY) tools/make_minidata.py

clean:
	rm -rf $(VENV) workdir
