"""xp implementations of the shape_ops primitives."""
