"""Run every program of the NumPy corpus under one array library.

Usage: ``python tests/corpus/run_corpus.py MODULE [--out FILE] [--only NAME ...]``
where MODULE is ``numpy`` or ``xnp``. Each program in ``programs/`` is
executed in a fresh globals dict inside this one process; for ``xnp`` its
``import numpy`` / ``from numpy...`` statements are rewritten to the
``xnp`` equivalents on the source text first. Between programs the legacy
random seed, the print options and the floating-point error state are reset,
so a program sees the same starting state under either library. What each
program prints is captured; an exception (or exceeding the per-program
time limit) is appended to its output as ``!! TypeName: message``, so a
failure shows up as a difference. The result is a JSON object mapping the
program's file name to its output, written to FILE or stdout.
"""

import argparse
import contextlib
import importlib
import io
import json
import pathlib
import re
import signal
import sys

PROGRAMS = pathlib.Path(__file__).resolve().parent / "programs"
REPO_ROOT = PROGRAMS.parents[2]
_IMPORT = re.compile(r"^(\s*)(import|from)\s+numpy\b", re.MULTILINE)


class ProgramTimeout(Exception):
    """A corpus program ran past its time limit."""


def rewrite_source(source: str, module: str) -> str:
    """Source with ``import numpy`` / ``from numpy`` lines naming ``module``."""
    if module == "numpy":
        return source
    return _IMPORT.sub(lambda m: f"{m.group(1)}{m.group(2)} {module}", source)


def _on_alarm(signum, frame):
    raise ProgramTimeout("program ran past its time limit")


def run_one(path: pathlib.Path, module: str, lib, defaults: dict, timeout_s: int) -> str:
    """Output of one program (stdout, then ``!! Type: message`` if it raised)."""
    lib.random.seed(0)
    lib.set_printoptions(**defaults)
    lib.seterr(all="warn", under="ignore")
    code = compile(rewrite_source(path.read_text(), module), str(path), "exec")
    buf = io.StringIO()
    signal.alarm(timeout_s)
    try:
        with contextlib.redirect_stdout(buf):
            exec(code, {"__name__": "__main__", "__file__": str(path)})
    except BaseException as exc:  # noqa: BLE001 -- reported as the program's output
        if isinstance(exc, KeyboardInterrupt):
            raise
        buf.write(f"!! {type(exc).__name__}: {exc}\n")
    finally:
        signal.alarm(0)
    return buf.getvalue()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("module", choices=["numpy", "xnp"])
    parser.add_argument("--out", help="write the JSON here instead of stdout")
    parser.add_argument("--only", nargs="*", help="program file names to run")
    parser.add_argument("--timeout", type=int, default=60, help="seconds per program")
    args = parser.parse_args(argv)

    sys.path.insert(0, str(REPO_ROOT))  # the checkout's xnp, not an installed one
    lib = importlib.import_module(args.module)
    defaults = dict(lib.get_printoptions())
    signal.signal(signal.SIGALRM, _on_alarm)
    paths = sorted(PROGRAMS.glob("[0-9][0-9][0-9]_*.py"))
    if args.only:
        paths = [p for p in paths if p.name in set(args.only)]
    results = {p.name: run_one(p, args.module, lib, defaults, args.timeout) for p in paths}
    text = json.dumps(results, indent=1, sort_keys=True)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    else:
        sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
