"""Build step for xnp's one native helper (metadata lives in pyproject.toml).

``xnp._native._aligned_alloc`` is a NumPy data-memory handler with 64-byte
alignment, so that jaxlib's CPU client can pass eager arrays to compiled code
without a copy. It is optional: when no C compiler is available the build goes
on without it and xnp copies such arguments instead.
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
        )
    ]
)
