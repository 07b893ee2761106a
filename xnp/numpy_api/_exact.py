"""NumPy's rounding of each floating-point operation, kept in compiled code.

NumPy rounds the result of every operation. XLA may not: its CPU backend contracts a
multiply feeding an add or subtract into one fused multiply-add (the product is not
rounded), and its simplifier reassociates constant adds (``(a + c1) - c2`` becomes
``a + (c1 - c2)``). Where a result must equal NumPy's bit for bit (the virtual indices and
interpolation of the quantile functions, ``arange``'s values), :func:`rounded` marks a value
to be kept as computed.
"""

from __future__ import annotations

import numpy as np

from xnp import lax
from xnp.tracing import core

__all__ = ["rounded"]


def rounded(p):
    """``p`` (a real floating array) as computed, rounded to its dtype, before the
    operation that uses it.

    Eagerly (one operation at a time, each rounded) ``p`` itself. Staged, a select that
    gives ``p`` either way, ``p + p`` where its bits are a NaN's, else ``p``: XLA neither
    folds nor fuses across it. (The test is on the integer bits: LLVM folds a float
    ``p != p`` to false where it knows ``p`` is not NaN, ``iota * c`` say, and the select
    with it.)
    """
    if core.is_eager(core.current_trace()):
        return p
    dt = core.aval_of(p).dtype
    idt = np.dtype(f"i{dt.itemsize}")
    magnitude = lax.and_(lax.bitcast_convert_type(p, idt),
                         core.lift(np.asarray(np.iinfo(idt).max, idt)))
    nan = lax.gt(magnitude, core.lift(np.asarray(np.array(np.inf, dt).view(idt), idt)))
    return lax.select_n(nan, p, lax.add(p, p))
