"""TODO: filled in by the slicing family."""

__all__ = []
