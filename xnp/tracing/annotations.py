"""Per-object annotations of traces and tracers: what the layers above derive about one
trace or one traced value, kept on that object so that it lives and dies with it.

``Trace`` and ``Tracer`` (:mod:`xnp.tracing.core`) derive from :class:`Annotated`; each
keeps its dict in an ``_annotations`` attribute (a slot on tracers), None until first
used. The keys are names the annotating layer chooses (``xnp.numpy_api._views`` keeps a
traced array's live views under ``"views"``, ``xnp.numpy_api._layout`` its modelled
memory layout under ``"layout"``); this layer reads none of them.
"""

from __future__ import annotations

__all__ = ["Annotated"]


class Annotated:
    """Gives a class :meth:`annotations` and :meth:`annotation` over its ``_annotations``
    attribute (None or a dict). A trace or tracer is used by the one thread tracing it."""

    __slots__ = ()

    def annotations(self) -> dict:
        """This object's annotations (made on first use)."""
        a = self._annotations
        if a is None:
            a = self._annotations = {}
        return a

    def annotation(self, name: str, default=None):
        """The annotation ``name``, or ``default``; makes no dict."""
        a = self._annotations
        return default if a is None else a.get(name, default)
