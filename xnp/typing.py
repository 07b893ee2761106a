"""``xnp.typing``: ``ArrayLike``, ``NDArray``, ``DTypeLike`` and ``NBitBase`` for annotations.

``NDArray[scalar]`` is the xnp array type parameterised like ``numpy.typing.NDArray``
(``NDArray[xnp.float64]`` or ``NDArray[numpy.float64]``; ``typing.get_origin`` gives
``xnp.ndarray``). ``ArrayLike`` is NumPy's ``ArrayLike`` plus ``xnp.ndarray``, and
``DTypeLike`` (which covers xnp's scalar types, being types) and ``NBitBase`` are
NumPy's own. As with NumPy's, these are for annotations: ``isinstance`` against a
parameterised ``NDArray`` raises ``TypeError``; check ``isinstance(x, xnp.ndarray)``.
"""

import typing

import numpy as np
import numpy.typing as _npt

from xnp.tracing.core import Array

__all__ = ["ArrayLike", "DTypeLike", "NBitBase", "NDArray"]

_ScalarT = typing.TypeVar("_ScalarT", bound=np.generic)

#: ``NDArray[scalar_type]``: an xnp array of that scalar type (any shape), the
#: ``types.GenericAlias`` ``xnp.ndarray[...]`` (``__class_getitem__``) makes, as NumPy's
NDArray = Array[tuple[typing.Any, ...], np.dtype[_ScalarT]]
#: anything ``xnp.asarray`` accepts: NumPy's ``ArrayLike`` and xnp arrays
ArrayLike = typing.Union[_npt.ArrayLike, Array]
DTypeLike = _npt.DTypeLike
NBitBase = _npt.NBitBase
