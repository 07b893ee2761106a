"""JAX for the comparison rows of the benchmarks, when it is installed.

This module is the only place that imports ``jax`` (it comes with the optional
``bench`` extra, which ``make bench`` installs into its own ``.venv-bench``).
:func:`load` returns the ``jax`` module with 64-bit types enabled, so the
comparisons are float64 on both sides, or None when JAX is absent; every
benchmark then leaves its JAX rows out and says so.
"""

from __future__ import annotations

__all__ = ["load", "put", "version_line", "MISSING"]

MISSING = "JAX not installed: no JAX rows"

_STATE = {}


def load():
    """The ``jax`` module with ``jax_enable_x64`` set, or None if it cannot be imported."""
    if "jax" not in _STATE:
        try:
            import jax  # noqa: PLC0415
        except ImportError:
            jax = None
        if jax is not None:
            jax.config.update("jax_enable_x64", True)
        _STATE["jax"] = jax
    return _STATE["jax"]


def put(*arrays):
    """``jax.device_put`` of each array, waited for (a tuple, or one array for one)."""
    jax = load()
    out = tuple(jax.device_put(a).block_until_ready() for a in arrays)
    return out[0] if len(out) == 1 else out


def version_line() -> str:
    jax = load()
    if jax is None:
        return "JAX not installed"
    import jaxlib  # noqa: PLC0415

    platform = jax.devices()[0].platform
    return f"JAX {jax.__version__} (jaxlib {jaxlib.__version__}, x64 on, {platform})"
