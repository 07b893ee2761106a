import numpy as np

x = np.full(10, 0.1)
print(x.sum(), np.sum(x, dtype=np.float32), np.add.reduce(x))
print(np.cumsum(x)[-1])
y = np.arange(1, 1001, dtype=np.float32)
print(y.sum(), y.mean(), y.dtype)
print(np.float32(16777216) + np.float32(1))
print(np.sum(np.ones(10**6, dtype=np.float32)))
