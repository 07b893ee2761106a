"""xp implementation of ``conv_general_dilated`` (``xnp.lax.convolution``).

No per-element loops: the operands are transposed to the ``(N, C, *spatial)`` /
``(O, I, *window)`` layouts, the input is dilated and padded (negative padding
crops), every (strided, kernel-dilated) window is taken at once with
``sliding_window_view`` and contracted with the kernel by ``tensordot`` (im2col +
GEMM), once per feature or batch group. The accumulator is
``conv_accumulation_dtype``: float32 for floats narrower than 32 bits (rounded once,
as XLA does), else the result dtype (integers wrap: exact modulo the dtype's range,
which is XLA's answer).
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import XP_IMPLS
from xnp.lax.convolution import conv_accumulation_dtype, conv_output_spatial

__all__ = []


def _dilate_pad(xp, x, padding, dilation):
    """``x`` (spatial dims from axis 2) dilated with zeros, then padded (negative: cropped)."""
    nsp = x.ndim - 2
    if any(d != 1 for d in dilation):
        sizes = [0 if n == 0 else (n - 1) * d + 1 for n, d in zip(x.shape[2:], dilation)]
        out = xp.zeros(x.shape[:2] + tuple(sizes), x.dtype)
        out[(slice(None),) * 2 + tuple(slice(None, None, d) for d in dilation)] = x
        x = out
    grow = [(0, 0)] * 2 + [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    if any(p != (0, 0) for p in grow):
        x = xp.pad(x, grow)
    crop = tuple(slice(max(-lo, 0), n - max(-hi, 0)) for (lo, hi), n in zip(padding, x.shape[2:]))
    return x[(slice(None),) * 2 + crop] if nsp else x


def _conv(xp, lhs, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
          dimension_numbers, feature_group_count, batch_group_count, precision=None,
          preferred_element_type=None):
    lspec, rspec, ospec = dimension_numbers
    out_dtype = lhs.dtype if preferred_element_type is None else preferred_element_type
    acc = conv_accumulation_dtype(out_dtype)
    x = xp.transpose(lhs, lspec).astype(acc, copy=False)  # (N, C, *spatial)
    w = xp.transpose(rhs, rspec).astype(acc, copy=False)  # (O, I, *window)
    nsp = x.ndim - 2
    window = w.shape[2:]
    out_sp = conv_output_spatial(x.shape[2:], window, window_strides, padding, lhs_dilation,
                                 rhs_dilation)
    groups = feature_group_count * batch_group_count  # at most one of them exceeds 1
    n, o = x.shape[0] // batch_group_count, w.shape[0]
    canonical = (n, o) + out_sp
    if 0 in canonical:
        out = xp.zeros(canonical, acc)
    else:
        x = _dilate_pad(xp, x, padding, lhs_dilation)
        extents = [(k - 1) * d + 1 for k, d in zip(window, rhs_dilation)]
        spatial_axes = tuple(range(2, 2 + nsp))
        win = xp.lib.stride_tricks.sliding_window_view(x, extents, axis=spatial_axes)
        # (N, C, *positions, *extent): keep every stride-th position, every dilation-th tap
        win = win[(slice(None),) * 2 + tuple(slice(None, None, s) for s in window_strides)
                  + tuple(slice(None, None, d) for d in rhs_dilation)]
        oq = o // groups
        parts = []
        for g in range(groups):
            if batch_group_count > 1:
                xg = win[g * n:(g + 1) * n]
            else:
                ci = w.shape[1]
                xg = win[:, g * ci:(g + 1) * ci]
            wg = w[g * oq:(g + 1) * oq]
            # (N, I, *positions, *taps) . (Oq, I, *taps) -> (N, *positions, Oq)
            parts.append(xp.tensordot(xg, wg, axes=([1] + [2 + nsp + k for k in range(nsp)],
                                                    [1] + [2 + k for k in range(nsp)])))
        out = parts[0] if groups == 1 else xp.concatenate(parts, axis=-1)
        out = xp.moveaxis(out, -1, 1)
    perm = tuple(int(i) for i in np.argsort(ospec))
    return xp.transpose(out, perm).astype(out_dtype, copy=False)


XP_IMPLS[lax.conv_general_dilated_p] = _conv
