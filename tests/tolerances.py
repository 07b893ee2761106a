"""The one tolerance table of the test suite (per dtype; two kinds of operation).

``elementwise`` is for single elementwise ops; ``reduction`` for reductions,
linear algebra and anything that accumulates (summation order differs between
NumPy and XLA). A per-test override carries a comment saying why.
"""

import ml_dtypes
import numpy as np

_RTOL = {
    # dtype: (elementwise, reduction)
    np.dtype(np.float16): (1e-3, 1e-2),
    np.dtype(ml_dtypes.bfloat16): (1e-2, 5e-2),
    np.dtype(ml_dtypes.float8_e4m3fn): (1.25e-1, 2.5e-1),
    np.dtype(ml_dtypes.float8_e5m2): (2.5e-1, 5e-1),
    np.dtype(np.float32): (1e-6, 1e-4),
    np.dtype(np.float64): (1e-13, 1e-10),
    np.dtype(np.complex64): (1e-6, 1e-4),
    np.dtype(np.complex128): (1e-13, 1e-10),
}


def rtol(dtype, kind: str = "elementwise") -> float:
    """Relative tolerance for ``dtype``; 0 (exact) for bool and integers."""
    pair = _RTOL.get(np.dtype(dtype))
    if pair is None:
        return 0.0
    return pair[0] if kind == "elementwise" else pair[1]


def atol(dtype, kind: str = "elementwise") -> float:
    """Absolute tolerance: the relative one, for values near zero."""
    return rtol(dtype, kind)
