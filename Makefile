# The README's two commands: `make run` and `make test`.
VENV   ?= .venv
PYTHON ?= python3
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test browser

run: $(STAMP)
	$(BIN)/dicelens serve --camera sim --host 0.0.0.0 --port 8000

test: $(STAMP) browser
	$(BIN)/python -m pytest

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# The browser tests drive Debian's Chromium; install it when missing (as root).
browser:
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else echo "The browser tests need Chromium: sudo apt-get install chromium" >&2; exit 1; fi; }
