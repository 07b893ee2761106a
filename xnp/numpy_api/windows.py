"""Window functions (``bartlett``, ``blackman``, ``hamming``, ``hanning``,
``kaiser``) and bit packing (``packbits``, ``unpackbits``).

Window lengths ``M`` are static (they are the output shape); the sample grid is
static metadata, the window values are computed with ``xnp.lax`` (so ``kaiser``'s
``beta`` may be traced and differentiated). Results are float64, as NumPy.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api._util import asarray_for, normalize_axis, promote_to
from xnp.numpy_api.transcendental import i0
from xnp.tracing import core

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser", "packbits", "unpackbits"]

_F64 = np.dtype(np.float64)
_U8 = np.dtype(np.uint8)


def _const(value, dtype=_F64):
    return core.lift(np.asarray(value, dtype=dtype))


def _length(fname, M) -> float:
    if isinstance(M, core.Tracer) or type(M) is core.Array:
        raise TypeError(f"xnp.{fname}: `M` must be a static number (it is the output length)")
    return float(M)


def _cosine_window(fname, M, coeffs):
    """``sum_k coeffs[k] * cos(k * pi * n / (M - 1))`` over NumPy's grid
    ``n = arange(1 - M, M, 2)``; empty for ``M < 1``, ``[1.]`` for ``M == 1``."""
    m = _length(fname, M)
    if m < 1:
        return _const(np.zeros(0))
    if m == 1:
        return _const(np.ones(1))
    t = lax.mul(_const(np.arange(1 - m, m, 2)), _const(np.pi / (m - 1)))
    out = lax.broadcast_in_dim(_const(coeffs[0]), core.aval_of(t).shape, ())
    for k, a in enumerate(coeffs[1:], start=1):
        out = lax.add(out, lax.mul(_const(a), lax.cos(lax.mul(t, _const(float(k))))))
    return out


def hanning(M):
    """The Hann window ``0.5 + 0.5 cos(pi n / (M - 1))`` of static length ``M``
    (float64; empty for ``M < 1``)."""
    return _cosine_window("hanning", M, (0.5, 0.5))


def hamming(M):
    """The Hamming window ``0.54 + 0.46 cos(pi n / (M - 1))`` (float64, static ``M``)."""
    return _cosine_window("hamming", M, (0.54, 0.46))


def blackman(M):
    """The Blackman window ``0.42 + 0.5 cos(pi n/(M-1)) + 0.08 cos(2 pi n/(M-1))``
    (float64, static ``M``)."""
    return _cosine_window("blackman", M, (0.42, 0.5, 0.08))


def bartlett(M):
    """The triangular Bartlett window of static length ``M``: ``1 - |n| / (M - 1)``
    on NumPy's grid (float64; empty for ``M < 1``)."""
    m = _length("bartlett", M)
    if m <= 1:
        return _cosine_window("bartlett", M, (1.0,))
    n = _const(np.arange(1 - m, m, 2))
    return lax.sub(_const(1.0), lax.div(lax.abs(n), _const(m - 1)))


def kaiser(M, beta):
    """The Kaiser window ``i0(beta sqrt(1 - ((n - a) / a)**2)) / i0(beta)``,
    ``a = (M - 1) / 2``, ``n = 0..M-1``.

    ``M`` is static; ``beta`` (a real scalar) may be traced and differentiated.
    Returns float64 of shape ``(M,)`` (empty for ``M < 1``).
    """
    m = _length("kaiser", M)
    b = promote_to("kaiser", asarray_for("kaiser", beta, "beta"), _F64)
    if m == 1:
        return _const(np.ones(1))
    n = np.arange(0, m)
    if n.size == 0:
        return _const(np.zeros(0))
    alpha = (m - 1) / 2.0
    r = _const(1.0 - ((n - alpha) / alpha) ** 2.0)
    arg = lax.mul(lax.broadcast_in_dim(b, r.shape, ()), lax.sqrt(r))
    return lax.div(i0(arg), lax.broadcast_in_dim(i0(b), r.shape, ()))


# --------------------------------------------------------------------------- bits


def _check_bitorder(fname, bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError(f"xnp.{fname}: 'order' must be either 'little' or 'big'")
    return bitorder == "little"


def _bit_weights(little, shape, axis):
    w = (1 << np.arange(8)) if little else (1 << np.arange(7, -1, -1))
    return lax.broadcast_in_dim(_const(w, _U8), shape, (axis,))


def packbits(a, /, axis=None, bitorder="big"):
    """Pack the truth values of ``a`` into bytes, 8 per byte along ``axis``.

    Parameters
    ----------
    a : array_like
        Integer or bool (non-zero means a 1 bit).
    axis : int, optional
        Axis to pack (static); None packs the flattened array.
    bitorder : {'big', 'little'}
        Whether the first element goes to the most or least significant bit.

    Returns
    -------
    Array
        uint8; the packed axis has ``ceil(n / 8)`` entries (missing bits are 0).

    Raises
    ------
    TypeError
        ``a`` is not integer or bool.
    ValueError
        Unknown ``bitorder``.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    x = asarray_for("packbits", a)
    dt = core.aval_of(x).dtype
    if dt not in kit.INTEGER and dt != np.bool_:
        raise TypeError("xnp.packbits: Expected an input array of integer or boolean data type")
    little = _check_bitorder("packbits", bitorder)
    if axis is None or core.aval_of(x).ndim == 0:  # NumPy treats 0-d input as 1-d
        x = lax.reshape(x, (core.aval_of(x).size,))
    ax = 0 if axis is None else normalize_axis("packbits", axis, core.aval_of(x).ndim)
    shape = core.aval_of(x).shape
    bits = lax.convert_element_type(lax.ne(x, _const(0, dt)), _U8)
    n = shape[ax]
    nbytes = -(-n // 8)
    pad = [(0, 0, 0)] * len(shape)
    pad[ax] = (0, nbytes * 8 - n, 0)
    bits = lax.pad(bits, _const(0, _U8), pad)
    split = shape[:ax] + (nbytes, 8) + shape[ax + 1:]
    bits = lax.reshape(bits, split)
    bits = lax.mul(bits, _bit_weights(little, split, ax + 1))
    return lax.reduce_sum(bits, (ax + 1,))


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Unpack the uint8 ``a`` into its bits (0/1 as uint8) along ``axis``.

    Parameters
    ----------
    a : array_like
        uint8 data.
    axis : int, optional
        Axis to unpack (static); None unpacks the flattened array.
    count : int, optional
        Keep this many bits along the axis (static): more than available pads with
        zeros, negative drops that many from the end.
    bitorder : {'big', 'little'}
        Bit order within each byte.

    Returns
    -------
    Array
        uint8; the unpacked axis has ``8 * n`` entries (or as ``count`` says).

    Raises
    ------
    TypeError
        ``a`` is not uint8.
    ValueError
        Unknown ``bitorder``; ``count`` removes more bits than there are.
    numpy.exceptions.AxisError
        ``axis`` out of range.
    """
    x = asarray_for("unpackbits", a)
    if core.aval_of(x).dtype != _U8:
        raise TypeError("xnp.unpackbits: Expected an input array of unsigned byte data type")
    little = _check_bitorder("unpackbits", bitorder)
    if axis is None or core.aval_of(x).ndim == 0:  # NumPy treats 0-d input as 1-d
        x = lax.reshape(x, (core.aval_of(x).size,))
    ax = 0 if axis is None else normalize_axis("unpackbits", axis, core.aval_of(x).ndim)
    shape = core.aval_of(x).shape
    wide = shape[:ax + 1] + (8,) + shape[ax + 1:]
    xb = lax.broadcast_in_dim(x, wide, tuple(d for d in range(len(wide)) if d != ax + 1))
    bits = lax.ne(lax.and_(xb, _bit_weights(little, wide, ax + 1)), _const(0, _U8))
    bits = lax.convert_element_type(bits, _U8)
    n = shape[ax] * 8
    bits = lax.reshape(bits, shape[:ax] + (n,) + shape[ax + 1:])
    if count is None:
        return bits
    count = int(count)
    keep = count if count >= 0 else n + count
    if keep < 0:
        raise ValueError(f"xnp.unpackbits: -count must be smaller than the number of bits "
                         f"({n}), got count={count}")
    pad = [(0, 0, 0)] * len(shape)
    pad[ax] = (0, keep - n, 0)  # negative high padding slices off the end
    return lax.pad(bits, _const(0, _U8), pad)
