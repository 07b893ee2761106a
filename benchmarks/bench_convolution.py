"""Convolutions: ``xnp.jit`` vs NumPy side by side (and xnp eager, whose xp
implementation is itself im2col + tensordot).

* a 2-D convolution, batch 8, 32 -> 64 channels, 64x64 images, 3x3 kernel, 'SAME'
  padding, float32 (NCHW/OIHW): ``lax.conv_general_dilated`` under jit vs a NumPy
  im2col baseline (``sliding_window_view`` + ``tensordot``);
* ``numpy.convolve`` of 1e5 x 101 float64 vs ``xnp.convolve`` (jit and eager).

jit inputs are device-resident outputs of a previous jitted call, so no transfer is timed.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import measure, ms, print_table

__all__ = ["main"]


def _im2col_conv(x, w):
    """NumPy baseline: 'SAME' 3x3 conv by im2col + one GEMM (NCHW / OIHW)."""
    k = w.shape[2]
    p = k // 2
    xp = numpy.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    win = numpy.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(2, 3))
    out = numpy.tensordot(win, w, axes=([1, 4, 5], [1, 2, 3]))  # (N, H, W, O)
    return out.transpose(0, 3, 1, 2)


def _conv2d(x, w):
    return xnp.lax.conv_general_dilated(x, w, (1, 1), "SAME")


def main() -> None:
    rng = numpy.random.default_rng(0)
    ident = xnp.jit(lambda v: v + 0)
    rows = []

    x = rng.standard_normal((8, 32, 64, 64)).astype(numpy.float32)
    w = rng.standard_normal((64, 32, 3, 3)).astype(numpy.float32)
    jf = xnp.jit(_conv2d)
    x_dev, w_dev = ident(x), ident(w)
    x_e, w_e = xnp.asarray(x), xnp.asarray(w)
    st = measure({"numpy": lambda: _im2col_conv(x, w), "xnp.jit": lambda: jf(x_dev, w_dev),
                  "xnp eager": lambda: _conv2d(x_e, w_e)}, repeat=3, target_s=0.2)
    rows.append(["conv2d 8x32x64x64 * 64x32x3x3, f32", st])

    a = rng.standard_normal(100_000)
    v = rng.standard_normal(101)
    jc = xnp.jit(lambda a, v: xnp.convolve(a, v))
    a_dev, v_dev = ident(a), ident(v)
    a_e, v_e = xnp.asarray(a), xnp.asarray(v)
    st = measure({"numpy": lambda: numpy.convolve(a, v), "xnp.jit": lambda: jc(a_dev, v_dev),
                  "xnp eager": lambda: xnp.convolve(a_e, v_e)}, repeat=5, target_s=0.05)
    rows.append(["convolve 1e5 x 101, f64", st])

    table = [[name, ms(s["numpy"].median), ms(s["xnp.jit"].median), ms(s["xnp eager"].median),
              f"{s['xnp.jit'].median / s['numpy'].median:.2f}x"] for name, s in rows]
    print_table("convolution (median ms per call)",
                ["op", "numpy", "xnp.jit", "xnp eager", "jit/numpy"], table,
                note="numpy conv2d baseline: im2col (sliding_window_view) + tensordot")


if __name__ == "__main__":
    main()
