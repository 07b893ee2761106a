# make demo  -- set up the virtual environment (if missing) and run the demos
# make test  -- set up the virtual environment (if missing) and run the tests
# make conformance -- run the Array API conformance suite (array_api_tests/run.py: the shared
#               snapshot at ../shared/array-api-tests or $ARRAY_API_TESTS_DIR; skipped if absent),
#               eagerly and with every function through jit (run.py --jit)
# make bench -- set up .venv-bench (if missing; xnp plus JAX for comparison) and run the
#               benchmarks (ratios against NumPy and JAX, printed, not asserted)
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.xnp-installed
BENCH_VENV ?= .venv-bench
BENCH_PY := $(BENCH_VENV)/bin/python
BENCH_STAMP := $(BENCH_VENV)/.xnp-installed
PYTEST_ARGS ?=
# the sources of the native extensions (setup.py): a change rebuilds them in the venvs
NATIVE := $(wildcard xnp/_native/*.c xnp/_native/*.h)

.PHONY: demo test conformance bench full-test clean

$(STAMP): pyproject.toml constraints.txt setup.py $(NATIVE)
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e ".[test,examples]"
	touch $(STAMP)

# JAX only ever goes into this separate venv (the bench extra), never into $(VENV)
$(BENCH_STAMP): pyproject.toml constraints.txt setup.py $(NATIVE)
	test -x $(BENCH_PY) || python3 -m venv $(BENCH_VENV)
	$(BENCH_PY) -m pip install -q --upgrade pip
	$(BENCH_PY) -m pip install -q -c constraints.txt -e ".[bench,examples]"
	touch $(BENCH_STAMP)

demo: $(STAMP)
	$(PY) examples/run_demos.py

test: $(STAMP)
	$(PY) -m pytest -q -n 2 --dist worksteal $(PYTEST_ARGS) tests

conformance: $(STAMP)
	$(PY) array_api_tests/run.py
	$(PY) array_api_tests/run.py --jit

full-test: $(STAMP)
	$(PY) -m pytest -q -n 2 --full-grid tests

bench: $(BENCH_STAMP)
	$(BENCH_PY) benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(BENCH_VENV)
