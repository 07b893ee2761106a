"""``xnp.fft``: discrete Fourier transforms with NumPy's ``numpy.fft`` interface.

The functions live in :mod:`xnp.numpy_api.fft` (on :func:`xnp.lax.fft`); this module
is the public namespace, as ``numpy.fft`` is NumPy's. For dtypes XLA has no type for
(longdouble, object) each function runs NumPy's (:mod:`xnp.host_dispatch`).
"""

import numpy as _np

from xnp import host_dispatch as _host_dispatch
from xnp.numpy_api.fft import (fft, fft2, fftfreq, fftn, fftshift, hfft, ifft, ifft2, ifftn,
                                  ifftshift, ihfft, irfft, irfft2, irfftn, rfft, rfft2,
                                  rfftfreq, rfftn)

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2",
           "rfftn", "irfftn", "hfft", "ihfft", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_host_dispatch.install(globals(), _np.fft, __all__)
