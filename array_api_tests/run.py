"""Run the Array API conformance suite against xnp (see README.md beside this file)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

__all__ = ["main"]

HERE = pathlib.Path(__file__).parent


def main(argv=None) -> int:
    suite = os.environ.get("ARRAY_API_TESTS_DIR")
    if not suite or not pathlib.Path(suite, "array_api_tests").is_dir():
        print("array_api_tests/run.py: set ARRAY_API_TESTS_DIR to a checkout of "
              "data-apis/array-api-tests (it is not on PyPI)", file=sys.stderr)
        return 2
    env = dict(os.environ, ARRAY_API_TESTS_MODULE="xnp")
    cmd = [sys.executable, "-m", "pytest", "array_api_tests", "-q",
           f"--xfails-file={HERE / 'xfails.txt'}", *(argv or [])]
    return subprocess.call(cmd, cwd=suite, env=env)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
