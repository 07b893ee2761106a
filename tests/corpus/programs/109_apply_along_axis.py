import numpy as np

m = np.array([[5, 1, 4], [2, 8, 3]])
print(np.apply_along_axis(lambda r: r.max() - r.min(), 1, m))
print(np.apply_along_axis(np.sort, 1, m))
print(np.apply_over_axes(np.sum, m, [0, 1]))
print(np.array([np.sum(row) for row in m]))
print(list(map(int, m.sum(axis=0))))
