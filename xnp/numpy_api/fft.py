"""``xnp.fft``: NumPy's discrete Fourier transforms on :func:`xnp.lax.fft`.

Every transform is planned as NumPy computes it (one 1-D transform per entry of
``axes``, in NumPy's order) and then grouped into as few ``lax.fft`` calls as
possible: consecutive transforms over up to three distinct axes become one call on
those axes moved to the end (no transpose when they already are the trailing axes).
Before each call the input is zero-padded or cropped to the requested length along
each transformed axis (``lax.pad``, which crops with negative padding).

Dtypes follow NumPy 2: complex results are ``result_type(a.dtype, 1j)`` (complex64
for float16/float32/bfloat16 and complex64 input, complex128 for float64, integer and
bool input with x64 on), real results of ``irfft``/``hfft`` are
``result_type(a.real.dtype, 1.0)`` (float16 stays float16, integers give float64),
computed in float32 or float64. Normalisation ``norm`` is applied once after the
transforms, as one multiplication by the product of NumPy's per-axis factors.

Difference from NumPy: for float16 input NumPy rounds the normalisation factor
(``1/n``, ``1/sqrt(n)``) to float16 (a relative error up to about 5e-4); xnp applies
it in the float32 computation dtype.

All lengths and axes are static (Python ints), also under ``jit``.
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from xnp import lax
from xnp.lax.fft import FftType
from xnp.numpy_api import _util
from xnp.numpy_api._util import asarray_for, check_unsupported, normalize_axis, static_int
from xnp.numpy_api.creation import _check_device
from xnp.numpy_api.elementwise import multiply
from xnp.numpy_api.tiling import roll
from xnp.tracing import core, errors
from xnp.tracing.avals import ShapedArray
from xnp.tracing.sizes import check_array_size

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_FORWARD = {FftType.FFT: True, FftType.RFFT: True, FftType.IFFT: False, FftType.IRFFT: False}
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}
_REAL_TYPES = (FftType.RFFT, FftType.IRFFT)


# --------------------------------------------------------------------------- dtypes


def _complex_dtype(dt: np.dtype) -> np.dtype:
    """NumPy's ``result_type(dt, 1j)`` under xnp's promotion (x64 aware)."""
    weak_complex = ShapedArray((), np.dtype(np.complex128), True)
    return _util.result_dtype(ShapedArray((), dt), weak_complex)[0]


def _real_dtype(dt: np.dtype) -> np.dtype:
    """NumPy's ``result_type(real dtype of dt, 1.0)`` under xnp's promotion."""
    if dt.kind == "c":
        dt = np.dtype(np.float32 if dt.itemsize == 8 else np.float64)
    weak_float = ShapedArray((), np.dtype(np.float64), True)
    return _util.result_dtype(ShapedArray((), dt), weak_float)[0]


def _compute_complex(dt: np.dtype) -> np.dtype:
    """The complex dtype ``lax.fft`` runs in for the real result dtype ``dt``."""
    return np.dtype(np.complex128 if dt.itemsize >= 8 else np.complex64)


def _convert(x, dtype):
    if core.aval_of(x).dtype == dtype:
        return x
    return lax.convert_element_type(x, dtype)


# --------------------------------------------------------------------------- arguments


def _check_common(fname: str, norm, out) -> None:
    check_unsupported(fname, out=(out, None, "the transforms return a new array; assign "
                                               "the result instead"))
    if norm not in _SWAP:
        raise ValueError(f'xnp.{fname}: invalid norm value {norm!r}; should be "backward", '
                         f'"ortho" or "forward" (or None).')


def _length(fname: str, n, argname: str = "n") -> int:
    n = static_int(fname, n, argname)
    if n < 1:
        raise ValueError(f"xnp.{fname}: invalid number of FFT data points ({n}) specified "
                         f"in `{argname}`; it must be at least 1.")
    return n


def _one_axis(fname: str, a, n, axis, inverse_real: bool):
    """``(axis, n)`` of a 1-D transform; ``n`` defaults to the axis length (``irfft``/
    ``hfft``: ``2 * (length - 1)``)."""
    ndim = core.aval_of(a).ndim
    axis = normalize_axis(fname, axis, ndim)
    if n is None:
        m = core.aval_of(a).shape[axis]
        n = 2 * (m - 1) if inverse_real else m
    return axis, _length(fname, n)


def _nd_axes(fname: str, a, s, axes, inverse_real: bool):
    """NumPy's ``_cook_nd_args``: lists of axes and lengths (``s`` entries None or -1
    mean the default length of that axis)."""
    shape = core.aval_of(a).shape
    if axes is not None:
        axes = [normalize_axis(fname, ax, len(shape), "axes") for ax in axes]
    if s is None:
        s_list = [None] * (len(shape) if axes is None else len(axes))
    else:
        s_list = list(s)
        if axes is None:
            _util.warn(f"xnp.{fname}: `axes` should not be None if `s` is not None "
                       f"(deprecated in NumPy 2.0); pass axes=range(len(s)) explicitly.",
                       DeprecationWarning)
        if any(v is None for v in s_list):
            _util.warn(f"xnp.{fname}: None entries in `s` are deprecated (NumPy 2.0); "
                       f"pass the default length of that axis instead.",
                       DeprecationWarning)
    if axes is None:
        axes = [normalize_axis(fname, ax, len(shape), "axes") for ax in range(-len(s_list), 0)]
    if len(s_list) != len(axes):
        raise ValueError(f"xnp.{fname}: `s` and `axes` have different lengths "
                         f"({len(s_list)} and {len(axes)}).")
    lengths = []
    for i, (v, ax) in enumerate(zip(s_list, axes)):
        if v is None:  # the 1-D transform's default length
            v = 2 * (shape[ax] - 1) if inverse_real and i == len(axes) - 1 else shape[ax]
        elif isinstance(v, numbers.Integral) and v == -1:  # the whole input axis
            v = shape[ax]
        lengths.append(_length(fname, v, "s"))
    return axes, lengths


# --------------------------------------------------------------------------- planning


def _chunks(steps):
    """Group ``(axis, n, type)`` steps (in execution order) into ``lax.fft`` calls: up to
    three distinct axes each; an RFFT starts a call (it runs first in it) and an IRFFT
    ends one (it runs last in it)."""
    out = []
    for step in steps:
        cur = out[-1] if out else None
        if (cur is None or len(cur) == 3 or step[2] == FftType.RFFT
                or cur[-1][2] == FftType.IRFFT or any(step[0] == c[0] for c in cur)):
            out.append([step])
        else:
            cur.append(step)
    return out


def _resize(x, sizes: dict):
    """Zero-pad or crop ``x`` at the end of each axis in ``sizes`` to its size there."""
    aval = core.aval_of(x)
    config = [(0, sizes.get(d, n) - n, 0) for d, n in enumerate(aval.shape)]
    if all(hi == 0 for _, hi, _ in config):
        return x
    return lax.pad(x, np.zeros((), aval.dtype), tuple(config))


def _apply(x, chunk):
    """One ``lax.fft`` over the chunk's axes (the real-transform axis last)."""
    real = [c for c in chunk if c[2] in _REAL_TYPES]
    c2c = sorted(c for c in chunk if c not in real)
    order = c2c + real
    fft_type = order[-1][2]
    x = _resize(x, {ax: n // 2 + 1 if t == FftType.IRFFT else n for ax, n, t in order})
    ndim = core.aval_of(x).ndim
    axes = [c[0] for c in order]
    perm = [d for d in range(ndim) if d not in axes] + axes
    if perm != list(range(ndim)):
        x = lax.transpose(x, tuple(perm))
    x = lax.fft(x, fft_type, tuple(c[1] for c in order))
    if perm != list(range(ndim)):
        x = lax.transpose(x, tuple(int(i) for i in np.argsort(perm)))
    return x


def _run(x, steps, norm, out_dtype):
    """Execute ``steps``, scale by ``norm`` and convert to ``out_dtype``."""
    for chunk in _chunks(steps):
        x = _apply(x, chunk)
    forward = _FORWARD[steps[0][2]]
    total = math.prod(n for _, n, _ in steps)
    if norm == "ortho":
        scale = 1 / math.sqrt(total) if forward else math.sqrt(total)
    elif norm == "forward":
        scale = 1 / total if forward else total
    else:  # None / "backward": lax's IFFT/IRFFT already divide by the length
        scale = 1
    if scale != 1:
        x = lax.mul(x, np.asarray(scale, core.aval_of(x).dtype))
    return _convert(x, out_dtype)


def _c2c(fname, a, axes, lengths, norm, fft_type):
    """Complex transforms of ``a`` along ``axes`` (NumPy applies the last axis first)."""
    if not axes:
        return a
    out_dtype = _complex_dtype(core.aval_of(a).dtype)
    x = _convert(a, out_dtype)
    steps = [(ax, n, fft_type) for ax, n in reversed(list(zip(axes, lengths)))]
    return _run(x, steps, norm, out_dtype)


def _r2c(fname, a, axes, lengths, norm):
    """Real-to-complex: RFFT along ``axes[-1]``, then FFTs along the others (last first)."""
    dt = core.aval_of(a).dtype
    if dt.kind == "c":
        raise TypeError(f"xnp.{fname}: needs real input, got {errors.aval_str(core.aval_of(a))}; "
                        f"use xnp.fft.fft/fftn for complex data.")
    out_dtype = _complex_dtype(dt)
    x = _convert(a, np.dtype(np.float64 if out_dtype.itemsize == 16 else np.float32))
    steps = [(axes[-1], lengths[-1], FftType.RFFT)]
    steps += [(ax, n, FftType.FFT) for ax, n in reversed(list(zip(axes[:-1], lengths[:-1])))]
    return _run(x, steps, norm, out_dtype)


def _c2r(fname, a, axes, lengths, norm, conjugate: bool = False):
    """Complex-to-real: IFFTs along ``axes[:-1]`` (first first), then IRFFT along the last."""
    dt = core.aval_of(a).dtype
    if len(axes) > 1:  # NumPy's irfft then sees the complex output of the IFFTs
        dt = _complex_dtype(dt)
    out_dtype = _real_dtype(dt)
    x = _convert(a, _compute_complex(out_dtype))
    if conjugate:
        x = lax.conj(x)
    steps = [(ax, n, FftType.IFFT) for ax, n in zip(axes[:-1], lengths[:-1])]
    steps.append((axes[-1], lengths[-1], FftType.IRFFT))
    return _run(x, steps, norm, out_dtype)


_KINDS = {
    "fft": lambda f, a, axes, lengths, norm: _c2c(f, a, axes, lengths, norm, FftType.FFT),
    "ifft": lambda f, a, axes, lengths, norm: _c2c(f, a, axes, lengths, norm, FftType.IFFT),
    "rfft": _r2c,
    "irfft": _c2r,
    # hfft/ihfft: irfft of the conjugate / conjugate of rfft, with the scaling swapped
    "hfft": lambda f, a, axes, lengths, norm: _c2r(f, a, axes, lengths, _SWAP[norm], True),
    "ihfft": lambda f, a, axes, lengths, norm: lax.conj(_r2c(f, a, axes, lengths, _SWAP[norm])),
}
_INVERSE_REAL = ("irfft", "hfft")  # default length 2 * (m - 1)


def _check_lengths(fname: str, a, axes, lengths, kind: str, argname: str) -> None:
    """``ValueError``/``MemoryError`` naming ``argname`` (``n``/``s``) when the transform's
    largest array (``lengths`` complex values, or real ones for the real transforms, whose
    complex side holds about half as many) cannot exist or fit, before anything is staged."""
    shape = list(core.aval_of(a).shape)
    for ax, n in zip(axes, lengths):
        shape[ax] = n
    dt = _complex_dtype(core.aval_of(a).dtype)
    check_array_size(fname, shape, dt if kind in ("fft", "ifft") else _real_dtype(dt),
                     argname=argname)


def _transform_1d(fname: str, a, n, axis, norm, out, kind: str):
    _check_common(fname, norm, out)
    a = asarray_for(fname, a)
    axis, n = _one_axis(fname, a, n, axis, kind in _INVERSE_REAL)
    _check_lengths(fname, a, [axis], [n], kind, "n")
    return _KINDS[kind](fname, a, [axis], [n], norm)


def _transform_nd(fname: str, a, s, axes, norm, out, kind: str):
    _check_common(fname, norm, out)
    a = asarray_for(fname, a)
    axes, lengths = _nd_axes(fname, a, s, axes, kind in _INVERSE_REAL)
    if not axes and kind in ("rfft", "irfft"):
        raise IndexError(f"xnp.{fname}: needs at least one axis to transform, got none.")
    _check_lengths(fname, a, axes, lengths, kind, "s")
    return _KINDS[kind](fname, a, axes, lengths, norm)


# --------------------------------------------------------------------------- 1-D


def fft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional discrete Fourier transform along ``axis``.

    ``out[k] = sum_j a[j] * exp(-2j * pi * j * k / n)`` (times the ``norm`` factor).

    Parameters
    ----------
    a : array_like
        Any numeric or bool dtype; converted to complex (see Returns).
    n : int, optional
        Transform length: the input is zero-padded or cropped to ``n`` along ``axis``.
        Default: the length of ``axis``. Static.
    axis : int
        The transformed axis (default the last). Static.
    norm : {None, "backward", "ortho", "forward"}
        Scaling of the forward transform: 1 (None/"backward"), ``1/sqrt(n)`` ("ortho")
        or ``1/n`` ("forward").
    out : None
        Not supported (raises ``NotImplementedError``).

    Returns
    -------
    Array
        Shape of ``a`` with ``axis`` of length ``n``. Dtype ``result_type(a.dtype, 1j)``:
        complex64 for float16/float32/complex64, complex128 for float64, integers, bool.

    Raises
    ------
    ValueError
        ``n`` (or the default length) is below 1; ``norm`` is invalid.
    numpy.exceptions.AxisError
        ``axis`` is out of range (also for 0-d input).
    xnp.errors.ConcretizationTypeError
        ``n`` is traced.
    """
    return _transform_1d("fft.fft", a, n, axis, norm, out, "fft")


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """One-dimensional inverse discrete Fourier transform along ``axis``.

    ``out[k] = sum_j a[j] * exp(2j * pi * j * k / n) / n`` with ``norm`` None/"backward";
    "ortho" scales by ``1/sqrt(n)`` instead, "forward" not at all. Parameters, dtype and
    shape rules and errors as :func:`fft`.
    """
    return _transform_1d("fft.ifft", a, n, axis, norm, out, "ifft")


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """Discrete Fourier transform of real input along ``axis``: the ``n // 2 + 1``
    non-negative-frequency terms of :func:`fft`.

    Parameters as :func:`fft`. Shape: ``a``'s with ``axis`` of length ``n // 2 + 1``.
    Dtype: complex64 for float16/float32, complex128 for float64, integers and bool.

    Raises
    ------
    TypeError
        ``a`` is complex (as NumPy).
    ValueError, numpy.exceptions.AxisError
        As :func:`fft`.
    """
    return _transform_1d("fft.rfft", a, n, axis, norm, out, "rfft")


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of :func:`rfft`: a real signal of length ``n`` from its ``n // 2 + 1``
    non-negative-frequency terms along ``axis``.

    The input is padded or cropped to ``n // 2 + 1`` terms; the imaginary parts of the
    zero-frequency term and (even ``n``) of the Nyquist term are ignored, as in NumPy.
    ``n`` defaults to ``2 * (m - 1)`` for an input axis of length ``m``. ``norm`` as
    :func:`ifft`.

    Returns
    -------
    Array
        Shape of ``a`` with ``axis`` of length ``n``. Dtype ``result_type(a.real.dtype,
        1.0)``: float32 for complex64/float32, float16 for float16, float64 for
        complex128/float64/integers/bool.

    Raises
    ------
    ValueError
        ``n`` is below 1 (e.g. the default for an input axis of length 1); bad ``norm``.
    numpy.exceptions.AxisError
        ``axis`` is out of range.
    """
    return _transform_1d("fft.irfft", a, n, axis, norm, out, "irfft")


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """Transform of a Hermitian-symmetric signal given by its first half: the real
    spectrum ``irfft(conj(a), n, axis)`` with the forward/backward scaling swapped (so
    None/"backward" does not scale). ``n`` defaults to ``2 * (m - 1)``.

    Shape, dtype rule and errors as :func:`irfft`.
    """
    return _transform_1d("fft.hfft", a, n, axis, norm, out, "hfft")


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """Inverse of :func:`hfft`: ``conj(rfft(a, n, axis))`` with the scaling swapped (so
    None/"backward" divides by ``n``).

    Shape, dtype rule and errors as :func:`rfft` (complex input raises ``TypeError``).
    """
    return _transform_1d("fft.ihfft", a, n, axis, norm, out, "ihfft")


# --------------------------------------------------------------------------- n-D


def fftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional discrete Fourier transform over ``axes``.

    Parameters
    ----------
    a : array_like
        Any numeric or bool dtype.
    s : sequence of int, optional
        Output length along each of ``axes`` (pad/crop as :func:`fft`'s ``n``; -1 or
        None: the input length). Without ``axes`` it refers to the last ``len(s)`` axes
        (deprecated in NumPy 2.0; a ``DeprecationWarning`` as in NumPy). Static.
    axes : sequence of int, optional
        Transformed axes, default all (or the last ``len(s)``). A repeated axis is
        transformed repeatedly, as in NumPy. Static.
    norm : {None, "backward", "ortho", "forward"}
        As :func:`fft`, with ``n`` the product of the transform lengths.
    out : None
        Not supported.

    Returns
    -------
    Array
        ``a``'s shape with ``axes`` resized to ``s``; dtype as :func:`fft`. With no axes
        to transform (``axes=()`` or 0-d input) ``a`` is returned unchanged, as NumPy does.

    Raises
    ------
    ValueError
        ``s`` and ``axes`` differ in length; a length below 1; bad ``norm``.
    numpy.exceptions.AxisError
        An axis is out of range.
    """
    return _transform_nd("fft.fftn", a, s, axes, norm, out, "fft")


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional inverse discrete Fourier transform over ``axes``; arguments, shape
    and dtype rules and errors as :func:`fftn`, scaling as :func:`ifft`."""
    return _transform_nd("fft.ifftn", a, s, axes, norm, out, "ifft")


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional discrete Fourier transform: :func:`fftn` with default
    ``axes=(-2, -1)`` (an ``AxisError`` for input of rank below 2)."""
    return _transform_nd("fft.fft2", a, s, axes, norm, out, "fft")


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional inverse discrete Fourier transform: :func:`ifftn` with default
    ``axes=(-2, -1)``."""
    return _transform_nd("fft.ifft2", a, s, axes, norm, out, "ifft")


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """N-dimensional discrete Fourier transform of real input: :func:`rfft` over
    ``axes[-1]``, then :func:`fft` over the other axes.

    Shape: ``a``'s with ``axes`` resized to ``s`` and ``axes[-1]`` to
    ``s[-1] // 2 + 1``. Dtype as :func:`rfft`; arguments as :func:`fftn`.

    Raises
    ------
    TypeError
        ``a`` is complex.
    IndexError
        No axes to transform (as NumPy).
    ValueError, numpy.exceptions.AxisError
        As :func:`fftn`.
    """
    return _transform_nd("fft.rfftn", a, s, axes, norm, out, "rfft")


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """Inverse of :func:`rfftn`: :func:`ifft` over ``axes[:-1]``, then :func:`irfft`
    over ``axes[-1]``, whose output length ``s[-1]`` defaults to ``2 * (m - 1)``.

    Shape: ``a``'s with ``axes`` resized to ``s``. Dtype as :func:`irfft`, except that with
    two or more axes float16 input gives float32 (NumPy's last step sees complex64);
    arguments and errors as :func:`rfftn` (complex input is accepted).
    """
    return _transform_nd("fft.irfftn", a, s, axes, norm, out, "irfft")


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Two-dimensional FFT of real input: :func:`rfftn` with default ``axes=(-2, -1)``."""
    return _transform_nd("fft.rfft2", a, s, axes, norm, out, "rfft")


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """Inverse of :func:`rfft2`: :func:`irfftn` with default ``axes=(-2, -1)``."""
    return _transform_nd("fft.irfft2", a, s, axes, norm, out, "irfft")


# --------------------------------------------------------------------------- helpers


def _sample_spacing(fname: str, n, d):
    if not isinstance(n, (int, np.integer)):  # as NumPy (a bool is an int)
        raise ValueError(f"xnp.{fname}: `n` should be an integer, got {n!r}.")
    n = int(n)
    return n, 1.0 / (n * d)  # Python/NumPy scalars: ZeroDivisionError for n == 0 as NumPy


def _frequencies(fname: str, k, val, dtype):
    """``k * val`` (``k`` the integer frequency indices), in ``dtype`` when one is given:
    computed in the wider of ``dtype`` and the default float, then rounded once."""
    if dtype is None:
        return multiply(k, val)
    dt = np.dtype(dtype)
    if not (dt.kind == "f" or dt.name in ("bfloat16", "float8_e4m3fn", "float8_e5m2")):
        raise ValueError(f"xnp.{fname}: dtype must be a real floating-point dtype, got "
                         f"{dt.name}")
    wide = np.promote_types(dt if dt.kind == "f" else np.float32, _util.default_float())
    res = multiply(lax.convert_element_type(k, wide), val)
    if core.aval_of(res).dtype != dt:
        res = lax.convert_element_type(res, dt)
    return res


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of :func:`fft`: ``[0, 1, ..., ceil(n/2) - 1, -floor(n/2), ...,
    -1] / (d * n)``.

    Parameters
    ----------
    n : int
        Window length (static Python or NumPy integer).
    d : scalar or 0-d array
        Sample spacing; may be traced.
    device : None or "cpu"
        The only device.
    dtype : real floating dtype, optional (keyword only)
        The result's dtype (the Array API parameter; NumPy has none): computed in
        the wider of ``dtype`` and the default float and rounded once, so it equals
        ``numpy.fft.fftfreq(n, d).astype(dtype)``.

    Returns
    -------
    Array
        Shape ``(n,)``; dtype: ``dtype``, else the default float (float64), or what
        ``int * (1 / (n * d))`` promotes to for an array ``d``.

    Raises
    ------
    ValueError
        ``n`` is not an integer; ``dtype`` is not a real floating dtype; unknown ``device``.
    ZeroDivisionError
        ``n == 0`` with a Python scalar ``d``, as NumPy.
    """
    _check_device("fft.fftfreq", device)
    n, val = _sample_spacing("fft.fftfreq", n, d)
    dt = _util.default_int()
    k = lax.iota(dt, (n,), 0)
    negative = lax.ge(k, np.asarray((n + 1) // 2, dt))  # the upper half: k - n
    k = lax.select(negative, lax.sub(k, np.asarray(n, dt)), k)
    return _frequencies("fft.fftfreq", k, val, dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """Sample frequencies of :func:`rfft`: ``[0, 1, ..., n // 2] / (d * n)``.

    Shape ``(n // 2 + 1,)``; arguments (``dtype`` included), dtype and errors as
    :func:`fftfreq`.
    """
    _check_device("fft.rfftfreq", device)
    n, val = _sample_spacing("fft.rfftfreq", n, d)
    k = lax.iota(_util.default_int(), (n // 2 + 1,), 0)
    return _frequencies("fft.rfftfreq", k, val, dtype)


def _shift(fname: str, x, axes, sign: int):
    x = asarray_for(fname, x, "x")
    shape = core.aval_of(x).shape
    if axes is None:
        axes = tuple(range(len(shape)))
    elif isinstance(axes, (numbers.Integral, np.integer)):
        axes = (axes,)
    axes = tuple(axes)
    shifts = [sign * (shape[normalize_axis(fname, ax, len(shape), "axes")] // 2) for ax in axes]
    if not shape:  # NumPy's roll fails on 0-d input with a ValueError
        raise ValueError(f"xnp.{fname}: needs an array with at least one dimension, got 0-d.")
    if not axes:
        return lax.copy(x)
    return roll(x, shifts, axes)


def fftshift(x, axes=None):
    """Move the zero-frequency term to the centre: ``roll`` by ``n // 2`` along each of
    ``axes`` (default all). Shape and dtype of ``x``.

    Raises
    ------
    numpy.exceptions.AxisError
        An axis is out of range.
    ValueError
        ``x`` is 0-d (as NumPy).
    """
    return _shift("fft.fftshift", x, axes, 1)


def ifftshift(x, axes=None):
    """Inverse of :func:`fftshift` (roll by ``-(n // 2)``; differs for odd lengths).
    Shape and dtype of ``x``; errors as :func:`fftshift`."""
    return _shift("fft.ifftshift", x, axes, -1)
