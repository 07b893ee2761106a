"""Lowering of ``xnp.lax.fft`` to ``stablehlo.fft`` (``fft_type``, ``fft_length``); an
empty operand or result lowers to a zero constant (XLA's FFT needs data)."""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xla.lowering._core import i64_array, lowering

__all__: list = []


@lowering(lax.fft_p)
def _lower_fft(ctx, x, *, fft_type, fft_lengths):
    (out_aval,) = ctx.avals_out
    if x.aval.size == 0 or out_aval.size == 0:
        zero = ctx.constant(np.zeros((), out_aval.dtype))
        return [ctx.broadcast_in_dim(zero, out_aval.shape, ())]
    attrs = (f"fft_type = #stablehlo<fft_type {fft_type.name}>, "
             f"fft_length = {i64_array(fft_lengths)}")
    return [ctx.op("stablehlo.fft", [x], attrs=attrs)]
