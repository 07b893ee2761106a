"""Transformation rules of ``conv_general_dilated`` (registered on the primitive).

Notation: canonical views ``lhs (N, C, *in)``, ``rhs (O, I, *k)``, ``out (N/B, O, *y)``;
per spatial dim stride ``s``, padding ``(lo, hi)``, dilations ``ld``/``rd``, dilated sizes
``Ld = dilate(n, ld)``, ``Yd = dilate(y, s)``, window extent ``E = dilate(k, rd)``;
``G``/``B`` the feature/batch group counts. The convolution reads padded input position
``p = y*s + t*rd`` for output ``y`` and tap ``t``.

* jvp: bilinear, ``conv(dlhs, rhs) + conv(lhs, drhs)``.
* transpose in lhs: scatter ``ct[y]`` back to ``p`` = a convolution of ``ct`` dilated by
  ``s`` (``lhs_dilation = s``) with the spatially reversed kernel (``rhs_dilation = rd``),
  its two feature roles swapped; padding ``(E - 1 - lo, Ld - Yd + lo)`` shifts by the
  forward padding and reaches exactly the ``Ld`` dilated input positions, and
  ``window_strides = ld`` keeps only the real (non-hole) ones. With ``G`` (or ``B``)
  groups the kernel's group factor moves from its output- to its input-feature axis and
  the result is a ``G``-feature-grouped convolution; for batch groups the group factor of
  the result's features is then moved back into its batch.
* transpose in rhs: ``ct_rhs[o, i, t] = sum_{n, y} lhs_p[n, i, t*rd + y*s] ct[n, o, y]``, a
  convolution whose "batch" is the lhs feature dim and whose contracted features are the
  lhs batch, with ``ct`` as the kernel: ``window_strides = rd``, ``rhs_dilation = s``,
  padding ``(lo, Yd + E - 1 - Ld - lo)``; feature groups become batch groups and vice versa.
* batching: a batch axis is folded into the operands' batch/feature dims (with one more
  level of grouping where groups already exist), and split out of the result.
"""

from __future__ import annotations

import numpy as np

from xnp.lax import _rules as R
from xnp.lax import convolution as C
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.tracing import core
from xnp.tracing.ad import Zero

__all__ = []

prim = C.conv_general_dilated_p


def _dilate(n, d):
    return 0 if n == 0 else (n - 1) * d + 1


# --------------------------------------------------------------------------- reshaping helpers


def _split(x, axis: int, k: int):
    """Axis ``axis`` (size ``k * m``) split into ``(k, m)`` at ``axis, axis + 1``."""
    shape = core.aval_of(x).shape
    return shape_ops.reshape(x, shape[:axis] + (k, shape[axis] // k) + shape[axis + 1:])


def _fold(x, src: int, dst: int):
    """Axis ``src`` merged into axis ``dst`` as its major factor (``src`` disappears; the
    merged axis sits at ``dst - (src < dst)``)."""
    shape = core.aval_of(x).shape
    order = [i for i in range(len(shape)) if i != src]
    order.insert(order.index(dst), src)
    new = [shape[i] for i in order if i != src]
    new[order.index(src)] = shape[src] * shape[dst]
    return shape_ops.reshape(x, tuple(new), None if order == sorted(order) else tuple(order))


def _swap_roles(spec):
    return (spec[1], spec[0]) + tuple(spec[2:])


def _spatial_sizes(lhs_aval, rhs_aval, ct_aval, dimension_numbers, window_strides, padding,
                   lhs_dilation, rhs_dilation):
    """Per spatial dim: ``(E, Ld, Yd, lo)`` (window extent, dilated input and output sizes,
    low padding) of the forward convolution."""
    lspec, rspec, ospec = dimension_numbers
    for d_in, d_k, d_out, (lo, _), s, ld, rd in zip(lspec[2:], rspec[2:], ospec[2:], padding,
                                                    window_strides, lhs_dilation, rhs_dilation):
        yield (_dilate(rhs_aval.shape[d_k], rd), _dilate(lhs_aval.shape[d_in], ld),
               _dilate(ct_aval.shape[d_out], s), lo)


# --------------------------------------------------------------------------- jvp


def _jvp_lhs(t, lhs, rhs, **params):
    return prim.bind(t, rhs, **params)


def _jvp_rhs(t, lhs, rhs, **params):
    return prim.bind(lhs, t, **params)


prim.jvp = R.defjvp(prim, _jvp_lhs, _jvp_rhs)


# --------------------------------------------------------------------------- transpose


def _bind_in(dtype, x, y, **params):
    """The convolution of ``x`` and ``y`` computed in ``dtype`` (the cotangent's, wider than
    the operands' when ``preferred_element_type`` widened the result)."""
    return prim.bind(*[ew.convert_element_type(v, dtype) if core.aval_of(v).dtype != dtype
                       else v for v in (x, y)], **params)


def _transpose_lhs(ct, lhs_aval, rhs, *, window_strides, padding, lhs_dilation, rhs_dilation,
                   dimension_numbers, feature_group_count, batch_group_count, **extra):
    lspec, rspec, ospec = dimension_numbers
    ra, ca = core.aval_of(rhs), core.aval_of(ct)
    groups = max(feature_group_count, batch_group_count)
    kernel = shape_ops.rev(rhs, tuple(rspec[2:]))
    if groups > 1:  # (G*Oq, I) features -> (Oq, G*I): the group factor moves to the I axis
        kernel = _split(kernel, rspec[0], groups)
        kernel = _fold(kernel, rspec[0], rspec[1] + (rspec[1] > rspec[0]))
    pads = tuple((ext - 1 - lo, l_dil - y_dil + lo) for ext, l_dil, y_dil, lo in _spatial_sizes(
        lhs_aval, ra, ca, dimension_numbers, window_strides, padding, lhs_dilation,
        rhs_dilation))
    out = _bind_in(ca.dtype, ct, kernel, window_strides=lhs_dilation, padding=pads,
                   lhs_dilation=window_strides, rhs_dilation=rhs_dilation,
                   dimension_numbers=C.ConvDimensionNumbers(ospec, _swap_roles(rspec), lspec),
                   feature_group_count=groups, batch_group_count=1,
                   precision=extra.get("precision"), preferred_element_type=None)
    if batch_group_count > 1:  # features (B*C) -> the B factor joins the batch, as (B, N/B)
        out = _split(out, lspec[1], batch_group_count)
        out = _fold(out, lspec[1], lspec[0] + (lspec[0] > lspec[1]))
    return ew.convert_element_type(out, lhs_aval.dtype) if ca.dtype != lhs_aval.dtype else out


def _transpose_rhs(ct, lhs, rhs_aval, *, window_strides, padding, lhs_dilation, rhs_dilation,
                   dimension_numbers, feature_group_count, batch_group_count, **extra):
    lspec, rspec, ospec = dimension_numbers
    la, ca = core.aval_of(lhs), core.aval_of(ct)
    if any(ca.shape[d] == 0 for d in ospec[2:]):  # no output positions: nothing flows back
        return Zero(rhs_aval)
    pads = tuple((lo, y_dil + ext - 1 - l_dil - lo) for ext, l_dil, y_dil, lo in _spatial_sizes(
        la, rhs_aval, ca, dimension_numbers, window_strides, padding, lhs_dilation,
        rhs_dilation))
    out = _bind_in(ca.dtype, lhs, ct, window_strides=rhs_dilation, padding=pads,
                   lhs_dilation=lhs_dilation, rhs_dilation=window_strides,
                   dimension_numbers=C.ConvDimensionNumbers(
                       _swap_roles(lspec), _swap_roles(ospec), _swap_roles(rspec)),
                   feature_group_count=batch_group_count, batch_group_count=feature_group_count,
                   precision=extra.get("precision"), preferred_element_type=None)
    return ew.convert_element_type(out, rhs_aval.dtype) if ca.dtype != rhs_aval.dtype else out


def _transpose(ct, lhs, rhs, **params):
    if R.is_undefined(lhs) and R.is_undefined(rhs):
        raise AssertionError("internal error in xnp: conv_general_dilated transposed in both "
                             "operands")
    if R.is_undefined(lhs):
        return [_transpose_lhs(ct, lhs.aval, rhs, **params), None]
    return [None, _transpose_rhs(ct, lhs, rhs.aval, **params)]


prim.transpose = R.zero_ct_passthrough(_transpose)


# --------------------------------------------------------------------------- batching


def _batch(vals, dims, *, dimension_numbers, feature_group_count, batch_group_count, **params):
    (lhs, rhs), (dl, dr) = vals, dims
    lspec, rspec, ospec = dimension_numbers
    k = R.batch_size(vals, dims)
    groups = {"feature_group_count": feature_group_count, "batch_group_count": batch_group_count}
    if k == 0:  # group counts cannot absorb an empty batch: the result is empty
        la = core.aval_of(lhs).update(shape=tuple(
            n for i, n in enumerate(core.aval_of(lhs).shape) if i != dl))
        ra = core.aval_of(rhs).update(shape=tuple(
            n for i, n in enumerate(core.aval_of(rhs).shape) if i != dr))
        out = prim.abstract_eval(la, ra, dimension_numbers=dimension_numbers, **groups, **params)
        zero = np.zeros((), out.dtype)
        return shape_ops.broadcast_in_dim(zero, (0,) + out.shape, ()), 0
    if dl is not None:
        lhs = R.bdim_to_front(lhs, dl, k)
    if dr is not None:
        rhs = R.bdim_to_front(rhs, dr, k)
    if dl is not None and dr is not None:
        # one more group level: (k, G*I) lhs features / (k, B*Nb) lhs batch, (k, O) kernels
        if batch_group_count > 1:
            lhs = _fold(lhs, 0, lspec[0] + 1)
            groups["batch_group_count"] *= k
        else:
            lhs = _fold(lhs, 0, lspec[1] + 1)
            groups["feature_group_count"] *= k
        rhs = _fold(rhs, 0, rspec[0] + 1)
        out_axis = ospec[1]
    elif dl is not None:
        if batch_group_count > 1:  # batch (k, B, Nb) -> (B, k*Nb): batch groups stay major
            lhs = _split(lhs, lspec[0] + 1, batch_group_count)
            lhs = _fold(lhs, 0, lspec[0] + 2)
            lhs = _fold(lhs, lspec[0], lspec[0] + 1)
        else:
            lhs = _fold(lhs, 0, lspec[0] + 1)
        out_axis = ospec[0]
    else:
        gc = feature_group_count * batch_group_count
        if gc > 1:  # kernels (k, gc, Oq) -> (gc, k*Oq): groups stay major
            rhs = _split(rhs, rspec[0] + 1, gc)
            rhs = _fold(rhs, 0, rspec[0] + 2)
            rhs = _fold(rhs, rspec[0], rspec[0] + 1)
        else:
            rhs = _fold(rhs, 0, rspec[0] + 1)
        out = prim.bind(lhs, rhs, dimension_numbers=dimension_numbers, **groups, **params)
        if gc > 1:  # features (gc, k, Oq) -> k, (gc*Oq)
            out = _split(_split(out, ospec[1], gc), ospec[1] + 1, k)
            return _fold(out, ospec[1], ospec[1] + 2), ospec[1]
        return _split(out, ospec[1], k), ospec[1]
    out = prim.bind(lhs, rhs, dimension_numbers=dimension_numbers, **groups, **params)
    return _split(out, out_axis, k), out_axis


prim.batch = _batch
