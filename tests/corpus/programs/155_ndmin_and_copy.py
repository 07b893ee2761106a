import numpy as np

print(np.array([1, 2], ndmin=3).shape)
a = np.arange(3.0)
b = a.astype(np.float64, copy=False)
print(b is a)
c = np.array(a, copy=None)
print(np.shares_memory(a, c))
try:
    np.array([1, 2], dtype=np.float32).astype(np.int32, copy=False)
    print("ok")
except ValueError as e:
    print("ValueError")
print(np.asarray([1, 2], dtype=np.int8).dtype, np.asanyarray([3.0]).dtype)
