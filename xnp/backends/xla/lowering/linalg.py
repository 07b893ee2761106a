"""Lowering rules of the linalg primitives."""
