"""Lowering rules of the reductions primitives."""
