"""Products of vectors and matrices: ``dot``, ``matmul``, ``vdot``, ``inner``, ``outer``,
``tensordot``, ``vecdot`` (and the values of ``matvec``/``vecmat``), each one
``lax.dot_general`` after NumPy's shape rules.

Operands are converted as ``numpy.asarray`` does: Python scalars are *not* weak here
(``numpy.dot(2, int8_array)`` is int64; an int from 2**63 to 2**64 - 1 is uint64, one beyond
NumPy's object array, which NumPy's own function computes eagerly), except in the gufuncs
(``matmul``, ``vecdot``, ``matvec``, ``vecmat``), which take a Python int as NEP 50's weak
scalar and raise ``OverflowError`` where it does not fit; both operands are promoted to their
NumPy result dtype before the product, which is also the accumulator dtype
(``preferred_element_type``). Where NumPy has no common dtype (ml_dtypes' bfloat16 with
float16 or with integers wider than 8 bits), that is the dtype of NumPy's ufunc loop, as
for ``xnp.add`` and ``xnp.multiply`` (``_util.ufunc_result_dtype``: bfloat16 with float16
is float32, with int32 float64): the dtype ``numpy.matmul`` gives (``numpy.dot`` computes
these in object dtype). bool products are bool (OR of ANDs), as in NumPy. All shapes and
axes are static.

The gufuncs (``matmul``, ``vecdot``, ``matvec``, ``vecmat``) contract their operands as they
are where the loop dimensions of both operands are equal or one operand has none: one
``dot_general``, with no broadcast, transpose or reshape around it, which is all an eager call
replays (``_replay``). The results of ``vecdot``, ``matvec`` and ``vecmat`` have the memory
order NumPy allocates them in (:func:`_gufunc_layout`: a stack of Fortran-ordered operands
gives a column-major stack of results), a copy where the ``dot_general`` gives another.
Signs of zero: see the comment above :func:`_summed` (``_signed_zeros.plus_zero``).
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from xnp import _default_dtypes, config
from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api._util import (AxisError, asarray_for, binary_operands, broadcast_shapes,
                                 broadcast_to, check_unsupported, is_xnp, normalize_axis,
                                 promote_to, raise_host_dtype, static_int, ufunc_result_dtype,
                                 write_out)
from xnp.tracing import core, errors
from xnp.numpy_api._ufunc import _cast as _cast_checked
from xnp.numpy_api._ufunc import _extras
from xnp.numpy_api._fp_out import names_fp_errors, writes_out
from xnp.numpy_api._signed_zeros import plus_zero
from xnp.numpy_api import _layout
from xnp.numpy_api._like_layout import laid_out
from xnp.tracing.avals import ShapedArray, canonical_dtype

__all__ = ["dot", "matmul", "vdot", "inner", "outer", "tensordot", "vecdot"]

_MATMUL_SIG = "(n?,k),(k,m?)->(n?,m?)"


# --------------------------------------------------------------------------- helpers


_INT64 = np.iinfo(np.int64)


def _asarray(fname, x, argname):
    """``x`` as ``numpy.asarray`` converts it (a Python scalar is not weak): a Python int
    is int64 (int32 with ``enable_x64`` off), uint64 from 2**63 to 2**64 - 1 and NumPy's
    object array beyond (``HostDtypeError``: eagerly NumPy's function computes it)."""
    if core.is_python_scalar(x):
        if type(x) is int and not _INT64.min <= x <= _INT64.max and (
                config._OPTIONS["enable_x64"]):
            value = np.asarray(x)
            if value.dtype.kind != "u":
                raise_host_dtype(fname, argname, value.dtype)
            return core.lift(value)
        try:
            return core.lift(_default_dtypes.scalar_to_ndarray(x))
        except OverflowError as e:
            raise OverflowError(f"xnp.{fname}: argument `{argname}`: {e}") from None
    return asarray_for(fname, x, argname)


def _python_int_operands(fname, x1, x2, dtype, argnames):
    """The operands of the gufunc ``fname`` with a Python int among them converted as NumPy
    converts it, as NEP 50's weak scalar (to the dtype it takes with the other operand, or
    to ``dtype=``), before any shape check: one out of that dtype's range raises
    ``OverflowError`` (``matmul(int8_array, 300)``), one that fits meets the 0-d operand's
    ``ValueError``."""
    if type(x1) is not int and type(x2) is not int:
        return x1, x2
    try:
        if dtype is None:
            return binary_operands(fname, x1, x2, argnames=argnames)[:2]
        dt = canonical_dtype(dtype, name="dtype")
        if dt.kind not in "iufc":  # (to bool: the casting rule decides, as NumPy's)
            return x1, x2
        return tuple(promote_to(fname, x, dt) if type(x) is int else x for x in (x1, x2))
    except OverflowError as e:
        ops = ", ".join(f"`{n}` {_operand_str(x)}" for n, x in zip(argnames, (x1, x2)))
        raise OverflowError(f"xnp.{fname}: {e} ({ops}"
                            + (")" if dtype is None else f", dtype={np.dtype(dtype).name})")
                            ) from None


def _operand_str(x) -> str:
    """An operand as messages show it: ``int8[2]`` (a Python scalar: its type)."""
    if core.is_python_scalar(x):
        return f"a Python {type(x).__name__}"
    try:
        return errors.aval_str(core.aval_of(x))
    except Exception:  # noqa: BLE001  (a list or other array-like: NumPy's view of it)
        return errors.aval_str(core.aval_of(np.asarray(x)))


def _operands(fname, a, b, argnames=("a", "b"), dtype=None, casting="same_kind"):
    """Both operands as xnp values of their common NumPy dtype (NumPy's ufunc loop dtype
    where there is none, module docstring), or of ``dtype`` (each cast under the
    ``casting`` rule, as NumPy casts a gufunc's inputs to its loop)."""
    x = _asarray(fname, a, argnames[0])
    y = _asarray(fname, b, argnames[1])
    ax, ay = core.aval_of(x), core.aval_of(y)
    if dtype is None:
        dt, _ = ufunc_result_dtype(ax.strip_weak_type(), ay.strip_weak_type())
        return _cast(x, dt), _cast(y, dt), dt
    dt = canonical_dtype(dtype, name="dtype")
    return (_cast_checked(fname, x, dt, casting, 0, argnames[0]),
            _cast_checked(fname, y, dt, casting, 1, argnames[1]), dt)


def _gufunc_operands(fname, x1, x2, casting, dtype):
    """The operands of the gufunc ``fname`` (``matmul``, ``vecdot``, ``matvec``,
    ``vecmat``) in its loop dtype, ``casting`` checked as for every ufunc: with
    ``'no'``/``'equiv'`` an input NumPy's loop would cast raises ``TypeError``, and a
    ``dtype=`` input cast is checked under ``casting``."""
    _extras(fname, casting, "K", True, None, dtype, (x1, x2))
    x1, x2 = _python_int_operands(fname, x1, x2, dtype, ("x1", "x2"))
    return _operands(fname, x1, x2, ("x1", "x2"), dtype, casting)


def _cast(x, dtype):
    if core.aval_of(x).dtype == dtype:
        return x
    return lax.convert_element_type(x, dtype)


def _shape(x):
    return core.aval_of(x).shape


def _dtype_name(v) -> str:
    """The NumPy dtype name of an operand as given (before promotion)."""
    return np.dtype(core.aval_of(v).dtype if is_xnp(v) else np.asarray(v).dtype).name


def _fmt(shape) -> str:
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _not_aligned(fname, sa, sb, ia, ib):
    raise ValueError(f"xnp.{fname}: shapes {_fmt(sa)} and {_fmt(sb)} not aligned: "
                     f"{sa[ia]} (dim {ia}) != {sb[ib]} (dim {ib})")


def _ravel(x):
    s = _shape(x)
    if len(s) == 1:
        return x
    size = 1
    for d in s:
        size *= d
    return lax.reshape(x, (size,))


def _dot(x, y, contract_x, contract_y, batch_x=(), batch_y=(), dtype=None):
    dt = dtype if dtype is not None else core.aval_of(x).dtype
    return lax.dot_general(x, y, ((tuple(contract_x), tuple(contract_y)),
                                  (tuple(batch_x), tuple(batch_y))),
                           preferred_element_type=dt)


# Signs of zero. NumPy starts every sum of products from +0.0 (its dot loops, matmul's
# loops and BLAS calls with beta = 0), so a zero sum is never -0.0, except where
# numpy.dot's BLAS path (float32/64, complex64/128, operands of at most two dimensions)
# multiplies two one-element operands, and where a 0-d operand outside that path is
# multiplied (outer, kron and einsum's products multiply too). XLA compiles a sum of one
# product to the product itself, and xnp's eager kernels for matmul's one-element forms
# are numpy.dot's, so where each element is one product (k == 1) the +0.0 start is
# restated, in each part of a complex result too (numpy.vdot's, the gufuncs' and the
# axpy of numpy.dot's BLAS path add to +0.0 for complex as for real). Longer sums are
# the backend's (NumPy's kernels eagerly; XLA's dot may keep -0.0 under jit), and so is
# a complex zgemm of a column (m, 1) by a row (1, n) (numpy.dot's BLAS path where
# neither operand is one element): its signs of zero are those of the BLAS kernel.

_BLAS_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64,
                                               np.complex128))


def _one_element(x) -> bool:
    return math.prod(_shape(x)) == 1


def _summed(res, k):
    """``res``, whose elements are sums of ``k`` products each, with NumPy's +0.0 start
    where ``k == 1`` (module comment above)."""
    if k == 1 and core.aval_of(res).dtype in kit.INEXACT:
        return plus_zero(res)
    return res


def _dot_zeros(sa, sb, res, k):
    """``res``, ``numpy.dot`` of operands of shapes ``sa``, ``sb`` (``numpy.inner``'s with
    ``sb``'s last two dimensions swapped) summing ``k`` products per element, with their
    signs of zero where each element is one product (module comment): the exact product
    where NumPy's BLAS path multiplies two one-element operands or where a 0-d operand is
    multiplied outside it; otherwise NumPy's +0.0 start (its BLAS path's ``axpy`` for a
    0-d operand times a larger one), but for complex the signs of BLAS's ``zgemm`` of a
    column by a row."""
    dt = core.aval_of(res).dtype
    if dt not in kit.INEXACT:
        return res
    blas = dt in _BLAS_DTYPES and len(sa) <= 2 and len(sb) <= 2
    one_a, one_b = math.prod(sa) == 1, math.prod(sb) == 1
    if not sa or not sb:
        plus = blas and not (one_a and one_b)
    elif blas and dt in kit.COMPLEX and not (one_a or one_b):
        plus = False  # (k == 1: a column times a row, BLAS's gemm)
    else:
        plus = k == 1 and not (blas and one_a and one_b)
    return plus_zero(res) if plus else res


# --------------------------------------------------------------------------- dot


@writes_out()
def dot(a, b, out=None):
    """Dot product (``numpy.dot``).

    * either operand 0-d: the elementwise product;
    * 1-D · 1-D: inner product (a 0-d result);
    * N-D · 1-D: sum over the last axis of ``a`` and ``b``;
    * N-D · M-D (M >= 2): sum over the last axis of ``a`` and the second-to-last of
      ``b``; result shape ``a.shape[:-1] + b.shape[:-2] + b.shape[-1:]``.

    Dtype: NumPy's result dtype of the operands (Python scalars count as arrays
    of the default dtype); that is also the accumulator. bool gives bool. Where NumPy
    has none (bfloat16 with float16 or with integers wider than 8 bits), the dtype
    ``xnp.multiply`` gives (float32 or float64), where ``numpy.dot`` computes in object
    dtype; ``vdot``, ``inner``, ``outer`` and ``tensordot`` do the same.

    Parameters
    ----------
    a, b : array_like
    out : Array, optional
        Written in place; its shape must be the result's.

    Raises
    ------
    ValueError
        The summed dimensions differ (NumPy's "shapes (3,4) and (5,) not aligned").
    """
    x, y, dt = _operands("dot", a, b)
    sa, sb = _shape(x), _shape(y)
    if not sa or not sb:
        res = _dot_zeros(sa, sb, _dot(x, y, (), ()), 1)
    else:
        ib = 0 if len(sb) == 1 else len(sb) - 2
        if sa[-1] != sb[ib]:
            _not_aligned("dot", sa, sb, len(sa) - 1, ib)
        res = _dot_zeros(sa, sb, _dot(x, y, (len(sa) - 1,), (ib,)), sa[-1])
    if out is not None and sa and sb:  # (a 0-d operand: NumPy's multiply into out)
        _check_dot_out(out, res)
    return write_out("dot", out, res)


def _check_dot_out(out, res) -> None:
    """NumPy's ``dot`` writes only into an ``out`` of the result's shape and exact dtype,
    laid out C-contiguous (no cast: ``ValueError`` otherwise, also under ``jit``, where a
    traced ``out``'s layout counts when the model knows it, ``numpy_api._layout``)."""
    o = out[0] if isinstance(out, tuple) and len(out) == 1 else out
    try:
        oa = core.aval_of(o)
    except TypeError:
        return  # (not an array: write_out's error)
    ra = core.aval_of(res)
    if oa.shape != ra.shape:
        raise ValueError(f"xnp.dot: output array has wrong dimensions: `out` has shape "
                         f"{oa.shape}, the result {ra.shape}")
    st = _layout.layout(o)
    c_layout = st is None or 0 in oa.shape or all(
        n == 1 or s == c for n, s, c in zip(oa.shape, st, _layout.c_strides(oa.shape)))
    if oa.dtype != ra.dtype or not c_layout:
        raise ValueError(
            "xnp.dot: output array is not acceptable (must have the right datatype, number of "
            f"dimensions, and be a C-Array): `out` is {oa.dtype.name}{list(oa.shape)}"
            f"{'' if c_layout else ' not C-contiguous'}, the result {ra.dtype.name}"
            f"{list(ra.shape)}")


# --------------------------------------------------------------------------- matmul


@names_fp_errors("matmul", only="dot")
@writes_out(where="matmul", only="dot")
def matmul(x1, x2, /, out=None, *, axes=None, axis=None, keepdims=False, casting="same_kind",
           order="K", dtype=None, subok=True, signature=None):
    """Matrix product with NumPy's ``matmul`` rules (the ``@`` operator).

    1-D operands are promoted to a matrix (a row for ``x1``, a column for ``x2``)
    and the added dimension is removed from the result; dimensions before the last
    two are batch dimensions and broadcast. Dtype: NumPy's result dtype of the
    operands (where there is none, as for bfloat16 with float16 or int32, the dtype of
    NumPy's loop: float32, float64), or ``dtype``; bool gives bool.

    Parameters
    ----------
    x1, x2 : array_like
        At least 1-D.
    out : Array, optional
        Written in place.
    dtype : dtype, optional
        Compute and result dtype (operands cast under ``casting``).
    casting : {'no', 'equiv', 'safe', 'same_kind', 'unsafe'}
        NumPy's rule for the input casts (to the loop dtype: the operands' result dtype,
        or ``dtype``) and for the cast of the result into ``out``.
    axes, axis, keepdims, order, subok, signature
        gufunc options; ``axes``/``axis``/``keepdims`` are taken by the ``xnp.matmul``
        ufunc object; ``order`` is ignored (xnp arrays have no user-visible memory order).

    Raises
    ------
    OverflowError
        A Python int operand outside the dtype NEP 50 gives it (``x1``'s for an int8 ``x1``
        and 300), or ``dtype``'s, as NumPy's (before the 0-d operand's ``ValueError``).
    ValueError
        An operand is 0-d, the core dimensions do not match (message names the
        shapes), or the batch dimensions do not broadcast.
    TypeError
        An input or the result does not cast under ``casting`` (NumPy's
        ``UFuncTypeError``): the message names the argument and both dtypes.
    NotImplementedError
        A non-default ``subok`` or ``signature`` (or ``axes``, ``axis``, ``keepdims``
        through this function rather than the ufunc object).
    """
    check_unsupported("matmul", axes=(axes, None, "gufunc axes are not implemented"),
                      axis=(axis, None, "gufunc axis is not implemented"),
                      keepdims=(keepdims, False, "gufunc keepdims is not implemented"),
                      subok=(subok, True, "xnp has no array subclasses"),
                      signature=(signature, None, "loop signatures are NumPy-internal"))
    x, y, dt = _gufunc_operands("matmul", x1, x2, casting, dtype)
    shape = _matmul_shape("matmul", _shape(x), _shape(y), x1, x2)
    # an operand NumPy's loop casts is a C-contiguous buffer there: so here too (the BLAS
    # call, and its rounding, follow the operands' memory order)
    x, y = (_c_ordered_cast(v, given) for v, given in ((x, x1), (y, x2)))
    # eagerly NumPy's matmul itself (its loop: values, signs of zero, memory order and
    # floating-point checks "in matmul"), replayed as one call; traced the dot_general
    res = lax.composite_general("matmul", _matmul_steps, x, y,
                                out_avals=(ShapedArray(shape, dt),))[0]
    return write_out("matmul", out, res, casting)


def _c_ordered_cast(x, given):
    """``x``, the operand ``given`` in the loop dtype, laid out C-contiguous where the cast
    made a new array of another dtype."""
    if not (is_xnp(given) or isinstance(given, np.ndarray)) or (
            np.dtype(_dtype_name(given)) == core.aval_of(x).dtype):
        return x
    return in_layout(x, _layout.c_strides(_shape(x)))


def _matmul_steps(x, y):
    return [_matmul_values("matmul", x, y, x, y)]


def _matmul_shape(fname, sa, sb, x1, x2):
    """The shape of ``x1 @ x2`` for operands of shapes ``sa`` and ``sb``, checked as
    :func:`_matmul_values` checks them (its errors)."""
    _check_matmul_cores(fname, sa, sb)
    if len(sb) == 1:
        return sa[:-1]
    if len(sa) == 1:
        return sb[:-2] + sb[-1:]
    return _matmul_batch(fname, sa, sb, x1, x2) + (sa[-2], sb[-1])


def _check_matmul_cores(fname, sa, sb):
    for i, s in enumerate((sa, sb)):
        if not s:
            raise ValueError(f"xnp.{fname}: Input operand {i} does not have enough dimensions "
                             f"(has 0, gufunc core with signature {_MATMUL_SIG} requires 1); "
                             f"shapes {_fmt(sa)} and {_fmt(sb)}")
    ib = 0 if len(sb) == 1 else len(sb) - 2
    if sa[-1] != sb[ib]:
        raise ValueError(
            f"xnp.{fname}: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature {_MATMUL_SIG} (size {sb[ib]} is different from {sa[-1]}); shapes "
            f"{_fmt(sa)} and {_fmt(sb)}")


def _matmul_batch(fname, sa, sb, x1, x2):
    """The broadcast batch dimensions of two operands of at least two dimensions each (``sb``
    with more than two)."""
    if len(sb) <= 2:
        return sa[:-2]
    try:
        return broadcast_shapes(fname, sa[:-2], sb[:-2])
    except ValueError:
        raise ValueError(
            f"xnp.{fname}: operands could not be broadcast together: the batch dimensions "
            f"{_fmt(sa[:-2])} of x1 (dtype {_dtype_name(x1)}, shape {_fmt(sa)}) and "
            f"{_fmt(sb[:-2])} of x2 (dtype {_dtype_name(x2)}, shape {_fmt(sb)}) do not "
            "broadcast (the last two dimensions are the matrices)") from None


def _matmul_values(fname, x, y, x1, x2):
    """``x @ y`` of two operands already in their loop dtype (``x1``, ``x2``: the
    operands as given, named in errors); ``fname`` is the function named in errors."""
    sa, sb = _shape(x), _shape(y)
    _check_matmul_cores(fname, sa, sb)
    ib = 0 if len(sb) == 1 else len(sb) - 2
    if len(sb) <= 2:  # (..., n, k) @ (k, m) or (k,): no batch dims, no broadcasting
        res = _dot(x, y, (len(sa) - 1,), (0,))
    elif len(sa) == 1:  # (k,) @ (..., k, m)
        res = _dot(x, y, (0,), (ib,))
    else:
        batch = _matmul_batch(fname, sa, sb, x1, x2)
        nb = len(batch)
        x = broadcast_to(x, batch + sa[-2:])
        y = broadcast_to(y, batch + sb[-2:])
        res = _dot(x, y, (nb + 1,), (nb,), tuple(range(nb)), tuple(range(nb)))
    return _summed(res, sa[-1])


# --------------------------------------------------------------------------- vdot / inner / outer


def vdot(a, b, /):
    """Dot product of the flattened operands, conjugating ``a`` if complex (``numpy.vdot``).

    Returns
    -------
    Array
        0-d, of the operands' NumPy result dtype.

    Raises
    ------
    ValueError
        The operands have different sizes.
    """
    x, y, dt = _operands("vdot", a, b)
    ax, ay = core.aval_of(x), core.aval_of(y)
    if ax.size != ay.size:
        raise ValueError(f"xnp.vdot: the operands must have the same number of elements, got "
                         f"shapes {_fmt(ax.shape)} ({ax.size}) and {_fmt(ay.shape)} ({ay.size})")
    # eagerly NumPy's vdot itself (its one C call, which checks no floating-point error, as
    # NumPy's: an overflow gives inf silently); traced its decomposition
    return lax.composite_general("vdot", _vdot_steps, x, y,
                                 out_avals=(ShapedArray((), dt),))[0]


def _vdot_steps(x, y):
    """``[numpy.vdot(x, y)]`` of two operands of one dtype and size."""
    x, y = _ravel(x), _ravel(y)
    if core.aval_of(x).dtype in kit.COMPLEX:
        x = lax.conj(x)
    return [_summed(_dot(x, y, (0,), (0,)), core.aval_of(x).size)]


def inner(a, b, /):
    """Inner product over the last axes (``numpy.inner``); a 0-d operand multiplies.

    Shape: ``a.shape[:-1] + b.shape[:-1]``. No conjugation.

    Raises
    ------
    ValueError
        The last dimensions differ.
    """
    x, y, dt = _operands("inner", a, b)
    sa, sb = _shape(x), _shape(y)
    if not sa or not sb:
        return _dot_zeros(sa, sb, _dot(x, y, (), ()), 1)
    if sa[-1] != sb[-1]:
        _not_aligned("inner", sa, sb, len(sa) - 1, len(sb) - 1)
    # (numpy.inner is numpy.dot of `a` and `b` with its last two dimensions swapped)
    return _dot_zeros(sa, sb[:-2] + sb[-1:] + sb[-2:-1],
                      _dot(x, y, (len(sa) - 1,), (len(sb) - 1,)), sa[-1])


@writes_out()
def outer(a, b, out=None):
    """Outer product of the flattened operands (``numpy.outer``): shape ``(a.size, b.size)``."""
    x, y, dt = _operands("outer", a, b)
    return write_out("outer", out, _dot(_ravel(x), _ravel(y), (), ()))


# --------------------------------------------------------------------------- tensordot


def tensordot(a, b, axes=2):
    """Sum of products over the given axes (``numpy.tensordot``).

    Parameters
    ----------
    a, b : array_like
    axes : int or (sequence, sequence)
        An int ``N`` (a Python bool, NumPy integer or 0-d integer array too, as
        ``numpy.tensordot`` takes it) sums the last ``N`` axes of ``a`` with the first ``N``
        of ``b``; ``N <= 0`` sums none (the outer product, as NumPy's empty ranges). A pair
        lists the axes of ``a`` and of ``b`` (ints or sequences of ints of equal length;
        negative values count from the end). Static.

    Returns
    -------
    Array
        Shape: the remaining axes of ``a`` then of ``b``.

    Raises
    ------
    ValueError
        Paired axes differ in size or number (NumPy's "shape-mismatch for sum"), an axis is
        repeated, or ``axes`` is a sequence of other than two entries.
    TypeError
        ``axes`` (or an entry of the pair) is no integer: a float, a NumPy bool, an array
        inside the pair (NumPy: unhashable).
    numpy.exceptions.AxisError
        An axis is out of range, or an int ``axes`` exceeds an operand's rank (NumPy's
        ``IndexError``; ``AxisError`` is one).
    """
    x, y, dt = _operands("tensordot", a, b)
    sa, sb = _shape(x), _shape(y)
    axes_a, axes_b = _tensordot_axes(axes, sa, sb)
    k = math.prod(sa[i] for i in axes_a)
    if k == 1 and _one_element(x) and _one_element(y) and dt in _BLAS_DTYPES:
        # NumPy's dot of its 2-D operands multiplies their one elements (no +0.0 start)
        shape = tuple(d for i, d in enumerate(sa) if i not in axes_a) + tuple(
            d for i, d in enumerate(sb) if i not in axes_b)
        return lax.reshape(_dot(lax.reshape(x, ()), lax.reshape(y, ()), (), ()), shape)
    if dt in kit.COMPLEX and not (_one_element(x) or _one_element(y)):
        k = 0  # (k == 1: NumPy's dot of a column by a row, BLAS's zgemm: module comment)
    return _summed(_dot(x, y, axes_a, axes_b), k)


def _tensordot_axes(axes, sa, sb):
    """``numpy.tensordot``'s reading of ``axes`` for operands of shapes ``sa``, ``sb``:
    normalised axis tuples of ``a`` and ``b``, with NumPy's errors in NumPy's order."""
    try:
        iter(axes)
        is_int = False
    except TypeError:
        is_int = True
    if is_int:  # NumPy's range(-axes, 0) and range(axes): empty for axes <= 0
        n = static_int("tensordot", axes, "axes", python_bool=True)
        if n > len(sa) or n > len(sb):
            # NumPy raises IndexError here; AxisError is both an IndexError and a ValueError
            raise AxisError(f"xnp.tensordot: axes={n} is out of range for operands of shapes "
                            f"{_fmt(sa)} and {_fmt(sb)}") from None
        n = max(n, 0)
        lists = [list(range(len(sa) - n, len(sa))), list(range(n))]
    else:
        try:
            axes_a, axes_b = axes
        except ValueError:
            raise ValueError(f"xnp.tensordot: `axes` must be an int or a pair of axis "
                             f"sequences, got {axes!r} with {len(list(axes))} entries") from None
        lists = [_axis_entries(v) for v in (axes_a, axes_b)]
        for v in lists:
            if len(set(v)) != len(v):
                raise ValueError(f"xnp.tensordot: duplicate axes are not allowed in "
                                 f"tensordot: axes={axes!r}")
    if len(lists[0]) != len(lists[1]):
        _shape_mismatch(lists, sa, sb)
    out = ([], [])
    for i, j in zip(*lists):
        ia = normalize_axis("tensordot", i, len(sa), "axes")
        ib = normalize_axis("tensordot", j, len(sb), "axes")
        if sa[ia] != sb[ib]:
            _shape_mismatch(lists, sa, sb)
        out[0].append(ia)
        out[1].append(ib)
    for v, s in zip(out, (sa, sb)):
        if len(set(v)) != len(v):  # (NumPy's transpose: "repeated axis")
            raise ValueError(f"xnp.tensordot: repeated axis in axes={axes!r} for an operand "
                             f"of shape {_fmt(s)}")
    return tuple(out[0]), tuple(out[1])


def _axis_entries(v) -> list:
    """One side of a tensordot ``axes`` pair as a list of ints (a single int: one axis)."""
    try:
        len(v)
        seq = list(v)
    except TypeError:  # (as NumPy: a 0-d array is one entry, then refused below)
        seq = [v]
    for i in seq:
        if isinstance(i, bool) or not isinstance(i, numbers.Integral):
            raise TypeError(f"xnp.tensordot: the axes in a pair must be integers, got {i!r} "
                            f"(type {type(i).__name__})")
    return [int(i) for i in seq]


def _shape_mismatch(lists, sa, sb):
    raise ValueError(f"xnp.tensordot: shape-mismatch for sum: axes {lists[0]} of "
                     f"{_fmt(sa)} vs axes {lists[1]} of {_fmt(sb)}")


# --------------------------------------------------------------------------- gufunc layout


def iter_order(strides) -> list:
    """The axes of an iteration in the order NumPy's iterator lays a new array out in
    (``order='K'``, ``npyiter_find_best_axis_ordering``), innermost first: ``strides``
    holds each operand's strides along the axes (0 where it broadcasts or the axis has
    length 1: no say). A stable insertion sort from the row-major order that moves an axis
    inwards where every operand with a say on the pair has a smaller stride along it (where
    the operands disagree, row-major order wins)."""
    n = len(strides[0]) if strides else 0
    perm = list(range(n - 1, -1, -1))
    for i0 in range(1, n):
        pos, j0 = i0, perm[i0]
        for i1 in range(i0 - 1, -1, -1):
            j1, ambiguous, swap = perm[i1], True, False
            for st in strides:
                if st[j0] and st[j1]:
                    swap = abs(st[j1]) > abs(st[j0]) and (ambiguous or swap)
                    ambiguous = False
            if not ambiguous:
                if not swap:
                    break
                pos = i1
        perm.insert(pos, perm.pop(i0))
    return perm


def in_layout(res, want):
    """``res`` (a new array) with the element strides ``want``: itself where its flags
    already say so, else laid out so (``_like_layout.laid_out``)."""
    if _layout._matches(_shape(res), _layout.layout(res), want):
        return res
    return laid_out(res, want, fresh=True)


def _gufunc_layout(res, operands):
    """``res``, the result of the gufunc ``vecdot``, ``matvec`` or ``vecmat``, in the memory
    order NumPy allocates it in (``order='K'``): its core dimensions innermost and
    row-major, its loop dimensions in :func:`iter_order` of the operands' strides along
    them (``operands``: ``(value, loop_axes)`` pairs, the value as given and its axes that
    are loop dimensions, in order; a missing axis broadcasts). A stack of Fortran-ordered
    operands gives a column-major stack of results. Left as it is where an operand's
    layout is unknown (a ``jit`` argument)."""
    shape = _shape(res)
    nloop = max(len(a) for _, a in operands)
    if nloop < 2:
        return res
    loop = []
    for v, axes in operands:
        st = _layout.layout(v)
        if st is None:
            return res
        sv = _shape(v)
        loop.append((0,) * (nloop - len(axes)) + tuple(
            0 if sv[a] == 1 else st[a] for a in axes))
    step = math.prod(shape[nloop:])
    want = [0] * nloop
    for a in iter_order(loop):
        want[a] = step
        step *= shape[a]
    return in_layout(res, tuple(want) + _layout.c_strides(shape[nloop:]))


# --------------------------------------------------------------------------- vecdot


@writes_out()
def vecdot(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True,
           signature=None, axes=None, axis=-1):
    """Vector dot product along ``axis``, conjugating ``x1`` (``numpy.vecdot``, Array API).

    The other dimensions broadcast. Shape: the broadcast of both shapes without
    ``axis``. Dtype: NumPy's result dtype, or ``dtype``; ``casting`` as :func:`matmul`'s.

    Raises
    ------
    ValueError
        An operand is 0-d, the vector lengths differ, or the other dimensions do
        not broadcast.
    numpy.exceptions.AxisError
        ``axis`` is out of range.
    TypeError
        An input or the result does not cast under ``casting``.
    NotImplementedError
        Non-default ``subok``, ``signature`` or ``axes``.
    """
    check_unsupported("vecdot", subok=(subok, True, "xnp has no array subclasses"),
                      signature=(signature, None, "loop signatures are NumPy-internal"),
                      axes=(axes, None, "use `axis`"))
    x, y, dt = _gufunc_operands("vecdot", x1, x2, casting, dtype)
    sa, sb = _shape(x), _shape(y)
    for i, s in enumerate((sa, sb)):
        if not s:
            raise ValueError(f"xnp.vecdot: Input operand {i} does not have enough dimensions "
                             f"(has 0, gufunc core with signature (n),(n)->() requires 1)")
    ia = normalize_axis("vecdot", axis, len(sa))
    ib = normalize_axis("vecdot", axis, len(sb))
    if sa[ia] != sb[ib]:
        raise ValueError(f"xnp.vecdot: Input operand 1 has a mismatch in its core dimension 0, "
                         f"with gufunc signature (n),(n)->() (size {sb[ib]} is different from "
                         f"{sa[ia]}); shapes {_fmt(sa)} and {_fmt(sb)}")
    loop_a = sa[:ia] + sa[ia + 1:]
    loop_b = sb[:ib] + sb[ib + 1:]
    given = ((x, _other(len(sa), ia)), (y, _other(len(sb), ib)))
    if dt in kit.COMPLEX:
        x = lax.conj(x)
    if loop_a == loop_b:  # the other dimensions pair up: batch dimensions, in order
        res = _dot(x, y, (ia,), (ib,), _other(len(sa), ia), _other(len(sb), ib))
    elif not loop_a or not loop_b:  # one operand is a vector: the other's dims are free
        res = _dot(x, y, (ia,), (ib,))
    else:
        x, y = _to_last(x, ia), _to_last(y, ib)
        batch = broadcast_shapes("vecdot", loop_a, loop_b)
        nb = len(batch)
        x = broadcast_to(x, batch + (sa[ia],))
        y = broadcast_to(y, batch + (sb[ib],))
        res = _dot(x, y, (nb,), (nb,), tuple(range(nb)), tuple(range(nb)))
    return write_out("vecdot", out, _gufunc_layout(_summed(res, sa[ia]), given), casting)


def _other(ndim, axis):
    return tuple(i for i in range(ndim) if i != axis)


def _to_last(x, axis):
    n = len(_shape(x))
    if axis == n - 1:
        return x
    perm = tuple(i for i in range(n) if i != axis) + (axis,)
    return lax.transpose(x, perm)


# --------------------------------------------------------------------------- matvec / vecmat


def _matvec_values(x, y):
    """``numpy.matvec`` of ``x`` (..., m, n) and ``y`` (..., n), operands already in their
    loop dtype whose core dimensions match and whose loop dimensions broadcast."""
    sa, sb = _shape(x), _shape(y)
    na, nb = len(sa), len(sb)
    loop_a, loop_b = sa[:-2], sb[:-1]
    given = ((x, tuple(range(na - 2))), (y, tuple(range(nb - 1))))
    if loop_a == loop_b:
        k = tuple(range(len(loop_a)))
    elif not loop_b:  # one vector y: x's loop dimensions are free ones, first in the result
        k = ()
    else:  # (y's loop dimensions as free ones would come after x's m)
        batch = broadcast_shapes("matvec", loop_a, loop_b)
        x, y = broadcast_to(x, batch + sa[-2:]), broadcast_to(y, batch + sb[-1:])
        na, nb, k = len(batch) + 2, len(batch) + 1, tuple(range(len(batch)))
    return _gufunc_layout(_summed(_dot(x, y, (na - 1,), (nb - 1,), k, k), sa[-1]), given)


def _vecmat_values(x, y):
    """``numpy.vecmat`` of ``x`` (..., n) and ``y`` (..., n, m) without its conjugation,
    operands already in their loop dtype whose core dimensions match and whose loop
    dimensions broadcast."""
    sa, sb = _shape(x), _shape(y)
    na, nb = len(sa), len(sb)
    loop_a, loop_b = sa[:-1], sb[:-2]
    given = ((x, tuple(range(na - 1))), (y, tuple(range(nb - 2))))
    if loop_a == loop_b:
        k = tuple(range(len(loop_a)))
    elif not loop_a or not loop_b:  # one operand without loop dimensions: free ones
        k = ()
    else:
        batch = broadcast_shapes("vecmat", loop_a, loop_b)
        x, y = broadcast_to(x, batch + sa[-1:]), broadcast_to(y, batch + sb[-2:])
        na, nb, k = len(batch) + 1, len(batch) + 2, tuple(range(len(batch)))
    return _gufunc_layout(_summed(_dot(x, y, (na - 1,), (nb - 2,), k, k), sa[-1]), given)
