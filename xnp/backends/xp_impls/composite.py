"""Kernels of the composite operations (``xnp.lax.composite``) on an array module ``xp``.

``KERNELS[name] = signatures``: the composite ``name`` is computed by the array module's
function of that name, ``xp.<name>(*operands)``, which computes what its decomposition
computes (values, signed zeros, NaNs, dtype; ``tests/lax/test_composite.py``
checks each against its decomposition on grids of special values) for operands whose
dtypes are one of ``signatures`` (tuples of dtypes); other dtypes run the decomposition.
The dtypes listed are NumPy's own and bfloat16, whose loops ml_dtypes registers with
NumPy's ufuncs (NumPy with ml_dtypes is the oracle for bfloat16).
"""

from __future__ import annotations

import functools
import operator
import warnings

import ml_dtypes
import numpy as np

from xnp import lax
from xnp.backends.xp_impls._table import PARAM_KERNELS, XP_IMPLS
from xnp.backends.xp_impls.checks import _runtime_warning
from xnp.backends.xp_impls.elementwise import DTYPE_UFUNCS
from xnp.backends.xp_impls.linalg import dot_general_kernel
from xnp.backends.xp_impls.sorting import RADIX_SORTED, stable_argsort
from xnp.tracing.fp_warnings import fp_warnings_at_user_line
from xnp.tracing.recording import note_effect

__all__ = ["KERNELS", "MATRIX_KERNELS", "FUNCTION_KERNELS", "kernel_of"]

_FLOATS = tuple(np.dtype(t) for t in (np.float16, np.float32, np.float64))
_BF16 = (np.dtype(ml_dtypes.bfloat16),)  # ml_dtypes' loops, registered with NumPy's ufuncs
_INTS = tuple(np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8,
                                    np.uint16, np.uint32, np.uint64))
_COMPLEX = tuple(np.dtype(t) for t in (np.complex64, np.complex128))
_ALL = (np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX
_I32 = np.dtype(np.int32)


def _same(dtypes, n: int) -> frozenset:
    return frozenset((d,) * n for d in dtypes)


KERNELS = {
    "logaddexp": _same(_FLOATS + _BF16, 2),
    "logaddexp2": _same(_FLOATS + _BF16, 2),
    "hypot": _same(_FLOATS + _BF16, 2),
    "copysign": _same(_FLOATS + _BF16, 2),
    "heaviside": _same(_FLOATS + _BF16, 2),
    "fmax": _same(_FLOATS + _BF16, 2),
    "fmin": _same(_FLOATS + _BF16, 2),
    "trunc": _same(_FLOATS + _BF16, 1),
    "spacing": _same(_FLOATS, 1),
    "signbit": _same(_FLOATS + _BF16, 1),
    "isinf": _same(_FLOATS + _BF16, 1),
    "logical_and": _same(_ALL, 2),
    "logical_or": _same(_ALL, 2),
    "logical_xor": _same(_ALL, 2),
    "logical_not": _same(_ALL, 1),
    "gcd": _same(_INTS, 2),
    "bitwise_count": _same((np.dtype(np.bool_),) + _INTS, 1),
    "lcm": _same(_INTS, 2),
    "ldexp": frozenset((f, _I32) for f in _FLOATS + _BF16),
    "frexp": _same(_FLOATS + _BF16, 1),
    "floor_divide": _same(_INTS + _FLOATS + _BF16, 2),
    "remainder": _same(_INTS + _FLOATS + _BF16, 2),
    "divmod": _same(_INTS + _FLOATS + _BF16, 2),
    "fmod": _same(_INTS, 2),
    "reciprocal": _same(_INTS + _FLOATS + _BF16 + _COMPLEX, 1),
    # NumPy's ufuncs of the public names (their warnings name them: "overflow encountered in
    # square", not "in multiply"); ``power`` of a Python int exponent is in _FUNCTION_TABLE
    "square": _same(_INTS + _FLOATS + _BF16 + _COMPLEX, 1),
    "float_power": _same((np.dtype(np.float64), np.dtype(np.complex128)), 2),
    "rad2deg": _same(_FLOATS + _BF16, 1),
    "degrees": _same(_FLOATS, 1),  # (ml_dtypes has no degrees/radians loops)
    "deg2rad": _same(_FLOATS + _BF16, 1),
    "radians": _same(_FLOATS, 1),
    "modf": _same(_FLOATS + _BF16, 1),
    "sinc": _same(_FLOATS, 1),
    # NumPy's complex order (its loops warn where a NaN is compared)
    "less": _same(_COMPLEX, 2),
    "less_equal": _same(_COMPLEX, 2),
    "greater": _same(_COMPLEX, 2),
    "greater_equal": _same(_COMPLEX, 2),
}


# --------------------------------------------------------------------------- general composites
# (``lax.composite_general``): matrix functions, whose kernels are ``numpy.linalg``'s LAPACK
# calls. NumPy computes single precision in double and rounds the result, so a kernel agrees
# with its decomposition within rounding (``tests/lax/test_composite.py`` checks each, and
# that it raises the decomposition's errors). Where NumPy's function answers otherwise than
# the decomposition for some values (a NaN it returns where the decomposition's check raises,
# an error where the decomposition gives NaN), the kernel below adds that rule, on NumPy's
# results: nothing is recomputed unless NumPy failed or met a NaN. For an inf or NaN entry,
# det, slogdet, norm and cond give NumPy's values and warnings, not the decomposition's
# (slogdet's sign: NumPy's +-1 where the decomposition's is NaN; the warnings name det
# and slogdet, none for cond's division by zero).

_LAPACK = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64),
           np.dtype(np.complex128))


def _mH(xp, x):
    return xp.conj(xp.swapaxes(x, -1, -2))


def _may_have_nan(xp, x) -> bool:
    """Whether ``x`` may have a NaN: False only where it has none, as the sum of its
    entries' squared moduli (one BLAS dot product, cheaper than ``isnan(x).any()``) is not
    NaN. A complex inf entry makes it NaN too (``inf * conj(inf)``): the callers then look
    closer."""
    total = xp.vdot(x, x)
    return bool(total != total)


def _nan_where_input_has_none(xp, out, a, *, finite: bool = False) -> bool:
    """Whether some matrix of ``a`` (..., M, N) without a NaN (``finite``: without an inf or
    NaN) has a NaN in its part of ``out`` (batch dimensions leading): the condition of the
    decomposition's ``check_nan_where_input_finite`` (xnp/numpy_api/linalg.py)."""
    if not _may_have_nan(xp, out):
        return False
    nb = a.ndim - 2
    nan_out = xp.isnan(out).any(axis=tuple(range(nb, out.ndim)))
    good = xp.isfinite(a).all(axis=(-2, -1)) if finite else ~xp.isnan(a).any(axis=(-2, -1))
    return bool((nan_out & good).any())


def _cholesky(xp, a, *, upper: bool):
    """potrf on the triangle ``upper`` names (``numpy.linalg.cholesky``), with the
    decomposition's rule: NaN factors for the matrices where it fails, and "Matrix is not
    positive definite" where a matrix without a NaN has a NaN factor (NumPy raises for
    every failure, also for a NaN entry, and returns complex potrf's NaN factor of some
    matrices with an inf entry)."""
    try:
        out = xp.linalg.cholesky(a, upper=upper)
    except xp.linalg.LinAlgError:
        x = _mH(xp, a) if upper else a
        out = XP_IMPLS[lax.cholesky_p](xp, x)  # NaN for each matrix that failed
        out = _mH(xp, out) if upper else out
    if _nan_where_input_has_none(xp, out, a):  # (per matrix: transposing changes nothing)
        raise xp.linalg.LinAlgError("Matrix is not positive definite")
    return out


def _eigh(xp, a, *, lower: bool):
    """syevd (``numpy.linalg.eigh``): ``(eigenvalues, eigenvectors)``. NumPy's error where it
    fails on matrices without a NaN (an inf entry in the triangle read: NaN eigenvalues or,
    for some, "Eigenvalues did not converge", as NumPy; the decomposition gives NaN for all
    of them); with a NaN entry, NaN for the matrices that failed. "Eigenvalues did not
    converge" where a matrix without an inf or NaN has NaN eigenvalues."""
    try:
        w, v = xp.linalg.eigh(a, UPLO="L" if lower else "U")
    except xp.linalg.LinAlgError:
        if not xp.isnan(a).any():
            raise
        v, w = XP_IMPLS[lax.eigh_p](xp, a, lower=lower, sort_eigenvalues=True)
    if _nan_where_input_has_none(xp, w, a, finite=True):
        raise xp.linalg.LinAlgError("Eigenvalues did not converge")
    return w, v


def _eigvalsh(xp, a, *, lower: bool):
    """syevd without vectors (``numpy.linalg.eigvalsh``, its error where it fails) for
    matrices without a NaN, where its eigenvalues are ``eigh``'s within rounding; with a NaN
    entry, or where it returns a NaN, :func:`_eigh`'s (for a NaN entry ``eigvalsh`` returns
    other numbers than ``eigh``)."""
    if not _may_have_nan(xp, a) or not xp.isnan(a).any():
        w = xp.linalg.eigvalsh(a, UPLO="L" if lower else "U")
        if not _may_have_nan(xp, w):
            return w
    return _eigh(xp, a, lower=lower)[0]


def _check_converged(xp, value, message: str) -> None:
    """The decomposition's ``check_converged``: ``message`` where ``value`` has a NaN."""
    if _may_have_nan(xp, value) and xp.isnan(value).any():
        raise xp.linalg.LinAlgError(message)


def _svd_operand(xp, a):
    """``(x, inf)``: ``a`` for gesdd and the matrices (a bool array over the batch) whose
    results are NaN, or None. A matrix with an inf entry and no NaN has NaN singular values
    in NumPy (gesdd may not return on it: it is replaced by zeros here); a NaN entry raises
    "SVD did not converge", as NumPy. One dot product where every entry is finite."""
    if abs(xp.vdot(a, a)) < np.inf:  # finite: every entry is
        return a, None
    finite = xp.isfinite(a).all(axis=(-2, -1))
    if finite.all():  # the sum overflowed
        return a, None
    if xp.isnan(a).any():
        raise xp.linalg.LinAlgError("SVD did not converge")
    inf = ~finite
    return xp.where(inf[..., None, None], xp.zeros((), a.dtype), a), inf


def _svd(xp, a, *, full_matrices: bool):
    """gesdd (``numpy.linalg.svd``): ``(U, S, Vh)``; "SVD did not converge" also where S
    has a NaN (NumPy returns NaN for an inf entry), NaN results for a matrix with an inf
    entry (:func:`_svd_operand`)."""
    x, inf = _svd_operand(xp, a)
    u, s, vh = xp.linalg.svd(x, full_matrices=full_matrices)
    if inf is None:
        _check_converged(xp, s, "SVD did not converge")
        return u, s, vh
    _check_converged(xp, s[~inf], "SVD did not converge")
    for r in (u, s, vh):
        r[inf] = np.nan
    return u, s, vh


def _svdvals(xp, a):
    """gesdd without vectors (``numpy.linalg.svd(a, compute_uv=False)``), checked as
    :func:`_svd`."""
    x, inf = _svd_operand(xp, a)
    s = xp.linalg.svd(x, compute_uv=False)
    if inf is None:
        _check_converged(xp, s, "SVD did not converge")
        return s
    _check_converged(xp, s[~inf], "SVD did not converge")
    s[inf] = np.nan
    return s


#: the real dtype of a LAPACK dtype
_REAL_OF = {np.dtype(np.float32): np.dtype(np.float32),
            np.dtype(np.float64): np.dtype(np.float64),
            np.dtype(np.complex64): np.dtype(np.float32),
            np.dtype(np.complex128): np.dtype(np.float64)}
#: the complex dtype of ``eig``'s results for an operand dtype (``lax.eig``'s)
_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64),
               np.dtype(np.float64): np.dtype(np.complex128),
               np.dtype(np.complex64): np.dtype(np.complex64),
               np.dtype(np.complex128): np.dtype(np.complex128)}


def _cond(xp, x, *, inverse: bool):
    """``s[0] / s[-1]`` (``1 / that`` if ``inverse``) of :func:`_svdvals`, inf for 0 / 0
    (``numpy.linalg.cond``'s rule; the matrix has no NaN, or its SVD would have raised), and
    as NumPy without a warning for a division by zero (the decomposition's ``divide``
    warns)."""
    s = _svdvals(xp, x)
    with xp.errstate(all="ignore"):
        r = s[..., -1] / s[..., 0] if inverse else s[..., 0] / s[..., -1]
    nan = xp.isnan(r)
    return xp.where(nan, xp.asarray(xp.inf, r.dtype), r) if nan.any() else r


def _eig(xp, a):
    """geev with right eigenvectors (``numpy.linalg.eig``, which raises "Array must not
    contain infs or NaNs" and "Eigenvalues did not converge" as the decomposition), always
    complex (``xnp.linalg.eig`` makes a real result eagerly), NaN eigenvalues raising."""
    w, v = xp.linalg.eig(a)
    cdt = _COMPLEX_OF[a.dtype]
    w, v = w.astype(cdt, copy=False), v.astype(cdt, copy=False)
    _check_converged(xp, w, "Eigenvalues did not converge")
    return w, v


def _eigvals(xp, a):
    """geev without vectors (``numpy.linalg.eigvals``), complex and checked as :func:`_eig`."""
    w = xp.linalg.eigvals(a).astype(_COMPLEX_OF[a.dtype], copy=False)
    _check_converged(xp, w, "Eigenvalues did not converge")
    return w


#: NumPy's ``lstsq`` error (also the decomposition's under jit, numpy_api/linalg_norms.py)
_LSTSQ_DID_NOT_CONVERGE = "SVD did not converge in Linear Least Squares"


def _check_lstsq_converged(xp, a) -> None:
    try:
        s = _svdvals(xp, a)
    except xp.linalg.LinAlgError:  # a NaN entry: the SVD's error, in lstsq's words
        raise xp.linalg.LinAlgError(_LSTSQ_DID_NOT_CONVERGE) from None
    _check_converged(xp, s, _LSTSQ_DID_NOT_CONVERGE)


def _lstsq(xp, a, b, rcond):
    """gelsd (``numpy.linalg.lstsq``): ``(x, residuals, rank, s)``, with the residuals for
    every column of ``b`` where ``M > N`` (NumPy leaves them out where the rank is below N,
    ``xnp.linalg.lstsq`` drops them there). An inf or NaN entry of ``a`` raises the
    NumPy's "SVD did not converge in Linear Least Squares" where gesdd's singular values have
    a NaN, as the decomposition under jit does (gelsd itself may return, after LAPACK's
    complaints on stderr)."""
    total = xp.vdot(a, a)
    if not xp.isfinite(total):  # NaN singular values (an inf entry) raise here too
        _check_lstsq_converged(xp, a)
    try:
        x, resid, rank, s = xp.linalg.lstsq(a, b, rcond=rcond)
    except xp.linalg.LinAlgError:
        # the decomposition's error where gesdd does not converge either
        _check_lstsq_converged(xp, a)
        raise
    m, n = a.shape
    if m > n and resid.shape[0] != b.shape[1]:
        resid = (abs(b - a @ x) ** 2).sum(axis=0)
    return x, resid, rank, s


#: name -> (kernel, operand-dtype signatures): the kernel is the array module's function of
#: that dotted name (a string), or a function of the array module and the operands above;
#: it returns a tuple of results (a single array for one), of the decomposition's avals
_MATRIX_TABLE = {
    "linalg.solve": ("linalg.solve", _same(_LAPACK, 2)),  # gesv; "Singular matrix"
    "linalg.inv": ("linalg.inv", _same(_LAPACK, 1)),  # gesv; "Singular matrix"
    "linalg.det": ("linalg.det", _same(_LAPACK, 1)),  # getrf
    "linalg.slogdet": ("linalg.slogdet", _same(_LAPACK, 1)),  # getrf
    "linalg.cholesky": (functools.partial(_cholesky, upper=False), _same(_LAPACK, 1)),
    "linalg.cholesky_upper": (functools.partial(_cholesky, upper=True), _same(_LAPACK, 1)),
    "linalg.eigh": (functools.partial(_eigh, lower=True), _same(_LAPACK, 1)),
    "linalg.eigh_upper": (functools.partial(_eigh, lower=False), _same(_LAPACK, 1)),
    "linalg.eigvalsh": (functools.partial(_eigvalsh, lower=True), _same(_LAPACK, 1)),
    "linalg.eigvalsh_upper": (functools.partial(_eigvalsh, lower=False), _same(_LAPACK, 1)),
    "linalg.svd": (functools.partial(_svd, full_matrices=True), _same(_LAPACK, 1)),
    "linalg.svd_reduced": (functools.partial(_svd, full_matrices=False), _same(_LAPACK, 1)),
    "linalg.svdvals": (_svdvals, _same(_LAPACK, 1)),
    "linalg.eig": (_eig, _same(_LAPACK, 1)),
    "linalg.eigvals": (_eigvals, _same(_LAPACK, 1)),
    "linalg.norm": ("linalg.norm", _same(_LAPACK, 1)),  # of x flattened: sqrt(dot(x, x))
    "linalg.cond": (functools.partial(_cond, inverse=False), _same(_LAPACK, 1)),
    "linalg.cond_inverse": (functools.partial(_cond, inverse=True), _same(_LAPACK, 1)),
    # (a, b, rcond): rcond of the singular values' dtype
    "linalg.lstsq": (_lstsq, frozenset((d, d, _REAL_OF[d]) for d in _LAPACK)),
}
#: the general composites' operand-dtype signatures (the backend's ``kernels``)
MATRIX_KERNELS = {name: sigs for name, (_, sigs) in _MATRIX_TABLE.items()}


# --------------------------------------------------------------------------- array functions
# ``interp``, ``cross`` and ``clip``: each is one composite whose kernel is NumPy's own
# function, which computes what the decomposition computes (``xnp.interp`` for increasing
# sample points: NumPy's loop; ``xnp.cross`` and ``xnp.clip``: the same products,
# differences and comparisons in the operands' dtype), checked on grids of special values
# by ``tests/numpy_api/test_composite_kernels.py``. Signed-integer ``power``, the
# NaN-ignoring extrema and the order statistics likewise (static arguments as keywords:
# the composite's ``params``), checked against NumPy by
# ``tests/numpy_api/test_statistics_kernels.py``.

_F64, _C128 = np.dtype(np.float64), np.dtype(np.complex128)


# ``interp`` with ``left``/``right`` given (0-d arrays of ``f``'s dtype), passed on as NumPy
# scalars: NumPy reads a complex bound with ``PyComplex_RealAsDouble``, which takes only the
# real part of a 0-d array
def _interp_left(xp, x, xq, f, lo):
    return xp.interp(x, xq, f, lo[()])


def _interp_right(xp, x, xq, f, hi):
    return xp.interp(x, xq, f, None, hi[()])


def _interp_left_right(xp, x, xq, f, lo, hi):
    return xp.interp(x, xq, f, lo[()], hi[()])


def _interp_period(xp, x, xq, f, period):
    """``interp(x, xq, f, period=period)`` as NumPy's ``interp`` computes it, with a stable
    sort of the sample points (NumPy's default sort may order equal ones either way; the
    decomposition keeps their order)."""
    p = period[()]
    x, xq = x % p, xq % p
    order = xp.argsort(xq, kind="stable")
    xq, f = xq[order], f[order]
    xq = xp.concatenate((xq[-1:] - p, xq, xq[0:1] + p))
    f = xp.concatenate((f[-1:], f, f[0:1]))
    return xp.interp(x, xq, f)


def _cross(xp, a, b):
    """``cross(a, b)`` of vectors along the last axes (one dtype): NumPy's for 3-vectors;
    for a 2-vector operand the products and differences of NumPy's branch for it, without
    its DeprecationWarning (``xnp.cross`` warns before the kernel runs)."""
    na, nb = a.shape[-1], b.shape[-1]
    if na == 3 and nb == 3:
        return xp.cross(a, b)
    # (ufuncs, not operators: on 1-D vectors the entries are NumPy scalars, whose
    # operators warn on integer overflow, which NumPy's array loops do not)
    mul, sub, neg = xp.multiply, xp.subtract, xp.negative
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    z = sub(mul(a0, b1), mul(a1, b0))
    if na == 2 and nb == 2:
        return xp.asarray(z)
    if na == 2:
        b2 = b[..., 2]
        x, y = mul(a1, b2), neg(mul(a0, b2))
    else:
        a2 = a[..., 2]
        x, y = neg(mul(a2, b1)), mul(a2, b0)
    return xp.stack((x, y, z), axis=-1)


def _nan_extremum(xp, x, *, ufunc: str, axis, keepdims):
    """``numpy.nanmax``/``nanmin`` of a real floating array as NumPy computes it (its
    ``fmax``/``fmin`` reduction), with its "All-NaN slice encountered" where the result has
    a NaN, naming the user's line."""
    res = getattr(xp, ufunc).reduce(x, axis=axis, keepdims=keepdims)
    if xp.isnan(res).any():
        _warn_at_user(xp, "All-NaN slice encountered")
    return res


def _warn_at_user(xp, message: str) -> None:
    """The ``RuntimeWarning`` ``message`` at the first frame outside xnp (the user's call,
    as NumPy's own warnings name it), by the eager rule of ``lax.runtime_warning`` (so a
    recording of the call is not stored)."""
    _runtime_warning(xp, True, message=message, each=False)


def _warnings_at_user(fn):
    """``fn`` of an array ``x`` (and keywords), whose warnings (NumPy's "All-NaN slice
    encountered", issued at a level meant for its own caller) name the user's line
    instead, where ``x`` has a NaN (without one NumPy warns only of floating-point errors,
    which name its own line, as NumPy's function called by the user does)."""
    def kernel(xp, x, *args, **kwargs):
        if not xp.isnan(x).any():
            return fn(xp, x, *args, **kwargs)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fn(xp, x, *args, **kwargs)
        for w in caught:
            if issubclass(w.category, RuntimeWarning):
                _warn_at_user(xp, str(w.message))
            else:  # (none NumPy's functions here issue): where NumPy issued it
                note_effect("issued a warning")
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return out
    return kernel


def _quantile(xp, x, *qv, function: str, q, axis, method, keepdims):
    """NumPy's quantile ``function`` of ``x`` at ``q`` (a static number) or ``qv[0]``."""
    return getattr(xp, function)(x, qv[0] if qv else q, axis=axis, method=method,
                                 keepdims=keepdims)


def _nanmedian(xp, x, *, axis, keepdims):
    """NumPy's ``nanmedian``."""
    return xp.nanmedian(x, axis=axis, keepdims=keepdims)


def _quantile_kernel(name: str):
    kernel = functools.partial(_quantile, function=name)
    return _warnings_at_user(kernel) if name.startswith("nan") else kernel


#: the quantile functions' operand dtypes: ``(a,)`` with a static ``q``, or ``(a, q)``
_Q_SIGS = frozenset([(d,) for d in _INTS + _FLOATS] + [
    (d, e) for d in _INTS + _FLOATS for e in (np.dtype(np.bool_),) + _INTS + _FLOATS])

def _scalar_divide(xp, a, b):
    """NumPy's division of the NumPy scalars of the 0-d ``a`` and ``b`` (its floating-point
    errors say "in scalar divide", or "in divide" where NumPy's scalar division defers to
    the ufunc: a complex64 over an intp), as a 0-d array of ``a``'s dtype; its warnings name
    the user's line."""
    quotient = fp_warnings_at_user_line(lambda: a[()] / b[()], xp.geterr())
    return xp.asarray(quotient, dtype=a.dtype)


def _einsum(xp, *operands, subscripts):
    """NumPy's ``einsum(subscripts, *operands)`` without path optimisation."""
    return xp.einsum(subscripts, *operands, optimize=False)


def _argsort(xp, x, *, axis, stable):
    """NumPy's argsort of ``x`` along ``axis`` (non-negative) as int64: its stable order
    (``sorting.stable_argsort``) or its default kind's (float16's too: NumPy's float16
    argsort orders right, unlike its float16 sort, ``sorting.UNSAFE_DEFAULT_SORT``)."""
    perm = stable_argsort(xp, x, axis) if stable else xp.argsort(x, axis=axis)
    return perm.astype(np.int64, copy=False)


def _argsort_method(xp, x, *, axis, stable):
    """``x.argsort(axis, kind)`` as a C callable where it is what :func:`_argsort` computes
    for arrays like ``x`` (a program serves one signature): NumPy's own stable sort (a radix
    sort, or fewer than 2048 elements, ``sorting.stable_argsort``) or its default kind,
    with int64 indices; else None."""
    if xp is not np or np.dtype(np.intp) != np.dtype(np.int64):
        return None
    if not stable:
        return operator.methodcaller("argsort", axis=axis)
    if x.dtype in RADIX_SORTED or x.size < 2048:
        return operator.methodcaller("argsort", axis=axis, kind="stable")
    return None


_INTERP_SIGS = ((_F64, _F64, _F64), (_F64, _F64, _C128))
#: name -> (kernel, operand-dtype signatures), as ``_MATRIX_TABLE``; ``clip`` is NumPy's
#: ``clip`` ufunc, which ``numpy.clip`` calls with two array bounds
_FUNCTION_TABLE = {
    "interp": ("interp", frozenset(_INTERP_SIGS)),
    "interp_left": (_interp_left, frozenset(s + s[2:] for s in _INTERP_SIGS)),
    "interp_right": (_interp_right, frozenset(s + s[2:] for s in _INTERP_SIGS)),
    "interp_left_right": (_interp_left_right, frozenset(s + s[2:] * 2 for s in _INTERP_SIGS)),
    "interp_period": (_interp_period, frozenset(s + (_F64,) for s in _INTERP_SIGS)),
    "cross": (_cross, _same(_INTS + _FLOATS + _BF16 + _COMPLEX, 2)),
    # (a, v) of one dtype, the longer first for convolve, with the keyword mode: NumPy's
    # own (correlate conjugates a complex v)
    "convolve": ("convolve", _same((np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX, 2)),
    "correlate": ("correlate", _same((np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX, 2)),
    "clip": ("_core.umath.clip", _same((np.dtype(np.bool_),) + _INTS + _FLOATS, 3)),
    # NumPy's loop raises "Integers to negative integer powers are not allowed." as the
    # decomposition's check (xnp/numpy_api/_powers.py); other dtypes: a Python int exponent
    "power": ("power", _same(_INTS + _FLOATS + _BF16 + _COMPLEX, 2)),
    # (x,) with keywords axis (a tuple) and keepdims: NumPy's loops and warning
    "nanmax": (functools.partial(_nan_extremum, ufunc="fmax"), _same(_FLOATS, 1)),
    "nanmin": (functools.partial(_nan_extremum, ufunc="fmin"), _same(_FLOATS, 1)),
    # (x,) with keywords axis (an int or None) and keepdims: NumPy's ValueError
    "nanargmax": ("nanargmax", _same(_FLOATS, 1)),
    "nanargmin": ("nanargmin", _same(_FLOATS, 1)),
    # with keywords q (a number, or None for an operand), axis (None or a tuple), method
    # and keepdims; the nan-forms' warnings at the user's line
    **{name: (_quantile_kernel(name), _Q_SIGS)
       for name in ("quantile", "percentile", "nanquantile", "nanpercentile")},
    # with keywords axis and keepdims
    "nanmedian": (_warnings_at_user(_nanmedian), _same(_FLOATS, 1)),
    # 2 to 8 operands of one dtype, keyword subscripts (explicit): NumPy's einsum with
    # optimize=False (xnp/numpy_api/einsum.py, _KERNEL_DTYPES)
    "einsum": (_einsum, frozenset((d,) * n for d in (np.dtype(np.bool_),) + _INTS + _FLOATS
                                  + _COMPLEX for n in range(2, 9))),
    # (a, b) of one dtype, at least 1-D, core dimensions checked: NumPy's matmul ufunc
    "matmul": ("matmul", _same((np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX, 2)),
    # (a, b) of one dtype, core dimensions checked: NumPy's matvec/vecmat ufuncs (vecmat
    # conjugates its first operand itself)
    "matvec": ("matvec", _same((np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX, 2)),
    "vecmat": ("vecmat", _same((np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX, 2)),
    # (a, b) of one dtype and size: NumPy's vdot (one C call, no floating-point check)
    "vdot": ("vdot", _same((np.dtype(np.bool_),) + _INTS + _FLOATS + _COMPLEX, 2)),
    # with keywords axis (non-negative) and stable; real dtypes NumPy orders as lax does
    "argsort": (_argsort, _same((np.dtype(np.bool_),) + _INTS + _FLOATS, 1)),
    # a mean's (total, count) or an average's (total, weight sum): NumPy's scalars' division
    "scalar_divide": (_scalar_divide, _same(_FLOATS + _COMPLEX, 2) | frozenset(
        (c, np.dtype(np.intp)) for c in _COMPLEX)),
}
#: the array functions' operand-dtype signatures (the backend's ``kernels``)
FUNCTION_KERNELS = {name: sigs for name, (_, sigs) in _FUNCTION_TABLE.items()}


def _kernel(xp, name: str):
    """The kernel of the composite ``name``: the array module's function of that name
    (dotted: ``linalg.solve``), or the general composite's function in ``_MATRIX_TABLE``
    or ``_FUNCTION_TABLE``."""
    spec = (_MATRIX_TABLE.get(name) or _FUNCTION_TABLE.get(name) or (name,))[0]
    if not isinstance(spec, str):
        return functools.partial(spec, xp)
    fn = xp
    for part in spec.split("."):
        fn = getattr(fn, part)
    return fn


#: kernels that return one array (or NumPy scalar) and run no Python frame: NumPy's ufuncs
#: and its C functions behind ``__array_function__`` dispatch (``numpy.vdot``)
_ONE_ARRAY_KERNELS = (np.ufunc, type(np.vdot))


def _composite(xp, *operands, name, decomposition, out_dtypes):
    return _kernel(xp, name)(*operands)


def _general(fn):
    def kernel(*operands, **params):
        out = fn(*operands, **params)
        return list(out) if isinstance(out, tuple) else [out]
    return kernel


def _composite_general(xp, *operands, name, decomposition, out_avals, params=()):
    return _general(_kernel(xp, name))(*operands, **dict(params))


def kernel_of(xp, prim, params, operand=None, second=None):
    """The function a recorded program calls for ``prim`` with ``params`` (no parameters):
    the kernel itself for a composite (a general composite's static ``params`` bound to
    it), ``linalg.dot_general_kernel`` for ``dot_general``, the ufunc that is the whole
    implementation for operands of ``operand``'s dtype (``elementwise.DTYPE_UFUNCS``: a
    ufunc called by the program has no frame of xnp's, so its warnings name the user's
    line) or such a callable with the parameters bound for operands of ``operand``'s dtype,
    shape and strides (``_table.PARAM_KERNELS``; ``operand`` is the first array operand of
    the recorded call, whose signature fixes these, ``second`` the second, which
    ``dot_general``'s kernel reads too), None for any other primitive."""
    by_dtype = DTYPE_UFUNCS.get(prim)
    if by_dtype is not None and operand is not None and not params:
        name = by_dtype(operand.dtype)
        return getattr(xp, name) if name is not None else None
    with_params = PARAM_KERNELS.get(prim)
    if with_params is not None and operand is not None:
        return with_params(xp, operand, **params)
    if prim is lax.composite_p or prim is lax.composite_multi_p:
        return _kernel(xp, params["name"])
    if prim is lax.composite_general_p:
        kernel = _kernel(xp, params["name"])
        static = params.get("params")
        general = _general(functools.partial(kernel, **dict(static)) if static else kernel)
        if not static and isinstance(kernel, _ONE_ARRAY_KERNELS):
            general.single_result = kernel  # (a program of one result may call it itself)
        elif params["name"] == "argsort" and operand is not None:
            direct = _argsort_method(xp, operand, **dict(static))
            if direct is not None:
                general.single_result = direct
        return general
    if prim is lax.dot_general_p:
        return dot_general_kernel(xp, operand, second, **params)
    return None


XP_IMPLS[lax.composite_p] = _composite
XP_IMPLS[lax.composite_multi_p] = _composite
XP_IMPLS[lax.composite_general_p] = _composite_general
