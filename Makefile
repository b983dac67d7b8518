# The README's commands: `make run` (PORT=8000), `make test`; for developers `make lint` and `make test-fast`.
VENV   ?= .venv
PYTHON ?= python3
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000

.PHONY: run test test-fast lint tools pi-check

# `make run PORT=8001` beside another server.
run: $(STAMP)
	$(BIN)/dicelens serve --camera sim --host 0.0.0.0 --port $(PORT)

test: $(STAMP) tools
	$(BIN)/python -m pytest

# The inner loop: everything but the browser and the slow tests (CI runs them all).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not browser and not slow"

# Lint and import order (ruff), types (mypy: rules/ and vision/ strict); pyproject.toml says how.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy rules vision device web

# The exact versions of constraints.txt, the ones the tests check and the Pi installs.
$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --constraint constraints.txt -e '.[test,lint]'
	touch $(STAMP)

# Programs the tests drive: Debian's Chromium (browser tests), shellcheck and
# systemd-analyze (the Pi install files). Installed when missing (as root).
TOOLS := chromium shellcheck systemd-analyze
tools:
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null || missing="$$missing $$t"; done; \
	[ -z "$$missing" ] || { \
	  pkgs=$$(echo "$$missing" | sed 's/systemd-analyze/systemd/'); \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq $$pkgs; \
	  else echo "The tests need:$$pkgs (sudo apt-get install$$pkgs)" >&2; exit 1; fi; }

# dicelens on an emulated 64-bit Pi, arm64 Bookworm and Trixie roots (tools/pi-check.sh):
# as root, by hand, niced (the emulation is slow; .ci/run does not run it).
pi-check: $(STAMP)
	OMP_NUM_THREADS=1 nice -n 15 tools/pi-check.sh
