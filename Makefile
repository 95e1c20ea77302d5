# Two commands on a fresh machine: `make demo` and `make test`. Both bootstrap .venv themselves.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test bench lint models chromium shellcheck clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,train]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/companion demo

test: $(STAMP) chromium shellcheck
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		$(SUDO) apt-get update -q && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

shellcheck:
	@command -v shellcheck >/dev/null 2>&1 || { \
		echo "installing shellcheck for the deploy script tests"; \
		$(SUDO) apt-get update -q && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -q shellcheck; }

bench: $(STAMP)
	$(PY) bench/run_all.py

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# Full training of the shipped classifiers (CPU torch from the `train` extra); not part of `make test`.
models: $(STAMP)
	$(PY) -m pip install --quiet -e '.[train]'
	$(PY) -m vision.train --dice chariot_race
	$(PY) -m vision.train --dice d6
	$(PY) -m vision.train --dice d6 --no-real --epochs 20 --threads 1   # reference for bench/enrolment.py

clean:
	rm -rf $(VENV) .demo-data .pytest_cache build *.egg-info
