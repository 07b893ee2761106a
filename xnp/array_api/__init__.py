"""``xnp.array_api``: xnp as a strict Array API namespace (what ``x.__array_namespace__()``
returns).

It has exactly the standard's names (``__array_api_version__``,
``__array_namespace_info__``, the functions, dtypes and constants, and the ``linalg`` and
``fft`` extensions; and ``special``, xnp's SciPy-named special functions, the extension
SciPy reads from a namespace when it has one), and they are xnp's own, with two differences from the ``xnp``
namespace, where the standard and NumPy disagree:

* ``linalg.eig`` and ``linalg.eigvals`` are always complex; ``xnp.linalg``'s are real
  eagerly when every eigenvalue is real, as NumPy's.
* Every function's result goes through one hook that turns a NumPy scalar
  (``numpy.generic``) into a 0-d xnp array, so reductions and integer indexing results
  are arrays of this namespace, as the standard requires.

``import xnp`` imports it. The names are listed once, in ``_table.NAMES``;
``__array_api_version__`` is the ``array_api_version`` option (``xnp.config``).
"""

from xnp import config as _config
from xnp.array_api import _table

globals().update(_table.members(""))
from xnp.array_api import fft, linalg, special  # noqa: E402

__all__ = [*_table.NAMES[""], "fft", "linalg", "special"]


def __getattr__(name):
    # __array_api_version__ follows the `array_api_version` option, as xnp's does
    if name == "__array_api_version__":
        return _config.get("array_api_version")
    raise AttributeError(f"module 'xnp.array_api' has no attribute {name!r} (the Array API "
                         "namespace has the standard's names only; xnp has NumPy's)")


def __dir__():
    return sorted([*__all__, "__array_api_version__"])
