"""xp implementations of the reductions primitives."""
