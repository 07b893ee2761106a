import numpy as np

t = np.array([True, False, True])
print(t.sum(), t.sum().dtype, t.mean(), np.cumsum(t))
print(t + t, (t + t).dtype, t * 3)
print(~t, t ^ True, t & [True, True, False])
try:
    t - t
except TypeError:
    print("TypeError: bool subtract")
print(np.sum([[1, 2], [3, 4]], axis=(0, 1)), np.mean(np.arange(4)).dtype)
print(np.mean(np.arange(4, dtype=np.float32)).dtype, np.mean(np.arange(4), dtype=np.float32))
