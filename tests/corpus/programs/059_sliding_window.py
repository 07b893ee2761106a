import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

x = np.arange(8)
w = sliding_window_view(x, 3)
print(w)
print(w.sum(axis=1))
print(w.max(axis=-1))
m = np.arange(16).reshape(4, 4)
patches = sliding_window_view(m, (2, 2))
print(patches.shape)
print(patches[1, 2])
print(patches.mean(axis=(-1, -2)))
print(sliding_window_view(x, 4)[::2])
