"""Build step for xnp's native helpers (metadata lives in pyproject.toml).

``xnp._native._aligned_alloc`` is a NumPy data-memory handler with 64-byte
alignment, so that jaxlib's CPU client can pass eager arrays to compiled code
without a copy. It is optional: when no C compiler is available the build goes
on without it and xnp copies such arguments instead.

``xnp._native._array_base`` is the storage of an eager array (its slots and its
constructor in C). Also optional: ``xnp.tracing.core`` falls back to the same class
written in Python.

``xnp._native._replay`` is the hit path of the eager dispatch cache
(``xnp/numpy_api/_replay.py``). Optional too: the same path runs in Python without it.
"""

import numpy
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "xnp._native._aligned_alloc",
            ["xnp/_native/aligned_alloc.c"],
            include_dirs=[numpy.get_include()],
            optional=True,
        ),
        Extension("xnp._native._array_base",
                  ["xnp/_native/array_base.c", "xnp/_native/elide.c",
                   "xnp/_native/setitem.c"],
                  depends=["xnp/_native/array_base.h", "xnp/_native/elide.h",
                           "xnp/_native/setitem.h"],
                  include_dirs=[numpy.get_include()], optional=True),
        Extension("xnp._native._replay",
                  ["xnp/_native/replay.c", "xnp/_native/signature.c", "xnp/_native/program.c",
                   "xnp/_native/user_line.c"],
                  depends=["xnp/_native/array_base.h", "xnp/_native/replay.h"],
                  include_dirs=[numpy.get_include()], optional=True),
    ]
)
