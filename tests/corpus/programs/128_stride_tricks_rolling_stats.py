import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

rng = np.random.default_rng(8)
x = np.round(rng.normal(size=12), 3)
w = sliding_window_view(x, 4)
print(x)
print(np.round(w.mean(axis=1), 6))
print(np.round(w.std(axis=1), 6))
print(np.argmax(w, axis=1))
edges = sliding_window_view(np.arange(10), 2)[::3]
print(edges)
