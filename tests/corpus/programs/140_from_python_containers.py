import numpy as np

print(np.array(range(5)))
print(np.array([np.arange(2), np.arange(2) + 5]))
print(np.asarray((1, 2.5, 3)))
print(np.array([[True, 2], [3, 4]]).dtype)
print(np.array([1, 2.0, 3j]).dtype)
print(np.array(3.5).ndim, np.array([]).dtype, np.array([[]]).shape)
print(np.sum([x * x for x in range(4)]))
print(np.concatenate([[1, 2], [3], (4, 5)]))
