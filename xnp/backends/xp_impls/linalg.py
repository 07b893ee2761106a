"""xp implementations of the linalg primitives."""
