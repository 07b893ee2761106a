"""Elementwise primitives: arithmetic, comparisons, logical/bitwise, transcendental,
and ``convert_element_type``. Strict: equal dtypes (see ``_kit``)."""

from __future__ import annotations

import numpy as np

from xnp.lax import _kit as kit
from xnp.tracing import Array, Primitive, ShapedArray

__all__ = ["add", "sub", "mul", "neg", "gt", "convert_element_type", "add_p", "sub_p", "mul_p",
           "neg_p", "gt_p", "convert_element_type_p"]

add_p = kit.binary("add", kit.NUMERIC)
sub_p = kit.binary("sub", kit.NUMERIC)
mul_p = kit.binary("mul", kit.NUMERIC)
neg_p = kit.unary("neg", kit.NUMERIC)
gt_p = kit.compare("gt", kit.REAL_OR_BOOL)


def add(x: Array, y: Array) -> Array:
    """``x + y`` elementwise; equal dtypes, shapes equal up to size-1/rank-0 broadcasting."""
    return add_p.bind(x, y)


def sub(x: Array, y: Array) -> Array:
    """``x - y`` elementwise."""
    return sub_p.bind(x, y)


def mul(x: Array, y: Array) -> Array:
    """``x * y`` elementwise."""
    return mul_p.bind(x, y)


def neg(x: Array) -> Array:
    """``-x`` elementwise."""
    return neg_p.bind(x)


def gt(x: Array, y: Array) -> Array:
    """``x > y`` elementwise; bool result."""
    return gt_p.bind(x, y)


def _convert_shape(x, *, new_dtype, weak_type):
    return x.shape


def _convert_dtype(x, *, new_dtype, weak_type):
    kit.check_dtype("convert_element_type", ShapedArray((), new_dtype), kit.ALL, "new_dtype")
    return new_dtype


def _convert_weak(*weak_types, new_dtype, weak_type):
    return weak_type


convert_element_type_p = Primitive(
    "convert_element_type", shape=_convert_shape, dtype=_convert_dtype, weak_type=_convert_weak)


def convert_element_type(x: Array, new_dtype, weak_type: bool = False) -> Array:
    """Cast ``x`` to ``new_dtype`` (NumPy ``astype`` semantics, ``unsafe`` casting).

    Shape: ``x.shape``. ``weak_type`` marks the result as coming from a Python scalar.
    """
    return convert_element_type_p.bind(x, new_dtype=np.dtype(new_dtype), weak_type=bool(weak_type))
