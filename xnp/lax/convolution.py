"""Convolutions: ``conv_general_dilated`` (XLA's ConvGeneralDilated) and its
convenience wrappers ``conv``, ``conv_with_general_padding`` and
``conv_dimension_numbers``.

Semantics (XLA / StableHLO ``convolution``, which is a cross-correlation: the
kernel is not flipped). With ``lhs`` viewed as ``(N, C, *spatial)`` and ``rhs`` as
``(O, I, *window)`` through ``dimension_numbers``:

* ``lhs`` is dilated (``lhs_dilation - 1`` zeros between elements) and padded
  with ``(lo, hi)`` zeros per spatial dimension (negative padding crops);
* the window of extent ``(k - 1) * rhs_dilation + 1`` slides with
  ``window_strides``; each output element is the dot product of a window of the
  padded ``lhs`` with the (dilated) kernel, summed over the input features;
* ``feature_group_count = G``: the ``C = G * I`` input features and the ``O``
  output features are split into ``G`` contiguous groups, group ``g`` of the
  output only sees group ``g`` of the input;
* ``batch_group_count = B``: the ``N`` batch entries and the ``O`` output
  features are split into ``B`` contiguous groups; output feature group ``b``
  is computed from batch group ``b``, and the output batch is ``N / B``. At most
  one of the two group counts exceeds 1.

Output spatial size per dimension: with the padded size ``P = dilate(n) + lo + hi``
and the window extent ``E``, ``(P - E) // stride + 1`` when ``P >= E``, else 0
(as XLA). Transformation rules: at the end of this module.
"""

from __future__ import annotations

import operator
from collections import namedtuple

import numpy as np

from xnp.lax import _kit as kit
from xnp.lax import _rules as R
from xnp.lax import elementwise as ew
from xnp.lax import shape_ops
from xnp.lax.products import PRECISIONS
from xnp.lax.windowed import padtype_to_pads
from xnp.tracing import Array, ShapedArray, core, errors
from xnp.tracing.ad import Zero

__all__ = [
    "ConvDimensionNumbers", "conv_dimension_numbers", "conv_general_dilated", "conv",
    "conv_with_general_padding", "conv_general_dilated_p",
]

_NAME = "conv_general_dilated"


class ConvDimensionNumbers(namedtuple("ConvDimensionNumbers",
                                      ["lhs_spec", "rhs_spec", "out_spec"])):
    """Where each logical dimension of a convolution lives, as in JAX.

    ``lhs_spec = (batch, feature, *spatial)``, ``rhs_spec = (out_feature,
    in_feature, *spatial)``, ``out_spec = (batch, feature, *spatial)``: each a
    tuple of dimension indices of the corresponding array, spatial dimensions
    paired up in order.
    """

    __slots__ = ()


def _err(msg: str, cls=ValueError):
    return cls(f"xnp.lax.{_NAME}: {msg}")


def _spec_from_string(spec: str, pair: str, order: str) -> tuple[int, ...]:
    """Indices in ``spec`` of ``pair[0]``, ``pair[1]``, then of the spatial letters in the
    order they appear in ``order`` (the kernel spec: it decides the spatial order)."""
    spatial = [c for c in order if c not in "OI"]
    return (spec.index(pair[0]), spec.index(pair[1])) + tuple(spec.index(c) for c in spatial)


def _specs_from_strings(lhs: str, rhs: str, out: str):
    pairs = ("NC", "OI", "NC")
    for what, spec, pair in zip(("lhs", "rhs", "out"), (lhs, rhs, out), pairs):
        if not isinstance(spec, str) or any(spec.count(c) != 1 for c in pair) or len(
                set(spec)) != len(spec):
            raise _err(f"`dimension_numbers` {what} spec {spec!r} must be a string naming "
                       f"{pair[0]!r} and {pair[1]!r} once each and its spatial dimensions once.",
                       TypeError)
    spatial = [set(s) - set(p) for s, p in zip((lhs, rhs, out), pairs)]
    if not spatial[0] == spatial[1] == spatial[2]:
        raise _err(f"`dimension_numbers` ({lhs!r}, {rhs!r}, {out!r}) must name the same spatial "
                   "dimensions in all three specs.", TypeError)
    return ConvDimensionNumbers(*(_spec_from_string(s, p, rhs)
                                  for s, p in zip((lhs, rhs, out), pairs)))


def conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers) -> ConvDimensionNumbers:
    """Canonical :class:`ConvDimensionNumbers` for operands of the given shapes.

    ``dimension_numbers`` is None (``NCHW``/``OIHW``/``NCHW``-style: the identity
    layout), a ``ConvDimensionNumbers`` (or 3-tuple of int sequences), or a 3-tuple
    of strings such as ``("NHWC", "HWIO", "NHWC")`` where ``N``/``C`` mark the lhs
    and out batch/feature dims, ``O``/``I`` the kernel's output/input feature dims
    and any other letters the spatial dims (paired by letter; their order is the
    kernel spec's). Raises ``TypeError`` for malformed specs and ``ValueError`` when
    they do not fit the operand ranks.
    """
    lhs_rank, rhs_rank = len(lhs_shape), len(rhs_shape)
    if lhs_rank != rhs_rank:
        raise _err(f"lhs and rhs must have equal ranks, got shapes {tuple(lhs_shape)} and "
                   f"{tuple(rhs_shape)}.", TypeError)
    if lhs_rank < 2:
        raise _err(f"operands need rank >= 2 (batch/feature dims), got shapes "
                   f"{tuple(lhs_shape)} and {tuple(rhs_shape)}.", TypeError)
    if dimension_numbers is None:
        ident = tuple(range(lhs_rank))
        return ConvDimensionNumbers(ident, ident, ident)
    try:
        lhs, rhs, out = dimension_numbers
    except (TypeError, ValueError):
        raise _err("`dimension_numbers` must be None, a ConvDimensionNumbers or a 3-tuple of "
                   f"specs, got {dimension_numbers!r}", TypeError) from None
    if all(isinstance(s, str) for s in (lhs, rhs, out)):
        dn = _specs_from_strings(lhs, rhs, out)
    else:
        dn = ConvDimensionNumbers(*(kit.int_tuple(_NAME, "dimension_numbers", s)
                                    for s in (lhs, rhs, out)))
    for what, spec in zip(("lhs_spec", "rhs_spec", "out_spec"), dn):
        if sorted(spec) != list(range(lhs_rank)):
            raise _err(f"`dimension_numbers` {what}={spec} must be a permutation of "
                       f"range({lhs_rank}) for operands of rank {lhs_rank}.")
    return dn


def _dilate(n: int, d: int) -> int:
    return 0 if n == 0 else (n - 1) * d + 1


def conv_output_spatial(in_sizes, window, strides, padding, lhs_dilation, rhs_dilation):
    """Output spatial sizes (0 where the window does not fit the padded input)."""
    out = []
    for n, k, s, (lo, hi), ld, rd in zip(in_sizes, window, strides, padding, lhs_dilation,
                                         rhs_dilation):
        padded = _dilate(n, ld) + lo + hi
        extent = _dilate(k, rd)
        out.append(0 if padded < extent else (padded - extent) // s + 1)
    return tuple(out)


def _check_params(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                  dimension_numbers, feature_group_count, batch_group_count):
    shapes = f"({errors.aval_str(lhs)}, {errors.aval_str(rhs)})"
    nsp = lhs.ndim - 2
    for what, vals in (("window_strides", window_strides), ("padding", padding),
                       ("lhs_dilation", lhs_dilation), ("rhs_dilation", rhs_dilation)):
        if len(vals) != nsp:
            raise _err(f"`{what}`={vals} needs one entry per spatial dimension ({nsp}) of "
                       f"the operands {shapes}.")
    for what, vals in (("window_strides", window_strides), ("lhs_dilation", lhs_dilation),
                       ("rhs_dilation", rhs_dilation)):
        if any(v < 1 for v in vals):
            raise _err(f"`{what}`={vals} must be >= 1 {shapes}.")
    for what, v in (("feature_group_count", feature_group_count),
                    ("batch_group_count", batch_group_count)):
        if v < 1:
            raise _err(f"`{what}`={v} must be >= 1.")
    if feature_group_count > 1 and batch_group_count > 1:
        raise _err(f"at most one of feature_group_count={feature_group_count} and "
                   f"batch_group_count={batch_group_count} may exceed 1.")
    dn = dimension_numbers
    if not isinstance(dn, ConvDimensionNumbers) or any(
            sorted(s) != list(range(lhs.ndim)) for s in dn):
        raise _err(f"`dimension_numbers`={dn!r} must be a ConvDimensionNumbers of "
                   f"permutations of range({lhs.ndim}); use xnp.lax.conv_dimension_numbers.",
                   TypeError)


def _conv_shape(lhs: ShapedArray, rhs: ShapedArray, *, window_strides, padding, lhs_dilation,
                rhs_dilation, dimension_numbers, feature_group_count, batch_group_count,
                precision=None, preferred_element_type=None) -> tuple[int, ...]:
    shapes = f"({errors.aval_str(lhs)}, {errors.aval_str(rhs)})"
    if lhs.ndim != rhs.ndim or lhs.ndim < 2:
        raise _err(f"operands must have equal ranks >= 2, got {shapes}.", TypeError)
    _check_params(lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
                  dimension_numbers, feature_group_count, batch_group_count)
    lspec, rspec, ospec = dimension_numbers
    n, c = lhs.shape[lspec[0]], lhs.shape[lspec[1]]
    o, i = rhs.shape[rspec[0]], rhs.shape[rspec[1]]
    g, b = feature_group_count, batch_group_count
    if c % g:
        raise _err(f"the lhs feature dimension (size {c}) must be a multiple of "
                   f"feature_group_count={g} {shapes}.")
    if c // g != i:
        raise _err(f"feature count mismatch: lhs has {c} features"
                   + (f" in {g} groups of {c // g}" if g > 1 else "")
                   + f", but the rhs input-feature dimension has size {i} {shapes}.", TypeError)
    if o % g:
        raise _err(f"the rhs output-feature dimension (size {o}) must be a multiple of "
                   f"feature_group_count={g} {shapes}.")
    if n % b:
        raise _err(f"the lhs batch dimension (size {n}) must be a multiple of "
                   f"batch_group_count={b} {shapes}.")
    if o % b:
        raise _err(f"the rhs output-feature dimension (size {o}) must be a multiple of "
                   f"batch_group_count={b} {shapes}.")
    window = tuple(rhs.shape[d] for d in rspec[2:])
    if any(k < 1 for k in window):
        raise _err(f"the kernel's spatial dimensions {window} must be >= 1 {shapes}.")
    spatial = conv_output_spatial([lhs.shape[d] for d in lspec[2:]], window, window_strides,
                                  padding, lhs_dilation, rhs_dilation)
    out = [0] * lhs.ndim
    out[ospec[0]] = n // b
    out[ospec[1]] = o
    for d, s in zip(ospec[2:], spatial):
        out[d] = s
    return tuple(out)


_KINDS = (kit.SIGNED, kit.UNSIGNED, kit.FLOATING, kit.COMPLEX)


def _conv_dtype(lhs: ShapedArray, rhs: ShapedArray, *, preferred_element_type=None,
                **params) -> np.dtype:
    dt = kit.same_dtype(_NAME, lhs, rhs)
    kit.check_dtype(_NAME, lhs, kit.NUMERIC)
    if preferred_element_type is None:
        return dt
    pref = np.dtype(preferred_element_type)
    same_kind = any(dt in cat and pref in cat for cat in _KINDS)
    if pref != dt and not (same_kind and pref.itemsize >= dt.itemsize):
        raise _err(f"preferred_element_type={pref.name} must be the operand dtype {dt.name} "
                   f"or a wider dtype of the same kind ({errors.aval_str(lhs)}, "
                   f"{errors.aval_str(rhs)}).", TypeError)
    return pref


def conv_accumulation_dtype(out_dtype) -> np.dtype:
    """The dtype a convolution with result ``out_dtype`` accumulates in, on every backend:
    float32 for floats narrower than 32 bits (rounded once at the end, as XLA does),
    else ``out_dtype`` itself (integers wrap, which is exact modulo the dtype's range)."""
    dt = np.dtype(out_dtype)
    return np.dtype(np.float32) if dt in kit.FLOATING and dt.itemsize < 4 else dt


# --------------------------------------------------------------------------- wrappers


def _ints(what: str, values, nsp: int, default: int = 1) -> tuple[int, ...]:
    if values is None:
        return (default,) * nsp
    return kit.int_tuple(_NAME, what, values)


def _padding_pairs(padding, in_sizes, window, strides):
    if isinstance(padding, str):
        kind = padding.upper()
        if kind not in ("SAME", "VALID", "SAME_LOWER"):
            raise _err(f"unknown padding {padding!r}; use 'SAME', 'SAME_LOWER', 'VALID' or a "
                       "sequence of (low, high) pairs.")
        pads = padtype_to_pads(in_sizes, window, strides, "SAME" if kind == "SAME_LOWER"
                               else kind)
        # SAME_LOWER puts the odd extra padding element at the low end
        return tuple((hi, lo) for lo, hi in pads) if kind == "SAME_LOWER" else pads
    try:
        pairs = tuple((operator.index(lo), operator.index(hi)) for lo, hi in padding)
    except (TypeError, ValueError):
        raise _err(f"`padding` must be 'SAME', 'SAME_LOWER', 'VALID' or a sequence of "
                   f"(low, high) int pairs, got {padding!r}", TypeError) from None
    return pairs


def _canonical_precision(precision):
    if precision is None:
        return None
    pair = (precision, precision) if isinstance(precision, str) else tuple(precision)
    if len(pair) != 2 or any(not isinstance(p, str) or p.upper() not in PRECISIONS for p in pair):
        raise _err(f"`precision` must be None, one of {PRECISIONS} or a pair of them, got "
                   f"{precision!r}")
    return tuple(p.upper() for p in pair)


def conv_general_dilated(lhs: Array, rhs: Array, window_strides, padding, lhs_dilation=None,
                         rhs_dilation=None, dimension_numbers=None, feature_group_count=1,
                         batch_group_count=1, precision=None,
                         preferred_element_type=None) -> Array:
    """General n-dimensional convolution with dilations and groups (XLA's ConvGeneralDilated).

    Parameters
    ----------
    lhs, rhs : Array
        Input and kernel, equal dtypes (any numeric dtype; bool raises ``TypeError``)
        and equal ranks ``2 + nsp`` (``nsp`` spatial dimensions).
    window_strides : sequence of int
        Stride per spatial dimension (>= 1).
    padding : str or sequence of (int, int)
        ``(low, high)`` per spatial dimension (negative values crop), or
        ``"VALID"`` (none), ``"SAME"`` (output ``ceil(n / stride)``, the odd element
        at the high end) or ``"SAME_LOWER"`` (odd element at the low end), computed
        from the undilated lhs size and the dilated kernel extent, as in JAX.
    lhs_dilation, rhs_dilation : sequence of int, optional
        Input ("transposed convolution") and kernel ("atrous") dilation, default 1.
    dimension_numbers : None, ConvDimensionNumbers or 3-tuple of str
        Operand layouts (see :func:`conv_dimension_numbers`); None means
        ``NC...``/``OI...``/``NC...``.
    feature_group_count, batch_group_count : int
        Grouped (e.g. depthwise) convolution; see the module docstring.
    precision : None, str or pair of str
        Passed to XLA (``DEFAULT``/``HIGH``/``HIGHEST``); None means HIGHEST.
    preferred_element_type : dtype, optional
        Result (and accumulator) dtype: the operand dtype or a wider one of the same kind.

    Returns
    -------
    Array
        Shape given by ``out_spec``: batch ``N / batch_group_count``, features ``O``,
        spatial sizes as in the module docstring. Dtype: the operands' (or
        ``preferred_element_type``). Floats narrower than 32 bits
        (float16, bfloat16, float8) accumulate in float32 and round once.

    Raises
    ------
    TypeError
        Dtypes differ or are bool, ranks differ, malformed dimension numbers,
        feature count mismatch (``C != feature_group_count * I``).
    ValueError
        Wrong number of strides/padding/dilation entries, non-positive strides,
        dilations or kernel sizes, group counts that do not divide the batch/feature
        sizes, both group counts > 1.
    """
    la, ra = core.aval_of(lhs), core.aval_of(rhs)
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    nsp = la.ndim - 2
    strides = _ints("window_strides", window_strides, nsp)
    ldil = _ints("lhs_dilation", lhs_dilation, nsp)
    rdil = _ints("rhs_dilation", rhs_dilation, nsp)
    if isinstance(padding, str):
        if len(strides) != nsp or len(rdil) != nsp:
            raise _err(f"`window_strides`={strides} and `rhs_dilation`={rdil} need one entry "
                       f"per spatial dimension ({nsp}).")
        window = [_dilate(ra.shape[d], r) for d, r in zip(dn.rhs_spec[2:], rdil)]
        padding = _padding_pairs(padding, [la.shape[d] for d in dn.lhs_spec[2:]], window,
                                 strides)
    else:
        padding = _padding_pairs(padding, None, None, None)
    pref = None if preferred_element_type is None else np.dtype(preferred_element_type)
    return conv_general_dilated_p.bind(
        lhs, rhs, window_strides=strides, padding=padding, lhs_dilation=ldil,
        rhs_dilation=rdil, dimension_numbers=dn,
        feature_group_count=operator.index(feature_group_count),
        batch_group_count=operator.index(batch_group_count),
        precision=_canonical_precision(precision), preferred_element_type=pref)


def conv(lhs: Array, rhs: Array, window_strides, padding, precision=None,
         preferred_element_type=None) -> Array:
    """:func:`conv_general_dilated` with ``NC...``/``OI...`` layouts, no dilation, no groups.

    ``padding`` is ``"SAME"``, ``"SAME_LOWER"``, ``"VALID"`` or ``(low, high)`` pairs.
    Same dtype/shape rules and errors as :func:`conv_general_dilated`.
    """
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs: Array, rhs: Array, window_strides, padding, lhs_dilation,
                              rhs_dilation, precision=None, preferred_element_type=None) -> Array:
    """:func:`conv_general_dilated` with ``NC...``/``OI...`` layouts and no groups.

    Same dtype/shape rules and errors as :func:`conv_general_dilated`.
    """
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=lhs_dilation,
                                rhs_dilation=rhs_dilation, precision=precision,
                                preferred_element_type=preferred_element_type)


# --------------------------------------------------------------------------- transformation rules
# Transformation rules of ``conv_general_dilated`` (registered on the primitive).
#
# Notation: canonical views ``lhs (N, C, *in)``, ``rhs (O, I, *k)``, ``out (N/B, O, *y)``;
# per spatial dim stride ``s``, padding ``(lo, hi)``, dilations ``ld``/``rd``, dilated sizes
# ``Ld = dilate(n, ld)``, ``Yd = dilate(y, s)``, window extent ``E = dilate(k, rd)``;
# ``G``/``B`` the feature/batch group counts. The convolution reads padded input position
# ``p = y*s + t*rd`` for output ``y`` and tap ``t``.
#
# * jvp: bilinear, ``conv(dlhs, rhs) + conv(lhs, drhs)``.
# * transpose in lhs: scatter ``ct[y]`` back to ``p`` = a convolution of ``ct`` dilated by
#   ``s`` (``lhs_dilation = s``) with the spatially reversed kernel (``rhs_dilation = rd``),
#   its two feature roles swapped; padding ``(E - 1 - lo, Ld - Yd + lo)`` shifts by the
#   forward padding and reaches exactly the ``Ld`` dilated input positions, and
#   ``window_strides = ld`` keeps only the real (non-hole) ones. With ``G`` (or ``B``)
#   groups the kernel's group factor moves from its output- to its input-feature axis and
#   the result is a ``G``-feature-grouped convolution; for batch groups the group factor of
#   the result's features is then moved back into its batch.
# * transpose in rhs: ``ct_rhs[o, i, t] = sum_{n, y} lhs_p[n, i, t*rd + y*s] ct[n, o, y]``, a
#   convolution whose "batch" is the lhs feature dim and whose contracted features are the
#   lhs batch, with ``ct`` as the kernel: ``window_strides = rd``, ``rhs_dilation = s``,
#   padding ``(lo, Yd + E - 1 - Ld - lo)``; feature groups become batch groups and vice versa.
# * batching: a batch axis is folded into the operands' batch/feature dims (with one more
#   level of grouping where groups already exist), and split out of the result.





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
    return _conv_p.bind(t, rhs, **params)


def _jvp_rhs(t, lhs, rhs, **params):
    return _conv_p.bind(lhs, t, **params)



# --------------------------------------------------------------------------- transpose


def _bind_in(dtype, x, y, **params):
    """The convolution of ``x`` and ``y`` computed in ``dtype`` (the cotangent's, wider than
    the operands' when ``preferred_element_type`` widened the result)."""
    return _conv_p.bind(*[ew.convert_element_type(v, dtype) if core.aval_of(v).dtype != dtype
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
                   dimension_numbers=ConvDimensionNumbers(ospec, _swap_roles(rspec), lspec),
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
                   dimension_numbers=ConvDimensionNumbers(
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
        out = _conv_p.abstract_eval(la, ra, dimension_numbers=dimension_numbers, **groups, **params)
        zero = np.zeros((), out.dtype)
        return shape_ops.broadcast_in_dim(zero, (0,) + out.shape, ()), 0
    if dl is not None:
        lhs = shape_ops.bdim_to_front(lhs, dl, k)
    if dr is not None:
        rhs = shape_ops.bdim_to_front(rhs, dr, k)
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
        out = _conv_p.bind(lhs, rhs, dimension_numbers=dimension_numbers, **groups, **params)
        if gc > 1:  # features (gc, k, Oq) -> k, (gc*Oq)
            out = _split(_split(out, ospec[1], gc), ospec[1] + 1, k)
            return _fold(out, ospec[1], ospec[1] + 2), ospec[1]
        return _split(out, ospec[1], k), ospec[1]
    out = _conv_p.bind(lhs, rhs, dimension_numbers=dimension_numbers, **groups, **params)
    return _split(out, out_axis, k), out_axis


conv_general_dilated_p = kit.primitive(
    _NAME,
    linear=True,
    shape=_conv_shape,
    dtype=_conv_dtype,
    weak_type=kit.never_weak,
    jvp=R.defjvp(_jvp_lhs, _jvp_rhs),
    transpose=R.zero_ct_passthrough(_transpose),
    batch=_batch,
)
_conv_p = conv_general_dilated_p  # short name for the rules above
