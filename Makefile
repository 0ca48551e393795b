# `make lab` opens the workbook; `make test` runs every test. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: lab test notebooks bench minidata clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# JupyterLab refuses to start as root (containers, CI boxes) unless told it is intended.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

lab: $(STAMP)
	$(VENV)/bin/jupyter lab --notebook-dir=. $(ROOT_FLAG)

test: $(STAMP)
	$(PY) -m pytest

notebooks: $(STAMP)
	$(PY) tools/build_notebooks.py

bench: $(STAMP)
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) workdir
