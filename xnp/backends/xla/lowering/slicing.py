"""Lowering rules of the slicing primitives."""
