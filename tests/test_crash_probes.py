"""Crash probes: inputs that used to abort the process (jaxlib's SIGABRT on a size overflow,
a module that does not parse) or that could, each run in a child process, which must end
every one with a Python exception, never a signal.

The probes run in batches: one child runs every probe still to run, reporting each as it
starts and as it ends; when a child dies, the probe it was running is recorded as the crash
and a new child runs the rest, so a crash never hides another probe's result. ``MemoryError``
probes ask for at least 2**50 bytes (1 PiB), beyond any machine's memory; the size checks
behind them are in :mod:`xnp.tracing.sizes`.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from xnp.tracing import sizes

# name -> (expression, exception class name, fragments the message must contain)
# `xnp` and `np` are imported; `x` is xnp.ones(4), `u8` an xnp uint8 scalar array.
BIG = "(2**40, 2**40)"  # 2**80 elements: beyond int64
HUGE = "(2**24, 2**24)"  # 2 PiB of float64: beyond any machine's memory
PROBES = {
    # the cases
    "jit_zeros_int64_overflow": (f"xnp.jit(lambda: xnp.zeros({BIG}))()", "ValueError",
                                 ["xnp.zeros", "`shape`", "(1099511627776, 1099511627776)",
                                  "float64", "int64"]),
    "jit_arange_overflow": ("xnp.jit(lambda: xnp.arange(2**62))()", "ValueError",
                            ["xnp.arange", "`stop`", "(4611686018427387904,)", "int64"]),
    "jit_broadcast_to_overflow": ("xnp.jit(lambda a: xnp.broadcast_to(a, (2**31, 2**31)))(x[:1])",
                                  "ValueError", ["xnp.lax.broadcast_in_dim",
                                                 "(2147483648, 2147483648)", "float64"]),
    "jit_broadcast_sum_overflow": (
        "xnp.jit(lambda a: xnp.broadcast_to(a, (2**31, 2**31)).sum())(x[:1])", "ValueError",
        ["broadcast_in_dim", "(2147483648, 2147483648)"]),
    "jit_inv_of_huge": ("xnp.jit(lambda: xnp.linalg.inv(xnp.eye(2**20)))()", "MemoryError",
                        ["xnp.eye", "`N`", "(1048576, 1048576)", "float64", "8.00 TiB"]),
    "fft_n_huge": ("xnp.fft.fft(x, n=2**50)", "MemoryError",
                   ["xnp.fft.fft", "`n`", "(1125899906842624,)", "complex128"]),
    "jit_fft_n_huge": ("xnp.jit(lambda a: xnp.fft.fft(a, n=2**40))(x)", "MemoryError",
                       ["xnp.fft.fft", "`n`", "(1099511627776,)", "complex128"]),
    "jit_rfft_n_huge": ("xnp.jit(lambda a: xnp.fft.rfft(a, n=2**50))(x)", "MemoryError",
                        ["xnp.fft.rfft", "`n`", "float64"]),
    "jit_zeros_2_64": ("xnp.jit(lambda: xnp.zeros((2**64,)))()", "ValueError",
                       ["xnp.zeros", "(18446744073709551616,)", "float64"]),
    "jit_zeros_2_63": ("xnp.jit(lambda: xnp.zeros((2**63,), dtype=np.uint8))()", "ValueError",
                       ["xnp.zeros", "uint8"]),
    # creation, eagerly and under jit
    "zeros_int64_overflow": (f"xnp.zeros({BIG})", "ValueError", ["xnp.zeros", "float64"]),
    "zeros_beyond_memory": (f"xnp.zeros({HUGE})", "MemoryError",
                            ["xnp.zeros", "`shape`", "(16777216, 16777216)", "float64"]),
    "jit_zeros_beyond_memory": (f"xnp.jit(lambda: xnp.zeros({HUGE}))()", "MemoryError",
                                ["xnp.zeros", "`shape`", "(16777216, 16777216)", "float64"]),
    "ones_int8": ("xnp.ones(2**50, dtype=np.int8)", "MemoryError", ["xnp.ones", "int8"]),
    "jit_ones": (f"xnp.jit(lambda: xnp.ones({BIG}))()", "ValueError", ["xnp.ones"]),
    "jit_empty": (f"xnp.jit(lambda: xnp.empty({HUGE}, dtype=np.complex64))()", "MemoryError",
                  ["xnp.empty", "complex64"]),
    "full": (f"xnp.full({HUGE}, 3.0)", "MemoryError", ["xnp.full", "`shape`"]),
    "jit_full_array_fill": (f"xnp.jit(lambda a: xnp.full({BIG}, a))(x[:1])", "ValueError",
                            ["xnp.full", "`shape`"]),
    "jit_full_like_shape": (f"xnp.jit(lambda a: xnp.full_like(a, 1.0, shape={HUGE}))(x)",
                            "MemoryError", ["xnp.full_like", "`shape`"]),
    "eye_overflow": ("xnp.eye(2**32)", "ValueError",
                     ["xnp.eye", "`N`", "(4294967296, 4294967296)", "float64"]),
    "jit_eye_nm": ("xnp.jit(lambda: xnp.eye(2**25, 2**25, dtype=np.float32))()", "MemoryError",
                   ["xnp.eye", "`N, M`", "float32"]),
    "jit_identity": ("xnp.jit(lambda: xnp.identity(2**25))()", "MemoryError", ["xnp.eye"]),
    "arange_float_step": ("xnp.arange(0, 1, 1e-18)", "MemoryError",
                          ["xnp.arange", "`start, stop, step`", "float64"]),
    "linspace_num": ("xnp.jit(lambda: xnp.linspace(0, 1, 2**62))()", "ValueError",
                     ["xnp.linspace", "`num`", "float64"]),
    "negative_zeros": ("xnp.jit(lambda: xnp.zeros((3, -1)))()", "ValueError",
                       ["xnp.zeros", "negative", "(3, -1)"]),
    "negative_iota": ("xnp.jit(lambda: xnp.lax.iota(np.int32, -1))()", "ValueError",
                      ["xnp.lax.iota", "negative"]),
    "shape_dtype_struct_overflow": ("xnp.ShapeDtypeStruct((2**64,), np.float64)", "ValueError",
                                    ["xnp.ShapeDtypeStruct", "float64"]),
    # an elementwise result is fused by XLA when staged: the compiled program's output is
    # what cannot be held, refused after compiling
    "jit_lower_abstract_huge": (
        "xnp.jit(lambda a: a + 1).lower(xnp.ShapeDtypeStruct((2**50,), np.float64)).compile()",
        "MemoryError", ["xnp.jit", "<lambda>", "8.00 PiB"]),
    # manipulation
    "jit_reshape_zero_size_overflow": (
        "xnp.jit(lambda a: a.reshape(2**31, 2**31, 0))(xnp.ones(0))", "ValueError",
        ["xnp.lax.reshape", "(2147483648, 2147483648, 0)", "float64"]),
    "reshape_zero_size_overflow": ("xnp.ones(0).reshape(2**31, 2**31, 0)", "ValueError",
                                   ["(2147483648, 2147483648, 0)"]),
    "tile": ("xnp.tile(x, 2**50)", "MemoryError", ["xnp.tile", "`reps`", "float64"]),
    "jit_tile": ("xnp.jit(lambda a: xnp.tile(a, (2**40, 2**40)))(x)", "ValueError",
                 ["xnp.tile", "`reps`"]),
    "repeat": ("xnp.repeat(x, 2**50)", "MemoryError", ["xnp.repeat", "`repeats`", "float64"]),
    "jit_repeat_counts": ("xnp.jit(lambda a: xnp.repeat(a, [2**50, 1, 1, 1]))(x)",
                          "MemoryError", ["xnp.repeat", "`repeats`"]),
    "concatenate_overflow": (
        "xnp.concatenate([xnp.broadcast_to(u8, (2**61,))] * 4)", "ValueError",
        ["xnp.lax.concatenate", "(9223372036854775808,)", "uint8"]),
    "jit_concatenate_overflow": (
        "xnp.jit(lambda a: xnp.concatenate([xnp.broadcast_to(a, (2**61,))] * 4))(u8)",
        "ValueError", ["xnp.lax.concatenate", "uint8"]),
    "jit_pad": ("xnp.jit(lambda a: xnp.pad(a, 2**50))(x)", "MemoryError", ["xnp.lax.pad"]),
    "jit_broadcast_output_beyond_memory": (
        f"xnp.jit(lambda a: xnp.broadcast_to(a, {HUGE}))(x[:1])", "MemoryError",
        ["xnp.jit", "<lambda>", "outputs 2.00 PiB"]),
    "jit_meshgrid": ("xnp.jit(lambda a: xnp.meshgrid(a, a))(xnp.ones(2**24))", "MemoryError",
                     ["xnp.jit"]),
    "jit_scan_stacked_outputs": (
        "xnp.jit(lambda: xnp.lax.scan(lambda c, _: (c, c), 0.0, None, length=2**62))()",
        "ValueError", ["xnp.lax.scan", "(4611686018427387904,)"]),
    "vmap_overflow": ("xnp.vmap(lambda a: xnp.broadcast_to(a, (2**32,)).sum())("
                      "xnp.broadcast_to(x[:1], (2**32,)))", "ValueError",
                      ["xnp.lax.broadcast_in_dim", "(4294967296, 4294967296)"]),
    # products and matrices
    "outer": ("xnp.outer(xnp.ones(2**24), xnp.ones(2**24))", "MemoryError",
              ["xnp.lax.dot_general", "(16777216, 16777216)", "float64"]),
    "jit_matmul": ("xnp.jit(lambda a, b: a @ b)(xnp.ones((2**24, 1)), xnp.ones((1, 2**24)))",
                   "MemoryError", ["xnp.lax.dot_general"]),
    "jit_einsum": ("xnp.jit(lambda a: xnp.einsum('i,j->ij', a, a))(xnp.ones(2**24))",
                   "MemoryError", ["dot_general"]),
    "jit_kron": ("xnp.jit(xnp.kron)(xnp.ones(2**24), xnp.ones(2**24))", "MemoryError",
                 ["xnp.lax"]),
    "tri": ("xnp.tri(2**24)", "MemoryError", ["xnp.lax"]),
    "jit_indices": ("xnp.jit(lambda: xnp.indices((2**24, 2**24)))()", "MemoryError",
                    ["xnp.lax.iota"]),
    "jit_svd_zero_columns_full_u": ("xnp.jit(xnp.linalg.svd)(xnp.zeros((2**33, 0)))",
                                    "ValueError", ["xnp.lax.svd", "(8589934592, 8589934592)"]),
    # fft
    "jit_irfft": ("xnp.jit(lambda a: xnp.fft.irfft(a, n=2**50))(x)", "MemoryError",
                  ["xnp.fft.irfft", "`n`", "float64"]),
    "jit_fftn_s": ("xnp.jit(lambda a: xnp.fft.fftn(a, s=(2**24, 2**24)))(xnp.ones((2, 2)))",
                   "MemoryError", ["xnp.fft.fftn", "`s`", "complex128"]),
    "fft_n_zero": ("xnp.jit(lambda a: xnp.fft.fft(a, n=0))(x)", "ValueError", ["`n`"]),
    # random (a Generator draws on the host, also under jit: NumPy's own messages)
    "random_generator": (f"xnp.random.default_rng(0).random({BIG})", "ValueError",
                         ["too big"]),
    "random_generator_memory": (f"xnp.random.default_rng(0).normal(size={HUGE})",
                                "MemoryError", ["(16777216, 16777216)", "float64"]),
    "jit_random_key": (f"xnp.jit(lambda k: xnp.random.normal(k, {HUGE}))(xnp.random.key(0))",
                       "MemoryError", ["xnp.lax"]),
    "random_permutation": ("xnp.random.default_rng(0).permutation(2**50)", "MemoryError",
                           ["(1125899906842624,)", "int64"]),
    "jit_random_generator": (
        f"xnp.jit(lambda: xnp.random.default_rng(0).normal(size={HUGE}))()", "MemoryError",
        ["(16777216, 16777216)"]),
    # sizes from data-independent arguments
    "jit_nonzero_size": ("xnp.jit(lambda a: xnp.nonzero(a, size=2**50))(x)", "MemoryError",
                         ["xnp.lax"]),
    "histogram_bins": ("xnp.histogram(x, bins=2**62)", "ValueError", ["xnp.lax.iota"]),
    "bincount_minlength": ("xnp.bincount(xnp.array([1, 2]), minlength=2**62)", "ValueError",
                           ["int64"]),
    "jit_conv_dilation": (
        "xnp.jit(lambda a: xnp.lax.conv_general_dilated(a, a, (1,), 'VALID', "
        "lhs_dilation=(2**50,)))(xnp.ones((1, 1, 3)))", "MemoryError",
        ["xnp.lax.conv_general_dilated"]),
    "jit_reduce_window_padding": (
        "xnp.jit(lambda a: xnp.lax.reduce_window(a, 0.0, xnp.lax.add, (1,), (1,), "
        "((2**50, 2**50),)))(x)", "MemoryError", ["xnp.lax.reduce_window"]),
    "index_huge_python_int": ("xnp.jit(lambda a: a[2**64])(x)", "IndexError",
                              ["18446744073709551616"]),
    "dynamic_slice_size": ("xnp.jit(lambda a: xnp.lax.dynamic_slice(a, (0,), (2**40,)))(x)",
                           "ValueError", ["xnp.lax.dynamic_slice"]),
}

# probes that must succeed (zero-size arrays with huge dims, NaN/inf into LAPACK under jit):
# the expression's result is printed as its shape
SUCCEEDS = {
    # fused by XLA: the 2**48-element product is never allocated (the result is 2 * 2**48)
    "jit_grad_through_huge": f"xnp.jit(xnp.grad(lambda a: (xnp.broadcast_to(a, {HUGE}) * 2)"
                             ".sum()))(1.0)",
    "jit_zeros_zero_size": "xnp.jit(lambda: xnp.zeros((2**40, 0)))()",
    "jit_zeros_zero_size_2_62": "xnp.jit(lambda: xnp.zeros((2**62, 0), dtype=np.uint8))()",
    "jit_sort_zero_size": "xnp.jit(lambda a: xnp.sort(a, axis=0))(xnp.zeros((2**33, 0)))",
    "jit_qr_zero_size": "xnp.jit(xnp.linalg.qr)(xnp.zeros((2**33, 0)))",
    "jit_inv_zero_size_batch": "xnp.jit(xnp.linalg.inv)(xnp.zeros((2**40, 0, 0)))",
    "jit_eigh_empty_batch": "xnp.jit(xnp.linalg.eigh)(xnp.zeros((0, 2**20, 2**20)))",
    "jit_inv_nan": "xnp.jit(xnp.linalg.inv)(xnp.full((3, 3), xnp.nan))",
    "jit_solve_inf": "xnp.jit(xnp.linalg.solve)(xnp.full((3, 3), xnp.inf), xnp.ones(3))",
    "jit_svd_nan": "xnp.jit(xnp.linalg.svd)(xnp.full((5, 3), xnp.nan, dtype=np.float32))",
    "jit_eig_nan": "xnp.jit(xnp.linalg.eig)(xnp.full((3, 3), xnp.nan))",
    "jit_eig_complex_nan": "xnp.jit(xnp.linalg.eig)(xnp.full((3, 3), complex('nan+1j')))",
    "jit_eigh_inf": "xnp.jit(xnp.linalg.eigh)(xnp.full((4, 4), xnp.inf))",
    "jit_cholesky_nan": "xnp.jit(xnp.linalg.cholesky)(xnp.full((3, 3), xnp.nan))",
    "jit_qr_nan": "xnp.jit(xnp.linalg.qr)(xnp.full((3, 3), xnp.nan))",
    "jit_det_nan": "xnp.jit(xnp.linalg.det)(xnp.full((3, 3), xnp.nan))",
    "jit_slogdet_inf": "xnp.jit(xnp.linalg.slogdet)(xnp.full((3, 3), xnp.inf))",
    "jit_lstsq_nan": ("xnp.jit(lambda a, b: xnp.linalg.lstsq(a, b))("
                      "xnp.full((3, 3), xnp.nan), x[:3])"),
    "jit_pinv_nan": "xnp.jit(xnp.linalg.pinv)(xnp.full((3, 3), xnp.nan))",
    "jit_matrix_rank_nan": "xnp.jit(xnp.linalg.matrix_rank)(xnp.full((3, 3), xnp.nan))",
    "jit_norm2_nan": "xnp.jit(lambda a: xnp.linalg.norm(a, 2))(xnp.full((3, 3), xnp.nan))",
}

_RUNNER = r"""
import json, sys
import numpy as np
import xnp
probes = json.loads(sys.stdin.read())
env = {"xnp": xnp, "np": np, "x": xnp.ones(4), "u8": xnp.ones((), dtype=np.uint8)}
for name, expr in probes.items():
    print(json.dumps({"begin": name}), flush=True)
    try:
        r = eval(expr, env)
        res = {"end": name, "ok": True}
    except Exception as e:
        res = {"end": name, "ok": False, "type": type(e).__name__, "msg": str(e)}
    print(json.dumps(res), flush=True)
"""


def _run_all(probes: dict, timeout: float = 240.0) -> dict:
    """name -> result of every probe (``{"crash": returncode}`` for the one a child died in)."""
    results: dict = {}
    todo = dict(probes)
    while todo:
        try:
            proc = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(todo),
                                  capture_output=True, text=True, timeout=timeout)
            out, rc = proc.stdout, proc.returncode
            tail = proc.stderr[-2000:]
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            rc, tail = "timeout", ""
        running = None
        for line in out.splitlines():
            rec = json.loads(line)
            if "begin" in rec:
                running = rec["begin"]
            else:
                results[rec["end"]] = rec
                todo.pop(rec["end"])
                running = None
        if running is None:  # died before or between probes: report it on all left
            for name in todo:
                results[name] = {"crash": rc, "stderr": tail}
            break
        results[running] = {"crash": rc, "stderr": tail}
        todo.pop(running)
    return results


@pytest.fixture(scope="module")
def probe_results():
    return _run_all({**{k: v[0] for k, v in PROBES.items()}, **SUCCEEDS})


@pytest.mark.parametrize("name", sorted(PROBES))
def test_probe_raises_python_exception(name, probe_results):
    expr, cls, fragments = PROBES[name]
    res = probe_results[name]
    assert "crash" not in res, f"{expr} killed the process ({res['crash']}):\n{res['stderr']}"
    assert not res["ok"], f"{expr} did not raise"
    assert res["type"] == cls, f"{expr} raised {res['type']}: {res['msg']}"
    for frag in fragments:
        assert frag in res["msg"], f"{expr}: {frag!r} not in the message: {res['msg']}"


@pytest.mark.parametrize("name", sorted(SUCCEEDS))
def test_probe_succeeds(name, probe_results):
    res = probe_results[name]
    assert "crash" not in res, f"{SUCCEEDS[name]} killed the process:\n{res['stderr']}"
    assert res["ok"], f"{SUCCEEDS[name]} raised {res['type']}: {res['msg']}"


def test_probe_runner_reports_a_crash_and_runs_the_rest():
    # a probe that kills its process is reported as the crash; the probes after it still run
    res = _run_all({"before": "1", "dies": "__import__('os').abort()", "after": "1 // 0"})
    assert res["before"]["ok"]
    assert res["dies"]["crash"] == -6
    assert res["after"]["type"] == "ZeroDivisionError"


def test_memory_probes_exceed_this_machine():
    # the MemoryError probes rely on asking for more than the machine has
    assert sizes.machine_memory() < 2**50
