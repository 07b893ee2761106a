"""TODO: filled in by the reductions family."""

__all__ = []
