"""``xnp.rec``: ``numpy.rec`` on xnp arrays (record arrays: structured data whose fields
read as attributes).

``fromarrays``, ``fromrecords``, ``array``, ``fromstring``, ``fromfile`` are NumPy's, run
eagerly on the host values of their xnp array arguments; the record array they make is
an xnp array holding NumPy's ``recarray`` (``r.x`` and ``r["x"]`` of a numeric field are
ordinary xnp arrays viewing the records, so writes into them reach the records;
``repr`` is NumPy's). ``recarray`` makes one (``isinstance(r, xnp.recarray)`` holds);
``record`` and ``format_parser`` are NumPy's classes. Inside a traced function they
raise ``xnp.errors.HostDtypeError``: XLA has no record type.
"""

import numpy as _np

from xnp import host_dispatch as _host_dispatch

globals().update(_host_dispatch.host_module(_np.rec, "rec"))
__all__ = _host_dispatch.public_names(_np.rec)
