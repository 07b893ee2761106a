import numpy as np

a = np.array([1.5, 2.5])
print(a[0], a.sum(), a.max(), [a[0], a[1]])
print(f"{a[0]:.3f} {np.int64(42):5d} {np.float32(0.1)}")
print(np.arange(3).tolist(), list(np.arange(3)))
print(np.mean([1, 2, 3, 4]), np.median([3, 1, 2]))
print(tuple(np.array([1, 2])), np.float64(3.0) == 3)
print(sum(np.arange(4)), max(np.arange(4)), sorted(np.array([3, 1, 2])))
