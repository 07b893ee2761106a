"""xnp: NumPy you can compile.

``import xnp as np`` runs NumPy-style code eagerly (on NumPy); ``xnp.jit``
traces a function into a jaxpr and compiles it with XLA.
"""

from xnp import config
from xnp import tracing as _tracing  # noqa: F401
from xnp import lax
from xnp import numpy_api as _numpy_api  # noqa: F401  (imports every topic module)
from xnp import _wiring
_wiring.connect()  # the backends, lax and numpy_api connected to xnp.tracing (xnp/_wiring.py)
from xnp import extend
from xnp.tracing import errors
from xnp.tracing.partial_eval import checking_leaks
from xnp.tracing import pytree as tree_util
from xnp.tracing.avals import ShapeDtypeStruct
from xnp.tracing.core import Array
from xnp.tracing.core import Array as ndarray  # `isinstance(x, np.ndarray)` after `import xnp as np`
from xnp.lax.ad_util import stop_gradient
from xnp.tracing.custom_derivatives import custom_jvp, custom_vjp
from xnp.tracing.jit import jit, make_jaxpr
from xnp.tracing.transformations import (grad, hessian, jacfwd, jacrev, jvp, linearize,
                                         value_and_grad, vjp, vmap)
from xnp import sharding
from xnp.sharding import device_put, devices
from xnp.lax.shmap import shard_map
from xnp import distributed
from xnp.distributed import (device_count, local_device_count, local_devices,
                             make_array_from_process_local_data,
                             make_array_from_single_device_arrays, process_count, process_index)

__all__ = ["config", "lax", "extend", "errors", "tree_util", "ShapeDtypeStruct", "Array", "ndarray", "jit",
           "make_jaxpr", "checking_leaks", "grad", "hessian", "jacfwd", "jacrev", "jvp",
           "linearize", "value_and_grad", "vjp", "vmap", "stop_gradient", "custom_jvp",
           "custom_vjp", "sharding", "device_put", "devices", "shard_map", "distributed",
           "device_count", "local_device_count", "local_devices", "process_count",
           "process_index", "make_array_from_process_local_data",
           "make_array_from_single_device_arrays"]

# the NumPy surface (generated from each module's __all__; tests/meta checks they agree)
from xnp.numpy_api.dtypes import (bfloat16, bool, bool_, can_cast, cdouble, complex128, complex64,
                                  complex_, complexfloating, csingle, double, dtype, e,
                                  euler_gamma, finfo, float16, float32, float64, float8_e4m3fn,
                                  float8_e5m2, float_, floating, generic, half, iinfo, inexact,
                                  inf, int16, int32, int64, int8, int_, integer, intp, isdtype,
                                  issubdtype, nan, newaxis, number, pi, promote_types, result_type,
                                  signedinteger, single, uint16, uint32, uint64, uint8, uintp,
                                  unsignedinteger)
# dtypes XLA has no type for: eager arrays with NumPy's semantics (xnp.tracing.host_arrays)
from xnp.numpy_api.dtypes import (bytes_, character, clongdouble, datetime64, flexible,
                                  longdouble, object_, str_, timedelta64, void)
from xnp.numpy_api.creation import (array, asanyarray, asarray, ascontiguousarray, astype, copy,
                                    empty, empty_like, eye, full, full_like, identity, ones,
                                    ones_like, zeros, zeros_like)
from xnp.numpy_api.ranges import arange, linspace
from xnp.numpy_api.elementwise import (abs, absolute, add, clip, divide, divmod, fabs,
                                       float_power, floor_divide, fmax, fmin, fmod, maximum,
                                       minimum, mod, multiply, negative, positive, pow, power,
                                       reciprocal, remainder, sign, square, subtract,
                                       true_divide, where)
from xnp.numpy_api.rounding import around, ceil, floor, rint, round, trunc
from xnp.numpy_api.transcendental import (acos, acosh, arccos, arccosh, arcsin, arcsinh, arctan,
                                          arctan2, arctanh, asin, asinh, atan, atan2, atanh, cbrt,
                                          cos, cosh, deg2rad, degrees, exp, exp2, expm1, hypot, i0,
                                          log, log10, log1p, log2, logaddexp, logaddexp2, rad2deg,
                                          radians, sin, sinh, sqrt, tan, tanh)
from xnp.numpy_api.logic import (angle, bitwise_and, bitwise_count, bitwise_invert,
                                 bitwise_left_shift, bitwise_not, bitwise_or, bitwise_right_shift,
                                 bitwise_xor, conj, conjugate, copysign, equal, greater,
                                 greater_equal, imag, invert, isfinite, isinf, isnan, left_shift,
                                 less, less_equal, logical_and, logical_not, logical_or,
                                 logical_xor, nextafter, not_equal, real, right_shift, signbit)
from xnp.numpy_api.indexing import (argwhere, compress, extract, flatnonzero, nonzero,
                                    put_along_axis, take, take_along_axis)
from xnp.numpy_api.products import (dot, inner, matmul, outer, tensordot, vdot, vecdot)
from xnp.numpy_api.manipulation import (append, atleast_1d, atleast_2d, atleast_3d,
                                        broadcast_arrays, broadcast_shapes, broadcast_to,
                                        column_stack, concat, concatenate, dstack, expand_dims,
                                        flip, fliplr, flipud, hstack, matrix_transpose, moveaxis,
                                        pad, permute_dims, ravel, reshape, squeeze, stack,
                                        swapaxes, transpose, vstack)
from xnp.numpy_api.tiling import array_split, repeat, roll, split, tile
from xnp.numpy_api.reductions import (all, amax, amin, any, argmax, argmin, count_nonzero, max,
                                      mean, min, prod, ptp, std, sum, var)
from xnp.numpy_api.cumulative import (cumprod, cumsum, cumulative_prod, cumulative_sum, diff,
                                      ediff1d, nancumprod, nancumsum)
from xnp.numpy_api.sorting import (argpartition, argsort, lexsort, partition, searchsorted, sort,
                                   sort_complex)
from xnp.numpy_api.convolve import (convolve, correlate)
from xnp.numpy_api.matrices import (diag, diag_indices, diag_indices_from, diagflat, diagonal,
                                    fill_diagonal, rot90, trace, tri, tril, tril_indices,
                                    tril_indices_from, triu, triu_indices, triu_indices_from,
                                    vander)
from xnp.numpy_api.grids import (fromfunction, geomspace, indices, ix_, logspace, meshgrid, mgrid,
                                 ogrid, ravel_multi_index, unravel_index)
from xnp.numpy_api.editing import (apply_along_axis, apply_over_axes, block, choose, copyto,
                                   delete, dsplit, hsplit, insert, place, put, putmask, resize,
                                   rollaxis, select, trim_zeros, unstack, vsplit)
from xnp.numpy_api.introspection import (errstate, isscalar, iterable, may_share_memory, ndim,
                                         shape, shares_memory, size, vectorize)
from xnp.numpy_api.einsum import (einsum, einsum_path)
from xnp.numpy_api.nan_functions import (isneginf, isposinf, nan_to_num, nanargmax, nanargmin,
                                         nanmax, nanmean, nanmin, nanprod, nanstd, nansum, nanvar)
from xnp.numpy_api.statistics import (average, corrcoef, cov, median, nanmedian, nanpercentile,
                                      nanquantile, percentile, quantile)
from xnp.numpy_api.closeness import allclose, array_equal, array_equiv, isclose
from xnp.numpy_api.math_misc import (cross, fix, frexp, gcd,
                                     gradient, heaviside, iscomplex, iscomplexobj, isreal,
                                     isrealobj, kron, lcm, ldexp, matvec, modf, real_if_close,
                                     sinc, spacing, trapezoid, unwrap, vecmat)
from xnp.numpy_api.sets import (intersect1d, isin, setdiff1d, setxor1d, union1d, unique,
                                unique_all, unique_counts, unique_inverse, unique_values)
from xnp.numpy_api.histograms import (bincount, digitize, histogram, histogram2d,
                                      histogram_bin_edges, histogramdd, interp)
from xnp.numpy_api.polynomials import (poly, poly1d, polyadd, polyder, polydiv, polyfit, polyint,
                                       polymul, polysub, polyval, roots)
from xnp.numpy_api.windows import (bartlett, blackman, hamming, hanning, kaiser, packbits,
                                   unpackbits)

from xnp.numpy_api.host_io import (asarray_chkfinite, frombuffer, fromfile, fromiter, fromstring,
                                   genfromtxt, load, loadtxt, require, save, savetxt, savez,
                                   savez_compressed)
from xnp.numpy_api.host_format import (array2string, array_repr, array_str, base_repr,
                                       binary_repr, common_type, format_float_positional,
                                       format_float_scientific, get_printoptions,
                                       min_scalar_type, mintypecode, printoptions,
                                       set_printoptions, typename)
from xnp.numpy_api.piecewise import piecewise
from xnp.numpy_api.index_tricks import (broadcast, c_, index_exp, mask_indices, ndenumerate,
                                       ndindex, r_, s_)
from xnp.numpy_api.iteration import nditer, nested_iters
from xnp.numpy_api.ndarray_internals import asfortranarray, flatiter, isfortran
# NumPy's ufunc names become xnp.ufunc objects wrapping the functions above
from xnp.numpy_api.ufunc import UFUNCS as _UFUNCS, ufunc
from xnp.numpy_api.pyufunc import frompyfunc
globals().update(_UFUNCS)
__all__ += ["ufunc", "frompyfunc"]
__all__ += [
    "save", "load", "savez", "savez_compressed", "loadtxt", "savetxt", "genfromtxt", "fromfile",
    "frombuffer", "fromiter", "fromstring", "asarray_chkfinite", "require", "set_printoptions",
    "get_printoptions", "printoptions", "array2string", "array_repr", "array_str",
    "format_float_positional", "format_float_scientific", "base_repr", "binary_repr",
    "common_type", "min_scalar_type", "mintypecode", "typename", "piecewise",
    "broadcast", "c_", "index_exp", "mask_indices", "ndenumerate", "ndindex", "r_", "s_",
    "nditer", "nested_iters", "asfortranarray", "flatiter", "isfortran",
]
__all__ += [
    "bool_", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "float8_e4m3fn",
    "float8_e5m2", "intp", "uintp", "double", "single", "half", "cdouble", "csingle", "int_",
    "float_", "complex_", "dtype", "finfo", "iinfo", "issubdtype", "isdtype", "result_type",
    "promote_types", "can_cast", "generic", "number", "integer", "signedinteger",
    "unsignedinteger", "inexact", "floating", "complexfloating", "pi", "e", "inf", "nan",
    "euler_gamma", "newaxis", "array", "asarray", "asanyarray", "ascontiguousarray", "zeros",
    "ones", "full", "empty", "zeros_like", "ones_like", "full_like", "empty_like", "arange",
    "linspace", "eye", "identity", "copy", "astype", "add", "subtract", "multiply", "divide",
    "true_divide", "floor_divide", "remainder", "mod", "fmod", "divmod", "power", "pow",
    "float_power", "negative", "positive", "absolute", "abs", "fabs", "sign", "square",
    "reciprocal", "maximum", "minimum", "fmax", "fmin", "floor", "ceil", "trunc", "rint",
    "round", "around", "where", "clip", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "logaddexp", "logaddexp2", "sqrt", "cbrt", "hypot", "sin", "cos", "tan", "arcsin", "arccos",
    "arctan", "arctan2", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "asin",
    "acos", "atan", "atan2", "asinh", "acosh", "atanh", "deg2rad", "rad2deg", "degrees",
    "radians", "i0", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_and", "bitwise_or",
    "bitwise_xor", "bitwise_not", "invert", "bitwise_invert", "left_shift", "right_shift",
    "bitwise_left_shift", "bitwise_right_shift", "isnan", "isinf", "isfinite", "signbit",
    "copysign", "real", "imag", "conj", "conjugate", "angle", "nextafter", "bitwise_count",
    "nonzero", "flatnonzero", "argwhere", "take", "take_along_axis", "put_along_axis",
    "compress", "extract", "dot", "matmul", "vdot", "inner", "outer", "tensordot", "vecdot",
    "reshape", "ravel", "transpose", "permute_dims", "matrix_transpose", "swapaxes", "moveaxis",
    "squeeze", "expand_dims", "concatenate", "concat", "stack", "hstack", "vstack", "dstack",
    "column_stack", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to",
    "broadcast_arrays", "broadcast_shapes", "flip", "flipud", "fliplr", "pad", "tile", "repeat",
    "split", "array_split", "roll", "append", "sum", "prod", "mean", "max", "amax", "min",
    "amin", "argmax", "argmin", "all", "any", "var", "std", "count_nonzero", "ptp", "cumsum",
    "cumprod", "cumulative_sum", "cumulative_prod", "nancumsum", "nancumprod", "diff",
    "ediff1d", "sort", "argsort", "lexsort", "partition", "argpartition", "searchsorted",
    "sort_complex", "convolve", "correlate", "diag", "diagonal", "diagflat", "trace", "tri",
    "tril", "triu", "tril_indices", "tril_indices_from", "triu_indices", "triu_indices_from",
    "diag_indices", "diag_indices_from", "fill_diagonal", "vander", "rot90", "meshgrid",
    "indices", "ix_", "mgrid", "ogrid", "unravel_index", "ravel_multi_index", "logspace",
    "geomspace", "fromfunction", "delete", "insert", "resize", "rollaxis", "block", "hsplit",
    "vsplit", "dsplit", "unstack", "select", "choose", "place", "put", "putmask", "copyto",
    "trim_zeros", "apply_along_axis", "apply_over_axes", "shape", "ndim", "size", "isscalar",
    "iterable", "may_share_memory", "shares_memory", "errstate", "vectorize", "einsum",
    "einsum_path", "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
    "nanargmax", "nanargmin", "nan_to_num", "isposinf", "isneginf", "average", "median",
    "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile", "cov", "corrcoef",
    "isclose", "allclose", "array_equal", "array_equiv", "heaviside", "sinc", "fix", "frexp",
    "ldexp", "modf", "gcd", "lcm", "spacing", "iscomplex", "isreal", "iscomplexobj",
    "isrealobj", "real_if_close", "unwrap", "gradient", "trapezoid", "cross", "kron", "matvec",
    "vecmat", "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
    "isin", "intersect1d", "setdiff1d", "setxor1d", "union1d", "bincount", "digitize",
    "histogram", "histogram_bin_edges", "histogram2d", "histogramdd", "interp", "polyval",
    "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint", "polyfit", "roots",
    "poly", "poly1d", "bartlett", "blackman", "hamming", "hanning", "kaiser", "packbits",
    "unpackbits"
]

# NumPy's functions on host-only dtypes, and the namespaces built on them (eager only)
import numpy as _np  # noqa: E402
from xnp import host_dispatch as _host_dispatch  # noqa: E402
from xnp import char, rec, strings  # noqa: E402
from xnp.tracing.host_arrays import host_class as _host_class  # noqa: E402
_host_dispatch.install(globals(), _np, __all__)  # full paths: NumPy's for host-only dtypes
__all__ += ["bytes_", "character", "clongdouble", "datetime64", "flexible", "longdouble",
            "object_", "str_", "timedelta64", "void", "char", "rec", "strings"]
if hasattr(_np, "float128"):  # where NumPy has them
    from xnp.numpy_api.dtypes import complex256, float128  # noqa: E402,F401
    __all__ += ["float128", "complex256"]
recarray = _host_class(_np.recarray, "xnp")
record = _np.record
busdaycalendar = _np.busdaycalendar
busday_count = _host_dispatch.host_function(_np.busday_count, "busday_count")
busday_offset = _host_dispatch.host_function(_np.busday_offset, "busday_offset")
is_busday = _host_dispatch.host_function(_np.is_busday, "is_busday")
datetime_as_string = _host_dispatch.host_function(_np.datetime_as_string, "datetime_as_string")
datetime_data = _host_dispatch.host_function(_np.datetime_data, "datetime_data")
isnat = _host_dispatch.host_function(_np.isnat, "isnat")
fromregex = _host_dispatch.host_function(_np.fromregex, "fromregex")
__all__ += ["recarray", "record", "busdaycalendar", "busday_count", "busday_offset",
            "is_busday", "datetime_as_string", "datetime_data", "isnat", "fromregex"]

from xnp import fft  # noqa: E402  (the xnp.fft namespace)
__all__ += ["fft"]
from xnp import random  # noqa: E402  (the xnp.random namespace)
__all__ += ["random"]
from xnp import linalg  # noqa: E402  (the xnp.linalg namespace)
from xnp import special  # noqa: E402,F401  (the xnp.special namespace: scipy.special names)
__all__ += ["linalg"]
from xnp._array_api_info import __array_namespace_info__, from_dlpack  # noqa: E402
__all__ += ["__array_namespace_info__", "from_dlpack"]
from xnp import dtypes, exceptions, lib, typing  # noqa: E402  (and xnp.testing, on first use)
from xnp.lib import scimath as emath  # noqa: E402  (numpy.emath is numpy.lib.scimath)
for _sub in ("stride_tricks", "scimath", "array_utils"):  # NumPy's for host-only dtypes
    _host_dispatch.install(vars(getattr(lib, _sub)), getattr(_np.lib, _sub),
                           getattr(lib, _sub).__all__)
_host_dispatch.install_lazy(vars(special), "scipy.special", special.__all__, "special")
del _sub
from xnp._namespace_extras import *  # noqa: E402,F403
from xnp._namespace_extras import __all__ as _extras_all, __version__  # noqa: E402
__all__ += ["dtypes", "emath", "exceptions", "lib", "testing", "typing", *_extras_all]

# NumPy's scalar rule at the public boundary (xnp/numpy_api/_scalars.py): where NumPy
# returns a NumPy scalar (a full reduction, a ufunc of scalars, a[0], ...), so does xnp
from xnp.numpy_api import _scalars  # noqa: E402
for _ns, _ref in ((globals(), _np), (vars(linalg), _np.linalg), (vars(special), None),
                  (vars(lib.scimath), _np.emath)):
    _scalars.install(_ns, _ns["__all__"], _ref)
_scalars.install_methods(Array)
del _ns, _ref

# Dask's dispatch for xnp arrays, registered when Dask is imported (never imported here)
from xnp import dask as _dask_support  # noqa: E402
_dask_support.install_import_hook()

# the Array API namespace (x.__array_namespace__()); it reads the names above, so it is last
from xnp import array_api  # noqa: E402


def __getattr__(name):
    # xnp.__array_api_version__ follows the `array_api_version` option (xnp.config)
    if name == "__array_api_version__":
        return config.get("array_api_version")
    if name in ("testing", "polynomial", "ma"):  # imported on first use, as NumPy's are
        import importlib  # noqa: PLC0415

        return importlib.import_module(f"xnp.{name}")
    from xnp._numpy_names_left_out import LEFT_OUT  # noqa: PLC0415
    why = f" ({LEFT_OUT[name]})" if name in LEFT_OUT else ""
    raise AttributeError(f"module 'xnp' has no attribute {name!r}{why}")
