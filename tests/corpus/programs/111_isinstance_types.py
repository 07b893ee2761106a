import numpy as np

a = np.arange(3)
print(isinstance(a, np.ndarray), type(a).__name__)
print(isinstance(a[0], np.integer), isinstance(a[0], np.generic))
print(type(a[0]).__name__, type(a.sum()).__name__, type(a.mean()).__name__)
print(type(np.float32(1) + 1).__name__)
print(a.dtype == np.int64, a.dtype.type is np.int64)
print(isinstance(np.float64(1.0), float), isinstance(np.int64(1), int))
print(np.ndim(a[0]), np.shape(a[0]))
