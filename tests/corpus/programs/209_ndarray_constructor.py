import numpy as np

a = np.ndarray((2, 3), dtype=np.int64, buffer=np.arange(6, dtype=np.int64))
print(a)
b = np.empty((2, 2), dtype=np.float32)
b.fill(1.5)
print(b, b.dtype)
c = np.ndarray(shape=(3,), dtype=float, buffer=np.array([1.0, 2.0, 3.0]))
print(c * 2)
