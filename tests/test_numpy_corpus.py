"""``import xnp as np`` runs NumPy programs unchanged: the corpus in
``tests/corpus/programs`` (short tutorial- and exercise-style NumPy programs) is run
once under NumPy and once under xnp, each library in its own subprocess
(``tests/corpus/run_corpus.py``), and every program must print exactly what it
prints under NumPy. Programs that do not yet agree are listed in ``XFAIL`` with the
missing feature; they are strict xfails, so one that starts passing must leave the
table."""

import json
import pathlib
import subprocess
import sys

import pytest

from tests.corpus.run_corpus import PROGRAMS, rewrite_source

ROOT = pathlib.Path(__file__).resolve().parents[1]
NAMES = sorted(p.name for p in PROGRAMS.glob("[0-9][0-9][0-9]_*.py"))

XFAIL = {
    "111_isinstance_types.py": "a.dtype.type is np.int64: xnp's scalar types are its own "
                               "classes (equal to NumPy's, isinstance-compatible, staged "
                               "under jit), not NumPy's objects",
}


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """{module: {program: output}} from one runner subprocess per library, run side by side."""
    tmp = tmp_path_factory.mktemp("corpus")
    procs = {}
    for module in ("numpy", "xnp"):
        procs[module] = subprocess.Popen(
            [sys.executable, str(PROGRAMS.parent / "run_corpus.py"), module,
             "--out", str(tmp / f"{module}.json")],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    result = {}
    for module, proc in procs.items():
        _, err = proc.communicate(timeout=900)
        assert proc.returncode == 0, f"corpus runner for {module} failed:\n{err[-4000:]}"
        result[module] = json.loads((tmp / f"{module}.json").read_text())
    return result


def test_corpus_is_large_and_the_table_names_real_programs():
    assert len(NAMES) >= 100
    assert set(XFAIL) <= set(NAMES)


def test_every_program_runs_cleanly_under_numpy(outputs):
    raised = {k: v for k, v in outputs["numpy"].items() if "\n!! " in "\n" + v}
    assert not raised
    assert sorted(outputs["numpy"]) == NAMES


@pytest.mark.parametrize("source, want", [
    ("import numpy as np\nx = 1\n", "import xnp as np\nx = 1\n"),
    ("from numpy.polynomial import Polynomial\n", "from xnp.polynomial import Polynomial\n"),
    ("    import numpy.linalg as la\n", "    import xnp.linalg as la\n"),
    ("import numpyish\nprint('import numpy')\n", "import numpyish\nprint('import numpy')\n"),
])
def test_rewrite_source(source, want):
    assert rewrite_source(source, "xnp") == want
    assert rewrite_source(source, "numpy") == source


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=XFAIL[n])) if n in XFAIL else n
    for n in NAMES])
def test_program_prints_what_numpy_prints(name, outputs):
    assert outputs["xnp"][name] == outputs["numpy"][name]
