import numpy as np

a = np.array([1, 2, 3])
print(np.tile(a, 3))
print(np.tile(a, (2, 2)))
print(np.repeat(a, 2))
print(np.repeat(a, [3, 0, 1]))
m = np.array([[1, 2], [3, 4]])
print(np.repeat(m, 2, axis=0))
print(np.kron(np.eye(2, dtype=int), m))
