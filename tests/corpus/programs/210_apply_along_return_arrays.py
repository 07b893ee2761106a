import numpy as np

m = np.array([[3, 1, 2], [6, 5, 4]])
print(np.apply_along_axis(lambda r: r / r.sum(), 1, m).round(4))
print(np.apply_along_axis(lambda r: [r.min(), r.max()], 1, m))
print(np.apply_along_axis(lambda c: np.diff(c), 0, m))
print(np.apply_along_axis(np.cumsum, 1, m))
