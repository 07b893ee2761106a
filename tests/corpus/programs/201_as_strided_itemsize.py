import numpy as np
from numpy.lib.stride_tricks import as_strided

a = np.arange(12, dtype=np.int64)
k = a.itemsize
print(as_strided(a, shape=(5, 4), strides=(2 * k, k)))
print(as_strided(a, shape=(3, 3), strides=(0, k)))
m = np.arange(16, dtype=np.float64).reshape(4, 4)
row, col = 4 * m.itemsize, m.itemsize
blocks = as_strided(m, shape=(2, 2, 2, 2), strides=(2 * row, 2 * col, row, col))
print(blocks[1, 0])
print(blocks.sum(axis=(2, 3)))
