"""One-dimensional discrete convolution and cross-correlation: ``convolve`` and
``correlate``, each one ``lax.conv_general_dilated`` (a 1-D cross-correlation with one
batch entry and one feature) after NumPy's rules for the operands and the mode.

Operands convert as ``numpy.asarray`` does (Python scalars are not weak:
``numpy.convolve(int8_array, 300)`` is int64) and are promoted to their NumPy result
dtype, which is also the accumulator (integers wrap as NumPy's do). bool inputs give
bool results (OR of ANDs), computed as integer counts compared with 0. Shapes and
``mode`` are static.
"""

from __future__ import annotations

import numbers

import numpy as np

from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api.products import _operands
from xnp.tracing import core, errors
from xnp.tracing.avals import ShapedArray

__all__ = ["convolve", "correlate"]

_MODES = ("valid", "same", "full")


def _mode(fname: str, mode) -> str:
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(f"xnp.{fname}: mode must be one of 'valid', 'same' or 'full', got "
                             f"{mode!r}")
        return mode
    if isinstance(mode, (bool, np.bool_)) or not isinstance(mode, numbers.Integral):
        raise TypeError(f"xnp.{fname}: mode {mode!r} not understood; use 'valid', 'same' or "
                        "'full' (or 0, 1, 2)")
    if not 0 <= int(mode) <= 2:
        raise ValueError(f"xnp.{fname}: an integer mode must be 0 (valid), 1 (same) or 2 (full), "
                         f"got {mode!r}")
    return _MODES[int(mode)]


def _operands_1d(fname: str, a, v, mode, promote_scalars: bool):
    """The mode name and both operands promoted to their NumPy dtype, checked 1-D (0-d
    values become length 1 when ``promote_scalars``), non-empty after ``convolve``'s swap
    of a longer ``v`` into ``a``. Returns ``(mode, a, v, dtype)``."""
    mode = _mode(fname, mode)
    a, v, dtype = _operands(fname, a, v, ("a", "v"))
    ops = []
    for x, argname in ((a, "a"), (v, "v")):
        nd = core.aval_of(x).ndim
        if nd == 0 and promote_scalars:
            x = lax.reshape(x, (1,))
        elif nd != 1:
            raise ValueError(f"xnp.{fname}: `{argname}` must be one-dimensional, got "
                             f"{errors.aval_str(core.aval_of(x))}")
        ops.append(x)
    a, v = ops
    if fname == "convolve" and core.aval_of(v).shape[0] > core.aval_of(a).shape[0]:
        a, v = v, a
    for x, argname in ((a, "a"), (v, "v")):
        if core.aval_of(x).shape[0] == 0:
            raise ValueError(f"xnp.{fname}: `{argname}` cannot be empty")
    return mode, a, v, dtype


def _window(m: int, n: int, mode: str) -> tuple[int, int]:
    """``(lo, hi)`` padding of the length-``m`` signal so that output ``j`` is the lag
    ``j - lo`` correlation with the length-``n`` kernel, for NumPy's output window."""
    length = {"full": m + n - 1, "same": max(m, n), "valid": max(m, n) - min(m, n) + 1}[mode]
    if mode == "full":
        lo = n - 1
    elif mode == "same":  # NumPy centres on the shorter operand
        lo = n // 2 if m >= n else n - 1 - m // 2
    else:
        lo = max(n - m, 0)
    return lo, length + n - 1 - m - lo


def _correlate_1d(a, v, mode: str):
    """``out[j] = sum_k a[j - lo + k] * v[k]`` over NumPy's window (no conjugation)."""
    (m,), (n,) = core.aval_of(a).shape, core.aval_of(v).shape
    dtype = core.aval_of(a).dtype
    boolean = dtype in kit.BOOL
    if boolean:
        a, v = (lax.convert_element_type(x, np.int64) for x in (a, v))
    out = lax.conv_general_dilated(lax.reshape(a, (1, 1, m)), lax.reshape(v, (1, 1, n)), (1,),
                                   (_window(m, n, mode),))
    out = lax.reshape(out, (core.aval_of(out).shape[2],))
    return lax.ne(out, np.zeros((), np.int64)) if boolean else out


def convolve(a, v, mode="full"):
    """Discrete, linear convolution of two one-dimensional sequences.

    Follows ``numpy.convolve``: ``out[k] = sum_i a[i] * v[k - i]``.

    Parameters
    ----------
    a, v : array_like
        One-dimensional (0-d values count as length 1); any numeric or bool dtype.
        The longer one is treated as the signal (the result does not depend on the
        order except for which end 'same' trims).
    mode : {'full', 'same', 'valid'} or {2, 1, 0}
        ``full``: length ``M + N - 1``; ``same``: length ``max(M, N)``, centred;
        ``valid``: length ``max(M, N) - min(M, N) + 1`` (full overlap only).
        Must be a Python value.

    Returns
    -------
    Array
        1-D, dtype ``result_type(a, v)`` as NumPy (integers stay integers and wrap on
        overflow; bool gives bool).

    Raises
    ------
    ValueError
        An empty input, an input with more than one dimension, an unknown mode.
    TypeError
        A mode that is neither a string nor an integer.
    """
    mode, a, v, _ = _operands_1d("convolve", a, v, mode, True)
    return _one_call("convolve", _convolution, a, v, mode)


def correlate(a, v, mode="valid"):
    """Cross-correlation of two one-dimensional sequences.

    Follows ``numpy.correlate``: ``out[k] = sum_n a[n + k] * conj(v[n])`` over the lags
    ``k`` of the chosen window (complex ``v`` is conjugated).

    Parameters
    ----------
    a, v : array_like
        One-dimensional, non-empty; any numeric or bool dtype. When ``v`` is longer
        than ``a`` the same lags are computed (NumPy swaps internally).
    mode : {'valid', 'same', 'full'} or {0, 1, 2}
        Output length as in :func:`convolve`. Must be a Python value.

    Returns
    -------
    Array
        1-D, dtype ``result_type(a, v)`` as NumPy.

    Raises
    ------
    ValueError
        An empty input, an input that is not one-dimensional (0-d included, as NumPy),
        an unknown mode.
    TypeError
        A mode that is neither a string nor an integer.
    """
    mode, a, v, _ = _operands_1d("correlate", a, v, mode, False)
    return _one_call("correlate", _correlation, a, v, mode)


def _convolution(a, v, *, mode):
    return [_correlate_1d(a, lax.rev(v, (0,)), mode)]


def _correlation(a, v, *, mode):
    if core.aval_of(v).dtype in kit.COMPLEX:
        v = lax.conj(v)
    return [_correlate_1d(a, v, mode)]


def _one_call(name, decomposition, a, v, mode):
    """``decomposition(a, v, mode=mode)`` as one composite: eagerly NumPy's ``convolve`` or
    ``correlate`` of the values (xnp/backends/xp_impls/composite.py), the convolution
    elsewhere. Weak operands keep the decomposition (a composite's result is strong)."""
    if core.aval_of(a).weak_type or core.aval_of(v).weak_type:
        return decomposition(a, v, mode=mode)[0]
    (m,), (n,) = core.aval_of(a).shape, core.aval_of(v).shape
    lo, hi = _window(m, n, mode)
    out = ShapedArray((m + lo + hi - n + 1,), core.aval_of(a).dtype)
    return lax.composite_general(name, decomposition, a, v, out_avals=(out,),
                                 params={"mode": mode})[0]
