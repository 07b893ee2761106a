# make demo  -- set up the virtual environment (if missing) and run the demos
# make test  -- set up the virtual environment (if missing) and run the tests
# make bench -- run the benchmarks (ratios against NumPy, printed, not asserted)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.xnp-installed
PYTEST_ARGS ?=

.PHONY: demo test bench full-test clean

$(STAMP): pyproject.toml constraints.txt setup.py xnp/_native/aligned_alloc.c
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e ".[test,examples]"
	touch $(STAMP)

demo: $(STAMP)
	$(PY) examples/run_demos.py

test: $(STAMP)
	$(PY) -m pytest -q -n 2 $(PYTEST_ARGS) tests

full-test: $(STAMP)
	$(PY) -m pytest -q -n 2 --full-grid tests

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV)
