"""(fft) Fourier transforms: ``xnp.jit`` vs NumPy side by side (and xnp eager, which
calls ``numpy.fft``): ``fft``/``rfft``/``irfft`` of 2^20 float64 values and ``fft2`` of a
512x512 float64 array. jit inputs are device-resident outputs of a previous jitted call,
so no transfer is timed; the jit result includes the conversion to complex.
"""

from __future__ import annotations

import numpy

import xnp
from _harness import jit_numpy_eager_row, print_table

__all__ = ["main"]


def _cases(rng):
    x1 = rng.standard_normal(1 << 20)
    x2 = rng.standard_normal((512, 512))
    spec = numpy.fft.rfft(x1)
    return [
        ("fft, 2^20 f64", x1, xnp.fft.fft, numpy.fft.fft),
        ("rfft, 2^20 f64", x1, xnp.fft.rfft, numpy.fft.rfft),
        ("irfft, 2^19+1 c128", spec, xnp.fft.irfft, numpy.fft.irfft),
        ("fft2, 512x512 f64", x2, xnp.fft.fft2, numpy.fft.fft2),
        ("rfft2, 512x512 f64", x2, xnp.fft.rfft2, numpy.fft.rfft2),
    ]


def main() -> None:
    rng = numpy.random.default_rng(0)
    rows = [jit_numpy_eager_row(name, (data,), xf, nf, target_s=0.05)
            for name, data, xf, nf in _cases(rng)]
    print_table("(fft) Fourier transforms (median ms per call)",
                ["op", "numpy", "xnp.jit", "xnp eager", "jit/numpy"], rows,
                note="jit: device-resident inputs; eager runs numpy.fft through xnp's dispatch")


if __name__ == "__main__":
    main()
