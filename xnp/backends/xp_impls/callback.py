"""Eager rule of ``io_callback``: call the host function now.

A ``Primitive.impl`` rule (the function runs on NumPy arrays whatever the eager backend):
the operands' host values go in, and each result, checked against the declared avals by
the :class:`~xnp.lax.callback.HostCallback`, comes back as a new eager array (a copy,
so it never shares memory with an array the callback keeps or was given).
"""

from __future__ import annotations

import numpy as np

from xnp.lax.callback import io_callback_p
from xnp.tracing import core

__all__: list = []


def _host(x):
    if type(x) is core.Array:
        return x._value
    return np.asarray(x)


def _io_callback_impl(*args, callback):
    outs = callback(*[_host(a) for a in args])
    return [core.Array(np.array(o, copy=True), a.weak_type)
            for o, a in zip(outs, callback.result_avals)]


io_callback_p.impl = _io_callback_impl
