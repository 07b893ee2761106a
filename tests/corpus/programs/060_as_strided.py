import numpy as np
from numpy.lib.stride_tricks import as_strided

a = np.arange(10, dtype=np.int64)
s = a.strides[0]
frames = as_strided(a, shape=(4, 4), strides=(2 * s, s))
print(frames)
print(a.strides, frames.strides)
print(as_strided(np.arange(6, dtype=np.int64), shape=(3, 2), strides=(16, 8)))
print(as_strided(np.array([1, 2, 3]), shape=(3, 3), strides=(0, 8)))
