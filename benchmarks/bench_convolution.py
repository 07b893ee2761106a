"""Convolutions: ``xnp.jit`` vs NumPy vs ``jax.jit`` side by side (and xnp eager, whose
xp implementation is itself im2col + tensordot).

* a 2-D convolution, batch 8, 32 -> 64 channels, 64x64 images, 3x3 kernel, 'SAME'
  padding, float32 (NCHW/OIHW): ``lax.conv_general_dilated`` under jit vs a NumPy
  im2col baseline (``sliding_window_view`` + ``tensordot``);
* ``numpy.convolve`` of 1e5 x 101 float64 vs ``xnp.convolve`` (jit and eager) and
  ``jax.numpy.convolve``.

``xnp.jit`` gets the eager arrays a user has, JAX ``jax.device_put`` arrays.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare, jit_case

__all__ = ["main"]


def _im2col_conv(x, w):
    """NumPy baseline: 'SAME' 3x3 conv by im2col + one GEMM (NCHW / OIHW)."""
    k = w.shape[2]
    p = k // 2
    xp = numpy.pad(x, ((0, 0), (0, 0), (p, p), (p, p)))
    win = numpy.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(2, 3))
    out = numpy.tensordot(win, w, axes=([1, 4, 5], [1, 2, 3]))  # (N, H, W, O)
    return out.transpose(0, 3, 1, 2)


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    x = rng.standard_normal((8, 32, 64, 64)).astype(numpy.float32)
    w = rng.standard_normal((64, 32, 3, 3)).astype(numpy.float32)
    a = rng.standard_normal(100_000)
    v = rng.standard_normal(101)
    conv_j = (lambda x, w: jax.lax.conv_general_dilated(x, w, (1, 1), "SAME")) if jax else None
    convolve_j = (lambda a, v: jax.numpy.convolve(a, v)) if jax else None
    cases = [
        jit_case("conv2d 8x32x64x64 * 64x32x3x3, f32", (x, w),
                 lambda x, w: xnp.lax.conv_general_dilated(x, w, (1, 1), "SAME"),
                 _im2col_conv, conv_j),
        jit_case("convolve 1e5 x 101, f64", (a, v), lambda a, v: xnp.convolve(a, v),
                 numpy.convolve, convolve_j),
    ]
    compare("convolution", cases, repeat=3, target_s=0.1, unit="ms", layout="wide",
            vs_jax=("xnp.jit",), note="numpy conv2d baseline: im2col (sliding_window_view) + "
                                      "tensordot")


if __name__ == "__main__":
    main()
