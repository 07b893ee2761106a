import numpy as np

a = np.array([[True, False], [True, True]])
print(a.all(), a.any(), a.all(axis=0), a.any(axis=1))
print(np.logical_and(a, ~a).any())
print(np.logical_xor([True, False], [True, True]))
x = np.array([1, 2, 3])
print(np.array_equal(x, [1, 2, 3]), np.array_equiv(x, [[1, 2, 3], [1, 2, 3]]))
print(np.all(np.diff(x) > 0))
print(np.isscalar(3.0), np.isscalar(x), np.ndim(x), np.size(x), np.shape([[1, 2]]))
print(bool(np.array([0])), len(np.zeros((4, 2))))
