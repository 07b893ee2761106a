"""The storage of an eager array (``ArrayBase``: its slots and constructor) and the hooks
through which NumPy's ``ndarray`` constructor and subclass protocol reach it.

``ArrayBase`` is ``xnp/_native/array_base.c`` when built, else the Python class below.
``ArrayBase(value, weak_type=False, dev=None, aval=None)`` is how xnp makes an array; the
same call with a shape first (an int, a sequence, one of the registered shape classes),
NumPy's keywords or more than four arguments is NumPy's ``ndarray(shape, dtype, buffer,
offset, strides, order)``, handed to :mod:`xnp.ndarray_class`'s constructor (set by ``xnp._wiring.connect``).
"""

from __future__ import annotations

from typing import Callable

from xnp.tracing.errors import not_connected

__all__ = ["ArrayBase", "FastFunc", "register_ndarray_hooks", "subclass_hook", "set_access_hook",
           "configure_setitem"]


#: NumPy's constructor ``fn(self, *args, **kwargs)``, the classes of a shape, and
#: ``fn(cls)`` run for each user subclass (the C base class keeps its own copy of the
#: first two)
_CONSTRUCTOR: list = [not_connected("NumPy's ndarray constructor and subclass protocol",
                                    "array_base.register_ndarray_hooks")]
_SHAPE_TYPES: list = [frozenset((int, tuple, list, range))]
_SUBCLASS_HOOK: list = [_CONSTRUCTOR[0]]


try:  # the slots and constructor in C (setup.py builds it when a compiler is there)
    from xnp._native._array_base import ArrayBase
    from xnp._native._array_base import set_constructor as _set_constructor
    from xnp._native._array_base import FastFunc
    #: ``set_access_hook(hook)``: ``hook(array)`` runs before every read and write of an
    #: array's ``_val`` from Python (None: stop); ``_v`` reads the slot unwatched. None
    #: where the C module is not built (``_val`` is then a plain slot, not watched).
    from xnp._native._array_base import set_access_hook
    #: ``configure_setitem(scopes, rebound)``: ``FastFunc(..., arity=3)`` serves item
    #: assignments while both lists hold 0 (None where the C module is not built)
    from xnp._native._array_base import configure_setitem
except ImportError:
    FastFunc = None  # the fast paths of fastpath.unary/binary stay Python functions
    set_access_hook = None
    configure_setitem = None

    class ArrayBase:
        """The storage of an eager array: ``xnp/_native/array_base.c`` in Python."""

        __slots__ = ("_val", "_dev", "_read", "_weak", "_aval", "_host_memo", "__weakref__")

        def __init__(self, *args, **kwargs):
            if kwargs or not 1 <= len(args) <= 4 or args[0].__class__ in _SHAPE_TYPES[0]:
                _CONSTRUCTOR[0](self, *args, **kwargs)  # NumPy's ndarray(shape, ...)
                return
            self._val = args[0]
            self._weak = args[1] if len(args) > 1 else False
            self._dev = args[2] if len(args) > 2 else None
            self._aval = args[3] if len(args) > 3 else None  # cached: writes keep it
            self._host_memo = None

        def __buffer__(self, flags):  # the buffer protocol from Python 3.12 (PEP 688)
            return memoryview(self._buffer_memory(flags))

    ArrayBase._v = ArrayBase.__dict__["_val"]  # the same slot (the C class's unwatched read)

    def _set_constructor(constructor, shape_types) -> None:
        """The C module's registration; the Python class reads the lists above."""


def subclass_hook(cls) -> None:
    """Run the registered hook for ``cls``, a new user subclass of ``xnp.ndarray``."""
    _SUBCLASS_HOOK[0](cls)


def register_ndarray_hooks(constructor: Callable, subclass_hook: Callable,
                           shape_types=()) -> None:
    """Set the hooks of NumPy's ``ndarray`` protocol: ``constructor(self, *args,
    **kwargs)`` for NumPy's constructor form (``shape_types``: classes of a shape besides
    int, tuple, list and range) and ``subclass_hook(cls)`` for each user subclass."""
    _CONSTRUCTOR[0] = constructor
    _SUBCLASS_HOOK[0] = subclass_hook
    shapes = frozenset((int, tuple, list, range, *shape_types))
    _SHAPE_TYPES[0] = shapes
    _set_constructor(constructor, shapes)
