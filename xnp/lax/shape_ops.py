"""TODO: filled in by the shape_ops family."""

__all__ = []
