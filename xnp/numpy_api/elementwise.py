"""Elementwise functions (NumPy ufuncs) on ``xnp.lax``."""

from __future__ import annotations

from xnp import lax
from xnp.numpy_api._util import binary_operands, write_out

__all__ = ["add", "subtract", "multiply", "greater"]


def add(x1, x2, /, out=None, *, where=True, dtype=None):
    """Elementwise ``x1 + x2`` with NumPy broadcasting and NEP 50 promotion."""
    a, b, _ = binary_operands("add", x1, x2)
    return write_out("add", out, lax.add(a, b))


def subtract(x1, x2, /, out=None, *, where=True, dtype=None):
    a, b, _ = binary_operands("subtract", x1, x2)
    return write_out("subtract", out, lax.sub(a, b))


def multiply(x1, x2, /, out=None, *, where=True, dtype=None):
    a, b, _ = binary_operands("multiply", x1, x2)
    return write_out("multiply", out, lax.mul(a, b))


def greater(x1, x2, /, out=None, *, where=True, dtype=None):
    a, b, _ = binary_operands("greater", x1, x2)
    return write_out("greater", out, lax.gt(a, b))
