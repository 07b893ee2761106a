"""xp implementations of the slicing primitives."""
