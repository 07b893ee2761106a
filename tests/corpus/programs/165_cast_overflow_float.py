import numpy as np

print(np.array([1e40, -1e40]).astype(np.float32))
print(np.array([1.5, 65504.0, 1e5]).astype(np.float16))
print(np.array([3.99, -3.99]).astype(np.int32))
print(np.array([1, 2, 3], dtype=np.int64).astype(np.float32).dtype)
print(np.array([True, False]).astype(np.float64))
print(np.array([0.5 + 1j]).real.dtype, np.array([1j]).astype(np.complex64).dtype)
