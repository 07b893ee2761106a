"""Run the Array API conformance suite against xnp (see README.md beside this file).

Usage::

    .venv/bin/python array_api_tests/run.py [--version 2024.12] [--max-examples N]
                                            [--seed N] [-- extra pytest arguments]

The suite (data-apis/array-api-tests, not on PyPI) is looked up at
``ARRAY_API_TESTS_DIR`` or else at ``<repository>/../shared/array-api-tests``.
When it is not there the run prints why and exits 0 ("skipped"), so CI on a
machine without the snapshot still passes; when it is there, any failure or
error is a non-zero exit. pytest runs from a fresh scratch directory (its
Hypothesis database, bytecode and reports go there), so nothing is written into
the suite's folder, and a fixed Hypothesis seed makes runs reproducible.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile

__all__ = ["main", "find_suite", "build_command"]

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent
DEFAULT_VERSION = "2025.12"
DEFAULT_MAX_EXAMPLES = 20
DEFAULT_SEED = 0
# the jit pass compiles each function per static signature and argument shapes:
# fewer examples keep it within CI's time
DEFAULT_JIT_MAX_EXAMPLES = 10


def find_suite() -> pathlib.Path | None:
    """The conformance suite's folder, or None when it is not on this machine.

    ``ARRAY_API_TESTS_DIR`` wins when set; otherwise the shared snapshot beside
    the repository, ``<repository>/../shared/array-api-tests``.
    """
    suite = os.environ.get("ARRAY_API_TESTS_DIR")
    path = pathlib.Path(suite) if suite else REPO.parent / "shared" / "array-api-tests"
    if (path / "array_api_tests").is_dir() and (path / "conftest.py").is_file():
        return path
    return None


def build_command(suite: pathlib.Path, *, max_examples: int, seed: int, extra: list[str],
                  deadline: bool = False, skips: pathlib.Path | None = None) -> list[str]:
    """The pytest command line that runs ``suite`` against xnp from a scratch directory.

    Test selections in ``extra`` written relative to the suite
    (``array_api_tests/test_sorting_functions.py::test_argsort``) replace the
    default of the whole suite. Hypothesis' per-example deadline is off unless
    ``deadline``: it measures the machine, not conformance (a first call that
    imports SciPy's LAPACK wrappers takes ~0.5 s on a loaded CI machine), and a
    timing failure would make a seeded run irreproducible. ``skips`` is a skips
    file for the suite (the jit pass's inherently eager tests).
    """
    selected = [str(suite / a) for a in extra if a.startswith("array_api_tests")]
    options = [a for a in extra if not a.startswith("array_api_tests")]
    return [
        sys.executable, "-m", "pytest", *(selected or [str(suite / "array_api_tests")]),
        f"--rootdir={suite}", "-p", "no:cacheprovider", "-q", "-rfE",
        f"--xfails-file={HERE / 'xfails.txt'}",
        *([f"--skips-file={skips}"] if skips is not None else []),
        f"--max-examples={max_examples}", f"--hypothesis-seed={seed}",
        *([] if deadline else ["--hypothesis-disable-deadline"]),
        *options,
    ]


def _parse(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        prog="array_api_tests/run.py",
        description="Run the Array API conformance suite against xnp.")
    parser.add_argument("--version", default=os.environ.get("ARRAY_API_TESTS_VERSION",
                                                            DEFAULT_VERSION),
                        help=f"standard version to test (default {DEFAULT_VERSION})")
    parser.add_argument("--jit", action="store_true",
                        help="test the namespace whose functions run through xnp.jit "
                             "(array_api_tests/xnp_jit.py), skipping its EXCLUDED tests")
    parser.add_argument("--max-examples", type=int, default=None,
                        help=f"Hypothesis examples per test (default {DEFAULT_MAX_EXAMPLES}, "
                             f"{DEFAULT_JIT_MAX_EXAMPLES} with --jit)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help=f"Hypothesis seed (default {DEFAULT_SEED})")
    parser.add_argument("--deadline", action="store_true",
                        help="keep Hypothesis' 800 ms per-example deadline (off by default)")
    return parser.parse_known_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the suite; return pytest's exit status (0 also when the suite is absent)."""
    args, extra = _parse(list(sys.argv[1:] if argv is None else argv))
    extra = [a for a in extra if a != "--"]
    suite = find_suite()
    if suite is None:
        where = os.environ.get("ARRAY_API_TESTS_DIR") or REPO.parent / "shared" / "array-api-tests"
        print(f"array_api_tests/run.py: skipped: no Array API conformance suite at {where} "
              "(set ARRAY_API_TESTS_DIR to a checkout of data-apis/array-api-tests)")
        return 0
    max_examples = args.max_examples
    if max_examples is None:
        max_examples = DEFAULT_JIT_MAX_EXAMPLES if args.jit else DEFAULT_MAX_EXAMPLES
    with tempfile.TemporaryDirectory(prefix="xnp-array-api-") as scratch:
        skips = None
        if args.jit:
            sys.path.insert(0, str(HERE))
            import xnp_jit  # noqa: PLC0415 - only the jit pass needs it (it imports xnp)
            skips = pathlib.Path(scratch, "jit-skips.txt")
            skips.write_text(xnp_jit.skips_text())
        env = dict(os.environ, ARRAY_API_TESTS_MODULE="xnp_jit" if args.jit else "xnp.array_api",
                   ARRAY_API_TESTS_VERSION=args.version, XNP_ARRAY_API_VERSION=args.version,
                   PYTHONPYCACHEPREFIX=str(pathlib.Path(scratch, "pycache")),
                   PYTHONPATH=os.pathsep.join(
                       p for p in (str(suite), str(HERE) if args.jit else None,
                                   os.environ.get("PYTHONPATH")) if p))
        cmd = build_command(suite, max_examples=max_examples, seed=args.seed, extra=extra,
                            deadline=args.deadline, skips=skips)
        print(f"array_api_tests/run.py: ARRAY_API_TESTS_VERSION={args.version}"
              f"{' (jit)' if args.jit else ''} in {scratch}")
        print(" ".join(cmd), flush=True)
        return subprocess.call(cmd, cwd=scratch, env=env)


if __name__ == "__main__":
    sys.exit(main())
