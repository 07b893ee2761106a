"""Products of vectors and matrices: ``dot``, ``matmul``, ``vdot``, ``inner``, ``outer``,
``tensordot``, ``vecdot`` (and the values of ``matvec``/``vecmat``), each one
``lax.dot_general`` after NumPy's shape rules.

Operands are converted as ``numpy.asarray`` does: Python scalars are *not* weak here
(``numpy.dot(2, int8_array)`` is int64), and both operands are promoted to their
NumPy result dtype before the product, which is also the accumulator dtype
(``preferred_element_type``). Where NumPy has no common dtype (ml_dtypes' bfloat16 with
float16 or with integers wider than 8 bits), that is the dtype of NumPy's ufunc loop, as
for ``xnp.add`` and ``xnp.multiply`` (``_util.ufunc_result_dtype``: bfloat16 with float16
is float32, with int32 float64): the dtype ``numpy.matmul`` gives (``numpy.dot`` computes
these in object dtype). bool products are bool (OR of ANDs), as in NumPy. All shapes and
axes are static.

The gufuncs (``matmul``, ``vecdot``, ``matvec``, ``vecmat``) contract their operands as they
are wherever that gives NumPy's result order (the loop dimensions of both operands equal,
or one operand without loop dimensions): one ``dot_general``, with no broadcast, transpose or
reshape around it, which is all an eager call replays (``_replay``).
"""

from __future__ import annotations

import numbers

import numpy as np

from xnp import _default_dtypes
from xnp import lax
from xnp.lax import _kit as kit
from xnp.numpy_api._util import (AxisError, asarray_for, broadcast_shapes, broadcast_to,
                                 check_unsupported, is_xnp, normalize_axis,
                                 ufunc_result_dtype, write_out)
from xnp.tracing import core
from xnp.numpy_api import _fastpath as fastpath
from xnp.numpy_api._ufunc import _cast as _cast_checked
from xnp.numpy_api._ufunc import _extras
from xnp.numpy_api._fp_out import writes_out
from xnp.tracing.avals import canonical_dtype

__all__ = ["dot", "matmul", "vdot", "inner", "outer", "tensordot", "vecdot"]

_MATMUL_SIG = "(n?,k),(k,m?)->(n?,m?)"


# --------------------------------------------------------------------------- helpers


def _asarray(fname, x, argname):
    if core.is_python_scalar(x):
        return core.lift(_default_dtypes.scalar_to_ndarray(x))
    return asarray_for(fname, x, argname)


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


# --------------------------------------------------------------------------- dot


@fastpath.matmul("dot")
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
        res = _dot(x, y, (), ())
    else:
        ib = 0 if len(sb) == 1 else len(sb) - 2
        if sa[-1] != sb[ib]:
            _not_aligned("dot", sa, sb, len(sa) - 1, ib)
        res = _dot(x, y, (len(sa) - 1,), (ib,))
    return write_out("dot", out, res)


# --------------------------------------------------------------------------- matmul


@fastpath.matmul("matmul")
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
    return write_out("matmul", out, _matmul_values("matmul", x, y, x1, x2), casting)


def _matmul_values(fname, x, y, x1, x2):
    """``x @ y`` of two operands already in their loop dtype (``x1``, ``x2``: the
    operands as given, named in errors); ``fname`` is the function named in errors."""
    sa, sb = _shape(x), _shape(y)
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
    if len(sb) <= 2:  # (..., n, k) @ (k, m) or (k,): no batch dims, no broadcasting
        res = _dot(x, y, (len(sa) - 1,), (0,))
    elif len(sa) == 1:  # (k,) @ (..., k, m)
        res = _dot(x, y, (0,), (ib,))
    else:
        try:
            batch = broadcast_shapes(fname, sa[:-2], sb[:-2])
        except ValueError:
            raise ValueError(
                f"xnp.{fname}: operands could not be broadcast together: the batch dimensions "
                f"{_fmt(sa[:-2])} of x1 (dtype {_dtype_name(x1)}, shape {_fmt(sa)}) and "
                f"{_fmt(sb[:-2])} of x2 (dtype {_dtype_name(x2)}, shape {_fmt(sb)}) do not "
                "broadcast (the last two dimensions are the matrices)") from None
        nb = len(batch)
        x = broadcast_to(x, batch + sa[-2:])
        y = broadcast_to(y, batch + sb[-2:])
        res = _dot(x, y, (nb + 1,), (nb,), tuple(range(nb)), tuple(range(nb)))
    return res


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
    x, y = _ravel(x), _ravel(y)
    if dt in kit.COMPLEX:
        x = lax.conj(x)
    return _dot(x, y, (0,), (0,))


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
        return _dot(x, y, (), ())
    if sa[-1] != sb[-1]:
        _not_aligned("inner", sa, sb, len(sa) - 1, len(sb) - 1)
    return _dot(x, y, (len(sa) - 1,), (len(sb) - 1,))


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
        An int ``N`` sums the last ``N`` axes of ``a`` with the first ``N`` of ``b``;
        a pair lists the axes of ``a`` and of ``b`` (ints or sequences of equal
        length; negative values count from the end). Static.

    Returns
    -------
    Array
        Shape: the remaining axes of ``a`` then of ``b``.

    Raises
    ------
    ValueError
        Paired axes differ in size or number (NumPy's "shape-mismatch for sum").
    numpy.exceptions.AxisError
        An axis is out of range, or an int ``axes`` exceeds an operand's rank.
    """
    x, y, dt = _operands("tensordot", a, b)
    sa, sb = _shape(x), _shape(y)
    if isinstance(axes, numbers.Integral) and not isinstance(axes, bool):
        n = int(axes)
        if n < 0 or n > len(sa) or n > len(sb):
            # NumPy raises IndexError here; AxisError is both an IndexError and a ValueError
            raise AxisError(f"xnp.tensordot: axes={n} is out of range for operands of shapes "
                            f"{_fmt(sa)} and {_fmt(sb)}")
        axes_a = tuple(range(len(sa) - n, len(sa)))
        axes_b = tuple(range(n))
    else:
        try:
            axes_a, axes_b = axes
        except (TypeError, ValueError):
            raise TypeError(f"xnp.tensordot: `axes` must be an int or a pair of axis lists, "
                            f"got {axes!r}") from None
        axes_a = _axis_list(axes_a, len(sa))
        axes_b = _axis_list(axes_b, len(sb))
    if len(axes_a) != len(axes_b) or any(sa[i] != sb[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError(f"xnp.tensordot: shape-mismatch for sum: axes {list(axes_a)} of "
                         f"{_fmt(sa)} vs axes {list(axes_b)} of {_fmt(sb)}")
    return _dot(x, y, axes_a, axes_b)


def _axis_list(ax, ndim):
    seq = [ax] if isinstance(ax, numbers.Integral) else list(ax)
    return tuple(normalize_axis("tensordot", int(i), ndim, "axes") for i in seq)


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
    return write_out("vecdot", out, res, casting)


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
    if loop_a == loop_b:
        k = tuple(range(len(loop_a)))
    elif not loop_b:  # one vector y: x's loop dimensions are free ones, first in the result
        k = ()
    else:  # (y's loop dimensions as free ones would come after x's m)
        batch = broadcast_shapes("matvec", loop_a, loop_b)
        x, y = broadcast_to(x, batch + sa[-2:]), broadcast_to(y, batch + sb[-1:])
        na, nb, k = len(batch) + 2, len(batch) + 1, tuple(range(len(batch)))
    return _dot(x, y, (na - 1,), (nb - 1,), k, k)


def _vecmat_values(x, y):
    """``numpy.vecmat`` of ``x`` (..., n) and ``y`` (..., n, m) without its conjugation,
    operands already in their loop dtype whose core dimensions match and whose loop
    dimensions broadcast."""
    sa, sb = _shape(x), _shape(y)
    na, nb = len(sa), len(sb)
    loop_a, loop_b = sa[:-1], sb[:-2]
    if loop_a == loop_b:
        k = tuple(range(len(loop_a)))
    elif not loop_a or not loop_b:  # one operand without loop dimensions: free ones
        k = ()
    else:
        batch = broadcast_shapes("vecmat", loop_a, loop_b)
        x, y = broadcast_to(x, batch + sa[-1:]), broadcast_to(y, batch + sb[-2:])
        na, nb, k = len(batch) + 1, len(batch) + 2, tuple(range(len(batch)))
    return _dot(x, y, (na - 1,), (nb - 2,), k, k)
