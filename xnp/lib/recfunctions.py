"""``xnp.lib.recfunctions``: ``numpy.lib.recfunctions`` on xnp arrays (adding, dropping,
renaming, merging and joining the fields of structured arrays; ``structured_to_unstructured``
and back).

Every function is NumPy's, run eagerly on the host values of its xnp array arguments; a
structured result is an xnp array holding NumPy's array, a numeric one
(``structured_to_unstructured``) an ordinary xnp array, a view NumPy returns a view of the
same memory. Inside a traced function they raise ``xnp.errors.HostDtypeError``: XLA has
no record type.
"""

import numpy.lib.recfunctions as _rfn

from xnp import host_dispatch as _host_dispatch

globals().update(_host_dispatch.host_module(_rfn, "lib.recfunctions"))
__all__ = _host_dispatch.public_names(_rfn)
