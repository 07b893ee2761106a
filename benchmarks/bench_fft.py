"""(fft) Fourier transforms: ``xnp.jit`` vs NumPy vs ``jax.jit`` side by side (and xnp
eager, which calls ``numpy.fft``): ``fft``/``rfft``/``irfft`` of 2^20 float64 values and
``fft2``/``rfft2`` of a 512x512 float64 array. ``xnp.jit`` gets the eager arrays a user
has, JAX ``jax.device_put`` arrays; the jit results include the conversion to complex.
"""

from __future__ import annotations

import numpy

import _jax
import xnp
from _harness import compare, jit_case, waited_case

__all__ = ["main"]


def _cases(rng, jnp):
    x1 = rng.standard_normal(1 << 20)
    x2 = rng.standard_normal((512, 512))
    spec = numpy.fft.rfft(x1)

    def j(name):
        return getattr(jnp.fft, name) if jnp is not None else None

    return [
        ("fft, 2^20 f64", x1, xnp.fft.fft, numpy.fft.fft, j("fft")),
        ("rfft, 2^20 f64", x1, xnp.fft.rfft, numpy.fft.rfft, j("rfft")),
        ("irfft, 2^19+1 c128", spec, xnp.fft.irfft, numpy.fft.irfft, j("irfft")),
        ("fft2, 512x512 f64", x2, xnp.fft.fft2, numpy.fft.fft2, j("fft2")),
        ("rfft2, 512x512 f64", x2, xnp.fft.rfft2, numpy.fft.rfft2, j("rfft2")),
    ]


def main() -> None:
    rng = numpy.random.default_rng(0)
    jax = _jax.load()
    cases = [jit_case(name, (data,), xf, nf, jf)
             for name, data, xf, nf, jf in _cases(rng, jax.numpy if jax else None)]
    compare("(fft) Fourier transforms", cases, repeat=5, target_s=0.05, unit="ms",
            layout="wide", vs_jax=("xnp.jit",),
            note="xnp eager runs numpy.fft through xnp's dispatch")
    compare("(fft) Fourier transforms, each call waited for", [waited_case(c) for c in cases],
            repeat=5, target_s=0.05, unit="ms", layout="wide", vs_jax=("xnp.jit",))


if __name__ == "__main__":
    main()
