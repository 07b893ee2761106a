import numpy as np

a = np.arange(6, dtype=np.float32).reshape(3, 2)
print(np.zeros_like(a))
print(np.ones_like(a, dtype=int))
print(np.full_like(a, 7.5))
print(np.full((2, 3), -1))
e = np.empty_like(a)
print(e.shape, e.dtype)
print(np.full(3, True))
