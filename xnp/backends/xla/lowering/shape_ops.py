"""Lowering rules of the shape_ops primitives."""
