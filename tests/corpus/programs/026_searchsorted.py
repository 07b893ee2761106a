import numpy as np

edges = np.array([0, 10, 20, 30])
x = np.array([-5, 0, 5, 10, 25, 30, 35])
print(np.searchsorted(edges, x))
print(np.searchsorted(edges, x, side="right"))
print(np.searchsorted([3, 1, 2], 2, sorter=[1, 2, 0]))
print(np.argmax([1, 7, 7, 2]), np.argmin([4, 0, 0, 9]))
m = np.array([[1, 9, 3], [8, 2, 7]])
print(np.argmax(m, axis=1), np.unravel_index(np.argmax(m), m.shape))
print(np.ravel_multi_index(([1, 0], [2, 1]), (2, 3)))
