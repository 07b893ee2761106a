"""``x.at[idx]``: JAX-style functional index updates and reads with an explicit
out-of-bounds ``mode`` (the indexing machinery is in :mod:`xnp.numpy_api._index_core`)."""

from __future__ import annotations

from xnp import _default_dtypes
from xnp import lax
from xnp.lax.slicing import GatherScatterMode
from xnp.numpy_api._index_core import _gather_entries, _parse, _write
from xnp.numpy_api._util import asarray_for
from xnp.tracing import core

__all__ = ["AtIndexer"]


class AtIndexer:
    """``x.at``: ``x.at[idx]`` gives an object with functional updates (as in JAX)."""

    __slots__ = ("_x",)

    def __init__(self, x):
        self._x = x

    def __getitem__(self, idx):
        return _IndexUpdateRef(self._x, idx)

    def __repr__(self):
        return f"AtIndexer({self._x!r})"


class _IndexUpdateRef:
    """``x.at[idx]``: ``get``, ``set``, ``add``, ``subtract``, ``multiply``, ``min``, ``max``.

    Every method returns a new array; ``x`` is never modified. The value is cast
    to ``x.dtype``. Unlike ``x[idx] += v``, repeated indices all contribute to
    ``add``/``multiply``/``min``/``max`` (``numpy.add.at`` semantics); for ``set``
    the last write wins eagerly and on CPU.

    ``mode``: ``None`` (default): a concrete out-of-bounds index raises
    ``IndexError`` (NumPy), a traced one is clamped by ``get`` and dropped by
    updates. ``"clip"``: clamp into range. ``"fill"``/``"drop"``: ``get`` gives
    ``fill_value`` (default NaN, the integer minimum, or True), updates are
    dropped. ``"promise_in_bounds"``: no checks (what XLA does otherwise: clamp
    for ``get``, drop for updates). Negative indices count from the end first.
    ``indices_are_sorted``/``unique_indices`` are accepted for JAX compatibility
    and have no effect.
    """

    __slots__ = ("_x", "_idx")

    def __init__(self, x, idx):
        self._x = x
        self._idx = idx

    def _entries(self, mode, defer_arrays=False):
        return _parse(core.aval_of(self._x).shape, self._idx, check=mode is None,
                      defer_arrays=defer_arrays)[0]

    def get(self, *, indices_are_sorted=False, unique_indices=False, mode=None, fill_value=None):
        """``x[idx]`` as a new array (a gather), with ``mode``/``fill_value`` as above."""
        if mode is None:
            return _gather_entries(self._x, self._entries(None))
        mode = GatherScatterMode.from_any(mode)
        return _gather_entries(self._x, self._entries(mode), mode, fill_value)

    def _update(self, kind, values, mode):
        mode = None if mode is None else GatherScatterMode.from_any(mode)
        return _write(self._x, self._entries(mode, True), values, kind, mode,
                      check_arrays=mode is None)

    def set(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``x[idx] = values``."""
        return self._update("set", values, mode)

    def add(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``values`` added at ``idx`` (repeated indices accumulate)."""
        return self._update("add", values, mode)

    def subtract(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``values`` subtracted at ``idx`` (repeated indices accumulate)."""
        dt = core.aval_of(self._x).dtype
        if core.is_python_scalar(values):
            v = core.lift(_default_dtypes.scalar_to_ndarray(values, dt))
        else:
            v = asarray_for("at.subtract", values, "values")
            if core.aval_of(v).dtype != dt:
                v = lax.convert_element_type(v, dt)
        return self._update("add", lax.neg(v), mode)

    def multiply(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with the elements at ``idx`` multiplied by ``values``."""
        return self._update("multiply", values, mode)

    def min(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``minimum(x[idx], values)`` at ``idx``."""
        return self._update("min", values, mode)

    def max(self, values, *, indices_are_sorted=False, unique_indices=False, mode=None):
        """``x`` with ``maximum(x[idx], values)`` at ``idx``."""
        return self._update("max", values, mode)
