import numpy as np

# multiplication table
t = np.fromfunction(lambda i, j: (i + 1) * (j + 1), (5, 5), dtype=int)
print(t)
# distance from the centre of a grid
d = np.fromfunction(lambda i, j: np.hypot(i - 2, j - 2), (5, 5))
print(np.round(d, 3))
print(np.fromiter((k * k for k in range(6)), dtype=int))
