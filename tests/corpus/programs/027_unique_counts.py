import numpy as np

a = np.array([3, 1, 2, 3, 3, 1, 7])
print(np.unique(a))
vals, counts = np.unique(a, return_counts=True)
print(vals, counts)
vals, first, inv = np.unique(a, return_index=True, return_inverse=True)
print(first, inv)
print(vals[inv])
m = np.array([[1, 2], [3, 4], [1, 2]])
print(np.unique(m, axis=0))
print(vals[np.argmax(counts)])
