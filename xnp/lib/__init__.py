"""``xnp.lib``: ``stride_tricks``, ``scimath`` (also ``xnp.emath``), ``array_utils``,
``recfunctions``, ``mixins`` and ``NumpyVersion``, as in ``numpy.lib``.

``NumpyVersion``, ``Arrayterator`` and ``mixins.NDArrayOperatorsMixin`` are NumPy's
own objects: they work on any array-like, xnp arrays included. What of ``numpy.lib``
is left out, and why, is listed in ``xnp/_numpy_names_left_out.py``.
"""

from numpy.lib import Arrayterator, NumpyVersion, mixins

from xnp.lib import array_utils, recfunctions, scimath, stride_tricks

__all__ = ["Arrayterator", "NumpyVersion", "array_utils", "mixins", "recfunctions", "scimath",
           "stride_tricks"]
