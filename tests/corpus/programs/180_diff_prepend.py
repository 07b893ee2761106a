import numpy as np

x = np.array([3, 5, 9, 10])
print(np.diff(x, prepend=0), np.diff(x, append=x[-1]))
print(np.diff(np.array([[1, 4], [9, 16]]), axis=1, prepend=0))
print(np.diff(np.array([True, True, False])), np.diff(np.array([1.5, 1.0])))
print(np.diff(np.array([1, 2]), n=0))
