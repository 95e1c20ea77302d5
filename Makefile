# Two commands on a fresh machine: `make demo` and `make test`. Both bootstrap .venv themselves.
#   make demo                      the companion with embedded defaults, open to tablets on the LAN
#   make demo PORT=8090 HOST=127.0.0.1
# The interpreter a Pi runs: Debian's python3 (Raspberry Pi OS's, which deploy/install-pi.sh makes the service's venv
# with), built with profile-guided optimisation; another python3 3.11+ where there is none (or it lacks venv). A
# pyenv build made without --enable-optimizations runs the rules some 10 % slower (bench/rules_cubitos.py), so
# figures taken on it would not be the Pi's interpreter's. `make PYTHON=...` chooses another.
PYTHON ?= $(shell /usr/bin/python3 -c 'import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))' \
	>/dev/null 2>&1 && echo /usr/bin/python3 || echo python3)
# Set on the command line only: a shell's own $HOST or $PORT (often the machine's name, or another server's port)
# must not move the demo, and a plain assignment here wins over the environment but not over the command line.
HOST := 0.0.0.0
PORT := 8080
VENV := .venv
PY := $(VENV)/bin/python
# The venv is filled in two steps, each remembered by a stamp; editing pyproject.toml makes both stale.
RUNTIME := $(VENV)/.runtime-installed
DEV := $(VENV)/.dev-installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# pip says only what went wrong: -qq is its errors-only level (a failed install still prints pip's ERROR lines
# and exits non-zero). At -q it printed 37 warnings on a fresh install here: one "Location 'file:///...' is
# ignored" per package a pip.conf's extra-index-url on disk does not hold, and setuptools' note about editable
# installs. Root (as CI is) would add a warning about root, an old pip its version notice.
PIP := $(PY) -m pip install -qq --disable-pip-version-check --no-warn-script-location
export PIP_ROOT_USER_ACTION := ignore

.PHONY: demo test test-3.13 bench lint models chromium shellcheck clean pi-check

$(PY):
	@echo "make: creating $(VENV) with $(PYTHON)"
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip

# What `make demo` runs on: pyproject's `dependencies` only (no torch: a Pi's SD card and a newcomer's disk).
$(RUNTIME): pyproject.toml | $(PY)
	@echo "make: installing the companion and its runtime dependencies into $(VENV) (pip, about a minute)"
	@$(PIP) -e .
	@touch $@

# What the tests, benchmarks and `make models` add: ruff, pytest, Playwright, onnx and CPU torch for training. One
# install with the runtime's (it stands for $(RUNTIME) too).
$(DEV): pyproject.toml | $(PY)
	@echo "make: installing the companion with its dev and train extras into $(VENV) (ruff, pytest, Playwright, CPU torch)"
	@$(PIP) -e '.[dev,train]'
	@touch $(RUNTIME) $@

demo: $(RUNTIME)
	$(VENV)/bin/companion demo --host $(HOST) --port $(PORT)

test: $(DEV) chromium shellcheck
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -q

# Raspberry Pi OS Trixie's Python: the suite without the browser tests (those run on 3.11 beside it) and without the
# training tests (torch is not a runtime dependency, and its CPU build on this disk is for 3.11 only). A 3.13 comes
# from python3.13 on the PATH or pyenv (`pyenv install 3.13`); `make test-3.13 PYTHON313=...` names another.
# pyenv's build first: its shim on the PATH answers only where 3.13 is pyenv's chosen version.
PYTHON313 ?= $(shell ls -d "$$(pyenv root 2>/dev/null || echo $$HOME/.pyenv)"/versions/3.13*/bin/python3.13 2>/dev/null \
	| tail -n 1 | grep . || command -v python3.13 2>/dev/null)
VENV313 := .venv-3.13
test-3.13:
	@[ -n "$(PYTHON313)" ] || { echo "make: no Python 3.13 found (python3.13 on the PATH, or pyenv install 3.13)"; exit 1; }
	@[ -x $(VENV313)/bin/python ] || { echo "make: creating $(VENV313) with $(PYTHON313)"; $(PYTHON313) -m venv $(VENV313); }
	@$(VENV313)/bin/python -m pip install -qq --disable-pip-version-check -e '.[dev]'
	$(VENV313)/bin/python -m pytest -q -m "not browser"

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
		echo "installing Debian's chromium for the browser tests"; \
		$(SUDO) apt-get update -q && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium; }

shellcheck:
	@command -v shellcheck >/dev/null 2>&1 || { \
		echo "installing shellcheck for the deploy script tests"; \
		$(SUDO) apt-get update -q && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -q shellcheck; }

bench: $(DEV)
	$(PY) bench/run_all.py

lint: $(DEV)
	$(VENV)/bin/ruff check .

# Full training of the shipped classifiers (CPU torch from the `train` extra); not part of `make test`.
models: $(DEV)
	$(PY) -m vision.train --dice chariot_race
	$(PY) -m vision.train --dice cubitos
	$(PY) -m vision.train --dice automobiles
	$(PY) -m vision.train --dice d6
	$(PY) -m vision.train --dice d6 --no-real --threads 1   # reference for bench/enrolment.py

# The Pi install on an emulated arm64 Debian trixie (Raspberry Pi OS Trixie's base), as root: deploy/pi-check.sh builds
# the root once and keeps it in /var/tmp/table-companion-pi-root. Too slow for CI (tens of minutes); its summary goes
# in deploy/README.md. $(RUNTIME): this machine's companion reads the same photo, to compare.
pi-check: $(RUNTIME)
	$(SUDO) deploy/pi-check.sh

clean:
	rm -rf $(VENV) $(VENV313) .demo-data .pytest_cache build *.egg-info
