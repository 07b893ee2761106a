import numpy as np

a = np.array([0.1, 0.2], dtype=np.float32)
print(a.sum(), a.dtype, a.sum().dtype)
print(np.float32(1) / np.float32(3))
print(np.float16(1) + np.float16(0.001))
print(np.array([1.0, 2.0], dtype=np.float16) * 3)
print(np.round(np.array([0.5, 1.5, 2.5, -0.5]), 0))
print(np.around(np.array([1.234, 5.678]), 1))
print(np.floor([-1.5, 1.5]), np.ceil([-1.5, 1.5]), np.trunc([-1.5, 1.5]), np.rint([0.5, 1.5]))
print(np.spacing(np.float32(1.0)), np.nextafter(np.float32(1), np.float32(2)))
