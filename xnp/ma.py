"""``xnp.ma`` is ``numpy.ma``: NumPy's masked arrays, used as they are.

A masked array holds NumPy data and a mask and runs on the host, eagerly. xnp arrays
mix with it as NumPy arrays do: ``xnp_array + masked`` (any binary operator whose
reflected form the masked array defines), NumPy's ufuncs and functions on both
(``numpy.add(x, m)``, ``numpy.concatenate([x, m])``) give NumPy's masked results, and
``xnp.ma.masked_array(xnp_array, mask=...)`` reads the xnp array's data. xnp's own
functions and ufuncs refuse a masked array with a ``TypeError`` naming the function and
the argument (they would count the masked elements); ``xnp.asarray(m)`` gives the data
without the mask, as ``numpy.asarray`` does. Masked arrays cannot be traced.
"""

import sys

import numpy.ma

sys.modules[__name__] = numpy.ma
