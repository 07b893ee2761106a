"""``xnp.strings``: ``numpy.strings`` on xnp arrays (NumPy 2's string functions).

Every function (ufuncs such as ``str_len`` and ``add`` included) is NumPy's, run eagerly
on the host values of its xnp array arguments, with NumPy's result returned as xnp
values: string arrays as xnp arrays of NumPy's string dtype (``<U``, ``|S``,
``StringDType``), numeric ones as ordinary xnp arrays that go on into ``jit``
(:mod:`xnp.host_dispatch`). Inside a traced function they raise
``xnp.errors.HostDtypeError``: XLA has no string type.
"""

import numpy as _np

from xnp import host_dispatch as _host_dispatch

globals().update(_host_dispatch.host_module(_np.strings, "strings"))
__all__ = _host_dispatch.public_names(_np.strings)
