"""``xnp.char``: ``numpy.char`` on xnp arrays (legacy string operations, ``chararray``).

Every function is NumPy's, run eagerly on the host values of its xnp array arguments,
with NumPy's result returned as xnp values: string arrays as xnp arrays of NumPy's
string dtype, numeric ones (``str_len``, ``find``, ``count``, comparisons) as ordinary
xnp arrays that go on into ``jit`` (:mod:`xnp.host_dispatch`). Inside a traced function
they raise ``xnp.errors.HostDtypeError``: XLA has no string type. ``chararray`` makes
NumPy's ``chararray`` as an xnp array.
"""

import numpy as _np

from xnp import host_dispatch as _host_dispatch

globals().update(_host_dispatch.host_module(_np.char, "char"))
__all__ = _host_dispatch.public_names(_np.char)
